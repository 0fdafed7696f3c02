"""`--format html` of every command: the page parsed (sections, inline figures, no external reference, hostile
labels escaped in the page and in its figures, every metric link resolved), the glossary read from the
catalogue, the key numbers as the text output rounds them; the extras named when a dependency is missing."""

from __future__ import annotations

import html as htmllib
import re
import sys

import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("jinja2")

from clfeval.core import _catalog as catalog  # noqa: E402
from clfeval.render.html.glossary import anchor  # noqa: E402
from tests._helpers.clihelp import run  # noqa: E402
from tests._helpers.htmlcheck import check_page  # noqa: E402
from tests._helpers.htmlpages import HOSTILE  # noqa: E402

#: Per page: the figures (inline <svg>) it must hold and section titles (h2, by their start) it must show, in
#: order — the summary first, then the tables of the text output with their figures, notes, glossary, signature.
EXPECTED = {
    "report": (5, ["Summary", "Confusion matrix", "Per class", "Averages", "Overall", "Baselines", "Reading the errors",
                   "Ranking", "Glossary", "Signature"]),
    "report-binary": (5, ["Summary", "Confusion matrix", "Per class", "Averages", "Overall", "Binary summary",
                          "Baselines", "Ranking", "Notes", "Glossary", "Signature"]),
    "report-by": (4, ["Summary", "Confusion matrix", "Per class", "Averages", "Overall", "Binary summary",
                      "Baselines", "By slice", "Glossary", "Signature"]),  # issue 26: the forest plot under By slice
    "report-multilabel": (2,
                          ["Summary", "No confusion matrix", "Per class", "Averages", "Overall", "Baselines", "Notes",
                              "Glossary", "Signature"]),
    "compare": (2, ["Summary", "Results", "paired bootstrap", "Glossary", "Signature"]),
    "compare-many": (4, ["Summary", "Scores", "Pairs", "Distributions of δ", "The systems in the φ–δ diagram", "Notes",
                         "Glossary", "Signature"]),
    "threshold": (1, ["Summary", "Measured on the test data", "Notes", "Glossary", "Signature"]),
    "threshold-multilabel": (1, ["Summary", "Per label", "Averages before and after tuning", "Notes", "Glossary",
                                 "Signature"]),
    "calibration": (1, ["Summary", "Reliability table", "Calibration measures", "Notes", "Glossary", "Signature"]),
    "calibration-multiclass": (1, ["Summary", "Reliability table", "Calibration measures", "Glossary", "Signature"]),
    "cv": (4, ["Summary", "Test metrics over all 4 folds", "Per fold", "Baselines per fold", "Pooled out-of-fold",
               "Glossary", "Signature"]),
    "holdout": (4, ["Summary", "Test metrics over all 3 repeats", "Per repeat", "Baselines", "Pooled out-of-fold",
                    "Glossary", "Signature"]),
    "runs-show": (0, ["Summary", "Settings", "Metrics over folds", "Per fold", "Glossary", "Signature"]),
    "demo-bootstrap": (1, ["Summary", "Overview", "Ten test documents", "Bootstrap distribution of δ", "The 2δ rule",
                           "Signature"]),
    "metrics": (0, ["Summary", "Overview", "Computed from count tables", "Computed from a ranking of scores",
                    "Computed from predicted probabilities", "Glossary", "Signature"]),
    "demo-report": (9, ["Summary", "Report · Confusion matrix", "Report · Per class", "Report · Baselines",
                        "Report · Ranking", "Threshold · Measured on the test data", "Calibration · Reliability table",
                        "A against B · Side by side", "A against B · Results", "A against B · paired bootstrap",
                        "Notes", "Glossary", "Signature"]),
    "rank": (2, ["Summary", "Average ranks (1 = best; ties share mid-ranks)",
                 "Friedman test — H0: all systems perform alike; α = 0.05",
                 "Pairs — A ranked better than B; d = A − B on each data set (positive: A better)",
                 "Bayesian signed-rank test — ROPE ±0.01, 2,000 samples, seed 0", "Scores (accuracy) per data set",
                 "Notes and undefined values", "Signature"]),
}


