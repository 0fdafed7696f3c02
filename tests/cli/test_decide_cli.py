"""The decision commands on the command line: compare --test delong (one- and two-sided, one-vs-rest),
--margin, --gate (exit 3), report --score --ci (DeLong beside the bootstrap), power, and the figures' bands."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

from clfeval import compare
from clfeval.significance._classic import holm
from clfeval.significance._delong import delong_auc, delong_ovr, delong_test
from clfeval.significance._power import mcnemar_power
from tests._helpers.clihelp import run


def scored(n=400, seed=0, strength=(1.2, 0.8)):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    latent = rng.normal(size=n)
    a = latent + strength[0] * y + rng.normal(scale=0.8, size=n)
    b = latent + strength[1] * y + rng.normal(scale=0.8, size=n)
    return y, np.round(a, 3), np.round(b, 3)


def write_scores(path: Path, y, s) -> Path:
    lines = [f"i{i},{'spam' if y[i] else 'ham'},{'spam' if s[i] > 0.5 else 'ham'},{float(s[i])!r}\n"
             for i in range(len(y))]
    path.write_text("id,gold,pred,score\n" + "".join(lines))
    return path


@pytest.fixture
def pair(tmp_path):
    y, a, b = scored()
    return {"y": y, "a": a, "b": b, "fa": write_scores(tmp_path / "a.csv", y, a),
            "fb": write_scores(tmp_path / "b.csv", y, b), "dir": tmp_path}


# --- DeLong through compare ----------------------------------------------------------------------

def test_compare_delong_in_the_library_one_and_two_sided():
    y, a, b = scored(seed=3)
    one = compare(y, a, b, metric="roc_auc", test="delong", positive=True)
    two = compare(y, a, b, metric="roc_auc", test="delong", positive=True, alternative="two-sided")
    ref = delong_test(y, a, b, positive=True)
    assert one.auc_a == pytest.approx(roc_auc_score(y, a)) and one.p_value == ref.p_value
    assert two.p_value == pytest.approx(2 * norm.sf(abs(ref.z)))  # SciPy's normal as the oracle
    assert two.p_value_one_sided == pytest.approx(norm.sf(ref.z))
    assert two.rejected == (two.p_value < 0.05) and "two-sided p" in two.verdict
    assert two.to_dict()["alternative"] == "two-sided" and two.signature["alternative"] == "two-sided"


def test_one_vs_rest_two_sided_is_holm_of_the_per_class_two_sided_p():
    rng = np.random.default_rng(4)
    gold = rng.choice(["a", "b", "c"], size=300)
    sa = {k: rng.normal(size=300) + (gold == k) * 1.0 for k in "abc"}
    sb = {k: rng.normal(size=300) + (gold == k) * 0.5 for k in "abc"}
    r = compare(gold, sa, sb, metric="roc_auc", test="delong", alternative="two-sided")
    per = [delong_test(gold == k, sa[k], sb[k], positive=True, alternative="two-sided").p_value for k in "abc"]
    assert [r.p_holm[k] for k in "abc"] == pytest.approx(list(holm(per)))
    assert r.rejected == all(r.p_holm[k] < 0.05 for k in "abc")
    assert set(r.verdicts) == set("abc") and all("Holm-adjusted two-sided p" in v for v in r.verdicts.values())


def test_cli_delong_matches_the_library(pair):
    res = run("compare", pair["fa"], pair["fb"], "--test", "delong", "--metric", "roc_auc", "--score", "score",
              "--positive", "spam", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    ref = delong_test(pair["y"], pair["a"], pair["b"], positive=True)
    assert d["auc_a"] == pytest.approx(ref.auc_a) and d["var_delta"] == pytest.approx(ref.var_delta)
    assert d["p_value"] == pytest.approx(ref.p_value) and d["alternative"] == "greater"
    assert d["signature"]["test"] == "delong" and d["signature"]["version"]
    text = run("compare", pair["fa"], pair["fb"], "--test", "delong", "--metric", "roc_auc", "--score", "score",
               "--positive", "spam", "--alternative", "two-sided")
    assert "H1: AUC(A) ≠ AUC(B), two-sided" in text.out and "p, two-sided ◀" in text.out
    md = run("compare", pair["fa"], pair["fb"], "--test", "delong", "--metric", "roc_auc", "--score", "score",
             "--positive", "spam", "--format", "markdown")
    assert md.code == 0 and md.out.startswith("## clfeval compare — ROC-AUC, DeLong's test")


def test_cli_delong_one_vs_rest_with_a_scores_prefix(tmp_path):
    rng = np.random.default_rng(5)
    n = 240
    gold = rng.choice(["x", "y", "z"], size=n)
    cols = {}
    for name, s in (("a", 1.2), ("b", 0.6)):
        cols[name] = {k: np.round(rng.normal(size=n) + s * (gold == k), 3) for k in "xyz"}
        lines = [f"i{i},{gold[i]}," + ",".join(repr(float(cols[name][k][i])) for k in "xyz") + "\n" for i in range(n)]
        (tmp_path / f"{name}.csv").write_text("id,gold,p:x,p:y,p:z\n" + "".join(lines))
    res = run("compare", tmp_path / "a.csv", tmp_path / "b.csv", "--test", "delong", "--metric", "roc_auc",
              "--scores-prefix", "p:", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    ref = delong_ovr(gold, cols["a"], cols["b"])
    for k in "xyz":
        assert d["per_class"][k]["delta"] == pytest.approx(ref.per_class[k].delta)
        assert d["per_class"][k]["p_holm"] == pytest.approx(ref.p_holm[k])


def test_gate_exit_codes(pair, tmp_path):
    strong = run("compare", pair["fa"], pair["fb"], "--test", "delong", "--metric", "roc_auc", "--score", "score",
                 "--positive", "spam", "--gate")
    y, a, _ = scored()
    same = write_scores(tmp_path / "same.csv", y, a + 0.001)  # the same ranking: no difference to find
    weak = run("compare", pair["fa"], same, "--test", "delong", "--metric", "roc_auc", "--score", "score",
               "--positive", "spam", "--gate")
    p = delong_test(pair["y"], pair["a"], pair["b"], positive=True).p_value
    assert p < 0.05 and strong.code == 0, strong.err
    assert weak.code == 3 and weak.out and weak.err.startswith("clfeval: gate not met: the test does not reject")
    boot = run("compare", pair["fa"], same, "--samples", "500", "--gate")
    assert boot.code == 3
    ni = run("compare", pair["fa"], same, "--margin", "0.05", "--samples", "2000", "--gate", "--format", "json")
    d = json.loads(ni.out)
    assert d["margin"] == 0.05 and (ni.code == 0) == d["rejected"] and d["non_inferior"] == d["rejected"]


def test_decision_refusals(pair):
    cases = [
        (["--test", "delong", "--metric", "accuracy", "--score", "score", "--positive", "spam"], "not roc_auc"),
        (["--test", "delong", "--metric", "roc_auc"], "give --score COLUMN (with --positive) or --scores-prefix"),
        (["--test", "randomization", "--margin", "0.01"], "option --margin (non-inferiority) needs --test bootstrap"),
        (["--test", "mcnemar", "--margin", "0.01"], "the null of --test mcnemar is 'no difference'"),
        (["--alternative", "two-sided"], "option --alternative two-sided applies to test delong"),
        (["--scores-prefix", "p:"], "option --scores-prefix applies to --test delong"),
        (["--margin", "-1"], "option --margin must be a number >= 0"),
    ]
    for extra, needle in cases:
        res = run("compare", pair["fa"], pair["fb"], *extra)
        assert res.code == 2 and res.out == "" and needle in res.err, (extra, res.err)
    three = run("compare", pair["fa"], pair["fb"], pair["fa"], "--margin", "0.01")
    assert three.code == 2 and "NEW_FILE OLD_FILE" in three.err


# --- report --score --ci: DeLong beside the bootstrap ----------------------------------------------------

def test_report_ci_has_delong_beside_the_bootstrap(pair):
    res = run("report", pair["fa"], "--score", "score", "--positive", "spam", "--ci", "0.9", "--samples", "500",
              "--format", "json")
    assert res.code == 0, res.err
    rc = json.loads(res.out)["ranking_ci"]
    ref = delong_auc(pair["y"], pair["a"], positive=True, level=0.9)
    assert rc["roc_auc"]["delong"]["ci"] == pytest.approx(ref.ci) and rc["level"] == 0.9
    lo, hi = rc["roc_auc"]["bootstrap"]["ci"]
    assert lo < rc["roc_auc"]["value"] < hi and rc["samples_used"] == 500
    assert len(rc["bands"]["roc"]["fpr"]) == 51 and len(rc["bands"]["pr"]["low"]) == 51
    text = run("report", pair["fa"], "--score", "score", "--positive", "spam", "--ci", "0.9", "--samples", "500")
    assert "Ranking with 90% intervals (DeLong and bootstrap)" in text.out and "ROC band: TPR at fixed FPR" in text.out
    req = run("report", pair["fa"], "--score", "score", "--positive", "spam", "--ci", "0.9", "--samples", "500",
              "--require", f"roc_auc>={lo - 0.01}", "--format", "json")
    c = json.loads(req.out)["requirements"]["conditions"][0]
    assert req.code == 0 and c["interval"] == [lo, hi] and c["interval_clears"] is True


def test_ranking_ci_budget_leaves_the_bootstrap_out(monkeypatch):
    from clfeval.significance import _rankingci as rankingci

    y, a, _ = scored(n=300)
    monkeypatch.setattr(rankingci, "CELL_BUDGET", 1000)
    s = rankingci.ranking_ci(y, a, positive=True, samples=500)
    assert "bootstrap" not in s["roc_auc"] and s["samples_used"] is None and "delong" in s["roc_auc"]
    assert "distinct scores" in s["bootstrap_left_out"]
    monkeypatch.setattr(rankingci, "CELL_BUDGET", 300 * 250)
    s = rankingci.ranking_ci(y, a, positive=True, samples=500)
    assert s["samples_used"] == 300 * 250 // len(np.unique(a)) and any("Fewer bootstrap" in x for x in s["notes"])


# --- power ----------------------------------------------------------------------------------------------

def test_power_cli_two_files_and_one(pair):
    res = run("power", pair["fa"], pair["fb"], "--delta", "0.05", "--unit", "mails", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    ra, rb = (pair["a"] > 0.5) == pair["y"], (pair["b"] > 0.5) == pair["y"]
    assert (d["n_ab"], d["n_ba"]) == (int(np.sum(ra & ~rb)), int(np.sum(~ra & rb)))  # counted here
    ref = mcnemar_power(d["n_ab"], d["n_ba"], 400, delta=0.05)
    assert d["required_n"] == ref.required_n and d["detectable_delta"] == pytest.approx(ref.detectable_delta)
    assert d["explanation"].startswith("With 400 mails a difference in accuracy smaller than")
    text = run("power", pair["fa"], pair["fb"], "--delta", "0.05")
    assert "not monotone in n" in text.out and "smallest n with power ≥ 0.8" in text.out
    one = run("power", pair["fa"], "--metric", "macro_f1", "--width", "0.02", "--samples", "500", "--format", "json")
    w = json.loads(one.out)
    assert one.code == 0 and w["required_n"] == int(np.ceil(400 * (w["width"] / 0.02) ** 2))
    boot = run("power", pair["fa"], pair["fb"], "--metric", "macro_f1", "--samples", "300")
    assert boot.code == 0 and "paired bootstrap standard error" in boot.out


def test_power_refusals(pair):
    for args, needle in (((pair["fa"], "--metric", "roc_auc"), "is a metric of scores"),
                         ((pair["fa"], "--delta", "0.01"), "option --delta is the difference between two systems"),
                         ((pair["fa"], pair["fb"], "--width", "0.02"), "option --width is about one system"),
                         ((pair["fa"], "--metric", "acuracy"), "unknown metric 'acuracy'"),
                         ((), "power takes one predictions file")):
        res = run("power", *args)
        assert res.code == 2 and needle in res.err, (args, res.err)


# --- figures: the band when the result carries one ------------------------------------------------------------

def test_roc_and_pr_figures_draw_the_band(pair):
    from clfeval import plots
    from clfeval.evaluate._reports import report
    from clfeval.plots import _mpl
    from clfeval.significance._curvebands import curve_bands
    from clfeval.significance._rankingci import with_ranking_ci

    y = np.where(pair["y"], "spam", "ham")
    rep = report(y, np.where(pair["a"] > 0.5, "spam", "ham"), scores=pair["a"], positive="spam")
    banded = with_ranking_ci(rep, y, pair["a"], positive="spam", samples=200)
    for fig in (plots.roc, plots.pr):
        name = fig.__name__
        assert f"{name}-band-0" not in _mpl.figure_svg(fig(rep), "f")
        assert f"{name}-band-0" in _mpl.figure_svg(fig(banded), "f")
        assert f"{name}-band-0" in _mpl.figure_svg(fig(curve_bands(y, pair["a"], positive="spam", samples=100)), "f")
