"""Slice tables on Dask: each task counts its partitions into the overall table and the slice tables (one pass,
:func:`clfeval.evaluate._slicecounting.count_sliced`), and the pairs are added in a tree — tables add. The
per-slice calibration sums of ``calibration --by`` (:func:`sliced_calibration`) are added the same way."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from clfeval.core import SliceTables, embed
from clfeval.engines.dask._parts import parts_of, probe, run, threads, tree_sum
from clfeval.errors import DataError, UsageError

__all__ = ["sliced_tables", "sliced_calibration", "outside_counts"]


def _count(tables: Iterable[Any], gold: str, pred: str, sets: Sequence[tuple[str, ...]], max_slices: int,
           binning: Mapping[str, Any], n_by: int | None = None, find: Any = None, score: str | None = None,
           positive: Any = None, cut: tuple[float, str] | None = None) -> Any:
    from clfeval.evaluate import RankedSlices, count_sliced

    cols = list(dict.fromkeys(c for s in sets for c in s))
    read = cols + ([score] if score is not None and score not in cols else [])

    def labels(t: Any) -> tuple[Any, Any]:
        if cut is None:
            return t.column(gold), t.column(pred)
        from clfeval.evaluate import at_cut

        return at_cut(t.column(gold), t.column(pred), cut[0], cut[1], pred)

    batches = (SimpleNamespace(gold=gp[0], pred=gp[1], text=False, n=t.num_rows, extra={c: t.column(c) for c in read})
               for t in tables if t.num_rows for gp in [labels(t)])
    ranks = RankedSlices(score, positive) if score is not None else None
    lattice = None
    if find:
        from clfeval.core import LatticeCounter

        lattice = LatticeCounter(find["sets"], find["metric"], binning=binning, max_slices=find["max_search"])
    try:
        table, counted = count_sliced(batches, sets[:len(sets) if n_by is None else n_by], max_slices=max_slices,
                                      binning=binning, check=False, lattice=lattice, ranks=ranks)
    except DataError as exc:
        if "no items" in str(exc):
            return None
        raise
    return table, counted, lattice.result() if lattice is not None else [], ranks


def _combine(values: Sequence[Any]) -> Any:
    total = None
    for v in values:
        if v is None:
            continue
        if total is None:
            total = v
            continue
        added = [a + b for a, b in zip(total[1], v[1], strict=True)]
        found = [a + b for a, b in zip(total[2], v[2], strict=True)]
        ranks = total[3].merge(v[3], added[0].keys) if total[3] is not None else None
        total = (total[0] + v[0], added, found, ranks)
    return total


def sliced_tables(inp: Any, *, gold: str, pred: str, sets: Sequence[tuple[str, ...]], order: Any = None,
                  max_slices: int, binning: Mapping[str, Any], normalize: Any = None,
                  client: Any = None, n_by: int | None = None, find: Any = None, score: str | None = None,
                  positive: Any = None,
                  cut: tuple[float, str] | None = None) -> tuple[Any, list[SliceTables], list, Any]:
    """The overall confusion table, the slice tables of the first ``n_by`` column sets (all: None), the slice
    search's counts (:class:`~clfeval.core._latticecount.SliceProportions`, with ``find``) of a PATH, counted on the
    cluster (with ``cut`` = (threshold, positive label): ``pred`` is a score column, cut there,
    :func:`clfeval.evaluate._slicecounting.at_cut`), and with ``score`` the gathered scores of the per-slice
    rankings (:class:`~clfeval.evaluate._slicecounting.RankedSlices`, else None)."""
    cols = list(dict.fromkeys(c for s in sets for c in s))
    extra = [score] if score is not None and score not in cols else []
    parts = parts_of(inp, [gold, pred, *cols, *extra], labels=[gold] if cut else [gold, pred], normalize=normalize,
                     options=[("--gold", gold), ("--score" if cut else "--pred", pred)] + [("--by", c) for c in cols]
                     + [("--score", c) for c in extra], scores=[pred, *extra] if cut else extra)
    probe(parts, client)
    (got,) = run(client, tree_sum(parts.map_groups(_count, gold, pred, list(sets), max_slices, dict(binning), n_by,
                                                   find, score, positive, cut, threads=threads(client)),
                                  combine=_combine))
    if got is None:
        raise DataError("there are no items to report on.")
    table, tables, found, ranks = got
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
    return table, tables, found, ranks


def _outside(tables: Iterable[Any], gold: str, pred: str, queries: Sequence[Any], metric: str,
             binning: Mapping[str, Any]) -> Any:
    from clfeval.evaluate import count_outside

    cols = list(dict.fromkeys(c for s, ds in queries for conj in (s, *ds) for c in conj[0]))
    batches = (SimpleNamespace(gold=t.column(gold), pred=t.column(pred), text=False, n=t.num_rows,
                               extra={c: t.column(c) for c in cols}) for t in tables if t.num_rows)
    return count_outside(batches, queries, metric, binning)


def outside_counts(inp: Any, *, gold: str, pred: str, queries: Sequence[Any], metric: str,
                   binning: Mapping[str, Any], normalize: Any = None, client: Any = None) -> np.ndarray:
    """The slice search's counts of slices outside overlapping sub-slices
    (:func:`clfeval.evaluate._slicecounting.count_outside`), each partition counted on the cluster, the counts
    added in a tree: (queries × 3) items, trials, successes."""
    cols = list(dict.fromkeys(c for s, ds in queries for conj in (s, *ds) for c in conj[0]))
    parts = parts_of(inp, [gold, pred, *cols], labels=[gold, pred], normalize=normalize,
                     options=[("--gold", gold), ("--pred", pred)] + [("--find-slices", c) for c in cols])
    (got,) = run(client, tree_sum(parts.map_groups(_outside, gold, pred, list(queries), metric, dict(binning),
                                                   threads=threads(client))))
    out: np.ndarray = np.asarray(got, dtype=np.int64)
    return out


def _calibrate(t: Any, gold: str, prob: str, columns: Sequence[str], settings: dict[str, Any]) -> Any:
    from clfeval.scores import SliceCalibrator

    cal = SliceCalibrator(columns, prob=prob, **settings)
    if t.num_rows:
        cal.update(t.column(gold), t.column(prob), {c: t.column(c) for c in columns})
    return cal.sums()


def sliced_calibration(inp: Any, *, gold: str, prob: str, columns: Sequence[str], binning: Mapping[str, Any],
                       positive: Any, bins: int, strategy: str, edges: str, max_slices: int,
                       normalize: Any = None, client: Any = None) -> Any:
    """The per-slice calibration sums (:class:`~clfeval.scores._slicecalibration.SliceSums`) of a PATH, each
    partition summed on the cluster and the sums added in a tree (exact sums: the same bits as locally)."""
    cols = list(dict.fromkeys(columns))
    parts = parts_of(inp, [gold, prob, *cols], labels=[gold], normalize=normalize,
                     options=[("--gold", gold), ("--prob", prob)] + [("--by", c) for c in cols], scores=[prob])
    probe(parts, client)
    settings = dict(positive=positive, bins=bins, strategy=strategy, edges=edges, max_slices=max_slices,
                    binning=dict(binning))
    (sums,) = run(client, tree_sum(parts.map(_calibrate, gold, prob, cols, settings)))
    if len(sums.slices) > max_slices:
        raise UsageError(lambda o, b: f"the values of {', '.join(cols)} (option {b}) make {len(sums.slices):,} "
                                      f"slices, more than {max_slices:,} (option {o}); slice by fewer columns, bin a "
                                      f"numeric column (--by-bins N), or raise {o}.", params=["max_slices", "by"])
    return sums
