"""Bootstrap bands of the ROC and PR curves: the observed curves against scikit-learn's points, bands
that contain the curve, coverage on a simulated binormal case, seeds, and agreement with DeLong."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve

from clfeval.errors import DataError, UsageError
from clfeval.scores._curves import ranking
from clfeval.significance._curvebands import curve_bands
from clfeval.significance._delong import delong_auc


def binormal(n, seed, shift=1.0, prevalence=0.3, decimals=None):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    s = rng.normal(size=n) + shift * y
    return y, (np.round(s, decimals) if decimals is not None else s)


# --- the observed curves, read from scikit-learn's points independently -------------------

def sklearn_tpr_at(y, s, grid):
    """TPR on the ROC polyline: at an FPR that has points, the highest; between, linear from the left
    point's top to the right point's bottom."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    xs = np.unique(fpr)
    top = {x: tpr[fpr == x].max() for x in xs}
    bottom = {x: tpr[fpr == x].min() for x in xs}
    out = []
    for f in grid:
        near = xs[np.isclose(xs, f, rtol=0, atol=1e-12)]
        if near.size:
            out.append(top[near[0]])
            continue
        left, right = xs[xs < f].max(), xs[xs > f].min()
        out.append(top[left] + (bottom[right] - top[left]) * (f - left) / (right - left))
    return np.array(out)


def sklearn_precision_at(y, s, grid):
    """Precision of the first cut (highest threshold) whose recall reaches each grid value."""
    p, r, _ = precision_recall_curve(y, s, drop_intermediate=False)
    p, r = p[:-1][::-1], r[:-1][::-1]  # drop the appended (1, 0); decreasing threshold
    return np.array([p[np.flatnonzero(r >= g - 1e-12)[0]] for g in grid])


