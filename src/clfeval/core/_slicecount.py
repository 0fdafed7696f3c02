"""Count tables by slice: the slice key is one more column of the count key.

A slice is a value of a ``by`` column (or a combination of values of several columns, or a bin of a numeric
column). :class:`SliceCounter` counts (slice, gold, pred) cells batch by batch over the label codes a
:class:`~clfeval.core._counting.Counter` already gave the batch (one encoding of the labels, one extra bincount),
for **several column sets in one pass** (``[("source",), ("lang",), ("source", "lang")]``), so that a search
over column crosses reads the data once. :class:`SliceTables` is the result for one column set: one K×K table
per slice, in the report's label order; two of them add (as count tables do), so partitions counted apart
(Dask, shards) sum to the tables of the whole input, and the slices of a set sum to the overall table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core._labels import label_str
from clfeval.core._slicebins import MISSING, SliceBinning, slice_order
from clfeval.core._tables import ConfusionTable, embed, union_labels
from clfeval.errors import DataError, UsageError

__all__ = ["check_slicing", "SliceTables", "SliceCounter", "small_ints", "MAX_SLICES", "column_sets", "sample_keys",
           "slice_column"]

#: Slices (value combinations of the ``by`` columns together) counted at most unless ``max_slices`` says more.
MAX_SLICES = 1_000
#: Cells (slices × classes × classes) of one column set's tables held at most (int64: 128 MB).
MAX_CELLS = 1 << 24
_BITS = 20


def check_slicing(option: str, verb: str, *, multilabel: bool, scored: bool, threshold: Any,
                  show_errors: int) -> None:
    """What slicing (``by``, ``find_slices``: ``option``; ``verb`` "slices" or "searches") cannot be combined with:
    label sets, scores and thresholds (per-slice rankings are not built yet), ``show_errors``."""
    if multilabel:
        raise UsageError(lambda o: f"option {o} {verb} single-label reports; multi-label slices are not built yet.",
                         params=[option])
    if scored or threshold is not None:
        raise UsageError(lambda o: f"option {o} {verb} the count tables of predictions; leave out the score "
                                   f"columns and the threshold (per-slice rankings are not built yet).",
                         params=[option])
    if show_errors:
        raise UsageError(lambda o, e: f"option {o} cannot be combined with {e}.", params=[option, "show_errors"])


def column_sets(by: Any) -> list[tuple[str, ...]]:
    """``by`` as column sets: ``"a"`` or ``"a,b"`` (one set), a sequence of names (one set), or a sequence of
    sequences (several sets, counted in one pass).

    >>> column_sets("source,lang"), column_sets(["a"]), column_sets([["a"], ["a", "b"]])
    ([('source', 'lang')], [('a',)], [('a',), ('a', 'b')])
    """
    if isinstance(by, str):
        names = tuple(x.strip() for x in by.split(","))
        sets = [names]
    elif by and all(isinstance(x, str) for x in by):
        sets = [tuple(by)]
    else:
        sets = [tuple(s) if not isinstance(s, str) else (s,) for s in by]
    for s in sets:
        if not s or any(not isinstance(x, str) or not x for x in s):
            raise UsageError(lambda o: f"option {o} takes column names separated by commas (COLUMN[,COLUMN...]); "
                                       f"got {by!r}.", params=["by"])
        if len(set(s)) != len(s):
            raise UsageError(lambda o, s=s: f"option {o} names a column twice: {', '.join(s)}.", params=["by"])
        if len(s) > 3:
            raise UsageError(lambda o, s=s: f"option {o} crosses at most three columns; got {len(s)} ({', '.join(s)}).",
                             params=["by"])
    return sets


def sample_keys(start: int, n: int) -> np.ndarray:
    """A fixed pseudo-random key of each row position ``start .. start+n-1`` (splitmix64): the rows with the
    smallest keys are the sample whatever the batch boundaries (in memory, streamed and on Dask alike)."""
    with np.errstate(over="ignore"):
        z = np.arange(start, start + n, dtype=np.uint64) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def slice_column(values: Any, name: str) -> Any:
    """One slice column (``by``, ``find_slices``) as a pyarrow array, with THE rule for a missing value: a null
    (a Parquet or polars null, a pandas NA, a categorical NaN), a float NaN and an empty text (a CSV's empty
    cell) are all missing -- null here, the slice :data:`MISSING` once coded. Every path that codes slice values
    (arrays and tables in memory, a PATH streamed, Dask partitions, the binning pass) reads them through this.

    >>> slice_column(["x", ""], "s").to_pylist(), slice_column([float("nan"), 1.0], "s").to_pylist()
    (['x', None], [None, 1.0])
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
    if not isinstance(values, pa.Array):
        values = pa.array(np.asarray(values).tolist() if isinstance(values, np.ndarray) else list(values))
    t = values.type
    if pa.types.is_nested(t):
        raise DataError(lambda o: f"column {name!r} (option {o}) holds nested values ({t}); a slice is one plain "
                                  f"value (text, number, boolean, date) per row.", params=["by"])
    if pa.types.is_dictionary(t):
        values = values.dictionary_decode()
        t = values.type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        missing = pc.equal(values, "")
    elif pa.types.is_floating(t):
        missing = pc.is_nan(values)
    else:
        return values
    if missing.true_count:
        values = pc.if_else(missing, pa.scalar(None, t), values)
    return values


