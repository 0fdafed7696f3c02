"""Slice tables on Dask: each task counts its partitions into the overall table and the slice tables (one pass,
:func:`clfeval.evaluate.slicecounting.count_sliced`), and the pairs are added in a tree — tables add."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from clfeval.core.slicecount import SliceTables
from clfeval.core.tables import embed
from clfeval.dask.parts import parts_of, probe, run, threads, tree_sum
from clfeval.errors import DataError, UsageError

__all__ = ["sliced_tables"]


def _count(tables: Iterable[Any], gold: str, pred: str, sets: Sequence[tuple[str, ...]], max_slices: int,
           binning: Mapping[str, Any]) -> Any:
    from clfeval.evaluate.slicecounting import count_sliced

    cols = list(dict.fromkeys(c for s in sets for c in s))
    batches = (SimpleNamespace(gold=t.column(gold), pred=t.column(pred), text=False, n=t.num_rows,
                               extra={c: t.column(c) for c in cols}) for t in tables if t.num_rows)
    try:
        return count_sliced(batches, sets, max_slices=max_slices, binning=binning, check=False)
    except DataError as exc:
        if "no items" in str(exc):
            return None
        raise


def _combine(values: Sequence[Any]) -> Any:
    total = None
    for v in values:
        if v is None:
            continue
        total = v if total is None else (total[0] + v[0], [a + b for a, b in zip(total[1], v[1], strict=True)])
    return total


def sliced_tables(inp: Any, *, gold: str, pred: str, sets: Sequence[tuple[str, ...]], order: Any = None,
                  max_slices: int, binning: Mapping[str, Any], normalize: Any = None,
                  client: Any = None) -> tuple[Any, list[SliceTables]]:
    """The overall confusion table and the slice tables of every column set of a PATH, counted on the cluster."""
    cols = list(dict.fromkeys(c for s in sets for c in s))
    parts = parts_of(inp, [gold, pred, *cols], labels=[gold, pred], normalize=normalize,
                     options=[("--gold", gold), ("--pred", pred)] + [("--by", c) for c in cols])
    probe(parts, client)
    (got,) = run(client, tree_sum(parts.map_groups(_count, gold, pred, list(sets), max_slices, dict(binning),
                                                   threads=threads(client)), combine=_combine))
    if got is None:
        raise DataError("there are no items to report on.")
    table, tables = got
    for t in tables:
        if len(t.keys) > max_slices:
            raise UsageError(lambda o, b, _t=t: (
                f"the values of {', '.join(_t.columns)} (option {b}) make {len(_t.keys):,} slices, more than "
                f"{max_slices:,} (option {o}); slice by fewer columns, bin a numeric column (--by-bins N), or "
                f"raise {o}."), params=["max_slices", "by"])
    if order is not None:
        table = table.relabel(list(order))
        tables = [SliceTables(t.columns, t.keys, table.labels,
                              np.stack([embed(c, t.labels, table.labels, 2) for c in t.counts])
                              if len(t.keys) else np.zeros((0, table.k, table.k), dtype=np.int64), t.binning)
                  for t in tables]
    for t in tables:
        t.check_adds_up(table)
        t.check_values()
    return table, tables
