"""Ids unique across every partition of an input on Dask: hash buckets checked on the workers, the duplicate named
as the local stream names it (:func:`check_unique_ids`); :func:`id_column` the id column of a PATH.

The keys, their hash buckets, the duplicate rule and its message are the id join's
(:mod:`clfeval.io._idjoin`): the same id is named, at the same file and rows, as on the local engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dask
import numpy as np
import pyarrow as pa

from clfeval.engines.dask._parts import Parts, run
from clfeval.errors import DataError

__all__ = ["check_unique_ids", "id_column", "split", "bucket_duplicate", "duplicate", "Places"]


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
    """The ids of one partition (as text, with their partition and row) split into ``k`` buckets by the one
    hash of every id join (:func:`clfeval.io._idjoin.partition_of`)."""
    from clfeval.io import id_keys

    keys = id_keys(t.column(column))
    return split(pa.table({"key": keys, "part": pa.array(np.full(len(keys), part, dtype=np.int64)),
                           "row": pa.array(np.arange(len(keys), dtype=np.int64))}), k)


def split(table: pa.Table, k: int) -> list[pa.Table]:
    """The rows of ``table`` in ``k`` buckets by the partition of their ``key`` (the local spill's placement)."""
    if k == 1:
        return [table]
    from clfeval.io import partition_of

    which = partition_of(table.column("key"), k)
    order = np.argsort(which, kind="stable")
    bounds = np.searchsorted(which[order], np.arange(k + 1))
    return [table.take(pa.array(order[bounds[j]:bounds[j + 1]])) for j in range(k)]


def bucket_duplicate(tables: Sequence[pa.Table]) -> tuple[Any, tuple[int, int], tuple[int, int]] | None:
    """The duplicate id of one bucket whose second occurrence comes first in input order, with both places."""
    from clfeval.io import first_duplicate

    t = pa.concat_tables(tables)
    if t.num_rows == 0:
        return None
    return first_duplicate(t.column("key"), t.column("part").to_numpy(), t.column("row").to_numpy())


def check_unique_ids(parts: Parts, column: str, *, client: Any = None) -> None:
    """Refuse an id that occurs twice anywhere in the input: every partition's ids go by hash to one of k
    buckets, each bucket is checked on a worker, and the duplicate whose second occurrence comes first in
    input order is named (the one the local engine names), with its files and rows."""
    from clfeval.io import earliest

    k = max(1, min(32, len(parts)))
    split_ = [dask.delayed(_buckets, pure=True, nout=k)(t, column, k, i) for i, t in enumerate(parts.tasks)]
    checks = [dask.delayed(bucket_duplicate, pure=True)([s[j] for s in split_]) for j in range(k)]
    found = earliest(run(client, *checks))
    if found is not None:
        raise duplicate(parts, column, found)


def duplicate(parts: Parts, column: str, found: tuple[Any, tuple[int, int], tuple[int, int]]) -> DataError:
    """The one duplicate message (:func:`clfeval.io._idjoin.duplicate_error`) for an id found at (partition,
    row) places of ``parts``: named by file and row in the file, as the local engine names it."""
    from clfeval.io import duplicate_error

    key, first, second = found
    if not parts.files:  # a DataFrame: its partitions
        return duplicate_error(key, first, second, column=column, described="the input", file_name=lambda f: None,
                               where=lambda p, r: f"partition {p + 1}, row {r + 1}")
    places = Places(parts)
    return duplicate_error(key, places.of(first), places.of(second), column=column, described=places.described,
                           file_name=places.name, where=places.where)


class Places:
    """Places of a PATH's parts as the local engine names them: (file number, row in the file)."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.sources = {fp.file_no: fp for fp in parts.files}
        self.described = parts.files[0].input.described

    def of(self, place: tuple[int, int]) -> tuple[int, int]:
        """(file number, row in the file) of row ``place[1]`` of partition ``place[0]``."""
        return self.parts.files[place[0]].file_no, _file_row(self.parts, place)

    def name(self, file_no: int) -> str:
        return self.sources[file_no].source.name

    def where(self, file_no: int, row: int) -> str:
        from clfeval.io import row_ref

        fp = self.sources[file_no]
        return f"file {fp.source.name!r}, {row_ref(fp.source, fp.input.fmt, row)}"


def _file_row(parts: Parts, place: tuple[int, int]) -> int:
    """The 0-based row in its file of row ``place[1]`` of partition ``place[0]`` (row groups counted before it)."""
    fp = parts.files[place[0]]
    before = 0
    if fp.group:
        import pyarrow.parquet as pq

        with pq.ParquetFile(str(fp.source.path)) as f:
            before = sum(f.metadata.row_group(g).num_rows for g in range(fp.group))
    return before + place[1]
