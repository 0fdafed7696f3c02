"""The notes and the signature of a calibration result: one wording whatever the engine that counted it."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from clfeval.core import build_signature

__all__ = ["EPS", "BINNING", "calibration_words"]

EPS = float(np.finfo(np.float64).eps)
"""Log loss clips probabilities to [EPS, 1 − EPS] (float64 machine epsilon): a confident miss costs at most
−log EPS ≈ 36.04, never an infinity that breaks JSON."""

#: The binning rule of each (strategy, edges), as the signature states it.
BINNING = {("uniform", "clfeval"): "value v goes to bin min(floor(v*B), B-1): left-closed [k/B, (k+1)/B), 1 in the "
                                   "last bin; empty bins kept",
           ("quantile", "clfeval"): "equal-mass bins: bin k starts at the (k*N // B)-th smallest confidence; ties "
                                    "stay together",
           ("uniform", "sklearn"): "scikit-learn's calibration_curve: edges numpy.linspace(0, 1, B+1), bin = "
                                   "searchsorted(edges[1:-1], v) (right-closed (e_k, e_k+1], 0 in the first bin); "
                                   "empty bins dropped",
           ("quantile", "sklearn"): "scikit-learn's calibration_curve: edges numpy.percentile(v, linspace(0, 100, "
                                    "B+1)), bin = searchsorted(edges[1:-1], v) (right-closed); empty bins dropped"}


def calibration_words(kind: str, pos_label: Any, *, strategy: str, edges: str, bins: int, formed: int,
                      spilled: bool = False, memory: int | None = None) -> tuple[list[str], dict[str, Any]]:
    """The notes and the signature of a calibration result: one wording whatever the engine that counted it."""
    notes = []
    if kind == "binary":
        notes.append(f"Binary calibration: the confidence is the probability of {pos_label!r} and the "
                     f"observation the frequency of {pos_label!r} in each bin.")
        if spilled:
            notes.append(f"ROC-AUC and average precision were ranked beyond memory: sorted runs spilled to disk "
                         f"within the budget of {memory:,} bytes and were merged; both are exact.")
    else:
        notes.append("Top-label calibration: the confidence is the largest probability of each item and the "
                     "observation whether that label is correct (accuracy).")
    if edges == "sklearn":
        notes.append("Bins as scikit-learn's calibration_curve: right-closed on the float edges, empty bins "
                     "dropped (--edges sklearn).")
    if strategy == "quantile" and formed < bins:
        notes.append(f"Equal-mass bins: tied confidences stay in one bin, so {formed} bins were formed instead of "
                     f"{bins}.")
    notes.append(f"Log loss clips probabilities to [eps, 1 - eps] with eps = {EPS!r} (float64 machine epsilon), so "
                 f"a confident miss costs at most -log(eps) = {-math.log(EPS):.4g} instead of infinity.")
    notes.append("Ranking metrics (ROC-AUC, average precision) cannot see miscalibration: they depend on the order "
                 "of the scores only.")
    sig = build_signature({
        "kind": kind, "bins": bins, "strategy": strategy,
        "binning": BINNING[strategy, edges], "edges": edges,
        "ece": "sum_b (n_b/N) |acc_b - conf_b|", "mce": "max_b |acc_b - conf_b| over non-empty bins",
        "brier": "mean (p - y)^2" if kind == "binary" else "mean over items of sum_k (p_k - y_k)^2",
        "log_loss_eps": EPS, "sums": "exact (integer and rational accumulation): the same bits in any order"})
    return notes, sig
