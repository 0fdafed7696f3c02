"""Texts from a second file, joined to the predictions by id, in bounded memory (``errors --texts FILE``).

The join is compare's id join (:mod:`clfeval.io._idjoin`, :mod:`clfeval.io._join`): every row of both
inputs goes, by the one hash of its id as text (:func:`clfeval.io._idjoin.partition_of`), to one of P
partitions; when both inputs fit the memory budget P = 1 and nothing touches the disk, otherwise each input
is written to P temporary Arrow files (:class:`clfeval.io._join.Spill`, in a
:func:`clfeval.io._spill.spill_directory`, removed at the end, on any error and on signals). Partition j of
both inputs then holds the same ids, so each partition is matched on its own, and memory holds one
partition at a time.

Checked exactly, across all files, whatever P: an id repeated in the predictions, an id with a second
text, an id of the predictions without a text (ids of the texts without predictions are fine: a corpus
may hold more documents than were classified). Each is named at its first place in input order (the
second occurrence that comes first, or the first item without a text), the same place whatever the
partitioning (the duplicate rule of :func:`clfeval.io._idjoin.first_duplicate`; the messages name the
``--texts`` option and say what a text needs, so they keep their own words). Texts are kept to their
first ``keep`` characters before they are written (a longer text is cut: the error analysis counts a
document on its first 1,000,000 characters), so one partition's size is bounded by the budget however
long the documents are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import numpy as np
import pyarrow as pa

from clfeval.core import arrowcompute as pc
from clfeval.errors import DataError
from clfeval.io._idjoin import first_duplicate, partitions_for
from clfeval.io._join import Spill

__all__ = ["join_texts", "texts_table"]


def texts_table(keys: list[str], texts: list[str], file_no: int, start: int, keep: int) -> pa.Table:
    """One batch of the texts file as the join reads it: ``key``, ``text`` (cut to ``keep`` characters),
    and the place of each row (``file``, ``row``)."""
    n = len(keys)
    return pa.table({"key": pa.array(keys, pa.string()),
                     "text": pa.array([t if len(t) <= keep else t[:keep] for t in texts], pa.large_string()),
                     "file": pa.array(np.full(n, file_no, dtype=np.int32)),
                     "row": pa.array(np.arange(start, start + n, dtype=np.int64))})


def _first_repeat(t: pa.Table) -> tuple[str, tuple[int, int], tuple[int, int]] | None:
    """The id whose second occurrence comes first in input order, with its first two places (the one rule of
    :func:`clfeval.io._idjoin.first_duplicate`)."""
    return first_duplicate(t.column("key"), t.column("file").to_numpy(), t.column("row").to_numpy())


def _concat(tables: list[pa.Table]) -> pa.Table | None:
    if not tables:
        return None
    if len({t.schema for t in tables}) > 1:  # a column all empty in one batch: typed null there
        names = tables[0].column_names
        tables = [pa.table({c: t.column(c).cast(pa.string()) if pa.types.is_null(t.column(c).type) else t.column(c)
                            for c in names}) for t in tables]
    return pa.concat_tables(tables, promote_options="permissive")


def join_texts(items: Iterable[pa.Table], texts: Iterable[pa.Table], *, estimate: int, budget: int,
               where_item: Callable[[int, int], str], where_text: Callable[[int, int], str],
               option: str = "--texts", directory: str | None = None) -> Iterator[pa.Table]:
    """The items with their texts: every batch of ``items`` (a ``key`` column, ``file`` and ``row`` — the
    place of each item — and any other columns) joined by ``key`` to ``texts`` (:func:`texts_table`);
    yields tables of the items' columns and ``text``, one partition at a time.

    ``estimate``: bytes of both inputs in memory, roughly (it sets the partitions); ``where_item(file, row)``
    and ``where_text(file, row)``: how a message names a place. Raises :class:`DataError` after the last
    partition for the first defect in input order (module notes).
    """
    from clfeval.io._spill import spill_directory

    p = partitions_for(estimate, budget)
    with spill_directory(directory) as tmp:
        sides = [Spill(p, tmp, "items"), Spill(p, tmp, "texts")]
        for spill, source in zip(sides, (items, texts), strict=False):
            for t in source:
                if t.num_rows:
                    spill.add(t)
            spill.close()
        repeats: list[tuple[int, tuple[int, int], tuple[int, int], str]] = []
        missing: list[tuple[tuple[int, int], str]] = []
        n_missing = 0
        for j in range(p):
            a, b = (_concat(s.partition(j)) for s in sides)
            if a is None:
                continue
            for side, t in enumerate((a, b)):
                got = _first_repeat(t) if t is not None else None
                if got is not None:
                    repeats.append((side, got[2], got[1], got[0]))
            keys = a.column("key")
            found = pc.is_in(keys, value_set=b.column("key")) if b is not None else pa.array([False] * len(a))
            lost = np.flatnonzero(~np.asarray(pc.fill_null(found, False)))
            if lost.size:
                n_missing += int(lost.size)
                files, rows = a.column("file").to_numpy()[lost], a.column("row").to_numpy()[lost]
                i = int(np.lexsort((rows, files))[0])
                missing.append(((int(files[i]), int(rows[i])), keys[int(lost[i])].as_py()))
            if repeats or missing:
                continue  # only the checks go on: nothing more is handed on
            take = pc.index_in(keys, value_set=b.column("key"))  # type: ignore[union-attr]
            yield a.append_column("text", b.column("text").take(take))  # type: ignore[union-attr]
    _raise_first(repeats, missing, n_missing, where_item, where_text, option)


def _raise_first(repeats: list, missing: list, n_missing: int, where_item: Callable[[int, int], str],
                 where_text: Callable[[int, int], str], option: str) -> None:
    for side in (0, 1):  # a repeated prediction id first, then a second text: the first of each in input order
        found = sorted((r for r in repeats if r[0] == side), key=lambda r: r[1])
        if not found:
            continue
        _, second, first, key = found[0]
        if side == 0:
            raise DataError(f"{where_item(*second)}: id {key!r} is repeated (first at {where_item(*first)}); every "
                            f"item needs its own id.")
        raise DataError(f"{where_text(*second)}: id {key!r} has a second text (the first at {where_text(*first)}) "
                        f"in {option}; give each id one text.")
    if missing:
        place, key = min(missing)
        more = f" ({n_missing:,} items of the predictions have none)" if n_missing > 1 else ""
        raise DataError(f"{where_item(*place)}: id {key!r} has no text in the {option} file{more}; every item of "
                        f"the predictions needs its text.")
