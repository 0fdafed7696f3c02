"""Ids unique across every partition of an input on Dask: hash buckets checked on the workers, the duplicate named
as the local stream names it (:func:`check_unique_ids`); :func:`id_column` the id column of a PATH."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dask
import numpy as np
import pyarrow as pa

from clfeval.core import shown_id
from clfeval.engines.dask._parts import Parts, run
from clfeval.errors import DataError

__all__ = ["check_unique_ids", "id_column"]


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