class _ColumnVocab:
    """The values of one ``by`` column seen so far, each with a code (nulls: one code, shown as MISSING)."""

    def __init__(self, name: str, binning: SliceBinning | None) -> None:
        self.name, self.binning = name, binning
        self.values: list[Any] = list(binning.labels()) if binning is not None else []
        self.index: dict[Any, int] = {v: i for i, v in enumerate(self.values)}
        self.nonnull = 0

    def _code(self, value: Any) -> int:
        code = self.index.get(value)
        if code is None:
            code = self.index[value] = len(self.values)
            self.values.append(value)
        return code

    def codes(self, column: Any) -> np.ndarray:
        import pyarrow as pa
        import pyarrow.compute as pc

        arr = slice_column(column, self.name)
        self.nonnull += len(arr) - arr.null_count
        if self.binning is not None:
            try:
                x = arr.cast(pa.float64()).to_numpy(zero_copy_only=False)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                raise DataError(lambda o: f"column {self.name!r} holds {arr.type} values that are no numbers; option "
                                          f"{o} bins numeric columns only.", params=["by_bins"]) from None
            idx = self.binning.codes(np.asarray(x, dtype=np.float64))
            if (idx < 0).any():
                idx = np.where(idx < 0, self._code(MISSING), idx)
            return idx.astype(np.int64)
        if pa.types.is_integer(arr.type) and not arr.null_count and len(arr) and not pa.types.is_uint64(arr.type):
            x = arr.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
            lo, hi = int(x.min()), int(x.max())
            if hi - lo < 4 * x.size + 1024:  # a narrow range of integers: one bincount instead of a hash
                shifted = x - lo if lo else x
                present = np.flatnonzero(np.bincount(shifted))
                lut = np.zeros(present[-1] + 1, dtype=np.int64)
                lut[present] = [self._code(lo + int(v)) for v in present.tolist()]
                ret: np.ndarray = lut[shifted]
                return ret
        enc = pc.dictionary_encode(arr)
        dvalues = enc.dictionary.to_pylist()
        lut = np.array([self._code(v) for v in dvalues] + [self._code(MISSING) if enc.null_count else 0],
                       dtype=np.int64)
        ind = enc.indices.fill_null(len(dvalues)) if enc.null_count else enc.indices
        ret = lut[ind.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)]
        return ret


