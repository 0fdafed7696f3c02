"""The id join of two inputs on DuckDB: one pass over each input, on every core, spilling within the budget.

:func:`clfeval.io._join.aligned` matches two inputs by id. Its general path
(hash partitions on disk, matched with pyarrow on one core) finds and names
every defect exactly; this module is the fast path for the case that matters
at scale — two inputs whose ids and labels keep one type through all their
files — and hands the work back to the general path whenever it cannot vouch
for the result itself.

One DuckDB query reads both inputs' checked batches (the same
:class:`~clfeval.io._predictions.PredictionReader` batches as the general
path: no check of a file is skipped) as Arrow streams:

* A and B are joined by id (a FULL OUTER join, so that ids on one side
  only show up as rows with the other side empty);
* the result is grouped into the joint cells (gold of A, prediction of A,
  gold of B, prediction of B) with their counts.

The cells prove the join sound or not, exactly. When every cell has both
sides, every id of A occurs in B and every id of B in A; if an id occurs
α times in A and β times in B it gives α·β rows, so the rows add up to
Σα = A's rows only if every β is 1, and to Σβ = B's rows only if every α is
1: no id occurs twice on either side. If also the gold labels agree, the
cells *are* the joint table. Anything else — a duplicate, a missing id, a
gold label that differs, a label or id type that changes from one file to
the next, an error while reading — and :func:`join_cells` returns ``None``
before anything was handed on, and the general path re-reads the inputs and
names the defect with the same message, row and file as always.

Ids are compared as :mod:`clfeval.io._idjoin` specifies for every back end:
integers on both sides are joined as integers (equal integers have equal
text), any other mix as their text (:func:`clfeval.io._idjoin.id_keys`, so a
CSV's ``"1"`` matches a Parquet file's ``1``). Labels go through DuckDB only as integers (as int16
when the first batch's fit, which halves the join's hash table; a larger
label later hands back to the general path), booleans or text, which it
returns bit for bit; float labels take the general path. DuckDB's memory limit is the budget (``--memory``) and its
temporary files go into the run's spill directory
(:func:`clfeval.io._spill.spill_directory`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.io._align import as_text
from clfeval.io._idjoin import canonical_labels, id_keys, key_kind

__all__ = ["MIN_BUDGET", "Cells", "usable", "join_cells"]

#: Below this budget the general path runs (DuckDB itself needs some working memory to spill at all).
MIN_BUDGET = 64 << 20

_LABEL_TYPES = (pa.int64(), pa.uint64(), pa.string(), pa.bool_())


class _Drift(Exception):
    """A batch whose ids or labels do not have the type the query was planned with."""


@dataclass(frozen=True)
class Cells:
    """The joint cells of two inputs matched by id: A's gold, each input's predictions, and the counts."""

    gold: pa.Array
    preds: list[pa.Array]
    counts: np.ndarray
    spilled_bytes: int

    @property
    def n(self) -> int:
        return int(self.counts.sum())


def usable(readers: Sequence[Any], budget: int) -> bool:
    """Whether the fast path may try: DuckDB importable, two inputs read from files, a budget it can work in."""
    if len(readers) != 2 or budget < MIN_BUDGET or any(r.input.kind == "stdin" for r in readers):
        return False
    try:
        import duckdb  # noqa: F401
    except ImportError:  # pragma: no cover - duckdb is a core dependency
        return False
    return True


def _label_type(col: Any) -> pa.DataType | None:
    """The type a label column has in its one type (integers int64, text string), when DuckDB returns it bit
    for bit."""
    t = col.type.value_type if pa.types.is_dictionary(col.type) else col.type
    if pa.types.is_integer(t) and t != pa.uint64():
        t = pa.int64()
    elif pa.types.is_large_string(t):
        t = pa.string()
    return t if t in _LABEL_TYPES else None


def _int_keys(ids: pa.ChunkedArray) -> pa.Array:
    arr = pa.concat_arrays(ids.chunks) if ids.num_chunks else pa.array([], pa.int64())
    if pa.types.is_dictionary(arr.type):
        arr = arr.dictionary_decode()
    if not pa.types.is_integer(arr.type):
        raise _Drift
    if arr.type != pa.int64():
        try:
            arr = arr.cast(pa.int64())  # safe: a uint64 beyond int64's range raises, and the general path runs
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            raise _Drift from None
    return arr


def _stream(inp: Any, stream: Iterator[Any], select: Callable[[Any], Any], plan: tuple[str, pa.DataType, pa.DataType],
            state: dict[str, Any]) -> pa.RecordBatchReader:
    """One input's checked batches as (key, gold, pred) Arrow batches of the planned types."""
    kind, gold_type, pred_type = plan
    schema = pa.schema([("key", pa.int64() if kind == "int" else pa.string()), ("gold", gold_type),
                        ("pred", pred_type)])

    def gen() -> Iterator[pa.RecordBatch]:
        try:
            for batch in stream:
                b = select(batch)
                if b is None or b.n == 0:
                    continue
                if b.repeats is not None:
                    inp.keyed = True
                keys = _int_keys(b.ids) if kind == "int" else id_keys(b.ids)
                gold, pred = _wire(canonical_labels(b.gold), gold_type), _wire(canonical_labels(b.pred), pred_type)
                inp.rows += b.n
                state["spilled"] = max(state["spilled"], _size(state["tmp"]))
                yield pa.record_batch([keys, gold, pred], schema=schema)
        except BaseException as exc:  # DuckDB would wrap it: kept, re-raised (or handed back) by join_cells
            state.setdefault("error", exc)
            raise

    return pa.RecordBatchReader.from_batches(schema, gen())


