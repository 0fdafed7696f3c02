"""The id join, specified once: how ids compare, hash and repeat, and how a defect is named.

Four back ends match inputs by id — the in-memory alignment of
:class:`~clfeval.io._predictions.Predictions` (:mod:`clfeval.io._align`), the
partitioned hash join in bounded memory (:mod:`clfeval.io._join`), its DuckDB
fast path (:mod:`clfeval.io._duckjoin`) and the Dask join
(:mod:`clfeval.engines.dask._join`, :mod:`clfeval.engines.dask._ids`) — and
``errors --texts`` joins texts to predictions the same way
(:mod:`clfeval.io._textjoin`). They all take the pieces below, so they agree:

Key normalisation
    An id is compared as its text (:func:`id_keys`, through
    :func:`clfeval.io._align.as_text`): dictionary columns are decoded,
    integers print in decimal, floats as labels print (``1.0`` is ``"1"``),
    text stays as given (no trimming, no Unicode normalisation). So the
    integer ``7`` of a Parquet file and the text ``"7"`` of a CSV file are one
    id, while ``"07"`` is another id (it is not the text of ``7``). DuckDB joins
    integer ids on both sides as integers, which is the same relation
    (:func:`key_kind`: equal integers have equal text); every other mix is
    joined on the text. Until issue 39 the Dask join merged the raw columns
    (``7`` and ``"7"`` did not match there); it now joins on the same text.

Hashing
    One hash, :func:`hash_ids` (a polynomial over the key's UTF-8 bytes mod
    2^64, then splitmix64's finaliser: stable across batches, files, runs and
    machines), and one placement, :func:`partition_of` (the hash mod P). The
    local spill partitions, the text join, the Dask join's buckets and the Dask
    duplicate check all place a key with it (the Dask side used pyarrow's
    ``hash_64`` before, with Python's ``hash`` as fallback, which differs from
    process to process). :func:`partitions_for` sets P from the memory budget.

Duplicates
    An id that occurs twice anywhere in one input (across all its files) is
    refused. The one named is the id whose *second* occurrence comes first in
    input order (file, then row), with its first two places
    (:func:`first_duplicate`; :func:`earliest` picks among partitions or
    buckets): the same id whatever the budget, the partitioning or the engine.
    With several inputs, the first input holding a duplicate is named. The
    message (:func:`duplicate_error`) names the file and the column and both
    rows — ``rows i and j`` when both are in one file, each place
    (``file 'x', row i``) otherwise. Rows of a repeated out-of-fold file are
    keyed by (repeat, id) and the message says so.

Missing ids
    Every id of the first input must occur in every other input and the
    other way round. The message (:func:`missing_error`) gives, for the first
    other input with a gap, how many ids of each side are missing from the
    other, with the one whose row comes first in its input and its place.

Gold labels
    Gold labels of the matched items are compared as text; the first
    disagreement in the first input's order is named, with how many items
    differ (:func:`gold_error`).

Row order of the result
    Consumers count tables, which do not depend on the order of the items.
    In memory the result is in the first input's order; the partitioned and
    Dask joins give partition after partition (each in the first input's
    order); DuckDB gives joint cells with counts, in no order.

Repeats
    ``--repeat R`` keeps the rows of one repeat of every input before the
    join; an input holding several repeats without ``--repeat`` is refused
    (local back ends; the Dask engine has no ``repeat``).

Errors found while matching (a streaming back end) are raised after the last
batch, in this order: a duplicate, then missing ids, then a gold label.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import arrowcompute as pc, shown_id
from clfeval.errors import DataError

__all__ = ["id_keys", "key_kind", "canonical_labels", "hash_ids", "partition_of", "partitions_for", "item_with_id",
           "first_duplicate", "earliest", "duplicate_error", "missing_error", "gold_error"]

Place = tuple[int, int]  # (file number in the input, 0-based row in that file): input order

_MAX_PARTITIONS = 256
_P = np.uint64(0x100000001B3)  # FNV prime: the polynomial hash's base (odd, so invertible mod 2^64)
_P_INV = np.uint64(pow(0x100000001B3, -1, 1 << 64))


# --- keys -----------------------------------------------------------------------------------------

def id_keys(ids: Any) -> pa.Array:
    """The join keys of an id column: its text, as one plain string array (module notes).

    >>> id_keys(pa.array([7, 70])).to_pylist(), id_keys(pa.array(["7", "07"])).to_pylist()
    (['7', '70'], ['7', '07'])
    """
    from clfeval.io._align import as_text

    keys = as_text(ids)
    arr = pa.concat_arrays(keys.chunks) if keys.num_chunks else pa.array([], pa.string())
    return arr.cast(pa.string()) if pa.types.is_large_string(arr.type) else arr


def key_kind(ids: Any) -> str:
    """``"int"`` when the ids are integers (joined as integers: the same relation as their text), else ``"text"``."""
    t = ids.type.value_type if pa.types.is_dictionary(ids.type) else ids.type
    return "int" if pa.types.is_integer(t) else "text"


def canonical_labels(col: pa.ChunkedArray | pa.Array | None) -> pa.Array | None:
    """A label column as one plain array: dictionaries decoded, integers int64, floats float64, text string."""
    if col is None:
        return None
    arr = pa.concat_arrays(col.chunks) if isinstance(col, pa.ChunkedArray) else col
    if pa.types.is_dictionary(arr.type):  # casts through the kernels: Array.cast would import pyarrow.compute
        arr = pc.cast(arr, arr.type.value_type)
    t = arr.type
    if pa.types.is_integer(t) and t != pa.int64() and t != pa.uint64():
        return pc.cast(arr, pa.int64())
    if pa.types.is_floating(t) and t != pa.float64():
        return pc.cast(arr, pa.float64())
    if pa.types.is_large_string(t):
        return pc.cast(arr, pa.string())
    return arr


# --- the one hash -----------------------------------------------------------------------------------

def _mix(h: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: every bit of the input moves every bit of the output."""
    h = h ^ (h >> np.uint64(30))
    h = h * np.uint64(0xBF58476D1CE4E5B9)
    h = h ^ (h >> np.uint64(27))
    h = h * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


