"""An accumulator mapped over an input's partitions and added in a tree: the Dask side of any operation that
counts (``update``, ``+``).

:func:`accumulate` knows no operation: given a picklable ``make()`` (an empty accumulator) and the columns to
read, each task makes one and updates it with the checked batches of each partition of its group, read on the
worker by the local reader (:func:`clfeval.io.read_pieces`, every check included). A batch is the local
stream's :class:`clfeval.io.PredictionBatch` (``gold``, ``pred``, ``ids``, ``extra`` columns, and where its rows
are: ``batch.where(i)`` names the file and row as the local reader does), so an accumulator cannot tell which
engine feeds it. The accumulators are added in a tree (:func:`~clfeval.engines.dask._parts.tree_sum`). Ids
repeated anywhere in the input are refused first, as the local stream refuses them
(:func:`~clfeval.engines.dask._ids.check_unique_ids`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import dask
import pyarrow as pa

from clfeval.engines.dask._parts import parts_of, probe, run, threads, tree_sum

__all__ = ["accumulate", "batches"]


class _Place:
    """Where the rows of a DataFrame partition are (it has no file): ``partition P, row N``."""

    start = 0

    def __init__(self, number: int) -> None:
        self.number = number
        self.source = SimpleNamespace(name=f"partition {number + 1}")

    def row_ref(self, i: int) -> str:
        return f"row {i + 1}"

    def where(self, i: int) -> str:
        return f"partition {self.number + 1}, row {i + 1}"


def batches(items: Sequence[Any], read: bool, first: int, cols: tuple[str, str | None, str | None, tuple[str, ...]]
             ) -> Iterator[Any]:
    """The checked batches of a group of partitions (a PATH's :class:`FilePart`, read here with ``read``; else
    a DataFrame's partitions, the first numbered ``first``), as :class:`clfeval.io.PredictionBatch` of ``cols``
    (gold, pred, ids, extra): what :func:`accumulate` and the range runner (:mod:`._ranges`) feed a state."""
    from clfeval.io import PredictionBatch, read_pieces

    gold, pred, ids, extra = cols
    if read:
        pieces: Iterator[tuple[pa.Table, Any]] = ((p.table, p) for f in items for p in read_pieces(f))
    else:
        pieces = ((t, _Place(first + i)) for i, t in enumerate(items))
    for t, place in pieces:
        if not t.num_rows:
            continue
        yield PredictionBatch(t.column(gold), t.column(pred) if pred else None,
                              t.column(ids) if ids else None, t.column(ids) if ids else None, None,
                              {e: t.column(e) for e in extra}, place, False)


def _fill(items: Sequence[Any], read: bool, first: int, make: Callable[[], Any],
          cols: tuple[str, str | None, str | None, tuple[str, ...]]) -> Any:
    acc = make()
    for batch in batches(items, read, first, cols):
        acc.update(batch)
    return acc


def accumulate(data: Any, make: Callable[[], Any], *, gold: str = "gold", pred: str | None = "pred",
               id: str | None = None, extra: Sequence[str] = (), extra_options: Sequence[str] = (),
               scores: Sequence[str] = (), multilabel: bool = False, unique: bool = True,
               normalize: str | None = None, client: Any = None) -> tuple[Any, int]:
    """``make()``'s accumulator over every item of ``data`` (a PATH, a resolved PATH or a Dask DataFrame) on the
    cluster, and the number of input parts: one accumulator per group of partitions, updated with the checked
    batches of ``gold``, ``pred`` and the ``extra`` columns (``extra_options``: the option naming each, for
    messages; ``scores``: those among them whose values must be finite numbers), added in a tree. ``id``
    (default ``id`` when the files have one) is checked unique across the input; ``unique=False``: no id read."""
    from clfeval.engines.dask._ids import check_unique_ids, id_column

    if isinstance(data, (str, os.PathLike)):  # a PATH: resolved once, as locally
        from clfeval.io import resolve_path

        data = resolve_path(data)
    ids = id_column(data, id, [gold, pred, *extra]) if unique else None
    labels = [] if multilabel else [c for c in (gold, pred) if c]
    options = [("--gold", gold)] + ([("--pred", pred)] if pred else []) + [("--id", ids or "")] \
        + list(zip(extra_options, extra, strict=False))
    parts = parts_of(data, [gold, pred, ids, *extra], labels=labels, normalize=normalize, options=options,
                     scores=scores)
    probe(parts, client)
    if ids is not None:
        check_unique_ids(parts, ids, client=client)
    cols = (gold, pred, ids, tuple(dict.fromkeys(e for e in extra if e)))
    read = bool(parts.files)
    tasks = [dask.delayed(_fill, pure=True)(items, read, first, make, cols)
             for items, first in parts.groups(threads(client))]
    (total,) = run(client, tree_sum(tasks))
    return total, len(parts)
