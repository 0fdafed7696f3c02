"""The joint (gold, A, B) table of every slice, counted batch by batch: what ``compare --by`` tests.

:class:`SliceJointCounter` counts (slice, gold, A, B) cells of matched batches (the slice code of each item given
by the caller, the labels encoded in one :class:`~clfeval.core._counting.Vocabulary`, weighted rows added as their
counts), holding only the distinct cells. :class:`SlicedCells` is the result: the cells with the slices' value
tuples and the labels; two of them add (partitions counted apart on Dask), and :meth:`SlicedCells.tables` gives
the overall joint table and one joint table per slice over the overall labels, the slices in their sorted order,
exactly as :func:`clfeval.core._tables.joint_table` counts them from the items in memory.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from clfeval.core import MISSING, Counter, Vocabulary, encode_batch, joint_from_cells
from clfeval.errors import DataError
from clfeval.slicing._wrapper import BySlice

__all__ = ["SliceJointCounter", "SlicedCells", "JointCells", "SlicedJointCounts"]

#: Rows of cells waiting to be merged before they are compacted.
_PENDING = 1 << 20


def _compact(cols: np.ndarray, counts: np.ndarray, radix: int, n_slices: int) -> tuple[np.ndarray, np.ndarray]:
    """Equal (slice, gold, A, B) rows summed (``cols``: n × 4 codes, labels below ``radix``)."""
    if counts.size == 0:
        return cols, counts
    r = max(int(radix), 1)
    if max(n_slices, 1) * r ** 3 >= 1 << 62:  # too wide for one integer key: rows compared as rows
        uniq, inverse = np.unique(cols, axis=0, return_inverse=True)
        summed = np.zeros(uniq.shape[0], dtype=np.int64)
        np.add.at(summed, inverse.reshape(-1), counts)
        return uniq, summed
    key = ((cols[:, 0] * r + cols[:, 1]) * r + cols[:, 2]) * r + cols[:, 3]
    order = np.argsort(key, kind="stable")
    key, counts = key[order], counts[order]
    start = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
    key, summed = key[start], np.add.reduceat(counts, start)
    out = np.empty((key.size, 4), dtype=np.int64)
    for j in (3, 2, 1):
        key, out[:, j] = np.divmod(key, r)
    out[:, 0] = key
    return out, summed


class SliceJointCounter:
    """(slice, gold, A, B) counts of matched batches over one growing label vocabulary.

    >>> c = SliceJointCounter()
    >>> c.update(["y", "n", "y"], ["y", "y", "n"], ["y", "n", "y"], np.array([0, 1, 1]))
    >>> t = c.cells(("src",), [("x",), ("z",)]); overall, per = t.tables(); overall.n, [x.n for x in per]
    (3, [1, 2])
    """

    def __init__(self) -> None:
        self.vocab = Vocabulary()
        self.cols = np.empty((0, 4), dtype=np.int64)
        self.counts = np.empty(0, dtype=np.int64)
        self.pending: list[tuple[np.ndarray, np.ndarray]] = []
        self.n_slices = 0
        self.n = 0

    def update(self, gold: Any, a: Any, b: Any, slices: np.ndarray, *, text: bool = False,
               weights: Any = None) -> None:
        """Count one batch: gold, A's and B's labels and the slice code of every row (``weights``: how many items
        each row stands for)."""
        if text and not self.vocab.text:
            self._recode(self.vocab.as_text())
        g, x, y = encode_batch(self.vocab, [gold, a, b], ["gold", "system A", "system B"])
        s = np.asarray(slices, dtype=np.int64)
        if s.size != g.size:
            raise DataError(f"{s.size:,} slice codes for {g.size:,} items.")
        w = np.ones(g.size, dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
        if s.size:
            self.n_slices = max(self.n_slices, int(s.max()) + 1)
        self.n += int(w.sum())
        r = max(len(self.vocab), 1)
        size = max(self.n_slices, 1) * r ** 3
        if weights is None and size <= 4 * s.size + 1024:  # few cells: one bincount, no sort
            cnt = np.bincount(((s * r + g) * r + x) * r + y, minlength=size)
            key = np.flatnonzero(cnt)
            cols = np.empty((key.size, 4), dtype=np.int64)
            rest = key
            for j in (3, 2, 1):
                rest, cols[:, j] = np.divmod(rest, r)
            cols[:, 0] = rest
            self.pending.append((cols, cnt[key].astype(np.int64)))
        else:
            self.pending.append(_compact(np.stack([s, g, x, y], axis=1), w, r, self.n_slices))
        if sum(c.size for _, c in self.pending) > _PENDING:
            self._merge()

    def _merge(self) -> None:
        if not self.pending:
            return
        cols = np.concatenate([self.cols, *(c for c, _ in self.pending)])
        counts = np.concatenate([self.counts, *(n for _, n in self.pending)])
        self.pending = []
        self.cols, self.counts = _compact(cols, counts, len(self.vocab), self.n_slices)

    def _recode(self, mapping: np.ndarray) -> None:
        """The vocabulary became text: every cell's labels moved to their new codes."""
        self._merge()
        if self.counts.size:
            cols = self.cols.copy()
            cols[:, 1:] = mapping[cols[:, 1:]]
            self.cols, self.counts = _compact(cols, self.counts, len(self.vocab), self.n_slices)

    def cells(self, columns: Sequence[str], keys: Sequence[tuple[Any, ...]],
              binning: Mapping[str, Any] | None = None) -> SlicedCells:
        """The cells counted, with ``keys[i]`` the value tuple of slice code i."""
        self._merge()
        return SlicedCells(tuple(columns), [tuple(k) for k in keys], list(self.vocab.values), self.vocab.text,
                           self.cols, self.counts, dict(binning or {}))


