"""``error_analysis(..., by=...)``: the error analysis of every slice, by the one wrapper of sliced operations.

The error analysis's accumulator (:class:`clfeval.evaluate.ErrorBatches`) knows nothing of slices: wrapped in
:class:`clfeval.slicing.BySlice`, each slice's rows are counted by an accumulator of their own, in the same pass
(in memory, streamed within the budget, or one wrapper per group of Dask partitions added in a tree; slices are
matched by value when two add). The whole analysis is that of the slices' counters added (every row is in one
slice, a null value a slice of its own), so it is the analysis without ``by``; each slice's is that of its rows
alone (``tests/evaluate/test_error_slices.py`` checks both against ``error_analysis`` run without ``by``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from clfeval.errors import UsageError
from clfeval.ops.errors import ErrorAnalysis, ErrorSlice

__all__ = ["check_slicing", "with_by_arrays", "by_columns", "in_memory", "sliced_make", "counters", "sliced_result"]

_ROLES = ("gold", "pred", "text", "id", "score")


def check_slicing(by: Any, by_bins: Any, by_binning: Any, max_slices: Any, *, tabular: bool, texts: bool,
                  columns: Mapping[str, Any]) -> dict[str, Any]:
    """The ``by`` options of the error analysis, checked before any data is read."""
    from clfeval.core import check_by_bins, column_sets

    if texts:
        raise UsageError(lambda b, t: f"option {b} slices by columns of the predictions; with {t} (texts joined by "
                                      f"id) the analysis is not sliced yet: put the texts in a column of the "
                                      f"predictions, or leave out {b}.", params=["by", "texts"])
    if not isinstance(max_slices, int) or isinstance(max_slices, bool) or max_slices < 1:
        raise UsageError(lambda o: f"option {o} must be a whole number ≥ 1; got {max_slices!r}.",
                         params=["max_slices"])
    check_by_bins(by_bins, max_slices, "max_slices")
    if by_binning not in ("quantile", "uniform"):
        raise UsageError(lambda o: f"option {o} must be 'quantile' or 'uniform'; got {by_binning!r}.",
                         params=["by_binning"])
    cols: tuple[str, ...] = ()
    if tabular:
        sets = column_sets(by)
        if len(sets) != 1:
            raise UsageError(lambda o: f"option {o} of the error analysis takes one set of columns.", params=["by"])
        cols = sets[0]
        taken = {columns.get(r) for r in _ROLES} - {None}
        clash = [c for c in cols if c in taken]
        if clash:
            raise UsageError(lambda o: f"option {o} names {clash[0]!r}, a column the analysis already reads (gold, "
                                       f"pred, text, id or score): slice by another column.", params=["by"])
    else:  # arrays: a mapping name → values, or one array named "by" (checked with the values)
        cols = tuple(str(k) for k in by) if isinstance(by, dict) else ("by",)
    return {"columns": cols, "max_slices": max_slices, "by_bins": by_bins, "by_binning": by_binning}


def with_by_arrays(table: Any, names: dict[str, Any], by: Any, slicing: dict[str, Any]
                   ) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """Arrays: the slice columns (``by``: a mapping name → values, or one array) appended to the table."""
    from clfeval.front._slicing import by_arrays

    extra = by_arrays(by, table.num_rows)
    if set(extra) & set(table.column_names):
        raise UsageError(lambda o: f"option {o}: name the slice columns other than "
                                   f"{', '.join(repr(c) for c in table.column_names)}.", params=["by"])
    for name, col in extra.items():
        table = table.append_column(name, col)
    return table, names, {**slicing, "columns": tuple(extra)}


def by_columns(data: Any, table: Any, cols: list[str]) -> Any:
    """A table's slice columns, checked to be there."""
    from clfeval.front._slicing import check_by_columns

    check_by_columns(table.column_names, [tuple(cols)])
    return table


def _wrapped(make: Callable[[], Any], slicing: dict[str, Any], binning: Any) -> Callable[[], Any]:
    from clfeval.slicing import BySlice

    return partial(BySlice, make, slicing["columns"], max_slices=slicing["max_slices"], binning=binning)


def in_memory(counter: Any, table: Any, cols: Mapping[str, Any], slicing: dict[str, Any]) -> Any:
    """A table in memory: one batch through the wrapped accumulator (items keyed by id, else by their row, as
    without ``by``)."""
    from types import SimpleNamespace

    import numpy as np
    import pyarrow as pa

    from clfeval.evaluate import check_unique_ids, error_batches
    from clfeval.front._slicing import binning_of

    n = table.num_rows
    ids = table.column(cols["id"]) if cols.get("id") else None
    if ids is not None:
        check_unique_ids(ids.to_pylist(), lambda i: f"item {i + 1}", "ids")
    place = "__row__"
    while place in table.column_names:
        place = f"_{place}_"
    extra = {c: table.column(c) for c in [cols["text"], *([cols["score"]] if cols.get("score") else []),
                                           *slicing["columns"]]}
    extra[place] = pa.chunked_array([pa.array(np.arange(n, dtype=np.int64))])
    batch = SimpleNamespace(gold=table.column(cols["gold"]), pred=table.column(cols["pred"]), item_ids=ids,
                            extra=extra, n=n, text=False, part=None, where=lambda i: f"item {i + 1}")
    binning = binning_of([batch], slicing, list(slicing["columns"]))
    acc = _wrapped(partial(error_batches, counter, cols["text"], cols.get("score"), place), slicing, binning)()
    acc.update(batch)
    return counters(acc)


def sliced_make(make: Callable[[], Any], slicing: dict[str, Any], inp: Any, cols: Mapping[str, Any],
                encoding: str, counter: Any) -> Callable[[], Any]:
    """The wrapped accumulator of a PATH, numeric columns' bins from a first read."""
    from clfeval.front._reportsteps import named_by
    from clfeval.front._slicing import binning_of
    from clfeval.io import iter_predictions

    by = list(slicing["columns"])
    binning: Any = {}
    if slicing.get("by_bins") is not None:
        binning = named_by(inp.name, lambda: binning_of(
            iter_predictions(inp, gold=cols["gold"], pred=cols["pred"], id=cols.get("id"), extra=by,
                             extra_options=["--by"] * len(by), encoding=encoding, multilabel=counter.multilabel,
                             sep=counter.sep, repeat=None), slicing, by))
    return _wrapped(make, slicing, binning)


def counters(acc: Any) -> list[tuple[tuple[Any, ...], Any]]:
    """Every slice's filled counter with its value tuple, in the slices' sorted order."""
    return [(key, part.counter) for key, part in acc.finish()]


def sliced_result(counted: list[tuple[tuple[Any, ...], Any]], slicing: dict[str, Any],
                  analysed: Callable[[Any], ErrorAnalysis]) -> ErrorAnalysis:
    """The whole analysis (the slices' counters added) with every slice's."""
    import dataclasses

    from clfeval.core import label_str
    from clfeval.slicing import slice_name

    by = tuple(slicing["columns"])
    total = counted[0][1]
    for _, c in counted[1:]:
        total = total + c
    whole = analysed(total)
    slices = []
    for key, c in counted:
        a = analysed(c)
        slices.append(ErrorSlice(slice_name(by, key), {col: label_str(v) for col, v in zip(by, key, strict=True)},
                                 int(c.stats.docs), int(c.stats.wrong), a))
    return dataclasses.replace(whole, by=by, slices=tuple(slices))
