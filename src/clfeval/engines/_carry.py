"""The first input's tags carried through the local join, inside its predictions.

The local join (:func:`clfeval.io.aligned`: DuckDB, or hash partitions on disk) matches gold labels and
predictions only. When an accumulator tags the rows of the first input (``acc.tag(extra)``: a small integer per
row from the input's ``extra`` columns, e.g. its slice), :class:`Carried` reads that input with its ``extra``
columns, tags each batch and hands the join the prediction as the integer ``(tag + 1) << 32 | label code``
(label codes in order of first appearance); :meth:`Carried.decoded` turns a matched batch back into the
predictions and the tags (``batch.tags``). It knows no operation: the accumulator says what a tag is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

__all__ = ["Carried"]

_SHIFT = 32
_LOW = (1 << _SHIFT) - 1


def _plain(col: Any) -> Any:
    """A label column as one plain array (dictionaries decoded, integers int64, large text text), as the join
    hands the other columns on."""
    import pyarrow as pa

    arr = pa.concat_arrays(col.chunks) if isinstance(col, pa.ChunkedArray) else col
    if pa.types.is_dictionary(arr.type):
        arr = arr.dictionary_decode()
    if pa.types.is_integer(arr.type) and arr.type not in (pa.int64(), pa.uint64()):
        return arr.cast(pa.int64())
    if pa.types.is_floating(arr.type) and arr.type != pa.float64():
        return arr.cast(pa.float64())
    return arr.cast(pa.string()) if pa.types.is_large_string(arr.type) else arr


class Carried:
    """A reader whose predictions carry each row's tag through the join (everything else is the reader's own)."""

    def __init__(self, reader: Any, tag: Callable[[Mapping[str, Any]], np.ndarray]) -> None:
        self._reader = reader
        self._tag = tag
        self.values: list[Any] = []
        self.index: dict[tuple[str, Any], int] = {}
        self._decoded: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._reader, name)

    def __iter__(self) -> Iterator[Any]:
        for b in self._reader:
            yield dataclasses.replace(b, pred=self._encode(b))

    def _code(self, value: Any) -> int:
        from clfeval.core import label_kind

        key = (label_kind(value), value)
        code = self.index.get(key)
        if code is None:
            code = self.index[key] = len(self.values)
            self.values.append(value)
            self._decoded = None
        return code

    def _encode(self, b: Any) -> Any:
        import pyarrow as pa
        import pyarrow.compute as pc

        s = np.asarray(self._tag(b.extra), dtype=np.int64)
        arr = b.pred.combine_chunks() if isinstance(b.pred, pa.ChunkedArray) else b.pred
        if pa.types.is_dictionary(arr.type):
            arr = arr.dictionary_decode()
        enc = pc.dictionary_encode(arr)
        lut = np.array([self._code(v) for v in enc.dictionary.to_pylist()] + [self._code(None)] * bool(enc.null_count),
                       dtype=np.int64)
        ind = enc.indices.fill_null(len(enc.dictionary)) if enc.null_count else enc.indices
        codes = lut[ind.to_numpy(zero_copy_only=False).astype(np.int64)] if len(lut) else np.zeros(0, np.int64)
        return pa.chunked_array([pa.array(((s + 1) << _SHIFT) | codes, pa.int64())])

    def decoded(self, batch: Any) -> Any:
        """A matched batch with the first input's predictions as they were read and each row's tag (``tags``)."""
        import pyarrow as pa

        x = batch.preds[0]
        x = np.asarray(x.to_numpy(zero_copy_only=False) if hasattr(x, "to_numpy") else x, dtype=np.int64)
        if self._decoded is None:
            try:
                self._decoded = pa.array(self.values)
            except (pa.ArrowInvalid, pa.ArrowTypeError):  # labels of several types (files that differ): as text
                from clfeval.core import label_str

                self._decoded = pa.array([None if v is None else label_str(v) for v in self.values], pa.string())
        first = self._decoded.take(pa.array(x & _LOW))
        gold, rest = _plain(batch.gold), [_plain(p) for p in batch.preds[1:]]
        text = len({str(getattr(c, "type", None)) for c in (gold, first, *rest)}) > 1
        return dataclasses.replace(batch, gold=gold, preds=[first, *rest], text=text, tags=(x >> _SHIFT) - 1)
