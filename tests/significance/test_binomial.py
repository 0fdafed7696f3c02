"""clfeval.significance._binomial against scipy.stats (the oracle): the same numbers to the last bit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clfeval.significance import _binomial as binomial

stats = pytest.importorskip("scipy.stats")
optimize = pytest.importorskip("scipy.optimize")


def same(a, b) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


@pytest.mark.parametrize("n", [0, 1, 2, 7, 40, 513, 20_000])
@pytest.mark.parametrize("p", [0.0, 0.5, 0.03, 0.731, 1.0])
def test_pmf_cdf_sf_are_scipys(n, p):
    k = np.arange(-3, n + 4)
    assert same(binomial.pmf(k, n, p), stats.binom.pmf(k, n, p))
    assert same(binomial.cdf(k, n, p), stats.binom.cdf(k, n, p))
    assert same(binomial.sf(k, n, p), stats.binom.sf(k, n, p))
    assert same(binomial.pmf(k + 0.5, n, p), stats.binom.pmf(k + 0.5, n, p))  # 0 off the whole numbers


def test_arrays_of_n_broadcast_as_scipys():
    d = np.arange(0, 60)
    c = d // 2 + 3
    assert same(binomial.sf(c - 1, d, 0.5), stats.binom.sf(c - 1, d, 0.5))
    assert same(binomial.cdf(d - c, d, 0.37), stats.binom.cdf(d - c, d, 0.37))


@pytest.mark.parametrize("n,p", [(1, 0.5), (50, 0.2), (1000, 0.013), (123_456, 0.6)])
def test_ppf_isf_are_scipys(n, p):
    for q in (1e-14, 1e-3, 0.5, 0.97):
        assert binomial.ppf(q, n, p) == stats.binom.ppf(q, n, p)
        assert binomial.isf(q, n, p) == stats.binom.isf(q, n, p)


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (9, 11), (2, 11), (5, 10), (30, 61), (31, 61), (0, 40), (40, 40),
                                 (480, 1000), (13, 200)])
def test_binom_test_is_scipys_binomtest(k, n):
    for alt in ("two-sided", "greater", "less"):
        assert binomial.binom_test(k, n, 0.5, alt) == stats.binomtest(k, n, 0.5, alternative=alt).pvalue
    assert binomial.binom_test(k, n, 0.3, "two-sided") == stats.binomtest(k, n, 0.3).pvalue


def test_mcnemar_worked_example():
    """9 against 2 discordant items: P(X ≥ 9), X ~ Bin(11, ½) = (C(11,9) + C(11,10) + C(11,11)) / 2^11 = 67/2048."""
    assert binomial.binom_test(9, 11, 0.5, "greater") == pytest.approx(67 / 2048, rel=1e-15)
    assert binomial.binom_test(9, 11, 0.5, "two-sided") == pytest.approx(134 / 2048, rel=1e-15)


def test_chi2_sf_is_scipys():
    for x in (0.0, 1e-9, 0.5, 3.2727, 40.0, 1e4):
        assert binomial.chi2_sf_1(x) == stats.chi2.sf(x, 1)
    assert binomial.chi2_sf_1(1.0) == pytest.approx(math.erfc(math.sqrt(0.5)), rel=1e-14)


@pytest.mark.parametrize("xtol", [2e-12, 1e-10, 1e-3])
def test_brentq_is_scipys_step_for_step(xtol):
    for f, a, b in [(lambda x: x ** 3 - 2 * x - 5, 2, 3), (lambda x: math.cos(x) - x, 0, 1),
                    (lambda x: math.exp(x) - 10, 0, 5), (lambda x: (x - 0.7) ** 5, 0.5, 1.0),
                    (lambda x: math.tanh(50 * (x - 0.61)) - 0.3, 0.5, 1.0), (lambda x: x - 0.5, 0.5, 1.0)]:
        assert binomial.brentq(f, a, b, xtol=xtol) == optimize.brentq(f, a, b, xtol=xtol)
    with pytest.raises(ValueError):
        binomial.brentq(lambda x: x + 1, 0, 1)