def _titles(text: str) -> list[str]:
    return [htmllib.unescape(re.sub(r"<[^>]+>", "", t)) for t in re.findall(r"<h2>(.*?)</h2>", text)]


def _svgs(text: str) -> list[str]:
    return re.findall(r"<svg\b.*?</svg>", text, re.S)


def test_every_command_writes_a_self_contained_page(command_pages):
    for name, page in command_pages.items():
        text = page.html.read_text(encoding="utf-8")
        p = check_page(text)
        figures, titles = EXPECTED.get(name, (0, ["Summary", "Signature"]))
        assert p.figures == p.figure_svgs == figures == len(_svgs(text)), name
        shown = _titles(text)
        at = 0
        for want in titles:  # in this order
            found = [i for i, t in enumerate(shown) if i >= at and t.startswith(want)]
            assert found, f"{name}: no section {want!r} after {shown[:at]} in {shown}"
            at = found[0] + 1
        assert shown[0] == "Summary" and shown[-1] == "Signature", name
        for x in page.numbers:  # the JSON's key numbers, as the text output rounds them
            assert htmllib.escape(x, quote=False) in text, (name, x)


def test_hostile_labels_are_text_in_the_page_and_in_its_figures(command_pages):
    for name, page in command_pages.items():
        text = page.html.read_text(encoding="utf-8")
        assert "<script>alert(1)" not in text and '"><img' not in text and "<img" not in text, name
        if not page.hostile:
            continue
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text, name
        if name == "report":  # each label drawn as typed in some figure: no markup, no mathtext, '_' kept
            svgs = "".join(_svgs(text))
            for label in HOSTILE:
                assert htmllib.escape(label, quote=True) in svgs or htmllib.escape(label, quote=False) in svgs, label
            assert "<script" not in svgs and "<img" not in svgs


def test_glossary_entries_are_the_catalogue_entries(command_pages):
    by_anchor = {anchor(m.key): m for m in catalog.METRICS}
    entry = re.compile(r'<dt id="(g-[^"]+)">(.*?)</dt>\s*<dd>(.*?)<br><span class="formula">(.*?)</span><br>'
                       r'<span class="undef">Undefined: (.*?)</span></dd>', re.S)
    seen = set()
    for name, page in command_pages.items():
        text = page.html.read_text(encoding="utf-8")
        found = entry.findall(text)
        links = set(re.findall(r'href="#(g-[^"]+)"', text))
        assert links == {a for a, *_ in found}, name  # an entry for every link, a link to every entry
        for a, head, definition, formula, undefined in found:
            m = by_anchor[a]
            assert htmllib.unescape(formula) == m.formula and htmllib.unescape(undefined) == m.undefined
            assert htmllib.unescape(definition) == m.definition
            direction = {"higher": "higher is better", "lower": "lower is better", "none": "no better direction"}
            assert direction[m.direction] in head
            seen.add(m.key)
    for key in ("accuracy", "macro_f1", "mcc", "roc_auc", "average_precision", "ece", "brier", "f1:LABEL",
                "delta:LABEL",
                "hamming_loss", "npv:LABEL", "macro_f1_of_means"):
        assert key in seen, key


def test_links_only_where_a_header_names_a_metric(command_pages):
    text = command_pages["report"].html.read_text(encoding="utf-8")
    # the classes (user data) in the first column and the confusion matrix's columns never link
    assert not re.search(r'<a class="metric" href="#[^"]+">news</a>', text)
    assert re.search(r'<th scope="row"><a class="metric" href="#g-mcc">Matthews correlation</a></th>', text)
    demo = command_pages["demo-averages"].html.read_text(encoding="utf-8")
    assert 'href="#g-p_value' not in demo and '>P</a>' not in demo  # "P" is precision there, never a p-value


