"""``compare --by`` on Dask: the two inputs joined on the cluster (by id, else row by row) as the plain comparison
joins them (:func:`clfeval.engines.dask._counting.compare`), the ``by`` columns taken from the first input, and every
partition counted into (slice, gold, A, B) cells (:class:`~clfeval.significance._slicejoint.SlicedCells`), added
in a tree — cells add."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import dask
import numpy as np

from clfeval.core import label_str
from clfeval.engines.dask._counting import check_unique_ids
from clfeval.engines.dask._join import input_frame, joined_rows, refuse_ids, side_by_side
from clfeval.engines.dask._parts import parts_of, probe, run, tree_sum
from clfeval.errors import DataError, UsageError
from clfeval.significance import SlicedCells

__all__ = ["sliced_cells"]


def _column(frame: Any, name: str) -> Any:
    import pyarrow as pa

    return pa.array(frame[name].to_numpy(), from_pandas=True)


def _cells_of(frame: Any, columns: Sequence[str], max_slices: int, binning: Mapping[str, Any]) -> SlicedCells | None:
    """The (slice, gold, A, B) cells of one partition of the joined frame (gold labels checked to agree)."""
    from clfeval.core import SliceCounter
    from clfeval.significance import SliceJointCounter

    if not len(frame):
        return None
    g, gb = frame["gold"].to_numpy(), frame["gold_b"].to_numpy()
    bad = g != gb
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(f"the inputs disagree on the gold label of item {frame['id'].to_numpy()[i]!r} "
                        f"({label_str(g[i])!r} against {label_str(gb[i])!r}); compared systems must be scored on "
                        f"the same gold labels.")
    slicer = SliceCounter([tuple(columns)], max_slices=max_slices, binning=binning)
    codes = slicer.slice_codes({c: _column(frame, c) for c in columns})
    counter = SliceJointCounter()
    gold, a, b = _column(frame, "gold"), _column(frame, "pred0"), _column(frame, "pred1")
    counter.update(gold, a, b, codes, text=len({str(x.type) for x in (gold, a, b)}) > 1)
    return counter.cells(columns, slicer.keys(), binning)


def _add(values: Sequence[Any]) -> Any:
    total = None
    for v in values:
        if v is not None:
            total = v if total is None else total + v
    return total


def sliced_cells(a: Any, b: Any, *, gold: str, pred: str, id: str | None, columns: Sequence[str],
                 binning: Mapping[str, Any], max_slices: int, names: Sequence[str], client: Any = None,
                 normalize: str | None = None) -> SlicedCells:
    """The (slice, gold, A, B) cells of two inputs on the cluster: matched by ``id`` (unique in each input, every
    id in both; refused with the plain comparison's sentences otherwise) or, without ids, row by row (the inputs
    partitioned alike); the ``by`` columns ``columns`` read from ``a``."""
    cols = list(columns)
    if id is None:
        fa = input_frame(a, [gold, pred, *cols], [gold, pred], normalize)
        fb = input_frame(b, [gold, pred], [gold, pred], normalize)
        if fa.npartitions != fb.npartitions:
            raise UsageError("without ids the inputs are matched row by row, which needs them partitioned alike; "
                             "give an id column to match items by id.")
        fa = fa.rename(columns={gold: "gold", pred: "pred0"})
        fb = fb.rename(columns={gold: "gold_b", pred: "pred1"})
        joined = fa.map_partitions(side_by_side, fb, align_dataframes=False)
    else:
        for data in (a, b):
            if not hasattr(data, "npartitions"):
                id_parts = parts_of(data, [id], options=[("--id", id)])
                probe(id_parts, client)
                check_unique_ids(id_parts, id, client=client)
        fa = input_frame(a, [id, gold, pred, *cols], [gold, pred], normalize).rename(
            columns={id: "id", gold: "gold", pred: "pred0"})
        fb = input_frame(b, [id, gold, pred], [gold, pred], normalize).rename(
            columns={id: "id", gold: "gold_b", pred: "pred1"})
        joined = fa.merge(fb, on="id", how="inner")
    parts = joined.to_delayed()
    tasks = [dask.delayed(_cells_of, pure=True)(p, cols, max_slices, dict(binning)) for p in parts]
    checks = [dask.delayed(joined_rows, pure=True)(p) for p in parts]
    sizes = [dask.delayed(len)(p) for p in fa.to_delayed()] + [dask.delayed(len)(p) for p in fb.to_delayed()]
    cells, *rest = run(client, tree_sum(tasks, combine=_add), *checks, *sizes)
    checks_out, sizes_out = rest[:len(checks)], rest[len(checks):]
    n_a, n_b = sum(sizes_out[:fa.npartitions]), sum(sizes_out[fa.npartitions:])
    dup = [x for c in checks_out for x in c[1]]
    matched = sum(c[0] for c in checks_out)
    if dup or not (matched == n_a == n_b):
        refuse_ids(fa, fb, dup, names, client)
    if cells is None:
        raise DataError("there are no items to compare.")
    if len(cells.keys) > max_slices:
        raise UsageError(lambda o, by: f"the values of {', '.join(cols)} (option {by}) make {len(cells.keys):,} "
                                       f"slices, more than {max_slices:,} (option {o}); slice by fewer columns, bin a "
                                       f"numeric column (--by-bins N), or raise {o}.", params=["max_slices", "by"])
    return cells
