"""Forms of a label: text in one Unicode normal form, numbers of two types as one exact type.

Reading options, not encoding: the encoder (:mod:`clfeval.core._labels`) keeps
every label as given; these turn label columns into the form a user asked
for (``--normalize-labels nfc``) or a typed file implies (in a JSONL or
Parquet file, 1 and 1.0 are one label), and name labels that only print alike. Also what a missing label is, for
every input alike: a null, a float NaN, an empty or blank text (as an empty cell of a file).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import _arrowcompute as pc
from clfeval.core._labels import label_str, split_sets
from clfeval.errors import DataError, UsageError

__all__ = ["NORMAL_FORMS", "normalize_labels", "normalization_notes", "unify_numbers", "plain", "shown_id"]


def shown_id(value: Any) -> str:
    r"""An id (or label) quoted for a message, with code points where text would print like another text.

    Ids that differ only in Unicode normalisation are different ids (as given), but print alike: a text
    that is not in NFC, or that holds combining or invisible characters, is shown with escapes.

    >>> print(shown_id("café"), shown_id("café"), shown_id("d1"), shown_id(7))
    'café' 'café' 'd1' 7
    """
    import unicodedata

    if not isinstance(value, str):
        return repr(value) if not hasattr(value, "item") else repr(value.item())
    if value.isascii():
        return repr(value)
    odd = unicodedata.normalize("NFC", value) != value or any(
        unicodedata.category(ch) in ("Mn", "Me", "Cf", "Zs", "Zl", "Zp", "Cc") for ch in value)
    return ascii(value) if odd else repr(value)


def normalization_notes(labels: Sequence[Any]) -> list[str]:
    r"""A note naming the labels that differ only in Unicode normalisation (they print alike), or none.

    >>> print(normalization_notes(["caf\u00e9", "cafe\u0301", "tea"])[0])  # doctest: +ELLIPSIS
    Labels that differ only in Unicode normalisation ... 'caf\xe9' and 'cafe\u0301' ...
    >>> normalization_notes(["a", "b"])
    []
    """
    import unicodedata

    groups: dict[str, list[str]] = {}
    for lab in labels:
        if isinstance(lab, str):  # an ASCII label is its own NFC form, but U+212A (Kelvin) normalises to K
            groups.setdefault(lab if lab.isascii() else unicodedata.normalize("NFC", lab), []).append(lab)
    clashes = [g for g in groups.values() if len(g) > 1]
    if not clashes:
        return []
    shown = "; ".join(" and ".join(ascii(x) for x in g) for g in clashes[:10])
    more = f" (and {len(clashes) - 10} more groups)" if len(clashes) > 10 else ""
    return [f"Labels that differ only in Unicode normalisation are counted as different classes although they "
            f"print alike: {shown}{more} (written here with escapes). To count each as one class, normalise them "
            f"to NFC (clfeval's option --normalize-labels nfc)."]


NORMAL_FORMS = ("nfc",)


def normalize_labels(col: pa.ChunkedArray | pa.Array, form: str, *, multilabel: bool = False,
                     sep: str = "|") -> pa.ChunkedArray:
    """Text labels in Unicode normal form ``form`` ("nfc"); numbers and booleans unchanged.

    Multi-label text cells are split at ``sep`` first (into label sets), so
    that the separator never joins with a neighbouring character.

    >>> normalize_labels(pa.array(["cafe\u0301", "caf\u00e9"]), "nfc").to_pylist() == ["caf\u00e9"] * 2
    True
    """
    if form not in NORMAL_FORMS:
        raise UsageError(f"option --normalize-labels must be one of {', '.join(NORMAL_FORMS)}; got {form!r}.")
    col = plain(col)
    typ = col.type
    text = pa.types.is_string(typ) or pa.types.is_large_string(typ)
    if multilabel and text:
        col = pa.chunked_array([split_sets(col, "labels", sep)])
        typ = col.type
    if pa.types.is_list(typ) or pa.types.is_large_list(typ):
        if not (pa.types.is_string(typ.value_type) or pa.types.is_large_string(typ.value_type)):
            return col
        return pa.chunked_array([type(c).from_arrays(c.offsets, pc.utf8_normalize(c.values, form.upper()),
                                                     mask=pc.is_null(c) if c.null_count else None)
                                 for c in col.chunks], type=typ)
    if not text:
        return col
    return pc.utf8_normalize(col, form.upper())


def plain(arr: pa.Array | pa.ChunkedArray) -> pa.ChunkedArray:
    """A column without dictionary encoding, as one chunked array."""
    if isinstance(arr, pa.Array):
        arr = pa.chunked_array([arr])
    if pa.types.is_dictionary(arr.type):
        arr = pa.chunked_array([c.dictionary_decode() for c in arr.chunks], type=arr.type.value_type)
    return arr


def unify_numbers(columns: Sequence[pa.Array | pa.ChunkedArray]) -> list[pa.ChunkedArray]:
    """Integer and float label columns as one exact type: equal numbers are one label, distinct numbers stay two.

    Floats that are all whole numbers within int64, beside integers within int64 (of any width: the
    Parquet files of one dataset may store int8 in one and int64 in another), become int64; else integers
    within ±2**53 (exact in float64) become float64; else every label becomes
    its text (:func:`label_str`: the exact digits of a whole number, the
    shortest repr of any other float), which keeps each distinct number apart.

    >>> [c.to_pylist() for c in unify_numbers([pa.array([1, 2]), pa.array([1.0, 2.0])])]
    [[1, 2], [1, 2]]
    >>> [c.to_pylist() for c in unify_numbers([pa.array([2**53 + 1]), pa.array([2.0**53, 1.5])])]
    [['9007199254740993'], ['9007199254740992', '1.5']]
    >>> [c.type for c in unify_numbers([pa.array([5], pa.int8()), pa.array([2**40])])]  # widths too
    [DataType(int64), DataType(int64)]
    """
    cols = [plain(c) for c in columns]
    floats = [c for c in cols if pa.types.is_floating(c.type)]
    ints = [c for c in cols if pa.types.is_integer(c.type)]

    def extremes(group: list[pa.ChunkedArray]) -> tuple[float, float] | None:
        got = [pc.min_max(c) for c in group if len(c) - c.null_count]
        if not got:
            return None
        return min(g["min"].as_py() for g in got), max(g["max"].as_py() for g in got)

    def every(typ: pa.DataType) -> list[pa.ChunkedArray]:  # integers of any width (or floats) as one type
        return [c if c.type == typ else pc.cast(c, typ) for c in cols]

    whole = all(pc.all(pc.equal(pc.floor(c), c)).as_py() is not False for c in floats)
    fr, ir = extremes(floats), extremes(ints)
    if whole and (fr is None or (-2.0**63 <= fr[0] and fr[1] < 2.0**63)) and (ir is None or ir[1] < 2**63):
        return every(pa.int64())
    if ir is None or (-(2**53) <= ir[0] and ir[1] <= 2**53):
        return every(pa.float64())
    return [pa.chunked_array([pa.array([None if v is None else label_str(v) for v in c.to_pylist()], type=pa.string())])
            for c in cols]


def check_missing(arr: pa.Array | pa.ChunkedArray, name: str) -> None:
    """A null or a float NaN among labels refused, naming its first item."""
    nulls = arr.null_count
    if arr.type.id == pa.float64().id or pa.types.is_floating(arr.type):
        nan_mask = pc.is_nan(arr)
        if pc.any(nan_mask).as_py():
            nulls += 1
            first = int(np.flatnonzero(np.asarray(pc.fill_null(nan_mask, False)))[0])
            raise DataError(f"{name} has a missing label (NaN) at item {first} (0-based); every item needs a label.")
    if nulls:
        first = int(np.flatnonzero(np.asarray(pc.is_null(arr)))[0])
        raise DataError(f"{name} has a missing label at item {first} (0-based); every item needs a label ({nulls} "
                        "missing).")


def refuse_blank(codes: Sequence[np.ndarray], names: Sequence[str], blank: Sequence[int]) -> None:
    """An empty (or blank) text label is a missing label, as an empty cell of a file is (one rule for every input):
    named at its first item."""
    for c, name in zip(codes, names, strict=True):
        at = np.flatnonzero(np.isin(c, np.asarray(blank, dtype=c.dtype)))
        if at.size:
            raise DataError(f"{name} has an empty label at item {int(at[0])} (0-based); every item needs a label in "
                            f"single-label data, as in a file (for label sets, where an empty set is allowed, use "
                            f"multilabel=True).")