@pytest.mark.parametrize("label,key", [
    ("Matthews correlation", "mcc"), ("macro-F1 (F1 of macro-P, macro-R)", "macro_f1_of_means"),
    ("macro-F1 (mean of per-class F1)", "macro_f1"), ("recall (sensitivity)", "recall:LABEL"), ("F2", "fbeta:LABEL"),
    ("PR-AUC (average precision)", "average_precision"), ("ECE (expected calibration error)", "ece"),
    ("δ = TPR − FPR", "delta:LABEL"), ("δ = A − B", None), ("F1 of class 'spam'", "f1:LABEL"), ("f1:spam", "f1:LABEL"),
    ("mean absolute error (class ranks)", "ordinal_mae"), ("negative predictive value", "npv:LABEL"),
    ("weighted F1", "weighted_f1"), ("p", None), ("P", None), ("class", None), ("this classifier", None),
    ("ΔF1", None), ("Δ", None), ("δ", "delta:LABEL")])
def test_table_labels_name_catalogue_entries(label, key):
    from clfeval.render.html.glossary import metric_of_label

    assert metric_of_label(label) == key


def test_demo_report_is_labelled_synthetic_in_every_format(command_pages):
    page = command_pages["demo-report"]
    assert page.json["synthetic"] is True and "Synthetic data" in page.json["intro"]
    assert "Synthetic data" in page.text and "Synthetic data" in page.html.read_text(encoding="utf-8")
    md = run("demo", "report", "--format", "markdown")
    assert md.code == 0 and "Synthetic data" in md.out
    for heading in ("System A on the test tickets", "A threshold for 'bug'", "Calibration of A's probabilities",
                    "Is A better than B?"):
        assert heading in page.text and heading in md.out


def test_a_missing_extra_is_named(monkeypatch, tmp_path):
    f = tmp_path / "p.csv"
    f.write_text("gold,pred\na,a\nb,a\n", encoding="utf-8")
    out = tmp_path / "r.html"
    for module in ("jinja2", "matplotlib"):
        with monkeypatch.context() as m:
            m.setitem(sys.modules, module, None)  # import fails as when the package is not installed
            res = run("report", f, "--format", "html", "-o", out)
            assert res.code == 2 and "pip install 'clfeval[html]'" in res.err and "Traceback" not in res.err
            assert not out.exists()
            if module == "matplotlib":
                res = run("plot", "confusion", f, "-o", tmp_path / "c.svg")
                assert res.code == 2 and "figures need matplotlib" in res.err and "'clfeval[html]'" in res.err
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "sklearn", None)
        res = run("cv", f, "--text", "gold", "--label", "pred", "--no-log")
        assert res.code == 2 and "needs scikit-learn" in res.err and "pip install 'clfeval[text]'" in res.err
        res = run("reuters", "--archive", tmp_path, "--no-log")
        assert res.code == 2 and "pip install 'clfeval[text]'" in res.err
    assert run("report", f).code == 0  # the light core still works


def test_the_light_core_needs_no_extra():
    from importlib.metadata import requires

    reqs = requires("clfeval") or []
    core = {re.split(r"[<>=!~ ;\[]", r, maxsplit=1)[0].lower() for r in reqs if "extra ==" not in r}
    # duckdb: the id join of compare (issue 21 item 3; io/duckjoin.py), the one path compare always takes
    # regex: a custom --token-pattern of `errors` is matched with a time bound per document (issue 35, E26); the
    # standard library's re has no timeout and errors runs on the core install
    assert core == {"numpy", "pyarrow", "click", "rich", "scipy", "duckdb", "regex"}

    def extra(name: str) -> set[str]:
        return {re.split(r"[<>=!~ ;\[]", r, maxsplit=1)[0].lower() for r in reqs if f'extra == "{name}"' in r}

    assert extra("html") == {"matplotlib", "jinja2", "markupsafe"}
    assert extra("text") == {"scikit-learn", "pystemmer"}
    assert extra("dask") == {"dask", "distributed"}
    assert extra("frame") == {"pandas"}
    assert extra("all") == extra("html") | extra("text") | extra("dask") | extra("frame")


def test_readme_set_up_installs_the_html_extra_and_writes_the_demo_page():
    """The demo page needs the html extra only (issue 24: the quick start used to install every extra, 719 MB)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set up", 1)[1]
    first = re.search(r"```console\n(.*?)\n```", setup, re.S).group(1)
    assert '.venv/bin/pip install ".[html]"' in first
    assert first.rstrip().endswith("clfeval demo report --format html --output clfeval-demo.html")
    assert "Open `clfeval-demo.html`" in setup.split("```", 3)[2]
