"""The one accumulator of calibration sums (issue 38, item 1): hand-computed numbers, scikit-learn's
``calibration_curve`` as an oracle of the ``sklearn`` edges, and sums that add to the same bits in any split."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clfeval.ops.calibration import CalibrationSums, Read

Y = np.array([True, False, True, False, True])
P = np.array([0.9, 0.1, 0.6, 0.4, 0.35])


def test_uniform_bins_by_hand():
    # bins of width 0.5: [0, .5) holds 0.1, 0.4, 0.35 (one positive), [.5, 1] holds 0.9, 0.6 (two positives)
    f = CalibrationSums.of(Y, P, bins=2).reliability()
    assert [r["count"] for r in f.rows] == [3, 2]
    assert f.rows[0]["confidence"] == pytest.approx(0.85 / 3) and f.rows[0]["accuracy"] == pytest.approx(1 / 3)
    # ECE = (|1 - 0.85| + |2 - 1.5|) / 5 = 0.13; MCE = max(0.15/3, 0.5/2) = 0.25
    assert f.ece == pytest.approx(0.13) and f.mce == pytest.approx(0.25)
    assert f.brier == pytest.approx((0.01 + 0.01 + 0.16 + 0.16 + 0.4225) / 5)
    assert f.log_loss == pytest.approx(-(math.log(0.9) + math.log(0.9) + math.log(0.6) + math.log(0.6)
                                         + math.log(0.35)) / 5)
    assert (f.n, f.formed) == (5, 2)


def test_clfeval_and_sklearn_edges_differ_on_an_edge():
    # 0.5 is in the upper bin of [0, .5), [.5, 1] but the lower of scikit-learn's right-closed (0, .5], (.5, 1]
    y, p = np.array([True]), np.array([0.5])
    assert [r["count"] for r in CalibrationSums.of(y, p, bins=2).reliability().rows] == [0, 1]
    assert [(r["lower"], r["count"]) for r in CalibrationSums.of(y, p, bins=2, edges="sklearn").reliability().rows] == [
        (0.0, 1)]


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_sklearn_edges_give_calibration_curve(strategy):
    from sklearn.calibration import calibration_curve

    rng = np.random.default_rng(3)
    p = rng.random(200)
    y = rng.random(200) < p
    rows = CalibrationSums.of(y, p, bins=7, strategy=strategy, edges="sklearn").reliability().rows
    prob_true, prob_pred = calibration_curve(y, p, n_bins=7, strategy=strategy)
    assert [r["accuracy"] for r in rows] == pytest.approx(list(prob_true), abs=1e-12)
    assert [r["confidence"] for r in rows] == pytest.approx(list(prob_pred), abs=1e-12)


def test_quantile_bins_by_hand():
    # six values, three equal-mass bins: the 2nd and 4th smallest start bins 1 and 2
    y = np.array([False, True, False, True, True, True])
    p = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    f = CalibrationSums.of(y, p, bins=3, strategy="quantile").reliability()
    assert [(r["lower"], r["upper"], r["count"], r["accuracy"]) for r in f.rows] == [
        (0.1, 0.3, 2, 0.5), (0.3, 0.5, 2, 0.5), (0.5, 0.6, 2, 1.0)]


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("edges", ["clfeval", "sklearn"])
def test_any_split_and_any_grouping_gives_the_same_bits(strategy, edges):
    rng = np.random.default_rng(11)
    p = rng.random(1000)
    y = rng.random(1000) < p
    g = rng.integers(0, 3, 1000)
    whole = CalibrationSums.of(y, p, bins=8, strategy=strategy, edges=edges).reliability()
    parts = [CalibrationSums.of(y[a:b], p[a:b], bins=8, strategy=strategy, edges=edges)
             for a, b in [(700, 1000), (0, 1), (1, 700)]]
    added = (parts[0] + parts[1] + parts[2]).reliability()
    merged = CalibrationSums.empty(8, strategy, edges)
    for a, b in [(500, 1000), (0, 500)]:
        merged.add(Read(y[a:b], p[a:b], "binary"))
    assert repr(added) == repr(whole) == repr(merged.reliability())
    grouped = CalibrationSums.grouped(y, p, g, 3, bins=8, strategy=strategy, edges=edges)
    for k in range(3):
        alone = CalibrationSums.of(y[g == k], p[g == k], bins=8, strategy=strategy, edges=edges).reliability()
        assert repr(grouped[k].reliability()) == repr(alone)
