"""The one-sided bound of δ that matches a paired test's verdict (the "test bound" of a comparison).

A test and an interval agree by construction only when the interval inverts
the test. For each test of :mod:`clfeval.significance._paired`:

* **paired bootstrap** — p = #{δ_i ≥ 2δ}/b is the test that rejects when the
  *basic* (reverse-percentile) one-sided bound 2δ − q_{1−α}(δ_i) exceeds 0,
  q the r-th smallest replicate, r = b − ⌈αb⌉ + 1
  (:func:`clfeval.stats._resample.basic_bound`, the same tie tolerance as the
  count): the bound is > 0 exactly when p < α;
* **McNemar** — the exact one-sided binomial test on the n_AB + n_BA
  discordant items inverts to the Clopper–Pearson lower bound π_L of
  π = P(A right | discordant): p < α exactly when π_L > ½. Given the
  discordant items, δ_accuracy = (2π − 1)·(n_AB + n_BA)/n, so the bound of δ is
  (2π_L − 1)·(n_AB + n_BA)/n (conditional on the number of discordant items);
* **approximate randomization** — a permutation test of "no difference" has
  no interval of δ without a shift model: none is given, and the bootstrap
  intervals beside it are labelled as a different procedure.

For a lower-is-better metric (error rate) "better" means a lower δ and the
bound is an upper bound of δ (δ < U, significant exactly when U < 0).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.stats import clopper_pearson_lower, resample as rs

__all__ = ["test_bound", "mcnemar_lower", "BOUND_METHODS"]

#: How each test's bound is computed (None: the test has no interval of its own).
BOUND_METHODS = {"bootstrap": "basic bootstrap", "mcnemar": "McNemar's exact test inverted",
                 "randomization": None}


def mcnemar_lower(n_ab: int, n_ba: int, alpha: float) -> float:
    """The one-sided 1 − α Clopper–Pearson lower bound of π = P(A right | A and B disagree).

    π_L = B⁻¹(α; n_AB, n_BA + 1) (0 when n_AB = 0; :func:`clfeval.stats.clopper_pearson_lower`): the smallest π
    the exact test of "π ≤ π_L" does not reject, so π_L > ½ exactly when P(X ≥ n_AB | ½) < α.

    >>> round(mcnemar_lower(9, 2, 0.05), 4)
    0.5299
    """
    if n_ab == 0:
        return 0.0
    return float(clopper_pearson_lower(n_ab, n_ab + n_ba, alpha))


def test_bound(test: str, gains: np.ndarray, gain: float, *, alpha: float, tol: float, higher: bool,
               discordant: tuple[int, int] | None, n: int, p_value: float) -> dict[str, Any] | None:
    """The test's own one-sided bound of δ as a dict (``side``, ``value``, ``level``, ``method``,
    ``matches_test``, ``definition``), or None for a test without one (randomization).

    ``gains`` are the bootstrap replicates of g = δ (higher is better) or −δ, ``gain`` the observed g.
    """
    method = BOUND_METHODS.get(test)
    if method is None:
        return None
    side = "lower" if higher else "upper"
    if test == "bootstrap":
        g = rs.basic_bound(gains, gain, alpha, tol)
        definition = (f"2δ − q, q the r-th smallest of the b replicates of δ, r = b − ⌈αb⌉ + 1 "
                      f"(= {gains.size - rs.allowed_count(alpha, gains.size)}); > 0 exactly when p < α"
                      if higher else
                      f"2δ − q on −δ (lower is better): δ < 2δ + q', q' the r-th smallest replicate of −δ, "
                      f"r = b − ⌈αb⌉ + 1 (= {gains.size - rs.allowed_count(alpha, gains.size)}); "
                      f"< 0 exactly when p < α")
    else:
        assert discordant is not None
        n_ab, n_ba = discordant  # A right & B wrong, and the reverse: "A better" is the same for the error rate
        m = n_ab + n_ba
        g = (2 * mcnemar_lower(n_ab, n_ba, alpha) - 1) * m / n if m else 0.0
        if g > 0 and not p_value < alpha:  # the same test inverted; only float rounding at the boundary differs
            g = 0.0
        definition = ("(2π_L − 1)·(n_AB + n_BA)/n, π_L the exact one-sided lower bound of P(A right | the two "
                      "disagree): given the discordant items, the bound of δ that the exact test inverts")
    value = g if higher else 0.0 - g
    return {"side": side, "value": value, "level": 1 - alpha, "method": method, "matches_test": True,
            "definition": definition}
