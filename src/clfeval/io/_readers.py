"""Reading one file: CSV, TSV, JSONL and Parquet, by extension — whole, or in batches.

All parsing is pyarrow's (multi-threaded C++): no per-row Python loop.
:func:`file_tables` gives a file's rows whole or a batch at a time (pyarrow's
streaming CSV reader, Parquet row groups, JSON Lines in parts of whole lines),
with the same checks and messages either way; :mod:`clfeval.io._batches` reads
a PATH (files, directories, globs, standard input) through it, and
:mod:`clfeval.io._predictions` turns the rows into labels.
CSV and TSV values are read as *strings*, never type-guessed, so "007" stays
"007" and gold and predicted labels always compare as the same type. Typed
Parquet and JSONL values keep their types; command-line options are matched
to them by string form (``--positive 1`` means the label 1 in every format).

Labels stay exact: CSV/TSV text as written; JSONL label columns that
pyarrow would round (float64, timestamps) re-read exactly (see
:mod:`clfeval.io._jsonl`); in a typed numeric column equal numbers are one label.
Duplicate column names, bytes that are not UTF-8 (unless ``encoding="latin-1"``)
and one column given two roles are refused; a UTF-8 byte-order mark is
dropped; quoted newlines are read in files of any size. Standard input (or a
pipe) is read as a :class:`~clfeval.io._source.Source` holding its bytes.

Every problem is reported as one paragraph naming the file and, where it
applies, the row (counted from 1 after the header, in every format), line
and column at fault.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from clfeval.errors import DataError, UsageError
from clfeval.io._csvsafe import escape_table, restore_table
from clfeval.io._outputs import OutputFiles, atomic_path
from clfeval.io._source import (
    BLOCK_CAP,
    Source,
    check_text_bytes,
    check_unique_names,
    first_invalid_utf8_row,
    read_header,
    records,
    utf8_error,
    utf8_valid,
)


class _Decoding(threading.local):
    #: Whether pyarrow decodes with its thread pool in this thread (see :func:`decoding_alongside`).
    threads = True


_decoding = _Decoding()


def arrow_threads() -> bool:
    """Whether the readers let pyarrow decode with its thread pool in the calling thread (``use_threads``)."""
    return _decoding.threads


@contextlib.contextmanager
def decoding_alongside() -> Iterator[None]:
    """Readers in this thread decode while another thread counts (a read-ahead thread): on a machine of two cores
    or fewer they decode in this thread alone, without pyarrow's thread pool. The pool has a thread per core, so
    the pool and the counting thread together would ask for more cores than there are, and the counting thread
    -- the one the run waits for -- would be the one preempted. Measured on two cores: the slice search of
    ``bench/slices_speed.py`` (ten columns, 1e7 rows) 0.62-0.79 s instead of 0.88-0.95 s. With more cores the
    pool is kept."""
    old = _decoding.threads
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    _decoding.threads = old and cores > 2
    try:
        yield
    finally:
        _decoding.threads = old

__all__ = ["FORMATS", "detect_format", "read_frame", "file_tables", "column_names", "Source", "write_frame",
           "atomic_write_text"]

FORMATS = ("csv", "tsv", "jsonl", "parquet")
_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl",
               ".parquet": "parquet", ".pq": "parquet"}


def detect_format(path: str | os.PathLike | Source, input_format: str | None = None) -> str:
    """The file format: ``input_format`` when given, else from the extension (standard input: CSV)."""
    if input_format is not None:
        fmt = input_format.lower()
        if fmt not in FORMATS:
            raise UsageError(f"option --input-format must be one of {', '.join(FORMATS)}; got {input_format!r}.")
        return fmt
    if isinstance(path, Source) and path.is_stdin:
        return "csv"
    ext = Path(str(path)).suffix.lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    inner = Path(Path(str(path)).stem).suffix.lower()
    if ext in (".gz", ".bz2", ".xz", ".zst", ".zip") and inner in _EXTENSIONS:
        raise UsageError(f"{str(path)!r} is a compressed {_EXTENSIONS[inner].upper()} file ({ext}); clfeval reads "
                         f"uncompressed files (a member of a directory as a single file): decompress it first.")
    raise UsageError(
        f"cannot tell the format of {str(path)!r} from its extension {ext or '(none)'!r}; use a .csv, .tsv, "
        f".jsonl or .parquet file name, or say --input-format csv|tsv|jsonl|parquet."
    )


def _ragged(src: Source, delimiter: str, width: int) -> tuple[int, int] | None:
    """(row, line) of the first data row whose number of fields differs from the header's (error path only)."""
    for k, (line, fields) in enumerate(records(src, delimiter)):
        if len(fields) != width:
            return k, line
    return None


