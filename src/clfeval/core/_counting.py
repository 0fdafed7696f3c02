"""Counting batch by batch: one vocabulary of labels, counts over its codes, any number of items.

A stream of record batches (files, parts of a directory, standard input)
comes in pieces whose label sets differ. :class:`Counter` keeps one
:class:`Vocabulary` — every label seen so far, each with a code, in order of
appearance — and adds each batch's counts over those codes:

* dense (an array over the codes, grown as labels appear) while the classes
  are few (:data:`~clfeval.core._labels.MAX_DENSE` for (gold, pred),
  :data:`~clfeval.core._labels.MAX_DENSE_JOINT` for (gold, A, B)),
* sparse above: each batch's distinct cells (one key per cell) with their
  counts, merged now and then into one sorted list.

At the end :meth:`Counter.table` puts the labels in their natural order (or
the order asked for) and returns the same table one pass over all items would
give (:func:`clfeval.core._tables.confusion_table`, :func:`~clfeval.core._tables.joint_table`),
dense or sparse by the number of classes. Memory is the table and one batch.

Labels are of one kind: text, numbers (``1`` and ``1.0`` are one label, as in
a typed column) or booleans. A batch of another kind is refused, unless the
caller says the labels are compared as text (``text=True``: numbers that had
to become exact text in JSON Lines, or files of different formats compared
with each other), which turns every label into its text form from then on.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import numpy as np

from clfeval.core._labels import (
    MAX_CLASSES,
    MAX_DENSE,
    MAX_DENSE_JOINT,
    check_class_count,
    encode_labels,
    label_str,
    resolve_requested,
    sort_labels,
)
from clfeval.core._sparse import compact, confusion_from_cells, joint_from_cells
from clfeval.errors import DataError

__all__ = ["Vocabulary", "Counter", "JointCounter", "JointTables", "encode_batch", "label_kind"]

_BITS = 20  # codes of a sparse key: up to 2^20 > MAX_CLASSES labels
_MERGE_AT = 1 << 22  # pending sparse cells merged once they pass this (or twice the merged ones)


def label_kind(value: Any) -> str:
    """``"boolean"``, ``"number"`` or ``"text"``: labels of one kind compare with each other.

    >>> label_kind(True), label_kind(1.5), label_kind("a")
    ('boolean', 'number', 'text')
    """
    if isinstance(value, (bool, np.bool_)):
        return "boolean"
    if isinstance(value, (int, float, Decimal, np.integer, np.floating)):
        return "number"
    return "text"


class Vocabulary:
    """Every label seen so far, each with a code (0, 1, 2, … in order of appearance).

    >>> v = Vocabulary()
    >>> v.codes(["b", "a"]).tolist(), v.codes(["a", "c"]).tolist(), v.values
    ([0, 1], [1, 2], ['b', 'a', 'c'])
    """

    def __init__(self) -> None:
        self.values: list[Any] = []
        self.index: dict[Any, int] = {}
        self.kind: str | None = None
        self.text = False

    def __len__(self) -> int:
        return len(self.values)

    def codes(self, raw: Sequence[Any]) -> np.ndarray:
        """The codes of a batch's distinct labels (new ones added); raises on a label of another kind."""
        if self.text:
            raw = [label_str(x) for x in raw]
        elif raw:
            kinds = {label_kind(x) for x in raw}
            if self.kind is not None:
                kinds.add(self.kind)
            if len(kinds) > 1:
                have = self.kind or next(iter(kinds - {label_kind(raw[0])}), "text")
                new = next(iter(kinds - {have}))
                raise DataError(f"labels of different kinds cannot be counted together: these rows hold {new} labels "
                                f"where earlier rows hold {have} labels ({label_str(raw[0])!r} beside "
                                f"{label_str(self.values[0]) if self.values else '?'!r}); convert them to one type "
                                f"(for example read every column as text) so that equal labels compare equal.")
            self.kind = next(iter(kinds))
        out = np.empty(len(raw), dtype=np.int64)
        index = self.index
        for i, x in enumerate(raw):
            code = index.get(x)
            if code is None:
                code = index[x] = len(self.values)
                self.values.append(x)
            out[i] = code
        check_class_count(len(self.values))
        return out

    def as_text(self) -> np.ndarray:
        """Every label from now on as its text (``label_str``); returns the old code → new code map."""
        old = self.values
        self.values, self.index, self.text, self.kind = [], {}, True, "text"
        return self.codes(old)


