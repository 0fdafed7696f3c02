"""Count tables: the one place where items are counted.

Every metric, baseline, diagnostic and resampling test in clfeval is computed
from these tables, never from the raw items again. Tables of the same task add
up (``t1 + t2``), aligning label sets that differ, so evaluation can stream,
shard and merge: cross-validation folds, batches and distributed workers all
produce tables and add them.

* :class:`ConfusionTable` — K×K, rows = gold, columns = predicted.
* :class:`MultilabelTable` — one binary 2×2 table per label, plus the
  additive per-item sums (exact matches, Jaccard) that example-based
  multi-label measures need.
* :class:`JointTable` — K×K×K counts over (gold, prediction of A, prediction
  of B) for paired comparison of two systems on the same items.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.core._labels import (
    MAX_DENSE,
    MAX_DENSE_JOINT,
    MAX_JOINT_CLASSES,
    EncodedPair,
    check_class_count,
    encode_labels,
    encode_multilabel,
    encode_pair,
    label_str,
    resolve_label,
    resolve_requested,
    sort_labels,
)
from clfeval.errors import DataError

if TYPE_CHECKING:
    from clfeval.core._sparse import SparseConfusionTable, SparseJointTable

__all__ = [
    "ConfusionTable",
    "MultilabelTable",
    "JointTable",
    "BinaryCounts",
    "ConfusionAccumulator",
    "MultilabelAccumulator",
    "confusion_table",
    "multilabel_table",
    "joint_table",
    "joint_of_codes",
    "count_joint",
    "count_pair",
    "table_of",
]


def union_labels(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
    if a == b:
        return a
    extra = [x for x in b if x not in set(a)]
    merged = list(a) + extra
    try:
        if list(a) == sort_labels(a) and list(b) == sort_labels(b):
            return tuple(sort_labels(merged))
    except TypeError:
        pass
    return tuple(merged)


def check_labels(labels: Sequence[Any], what: str) -> None:
    """Labels must be distinct, also in their string form: reports key every row by it.

    Two tables whose labels are of different kinds (``1`` from one file, ``"1"``
    from another) would otherwise add up to a table with two classes that print
    the same, and a report whose rows overwrite each other.
    """
    if len(set(labels)) != len(labels):
        raise DataError(f"a {what}'s labels must be distinct.")
    forms: dict[str, Any] = {}
    for x in labels:
        s = label_str(x)
        if s in forms:
            raise DataError(
                f"a {what} has two labels that print as {s!r}: {forms[s]!r} ({type(forms[s]).__name__}) and "
                f"{x!r} ({type(x).__name__}); labels of different kinds cannot be combined - convert them to one "
                f"type (for example read every column as text)."
            )
        forms[s] = x


def resolve_against(labels: Sequence[Any], existing: Sequence[Any]) -> tuple[Any, ...]:
    """``labels`` with each one that names an ``existing`` label (by value or string form,
    see :func:`~clfeval.core._labels.resolve_label`) replaced by that label's own value."""
    out = []
    for x in labels:
        try:
            out.append(existing[resolve_label(x, existing, option="labels")])
        except DataError:
            out.append(x)
    return tuple(out)


def embed(counts: np.ndarray, labels: tuple[Any, ...], target: tuple[Any, ...], axes: int) -> np.ndarray:
    """Place ``counts`` (labels along the first ``axes`` axes) into the label order ``target``."""
    if labels == target:
        return counts
    pos = {x: i for i, x in enumerate(target)}
    idx = np.array([pos[x] for x in labels], dtype=np.intp)
    shape = (len(target),) * axes + counts.shape[axes:]
    out = np.zeros(shape, dtype=counts.dtype)
    out[np.ix_(*([idx] * axes))] = counts
    return out


@dataclass(frozen=True, slots=True)
class BinaryCounts:
    """The four counts of one class against all others."""

    tp: int | float  # floats for a table of weighted counts
    fp: int | float
    fn: int | float
    tn: int | float

    @property
    def n(self) -> int | float:
        return self.tp + self.fp + self.fn + self.tn


