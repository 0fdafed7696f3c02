"""Label encoding: gold and predicted labels → integer codes against one shared
vocabulary, without per-item Python loops.

Two paths, chosen by the data:

* integers (and booleans) in a small range: ``min``/``max`` and ``bincount``
  only — no sort, no hash table;
* anything else (strings, large or sparse integer ranges, floats): a hash
  table — pyarrow's dictionary encoding, or the dictionary a Parquet column
  already stores.

The encoded form keeps *raw* codes (value − min, or dictionary indices) and a
small map from each output label to its raw code, so that counting is one
``bincount`` over the raw codes and re-ordering the labels never touches the
items again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import _arrowcompute as pc
from clfeval.core._validation import check_sequence
from clfeval.errors import DataError, LabelListError, UsageError

__all__ = ["EncodedPair", "EncodedMultilabel", "MAX_CLASSES", "MAX_DENSE", "MAX_DENSE_JOINT", "MAX_JOINT_CLASSES",
           "check_class_count", "MAX_INDICATOR_CELLS", "encode_pair", "encode_labels", "encode_multilabel",
           "label_str", "resolve_label", "sort_labels"]

# Largest raw range counted directly as an R×R bincount (R² cells).
_DIRECT_RANGE = 2048

MAX_DENSE = 2048
"""Most classes of a *dense* K×K confusion table. A report derives a dozen or so K×K arrays from it (costs,
expected baseline tables, kappa's weights): about 0.5 GiB at 2,048 classes, within clfeval's 1 GiB budget.
Above it a table is held sparsely (:class:`clfeval.core._sparse.SparseConfusionTable`: the diagonal, the
margins and the non-empty cells), and the per-fold tables of the protocols stop here."""

MAX_DENSE_JOINT = 256
"""Most classes of a dense K×K×K joint (gold, A, B) table: 256³ cells of 8 bytes are 128 MiB, and counting,
re-ordering and classifying its cells takes a few such arrays (about 0.5 GiB). Above it the joint table keeps
its non-empty cells only."""

MAX_CLASSES = 1_000_000
"""Most classes of a (sparse) confusion or joint table. Memory grows with the classes, not with the items:
a report holds about 3 KB per class (its per-class metrics, baselines and notes as plain data), so a
million classes take about 3 GiB; beyond that the label column is almost surely not a label column."""

MAX_JOINT_CLASSES = MAX_CLASSES
"""Most classes of compare's joint (gold, A, B) table (sparse above :data:`MAX_DENSE_JOINT`)."""


MAX_INDICATOR_CELLS = 1 << 26
"""Most cells (items × labels) of the indicator matrices of multi-label data (67,108,864: for example
8,192 items × 8,192 labels); the matrices and the counts derived from them stay within the 1 GiB budget."""


def check_class_count(k: int, *, limit: int = MAX_CLASSES, table: str = "confusion table",
                      where: str = "gold and predictions together") -> None:
    """Refuse, before anything of size K (or K² for a dense table) is allocated, more classes than ``limit``."""
    if k > limit:
        dense = limit <= MAX_DENSE
        why = "to stay within clfeval's 1 GiB memory budget" if dense else \
            "a report holds about 3 KB per class, so memory, not the items, sets this limit"
        more = "tables for very many classes are not supported here" if dense else \
            "labels this many are almost surely ids or free text"
        raise DataError(
            f"{k:,} distinct labels were found ({where}), but a {table} holds at most "
            f"{limit:,} classes ({why}). Check that the label columns are right (labels, not ids or free text); "
            f"{more}.")
# Largest integer range mapped through a lookup table instead of hashing.
_LOOKUP_RANGE = 1 << 24


def label_str(label: Any) -> str:
    """The string form of a label, as printed and as matched to options.

    >>> label_str(3), label_str("007"), label_str(True), label_str(np.int64(2))
    ('3', '007', 'True', '2')
    """
    if isinstance(label, (np.generic,)):
        label = label.item()
    if isinstance(label, float) and label.is_integer():
        return str(int(label))
    return str(label)


def sort_labels(labels: Sequence[Any]) -> list[Any]:
    """Labels in their natural order: numbers numerically, strings by code point."""
    try:
        return sorted(labels)
    except TypeError:
        return sorted(labels, key=label_str)


def resolve_label(value: Any, labels: Sequence[Any], *, option: str, source: str = "the data") -> int:
    """Index of ``value`` in ``labels``, matching the value itself or its string form.

    A command-line option is always a string; ``--positive 1`` must mean the
    label ``1`` whether the file stored it as text or as an integer.
    """
    for i, lab in enumerate(labels):
        if type(lab) is type(value) and lab == value:
            return i
    text = label_str(value)
    for i, lab in enumerate(labels):
        if label_str(lab) == text:
            return i
    shown = ", ".join(repr(label_str(x)) for x in labels[:50])
    more = f" and {len(labels) - 50} more" if len(labels) > 50 else ""
    raise DataError(lambda name: f"{name} names the label {text!r}, which does not occur in {source}; the labels "
                                 f"there are: {shown}{more}.", params=[option])


def _kind(arr: pa.Array | pa.ChunkedArray) -> str:
    t = arr.type
    if pa.types.is_dictionary(t):
        t = t.value_type
    if pa.types.is_integer(t):
        return "integer"
    if pa.types.is_boolean(t):
        return "boolean"
    if pa.types.is_floating(t):
        return "float"
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "string"
    if pa.types.is_null(t):
        return "null"
    return str(t)


def _to_arrow(values: Any, name: str) -> pa.Array | pa.ChunkedArray:
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise DataError(f"{name} must be one-dimensional (one label per item); got an array of shape "
                            f"{values.shape}.")
        if values.dtype.kind in "iub":
            return pc.int_array(values)  # (booleans: pa.array)
        if values.dtype.kind == "f":
            return pa.array(values, from_pandas=True)
        if values.dtype.kind in "US":
            return pa.array(values.astype(object) if values.dtype.kind == "S" else values)
        values = values.tolist()
    elif hasattr(values, "__array__") and not isinstance(values, (list, tuple)):
        return _to_arrow(np.asarray(values), name)
    check_sequence(values, name)
    try:
        # from_pandas: a float NaN among the labels is a missing label (as pandas writes
        # one), refused by _labelforms.check_missing naming the item, not a "mixed types" error
        return pa.array(list(values) if not isinstance(values, list) else values, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError) as exc:
        kinds = sorted({type(v).__name__ for v in list(values)[:1000]})
        raise DataError(
            f"{name} mixes label types ({', '.join(kinds)}); labels must all be of one kind "
            f"(all strings, or all integers, or all booleans). ({exc})"
        ) from None


def _numpy_of(arr: pa.Array | pa.ChunkedArray) -> np.ndarray:
    if isinstance(arr, pa.ChunkedArray):
        if arr.num_chunks == 1:
            arr = arr.chunk(0)
        else:
            if not arr.num_chunks:
                return np.empty(0, np.int64)
            return np.concatenate([c.to_numpy(zero_copy_only=False) for c in arr.chunks])
    out: np.ndarray = arr.to_numpy(zero_copy_only=False)
    return out


def resolve_requested(requested: Sequence[Any], raw_labels: Sequence[Any],
                      present: np.ndarray) -> tuple[tuple[Any, ...], np.ndarray]:
    """Output labels asked for by the caller, matched to the raw labels of the data.

    Returns the labels (data values where they match, by value or string
    form; the caller's value for labels absent from the data) and the raw
    index of each (``len(raw_labels)`` when absent). Refuses a label listed
    twice, and labels that occur in the data (``present``) but are not asked
    for — their items would silently vanish.
    """
    n_raw = len(raw_labels)
    index = np.empty(len(requested), dtype=np.intp)
    resolved = []
    seen: set[int] = set()
    for i, value in enumerate(requested):
        try:
            j = resolve_label(value, raw_labels, option="labels")
        except DataError:
            index[i] = n_raw
            resolved.append(value)
            continue
        if j in seen:
            raise UsageError(f"the label list names {label_str(value)!r} twice.")
        seen.add(j)
        index[i] = j
        resolved.append(raw_labels[j])
    missing = [raw_labels[int(j)] for j in np.flatnonzero(present) if j not in seen]
    if missing:
        raise LabelListError([label_str(x) for x in missing])
    return tuple(resolved), index


@dataclass(frozen=True, eq=False)
class EncodedPair:
    """Gold and predicted labels as integer codes against one shared vocabulary.

    Attributes
    ----------
    gold_raw, pred_raw : ndarray of int, shape (n,)
        Raw codes in ``[0, n_raw)`` (value − min for small integer ranges,
        dictionary indices otherwise).
    n_raw : int
        Size of the raw code space.
    raw_labels : tuple
        The label value of each raw code.
    requested : tuple or None
        Output labels asked for by the caller, or None for "every label that
        occurs, in natural order".
    """

    gold_raw: np.ndarray
    pred_raw: np.ndarray
    n_raw: int
    raw_labels: tuple[Any, ...] = field(repr=False)
    requested: tuple[Any, ...] | None = None

    @property
    def n(self) -> int:
        return int(self.gold_raw.shape[0])

    @property
    def dense(self) -> bool:
        """Whether the raw code space is small enough for a dense (R×R) table."""
        return self.n_raw <= MAX_DENSE

    @cached_property
    def raw_counts(self) -> np.ndarray:
        """(n_raw, n_raw) counts over raw codes: one bincount of gold·R + pred (dense code spaces only)."""
        r = self.n_raw
        check_class_count(r, limit=MAX_DENSE, table="dense K×K confusion table")
        if self.n == 0:
            return np.zeros((r, r), dtype=np.int64)
        g = self.gold_raw
        p = self.pred_raw
        flat: np.ndarray
        if g.dtype == np.int32 and p.dtype == np.int32 and r * r < np.iinfo(np.int32).max:
            flat = g * np.int32(r)
        else:
            flat = g.astype(np.int64, copy=False) * r
        flat += p
        return np.bincount(flat, minlength=r * r).reshape(r, r).astype(np.int64, copy=False)

    @cached_property
    def raw_cells(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The non-empty cells over raw codes: (gold code, predicted code, count), in row-major order."""
        if self.dense:
            g, p = np.nonzero(self.raw_counts)
            return g.astype(np.int64), p.astype(np.int64), self.raw_counts[g, p]
        check_class_count(self.n_raw)
        keys = self.gold_raw.astype(np.int64) * self.n_raw + self.pred_raw.astype(np.int64)
        uniq, counts = np.unique(keys, return_counts=True)
        return uniq // self.n_raw, uniq % self.n_raw, counts.astype(np.int64)

    @cached_property
    def _present(self) -> np.ndarray:
        if self.dense:
            raw = self.raw_counts
            out: np.ndarray = (raw.sum(axis=0) > 0) | (raw.sum(axis=1) > 0)
            return out
        r = self.n_raw
        return (np.bincount(self.gold_raw, minlength=r) > 0) | (np.bincount(self.pred_raw, minlength=r) > 0)

    @cached_property
    def _order(self) -> tuple[tuple[Any, ...], np.ndarray]:
        present = self._present
        if self.requested is None:
            occurring = [self.raw_labels[j] for j in np.flatnonzero(present)]
            order = sort_labels(occurring)
            lookup = {x: i for i, x in enumerate(self.raw_labels)}
            index = np.array([lookup[x] for x in order], dtype=np.intp)
            return tuple(order), index
        return resolve_requested(self.requested, self.raw_labels, present)

    @property
    def labels(self) -> tuple[Any, ...]:
        """Output labels, in output order."""
        return self._order[0]

    @property
    def raw_index(self) -> np.ndarray:
        """Raw code of each output label (``n_raw`` for a label absent from the data)."""
        return self._order[1]

    def confusion_counts(self) -> np.ndarray:
        """(K, K) counts, rows = gold, columns = predicted, in ``labels`` order (dense code spaces only)."""
        return _select(self.raw_counts, self.raw_index, self.n_raw)

    def cells(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The non-empty cells in ``labels`` order: (gold index, predicted index, count), row-major."""
        g, p, c = self.raw_cells
        lookup = np.full(self.n_raw + 1, -1, dtype=np.int64)
        lookup[self.raw_index] = np.arange(len(self.labels))
        gi, pi = lookup[g], lookup[p]
        order = np.lexsort((pi, gi))
        return gi[order], pi[order], c[order]

    @cached_property
    def _codes(self) -> tuple[np.ndarray, np.ndarray]:
        lookup = np.full(self.n_raw + 1, -1, dtype=np.intp)
        lookup[self.raw_index] = np.arange(len(self.labels))
        lookup = lookup[: self.n_raw]
        return lookup[self.gold_raw], lookup[self.pred_raw]

    @property
    def gold(self) -> np.ndarray:
        """Gold codes in ``[0, K)`` (computed on first use)."""
        return self._codes[0]

    @property
    def pred(self) -> np.ndarray:
        """Predicted codes in ``[0, K)`` (computed on first use)."""
        return self._codes[1]

    def with_labels(self, labels: Sequence[Any]) -> EncodedPair:
        """The same items with output labels given by the caller, in that order.

        Labels absent from the data are allowed (their rows and columns are
        zero); labels present in the data but missing from ``labels`` are an
        error, since their items would silently vanish. Values match a label
        or its string form (see :func:`resolve_label`).
        """
        new = EncodedPair(self.gold_raw, self.pred_raw, self.n_raw, self.raw_labels, tuple(labels))
        for cached in ("raw_counts", "raw_cells", "_present"):
            if cached in self.__dict__:
                new.__dict__[cached] = self.__dict__[cached]
        _ = new._order  # validate now, not at first use
        return new


def _select(raw: np.ndarray, index: np.ndarray, n_raw: int) -> np.ndarray:
    if len(index) == n_raw and np.array_equal(index, np.arange(n_raw)):
        return raw
    padded = raw
    if np.any(index >= n_raw):
        padded = np.zeros((n_raw + 1, n_raw + 1), dtype=raw.dtype)
        padded[:n_raw, :n_raw] = raw
    out: np.ndarray = padded[np.ix_(index, index)]
    return out


def _dictionary_parts(arr: pa.ChunkedArray | pa.Array) -> tuple[pa.Array, np.ndarray]:
    """(dictionary, indices) of a dictionary-typed column, unifying chunk dictionaries."""
    if isinstance(arr, pa.Array):
        arr = pa.chunked_array([arr])
    arr = arr.unify_dictionaries()
    if arr.num_chunks == 0:
        return pa.array([], type=arr.type.value_type), np.empty(0, np.int32)
    dictionary = arr.chunk(0).dictionary
    idx = [c.indices.to_numpy(zero_copy_only=False) for c in arr.chunks]
    indices = idx[0] if len(idx) == 1 else np.concatenate(idx)
    return dictionary, indices


def _split_stream(chunks: list[np.ndarray], lengths: list[int]) -> list[np.ndarray]:
    """Cut a stream of index chunks back into columns of the given lengths.

    ``pc.dictionary_encode`` of a chunked array drops empty chunks, so the
    columns are recovered by length, not by counting chunks. A column that is
    one chunk comes back without a copy.
    """
    out = []
    ci, off = 0, 0
    for length in lengths:
        parts = []
        need = length
        while need > 0:
            c = chunks[ci]
            take = min(need, len(c) - off)
            if take:
                parts.append(c[off:off + take])
            off += take
            need -= take
            if off == len(c):
                ci, off = ci + 1, 0
        out.append(parts[0] if len(parts) == 1 else (np.concatenate(parts) if parts else np.empty(0, np.int32)))
    return out


def _common_type(types: list[pa.DataType]) -> pa.DataType:
    """One type every column of one kind casts to without loss (int32 and int64 → int64)."""
    if len(set(types)) == 1:
        return types[0]
    if all(pa.types.is_integer(t) for t in types):
        if all(pa.types.is_unsigned_integer(t) for t in types):
            return pa.uint64()
        if any(t == pa.uint64() for t in types):  # signed beside uint64: only a decimal holds both exactly
            return pa.decimal128(20, 0)
        return pa.int64()
    if all(pa.types.is_floating(t) for t in types):
        return pa.float64()
    if any(pa.types.is_large_string(t) for t in types):
        return pa.large_string()
    return types[0]


def _hash_encode(values: list[pa.Array | pa.ChunkedArray]) -> tuple[list[np.ndarray], list[Any]]:
    """Encode several columns against one dictionary; returns raw codes per column and the dictionary."""
    dict_cols = [pa.types.is_dictionary(v.type) for v in values]
    if all(dict_cols):
        # Dictionaries stored with the data (Parquet): map each small dictionary
        # onto a shared vocabulary, then gather once per item.
        parts = [_dictionary_parts(v) for v in values]
        typ = _common_type([p[0].type for p in parts])
        vocab = pc.dictionary_encode(pa.chunked_array([pc.cast(p[0], typ) for p in parts], type=typ))
        vocab_dict = vocab.chunk(0).dictionary if vocab.num_chunks else pa.array([])
        maps = _split_stream([c.indices.to_numpy(zero_copy_only=False).astype(np.int32) for c in vocab.chunks],
                             [len(p[0]) for p in parts])
        codes = []
        for (_, indices), mapping in zip(parts, maps, strict=True):
            codes.append(mapping[indices] if len(mapping) else indices.astype(np.int32))
        return codes, vocab_dict.to_pylist()
    plain = []
    for v in values:
        if pa.types.is_dictionary(v.type):
            v = v.cast(v.type.value_type) if isinstance(v, pa.Array) else \
                pa.chunked_array([c.cast(c.type.value_type) for c in v.chunks], type=v.type.value_type)
        plain.append(v)
    chunks: list[pa.Array] = []
    for v in plain:
        chunks.extend(v.chunks if isinstance(v, pa.ChunkedArray) else [v])
    if not chunks:
        return [np.empty(0, np.int32) for _ in values], []
    typ = _common_type([c.type for c in chunks])
    chunks = [c if c.type == typ else c.cast(typ) for c in chunks]
    encoded = pc.dictionary_encode(pa.chunked_array(chunks, type=typ))
    dictionary = encoded.chunk(0).dictionary.to_pylist() if encoded.num_chunks else []
    out = _split_stream([c.indices.to_numpy(zero_copy_only=False) for c in encoded.chunks], [len(v) for v in plain])
    return out, dictionary


def _int_encode(arrays: list[np.ndarray]) -> tuple[list[np.ndarray], int, list[Any]] | None:
    """Raw codes for integer columns in a small range, or None to fall back to hashing."""
    nonempty = [a for a in arrays if a.size]
    if not nonempty:
        return [a.astype(np.intp) for a in arrays], 0, []
    if all(a.dtype == np.int64 for a in arrays):
        # Fast path: one pass per column. The maximum over the unsigned view is
        # < 2**63 exactly when every value is non-negative, and then it is the
        # true maximum; labels 0..K-1 then need no offset and no copy.
        umax = max(int(a.view(np.uint64).max()) for a in nonempty)
        if umax < _DIRECT_RANGE:
            return arrays, umax + 1, list(range(umax + 1))
    lo = min(int(a.min()) for a in nonempty)
    hi = max(int(a.max()) for a in nonempty)
    span = hi - lo + 1
    if span <= _DIRECT_RANGE:
        if lo == 0 and all(a.dtype.kind in "iu" and a.dtype.itemsize <= 8 for a in arrays):
            codes = arrays
        else:
            codes = [_offset(a, lo) for a in arrays]
        return codes, span, list(range(lo, hi + 1))
    if span <= _LOOKUP_RANGE:
        present = np.zeros(span, dtype=bool)
        for a in nonempty:
            present |= np.bincount(_offset(a, lo), minlength=span) > 0
        values = np.flatnonzero(present)
        lookup = np.full(span, -1, dtype=np.int32)
        lookup[values] = np.arange(values.size, dtype=np.int32)
        codes = [lookup[_offset(a, lo)] for a in arrays]
        return codes, int(values.size), [lo + v for v in values.tolist()]
    return None


def _offset(a: np.ndarray, lo: int) -> np.ndarray:
    """``a - lo`` as int64, for values within 2**63 of ``lo`` (uint64 values beyond int64 included)."""
    if a.dtype == np.uint64 and lo >= 0:
        return (a - np.uint64(lo)).astype(np.int64)
    return a.astype(np.int64, copy=False) - lo


def encode_labels(columns: Sequence[Any], names: Sequence[str]) -> tuple[list[np.ndarray], int, list[Any]]:
    """Encode several label columns against one vocabulary.

    Returns the raw codes of each column, the size of the raw code space, and
    the label value of each raw code (``None`` never occurs: missing labels are
    refused). Used for (gold, pred) and for (gold, pred_a, pred_b).
    """
    arrs = [_to_arrow(c, n) for c, n in zip(columns, names, strict=True)]
    kinds = [_kind(a) for a in arrs]
    lengths = [len(a) for a in arrs]
    if len(set(lengths)) > 1:
        detail = ", ".join(f"{n} has {m}" for n, m in zip(names, lengths, strict=True))
        raise DataError(f"every label column must have one entry per item; {detail}.")
    from clfeval.core._labelforms import check_missing, refuse_blank

    for a, n in zip(arrs, names, strict=True):
        check_missing(a, n)
    kinds_present = {k for k, m in zip(kinds, lengths, strict=True) if k != "null" and m}
    if kinds_present == {"integer", "float"}:  # 1 and 1.0 are one label; 1.5 beside integers stays refused
        from clfeval.core._labelforms import unify_numbers
        unified = unify_numbers(arrs)
        arrs, kinds_present = (unified, {"integer"}) if pa.types.is_integer(unified[0].type) else (arrs, kinds_present)
    if len(kinds_present) > 1:
        detail = ", ".join(f"{n} holds {k} labels" for n, k in zip(names, kinds, strict=True))
        raise DataError(
            f"labels must be of one kind to be compared: {detail}. Convert them to one type "
            f"(for example read every column as text) so that equal labels compare equal."
        )
    kind = next(iter(kinds_present), "integer")
    if kind in {"integer", "boolean"} and not any(pa.types.is_dictionary(a.type) for a in arrs):
        nps = [_numpy_of(a) for a in arrs]
        if kind == "boolean":
            nps = [x.astype(np.int8) for x in nps]
        got = _int_encode(nps)
        if got is not None:
            codes, r, raw = got
            if kind == "boolean":
                raw = [bool(v) for v in raw]
            return codes, r, raw
    if kind not in {"integer", "boolean", "float", "string"}:
        raise DataError(f"labels of type {kind} are not supported; use strings, integers or booleans.")
    codes, dictionary = _hash_encode(arrs)
    blank = [i for i, v in enumerate(dictionary) if isinstance(v, str) and not v.strip()]
    if blank:
        refuse_blank(codes, names, blank)
    return codes, len(dictionary), dictionary


def encode_pair(gold: Any, pred: Any, *, labels: Sequence[Any] | None = None,
                names: tuple[str, str] = ("gold", "pred")) -> EncodedPair:
    """Encode gold and predicted labels against one shared vocabulary.

    Parameters
    ----------
    gold, pred : sequence of labels
        Lists, numpy arrays or pyarrow arrays of strings, integers or booleans
        (of one kind), one label per item, no missing values.
    labels : sequence, optional
        Output labels in output order. By default the labels found in either
        column, in natural order.

    Returns
    -------
    EncodedPair

    Examples
    --------
    >>> enc = encode_pair(["b", "a", "b"], ["b", "b", "c"])
    >>> enc.labels
    ('a', 'b', 'c')
    >>> enc.confusion_counts().tolist()
    [[0, 1, 0], [0, 1, 1], [0, 0, 0]]
    """
    (g, p), r, raw = encode_labels([gold, pred], names)
    return _finish(g, p, r, raw, labels)


def _finish(g: np.ndarray, p: np.ndarray, r: int, raw: list[Any], labels: Sequence[Any] | None) -> EncodedPair:
    enc = EncodedPair(g, p, r, tuple(raw))
    return enc if labels is None else enc.with_labels(list(labels))


# ----------------------------------------------------------------------------
# Multi-label
# ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class EncodedMultilabel:
    """Gold and predicted label sets as boolean indicator matrices (n, L)."""

    gold: np.ndarray
    pred: np.ndarray
    labels: tuple[Any, ...]
    @property
    def n(self) -> int:
        return int(self.gold.shape[0])


def split_sets(values: Any, name: str, sep: str) -> pa.ListArray | pa.ChunkedArray:
    if not isinstance(sep, str) or sep == "":
        raise UsageError(f"the separator of labels within a multi-label cell must be a non-empty string; got {sep!r}.")
    if isinstance(values, np.ndarray) and values.ndim == 2:
        raise DataError(f"{name}: pass indicator matrices through clfeval.core.MultilabelTable.from_indicators, "
                        "or label sets as lists.")
    arr = values if isinstance(values, (pa.Array, pa.ChunkedArray)) else None
    if arr is None:
        check_sequence(values, name, "label sets")
        seq = list(values)
        if all(isinstance(v, str) or v is None for v in seq):  # also no items at all (an empty batch)
            arr = pa.array(seq, type=pa.string())
        else:
            try:
                # a string among list-like items is still one separated set, not its characters
                arr = pa.array([None if v is None else (v.split(sep) if isinstance(v, str) else list(v)) for v in seq])
            except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError) as exc:
                raise DataError(f"{name}: every item must be a set of labels (a list, or a string separated by "
                                f"{sep!r}); ({exc})") from None
    if isinstance(arr, pa.ChunkedArray):
        arr = pa.concat_arrays(arr.chunks) if arr.num_chunks else pa.array([], type=arr.type)
    if pa.types.is_dictionary(arr.type):
        arr = arr.cast(arr.type.value_type)
    if pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type):
        arr = pc.split_pattern(pc.fill_null(arr, ""), sep)
    if not (pa.types.is_list(arr.type) or pa.types.is_large_list(arr.type)):
        raise DataError(f"{name}: multi-label items must be label sets (strings separated by {sep!r}, or lists); got "
                        f"values of type {arr.type}.")
    return arr