def _csv_block(batch_rows: int | None) -> int:
    return 1 << 24 if batch_rows is None else min(1 << 24, max(1 << 16, batch_rows * 32))


def _delimited_tables(src: Source, fmt: str, columns: Sequence[str] | None,
                      batch_rows: int | None = None) -> Iterator[pa.Table]:
    """The rows of a CSV/TSV file as text: the whole file (``batch_rows=None``) or pyarrow's streaming
    reader, block by block. Every problem names the file and, where it applies, the row and line."""
    import pyarrow.csv as pacsv

    delimiter = "," if fmt == "csv" else "\t"
    header = read_header(src, delimiter)
    if not header or all(not h.strip() for h in header):
        raise DataError(f"file {src.name!r} has an empty first line; expected a header line naming the columns (for "
                        f"example gold{delimiter}pred).")
    check_unique_names(header, f"file {src.name!r}")
    first_bad: list[Any] = []

    def on_invalid(row: Any) -> str:
        first_bad.append(row)
        return "error"

    include = None
    if columns is not None:
        include = [c for c in dict.fromkeys(columns) if c in header]
    # a quoted value may hold a newline: the slower quote-aware splitting is needed only if a quote occurs
    parse_options = pacsv.ParseOptions(delimiter=delimiter, invalid_row_handler=on_invalid,
                                       newlines_in_values=src.contains(b'"'))
    convert_options = pacsv.ConvertOptions(column_types={h: pa.string() for h in header}, strings_can_be_null=False,
                                           quoted_strings_can_be_null=False, include_columns=include)

    def failed(exc: Exception) -> DataError:
        if first_bad:
            row = first_bad[0]
            found = _ragged(src, delimiter, len(header))
            where = f"row {found[0]} (line {found[1]})" if found else "a row"
            return DataError(
                f"file {src.name!r}, {where}: expected {row.expected_columns} fields (the header has "
                f"{len(header)} columns) but found {row.actual_columns}: {row.text[:80]!r}. Every row must have "
                f"as many fields as the header; quote fields that contain the delimiter.")
        if "UTF8" in str(exc) and src.encoding == "utf-8":
            return utf8_error(src, fmt)
        if "Empty CSV file" in str(exc):
            return DataError(f"file {src.name!r} has a header but no rows; expected at least one item.")
        return DataError(f"file {src.name!r} could not be read as {fmt.upper()}: {str(exc).splitlines()[0]}")

    cap = getattr(src, "block_cap", BLOCK_CAP)
    block = min(_csv_block(batch_rows), cap)
    emitted = 0  # rows yielded so far: a read started again with larger blocks skips them
    while True:
        read_options = pacsv.ReadOptions(use_threads=arrow_threads(), block_size=block,
                                         encoding="latin1" if src.encoding == "latin-1" else "utf8")
        skip = emitted
        try:
            for table in _csv_blocks(src, pacsv, batch_rows, read_options, parse_options, convert_options):
                if skip:
                    cut = min(skip, table.num_rows)
                    skip -= cut
                    table = table.slice(cut)
                    if table.num_rows == 0:
                        continue
                emitted += table.num_rows
                yield restore_table(table, header)  # clfeval's own file: its formula-escaped cells as written
            return
        except _Straddles:
            if block >= cap:
                raise DataError(_too_long(src, cap)) from None
            block = min(2 * block, cap)
        except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
            if "Empty CSV file" in str(exc) and src.size() > 0 and batch_rows is not None:  # a header, no rows
                return
            raise failed(exc) from None


class _Straddles(Exception):
    """A row longer than pyarrow's block: read again with larger blocks."""


