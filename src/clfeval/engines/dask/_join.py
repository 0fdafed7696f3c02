"""Several inputs joined by id on the cluster, an accumulator over the joined partitions: the Dask side of
:meth:`clfeval.engines.Runner.accumulate_joined`.

:func:`accumulate_joined` knows no operation. With ids, the join is the id join of :mod:`clfeval.io._idjoin`,
the local partitioned join's twin: every partition of both inputs is read on a worker (the local reader, labels
checked as read), its ids made keys (their text) and its rows sent by the one hash of their key to one of k
buckets (:func:`clfeval.io._idjoin.partition_of`, the local spill's placement); bucket j of both inputs is
matched on a worker into one batch, the local join's (:class:`clfeval.io.Aligned`: ``gold``, ``preds``,
``text``; with ``extra`` columns of the first input, the accumulator's ``tag`` of each row, as the local join
carries them), ``make()``'s accumulator is updated with it, and the accumulators are added in a tree
(:func:`~clfeval.engines.dask._parts.tree_sum`). Each bucket also returns what it found wrong — its first
duplicate on each side, the ids one side lacks, the first gold label that differs — and the defect the whole
input holds first is named with the local engine's message, file and row, in the local order (a duplicate,
then missing ids, then gold labels). Without ids the inputs are read as Dask DataFrames and matched side by
side, partition by partition, which needs them partitioned alike.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import dask
import numpy as np
import pyarrow as pa

from clfeval.engines.dask._parts import parts_of, probe, run, tree_sum
from clfeval.errors import DataError, UsageError

__all__ = ["accumulate_joined", "input_frame"]


def input_frame(data: Any, columns: Sequence[str], labels: Sequence[str] = (), normalize: str | None = None) -> Any:
    """The input as a Dask DataFrame of ``columns`` (labels as they were read)."""
    import dask.dataframe as dd

    if hasattr(data, "to_delayed") and hasattr(data, "npartitions"):
        missing = [c for c in columns if c not in data.columns]
        if missing:
            raise DataError(f"the DataFrame has no column {missing[0]!r}.")
        return data[list(columns)]
    parts = parts_of(data, columns, labels=labels, normalize=normalize)
    meta = dd.from_delayed([dask.delayed(_to_pandas)(t) for t in parts.tasks[:1]], verify_meta=False)._meta
    return dd.from_delayed([dask.delayed(_to_pandas)(t) for t in parts.tasks], meta=meta, verify_meta=False)


def _to_pandas(t: pa.Table) -> Any:
    return t.to_pandas(types_mapper=lambda typ: None, strings_to_categorical=False)


def _column(frame: Any, name: str) -> pa.Array:
    return pa.array(frame[name].to_numpy(), from_pandas=True)


def _batch(frame: Any, extra: Sequence[str]) -> Any:
    """One partition of inputs side by side as the local join's matched batch."""
    from clfeval.io import Aligned

    gold, preds = _column(frame, "gold"), [_column(frame, "pred0"), _column(frame, "pred1")]
    text = len({str(x.type) for x in (gold, *preds)}) > 1
    return Aligned(gold, preds, text, None, {c: _column(frame, c) for c in extra})


def _gold_part(frame: Any) -> tuple[int, int, int, Any, Any]:
    """(rows, gold labels that differ, the first of them, its gold in each input) of one partition side by side."""
    from clfeval.io import as_text

    if not len(frame):
        return 0, 0, -1, None, None
    ga, gb = as_text(_column(frame, "gold")), as_text(_column(frame, "gold_b"))
    bad = np.flatnonzero(np.asarray(ga.to_numpy(zero_copy_only=False) != gb.to_numpy(zero_copy_only=False)))
    if not bad.size:
        return len(frame), 0, -1, None, None
    i = int(bad[0])
    return len(frame), int(bad.size), i, ga[i].as_py(), gb[i].as_py()


def _fill(frame: Any, make: Callable[[], Any], extra: Sequence[str]) -> Any:
    acc = make()
    if len(frame):
        batch = _batch(frame, extra)
        if extra:  # the accumulator tags the first input's rows; only the tags go on, as locally
            batch = dataclasses.replace(batch, tags=acc.tag(batch.extra), extra={})
        acc.update(batch)
    return acc


