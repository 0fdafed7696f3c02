"""Is a slice's gap more than noise? Tests over the slice tables of one column set.

* Metrics that are proportions of items (accuracy, error rate, per-class recall, precision, specificity, FPR):
  across slices, Pearson's chi-square on the slices × (success, failure) table; each slice against the rest,
  Pearson's chi-square on the 2×2 table where every expected count is at least 5, Fisher's exact test elsewhere
  (the one 2 × 2 test, :func:`clfeval.stats.two_by_two`).
* Every other metric (F1, MCC, kappa, macro averages, ...): a count-based permutation test. Under "the slice
  does not matter" the slice tables are a random split of the overall table's items into parts of the slices'
  sizes: multivariate hypergeometric redraws of the per-slice tables (:func:`clfeval.stats.split_tables`), the
  metric computed on each redraw. Across slices the statistic is the size-weighted spread Σ nₛ (mₛ − m)² / N; a
  slice against the rest, |m(slice) − m(rest)|. p = (1 + #{redraw ≥ observed}) / (1 + redraws).
* P-values of the slices adjusted across all slices tested: Holm (family-wise error) and Benjamini–Yekutieli
  (false discovery rate under any dependence, as crosses of columns overlap).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from clfeval.stats import benjamini_yekutieli, draw_slice, holm, split_tables

__all__ = ["PROPORTIONS", "proportion_counts", "is_proportion", "chi_square", "holm", "benjamini_yekutieli", "chi2_sf",
           "permutation_heterogeneity", "permutation_vs_rest"]

#: Catalogue metrics that are a share of items: their (success, trials) per table.
PROPORTIONS = ("accuracy", "error_rate", "recall", "precision", "specificity", "fpr")


def is_proportion(name: str) -> bool:
    return name.split(":")[0] in PROPORTIONS


def proportion_counts(name: str, counts: np.ndarray, index: int | None) -> tuple[np.ndarray, np.ndarray]:
    """(successes, trials) of a proportion metric over tables (..., K, K); "success" is what the metric counts
    (for the error rate and FPR: the errors)."""
    base = name.split(":")[0]
    n = counts.sum(axis=(-2, -1))
    if base in ("accuracy", "error_rate"):
        correct = np.trace(counts, axis1=-2, axis2=-1)
        return (correct if base == "accuracy" else n - correct), n
    i = int(index)  # type: ignore[arg-type]
    tp = counts[..., i, i]
    row = counts[..., i, :].sum(axis=-1)
    col = counts[..., :, i].sum(axis=-1)
    if base == "recall":
        return tp, row
    if base == "precision":
        return tp, col
    neg = n - row
    fp = col - tp
    return (neg - fp, neg) if base == "specificity" else (fp, neg)


def chi2_sf(df: int, x: float) -> float:
    """P(χ² with ``df`` (whole) degrees of freedom ≥ ``x``), from the closed form of the regularised upper gamma
    function at half-integers (no SciPy import on the report path): with y = x/2,
    e^(−y) Σ_{i<df/2} y^i / i! for even ``df``, erfc(√y) + e^(−y) Σ_{1≤i≤(df−1)/2} y^(i−½) / Γ(i+½) for odd; the
    terms are all positive, summed in logarithms (no cancellation, no overflow).

    >>> round(chi2_sf(1, 3.841458820694124), 12), round(chi2_sf(4, 9.487729036781154), 12), chi2_sf(3, 0.0)
    (0.05, 0.05, 1.0)
    """
    df = int(df)
    if df < 1:
        raise ValueError("df must be a whole number >= 1")
    if math.isnan(x):
        return math.nan
    if x <= 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    y = x / 2.0
    if df % 2 == 0:
        i = np.arange(df // 2, dtype=np.float64)
        logs = -y + i * math.log(y) - np.array([math.lgamma(v + 1.0) for v in i.tolist()])
        base = 0.0
    else:
        i = np.arange(1, (df - 1) // 2 + 1, dtype=np.float64)
        logs = -y + (i - 0.5) * math.log(y) - np.array([math.lgamma(v + 0.5) for v in i.tolist()])
        base = math.erfc(math.sqrt(y))
    if logs.size == 0:
        return min(1.0, base)
    top = float(logs.max())
    return min(1.0, base + math.exp(top) * float(np.exp(logs - top).sum()))


def chi_square(success: np.ndarray, trials: np.ndarray) -> dict[str, Any]:
    """Pearson's chi-square test of homogeneity on the slices × (success, failure) table (slices with trials)."""
    keep = trials > 0
    table = np.stack([success[keep], trials[keep] - success[keep]], axis=1).astype(np.float64)
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[0] < 2 or table.shape[1] < 2:
        return {"test": "chi-square", "statistic": None, "df": 0, "p": None,
                "why": "fewer than two slices with items, or one outcome only"}
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / table.sum()
    stat = float(((table - expected) ** 2 / expected).sum())
    df = table.shape[0] - 1
    return {"test": "chi-square", "statistic": stat, "df": int(df), "p": chi2_sf(df, stat)}