def _too_long(src: Source, cap: int) -> str:
    """The refusal of a CSV row longer than the largest block ``cap``, naming the first such row and its line."""
    found = long_row(src, cap)
    where = f"row {found[0]} (line {found[1]})" if found else "a row"
    mib = f"{cap / (1 << 20):g} MiB"
    return (f"file {src.name!r}, {where} is longer than {mib} (a single field of that size, or an unclosed quote "
            f"that runs on); clfeval reads CSV in blocks of at most {mib} (min(256 MiB, --memory / 4)). Check the "
            f"file's quoting, split the field, or give a larger --memory.")


def long_row(src: Source, cap: int, chunk: int = 1 << 24) -> tuple[int, int] | None:
    """(data row from 1, line from 1) of the first row of a CSV file longer than ``cap`` bytes, or None.

    A row ends at a newline outside quotes (a quote toggles; ``""`` inside quotes toggles twice).

    >>> long_row(Source.from_bytes(b'g,p\\na,b\\n"x\\nyyyyyyyy",c\\nd,e\\n'), 8)
    (2, 3)
    """
    import numpy as np

    start, start_line, pos, quoted, rows, lines = 0, 1, 0, 0, 0, 0  # rows: data rows ended (the header: row 0)
    with src.open_binary() as f:
        while True:
            buf = f.read(chunk)
            if not buf:
                break
            a = np.frombuffer(buf, dtype=np.uint8)
            parity = (np.cumsum(a == 34) + quoted) & 1
            nl = np.flatnonzero(a == 10)
            for i in np.flatnonzero(parity[nl] == 0).tolist():
                end = pos + int(nl[i]) + 1
                if start_line > 1 and end - start > cap:
                    return rows + 1, start_line
                rows += start_line > 1
                start, start_line = end, lines + i + 2
            lines += nl.size
            quoted = int(parity[-1])
            pos += len(buf)
    if start_line > 1 and pos - start > cap:
        return rows + 1, start_line
    return None


def _csv_blocks(src: Source, pacsv: Any, batch_rows: int | None, read_options: Any, parse_options: Any,
                convert_options: Any) -> Iterator[pa.Table]:
    """pyarrow's CSV reader: the whole file, or block by block; a row longer than a block raises _Straddles."""
    def straddles(exc: Exception) -> bool:
        return "straddl" in str(exc)

    if batch_rows is None:
        try:
            yield pacsv.read_csv(src.arrow(), read_options=read_options, parse_options=parse_options,
                                 convert_options=convert_options)
        except pa.ArrowInvalid as exc:
            if straddles(exc):
                raise _Straddles() from None
            raise
        return
    try:
        reader = pacsv.open_csv(src.arrow(), read_options=read_options, parse_options=parse_options,
                                convert_options=convert_options)
    except pa.ArrowInvalid as exc:
        if straddles(exc):
            raise _Straddles() from None
        raise
    batches = iter(reader)
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except pa.ArrowInvalid as exc:
            if straddles(exc):
                raise _Straddles() from None
            raise
        yield pa.Table.from_batches([batch])


def _read_jsonl(src: Source, columns: Sequence[str] | None, exact: Sequence[str] | bool) -> tuple[pa.Table, set[str]]:
    import pyarrow.json as pajson

    from clfeval.io._jsonl import LONG_NUMBER, diagnose, needs_exact, read_exact

    try:
        table = pajson.read_json(src.arrow_utf8(), read_options=pajson.ReadOptions(block_size=1 << 24))
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        if src.encoding == "utf-8" and not utf8_valid(src):
            raise utf8_error(src, "jsonl") from None
        why = diagnose(src)
        if why:
            raise DataError(f"file {src.name!r}, {why}.") from None
        msg = re.sub(r" in row -?\d+", "", str(exc).splitlines()[0])  # pyarrow counts rows from 0, per block
        raise DataError(f"file {src.name!r} is not valid JSON Lines (one JSON object per line): {msg}") from None
    try:
        _ = table.column_names  # decodes the keys
    except UnicodeDecodeError:  # a key that is not UTF-8
        raise utf8_error(src, "jsonl") from None
    if columns is not None:
        table = table.select([c for c in dict.fromkeys(columns) if c in table.column_names])
    wanted = table.column_names if exact is True else [c for c in (exact or ()) if c in table.column_names]
    redo = [c for c in wanted if needs_exact(table.column(c).type)]
    if redo and not src.matches(LONG_NUMBER):  # every number short: float64 kept each one exactly
        redo = [c for c in redo if not _floats(table.column(c).type)]
    numeric_text: set[str] = set()
    if redo:
        lists = {c: pa.types.is_list(table.column(c).type) or pa.types.is_large_list(table.column(c).type)
                 for c in redo}
        for name, arr in read_exact(src, lists).items():
            if len(arr) != table.num_rows:
                raise DataError(f"file {src.name!r}: column {name!r} could not be read exactly (rows differ); quote "
                                f"its labels as strings.")
            was = table.column(name).type
            numeric = not (pa.types.is_timestamp(was) or pa.types.is_timestamp(getattr(was, "value_type", was)))
            if numeric and _is_text(arr.type):
                numeric_text.add(name)
            table = table.set_column(table.column_names.index(name), name, arr)
    return table, numeric_text