@dataclass(frozen=True)
class SlicedCells:
    """(slice, gold, A, B) cells: ``cols[i]`` = (slice index into ``keys``, label codes into ``labels``)."""

    columns: tuple[str, ...]
    keys: list[tuple[Any, ...]]
    labels: list[Any]
    text: bool
    cols: np.ndarray
    counts: np.ndarray
    binning: dict[str, Any] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def __add__(self, other: SlicedCells) -> SlicedCells:
        if not isinstance(other, SlicedCells):
            return NotImplemented
        vocab = Vocabulary()
        if self.text or other.text:
            vocab.as_text()
        luts = [vocab.codes(t.labels) if t.labels else np.empty(0, dtype=np.int64) for t in (self, other)]
        keys = list(self.keys) + [k for k in other.keys if k not in set(self.keys)]
        pos = {k: i for i, k in enumerate(keys)}
        moved = []
        for t, lut in zip((self, other), luts, strict=True):
            c = t.cols.copy()
            if c.size:
                c[:, 0] = np.array([pos[k] for k in t.keys], dtype=np.int64)[c[:, 0]]
                c[:, 1:] = lut[c[:, 1:]]
            moved.append(c)
        cols, counts = _compact(np.concatenate(moved), np.concatenate([self.counts, other.counts]), len(vocab),
                                len(keys))
        return SlicedCells(self.columns, keys, list(vocab.values), vocab.text, cols, counts,
                           self.binning or other.binning)

    def check_values(self) -> None:
        """A ``by`` column null in every row is refused."""
        for j, c in enumerate(self.columns):
            if self.keys and all(k[j] == MISSING for k in self.keys):
                raise DataError(lambda o, _c=c: f"column {_c!r} (option {o}) is null in every row: there is nothing "
                                                f"to slice by.", params=["by"])

    def tables(self, labels: Sequence[Any] | None = None) -> tuple[Any, list[Any]]:
        """(the overall joint table, the joint table of every slice in :meth:`sorted_keys` order), all over the
        overall labels (the occurring ones in their natural order, or ``labels``)."""
        vocab = Vocabulary()
        if self.text:
            vocab.as_text()
        if self.labels:
            vocab.codes(self.labels)
        out, where = Counter(3, vocab=vocab).order(labels)
        if not self.counts.size:
            raise DataError("there are no items to compare.")
        g, a, b = (where[self.cols[:, j]] for j in (1, 2, 3))
        overall = joint_from_cells(g, a, b, self.counts, out)
        per = []
        for i in self.order():
            m = self.cols[:, 0] == i
            per.append(joint_from_cells(g[m], a[m], b[m], self.counts[m], out))
        return overall, per

    def order(self) -> list[int]:
        """The slice indices in the sorted order of their value tuples (as the report's slice tables)."""
        from clfeval.slicing._slicecompare import sorted_slices

        return sorted_slices(self.keys, self.columns, self.binning)

    def sorted_keys(self) -> list[tuple[Any, ...]]:
        return [self.keys[i] for i in self.order()]