def _int_arrays(columns: Sequence[Any]) -> list[np.ndarray] | None:
    """The columns as numpy integer arrays when every one is a single-chunk Arrow integer array without
    nulls (uint64 excluded: its values may pass int64); else None."""
    import pyarrow as pa

    out = []
    for c in columns:
        if isinstance(c, pa.ChunkedArray):
            if c.num_chunks != 1:
                return None
            c = c.chunk(0)
        if not isinstance(c, pa.Array) or not pa.types.is_integer(c.type) or pa.types.is_uint64(c.type) \
                or c.null_count:
            return None
        out.append(c.to_numpy(zero_copy_only=True))
    return out


def encode_batch(vocab: Vocabulary, columns: Sequence[Any], names: Sequence[str]) -> list[np.ndarray]:
    """The codes of several label columns of one batch in ``vocab`` (new labels added), one encoding for all.

    Once the vocabulary compares labels as text, the columns may hold labels of different kinds (a CSV's
    text beside a Parquet file's integers): each is then encoded on its own and its labels matched by text.

    >>> v = Vocabulary(); _ = v.as_text()
    >>> [c.tolist() for c in encode_batch(v, [["1", "2"], [1, 1]], ["gold", "pred"])], v.values
    ([[0, 1], [0, 0]], ['1', '2'])
    """
    if vocab.text and len(columns) > 1:
        return [encode_batch(vocab, [c], [n])[0] for c, n in zip(columns, names, strict=True)]
    raw_codes, r, raw = encode_labels(list(columns), list(names))
    present = np.zeros(r, dtype=bool)
    for x in raw_codes:
        if x.size:
            present[np.unique(x) if x.size < r else np.flatnonzero(np.bincount(x, minlength=r))] = True
    used = np.flatnonzero(present)
    lut = np.full(max(r, 1), -1, dtype=np.int64)
    lut[used] = vocab.codes([raw[j] for j in used.tolist()])
    identity = bool(used.size == r and np.array_equal(lut[:r], np.arange(r)))
    return [x.astype(np.int64, copy=False) if identity else lut[x] for x in raw_codes]


