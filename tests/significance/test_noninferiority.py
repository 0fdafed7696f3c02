"""Non-inferiority with a margin: the shifted 2δ rule and the basic bootstrap bound, checked against the
replicates themselves (counted here), against compare's p at margin 0, and against the metric's mirror image."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from clfeval.errors import UsageError
from clfeval.significance._noninferiority import check_margin, noninferiority
from clfeval.significance._paired import (
    bootstrap_distribution,
    compare,  # the in-memory step (no engine block)
)


def systems(n, seed, acc_a=0.80, acc_b=0.81):
    rng = np.random.default_rng(seed)
    gold = rng.choice(["x", "y", "z"], size=n, p=[0.5, 0.3, 0.2])
    a = np.where(rng.random(n) < acc_a, gold, rng.choice(["x", "y", "z"], size=n))
    b = np.where(rng.random(n) < acc_b, gold, rng.choice(["x", "y", "z"], size=n))
    return gold, a, b


@pytest.mark.parametrize("metric", ["accuracy", "macro_f1"])
@pytest.mark.parametrize("margin", [0.0, 0.01, 0.03])
def test_p_and_bound_from_the_replicates_counted_here(metric, margin):
    gold, a, b = systems(600, 3)
    r = noninferiority(gold, a, b, margin=margin, metric=metric, samples=3000, seed=7)
    d = bootstrap_distribution(gold, a, b, metric=metric, samples=3000, seed=7)  # the same replicates
    delta = r.a - r.b
    assert r.delta == pytest.approx(delta)
    t = 2 * delta + margin
    assert r.count == int(np.sum(d >= t - 1e-12 * max(1, abs(t))))
    assert r.p_value == r.count / 3000
    k = math.ceil(0.05 * 3000)  # 150: the 150th largest replicate
    assert r.bound == pytest.approx(2 * delta - np.sort(d)[3000 - k], abs=1e-15)
    assert r.rejected == (r.p_value < 0.05)
    if abs(r.bound + margin) > 1e-9:
        assert r.rejected == (r.bound > -margin)
    json.dumps(r.to_dict(), allow_nan=False)


def test_margin_zero_is_compares_bootstrap_test():
    gold, a, b = systems(400, 1, acc_a=0.84, acc_b=0.80)
    ni = noninferiority(gold, a, b, margin=0.0, metric="macro_f1", samples=4000, seed=2)
    c = compare(gold, a, b, metric="macro_f1", samples=4000, seed=2)
    assert ni.p_value == c.p_value and ni.count == c.details.count
    via = compare(gold, a, b, metric="macro_f1", samples=4000, seed=2, margin=0.0)
    assert via.to_dict() == ni.to_dict()


def test_the_decision_and_the_bound_agree_over_many_cases():
    for seed in range(25):
        gold, a, b = systems(150 + 10 * seed, 100 + seed)
        for margin in (0.0, 0.02, 0.05):
            r = noninferiority(gold, a, b, margin=margin, samples=400, seed=seed)
            if abs(r.bound + margin) > 1e-9:  # a bound within rounding of −m counts as not clearing it
                assert r.rejected == (r.bound > -margin), (seed, margin, r.bound, r.p_value)
            assert ("non-inferior)" in r.verdict) == r.rejected


def test_lower_is_better_is_the_mirror_image():
    # error rate = 1 − accuracy: δ flips sign, the bound becomes an upper one, the p-value is the same
    gold, a, b = systems(500, 5)
    acc = noninferiority(gold, a, b, margin=0.02, metric="accuracy", samples=2000, seed=3)
    err = noninferiority(gold, a, b, margin=0.02, metric="error_rate", samples=2000, seed=3)
    assert err.delta == pytest.approx(-acc.delta)
    assert err.bound == pytest.approx(-acc.bound)
    assert err.p_value == acc.p_value and err.rejected == acc.rejected
    assert "upper bound" in err.verdict and err.to_dict()["bound"]["side"] == "upper"
    assert err.hypothesis.startswith("H0: δ = M(A) − M(B) ≥ 0.02")


def test_large_sample_bound_is_near_the_normal_one():
    # accuracy, n = 20,000: the basic bound ≈ δ − z_0.95·SE with SE² = (p10 + p01 − δ²) / n
    gold, a, b = systems(20_000, 9)
    r = noninferiority(gold, a, b, margin=0.01, samples=4000, seed=1)
    ra, rb = gold == a, gold == b
    p10, p01 = np.mean(ra & ~rb), np.mean(~ra & rb)
    se = math.sqrt((p10 + p01 - (p10 - p01) ** 2) / 20_000)
    assert r.bound == pytest.approx((p10 - p01) - 1.6449 * se, abs=0.15 * se)


def test_refusals():
    with pytest.raises(UsageError, match="needs test bootstrap: the null of test mcnemar is 'no difference'"):
        check_margin(0.01, "mcnemar")
    with pytest.raises(UsageError, match="needs test bootstrap"):
        compare(["a", "b"], ["a", "b"], ["a", "a"], test="randomization", margin=0.01)
    with pytest.raises(UsageError, match="must be a number >= 0"):
        check_margin(-0.01)
    with pytest.raises(UsageError, match="alternative two-sided applies to test delong"):
        compare(["a", "b"], ["a", "b"], ["a", "a"], alternative="two-sided")
