"""Power and test-set size: exact McNemar power against a brute-force sum over every outcome and a
seeded simulation; the required n against brute force; the bootstrap SE and interval widths against
their textbook formulas."""

from __future__ import annotations

import json
import math
from functools import lru_cache

import numpy as np
import pytest
from scipy.special import gammaln
from scipy.stats import binom, binomtest, norm

from clfeval.errors import DataError, UsageError
from clfeval.render import to_json
from clfeval.significance import _power as pw
from clfeval.significance._paired import bootstrap_distribution
from tests._helpers import mc

# --- an independent brute force: every (n_AB, n_BA) outcome and scipy's exact test ---------

DMAX = {"greater": 140, "two-sided": 80}  # the brute force covers n <= DMAX (two-sided binomtest is slow)


@lru_cache(None)
def reject_table(alpha: float, alternative: str) -> np.ndarray:
    """R[d, x]: scipy.stats.binomtest(x, d, 1/2) rejects at level alpha (p < alpha), d <= DMAX."""
    dmax = DMAX[alternative]
    R = np.zeros((dmax + 1, dmax + 1), dtype=bool)
    for d in range(1, dmax + 1):
        for x in range(d + 1):
            R[d, x] = binomtest(x, d, 0.5, alternative=alternative).pvalue < alpha
    return R


def brute_power(n, p10, p01, alpha=0.05, alternative="greater"):
    """Σ over the trinomial outcomes (x A-only, y B-only, n − x − y other) of P(outcome)·[test rejects]."""
    assert n <= DMAX[alternative]
    R = reject_table(alpha, alternative)
    x = np.arange(n + 1)[:, None]
    y = np.arange(n + 1)[None, :]
    ok = x + y <= n
    with np.errstate(divide="ignore", invalid="ignore"):
        logp = (gammaln(n + 1) - gammaln(x + 1) - gammaln(y + 1) - gammaln(n - x - y + 1)
                + x * np.log(p10) + y * np.log(p01) + (n - x - y) * np.log(1 - p10 - p01))
    prob = np.where(ok, np.exp(np.where(ok, logp, -np.inf)), 0.0)
    d = np.minimum(x + y, n)
    return float(prob[R[d, np.broadcast_to(x, d.shape)] & ok].sum())


@pytest.mark.parametrize("p10,p01", [(0.3, 0.1), (0.25, 0.05), (0.05, 0.02), (0.6, 0.25)])
@pytest.mark.parametrize("alternative", ["greater", "two-sided"])
def test_exact_power_equals_the_brute_force_sum(p10, p01, alternative):
    for n in (1, 2, 5, 13, 40, 77) + ((120,) if alternative == "greater" else ()):
        ours = pw.mcnemar_exact_power(n, p10, p01, alternative=alternative)
        assert ours == pytest.approx(brute_power(n, p10, p01, alternative=alternative), abs=1e-11), n


def test_exact_power_agrees_with_a_seeded_simulation():
    n, p10, p01, reps = 400, 0.07, 0.03, 20_000
    rng = np.random.default_rng(2024)
    draws = rng.multinomial(n, [p10, p01, 1 - p10 - p01], size=reps)
    x, d = draws[:, 0], draws[:, 0] + draws[:, 1]
    p = binom.sf(x - 1, d, 0.5)  # the exact one-sided McNemar p-value P(Bin(d, 1/2) >= x)
    simulated = float(np.mean(p < 0.05))
    exact = pw.mcnemar_exact_power(n, p10, p01)
    assert abs(simulated - exact) < 4 * math.sqrt(exact * (1 - exact) / reps), (simulated, exact)


@pytest.mark.parametrize("p10,p01", [(0.7, 0.3), (0.25, 0.05), (0.69, 0.3), (0.2, 0.02)])
def test_required_n_is_the_smallest_n_with_power_at_least_the_target(p10, p01):
    r = pw.mcnemar_power(int(p10 * 1000), int(p01 * 1000), 1000, delta=p10 - p01)
    powers = np.array([brute_power(n, p10, p01) for n in range(1, r.checked_up_to + 1)])
    reaching = np.flatnonzero(powers >= 0.8) + 1
    below = np.flatnonzero(powers < 0.8) + 1
    assert r.required_n == reaching[0]
    assert r.stays_from == below[-1] + 1  # and every n from there to checked_up_to reaches 0.8


def test_power_is_not_monotone_and_the_result_says_so():
    # Nearly every item discordant: D ≈ n, and power saw-tooths with the critical value.
    r = pw.mcnemar_power(700, 300, 1000, delta=0.4)
    assert (r.required_n, r.stays_from) == (37, 42)
    assert pw.mcnemar_exact_power(38, 0.7, 0.3) < 0.8 <= pw.mcnemar_exact_power(37, 0.7, 0.3)
    assert any("not monotone" in note for note in r.notes)
    assert "from 42 on" in r.explanation


def test_detectable_delta_has_the_target_power():
    r = pw.mcnemar_power(120, 80, 3019)
    p_d = 200 / 3019
    d = r.detectable_delta
    shares = lambda delta: ((p_d + delta) / 2, (p_d - delta) / 2)  # noqa: E731
    assert pw.mcnemar_exact_power(3019, *shares(d)) == pytest.approx(0.8, abs=1e-6)
    assert pw.mcnemar_exact_power(3019, *shares(0.95 * d)) < 0.8
    assert r.explanation.startswith("With 3,019 items a difference in accuracy smaller than 0.0119 would usually go "
                                    "unnoticed")


