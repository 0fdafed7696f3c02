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

__all__ = ["MixedLabels", "is_stdin", "is_path", "is_table", "as_table", "check_table", "check_items", "check_input",
           "column_name", "columns_of", "table_bytes", "spooled", "resolve"]


def is_path(data: Any) -> bool:
    """A PATH: text, a path object, standard input ('-'), an already resolved PATH or a byte source."""
    from clfeval.io._paths import InputPath
    from clfeval.io._source import Source

    return isinstance(data, (str, os.PathLike, InputPath, Source))


def is_stdin(data: Any) -> bool:
    """Standard input: ``-``, or a PATH or byte source that reads it."""
    from clfeval.io._paths import InputPath
    from clfeval.io._source import STDIN, Source

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
    """A pandas / polars DataFrame or pyarrow Table as a pyarrow Table (the index of pandas left out); a column
    name given twice is refused, naming it (as a file's header is)."""
    import pyarrow as pa

    if isinstance(data, pa.Table):
        _check_unique(data.column_names, data.column_names)
        return data
    kind = type(data).__module__.split(".", 1)[0]
    if kind == "polars":
        return data.to_arrow()  # polars refuses a name given twice itself
    given = list(data.columns)
    _check_unique(given, given)
    table = pa.Table.from_pandas(data, preserve_index=False)
    _check_unique(table.column_names, given)  # 0 and '0' are one name in the Arrow table
    return table


def _check_unique(names: list[Any], given: list[Any]) -> None:
    seen: dict[Any, int] = {}
    for i, name in enumerate(names):
        if name in seen:
            first, again = given[seen[name]], given[i]
            both = "" if first == again and type(first) is type(again) else f": {first!r} and {again!r}"
            raise DataError(f"the table names the column {str(name)!r} twice (columns {seen[name] + 1} and {i + 1}"
                            f"{both}); column names must be unique, so that a parameter such as gold names one "
                            f"column. Rename one of them.")
        seen[name] = i


def check_table(data: Any, what: str = "the table") -> Any:
    """A table argument as a pyarrow Table, refused when it has no rows (``what`` names it as the user gave it)."""
    table = as_table(data)
    if table.num_rows == 0:
        raise DataError(f"{what} has no rows; expected at least one item.")
    return table


def check_items(values: Any, name: str) -> None:
    """An array argument (labels, scores): a sequence in a fixed order (not a set, a mapping or a generator), with
    at least one item."""
    from clfeval.core import check_sequence

    check_sequence(values, name, "values" if "score" in name or "prob" in name else "labels")
    if len(values) == 0:
        raise DataError(f"{name} has no items; expected at least one item.")


def column_name(data: Any, name: Any, param: str, default: str | None = None) -> str | None:
    """A column argument (``gold=``, ``pred=``, ...) as the name of the column in :func:`as_table`'s table: None →
    ``default``; the label of a pandas column that is not text (``0``) → the text pyarrow names it by (``'0'``).

    >>> import pandas as pd
    >>> column_name(pd.DataFrame({0: ["a"], 1: ["b"]}), 0, "gold"), column_name(None, None, "gold", "gold")
    ('0', 'gold')
    """
    if name is None:
        return default
    if isinstance(name, str):
        return name
    hashable = True
    try:
        hash(name)
    except TypeError:  # a list or an array given where a column's name belongs
        hashable = False
    if hashable and type(data).__module__.split(".", 1)[0] == "pandas" and is_table(data):
        given = list(data.columns)
        hits = [i for i, c in enumerate(given) if c == name and type(c) is type(name)] or \
               [i for i, c in enumerate(given) if c == name]
        if hits:
            import pyarrow as pa

            return str(pa.Table.from_pandas(data.iloc[:0, hits[:1]], preserve_index=False).column_names[0])
    shown = repr(name) if hashable and len(repr(name)) <= 80 else f"a {type(name).__name__}"
    raise UsageError(lambda p: f"option {p} names a column by its name (text); got {shown}.", params=[param])


_ARRAY_FORMS = {"score": "scores", "scores_prefix": "scores", "id": "ids"}  # a column argument → its arrays form