class Counter:
    """Counts of label tuples — (gold, pred), or (gold, A, B) — over a growing vocabulary.

    Parameters
    ----------
    arity : {2, 3}
        Columns per item: a confusion table, or a joint (gold, A, B) table.
    names : sequence of str
        What the columns are called in messages.

    Examples
    --------
    >>> c = Counter()
    >>> _ = c.update([["a", "b"], ["a", "a"]]); _ = c.update([["c"], ["c"]])
    >>> t = c.table(); t.labels, t.counts.tolist()
    (('a', 'b', 'c'), [[1, 0, 0], [1, 0, 0], [0, 0, 1]])
    """

    def __init__(self, arity: int = 2, names: Sequence[str] | None = None, vocab: Vocabulary | None = None) -> None:
        if arity not in (2, 3):
            raise ValueError("arity must be 2 or 3")
        self.arity = arity
        self.names = tuple(names) if names is not None else \
            (("gold", "pred") if arity == 2 else ("gold", "pred_a", "pred_b"))
        self.vocab = vocab if vocab is not None else Vocabulary()
        self.limit = MAX_DENSE if arity == 2 else MAX_DENSE_JOINT
        self.cap = 0
        self.dense: np.ndarray | None = np.zeros((0,) * arity, dtype=np.int64)
        self.keys = np.empty(0, dtype=np.int64)
        self.counts = np.empty(0, dtype=np.int64)
        self.pending: list[tuple[np.ndarray, np.ndarray]] = []
        self.pending_size = 0
        self.n = 0

    # --- adding -------------------------------------------------------------------------

    def update(self, columns: Sequence[Any], *, text: bool = False, codes: bool = True) -> list[np.ndarray]:
        """Count one batch (one column per tuple position); returns each column's codes in the vocabulary.

        ``text=True``: the labels are compared as text from now on (see the module docstring).
        ``codes=False``: the codes are not needed (an empty list may be returned).
        """
        if len(columns) != self.arity:
            raise ValueError(f"expected {self.arity} columns")
        if text and not self.vocab.text:
            self.recode(self.vocab.as_text())
        fast = self._add_small_ints(columns, codes)
        if fast is not None:
            return fast
        encoded = encode_batch(self.vocab, columns, self.names)
        self._add(encoded)
        return encoded

    def _add_small_ints(self, columns: Sequence[Any], want_codes: bool = True) -> list[np.ndarray] | None:
        """Integer label columns of a narrow range, counted by one bincount over their values (the speed of
        reading them); None when the batch is not of that kind (text, nulls, a wide range, a sparse table).

        The labels the vocabulary receives are the Python integers that :func:`encode_batch` gives it, so
        both paths count the same table."""
        got = self.update_ints(columns)
        if got is None:
            return None
        if not want_codes:
            return []
        ints, lo, lut = got
        return [lut[x.astype(np.int64) - lo] for x in ints]

    def update_ints(self, columns: Sequence[Any]) -> tuple[list[np.ndarray], int, np.ndarray] | None:
        """Count a batch of integer labels of a narrow range (as :meth:`update` counts it) and return the columns
        as integer arrays, their smallest value ``lo`` and ``lut``, the code of each value ``lo + i`` (−1 for the
        values absent from the batch) -- the codes themselves not made. None (nothing counted) when the batch is
        not of that kind.

        >>> import pyarrow as pa
        >>> c = Counter(); ints, lo, lut = c.update_ints([pa.array([5, 7]), pa.array([7, 7])])
        >>> lo, lut.tolist(), c.vocab.values, c.n
        (5, [0, -1, 1], [5, 7], 2)
        """
        if len(columns) != self.arity or self.vocab.text or self.dense is None:
            return None
        ints = _int_arrays(columns)
        if ints is None:
            return None
        return self.count_ints(ints)

    def count_ints(self, ints: list[np.ndarray]) -> tuple[list[np.ndarray], int, np.ndarray] | None:
        """:meth:`update_ints` of columns already made NumPy integer arrays (one per tuple position)."""
        if len(ints) != self.arity or self.vocab.text or self.dense is None or ints[0].size == 0:
            return None
        lo = min(int(x.min()) for x in ints)
        width = max(int(x.max()) for x in ints) - lo + 1
        m = ints[0].size
        if width ** self.arity > max(4 * m, 1 << 16):
            return None
        key = np.subtract(ints[0], lo, dtype=np.int64) if lo else ints[0].astype(np.int64, copy=False)
        for x in ints[1:]:
            key = key * width
            key += x
            if lo:
                key -= lo
        cells = np.bincount(key, minlength=width ** self.arity).reshape((width,) * self.arity)
        axes = tuple(range(self.arity))
        present = np.zeros(width, dtype=bool)
        for a in axes:
            present |= cells.sum(axis=tuple(b for b in axes if b != a)) > 0
        used = np.flatnonzero(present)
        codes = self.vocab.codes([lo + v for v in used.tolist()])
        if len(self.vocab) > self.limit:
            return None  # the vocabulary grew past a dense table: the general path counts this batch
        if len(self.vocab) > self.cap:
            self._grow(len(self.vocab))
        self.dense[np.ix_(*([codes] * self.arity))] += cells[np.ix_(*([used] * self.arity))]
        self.n += m
        lut = np.full(width, -1, dtype=np.int64)
        lut[used] = codes
        return ints, lo, lut

    def add_codes(self, codes: Sequence[np.ndarray], weights: np.ndarray | None = None) -> None:
        """Count items given by their codes in the (shared) vocabulary; ``weights``: how many items each row is."""
        w = None if weights is None else np.asarray(weights, dtype=np.int64)
        self._add([np.asarray(c, dtype=np.int64) for c in codes], w)

    def _add(self, codes: list[np.ndarray], weights: np.ndarray | None = None) -> None:
        k = len(self.vocab)
        m = codes[0].size
        self.n += m if weights is None else int(weights.sum())
        if self.dense is not None and k <= self.limit:
            if k > self.cap:
                self._grow(k)
            if m:
                key = codes[0] * self.cap + codes[1]
                if self.arity == 3:
                    key = key * self.cap + codes[2]
                cells = self.cap ** self.arity
                if weights is not None:
                    np.add.at(self.dense.reshape(-1), key, weights)
                elif cells <= 4 * m:
                    self.dense += np.bincount(key, minlength=cells).reshape(self.dense.shape)
                else:  # a large table and a small batch: add the batch's distinct cells only
                    uniq, cnt = np.unique(key, return_counts=True)
                    self.dense.reshape(-1)[uniq] += cnt
            return
        if self.dense is not None:
            self._to_sparse()
        if m:
            key = codes[0] << _BITS | codes[1]
            if self.arity != 2:
                key = key << _BITS | codes[2]
            if weights is None:
                uniq, cnt = np.unique(key, return_counts=True)
            else:
                uniq, inverse = np.unique(key, return_inverse=True)
                cnt = np.zeros(uniq.size, dtype=np.int64)
                np.add.at(cnt, inverse, weights)
            self.pending.append((uniq, cnt.astype(np.int64)))
            self.pending_size += uniq.size
            if self.pending_size > max(_MERGE_AT, 2 * self.keys.size):
                self._merge()

    def _grow(self, k: int) -> None:
        cap = max(8, self.cap)
        while cap < k:
            cap *= 2
        cap = min(cap, self.limit) if k <= self.limit else cap
        out = np.zeros((cap,) * self.arity, dtype=np.int64)
        if self.cap:
            assert self.dense is not None  # a capacity is held densely
            out[(slice(0, self.cap),) * self.arity] = self.dense
        self.dense, self.cap = out, cap

    def _cells(self) -> list[np.ndarray]:
        """The non-empty cells: one code array per column, and the counts."""
        if self.dense is not None:
            idx = np.nonzero(self.dense)
            return [i.astype(np.int64) for i in idx] + [self.dense[idx]]
        self._merge()
        mask = (1 << _BITS) - 1
        cols = [(self.keys >> (_BITS * (self.arity - 1 - i))) & mask for i in range(self.arity)]
        return cols + [self.counts]

    def _to_sparse(self) -> None:
        *cols, counts = self._cells()
        self.dense, self.cap = None, 0
        self.keys, self.counts = self._key(cols), counts
        self.keys, self.counts = compact(self.keys, self.counts)

    def _key(self, cols: list[np.ndarray]) -> np.ndarray:
        key = cols[0]
        for c in cols[1:]:
            key = key << _BITS | c
        return key

    def _merge(self) -> None:
        if not self.pending:
            return
        keys = np.concatenate([self.keys] + [p[0] for p in self.pending])
        counts = np.concatenate([self.counts] + [p[1] for p in self.pending])
        self.keys, self.counts = compact(keys, counts)
        self.pending, self.pending_size = [], 0

    def recode(self, new_codes: np.ndarray) -> None:
        """Labels merged (text form): move every count to its label's new code."""
        *cols, counts = self._cells()
        cols = [new_codes[c] for c in cols]
        self.dense, self.cap = np.zeros((0,) * self.arity, dtype=np.int64), 0
        self.keys = np.empty(0, dtype=np.int64)
        self.counts = np.empty(0, dtype=np.int64)
        self.n = 0
        if counts.size:
            self._add_weighted(cols, counts)

    def _add_weighted(self, cols: list[np.ndarray], counts: np.ndarray) -> None:
        k = len(self.vocab)
        self.n += int(counts.sum())
        if k <= self.limit:
            self._grow(k)
            key = cols[0] * self.cap + cols[1]
            if self.arity == 3:
                key = key * self.cap + cols[2]
            flat = self.dense.reshape(-1)  # type: ignore[union-attr]
            np.add.at(flat, key, counts)
            return
        self.dense = None
        self.keys, self.counts = compact(self._key(cols), counts)

    def merge(self, other: Counter) -> None:
        """Add another counter's counts (its labels join this vocabulary)."""
        *cols, counts = other._cells()
        if other.vocab.text and not self.vocab.text:
            self.recode(self.vocab.as_text())
        values = other.vocab.values
        lut = self.vocab.codes(values) if values else np.empty(0, dtype=np.int64)
        if counts.size:
            if self.dense is not None and len(self.vocab) > self.limit:
                self._to_sparse()
            cols = [lut[c] for c in cols]
            if self.dense is not None:
                self._add_weighted(cols, counts)
            else:
                self.n += int(counts.sum())
                self.pending.append((self._key(cols), counts))
                self._merge()

    # --- the table ------------------------------------------------------------------------

    def order(self, labels: Sequence[Any] | None = None) -> tuple[tuple[Any, ...], np.ndarray]:
        """(output labels, output index of each code): natural order, or ``labels`` (see
        :func:`~clfeval.core._labels.resolve_requested`: data labels left out are refused)."""
        values = self.vocab.values
        if labels is None:
            out = tuple(sort_labels(values))
            pos = {x: i for i, x in enumerate(out)}
            return out, np.array([pos[x] for x in values], dtype=np.int64)
        requested = [label_str(x) for x in labels] if self.vocab.text else list(labels)
        out, index = resolve_requested(requested, values, np.ones(len(values), dtype=bool))
        where = np.full(len(values) + 1, -1, dtype=np.int64)
        where[index] = np.arange(len(out))
        check_class_count(len(out), limit=MAX_CLASSES)
        return out, where[: len(values)]

    def table(self, labels: Sequence[Any] | None = None) -> Any:
        """The table of everything counted: a confusion table (arity 2) or a joint table (arity 3)."""
        out, where = self.order(labels)
        *cols, counts = self._cells()
        cols = [where[c] for c in cols]
        if self.arity == 2:
            return confusion_from_cells(cols[0], cols[1], counts, out)
        return joint_from_cells(cols[0], cols[1], cols[2], counts, out)