def flatten_sets(lists: pa.ListArray) -> tuple[np.ndarray, pa.Array]:
    """(row index of each element, element values), empty and blank elements dropped."""
    lists = pc.fill_null(lists, pa.scalar([], type=lists.type)) if lists.null_count else lists
    lengths = pc.list_value_length(lists).to_numpy(zero_copy_only=False).astype(np.int64)
    flat = pc.list_flatten(lists)
    rows = np.repeat(np.arange(len(lists), dtype=np.int64), lengths)
    if pa.types.is_string(flat.type) or pa.types.is_large_string(flat.type):
        flat = pc.utf8_trim_whitespace(flat)
        keep = pc.not_equal(flat, "")
        keep = pc.fill_null(keep, False)
        keep_np = keep.to_numpy(zero_copy_only=False)
        flat = flat.filter(keep)
        rows = rows[keep_np]
    elif flat.null_count:
        keep = pc.is_valid(flat)
        rows = rows[keep.to_numpy(zero_copy_only=False)]
        flat = flat.filter(keep)
    return rows, flat


def encode_multilabel(gold: Any, pred: Any, *, labels: Sequence[Any] | None = None, sep: str = "|",
                      names: tuple[str, str] = ("gold", "pred")) -> EncodedMultilabel:
    """Encode gold and predicted label *sets* as indicator matrices over one vocabulary.

    Each item is a set of labels: a list/tuple/set, or a string with labels
    separated by ``sep``; an empty string, empty list or missing value is the
    empty set. Repeated labels within an item count once.

    >>> enc = encode_multilabel(["a|b", "", "c"], [["a"], ["c"], []])
    >>> enc.labels
    ('a', 'b', 'c')
    >>> enc.gold.astype(int).tolist()
    [[1, 1, 0], [0, 0, 0], [0, 0, 1]]
    """
    lists = [split_sets(v, n, sep) for v, n in zip((gold, pred), names, strict=False)]
    if len(lists[0]) != len(lists[1]):
        raise DataError(f"{names[0]} has {len(lists[0])} items and {names[1]} has {len(lists[1])}; they must match one "
                        "to one.")
    flat = [flatten_sets(x) for x in lists]
    kinds = {_kind(f[1]) for f in flat if len(f[1])}
    if len(kinds) > 1:
        raise DataError(f"{names[0]} and {names[1]} hold labels of different kinds ({', '.join(sorted(kinds))}); "
                        "convert them to one type.")
    # A column whose sets are all empty has no label values (and may be typed null, e.g.
    # from [[]]): give it the other column's type so that both encode against one dictionary.
    typed = [f[1].type for f in flat if len(f[1])]
    if typed:
        flat = [(rows, vals if len(vals) else pa.array([], type=typed[0])) for rows, vals in flat]
    codes, dictionary = _hash_encode([f[1] for f in flat]) if any(len(f[1]) for f in flat) else \
        ([np.empty(0, np.int32)] * 2, [])
    order = sort_labels(dictionary)
    if labels is not None:
        order_t, index = resolve_requested(list(labels), dictionary, np.ones(len(dictionary), dtype=bool))
        order = list(order_t)
        raw_to_out = np.full(len(dictionary) + 1, -1, dtype=np.intp)
        raw_to_out[index] = np.arange(len(order))
        raw_to_out[-1] = -1
    else:
        rank = {x: i for i, x in enumerate(order)}
        raw_to_out = np.array([rank[x] for x in dictionary] + [-1], dtype=np.intp)
    n = len(lists[0])
    if n * len(order) > MAX_INDICATOR_CELLS:
        raise DataError(
            f"{n:,} items × {len(order):,} distinct labels: multi-label data are held as item × label indicator "
            f"matrices, and clfeval holds at most {MAX_INDICATOR_CELLS:,} cells (to stay within its 1 GiB memory "
            f"budget). Check that the label column and --sep are right; sparse tables are not supported yet.")
    mats = []
    for (rows, _), c in zip(flat, codes, strict=True):
        m = np.zeros((n, len(order)), dtype=bool)
        if rows.size:
            m[rows, raw_to_out[c]] = True
        mats.append(m)
    return EncodedMultilabel(mats[0], mats[1], tuple(order))
