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
  Holm-adjusted, over Nemenyi): each pair's p-value is the one
  ``scipy.stats.wilcoxon(a, b, zero_method="pratt", method="auto")`` gives for
  that pair alone, two-sided, whatever other systems are in the table
  (:data:`WILCOXON_RULE`, :func:`wilcoxon_methods`); a pair whose differences
  are all zero has p = 1 (SciPy returns NaN there: nothing separates the two
  systems).
* **effect sizes** per pair: the mean and the median of the differences and
  the Hodges–Lehmann estimate (the median of the Walsh averages
  (d_i + d_j)/2, i ≤ j).

Differences of a pair (A, B) are oriented so that a positive value means A is
better (for a lower-is-better score, d = B − A).

**Extreme scores** (:data:`RANGE_RULE`): differences, Walsh sums and means are
computed on the scores times 2^−e (exact: a power of two), e the smallest
exponent that keeps every magnitude below 2^960, so that no intermediate sum
of finite scores overflows; ordinary scores have e = 0. An effect size whose
true value is beyond the float range (|value| > 1.797e308, e.g. the mean of
1e308 − (−1e308)) is undefined, with that reason.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["average_ranks", "friedman", "nemenyi_q", "nemenyi", "wilcoxon_pairs", "wilcoxon_methods",
           "hodges_lehmann", "groups", "Friedman", "PairStats", "pair_differences", "scale_exponent", "scaled",
           "unscaled", "mean", "WILCOXON_RULE", "RANGE_RULE", "EXACT_MAX_N", "PERMUTATION_MAX_N"]

#: SciPy 1.17.1's ``wilcoxon(method="auto")``, decided for one pair of N data sets: above this N, the normal
#: approximation.
EXACT_MAX_N = 50
#: ... and with zeros or tied |d|, the sign flips of the permutation test are all enumerated up to this N.
PERMUTATION_MAX_N = 13
#: The rule, in words (stated in rank's output and in docs/guide/rank.md).
WILCOXON_RULE = (
    f"each pair is tested on its own, as scipy.stats.wilcoxon(a, b, zero_method='pratt', method='auto') decides "
    f"for that pair alone (SciPy 1.17.1's rule): with more than {EXACT_MAX_N} data sets, the normal approximation; "
    f"with {EXACT_MAX_N} or fewer, the exact distribution of the signed-rank statistic when the pair's differences "
    f"hold no zero and no tied |d|, else an exact permutation test over all 2^N sign flips when N ≤ "
    f"{PERMUTATION_MAX_N}, else the normal approximation (tie-corrected, no continuity correction). Zeros follow "
    f"Pratt: they are ranked with the other |d| and counted in neither rank sum (the normal approximation's mean "
    f"and variance adjusted for them)")
#: The range rule, in words.
RANGE_RULE = ("differences, Walsh sums and means are computed on the scores scaled by an exact power of two, so "
              "that no sum of finite scores overflows; an effect size whose true value is beyond the float range is "
              "undefined")

#: Scaled magnitudes stay at or below 2^HEADROOM: a difference or a Walsh sum is below 2^(HEADROOM + 2), and a sum
#: over fewer than 2^60 data sets is finite.
HEADROOM = 960


def scale_exponent(x: np.ndarray, axis: int | None = None) -> np.ndarray:
    """The smallest e ≥ 0 with max |x| · 2^−e ≤ 2^960 (0 for any ordinary scores), over ``axis`` (kept as a
    length-1 axis) or over all of x.

    >>> int(scale_exponent(np.array([0.5, 1e6]))), int(scale_exponent(np.array([1e308])))
    (0, 64)
    >>> scale_exponent(np.array([[1.0, 2.0], [1e308, 0.0]]), axis=1).tolist()
    [[0], [64]]
    """
    x = np.asarray(x, dtype=np.float64)
    m = np.max(np.abs(x), axis=axis, keepdims=axis is not None, initial=0.0)
    return np.where(m <= 2.0 ** HEADROOM, 0, np.frexp(m)[1] - HEADROOM)


def scaled(x: np.ndarray, e: np.ndarray | int) -> np.ndarray:
    """x · 2^−e, exactly (a magnitude below 2^(e − 1074) would lose bits; with e = 0, x itself)."""
    return np.ldexp(np.asarray(x, dtype=np.float64), -np.asarray(e))


def unscaled(v: np.ndarray, e: np.ndarray | int) -> np.ndarray:
    """v · 2^e; NaN (undefined) where the value is beyond the float range.

    >>> unscaled(np.array([1.0, 2.0 ** 1000]), 64).tolist()
    [1.8446744073709552e+19, nan]
    """
    with np.errstate(over="ignore"):
        out = np.ldexp(np.asarray(v, dtype=np.float64), np.asarray(e))
    return np.where(np.isfinite(out), out, np.nan)


