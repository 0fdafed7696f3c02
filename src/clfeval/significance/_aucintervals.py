"""Intervals of one ROC-AUC by every method clfeval offers, computed for many rankings at once.

θ is the Mann–Whitney ROC-AUC of m positives and n negatives, V10_i (V01_j) the
placement values of DeLong et al. (1988): the share of negatives below
positive i (of positives above negative j), ties ½.

* ``delong``: θ ± z·SE, SE² = S10/m + S01/n (sample variances of the
  placements), truncated to [0, 1];
* ``logit-delong``: the same Wald interval on the logit scale,
  logit θ ± z·SE/(θ(1 − θ)), mapped back (inside (0, 1) by construction;
  a degenerate [θ, θ] at θ ∈ {0, 1}, where the logit is infinite);
* ``hanley-mcneil``: θ ± z·SE with Hanley & McNeil's (1982) variance
  (θ(1−θ) + (m−1)(Q1−θ²) + (n−1)(Q2−θ²))/(mn), Q1 = θ/(2−θ), Q2 = 2θ²/(1+θ)
  (exponential-score approximation), truncated to [0, 1];
* ``percentile`` and ``bca``: the stratified bootstrap (positives and
  negatives redrawn separately); BCa's acceleration from the exact
  leave-one-out values θ_(−i) = (mθ − V10_i)/(m − 1) and
  θ_(−j) = (nθ − V01_j)/(n − 1).

The functions take arrays with a leading axis of rankings, so that
``bench/ci_coverage.py`` measures these very functions over thousands of
simulated test sets; :func:`auc_interval` is the one-ranking front of the
report's ``--ci-method``. One ranking's intervals are functions of its
:class:`~clfeval.core._ranksummary.RankingSummary`: the placement values are
the same for every item of one distinct score, so :func:`summary_placements`
gives them once per distinct score with their counts, and the variances, the
jackknife and the bootstrap read those (no sort of the scores).

References: DeLong, DeLong & Clarke-Pearson (1988); Hanley & McNeil (1982);
Qin & Hotilovac (2008) (the logit interval); Efron & Tibshirani (1993), §14.3 (BCa).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from clfeval.core import RankingSummary, score_counts
from clfeval.stats import resample as rs

__all__ = ["AUC_METHODS", "wald", "logit_wald", "hanley_mcneil_variance", "delong_variance", "auc_jackknife",
           "bootstrap_ends", "auc_interval", "too_narrow_auc", "summary_placements", "summary_delong_variance"]

#: Every interval of one ROC-AUC clfeval offers (``--ci-method``).
AUC_METHODS = ("delong", "logit-delong", "hanley-mcneil", "percentile", "bca")


def _z(level: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf((1 + level) / 2)


def wald(auc: np.ndarray, var: np.ndarray, level: float) -> np.ndarray:
    """θ ± z·√var truncated to [0, 1], shape (R, 2)."""
    half = _z(level) * np.sqrt(var)
    return np.stack([np.clip(auc - half, 0.0, 1.0), np.clip(auc + half, 0.0, 1.0)], axis=-1)


def logit_wald(auc: np.ndarray, var: np.ndarray, level: float) -> np.ndarray:
    """The Wald interval on the logit scale: expit(logit θ ± z·√var / (θ(1 − θ))); [θ, θ] at θ ∈ {0, 1}."""
    auc = np.asarray(auc, dtype=np.float64)
    inside = (auc > 0) & (auc < 1)
    a = np.where(inside, auc, 0.5)
    centre = np.log(a / (1 - a))
    half = _z(level) * np.sqrt(var) / (a * (1 - a))
    lo = 1 / (1 + np.exp(-(centre - half)))
    hi = 1 / (1 + np.exp(-(centre + half)))
    return np.stack([np.where(inside, lo, auc), np.where(inside, hi, auc)], axis=-1)


def hanley_mcneil_variance(auc: np.ndarray, m: Any, n: Any) -> np.ndarray:
    """Hanley & McNeil's (1982) variance of θ for m positives and n negatives."""
    q1 = auc / (2 - auc)
    q2 = 2 * auc ** 2 / (1 + auc)
    return (auc * (1 - auc) + (m - 1) * (q1 - auc ** 2) + (n - 1) * (q2 - auc ** 2)) / (m * n)


def delong_variance(v10: np.ndarray, v01: np.ndarray) -> np.ndarray:
    """S10/m + S01/n from placement values (R, m) and (R, n)."""
    return v10.var(axis=-1, ddof=1) / v10.shape[-1] + v01.var(axis=-1, ddof=1) / v01.shape[-1]


