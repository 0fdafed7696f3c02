"""A PATH read as a stream of record batches, in bounded memory.

This is the one reader every streaming consumer plugs into:

* :func:`iter_batches` — the public, plain interface: ``pyarrow.RecordBatch``
  objects of the asked-for columns, about ``batch_rows`` rows each, from a
  file, a directory (a Parquet dataset, also hive-partitioned, or a folder of
  CSV/TSV/JSONL files), a glob pattern or standard input (:mod:`clfeval.io.paths`);
* :func:`iter_parts` — the same batches with where they come from (the
  file, its format, the row of the file each batch starts at), so that a
  consumer can name the file and row of a bad value.

Every file is read by :func:`clfeval.io.readers.file_tables`, with the same
exactness and checks as a whole-file read: CSV/TSV values as text (never
type-guessed), a byte-order mark dropped, duplicate column names and bytes
that are not UTF-8 refused naming the file, row, line and byte offset,
formula-escaped cells of clfeval's own files restored, JSON Lines numbers that
float64 would round re-read exactly. Memory holds one batch (and pyarrow's
read-ahead), whatever the number of rows; files are read one after the other.

Example (the batches of a directory of Parquet files, two columns):

>>> import tempfile, pyarrow as pa, pyarrow.parquet as pq, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> for i in range(3):
...     pq.write_table(pa.table({"gold": ["a", "b"], "pred": ["a", "a"], "x": [i, i]}), d / f"part-{i}.parquet")
>>> [b.num_rows for b in iter_batches(d, columns=["gold", "pred"], batch_rows=1)]
[1, 1, 1, 1, 1, 1]
>>> next(iter_batches(d, columns=["gold", "pred"])).schema.names
['gold', 'pred']
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import pyarrow as pa

from clfeval.errors import DataError
from clfeval.io.paths import InputPath, resolve_path
from clfeval.io.readers import file_tables
from clfeval.io.source import Source, row_ref

__all__ = ["Part", "iter_parts", "iter_batches", "DEFAULT_BATCH_ROWS", "Progress"]

DEFAULT_BATCH_ROWS = 1 << 20
"""Rows per batch by default (1,048,576: a Parquet row group as pyarrow writes it; a few tens of MB)."""

#: ``progress(rows, bytes)``: rows read so far, and the bytes of the input they come from (an estimate
#: within a file whose rows are not counted up front).
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Part:
    """One batch of rows and where it comes from.

    Attributes
    ----------
    table : pyarrow.Table
        The rows (the columns asked for that the file has, and its hive partition columns).
    source : Source
        The file (or standard input).
    fmt : str
        Its format.
    start : int
        The file's 0-based row index of the first row (rows count from 1 in messages).
    file_no : int
        The position of the file in its input.
    numeric_text : frozenset of str
        JSON Lines label columns whose numbers had to become exact text in this batch.
    columns : tuple of str
        Every column of the file (its header or schema; for JSON Lines, the keys of this batch).
    """

    table: pa.Table
    source: Source
    fmt: str
    start: int
    file_no: int
    numeric_text: frozenset[str]
    columns: tuple[str, ...]

    @property
    def num_rows(self) -> int:
        return self.table.num_rows

    def row_ref(self, i: int) -> str:
        """``row N (line L)`` of the batch's row ``i`` (0-based), counted in its file."""
        return row_ref(self.source, self.fmt, self.start + i)

    def where(self, i: int) -> str:
        """``file 'x.csv', row N (line L)``."""
        return f"file {self.source.name!r}, {self.row_ref(i)}"


def _file_columns(src: Source, fmt: str) -> tuple[str, ...] | None:
    from clfeval.io.readers import column_names

    if fmt == "jsonl":
        return None
    return tuple(column_names(src, input_format=fmt, encoding=src.encoding))


def _with_partitions(table: pa.Table, values: dict[str, str], columns: Sequence[str] | None) -> pa.Table:
    for key, value in values.items():
        if (columns is None or key in columns) and key not in table.column_names:
            indices = pa.array([0] * table.num_rows, type=pa.int32())
            table = table.append_column(key, pa.DictionaryArray.from_arrays(indices, pa.array([value])))
    return table


