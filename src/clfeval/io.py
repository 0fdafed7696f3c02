"""Reading prediction files: CSV, TSV, JSONL and Parquet, by extension.

All parsing is pyarrow's (multi-threaded C++): no per-row Python loop.
CSV and TSV values are read as *strings*, never type-guessed, so "007" stays
"007" and gold and predicted labels always compare as the same type. Typed
Parquet and JSONL values keep their types; command-line options are matched
to them by string form (``--positive 1`` means the label 1 in every format).

Every problem is reported as one paragraph naming the file and, where it
applies, the row, line and column at fault.
"""

from __future__ import annotations

import contextlib
import csv
import io as _io
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from clfeval._labels import label_str
from clfeval.errors import DataError, InputFileError, UsageError

__all__ = ["FORMATS", "detect_format", "read_frame", "read_predictions", "Predictions", "write_frame", "atomic_write_text",
           "column_names", "row_reference"]

FORMATS = ("csv", "tsv", "jsonl", "parquet")
_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl",
               ".parquet": "parquet", ".pq": "parquet"}


def detect_format(path: str | os.PathLike, input_format: str | None = None) -> str:
    """The file format: ``input_format`` when given, else from the extension."""
    if input_format is not None:
        fmt = input_format.lower()
        if fmt not in FORMATS:
            raise UsageError(f"option --input-format must be one of {', '.join(FORMATS)}; got {input_format!r}.")
        return fmt
    ext = Path(path).suffix.lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    raise UsageError(
        f"cannot tell the format of {str(path)!r} from its extension {ext or '(none)'!r}; use a .csv, .tsv, "
        f".jsonl or .parquet file name, or say --input-format csv|tsv|jsonl|parquet."
    )


def _check_file(path: Path) -> None:
    if not path.exists():
        raise InputFileError(f"file {str(path)!r} does not exist.")
    if path.is_dir():
        raise InputFileError(f"{str(path)!r} is a directory; expected a predictions file.")
    if not os.access(path, os.R_OK):
        raise InputFileError(f"file {str(path)!r} cannot be read (permission denied).")


def _sniff_parquet(path: Path) -> bool:
    with open(path, "rb") as fh:
        return fh.read(4) == b"PAR1"


def _read_header(path: Path, delimiter: str) -> list[str]:
    with open(path, "r", encoding="utf-8", errors="replace", newline="") as fh:
        first = fh.readline()
    return next(csv.reader(_io.StringIO(first), delimiter=delimiter), [])


def _first_ragged_line(path: Path, delimiter: str, width: int) -> int | None:
    with open(path, "r", encoding="utf-8", errors="replace", newline="") as fh:
        reader = csv.reader(fh, delimiter=delimiter)
        for row in reader:
            if row and len(row) != width:
                return reader.line_num
    return None


