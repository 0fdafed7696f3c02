"""An accumulator mapped over an input's partitions and added in a tree: the Dask side of any operation that
counts (``update``, ``+``).

:func:`accumulate` knows no operation: given a picklable ``make()`` (an empty accumulator) and the columns to
read, each task makes one, updates it with each partition of its group (read on the worker by the local
reader, :func:`clfeval.io.read_part`, every check included), and the accumulators are added in a tree
(:func:`~clfeval.engines.dask._parts.tree_sum`). Ids repeated anywhere in the input are refused first, as the local
stream refuses them (:func:`~clfeval.engines.dask._counting.check_unique_ids`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from types import SimpleNamespace
from typing import Any

import pyarrow as pa

from clfeval.engines.dask._parts import parts_of, probe, run, threads, tree_sum

__all__ = ["accumulate"]


def _fill(tables: Iterable[pa.Table], make: Callable[[], Any], gold: str, pred: str) -> Any:
    acc = make()
    for t in tables:
        acc.update(SimpleNamespace(gold=t.column(gold), pred=t.column(pred), ids=None, text=False, n=t.num_rows))
    return acc


def accumulate(data: Any, make: Callable[[], Any], *, gold: str = "gold", pred: str = "pred", id: str | None = None,
               multilabel: bool = False, normalize: str | None = None, client: Any = None) -> Any:
    """``make()``'s accumulator over every item of ``data`` (a PATH, a resolved PATH or a Dask DataFrame) on the
    cluster: one per group of partitions, updated with batches of ``gold`` and ``pred`` (labels compared as
    read), added in a tree. ``id`` (default ``id`` when the files have one) is checked unique across the input."""
    from clfeval.engines.dask._counting import check_unique_ids, id_column

    if isinstance(data, (str, os.PathLike)):  # a PATH: resolved once, as locally
        from clfeval.io import resolve_path

        data = resolve_path(data)
    ids = id_column(data, id, [gold, pred])
    parts = parts_of(data, [gold, pred] + ([ids] if ids else []), labels=[] if multilabel else [gold, pred],
                     normalize=normalize, options=[("--gold", gold), ("--pred", pred), ("--id", ids or "")])
    probe(parts, client)
    if ids is not None:
        check_unique_ids(parts, ids, client=client)
    (total,) = run(client, tree_sum(parts.map_groups(_fill, make, gold, pred, threads=threads(client))))
    return total
