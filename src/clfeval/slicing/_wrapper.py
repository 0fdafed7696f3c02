"""Any accumulator, per slice: the one wrapper of ``by=`` (issue 39).

:class:`BySlice` takes an operation's empty accumulator (``make()``: anything with ``update(batch)`` and ``+``)
and the ``by`` columns, and is itself an accumulator (``update``, ``+``, :meth:`~BySlice.finish`), run by the
engine's runner like any other (streamed here, one per group of Dask partitions, added in a tree). It owns what
slicing means, once:

- the slice of every row: the value tuple of its ``by`` columns (nulls a value of their own, numeric columns cut
  into the bins of ``binning``), coded by :class:`clfeval.core.SliceCounter` (the coder the vectorised table
  counters use), refused past ``max_slices`` as soon as one more appears (and again after adding);
- one accumulator per slice, matched by the slice's value tuple when two wrappers add (codes are per process);
- the slices in their sorted order (bins in numeric order), a column null in every row refused.

How a batch reaches the slices. An accumulator that counts every slice in one vectorised pass says so with
``update_sliced(batch, codes)`` (and ``finish_sliced(keys)``): the wrapper then holds ONE such accumulator and
hands it the codes — the count tables of ``report``, ``threshold``, ``calibration`` (:class:`SlicedCounts`) and
``compare`` (:class:`~clfeval.slicing._slicejoint.SlicedJointCounts`) are of that kind, one bincount over
(slice, cells). Any other accumulator gets, per slice present in the batch, the batch's rows of that slice
(:class:`RowsOf`: every column taken, errors still naming the row of the file): so ``error_analysis`` is sliced
without a line of slicing in it.

The slice code of a row may also come with the batch (``batch.tags``): compare's ``by`` columns belong to the
first input, coded before the join (:meth:`BySlice.tag`) and carried through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from clfeval.core import MAX_SLICES, MISSING, SliceCounter
from clfeval.errors import DataError, UsageError

__all__ = ["BySlice", "RowsOf", "take"]


def take(values: Any, idx: np.ndarray) -> Any:
    """The rows ``idx`` of a column: a pyarrow array, a NumPy array or a sequence."""
    if values is None:
        return None
    if hasattr(values, "take") and not isinstance(values, np.ndarray):
        import pyarrow as pa

        return values.take(pa.array(idx, pa.int64()))
    if isinstance(values, np.ndarray):
        return values[idx]
    return [values[int(i)] for i in idx]


class _PartRows:
    """A batch's :class:`clfeval.io.Part` restricted to some of its rows: the same file, each row still its own."""

    def __init__(self, part: Any, idx: np.ndarray) -> None:
        self._part, self._idx = part, idx
        self.source = part.source

    def file_row(self, i: int) -> int:
        return int(self._part.file_row(int(self._idx[i])))

    def row_ref(self, i: int) -> str:
        return str(self._part.row_ref(int(self._idx[i])))

    def where(self, i: int) -> str:
        return str(self._part.where(int(self._idx[i])))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._part, name)


class RowsOf:
    """The rows ``idx`` of a batch, as a batch: every column the batch has (``gold``, ``pred``, ``preds``, ids,
    ``extra``, ``tags``, weights) taken, the flags kept, and ``where(i)`` / ``part`` naming row i by its place in
    the original batch's file."""

    _COLUMNS = ("gold", "pred", "ids", "item_ids", "repeats", "tags", "counts")

    def __init__(self, batch: Any, idx: np.ndarray) -> None:
        self._batch, self._idx = batch, idx
        self.n = int(idx.size)
        for name in self._COLUMNS:
            if hasattr(batch, name):
                setattr(self, name, take(getattr(batch, name), idx))
        if getattr(batch, "preds", None) is not None:
            self.preds = [take(p, idx) for p in batch.preds]
        self.extra = {k: take(v, idx) for k, v in (getattr(batch, "extra", None) or {}).items()}
        self.text = bool(getattr(batch, "text", False))
        part = getattr(batch, "part", None)
        self.part = None if part is None else _PartRows(part, idx)

    def where(self, i: int) -> str:
        return str(self._batch.where(int(self._idx[i])))

    def row_ref(self, i: int) -> str:
        return str(self._batch.row_ref(int(self._idx[i])))


def groups(codes: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """(slice code, the rows of that slice in their order) for every code present, codes ascending."""
    if not codes.size:
        return
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_codes[1:] != sorted_codes[:-1])))
    ends = np.append(starts[1:], sorted_codes.size)
    for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
        yield int(sorted_codes[s]), order[s:e]


def too_many(columns: Sequence[str], max_slices: int, found: int | None = None) -> UsageError:
    """The refusal of more slices than ``max_slices`` (``found``: how many, when known)."""
    cols = ", ".join(columns)
    many = f"{found:,} slices, more than {max_slices:,}" if found is not None else f"more than {max_slices:,} slices"
    return UsageError(lambda o, b: (f"the values of {cols} (option {b}) make {many} (option {o}); slice by fewer "
                                    f"columns, bin a numeric column (--by-bins N), or raise {o}."),
                      params=["max_slices", "by"])


