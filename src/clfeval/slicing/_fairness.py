"""Group fairness measures from per-group 2×2 tables, as fairlearn defines them.

Per group: selection rate (TP + FP) / n, true-positive rate TP / (TP + FN), false-positive rate FP / (FP + TN).
Between groups (fairlearn's ``method="between_groups"``): a difference is max − min over the groups, a ratio
min / max; over several rates the worst case (fairlearn's ``agg="worst_case"``). Which measure reads which rates
is its entry in the registry :data:`clfeval.core.FAIRNESS` (the one place a measure is named). Groups where a
rate is 0/0 are left out of that rate's difference and ratio (and named). The intervals redraw each group's table
from its own cells (:func:`clfeval.stats.draw_tables`, group by group in order).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.core import FAIRNESS
from clfeval.stats import draw_tables

__all__ = ["group_rates", "measures", "fairness", "MEASURES"]

#: The measures' names in registry order (:data:`clfeval.core.FAIRNESS`).
MEASURES = tuple(FAIRNESS)


def group_rates(counts: np.ndarray, positive: int) -> dict[str, np.ndarray]:
    """Selection rate, TPR and FPR of each group's K×K table (..., groups, K, K); NaN where 0/0."""
    n = counts.sum(axis=(-2, -1)).astype(np.float64)
    tp = counts[..., positive, positive].astype(np.float64)
    pos_gold = counts[..., positive, :].sum(axis=-1).astype(np.float64)
    pos_pred = counts[..., :, positive].sum(axis=-1).astype(np.float64)
    fp = pos_pred - tp
    neg = n - pos_gold
    with np.errstate(invalid="ignore", divide="ignore"):
        return {"selection_rate": np.where(n > 0, pos_pred / n, np.nan),
                "tpr": np.where(pos_gold > 0, tp / pos_gold, np.nan),
                "fpr": np.where(neg > 0, fp / neg, np.nan)}


def _diff(x: np.ndarray) -> np.ndarray:
    return np.nanmax(x, axis=-1) - np.nanmin(x, axis=-1)


def _ratio(x: np.ndarray) -> np.ndarray:
    hi, lo = np.nanmax(x, axis=-1), np.nanmin(x, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(hi > 0, lo / np.where(hi > 0, hi, 1.0), np.where(hi == 0, 1.0, np.nan))


def measures(rates: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The between-group measures of the rates (last axis: the groups)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a rate undefined in every group: NaN
        out = {}
        for m in FAIRNESS.values():
            between, worst = (_diff, np.maximum) if m.between == "difference" else (_ratio, np.minimum)
            values = [between(rates[r]) for r in m.rates]
            out[m.name] = values[0] if len(values) == 1 else worst(*values)
        return out


def fairness(counts: np.ndarray, positive: int, *, ci: float | None = None, samples: int = 2_000,
             rng: Any = None) -> dict[str, Any]:
    """The fairness block: per-group rates, the between-group measures and, with ``ci``, their percentile
    bootstrap intervals (each group's table redrawn from its own cells)."""
    rates = group_rates(counts, positive)
    got = measures(rates)
    out: dict[str, Any] = {
        "definitions": "fairlearn's: differences max − min and ratios min / max between groups; equalized odds "
                       "worst case of TPR and FPR",
        "groups": {k: [None if np.isnan(x) else float(x) for x in v] for k, v in rates.items()},
        "measures": {k: None if np.isnan(v) else float(v) for k, v in got.items()}}
    undefined = {k: int(np.isnan(v).sum()) for k, v in rates.items() if np.isnan(v).any()}
    if undefined:
        out["left_out"] = undefined
    if ci is not None and counts.shape[0]:
        g, k = counts.shape[0], counts.shape[-1]
        draws = np.zeros((samples, g, k, k), dtype=np.int64)
        for i in range(g):
            draws[:, i] = draw_tables(counts[i], samples, rng)
        reps = measures(group_rates(draws, positive))
        a = (1 - ci) / 2
        out["ci"] = {name: [None if not np.isfinite(v).any() else float(np.nanquantile(v, a)),
                            None if not np.isfinite(v).any() else float(np.nanquantile(v, 1 - a))]
                     for name, v in reps.items()}
    return out
