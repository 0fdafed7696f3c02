"""The error analysis on Dask: every partition counted into an :class:`ErrorCounter`, the counters added in a tree.

A counter holds term counts per confusion cell (a table that adds) and each cell's bottom-k examples by a
keyed hash (which merge exactly), so the sum over partitions is the local stream's counter: the same
terms, z-scores and examples. Ids repeated across partitions are refused as locally (the id sets are
checked by :func:`clfeval.engines.dask._counting.check_unique_ids`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from clfeval.engines.dask._parts import parts_of, run, tree_sum
from clfeval.errors import DataError
from clfeval.evaluate import ErrorCounter, count_arrays, item_scores

__all__ = ["count_on_dask"]


def _offset(fp: Any) -> int:
    """The file row of the first row of a Parquet row-group part (0 for a whole file)."""
    if fp is None or fp.group is None:
        return 0
    import pyarrow.parquet as pq

    with pq.ParquetFile(fp.source.arrow()) as f:
        return sum(f.metadata.row_group(i).num_rows for i in range(fp.group))


def _count(table: pa.Table, fp: Any, template: ErrorCounter, gold: str, pred: str, id: str | None, text: str,
           score: str | None, texts: dict[str, str] | None) -> ErrorCounter:
    counter = ErrorCounter(template.analyzer, examples=template.k, seed=template.seed, chars=template.chars,
                           multilabel=template.multilabel, sep=template.sep)
    ids = table.column(id).to_pylist() if id is not None and id in table.column_names else None
    if ids is None:
        start, name = _offset(fp), fp.source.name if fp is not None else "partition"
        keys = [f"{name}:{start + i}" for i in range(table.num_rows)]
    else:
        keys = [str(k) for k in ids]
    if texts is not None:
        missing = next((k for k in keys if k not in texts), None)
        if missing is not None:
            raise DataError(f"id {missing!r} of the predictions has no text in the --texts file; every item of the "
                            f"predictions needs its text.")
        t = [texts[k] for k in keys]
    else:
        t = table.column(text).to_pylist()
    s = None
    if score is not None:
        s = item_scores(table.column(score), score,
                        (lambda i: f"the item of id {keys[i]!r}") if ids is not None else
                        (lambda i: f"file {name!r}, row {start + i + 1}"))
    count_arrays(counter, table.column(gold).to_pylist(), table.column(pred).to_pylist(), t, keys, s,
                 keyed_by="id" if ids is not None else "row")
    return counter


def _add(counters: Sequence[ErrorCounter]) -> ErrorCounter:
    total = counters[0]
    for c in counters[1:]:
        total = total + c
    return total


def count_on_dask(template: ErrorCounter, data: Any, *, gold: str = "gold", pred: str = "pred",
                  id: str | None = None, text: str | None = "text", texts: dict[str, str] | None = None,
                  score: str | None = None, input_format: str | None = None, encoding: str = "utf-8",
                  client: Any = None) -> tuple[ErrorCounter, int]:
    """The counter of an input (PATHs or a Dask DataFrame) counted on the workers; also the number of parts."""
    import dask

    from clfeval.engines.dask._counting import check_unique_ids

    cols = [gold, pred, id, None if texts is not None else text, score]
    options = [("--gold", gold), ("--pred", pred)] + ([("--id", id)] if id else []) + \
        ([("--text", text)] if texts is None and text else []) + ([("--score", score)] if score else [])
    labels = [] if template.multilabel else [gold, pred]
    parts = parts_of(data, cols, labels=labels, input_format=input_format, encoding=encoding,
                     options=options)
    if id is not None:
        check_unique_ids(parts, id, client=client)
    files = parts.files or (None,) * len(parts)
    tasks = [dask.delayed(_count, pure=True)(t, fp, template, gold, pred, id, text, score, texts)
             for t, fp in zip(parts.tasks, files, strict=True)]
    (total,) = run(client, tree_sum(tasks, combine=_add))
    return total, len(parts)
