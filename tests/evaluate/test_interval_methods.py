"""Issue 18: the interval methods themselves, each against an independent reference.

Wilson against statsmodels' ``proportion_confint`` (and a hand computation); BCa of a report metric against
SciPy's ``bootstrap(method="BCa")`` on the items; the batched BCa against the one-problem BCa; DeLong's
variance against the library's DeLong; Hanley–McNeil and the logit interval by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import clfeval
from clfeval.core import _resample as rs
from clfeval.evaluate._intervals import table_ci, wilson
from clfeval.significance import _aucintervals as ai
from clfeval.significance._delong import delong_auc


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


def test_report_bca_against_scipy_bootstrap():
    rng = np.random.default_rng(3)
    g = rng.integers(0, 3, 200)
    p = np.where(rng.random(200) < 0.7, g, rng.integers(0, 3, 200))
    rep = clfeval.report(g, p, ci=0.9, samples=20_000, seed=2)
    ci = rep.sections["ci"]
    assert ci["methods"]["accuracy"] == ci["methods"]["macro.f1"] == "bca"
    for path, fn in ((("accuracy",), lambda i: np.mean(g[i] == p[i])),
                     (("macro", "f1"), lambda i: clfeval.report(g[i], p[i], labels=[0, 1, 2]).macro["f1"])):
        idx = np.arange(200)
        ref = stats.bootstrap((idx,), fn, vectorized=False, n_resamples=2000, method="BCa", confidence_level=0.9,
                              random_state=np.random.default_rng(0)).confidence_interval
        node = ci
        for key in path:
            node = node[key]
        assert node == pytest.approx([ref.low, ref.high], abs=0.015), path


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
