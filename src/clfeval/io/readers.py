"""Reading prediction files: CSV, TSV, JSONL and Parquet, by extension.

All parsing is pyarrow's (multi-threaded C++): no per-row Python loop.
CSV and TSV values are read as *strings*, never type-guessed, so "007" stays
"007" and gold and predicted labels always compare as the same type. Typed
Parquet and JSONL values keep their types; command-line options are matched
to them by string form (``--positive 1`` means the label 1 in every format).

Labels stay exact: CSV/TSV text as written; JSONL label columns that
pyarrow would round (float64, timestamps) re-read exactly (see
:mod:`clfeval.io.jsonl`); in a typed numeric column equal numbers are one label.
Duplicate column names, bytes that are not UTF-8 (unless ``encoding="latin-1"``)
and one column given two roles are refused; a UTF-8 byte-order mark is
dropped; quoted newlines are read in files of any size. Standard input (or a
pipe) is read as a :class:`~clfeval.io.source.Source` holding its bytes.

Every problem is reported as one paragraph naming the file and, where it
applies, the row (counted from 1 after the header, in every format), line
and column at fault.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from clfeval.io.source import (STDIN, Source, records, check_option_column, check_roles, check_unique_names,
                            first_invalid_utf8_row, read_header, row_ref, utf8_error, utf8_valid)
from clfeval.core.labelforms import normalize_labels, unify_numbers
from clfeval.io.csvsafe import escape_table, restore_table
from clfeval.core.labels import label_str
from clfeval.errors import DataError, UsageError
from clfeval.io.outputs import OutputFiles, atomic_path

__all__ = ["FORMATS", "detect_format", "read_frame", "read_predictions", "column_names", "Predictions", "Source",
           "write_frame", "atomic_write_text"]

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
    if isinstance(path, Source) and path.path is None and path.name == STDIN:
        return "csv"
    ext = Path(str(path)).suffix.lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
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


def _read_delimited(src: Source, fmt: str, columns: Sequence[str] | None) -> pa.Table:
    import pyarrow.csv as pacsv

    delimiter = "," if fmt == "csv" else "\t"
    header = read_header(src, delimiter)
    if not header or all(not h.strip() for h in header):
        raise DataError(f"file {src.name!r} has an empty first line; expected a header line naming the columns (for example gold{delimiter}pred).")
    check_unique_names(header, f"file {src.name!r}")
    first_bad: list[Any] = []

    def on_invalid(row: Any) -> str:
        first_bad.append(row)
        return "error"

    include = None
    if columns is not None:
        include = [c for c in dict.fromkeys(columns) if c in header]
    try:
        table = pacsv.read_csv(
            src.arrow(),
            read_options=pacsv.ReadOptions(use_threads=True, block_size=1 << 24,
                                           encoding="latin1" if src.encoding == "latin-1" else "utf8"),
            # a quoted value may hold a newline: the slower quote-aware splitting is needed only if a quote occurs
            parse_options=pacsv.ParseOptions(delimiter=delimiter, invalid_row_handler=on_invalid,
                                             newlines_in_values=src.contains(b'"')),
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
            found = _ragged(src, delimiter, len(header))
            where = f"row {found[0]} (line {found[1]})" if found else "a row"
            raise DataError(
                f"file {src.name!r}, {where}: expected {row.expected_columns} fields (the header has "
                f"{len(header)} columns) but found {row.actual_columns}: {row.text[:80]!r}. Every row must have "
                f"as many fields as the header; quote fields that contain the delimiter."
            ) from None
        if "UTF8" in str(exc) and src.encoding == "utf-8":
            raise utf8_error(src, fmt) from None
        if "Empty CSV file" in str(exc):
            raise DataError(f"file {src.name!r} has a header but no rows; expected at least one item.") from None
        raise DataError(f"file {src.name!r} could not be read as {fmt.upper()}: {str(exc).splitlines()[0]}") from None
    return restore_table(table, header)  # clfeval's own file: its formula-escaped cells as they were written


def _read_jsonl(src: Source, columns: Sequence[str] | None, exact: Sequence[str] | bool) -> tuple[pa.Table, set[str]]:
    import pyarrow.json as pajson

    from clfeval.io.jsonl import LONG_NUMBER, diagnose, needs_exact, read_exact

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
        table.column_names
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
        lists = {c: pa.types.is_list(table.column(c).type) or pa.types.is_large_list(table.column(c).type) for c in redo}
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


def _read_parquet(src: Source, columns: Sequence[str] | None, dictionary_columns: Sequence[str] = ()) -> pa.Table:
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(src.arrow())
    except (pa.ArrowInvalid, OSError) as exc:
        raise DataError(f"file {src.name!r} is not a readable Parquet file (its extension says Parquet): {str(exc).splitlines()[0]}") from None
    try:
        names = schema.names
    except UnicodeDecodeError:
        raise DataError(f"file {src.name!r}: a column name in its Parquet schema is not valid UTF-8; rename the "
                        f"columns.") from None
    check_unique_names(names, f"file {src.name!r}", "schema")
    try:
        cols = None if columns is None else [c for c in dict.fromkeys(columns) if c in schema.names]
        read_dict = [c for c in dictionary_columns if c in schema.names
                     and (pa.types.is_string(schema.field(c).type) or pa.types.is_large_string(schema.field(c).type))
                     and (cols is None or c in cols)]
        return pq.read_table(src.arrow(), columns=cols, read_dictionary=read_dict or None)
    except (pa.ArrowInvalid, OSError) as exc:
        raise DataError(f"file {src.name!r} is not a readable Parquet file (its extension says Parquet): {str(exc).splitlines()[0]}") from None


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


def _read_table(path: str | os.PathLike | Source, *, input_format: str | None = None,
                columns: Sequence[str] | None = None, dictionary_columns: Sequence[str] = (),
                encoding: str = "utf-8", exact: Sequence[str] | bool = ()) -> tuple[pa.Table, Source, str, set[str]]:
    """:func:`read_frame`, also returning the source, the format and the label columns that became text."""
    src = Source.of(path, encoding=encoding)
    fmt = detect_format(src, input_format)
    if src.size() == 0:
        raise DataError(f"file {src.name!r} is empty; expected a header line and at least one row.")
    if fmt != "parquet" and src.head(4) == b"PAR1":
        raise DataError(f"file {src.name!r} is a Parquet file, not {fmt.upper()} as its extension says; rename it to .parquet or pass --input-format parquet.")
    numeric_text: set[str] = set()
    if fmt == "parquet":
        table = _read_parquet(src, columns, dictionary_columns)
    elif fmt == "jsonl":
        table, numeric_text = _read_jsonl(src, columns, exact)
    else:
        table = _read_delimited(src, fmt, columns)
    if fmt != "csv" and fmt != "tsv":
        _check_utf8(src, fmt, table)
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
    source: Source | None = None
    fmt: str = "csv"

    @property
    def n(self) -> int:
        return len(self.gold)

    def row_ref(self, index: int) -> str:
        """``row N (line L)`` of the item at ``index`` (0-based): rows count from 1, after the header."""
        return row_ref(self.source, self.fmt, index)


def _missing_column(path: str, name: str, option: str, columns: Sequence[str]) -> DataError:
    return DataError(
        f"file {path!r} has no column {name!r} (option {option}); its columns are: "
        f"{', '.join(repr(c) for c in columns)}. Name the column with {option}."
    )


def _first_index(mask: pa.ChunkedArray | pa.Array) -> int:
    arr = np.asarray(pc.fill_null(mask, True)) if mask.null_count else np.asarray(mask)
    return int(np.flatnonzero(arr)[0])


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
            bad_values = pc.or_kleene(bad_values, pc.equal(pc.utf8_trim_whitespace(dictionary), ""))
        elif pa.types.is_floating(t):
            bad_values = pc.or_kleene(bad_values, pc.is_nan(dictionary))
        bad = np.flatnonzero(np.asarray(pc.fill_null(bad_values, True)))
        if bad.size == 0 and col.null_count == 0:
            return None
        indices = pa.chunked_array([c.indices for c in col.chunks])
        return pc.or_kleene(pc.is_null(indices), pc.is_in(indices, pa.array(bad, type=indices.type)))
    missing = pc.is_null(col)
    if is_text:
        missing = pc.or_kleene(missing, pc.equal(pc.utf8_trim_whitespace(col), ""))
    elif pa.types.is_floating(t):
        missing = pc.or_kleene(missing, pc.is_nan(col))
    return missing if pc.any(missing).as_py() else None


def check_labels_present(src: Source, fmt: str, col: pa.ChunkedArray, name: str) -> None:
    """Refuse an empty label (null, blank, NaN) in single-label data, naming its row."""
    missing = _empty_label_mask(col)
    if missing is not None and pc.any(missing).as_py():
        i = _first_index(missing)
        raise DataError(
            f"file {src.name!r}, {row_ref(src, fmt, i)}: the label in column {name!r} is empty; every item needs a label "
            f"in single-label data (for label sets, where an empty cell is an empty set, use --multilabel)."
        )


def _check_ids(src: Source, fmt: str, ids: pa.ChunkedArray, name: str) -> None:
    path = src.name
    if ids.null_count:
        i = _first_index(pc.is_null(ids))
        raise DataError(f"file {path!r}, {row_ref(src, fmt, i)}: the id in column {name!r} is empty; every item needs an id.")
    if len(pc.unique(ids)) != len(ids):  # unique: faster than count_distinct on many chunks
        vc = pc.value_counts(ids)
        dup = vc.filter(pc.greater(vc.field("counts"), 1))[0]["values"].as_py()
        rows = np.flatnonzero(np.asarray(pc.equal(ids, pa.scalar(dup, type=ids.type))))[:2] + 1
        raise DataError(f"file {path!r}, column {name!r}: ids must be unique, but the id {label_str(dup)!r} occurs "
                        f"more than once (rows {rows[0]} and {rows[1]}).")


def _check_keys(src: Source, fmt: str, repeats: pa.ChunkedArray, ids: pa.ChunkedArray, rname: str,
                name: str) -> pa.ChunkedArray:
    """The (repeat, id) key of every row as ``"<repeat>:<id>"``; refuses missing repeats and duplicate keys."""
    path = src.name
    if repeats.null_count:
        i = _first_index(pc.is_null(repeats))
        raise DataError(f"file {path!r}, {row_ref(src, fmt, i)}: the repeat in column {rname!r} is empty; with a "
                        f"{rname!r} column every row needs one (the key of a row is ({rname}, {name})).")
    r = repeats.cast(pa.string()) if not pa.types.is_string(repeats.type) else repeats
    keys = pc.binary_join_element_wise(r, ids.cast(pa.string()), ":")
    if len(pc.unique(keys)) != len(keys):
        vc = pc.value_counts(keys)
        dup = vc.filter(pc.greater(vc.field("counts"), 1))[0]["values"].as_py()
        rows = np.flatnonzero(np.asarray(pc.equal(keys, pa.scalar(dup))))[:2] + 1
        rep_value, _, id_value = dup.partition(":")
        raise DataError(f"file {path!r}: the key ({rname}, {name}) must be unique, but repeat {rep_value} holds the "
                        f"id {id_value!r} more than once (rows {rows[0]} and {rows[1]}).")
    return keys


def _same_numbers(gold: pa.ChunkedArray, pred: pa.ChunkedArray) -> tuple[pa.ChunkedArray, pa.ChunkedArray]:
    """Typed gold and predicted labels, one integer and one float column (or label sets of them), as one
    exact type: in a typed file equal numbers are one label (1 and 1.0), see :func:`unify_numbers`."""
    def values(col: pa.ChunkedArray) -> tuple[pa.ChunkedArray, pa.Array | None]:
        if pa.types.is_list(col.type) or pa.types.is_large_list(col.type):
            arr = pa.concat_arrays(col.chunks) if col.num_chunks else pa.array([], type=col.type)
            return pa.chunked_array([arr.flatten()]), arr
        return col, None

    (g, g_lists), (p, p_lists) = values(gold), values(pred)
    numeric = [pa.types.is_integer(c.type) or pa.types.is_floating(c.type) for c in (g, p)]
    if not all(numeric) or pa.types.is_floating(g.type) == pa.types.is_floating(p.type):
        return gold, pred
    g, p = unify_numbers([g, p])

    def rebuild(flat: pa.ChunkedArray, lists: pa.Array | None) -> pa.ChunkedArray:
        if lists is None:
            return flat
        base = pa.concat_arrays(flat.chunks)  # offsets relative to the flattened values
        offsets = pc.subtract(lists.offsets, lists.offsets[0])
        return pa.chunked_array([type(lists).from_arrays(offsets, base, mask=pc.is_null(lists) if lists.null_count else None)])

    return rebuild(g, g_lists), rebuild(p, p_lists)


def read_predictions(path: str | os.PathLike | Source, *, gold: str = "gold", pred: str | None = "pred",
                     id: str | None = None, multilabel: bool = False, input_format: str | None = None,
                     extra: Sequence[str] = (), gold_option: str = "--gold", pred_option: str = "--pred",
                     id_option: str = "--id", require_pred: bool = True, repeat: str | None = "repeat",
                     extra_options: Sequence[str] | None = None, encoding: str = "utf-8",
                     normalize: str | None = None, sep: str = "|") -> Predictions:
    """Read gold labels, predictions and ids from a predictions file.

    Parameters
    ----------
    path : path or Source
        The file, or a :class:`Source` (standard input).
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
    extra_options : sequence of str, optional
        The option naming each ``extra`` column: a column given two roles
        (``--gold x --score x``) is then refused naming both options.
    encoding : {"utf-8", "latin-1"}
        Text encoding of CSV, TSV and JSONL files.
    normalize : {"nfc"} or None
        Unicode normalisation of the gold and predicted labels (labels that
        differ only in normalisation become one).
    sep : str
        Separator of labels within a multi-label cell (used with ``normalize``).

    Raises
    ------
    UsageError
        One column named by two options (``--gold x --pred x``).
    DataError
        A missing column (the message lists the columns that exist), an empty
        label cell in single-label data (naming the row), duplicate ids.
    """
    src = Source.of(path, encoding=encoding)
    fmt = detect_format(src, input_format)
    check_roles([(gold_option, gold), (pred_option, pred), (id_option, id)]
                + list(zip(extra_options, extra) if extra_options is not None else []))
    keys = {gold, pred, *extra}
    default_id = id is None and "id" not in keys
    wanted = [gold] + ([pred] if pred else []) + ([id] if id else ["id"] if default_id else []) \
        + [e for e in extra if e] + ([repeat] if repeat else [])
    labels_exact = [c for c in (gold, pred, id or "id", repeat) if c]
    dictionary = [gold] + ([pred] if pred else []) if fmt == "parquet" and not multilabel and not normalize else []
    table, src, fmt, numeric_text = _read_table(src, input_format=fmt, columns=wanted, dictionary_columns=dictionary,
                                                encoding=encoding, exact=labels_exact)
    names = table.column_names
    all_columns = column_names(src, input_format=fmt, encoding=encoding) if fmt != "jsonl" else names
    spath = src.name
    for option, name in [(gold_option, gold), (pred_option, pred), (id_option, id)] + list(
            zip(extra_options or (), extra)):
        check_option_column(option, name, all_columns)
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
    elif default_id and "id" in names:
        ids = table.column("id")
    gold_col = table.column(gold)
    if numeric_text & {gold, pred}:  # a label column had to become text: its partner must compare as text too
        from clfeval.io.jsonl import as_text_labels

        gold_col = pa.chunked_array([as_text_labels(gold_col)])
        pred_col = None if pred_col is None else pa.chunked_array([as_text_labels(pred_col)])
    if pred_col is not None and fmt in ("jsonl", "parquet"):
        gold_col, pred_col = _same_numbers(gold_col, pred_col)
    if normalize:
        gold_col = normalize_labels(gold_col, normalize, multilabel=multilabel, sep=sep)
        pred_col = None if pred_col is None else normalize_labels(pred_col, normalize, multilabel=multilabel, sep=sep)
    if not multilabel:
        check_labels_present(src, fmt, gold_col, gold)
        if pred_col is not None:
            check_labels_present(src, fmt, pred_col, pred)  # type: ignore[arg-type]
    repeats = None
    item_ids = ids
    id_name = id or "id"
    if repeat and repeat in names and repeat not in (gold, pred, id_name):
        repeats = table.column(repeat)
    for name, col in ((id_name, ids), (repeat, repeats)):
        if col is not None and pa.types.is_nested(col.type):
            raise DataError(f"file {spath!r}, column {name!r}: every {'id' if name == id_name else 'repeat'} must be "
                            f"one value (text or a number); the column holds {col.type} values.")
    if ids is not None:
        if repeats is not None:
            if ids.null_count:
                _check_ids(src, fmt, ids, id_name)
            ids = _check_keys(src, fmt, repeats, ids, repeat, id_name)  # type: ignore[arg-type]
        else:
            _check_ids(src, fmt, ids, id_name)
    return Predictions(spath, gold_col, pred_col, ids, tuple(all_columns), {e: table.column(e) for e in extra if e},
                       repeats, item_ids, src, fmt)


def atomic_write_text(path: str | os.PathLike, text: str, *, option: str = "--output") -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all (:func:`clfeval.io.outputs.atomic_path`)."""
    with atomic_path(path, option=option) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)


def write_frame(table: pa.Table, path: str | os.PathLike, *, output_format: str | None = None,
                option: str = "--predictions", files: OutputFiles | None = None) -> None:
    """Write a table as CSV/TSV/JSONL/Parquet by extension, whole or not at all (:func:`clfeval.io.outputs.atomic_path`).

    JSONL is strict JSON: NaN and infinities are written as ``null``. CSV and
    TSV follow the formula-injection policy of :mod:`clfeval.io.csvsafe`: a text
    cell starting with ``=``, ``+``, ``-``, ``@``, a tab, a carriage return
    (or ``'``) gets a ``'`` in front, and a last column ``clfeval:escaped``
    marks the file, so that :func:`read_frame` gives the written values back.
    With ``files``, the table is staged there (:class:`clfeval.io.outputs.OutputFiles`)
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
