"""The closed-form pieces of significance testing: McNemar's exact test, Holm's and BY's adjustments.

Both take a few numbers and return a few numbers (no resampling):
:func:`mcnemar` the exact binomial test of paired accuracy from the
discordant counts, :func:`holm` the Holm–Bonferroni step-down adjustment of a
family of p-values. :mod:`clfeval.significance._paired` runs them on data;
DeLong's one-vs-rest test and the power calculations use them too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from clfeval.core import check_positive_int
from clfeval.significance._binomial import binom_test, chi2_sf_1

__all__ = ["mcnemar", "holm", "benjamini_yekutieli"]


def mcnemar(n_ab: int, n_ba: int) -> dict[str, Any]:
    """McNemar's test for paired accuracy, from the discordant counts.

    ``n_ab`` items A got right and B wrong, ``n_ba`` the reverse. Under H0
    each discordant item is equally likely to go either way, so
    X ~ Bin(n_AB + n_BA, ½) and the exact one-sided p for "A better" is
    P(X ≥ n_AB). Also: the two-sided exact p, and the chi-square statistic
    with continuity correction χ² = max(0, |n_AB − n_BA| − 1)² / (n_AB + n_BA)
    (Edwards 1948; 1 degree of freedom, two-sided).

    With no discordant items every p is 1 and χ² is undefined (NaN).

    References: McNemar (1947); Dietterich (1998), "Approximate statistical
    tests for comparing supervised classification learning algorithms".

    Examples
    --------
    >>> r = mcnemar(9, 2)
    >>> round(r["p_value"], 4), round(r["p_value_two_sided"], 4), round(r["chi2"], 4)
    (0.0327, 0.0654, 3.2727)
    """
    n_ab = check_positive_int(n_ab, option="n_ab", minimum=0)
    n_ba = check_positive_int(n_ba, option="n_ba", minimum=0)
    m = n_ab + n_ba
    if m == 0:
        return {"n_ab": 0, "n_ba": 0, "p_value": 1.0, "p_value_two_sided": 1.0, "chi2": math.nan, "chi2_p_value": 1.0}
    one = binom_test(n_ab, m, 0.5, "greater")
    two = binom_test(n_ab, m, 0.5, "two-sided")
    stat = max(0, abs(n_ab - n_ba) - 1) ** 2 / m
    return {"n_ab": n_ab, "n_ba": n_ba, "p_value": one, "p_value_two_sided": two, "chi2": float(stat),
            "chi2_p_value": chi2_sf_1(stat)}


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
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, math.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(adj)
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
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, math.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = ok.size
    if m == 0:
        return out
    c = float(np.sum(1.0 / np.arange(1, m + 1)))
    order = ok[np.argsort(p[ok], kind="stable")]
    adj = np.minimum(1.0, m * c * p[order] / np.arange(1, m + 1))
    out[order] = np.minimum.accumulate(adj[::-1])[::-1]
    return out