def test_large_n_is_fast_enough_and_consistent():
    r = pw.mcnemar_power(30_000, 20_000, 1_000_000, delta=0.002)
    p_d = 0.05
    at = lambda n: pw.mcnemar_exact_power(n, (p_d + 0.002) / 2, (p_d - 0.002) / 2)  # noqa: E731
    assert at(r.required_n) >= 0.8 > at(r.required_n - 1)


def test_undefined_and_refused_cases():
    none = pw.mcnemar_power(0, 0, 500, delta=0.01)
    d = none.to_dict()
    assert math.isnan(d["detectable_delta"]) and d["required_n"] is None  # undefined: NaN (issue 22)
    assert "no item is discordant" in d["undefined"][0]["reason"]
    tiny = pw.mcnemar_power(2, 1, 10, delta=0.5)
    assert math.isnan(tiny.to_dict()["detectable_delta"])
    assert "exceeds the discordant share" in json.dumps(tiny.to_dict())
    json.loads(to_json(none))  # null in JSON
    json.loads(to_json(tiny))
    with pytest.raises(DataError, match="cannot exceed"):
        pw.mcnemar_power(8, 5, 10)
    with pytest.raises(UsageError, match="positive number"):
        pw.mcnemar_power(8, 5, 100, delta=-0.1)
    with pytest.raises(UsageError, match="alternative"):
        pw.mcnemar_power(8, 5, 100, alternative="less")
    capped = pw.mcnemar_power(51, 50, 1000, delta=0.0005, max_n=20_000)
    assert capped.required_n is None and "do not give power" in capped.to_dict()["undefined"][0]["reason"]


# --- (b) the bootstrap standard error, (c) interval widths ----------------------------------------

def paired_data(n, seed):
    rng = np.random.default_rng(seed)
    gold = rng.choice(["a", "b", "c"], size=n, p=[0.5, 0.3, 0.2])
    a = np.where(rng.random(n) < 0.85, gold, rng.choice(["a", "b", "c"], size=n))
    b = np.where(rng.random(n) < 0.80, gold, rng.choice(["a", "b", "c"], size=n))
    return gold, a, b


def test_bootstrap_se_of_accuracy_matches_the_multinomial_formula():
    gold, a, b = paired_data(3000, 1)
    ra, rb = gold == a, gold == b
    p10, p01 = np.mean(ra & ~rb), np.mean(~ra & rb)
    se_formula = math.sqrt((p10 + p01 - (p10 - p01) ** 2) / 3000)  # var of the mean of (ra − rb)
    r = pw.bootstrap_power(gold, a, b, metric="accuracy", delta=0.01, samples=4000, seed=3)
    assert r.se == pytest.approx(se_formula, rel=0.05)
    # issue 39: a distribution pin against an independent item bootstrap of mean(ra − rb), within the stated
    # Monte-Carlo tolerance of a standard deviation of 4,000 replicates (tests/_helpers/mc.py)
    diffs = ra.astype(float) - rb.astype(float)
    mc.assert_se(r.se, mc.item_replicates(np.mean, (diffs,), samples=4000, seed=11), 4000, "bootstrap SE")
    k = norm.ppf(0.95) + norm.ppf(0.8)
    assert r.detectable_delta == pytest.approx(k * r.se)
    assert r.required_n == math.ceil(3000 * (k * r.se / 0.01) ** 2)
    same = bootstrap_distribution(gold, a, b, metric="accuracy", samples=4000, seed=3)
    assert r.se == pytest.approx(float(np.std(same, ddof=1)))
    assert r.signature["seed"] == 3 and r.signature["samples"] == 4000
    two = pw.bootstrap_power(gold, a, b, metric="accuracy", samples=4000, seed=3, alternative="two-sided")
    assert two.detectable_delta == pytest.approx((norm.ppf(0.975) + norm.ppf(0.8)) * r.se)
    json.dumps(r.to_dict(), allow_nan=False)


def test_power_compare_dispatches_on_the_metric():
    gold, a, b = paired_data(800, 2)
    ra, rb = gold == a, gold == b
    r = pw.power_compare(gold, a, b, metric="accuracy")
    assert isinstance(r, pw.McNemarPower)
    assert (r.n_ab, r.n_ba) == (int(np.sum(ra & ~rb)), int(np.sum(~ra & rb)))
    m = pw.power_compare(gold, a, b, metric="macro_f1", samples=500)
    assert isinstance(m, pw.BootstrapPower) and m.se > 0
    assert "macro-F1" in m.explanation


def test_identical_systems_have_no_standard_error():
    gold, a, _ = paired_data(200, 4)
    r = pw.bootstrap_power(gold, a, a, metric="macro_f1", samples=200)
    d = r.to_dict()
    assert math.isnan(d["detectable_delta"]) and "standard error of δ is 0" in d["undefined"][0]["reason"]
    assert json.loads(to_json(r))["detectable_delta"] is None


def test_interval_width_of_accuracy_matches_the_normal_formula_and_scales():
    gold, a, _ = paired_data(4000, 5)
    acc = float(np.mean(gold == a))
    r = pw.interval_width(gold, a, metric="accuracy", width=0.01, samples=4000, seed=1)
    assert r.value == pytest.approx(acc)
    assert r.width == pytest.approx(2 * norm.ppf(0.975) * math.sqrt(acc * (1 - acc) / 4000), rel=0.06)
    assert r.required_n == math.ceil(4000 * (r.width / 0.01) ** 2)
    again = pw.interval_width(gold, a, metric="accuracy", width=0.01, samples=4000, seed=1)
    assert again.ci == r.ci
    assert "95% interval of accuracy" in r.explanation
    json.dumps(r.to_dict(), allow_nan=False)
    with pytest.raises(UsageError, match="unknown metric"):
        pw.interval_width(gold, a, metric="acuracy")
