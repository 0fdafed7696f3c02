"""The BCa interval's acceleration (stats/_resample.py, issue 35 item 5): its sign against an outside value."""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pytest
from scipy.stats import bootstrap

from clfeval.stats._resample import bca_interval


def test_acceleration_of_leave_one_out_values_1_2_3_10():
    # mean 4, deviations θ̄ − θ_(j) = 3, 2, 1, −6: a = Σd³ / (6 (Σd²)^1.5) = −180 / (6 · 50^1.5) = −0.0849
    a = -180 / (6 * 50 ** 1.5)
    assert a == pytest.approx(-0.0849, abs=5e-5)
    reps = np.linspace(0.0, 10.0, 1001)
    theta, level = 4.2049, 0.9  # between two replicates
    phi = NormalDist()
    z0 = phi.inv_cdf(float(np.mean(reps < theta)))  # no replicate equals θ̂
    want = [float(np.quantile(reps, phi.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))))
            for z in (phi.inv_cdf(0.05), phi.inv_cdf(0.95))]
    got = bca_interval(reps, theta, np.array([1.0, 2.0, 3.0, 10.0]), np.ones(4), level)
    assert got == pytest.approx(want, rel=1e-12)
    mirrored = bca_interval(reps, theta, np.array([7.0, 6.0, 5.0, -2.0]), np.ones(4), level)  # a = +0.0849
    assert mirrored[1] - got[1] > 0.05


def test_bca_equals_scipys_on_skewed_data():
    x = np.random.default_rng(1).exponential(1.0, 30) ** 2  # long right tail: the acceleration matters
    res = bootstrap((x,), np.mean, method="BCa", n_resamples=4999, confidence_level=0.9, random_state=3,
                    vectorized=False)
    jack = np.array([np.delete(x, i).mean() for i in range(x.size)])
    got = bca_interval(res.bootstrap_distribution, float(x.mean()), jack, np.ones(x.size), 0.9)
    assert got == pytest.approx([res.confidence_interval.low, res.confidence_interval.high], rel=1e-12)


def test_one_bca_many_problems_equal_one_at_a_time_and_scipy():
    """bca_ends (the batched form the ROC-AUC intervals use) is bca_interval row by row: the one BCa rule."""
    from clfeval.stats._resample import bca_ends

    rng = np.random.default_rng(5)
    xs = [rng.exponential(1.0, 25) ** 2, rng.normal(0.0, 1.0, 25), rng.gamma(0.5, 1.0, 25)]
    rows, thetas, jacks, refs = [], [], [], []
    for i, x in enumerate(xs):
        res = bootstrap((x,), np.mean, method="BCa", n_resamples=1999, confidence_level=0.95, random_state=i,
                        vectorized=False)
        rows.append(res.bootstrap_distribution)
        thetas.append(float(x.mean()))
        jacks.append(np.array([np.delete(x, j).mean() for j in range(x.size)]))
        refs.append([res.confidence_interval.low, res.confidence_interval.high])
    ends = bca_ends(np.array(rows), np.array(thetas), np.array(jacks), np.ones(25), 0.95)
    for i in range(3):
        assert ends[i].tolist() == bca_interval(rows[i], thetas[i], jacks[i], np.ones(25), 0.95)
        assert ends[i].tolist() == pytest.approx(refs[i], rel=1e-12)


def test_bca_undefined_cases():
    from clfeval.stats._resample import bca_ends

    reps = np.array([1.0, 2.0, 3.0])
    assert bca_interval(reps, 0.5, np.array([1.0, 2.0]), np.ones(2), 0.9) is None  # every replicate above θ̂
    assert bca_interval(reps, float("nan"), np.array([1.0, 2.0]), np.ones(2), 0.9) is None
    assert bca_interval(reps, 2.0, np.array([np.nan, np.nan]), np.ones(2), 0.9) is None  # no leave-one-out value
    assert bca_interval(np.array([np.nan]), 2.0, np.array([1.0, 2.0]), np.ones(2), 0.9) is None
    out = bca_ends(np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]), np.array([0.5, 2.0]), np.array([[1.0, 2.0]] * 2),
                   np.ones(2), 0.9)
    assert np.isnan(out[0]).all() and np.isfinite(out[1]).all()


def test_percentile_and_row_quantiles_are_numpys_linear_rule():
    """One quantile rule: row_quantiles equals np.quantile to the last bit, so the batched percentile ends (ROC-AUC)
    and percentile_interval (every other metric) agree; and it is scipy's percentile interval."""
    from clfeval.stats._resample import percentile_ends, percentile_interval, row_quantiles

    rng = np.random.default_rng(11)
    for _ in range(200):
        b = int(rng.integers(1, 300))
        x = np.sort(rng.normal(size=b) * rng.uniform(1e-3, 1e3))
        q = rng.uniform(0.0, 1.0, size=2)
        assert row_quantiles(x[None, :], q[None, :])[0].tolist() == np.quantile(x, q).tolist()
    x = np.random.default_rng(2).exponential(1.0, 40)
    res = bootstrap((x,), np.mean, method="percentile", n_resamples=999, confidence_level=0.9, random_state=4)
    reps = res.bootstrap_distribution
    assert percentile_interval(reps, 0.9) == pytest.approx([res.confidence_interval.low,
                                                             res.confidence_interval.high], rel=1e-12)
    assert percentile_ends(np.sort(reps)[None, :], 0.9)[0].tolist() == percentile_interval(reps, 0.9)