def _wire(col: pa.Array | None, wire: pa.DataType) -> pa.Array:
    """A label column in the type it travels through DuckDB: its own, or int16 for small integers."""
    if col is None:
        raise _Drift
    if col.type == wire:
        return col
    if col.type == pa.int64() and wire == pa.int16():
        try:
            return col.cast(pa.int16())  # safe: a larger label raises, and the general path runs
        except pa.ArrowInvalid:
            raise _Drift from None
    raise _Drift


def _small(col: Any) -> bool:
    """Integer labels of the first batch all within int16 (most class labels): they travel as int16."""
    import pyarrow.compute as pc

    arr = pa.concat_arrays(col.chunks) if isinstance(col, pa.ChunkedArray) else col
    if pa.types.is_dictionary(arr.type) or not len(arr):
        return False
    lo, hi = pc.min_max(arr).values()
    return lo.as_py() is not None and -(1 << 15) <= lo.as_py() and hi.as_py() < (1 << 15)


def _size(path: str) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total


def _plan(heads: Sequence[Any]) -> tuple[str, list[pa.DataType], list[pa.DataType]] | None:
    kinds = {key_kind(h.ids) for h in heads if h.ids is not None}
    if len(kinds) == 0 or any(h.ids is None or h.pred is None for h in heads):
        return None
    golds = [_label_type(h.gold) for h in heads]
    preds = [_label_type(h.pred) for h in heads]
    if any(t is None for t in golds + preds):
        return None
    golds = [pa.int16() if t == pa.int64() and _small(h.gold) else t for t, h in zip(golds, heads, strict=False)]
    preds = [pa.int16() if t == pa.int64() and _small(h.pred) else t for t, h in zip(preds, heads, strict=False)]
    return ("int" if kinds == {"int"} else "text"), golds, preds


_QUERY = """
SELECT a.gold AS ga, a.pred AS pa, b.gold AS gb, b.pred AS pb, count(*) AS n
FROM sa AS a FULL OUTER JOIN sb AS b ON a.key = b.key
GROUP BY ALL
"""


def _select_of(select: Callable[[Any, Any], Any], inp: Any) -> Callable[[Any], Any]:
    """``select`` bound to one input: ``batch -> select(batch, inp)``."""
    return lambda batch: select(batch, inp)


