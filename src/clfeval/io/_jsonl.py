"""JSON Lines read exactly: label columns pyarrow would round, and the row a bad file breaks at.

pyarrow's JSON reader (fast, multi-threaded) types a column that mixes
integers and floats, or holds an integer beyond 64 bits, as float64, and a
string that looks like a date as a timestamp: two distinct labels can then
become one value (9007199254740993 and 9007199254740992; "2020-01-01" and
"2020-01-01T00:00:00"). Such label columns are read again here with the
standard library's :mod:`json`, every number parsed as an exact
:class:`decimal.Decimal` (no float rounding, no limit on the digits of an
integer), and each distinct number given one canonical label:

* an integer: its decimal digits (``1.0`` and ``1`` are one label, ``1``);
* a number that float64 keeps (the shortest repr of its float is the number
  itself, as for ``1.5`` or ``0.1``): that repr;
* any other number: its exact decimal text (``0.1000000000000000000001``).

The column is then int64 when every label is an integer that fits, float64
when every label survives float64, and text otherwise, so that no two
distinct numbers ever share a label.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

import pyarrow as pa

from clfeval.core import arrowcompute as pc, label_str
from clfeval.errors import DataError
from clfeval.io._source import Source, json_lines

__all__ = ["LONG_NUMBER", "needs_exact", "read_exact", "as_text_labels", "diagnose"]

_INT64 = 1 << 63
_EXACT_FLOAT_INT = 1 << 53
_MAX_DIGITS = 1000  # integers longer than this are written as digits·e+exponent
_BATCH = 65536
_CACHE = 1 << 16  # canonical labels remembered per number text (labels repeat)
_CANONICAL: dict[str, tuple[str, bool, bool]] = {}
_FLOAT_MAX = Decimal("1.7976931348623157e308")
_SURROGATE = re.compile("[\ud800-\udfff]")


# A number float64 may not keep: 16 or more digits (and points) in a row, or a three-digit exponent. A decimal
# of at most 15 significant digits within float64's range survives the round trip (DBL_DIG = 15), so a file
# without such a run (in numbers or anywhere else) has float labels pyarrow read exactly.
LONG_NUMBER = r"[0-9][0-9.]{15}|[eE][-+]?[0-9]{3}"


def needs_exact(typ: pa.DataType) -> bool:
    """Whether pyarrow's type of a label column may have changed its values (float, timestamp, ...)."""
    if pa.types.is_list(typ) or pa.types.is_large_list(typ):
        return needs_exact(typ.value_type)
    return not (pa.types.is_integer(typ) or pa.types.is_boolean(typ) or pa.types.is_string(typ)
                or pa.types.is_large_string(typ) or pa.types.is_null(typ))


def _constant(name: str) -> Any:
    """NaN (a missing value, as pyarrow reads it), Infinity and -Infinity (floats)."""
    return None if name == "NaN" else float(name)


class _Number(str):
    """A JSON number kept as its text, exactly as written (canonical labels are cached per text)."""


def _loads(text: str, **hooks: Any) -> Any:
    return json.loads(text, parse_int=Decimal, parse_float=Decimal, parse_constant=_constant, **hooks)


def _loads_raw(text: str) -> Any:
    return json.loads(text, parse_int=_Number, parse_float=_Number, parse_constant=_constant)


def canonical_number(d: Decimal) -> tuple[str, bool, bool]:
    """(label text, fits int64, kept exactly by float64) of an exact number.

    >>> canonical_number(Decimal("1.0")), canonical_number(Decimal("1.5"))
    (('1', True, True), ('1.5', False, True))
    >>> canonical_number(Decimal("9007199254740993")), canonical_number(Decimal("0.1000000000000000000001"))
    (('9007199254740993', True, False), ('0.1000000000000000000001', False, False))
    """
    sign, digit_tuple, exp = d.as_tuple()
    digits = "".join(map(str, digit_tuple)).lstrip("0")
    if not digits:
        return "0", True, True
    stripped = digits.rstrip("0")
    exp = int(exp) + len(digits) - len(stripped)
    digits = stripped
    minus = "-" if sign else ""
    if exp >= 0:  # an integer
        if len(digits) + exp > _MAX_DIGITS:
            return f"{minus}{digits}e+{exp}", False, False
        text = minus + digits + "0" * exp
        value = int(text)
        return text, -_INT64 <= value < _INT64, \
            abs(value) <= _EXACT_FLOAT_INT or (abs(value) < 2 ** 1024 and float(value) == value)
    f = float(d)
    if f != 0.0 and f not in (float("inf"), float("-inf")) and Decimal(repr(f)) == d:
        return label_str(f), False, True
    # exact decimal text: digits with the point placed, or scientific when the exponent is large
    if -exp <= _MAX_DIGITS:
        if len(digits) > -exp:
            text = f"{digits[:exp]}.{digits[exp:]}"
        else:
            text = "0." + "0" * (-exp - len(digits)) + digits
        return minus + text, False, False
    return f"{minus}{digits[0]}.{digits[1:] or '0'}e{exp + len(digits) - 1}", False, False


