"""Issue 18, item 1: the verdict of a paired test and the one-sided bound shown beside it agree by construction.

The paired bootstrap's p = #{δ_i ≥ 2δ}/b rejects exactly when the basic (reverse-percentile) one-sided
bound 2δ − q_r, r = b − ⌈αb⌉ + 1, is > 0; McNemar's exact test exactly when the Clopper–Pearson bound it
inverts is. The property is checked over many seeded random comparisons (small n, small b, every kind of
metric, ties and undefined replicates included) and, by a hand computation, at the boundary itself.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from clfeval.significance._bounds import mcnemar_lower
from clfeval.significance._paired import compare
from clfeval.stats import _resample as rs

METRICS = ["accuracy", "error_rate", "macro_f1", "f1:1", "mcc", "balanced_accuracy", "precision:0"]


def _excludes_zero(c) -> bool:
    tb = c.ci.test_bound
    return tb.value > 0 if tb.side == "lower" else tb.value < 0


def test_bootstrap_verdict_iff_basic_bound_excludes_zero():
    rng = np.random.default_rng(18)
    seen = {True: 0, False: 0}
    for i in range(1200):
        n = int(rng.integers(4, 40))
        k = int(rng.integers(2, 4))
        gold = rng.integers(0, k, n)
        gold[:k] = np.arange(k)  # every class occurs (f1:1, precision:0 name one)
        acc_a, acc_b = rng.uniform(0.3, 1.0, 2)
        a = np.where(rng.random(n) < acc_a, gold, rng.integers(0, k, n))
        b = np.where(rng.random(n) < acc_b, gold, rng.integers(0, k, n))
        metric = METRICS[i % len(METRICS)]
        alpha = [0.05, 0.1, 0.01, 0.2][i % 4]
        samples = int(rng.integers(10, 120))
        zd = ["0", "nan", "1"][i % 3]
        c = compare(gold, a, b, metric=metric, labels=list(range(k)), samples=samples, seed=i, alpha=alpha,
                    zero_division=zd)
        tb = c.ci.test_bound
        assert tb.side == ("lower" if c.higher_is_better else "upper")
        if math.isnan(c.p_value):
            assert math.isnan(tb.value)
            continue
        assert c.significant == _excludes_zero(c), (i, metric, c.p_value, tb)
        seen[c.significant] += 1
        assert ("unlikely to be luck" in c.verdict) == c.significant
    assert min(seen.values()) > 100  # both outcomes occur often, so the property is not vacuous


def test_boundary_by_hand():
    """b = 20, α = 0.05: K = ⌈αb⌉ − 1 = 0, r = 20 (the largest replicate). p = count/20 < 0.05 iff no replicate
    reaches 2δ; the bound 2δ − max(δ_i) is > 0 iff the largest replicate is below 2δ."""
    reps = np.linspace(0.0, 0.19, 20)  # largest 0.19
    assert rs.allowed_count(0.05, 20) == 0
    assert rs.basic_bound(reps, 0.1, 0.05, 1e-12) > 0  # 2δ = 0.2 > 0.19: no replicate reaches it, p = 0
    assert rs.basic_bound(reps, 0.095, 0.05, 1e-12) == 0.0  # 2δ = 0.19: one replicate ties it (p = 1/20), bound 0
    # within the tie tolerance the count says "reached", so the bound must not be > 0
    assert rs.basic_bound(reps, 0.095 + 1e-14, 0.05, 1e-12) == 0.0
    # b = 30: K = 1 (1/30 < 0.05, 2/30 ≥ 0.05), r = 29: the second largest replicate
    reps = np.arange(30) / 100.0
    assert rs.allowed_count(0.05, 30) == 1
    assert rs.basic_bound(reps, 0.145, 0.05, 1e-12) == pytest.approx(0.29 - 0.28)
    assert rs.basic_bound(reps, 0.14, 0.05, 1e-12) == 0.0  # 2δ = 0.28 ties the 29th smallest: count 2, p = 0.067
    # undefined replicates never reach the threshold: they rank lowest
    reps = np.array([np.nan, np.nan, 0.1, 0.2])
    assert rs.basic_bound(reps, 0.11, 0.5, 1e-12) == pytest.approx(0.22 - 0.1)  # r = 3 of [−∞, −∞, 0.1, 0.2]


def test_mcnemar_bound_iff_exact_test():
    """Clopper–Pearson by hand: with n_AB = 9, n_BA = 2 the exact one-sided p is P(X ≥ 9 | 11, ½) = 67/2048."""
    p = sum(math.comb(11, j) for j in range(9, 12)) / 2 ** 11
    assert p == pytest.approx(0.03271484375)
    lo = mcnemar_lower(9, 2, 0.05)
    # π_L solves P(X ≥ 9 | 11, π_L) = 0.05
    tail = sum(math.comb(11, j) * lo ** j * (1 - lo) ** (11 - j) for j in range(9, 12))
    assert tail == pytest.approx(0.05, abs=1e-9)
    assert lo > 0.5
    for n_ab in range(0, 25):
        for n_ba in range(0, 25):
            if n_ab + n_ba == 0:
                continue
            pv = sum(math.comb(n_ab + n_ba, j) for j in range(n_ab, n_ab + n_ba + 1)) / 2 ** (n_ab + n_ba)
            assert (pv < 0.05) == (mcnemar_lower(n_ab, n_ba, 0.05) > 0.5), (n_ab, n_ba)


def test_mcnemar_and_randomization_in_compare():
    rng = np.random.default_rng(5)
    for i in range(200):
        n = int(rng.integers(5, 60))
        gold = rng.integers(0, 2, n)
        a = np.where(rng.random(n) < 0.85, gold, 1 - gold)
        b = np.where(rng.random(n) < 0.6, gold, 1 - gold)
        c = compare(gold, a, b, test="mcnemar", metric=["accuracy", "error_rate"][i % 2], samples=20, seed=i)
        assert c.significant == _excludes_zero(c)
    r = compare(gold, a, b, test="randomization", samples=50)
    assert r.ci.test_bound is None
    assert "different procedure from the test" in r.ci.two_sided
