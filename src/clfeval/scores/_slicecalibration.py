"""``calibration --by``: the reliability of every slice from per-slice sums, batch by batch.

:class:`SliceCalibrator` is fed batches (gold labels, the probability of the positive class, the ``by`` columns)
and keeps, per slice, what :class:`~clfeval.scores._calibration.Calibrator` keeps overall: per equal-width bin the
count, the positives and the exact sum of the probabilities, and the exact sums of the squared errors (Brier) and
of the log losses (:mod:`clfeval.core._exactsum`: the same bits in any order). Sums add, so a PATH read batch by
batch, a table in memory as one batch and Dask partitions added in a tree (:meth:`SliceSums.__add__`) give the
same numbers, to the bit, as :func:`~clfeval.scores._calibration.reliability` of each slice's items. Equal-mass
(``quantile``) bins are order statistics of each slice: their confidences and outcomes are kept, as the overall
streamed calibration keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from clfeval.core import MAX_SLICES, MISSING, ExactSum, grouped_sums, slice_order
from clfeval.errors import DataError

__all__ = ["SliceCalibrator", "SliceSums", "slice_rows"]


@dataclass
class _One:
    """One slice's sums (``conf``: per bin; ``kept``: (confidence, outcome) arrays of equal-mass bins)."""

    count: np.ndarray
    hits: np.ndarray
    conf: list[ExactSum]
    sq: ExactSum
    loss: ExactSum
    kept: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)

    def __add__(self, other: _One) -> _One:
        return _One(self.count + other.count, self.hits + other.hits,
                    [a + b for a, b in zip(self.conf, other.conf, strict=True)], self.sq + other.sq,
                    self.loss + other.loss, self.kept + other.kept)

    @property
    def n(self) -> int:
        return int(self.count.sum()) if not self.kept else sum(int(c.size) for c, _ in self.kept)


@dataclass
class SliceSums:
    """The sums of every slice, by the slice's value tuple; two of them add."""

    columns: tuple[str, ...]
    slices: dict[tuple[Any, ...], _One]
    binning: dict[str, Any] = field(default_factory=dict)

    def __add__(self, other: SliceSums) -> SliceSums:
        out = dict(self.slices)
        for k, v in other.slices.items():
            out[k] = out[k] + v if k in out else v
        return SliceSums(self.columns, out, self.binning or other.binning)