class _Column:
    """Canonical labels of one column, turned into arrow text batch by batch (each distinct value once)."""

    def __init__(self, is_list: bool) -> None:
        self.is_list = is_list
        self.batches: list[pa.Array] = []
        self.offsets: list[int] = [0]  # list columns: where each row's items start in the flat values
        self.valid: list[bool] = []  # list columns: False for a null row
        self.ints = True  # every label an integer within int64
        self.floats = True  # every label kept exactly by float64

    def _label(self, v: Any) -> str | None:
        if v is None:
            return None
        if isinstance(v, _Number):
            got = _CANONICAL.get(v)
            if got is None:
                got = canonical_number(Decimal(v))
                if len(_CANONICAL) < _CACHE:
                    _CANONICAL[str(v)] = got
            text, fits_int, fits_float = got
            self.ints &= fits_int
            self.floats &= fits_float
            return text
        self.ints = False
        if isinstance(v, float):  # Infinity, -Infinity
            return label_str(v)
        self.floats = False
        return v if isinstance(v, str) else json.dumps(v)

    def add(self, values: list[Any]) -> None:
        """One batch of rows."""
        if self.is_list:
            flat: list[Any] = []
            for v in values:
                items = v if isinstance(v, list) else ([] if v is None else [v])
                self.valid.append(v is not None)
                flat.extend(items)
                self.offsets.append(self.offsets[-1] + len(items))
            values = flat
        try:
            labels = {v: self._label(v) for v in set(values)}
            texts = list(map(labels.__getitem__, values))
        except TypeError:  # an unhashable item (an array inside an array)
            texts = [self._label(v) for v in values]
        self.batches.append(pa.array(texts, type=pa.string()))

    def finish(self) -> pa.Array:
        values = pa.concat_arrays(self.batches) if self.batches else pa.array([], type=pa.string())
        if values.null_count == len(values):
            pass  # no label at all: text
        elif self.ints:
            values = pc.cast(values, pa.int64())
        elif self.floats:
            values = pc.cast(values, pa.float64())
        if self.is_list:
            offsets = pa.array(self.offsets, type=pa.int32())
            mask = pa.array([not v for v in self.valid], type=pa.bool_())
            return pa.ListArray.from_arrays(offsets, values, mask=mask)
        return values


def read_exact(source: Source, columns: dict[str, bool]) -> dict[str, pa.Array]:
    """Columns of a JSON Lines file (name → whether it holds arrays), read exactly (see the module docstring).

    A missing key is a null, as in pyarrow's reading; rows are the non-blank
    lines; ``NaN`` (which pyarrow reads) is a missing value.
    """
    cols = {n: _Column(is_list) for n, is_list in columns.items()}
    pending: dict[str, list[Any]] = {n: [] for n in cols}
    decode = json.JSONDecoder(parse_int=_Number, parse_float=_Number, parse_constant=_constant).decode
    rows = 0
    for row, (line, text) in enumerate(json_lines(source), start=source.origin[0] + 1):
        try:
            obj = decode(text)
        except (ValueError, RecursionError) as exc:
            raise DataError(f"file {source.name!r}, row {row} (line {line}) is not valid JSON: "
                            f"{str(exc).split(':')[0]}.") from None
        get = obj.get if type(obj) is dict else _nothing
        for n, values in pending.items():
            values.append(get(n))
        rows = row
        if rows % _BATCH == 0:
            for n, values in pending.items():
                cols[n].add(values)
                pending[n] = []
    for n, values in pending.items():
        cols[n].add(values)
    return {n: c.finish() for n, c in cols.items()}


