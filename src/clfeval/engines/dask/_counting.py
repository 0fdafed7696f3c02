"""Reports on Dask: each partition counted into a table, the tables added in a tree.

:func:`report` maps every partition to its confusion table (or multi-label
table) and adds the tables up (:func:`~clfeval.engines.dask._parts.tree_sum`); the
report is then computed from the one table by the same code as locally
(``report_from_table``), so every count metric of the catalogue is the local
number, bit for bit. With a score column it adds the exact ranking section
(:func:`clfeval.engines.dask._rankings.ranking`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Sequence
from typing import Any

import dask
import numpy as np
import pyarrow as pa

from clfeval.core import confusion_table, multilabel_table, shown_id
from clfeval.engines.dask._parts import Parts, parts_of, probe, run, threads, tree_sum
from clfeval.errors import DataError, UsageError
from clfeval.evaluate import Report

__all__ = ["report", "table", "check_unique_ids", "id_column"]


def _table_of(t: pa.Table, gold: str, pred: str, multilabel: bool, sep: str) -> Any:
    g, p = t.column(gold), t.column(pred)
    if multilabel:
        return multilabel_table(g.to_pylist(), p.to_pylist(), sep=sep)
    return confusion_table(g, p)


def _tables_of(tables: Iterable[pa.Table], gold: str, pred: str, multilabel: bool, sep: str) -> Any:
    """The table of a group of partitions: one table per partition, added in order."""
    total = None
    for t in tables:
        one = _table_of(t, gold, pred, multilabel, sep)
        total = one if total is None else total + one
    return total


def table(data: Any, *, gold: str = "gold", pred: str = "pred", multilabel: bool = False, sep: str = "|",
          client: Any = None) -> Any:
    """The confusion table (or multi-label table) of an input on Dask: one table per partition, added on the
    workers (a group of partitions per task) and then in a tree."""
    parts = data if isinstance(data, Parts) else parts_of(data, [gold, pred])
    (total,) = run(client, tree_sum(parts.map_groups(_tables_of, gold, pred, multilabel, sep,
                                                     threads=threads(client))))
    return total


def report(data: Any, *, gold: str = "gold", pred: str = "pred", score: str | None = None, positive: Any = None,
           multilabel: bool = False, sep: str = "|", order: Sequence[Any] | None = None, beta: float = 1.0,
           zero_division: Any = 0, top_n: int = 5, client: Any = None, memory: Any = None,
           score_bins: int | None = None, score_binning: str = "quantile", id: str | None = None,
           normalize: str | None = None) -> Report:
    """``clfeval.report`` of an input on Dask: a DataFrame or paths, counted on the workers.

    Parameters
    ----------
    data : dask.dataframe.DataFrame, path, or sequence of paths
        Parquet, CSV or TSV files, directories of them, or glob patterns.
    gold, pred, score : str
        Column names (``score``: a score column ranked for ``positive``).
    client : distributed.Client, optional
        Where to run (default: Dask's threaded scheduler in this process).
    memory : int or str, optional
        The memory budget of each range of the exact ranking.
    score_bins, score_binning : int, str, optional
        The binned mode: the ranking section is the histogram over ``score_bins`` bins
        (:func:`clfeval.engines.dask.binning`, ``uniform`` or ``quantile``), with its AUC error bound.
    id : str, optional
        The id column (default ``id`` when the files have one): an id that occurs twice anywhere in the input
        is refused, as locally (:func:`check_unique_ids`).
    normalize : {"nfc"} or None
        Unicode normalisation of the labels, as locally.

    Returns
    -------
    Report
        The local report of the same items, number for number.
    """
    from functools import partial

    from clfeval.engines.dask._accumulate import accumulate
    from clfeval.evaluate import ReportCounts

    if isinstance(data, (str, os.PathLike)):  # a PATH: resolved once, as locally (its ids checked too)
        from clfeval.io import resolve_path

        data = resolve_path(data)
    if score is not None:  # the ranking pass reads the score column (every score checked: finite)
        parts = parts_of(data, [gold, pred, score], labels=[] if multilabel else [gold, pred], normalize=normalize,
                         scores=[score], options=[("--gold", gold), ("--pred", pred), ("--score", score)])
        probe(parts, client)
    make = partial(ReportCounts, multilabel=multilabel, sep=sep, order=order)
    make()  # its options checked before any work
    acc, _ = accumulate(data, make, gold=gold, pred=pred, id=id, multilabel=multilabel, normalize=normalize,
                     client=client)
    rep = acc.finish(positive=positive, beta=beta, zero_division=zero_division, sep=sep, top_n=top_n)
    if score is not None:
        if positive is None or multilabel:
            raise UsageError("a ranking of one score column needs positive (binary data) on the Dask engine.")
        from clfeval.engines.dask._rankings import binning, histogram, ranking
        from clfeval.scores import binary_summary

        if score_bins is not None:
            bins = binning(parts, score=score, bins=score_bins, kind=score_binning, client=client)
            h = binary_summary(histogram(parts, gold=gold, score=score, positive=positive, binning=bins,
                                         client=client), positive)
            section = h.to_dict()
        else:
            rk = ranking(parts, gold=gold, score=score, positive=positive, client=client, memory=memory)
            section = rk.to_dict()
            section.pop("external", None)
        from clfeval.ops.report import RankingPart

        rep = dataclasses.replace(rep, ranking=RankingPart.of(section))
    return rep


# --- ids unique across every file: hash buckets checked on the cluster -------------------------

def id_column(data: Any, id: str | None, roles: Sequence[str | None]) -> str | None:
    """The id column of a PATH input: ``id`` when given, else ``id`` when its first file has one."""
    if id is not None or hasattr(data, "npartitions"):
        return id
    from clfeval.io import InputPath, column_names

    if not isinstance(data, InputPath) or "id" in roles:
        return None
    src = data.sources[0]
    if data.fmt == "jsonl":
        return None
    return "id" if "id" in column_names(src, input_format=data.fmt, encoding=src.encoding) else None


def _buckets(t: pa.Table, column: str, k: int, part: int) -> list[pa.Table]:
    """The ids of one partition (as text, with their partition and row) split into ``k`` buckets by hash."""
    import pyarrow.compute as pc

    from clfeval.io import as_text

    ids = as_text(t.column(column))
    keys = pa.concat_arrays(ids.chunks) if ids.num_chunks else pa.array([], type=pa.string())
    rows = pa.array(np.arange(len(keys), dtype=np.int64))
    if k == 1:
        return [pa.table({"key": keys, "part": pa.array(np.full(len(keys), part, dtype=np.int64)), "row": rows})]
    h = np.asarray(pc.hash_64(keys) if hasattr(pc, "hash_64") else [hash(x) for x in keys.to_pylist()])
    which = (h.astype(np.uint64) % np.uint64(k)).astype(np.int64)
    out = []
    for j in range(k):
        idx = np.flatnonzero(which == j)
        out.append(pa.table({"key": keys.take(pa.array(idx)), "part": pa.array(np.full(idx.size, part)),
                             "row": rows.take(pa.array(idx))}))
    return out


def _first_duplicate(tables: Sequence[pa.Table]) -> tuple[Any, tuple[int, int], tuple[int, int]] | None:
    """The duplicate id of one bucket whose second occurrence comes first in input order, with both places."""
    t = pa.concat_tables(tables)
    if t.num_rows == 0:
        return None
    order = np.lexsort((np.asarray(t.column("row")), np.asarray(t.column("part"))))
    keys = np.asarray(t.column("key").to_pylist(), dtype=object)[order]
    part = np.asarray(t.column("part"))[order]
    row = np.asarray(t.column("row"))[order]
    seen: dict[Any, int] = {}
    for i, key in enumerate(keys.tolist()):
        if key in seen:
            j = seen[key]
            return key, (int(part[j]), int(row[j])), (int(part[i]), int(row[i]))
        seen[key] = i
    return None


def check_unique_ids(parts: Parts, column: str, *, client: Any = None) -> None:
    """Refuse an id that occurs twice anywhere in the input: every partition's ids go by hash to one of k
    buckets, each bucket is checked on a worker, and the duplicate whose second occurrence comes first in
    input order is named (the one the local engine names), with its files and rows."""
    k = max(1, min(32, len(parts)))
    split = [dask.delayed(_buckets, pure=True, nout=k)(t, column, k, i) for i, t in enumerate(parts.tasks)]
    checks = [dask.delayed(_first_duplicate, pure=True)([s[j] for s in split]) for j in range(k)]
    found = [f for f in run(client, *checks) if f is not None]
    if not found:
        return
    dup, first, second = min(found, key=lambda f: f[2])

    def where(place: tuple[int, int]) -> str:
        if not parts.files:
            return f"partition {place[0] + 1}, row {place[1] + 1}"
        from clfeval.io import row_ref

        fp = parts.files[place[0]]
        return f"file {fp.source.name!r}, {row_ref(fp.source, fp.input.fmt, place[1])}"

    what = parts.files[0].input.described if parts.files else "the input"
    places = f"{where(first)} and {where(second)}"
    if parts.files and parts.files[first[0]].file_no == parts.files[second[0]].file_no:  # one file: as locally
        what = f"file {parts.files[first[0]].source.name!r}"
        places = f"rows {_file_row(parts, first) + 1} and {_file_row(parts, second) + 1}"
    raise DataError(f"{what}, column {column!r}: ids must be unique, but the id {shown_id(dup)} occurs more than once "
                    f"({places}).")


def _file_row(parts: Parts, place: tuple[int, int]) -> int:
    """The 0-based row in its file of row ``place[1]`` of partition ``place[0]`` (row groups counted before it)."""
    fp = parts.files[place[0]]
    before = 0
    if fp.group:
        import pyarrow.parquet as pq

        with pq.ParquetFile(str(fp.source.path)) as f:
            before = sum(f.metadata.row_group(g).num_rows for g in range(fp.group))
    return before + place[1]
