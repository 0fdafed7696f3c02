"""One pass over the items: the overall confusion table and one table per slice of every column set.

:func:`count_batch` counts one batch (:func:`count_sliced` a sequence of them; the accumulator
:class:`~clfeval.slicing._slicedcounts.SlicedCounts` each batch the engine hands it) with one
:class:`~clfeval.core._counting.Counter` — the same table the plain report counts — and one
:class:`~clfeval.core._slicecount.SliceCounter` fed the label codes the counter gave each batch: the slice key is
one more column of the count key, so the slices cost one more bincount, not another pass. Labels that are small
integers (the common case of a large file) take a faster path: their codes are not made -- one ``bincount`` over
(slice, gold, pred) counts the overall table and the slices of one integer ``by`` column at once, and the slice
search reads the labels themselves. The slices of every column set are checked to add up to the overall table
(:func:`settle`).

:func:`slice_binning` is the first pass that numeric ``by`` columns need for their bin edges (a sample of at
most :data:`SAMPLE` values, the same rows whatever the batches: :func:`~clfeval.core._slicecount.sample_keys`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from clfeval.core import (
    MAX_BY_BINS,
    MAX_SLICES,
    Counter,
    SliceBinning,
    SliceCounter,
    SliceTables,
    bin_edges,
    check_by_bins,
    label_str,
    sample_keys,
    slice_column,
    small_ints,
)
from clfeval.errors import DataError, LabelListError, UsageError

__all__ = ["count_sliced", "count_batch", "settle", "slice_binning", "numeric_columns", "RankedSlices",
           "at_cut", "fold_cut_tables", "SAMPLE", "BINNINGS"]

#: Values of a numeric ``by`` column sampled for its quantile edges, at most.
SAMPLE = 200_000
BINNINGS = ("uniform", "quantile")


def _column(batch: Any, name: str) -> Any:
    extra = getattr(batch, "extra", None)
    if isinstance(extra, Mapping):
        return extra[name]
    return batch.column(name)


def numeric_columns(first: Any, columns: Sequence[str]) -> list[str]:
    """The ``by`` columns of numeric type (integers, floats, decimals) in a first batch or table — or text that
    reads as numbers in every row (a CSV's columns arrive as text)."""
    import pyarrow as pa

    out = []
    for c in columns:
        col = _column(first, c)
        t = col.type if hasattr(col, "type") else pa.array(np.asarray(col)).type
        if pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t):
            out.append(c)
        elif (pa.types.is_string(t) or pa.types.is_large_string(t)) and as_numbers(col) is not None:
            out.append(c)
    return out


def as_numbers(col: Any) -> np.ndarray | None:
    """A slice column as float64 values (NaN where missing: :func:`clfeval.core._slicecount.slice_column`'s rule),
    text parsed as numbers; None when some text is no number."""
    import pyarrow as pa

    arr = slice_column(col, "")
    try:
        return np.asarray(arr.cast(pa.float64()).to_numpy(zero_copy_only=False), dtype=np.float64)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None