def accumulate_joined(inputs: Sequence[Any], make: Callable[[], Any], *, gold: str, pred: str, id: str | None,
                      names: Sequence[str], extra: Sequence[str] = (), normalize: str | None = None,
                      client: Any = None) -> Any:
    """``make()``'s accumulator over the matched items of two inputs (PATHs, resolved PATHs or Dask DataFrames),
    joined on the cluster by ``id`` (unique in each input, every id in both; None: matched row by row, the inputs
    partitioned alike), each joined partition one batch; ``extra``: columns of the first input carried through
    the join (``batch.extra``); ``names``: the inputs as messages name them."""
    if len(inputs) != 2:
        raise UsageError(f"the Dask engine joins two inputs at a time; got {len(inputs)}.")
    a, b = inputs
    cols = list(dict.fromkeys(extra))
    if id is None:
        fa = input_frame(a, [gold, pred, *cols], [gold, pred], normalize)
        fb = input_frame(b, [gold, pred], [gold, pred], normalize)
        if fa.npartitions != fb.npartitions:
            raise UsageError("without ids the inputs are matched row by row, which needs them partitioned alike; "
                             "give an id column to match items by id.")
        fa = fa.rename(columns={gold: "gold", pred: "pred0"})
        fb = fb.rename(columns={gold: "gold_b", pred: "pred1"})
        joined = fa.map_partitions(_side_by_side, fb, align_dataframes=False)
        parts = joined.to_delayed()
        tasks = [dask.delayed(_fill, pure=True)(p, make, cols) for p in parts]
        golds = [dask.delayed(_gold_part, pure=True)(p) for p in parts]
        total, *found = run(client, tree_sum(tasks), *golds)  # _side_by_side refuses partitions of different lengths
        count = sum(f[1] for f in found)
        if count:  # the first in row order, named as the local join names it (row N of the inputs)
            from clfeval.io import gold_error

            k = next(j for j, f in enumerate(found) if f[1])
            row = sum(f[0] for f in found[:k]) + found[k][2]
            raise gold_error(names[0], names[1], f"row {row + 1}", found[k][3], found[k][4], count)
        return total
    return _by_id(a, b, make, gold=gold, pred=pred, id=id, names=names, extra=cols, normalize=normalize,
                  client=client)


def _by_id(a: Any, b: Any, make: Callable[[], Any], *, gold: str, pred: str, id: str, names: Sequence[str],
           extra: Sequence[str], normalize: str | None, client: Any) -> Any:
    """The id join of :mod:`clfeval.io._idjoin` on the cluster: every partition's rows go by the one hash of
    their id to one of k buckets (as the local join's spill partitions), bucket j of both inputs is matched on
    a worker into one batch for ``make()``'s accumulator, and what a bucket found wrong (a duplicate, ids on
    one side, a gold label) comes back beside it and is named as locally."""
    pa_, pb_ = (parts_of(x, [id, gold, pred, *(extra if k == 0 else ())], labels=[gold, pred], normalize=normalize,
                         options=[("--id", id)]) for k, x in enumerate((a, b)))
    for p in (pa_, pb_):
        probe(p, client)
    k = max(1, min(32, max(len(pa_), len(pb_))))
    pieces = [[dask.delayed(_pieces, pure=True, nout=k)(t, i, id, gold, pred, extra if side == 0 else (), k)
               for i, t in enumerate(p.tasks)] for side, p in enumerate((pa_, pb_))]
    matched = [dask.delayed(_match, pure=True, nout=2)([s[j] for s in pieces[0]], [s[j] for s in pieces[1]], make,
                                                       list(extra)) for j in range(k)]
    total, *found = run(client, tree_sum([m[0] for m in matched]), *[m[1] for m in matched])
    _refuse(found, (pa_, pb_), id, names)
    return total


def _pieces(t: pa.Table, part: int, id: str, gold: str, pred: str, extra: Sequence[str], k: int) -> list[pa.Table]:
    """One partition as the join's rows (key, place, labels, the first input's extra columns), in k buckets."""
    from clfeval.engines.dask._ids import split
    from clfeval.io import canonical_labels, id_keys

    n = t.num_rows
    cols = {"key": id_keys(t.column(id)), "part": pa.array(np.full(n, part, dtype=np.int64)),
            "row": pa.array(np.arange(n, dtype=np.int64)), "gold": canonical_labels(t.column(gold)),
            "pred": canonical_labels(t.column(pred))}
    cols.update({f"x_{c}": t.column(c) for c in extra})
    return split(pa.table(cols), k)


def _concat(tables: Sequence[pa.Table]) -> pa.Table:
    """One side of a bucket; label columns whose types differ between files compared as text (as locally)."""
    from clfeval.io import as_text

    tables = [t for t in tables if t.num_rows] or list(tables[:1])
    if len({t.schema for t in tables}) > 1:
        names = tables[0].column_names
        cols = []
        for name in names:
            parts = [t.column(name) for t in tables]
            if len({p.type for p in parts}) > 1:
                parts = [as_text(p) for p in parts]
            cols.append(pa.chunked_array([c for p in parts for c in p.chunks]))
        return pa.table(cols, names=names)
    return pa.concat_tables(tables)


