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
