"""The closed-form pieces of significance testing: McNemar's exact test (Holm's and BY's adjustments are
defined in :mod:`clfeval.stats._multiplicity`, re-exported here for the modules that import them from here).

:func:`mcnemar` the exact binomial test of paired accuracy from the
discordant counts. :mod:`clfeval.significance._paired` runs it on data; the power calculations use it too.
"""

from __future__ import annotations

import math
from typing import Any

from clfeval.core import check_positive_int
from clfeval.significance._binomial import binom_test, chi2_sf_1
from clfeval.stats import benjamini_yekutieli, holm  # defined once in clfeval.stats._multiplicity

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
