"""A PATH read as a stream of record batches, in bounded memory.

This is the one reader every streaming consumer plugs into:

* :func:`iter_batches` — the public, plain interface: ``pyarrow.RecordBatch``
  objects of the asked-for columns, about ``batch_rows`` rows each, from a
  file, a directory (a Parquet dataset, also hive-partitioned, or a folder of
  CSV/TSV/JSONL files), a glob pattern or standard input (:mod:`clfeval.io._paths`);
* :func:`iter_parts` — the same batches with where they come from (the
  file, its format, the row of the file each batch starts at), so that a
  consumer can name the file and row of a bad value.

Every file is read by :func:`clfeval.io._readers.file_tables`, with the same
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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

import pyarrow as pa

from clfeval.errors import DataError, InputFileError
from clfeval.io._paths import InputPath, resolve_path
from clfeval.io._readers import file_tables
from clfeval.io._source import Source, row_ref

__all__ = ["Part", "iter_parts", "iter_batches", "DEFAULT_BATCH_ROWS", "Progress", "FilePart", "file_parts",
           "read_part"]

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

    def file_row(self, i: int) -> int:
        """The file's 0-based row index of the batch's row ``i``."""
        return self.start + i

    def row_ref(self, i: int) -> str:
        """``row N (line L)`` of the batch's row ``i`` (0-based), counted in its file."""
        return row_ref(self.source, self.fmt, self.start + i)

    def where(self, i: int) -> str:
        """``file 'x.csv', row N (line L)``."""
        return f"file {self.source.name!r}, {self.row_ref(i)}"


def _file_columns(src: Source, fmt: str) -> tuple[str, ...] | None:
    from clfeval.io._readers import column_names

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
               on_file: Callable[[Source, tuple[str, ...]], None] | None = None,
               allow_empty: bool = False, groups: Sequence[int] | None = None) -> Iterator[Part]:
    """The rows of every file of an input, a batch at a time (``batch_rows=None``: each file whole).

    Parameters
    ----------
    inp : InputPath
        From :func:`clfeval.io._paths.resolve_path`.
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
                                               exact=exact, batch_rows=batch_rows, groups=groups):
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
    if rows == 0 and not allow_empty:
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
    (:func:`clfeval.io._predictions.iter_predictions` checks labels, ids and
    row references on top of this).

    Parameters
    ----------
    path : path, Source or InputPath
        What to read (:func:`clfeval.io._paths.resolve_path`).
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



# --- parts for other engines: one file of a PATH, picklable, read with every check -----------------

@dataclass(frozen=True)
class FilePart:
    """One file of a PATH as a picklable piece of work: :func:`read_part` reads it on any machine that sees
    the file, with the checks of the local reader (header, columns present, encoding, byte-order mark, JSON
    Lines exactness, hive partition columns, empty and normalised labels).

    Attributes
    ----------
    input : InputPath
        The PATH narrowed to this one file (its hive partition values kept).
    file_no : int
        The file's position in its PATH.
    columns : tuple of str
        The columns read; each must exist.
    labels : tuple of str
        Label columns among them: no empty label (single-label data), Unicode-normalised on request.
    normalize : {"nfc"} or None
    options : tuple of (str, str)
        The option naming each column (``("--gold", "gold")``), for messages.
    group : int or None
        One row group of a Parquet file (its rows count from the group's first row in messages).
    scores : tuple of str
        Score columns among them: a missing value, NaN or an infinity is refused naming its row and line.
    """

    input: InputPath
    file_no: int
    columns: tuple[str, ...]
    labels: tuple[str, ...] = ()
    normalize: str | None = None
    options: tuple[tuple[str, str], ...] = ()
    group: int | None = None
    scores: tuple[str, ...] = ()

    @property
    def source(self) -> Source:
        return self.input.sources[0]


def file_parts(inp: InputPath, columns: Sequence[str], *, labels: Sequence[str] = (), normalize: str | None = None,
               options: Sequence[tuple[str, str]] = (), scores: Sequence[str] = ()) -> list[FilePart]:
    """The files of a resolved PATH as :class:`FilePart` (standard input cannot be shipped to another process)."""
    from dataclasses import replace

    cols = tuple(dict.fromkeys(c for c in columns if c))
    out: list[FilePart] = []
    for k, src in enumerate(inp.sources):
        if src.path is not None and not src.path.is_absolute():  # read by other processes, in other directories
            src = Source(src.name, src.path.absolute(), None, src.encoding)
        one = replace(inp, sources=(src,), values={src.name: inp.partition_values(src)} if inp.partitions else {})
        groups: list[int | None] = [None]
        if inp.fmt == "parquet":
            n = _row_groups(src)
            groups = list(range(n)) if n > 1 else [None]
        out.extend(FilePart(one, k, cols, tuple(c for c in labels if c), normalize, tuple(options), g,
                            tuple(c for c in scores if c)) for g in groups)
    return out


def _check_finite(part: Part, col: pa.ChunkedArray, name: str) -> None:
    """A score column's missing values, NaN and infinities, named by file, row and line (values that are not
    numbers are left to the score checks)."""
    import pyarrow.compute as pc

    typ = col.type.value_type if pa.types.is_dictionary(col.type) else col.type
    if pa.types.is_integer(typ) and not col.null_count:
        return
    if pa.types.is_string(typ) or pa.types.is_large_string(typ):
        text = pc.utf8_trim_whitespace(col.cast(typ))
        empty = pc.fill_null(pc.equal(text, ""), True)
        if pc.any(empty).as_py():
            i = _first_true(empty)
            what = "has a missing value" if col[i].as_py() is None else "is empty"
            raise DataError(f"score column {name!r} {what} at {part.where(i)}; every item needs a score.")
        try:
            values = pc.cast(text, pa.float64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return
    elif pa.types.is_floating(typ) or pa.types.is_integer(typ) or pa.types.is_decimal(typ):
        values = col.cast(typ)
    else:
        return
    bad = pc.or_kleene(pc.is_null(values), pc.invert(pc.is_finite(values.cast(pa.float64()))))
    bad = pc.fill_null(bad, True)
    if not pc.any(bad).as_py():
        return
    i = _first_true(bad)
    value = col[i].as_py()
    if value is None or (isinstance(value, str) and not value.strip()):
        what = "has a missing value" if value is None else "is empty"
        raise DataError(f"score column {name!r} {what} at {part.where(i)}; every item needs a score.")
    raise DataError(f"score column {name!r} holds {float(values[i].as_py())!r} at {part.where(i)}; scores must be "
                    f"finite real numbers (NaN and infinities cannot be ranked or thresholded).")


def _first_true(mask: pa.ChunkedArray | pa.Array) -> int:
    import numpy as np

    arr = mask.combine_chunks() if isinstance(mask, pa.ChunkedArray) else mask
    return int(np.flatnonzero(np.asarray(arr))[0])


def _row_groups(src: Source) -> int:
    import pyarrow.parquet as pq

    try:
        with pq.ParquetFile(src.arrow()) as f:
            return f.metadata.num_row_groups
    except (pa.ArrowInvalid, OSError):
        return 1  # the reader names the problem


def _group_start(src: Source, group: int) -> int:
    """The file row of the first row of a Parquet file's row group ``group``."""
    import pyarrow.parquet as pq

    try:
        with pq.ParquetFile(src.arrow()) as f:
            return sum(f.metadata.row_group(i).num_rows for i in range(group))
    except (pa.ArrowInvalid, OSError):
        return 0  # the reader names the problem


