"""Binned scores: the AUC within its printed bound of the exact AUC, AP at the bin edges, a bootstrap of counts."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import ks_2samp
from sklearn.metrics import average_precision_score, roc_auc_score

from clfeval.errors import DataError, UsageError
from clfeval.scores._binned import (
    BinnedJoint,
    RowSample,
    ScoreHistogram,
    histogram_auc,
    quantile_binning,
    uniform_binning,
)
from clfeval.scores._curves import SortedRanking
from clfeval.significance._binnedcompare import compare_binned
from tests._helpers import mc


def _exact_pairs(y, s):
    """Mann–Whitney U with ties ½, by brute force over all pairs (the independent oracle)."""
    p, q = s[y], s[~y]
    return Fraction(int((p[:, None] > q[None, :]).sum())) + Fraction(int((p[:, None] == q[None, :]).sum()), 2)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(-50, 50)), min_size=2, max_size=120),
       st.integers(2, 30), st.sampled_from(["uniform", "quantile"]))
def test_binned_auc_is_within_its_printed_bound_of_the_exact_auc(items, bins, kind):
    y = np.array([a for a, _ in items])
    s = np.array([b / 7 for _, b in items])
    if y.all() or not y.any():
        return
    if kind == "uniform":
        binning = uniform_binning(bins, s.min(), s.max())
    else:
        sample = RowSample(cap=40)
        sample.add(0, s)
        binning = quantile_binning(sample.values(), bins)
    h = ScoreHistogram.of(binning, y, s)
    pairs = int(y.sum()) * int((~y).sum())
    exact = _exact_pairs(y, s) / pairs
    binned = Fraction(h.roc_auc)
    # the bound holds in exact arithmetic, and the printed (rounded-up) bound covers the printed values
    b = binning.assign(s)
    assert abs(_exact_pairs(y, b.astype(float)) / pairs - exact) <= Fraction(int(np.dot(h.pos, h.neg)), 2 * pairs)
    assert Fraction(h.auc_error_bound) >= Fraction(int(np.dot(h.pos, h.neg)), 2 * pairs)
    assert abs(binned - exact) <= Fraction(h.auc_error_bound) + Fraction(1, 2 ** 52)
    # and it is the AUC of the items with their scores replaced by their bins, ties ½ (scikit-learn's too)
    assert h.roc_auc == SortedRanking.from_indicator(y, b.astype(float), "1").roc_auc
    assert h.roc_auc == pytest.approx(roc_auc_score(y, b), abs=1e-12)


def test_the_bound_is_attained_when_every_pair_in_a_bin_is_in_order():
    y = np.array([True, True, False, False] * 2)
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.4, 0.3, 0.2, 0.1])  # within each of 2 bins, positives above negatives
    h = ScoreHistogram.of(uniform_binning(2, 0.0, 1.0), y, s)
    # exact U = 8 + 4 = 12 of 16 pairs; binned: 4 pairs across bins + 8 common-bin pairs counted ½ = 8 of 16
    assert (roc_auc_score(y, s), h.roc_auc) == (0.75, 0.5)
    assert h.auc_error_bound == 0.25 == abs(h.roc_auc - roc_auc_score(y, s))  # half of 8/16: attained


def test_ap_and_curves_at_the_bin_edges():
    rng = np.random.default_rng(4)
    y = rng.random(3000) < 0.2
    s = rng.random(3000) + 0.4 * y
    binning = uniform_binning(25, s.min(), s.max())
    h = ScoreHistogram.of(binning, y, s)
    b = binning.assign(s)
    rb = SortedRanking.from_indicator(y, b.astype(float), "1")
    assert h.average_precision == rb.average_precision  # the same exact sum
    assert h.average_precision == pytest.approx(average_precision_score(y, b), abs=1e-12)
    c = h.cuts
    assert np.array_equal(c.tp, rb.cuts.tp) and np.array_equal(c.fp, rb.cuts.fp)
    # each threshold is the bin's lower edge: positive iff score ≥ it selects exactly the bins at or above
    for t, tp, fp in zip(c.thresholds, c.tp, c.fp, strict=True):
        assert (int(np.count_nonzero(s[y] >= t)), int(np.count_nonzero(s[~y] >= t))) == (tp, fp)
    d = h.to_dict()
    assert d["binned"]["exact"] is False and "bin edges" in d["binned"]["note"]
    assert d["roc_auc"] == h.roc_auc and d["signature"]["score_bins"] == 25
    assert d["curves"]["roc"] is not None and "bin edge" in d["curves"]["how"]
    assert len(h.sweep()) == c.thresholds.size


def test_histograms_add_like_tables_and_samples_merge_exactly():
    rng = np.random.default_rng(5)
    y = rng.random(5000) < 0.3
    s = np.round(rng.standard_normal(5000), 2)
    whole = RowSample(cap=300)
    whole.add(0, s)
    left, right = RowSample(cap=300), RowSample(cap=300)
    right.add(2000, s[2000:])
    left.add(0, s[:2000])
    assert np.array_equal(right.merge(left).values(), whole.values())  # any split, any order
    binning = quantile_binning(whole.values(), 50)
    total = ScoreHistogram.empty(binning)
    for i in range(0, 5000, 777):
        total = total + ScoreHistogram.of(binning, y[i:i + 777], s[i:i + 777])
    one = ScoreHistogram.of(binning, y, s)
    assert np.array_equal(total.pos, one.pos) and np.array_equal(total.neg, one.neg)
    assert total.roc_auc == one.roc_auc and total.score_range == one.score_range
    with pytest.raises(DataError, match="different bin edges"):
        one + ScoreHistogram.of(uniform_binning(3, 0, 1), y, s)


def test_quantile_edges_hold_about_equal_shares():
    s = np.random.default_rng(6).random(100_000)
    sample = RowSample(cap=20_000)
    sample.add(0, s)
    binning = quantile_binning(sample.values(), 10)
    counts = np.bincount(binning.assign(s), minlength=10)
    assert binning.bins == 10 and counts.min() > 8_500 and counts.max() < 11_500


def test_bootstrap_is_a_resampling_of_the_binned_items():
    rng = np.random.default_rng(7)
    y = rng.random(400) < 0.4
    s = rng.random(400) + 0.3 * y
    binning = uniform_binning(8, s.min(), s.max())
    h = ScoreHistogram.of(binning, y, s)
    b = binning.assign(s)
    # exactly: a replicate's value is the AUC of the items its table holds
    draws = np.random.default_rng(0).multinomial(h.n, np.concatenate([h.neg, h.pos]) / h.n, size=5)
    for t in draws:
        items_y = np.repeat([False] * 8 + [True] * 8, t)
        items_b = np.repeat(np.concatenate([np.arange(8), np.arange(8)]).astype(float), t)
        assert histogram_auc(t[8:], t[:8]) == SortedRanking.from_indicator(items_y, items_b, "1").roc_auc
    # in distribution: equal to drawing the items with replacement
    counts = h.bootstrap_auc(4000, np.random.default_rng(1))
    idx = np.random.default_rng(2).integers(0, 400, size=(4000, 400))
    by_items = np.array([SortedRanking.from_indicator(y[i], b[i].astype(float), "1").roc_auc for i in idx])
    assert ks_2samp(counts, by_items).pvalue > 0.01
    assert counts.mean() == pytest.approx(by_items.mean(), abs=2e-3)
    assert counts.std() == pytest.approx(by_items.std(), rel=0.1)


def test_compare_binned_matches_a_paired_resampling_of_the_items():
    rng = np.random.default_rng(8)
    y = rng.random(600) < 0.5
    sa = rng.random(600) + 0.5 * y
    sb = rng.random(600) + 0.2 * y
    binning = uniform_binning(10, 0.0, 1.5)
    joint = BinnedJoint.of(binning, binning, y, sa, sb)
    half = 300
    assert np.array_equal((BinnedJoint.of(binning, binning, y[:half], sa[:half], sb[:half])
                           + BinnedJoint.of(binning, binning, y[half:], sa[half:], sb[half:])).counts, joint.counts)
    c = compare_binned(joint, samples=3000, seed=0, names=("a", "b"))
    ha = ScoreHistogram.of(binning, y, sa)
    hb = ScoreHistogram.of(binning, y, sb)
    assert (c.a, c.b) == (ha.roc_auc, hb.roc_auc)
    assert c.a > c.b and c.p_value < 0.01 and "bound" in " ".join(c.notes)
    # the same bootstrap by item indices: the δ distribution agrees
    ba, bb = binning.assign(sa).astype(float), binning.assign(sb).astype(float)
    idx = np.random.default_rng(3).integers(0, 600, size=(1500, 600))
    deltas = np.array([SortedRanking.from_indicator(y[i], ba[i], "1").roc_auc
                       - SortedRanking.from_indicator(y[i], bb[i], "1").roc_auc for i in idx])
    low, high = c.ci.delta
    # issue 39: a distribution pin — both ends in the band of the item resampling's quantiles (tests/_helpers/mc.py)
    mc.assert_interval((low, high), mc.Reference.of_replicates(deltas), 0.95, 3000, "δ interval")
    r = compare_binned(joint, test="randomization", samples=500, seed=0)
    assert r.p_value < 0.05
    with pytest.raises(UsageError, match="one binning"):
        compare_binned(BinnedJoint.of(binning, uniform_binning(4, 0, 1), y, sa, sb), test="randomization")


def test_refusals():
    with pytest.raises(UsageError, match="from 2 to"):
        uniform_binning(1, 0, 1)
    with pytest.raises(DataError, match="finite score range"):
        uniform_binning(10, math.inf, -math.inf)
    empty = ScoreHistogram.empty(uniform_binning(4, 0, 1))
    assert math.isnan(empty.roc_auc) and math.isnan(empty.auc_error_bound) and math.isnan(empty.average_precision)
