"""Several inputs on the same items, matched by id at any size, in bounded memory.

``clfeval compare`` reads one PATH per system. With ids, every row goes, by
a hash of its id (as text, as ids are compared), to one of P partitions;
when everything fits the memory budget P = 1 and nothing touches the disk,
otherwise each input is written to P temporary Arrow files (in a
:func:`clfeval.io._spill.spill_directory`, removed at the end, on any error and on
SIGINT / SIGTERM / SIGHUP / SIGQUIT). Partition j of every input then holds the same ids, so
each partition is matched on its own: duplicate ids, ids missing on either
side and gold labels that differ are found exactly as in memory, across all
files. Two inputs from files within a budget of at least 64 MiB are first
joined by DuckDB in one pass (:mod:`clfeval.io._duckjoin`), which hands back to
this general path whatever it cannot vouch for. Without ids the inputs are
read side by side, row by row.
:func:`aligned` yields the matched batches (gold, and each system's
predictions); the counts they feed do not depend on the order of the items.

:class:`UniqueIds` is the same partitioning for one input: ``report`` refuses
an id that occurs twice anywhere in its files.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import MEMORY_BUDGET, arrowcompute as pc
from clfeval.errors import DataError, UsageError
from clfeval.io._align import as_text
from clfeval.io._idjoin import (
    canonical_labels,
    duplicate_error,
    earliest,
    first_duplicate,
    gold_error,
    id_keys,
    item_with_id,
    missing_error,
    partition_of,
    partitions_for,
)
from clfeval.io._predictions import PredictionBatch, PredictionReader
from clfeval.io._spill import spill_directory

__all__ = ["Spill", "UniqueIds", "Aligned", "Matching", "aligned", "unique_batches"]

def _estimate(reader: PredictionReader) -> int:
    """Bytes the id, label and position columns of an input take in memory, roughly (Parquet is compressed)."""
    factor = 4 if reader.fmt == "parquet" else 2
    return factor * reader.input.size


class Spill:
    """Rows hash-partitioned into P groups: in memory when P = 1, else appended to temporary Arrow files.

    Parameters
    ----------
    partitions : int
    directory : str or None
        Where the files go (required when ``partitions > 1``).
    tag : str
        A prefix of the file names (one spill per input).
    """

    def __init__(self, partitions: int, directory: str | None, tag: str) -> None:
        self.partitions = partitions
        self.directory = directory
        self.tag = tag
        self.memory: list[pa.Table] = []
        self.writers: dict[tuple[int, pa.Schema], Any] = {}
        self.files: dict[int, list[str]] = {}

    def add(self, table: pa.Table, key: str = "key") -> None:
        """Add rows, each to the partition of its ``key`` (:func:`clfeval.io._idjoin.partition_of`)."""
        if table.num_rows == 0:
            return
        if self.partitions == 1:
            self.memory.append(table)
            return
        part = partition_of(table.column(key), self.partitions)
        order = np.argsort(part, kind="stable")
        bounds = np.searchsorted(part[order], np.arange(self.partitions + 1))
        for j in range(self.partitions):
            lo, hi = int(bounds[j]), int(bounds[j + 1])
            if hi > lo:
                self._write(j, table.take(pa.array(order[lo:hi])))

    def _write(self, j: int, table: pa.Table) -> None:
        key = (j, table.schema)
        writer = self.writers.get(key)
        if writer is None:
            path = os.path.join(self.directory or ".", f"{self.tag}-{j}-{len(self.files.get(j, []))}.arrow")
            writer = self.writers[key] = pa.ipc.new_stream(pa.OSFile(path, "wb"), table.schema)
            self.files.setdefault(j, []).append(path)
        writer.write_table(table)

    def close(self) -> None:
        for w in self.writers.values():
            w.close()
        self.writers = {}

    def partition(self, j: int) -> list[pa.Table]:
        """The tables of partition ``j`` (read back from disk, one file per column schema)."""
        if self.partitions == 1:
            return self.memory
        out = []
        for path in self.files.get(j, []):
            with pa.OSFile(path, "rb") as fh:
                out.append(pa.ipc.open_stream(fh).read_all())
        return out


def _concat(tables: list[pa.Table]) -> pa.Table | None:
    """Tables of one input, label columns made one type (numbers unified; text when kinds differ)."""
    if not tables:
        return None
    if len({t.schema for t in tables}) == 1:
        return pa.concat_tables(tables)
    from clfeval.core import unify_numbers

    names = tables[0].column_names
    cols = []
    for name in names:
        parts = [t.column(name) for t in tables]
        if len({p.type for p in parts}) == 1:
            cols.append(pa.chunked_array([c for p in parts for c in p.chunks], type=parts[0].type))
        elif all(pa.types.is_integer(p.type) or pa.types.is_floating(p.type) for p in parts):
            cols.append(pa.chunked_array([c for p in unify_numbers(parts) for c in p.chunks]))
        else:
            cols.append(pa.chunked_array([c for p in parts for c in as_text(p).chunks]))
    return pa.table(cols, names=names)


def _rows(table: pa.Table, positions: Any) -> list[tuple[int, int]]:
    files = table.column("file").to_numpy()
    rows = table.column("row").to_numpy()
    return [(int(files[i]), int(rows[i])) for i in np.asarray(positions).tolist()]


@dataclass
class _Input:
    reader: PredictionReader
    name: str
    spill: Spill | None = None
    rows: int = 0
    repeats: set[str] = field(default_factory=set)
    keyed: bool = False  # ids are (repeat, id) keys

    def where(self, file_no: int, row: int) -> str:
        src = self.reader.input.sources[file_no]
        from clfeval.io._source import row_ref

        return f"file {src.name!r}, {row_ref(src, self.reader.fmt, row)}"

    def file(self, file_no: int) -> str:
        return self.reader.input.sources[file_no].name


def _duplicate(inp: _Input, found: tuple[Any, tuple[int, int], tuple[int, int]]) -> DataError:
    """The one duplicate message (:func:`clfeval.io._idjoin.duplicate_error`) for an id of this input."""
    reader = inp.reader
    return duplicate_error(*found, column=reader.id_name, described=reader.input.described, file_name=inp.file,
                           where=inp.where, repeat=reader.repeat if inp.keyed else None)


def _first_duplicate(table: pa.Table) -> tuple[Any, tuple[int, int], tuple[int, int]] | None:
    """The duplicate of one partition that the whole input names (:func:`clfeval.io._idjoin.first_duplicate`)."""
    return first_duplicate(table.column("key"), table.column("file").to_numpy(), table.column("row").to_numpy())


class UniqueIds:
    """Refuse an id that occurs twice anywhere in an input's files (hash partitions, bounded memory).

    Feed every batch to :meth:`add`; :meth:`finish` raises on the duplicate
    that occurs first in the input (as a whole-input read does).
    """

    def __init__(self, reader: PredictionReader, *, budget: int = MEMORY_BUDGET, directory: str | None = None) -> None:
        self.input = _Input(reader, reader.input.name)
        partitions = partitions_for(_estimate(reader), budget) if directory is not None else 1
        self.input.spill = Spill(partitions, directory, "ids")

    def add(self, batch: PredictionBatch) -> None:
        if batch.ids is None:
            return
        self.input.keyed = self.input.keyed or batch.repeats is not None
        files, rows = _positions(batch)
        self.input.spill.add(pa.table({"key": id_keys(batch.ids), "file": files, "row": rows}))  # type: ignore[union-attr]

    def finish(self) -> None:
        spill = self.input.spill
        assert spill is not None
        spill.close()
        found = []
        for j in range(spill.partitions):
            table = _concat(spill.partition(j))
            found.append(_first_duplicate(table) if table is not None else None)
        named = earliest(found)
        if named is not None:
            raise _duplicate(self.input, named)


def unique_batches(reader: PredictionReader, *, budget: int = MEMORY_BUDGET) -> Iterator[PredictionBatch]:
    """The batches of ``reader``; after the last one, an id that occurs twice in the input is refused."""
    if partitions_for(_estimate(reader), budget) == 1:  # the ids fit the budget: kept in memory, no directory
        yield from _checked(reader, UniqueIds(reader, budget=budget))
        return
    with spill_directory() as tmp:
        yield from _checked(reader, UniqueIds(reader, budget=budget, directory=tmp))


def _checked(reader: PredictionReader, check: UniqueIds) -> Iterator[PredictionBatch]:
    for batch in reader:
        check.add(batch)
        yield batch
    check.finish()


# --- several inputs -------------------------------------------------------------------------


@dataclass(frozen=True)
class Aligned:
    """One matched batch: the gold labels and each system's predictions, item for item."""

    gold: pa.Array
    preds: list[pa.Array]
    text: bool
    counts: np.ndarray | None = None  # how many items each row stands for (``aligned(weighted=True)``)
    extra: dict[str, pa.Array] = field(default_factory=dict)  # the first input's extra columns, before it is tagged
    tags: np.ndarray | None = None  # a tag per row, given by an accumulator to the first input's rows