def _lost(x: pa.Table, y: pa.Table) -> tuple[int, Any]:
    """How many keys of ``x`` are not in ``y``, and the first of them in input order ((part, row), key)."""
    import pyarrow.compute as pc

    lost = np.flatnonzero(~np.asarray(pc.is_in(x.column("key"), value_set=y.column("key"))))
    if not lost.size:
        return 0, None
    parts, rows = x.column("part").to_numpy()[lost], x.column("row").to_numpy()[lost]
    i = int(np.lexsort((rows, parts))[0])
    return int(lost.size), ((int(parts[i]), int(rows[i])), x.column("key")[int(lost[i])].as_py())


def _match(a_pieces: Sequence[pa.Table], b_pieces: Sequence[pa.Table], make: Callable[[], Any],
           extra: Sequence[str]) -> tuple[Any, dict[str, Any]]:
    """Bucket j of both inputs matched: the accumulator of its items, and what it found wrong."""
    import pyarrow.compute as pc

    from clfeval.engines.dask._ids import bucket_duplicate
    from clfeval.io import Aligned, as_text

    acc = make()
    a, b = _concat(a_pieces), _concat(b_pieces)
    found: dict[str, Any] = {"dup": [bucket_duplicate([a]), bucket_duplicate([b])],
                             "lost": [_lost(a, b), _lost(b, a)], "gold": (0, None)}
    if any(found["dup"]) or found["lost"][0][0] or found["lost"][1][0] or a.num_rows == 0:
        return acc, found
    take = pc.index_in(a.column("key"), value_set=b.column("key"))
    gold = pa.concat_arrays(a.column("gold").chunks)
    gb = pa.concat_arrays(b.column("gold").take(take).chunks)
    ta, tb = as_text(gold), as_text(gb)
    bad = np.flatnonzero(np.asarray(pc.fill_null(pc.not_equal(ta, tb), True)))
    if bad.size:
        parts, rows = a.column("part").to_numpy()[bad], a.column("row").to_numpy()[bad]
        j = int(np.lexsort((rows, parts))[0])  # the first in the first input's order
        i = int(bad[j])
        found["gold"] = (int(bad.size), ((int(parts[j]), int(rows[j])), a.column("key")[i].as_py(), ta[i].as_py(),
                                         tb[i].as_py()))
        return acc, found
    preds = [pa.concat_arrays(a.column("pred").chunks), pa.concat_arrays(b.column("pred").take(take).chunks)]
    text = len({str(x.type) for x in (gold, *preds)}) > 1
    batch = Aligned(gold, preds, text, None, {c: pa.concat_arrays(a.column(f"x_{c}").chunks) for c in extra})
    if extra:  # the accumulator tags the first input's rows; only the tags go on, as locally
        batch = dataclasses.replace(batch, tags=acc.tag(batch.extra), extra={})
    acc.update(batch)
    return acc, found


def _refuse(found: Sequence[dict[str, Any]], parts: Sequence[Any], id: str, names: Sequence[str]) -> None:
    """Name the first defect the buckets found, as the local join names it (:mod:`clfeval.io._idjoin`)."""
    from clfeval.engines.dask._ids import Places, duplicate
    from clfeval.io import earliest, gold_error, item_with_id, missing_error

    for side in (0, 1):
        dup = earliest([f["dup"][side] for f in found])
        if dup is not None:
            raise duplicate(parts[side], id, dup)

    def where(side: int, place: tuple[int, int]) -> str:
        if not parts[side].files:
            return f"partition {place[0] + 1}, row {place[1] + 1}"
        places = Places(parts[side])
        return places.where(*places.of(place))

    gaps = []
    for side in (0, 1):
        count = sum(f["lost"][side][0] for f in found)
        if count:
            place, key = min(f["lost"][side][1] for f in found if f["lost"][side][0])
            gaps.append((names[side], names[1 - side], count, key, where(side, place)))
    if gaps:
        raise missing_error(gaps)
    count = sum(f["gold"][0] for f in found)
    if count:
        _, key, ga, gb = min(f["gold"][1] for f in found if f["gold"][0])
        raise gold_error(names[0], names[1], item_with_id(key), ga, gb, count)


def _side_by_side(x: Any, y: Any) -> Any:
    if len(x) != len(y):
        raise DataError(f"without ids the inputs are matched row by row, and a partition holds {len(x)} rows in one "
                        f"input and {len(y)} in the other; give an id column.")
    out = x.reset_index(drop=True).copy()
    for c in y.columns:
        out[c] = y[c].to_numpy()
    out["id"] = np.arange(len(x))
    return out
