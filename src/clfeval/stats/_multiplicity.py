"""Multiplicity adjustments, each once: Holm–Bonferroni (family-wise error rate) and Benjamini–Yekutieli
(false-discovery rate under any dependence). Every family of p-values clfeval adjusts — the pairs of
``compare_many``, DeLong's one-vs-rest classes, the slices of a report, the pairs of ``rank`` — goes through
:func:`holm` or :func:`benjamini_yekutieli` here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["holm", "benjamini_yekutieli"]


def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values (step-down; controls the family-wise error rate).

    Sort the m p-values ascending, p_(1) ≤ … ≤ p_(m); the adjusted value of
    p_(j) is max over i ≤ j of min(1, (m − i + 1)·p_(i)). Reject H0 of a
    comparison when its adjusted p < α. NaN p-values stay NaN and do not count.

    Reference: Holm (1979), "A simple sequentially rejective multiple test procedure".

    Parameters
    ----------
    p_values : sequence of float or ndarray
        The p-values of the m comparisons (NaN for a comparison without one).

    Returns
    -------
    ndarray
        The adjusted p-values, in the order and shape of ``p_values``.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    p, out, order = _ranked(p_values)
    m = order.size
    if m:
        out[order] = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    return out


def benjamini_yekutieli(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Benjamini–Yekutieli adjusted p-values (step-up; controls the false-discovery rate under any dependence).

    With m p-values sorted ascending and c(m) = 1 + 1/2 + … + 1/m, the
    adjusted value of p_(j) is min over i ≥ j of min(1, m·c(m)·p_(i) / i).
    Declaring discoveries where the adjusted p ≤ q keeps the expected share
    of false discoveries at most q whatever the dependence between the tests
    (overlapping slices, crosses of the same columns). NaN p-values stay NaN
    and do not count.

    Reference: Benjamini & Yekutieli (2001), "The control of the false discovery rate in multiple testing under
    dependency", Theorem 1.3.

    >>> benjamini_yekutieli([0.01, 0.04, 0.03]).round(4).tolist()
    [0.055, 0.0733, 0.0733]
    """
    p, out, order = _ranked(p_values)
    m = order.size
    if m:
        c = float(np.sum(1.0 / np.arange(1, m + 1)))
        adj = np.minimum(1.0, m * c * p[order] / np.arange(1, m + 1))
        out[order] = np.minimum.accumulate(adj[::-1])[::-1]
    return out


def _ranked(p_values: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The p-values as floats, an all-NaN output of their shape, and the positions of the finite ones in ascending
    order of p (ties in input order): what both adjustments start from (NaN stays NaN and does not count)."""
    p = np.asarray(p_values, dtype=np.float64)
    ok = np.flatnonzero(np.isfinite(p))
    return p, np.full(p.shape, math.nan), ok[np.argsort(p[ok], kind="stable")]
