"""Issue 18: the interval methods themselves, each against an independent reference.

Wilson against statsmodels' ``proportion_confint`` (and a hand computation); BCa of a report metric against
SciPy's ``bootstrap(method="BCa")`` on the items; the batched BCa against the one-problem BCa; DeLong's
variance against the library's DeLong; Hanley–McNeil and the logit interval by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import clfeval
from clfeval.evaluate._intervals import table_ci, wilson
from clfeval.significance import _aucintervals as ai
from clfeval.significance._delong import delong_auc
from clfeval.stats import _resample as rs
from tests._helpers import mc


def test_wilson_by_hand_and_against_statsmodels():
    # by hand: x = 7, n = 10, z = 1.959964: centre (0.7 + z²/20)/(1 + z²/10), half z/(1 + z²/10)·√(0.021 + z²/400)
    z = 1.959963984540054
    den = 1 + z * z / 10
    centre = (0.7 + z * z / 20) / den
    half = z / den * math.sqrt(0.7 * 0.3 / 10 + z * z / 400)
    assert wilson(7, 10, 0.95).tolist() == pytest.approx([centre - half, centre + half], abs=1e-12)
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    for x, n, level in ((0, 5, 0.95), (3, 40, 0.9), (39, 40, 0.99), (120, 400, 0.95), (1, 1, 0.8)):
        lo, hi = proportion.proportion_confint(x, n, alpha=1 - level, method="wilson")
        assert wilson(x, n, level).tolist() == pytest.approx([lo, hi], abs=1e-12)


def test_report_wilson_intervals_are_the_counts_proportions():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    cm = np.array([[30, 5, 2], [4, 20, 3], [1, 2, 10]])
    ci = table_ci(cm, ["a", "b", "c"], samples=300, method="auto")
    lo, hi = proportion.proportion_confint(20, 27, alpha=0.05, method="wilson")  # precision of b: 20 of 5 + 20 + 2
    assert ci["per_class"]["b"]["precision"] == pytest.approx([lo, hi], abs=1e-12)
    lo, hi = proportion.proportion_confint(10, 13, alpha=0.05, method="wilson")  # recall of c: 10 of 1 + 2 + 10
    assert ci["per_class"]["c"]["recall"] == pytest.approx([lo, hi], abs=1e-12)
    asked = table_ci(cm, ["a", "b", "c"], samples=300, method=["accuracy=wilson"])
    lo, hi = proportion.proportion_confint(60, 77, alpha=0.05, method="wilson")
    assert asked["accuracy"] == pytest.approx([lo, hi], abs=1e-12) and asked["methods"]["accuracy"] == "wilson"


def _macro_f1(g: np.ndarray, p: np.ndarray, k: int = 3) -> float:
    """Macro F1 of labels 0 … k-1 by hand (0/0 counted as 0): SciPy's ~2,400 calls of it cost milliseconds, where
    as many reports took seconds."""
    tp = np.bincount(g[g == p], minlength=k)
    den = np.bincount(g, minlength=k) + np.bincount(p, minlength=k)
    return float(np.where(den > 0, 2 * tp / np.maximum(den, 1), 0.0).mean())


def test_report_bca_against_scipy_bootstrap():
    from sklearn.metrics import f1_score

    rng = np.random.default_rng(3)
    g = rng.integers(0, 3, 200)
    p = np.where(rng.random(200) < 0.7, g, rng.integers(0, 3, 200))
    rep = clfeval.report(g, p, ci=0.9, samples=20_000, seed=2)
    ci = rep.ci.to_dict()
    assert ci["methods"]["accuracy"] == ci["methods"]["macro.f1"] == "bca"
    assert _macro_f1(g, p) == pytest.approx(f1_score(g, p, average="macro"), abs=1e-15) == rep.macro.f1
    some = rng.integers(0, 200, 200)  # a resample, and one without class 2: the hand F1 is the report's
    for i in (some, some[(g[some] != 2) & (p[some] != 2)]):
        assert _macro_f1(g[i], p[i]) == pytest.approx(clfeval.report(g[i], p[i], labels=[0, 1, 2]).macro.f1, abs=1e-15)
    for path, fn in ((("accuracy",), lambda i: np.mean(g[i] == p[i])),
                     (("macro", "f1"), lambda i: _macro_f1(g[i], p[i]))):
        idx = np.arange(200)
        res = stats.bootstrap((idx,), fn, vectorized=False, n_resamples=2000, method="BCa", confidence_level=0.9,
                              random_state=np.random.default_rng(0))
        node = ci
        for key in path:
            node = node[key]
        # issue 39: a distribution pin (formerly within 0.015 of SciPy's ends): each end in the band of SciPy's
        # replicates' quantiles at BCa's adjusted levels (tests/_helpers/mc.py)
        ref = mc.Reference.of_replicates(res.bootstrap_distribution)
        theta, accel = fn(idx), mc.jackknife_acceleration(fn, (idx,))
        for end, q in zip(node, (0.05, 0.95), strict=True):
            mc.assert_bca(end, ref, theta, accel, q, 20_000, str(path))


def test_batched_bca_is_the_one_problem_bca():
    rng = np.random.default_rng(1)
    for _ in range(100):
        b, j = int(rng.integers(20, 300)), int(rng.integers(3, 30))
        reps = rng.normal(size=b) ** 2
        theta = float(rng.normal() * 0.3 + 1)
        jack, w = rng.normal(size=j), rng.integers(1, 5, size=j)
        one = rs.bca_interval(reps, theta, jack, w, 0.9)
        many = rs.bca_ends(reps[None], np.array([theta]), jack[None], w, 0.9)[0]
        if one is None:
            assert np.isnan(many).all()
        else:
            assert many.tolist() == pytest.approx(one, rel=1e-12, abs=1e-13)


def test_auc_methods_by_hand():
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(20, int), np.zeros(30, int)]
    s = np.r_[rng.normal(1.2, 1, 20), rng.normal(0, 1, 30)]
    pos, neg = s[:20], s[20:]
    v10 = (pos[:, None] > neg[None, :]).mean(axis=1)
    v01 = (pos[:, None] > neg[None, :]).mean(axis=0)
    auc = v10.mean()
    var = v10.var(ddof=1) / 20 + v01.var(ddof=1) / 30
    d = delong_auc(y, s, positive=1)
    assert (d.auc, d.variance) == pytest.approx((auc, var), abs=1e-12)
    z = stats.norm.ppf(0.975)
    assert ai.wald(np.array([auc]), np.array([var]), 0.95)[0].tolist() == pytest.approx(d.ci, abs=1e-12)
    # logit: expit(logit(A) ± z·SE/(A(1 − A)))
    lg = math.log(auc / (1 - auc))
    h = z * math.sqrt(var) / (auc * (1 - auc))
    expit = lambda x: 1 / (1 + math.exp(-x))  # noqa: E731
    assert ai.logit_wald(np.array([auc]), np.array([var]), 0.95)[0].tolist() == pytest.approx(
        [expit(lg - h), expit(lg + h)], abs=1e-12)
    # Hanley & McNeil by hand, A = 0.9, 50 + 50: Q1 = 0.9/1.1 = 0.8181818, Q2 = 2·0.81/1.9 = 0.8526316,
    # var = (0.09 + 49·0.0081818 + 49·0.0426316)/2500 = 2.5798565/2500, SE = 0.0321239
    se = math.sqrt(ai.hanley_mcneil_variance(np.array(0.9), 50, 50))
    assert se == pytest.approx(0.0321239, abs=1e-6)
    # the leave-one-out AUCs are the AUCs of the data without each item
    jack = ai.auc_jackknife(v10[None], v01[None])[0]
    keep = np.ones(50, bool)
    keep[3] = False
    direct = (s[:20][keep[:20], None] > neg[None, :]).mean()
    assert jack[3] == pytest.approx(direct)
    keep = np.ones(30, bool)
    keep[5] = False
    assert jack[20 + 5] == pytest.approx((pos[:, None] > neg[keep][None, :]).mean())


# --- issue 35: ci_method / --ci-method through one parser, every form ---------------------------------------------

from clfeval.errors import UsageError  # noqa: E402
from clfeval.evaluate._cimethods import parse_ci_methods  # noqa: E402

MAILS = "docs/examples/mails.csv"


def test_every_form_of_ci_method_is_one_mapping():
    one = {"roc_auc": "delong"}
    assert parse_ci_methods("roc_auc=delong") == parse_ci_methods(["roc_auc=delong"]) == one
    assert parse_ci_methods(("roc_auc=delong",)) == parse_ci_methods({"roc_auc": "delong"}) == one
    assert parse_ci_methods(["bca", " recall:spam = Wilson "]) == {"*": "bca", "recall:spam": "wilson"}
    assert parse_ci_methods("auto") == parse_ci_methods(None) == parse_ci_methods([]) == {}


@pytest.mark.parametrize("value, needle", [
    ("recall:spam=percentile=wilson", "one METRIC=METHOD per value (this one holds 2 '=')"),
    ("=wilson", "=wilson: no metric before '='"),
    ("recall:=bca", "no class after ':'"),
    (["accuracy=wilson", "accuracy=bca"], "names accuracy twice (accuracy=wilson, accuracy=bca)"),
    (["accuracy=wilson", "accuracy=wilson"], "names accuracy twice (accuracy=wilson, accuracy=wilson)"),
    (["bca", "percentile"], "names a method for every metric twice (bca, percentile)"),
    ("accuracy=jackknife", "unknown interval method 'jackknife'"),
    ({"accuracy": 5}, "unknown interval method 5"),
    (5, "must be a METHOD or METRIC=METHOD text, a list of them, or a mapping"),
])
def test_malformed_ci_methods_are_refused_by_name(value, needle):
    with pytest.raises(UsageError) as err:
        parse_ci_methods(value)
    assert str(err.value).startswith("option ci_method") and needle in str(err.value)


@pytest.mark.parametrize("value, needle", [
    ("recall:nope=percentile", "names the class 'nope', which the data does not have; its classes are: 'a', 'b'"),
    ("macro_f1:a=bca", "macro_f1 is one number for the whole table, not one per class"),
])
def test_a_key_the_report_cannot_have_is_refused(value, needle):
    with pytest.raises(UsageError, match="option ci_method") as err:
        clfeval.report(["a", "b", "a", "b"], ["a", "b", "b", "b"], ci=0.9, samples=200, ci_method=value)
    assert needle in str(err.value)


def test_the_more_specific_key_wins_whatever_the_order():
    rng = np.random.default_rng(4)
    g = rng.choice(["a", "b", "c"], 120)
    p = np.where(rng.random(120) < 0.7, g, rng.choice(["a", "b", "c"], 120))
    asked = ["wilson", "recall=percentile", "recall:b=bca"]
    got = [clfeval.report(g, p, ci=0.9, samples=300, ci_method=m).ci.methods for m in (asked, asked[::-1])]
    assert got[0] == got[1]
    m = got[0]
    # recall:b's own key, then recall's, then the global Wilson where it applies (a proportion), else the default BCa
    assert (m["per_class.b.recall"], m["per_class.a.recall"], m["per_class.c.recall"]) == ("bca", "percentile",
                                                                                          "percentile")
    assert (m["accuracy"], m["per_class.a.precision"], m["macro.f1"]) == ("wilson", "wilson", "bca")


def _ranked(ci_method, **kw):
    return clfeval.report(MAILS, score="score", positive="spam", ci=0.95, samples=500, ci_method=ci_method,
                          **kw).ranking_ci


def test_roc_auc_method_given_as_one_string_is_applied():
    rc = _ranked("roc_auc=delong")
    assert rc.roc_auc.interval["method"] == "delong"
    assert rc.roc_auc.interval["ci"] == rc.roc_auc.delong["ci"]
    assert _ranked({"roc_auc": "delong"}) == rc and _ranked(["roc_auc=delong"]) == rc
    assert _ranked("auto").roc_auc.interval["method"] == "logit-delong"  # the default, when not asked
    assert _ranked("roc_auc:spam=hanley-mcneil").roc_auc.interval["method"] == "hanley-mcneil"
    with pytest.raises(UsageError, match="names the class 'ham', which the scores do not rank; they rank: 'spam'"):
        _ranked("roc_auc:ham=delong")


def test_one_percentile_interval_of_roc_auc():
    rng = np.random.default_rng(7)
    y = np.repeat([1, 0], [80, 120])
    s = np.r_[rng.normal(0.8, 1, 80), rng.normal(0, 1, 120)]
    frame = pd.DataFrame({"gold": y, "pred": np.where(s > 0.4, 1, 0), "score": s})
    rc = clfeval.report(frame, score="score", positive=1, ci=0.95, samples=500,
                        ci_method=["roc_auc=percentile"]).ranking_ci
    # one bootstrap, one percentile interval: the chosen one is the bootstrap's, not a second draw
    assert rc.roc_auc.interval["method"] == "percentile"
    assert rc.roc_auc.interval["ci"] == rc.roc_auc.bootstrap["ci"]


def test_one_vs_rest_keys_apply_to_their_class_only():
    rng = np.random.default_rng(8)
    g = rng.choice(["a", "b", "c"], 150)
    scores = {k: np.where(g == k, 0.6, 0.2) + rng.random(150) * 0.5 for k in "abc"}
    rep = clfeval.report(g, g, scores=scores, ci=0.9, samples=300, ci_method="roc_auc:b=delong")
    methods = {k: v.roc_auc.interval["method"] for k, v in rep.ranking_ci.per_class.items()}
    assert methods == {"a": "logit-delong", "b": "delong", "c": "logit-delong"}
