"""Issue 18: what the statistics say, said consistently — in every output format, from the command line.

* A borderline comparison (p just below 0.05 while the two-sided percentile interval of δ contains 0, the
  breast-cancer-like case of the issue): the verdict, the summary cards and the rows of the tables agree in
  text, JSON, Markdown and HTML, because the bound shown beside the verdict is the one the test inverts.
* ``--ci-method`` on ``report`` and ``compare``: the methods that apply, refused by name otherwise.
* The sentence that a ROC-AUC interval may be too narrow: there at 20 + 20 with AUC 0.92, absent at
  200 + 200 with AUC 0.75.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest

from tests._helpers import mc
from tests._helpers.clihelp import run

BOUND = "one-sided 95% lower bound (basic bootstrap), matches the test"


def _borderline(tmp_path: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(164)
    n = 114
    g = np.where(rng.random(n) < 0.37, "malignant", "benign")
    a = np.where(rng.random(n) < 0.93, g, np.where(g == "malignant", "benign", "malignant"))
    b = np.where(rng.random(n) < 0.90, a, np.where(a == "malignant", "benign", "malignant"))
    pa, pb = tmp_path / "a.csv", tmp_path / "b.csv"
    pa.write_text("id,gold,pred\n" + "".join(f"{i},{x},{y}\n" for i, (x, y) in enumerate(zip(g, a, strict=True))))
    pb.write_text("id,gold,pred\n" + "".join(f"{i},{x},{y}\n" for i, (x, y) in enumerate(zip(g, b, strict=True))))
    return pa, pb


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_borderline_case_says_the_same_in_every_format(tmp_path):
    a, b = _borderline(tmp_path)
    args = ["compare", a, b, "--metric", "f1:malignant", "--samples", "2000", "--ci-method", "percentile"]
    js = run(*args, "--format", "json")
    assert js.code == 0, js.err
    d = json.loads(js.out)
    # the case is the issue's: significant at 0.05, while the two-sided percentile interval contains 0
    assert 0.03 < d["p_value"] < 0.05 and d["significant"]
    lo, hi = d["ci"]["delta"]
    assert lo < 0 < hi
    tb = d["ci"]["test_bound"]
    assert tb["side"] == "lower" and tb["value"] > 0 and tb["matches_test"] and tb["method"] == "basic bootstrap"
    assert d["ci"]["estimate"] == "percentile"
    shown = f"{tb['value']:.4f}"
    for fmt in ("text", "markdown", "html"):
        res = run(*args, "--format", fmt)
        assert res.code == 0, res.err
        out = _text(res.out) if fmt == "html" else " ".join(res.out.replace("*", "").split())
        assert d["verdict"] in out, fmt  # the verdict sentence (as in JSON)
        assert "unlikely to be luck" in out and "could well be luck" not in out, fmt
        assert BOUND in out and shown in out, fmt  # the bound row, with its value > 0
        assert "estimates" in out, fmt  # the two-sided intervals are labelled as estimates
        assert "one-sided" in out, fmt  # the hypothesis line names the side
    page = _text(run(*args, "--format", "html").out)
    start = page.index("δ = A − B")
    summary = page[start:page.index(" test bootstrap ", start)]  # the cards come first, then the facts
    assert f"{BOUND}: {shown}" in summary  # the card says it too
    assert f"two-sided 95% percentile interval (estimate): [{lo:.4f}, {hi:.4f}]" in summary


def test_randomization_interval_is_labelled_a_different_procedure(tmp_path):
    a, b = _borderline(tmp_path)
    res = run("compare", a, b, "--metric", "f1:malignant", "--samples", "500", "--test", "randomization")
    assert res.code == 0, res.err
    assert "a different procedure from the test" in " ".join(res.out.split())
    assert "matches the test" not in res.out


@pytest.mark.parametrize("bad, needle", [
    ("wilson", "wilson is the interval of one binomial proportion"),
    ("delong", "compare ROC-AUCs with --test delong"),
    ("jackknife", "is not an interval method"),
])
def test_compare_ci_method_refused_by_name(tmp_path, bad, needle):
    a, b = _borderline(tmp_path)
    res = run("compare", a, b, "--ci-method", bad)
    assert res.code == 2 and res.out == "" and "Traceback" not in res.err
    assert "--ci-method" in res.err and needle in " ".join(res.err.split())


def _report_file(tmp_path: Path) -> Path:
    rng = np.random.default_rng(7)
    g = rng.integers(0, 3, 150)
    p = np.where(rng.random(150) < 0.75, g, rng.integers(0, 3, 150))
    names = np.array(["spam", "ham", "promo"])
    path = tmp_path / "preds.csv"
    path.write_text("gold,pred\n" + "".join(f"{names[x]},{names[y]}\n" for x, y in zip(g, p, strict=True)))
    return path


def test_report_ci_method_defaults_and_choices(tmp_path):
    path = _report_file(tmp_path)
    d = json.loads(run("report", path, "--ci", "0.95", "--samples", "500", "--format", "json").out)
    m = d["ci"]["methods"]
    assert m["per_class.spam.precision"] == m["per_class.ham.recall"] == "wilson"
    assert m["accuracy"] == m["macro.f1"] == m["per_class.spam.f1"] == "bca"
    d = json.loads(run("report", path, "--ci", "0.95", "--samples", "500", "--ci-method", "percentile",
                       "--ci-method", "accuracy=wilson", "--format", "json").out)
    assert d["ci"]["methods"]["accuracy"] == "wilson" and d["ci"]["methods"]["macro.f1"] == "percentile"
    text = run("report", path, "--ci", "0.95", "--samples", "500")
    assert text.code == 0
    assert "95% interval" in text.out and "Wilson" in text.out and "BCa" in text.out


@pytest.mark.parametrize("args, needle", [
    (["--ci-method", "f1=wilson"], "wilson is the interval of a binomial proportion"),
    (["--ci-method", "accuracy=delong"], "delong is an interval of ROC-AUC"),
    (["--ci-method", "delong"], "delong is an interval of ROC-AUC"),
    (["--ci-method", "roc_auc=bca"], "the report has no ROC-AUC"),
    (["--ci-method", "bogus=bca"], "'bogus' is not a metric"),
    (["--ci-method", "percentile:x"], "unknown interval method"),
])
def test_report_ci_method_refused_by_name(tmp_path, args, needle):
    path = _report_file(tmp_path)
    res = run("report", path, "--ci", "0.95", *args)
    assert res.code == 2 and res.out == "" and "Traceback" not in res.err, res.err
    assert "--ci-method" in res.err and needle in " ".join(res.err.split())


def test_report_ci_method_needs_ci(tmp_path):
    res = run("report", _report_file(tmp_path), "--ci-method", "bca")
    assert res.code == 2 and "give --ci LEVEL too" in res.err


def _binormal(tmp_path: Path, m: int, n: int, auc: float, seed: int) -> Path:
    d = np.sqrt(2) * NormalDist().inv_cdf(auc)
    rng = np.random.default_rng(seed)
    s = np.r_[rng.normal(d, 1, m), rng.normal(0, 1, n)]
    y = np.r_[np.ones(m, int), np.zeros(n, int)]
    path = tmp_path / f"scores{m}_{n}.csv"
    path.write_text("gold,pred,score\n" + "".join(f"{'yes' if t else 'no'},{'yes' if v > d / 2 else 'no'},{v!r}\n"
                                                  for t, v in zip(y, s.tolist(), strict=True)))
    return path


def _observed_auc(path: Path) -> float:
    rows = [line.split(",") for line in path.read_text().splitlines()[1:]]
    pos = np.array([float(r[2]) for r in rows if r[0] == "yes"])
    neg = np.array([float(r[2]) for r in rows if r[0] == "no"])
    return float((pos[:, None] > neg[None, :]).mean())


def test_too_narrow_sentence_where_it_must_and_must_not_appear(tmp_path):
    small = _binormal(tmp_path, 20, 20, 0.92, 37)
    assert abs(_observed_auc(small) - 0.92) < 0.01  # the case at hand: 20 + 20 at AUC ≈ 0.92
    big = _binormal(tmp_path, 200, 200, 0.75, 2)
    assert abs(_observed_auc(big) - 0.75) < 0.01
    for fmt in ("text", "markdown", "json", "html"):
        res = run("report", small, "--score", "score", "--positive", "yes", "--ci", "0.95", "--samples", "300",
                  "--format", fmt)
        assert res.code == 0, res.err
        assert "may be too narrow here" in " ".join(res.out.split()), fmt
        res = run("report", big, "--score", "score", "--positive", "yes", "--ci", "0.95", "--samples", "300",
                  "--format", fmt)
        assert res.code == 0, res.err
        assert "too narrow" not in res.out, fmt
    d = json.loads(run("report", small, "--score", "score", "--positive", "yes", "--ci", "0.95", "--samples", "300",
                       "--format", "json").out)
    assert d["ranking_ci"]["roc_auc"]["interval"]["method"] == "logit-delong"


def test_armano_phi_is_named_in_every_format(tmp_path):
    path = _report_file(tmp_path)
    for fmt in ("text", "markdown", "html"):
        res = run("report", path, "--positive", "spam", "--format", fmt)
        assert res.code == 0, res.err
        assert "bias φ (Armano)" in res.out, fmt
        assert not re.search(r"(^|[\s|])φ(\s+\||\s*$)", res.out, re.M), fmt  # no bare "φ" column header left
    page = run("report", path, "--positive", "spam", "--format", "html").out
    assert '<a class="metric" href="#g-phi">bias φ (Armano)</a>' in page  # the header links to the glossary
    glossary = unescape(page[page.index('<dt id="g-phi">'):])
    assert "Not the phi coefficient" in glossary and "JSON key stays 'phi'" in glossary
    d = json.loads(run("report", path, "--positive", "spam", "--format", "json").out)
    assert "phi" in d["per_class"]["spam"] and "phi" in d["binary"]  # the JSON key stays


def test_report_roc_auc_method_asked_for(tmp_path):
    path = _binormal(tmp_path, 50, 50, 0.8, 3)
    for method in ("delong", "hanley-mcneil", "bca", "percentile", "logit-delong"):
        res = run("report", path, "--score", "score", "--positive", "yes", "--ci", "0.95", "--samples", "300",
                  "--ci-method", f"roc_auc={method}", "--format", "json")
        assert res.code == 0, res.err
        chosen = json.loads(res.out)["ranking_ci"]["roc_auc"]["interval"]
        assert chosen["method"] == method
        lo, hi = chosen["ci"]
        assert lo < json.loads(res.out)["ranking_ci"]["roc_auc"]["value"] < hi


def test_the_bench_measures_the_intervals_clfeval_offers():
    """bench/ci_coverage.py draws its AUC bootstrap itself (batched over simulated test sets): its replicates
    follow the same distribution as the library's stratified bootstrap of one ranking."""
    import importlib.util

    from clfeval.scores._curves import ranking
    from clfeval.significance import _aucintervals as ai

    spec = importlib.util.spec_from_file_location("ci_coverage", Path(__file__).parents[2] / "bench" / "ci_coverage.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rng = np.random.default_rng(5)
    pos, neg = rng.normal(1.2, 1, (1, 30)), rng.normal(0, 1, (1, 40))
    below, v10, v01 = bench._placements(pos, neg)
    reps = bench._boot_auc(below, 40, 20_000, rng)
    rk = ranking(np.r_[np.ones(30, int), np.zeros(40, int)], np.r_[pos[0], neg[0]], positive=1)
    lib = ai.auc_interval(rk, "percentile", level=0.95, samples=20_000, rng=np.random.default_rng(6))
    # issue 39: a distribution pin — the library's percentile ends in the band of the bench's replicates' quantiles
    mc.assert_interval(lib, mc.Reference.of_replicates(reps[0]), 0.95, 20_000, "AUC interval")
    assert v10.mean() == pytest.approx(rk.roc_auc)
