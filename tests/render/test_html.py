"""The HTML report: structure (parsed), self-containment, escaping, glossary links, determinism, size,
notebook display, and that text commands import neither matplotlib nor Jinja2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("jinja2")

import clfeval  # noqa: E402
from clfeval.render import render  # noqa: E402
from clfeval.render.html.document import RUN_END, RUN_MARK  # noqa: E402
from tests._helpers.htmlcheck import check_page  # noqa: E402

HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "$x^2$", "_under"]


@pytest.fixture(scope="module")
def hostile_report():
    rng = np.random.default_rng(0)
    labels = HOSTILE + [f"class{i}" for i in range(6)]
    n = 5000
    gold = rng.integers(0, 10, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, 10, n))
    s = rng.random((n, 10))
    s[np.arange(n), gold] += 0.5
    return clfeval.report([labels[i] for i in gold], [labels[i] for i in pred],
                          scores={lab: s[:, j] for j, lab in enumerate(labels)})


def test_report_page_structure_escaping_and_links(hostile_report):
    text = render(hostile_report, "html")
    p = check_page(text, sections=("glossary", "notes"))
    assert p.figures == 5  # confusion, per-class, φ–δ, ROC, PR
    assert "<script>alert(1)" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert '"><img' not in text
    for name in ("accuracy", "precision", "recall", "f1", "roc_auc", "macro_f1"):
        assert f'id="g-{name}"' in text
    assert re.search(r'<th scope="col" class="num"><a class="metric" href="#g-precision">precision</a></th>', text)


def test_pages_of_every_result_type_and_their_notebook_form():
    rng = np.random.default_rng(1)
    y, yd = rng.random(500) < 0.3, rng.random(400) < 0.3
    s, sd = (rng.random(500) + 0.5 * y) / 1.5, (rng.random(400) + 0.5 * yd) / 1.5
    g, gd = np.where(y, "spam", "ham"), np.where(yd, "spam", "ham")
    gold = rng.integers(0, 3, 300)
    a = np.where(rng.random(300) < 0.8, gold, rng.integers(0, 3, 300))
    b = np.where(rng.random(300) < 0.7, gold, rng.integers(0, 3, 300))
    from clfeval.studies._demo import run_demo
    from tests._helpers.planned import example_10

    results = {
        "binary report": (clfeval.report(g, np.where(s > 0.5, "spam", "ham"), positive="spam", scores=s), 5),
        "ranking": (clfeval.ranking(g, s, positive="spam"), 2),
        "threshold": (clfeval.choose_threshold(g, s, positive="spam", dev_gold=gd, dev_scores=sd), 1),
        "calibration": (clfeval.reliability(g, s, positive="spam"), 1),
        "compare": (clfeval.compare(gold, a, b, samples=500), 2),  # the bootstrap; the systems' φ–δ
        "compare many": (clfeval.compare_many(gold, {"a": a, "b": b, "c": gold}, samples=300), 4),  # 3 pairs; φ–δ
        "demo": (run_demo("trap"), 0),
        "cross-validation": (example_10(), 4),  # spread, folds' φ–δ, pooled confusion and φ–δ
    }
    for name, (res, n_figures) in results.items():
        page = check_page(render(res, "html"))
        assert page.figures == n_figures, name
        frag = res._repr_html_()
        assert frag.startswith('<div class="clfeval">')
        check_page(frag, standalone=False, card=True)
        assert str(res) == render(res, "text")


def test_deterministic_apart_from_the_run_block(hostile_report):
    from clfeval.render.html import page

    one = page(hostile_report, generated="2000-01-01 00:00 UTC")
    two = page(hostile_report, generated="2030-12-31 23:59 UTC")
    assert one != two
    mask = re.compile(re.escape(RUN_MARK) + ".*?" + re.escape(RUN_END), re.S)
    assert one.count(RUN_MARK) == 1
    assert mask.sub("", one) == mask.sub("", two)


def test_sizes_of_a_ten_class_report():
    rng = np.random.default_rng(2)
    n = 200_000
    gold = rng.integers(0, 10, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, 10, n))
    labels = [f"class {i}" for i in range(10)]
    g, p = np.array(labels)[gold], np.array(labels)[pred]
    plain = render(clfeval.report(g, p), "html")
    s = rng.random((n, 10))
    s[np.arange(n), gold] += 0.3
    ovr = render(clfeval.report(g, p, scores={lab: s[:, j] for j, lab in enumerate(labels)}), "html")
    assert len(plain.encode()) <= 300_000
    assert len(ovr.encode()) <= 800_000


def test_key_numbers_appear_as_the_text_output_rounds_them(hostile_report):
    text = render(hostile_report, "html")
    d = json.loads(render(hostile_report, "json"))
    for v in (d["accuracy"], d["macro"]["f1"], d["ranking"]["roc_auc"]):
        assert f"{v:.4f}" in text


@pytest.mark.reuters
def test_reuters_study_page(study, tmp_path: Path):
    text = render(study, "html")
    p = check_page(text, sections=("glossary",))
    assert p.figures == 4
    assert len(text.encode()) <= 1_500_000
    (tmp_path / "study.html").write_text(text, encoding="utf-8")


def test_text_report_imports_neither_matplotlib_nor_jinja2(tmp_path: Path):
    f = tmp_path / "p.csv"
    f.write_text("gold,pred\na,a\nb,a\n", encoding="utf-8")
    code = ("import sys\nfrom clfeval.cli import main\n"
            f"try:\n    main(['report', {str(f)!r}])\nexcept SystemExit:\n    pass\n"
            "import clfeval\nr = clfeval.report(['a', 'b'], ['a', 'a'])\nstr(r)\nfrom clfeval.render import render\n"
            "render(r, 'markdown')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('matplotlib', 'jinja2', 'markupsafe')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
    assert "clfeval report" in out.stdout


def test_run_log_pages(tmp_path: Path):
    from clfeval.protocols._runlog import RunLog
    from tests._helpers.planned import example_10

    log = RunLog(tmp_path / "runs.sqlite")
    rid = log.record_result("cv", example_10(), settings={"model": {"name": "planned"}})
    for res in (log.get(rid), log.runs(), log.best("accuracy")):
        text = render(res, "html")
        check_page(text)
        check_page(res._repr_html_(), standalone=False, card=True)
    assert "0.8200" in render(log.get(rid), "html")  # mean accuracy of the five folds (82, 80, 84, 81, 83 %)


def test_same_bytes_in_another_process():
    code = ("import re, numpy as np, clfeval\nfrom clfeval.render.html import page\n"
            "g = ['a', 'b', 'c'] * 50; p = ['a', 'c', 'c'] * 50\n"
            "s = {'a': np.linspace(0, 1, 150), 'b': np.linspace(1, 0, 150), 'c': np.cos(np.arange(150))}\n"
            "print(re.sub('<!-- clfeval:run -->.*?<!-- /clfeval:run -->', '', page(clfeval.report(g, p, scores=s)), "
            "flags=re.S), end='')")
    one = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    two = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert one == two and one.count("<svg") == 5


def test_results_shown_together_in_a_notebook_keep_their_ids_apart():
    """Two results (or one twice) in one notebook page: no element id repeats, and every in-page link and
    SVG reference of a fragment points into that same fragment (a figure must not borrow another's clip path)."""
    import re

    g = ["spam", "ham"] * 20
    s = [0.9, 0.2, 0.6, 0.4] * 10
    res = clfeval.report(g, ["spam", "ham", "ham", "ham"] * 10, scores=s, positive="spam")
    frags = [res._repr_html_(), res._repr_html_(), clfeval.ranking(g, s, positive="spam")._repr_html_()]
    ids = [re.findall(r'\bid="([^"]+)"', f) for f in frags]
    every = [i for one in ids for i in one]
    assert len(every) == len(set(every)), "an id repeats across the fragments of one notebook"
    for f, own in zip(frags, ids, strict=True):
        refs = re.findall(r'href="#([^"]+)"', f) + re.findall(r"url\(#([^)]+)\)", f)
        assert set(refs) <= set(own), set(refs) - set(own)
        assert "<svg" not in f  # every result shows its card (issue 37): its links, if any, stay inside it
    assert 'id="summary"' in render(res, "html")  # a page of its own keeps its plain ids
