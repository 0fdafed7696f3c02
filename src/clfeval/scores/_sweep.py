"""The threshold sweep: every cut of a ranking with its counts and rates, and the best cut of an objective.

:class:`Cuts` are the cumulative counts at every distinct score in decreasing
threshold order; :func:`sweep_of` turns cuts (all of a ranking's, or one chunk
of them with the ranking's totals) into a :class:`Sweep`; :class:`CutChooser`
chooses the cut an objective picks from sweeps given chunk by chunk, with the
same tie rules as :func:`clfeval.scores._objectives.choose_cut` on the whole
sweep — which is how rankings beyond memory choose a threshold.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from clfeval.core import (
    ClassCounts,
    check_beta,
    check_zero_division,
    fbeta,
    fpr,
    precision,
    recall,
    safe_divide,
    zero_division_name,
)
from clfeval.scores._objectives import Objective, check_cost, choose_cut

__all__ = ["Cuts", "Sweep", "sweep_of", "CutChooser"]


class Cuts(NamedTuple):
    """Cumulative counts at every distinct score, in decreasing threshold order.

    ``tp[k]`` and ``fp[k]`` count the positives and negatives with score ≥
    ``thresholds[k]``; each threshold is a score that occurs in the data, the
    lowest score predicted positive at that cut.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray


@dataclass(frozen=True)
class Sweep:
    """The threshold sweep: one row per cut (decreasing threshold), every count and rate.

    ``cost`` is the expected cost per item, (cost_fp·FP + cost_fn·FN) / N;
    with both costs 1 it is the error rate. Ratios follow ``zero_division``.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    fbeta: np.ndarray
    tpr: np.ndarray
    fpr: np.ndarray
    cost: np.ndarray
    beta: float = 1.0
    cost_fp: float = 1.0
    cost_fn: float = 1.0
    zero_division: float = 0.0

    COLUMNS = ("threshold", "tp", "fp", "fn", "tn", "precision", "recall", "fbeta", "tpr", "fpr", "cost")

    def __len__(self) -> int:
        return int(self.thresholds.shape[0])

    def row(self, k: int) -> dict[str, Any]:
        """Row ``k`` as plain data."""
        out: dict[str, Any] = {"threshold": float(self.thresholds[k])}
        for name in ("tp", "fp", "fn", "tn"):
            out[name] = int(getattr(self, name)[k])
        for name in ("precision", "recall", "fbeta", "tpr", "fpr", "cost"):
            out[name] = float(getattr(self, name)[k])
        return out

    def rows(self, max_rows: int | None = None) -> list[dict[str, Any]]:
        """Rows as plain data; with ``max_rows``, that many rows spread evenly over the sweep
        (first and last cut always included)."""
        n = len(self)
        idx: Iterable[int]
        if max_rows is None or n <= max_rows:
            idx = range(n)
        else:
            idx = sorted(set(np.linspace(0, n - 1, max(max_rows, 2)).round().astype(int).tolist()))
        return [self.row(k) for k in idx]

    def to_dict(self, max_rows: int | None = None) -> dict[str, Any]:
        return {"beta": self.beta, "cost_fp": self.cost_fp, "cost_fn": self.cost_fn,
                "zero_division": zero_division_name(self.zero_division), "n_cuts": len(self),
                "rows": self.rows(max_rows)}


def sweep_of(cuts: Cuts, n_positive: int, n_negative: int, *, beta: float = 1.0, cost_fp: float = 1.0,
             cost_fn: float = 1.0, zero_division: Any = 0) -> Sweep:
    """The sweep of ``cuts`` (every cut of a ranking, or a chunk of them) of a ranking with these totals."""
    beta = check_beta(beta)
    zd = check_zero_division(zero_division)
    cfp = check_cost(cost_fp, "cost_fp")
    cfn = check_cost(cost_fn, "cost_fn")
    c = cuts
    counts = ClassCounts(c.tp, c.fp, n_positive - c.tp, n_negative - c.fp)
    r = recall(counts, zd)[0]
    cost = safe_divide(cfp * counts.fp + cfn * counts.fn, n_positive + n_negative, zd)[0]
    return Sweep(c.thresholds, counts.tp, counts.fp, counts.fn, counts.tn, precision(counts, zd)[0], r,
                 fbeta(counts, beta, zd)[0], r, fpr(counts, zd)[0], cost, beta, cfp, cfn, zd)


class CutChooser:
    """The cut an objective chooses, from a sweep given in chunks (in decreasing threshold order).

    Feed each chunk's sweep with :meth:`add` (its first cut's index in the
    whole sweep is the number of cuts fed before); :attr:`index` and
    :attr:`row` are then what :func:`~clfeval.scores._objectives.choose_cut`
    gives on the whole sweep: the first maximum of F-beta (NaN first, as
    ``numpy.argmax``), the first minimum of the cost, the last cut reaching a
    precision target, the first reaching a recall target. :attr:`top_precision`
    keeps the first maximum of precision (what a refused precision target reports).
    """

    def __init__(self, objective: Objective) -> None:
        self.objective = objective
        self.seen = 0
        self.index: int | None = None
        self.row: dict[str, Any] | None = None
        self._value = math.nan
        self.top_precision: tuple[float, float] | None = None  # (precision, threshold)

    @staticmethod
    def _better(new: float, old: float | None, maximise: bool) -> bool:
        if old is None:
            return True
        if math.isnan(old):
            return False
        if math.isnan(new):
            return True
        return new > old if maximise else new < old

    def add(self, sw: Sweep) -> None:
        """One more chunk of the sweep."""
        n = len(sw)
        if n == 0:
            return
        obj = self.objective
        k = choose_cut(sw, obj)
        if k is not None:
            take = False
            if obj.kind in ("fbeta", "cost"):
                v = float(sw.fbeta[k] if obj.kind == "fbeta" else sw.cost[k])
                take = self._better(v, None if self.index is None else self._value, obj.kind == "fbeta")
                if take:
                    self._value = v
            elif obj.kind == "precision":
                take = True  # the last one reaching the target
            else:
                take = self.index is None  # the first one reaching the target
            if take:
                self.index = self.seen + k
                self.row = sw.row(k)
        j = int(np.argmax(sw.precision))
        p = float(sw.precision[j])
        if self.top_precision is None or self._better(p, self.top_precision[0], True):
            self.top_precision = (p, float(sw.thresholds[j]))
        self.seen += n