def slice_binning(batches: Iterable[Any], columns: Sequence[str], *, bins: int, kind: str) -> dict[str, SliceBinning]:
    """Edges of the numeric ``by`` columns among ``columns`` from one pass (the finite minimum and maximum exactly,
    quantiles of a sample of at most :data:`SAMPLE` finite values); the first batch says which columns are numeric.
    The bins are cut from the finite values; ``-inf`` and ``inf``, where a column holds them, are bins of their own
    (:class:`~clfeval.core._slicecount.SliceBinning`)."""
    if kind not in BINNINGS:
        raise UsageError(lambda o: f"option {o} must be uniform or quantile; got {kind!r}.", params=["by_binning"])
    check_by_bins(bins, MAX_BY_BINS, "by_bins")
    keep: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    numeric: list[str] | None = None
    lo: dict[str, float] = {}
    hi: dict[str, float] = {}
    infinite: dict[str, set[str]] = {}
    seen = 0
    for b in batches:
        if numeric is None:
            numeric = numeric_columns(b, columns)
        for c in numeric:
            x = as_numbers(_column(b, c))
            if x is None:
                raise DataError(lambda o, _c=c: f"column {_c!r} (option {o}) holds text that is no number in a later "
                                                f"batch; --by-bins cuts numeric columns only.", params=["by"])
            keys = sample_keys(seen, x.size)
            ok = np.isfinite(x)
            if ok.any():
                lo[c] = min(lo.get(c, np.inf), float(x[ok].min()))
                hi[c] = max(hi.get(c, -np.inf), float(x[ok].max()))
            inf = infinite.setdefault(c, set())
            inf.update(name for name, hit in (("-inf", x == -np.inf), ("inf", x == np.inf)) if hit.any())
            vals, ks = keep.get(c, (np.empty(0), np.empty(0, dtype=np.uint64)))
            vals, ks = np.concatenate([vals, x[ok]]), np.concatenate([ks, keys[ok]])
            if vals.size > SAMPLE:
                top = np.argpartition(ks, SAMPLE - 1)[:SAMPLE]
                vals, ks = vals[top], ks[top]
            keep[c] = (vals, ks)
        seen += len(_column(b, columns[0]))
    out = {}
    for c in numeric or []:
        vals = keep.get(c, (np.empty(0),))[0]
        if kind == "uniform" and c in lo:
            vals = np.array([lo[c], hi[c]])
        edges = bin_edges(vals, int(bins), kind)
        if c in lo:  # the sample may miss the extremes: the outer edges are the exact min and max
            edges = (min(edges[0], lo[c]),) + tuple(edges[1:-1]) + (max(edges[-1], hi[c]),)
        out[c] = SliceBinning(c, kind, edges, tuple(x for x in ("-inf", "inf") if x in infinite.get(c, ())))
    return out


class RankedSlices:
    """What the per-slice rankings of ``--by`` with ``--score`` need, gathered during the counting pass: the score
    (column ``score`` of each batch), whether the gold label is ``positive`` (compared as text, as labels are), and
    the slice code of the first column set; the codes are made the positions of the sorted slice tables at the
    end (:meth:`finish`). Parts counted apart (Dask) add (:meth:`merge`)."""

    def __init__(self, score: str, positive: Any, budget: int | None = None) -> None:
        from clfeval.core import SliceScores

        self.score, self.positive = score, label_str(positive)
        self.store = SliceScores(score, budget)
        self.keys: tuple = ()

    def add(self, slicer: SliceCounter, gold: Any, batch: Any) -> None:
        import pyarrow as pa
        import pyarrow.compute as pc

        g = gold if isinstance(gold, (pa.Array, pa.ChunkedArray)) else pa.array(np.asarray(gold).tolist())
        if pa.types.is_dictionary(g.type):
            g = g.cast(g.type.value_type)
        text = g if pa.types.is_string(g.type) or pa.types.is_large_string(g.type) else g.cast(pa.string())
        positive = np.asarray(pc.fill_null(pc.equal(text, self.positive), False).to_numpy(zero_copy_only=False),
                              dtype=bool)
        codes = slicer.slice_codes({c: _column(batch, c) for c in slicer.sets[0]}, 0)
        self.store.add(_column(batch, self.score), positive, codes)

    def finish(self, code_keys: Sequence[tuple], sorted_keys: Sequence[tuple]) -> None:
        """The slice codes (in the order ``code_keys``) become positions in ``sorted_keys``."""
        pos = {k: i for i, k in enumerate(sorted_keys)}
        perm = np.array([pos[k] for k in code_keys] or [0], dtype=np.int32)
        self.store.parts = [(s, y, perm[c]) for s, y, c in self.store.parts]
        self.keys = tuple(sorted_keys)

    def merge(self, other: RankedSlices, keys: Sequence[tuple]) -> RankedSlices:
        """Both parts' items, their codes made positions in ``keys`` (the keys of the added slice tables)."""
        pos = {k: i for i, k in enumerate(keys)}
        out = RankedSlices(self.score, self.positive)
        for part in (self, other):
            perm = np.array([pos[k] for k in part.keys] or [0], dtype=np.int32)
            out.store.parts.extend((s, y, perm[c]) for s, y, c in part.store.parts)
            out.store.n += part.store.n
        out.keys = tuple(keys)
        return out

    def rankings(self, n_slices: int, label: str) -> tuple[list[Any], Any]:
        """The ranking summary of every slice (in the order of the sorted keys) and of all items."""
        from clfeval.core import slice_rankings

        s, y, c = self.store.arrays()
        per = slice_rankings(s, y, c, n_slices, label)
        (overall,) = slice_rankings(s, y, np.zeros(s.size, dtype=np.int32), 1, label)
        return per, overall