class _SetCounts:
    """The (slice, gold, pred) counts of one column set, codes in the counter's label vocabulary."""

    def __init__(self, columns: tuple[str, ...], max_slices: int) -> None:
        self.columns, self.max_slices = columns, max_slices
        self.keys: dict[int, int] = {}
        self.key_list: list[int] = []
        self.dense = np.zeros((0, 0, 0), dtype=np.int64)

    def _slice_codes(self, codes: list[np.ndarray]) -> np.ndarray:
        if len(codes) > 1 and codes[0].size:
            dense = self._dense_cross(codes)
            if dense is not None:
                return dense
        key = codes[0]
        for c in codes[1:]:
            key = key << _BITS | c
        if len(codes) == 1 and key.size and int(key.max()) < 4 * key.size + 1024:
            present = np.flatnonzero(np.bincount(key))
        else:
            present, inverse = np.unique(key, return_inverse=True)
            lut = np.array([self._add_key(int(x)) for x in present.tolist()], dtype=np.int64)
            return lut[inverse.reshape(-1)]
        lut = np.zeros(int(present[-1]) + 1 if present.size else 1, dtype=np.int64)
        lut[present] = [self._add_key(int(x)) for x in present.tolist()]
        ret: np.ndarray = lut[key]
        return ret

    def _dense_cross(self, codes: list[np.ndarray]) -> np.ndarray | None:
        """A cross of columns with few values: its slice codes from one bincount over the mixed-radix code of the
        column codes (no sort), the slices added in the order of their keys, as the general path adds them."""
        widths = [int(c.max()) + 1 for c in codes]
        if math.prod(widths) >= 4 * codes[0].size + 1024:
            return None
        dense = codes[0].astype(np.int64, copy=True)
        for c, w in zip(codes[1:], widths[1:], strict=False):
            dense *= w
            dense += c
        present = np.flatnonzero(np.bincount(dense))
        digits = np.unravel_index(present, widths)
        keys = digits[0].astype(np.int64)
        for d in digits[1:]:
            keys = keys << _BITS | d.astype(np.int64)
        lut = np.zeros(int(present[-1]) + 1, dtype=np.int64)
        lut[present] = [self._add_key(int(x)) for x in keys.tolist()]
        return lut[dense]

    def _add_key(self, key: int) -> int:
        code = self.keys.get(key)
        if code is None:
            if len(self.key_list) >= self.max_slices:
                raise UsageError(lambda o, b: (
                    f"the {'combinations of the ' if len(self.columns) > 1 else ''}values of {', '.join(self.columns)} "
                    f"(option {b}) make more than {self.max_slices:,} slices (option {o}); slice by fewer columns, "
                    f"bin a numeric column (--by-bins N), or raise {o}."), params=["max_slices", "by"])
            code = self.keys[key] = len(self.key_list)
            self.key_list.append(key)
        return code

    def add(self, codes: list[np.ndarray], g: np.ndarray, p: np.ndarray, k: int,
            weights: np.ndarray | None = None) -> None:
        s = self._slice_codes(codes)
        n_s = len(self.key_list)
        self._reserve(n_s, k)
        if not s.size:
            return
        cap_k = self.dense.shape[1]
        cells = n_s * cap_k * cap_k
        key = (s * cap_k + g) * cap_k + p
        flat = self.dense.reshape(-1)
        if weights is not None:
            np.add.at(flat, key, weights)
        elif cells <= 4 * s.size:
            flat[:cells] += np.bincount(key, minlength=cells)
        else:
            uniq, cnt = np.unique(key, return_counts=True)
            flat[uniq] += cnt

    def add_block(self, slices: np.ndarray, labels: np.ndarray, block: np.ndarray, k: int) -> None:
        """Add a block of counts (distinct slice codes × distinct label codes × the same label codes)."""
        self._reserve(len(self.key_list), k)
        self.dense[np.ix_(slices, labels, labels)] += block

    def _reserve(self, n_s: int, k: int) -> None:
        if n_s * k * k > MAX_CELLS:
            raise UsageError(lambda b: f"{n_s:,} slices × {k:,} classes × {k:,} classes are more cells than slice "
                                       f"tables hold ({MAX_CELLS:,}); slice by fewer values (option {b}).",
                             params=["by"])
        if self.dense.shape[0] < n_s or self.dense.shape[1] < k:
            cap_s = max(n_s, 2 * self.dense.shape[0], 8)
            cap_k = max(k, self.dense.shape[1])
            cap_s = min(cap_s, max(n_s, MAX_CELLS // max(cap_k * cap_k, 1)))
            grown = np.zeros((cap_s, cap_k, cap_k), dtype=np.int64)
            a, b = self.dense.shape[0], self.dense.shape[1]
            grown[:a, :b, :b] = self.dense
            self.dense = grown

    def recode(self, new_codes: np.ndarray, k: int) -> None:
        old = self.dense
        ks = old.shape[1]
        out = np.zeros((old.shape[0], max(k, ks), max(k, ks)), dtype=np.int64)
        idx = np.asarray(new_codes, dtype=np.int64)
        for a in range(min(ks, idx.size)):
            for b in range(min(ks, idx.size)):
                out[:, idx[a], idx[b]] += old[:, a, b]
        self.dense = out


def small_ints(columns: Sequence[Any]) -> list[np.ndarray] | None:
    """The columns as numpy int64 arrays when each is one Arrow integer array without nulls (not uint64); else
    None."""
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
        data = np.frombuffer(c.buffers()[1], dtype=np.dtype(str(c.type)))[c.offset:c.offset + len(c)]
        out.append(data.astype(np.int64, copy=False))
    return out


def _below(x: np.ndarray, n: int) -> bool:
    """Every value of int64 ``x`` is in ``[0, n)`` (one pass: a negative value read unsigned is huge)."""
    return not x.size or int(x.view(np.uint64).max()) < n


def _checked(counts: np.ndarray | None) -> np.ndarray:
    assert counts is not None  # unchecked counts are always made
    return counts


#: Rows whose joint keys are built at a time (the keys stay in the cache).
JOINT_CHUNK = 1 << 16


def joint_counts(x: np.ndarray, g: np.ndarray, p: np.ndarray, ws: int, w: int, x0: int = 0, l0: int = 0, *,
                 check: bool = False) -> np.ndarray | None:
    """The counts of (x − x0, g − l0, p − l0) over ``ws × w × w`` cells, every value in range: the caller checks,
    or ``check=True`` (no offsets) checks each chunk while it is in the cache and returns None when a value is out
    of range (an unsigned maximum per column: a negative value reads as a huge one).

    The key of a row, ((x·w + g)·w + p) less the offsets, is built :data:`JOINT_CHUNK` rows at a time in one
    buffer (no array of the batch's size is made for a small table); each chunk counted by one ``bincount``.

    >>> joint_counts(np.array([0, 1, 1]), np.array([0, 1, 1]), np.array([1, 1, 0]), 2, 2).tolist()
    [[[0, 1], [0, 0]], [[0, 0], [1, 1]]]
    >>> joint_counts(np.array([0, 2]), np.array([0, 1]), np.array([1, 1]), 2, 2, check=True) is None
    True
    """
    cells = ws * w * w
    m = x.size
    shift = (x0 * w + l0) * w + l0
    out = np.zeros(cells, dtype=np.int64)
    whole = cells > JOINT_CHUNK // 4  # a large table: one key array and one bincount
    step = m if whole else JOINT_CHUNK
    buf = np.empty(min(step, m), dtype=np.intp)
    for a in range(0, m, step):
        b = min(a + step, m)
        k = buf[:b - a]
        xs, gs, ps = x[a:b], g[a:b], p[a:b]
        np.multiply(xs, w, out=k)
        k += gs
        k *= w
        k += ps
        if check and not (_below(xs, ws) and _below(gs, w) and _below(ps, w)):
            return None
        if shift:
            k -= shift
        out += np.bincount(k, minlength=cells)
    return out.reshape(ws, w, w)


class SliceCounter:
    """Slice counts of several column sets, fed the label codes of each batch (see the module docstring).

    Parameters
    ----------
    sets : sequence of tuples of column names
    max_slices : int
        Slices of one set counted at most: one more is refused with a sentence as soon as it appears.
    binning : mapping column → :class:`SliceBinning`
        Numeric columns cut into bins.
    """

    def __init__(self, sets: Sequence[tuple[str, ...]], *, max_slices: int = MAX_SLICES,
                 binning: Mapping[str, SliceBinning] | None = None) -> None:
        self.sets = [tuple(s) for s in sets]
        self.columns = list(dict.fromkeys(c for s in self.sets for c in s))
        binning = dict(binning or {})
        self.vocabs = {c: _ColumnVocab(c, binning.get(c)) for c in self.columns}
        self.counts = [_SetCounts(s, max_slices) for s in self.sets]
        self._lookup: dict[str, tuple[int, np.ndarray]] = {}
        self._dims: dict[str, tuple[int, int]] = {}
        self.n = 0

    def update(self, columns: Mapping[str, Any], gold_codes: np.ndarray, pred_codes: np.ndarray, k: int) -> None:
        """Count one batch: its ``by`` columns (name → values) and the label codes of its rows (``k`` labels)."""
        codes = {c: self.vocabs[c].codes(columns[c]) for c in self.columns}
        for c, x in codes.items():
            if x.size != gold_codes.size:
                raise DataError(f"column {c!r} has {x.size:,} values for {gold_codes.size:,} items.")
        g = np.asarray(gold_codes, dtype=np.int64)
        p = np.asarray(pred_codes, dtype=np.int64)
        for s, counts in zip(self.sets, self.counts, strict=True):
            counts.add([codes[c] for c in s], g, p, k)
        self.n += int(g.size)

    def update_fused(self, counter: Any, gold: Any, pred: Any, columns: Mapping[str, Any]
                     ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray] | None:
        """Count a batch of small integer labels and one integer slice column in one bincount over
        (slice, gold, pred), adding the (gold, pred) sums to ``counter`` (a
        :class:`~clfeval.core._counting.Counter`, whose vocabulary receives the labels as Python integers, as its
        own integer path gives them). Returns the labels as :meth:`Counter.update_ints
        <clfeval.core._counting.Counter.update_ints>` gives them (gold and pred as integer arrays, ``lo``, ``lut``);
        None (nothing counted) when the batch is not of that kind."""
        if len(self.sets) != 1 or len(self.sets[0]) != 1 or counter.vocab.text or counter.dense is None:
            return None
        col = self.sets[0][0]
        if self.vocabs[col].binning is not None:
            return None
        ints = small_ints([gold, pred, columns[col]])
        if ints is None or ints[0].size == 0:
            return None
        g, p, x = ints
        m = g.size
        got = self._fused_cells(col, g, p, x)
        if got is None:
            return None
        cells, lo, lo_s = got
        ws, w = cells.shape[0], cells.shape[1]
        gp = cells.sum(axis=0)
        used = np.flatnonzero((gp.sum(axis=0) > 0) | (gp.sum(axis=1) > 0))
        codes = np.asarray(counter.vocab.codes([lo + int(v) for v in used.tolist()]), dtype=np.int64)
        if len(counter.vocab) > counter.limit:
            raise ValueError("the label vocabulary grew past a dense table")  # caught: the general path
        sub = gp[np.ix_(used, used)]
        gi, pi = np.nonzero(sub)
        counter.add_codes([codes[gi], codes[pi]], sub[gi, pi])
        present = np.flatnonzero(cells.reshape(ws, -1).any(axis=1))
        slice_codes = self._int_slices(col, lo_s + present)
        self.vocabs[col].nonnull += m
        self.counts[0].add_block(slice_codes, codes, cells[np.ix_(present, used, used)], len(counter.vocab))
        self.n += m
        lut = np.full(w, -1, dtype=np.int64)
        lut[used] = codes
        return g, p, lo, lut

    def _fused_cells(self, col: str, g: np.ndarray, p: np.ndarray, x: np.ndarray
                     ) -> tuple[np.ndarray, int, int] | None:
        """The (slice, gold, pred) counts of a batch (int64 columns) as a dense (slices × labels × labels) array,
        with the label offset and the slice offset (0, 0 when the values fit the sizes of an earlier batch);
        None when the values span too many cells.

        Values that fit the sizes of an earlier batch (checked chunk by chunk as they are counted) are counted
        without measuring their ranges; else the ranges are measured and the counts built from offsets."""
        m = g.size
        dims = self._dims.get(col)
        if dims is not None:
            known = joint_counts(x, g, p, dims[0], dims[1], check=True)
            if known is not None:
                return known, 0, 0
        lo = min(int(g.min()), int(p.min()))
        hi = max(int(g.max()), int(p.max()))
        lo_s, hi_s = int(x.min()), int(x.max())
        limit = max(4 * m, 1 << 16)
        if lo >= 0 and lo_s >= 0 and (hi_s + 1) * (hi + 1) ** 2 <= limit:
            ws, w = max(hi_s + 1, dims[0] if dims else 0), max(hi + 1, dims[1] if dims else 0)
            if ws * w * w <= limit:
                self._dims[col] = (ws, w)
                return _checked(joint_counts(x, g, p, ws, w)), 0, 0
        w, ws = hi - lo + 1, hi_s - lo_s + 1
        if ws * w * w > limit:
            return None
        return _checked(joint_counts(x, g, p, ws, w, lo_s, lo)), lo, lo_s

    def _int_slices(self, col: str, values: np.ndarray) -> np.ndarray:
        """Slice codes of integer values of a one-column set, through a lookup array kept between batches."""
        base, table = self._lookup.get(col, (int(values.min()), np.full(0, -1, dtype=np.int64)))
        lo, hi = int(values.min()), int(values.max())
        if lo < base or hi - base >= table.size:
            new_base = min(base, lo)
            grown = np.full(max(hi, base + table.size - 1) - new_base + 1, -1, dtype=np.int64)
            grown[base - new_base:base - new_base + table.size] = table
            base, table = new_base, grown
        out = table[values - base]
        for i in np.flatnonzero(out < 0).tolist():
            v = int(values[i])
            code = self.counts[0]._add_key(self.vocabs[col]._code(v))
            table[v - base] = out[i] = code
        self._lookup[col] = (base, table)
        ret: np.ndarray = out
        return ret

    def slice_codes(self, columns: Mapping[str, Any], index: int = 0) -> np.ndarray:
        """The slice code of every row of ``columns`` in column set ``index`` (no counts added)."""
        s = self.sets[index]
        return self.counts[index]._slice_codes([self.vocabs[c].codes(columns[c]) for c in s])

    def keys(self, index: int = 0) -> list[tuple[Any, ...]]:
        """The value tuple of every slice code of column set ``index``."""
        s = self.sets[index]
        out = []
        for key in self.counts[index].key_list:
            parts = [(key >> (_BITS * (len(s) - 1 - i))) & ((1 << _BITS) - 1) for i in range(len(s))]
            out.append(tuple(self.vocabs[c].values[j] for c, j in zip(s, parts, strict=False)))
        return out

    def recode(self, new_codes: np.ndarray, k: int) -> None:
        """The label vocabulary became text: move every count to its label's new code."""
        for counts in self.counts:
            counts.recode(new_codes, k)

    def tables(self, labels: tuple[Any, ...], where: np.ndarray) -> list[SliceTables]:
        """The slice tables of every column set, in the label order ``labels`` (``where``: output index of each
        label code, as :meth:`clfeval.core._counting.Counter.order` gives it)."""
        out = []
        k_out = len(labels)
        for index, (s, counts) in enumerate(zip(self.sets, self.counts, strict=True)):
            n_s = len(counts.key_list)
            dense = counts.dense[:n_s]
            k_in = min(dense.shape[1], where.size)
            table = np.zeros((n_s, k_out, k_out), dtype=np.int64)
            w = where[:k_in]
            for a in range(k_in):
                table[:, w[a], w[:k_in]] += dense[:, a, :k_in]
            keys = self.keys(index)
            binning = {c: b.to_dict() for c in s if (b := self.vocabs[c].binning) is not None}
            out.append(SliceTables(s, tuple(keys), tuple(labels), table, binning).sorted())
        return out


@dataclass(frozen=True)
class SliceTables:
    """One K×K confusion table per slice of one column set; tables of the same set add.

    ``keys[i]`` is the slice's value tuple (one value per column; bins as ``"[a, b)"``; nulls as
    :data:`MISSING`), ``counts[i]`` its table (rows gold, columns predicted, in ``labels`` order).

    >>> a = SliceTables(("g",), (("x",), ("y",)), ("0", "1"), np.array([[[1, 0], [0, 1]], [[0, 1], [0, 0]]]))
    >>> b = SliceTables(("g",), (("y",),), ("0", "1"), np.array([[[2, 0], [0, 0]]]))
    >>> s = a + b; s.keys, s.sizes.tolist(), s.total().counts.tolist()
    ((('x',), ('y',)), [2, 3], [[3, 1], [0, 1]])
    """

    columns: tuple[str, ...]
    keys: tuple[tuple[Any, ...], ...]
    labels: tuple[Any, ...]
    counts: np.ndarray
    binning: Mapping[str, Any] | None = None

    @property
    def sizes(self) -> np.ndarray:
        ret: np.ndarray = self.counts.sum(axis=(1, 2))
        return ret

    def names(self) -> list[str]:
        """Each slice named ``value`` (one column) or ``a=x, b=y`` (several)."""
        if len(self.columns) == 1:
            return [label_str(k[0]) for k in self.keys]
        return [", ".join(f"{c}={label_str(v)}" for c, v in zip(self.columns, k, strict=False)) for k in self.keys]

    def table(self, i: int) -> ConfusionTable:
        return ConfusionTable(self.counts[i], self.labels)

    def total(self) -> ConfusionTable:
        return ConfusionTable(self.counts.sum(axis=0), self.labels)

    def sorted(self) -> SliceTables:
        order = slice_order(self.keys, self.columns, self.binning)
        return SliceTables(self.columns, tuple(self.keys[i] for i in order), self.labels,
                           self.counts[order] if order else self.counts, self.binning)

    def check_values(self) -> None:
        """A ``by`` column null in every row is refused."""
        for j, c in enumerate(self.columns):
            if self.keys and all(k[j] == MISSING for k in self.keys):
                raise DataError(lambda o, c=c: f"column {c!r} (option {o}) is null in every row: there is nothing to "
                                          f"slice by.", params=["by"])

    def check_adds_up(self, overall: Any) -> None:
        """The slices of the set sum to ``overall`` (a confusion table of the same items), cell for cell."""
        total = self.total()
        dense = getattr(overall, "counts", None)
        same = dense is not None and tuple(overall.labels) == total.labels and np.array_equal(dense, total.counts)
        if not same:
            raise AssertionError(f"the slice tables of {', '.join(self.columns)} do not add up to the overall table "
                                 f"({total.n:,} items in the slices, {getattr(overall, 'n', '?')} overall).")

    def __add__(self, other: SliceTables) -> SliceTables:
        if not isinstance(other, SliceTables):
            return NotImplemented
        if other.columns != self.columns:
            raise ValueError("slice tables of different column sets do not add")
        labels = union_labels(self.labels, other.labels)
        keys = list(self.keys) + [k for k in other.keys if k not in set(self.keys)]
        pos = {k: i for i, k in enumerate(keys)}
        out = np.zeros((len(keys), len(labels), len(labels)), dtype=np.int64)
        for t in (self, other):
            moved = np.stack([embed(c, t.labels, labels, 2) for c in t.counts]) if len(t.keys) else None
            if moved is not None:
                out[[pos[k] for k in t.keys]] += moved
        return SliceTables(self.columns, tuple(keys), labels, out, self.binning or other.binning).sorted()


#: The coding of one slice column's values, shared with the slice search's counter
#: (:mod:`clfeval.core._latticecount`).
ColumnVocab = _ColumnVocab
