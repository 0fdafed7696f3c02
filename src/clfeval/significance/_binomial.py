"""The binomial distribution's pmf, cdf, sf, ppf and isf, the exact binomial test, without
``scipy.stats``.

``scipy.stats`` costs about four times ``scipy.special`` to import — most of a ``clfeval power`` run. These
functions call the very ufuncs that ``scipy.stats.binom`` calls (Boost's, in ``scipy.special._ufuncs``), with the
same handling of values outside the support, so every number is the same to the last bit (the tests check them
against ``scipy.stats.binom`` and ``scipy.stats.binomtest``). Arguments are trusted: ``n`` whole and ≥ 0,
``0 ≤ p ≤ 1``, as the callers validate them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["pmf", "cdf", "sf", "ppf", "isf", "binom_test", "chi2_sf_1", "brentq"]


def _u() -> Any:  # scipy.special is imported on first use, not when clfeval starts
    from scipy.special import _ufuncs

    return _ufuncs


def _out(values: np.ndarray) -> Any:
    return values[()] if values.ndim == 0 else values


def pmf(k: Any, n: Any, p: Any) -> Any:
    """P(X = k), X ~ Bin(n, p); 0 off the support and at non-whole k (``scipy.stats.binom.pmf``)."""
    k, n, p = np.broadcast_arrays(np.asarray(k), np.asarray(n), np.asarray(p))
    ok = (k >= 0) & (k <= n) & (np.floor(k) == k)
    out = np.zeros(ok.shape)
    if ok.any():
        out[ok] = np.clip(_u()._binom_pmf(k[ok], n[ok], p[ok]), 0, 1)
    return _out(out)


def cdf(k: Any, n: Any, p: Any) -> Any:
    """P(X ≤ k) (``scipy.stats.binom.cdf``)."""
    k, n, p = np.broadcast_arrays(np.asarray(k), np.asarray(n), np.asarray(p))
    ok = (k >= 0) & (k < n) & np.isfinite(k)
    out = np.where(k >= n, 1.0, 0.0)
    if ok.any():
        out[ok] = np.clip(_u()._binom_cdf(np.floor(k[ok]), n[ok], p[ok]), 0, 1)
    return _out(out)


def sf(k: Any, n: Any, p: Any) -> Any:
    """P(X > k) (``scipy.stats.binom.sf``)."""
    k, n, p = np.broadcast_arrays(np.asarray(k), np.asarray(n), np.asarray(p))
    ok = (k >= 0) & (k < n) & np.isfinite(k)
    out = np.where(k < 0, 1.0, 0.0)
    if ok.any():
        out[ok] = np.clip(_u()._binom_sf(np.floor(k[ok]), n[ok], p[ok]), 0, 1)
    return _out(out)


def ppf(q: float, n: int, p: float) -> float:
    """The smallest k with P(X ≤ k) ≥ q, for 0 < q < 1 (``scipy.stats.binom.ppf``)."""
    return float(_u()._binom_ppf(q, n, p))


def isf(q: float, n: int, p: float) -> float:
    """The smallest k with P(X > k) ≤ q, for 0 < q < 1 (``scipy.stats.binom.isf``)."""
    return float(_u()._binom_isf(q, n, p))


def _search(a: Any, d: float, lo: float, hi: float) -> float:
    """The i in [lo, hi] with a(i) ≤ d < a(i + 1), for a ascending (scipy's ``_binary_search_for_binom_tst``)."""
    while lo < hi:
        mid = lo + (hi - lo) // 2
        midval = a(mid)
        if midval < d:
            lo = mid + 1
        elif midval > d:
            hi = mid - 1
        else:
            return mid
    return lo if a(lo) <= d else lo - 1


def binom_test(k: int, n: int, p: float, alternative: str) -> float:
    """The exact binomial test's p-value of k successes in n ≥ 1 trials (``scipy.stats.binomtest(...).pvalue``):
    ``greater`` P(X ≥ k), ``less`` P(X ≤ k), ``two-sided`` the mass of the outcomes no more likely than k."""
    if alternative == "less":
        return float(cdf(k, n, p))
    if alternative == "greater":
        return float(sf(k - 1, n, p))
    d = pmf(k, n, p)
    rerr = 1 + 1e-7
    if k == p * n:
        return 1.0
    if k < p * n:
        ix = _search(lambda x1: -pmf(x1, n, p), -d * rerr, np.ceil(p * n), n)
        y = n - ix + int(d * rerr == pmf(ix, n, p))
        pval = cdf(k, n, p) + sf(n - y, n, p)
    else:
        ix = _search(lambda x1: pmf(x1, n, p), d * rerr, 0, np.floor(p * n))
        y = ix + 1
        pval = cdf(y - 1, n, p) + sf(k - 1, n, p)
    return float(min(1.0, pval))


def chi2_sf_1(x: float) -> float:
    """P(χ²₁ > x) (``scipy.stats.chi2.sf(x, 1)``): 1 below 0, NaN at NaN."""
    if math.isnan(x):
        return math.nan
    return 1.0 if x < 0 else float(_u().chdtrc(1, x))


def brentq(f: Any, xa: float, xb: float, xtol: float = 2e-12, rtol: float = 4 * np.finfo(float).eps,
           maxiter: int = 100) -> float:
    """A root of ``f`` in [xa, xb], where f(xa) and f(xb) differ in sign: Brent's method step for step as
    ``scipy.optimize.brentq`` (``scipy/optimize/Zeros/brentq.c``), without importing ``scipy.optimize``."""
    xpre, xcur = float(xa), float(xb)
    xblk = fblk = spre = scur = 0.0
    fpre, fcur = float(f(xpre)), float(f(xcur))
    if fpre == 0:
        return xpre
    if fcur == 0:
        return xcur
    if math.copysign(1, fpre) == math.copysign(1, fcur):
        raise ValueError("f(a) and f(b) must have different signs")
    for _ in range(maxiter):
        if fpre != 0 and fcur != 0 and math.copysign(1, fpre) != math.copysign(1, fcur):
            xblk, fblk = xpre, fpre
            spre = scur = xcur - xpre
        if abs(fblk) < abs(fcur):
            xpre, xcur, xblk = xcur, xblk, xcur
            fpre, fcur, fblk = fcur, fblk, fcur
        delta = (xtol + rtol * abs(xcur)) / 2
        sbis = (xblk - xcur) / 2
        if fcur == 0 or abs(sbis) < delta:
            return xcur
        if abs(spre) > delta and abs(fcur) < abs(fpre):
            if xpre == xblk:  # interpolate
                stry = -fcur * (xcur - xpre) / (fcur - fpre)
            else:  # extrapolate
                dpre = (fpre - fcur) / (xpre - xcur)
                dblk = (fblk - fcur) / (xblk - xcur)
                stry = -fcur * (fblk * dblk - fpre * dpre) / (dblk * dpre * (fblk - fpre))
            if 2 * abs(stry) < min(abs(spre), 3 * abs(sbis) - delta):  # a good short step
                spre, scur = scur, stry
            else:
                spre = scur = sbis
        else:
            spre = scur = sbis
        xpre, fpre = xcur, fcur
        xcur += scur if abs(scur) > delta else (delta if sbis > 0 else -delta)
        fcur = float(f(xcur))
    raise RuntimeError(f"Brent's method did not converge in {maxiter} iterations")