def mean(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """The mean along ``axis`` that no sum of finite values makes infinite: scaled by a power of two
    (:func:`scale_exponent`) and shifted by the median (exact for equal values: the mean of six 1e308 is 1e308).

    >>> mean(np.array([1e308] * 6)).item(), mean(np.array([[1.0, 2.0, 6.0]])).tolist()
    (1e+308, [3.0])
    """
    x = np.asarray(x, dtype=np.float64)
    e = scale_exponent(x, axis)
    s = scaled(x, e)
    shift = np.median(s, axis=axis, keepdims=True)
    return np.squeeze(unscaled(shift + (s - shift).mean(axis=axis, keepdims=True), e), axis=axis)


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
    """Per pair (i, j), i < j: the Wilcoxon statistic, two-sided p and the method that gave it, and the effect
    sizes of d = X_i − X_j oriented so that positive means i is better (NaN: beyond the float range)."""

    i: np.ndarray
    j: np.ndarray
    statistic: np.ndarray
    p_value: np.ndarray
    method: np.ndarray
    mean: np.ndarray
    median: np.ndarray
    hodges_lehmann: np.ndarray
    wins: np.ndarray
    ties: np.ndarray
    losses: np.ndarray


def hodges_lehmann(d: np.ndarray) -> np.ndarray:
    """The Hodges–Lehmann estimate of each row of differences: the median of its Walsh averages (d_i + d_j)/2, i ≤ j.

    The Walsh averages of (1, 2, 9) are 1, 1.5, 5, 2, 5.5, 9; their median is (2 + 5)/2. The sums are formed on
    the row scaled by a power of two (:func:`scale_exponent`), so finite differences never overflow:

    >>> hodges_lehmann(np.array([[1.0, 2.0, 9.0], [1e308, 1e308, 1e308]])).tolist()
    [3.5, 1e+308]
    """
    d = np.atleast_2d(np.asarray(d, dtype=np.float64))
    e = scale_exponent(d, axis=1)
    d = scaled(d, e)
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
    return unscaled(out, e[:, 0])


def wilcoxon_methods(d: np.ndarray) -> np.ndarray:
    """The method SciPy 1.17.1's ``wilcoxon(method="auto")`` takes for each row of differences on its own:
    ``"normal"`` above 50 values; else ``"exact"`` when the row holds no zero and no tied |d|; else
    ``"permutation"`` (all 2^N sign flips) up to N = 13, ``"normal"`` beyond.

    >>> wilcoxon_methods(np.array([[1.0, -2, 3], [1, -1, 3], [0, 2, 3]])).tolist()
    ['exact', 'permutation', 'permutation']
    >>> wilcoxon_methods(np.tile([[0.0], [1.0]], 20) + np.arange(20)).tolist()
    ['normal', 'exact']
    """
    d = np.atleast_2d(np.asarray(d, dtype=np.float64))
    n = d.shape[1]
    if n > EXACT_MAX_N:
        return np.full(d.shape[0], "normal", dtype=object)
    a = np.sort(np.abs(d), axis=1)
    irregular = np.any(a[:, 1:] == a[:, :-1], axis=1) | np.any(d == 0, axis=1)
    return np.where(irregular, "permutation" if n <= PERMUTATION_MAX_N else "normal", "exact").astype(object)


def _scipy_method(method: str) -> object:
    from scipy.stats import PermutationMethod

    return {"exact": "exact", "normal": "asymptotic"}.get(method) or PermutationMethod()


def pair_differences(x: np.ndarray, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(d, e): per pair (row), the differences X_i − X_j over the data sets times 2^−e (e per pair, from the two
    columns: :func:`scale_exponent`), never infinite for finite scores."""
    top = np.max(np.abs(x), axis=0, initial=0.0)
    e = scale_exponent(np.maximum(top[i], top[j])[:, None], axis=1)
    return scaled(x[:, i].T, e) - scaled(x[:, j].T, e), e[:, 0]


def wilcoxon_pairs(scores: np.ndarray, pairs: Sequence[tuple[int, int]], *, higher_is_better: bool) -> PairStats:
    """Wilcoxon signed-rank tests (SciPy, pratt, auto for each pair on its own, two-sided) and effect sizes of the
    given pairs.

    A pair's p is the one ``scipy.stats.wilcoxon(a, b, zero_method="pratt", method="auto")`` gives for it alone:
    its method is decided from its own differences (:func:`wilcoxon_methods`), then the pairs of one method are
    tested in one SciPy call with that method (each row's computation is its own).
    """
    import warnings

    from scipy.stats import wilcoxon

    x = np.asarray(scores, dtype=np.float64)
    i = np.array([p[0] for p in pairs], dtype=np.int64)
    j = np.array([p[1] for p in pairs], dtype=np.int64)
    d, e = pair_differences(x, i, j)
    if not higher_is_better:
        d = -d
    stat = np.zeros(i.size)
    p = np.ones(i.size)
    method = np.full(i.size, "equal", dtype=object)  # every difference zero: p = 1
    live = np.flatnonzero(np.any(d != 0, axis=1))
    method[live] = wilcoxon_methods(d[live])
    for how in ("exact", "permutation", "normal"):
        rows = live[method[live] == how]
        if rows.size:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SciPy warns when the normal approximation meets ties or zeros
                res = wilcoxon(d[rows], zero_method="pratt", method=_scipy_method(how), alternative="two-sided",
                               axis=1)
            stat[rows] = np.asarray(res.statistic, dtype=np.float64)
            p[rows] = np.asarray(res.pvalue, dtype=np.float64)
    median = np.median(d, axis=1)
    average = median + (d - median[:, None]).mean(axis=1)  # shifted by the median: exact for equal differences
    return PairStats(i, j, stat, p, method, unscaled(average, e), unscaled(median, e), unscaled(hodges_lehmann(d), e),
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
