"""Calibration: does a predicted 0.9 come true nine times in ten?

Predictions are grouped by confidence into bins; each bin's mean confidence
is compared with what was observed in it (the reliability table and diagram).

* Binary: the confidence is the probability of the positive class and the
  observation the frequency of positives in the bin.
* Multiclass with one probability column per class: the confidence is the
  top-label probability (the largest in the row, first column on ties) and
  the observation the accuracy of the top label in the bin.

Bins: ``uniform`` — B equal-width bins, value v goes to bin
min(⌊v·B⌋, B − 1) (so 1.0 falls in the last bin); ``quantile`` — equal-mass
bins: bin k starts at the (k·N // B)-th smallest confidence, so each holds
N/B items (tied values stay in one bin, so bins may differ in size and fewer
than B bins may result).

Measures
--------
* ECE = Σ_b (n_b / N)·|acc_b − conf_b| (empty bins weigh 0);
* MCE = max_b |acc_b − conf_b| over non-empty bins;
* Brier score = mean (p − y)² (binary), mean Σ_k (p_k − y_k)² (multiclass);
* log loss = −mean log p(gold), probabilities clipped to [ε, 1 − ε] with ε the
  float64 machine epsilon (2.22e-16), so that a confident miss is a large
  finite number (at most −log ε ≈ 36.04), never an infinity that breaks JSON.

Ranking metrics do not see any of this: they depend on the order only.

Scores outside [0, 1] are refused: they are not probabilities.

The library function is :func:`reliability` (exported as ``clfeval.reliability``;
a function named like this module would be shadowed by it).

References
----------
* Brier (1950), "Verification of forecasts expressed in terms of probability".
* DeGroot & Fienberg (1983), reliability diagrams.
* Naeini, Cooper & Hauskrecht (2015), ECE and MCE; Guo et al. (2017),
  "On calibration of modern neural networks" (top-label confidence).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from clfeval.core.display import Display
from clfeval.core.exactsum import ExactSum, exact_mean, grouped_sums
from clfeval.core.labels import label_str
from clfeval.scores.columns import DEFAULT_SOURCE, ScoreSource, as_scores, check_probabilities, score_matrix
from clfeval.core.validation import check_positive_int
from clfeval.scores.curves import Ranking, binary_gold, indicator_gold
from clfeval.errors import DataError, UsageError
from clfeval.core.signature import build_signature

__all__ = ["Calibration", "reliability", "check_bins", "EPS", "STRATEGIES", "MAX_BINS"]

EPS = float(np.finfo(np.float64).eps)
STRATEGIES = ("uniform", "quantile")
ROW_SUM_TOLERANCE = 0.01
MAX_BINS = 100_000
"""Most bins of a reliability table. Time and memory grow linearly with the number of bins (every bin is
a row of the JSON table); at this many bins even ten million items leave only 100 per bin."""


def check_bins(bins: Any, *, option: str = "bins") -> int:
    """The number of bins: an integer from 1 to :data:`MAX_BINS`."""
    n_bins = check_positive_int(bins, option=option)
    if n_bins > MAX_BINS:
        raise UsageError(f"option {option} must be at most {MAX_BINS:,}; got {n_bins:,}. Time and memory grow with "
                         f"the number of bins, and at {MAX_BINS:,} bins even ten million items leave only 100 per bin.")
    return n_bins


@dataclass(frozen=True)
class Calibration(Display):
    """Reliability table and calibration measures of one set of probabilities.

    ``bins`` is a list of ``{"lower", "upper", "count", "confidence",
    "accuracy", "gap"}`` (for binary data ``accuracy`` is the observed
    frequency of the positive class); empty bins have ``count`` 0 and NaN
    confidence and accuracy.
    """

    kind: str
    positive: str | None
    n: int
    strategy: str
    n_bins: int
    bins: list[dict[str, Any]]
    ece: float
    mce: float
    brier: float
    log_loss: float
    eps: float
    roc_auc: float | None
    average_precision: float | None
    notes: list[str]
    signature: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "positive": self.positive, "n": self.n, "strategy": self.strategy,
               "n_bins": self.n_bins, "ece": self.ece, "mce": self.mce, "brier": self.brier,
               "log_loss": self.log_loss, "log_loss_eps": self.eps, "bins": self.bins}
        if self.roc_auc is not None:
            out["ranking"] = {"roc_auc": self.roc_auc, "average_precision": self.average_precision}
        out["notes"] = list(self.notes)
        out["signature"] = self.signature
        return out


def _bin_index(conf: np.ndarray, n_bins: int, strategy: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bin of each item, lower edges, upper edges)."""
    if strategy == "uniform":
        idx = np.minimum(np.floor(conf * n_bins).astype(np.int64), n_bins - 1)
        edges = np.arange(n_bins + 1) / n_bins
        return idx, edges[:-1], edges[1:]
    ordered = np.sort(conf)
    n = ordered.shape[0]
    lo, hi = float(ordered[0]), float(ordered[-1])
    # bin k starts at the (k·n // B)-th smallest value: B groups of n/B items, ties kept together
    interior = np.unique(ordered[(np.arange(1, n_bins) * n) // n_bins])
    interior = interior[(interior > lo)]
    idx = np.searchsorted(interior, conf, side="right")
    lower = np.concatenate([[lo], interior])
    upper = np.concatenate([interior, [hi]])
    return idx.astype(np.int64), lower, upper


def reliability(gold: Any, probs: Any, *, positive: Any = None, labels: Sequence[Any] | None = None, bins: int = 10,
                strategy: str = "uniform", source: ScoreSource | None = None) -> Calibration:
    """Reliability table, ECE, MCE, Brier score and log loss of predicted probabilities.

    Parameters
    ----------
    gold : sequence of labels
        One gold label per item.
    probs : sequence of numbers, or mapping label → column / array (n, K)
        Binary: the probability of ``positive`` for each item. Multiclass: one
        probability column per class (``labels`` names an array's columns);
        rows must sum to 1 (within 0.01).
    positive : label
        Binary only: the positive class (it must occur in ``gold``).
    bins : int
        Number of bins B (1 ≤ B ≤ :data:`MAX_BINS`).
    strategy : "uniform" or "quantile"
        Equal-width bins, or equal-mass bins.
    source : ScoreSource, optional
        How messages name the probability columns and their items.

    Returns
    -------
    Calibration

    Raises
    ------
    DataError
        A probability outside [0, 1] (naming the item and column), rows that
        do not sum to 1, an absent positive label, non-numeric values.

    Examples
    --------
    A perfect ranking whose confidence is not: every positive gets 0.6, every negative 0.4.

    >>> c = reliability([1, 1, 0, 0], [0.6, 0.6, 0.4, 0.4], positive=1, bins=10)
    >>> c.roc_auc, round(c.ece, 4), round(c.brier, 4)
    (1.0, 0.4, 0.16)
    """
    src = source or DEFAULT_SOURCE
    name, where, prefix = src.column("probabilities"), src.where, src.prefix
    n_bins = check_bins(bins)
    if strategy not in STRATEGIES:
        raise UsageError(f"option strategy must be one of {', '.join(STRATEGIES)}; got {strategy!r}.")
    notes: list[str] = []
    roc_auc = ap = None
    if isinstance(probs, dict) or (isinstance(probs, np.ndarray) and probs.ndim == 2):
        if positive is not None:
            raise UsageError("give positive with one probability column (binary), or one probability column per "
                             "class (multiclass, top-label calibration), not both.")
        p, col_labels = score_matrix(probs, labels=labels, where=where, prefix=prefix)
        for j, lab in enumerate(col_labels):
            check_probabilities(p[:, j], name=f"{prefix}{label_str(lab)}", where=where)
        sums = p.sum(axis=1)
        bad = np.flatnonzero(np.abs(sums - 1.0) > ROW_SUM_TOLERANCE)
        if bad.size:
            i = int(bad[0])
            raise DataError(f"the probability columns of {where(i)} sum to {sums[i]:.6g}, not 1; top-label calibration "
                            f"needs one probability distribution over the classes per item.")
        y = indicator_gold(gold, col_labels, multilabel=False)
        if y.shape[0] != p.shape[0]:
            raise DataError(f"gold has {y.shape[0]} items but the probability columns have {p.shape[0]} values.")
        top = np.argmax(p, axis=1)
        conf = p[np.arange(p.shape[0]), top]
        outcome = y[np.arange(p.shape[0]), top].astype(np.float64)
        brier = exact_mean(np.sum((p - y) ** 2, axis=1))  # exact sums: the same bits in any batches or order
        p_gold = np.clip(p[y], EPS, 1.0 - EPS) if y.any() else np.empty(0)
        log_loss = -exact_mean(np.log(p_gold))
        kind, pos_label = "top-label", None
        notes.append("Top-label calibration: the confidence is the largest probability of each item and the "
                     "observation whether that label is correct (accuracy).")
    else:
        if positive is None:
            raise UsageError("binary calibration needs positive: the label whose probability the column gives.")
        y1, pos_label, _ = binary_gold(gold, positive)
        conf = as_scores(probs, name=name, n=y1.shape[0], where=where)
        check_probabilities(conf, name=name, where=where)
        outcome = y1.astype(np.float64)
        brier = exact_mean((conf - outcome) ** 2)
        pc = np.clip(conf, EPS, 1.0 - EPS)
        log_loss = -exact_mean(np.where(y1, np.log(pc), np.log1p(-pc)))
        kind = "binary"
        rk = Ranking.from_indicator(y1, conf, pos_label)
        roc_auc, ap = rk.roc_auc, rk.average_precision
        notes.append(f"Binary calibration: the confidence is the probability of {pos_label!r} and the observation "
                     f"the frequency of {pos_label!r} in each bin.")
    n = int(conf.shape[0])
    if n == 0:
        raise DataError("there are no items to calibrate.")
    idx, lower, upper = _bin_index(conf, n_bins, strategy)
    k = lower.shape[0]
    count = np.bincount(idx, minlength=k)
    conf_mean = np.full(k, math.nan)
    acc_mean = np.full(k, math.nan)
    nz = count > 0
    sums = grouped_sums(conf, idx, k)
    conf_mean[nz] = [sums[b].divided(int(count[b])) for b in np.flatnonzero(nz)]
    acc_mean[nz] = np.bincount(idx, weights=outcome, minlength=k)[nz] / count[nz]
    gap = np.abs(acc_mean - conf_mean)
    ece = ExactSum().add(gap[nz], count[nz]).divided(n)
    mce = float(gap[nz].max())
    table = [{"lower": float(lower[b]), "upper": float(upper[b]), "count": int(count[b]),
              "confidence": float(conf_mean[b]), "accuracy": float(acc_mean[b]), "gap": float(gap[b])}
             for b in range(k)]
    if strategy == "quantile" and k < n_bins:
        notes.append(f"Equal-mass bins: tied confidences stay in one bin, so {k} bins were formed instead of {n_bins}.")
    notes.append(f"Log loss clips probabilities to [eps, 1 - eps] with eps = {EPS!r} (float64 machine epsilon), so "
                 f"a confident miss costs at most -log(eps) = {-math.log(EPS):.4g} instead of infinity.")
    notes.append("Ranking metrics (ROC-AUC, average precision) cannot see miscalibration: they depend on the order "
                 "of the scores only.")
    sig = build_signature({
        "kind": kind, "bins": n_bins, "strategy": strategy,
        "binning": "value v goes to bin min(floor(v*B), B-1)" if strategy == "uniform"
        else "equal-mass bins: bin k starts at the (k*N // B)-th smallest confidence; ties stay together",
        "ece": "sum_b (n_b/N) |acc_b - conf_b|", "mce": "max_b |acc_b - conf_b| over non-empty bins",
        "brier": "mean (p - y)^2" if kind == "binary" else "mean over items of sum_k (p_k - y_k)^2",
        "log_loss_eps": EPS})
    return Calibration(kind, pos_label, n, strategy, k, table, ece, mce, brier, log_loss, EPS, roc_auc, ap,
                       notes, sig)
