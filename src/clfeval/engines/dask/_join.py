"""Several inputs joined by id on the cluster, an accumulator over the joined partitions: the Dask side of
:meth:`clfeval.engines.Runner.accumulate_joined`.

:func:`accumulate_joined` knows no operation. The two inputs are read as Dask DataFrames (labels checked as
read), each input's ids checked unique (:func:`~clfeval.engines.dask._ids.check_unique_ids`, named as
locally), and merged by id (a Dask merge, which shuffles rows by id; without ids, side by side, partition by
partition, which needs them partitioned alike). Each joined partition becomes one matched batch, the local
join's (:class:`clfeval.io.Aligned`: ``gold``, ``preds``, ``text``; with ``extra`` columns of the first input,
their values and the accumulator's ``tag`` of each row, as the local join carries them), its gold labels checked
to agree; ``make()``'s accumulator is updated with it on a worker, and the accumulators are added in a tree
(:func:`~clfeval.engines.dask._parts.tree_sum`). Ids repeated or missing on either side are
refused after the join, naming a few (a second, id-only join runs only then).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import dask
import numpy as np
import pyarrow as pa

from clfeval.core import label_str, shown_id
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
    """One joined partition as the local join's matched batch (gold labels checked to agree)."""
    from clfeval.io import Aligned

    g, gb = frame["gold"].to_numpy(), frame["gold_b"].to_numpy()
    bad = g != gb
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(f"the inputs disagree on the gold label of item {frame['id'].to_numpy()[i]!r} "
                        f"({label_str(g[i])!r} against {label_str(gb[i])!r}); compared systems must be scored on "
                        f"the same gold labels.")
    gold, preds = _column(frame, "gold"), [_column(frame, "pred0"), _column(frame, "pred1")]
    text = len({str(x.type) for x in (gold, *preds)}) > 1
    return Aligned(gold, preds, text, None, {c: _column(frame, c) for c in extra})


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
    else:
        from clfeval.engines.dask._ids import check_unique_ids

        for data in (a, b):  # each input's ids unique, named as locally (before the join mixes them)
            if not hasattr(data, "npartitions"):
                id_parts = parts_of(data, [id], options=[("--id", id)])
                probe(id_parts, client)
                check_unique_ids(id_parts, id, client=client)
        fa = input_frame(a, [id, gold, pred, *cols], [gold, pred], normalize).rename(
            columns={id: "id", gold: "gold", pred: "pred0"})
        fb = input_frame(b, [id, gold, pred], [gold, pred], normalize).rename(
            columns={id: "id", gold: "gold_b", pred: "pred1"})
        joined = fa.merge(fb, on="id", how="inner")  # inner: no missing values, so no label changes type
    parts = joined.to_delayed()
    tasks = [dask.delayed(_fill, pure=True)(p, make, cols) for p in parts]
    checks = [dask.delayed(_check_part, pure=True)(p) for p in parts]
    sizes = [dask.delayed(len)(p) for p in fa.to_delayed()] + [dask.delayed(len)(p) for p in fb.to_delayed()]
    total, *rest = run(client, tree_sum(tasks), *checks, *sizes)
    checks_out, sizes_out = rest[:len(checks)], rest[len(checks):]
    n_a, n_b = sum(sizes_out[:fa.npartitions]), sum(sizes_out[fa.npartitions:])
    dup = [x for c in checks_out for x in c[1]]
    matched = sum(c[0] for c in checks_out)
    if dup or not (matched == n_a == n_b):
        _refuse(fa, fb, dup, names, client)
    return total


def _side_by_side(x: Any, y: Any) -> Any:
    if len(x) != len(y):
        raise DataError(f"without ids the inputs are matched row by row, and a partition holds {len(x)} rows in one "
                        f"input and {len(y)} in the other; give an id column.")
    out = x.reset_index(drop=True).copy()
    for c in y.columns:
        out[c] = y[c].to_numpy()
    out["id"] = np.arange(len(x))
    return out


def _check_part(frame: Any) -> tuple[int, list]:
    """(rows, a few ids that occur more than once) of one partition of the joined frame."""
    ids = frame["id"]
    return int(len(frame)), ids[ids.duplicated()].to_numpy()[:5].tolist()


def _refuse(fa: Any, fb: Any, dup: list, names: Sequence[str], client: Any) -> None:
    """Name what is wrong with the ids (a second, id-only join; run only when the first one does not add up)."""
    if dup:
        raise DataError(f"ids occur more than once ({', '.join(map(shown_id, dup[:5]))}); every item needs one id in "
                        f"each input.")
    outer = fa[["id"]].merge(fb[["id"]], on="id", how="outer", indicator=True)
    sides = [dask.delayed(_sides, pure=True)(p) for p in outer.to_delayed()]
    found = run(client, *sides)
    only_a = sorted((x for f in found for x in f[0]), key=str)
    only_b = sorted((x for f in found for x in f[1]), key=str)
    dup = [x for f in found for x in f[2]]
    if dup:
        raise DataError(f"ids occur more than once ({', '.join(map(shown_id, dup[:5]))}); every item needs one id in "
                        f"each input.")
    n_a = sum(f[3] for f in found)
    n_b = sum(f[4] for f in found)
    said = []
    for count, ids, x, y in ((n_a, only_a, names[0], names[1]), (n_b, only_b, names[1], names[0])):
        if count:
            said.append(f"{count} id(s) only in {x!r} are missing from {y!r} (e.g. "
                        f"{', '.join(map(shown_id, ids[:3]))})")
    raise DataError("; ".join(said) + ". Compared files must hold predictions for the same items.")


def _sides(frame: Any) -> tuple[list, list, list, int, int]:
    """(a few ids only in A, a few only in B, a few duplicates, how many only in A, how many only in B)."""
    side = frame["_merge"].astype(str).to_numpy()
    ids = frame["id"]
    left, right = side == "left_only", side == "right_only"
    return (sorted(ids.to_numpy()[left].tolist(), key=str)[:5], sorted(ids.to_numpy()[right].tolist(), key=str)[:5],
            ids[ids.duplicated()].to_numpy()[:5].tolist(), int(left.sum()), int(right.sum()))

