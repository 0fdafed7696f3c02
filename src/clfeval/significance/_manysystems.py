"""Many systems over many data sets: ranks, Friedman, Iman–Davenport, Nemenyi, Holm-adjusted Wilcoxon.

The input is a score matrix X of N data sets (rows) × k systems (columns),
each entry one system's score on one data set (Demšar 2006, JMLR 7:1–30):

* **ranks**: on each data set the best system gets rank 1, the worst rank k;
  tied scores get the mean of the ranks they span (mid-ranks). R_j is the
  average rank of system j over the N data sets.
* **Friedman**: χ²_F = 12N / (k(k+1)) · (Σ_j R_j² − k(k+1)²/4), k − 1 df
  (Demšar's eq. without a tie correction; the tie-corrected statistic that
  ``scipy.stats.friedmanchisquare`` reports is given beside it).
* **Iman–Davenport**: F_F = (N − 1)χ²_F / (N(k − 1) − χ²_F), with k − 1 and
  (k − 1)(N − 1) df. When every data set ranks the systems the same way the
  denominator is 0: F_F is infinite and its p-value 0.
* **Nemenyi**: two systems differ when their average ranks differ by at least
  CD = q_α √(k(k+1) / (6N)), with q_α the studentized range quantile of k
  means and infinite df divided by √2 (Demšar's Table 5a: q_0.05 = 2.569 for
  k = 4). The pair's p-value is the studentized range tail at
  |R_i − R_j| / √(k(k+1)/(6N)) · √2.
* **Wilcoxon signed-rank** per pair (García & Herrera 2008 recommend it,
  Holm-adjusted, over Nemenyi): ``scipy.stats.wilcoxon`` on the differences,
  ``zero_method="pratt"``, ``method="auto"``, two-sided; a pair whose
  differences are all zero has p = 1 (SciPy returns NaN there: nothing
  separates the two systems).
* **effect sizes** per pair: the mean and the median of the differences and
  the Hodges–Lehmann estimate (the median of the Walsh averages
  (d_i + d_j)/2, i ≤ j).

Differences of a pair (A, B) are oriented so that a positive value means A is
better (for a lower-is-better score, d = B − A).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["average_ranks", "friedman", "nemenyi_q", "nemenyi", "wilcoxon_pairs", "hodges_lehmann", "groups",
           "Friedman", "PairStats"]


def average_ranks(scores: np.ndarray, *, higher_is_better: bool) -> np.ndarray:
    """Ranks per data set (rows), 1 = best, ties as mid-ranks.

    >>> average_ranks(np.array([[0.9, 0.8, 0.8]]), higher_is_better=True).tolist()
    [[1.0, 2.5, 2.5]]
    """
    from scipy.stats import rankdata

    x = np.asarray(scores, dtype=np.float64)
    return rankdata(-x if higher_is_better else x, axis=1, method="average")


@dataclass(frozen=True)
class Friedman:
    """The Friedman test and the Iman–Davenport F (Demšar 2006, §3.2.2)."""

    chi2: float
    chi2_p_value: float
    chi2_tie_corrected: float
    chi2_tie_corrected_p_value: float
    f: float
    f_p_value: float
    df_chi2: int
    df_f: tuple[int, int]


def friedman(ranks: np.ndarray) -> Friedman:
    """χ²_F (Demšar's formula), its tie-corrected form, and F_F with their p-values."""
    from scipy.stats import chi2 as chi2_dist, f as f_dist

    n, k = ranks.shape
    r = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (float(np.sum(r ** 2)) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(chi2, 0.0)
    # the tie correction: 1 − Σ (t³ − t) / (N k (k² − 1)) over the groups of tied ranks
    ties = 0.0
    for row in ranks:
        _, counts = np.unique(row, return_counts=True)
        ties += float(np.sum(counts.astype(np.float64) ** 3 - counts))
    c = 1.0 - ties / (n * k * (k * k - 1))
    chi2_tc = chi2 / c if c > 0 else math.nan
    denom = n * (k - 1) - chi2
    if denom <= 1e-12 * n * k:
        f, fp = math.inf, 0.0
    else:
        f = (n - 1) * chi2 / denom
        fp = float(f_dist.sf(f, k - 1, (k - 1) * (n - 1)))
    return Friedman(chi2, float(chi2_dist.sf(chi2, k - 1)), chi2_tc,
                    float(chi2_dist.sf(chi2_tc, k - 1)) if math.isfinite(chi2_tc) else math.nan,
                    f, fp, k - 1, (k - 1, (k - 1) * (n - 1)))


def nemenyi_q(k: int, alpha: float) -> float:
    """The Nemenyi critical value q_α for k systems: the studentized range quantile (df = ∞) over √2.

    >>> round(nemenyi_q(4, 0.05), 3), round(nemenyi_q(10, 0.10), 3)
    (2.569, 2.92)
    """
    from scipy.stats import studentized_range

    return float(studentized_range.ppf(1.0 - alpha, k, np.inf)) / math.sqrt(2.0)


def nemenyi(avg_ranks: np.ndarray, n: int, alpha: float) -> tuple[float, float, np.ndarray]:
    """(q_α, the critical difference, the k × k matrix of pairwise Nemenyi p-values)."""
    from scipy.stats import studentized_range

    k = avg_ranks.size
    q = nemenyi_q(k, alpha)
    se = math.sqrt(k * (k + 1) / (6.0 * n))
    diff = np.abs(avg_ranks[:, None] - avg_ranks[None, :])
    iu = np.triu_indices(k, 1)
    uniq, inv = np.unique(np.round(diff[iu], 12), return_inverse=True)
    pu = np.ones_like(uniq)
    pos = uniq > 0
    if pos.any():
        pu[pos] = np.clip(studentized_range.sf(uniq[pos] / se * math.sqrt(2.0), k, np.inf), 0.0, 1.0)
    p = np.ones((k, k))
    p[iu] = pu[inv]
    p[(iu[1], iu[0])] = pu[inv]
    return q, q * se, p


@dataclass(frozen=True)
class PairStats:
    """Per pair (i, j), i < j: the Wilcoxon statistic and two-sided p, and the effect sizes of d = X_i − X_j
    oriented so that positive means i is better."""

    i: np.ndarray
    j: np.ndarray
    statistic: np.ndarray
    p_value: np.ndarray
    mean: np.ndarray
    median: np.ndarray
    hodges_lehmann: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    losses: np.ndarray


def hodges_lehmann(d: np.ndarray) -> np.ndarray:
    """The Hodges–Lehmann estimate of each row of differences: the median of its Walsh averages (d_i + d_j)/2, i ≤ j.

    The Walsh averages of (1, 2, 9) are 1, 1.5, 5, 2, 5.5, 9; their median is (2 + 5)/2:

    >>> hodges_lehmann(np.array([[1.0, 2.0, 9.0]])).tolist()
    [3.5]
    """
    d = np.atleast_2d(np.asarray(d, dtype=np.float64))
    n = d.shape[1]
    iu = np.triu_indices(n)
    m = iu[0].size
    mid = sorted({(m - 1) // 2, m // 2})  # the middle one or two of the m Walsh sums
    out = np.empty(d.shape[0])
    step = max(1, 4_000_000 // max(1, m))
    for s in range(0, d.shape[0], step):
        part = d[s:s + step]
        sums = np.add(part[:, iu[0]], part[:, iu[1]])
        sums.partition(mid, axis=1)
        out[s:s + step] = sums[:, mid].mean(axis=1) / 2.0
    return out


def wilcoxon_pairs(scores: np.ndarray, pairs: Sequence[tuple[int, int]], *, higher_is_better: bool) -> PairStats:
    """Wilcoxon signed-rank tests (SciPy, pratt, auto, two-sided) and effect sizes of the given pairs."""
    import warnings

    from scipy.stats import wilcoxon

    x = np.asarray(scores, dtype=np.float64)
    i = np.array([p[0] for p in pairs], dtype=np.int64)
    j = np.array([p[1] for p in pairs], dtype=np.int64)
    d = (x[:, i] - x[:, j]).T  # (pairs, N)
    if not higher_is_better:
        d = -d
    stat = np.full(i.size, math.nan)
    p = np.ones(i.size)
    live = np.flatnonzero(np.any(d != 0, axis=1))
    if live.size:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SciPy warns when the normal approximation is used with ties or zeros
            res = wilcoxon(d[live], zero_method="pratt", method="auto", alternative="two-sided", axis=1)
        stat[live] = np.asarray(res.statistic, dtype=np.float64)
        p[live] = np.asarray(res.pvalue, dtype=np.float64)
    stat[np.setdiff1d(np.arange(i.size), live)] = 0.0
    return PairStats(i, j, stat, p, d.mean(axis=1), np.median(d, axis=1), hodges_lehmann(d),
                     np.sum(d > 0, axis=1), np.sum(d == 0, axis=1), np.sum(d < 0, axis=1))


def groups(order: Sequence[int], separated: np.ndarray) -> list[list[int]]:
    """Maximal runs of consecutive systems (in rank order) of which no two are separated.

    ``separated[a, b]`` is True when the test separates systems a and b. A run
    contained in an earlier one is left out; single systems are left out.

    >>> sep = np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=bool)
    >>> groups([0, 1, 2], sep)
    [[0, 1], [1, 2]]
    """
    out: list[list[int]] = []
    order = list(order)
    last_end = -1
    for s in range(len(order)):
        e = s
        while e + 1 < len(order) and not any(separated[order[t], order[e + 1]] for t in range(s, e + 1)):
            e += 1
        if e > s and e > last_end:
            out.append(order[s:e + 1])
            last_end = e
    return out