def _read_delimited(path: Path, fmt: str, columns: Sequence[str] | None) -> pa.Table:
    import pyarrow.csv as pacsv

    delimiter = "," if fmt == "csv" else "\t"
    header = _read_header(path, delimiter)
    if not header or all(not h.strip() for h in header):
        raise DataError(f"file {str(path)!r} has an empty first line; expected a header line naming the columns (for example gold{delimiter}pred).")
    first_bad: list[Any] = []

    def on_invalid(row: Any) -> str:
        first_bad.append(row)
        return "error"

    include = None
    if columns is not None:
        include = [c for c in columns if c in header]
    try:
        table = pacsv.read_csv(
            path,
            read_options=pacsv.ReadOptions(use_threads=True, block_size=1 << 24),
            parse_options=pacsv.ParseOptions(delimiter=delimiter, invalid_row_handler=on_invalid, newlines_in_values=False),
            convert_options=pacsv.ConvertOptions(
                column_types={h: pa.string() for h in header},
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
                include_columns=include,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        if first_bad:
            row = first_bad[0]
            number = getattr(row, "number", None)
            if number in (None, -1):  # multi-threaded parsing does not know line numbers: find it (error path only)
                number = _first_ragged_line(path, delimiter, len(header))
            where = f"line {number}" if number else "a line"
            raise DataError(
                f"file {str(path)!r}, {where}: expected {row.expected_columns} fields (the header has "
                f"{len(header)} columns) but found {row.actual_columns}: {row.text[:80]!r}. Every row must have "
                f"as many fields as the header; quote fields that contain the delimiter."
            ) from None
        raise DataError(f"file {str(path)!r} could not be read as {fmt.upper()}: {exc}") from None
    return table


def _read_jsonl(path: Path, columns: Sequence[str] | None) -> pa.Table:
    import pyarrow.json as pajson

    try:
        table = pajson.read_json(path, read_options=pajson.ReadOptions(block_size=1 << 24))
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        line = ""
        msg = str(exc)
        # Find the first line that is not a JSON object, to name it.
        import json as _json

        with open(path, "r", encoding="utf-8", errors="replace") as fh:
            for i, text in enumerate(fh, start=1):
                if not text.strip():
                    continue
                try:
                    obj = _json.loads(text)
                except ValueError:
                    line = f", line {i}"
                    break
                if not isinstance(obj, dict):
                    line = f", line {i} (not a JSON object)"
                    break
        raise DataError(f"file {str(path)!r}{line} is not valid JSON Lines (one JSON object per line): {msg.splitlines()[0]}") from None
    if columns is not None:
        table = table.select([c for c in columns if c in table.column_names])
    return table


def _read_parquet(path: Path, columns: Sequence[str] | None, dictionary_columns: Sequence[str] = ()) -> pa.Table:
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(path)
        cols = None if columns is None else [c for c in columns if c in schema.names]
        read_dict = [c for c in dictionary_columns if c in schema.names
                     and (pa.types.is_string(schema.field(c).type) or pa.types.is_large_string(schema.field(c).type))
                     and (cols is None or c in cols)]
        return pq.read_table(path, columns=cols, read_dictionary=read_dict or None)
    except (pa.ArrowInvalid, OSError) as exc:
        raise DataError(f"file {str(path)!r} is not a readable Parquet file (its extension says Parquet): {str(exc).splitlines()[0]}") from None


def read_frame(path: str | os.PathLike, *, input_format: str | None = None, columns: Sequence[str] | None = None,
               dictionary_columns: Sequence[str] = ()) -> pa.Table:
    """Read a CSV, TSV, JSONL or Parquet file into a :class:`pyarrow.Table`.

    Parameters
    ----------
    path : path
    input_format : {"csv", "tsv", "jsonl", "parquet"}, optional
        Overrides the extension.
    columns : sequence of str, optional
        Read only these columns (those that exist; the caller checks for missing ones).
    dictionary_columns : sequence of str
        Parquet string columns to read as dictionary arrays (the dictionary
        stored in the file is used as the label encoding).

    Raises
    ------
    InputFileError
        Missing or unreadable file (exit 2).
    DataError
        Empty file, header only, ragged rows, or content that is not what the
        extension says (exit 1).
    """
    p = Path(path)
    fmt = detect_format(p, input_format)
    _check_file(p)
    if p.stat().st_size == 0:
        raise DataError(f"file {str(p)!r} is empty; expected a header line and at least one row.")
    if fmt != "parquet" and _sniff_parquet(p):
        raise DataError(f"file {str(p)!r} is a Parquet file, not {fmt.upper()} as its extension says; rename it to .parquet or pass --input-format parquet.")
    if fmt == "parquet":
        table = _read_parquet(p, columns, dictionary_columns)
    elif fmt == "jsonl":
        table = _read_jsonl(p, columns)
    else:
        table = _read_delimited(p, fmt, columns)
    if table.num_rows == 0:
        what = "a header but no rows" if fmt in ("csv", "tsv") else "no rows"
        raise DataError(f"file {str(p)!r} has {what}; expected at least one item.")
    return table


@dataclass(frozen=True, eq=False)
class Predictions:
    """Gold labels, predictions and optional ids read from one file.

    When the file has a ``repeat`` column (out-of-fold predictions of a
    repeated cross-validation or holdout, where every item occurs once per
    repeat), the key of a row is (repeat, id): ``ids`` then holds that key as
    the text ``"<repeat>:<id>"``, unique per row, so that everything keyed by
    id (listing errors, aligning two files) works unchanged; ``repeats`` and
    ``item_ids`` keep the two parts.
    """

    path: str
    gold: pa.ChunkedArray
    pred: pa.ChunkedArray | None
    ids: pa.ChunkedArray | None
    columns: tuple[str, ...]
    extra: dict[str, pa.ChunkedArray]
    repeats: pa.ChunkedArray | None = None
    item_ids: pa.ChunkedArray | None = None

    @property
    def n(self) -> int:
        return len(self.gold)


def _missing_column(path: str, name: str, option: str, columns: Sequence[str]) -> DataError:
    return DataError(
        f"file {path!r} has no column {name!r} (option {option}); its columns are: "
        f"{', '.join(repr(c) for c in columns)}. Name the column with {option}."
    )


def _first_index(mask: pa.ChunkedArray | pa.Array) -> int:
    arr = np.asarray(pc.fill_null(mask, True)) if mask.null_count else np.asarray(mask)
    return int(np.flatnonzero(arr)[0])


def _row_ref(fmt: str, index: int) -> str:
    if fmt in ("csv", "tsv"):
        return f"row {index + 1} (line {index + 2}, after the header)"
    if fmt == "jsonl":
        return f"row {index + 1} (line {index + 1})"
    return f"row {index + 1}"


def _empty_label_mask(col: pa.ChunkedArray) -> pa.ChunkedArray | None:
    """Mask of missing labels (null, blank string, NaN), or None when there are none.

    Dictionary columns are checked through their (small) dictionary first.
    """
    t = col.type.value_type if pa.types.is_dictionary(col.type) else col.type
    is_text = pa.types.is_string(t) or pa.types.is_large_string(t)
    if pa.types.is_dictionary(col.type):
        if col.num_chunks == 0:
            return None
        col = col.unify_dictionaries()
        dictionary = col.chunk(0).dictionary
        bad_values = pc.is_null(dictionary)
        if is_text:
            bad_values = pc.or_(bad_values, pc.equal(pc.utf8_trim_whitespace(dictionary), ""))
        elif pa.types.is_floating(t):
            bad_values = pc.or_(bad_values, pc.is_nan(dictionary))
        bad = np.flatnonzero(np.asarray(pc.fill_null(bad_values, True)))
        if bad.size == 0 and col.null_count == 0:
            return None
        indices = pa.chunked_array([c.indices for c in col.chunks])
        return pc.or_(pc.is_null(indices), pc.is_in(indices, pa.array(bad, type=indices.type)))
    missing = pc.is_null(col)
    if is_text:
        missing = pc.or_(missing, pc.equal(pc.utf8_trim_whitespace(col), ""))
    elif pa.types.is_floating(t):
        missing = pc.or_(missing, pc.is_nan(col))
    return missing if pc.any(missing).as_py() else None


def _check_labels_present(path: str, fmt: str, col: pa.ChunkedArray, name: str) -> None:
    missing = _empty_label_mask(col)
    if missing is not None and pc.any(missing).as_py():
        i = _first_index(missing)
        raise DataError(
            f"file {path!r}, {_row_ref(fmt, i)}: the label in column {name!r} is empty; every item needs a label "
            f"in single-label data (for label sets, where an empty cell is an empty set, use --multilabel)."
        )


def _check_ids(path: str, fmt: str, ids: pa.ChunkedArray, name: str) -> None:
    if ids.null_count:
        i = _first_index(pc.is_null(ids))
        raise DataError(f"file {path!r}, {_row_ref(fmt, i)}: the id in column {name!r} is empty; every item needs an id.")
    if pc.count_distinct(ids).as_py() != len(ids):
        vc = pc.value_counts(ids)
        dup = vc.filter(pc.greater(vc.field("counts"), 1))[0]["values"].as_py()
        rows = np.flatnonzero(np.asarray(pc.equal(ids, pa.scalar(dup, type=ids.type))))[:2] + 1
        raise DataError(f"file {path!r}, column {name!r}: ids must be unique, but the id {label_str(dup)!r} occurs "
                        f"more than once (rows {rows[0]} and {rows[1]}).")


def _check_keys(path: str, fmt: str, repeats: pa.ChunkedArray, ids: pa.ChunkedArray, rname: str,
                name: str) -> pa.ChunkedArray:
    """The (repeat, id) key of every row as ``"<repeat>:<id>"``; refuses missing repeats and duplicate keys."""
    if repeats.null_count:
        i = _first_index(pc.is_null(repeats))
        raise DataError(f"file {path!r}, {_row_ref(fmt, i)}: the repeat in column {rname!r} is empty; with a "
                        f"{rname!r} column every row needs one (the key of a row is ({rname}, {name})).")
    r = repeats.cast(pa.string()) if not pa.types.is_string(repeats.type) else repeats
    keys = pc.binary_join_element_wise(r, ids.cast(pa.string()), ":")
    if pc.count_distinct(keys).as_py() != len(keys):
        vc = pc.value_counts(keys)
        dup = vc.filter(pc.greater(vc.field("counts"), 1))[0]["values"].as_py()
        rows = np.flatnonzero(np.asarray(pc.equal(keys, pa.scalar(dup))))[:2] + 1
        rep_value, _, id_value = dup.partition(":")
        raise DataError(f"file {path!r}: the key ({rname}, {name}) must be unique, but repeat {rep_value} holds the "
                        f"id {id_value!r} more than once (rows {rows[0]} and {rows[1]}).")
    return keys


def read_predictions(path: str | os.PathLike, *, gold: str = "gold", pred: str | None = "pred", id: str | None = None,
                     multilabel: bool = False, input_format: str | None = None, extra: Sequence[str] = (),
                     gold_option: str = "--gold", pred_option: str = "--pred", id_option: str = "--id",
                     require_pred: bool = True, repeat: str | None = "repeat") -> Predictions:
    """Read gold labels, predictions and ids from a predictions file.

    Parameters
    ----------
    gold, pred : str
        Column names (``pred=None`` or ``require_pred=False`` when predictions
        come from a score column and a threshold).
    id : str, optional
        Id column; by default the column ``id`` is used when the file has one.
    multilabel : bool
        Cells are label sets; an empty cell is the empty set (valid).
    extra : sequence of str
        Further columns to read (e.g. score columns); each must exist.
    repeat : str or None
        When the file has this column (default ``repeat``, written by
        ``clfeval cv`` / ``holdout`` with several repeats), rows are keyed by
        (repeat, id); see :class:`Predictions`. ``None`` ignores it.

    Raises
    ------
    DataError
        A missing column (the message lists the columns that exist), an empty
        label cell in single-label data (naming the row), duplicate ids.
    """
    p = Path(path)
    fmt = detect_format(p, input_format)
    wanted = [gold] + ([pred] if pred else []) + [id or "id"] + [e for e in extra if e] + ([repeat] if repeat else [])
    if fmt == "parquet" and not multilabel:
        table = read_frame(p, input_format=fmt, columns=wanted, dictionary_columns=[gold] + ([pred] if pred else []))
    else:
        table = read_frame(p, input_format=fmt, columns=wanted)
    names = table.column_names
    all_columns = names
    if fmt in ("csv", "tsv"):
        all_columns = _read_header(p, "," if fmt == "csv" else "\t")
    elif fmt == "parquet":
        import pyarrow.parquet as pq

        all_columns = pq.read_schema(p).names
    spath = str(p)
    if gold not in names:
        raise _missing_column(spath, gold, gold_option, all_columns)
    pred_col = None
    if pred:
        if pred in names:
            pred_col = table.column(pred)
        elif require_pred:
            raise _missing_column(spath, pred, pred_option, all_columns)
    for e in extra:
        if e and e not in names:
            raise _missing_column(spath, e, "naming it", all_columns)
    ids = None
    if id is not None:
        if id not in names:
            raise _missing_column(spath, id, id_option, all_columns)
        ids = table.column(id)
    elif "id" in names:
        ids = table.column("id")
    gold_col = table.column(gold)
    if not multilabel:
        _check_labels_present(spath, fmt, gold_col, gold)
        if pred_col is not None:
            _check_labels_present(spath, fmt, pred_col, pred)
    repeats = None
    item_ids = ids
    if repeat and repeat in names and repeat not in (gold, pred, id or "id"):
        repeats = table.column(repeat)
    if ids is not None:
        if repeats is not None:
            if ids.null_count:
                _check_ids(spath, fmt, ids, id or "id")
            ids = _check_keys(spath, fmt, repeats, ids, repeat, id or "id")
        else:
            _check_ids(spath, fmt, ids, id or "id")
    return Predictions(spath, gold_col, pred_col, ids, tuple(all_columns), {e: table.column(e) for e in extra if e},
                       repeats, item_ids)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, *, option: str = "--output") -> Iterator[str]:
    """A temporary path beside ``path`` that becomes ``path`` (by rename) only if the block succeeds.

    A failure anywhere in the block leaves neither a half-written file nor the
    temporary file behind.
    """
    import tempfile

    p = Path(path)
    if p.exists() and p.is_dir():
        raise UsageError(f"option {option} names a directory ({str(p)!r}); give a file name.")
    directory = p.parent if str(p.parent) else Path(".")
    if not directory.exists():
        raise UsageError(f"option {option}: the directory {str(directory)!r} does not exist.")
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=directory)
    os.close(fd)
    try:
        yield tmp
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same directory, then rename."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)


