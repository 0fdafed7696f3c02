"""Reports and comparisons on Dask: each partition counted into a table, the tables added in a tree.

:func:`report` maps every partition to its confusion table (or multi-label
table) and adds the tables up (:func:`~clfeval.dask.parts.tree_sum`); the
report is then computed from the one table by the same code as locally
(``report_from_table``), so every count metric of the catalogue is the local
number, bit for bit. With a score column it adds the exact ranking section
(:func:`clfeval.dask.rankings.ranking`).

:func:`compare` needs each item's gold label and both systems' predictions
together: the inputs are joined by id on the cluster (a Dask merge, which
shuffles rows by id; without ids, by row position), duplicate and missing ids
are refused, and every partition of the joined frame is counted into a joint
(gold, A, B) table. The test then runs on the summed table
(``compare_counts``): the same engine and the same replicates as a local
``compare`` with the same seed.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

import dask
import numpy as np
import pyarrow as pa

from clfeval.core.labels import label_str
from clfeval.core.tables import ConfusionTable, JointTable, confusion_table, joint_table, multilabel_table
from clfeval.dask.parts import Parts, parts_of, run, tree_sum
from clfeval.errors import DataError, UsageError
from clfeval.evaluate.reports import Report, report_from_table
from clfeval.significance.paired import check_metric, compare_counts
from clfeval.significance.results import Comparison

__all__ = ["report", "compare", "table"]


def _table_of(t: pa.Table, gold: str, pred: str, multilabel: bool, sep: str) -> Any:
    g, p = t.column(gold), t.column(pred)
    if multilabel:
        return multilabel_table(g.to_pylist(), p.to_pylist(), sep=sep)
    return confusion_table(g, p)


def table(data: Any, *, gold: str = "gold", pred: str = "pred", multilabel: bool = False, sep: str = "|",
          client: Any = None) -> Any:
    """The confusion table (or multi-label table) of an input on Dask: one table per partition, added in a tree."""
    parts = data if isinstance(data, Parts) else parts_of(data, [gold, pred])
    (total,) = run(client, tree_sum(parts.map(_table_of, gold, pred, multilabel, sep)))
    return total


def report(data: Any, *, gold: str = "gold", pred: str = "pred", score: str | None = None, positive: Any = None,
           multilabel: bool = False, sep: str = "|", order: Sequence[Any] | None = None, beta: float = 1.0,
           zero_division: Any = 0, top_n: int = 5, client: Any = None, memory: Any = None,
           score_bins: int | None = None, score_binning: str = "quantile") -> Report:
    """``clfeval.report`` of an input on Dask: a DataFrame or paths, counted on the workers.

    Parameters
    ----------
    data : dask.dataframe.DataFrame, path, or sequence of paths
        Parquet, CSV or TSV files, directories of them, or glob patterns.
    gold, pred, score : str
        Column names (``score``: a score column ranked for ``positive``).
    client : distributed.Client, optional
        Where to run (default: Dask's threaded scheduler in this process).
    memory : int or str, optional
        The memory budget of each range of the exact ranking.
    score_bins, score_binning : int, str, optional
        The binned mode: the ranking section is the histogram over ``score_bins`` bins
        (:func:`clfeval.dask.binning`, ``uniform`` or ``quantile``), with its AUC error bound.

    Returns
    -------
    Report
        The local report of the same items, number for number.
    """
    parts = parts_of(data, [gold, pred] + ([score] if score else []))
    tab = table(parts, gold=gold, pred=pred, multilabel=multilabel, sep=sep, client=client)
    if tab.n == 0 if isinstance(tab, ConfusionTable) else tab.n_items == 0:
        raise DataError("the input holds no items to report on.")
    if order is not None:
        tab = tab.relabel(list(order))
    rep = report_from_table(tab, positive=positive, beta=beta, zero_division=zero_division, order=order is not None,
                            sep=sep, top_n=top_n)
    if score is not None:
        if positive is None or multilabel:
            raise UsageError("a ranking of one score column needs positive (binary data) on the Dask engine.")
        from clfeval.dask.rankings import binning, histogram, ranking
        from clfeval.scores.streamovr import binary_summary

        if score_bins is not None:
            bins = binning(parts, score=score, bins=score_bins, kind=score_binning, client=client)
            h = binary_summary(histogram(parts, gold=gold, score=score, positive=positive, binning=bins,
                                         client=client), positive)
            section = h.to_dict()
        else:
            rk = ranking(parts, gold=gold, score=score, positive=positive, client=client, memory=memory)
            section = rk.to_dict()
            section.pop("external", None)
        rep = dataclasses.replace(rep, sections={**rep.sections, "ranking": section})
    return rep


# --- compare: the joint table of items matched by id ----------------------------------

def _frame(data: Any, columns: Sequence[str]) -> Any:
    """The input as a Dask DataFrame of ``columns`` (labels as they were read)."""
    import dask.dataframe as dd

    if hasattr(data, "to_delayed") and hasattr(data, "npartitions"):
        missing = [c for c in columns if c not in data.columns]
        if missing:
            raise DataError(f"the DataFrame has no column {missing[0]!r}.")
        return data[list(columns)]
    parts = parts_of(data, columns)
    meta = dd.from_delayed([dask.delayed(_to_pandas)(t) for t in parts.tasks[:1]], verify_meta=False)._meta
    return dd.from_delayed([dask.delayed(_to_pandas)(t) for t in parts.tasks], meta=meta, verify_meta=False)


def _to_pandas(t: pa.Table) -> Any:
    return t.to_pandas(types_mapper=lambda typ: None, strings_to_categorical=False)


def _joint_of(frame: Any, k: int) -> JointTable:
    g = frame["gold"].to_numpy()
    cols = [frame[f"pred{i}"].to_numpy() for i in range(k)]
    if k != 2:
        raise UsageError("compare on the Dask engine compares two systems at a time.")
    bad = frame["gold"].to_numpy() != frame["gold_b"].to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataError(f"the inputs disagree on the gold label of item {frame['id'].to_numpy()[i]!r} "
                        f"({label_str(g[i])!r} against {label_str(frame['gold_b'].to_numpy()[i])!r}); "
                        f"compared systems must be scored on the same gold labels.")
    return joint_table(pa.array(g), pa.array(cols[0]), pa.array(cols[1]))


def compare(a: Any, b: Any, *, metric: str = "accuracy", gold: str = "gold", pred: str = "pred",
            id: str | None = "id", test: str = "bootstrap", samples: int = 10_000, seed: Any = 0,
            alpha: float = 0.05, ci: float = 0.95, zero_division: Any = 0, beta: float = 1.0,
            names: Sequence[str] = ("a", "b"), client: Any = None) -> Comparison:
    """``clfeval.compare`` of two inputs on Dask: items joined by ``id`` on the cluster, one joint table.

    Without ``id`` (``id=None``) the rows are matched by position, which
    needs both inputs partitioned alike. Duplicate ids, ids in one input
    only and items whose gold labels differ are refused, as locally.
    """
    check_metric(metric)
    if id is None:
        fa, fb = _frame(a, [gold, pred]), _frame(b, [gold, pred])
        if fa.npartitions != fb.npartitions:
            raise UsageError("without ids the inputs are matched row by row, which needs them partitioned alike; "
                             "give an id column to match items by id.")
        fa = fa.rename(columns={gold: "gold", pred: "pred0"})
        fb = fb.rename(columns={gold: "gold_b", pred: "pred1"})
        joined = fa.map_partitions(_side_by_side, fb, align_dataframes=False)
    else:
        fa = _frame(a, [id, gold, pred]).rename(columns={id: "id", gold: "gold", pred: "pred0"})
        fb = _frame(b, [id, gold, pred]).rename(columns={id: "id", gold: "gold_b", pred: "pred1"})
        joined = fa.merge(fb, on="id", how="inner")  # inner: no missing values, so no label changes type
    parts = joined.to_delayed()
    tasks = [dask.delayed(_joint_of, pure=True)(p, 2) for p in parts]
    checks = [dask.delayed(_check_part, pure=True)(p) for p in parts]
    sizes = [dask.delayed(len)(p) for p in fa.to_delayed()] + [dask.delayed(len)(p) for p in fb.to_delayed()]
    jt, *rest = run(client, tree_sum(tasks), *checks, *sizes)
    checks_out, sizes_out = rest[:len(checks)], rest[len(checks):]
    n_a, n_b = sum(sizes_out[:fa.npartitions]), sum(sizes_out[fa.npartitions:])
    dup = [x for c in checks_out for x in c[1]]
    matched = sum(c[0] for c in checks_out)
    if dup or not (matched == n_a == n_b):
        _refuse(fa, fb, dup, names, client)
    return compare_counts(jt, metric=metric, test=test, samples=samples, seed=seed, alpha=alpha, ci=ci,
                          zero_division=zero_division, beta=beta, names=names)


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
        raise DataError(f"ids occur more than once ({', '.join(map(repr, dup[:5]))}); every item needs one id in "
                        f"each input.")
    outer = fa[["id"]].merge(fb[["id"]], on="id", how="outer", indicator=True)
    sides = [dask.delayed(_sides, pure=True)(p) for p in outer.to_delayed()]
    found = run(client, *sides)
    only_a = [x for f in found for x in f[0]]
    only_b = [x for f in found for x in f[1]]
    dup = [x for f in found for x in f[2]]
    if dup:
        raise DataError(f"ids occur more than once ({', '.join(map(repr, dup[:5]))}); every item needs one id in "
                        f"each input.")
    which = names[0] if only_a else names[1]
    shown = ", ".join(map(repr, (only_a or only_b)[:5]))
    raise DataError(f"ids found only in {which!r} ({shown}); both inputs must hold the same items.")


def _sides(frame: Any) -> tuple[list, list, list]:
    side = frame["_merge"].astype(str).to_numpy()
    ids = frame["id"]
    return (ids.to_numpy()[side == "left_only"][:5].tolist(), ids.to_numpy()[side == "right_only"][:5].tolist(),
            ids[ids.duplicated()].to_numpy()[:5].tolist())