def auc_jackknife(v10: np.ndarray, v01: np.ndarray) -> np.ndarray:
    """Leave-one-out ROC-AUCs (R, m + n): each positive, then each negative, left out once."""
    m, n = v10.shape[-1], v01.shape[-1]
    auc = v10.mean(axis=-1, keepdims=True)
    return np.concatenate([(m * auc - v10) / (m - 1), (n * auc - v01) / (n - 1)], axis=-1)


def bootstrap_ends(reps: np.ndarray, auc: np.ndarray, jack: np.ndarray | None, level: float) -> np.ndarray:
    """Percentile (``jack`` None) or BCa ends (R, 2) of bootstrap replicates (R, B) of each ranking."""
    reps = np.sort(reps, axis=1)
    if jack is None:
        return rs.percentile_ends(reps, level)
    return rs.bca_ends(reps, auc, jack, np.ones(jack.shape[1]), level)


def summary_placements(s: RankingSummary) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(v10, m_k, v01, n_k)`` of a ranking summary: at each distinct score holding positives, their placement
    value V10 (share of negatives below, ties ½) and how many positives share it; the same for the negatives
    (V01, the share of positives above). Decreasing score; from the per-distinct-score counts alone.

    >>> from clfeval.scores._curves import ranking
    >>> v10, m_k, v01, n_k = summary_placements(ranking([1, 0, 1, 0], [0.9, 0.2, 0.2, 0.1], positive=1).summary)
    >>> v10.tolist(), m_k.tolist(), v01.tolist(), n_k.tolist()
    ([1.0, 0.75], [1, 1], [0.75, 1.0], [1, 1])
    """
    p, q = score_counts(s)
    tp, fp = np.cumsum(p), np.cumsum(q)
    hp, hq = p > 0, q > 0
    v10 = (2 * (s.n_negative - fp[hp]) + q[hp]) / (2.0 * s.n_negative)
    v01 = (2 * tp[hq] - p[hq]) / (2.0 * s.n_positive)
    return v10, p[hp], v01, q[hq]


def summary_delong_variance(s: RankingSummary) -> float:
    """DeLong's S10/m + S01/n of one ranking summary (NaN with fewer than two positives or negatives)."""
    m, n = s.n_positive, s.n_negative
    if min(m, n) < 2:
        return math.nan
    v10, m_k, v01, n_k = summary_placements(s)
    auc = s.roc_auc
    return float(np.dot(m_k, (v10 - auc) ** 2)) / (m - 1) / m + float(np.dot(n_k, (v01 - auc) ** 2)) / (n - 1) / n


def auc_interval(rk: Any, method: str, *, level: float, samples: int, rng: np.random.Generator) -> list[float]:
    """[low, high] of one ranking's ROC-AUC by ``method`` (one of :data:`AUC_METHODS`); NaN ends where undefined
    (fewer than two positives or negatives for the variances and the jackknife). ``rk``: a
    :class:`~clfeval.core._ranksummary.RankingSummary`, or anything with one (``.summary``)."""
    from clfeval.significance._curvebands import auc_replicates

    s = rk if isinstance(rk, RankingSummary) else rk.summary
    m, n = s.n_positive, s.n_negative
    if min(m, n) < 2:
        return [math.nan, math.nan]
    auc = np.array([s.roc_auc])
    if method in ("delong", "logit-delong"):
        out = (wald if method == "delong" else logit_wald)(auc, np.array([summary_delong_variance(s)]), level)
    elif method == "hanley-mcneil":
        out = wald(auc, hanley_mcneil_variance(auc, m, n), level)
    else:
        reps = auc_replicates(s, samples, rng)[None, :]
        jack = None
        if method == "bca":  # each distinct score's leave-one-out value, once per item holding it
            v10, m_k, v01, n_k = summary_placements(s)
            jack = auc_jackknife(np.repeat(v10, m_k)[None, :], np.repeat(v01, n_k)[None, :])
        out = bootstrap_ends(reps, auc, jack, level)
    return [float(out[0, 0]), float(out[0, 1])]


def too_narrow_auc(auc: float, m: int, n: int) -> bool:
    """Whether the default interval may under-cover here: min(m, n)·(1 − θ) < :data:`TOO_FEW` (θ taken as the
    larger of θ and 1 − θ), the cells where ``bench/ci_coverage.py`` measured coverage below 0.93
    (20 + 20 at AUC 0.97, 20 + 200 at AUC 0.9 and 0.97; the table in docs/guide/significance.md).

    >>> too_narrow_auc(0.92, 20, 20), too_narrow_auc(0.75, 200, 200)
    (True, False)
    """
    worst = max(auc, 1 - auc)
    return min(m, n) * (1 - worst) < TOO_FEW


#: The rule of :func:`too_narrow_auc`: set from the coverage table in docs/guide/significance.md (bench/ci_coverage.py).
TOO_FEW = 3.0