def join_cells(inputs: Sequence[Any], heads: Sequence[Any], streams: Sequence[Iterator[Any]], budget: int, tmp: str, *,
               select: Callable[[Any, Any], Any]) -> Cells | None:
    """The joint cells of two inputs (see the module notes), or None when the general path must run.

    ``select(batch, input)``: the rows of the batch to join (one repeat), or None (:mod:`clfeval.io._join`
    supplies it, as its general path uses it); keys and labels are normalised as :mod:`clfeval.io._idjoin` says.
    """
    import duckdb

    plan = _plan(heads)
    if plan is None:
        return None
    kind, golds, preds = plan
    state: dict[str, Any] = {"spilled": 0, "tmp": os.path.join(tmp, "duckdb")}
    readers = [_stream(inputs[k], streams[k], _select_of(select, inputs[k]),
                       (kind, golds[k], preds[k]), state) for k in (0, 1)]
    try:
        con = duckdb.connect(":memory:", config={"memory_limit": f"{budget // (1 << 20)}MiB",
                                                 "temp_directory": state["tmp"], "preserve_insertion_order": False})
        try:
            cells = _run(con, readers[0], readers[1])
        finally:
            _close(con)
    except Exception as exc:
        from clfeval.errors import ClfevalError

        err = state.get("error")
        if err is None:
            if isinstance(exc, duckdb.OutOfMemoryException):
                return None  # DuckDB could not work within the budget: the general path partitions on disk
            raise
        if isinstance(err, (_Drift, ClfevalError)):
            return None  # the general path reads again: it unifies the types, or names the error
        raise err from None
    spilled = max(state["spilled"], _size(state["tmp"]))
    return _checked(cells, spilled, inputs)


def _close(con: Any) -> None:
    """Close a connection; one whose query was just interrupted may call itself busy: it goes with the process."""
    try:
        con.close()
    except Exception:  # noqa: BLE001 - duckdb's errors; nothing of ours is lost
        pass


def _run(con: Any, sa: pa.RecordBatchReader, sb: pa.RecordBatchReader) -> pa.Table:
    """The query, run on a worker thread while this thread waits: a signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT)
    takes effect here at once (its handler raises), the query is interrupted, and the error unwinds as
    anywhere else (the spill directory is removed)."""
    import threading

    out: dict[str, Any] = {}
    cursor = con.cursor()  # the query's own connection: this thread may interrupt it while it runs
    cursor.register("sa", sa)
    cursor.register("sb", sb)

    def work() -> None:
        try:
            out["cells"] = cursor.sql(_QUERY).to_arrow_table()
        except BaseException as exc:  # handed to the waiting thread
            out["error"] = exc

    worker = threading.Thread(target=work, name="clfeval-duckjoin", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except BaseException:
        cursor.interrupt()
        worker.join()
        raise
    finally:
        _close(cursor)
    if "error" in out:
        raise out["error"]
    return out["cells"]


def _plain(col: pa.ChunkedArray) -> pa.Array:
    arr = pa.concat_arrays(col.chunks) if col.num_chunks else pa.array([], col.type)
    if pa.types.is_large_string(arr.type) or pa.types.is_string_view(arr.type):
        arr = arr.cast(pa.string())
    elif arr.type in (pa.int8(), pa.int16(), pa.int32()):
        arr = arr.cast(pa.int64())  # small integer labels travelled as int16: back to their one type
    return arr


def _checked(cells: pa.Table, spilled: int, inputs: Sequence[Any]) -> Cells | None:
    """The cells when they prove the join sound (module notes); None otherwise."""
    import pyarrow.compute as pc

    if cells.column("ga").null_count or cells.column("gb").null_count:
        return None  # ids on one side only
    counts = _plain(cells.column("n")).to_numpy()
    total = int(counts.sum())
    if total != inputs[0].rows or total != inputs[1].rows:
        return None  # an id twice on one side (every id has a partner, so the join has more rows than A or B)
    ga, gb = _plain(cells.column("ga")), _plain(cells.column("gb"))
    same = pc.equal(ga, gb) if ga.type == gb.type else pc.equal(as_text(ga), as_text(gb))
    if len(ga) and not pc.all(same).as_py():
        return None  # gold labels differ: the general path names the first
    return Cells(ga, [_plain(cells.column("pa")), _plain(cells.column("pb"))], counts.astype(np.int64), spilled)