def _floats(typ: pa.DataType) -> bool:
    if pa.types.is_list(typ) or pa.types.is_large_list(typ):
        typ = typ.value_type
    return pa.types.is_floating(typ)


def _is_text(typ: pa.DataType) -> bool:
    if pa.types.is_list(typ) or pa.types.is_large_list(typ):
        typ = typ.value_type
    return pa.types.is_string(typ) or pa.types.is_large_string(typ)


def _parquet_tables(src: Source, columns: Sequence[str] | None, dictionary_columns: Sequence[str] = (),
                    batch_rows: int | None = None, groups: Sequence[int] | None = None) -> Iterator[pa.Table]:
    """The rows of a Parquet file: the whole file, or one row group (or ``batch_rows`` rows of it) at a time."""
    import pyarrow.parquet as pq

    def unreadable(exc: Exception) -> DataError:
        return DataError(f"file {src.name!r} is not a readable Parquet file (its extension says Parquet): "
                         f"{str(exc).splitlines()[0]}")

    try:
        pf = pq.ParquetFile(src.arrow())
        schema = pf.schema_arrow
    except (pa.ArrowInvalid, OSError) as exc:
        raise unreadable(exc) from None
    try:
        names = schema.names
    except UnicodeDecodeError:
        raise DataError(f"file {src.name!r}: a column name in its Parquet schema is not valid UTF-8; rename the "
                        f"columns.") from None
    check_unique_names(names, f"file {src.name!r}", "schema")
    cols = None if columns is None else [c for c in dict.fromkeys(columns) if c in names]
    read_dict = [c for c in dictionary_columns if c in names
                 and (pa.types.is_string(schema.field(c).type) or pa.types.is_large_string(schema.field(c).type))
                 and (cols is None or c in cols)]
    try:
        if batch_rows is None and groups is None:
            pf.close()
            yield pq.read_table(src.arrow(), columns=cols, read_dictionary=read_dict or None,
                                use_threads=arrow_threads())
            return
        pf = pq.ParquetFile(src.arrow(), read_dictionary=read_dict or None)
        for group in (range(pf.num_row_groups) if groups is None else groups):
            if batch_rows is None or pf.metadata.row_group(group).num_rows <= batch_rows:
                yield pf.read_row_group(group, columns=cols, use_threads=arrow_threads())
                continue
            for batch in pf.iter_batches(batch_size=batch_rows, row_groups=[group], columns=cols,
                                         use_threads=arrow_threads()):
                yield pa.Table.from_batches([batch])
    except (pa.ArrowInvalid, OSError) as exc:
        raise unreadable(exc) from None
    finally:
        pf.close()


def _check_utf8(src: Source, fmt: str, table: pa.Table) -> None:
    """Text read without pyarrow's CSV checks (JSONL, Parquet) must be valid UTF-8 too."""
    for name in table.column_names:
        col = table.column(name)
        typ = col.type.value_type if pa.types.is_dictionary(col.type) else col.type
        if not (_is_text(typ) or pa.types.is_dictionary(col.type)):
            continue
        try:
            col.validate(full=True)
        except pa.ArrowInvalid:
            raise utf8_error(src, fmt, column=name, row=first_invalid_utf8_row(col)) from None