@dataclass(frozen=True, eq=False)
class ConfusionTable:
    """A K×K confusion table: rows = gold class, columns = predicted class.

    Parameters
    ----------
    counts : ndarray, shape (K, K)
        Item counts; ``counts[i, j]`` = items of gold class ``labels[i]``
        predicted as ``labels[j]``. Integer for observed tables; baselines use
        float tables of expected counts.
    labels : tuple
        The class labels, in row/column order.

    Examples
    --------
    >>> t = confusion_table(["a", "b", "b"], ["a", "a", "b"])
    >>> t.counts.tolist(), t.labels
    ([[1, 0], [1, 1]], ('a', 'b'))
    >>> (t + confusion_table(["c"], ["a"])).counts.tolist()
    [[1, 0, 0], [1, 1, 0], [1, 0, 0]]
    """

    counts: np.ndarray
    labels: tuple[Hashable, ...]

    def __post_init__(self) -> None:
        c = np.asarray(self.counts)
        if c.ndim != 2 or c.shape[0] != c.shape[1] or c.shape[0] != len(self.labels):
            raise DataError(f"a confusion table must be K×K with K = {len(self.labels)} labels; got shape {c.shape}.")
        check_labels(self.labels, "confusion table")
        object.__setattr__(self, "counts", c)
        object.__setattr__(self, "labels", tuple(self.labels))

    @property
    def k(self) -> int:
        """Number of classes."""
        return len(self.labels)

    @property
    def n(self) -> int | float:
        """Number of items (a float for a table of weighted counts)."""
        return int(self.counts.sum()) if self.counts.dtype.kind in "iu" else float(self.counts.sum())

    @property
    def label_strings(self) -> list[str]:
        return [label_str(x) for x in self.labels]

    def index(self, label: Any, *, option: str = "label") -> int:
        """Position of a label (matched by value or by string form)."""
        return resolve_label(label, self.labels, option=option, source="the table")

    def binary(self, positive: Any) -> BinaryCounts:
        """TP, FP, FN, TN of one class against all others."""
        i = self.index(positive, option="positive")
        c = self.counts
        tp = c[i, i]
        fp = c[:, i].sum() - tp
        fn = c[i, :].sum() - tp
        tn = c.sum() - tp - fp - fn
        conv = int if c.dtype.kind in "iu" else float
        return BinaryCounts(conv(tp), conv(fp), conv(fn), conv(tn))

    def relabel(self, labels: Sequence[Any]) -> ConfusionTable:
        """The same counts in another label order (labels may be added, never dropped).

        Labels are matched by value or by string form, as ``labels=`` is
        everywhere: ``relabel(["0", "1"])`` of a table of ints keeps the ints.
        """
        target = resolve_against(labels, self.labels)
        missing = [x for x in self.labels if x not in set(target)
                   and self.counts[self.labels.index(x)].sum() + self.counts[:, self.labels.index(x)].sum() > 0]
        if missing:
            raise DataError(f"relabel would drop labels that have counts: {', '.join(map(label_str, missing))}.")
        keep = [x for x in self.labels if x in set(target)]
        sub = ConfusionTable(self.counts[np.ix_([self.labels.index(x) for x in keep],
                                                [self.labels.index(x) for x in keep])],
                             tuple(keep)) if len(keep) != self.k else self
        return ConfusionTable(embed(sub.counts, sub.labels, target, 2), target)

    def cells(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(gold index, predicted index, count) of every non-empty cell, row-major."""
        g, p = np.nonzero(self.counts)
        return g.astype(np.int64), p.astype(np.int64), self.counts[g, p]

    def __add__(self, other: ConfusionTable) -> ConfusionTable | SparseConfusionTable:
        if not isinstance(other, ConfusionTable):
            return NotImplemented
        target = union_labels(self.labels, other.labels)
        if len(target) > MAX_DENSE:  # the sum is held sparsely (core.sparse)
            from clfeval.core._sparse import sparse_of

            return sparse_of(self) + other
        return ConfusionTable(embed(self.counts, self.labels, target, 2) + embed(other.counts, other.labels, target, 2),
                              target)

    def __radd__(self, other: Any) -> ConfusionTable:
        if other == 0:  # sum([...]) starts from 0
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfusionTable):
            return NotImplemented
        return self.labels == other.labels and np.array_equal(self.counts, other.counts)

    __hash__ = None  # type: ignore[assignment]


def confusion_table(gold: Any, pred: Any, *, labels: Sequence[Any] | None = None) -> ConfusionTable:
    """Count gold vs predicted labels into a :class:`ConfusionTable` in one pass.

    Labels of either column form one shared vocabulary (sorted naturally unless
    ``labels`` gives the order). See :func:`clfeval.core._labels.encode_pair`.
    Above :data:`~clfeval.core._labels.MAX_DENSE` classes the table is a
    :class:`clfeval.core._sparse.SparseConfusionTable` (the same counts, its non-empty cells).

    Parameters
    ----------
    gold, pred : sequence of labels
        Gold and predicted label of each item, one to one: lists, numpy or pyarrow arrays of strings, integers
        or booleans (of one kind), no missing values.
    labels : sequence, optional
        The labels in output order (absent ones give zero rows and columns). By default the labels that
        occur, in natural order. A label that occurs but is not listed is an error (its items would vanish).
    """
    return table_of(encode_pair(gold, pred, labels=labels))


def table_of(enc: EncodedPair) -> ConfusionTable:
    """The confusion table of encoded labels: dense, or sparse above :data:`~clfeval.core._labels.MAX_DENSE` classes."""
    if enc.dense and len(enc.labels) <= MAX_DENSE:
        return ConfusionTable(enc.confusion_counts(), enc.labels)
    from clfeval.core._sparse import SparseConfusionTable

    return SparseConfusionTable(*enc.cells(), enc.labels)  # type: ignore[return-value]


@dataclass(frozen=True, eq=False)
class MultilabelTable:
    """Per-label binary tables for multi-label data, plus additive per-item sums.

    Parameters
    ----------
    counts : ndarray, shape (L, 2, 2)
        ``counts[l]`` = ``[[TN, FP], [FN, TP]]`` of label ``labels[l]``
        (rows gold absent/present, columns predicted absent/present).
    labels : tuple
    n_items : int
        Number of items (each item counts once in every label's table).
    exact : int
        Items whose predicted set equals the gold set (subset accuracy).
    jaccard_sum : float
        Sum over items of |G ∩ P| / |G ∪ P|, over items where G ∪ P is non-empty.
    jaccard_empty : int
        Items with G ∪ P empty (Jaccard 0/0, filled by the zero-division policy).
    """

    counts: np.ndarray
    labels: tuple[Hashable, ...]
    n_items: int
    exact: int
    jaccard_sum: float
    jaccard_empty: int

    def __post_init__(self) -> None:
        c = np.asarray(self.counts)
        if c.shape != (len(self.labels), 2, 2):
            raise DataError(f"a multi-label table must have shape (L, 2, 2) with L = {len(self.labels)}; got "
                            f"{c.shape}.")
        check_labels(self.labels, "multi-label table")
        object.__setattr__(self, "counts", c)
        object.__setattr__(self, "labels", tuple(self.labels))

    @property
    def n(self) -> int:
        return self.n_items

    @property
    def label_strings(self) -> list[str]:
        return [label_str(x) for x in self.labels]

    @property
    def tp(self) -> np.ndarray:
        return self.counts[:, 1, 1]

    @property
    def fp(self) -> np.ndarray:
        return self.counts[:, 0, 1]

    @property
    def fn(self) -> np.ndarray:
        return self.counts[:, 1, 0]

    @property
    def tn(self) -> np.ndarray:
        return self.counts[:, 0, 0]

    def binary(self, label: Any) -> BinaryCounts:
        i = resolve_label(label, self.labels, option="label", source="the table")
        (tn, fp), (fn, tp) = self.counts[i].tolist()
        return BinaryCounts(tp, fp, fn, tn)

    @classmethod
    def from_indicators(cls, gold: np.ndarray, pred: np.ndarray, labels: Sequence[Any]) -> MultilabelTable:
        """Count boolean indicator matrices (n, L)."""
        g = np.asarray(gold, dtype=bool)
        p = np.asarray(pred, dtype=bool)
        if g.shape != p.shape or g.ndim != 2 or g.shape[1] != len(labels):
            raise DataError(f"gold and pred indicator matrices must both have shape (n, {len(labels)}); got {g.shape} "
                            f"and {p.shape}.")
        n = g.shape[0]
        tp = np.count_nonzero(g & p, axis=0)
        gs = np.count_nonzero(g, axis=0)
        ps = np.count_nonzero(p, axis=0)
        fn = gs - tp
        fp = ps - tp
        tn = n - tp - fp - fn
        counts = np.stack([np.stack([tn, fp], axis=-1), np.stack([fn, tp], axis=-1)], axis=1).astype(np.int64)
        inter = np.count_nonzero(g & p, axis=1)
        union = np.count_nonzero(g | p, axis=1)
        exact = int(np.count_nonzero(inter == union))  # equal sets ⇔ |G∩P| = |G∪P|
        nonempty = union > 0
        jac = float(np.sum(inter[nonempty] / union[nonempty]))
        return cls(counts, tuple(labels), int(n), exact, jac, int(n - np.count_nonzero(nonempty)))

    def __add__(self, other: MultilabelTable) -> MultilabelTable:
        if not isinstance(other, MultilabelTable):
            return NotImplemented
        target = union_labels(self.labels, other.labels)

        def lift(t: MultilabelTable) -> np.ndarray:
            out = embed(t.counts, t.labels, target, 1)
            if t.labels != target:
                absent = np.array([x not in set(t.labels) for x in target])
                out[absent, 0, 0] = t.n_items  # a label a table never saw: every item a true negative
            return out

        return MultilabelTable(lift(self) + lift(other), target, self.n_items + other.n_items,
                               self.exact + other.exact, self.jaccard_sum + other.jaccard_sum,
                               self.jaccard_empty + other.jaccard_empty)

    def __radd__(self, other: Any) -> MultilabelTable:
        if other == 0:
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MultilabelTable):
            return NotImplemented
        return bool(self.labels == other.labels and np.array_equal(self.counts, other.counts)
                and (self.n_items, self.exact, self.jaccard_empty) == (other.n_items, other.exact, other.jaccard_empty)
                and np.isclose(self.jaccard_sum, other.jaccard_sum, rtol=1e-12, atol=1e-9))

    __hash__ = None  # type: ignore[assignment]


def multilabel_table(gold: Any, pred: Any, *, labels: Sequence[Any] | None = None, sep: str = "|") -> MultilabelTable:
    """Count label sets into a :class:`MultilabelTable`.

    Examples
    --------
    >>> t = multilabel_table(["a|b", "b", ""], ["a", "b|c", ""])
    >>> t.labels, t.tp.tolist(), t.fp.tolist(), t.fn.tolist(), t.exact
    (('a', 'b', 'c'), [1, 1, 0], [0, 0, 1], [0, 1, 0], 1)

    Parameters
    ----------
    gold, pred : sequence of label sets
        Gold and predicted label set of each item, one to one: a list/tuple/set, or a string of labels separated
        by ``sep``; an empty string, empty list or missing value is the empty set.
    labels : sequence, optional
        The labels in output order (absent ones give all-zero tables). By default the labels that occur, in
        natural order. A label that occurs but is not listed is an error.
    sep : str, default "|"
        The separator of the labels within a string item (non-empty).
    """
    enc = encode_multilabel(gold, pred, labels=labels, sep=sep)
    return MultilabelTable.from_indicators(enc.gold, enc.pred, enc.labels)


@dataclass(frozen=True, eq=False)
class JointTable:
    """Counts over (gold, prediction of A, prediction of B): shape (K, K, K).

    The paired table from which every count-based comparison of two systems
    on the same items is computed; summing over the B axis gives A's
    confusion table and over the A axis B's.

    Examples
    --------
    >>> j = joint_table(["x", "y"], ["x", "x"], ["y", "y"])
    >>> j.table_a.counts.tolist(), j.table_b.counts.tolist()
    ([[1, 0], [1, 0]], [[0, 1], [0, 1]])
    """

    counts: np.ndarray
    labels: tuple[Hashable, ...]

    def __post_init__(self) -> None:
        c = np.asarray(self.counts)
        k = len(self.labels)
        if c.shape != (k, k, k):
            raise DataError(f"a joint table must have shape (K, K, K) with K = {k}; got {c.shape}.")
        check_labels(self.labels, "joint table")
        object.__setattr__(self, "counts", c)
        object.__setattr__(self, "labels", tuple(self.labels))

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    @property
    def table_a(self) -> ConfusionTable:
        return ConfusionTable(self.counts.sum(axis=2), self.labels)

    @property
    def table_b(self) -> ConfusionTable:
        return ConfusionTable(self.counts.sum(axis=1), self.labels)

    def discordant(self) -> tuple[int, int]:
        """(n_AB, n_BA): items A got right and B wrong, and the reverse."""
        k = self.counts.shape[0]
        diag = np.arange(k)
        right_a = np.zeros((k, k, k), dtype=bool)
        right_a[diag, diag, :] = True
        right_b = np.zeros((k, k, k), dtype=bool)
        right_b[diag, :, diag] = True
        return int(self.counts[right_a & ~right_b].sum()), int(self.counts[~right_a & right_b].sum())

    def __add__(self, other: JointTable) -> JointTable | SparseJointTable:
        if not isinstance(other, JointTable):
            return NotImplemented
        target = union_labels(self.labels, other.labels)
        if len(target) > MAX_DENSE_JOINT:  # the sum is held sparsely (core.sparse)
            from clfeval.core._sparse import SparseJointTable

            return SparseJointTable(*_joint_cells(self.counts), self.labels) + other
        return JointTable(embed(self.counts, self.labels, target, 3) + embed(other.counts, other.labels, target, 3),
                          target)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JointTable):
            return NotImplemented
        return self.labels == other.labels and np.array_equal(self.counts, other.counts)

    __hash__ = None  # type: ignore[assignment]


def _joint_cells(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    g, a, b = np.nonzero(counts)
    return g.astype(np.int64), a.astype(np.int64), b.astype(np.int64), counts[g, a, b]


def joint_table(gold: Any, pred_a: Any, pred_b: Any, *, labels: Sequence[Any] | None = None) -> JointTable:
    """Count (gold, A, B) triples into a :class:`JointTable` in one pass.

    Above :data:`~clfeval.core._labels.MAX_DENSE_JOINT` classes the table is a
    :class:`clfeval.core._sparse.SparseJointTable` (its non-empty cells).

    Parameters
    ----------
    gold, pred_a, pred_b : sequence of labels
        Gold label, prediction of system A and prediction of system B of each item, one to one (lists, numpy or
        pyarrow arrays of one kind of label, no missing values).
    labels : sequence, optional
        The labels in output order (absent ones give zero cells). By default the labels that
        occur, in natural order. A label that occurs but is not listed is an error (its items would vanish).
    """
    (g, a, b), r, raw = encode_labels([gold, pred_a, pred_b], ("gold", "pred_a", "pred_b"))
    return joint_of_codes(g, a, b, r, raw, labels)


def joint_of_codes(g: np.ndarray, a: np.ndarray, b: np.ndarray, r: int, raw: Sequence[Any],
                   labels: Sequence[Any] | None = None) -> JointTable:
    """The joint table of (gold, A, B) codes into ``raw`` (labels: the occurring ones sorted, or ``labels``)."""
    # The raw code space can be much larger than the labels that occur (an integer range
    # up to 2048 wide, of which perhaps two values occur): count over the occurring
    # labels only, so the K³ table never holds the raw range cubed.
    present = np.zeros(r, dtype=bool)
    for x in (g, a, b):
        if x.size:
            present |= np.bincount(x, minlength=r) > 0
    occurring = [raw[int(j)] for j in np.flatnonzero(present)]
    if labels is None:
        out = tuple(sort_labels(occurring))
    else:  # the one resolver for caller-given label lists, over the occurring labels (all present)
        out = resolve_requested(list(labels), occurring, np.ones(len(occurring), dtype=bool))[0]
    check_class_count(len(out), limit=MAX_JOINT_CLASSES, table="joint (gold, A, B) table")
    pos = {x: i for i, x in enumerate(out)}
    lookup = np.full(r, -1, dtype=np.int64)
    for j in np.flatnonzero(present).tolist():
        lookup[j] = pos[raw[j]]
    return count_joint(lookup[g], lookup[a], lookup[b], out)


def count_joint(g: np.ndarray, a: np.ndarray, b: np.ndarray, labels: Sequence[Any]) -> JointTable:
    """The joint table of items given by their label indices (gold, A, B); sparse above
    :data:`~clfeval.core._labels.MAX_DENSE_JOINT` classes."""
    k = len(labels)
    g, a, b = (np.asarray(x, dtype=np.int64) for x in (g, a, b))
    key = (g * k + a) * k + b
    if k > MAX_DENSE_JOINT:
        from clfeval.core._sparse import SparseJointTable

        uniq, counts = np.unique(key, return_counts=True)
        return SparseJointTable(uniq // (k * k), (uniq // k) % k, uniq % k, counts, tuple(labels))  # type: ignore[return-value]
    return JointTable(np.bincount(key, minlength=k ** 3).reshape(k, k, k).astype(np.int64), tuple(labels))


def count_pair(g: np.ndarray, p: np.ndarray, labels: Sequence[Any]) -> ConfusionTable:
    """The confusion table of items given by their label indices (gold, predicted); sparse above
    :data:`~clfeval.core._labels.MAX_DENSE` classes."""
    k = len(labels)
    key = np.asarray(g, dtype=np.int64) * k + np.asarray(p, dtype=np.int64)
    if k > MAX_DENSE:
        from clfeval.core._sparse import SparseConfusionTable

        uniq, counts = np.unique(key, return_counts=True)
        return SparseConfusionTable(uniq // k, uniq % k, counts, tuple(labels))  # type: ignore[return-value]
    return ConfusionTable(np.bincount(key, minlength=k * k).reshape(k, k).astype(np.int64), tuple(labels))


class ConfusionAccumulator:
    """Build a confusion table batch by batch: the result equals the table of all batches at once.

    Batches may hold different labels (they are aligned as tables add) and any
    number of classes (the table is sparse above :data:`~clfeval.core._labels.MAX_DENSE`);
    memory is the table and one batch (:class:`clfeval.core._counting.Counter`).

    Examples
    --------
    >>> acc = ConfusionAccumulator()
    >>> acc.update(["a", "b"], ["a", "a"]); acc.update(["c"], ["c"])
    >>> acc.table == confusion_table(["a", "b", "c"], ["a", "a", "c"])
    True
    """

    def __init__(self, labels: Sequence[Any] | None = None) -> None:
        from clfeval.core._counting import Counter

        self._labels = None if labels is None else tuple(labels)
        self.counter = Counter(2)

    def update(self, gold: Any, pred: Any, *, text: bool = False) -> None:
        """Count one batch (``text=True``: labels compared as text from now on, see :mod:`clfeval.core._counting`)."""
        self.counter.update([gold, pred], text=text)

    def merge(self, other: ConfusionAccumulator) -> None:
        self.counter.merge(other.counter)

    @property
    def n(self) -> int:
        """Items counted so far."""
        return self.counter.n

    @property
    def table(self) -> ConfusionTable | SparseConfusionTable:
        t: ConfusionTable | SparseConfusionTable = self.counter.table()
        if self._labels is None:
            return t
        return t.relabel(self._labels)


class MultilabelAccumulator:
    """Build a multi-label table batch by batch."""

    def __init__(self, labels: Sequence[Any] | None = None, sep: str = "|") -> None:
        self._labels = None if labels is None else tuple(labels)
        self._sep = sep
        self._table: MultilabelTable | None = None

    def update(self, gold: Any, pred: Any) -> None:
        batch = multilabel_table(gold, pred, sep=self._sep)
        self._table = batch if self._table is None else self._table + batch

    @property
    def table(self) -> MultilabelTable:
        if self._table is None:
            labels = self._labels or ()
            return MultilabelTable(np.zeros((len(labels), 2, 2), np.int64), labels, 0, 0, 0.0, 0)
        t = self._table
        if self._labels is not None and t.labels != self._labels:
            # as in ConfusionAccumulator / labels=: matched by value or string form; a label
            # of the data left out of the list is an error, not silently appended
            target = resolve_against(self._labels, t.labels)
            missing = [x for x in t.labels if x not in set(target)]
            if missing:
                raise DataError(f"the given label list leaves out labels that occur in the data: "
                                f"{', '.join(repr(label_str(x)) for x in missing[:20])}.")
            empty = MultilabelTable(np.zeros((len(target), 2, 2), np.int64), target, 0, 0, 0.0, 0)
            t = empty + t
            if t.labels != target:  # the union may have sorted them
                t = MultilabelTable(t.counts[[t.labels.index(x) for x in target]], target, t.n_items, t.exact,
                                    t.jaccard_sum, t.jaccard_empty)
        return t