def _missing(src: Source, name: str, columns: Sequence[str], options: Sequence[tuple[str, str]]) -> DataError:
    option = next((o for o, c in options if c == name), None)
    how = f" (option {option})" if option else ""
    return DataError(f"file {src.name!r} has no column {name!r}{how}; its columns are: "
                     f"{', '.join(repr(c) for c in columns)}. Every file of the input needs every column the command "
                     f"reads.")


def read_part(part: FilePart) -> pa.Table:
    """The rows of one :class:`FilePart` as a table of its columns, checked as the local reader checks them.

    Raises
    ------
    DataError
        A missing column (naming the file and the column, whatever the file's length), an empty label
        (naming the file, row and line), a file that cannot be read as its format.
    """
    tables = [p.table for p in read_pieces(part)]
    if not tables:
        return pa.table({c: pa.array([], type=pa.string()) for c in part.columns})
    return pa.concat_tables(tables, promote_options="permissive") if len(tables) > 1 else tables[0]


def read_pieces(part: FilePart) -> Iterator[Part]:
    """The rows of one :class:`FilePart` as checked batches (:class:`Part`, each knowing its file and first row, so
    that messages name a row as the local reader names it); :func:`read_part` is their concatenation."""
    from clfeval.core import normalize_labels
    from clfeval.io._predictions import check_labels_present

    src = part.source

    def check(source: Source, columns: tuple[str, ...]) -> None:
        for c in part.columns:
            if c not in columns:
                raise _missing(source, c, columns, part.options)

    if src.path is not None:
        try:
            with open(src.path, "rb"):
                pass
        except OSError as exc:
            raise InputFileError(f"file {src.name!r} cannot be read where the work runs ({src.path}: "
                                 f"{exc.strerror or exc}); on a Dask cluster every file of a PATH must be readable "
                                 f"by the workers, at the same path.") from None
    groups = None if part.group is None else [part.group]
    offset = _group_start(src, part.group) if part.group else 0
    for p in iter_parts(part.input, columns=part.columns, exact=part.labels, batch_rows=None, on_file=check,
                        allow_empty=True, groups=groups):
        if offset:  # a row group's rows are named by their row in the file, as the local reader names them
            p = replace(p, start=p.start + offset)
        check(p.source, p.columns)
        t = p.table
        for c in part.labels:
            col = t.column(c)
            if part.normalize:
                col = normalize_labels(col, part.normalize)
                t = t.set_column(t.column_names.index(c), c, col)
            check_labels_present(src, p.fmt, col, c, start=p.start)
        for c in part.scores:
            _check_finite(p, t.column(c), c)
        yield replace(p, table=t.select(list(part.columns)))