def _nothing(name: str) -> None:
    return None


def as_text_labels(col: pa.ChunkedArray | pa.Array) -> pa.Array:
    """A numeric (or list-of-numbers) label column as the labels' text (``label_str``), for a file whose
    other label column had to become text: equal numbers keep equal text."""
    if isinstance(col, pa.ChunkedArray):
        col = pa.concat_arrays(col.chunks) if col.num_chunks else pa.array([], type=col.type)
    if pa.types.is_list(col.type) or pa.types.is_large_list(col.type):
        values = as_text_labels(col.values)
        return type(col).from_arrays(col.offsets, values, mask=pc.is_null(col))
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        return col
    if pa.types.is_integer(col.type):
        return pc.cast(col, pa.string())
    return pa.array([None if v is None else label_str(v) for v in col.to_pylist()], type=pa.string())


# --- why pyarrow could not read a file -------------------------------------------

def _kind(v: Any) -> str | None:
    """The kind of a JSON value as pyarrow types it (arrays by the kind of their items)."""
    if v is None:
        return None
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (Decimal, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        kinds = sorted({_PLURAL.get(k, "arrays") for k in map(_kind, v) if k is not None})
        if len(kinds) > 1:
            raise _Mixed(" and ".join(kinds))
        return f"an array of {kinds[0]}" if kinds else "an array"
    return "an object"


_PLURAL = {"a boolean": "booleans", "a number": "numbers", "a string": "strings", "an object": "objects"}


class _Mixed(Exception):
    pass


def _compatible(seen: str, kind: str) -> bool:
    """Kinds one column may hold in different rows ("an array" of no items fits any array)."""
    return seen == kind or (seen.startswith("an array") and kind == "an array") or \
        (seen == "an array" and kind.startswith("an array"))


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _Duplicate(k)
        out[k] = v
    return out


class _Duplicate(Exception):
    pass


def diagnose(source: Source) -> str | None:
    """The first thing in a JSON Lines file that pyarrow refuses, as ``row N (line L): what``; None if nothing found."""
    first_kind: dict[str, tuple[str, int, int]] = {}
    for row, (line, text) in enumerate(json_lines(source), start=source.origin[0] + 1):
        where = f"row {row} (line {line})"
        try:
            obj = _loads(text, object_pairs_hook=_pairs)
        except _Duplicate as dup:
            return f"{where} names the key {dup.args[0]!r} twice; every key of an object must be unique"
        except (ValueError, RecursionError) as exc:
            return f"{where} is not valid JSON ({str(exc).split(':')[0]})"
        if not isinstance(obj, dict):
            return f"{where} is not a JSON object (one object per line, such as {{\"gold\": \"a\", \"pred\": \"b\"}})"
        for key, value in obj.items():
            for number in (value if isinstance(value, list) else [value]):
                if isinstance(number, Decimal) and number.copy_abs() > _FLOAT_MAX:
                    return (f"{where}: the number in column {key!r} is too large for a 64-bit float; quote labels "
                            f"as strings (\"{canonical_number(number)[0]}\") to keep them exact")
            texts = [x for x in (value if isinstance(value, list) else [value]) if isinstance(x, str)]
            found = next((m for t in texts if (m := _SURROGATE.search(t))), None)
            if found is not None:
                return (f"{where}: the text in column {key!r} holds a lone surrogate "
                        f"({ascii(found.group())[1:-1]}), which is not Unicode text")
            try:
                kind = _kind(value)
            except _Mixed as mixed:
                return (f"{where}: the array in column {key!r} mixes {mixed.args[0]}; the items of a column hold "
                        f"one kind of value (quote labels as strings, such as \"1\", if they mix)")
            if kind is None:
                continue
            seen = first_kind.setdefault(key, (kind, row, line))
            if seen[0] == "an array" and kind.startswith("an array of"):
                first_kind[key] = (kind, row, line)
            elif not _compatible(seen[0], kind):
                return (f"{where}: column {key!r} holds {kind} where row {seen[1]} (line {seen[2]}) holds {seen[0]}; "
                        f"a column holds one kind of value (quote labels as strings, such as \"1\", if they mix)")
    return None
