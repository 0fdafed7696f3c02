"""The distribution pins' helper (issue 39, ``tests/_helpers/mc.py``): each reference and each check by hand, and a
wrong sampler failing each check (drawing n − 1 items, a shifted distribution, a wrong null)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from tests._helpers import mc


def mean(x):
    return float(np.mean(x))


def test_the_exact_bootstrap_of_a_proportion_is_the_binomial():
    # 5 items, 3 right: the bootstrap accuracy is Bin(5, 0.6)/5 exactly
    ref = mc.exact_bootstrap(mean, (np.array([1, 1, 1, 0, 0]),))
    want = mc.binomial_proportion(5, 0.6)
    assert ref.values.tolist() == pytest.approx(want.values.tolist())
    assert ref.probs.tolist() == pytest.approx(want.probs.tolist(), abs=1e-12)
    assert ref.ppf(0.025) == 0.2 and ref.ppf(0.975) == 1.0  # P(X ≤ 0) = 0.01024, P(X ≤ 1) = 0.087; P(X ≤ 4) = 0.922
    assert ref.cdf(0.4) == pytest.approx(stats.binom.cdf(2, 5, 0.6))


def test_item_replicates_follow_the_exact_bootstrap_and_a_sampler_of_n_minus_1_items_fails():
    x = np.array([0.0, 1.0, 3.0, 4.0, 7.0, 9.0])
    exact = mc.exact_bootstrap(mean, (x,))
    good = mc.item_replicates(mean, (x,), samples=4000, seed=1)
    for q in (0.025, 0.5, 0.975):
        mc.assert_quantile(float(np.quantile(good.values, q)), exact, q, 4000)
    mc.assert_se(good.moments()[1], exact, 4000)
    short = mc.item_replicates(mean, (x,), samples=4000, seed=1, items=5)  # n − 1 items: wider
    with pytest.raises(AssertionError, match="standard error"):
        mc.assert_se(short.moments()[1], exact, 4000)
    with pytest.raises(AssertionError, match="quantile"):  # shifted by a fifth of its standard deviation
        mc.assert_quantile(float(np.quantile(good.values, 0.5)) + 0.2 * good.moments()[1], exact, 0.5, 4000)


def test_a_quantile_band_is_the_binomial_band_of_its_rank():
    ref = mc.Reference.exact(np.arange(1001) / 1000, np.full(1001, 1 / 1001))  # uniform on a fine grid
    lo, hi = mc.quantile_band(ref, 0.5, 400)
    half = 4 * math.sqrt(0.25 / 400) + 1 / 400  # 0.1025
    assert lo == pytest.approx(0.5 - half, abs=2e-3) and hi == pytest.approx(0.5 + half, abs=2e-3)
    mc.assert_quantile(0.55, ref, 0.5, 400)
    with pytest.raises(AssertionError, match="outside"):  # a shifted distribution: its median 0.62
        mc.assert_quantile(0.62, ref, 0.5, 400)


def test_an_interval_is_its_two_quantiles():
    ref = mc.binomial_proportion(10, 0.7)  # compare_mcnemar.txt's A: accuracy 7/10, percentile ends 0.4 and 1.0
    mc.assert_interval((0.4, 1.0), ref, 0.95, 1000)
    mc.assert_interval((0.4, 0.9), ref, 0.95, 1000)  # P(X ≤ 9) = 0.972 against 0.975: 0.9 is within reach
    with pytest.raises(AssertionError, match="interval low"):
        mc.assert_interval((0.5, 1.0), ref, 0.95, 1000)  # P(X ≤ 4) = 0.047: 0.4 is not in doubt


def test_a_p_value_within_its_binomial_error_and_a_wrong_null_fails():
    # the exact sign-flip p-value of d = (1, 2, 3, 4, 5, -1): P(Σ ε·d ≥ 14) over 2⁶ sign vectors
    d = np.array([1, 2, 3, 4, 5, -1])
    signs = np.array(np.meshgrid(*[[-1, 1]] * 6)).reshape(6, -1).T
    exact = float(np.mean(signs @ np.abs(d) >= d.sum()))
    assert exact == 3 / 64  # sums ≥ 14 of ±1..±5, ±1: the all-plus vector and two one-flip vectors
    rng = np.random.default_rng(0)
    b = 2000
    flips = rng.choice([-1, 1], (b, 6))
    mc.assert_p_value(float(np.mean(flips @ np.abs(d) >= d.sum())), exact, b)
    biased = rng.choice([-1, 1], (b, 6), p=[0.3, 0.7])  # a wrong null: signs not fair
    with pytest.raises(AssertionError, match="p-value"):
        mc.assert_p_value(float(np.mean(biased @ np.abs(d) >= d.sum())), exact, b)
    assert mc.p_value_tolerance(0.0, 200) == pytest.approx(4 * math.sqrt(0.005 * 0.995 / 200) + 0.01)


def test_a_stored_end_moves_by_its_normal_quantile_error():
    # [0.4, 0.6] at 95 %: σ = 0.1/1.96; the 2.5 % quantile's error at B = 400: σ·√(0.025·0.975/400)/φ(1.96)
    sigma = 0.1 / stats.norm.ppf(0.975)
    se = sigma * math.sqrt(0.025 * 0.975 / 400) / stats.norm.pdf(stats.norm.ppf(0.025))
    assert mc.end_tolerance(0.4, 0.6, 0.95, 400) == pytest.approx(4 * math.sqrt(2) * se, rel=1e-9)
    assert mc.end_tolerance(0.4, 0.6, 0.95, 400, bca=True, grid=0.01) == pytest.approx(8 * math.sqrt(2) * se + 0.01)
    assert mc.end_tolerance(0.5, 0.5, 0.95, 400) < 1e-11  # a degenerate interval: exact


def test_the_jackknife_acceleration_by_hand_and_a_bca_band():
    # 3 ones, 2 zeros: leave-one-out means 0.5 (a one out) and 0.75 (a zero out), their mean 0.6; U = 0.1, −0.15;
    # a = (3·0.001 − 2·0.003375) / (6·0.075^1.5) = −0.0304
    x = np.array([1.0, 1.0, 1.0, 0.0, 0.0])
    assert mc.jackknife_acceleration(np.mean, (x,)) == pytest.approx(-0.00375 / (6 * 0.075**1.5), rel=1e-12)
    ten = np.array([1.0] * 7 + [0.0] * 3)  # compare_mcnemar.txt's A: BCa ends 0.4 and 0.9 at 1,000 replicates
    ref, a = mc.binomial_proportion(10, 0.7), mc.jackknife_acceleration(np.mean, (ten,))
    mc.assert_bca(0.4, ref, 0.7, a, 0.025, 1000)
    mc.assert_bca(0.9, ref, 0.7, a, 0.975, 1000)
    with pytest.raises(AssertionError, match="BCa"):
        mc.assert_bca(0.6, ref, 0.7, a, 0.025, 1000)  # a shifted end: P(X ≤ 5) = 0.15


def test_a_mean_of_replicates_and_a_shifted_one():
    ref = mc.binomial_proportion(10, 0.2)  # sd 0.1265: 4 standard errors at 10,000 replicates are 0.0051
    mc.assert_mean(0.203, ref, 10_000)
    with pytest.raises(AssertionError, match="mean"):
        mc.assert_mean(0.21, ref, 10_000)