#: The predicted label of the items below the cut while the negative label is not known yet (folded into it after
#: counting: :func:`fold_cut_tables`).
_BELOW = "\x00below the cut"


def at_cut(gold: Any, scores: Any, cut: float, positive: str, column: str) -> tuple[Any, Any]:
    """A batch's gold labels as text and its predictions at ``cut`` (``positive`` iff score ≥ cut; below: a
    placeholder label, :func:`fold_cut_tables` makes it the negative class)."""
    import pyarrow as pa

    from clfeval.core import finite_scores

    g = gold if isinstance(gold, (pa.Array, pa.ChunkedArray)) else pa.array(list(gold))
    if pa.types.is_dictionary(g.type):
        g = g.cast(g.type.value_type)
    if not (pa.types.is_string(g.type) or pa.types.is_large_string(g.type)):
        g = pa.array([label_str(x) for x in g.to_pylist()], type=pa.string())
    sc = finite_scores(scores, column)
    pred = pa.DictionaryArray.from_arrays(pa.array((sc >= float(cut)).astype(np.int8)),
                                          pa.array([_BELOW, positive])).cast(pa.string())
    return g, pred


def fold_cut_tables(table: Any, tables: list[Any], positive: str) -> tuple[Any, list[Any]]:
    """The placeholder label of the items below the cut made the negative class (the one gold label other than
    ``positive``; a binary cut needs no more): the overall table and the slice tables over (negative, positive)."""
    from clfeval.core import ConfusionTable, SliceTables

    labels = [str(x) for x in table.labels]
    others = [x for x in labels if x not in (positive, _BELOW)]
    if len(others) > 1:
        raise DataError(f"threshold --by needs binary gold labels: {positive!r} and one other; got "
                        f"{len(others) + 1}.")
    neg = others[0] if others else f"not {positive}"
    out = sorted([neg, positive])
    where = np.array([out.index(neg if x == _BELOW else x) for x in labels])

    def fold(c: np.ndarray) -> np.ndarray:
        m = np.zeros(c.shape[:-2] + (2, 2), dtype=np.int64)
        for a in range(len(labels)):
            for b in range(len(labels)):
                m[..., where[a], where[b]] += c[..., a, b]
        return m

    return (ConfusionTable(fold(np.asarray(table.counts)), tuple(out)),
            [SliceTables(t.columns, t.keys, tuple(out), fold(t.counts), t.binning) for t in tables])


def _in_part(exc: DataError, batch: Any) -> DataError:
    """The error of a batch read from a file, naming the file and the batch's rows."""
    part = getattr(batch, "part", None)
    if part is None:
        return exc
    return DataError(f"file {part.source.name!r}, rows {part.start + 1} to {part.start + batch.n}: {exc}")


def _fused(slicer: SliceCounter, counter: Counter, gold: Any, pred: Any, batch: Any
           ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray] | None:
    """The one-bincount path of small integer labels and one integer slice column (see
    :meth:`SliceCounter.update_fused`): the labels as integers and their codes (``lo``, ``lut``), or None when
    nothing was counted."""
    try:
        return slicer.update_fused(counter, gold, pred, {c: _column(batch, c) for c in slicer.columns})
    except ValueError:  # the labels outgrew a dense table: nothing was counted, the general path counts the batch
        return None


def _small_labels(slicer: SliceCounter, counter: Counter, gold: Any, pred: Any, batch: Any, search: bool
                  ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray] | None:
    """A batch of small integer labels counted (the overall table, and the slices of one integer column by
    :func:`_fused`; the slice search's counts are left to the caller): its gold and pred labels as integers,
    the smallest ``lo`` and the code of each value ``lo + i`` (``lut``); None when nothing was counted (the
    general path counts the batch). Without a ``by`` set only the slice search needs the labels."""
    if slicer.sets:
        return _fused(slicer, counter, gold, pred, batch)
    if not search:
        return None
    ints = small_ints([gold, pred])  # the Arrow buffers as they are (no conversion through pandas)
    got = counter.count_ints(ints) if ints is not None else None
    if got is None:
        return None
    (g, p), lo, lut = got
    return g, p, lo, lut


