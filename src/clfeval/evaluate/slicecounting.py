"""One pass over the items: the overall confusion table and one table per slice of every column set.

:func:`count_sliced` counts batches (a PATH read batch by batch, a table in memory as one batch, the
partitions of a Dask task) with one :class:`~clfeval.core.counting.Counter` — the same table the plain report
counts — and one :class:`~clfeval.core.slicecount.SliceCounter` fed the label codes the counter gave each
batch: the slice key is one more column of the count key, so the slices cost one more bincount, not another
pass. The slices of every column set are checked to add up to the overall table.

:func:`slice_binning` is the first pass that numeric ``by`` columns need for their bin edges (a sample of at
most :data:`SAMPLE` values, the same rows whatever the batches: :func:`~clfeval.core.slicecount.sample_keys`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from clfeval.core.counting import Counter
from clfeval.core.labels import label_str
from clfeval.core.slicecount import MAX_SLICES, SliceBinning, SliceCounter, SliceTables, bin_edges, sample_keys
from clfeval.errors import DataError, LabelListError, UsageError

__all__ = ["count_sliced", "slice_binning", "numeric_columns", "SAMPLE", "BINNINGS"]

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
    """A column as float64 values (NaN for nulls), text parsed as numbers; None when some text is no number."""
    import pyarrow as pa

    arr = col if isinstance(col, (pa.Array, pa.ChunkedArray)) else pa.array(np.asarray(col))
    try:
        return np.asarray(arr.cast(pa.float64()).to_numpy(zero_copy_only=False), dtype=np.float64)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None


def slice_binning(batches: Iterable[Any], columns: Sequence[str], *, bins: int, kind: str) -> dict[str, SliceBinning]:
    """Edges of the numeric ``by`` columns among ``columns`` from one pass (min and max exactly, quantiles of a
    sample of at most :data:`SAMPLE` rows); the first batch says which columns are numeric."""
    if kind not in BINNINGS:
        raise UsageError(lambda o: f"option {o} must be uniform or quantile; got {kind!r}.", params=["by_binning"])
    if int(bins) < 1:
        raise UsageError(lambda o: f"option {o} must be a whole number of bins ≥ 1; got {bins!r}.",
                         params=["by_bins"])
    keep: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    numeric: list[str] | None = None
    lo: dict[str, float] = {}
    hi: dict[str, float] = {}
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
            ok = ~np.isnan(x)
            if ok.any():
                lo[c] = min(lo.get(c, np.inf), float(x[ok].min()))
                hi[c] = max(hi.get(c, -np.inf), float(x[ok].max()))
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
        out[c] = SliceBinning(c, kind, edges)
    return out


def _fused(slicer: SliceCounter, counter: Counter, gold: Any, pred: Any, batch: Any) -> bool:
    """The one-bincount path of small integer labels and one integer slice column (see
    :meth:`SliceCounter.update_fused`)."""
    try:
        return slicer.update_fused(counter, gold, pred, {c: _column(batch, c) for c in slicer.columns})
    except ValueError:  # the labels outgrew a dense table: nothing was counted, the general path counts the batch
        return False


def count_sliced(batches: Iterable[Any], sets: Sequence[tuple[str, ...]], *, order: Sequence[Any] | None = None,
                 max_slices: int = MAX_SLICES, binning: Mapping[str, SliceBinning] | None = None,
                 counter: Counter | None = None, check: bool = True) -> tuple[Any, list[SliceTables]]:
    """The overall confusion table and the slice tables of every column set, in one pass over ``batches``.

    Each batch has ``gold``, ``pred``, ``text`` (labels compared as text) and ``extra`` (the ``by`` columns by
    name), as :class:`clfeval.io.predictions.PredictionBatch` has; or is a ``pyarrow.Table`` with columns
    ``gold``, ``pred`` and the ``by`` columns. ``check=False`` (a part of the input, added to others later):
    a column null in every row is not refused here.

    >>> import pyarrow as pa
    >>> t = pa.table({"gold": ["a", "b", "b", "a"], "pred": ["a", "b", "a", "a"], "src": ["x", "x", "y", "y"]})
    >>> table, (s,) = count_sliced([t], [("src",)])
    >>> s.keys, s.counts.tolist(), table.counts.tolist()
    ((('x',), ('y',)), [[[1, 0], [0, 1]], [[1, 0], [1, 0]]], [[2, 0], [1, 1]])
    """
    counter = counter if counter is not None else Counter(2)
    slicer = SliceCounter(sets, max_slices=max_slices, binning=binning)
    for b in batches:
        gold, pred = (b.gold, b.pred) if hasattr(b, "gold") else (b.column("gold"), b.column("pred"))
        text = bool(getattr(b, "text", False))
        old, was_text = list(counter.vocab.values), counter.vocab.text
        if not text and _fused(slicer, counter, gold, pred, b):
            continue
        try:
            g, p = counter.update([gold, pred], text=text, codes=True)
            if counter.vocab.text and not was_text and old:
                slicer.recode(np.array([counter.vocab.index[label_str(v)] for v in old], dtype=np.int64),
                              len(counter.vocab))
            slicer.update({c: _column(b, c) for c in slicer.columns}, g, p, len(counter.vocab))
        except DataError as exc:
            part = getattr(b, "part", None)
            if part is None:
                raise
            raise DataError(f"file {part.source.name!r}, rows {part.start + 1} to {part.start + b.n}: {exc}") from None
    if counter.n == 0:
        raise DataError("there are no items to report on.")
    try:
        table = counter.table(labels=order)
        labels, where = counter.order(order)
    except LabelListError as exc:
        if order is None:
            raise
        raise LabelListError(exc.missing, parameter="order") from None
    tables = slicer.tables(tuple(labels), where)
    for t in tables:
        t.check_adds_up(table)
        if check:
            t.check_values()
    return table, tables