def iter_parts(inp: InputPath, *, columns: Sequence[str] | None = None, dictionary_columns: Sequence[str] = (),
               exact: Sequence[str] | bool = (), batch_rows: int | None = DEFAULT_BATCH_ROWS,
               progress: Progress | None = None,
               on_file: Callable[[Source, tuple[str, ...]], None] | None = None) -> Iterator[Part]:
    """The rows of every file of an input, a batch at a time (``batch_rows=None``: each file whole).

    Parameters
    ----------
    inp : InputPath
        From :func:`clfeval.io.paths.resolve_path`.
    columns : sequence of str, optional
        Read only these columns (those a file has; the caller checks for missing ones).
    dictionary_columns : sequence of str
        Parquet text columns read as dictionary arrays (the file's own label encoding).
    exact : sequence of str, or True
        JSON Lines label columns (True: every column) re-read exactly when pyarrow would round them.
    batch_rows : int or None
        About this many rows per batch (fewer at the end of a file).
    progress : callable, optional
        ``progress(rows, bytes)`` after every batch.
    on_file : callable, optional
        ``on_file(source, columns)`` before a CSV, TSV or Parquet file is read, with its columns (and the
        hive partition columns): a file without rows is checked as one with rows is.

    Raises
    ------
    DataError
        A file that cannot be read as its format (naming the file, row and line), or an input without rows.
    """
    rows = 0
    done_bytes = 0
    for file_no, src in enumerate(inp.sources):
        start = 0
        known = _file_columns(src, inp.fmt)
        if on_file is not None and known is not None:
            on_file(src, known + tuple(k for k in inp.partitions if k not in known))
        size, seen = src.size(), 0
        for table, numeric_text in file_tables(src, inp.fmt, columns=columns, dictionary_columns=dictionary_columns,
                                               exact=exact, batch_rows=batch_rows):
            names = known if known is not None else tuple(table.column_names)
            if inp.partitions:
                table = _with_partitions(table, inp.partition_values(src), columns)
                names = names + tuple(k for k in inp.partitions if k not in names)
            part = Part(table, src, inp.fmt, start, file_no, frozenset(numeric_text), names)
            start += table.num_rows
            rows += table.num_rows
            seen += table.nbytes  # the bytes read so far within the file, roughly (exact at its end)
            yield part
            if progress is not None:
                progress(rows, done_bytes + min(size, seen))
        done_bytes += size
        if progress is not None:
            progress(rows, done_bytes)
    if rows == 0:
        if len(inp.sources) == 1:
            src = inp.sources[0]
            what = "a header but no rows" if inp.fmt in ("csv", "tsv") else "no rows"
            raise DataError(f"file {src.name!r} has {what}; expected at least one item.")
        raise DataError(f"{inp.given!r} holds no rows in any of its {len(inp.sources)} files; expected at least one "
                        f"item.")


def iter_batches(path: str | os.PathLike[str] | Source | InputPath, *, columns: Sequence[str] | None = None,
                 input_format: str | None = None, batch_rows: int = DEFAULT_BATCH_ROWS, encoding: str = "utf-8",
                 exact: Sequence[str] | bool = True, progress: Progress | None = None) -> Iterator[pa.RecordBatch]:
    """The record batches of a PATH: a file, a directory, a glob pattern or standard input (a :class:`Source`).

    The plain interface for any streaming consumer (count tables, binned
    scores, Dask partitions): batches of about ``batch_rows`` rows of the
    ``columns`` asked for (every column when None), in file order, read with
    clfeval's exact rules (see the module docstring) in bounded memory. A
    column a file lacks is simply absent from its batches; a label column that
    holds text in one file and numbers in another keeps each file's type
    (:func:`clfeval.io.predictions.iter_predictions` checks labels, ids and
    row references on top of this).

    Parameters
    ----------
    path : path, Source or InputPath
        What to read (:func:`clfeval.io.paths.resolve_path`).
    columns : sequence of str, optional
        The columns to read.
    input_format : {"csv", "tsv", "jsonl", "parquet"}, optional
        The format of every file (default: by extension; standard input: CSV).
    batch_rows : int
        Rows per batch, at most (a batch never spans two files).
    encoding : {"utf-8", "latin-1"}
        Text encoding of CSV, TSV and JSONL files.
    exact : sequence of str, or True
        JSON Lines columns that must keep every number exactly (default: all).
    progress : callable, optional
        ``progress(rows, bytes)`` after every batch.

    Yields
    ------
    pyarrow.RecordBatch
    """
    inp = path if isinstance(path, InputPath) else resolve_path(path, input_format=input_format, encoding=encoding)
    for part in iter_parts(inp, columns=columns, exact=exact, batch_rows=batch_rows, progress=progress):
        yield from part.table.to_batches(max_chunksize=batch_rows)