def count_sliced(batches: Iterable[Any], sets: Sequence[tuple[str, ...]], *, order: Sequence[Any] | None = None,
                 max_slices: int = MAX_SLICES, binning: Mapping[str, SliceBinning] | None = None,
                 counter: Counter | None = None, check: bool = True,
                 lattice: Any = None, ranks: Any = None) -> tuple[Any, list[SliceTables]]:
    """The overall confusion table and the slice tables of every column set, in one pass over ``batches``.

    Each batch has ``gold``, ``pred``, ``text`` (labels compared as text) and ``extra`` (the ``by`` columns by
    name), as :class:`clfeval.io._predictions.PredictionBatch` has; or is a ``pyarrow.Table`` with columns
    ``gold``, ``pred`` and the ``by`` columns. ``check=False`` (a part of the input, added to others later):
    a column null in every row is not refused here. ``lattice``: a
    :class:`~clfeval.core._latticecount.LatticeCounter` fed the same label codes (the slice search's counts, in
    the same pass; read its ``result()`` afterwards). ``ranks`` (a :class:`RankedSlices`): the score, class and
    slice of every item are gathered too, for the per-slice rankings of the first column set.

    >>> import pyarrow as pa
    >>> t = pa.table({"gold": ["a", "b", "b", "a"], "pred": ["a", "b", "a", "a"], "src": ["x", "x", "y", "y"]})
    >>> table, (s,) = count_sliced([t], [("src",)])
    >>> s.keys, s.counts.tolist(), table.counts.tolist()
    ((('x',), ('y',)), [[[1, 0], [0, 1]], [[1, 0], [1, 0]]], [[2, 0], [1, 1]])
    """
    counter = counter if counter is not None else Counter(2)
    slicer = SliceCounter(sets, max_slices=max_slices, binning=binning)
    for b in batches:
        count_batch(counter, slicer, b, lattice=lattice, ranks=ranks)
    if counter.n == 0:
        raise DataError("there are no items to report on.")
    return settle(counter, slicer, order=order, ranks=ranks, check=check)


def count_batch(counter: Counter, slicer: SliceCounter, b: Any, *, lattice: Any = None, ranks: Any = None) -> None:
    """One batch counted into the overall ``counter`` and the ``slicer``'s slices (and the slice search's
    ``lattice``, the per-slice rankings' ``ranks``), as :func:`count_sliced` counts each batch."""
    gold, pred = (b.gold, b.pred) if hasattr(b, "gold") else (b.column("gold"), b.column("pred"))
    text = bool(getattr(b, "text", False))
    old, was_text = list(counter.vocab.values), counter.vocab.text
    if ranks is not None:
        try:
            ranks.add(slicer, gold, b)
        except DataError as exc:
            raise _in_part(exc, b) from None
    if not text:  # small integer labels: counted without making their codes
        try:
            raw = _small_labels(slicer, counter, gold, pred, b, lattice is not None)
            if raw is not None:
                if lattice is not None:
                    lattice.update_ints({c: _column(b, c) for c in lattice.columns}, *raw, counter.vocab.values)
                return
        except DataError as exc:
            raise _in_part(exc, b) from None
    try:
        g, p = counter.update([gold, pred], text=text, codes=True)
        if counter.vocab.text and not was_text and old:
            slicer.recode(np.array([counter.vocab.index[label_str(v)] for v in old], dtype=np.int64),
                          len(counter.vocab))
        slicer.update({c: _column(b, c) for c in slicer.columns}, g, p, len(counter.vocab))
        if lattice is not None:
            lattice.update({c: _column(b, c) for c in lattice.columns}, g, p, counter.vocab.values)
    except DataError as exc:
        raise _in_part(exc, b) from None


def settle(counter: Counter, slicer: SliceCounter, *, order: Sequence[Any] | None = None, ranks: Any = None,
           check: bool = True) -> tuple[Any, list[SliceTables]]:
    """The overall table (labels in ``order`` when given) and the slice tables of what ``counter`` and
    ``slicer`` counted (at least one item), the slices checked to add up to the table (``check``: and no column
    null in every row); ``ranks``' slice codes made positions in the first set's sorted slices."""
    try:
        table = counter.table(labels=order)
        labels, where = counter.order(order)
    except LabelListError as exc:
        if order is None:
            raise
        raise LabelListError(exc.missing, parameter="order") from None
    tables = slicer.tables(tuple(labels), where)
    if ranks is not None and tables:
        ranks.finish(slicer.keys(0), tables[0].keys)
    for t in tables:
        t.check_adds_up(table)
        if check:
            t.check_values()
    return table, tables