class SliceCalibrator:
    """Per-slice reliability sums of binary probabilities, batch by batch (see the module docstring)."""

    def __init__(self, columns: Sequence[str], *, positive: Any, bins: int = 10, strategy: str = "uniform",
                 edges: str = "clfeval", max_slices: int = MAX_SLICES, binning: Mapping[str, Any] | None = None,
                 prob: str = "prob") -> None:
        from clfeval.core import SliceCounter

        self.columns = tuple(columns)
        self.positive, self.bins, self.strategy, self.edges, self.prob = positive, int(bins), strategy, edges, prob
        self.slicer = SliceCounter([self.columns], max_slices=max_slices, binning=binning)
        self.count = np.zeros((0, self.bins), dtype=np.int64)
        self.hits = np.zeros((0, self.bins), dtype=np.int64)
        self.conf: list[list[ExactSum]] = []
        self.sq: list[ExactSum] = []
        self.loss: list[ExactSum] = []
        self.kept: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def update(self, gold: Any, probs: Any, columns: Mapping[str, Any], *, where: Any = None) -> None:
        """One batch: gold labels, the probabilities of ``positive`` and the ``by`` columns (name → values)."""
        from clfeval.scores._calibration import EPS
        from clfeval.scores._columns import as_probabilities, item_position
        from clfeval.scores._streamovr import batch_is_positive

        y = batch_is_positive(gold, self.positive)
        p = as_probabilities(probs, name=self.prob, n=y.shape[0], where=where or item_position)
        s = self.slicer.slice_codes({c: columns[c] for c in self.columns})
        n_s = len(self.slicer.counts[0].key_list)
        grow = n_s - len(self.sq)
        if grow > 0:
            self.count = np.vstack([self.count, np.zeros((grow, self.bins), dtype=np.int64)])
            self.hits = np.vstack([self.hits, np.zeros((grow, self.bins), dtype=np.int64)])
            self.conf += [[ExactSum() for _ in range(self.bins)] for _ in range(grow)]
            self.sq += [ExactSum() for _ in range(grow)]
            self.loss += [ExactSum() for _ in range(grow)]
        if not y.size:
            return
        for mine, more in zip(self.sq, grouped_sums((p - y.astype(np.float64)) ** 2, s, n_s), strict=True):
            mine.merge(more)
        pc = np.clip(p, EPS, 1.0 - EPS)
        for mine, more in zip(self.loss, grouped_sums(np.where(y, np.log(pc), np.log1p(-pc)), s, n_s), strict=True):
            mine.merge(more)
        if self.strategy == "quantile":
            self.kept.append((s, p, y))
            return
        if self.edges == "sklearn":  # right-closed on the float edges, as calibration_curve
            idx = np.searchsorted(np.linspace(0.0, 1.0, self.bins + 1)[1:-1], p).astype(np.int64)
        else:
            idx = np.minimum(np.floor(p * self.bins).astype(np.int64), self.bins - 1)
        cell = s * self.bins + idx
        size = n_s * self.bins
        self.count += np.bincount(cell, minlength=size).reshape(n_s, self.bins)
        self.hits += np.bincount(cell[y], minlength=size).reshape(n_s, self.bins)
        for j, more in enumerate(grouped_sums(p, cell, size)):
            if more.num:
                self.conf[j // self.bins][j % self.bins].merge(more)

    def sums(self) -> SliceSums:
        """The sums of every slice counted so far, by value tuple."""
        keys = self.slicer.keys()
        out = {}
        for i, k in enumerate(keys):
            kept = [(p[s == i], y[s == i]) for s, p, y in self.kept]
            out[k] = _One(self.count[i], self.hits[i], self.conf[i], self.sq[i], self.loss[i],
                          [(p, y) for p, y in kept if p.size])
        binning = {c: b for c in self.columns if (b := self.slicer.vocabs[c].binning) is not None}
        return SliceSums(self.columns, out, binning)


def _bins_of(one: _One, bins: int, strategy: str, edges: str) -> tuple[Any, Any, Any, Any]:
    """(count, hits, exact confidence sum of bin b, lower and upper edges) of one slice, as
    :meth:`~clfeval.scores._calibration.Calibrator.result` forms them."""
    from clfeval.core import ExactSums
    from clfeval.scores._calibration import quantile_bins

    if strategy != "quantile":
        cuts = np.linspace(0.0, 1.0, bins + 1) if edges == "sklearn" else np.arange(bins + 1) / bins
        return one.count, one.hits, (lambda b: one.conf[b].fraction()), (cuts[:-1], cuts[1:])
    conf = np.concatenate([c for c, _ in one.kept])
    outcome = np.concatenate([o for _, o in one.kept])
    if edges == "sklearn":
        cuts = np.percentile(conf, np.linspace(0, 1, bins + 1) * 100)
        idx, lower, upper = np.searchsorted(cuts[1:-1], conf).astype(np.int64), cuts[:-1], cuts[1:]
    else:
        idx, lower, upper = quantile_bins(conf, bins)
    k = lower.shape[0]
    sums = ExactSums(k)
    sums.add(conf, idx)
    return np.bincount(idx, minlength=k), np.bincount(idx[outcome], minlength=k), sums.fraction, (lower, upper)


def slice_rows(sums: SliceSums, *, bins: int, strategy: str, edges: str, min_slice: int) -> list[dict[str, Any]]:
    """One row per slice (sorted by value): size, ECE, MCE, Brier score and log loss of the slice's items."""
    from clfeval.core import label_str
    from clfeval.scores._calibration import reliability_rows

    keys = list(sums.slices)
    for j, c in enumerate(sums.columns):
        if keys and all(k[j] == MISSING for k in keys):
            raise DataError(lambda o, _c=c: f"column {_c!r} (option {o}) is null in every row: there is nothing to "
                                            f"slice by.", params=["by"])
    rows = []
    for i in slice_order(keys, sums.columns, sums.binning):
        k, one = keys[i], sums.slices[keys[i]]
        n = one.n
        shown = label_str(k[0]) if len(k) == 1 else ", ".join(f"{c}={label_str(v)}" for c, v in zip(sums.columns, k,
                                                                                                     strict=False))
        row: dict[str, Any] = {"slice": shown,
                               "key": {c: label_str(v) for c, v in zip(sums.columns, k, strict=False)},
                               "n": n, "small": bool(n < min_slice)}
        if n:
            count, hits, conf, (lower, upper) = _bins_of(one, bins, strategy, edges)
            _, ece, mce = reliability_rows(count, hits, conf, lower, upper)
            row.update(ece=ece, mce=mce, brier=float(one.sq.fraction() / n),
                       log_loss=float(-one.loss.fraction() / Fraction(n)))
        rows.append(row)
    return rows