@dataclass
class Matching:
    """How the inputs were matched (filled in while :func:`aligned` runs)."""

    by: str = "row"
    partitions: int = 1
    rows: int = 0
    files: list[int] = field(default_factory=list)
    engine: str = ""  # "duckdb" when the join ran there (:mod:`clfeval.io._duckjoin`)
    spilled_bytes: int = 0  # the most DuckDB held in its temporary files, as seen while the inputs were read

    @property
    def spilled(self) -> bool:
        """Whether any of the join went to disk."""
        return self.partitions > 1 or self.spilled_bytes > 0

    def describe(self) -> str:
        files = sum(self.files)
        if self.engine == "duckdb":
            disk = f", {self.spilled_bytes / 2**20:,.0f} MiB spilled to disk" if self.spilled_bytes else ""
            how = f"matched by id in one DuckDB query{disk}"
        else:
            how = (f"matched by id through {self.partitions} hash partitions on disk" if self.by == "id" and
                   self.partitions > 1 else "matched by id" if self.by == "id" else "matched row by row")
        return (f"the joint table was counted from streamed record batches: {self.rows:,} items from {files} "
                f"file{'s' if files != 1 else ''}, {how}")


def _one_repeat(batch: PredictionBatch, inp: _Input, repeat: str | None) -> PredictionBatch | None:
    """The rows of one repeat (``repeat``), or the batch itself when the file has no repeat column."""
    if batch.repeats is None:
        if repeat is not None:
            raise UsageError(f"option --repeat {repeat} was given, but {batch.part.source.name!r} has no 'repeat' "
                             f"column.")
        return batch
    text = pc.cast(batch.repeats, pa.string())
    inp.repeats.update(str(v) for v in pc.unique(text).to_pylist() if v is not None)
    if repeat is None:
        return batch
    mask = pc.equal(text, repeat)
    keep = {k: v.filter(mask) for k, v in batch.extra.items()}
    from dataclasses import replace

    part = batch.part
    rows = np.flatnonzero(np.asarray(mask))
    return replace(batch, gold=batch.gold.filter(mask), pred=None if batch.pred is None else batch.pred.filter(mask),
                   ids=None if batch.item_ids is None else batch.item_ids.filter(mask), extra=keep, repeats=None,
                   item_ids=None, part=replace(part, table=part.table.take(pa.array(rows))))


