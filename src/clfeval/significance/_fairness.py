"""Group fairness measures from per-group 2×2 tables, as fairlearn defines them.

Per group: selection rate (TP + FP) / n, true-positive rate TP / (TP + FN), false-positive rate FP / (FP + TN).
Between groups (fairlearn's ``method="between_groups"``): a difference is max − min over the groups, a ratio
min / max. Demographic parity: of the selection rates. Equalized odds (``agg="worst_case"``, fairlearn's default):
the larger of the TPR and FPR differences; its ratio the smaller of the two ratios. Equal opportunity: of the
TPRs. Groups where a rate is 0/0 are left out of that rate's difference and ratio (and named).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["group_rates", "measures", "fairness", "MEASURES"]

MEASURES = ("demographic_parity_difference", "demographic_parity_ratio", "equalized_odds_difference",
            "equalized_odds_ratio", "equal_opportunity_difference", "equal_opportunity_ratio")


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
        sr, tpr, fpr = rates["selection_rate"], rates["tpr"], rates["fpr"]
        return {"demographic_parity_difference": _diff(sr), "demographic_parity_ratio": _ratio(sr),
                "equalized_odds_difference": np.maximum(_diff(tpr), _diff(fpr)),
                "equalized_odds_ratio": np.minimum(_ratio(tpr), _ratio(fpr)),
                "equal_opportunity_difference": _diff(tpr), "equal_opportunity_ratio": _ratio(tpr)}


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
            n = int(counts[i].sum())
            if n:
                draws[:, i] = rng.multinomial(n, counts[i].reshape(-1) / n, size=samples).reshape(samples, k, k)
        reps = measures(group_rates(draws, positive))
        a = (1 - ci) / 2
        out["ci"] = {name: [None if not np.isfinite(v).any() else float(np.nanquantile(v, a)),
                            None if not np.isfinite(v).any() else float(np.nanquantile(v, 1 - a))]
                     for name, v in reps.items()}
    return out
