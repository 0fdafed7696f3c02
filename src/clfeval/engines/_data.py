"""Any input of an operation as one of two things: columns in memory, or a resolved PATH.

An operation takes arrays (NumPy, lists, pandas or polars Series, pyarrow arrays), a table (pandas or
polars DataFrame, pyarrow Table) with column names, or a PATH (a file, a directory, a glob, ``-``).
:func:`columns_of` turns a table or arrays into a :class:`pyarrow.Table` of named columns;
:func:`spooled` writes such a table to temporary Parquet files when it does not fit the memory budget,
so that the streamed engines read it as they read any PATH.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from typing import Any

from clfeval.errors import DataError, UsageError

__all__ = ["is_stdin", "is_path", "is_table", "as_table", "columns_of", "table_bytes", "spooled", "resolve"]


def is_path(data: Any) -> bool:
    """A PATH: text, a path object, standard input ('-'), an already resolved PATH or a byte source."""
    from clfeval.io import InputPath, Source

    return isinstance(data, (str, os.PathLike, InputPath, Source))


def is_stdin(data: Any) -> bool:
    """Standard input: ``-``, or a PATH or byte source that reads it."""
    from clfeval.io import STDIN, InputPath, Source

    if isinstance(data, InputPath):
        return data.kind == "stdin"
    if isinstance(data, Source):
        return data.name == STDIN
    return isinstance(data, (str, os.PathLike)) and str(data) == "-"


def is_table(data: Any) -> bool:
    """A table with named columns: a pyarrow Table, a pandas or a polars DataFrame."""
    import pyarrow as pa

    if isinstance(data, pa.Table):
        return True
    kind = type(data).__module__.split(".", 1)[0]
    return kind in ("pandas", "polars") and hasattr(data, "columns") and not hasattr(data, "name")


def as_table(data: Any) -> Any:
    """A pandas / polars DataFrame or pyarrow Table as a pyarrow Table (the index of pandas left out)."""
    import pyarrow as pa

    if isinstance(data, pa.Table):
        return data
    kind = type(data).__module__.split(".", 1)[0]
    if kind == "polars":
        return data.to_arrow()
    return pa.Table.from_pandas(data, preserve_index=False)


def as_column(values: Any, name: str) -> Any:
    """One column of values (a list, a NumPy array, a pandas or polars Series, a pyarrow array) as pyarrow."""
    import numpy as np
    import pyarrow as pa

    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values
    kind = type(values).__module__.split(".", 1)[0]
    if kind == "polars":
        return values.to_arrow()
    if kind == "pandas":
        return pa.Array.from_pandas(values)
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise DataError(lambda p: f"{p} must be one column of values (1-D); got an array of shape {arr.shape}.",
                        params=[name])
    return pa.array(arr.tolist() if arr.dtype == object else arr)


def columns_of(data: Any, wanted: Mapping[str, str | None]) -> Any:
    """The columns an operation reads from a table, checked (``wanted``: parameter → column name)."""
    table = as_table(data)
    names = table.column_names
    for param, col in wanted.items():
        if col is not None and col not in names:
            raise DataError(lambda p, _c=col: f"the table has no column {_c!r} (parameter {p}); its columns are: "
                                              f"{', '.join(repr(c) for c in names)}.", params=[param])
    return table


def table_bytes(table: Any) -> int:
    """Bytes of a pyarrow Table in memory (what the budget is held against)."""
    return int(table.nbytes)


def write_parts(table: Any, directory: str, budget: int) -> str:
    """``table`` as Parquet files in ``directory`` (row groups of at most a quarter of ``budget``); returns the
    directory."""
    import pyarrow.parquet as pq

    per_row = max(1, table_bytes(table) // max(table.num_rows, 1))
    rows = max(1, min(table.num_rows, budget // 4 // per_row)) if table.num_rows else 1
    os.makedirs(directory, exist_ok=True)
    for i, start in enumerate(range(0, max(table.num_rows, 1), rows)):
        pq.write_table(table.slice(start, rows), os.path.join(directory, f"part-{i:06d}.parquet"))
    return directory


@contextlib.contextmanager
def spooled(table: Any, budget: int, tmpdir: str | None) -> Iterator[Any]:
    """A table written to temporary Parquet files (a spill directory removed at the end), as a resolved PATH."""
    from clfeval.io import resolve_path, spill_directory

    with spill_directory(tmpdir) as tmp:
        where = write_parts(table, os.path.join(tmp, "input"), budget)
        yield resolve_path(where, input_format="parquet")


def resolve(data: Any, *, input_format: str | None = None, encoding: str = "utf-8", option: str | None = None) -> Any:
    """A PATH resolved (:func:`clfeval.io._paths.resolve_path`); ``-`` reads standard input once."""
    import sys

    from clfeval.io import InputPath, Source, resolve_path

    if isinstance(data, InputPath):
        return data
    if not isinstance(data, Source) and str(data) == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise UsageError("standard input ('-') is closed; pipe the data in, or give a file.")
        data = Source.from_stream(stream)
    return resolve_path(data, input_format=input_format, encoding=encoding, option=option)