def _check_repeats(inp: _Input, repeat: str | None) -> None:
    values = sorted(inp.repeats, key=lambda v: (len(v), v))
    if not values:
        return
    if repeat is None and len(values) > 1:
        raise DataError(f"{inp.reader.input.described} holds {len(values)} repeats of the same items (column 'repeat': "
                        f"{', '.join(values[:10])}); rows of different repeats are not independent test items, so a "
                        f"paired test on all of them would be overconfident. Choose one with --repeat "
                        f"(for example --repeat {values[0]}).")
    if repeat is not None and repeat not in values:
        raise DataError(f"option --repeat {repeat}: {inp.reader.input.described} has repeats {', '.join(values[:20])}.")


def _text_needed(gold: pa.Array, preds: Sequence[pa.Array]) -> bool:
    """Files whose label types differ (a CSV read as text beside a typed Parquet file) compare labels as text."""
    return len({str(p.type) for p in preds} | {str(gold.type)}) > 1


def _positions(batch: PredictionBatch) -> tuple[pa.Array, pa.Array]:
    n = batch.n
    return (pc.int_array(np.full(n, batch.part.file_no, dtype=np.int32)),
            pc.int_array(np.arange(batch.part.start, batch.part.start + n, dtype=np.int64)))


def aligned(readers: Sequence[PredictionReader], names: Sequence[str] | None = None, *, repeat: str | None = None,
            budget: int = MEMORY_BUDGET, matching: Matching | None = None, weighted: bool = False) -> Iterator[Aligned]:
    """The items of several inputs, matched: by id when every input has ids, row by row when none has.

    Refuses, as :func:`clfeval.io._align.align_predictions` does in memory: ids
    on one side only, ids missing from either side (naming one from each
    side), different numbers of rows without ids, gold labels that differ
    (naming the first item of the first input), and duplicate ids anywhere
    in an input. Errors found while matching are raised after the last batch.

    Two inputs from files, matched by id within a budget of at least
    :data:`clfeval.io._duckjoin.MIN_BUDGET`, are joined by DuckDB
    (:mod:`clfeval.io._duckjoin`); with ``weighted=True`` the batches are then
    the joint cells, each with its count in ``counts`` (consumers that count
    tables add them as weights), else their items one by one.
    """
    inputs = [_Input(r, r.input.name) for r in readers]  # messages name the file (or the PATH as given)
    matching = matching if matching is not None else Matching()
    first = [iter(i.reader) for i in inputs]
    heads = [next(it) for it in first]  # every input's first batch: whether it has ids
    with_ids = [i for i, r in zip(inputs, readers, strict=False) if r.has_ids]
    if with_ids and len(with_ids) != len(inputs):
        without = next(i for i, r in zip(inputs, readers, strict=False) if not r.has_ids)
        raise DataError(f"file {with_ids[0].name!r} has an id column but {without.name!r} has none; items are matched "
                        f"by id when the files have ids and by row when none has. Give every file an id column "
                        f"(option --id) or none.")
    streams = [_chain(h, it) for h, it in zip(heads, first, strict=False)]
    matching.files = [len(r.input.sources) for r in readers]
    if with_ids:
        matching.by = "id"
        yield from _by_id(inputs, streams, repeat, budget, matching, heads=heads, weighted=weighted)
    else:
        yield from _by_row(inputs, streams, repeat, matching)