def permutation_p(observed: float, replicates: np.ndarray) -> float | None:
    """(1 + #{replicate ≥ observed}) / (1 + replicates), replicates that are undefined left out."""
    ok = ~np.isnan(replicates)
    if np.isnan(observed) or not ok.any():
        return None
    r = replicates[ok]
    return float((1 + np.sum(r >= observed - 1e-12)) / (1 + r.size))


def spread(values: np.ndarray, sizes: np.ndarray, overall: float) -> np.ndarray:
    """Σ nₛ (mₛ − m)² / Σ nₛ over the slices with a defined value (last axis: the slices)."""
    ok = ~np.isnan(values)
    w = np.where(ok, sizes, 0)
    dev = np.where(ok, (values - overall) ** 2, 0.0)
    tot = w.sum(axis=-1)
    return np.where(tot > 0, (w * dev).sum(axis=-1) / np.maximum(tot, 1), np.nan)


def permutation_heterogeneity(metric: Callable[[np.ndarray], np.ndarray], counts: np.ndarray, samples: int,
                              rng: np.random.Generator) -> dict[str, Any]:
    """The permutation test across slices of a metric of tables (``metric`` maps (..., K, K) to (...))."""
    k = counts.shape[-1]
    sizes = counts.sum(axis=(1, 2))
    overall_table = counts.sum(axis=0)
    overall = float(metric(overall_table))
    observed = float(spread(metric(counts), sizes, overall))
    reps = split_tables(overall_table.reshape(-1), sizes, samples, rng).reshape(samples, sizes.size, k, k)
    values = spread(metric(reps), sizes, overall)
    return {"test": "permutation", "statistic": observed, "samples": int(samples), "p": permutation_p(observed, values)}


def permutation_vs_rest(metric: Callable[[np.ndarray], np.ndarray], tables: np.ndarray, overall_table: np.ndarray,
                        samples: int, rng: np.random.Generator) -> np.ndarray:
    """The permutation p-values of |m(slice) − m(rest)|, one per slice of ``tables`` (S, K, K); the redraws of
    every slice are drawn together (in chunks of bounded memory)."""
    k = overall_table.shape[-1]
    observed = np.abs(metric(tables) - metric(overall_table[None] - tables))
    sizes = tables.sum(axis=(1, 2))
    out = np.full(sizes.size, np.nan)
    chunk = max(1, (1 << 22) // max(samples * k * k, 1))
    for lo in range(0, sizes.size, chunk):
        drawn = draw_slice(overall_table.reshape(-1), sizes[lo:lo + chunk], samples, rng)
        drawn = drawn.reshape(drawn.shape[0], samples, k, k)
        values = np.abs(metric(drawn) - metric(overall_table - drawn))
        for i in range(drawn.shape[0]):
            got = permutation_p(float(observed[lo + i]), values[i])
            out[lo + i] = np.nan if got is None else got
    return out