def write_frame(table: pa.Table, path: str | os.PathLike, *, output_format: str | None = None,
                option: str = "--predictions") -> None:
    """Write a table as CSV/TSV/JSONL/Parquet by extension, atomically (temp file, then rename).

    JSONL is strict JSON: NaN and infinities are written as ``null``.
    """
    import json

    fmt = detect_format(path, output_format)
    with atomic_path(path, option=option) as tmp:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(table, tmp)
        elif fmt in ("csv", "tsv"):
            import pyarrow.csv as pacsv

            pacsv.write_csv(table, tmp, write_options=pacsv.WriteOptions(delimiter="," if fmt == "csv" else "\t"))
        else:
            with open(tmp, "w", encoding="utf-8") as fh:
                for row in table.to_pylist():
                    clean = {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in row.items()}
                    fh.write(json.dumps(clean, allow_nan=False, default=str) + "\n")


def column_names(path: str | os.PathLike, *, input_format: str | None = None) -> list[str] | None:
    """The column names of a data file: a CSV/TSV header or a Parquet schema, without reading the rows.

    JSON lines have no header and are read. None for an empty CSV/TSV file or
    an unreadable Parquet file (reading it with :func:`read_frame` then names
    the problem).
    """
    p = Path(path)
    fmt = detect_format(p, input_format)
    if fmt in ("csv", "tsv"):
        if p.stat().st_size == 0:
            return None
        return _read_header(p, "," if fmt == "csv" else "\t")
    if fmt == "parquet":
        import pyarrow.parquet as pq

        try:
            return pq.read_schema(p).names
        except Exception:  # the reader names the problem
            return None
    return read_frame(p, input_format=fmt).column_names


def row_reference(fmt: str, index: int) -> str:
    """How messages name the item at ``index`` (0-based) of a file: ``row 3 (line 4, after the header)``."""
    return _row_ref(fmt, index)