def _jsonl_tables(src: Source, columns: Sequence[str] | None, exact: Sequence[str] | bool,
                  batch_rows: int | None = None) -> Iterator[tuple[pa.Table, set[str]]]:
    """The rows of a JSON Lines file, exactly (:mod:`clfeval.io._jsonl`): the whole file, or parts of whole
    lines read one at a time, each a :class:`Source` that knows the rows, lines and bytes before it (so
    that every message counts them in the whole file)."""
    if batch_rows is None:
        yield _read_jsonl(src, columns, exact)
        return
    block = min(1 << 24, max(1 << 8, batch_rows * 64))
    rows = lines = offset = 0
    for chunk in _line_blocks(src, block):
        if chunk.strip(b" \t\r\n\xef\xbb\xbf"):
            part = Source.from_bytes(chunk, name=src.name, encoding=src.encoding, origin=(rows, lines, offset))
            table, numeric_text = _read_jsonl(part, columns, exact)
            _check_utf8(part, "jsonl", table)
            rows += table.num_rows
            yield table, numeric_text
        lines += chunk.count(b"\n")
        offset += len(chunk)


def _line_blocks(src: Source, block: int) -> Iterator[bytes]:
    """The bytes of a source in blocks of about ``block`` bytes that end at a line end (the last one may not)."""
    with src.open_binary() as fh:
        rest = b""
        while True:
            data = fh.read(block)
            if not data:
                if rest:
                    yield rest
                return
            data = rest + data
            cut = data.rfind(b"\n")
            if cut < 0:
                rest = data
                continue
            rest = data[cut + 1:]
            yield data[:cut + 1]


def file_tables(src: Source, fmt: str, *, columns: Sequence[str] | None = None, dictionary_columns: Sequence[str] = (),
                exact: Sequence[str] | bool = (), batch_rows: int | None = None,
                groups: Sequence[int] | None = None) -> Iterator[tuple[pa.Table, set[str]]]:
    """The rows of one file (or standard input) as tables: the whole file, or about ``batch_rows`` rows at a time.

    Yields ``(table, numeric_text)``: ``numeric_text`` names the JSON Lines
    label columns whose numbers had to become exact text (see
    :func:`read_frame`); empty for the other formats. A file with a header
    (or schema) and no rows yields nothing when read in batches; every other
    problem is refused as :func:`read_frame` refuses it. ``groups``: only these row groups of a Parquet file.
    """
    if src.size() == 0:
        raise DataError(f"file {src.name!r} is empty; expected a header line and at least one row.")
    if fmt != "parquet":
        check_text_bytes(src, fmt)
    if fmt != "parquet" and src.head(4) == b"PAR1":
        raise DataError(f"file {src.name!r} is a Parquet file, not {fmt.upper()} as its extension says; rename it to "
                        ".parquet or pass --input-format parquet.")
    if fmt == "jsonl":
        for table, numeric_text in _jsonl_tables(src, columns, exact, batch_rows):
            if batch_rows is None:
                _check_utf8(src, fmt, table)
            yield from ((t, numeric_text) for t in _slices(table, batch_rows))
        return
    tables = _parquet_tables(src, columns, dictionary_columns, batch_rows, groups) if fmt == "parquet" else \
        _delimited_tables(src, fmt, columns, batch_rows)
    for table in tables:
        if fmt == "parquet":
            _check_utf8(src, fmt, table)
        yield from ((t, set()) for t in _slices(table, batch_rows))


def _slices(table: pa.Table, batch_rows: int | None) -> Iterator[pa.Table]:
    if batch_rows is None or table.num_rows <= batch_rows:
        if table.num_rows or batch_rows is None:
            yield table
        return
    for start in range(0, table.num_rows, batch_rows):
        yield table.slice(start, batch_rows)


def _read_table(path: str | os.PathLike | Source, *, input_format: str | None = None,
                columns: Sequence[str] | None = None, dictionary_columns: Sequence[str] = (),
                encoding: str = "utf-8", exact: Sequence[str] | bool = ()) -> tuple[pa.Table, Source, str, set[str]]:
    """:func:`read_frame`, also returning the source, the format and the label columns that became text."""
    src = Source.of(path, encoding=encoding)
    fmt = detect_format(src, input_format)
    table, numeric_text = next(file_tables(src, fmt, columns=columns, dictionary_columns=dictionary_columns,
                                           exact=exact))
    if table.num_rows == 0:
        what = "a header but no rows" if fmt in ("csv", "tsv") else "no rows"
        raise DataError(f"file {src.name!r} has {what}; expected at least one item.")
    return table, src, fmt, numeric_text


