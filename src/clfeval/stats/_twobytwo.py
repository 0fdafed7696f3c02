"""The one 2 × 2 test: a slice's share against the rest's (report ``--by``'s slice-vs-rest tests, the slice
search and its parent rule). Pearson's χ² test of the 2 × 2 table is the z test of the pooled proportion; Fisher's
exact test (SciPy, imported only when a table needs it) where an expected count is below 5."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["two_by_two"]


def two_by_two(s1: np.ndarray, n1: np.ndarray, s2: np.ndarray, n2: np.ndarray, alternative: str = "two-sided"
                     ) -> tuple[np.ndarray, list[str]]:
    """The one 2 × 2 test of a slice against the rest: p of s1/n1 against s2/n2 by Pearson's χ² (1 df, no
    continuity correction), Fisher's exact test where an expected count is below 5, p = 1 where every item is a
    success or every item a failure; and the test used ("chi2", "fisher", "untestable": no trials on a side, p NaN).
    ``alternative``: "two-sided", or "less" / "greater" (s1/n1 below / above s2/n2, one-sided).

    The χ² test of the 2×2 table (one degree of freedom) is the z test of the pooled proportion, z = ±√χ²:
    two-sided p = P(χ²₁ ≥ χ²) = erfc(√(χ²/2)), one-sided P(Z ≤ z) or P(Z ≥ z) (SciPy's Fisher test is imported
    only when a table needs it).

    >>> p, how = two_by_two(np.array([40]), np.array([100]), np.array([60]), np.array([100]), "less")
    >>> round(float(p[0]), 6), how
    (0.002339, ['chi2'])
    """
    s1, n1, s2, n2 = (np.asarray(x, dtype=np.float64) for x in (s1, n1, s2, n2))
    p = np.full(s1.shape, math.nan)
    method = ["untestable"] * s1.size
    ok = (n1 > 0) & (n2 > 0)
    pooled = np.where(ok, (s1 + s2) / np.where(ok, n1 + n2, 1), 0.5)
    var = pooled * (1 - pooled) * (1 / np.where(ok, n1, 1) + 1 / np.where(ok, n2, 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        # Pearson's statistic Σ (O − E)² / E of the 2 × 2 table; z = ±√statistic, the sign of s1/n1 − s2/n2
        tot, succ = n1 + n2, s1 + s2
        exp = np.stack([n1 * succ / tot, n1 * (tot - succ) / tot, n2 * succ / tot, n2 * (tot - succ) / tot])
        obs = np.stack([s1, n1 - s1, s2, n2 - s2])
        stat = np.where(exp > 0, (obs - exp) ** 2 / np.where(exp > 0, exp, 1), 0.0).sum(axis=0)
        z = np.sign(s1 / np.where(ok, n1, 1) - s2 / np.where(ok, n2, 1)) * np.sqrt(stat)
    flat = ok & (var == 0)
    p[flat] = 1.0
    chi = ok & (var > 0)
    tail = {"two-sided": lambda x: math.erfc(abs(x) / math.sqrt(2.0)),
            "less": lambda x: 0.5 * math.erfc(-x / math.sqrt(2.0)),
            "greater": lambda x: 0.5 * math.erfc(x / math.sqrt(2.0))}[alternative]
    if alternative == "two-sided":
        p[chi] = [math.erfc(math.sqrt(x / 2.0)) for x in stat[chi].tolist()]
    else:
        p[chi] = [tail(x) for x in z[chi].tolist()]
    small = chi & (exp.min(axis=0) < 5)
    for j in np.flatnonzero(ok):
        method[j] = "chi2"
    if small.any():
        from scipy.stats import fisher_exact
    for j in np.flatnonzero(small):
        table = [[int(s1[j]), int(n1[j] - s1[j])], [int(s2[j]), int(n2[j] - s2[j])]]
        p[j] = float(fisher_exact(table, alternative=alternative).pvalue)
        method[j] = "fisher"
    return p, method
