"""Count tables of many classes, held sparsely: the non-empty cells only.

A dense K×K table of 100,000 classes would hold 10^10 cells; the items of a
test set fill at most one cell each. Above :data:`clfeval.core._labels.MAX_DENSE`
classes (:data:`~clfeval.core._labels.MAX_DENSE_JOINT` for the K×K×K joint
table) a table keeps its non-empty cells, sorted in row-major order, and
everything a report needs comes from them: the diagonal and the margins give
every per-class count (and so MCC and kappa), the cells themselves the largest
confusions and the ordinal measures.

* :class:`SparseConfusionTable` — (gold, predicted, count) cells.
* :class:`SparseJointTable` — (gold, A, B, count) cells.

Both add (to each other and to their dense forms), align label sets that
differ, and compare equal to the dense table of the same counts;
:func:`confusion_from_cells` and :func:`joint_from_cells` choose the form by
the number of classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core._labels import MAX_DENSE, MAX_DENSE_JOINT, check_class_count, label_str, resolve_label
from clfeval.core._tables import BinaryCounts, ConfusionTable, JointTable, check_labels, resolve_against, union_labels
from clfeval.errors import DataError

__all__ = ["SparseConfusionTable", "SparseJointTable", "confusion_from_cells", "joint_from_cells", "cells_of",
           "compact"]


def compact(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal keys summed, zero counts dropped, keys ascending.

    >>> [a.tolist() for a in compact(np.array([5, 2, 5]), np.array([1, 2, 3]))]
    [[2, 5], [2, 4]]
    """
    keys = np.asarray(keys, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    if keys.size == 0:
        return keys, counts
    order = np.argsort(keys, kind="stable")
    keys, counts = keys[order], counts[order]
    start = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    keys, counts = keys[start], np.add.reduceat(counts, start)
    keep = counts != 0
    return keys[keep], counts[keep]


def cells_of(counts: np.ndarray) -> tuple[np.ndarray, ...]:
    """The non-empty cells of a dense table (K×K or K×K×K): the index arrays and the counts, row-major."""
    idx = np.nonzero(np.asarray(counts))
    return tuple(i.astype(np.int64) for i in idx) + (np.asarray(counts)[idx].astype(np.int64),)


def _joint_of(table: JointTable) -> SparseJointTable:
    """A dense joint table's cells as a :class:`SparseJointTable` (integer counts)."""
    g, a, b, v = cells_of(table.counts)
    return SparseJointTable(g, a, b, v, table.labels)


def _positions(labels: tuple[Any, ...], target: tuple[Any, ...]) -> np.ndarray:
    if labels == target:
        return np.arange(len(labels), dtype=np.int64)
    pos = {x: i for i, x in enumerate(target)}
    return np.array([pos[x] for x in labels], dtype=np.int64)


class _Labelled:
    """What every table does with its labels."""

    labels: tuple[Any, ...]

    @property
    def k(self) -> int:
        """Number of classes."""
        return len(self.labels)

    @property
    def label_strings(self) -> list[str]:
        return [label_str(x) for x in self.labels]

    def index(self, label: Any, *, option: str = "label") -> int:
        """Position of a label (matched by value or by string form)."""
        return resolve_label(label, self.labels, option=option, source="the table")


@dataclass(frozen=True, eq=False)
class SparseConfusionTable(_Labelled):
    """A K×K confusion table held as its non-empty cells: rows = gold, columns = predicted.

    Parameters
    ----------
    rows, cols : ndarray of int, shape (M,)
        Gold and predicted class index of each non-empty cell.
    values : ndarray of int, shape (M,)
        The cell counts (> 0); cells are unique and kept in row-major order.
    labels : tuple
        The class labels, in row/column order.

    Examples
    --------
    >>> t = SparseConfusionTable(np.array([0, 1]), np.array([0, 0]), np.array([2, 1]), ("a", "b"))
    >>> t.n, t.to_dense().counts.tolist()
    (3, [[2, 0], [1, 0]])
    >>> t == t.to_dense()
    True
    """

    rows: np.ndarray
    cols: np.ndarray
    values: np.ndarray
    labels: tuple[Any, ...]

    def __post_init__(self) -> None:
        k = len(self.labels)
        check_class_count(k)
        r, c, v = (np.asarray(x, dtype=np.int64).reshape(-1) for x in (self.rows, self.cols, self.values))
        if not (r.size == c.size == v.size):
            raise DataError(f"a sparse table needs one row, column and count per cell; got {r.size}, {c.size} and "
                            f"{v.size}.")
        if r.size and (min(r.min(), c.min()) < 0 or max(r.max(), c.max()) >= k):
            raise DataError(f"a sparse table's cells must index its {k} labels.")
        keys, v = compact(r * max(k, 1) + c, v)
        check_labels(self.labels, "confusion table")
        object.__setattr__(self, "rows", keys // max(k, 1))
        object.__setattr__(self, "cols", keys % max(k, 1))
        object.__setattr__(self, "values", v)
        object.__setattr__(self, "labels", tuple(self.labels))

    @property
    def n(self) -> int:
        """Number of items."""
        return int(self.values.sum(dtype=np.int64))

    @property
    def n_cells(self) -> int:
        """Number of non-empty cells."""
        return int(self.values.size)

    def cells(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(gold index, predicted index, count) of every non-empty cell, row-major."""
        return self.rows, self.cols, self.values

    def margins(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(diagonal, gold totals, predicted totals), each of shape (K,)."""
        k = self.k
        diag = np.zeros(k, dtype=np.int64)
        on = self.rows == self.cols
        np.add.at(diag, self.rows[on], self.values[on])
        gold = np.zeros(k, dtype=np.int64)
        pred = np.zeros(k, dtype=np.int64)
        np.add.at(gold, self.rows, self.values)
        np.add.at(pred, self.cols, self.values)
        return diag, gold, pred

    def binary(self, positive: Any) -> BinaryCounts:
        """TP, FP, FN, TN of one class against all others."""
        i = self.index(positive, option="positive")
        diag, gold, pred = self.margins()
        tp = int(diag[i])
        fp, fn = int(pred[i]) - tp, int(gold[i]) - tp
        return BinaryCounts(tp, fp, fn, self.n - tp - fp - fn)

    def to_dense(self) -> ConfusionTable:
        """The same counts as a dense :class:`~clfeval.core._tables.ConfusionTable` (for tables that fit)."""
        check_class_count(self.k, limit=MAX_DENSE, table="dense K×K confusion table")
        out = np.zeros((self.k, self.k), dtype=np.int64)
        out[self.rows, self.cols] = self.values
        return ConfusionTable(out, self.labels)

    def _moved(self, target: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
        pos = _positions(self.labels, target)
        return pos[self.rows], pos[self.cols]

    def relabel(self, labels: Sequence[Any]) -> SparseConfusionTable:
        """The same counts in another label order (labels may be added, never dropped if they have counts)."""
        target = resolve_against(labels, self.labels)
        have = set(target)
        used = set(self.rows.tolist()) | set(self.cols.tolist())
        missing = [x for i, x in enumerate(self.labels) if x not in have and i in used]
        if missing:
            raise DataError(f"relabel would drop labels that have counts: {', '.join(map(label_str, missing))}.")
        keep = [i for i, x in enumerate(self.labels) if x in have]
        pos = {x: i for i, x in enumerate(target)}
        lookup = np.full(max(self.k, 1), -1, dtype=np.int64)
        lookup[keep] = [pos[self.labels[i]] for i in keep]
        return SparseConfusionTable(lookup[self.rows], lookup[self.cols], self.values, target)

    def __add__(self, other: Any) -> ConfusionTable | SparseConfusionTable:
        if isinstance(other, ConfusionTable):
            other = sparse_of(other)
        if not isinstance(other, SparseConfusionTable):
            return NotImplemented
        target = union_labels(self.labels, other.labels)
        ra, ca = self._moved(target)
        rb, cb = other._moved(target)
        return confusion_from_cells(np.concatenate([ra, rb]), np.concatenate([ca, cb]),
                                    np.concatenate([self.values, other.values]), target)

    def __radd__(self, other: Any) -> ConfusionTable | SparseConfusionTable:
        if isinstance(other, int) and other == 0:
            return self
        if isinstance(other, ConfusionTable):
            return sparse_of(other) + self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ConfusionTable):
            other = sparse_of(other)
        if not isinstance(other, SparseConfusionTable):
            return NotImplemented
        return (self.labels == other.labels and np.array_equal(self.rows, other.rows)
                and np.array_equal(self.cols, other.cols) and np.array_equal(self.values, other.values))

    __hash__ = None  # type: ignore[assignment]


def sparse_of(table: ConfusionTable) -> SparseConfusionTable:
    """A dense table's cells as a :class:`SparseConfusionTable` (integer counts)."""
    r, c, v = cells_of(table.counts)
    return SparseConfusionTable(r, c, v, table.labels)


def confusion_from_cells(rows: np.ndarray, cols: np.ndarray, values: np.ndarray,
                         labels: Sequence[Any]) -> ConfusionTable | SparseConfusionTable:
    """A confusion table from cells (duplicates summed): dense up to :data:`MAX_DENSE` classes, sparse above.

    >>> confusion_from_cells(np.array([0, 0]), np.array([1, 1]), np.array([2, 3]), ("a", "b")).counts.tolist()
    [[0, 5], [0, 0]]
    """
    labels = tuple(labels)
    k = len(labels)
    if k > MAX_DENSE:
        return SparseConfusionTable(rows, cols, values, labels)
    out = np.zeros(k * k, dtype=np.int64)
    np.add.at(out, np.asarray(rows, dtype=np.int64) * k + np.asarray(cols, dtype=np.int64),
              np.asarray(values, dtype=np.int64))
    return ConfusionTable(out.reshape(k, k), labels)


@dataclass(frozen=True, eq=False)
class SparseJointTable(_Labelled):
    """The joint (gold, A, B) table held as its non-empty cells (see :class:`~clfeval.core._tables.JointTable`).

    >>> j = SparseJointTable(np.array([0]), np.array([0]), np.array([1]), np.array([4]), ("x", "y"))
    >>> j.table_a.counts.tolist(), j.discordant()
    ([[4, 0], [0, 0]], (4, 0))
    """

    gold: np.ndarray
    a: np.ndarray
    b: np.ndarray
    values: np.ndarray
    labels: tuple[Any, ...]

    def __post_init__(self) -> None:
        k = len(self.labels)
        check_class_count(k, table="joint (gold, A, B) table")
        g, a, b, v = (np.asarray(x, dtype=np.int64).reshape(-1) for x in (self.gold, self.a, self.b, self.values))
        if not (g.size == a.size == b.size == v.size):
            raise DataError("a sparse joint table needs one gold, A, B index and count per cell.")
        kk = max(k, 1)
        keys, v = compact((g * kk + a) * kk + b, v)
        check_labels(self.labels, "joint table")
        object.__setattr__(self, "gold", keys // (kk * kk))
        object.__setattr__(self, "a", (keys // kk) % kk)
        object.__setattr__(self, "b", keys % kk)
        object.__setattr__(self, "values", v)
        object.__setattr__(self, "labels", tuple(self.labels))

    @property
    def n(self) -> int:
        return int(self.values.sum(dtype=np.int64))

    def cells(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(gold, A, B, count) of every non-empty cell, in row-major order."""
        return self.gold, self.a, self.b, self.values

    @property
    def table_a(self) -> ConfusionTable | SparseConfusionTable:
        return confusion_from_cells(self.gold, self.a, self.values, self.labels)

    @property
    def table_b(self) -> ConfusionTable | SparseConfusionTable:
        return confusion_from_cells(self.gold, self.b, self.values, self.labels)

    def discordant(self) -> tuple[int, int]:
        """(n_AB, n_BA): items A got right and B wrong, and the reverse."""
        ra, rb = self.gold == self.a, self.gold == self.b
        return int(self.values[ra & ~rb].sum()), int(self.values[~ra & rb].sum())

    def __add__(self, other: Any) -> JointTable | SparseJointTable:
        if isinstance(other, JointTable):
            other = _joint_of(other)
        if not isinstance(other, SparseJointTable):
            return NotImplemented
        target = union_labels(self.labels, other.labels)
        pa, pb = _positions(self.labels, target), _positions(other.labels, target)
        g, a, b = (np.concatenate([pa[x], pb[y]]) for x, y in
                   ((self.gold, other.gold), (self.a, other.a), (self.b, other.b)))
        return joint_from_cells(g, a, b, np.concatenate([self.values, other.values]), target)

    def __radd__(self, other: Any) -> JointTable | SparseJointTable:
        if isinstance(other, int) and other == 0:
            return self
        if isinstance(other, JointTable):
            return _joint_of(other) + self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if isinstance(other, JointTable):
            other = _joint_of(other)
        if not isinstance(other, SparseJointTable):
            return NotImplemented
        return self.labels == other.labels and all(np.array_equal(x, y) for x,
                                                   y in zip(self.cells(), other.cells(), strict=False))

    __hash__ = None  # type: ignore[assignment]


def joint_from_cells(gold: np.ndarray, a: np.ndarray, b: np.ndarray, values: np.ndarray,
                     labels: Sequence[Any]) -> JointTable | SparseJointTable:
    """A joint table from cells (duplicates summed): dense up to :data:`MAX_DENSE_JOINT` classes, sparse above."""
    labels = tuple(labels)
    k = len(labels)
    if k > MAX_DENSE_JOINT:
        return SparseJointTable(gold, a, b, values, labels)
    out = np.zeros(k ** 3, dtype=np.int64)
    key = (np.asarray(gold, dtype=np.int64) * k + np.asarray(a, dtype=np.int64)) * k + np.asarray(b, dtype=np.int64)
    np.add.at(out, key, np.asarray(values, dtype=np.int64))
    return JointTable(out.reshape(k, k, k), labels)