def read_frame(path: str | os.PathLike | Source, *, input_format: str | None = None,
               columns: Sequence[str] | None = None, dictionary_columns: Sequence[str] = (),
               encoding: str = "utf-8", exact: Sequence[str] | bool = ()) -> pa.Table:
    """Read a CSV, TSV, JSONL or Parquet file into a :class:`pyarrow.Table`.

    Parameters
    ----------
    path : path or Source
        A file (a pipe is read into memory), or a :class:`Source` holding bytes
        (standard input, read as CSV unless ``input_format`` says otherwise).
    input_format : {"csv", "tsv", "jsonl", "parquet"}, optional
        Overrides the extension.
    columns : sequence of str, optional
        Read only these columns (those that exist; the caller checks for missing ones).
    dictionary_columns : sequence of str
        Parquet string columns to read as dictionary arrays (the dictionary
        stored in the file is used as the label encoding).
    encoding : {"utf-8", "latin-1"}
        Text encoding of CSV, TSV and JSONL files (Parquet text is UTF-8).
    exact : sequence of str, or True
        Label columns (True: every column) that must keep every value exactly:
        JSONL numbers pyarrow would round are re-read exactly.

    Raises
    ------
    InputFileError
        Missing or unreadable file, a directory or a device (exit 2).
    DataError
        Empty file, header only, ragged rows, duplicate column names, bytes
        that are not UTF-8, or content that is not what the extension says (exit 1).
    """
    return _read_table(path, input_format=input_format, columns=columns, dictionary_columns=dictionary_columns,
                       encoding=encoding, exact=exact)[0]


def column_names(path: str | os.PathLike | Source, *, input_format: str | None = None,
                 encoding: str = "utf-8") -> list[str]:
    """The column names of a file: its header, its Parquet schema, or the keys of its JSON objects."""
    src = Source.of(path, encoding=encoding)
    fmt = detect_format(src, input_format)
    if fmt in ("csv", "tsv") and src.size() and src.head(4) != b"PAR1":
        return read_header(src, "," if fmt == "csv" else "\t")
    if fmt == "parquet" and src.size():
        import pyarrow.parquet as pq

        try:
            return pq.read_schema(src.arrow()).names
        except (pa.ArrowInvalid, OSError):
            pass  # the reader names the problem
    return read_frame(src, input_format=fmt, encoding=encoding).column_names


def atomic_write_text(path: str | os.PathLike, text: str, *, option: str = "--output") -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all (:func:`clfeval.io._outputs.atomic_path`)."""
    with atomic_path(path, option=option) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)


def write_frame(table: pa.Table, path: str | os.PathLike, *, output_format: str | None = None,
                option: str = "--predictions", files: OutputFiles | None = None) -> None:
    """Write a table as CSV/TSV/JSONL/Parquet by extension, whole or not at all
    (:func:`clfeval.io._outputs.atomic_path`).

    JSONL is strict JSON: NaN and infinities are written as ``null``. CSV and
    TSV follow the formula-injection policy of :mod:`clfeval.io._csvsafe`: a text
    cell starting with ``=``, ``+``, ``-``, ``@``, a tab, a carriage return
    (or ``'``) gets a ``'`` in front, and a last column ``clfeval:escaped``
    marks the file, so that :func:`read_frame` gives the written values back.
    With ``files``, the table is staged there (:class:`clfeval.io._outputs.OutputFiles`)
    and put in place when the caller publishes them.
    """
    import json

    fmt = detect_format(path, output_format)
    with (atomic_path(path, option=option) if files is None else files.staging(path, option=option)) as tmp:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(table, tmp)
        elif fmt in ("csv", "tsv"):
            import pyarrow.csv as pacsv

            pacsv.write_csv(escape_table(table), tmp,
                            write_options=pacsv.WriteOptions(delimiter="," if fmt == "csv" else "\t"))
        else:
            with open(tmp, "w", encoding="utf-8") as fh:
                for row in table.to_pylist():
                    clean = {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in row.items()}
                    fh.write(json.dumps(clean, allow_nan=False, default=str) + "\n")