def _chain(head: PredictionBatch, rest: Iterator[PredictionBatch]) -> Iterator[PredictionBatch]:
    yield head
    yield from rest


def _gold_differs(ref: pa.Array, other: pa.Array) -> np.ndarray:
    return np.asarray(pc.fill_null(pc.not_equal(as_text(ref), as_text(other)), True))


class _GoldCheck:
    """Gold labels that differ between the first input and another: counted, the first one (in the first
    input's order) remembered."""

    def __init__(self) -> None:
        self.count: dict[int, int] = {}
        self.first: dict[int, tuple[tuple[int, int], str, Any, Any]] = {}

    def add(self, k: int, a: pa.Array, b: pa.Array, place: Any, describe: Any) -> None:
        """``place(i)``: the (file, row) of item i in the first input; ``describe(i)``: how a message names it."""
        hits = np.flatnonzero(_gold_differs(a, b))
        if hits.size == 0:
            return
        self.count[k] = self.count.get(k, 0) + int(hits.size)
        i = int(min(hits.tolist(), key=place))
        cand = (place(i), describe(i), as_text(a)[i].as_py(), as_text(b)[i].as_py())
        if k not in self.first or cand[0] < self.first[k][0]:
            self.first[k] = cand

    def raise_first(self, inputs: Sequence[_Input]) -> None:
        for k in sorted(self.count):
            _, where, ga, gb = self.first[k]
            a, b = inputs[0].name, inputs[k].name
            raise gold_error(a, b, where, ga, gb, self.count[k])


