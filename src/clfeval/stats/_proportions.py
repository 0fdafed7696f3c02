"""Intervals of a binomial proportion x/n, each once: Wilson's score interval and the exact Clopper–Pearson
interval (with its one-sided bounds, the inverse of the exact binomial test).

Every proportion interval of clfeval is one of these: the report's ``--ci-method wilson``
(:mod:`clfeval.evaluate._intervals`), the forest plot's fallback (:mod:`clfeval.plots._slices`), the slice search,
and McNemar's test bound (:mod:`clfeval.significance._bounds`, Clopper–Pearson's lower bound of
P(A right | A and B disagree)).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["wilson", "clopper_pearson", "clopper_pearson_lower", "clopper_pearson_upper"]


def wilson(successes: Any, trials: Any, level: float) -> np.ndarray:
    """Wilson's score interval of a binomial proportion x/n, shape (..., 2); NaN where n = 0.

    centre = (p̂ + z²/2n)/(1 + z²/n), half-width = z/(1 + z²/n)·√(p̂(1 − p̂)/n + z²/4n²),
    z = Φ⁻¹((1 + level)/2) (Wilson 1927; Brown, Cai & DasGupta 2001).

    >>> [round(float(v), 4) for v in wilson(7, 10, 0.95)]
    [0.3968, 0.8922]
    """
    from statistics import NormalDist

    x = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    z = NormalDist().inv_cdf((1 + level) / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = x / n
        den = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / den
        half = z / den * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return np.stack([np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)], axis=-1)


def _beta_ppf(q: Any, a: Any, b: Any) -> np.ndarray:
    """The q-quantiles of Beta(a, b) (the ufunc ``scipy.stats.beta.ppf`` calls, imported on first use: the same
    bits, without importing ``scipy.stats``)."""
    from scipy.special import _ufuncs

    return np.asarray(_ufuncs._beta_ppf(q, a, b), dtype=np.float64)


def clopper_pearson_lower(successes: Any, trials: Any, alpha: float) -> np.ndarray:
    """The one-sided 1 − α Clopper–Pearson lower bound of a proportion: B⁻¹(α; x, n − x + 1), 0 when x = 0
    (NaN where n = 0). It is the smallest π that the exact test of "π ≤ π_L" (P(X ≥ x | π)) does not reject
    at level α (Clopper & Pearson 1934).

    >>> round(float(clopper_pearson_lower(9, 11, 0.05)), 4)
    0.5299
    """
    x = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    x, n = np.broadcast_arrays(x, n)
    out = np.where(n > 0, 0.0, np.nan)
    pos = (x > 0) & (n > 0)
    if pos.any():
        out[pos] = _beta_ppf(alpha, x[pos], n[pos] - x[pos] + 1)
    return out[()] if out.ndim == 0 else out


def clopper_pearson_upper(successes: Any, trials: Any, alpha: float) -> np.ndarray:
    """The one-sided 1 − α Clopper–Pearson upper bound: B⁻¹(1 − α; x + 1, n − x), 1 when x = n (NaN where
    n = 0); by symmetry 1 − the lower bound of the failures.

    >>> round(float(clopper_pearson_upper(2, 11, 0.05)), 4)
    0.4701
    """
    x = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    x, n = np.broadcast_arrays(x, n)
    out = np.where(n > 0, 1.0, np.nan)
    part = (x < n) & (n > 0)
    if part.any():
        out[part] = _beta_ppf(1 - alpha, x[part] + 1, n[part] - x[part])
    return out[()] if out.ndim == 0 else out


def clopper_pearson(successes: Any, trials: Any, level: float) -> np.ndarray:
    """The exact (Clopper–Pearson) two-sided interval of a binomial proportion x/n, shape (..., 2): the one-sided
    bounds at α = (1 − level)/2 each (:func:`clopper_pearson_lower`, :func:`clopper_pearson_upper`); NaN where
    n = 0. Conservative: its coverage is at least ``level`` for every π (Brown, Cai & DasGupta 2001).

    >>> [round(float(v), 4) for v in clopper_pearson(7, 10, 0.95)]
    [0.3475, 0.9333]
    """
    alpha = (1 - level) / 2
    return np.stack([np.asarray(clopper_pearson_lower(successes, trials, alpha), dtype=np.float64),
                     np.asarray(clopper_pearson_upper(successes, trials, alpha), dtype=np.float64)], axis=-1)