class JointTables:
    """The joint (gold, A, B) table of every pair of several systems on the same items, counted together.

    Built by :class:`JointCounter`; ``pair(x, y)`` is the table with ``x`` as A and ``y`` as B, and
    ``table(x)`` the confusion table of one system. ``labels`` are every label of gold or of any system.
    """

    def __init__(self, names: Sequence[str], labels: tuple[Any, ...], pairs: dict[tuple[int, int], Any], n: int,
                 describe: str = "") -> None:
        self.names = list(names)
        self.labels = labels
        self.pairs = pairs
        self.n = n
        self.describe = describe

    def pair(self, x: str, y: str) -> Any:
        i, j = self.names.index(x), self.names.index(y)
        if (i, j) in self.pairs:
            return self.pairs[(i, j)]
        return _swap(self.pairs[(j, i)])

    def table(self, x: str) -> Any:
        i = self.names.index(x)
        for (a, b), t in self.pairs.items():
            if i in (a, b):
                return t.table_a if a == i else t.table_b
        raise KeyError(x)


def _swap(t: Any) -> Any:
    """The joint table with A and B swapped."""
    if hasattr(t, "counts"):
        return type(t)(np.ascontiguousarray(np.swapaxes(t.counts, 1, 2)), t.labels)
    return type(t)(t.gold, t.b, t.a, t.values, t.labels)