def check_input(data: Any, arrays: Mapping[str, Any], columns: Mapping[str, tuple[Any, str | None]],
                what: str = "the table", mappings: tuple[str, ...] = ()) -> tuple[Any, dict[str, Any]]:
    """The input of an operation checked once, before any work, as (data, column names).

    A PATH: its column arguments (``columns``: parameter → (value, default)) as text. A table: a pyarrow Table
    with at least one row and no name twice (``what`` names it in messages), its column arguments the names of
    its columns (a pandas label ``0`` is ``'0'``). Arrays: each of ``arrays`` (name → values) a sequence in a
    fixed order with items; those named in ``mappings`` may be a mapping of columns (label → values: one score
    column per class), checked column by column; the column arguments then name the arrays' columns (their
    defaults when None), and one given otherwise (``score="p"``, ``score=[...]``) is refused, naming the arrays form
    (``scores=``): arrays have no columns to name, and a silently ignored argument is a wrong result.
    """
    if is_path(data) or is_table(data):
        names = {p: column_name(data, value, p, default) for p, (value, default) in columns.items()}
        return (check_table(data, what) if is_table(data) else data), names
    for param, (value, default) in columns.items():
        if value is not None and param not in arrays and not (isinstance(value, str) and value == default):
            alt = _ARRAY_FORMS.get(param)
            raise UsageError((lambda p, a: f"option {p} names a column of a table or PATH, and the input here is "
                                           f"arrays: give the values themselves as {a}.") if alt else
                             (lambda p: f"option {p} names a column of a table or PATH, and the input here is arrays."),
                             params=[param, alt] if alt else [param])
    for name, values in arrays.items():
        several = isinstance(values, Mapping) and name in mappings
        for key, v in (values.items() if several else [(None, values)]):
            if v is not None:
                check_items(v, name if key is None else f"{name}[{key!r}]")
    return data, {p: default if value is None else value for p, (value, default) in columns.items()}


class MixedLabels(DataError):
    """A list of labels of more than one type (``[1, "a"]``): refused as the in-memory report refuses it, on every
    engine (never made text by a conversion)."""


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
    from clfeval.core import check_sequence

    check_sequence(values, name)
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise DataError(lambda p: f"{p} must be one column of values (1-D); got an array of shape {arr.shape}.",
                        params=[name])
    if arr.dtype.kind in "US" and isinstance(values, (list, tuple)):
        # NumPy makes a list of mixed labels text ([1, "a"] → ["1", "a"]); a label is never altered by a type
        # conversion: the list as pyarrow reads it, or the refusal the in-memory report gives
        try:
            return pa.array(list(values), from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError) as exc:
            kinds = sorted({type(v).__name__ for v in list(values)[:1000]})
            raise MixedLabels(f"{name} mixes label types ({', '.join(kinds)}); labels must all be of one kind (all "
                            f"strings, or all integers, or all booleans). ({exc})") from None
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


def write_parts(table: Any, directory: str, budget: int, prefix: str = "part") -> str:
    """``table`` as Parquet files in ``directory`` (row groups of at most a quarter of ``budget``), named
    ``<prefix>-NNNNNN.parquet``; returns the directory."""
    import pyarrow.parquet as pq

    per_row = max(1, table_bytes(table) // max(table.num_rows, 1))
    rows = max(1, min(table.num_rows, budget // 4 // per_row)) if table.num_rows else 1
    os.makedirs(directory, exist_ok=True)
    for i, start in enumerate(range(0, max(table.num_rows, 1), rows)):
        pq.write_table(table.slice(start, rows), os.path.join(directory, f"{prefix}-{i:06d}.parquet"))
    return directory


@contextlib.contextmanager
def spooled(table: Any, budget: int, tmpdir: str | None, name: str = "the table") -> Iterator[Any]:
    """A table written to temporary Parquet files (a spill directory removed at the end), as a resolved PATH that
    messages call ``name`` (the table as the user gave it, not the temporary directory).

    ``table`` may also be a data step: a function ``(budget, tmpdir)`` that gives the tables of one, one after
    the other, working within ``budget`` bytes and spilling to ``tmpdir`` (the spill directory's, removed with
    it); each is written as it comes, so memory holds one (a join of two inputs by id, for instance)."""
    import dataclasses

    from clfeval.io._paths import resolve_path
    from clfeval.io._spill import spill_directory

    with spill_directory(tmpdir) as tmp:
        where = os.path.join(tmp, "input")
        if callable(table):
            for i, t in enumerate(table(budget, tmp)):
                write_parts(t, where, budget, prefix=f"part-{i:06d}")
        else:
            write_parts(table, where, budget)
        yield dataclasses.replace(resolve_path(where, input_format="parquet"), given=name)


def resolve(data: Any, *, input_format: str | None = None, encoding: str = "utf-8", option: str | None = None) -> Any:
    """A PATH resolved (:func:`clfeval.io._paths.resolve_path`); ``-`` reads standard input once."""
    import sys

    from clfeval.io._paths import InputPath, resolve_path
    from clfeval.io._source import Source

    if isinstance(data, InputPath):
        return data
    if not isinstance(data, Source) and str(data) == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise UsageError("standard input ('-') is closed; pipe the data in, or give a file.")
        data = Source.from_stream(stream)
    return resolve_path(data, input_format=input_format, encoding=encoding, option=option)