@pytest.mark.parametrize("decimals", [None, 1, 0])
def test_observed_curves_and_areas_equal_scikit_learn(decimals):
    y, s = binormal(400, 1, decimals=decimals)
    b = curve_bands(y, s, positive=True, samples=50, seed=0)
    assert b.roc_auc["value"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert b.average_precision["value"] == pytest.approx(average_precision_score(y, s), abs=1e-12)
    np.testing.assert_allclose(b.roc["observed"], sklearn_tpr_at(y, s, b.fpr_grid), atol=1e-12)
    np.testing.assert_allclose(b.pr["observed"], sklearn_precision_at(y, s, b.recall_grid), atol=1e-12)


def test_hand_computed_curves_at_grid_values_met_exactly():
    # positives at ranks 1, 3, 4, 6 of 8 (P = 4, N = 4);
    # cuts: (TP, FP) = (1,0) (1,1) (2,1) (3,1) (3,2) (4,2) (4,3) (4,4)
    y = [1, 0, 1, 1, 0, 1, 0, 0]
    s = [8, 7, 6, 5, 4, 3, 2, 1]
    b = curve_bands(y, s, positive=1, samples=20, fpr_grid=[0.0, 0.25, 0.375, 0.5, 1.0],
                    recall_grid=[0.0, 0.25, 0.5, 0.75, 1.0])
    # TPR: 1/4 at FPR 0; the top of the rise at FPR 1/4 is 3/4; halfway to (2/4, 3/4) from (1/4, 3/4): 3/4
    assert b.roc["observed"].tolist() == [0.25, 0.75, 0.75, 1.0, 1.0]
    # precision of the first cut reaching each recall: 1, 1, 2/3, 3/4, 4/6
    assert b.pr["observed"] == pytest.approx([1.0, 1.0, 2 / 3, 0.75, 4 / 6])
    assert b.roc_auc["value"] == pytest.approx(roc_auc_score(y, s)) and b.roc_auc["value"] == 0.75


def test_bands_contain_the_observed_curve_at_most_grid_points():
    y, s = binormal(2000, 2)
    b = curve_bands(y, s, positive=True, samples=1000, seed=3)
    for curve in (b.roc, b.pr):
        inside = (curve["low"] <= curve["observed"] + 1e-12) & (curve["observed"] <= curve["high"] + 1e-12)
        assert inside.mean() >= 0.9
        assert np.all(curve["low"] <= curve["high"])
    assert b.roc["observed"][-1] == 1.0 and b.roc["low"][-1] == 1.0
    assert b.roc_auc["ci"][0] < b.roc_auc["value"] < b.roc_auc["ci"][1]
    assert b.average_precision["ci"][0] < b.average_precision["value"] < b.average_precision["ci"][1]


def test_coverage_on_a_simulated_binormal_case():
    # negatives N(0, 1), positives N(1, 1): TPR(f) = 1 − Φ(Φ⁻¹(1 − f) − 1), AUC = Φ(1/√2)
    grid = np.array([0.1, 0.3, 0.6])
    true_tpr = 1 - norm.cdf(norm.ppf(1 - grid) - 1.0)
    true_auc = norm.cdf(1 / np.sqrt(2))
    hits_band, hits_auc, runs = np.zeros(grid.size), 0, 120
    for k in range(runs):
        y, s = binormal(300, 100 + k)
        b = curve_bands(y, s, positive=True, samples=300, seed=k, fpr_grid=grid, recall_grid=2)
        hits_band += (b.roc["low"] <= true_tpr) & (true_tpr <= b.roc["high"])
        hits_auc += b.roc_auc["ci"][0] <= true_auc <= b.roc_auc["ci"][1]
    # nominal 0.95; with 120 runs the binomial standard error is 0.02
    assert np.all(hits_band / runs >= 0.85), hits_band / runs
    assert hits_auc / runs >= 0.87, hits_auc / runs


def test_same_seed_same_numbers_and_a_ranking_gives_the_same():
    y, s = binormal(500, 4, decimals=2)
    a = curve_bands(y, s, positive=True, samples=200, seed=7)
    b = curve_bands(ranking(y, s, positive=True), samples=200, seed=7)
    c = curve_bands(y, s, positive=True, samples=200, seed=8)
    assert a.to_dict() == b.to_dict()
    assert not np.array_equal(a.roc["low"], c.roc["low"])
    assert a.signature["seed"] == 7 and a.signature["samples"] == 200


def test_bootstrap_auc_interval_agrees_with_delong_on_large_n():
    y, s = binormal(6000, 5)
    b = curve_bands(y, s, positive=True, samples=2000, seed=1, fpr_grid=11, recall_grid=11)
    d = delong_auc(y, s, positive=True)
    width = d.ci[1] - d.ci[0]
    assert b.roc_auc["ci"] == pytest.approx(d.ci, abs=0.1 * width)


def test_plain_resampling_counts_replicates_without_a_curve():
    y = np.array([1, 0, 0, 0, 0, 0, 0, 0], dtype=bool)
    s = np.array([0.9, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])
    b = curve_bands(y, s, positive=True, samples=400, seed=0, stratified=False)
    # P(no positive in 8 draws) = (7/8)^8 ≈ 0.34
    assert 0.25 < b.undefined_replicates / 400 < 0.45
    assert any("no positive or no negative" in n for n in b.notes)
    st = curve_bands(y, s, positive=True, samples=400, seed=0)
    assert st.undefined_replicates == 0 and st.roc_auc["ci"] == [1.0, 1.0]
    d = b.to_dict()
    assert d["resampling"] == "plain" and st.to_dict()["resampling"] == "stratified"
    json.dumps(d, allow_nan=False)
    json.dumps(st.to_dict(), allow_nan=False)


def test_refusals():
    with pytest.raises(DataError, match="3 positive and 0 negative items; the ROC and PR curves need both"):
        curve_bands(ranking([1, 1, 1], [0.1, 0.2, 0.3], positive=1))
    with pytest.raises(UsageError, match="fpr_grid"):
        curve_bands([1, 0], [0.5, 0.2], positive=1, fpr_grid=[0.5, 0.2])
    with pytest.raises(UsageError, match="recall_grid"):
        curve_bands([1, 0], [0.5, 0.2], positive=1, recall_grid=1)