def hash_ids(keys: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A 64-bit hash of every key (its text: :func:`id_keys`; a polynomial over its bytes mod 2^64, then mixed):
    stable across batches, files, runs and machines, computed on pyarrow's buffers without a per-value loop.

    >>> a = hash_ids(pa.array(["x", "yz", "x"])); bool(a[0] == a[2] and a[0] != a[1])
    True
    >>> bool(hash_ids(pa.array([7]))[0] == hash_ids(pa.array(["7"]))[0])
    True
    """
    if isinstance(keys, pa.ChunkedArray):
        parts = [hash_ids(c) for c in keys.chunks]
        return np.concatenate(parts) if parts else np.empty(0, dtype=np.uint64)
    if not (pa.types.is_string(keys.type) or pa.types.is_large_string(keys.type)):
        keys = id_keys(keys)
    n = len(keys)
    if n == 0:
        return np.empty(0, dtype=np.uint64)
    width = np.int64 if pa.types.is_large_string(keys.type) else np.int32
    offsets = np.frombuffer(keys.buffers()[1], dtype=width)[keys.offset:keys.offset + n + 1].astype(np.int64)
    lo, hi = int(offsets[0]), int(offsets[-1])
    data = keys.buffers()[2]
    raw = np.frombuffer(data, dtype=np.uint8)[lo:hi].astype(np.uint64) + np.uint64(1) if data is not None and hi > lo \
        else np.empty(0, dtype=np.uint64)
    with np.errstate(over="ignore"):
        length = raw.size
        powers = np.cumprod(np.full(length, _P, dtype=np.uint64)) if length else raw  # P^1 … P^L
        inverse = np.cumprod(np.full(length, _P_INV, dtype=np.uint64)) if length else raw
        prefix = np.concatenate([np.zeros(1, dtype=np.uint64), np.cumsum(raw * powers, dtype=np.uint64)])
        start, stop = offsets[:-1] - lo, offsets[1:] - lo
        scale = np.concatenate([np.ones(1, dtype=np.uint64), inverse])[start]  # P^-start
        h = (prefix[stop] - prefix[start]) * scale
        h = h + (stop - start).astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        return _mix(h)


def partition_of(keys: pa.Array | pa.ChunkedArray, partitions: int) -> np.ndarray:
    """The partition (0 … ``partitions`` - 1) of every key: :func:`hash_ids` mod P, on every back end."""
    return (hash_ids(keys) % np.uint64(max(partitions, 1))).astype(np.int64)


def partitions_for(estimate: int, budget: int) -> int:
    """Partitions so that one partition of every input, matched, fits the budget (1: all in memory)."""
    return max(1, min(_MAX_PARTITIONS, math.ceil(8 * estimate / max(budget, 1))))  # matching takes ~8x the columns


# --- duplicates -------------------------------------------------------------------------------------

def first_duplicate(keys: Sequence[Any] | pa.Array | pa.ChunkedArray, files: Any, rows: Any
                    ) -> tuple[Any, Place, Place] | None:
    """The key whose second occurrence comes first in input order (``files``, then ``rows``), with its first
    two places; None when every key is unique.

    >>> first_duplicate(["9", "7", "7", "9"], [0, 0, 0, 0], [0, 1, 2, 3])
    ('7', (0, 1), (0, 2))
    """
    if isinstance(keys, (pa.Array, pa.ChunkedArray)):
        from clfeval.core import arrowcompute as pc

        if len(pc.unique(keys)) == len(keys):
            return None
        keys = keys.to_pylist()
    files, rows = np.asarray(files, dtype=np.int64), np.asarray(rows, dtype=np.int64)
    seen: dict[Any, int] = {}
    for i in np.lexsort((rows, files)).tolist():
        first = seen.setdefault(keys[i], i)
        if first != i:
            return keys[i], (int(files[first]), int(rows[first])), (int(files[i]), int(rows[i]))
    return None


def earliest(found: Sequence[tuple[Any, Place, Place] | None]) -> tuple[Any, Place, Place] | None:
    """Of the duplicates found in several partitions (or buckets), the one the whole input names."""
    got = [f for f in found if f is not None]
    return min(got, key=lambda f: f[2]) if got else None


def duplicate_error(key: Any, first: Place, second: Place, *, column: str, described: str,
                    file_name: Callable[[int], str | None], where: Callable[[int, int], str],
                    repeat: str | None = None) -> DataError:
    """The one message for an id (or a ``repeat:id`` key, when ``repeat`` names the repeat column) that occurs
    twice: ``described`` is the input as a whole, ``file_name(file)`` a file's name (None: not a file),
    ``where(file, row)`` a place in the input (``file 'x', row 3``)."""
    (fa, ra), (fb, rb) = first, second
    if fa == fb and file_name(fa) is not None:
        places, what = f"rows {ra + 1} and {rb + 1}", f"file {file_name(fa)!r}"
    else:
        places, what = f"{where(fa, ra)} and {where(fb, rb)}", described
    if repeat is not None:
        rep_value, _, id_value = str(key).partition(":")
        return DataError(f"{what}: the key ({repeat}, {column}) must be unique, but repeat {rep_value} holds the id "
                         f"{shown_id(id_value)} more than once ({places}).")
    return DataError(f"{what}, column {column!r}: ids must be unique, but the id {shown_id(str(key))} occurs more "
                     f"than once ({places}).")


# --- missing ids and gold labels ------------------------------------------------------------------

def missing_error(gaps: Sequence[tuple[str, str, int, Any, str | None]]) -> DataError:
    """The one message for ids on one side only: ``gaps`` are (input, other input, how many of its ids the other
    lacks, the first of them in input order, its place or None)."""
    said = [f"{count} id(s) of {a!r} are missing from {b!r} (e.g. {shown_id(example)}"
            f"{', ' + place if place else ''})" for a, b, count, example, place in gaps]
    return DataError("; ".join(said) + ". Compared files must hold predictions for the same items.")


def gold_error(a: str, b: str, item: str, gold_a: Any, gold_b: Any, count: int) -> DataError:
    """The one message for gold labels that differ: ``item`` names the first item (``the item with id 'x'``
    or ``row 3``), ``count`` how many differ."""
    return DataError(f"gold labels differ between {a!r} and {b!r}: {item} has gold {gold_a!r} in {a!r} and "
                     f"{gold_b!r} in {b!r} ({count} item(s) differ). Compared files must be predictions on the same "
                     f"test set.")


def item_with_id(key: Any) -> str:
    """How :func:`gold_error` names an item matched by id."""
    return f"the item with id {shown_id(key)}"
