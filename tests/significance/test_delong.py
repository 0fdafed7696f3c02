"""DeLong's test against an independent O(m·n) computation of the structural components,
scikit-learn's ROC-AUC, and a paired bootstrap."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

from clfeval.errors import DataError, UsageError
from clfeval.render import to_json
from clfeval.scores._curves import ranking
from clfeval.significance import _delong as dl, _midranks as midranks
from clfeval.significance._paired import bootstrap_distribution, holm

# --- the O(m·n) reference, written from the definitions --------------------------------

def psi_matrix(y, s):
    """ψ(X_i, Y_j) for every positive i (rows) and negative j (columns): 1 above, ½ tied, 0 below."""
    x = s[y][:, None]
    z = s[~y][None, :]
    return (x > z) + 0.5 * (x == z)


def reference(y, scores, level=0.95):
    """DeLong et al. (1988) by the double sum: AUCs, S = S10/m + S01/n, z, p, Wald intervals."""
    psis = [psi_matrix(y, s) for s in scores]
    m, n = psis[0].shape
    v10 = np.stack([p.mean(axis=1) for p in psis])
    v01 = np.stack([p.mean(axis=0) for p in psis])
    theta = np.array([p.mean() for p in psis])
    s10 = np.cov(v10)  # rows are systems; divisor m - 1
    s01 = np.cov(v01)
    S = np.atleast_2d(s10 / m + s01 / n)
    out = {"auc": theta, "S": S, "v10": v10, "v01": v01}
    q = norm.ppf((1 + level) / 2)
    out["ci"] = [(max(0.0, t - q * math.sqrt(S[i, i])), min(1.0, t + q * math.sqrt(S[i, i])))
                 for i, t in enumerate(theta)]
    if len(scores) == 2:
        var = S[0, 0] + S[1, 1] - 2 * S[0, 1]
        d = theta[0] - theta[1]
        out.update(var_delta=var, z=d / math.sqrt(var), delta=d)
        out["p1"] = 1 - norm.cdf(out["z"])
        out["p2"] = 2 * (1 - norm.cdf(abs(out["z"])))
        out["ci_delta"] = (max(-1.0, d - q * math.sqrt(var)), min(1.0, d + q * math.sqrt(var)))
    return out


def tied_case(seed, n, levels=4, prevalence=0.4):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    y[:2] = True
    y[2:4] = False
    a = rng.integers(0, levels, n) + y * rng.integers(0, 2, n)
    b = np.where(rng.random(n) < 0.5, a, rng.integers(0, levels + 1, n))
    return y, a.astype(float), b.astype(float)


# --- the placement values and the test equal the double sum (heavy ties) --------------

def check_against_the_double_sum(y, a, b):
    ref = reference(y, [a, b])
    r = dl.delong_test(y, a, b, positive=True)
    assert r.auc_a == pytest.approx(ref["auc"][0], abs=1e-12)
    assert r.auc_b == pytest.approx(ref["auc"][1], abs=1e-12)
    assert r.var_a == pytest.approx(ref["S"][0, 0], abs=1e-12)
    assert r.var_b == pytest.approx(ref["S"][1, 1], abs=1e-12)
    assert r.covariance == pytest.approx(ref["S"][0, 1], abs=1e-12)
    if ref["var_delta"] > 1e-14:
        assert r.var_delta == pytest.approx(ref["var_delta"], abs=1e-12)
        assert r.z == pytest.approx(ref["z"], rel=1e-10)
        assert r.p_value == pytest.approx(ref["p1"], abs=1e-12)
        assert r.p_value_two_sided == pytest.approx(ref["p2"], abs=1e-12)
        assert r.ci_delta == pytest.approx(list(ref["ci_delta"]), abs=1e-12)
    assert r.ci_a == pytest.approx(list(ref["ci"][0]), abs=1e-12)
    assert r.ci_b == pytest.approx(list(ref["ci"][1]), abs=1e-12)
    v10, v01 = dl.placements(y, a, positive=True)
    np.testing.assert_allclose(v10, ref["v10"][0], atol=1e-15)
    np.testing.assert_allclose(v01, ref["v01"][0], atol=1e-15)


@pytest.mark.parametrize("seed", range(12))
def test_equals_the_double_sum_with_heavy_ties(seed):
    n = 7 + 9 * seed
    y, a, b = tied_case(seed, n, levels=2 + seed % 4)
    check_against_the_double_sum(y, a, b)


@pytest.mark.parametrize("seed", range(6))
def test_the_packed_sort_path_equals_the_double_sum(seed, monkeypatch):
    monkeypatch.setattr(midranks, "PACKED_MIN", 2)
    y, a, b = tied_case(100 + seed, 60, levels=3)
    # distinct scores 2^-50 apart (relative): their packed keys collide and must be re-sorted by value
    a = a * (1 + np.where(np.random.default_rng(seed).random(60) < 0.3, 2.0 ** -50, 0.0))
    assert len(np.unique(a)) > len(np.unique(np.round(a)))
    ref = reference(y, [a, b])
    r = dl.delong_test(y, a, b, positive=True)
    assert r.var_a == pytest.approx(ref["S"][0, 0], abs=1e-12)
    assert r.covariance == pytest.approx(ref["S"][0, 1], abs=1e-12)
    assert r.p_value == pytest.approx(ref["p1"], abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_the_no_sort_tie_path_equals_the_double_sum(seed, monkeypatch):
    monkeypatch.setattr(midranks, "TIES_MIN", 2)
    y, a, b = tied_case(200 + seed, 90 + 13 * seed, levels=2 + seed % 3)
    a[::7] = -0.0  # -0.0 and 0.0 tie
    b[1::5] = 0.0
    assert midranks.tie_groups(a) is not None and midranks.tie_groups(b) is not None
    check_against_the_double_sum(y, a, b)


def test_the_tie_path_is_taken_only_for_heavy_ties():
    rng = np.random.default_rng(0)
    assert midranks.tie_groups(rng.normal(size=5000)) is None  # every value distinct
    s = np.round(rng.normal(size=5000), 1)
    r = midranks.tie_groups(s)
    assert np.array_equal(r, np.unique(s, return_inverse=True)[1])  # the dense ranks, as np.unique gives them


def test_one_auc_equals_the_double_sum_and_scikit_learn():
    y, a, _ = tied_case(3, 80, levels=5)
    ref = reference(y, [a])
    r = dl.delong_auc(y, a, positive=True, level=0.9)
    assert r.auc == pytest.approx(roc_auc_score(y, a), abs=1e-15)
    assert r.variance == pytest.approx(ref["S"][0, 0], abs=1e-12)
    q = norm.ppf(0.95)
    assert r.ci == pytest.approx([max(0, r.auc - q * r.se), min(1, r.auc + q * r.se)], abs=1e-12)
    from_ranking = dl.delong_auc(ranking(y, a, positive=True))
    assert from_ranking.variance == pytest.approx(dl.delong_auc(y, a, positive=True).variance, abs=1e-15)


def test_worked_example_by_hand():
    # Positives at ranks 1, 2, 4 of ten: V10 = (1, 1, 6/7), V01 = (2/3, 1 × 6).
    r = dl.delong_auc([1, 1, 0, 1, 0, 0, 0, 0, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], positive=1)
    s10 = np.var([1, 1, 6 / 7], ddof=1)
    s01 = np.var([2 / 3] + [1] * 6, ddof=1)
    assert r.auc == pytest.approx(20 / 21)
    assert r.variance == pytest.approx(s10 / 3 + s01 / 7, abs=1e-15)
    assert r.ci[1] == 1.0 and r.truncated


def test_aucs_equal_scikit_learn_on_continuous_scores():
    rng = np.random.default_rng(7)
    y = rng.random(5000) < 0.2
    a = rng.normal(size=5000) + y
    b = np.round(rng.normal(size=5000) + 0.7 * y, 1)  # many ties
    r = dl.delong_test(y, a, b, positive=True)
    assert r.auc_a == pytest.approx(roc_auc_score(y, a), abs=1e-13)
    assert r.auc_b == pytest.approx(roc_auc_score(y, b), abs=1e-13)


def test_large_packed_sort_equals_argsort():
    rng = np.random.default_rng(1)
    n = 200_000
    s = rng.normal(size=n)
    s[:5000] = 1.0 + np.arange(5000) * 2.0 ** -50  # distinct values whose top key bits collide
    s[5000:6000] = -0.0
    s[6000:7000] = 0.0
    s[7000:7100] = 5e-324
    s[7100:7200] = -5e-324
    s[7200:9000] = np.round(s[7200:9000], 2)
    rng.shuffle(s)
    labels, items, _ = midranks.positives_first(rng.random(n) < 0.3)
    assert np.array_equal(labels[items], np.arange(n))
    order, starts = midranks.sort_order(s, labels, items)
    assert np.array_equal(np.sort(order), np.arange(n))
    sv = s[items[order]]
    assert np.array_equal(sv, np.sort(s))
    expected = np.ones(n, dtype=bool)
    expected[1:] = sv[1:] != sv[:-1]  # -0.0 == 0.0: one tie group
    assert np.array_equal(starts, expected)


def test_packed_sort_without_ties_reports_none(monkeypatch):
    monkeypatch.setattr(midranks, "PACKED_MIN", 2)
    s = np.array([3.0, -1.0, 1.0 + 2.0 ** -52, 1.0, -2.5, 0.0])
    order, starts = midranks.sort_order(s, np.arange(6), np.arange(6))
    assert s[order].tolist() == sorted(s.tolist()) and starts is None


# --- against the bootstrap on a larger test set ---------------------------------------

def test_variance_of_the_difference_agrees_with_the_paired_bootstrap():
    rng = np.random.default_rng(11)
    n = 3000
    y = rng.random(n) < 0.3
    latent = rng.normal(size=n)
    a = latent + 1.2 * y + rng.normal(scale=0.8, size=n)
    b = latent + 1.0 * y + rng.normal(scale=0.8, size=n)
    r = dl.delong_test(y, a, b, positive=True)
    deltas = bootstrap_distribution(y, a, b, metric="roc_auc", positive=True, samples=4000, seed=5)
    boot = float(np.var(deltas, ddof=1))
    assert abs(r.var_delta / boot - 1) < 0.10, (r.var_delta, boot)


# --- undefined cases and the JSON interface -------------------------------------------

def test_one_class_absent_is_a_data_error():
    with pytest.raises(DataError, match="positive and negative"):
        dl.delong_test([1, 1, 1], [0.1, 0.2, 0.3], [0.3, 0.2, 0.1], positive=1)
    with pytest.raises(DataError, match="positive"):
        dl.delong_auc([0, 0, 0], [0.1, 0.2, 0.3], positive=1)
    with pytest.raises(UsageError, match="positive class"):
        dl.delong_test([1, 0], [0.1, 0.2], [0.3, 0.2], positive=None)


def test_one_positive_leaves_the_variance_undefined():
    r = dl.delong_test([1, 0, 0, 0], [0.9, 0.1, 0.2, 0.3], [0.5, 0.1, 0.6, 0.3], positive=1)
    assert r.auc_a == 1.0 and r.auc_b == pytest.approx(2 / 3)
    d = r.to_dict()
    assert math.isnan(d["var_a"]) and math.isnan(d["z"]) and math.isnan(d["p_value"])  # NaN (issue 22)
    assert {u["field"] for u in d["undefined"]} >= {"var_a", "z", "p_value"}
    assert "at least two positive" in d["undefined"][0]["reason"]
    assert "undefined" in r.verdict
    assert json.loads(to_json(r))["p_value"] is None  # null in JSON


def test_identical_rankings_have_no_test():
    y = [1, 1, 0, 1, 0, 0]
    s = [0.9, 0.4, 0.5, 0.3, 0.2, 0.1]
    r = dl.delong_test(y, s, [2 * x for x in s], positive=1)
    assert r.delta == 0 and r.var_delta == 0
    d = r.to_dict()
    assert math.isnan(d["z"]) and math.isnan(d["p_value"])  # NaN (issue 22)
    assert "variance of the AUC difference is 0" in d["undefined"][0]["reason"]
    assert r.ci_delta == (0.0, 0.0)
    assert json.loads(to_json(r))["z"] is None


def test_signature_and_truncation_flags():
    y, a, b = tied_case(4, 40)
    d = dl.delong_test(y, a, b, positive=True, level=0.9).to_dict()
    assert d["signature"]["level"] == 0.9 and d["signature"]["result"] == "delong_test"
    assert set(d["signature"]["versions"]) >= {"python", "clfeval", "numpy", "scipy"}
    assert "seed" not in d["signature"]  # nothing random
    assert "truncated to [0, 1]" in d["ci"]["method"]


# --- one-vs-rest, Holm-adjusted ----------------------------------------------------------

def test_one_vs_rest_is_per_class_delong_with_holm():
    rng = np.random.default_rng(2)
    n = 300
    labels = ["a", "b", "c", "d"]
    gold = rng.choice(labels[:3], size=n)  # "d" never occurs
    sa = {lab: rng.normal(size=n) + (gold == lab) * 1.0 for lab in labels}
    sb = {lab: rng.normal(size=n) + (gold == lab) * 0.6 for lab in labels}
    r = dl.delong_ovr(gold, sa, sb)
    assert r.per_class["d"] is None
    assert r.undefined[0].field == "per_class.d"
    ps = []
    for lab in labels[:3]:
        one = dl.delong_test(gold == lab, sa[lab], sb[lab], positive=True)
        c = r.per_class[lab]
        assert c.p_value == pytest.approx(one.p_value, abs=1e-15)
        assert c.auc_a == pytest.approx(roc_auc_score(gold == lab, sa[lab]), abs=1e-13)
        ps.append(one.p_value)
    adj = holm(ps)
    for lab, q in zip(labels[:3], adj, strict=True):
        assert r.p_holm[lab] == pytest.approx(q)
    d = r.to_dict()
    assert d["per_class"]["d"] is None and d["per_class"]["a"]["p_holm"] == pytest.approx(adj[0])
    json.dumps(d, allow_nan=False)


def test_one_vs_rest_refuses_different_classes():
    with pytest.raises(DataError, match="same classes"):
        dl.delong_ovr(["a", "b"], {"a": [1, 0], "b": [0, 1]}, {"a": [1, 0], "c": [0, 1]})