class JointCounter:
    """Counts (gold, system i, system j) for every pair of several systems, batch by batch, one vocabulary.

    >>> c = JointCounter(["a", "b", "c"])
    >>> c.update(["x", "y"], [["x", "x"], ["x", "y"], ["y", "y"]])
    >>> t = c.tables(); t.pair("a", "b").table_b.counts.tolist(), t.n
    ([[1, 0], [0, 1]], 2)
    """

    def __init__(self, names: Sequence[str], pairs: Sequence[tuple[int, int]] | None = None) -> None:
        self.names = list(names)
        s = len(self.names)
        self.vocab = Vocabulary()
        wanted = list(pairs) if pairs is not None else [(i, j) for i in range(s) for j in range(i + 1, s)]
        self.counters = {p: Counter(3, vocab=self.vocab) for p in wanted}

    def update(self, gold: Any, preds: Sequence[Any], *, text: bool = False, weights: Any = None) -> None:
        """Count one batch: gold and every system's predictions, item for item (``weights``: how many items each
        row stands for)."""
        if text and not self.vocab.text:
            mapping = self.vocab.as_text()
            for c in self.counters.values():
                c.recode(mapping)
        codes = encode_batch(self.vocab, [gold, *preds], ["gold"] + [f"system {n!r}" for n in self.names])
        for (i, j), c in self.counters.items():
            c.add_codes([codes[0], codes[i + 1], codes[j + 1]], weights)

    def merge(self, other: JointCounter) -> None:
        """Add another counter's counts of the same pairs (its labels join this vocabulary; text when either
        compares labels as text)."""
        if other.vocab.text and not self.vocab.text:
            mapping = self.vocab.as_text()
            for c in self.counters.values():
                c.recode(mapping)
        for p, c in self.counters.items():
            c.merge(other.counters[p])

    @property
    def n(self) -> int:
        return next(iter(self.counters.values())).n if self.counters else 0

    def tables(self, labels: Sequence[Any] | None = None, describe: str = "") -> JointTables:
        pairs = {p: c.table(labels) for p, c in self.counters.items()}
        out = next(iter(pairs.values())).labels if pairs else ()
        return JointTables(self.names, out, pairs, self.n, describe)