class BySlice:
    """An accumulator per slice of the ``by`` columns (see the module docstring).

    Parameters
    ----------
    make : callable
        An empty accumulator of the operation (picklable, to travel to a cluster's workers).
    columns : sequence of str
        The ``by`` columns (one set); each batch carries them in ``batch.extra`` (or its codes in ``batch.tags``).
    max_slices : int
        Slices counted at most.
    binning : mapping column → binning, optional
        Numeric columns cut into bins (:func:`clfeval.slicing.slice_binning`).

    >>> class Count:  # any accumulator: here, how many items
    ...     def __init__(self): self.n = 0
    ...     def update(self, batch): self.n += batch.n
    ...     def __add__(self, other): out = Count(); out.n = self.n + other.n; return out
    >>> from types import SimpleNamespace
    >>> acc = BySlice(Count, ["lang"])
    >>> acc.update(SimpleNamespace(n=3, extra={"lang": ["en", "fr", "en"]}))
    >>> [(key, c.n) for key, c in acc.finish()]
    [(('en',), 2), (('fr',), 1)]
    """

    def __init__(self, make: Callable[[], Any], columns: Sequence[str], *, max_slices: int = MAX_SLICES,
                 binning: Mapping[str, Any] | None = None) -> None:
        self.make, self.columns = make, tuple(columns)
        self.max_slices, self.binning = int(max_slices), dict(binning or {})
        self.slicer: SliceCounter | None = None
        self.parts: dict[tuple[Any, ...], Any] = {}  # slice value tuple → its accumulator (generic accumulators)
        self.whole: Any = None  # the one vectorised accumulator (update_sliced), when the operation has one
        self._generic = False  # the operation's accumulator has no update_sliced (known after the first batch)

    # --- the slice of every row ---------------------------------------------------------------------------------
    def _coder(self) -> SliceCounter:
        if self.slicer is None:
            self.slicer = SliceCounter([self.columns], max_slices=self.max_slices, binning=self.binning)
        return self.slicer

    def tag(self, extra: Mapping[str, Any]) -> np.ndarray:
        """The slice code of every row (``extra``: the ``by`` columns of a batch), for a batch that carries its
        codes to :meth:`update` as ``tags`` (through a join)."""
        codes: np.ndarray = self._coder().slice_codes({c: extra[c] for c in self.columns})
        return codes

    def keys(self) -> list[tuple[Any, ...]]:
        """The value tuple of every slice code given so far (in code order)."""
        return [] if self.slicer is None else self.slicer.keys()

    # --- counting -----------------------------------------------------------------------------------------------
    def update(self, batch: Any) -> None:
        """Count one batch: its rows handed to their slices' accumulators."""
        tags = getattr(batch, "tags", None)
        codes = np.asarray(tags if tags is not None else self.tag(batch.extra), dtype=np.int64)
        n = int(batch.n) if hasattr(batch, "n") else len(batch.gold)
        if codes.size != n:
            raise DataError(f"{codes.size:,} slice codes for {n:,} items.")
        if self.whole is None and not self._generic:
            probe = self.make()  # which kind of accumulator the operation has, asked once
            if hasattr(probe, "update_sliced"):
                self.whole = probe
            else:
                self._generic = True
        if self.whole is not None:
            self.whole.update_sliced(batch, codes)
            return
        keys = self.keys()
        for code, idx in groups(codes):
            acc = self.parts.get(keys[code])
            if acc is None:
                acc = self.parts[keys[code]] = self.make()
            acc.update(batch if idx.size == n else RowsOf(batch, idx))

    def __add__(self, other: BySlice) -> BySlice:
        if not isinstance(other, BySlice):
            return NotImplemented
        out = self._empty()
        if self.whole is not None or other.whole is not None:
            a, b = self._whole_keyed(), other._whole_keyed()
            out.whole = a if b is None else b if a is None else a + b
            return out
        out._generic = self._generic or other._generic
        out.parts = dict(self.parts)
        for key, acc in other.parts.items():
            out.parts[key] = acc if key not in out.parts else out.parts[key] + acc
        out._check_count(len(out.parts))
        return out

    def _empty(self) -> BySlice:
        """An empty wrapper like this one (a subclass's own kind)."""
        out = type(self).__new__(type(self))
        BySlice.__init__(out, self.make, self.columns, max_slices=self.max_slices, binning=self.binning)
        return out

    def _whole_keyed(self) -> Any:
        """The vectorised accumulator with its slices named by value (``keyed(keys)``), so that two add by value."""
        if self.whole is None:
            return None
        keyed = getattr(self.whole, "keyed", None)
        return keyed(self.keys()) if keyed is not None else self.whole

    def __getstate__(self) -> dict[str, Any]:
        """A wrapper travels with its slices named by value (the coder stays behind: codes are per process)."""
        state = dict(self.__dict__)
        state["whole"], state["slicer"] = self._whole_keyed(), None
        return state

    # --- the end ------------------------------------------------------------------------------------------------
    def _check_count(self, n: int) -> None:
        if n > self.max_slices:
            raise too_many(self.columns, self.max_slices, n)

    def finish(self) -> list[tuple[Any, Any]]:
        """Every slice's accumulator (not finished: the operation finishes each with its own options) with its value
        tuple, in the sorted order of the slices; more than ``max_slices`` slices, or a column null in every row,
        refused. A vectorised accumulator is returned whole, with its keys: ``[(None, whole)]``."""
        from clfeval.core import slice_order

        if self.whole is not None:
            return [(None, self._whole_keyed())]
        if not self.parts:
            raise DataError("there are no items to slice.")
        self._check_count(len(self.parts))
        keys = list(self.parts)
        for j, c in enumerate(self.columns):
            if all(k[j] == MISSING for k in keys):
                raise DataError(lambda o, _c=c: f"column {_c!r} (option {o}) is null in every row: there is nothing "
                                                f"to slice by.", params=["by"])
        return [(keys[i], self.parts[keys[i]]) for i in slice_order(keys, self.columns, self.binning)]
