"""Slices as one accumulator: ``by=`` (report, threshold, calibration) and the slice search, on every engine.

:class:`SlicedCounts` wraps the per-slice counting of :mod:`clfeval.slicing._slicecounting` in the accumulator
form every operation has (:meth:`~SlicedCounts.update` with a batch, ``a + b``, :meth:`~SlicedCounts.finish`):
the overall confusion table and one table per slice of every ``by`` column set, and when asked the slice search's
counts (``find``: :class:`~clfeval.core._latticecount.LatticeCounter`), the gathered scores of the per-slice
rankings (``score``: :class:`~clfeval.slicing._slicecounting.RankedSlices`), the predictions of a score cut
(``cut``: ``threshold --by``), or, with no predictions at all, the per-slice calibration sums (``calibrate``:
:class:`~clfeval.slicing._slicecalibration.SliceCalibrator`). The slice columns (and the score or probability
column) come from ``batch.extra``, so the engine's runner reads them as any extra column
(:meth:`clfeval.engines.Runner.accumulate`): one accumulator over the local stream, one per group of Dask
partitions added in a tree — tables add, so either way the tables are those of every item.

:class:`OutsideCounts` is the slice search's second look (the slices outside overlapping sub-slices,
:class:`~clfeval.core._outsidecount.OutsideCounter`) in the same form.

The bins of numeric slice columns (``by_bins``) are computed before the pass
(:func:`~clfeval.slicing._slicecounting.slice_binning`) and handed to the accumulator.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np

from clfeval.core import MAX_SLICES, Counter, SliceCounter, SliceTables, embed
from clfeval.errors import DataError, LabelListError, UsageError

__all__ = ["SlicedCounts", "Sliced", "OutsideCounts", "too_many_slices"]


def too_many_slices(columns: Sequence[str], max_slices: int) -> UsageError:
    """The refusal of more slices than ``max_slices`` (the message the slice counter gives as it counts)."""
    return UsageError(lambda o, b: (
        f"the values of {', '.join(columns)} (option {b}) make more than {max_slices:,} slices (option {o}); slice "
        f"by fewer columns, bin a numeric column (--by-bins N), or raise {o}."), params=["max_slices", "by"])


@dataclass
class Sliced:
    """What :meth:`SlicedCounts.finish` gives: the overall ``table``, the slice ``tables`` of the ``by`` sets, the
    slice search's counts (``found``, one :class:`~clfeval.core._latticecount.SliceProportions` per searched set),
    the per-slice rankings' scores (``ranks``, or None) and the per-slice calibration sums (``calibration``, a
    :class:`~clfeval.slicing._slicecalibration.SliceSums`, or None; then there is no table)."""

    table: Any
    tables: list[SliceTables]
    found: list[Any]
    ranks: Any = None
    calibration: Any = None


class SlicedCounts:
    """The counting state of a sliced operation, an accumulator (see the module docstring).

    Parameters
    ----------
    sets : sequence of column tuples
        The ``by`` column sets: one slice table per set.
    max_slices : int
        Slices of one set counted at most; more are refused (:func:`too_many_slices`).
    binning : mapping column → SliceBinning
        The bins of numeric slice columns.
    order : sequence of labels, optional
        The table's labels in this order (ordinal classes).
    find : dict, optional
        The slice search (``sets``, ``metric``, ``max_search``): its counts in the same pass.
    score, positive, budget :
        The score column of the per-slice rankings, the positive class, and the bytes the gathered scores may hold.
    cut : (threshold, positive label, score column), optional
        The predictions are the cut of the score column (``threshold --by``); the batch has no predictions.
    calibrate : dict, optional
        Per-slice calibration sums instead of tables (``prob``, ``positive``, ``bins``, ``strategy``, ``edges``),
        of the first set; the batch has no predictions.

    Each batch needs ``gold``, ``pred`` (not with ``cut`` or ``calibrate``), ``text``, ``n`` and the slice
    columns (and the score or probability column) in ``extra``; a batch with a ``part`` names its file and rows
    in its errors. Adding two (or pickling one) folds each one's live counters into tables first: they still hold
    what they counted, and count on into fresh counters. One stream never merged is finished from its own
    counter (labels ordered as the in-memory report orders them); merged parts from their added tables.
    """

    def __init__(self, sets: Sequence[tuple[str, ...]], *, max_slices: int = MAX_SLICES,
                 binning: Mapping[str, Any] | None = None, order: Sequence[Any] | None = None,
                 find: Mapping[str, Any] | None = None, score: str | None = None, positive: Any = None,
                 budget: int | None = None, cut: tuple[float, str, str] | None = None,
                 calibrate: Mapping[str, Any] | None = None) -> None:
        self.sets = [tuple(s) for s in sets]
        self.max_slices, self.binning = int(max_slices), dict(binning or {})
        self.order = None if order is None else list(order)
        self.find = dict(find) if find else None
        self.score, self.positive, self.budget, self.cut = score, positive, budget, cut
        self.calibrate = dict(calibrate) if calibrate else None
        self.merged: Sliced | None = None  # what was folded in: merged accumulators, or this one's own counts
        self.counter: Any = None
        self.calibrator: Any = None
        self._fresh()

    # --- counting -----------------------------------------------------------------------------------------------
    def _fresh(self) -> None:
        from clfeval.slicing._slicecounting import RankedSlices

        self.items = 0
        if self.calibrate is not None:
            from clfeval.slicing._slicecalibration import SliceCalibrator

            c = self.calibrate
            self.calibrator = SliceCalibrator(self.sets[0], positive=c["positive"], bins=c["bins"],
                                              strategy=c["strategy"], edges=c["edges"], max_slices=self.max_slices,
                                              binning=self.binning, prob=c["prob"])
            return
        self.counter = Counter(2)
        self.slicer = SliceCounter(self.sets, max_slices=self.max_slices, binning=self.binning)
        self.lattice = None
        if self.find:
            from clfeval.core import LatticeCounter

            self.lattice = LatticeCounter(self.find["sets"], self.find["metric"], binning=self.binning,
                                          max_slices=self.find["max_search"])
        self.ranks = RankedSlices(self.score, self.positive, self.budget) if self.score else None

    def update(self, batch: Any) -> None:
        """Count one batch."""
        from clfeval.slicing._slicecounting import at_cut, count_batch

        if (self.counter if self.calibrate is None else self.calibrator) is None:
            self._fresh()  # folded before (merged or pickled): count on into fresh counters
        self.items += int(batch.n)
        if self.calibrate is not None:
            prob = self.calibrate["prob"]
            self.calibrator.update(batch.gold, batch.extra[prob], batch.extra, where=getattr(batch, "where", None))
            return
        if self.cut is not None:
            cut, positive, column = self.cut
            gold, pred = at_cut(batch.gold, batch.extra[column], cut, positive, column)
            batch = SimpleNamespace(gold=gold, pred=pred, text=False, extra=batch.extra, n=batch.n,
                                    part=getattr(batch, "part", None))
        count_batch(self.counter, self.slicer, batch, lattice=self.lattice, ranks=self.ranks)

    # --- merging ------------------------------------------------------------------------------------------------
    def _own(self) -> Sliced | None:
        """This accumulator's own counts since it was last folded, as tables (None when it counted nothing)."""
        from clfeval.slicing._slicecounting import settle

        if self.calibrate is not None:
            cal, self.calibrator = self.calibrator, None
            return Sliced(None, [], [], calibration=cal.sums()) if cal is not None and self.items else None
        counter, self.counter = self.counter, None
        if counter is None or counter.n == 0:
            return None
        table, tables = settle(counter, self.slicer, ranks=self.ranks, check=False)
        found = self.lattice.result() if self.lattice is not None else []
        return Sliced(table, tables, found, self.ranks)

    def _fold(self) -> Sliced | None:
        """Everything counted, as tables: the merged counts and this one's own added."""
        own = self._own()
        self.merged = _add(self.merged, own)
        self.items = 0
        return self.merged

    def __add__(self, other: SlicedCounts) -> SlicedCounts:
        if not isinstance(other, SlicedCounts):
            return NotImplemented
        out = SlicedCounts.__new__(SlicedCounts)
        out.__dict__.update({k: v for k, v in self.__dict__.items()
                             if k not in ("counter", "slicer", "lattice", "ranks", "calibrator", "merged")})
        out.counter, out.calibrator, out.items = None, None, 0
        out.merged = _add(self._fold(), other._fold())
        return out

    def __getstate__(self) -> dict[str, Any]:
        """An accumulator travels as its tables (to another process, or a cluster's worker)."""
        self._fold()
        return {k: v for k, v in self.__dict__.items() if k not in ("counter", "slicer", "lattice", "ranks",
                                                                     "calibrator")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.counter, self.calibrator = None, None

    # --- the end ------------------------------------------------------------------------------------------------
    def finish(self) -> Sliced:
        """Everything counted: the overall table in ``order``, the slice tables (checked to add up to it, no
        column null in every row, at most ``max_slices`` slices a set), the search's counts, the rankings' scores;
        or the per-slice calibration sums."""
        from clfeval.slicing._slicecounting import settle

        if self.merged is None and self.calibrate is None and self.counter is not None and self.counter.n:
            # one stream: the counter orders its own labels, as the in-memory report does
            counter = self.counter
            table, tables = settle(counter, self.slicer, order=self.order, ranks=self.ranks)
            found = self.lattice.result() if self.lattice is not None else []
            self.merged, self.counter = Sliced(table, tables, found, self.ranks), None
            return self.merged
        got = self._fold()
        if got is None:
            raise DataError("there are no items to report on.")
        if self.calibrate is not None:
            if len(got.calibration.slices) > self.max_slices:
                raise too_many_slices(self.sets[0], self.max_slices)
            return got
        table, tables = got.table, got.tables
        for t in tables:
            if len(t.keys) > self.max_slices:
                raise too_many_slices(t.columns, self.max_slices)
        if self.order is not None:
            table = _relabel(table, self.order)
            tables = [SliceTables(t.columns, t.keys, table.labels,
                                  np.stack([embed(c, t.labels, table.labels, 2) for c in t.counts])
                                  if len(t.keys) else np.zeros((0, table.k, table.k), dtype=np.int64), t.binning)
                      for t in tables]
        for t in tables:
            t.check_adds_up(table)
            t.check_values()
        return Sliced(table, tables, got.found, got.ranks)


def _relabel(table: Any, order: Sequence[Any]) -> Any:
    try:
        return table.relabel(list(order))
    except LabelListError as exc:
        raise LabelListError(exc.missing, parameter="order") from None


def _add(a: Sliced | None, b: Sliced | None) -> Sliced | None:
    if a is None or b is None:
        return a if b is None else b
    if a.calibration is not None:
        return Sliced(None, [], [], calibration=a.calibration + b.calibration)
    tables = [x + y for x, y in zip(a.tables, b.tables, strict=True)]
    found = [x + y for x, y in zip(a.found, b.found, strict=True)]
    ranks = a.ranks.merge(b.ranks, tables[0].keys) if a.ranks is not None else None
    return Sliced(a.table + b.table, tables, found, ranks)


class OutsideCounts:
    """The slice search's counts of slices outside overlapping sub-slices
    (:class:`~clfeval.core._outsidecount.OutsideCounter`), an accumulator: ``update(batch)`` (``gold``, ``pred``,
    ``text`` and the columns in ``extra``), ``a + b``, :meth:`finish` → (queries × 3) items, trials, successes."""

    def __init__(self, queries: Sequence[Any], metric: str, binning: Mapping[str, Any] | None = None) -> None:
        from clfeval.core import OutsideCounter

        self.outside = OutsideCounter(queries, metric, binning=binning)
        self.counter: Counter | None = None

    def update(self, batch: Any) -> None:
        if self.counter is None:
            self.counter = Counter(2)
        counter = self.counter
        g, p = counter.update([batch.gold, batch.pred], text=bool(getattr(batch, "text", False)), codes=True)
        self.outside.update({c: batch.extra[c] for c in self.outside.columns}, g, p, counter.vocab.values)

    def __add__(self, other: OutsideCounts) -> OutsideCounts:
        if not isinstance(other, OutsideCounts):
            return NotImplemented
        out = OutsideCounts.__new__(OutsideCounts)
        out.outside, out.counter = self.outside + other.outside, None
        return out

    def __getstate__(self) -> dict[str, Any]:
        return {"outside": self.outside, "counter": None}

    def finish(self) -> np.ndarray:
        out: np.ndarray = self.outside.result()
        return out