def _by_row(inputs: list[_Input], streams: list[Iterator[PredictionBatch]], repeat: str | None,
            matching: Matching) -> Iterator[Aligned]:
    buffers: list[list[PredictionBatch]] = [[] for _ in inputs]
    offset = [0] * len(inputs)  # rows of each input's first buffered batch already used
    gold_check = _GoldCheck()
    done = [False] * len(inputs)
    row = 0

    def fill(k: int) -> bool:
        while not buffers[k]:
            try:
                b = _one_repeat(next(streams[k]), inputs[k], repeat)
            except StopIteration:
                done[k] = True
                _check_repeats(inputs[k], repeat)
                return False
            if b is not None and b.n:
                buffers[k].append(b)
        return True

    while all(fill(k) for k in range(len(inputs))):
        m = min(buffers[k][0].n - offset[k] for k in range(len(inputs)))
        cols = []
        for k in range(len(inputs)):
            b = buffers[k][0]
            cols.append((b.gold.slice(offset[k], m), b.pred.slice(offset[k], m)))  # type: ignore[union-attr]
        gold = pa.concat_arrays(cols[0][0].chunks)
        for k in range(1, len(inputs)):
            gold_check.add(k, gold, pa.concat_arrays(cols[k][0].chunks), lambda i, _r=row: (0, _r + i),
                           lambda i, _r=row: f"row {_r + i + 1}")
        preds = [pa.concat_arrays(p.chunks) for _, p in cols]
        matching.rows += m
        yield Aligned(gold, preds, _text_needed(gold, preds))
        row += m
        for k in range(len(inputs)):
            offset[k] += m
            if offset[k] == buffers[k][0].n:
                buffers[k].pop(0)
                offset[k] = 0
    totals = []
    for k in range(len(inputs)):
        rest = sum(b.n for b in buffers[k]) - offset[k]
        buffers[k].clear()
        while not done[k] and fill(k):  # the rows this input has beyond the shortest
            rest += buffers[k].pop(0).n
        totals.append(row + rest)
    if len(set(totals)) > 1:
        k = next(i for i, t in enumerate(totals) if t != totals[0])
        raise DataError(f"files {inputs[0].name!r} ({totals[0]} rows) and {inputs[k].name!r} ({totals[k]} rows) have "
                        f"no id column, so items are matched by row, and the numbers of rows differ. Compare "
                        f"predictions on the same test set, or add an id column to match items by id.")
    gold_check.raise_first(inputs)


def _by_id(inputs: list[_Input], streams: list[Iterator[PredictionBatch]], repeat: str | None, budget: int,
           matching: Matching, *, heads: Sequence[PredictionBatch] = (), weighted: bool = False) -> Iterator[Aligned]:
    from clfeval.io import _duckjoin as duckjoin

    if heads and duckjoin.usable([i.reader for i in inputs], budget):
        with spill_directory() as tmp:
            cells = duckjoin.join_cells(inputs, heads, streams, budget, tmp,
                                        select=lambda b, inp: _one_repeat(b, inp, repeat))
        if cells is not None:
            for inp in inputs:
                _check_repeats(inp, repeat)
            matching.engine, matching.spilled_bytes, matching.rows = "duckdb", cells.spilled_bytes, cells.n
            yield from _cell_batches(cells, weighted)
            return
        for inp in inputs:  # the general path reads the inputs again, from the start
            inp.rows, inp.repeats, inp.keyed = 0, set(), False
        streams = [iter(i.reader) for i in inputs]
    estimate = sum(_estimate(i.reader) for i in inputs)
    partitions = partitions_for(estimate, budget)
    matching.partitions = partitions
    with spill_directory() as tmp:
        for k, (inp, stream) in enumerate(zip(inputs, streams, strict=False)):
            inp.spill = Spill(partitions, tmp, f"in{k}")
            for batch in stream:
                b = _one_repeat(batch, inp, repeat)
                if b is None or b.n == 0:
                    continue
                inp.keyed = inp.keyed or b.repeats is not None
                files, rows = _positions(b)
                inp.spill.add(pa.table({"key": id_keys(b.ids), "gold": canonical_labels(b.gold),
                                        "pred": canonical_labels(b.pred), "file": files, "row": rows}))
                inp.rows += b.n
            inp.spill.close()
            _check_repeats(inp, repeat)
        yield from _match_partitions(inputs, partitions, matching)