class JointCells:
    """compare's joint accumulator in its vectorised sliced form (what :class:`~clfeval.slicing._wrapper.BySlice`
    hands every batch with its slice codes): ``update_sliced(batch, codes)`` counts the (slice, gold, A, B) cells
    of a matched batch (``gold``, ``preds`` (A, B), ``text``, ``counts``); ``keyed(keys)`` names the slices by
    their value tuples (:class:`SlicedCells`), so that two add by value; :meth:`cells` is everything counted."""

    def __init__(self, columns: Sequence[str], binning: Mapping[str, Any] | None = None) -> None:
        self.columns, self.binning = tuple(columns), dict(binning or {})
        self.counter = SliceJointCounter()
        self.added: SlicedCells | None = None

    def update_sliced(self, batch: Any, codes: np.ndarray) -> None:
        self.counter.update(batch.gold, batch.preds[0], batch.preds[1], codes, text=batch.text,
                            weights=getattr(batch, "counts", None))

    def keyed(self, keys: Sequence[tuple[Any, ...]]) -> JointCells:
        out = JointCells(self.columns, self.binning)
        own = self.counter.cells(self.columns, keys, self.binning)
        out.added = own if self.added is None else self.added if not own.counts.size else self.added + own
        return out

    def cells(self) -> SlicedCells:
        """Every cell added (of a keyed accumulator)."""
        if self.added is None:
            return self.counter.cells(self.columns, [], self.binning)
        return self.added

    def __add__(self, other: JointCells) -> JointCells:
        out = JointCells(self.columns, self.binning)
        a, b = self.cells(), other.cells()
        out.added = a if not b.counts.size else b if not a.counts.size else a + b
        return out


class SlicedJointCounts(BySlice):
    """``compare --by``'s accumulator: the wrapper of every sliced operation
    (:class:`~clfeval.slicing._wrapper.BySlice`) over compare's joint accumulator (:class:`JointCells`, vectorised).
    ``tag(extra)`` gives the slice code of each row of the first input from its ``by`` columns (the engine carries
    it through the join to ``batch.tags``), ``update(batch)`` counts the cells, ``+`` adds two accumulators' cells
    (slices matched by their value tuples, labels by value), :meth:`compared` tests A vs B within every slice. It
    holds counts only.

    Parameters
    ----------
    columns : sequence of str
        The ``by`` columns (one set).
    max_slices : int
        More slices are refused, as soon as one more appears (and once more after adding).
    binning : mapping column → binning
        Numeric columns cut into bins.
    """

    def __init__(self, columns: Sequence[str], *, max_slices: int, binning: Mapping[str, Any] | None = None) -> None:
        super().__init__(partial(JointCells, tuple(columns), dict(binning or {})), columns, max_slices=max_slices,
                         binning=binning)

    def cells(self) -> SlicedCells:
        """Every cell counted or added so far, the slices named by value."""
        whole = self._whole_keyed()
        return whole.cells() if whole is not None else JointCells(self.columns, self.binning).cells()

    def compared(self, *, names: Sequence[str], min_slice: int, labels: Sequence[Any] | None = None,
                 **settings: Any) -> Any:
        """A vs B within every slice (:func:`~clfeval.slicing._slicecompare.compare_tables`; ``settings``:
        ``metric``, ``test``, ``samples``, ``seed``, ``alpha``, ``ci``, ``zero_division``, ``beta``)."""
        from clfeval.slicing._slicecompare import compare_tables

        cells = self.cells()
        self._check_count(len(cells.keys))
        cells.check_values()
        overall, tables = cells.tables(labels)
        return compare_tables(overall, list(self.columns), cells.sorted_keys(), tables, names=names,
                              min_slice=min_slice, binning=self.binning, **settings)