def _cell_batches(cells: Any, weighted: bool, chunk: int = 1 << 20) -> Iterator[Aligned]:
    """The joint cells as one weighted batch, or their items in batches of ``chunk``."""
    text = _text_needed(cells.gold, cells.preds)
    if weighted:
        yield Aligned(cells.gold, cells.preds, text, cells.counts)
        return
    ends = np.cumsum(cells.counts)
    starts = ends - cells.counts
    n = int(ends[-1]) if ends.size else 0
    for s in range(0, n, chunk):
        e = min(s + chunk, n)
        lo, hi = int(np.searchsorted(ends, s, "right")), int(np.searchsorted(starts, e, "left"))
        idx = pa.array(np.repeat(np.arange(lo, hi), np.minimum(ends[lo:hi], e) - np.maximum(starts[lo:hi], s)))
        yield Aligned(cells.gold.take(idx), [p.take(idx) for p in cells.preds], text)


def _match_partitions(inputs: list[_Input], partitions: int, matching: Matching) -> Iterator[Aligned]:
    missing: dict[tuple[int, int], list[Any]] = {}  # (k, side) → [count, earliest place, example]
    gold_check = _GoldCheck()
    dups: list[tuple[int, Any]] = []  # (input, (id, first place, second place)): the earliest is named at the end
    for j in range(partitions):
        tables = [_concat(i.spill.partition(j)) for i in inputs]  # type: ignore[union-attr]
        for k, t in enumerate(tables):
            got = _first_duplicate(t) if t is not None else None
            if got is not None:
                dups.append((k, got))
        if dups:
            continue
        ref = tables[0]
        if ref is None and all(t is None for t in tables):
            continue
        ok = True
        for k in range(1, len(inputs)):
            a, b = ref, tables[k]
            for side, (x, y) in enumerate(((a, b), (b, a))):
                if x is None:
                    continue
                out = x.filter(pc.invert(pc.is_in(x.column("key"), value_set=y.column("key")))) if y is not None else x
                if out.num_rows:
                    ok = False
                    places = _rows(out, range(out.num_rows))
                    i = min(range(out.num_rows), key=lambda r: places[r])
                    entry = missing.setdefault((k, side), [0, None, None])
                    entry[0] += out.num_rows
                    if entry[1] is None or places[i] < entry[1]:
                        entry[1], entry[2] = places[i], out.column("key")[i].as_py()
        if not ok or missing:
            continue
        gold = pa.concat_arrays(ref.column("gold").chunks)  # type: ignore[union-attr]
        preds = [pa.concat_arrays(ref.column("pred").chunks)]  # type: ignore[union-attr]
        keys = ref.column("key")  # type: ignore[union-attr]
        files, rows = ref.column("file").to_numpy(), ref.column("row").to_numpy()  # type: ignore[union-attr]
        for k in range(1, len(inputs)):
            t = tables[k]
            take = pc.index_in(keys, value_set=t.column("key"))  # type: ignore[union-attr]
            g = pa.concat_arrays(t.column("gold").take(take).chunks)  # type: ignore[union-attr]
            gold_check.add(k, gold, g, lambda i, files=files, rows=rows: (int(files[i]), int(rows[i])),
                           lambda i, keys=keys: item_with_id(keys[i].as_py()))
            preds.append(pa.concat_arrays(t.column("pred").take(take).chunks))  # type: ignore[union-attr]
        matching.rows += len(gold)
        yield Aligned(gold, preds, _text_needed(gold, preds))
    if dups:
        k = min(d[0] for d in dups)
        raise _duplicate(inputs[k], earliest([d[1] for d in dups if d[0] == k]))  # type: ignore[arg-type]
    if missing:
        k = min(k for k, _ in missing)
        gaps = []
        for side in (0, 1):
            if (k, side) in missing:
                count, place, example = missing[k, side]
                a, b = (inputs[0], inputs[k]) if side == 0 else (inputs[k], inputs[0])
                gaps.append((a.name, b.name, count, example, a.where(*place)))
        raise missing_error(gaps)
    gold_check.raise_first(inputs)
