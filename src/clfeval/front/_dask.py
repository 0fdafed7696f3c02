"""The documented functions of :mod:`clfeval.engines.dask`, one per operation: each operation on a Dask cluster
(``client=``, default Dask's threads here) of PATHs or a Dask DataFrame, with the result of the front door.

They live here, not in the engine package, because the engine knows no operation (issue 38): each is a thin call of
the engine's generic pieces (:func:`~clfeval.engines.dask.accumulate` runs any accumulator over the partitions,
:func:`~clfeval.engines.dask.accumulate_joined` over inputs merged by id, :func:`~clfeval.engines.dask.ranked`
and :func:`~clfeval.engines.dask.open_ranges` an exact order across them, the one multi-pass exception) with the
operation's own accumulator or spec — the pieces the front door hands the runner. ``clfeval.engines.dask``
re-exports them under their documented names:

* :func:`report` — ``clfeval.report`` (every count metric; the exact or binned ranking section with a score
  column); :func:`table` its confusion table;
* :func:`compare` — ``clfeval.compare`` of two inputs joined by id on the cluster (the joint (gold, A, B) table;
  the same replicates for the same seed);
* :func:`ranking` — exact ROC-AUC, average precision and curves, the score axis cut into ranges sorted on the
  workers (never an average of per-partition AUCs); :func:`histogram` and :func:`binning` the binned mode;
* :func:`threshold` and :class:`DaskRanking` — ``clfeval threshold``'s choice from the range-by-range sweep;
* :func:`calibration` — the reliability table, ECE, MCE, Brier score and log loss.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import RankingSummary, confusion_table, multilabel_table
from clfeval.engines import Dask, runner
from clfeval.engines.dask import (
    Parts,
    accumulate,
    accumulate_joined,
    open_ranges,
    parts_of,
    probe,
    ranked,
    run,
    threads,
    tree_sum,
)
from clfeval.errors import UsageError
from clfeval.evaluate import Report
from clfeval.ops.calibration import Calibration, CalibrationSums
from clfeval.ops.compare import Compared
from clfeval.ops.threshold import ThresholdResult
from clfeval.scores import (
    Binning,
    Objective,
    ProbabilityColumns,
    RangeRanking,
    RankingSpec,
    ScoreHistogram,
    ScoreSource,
    ThresholdSpec,
    check_bins,
    column_spec,
    merge_samples,
    part_histogram,
    part_range,
    part_sample,
    quantile_binning,
    row_count,
    uniform_binning,
)

__all__ = ["report", "table", "compare", "ranking", "histogram", "binning", "threshold", "DaskRanking",
           "calibration"]


def _table_of(t: pa.Table, gold: str, pred: str, multilabel: bool, sep: str) -> Any:
    g, p = t.column(gold), t.column(pred)
    if multilabel:
        return multilabel_table(g.to_pylist(), p.to_pylist(), sep=sep)
    return confusion_table(g, p)


def _tables_of(tables: Iterable[pa.Table], gold: str, pred: str, multilabel: bool, sep: str) -> Any:
    """The table of a group of partitions: one table per partition, added in order."""
    total = None
    for t in tables:
        one = _table_of(t, gold, pred, multilabel, sep)
        total = one if total is None else total + one
    return total


def table(data: Any, *, gold: str = "gold", pred: str = "pred", multilabel: bool = False, sep: str = "|",
          client: Any = None) -> Any:
    """The confusion table (or multi-label table) of an input on Dask: one table per partition, added on the
    workers (a group of partitions per task) and then in a tree."""
    parts = data if isinstance(data, Parts) else parts_of(data, [gold, pred])
    (total,) = run(client, tree_sum(parts.map_groups(_tables_of, gold, pred, multilabel, sep,
                                                     threads=threads(client))))
    return total


def report(data: Any, *, gold: str = "gold", pred: str = "pred", score: str | None = None, positive: Any = None,
           multilabel: bool = False, sep: str = "|", order: Sequence[Any] | None = None, beta: float = 1.0,
           zero_division: Any = 0, top_n: int = 5, client: Any = None, memory: Any = None,
           score_bins: int | None = None, score_binning: str = "quantile", id: str | None = None,
           normalize: str | None = None) -> Report:
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
        (:func:`clfeval.engines.dask.binning`, ``uniform`` or ``quantile``), with its AUC error bound.
    id : str, optional
        The id column (default ``id`` when the files have one): an id that occurs twice anywhere in the input
        is refused, as locally (:func:`check_unique_ids`).
    normalize : {"nfc"} or None
        Unicode normalisation of the labels, as locally.

    Returns
    -------
    Report
        The local report of the same items, number for number.
    """
    from functools import partial

    from clfeval.evaluate import ReportCounts

    if isinstance(data, (str, os.PathLike)):  # a PATH: resolved once, as locally (its ids checked too)
        from clfeval.io import resolve_path

        data = resolve_path(data)
    if score is not None:  # the ranking pass reads the score column (every score checked: finite)
        parts = parts_of(data, [gold, pred, score], labels=[] if multilabel else [gold, pred], normalize=normalize,
                         scores=[score], options=[("--gold", gold), ("--pred", pred), ("--score", score)])
        probe(parts, client)
    make = partial(ReportCounts, multilabel=multilabel, sep=sep, order=order)
    make()  # its options checked before any work
    acc, _ = accumulate(data, make, gold=gold, pred=pred, id=id, multilabel=multilabel, normalize=normalize,
                     client=client)
    rep = acc.finish(positive=positive, beta=beta, zero_division=zero_division, sep=sep, top_n=top_n)
    if score is not None:
        if positive is None or multilabel:
            raise UsageError("a ranking of one score column needs positive (binary data).")
        from clfeval.scores import binary_summary

        if score_bins is not None:
            bins = binning(parts, score=score, bins=score_bins, kind=score_binning, client=client)
            h = binary_summary(histogram(parts, gold=gold, score=score, positive=positive, binning=bins,
                                         client=client), positive)
            section = h.to_dict()
        else:
            rk = ranking(parts, gold=gold, score=score, positive=positive, client=client, memory=memory)
            section = rk.to_dict()
            section.pop("external", None)
        from clfeval.ops.report import RankingPart

        rep = dataclasses.replace(rep, ranking=RankingPart.of(section))
    return rep


def compare(a: Any, b: Any, *, metric: str = "accuracy", gold: str = "gold", pred: str = "pred",
            id: str | None = "id", test: str = "bootstrap", samples: int = 10_000, seed: Any = 0,
            alpha: float = 0.05, ci: float = 0.95, zero_division: Any = 0, beta: float = 1.0,
            names: Sequence[str] = ("a", "b"), client: Any = None, normalize: str | None = None) -> Compared:
    """``clfeval.compare`` of two inputs on Dask: items joined by ``id`` on the cluster, one joint table.

    Without ``id`` (``id=None``) the rows are matched by position, which
    needs both inputs partitioned alike. Duplicate ids, ids in one input
    only and items whose gold labels differ are refused, as locally.
    """
    from clfeval.significance import JointCounts, check_metric

    check_metric(metric)
    make = partial(JointCounts, [str(n) for n in names])
    make()  # the names checked before any work
    acc = accumulate_joined([a, b], make, gold=gold, pred=pred, id=id, names=names, normalize=normalize,
                            client=client)
    return acc.finish("", metric=metric, test=test, samples=samples, seed=seed, alpha=alpha, ci=ci,
                      zero_division=zero_division, beta=beta)


def ranking(data: Any, *, gold: str = "gold", score: str = "score", positive: Any, client: Any = None,
            ranges: int | None = None, memory: Any = None, normalize: str | None = None) -> RankingSummary:
    """The exact ranking of one score column on Dask: ``ranking(gold, scores, positive=...)``'s numbers.

    Parameters
    ----------
    data : dask.dataframe.DataFrame, path(s), or Parts
    positive : label
        The positive class (matched by value or string form); it must occur.
    ranges : int, optional
        Ranges of the score axis (default: four per worker thread of the cluster, at most one per partition, more
        when a range would outgrow ``memory``): each range is merged on one worker, and every group of partitions
        sends one piece to every range.
    memory : int or str, optional
        The memory budget of each task on the workers (default 1 GiB): the scores a task sorts at a time, and
        the size of a merged range (which sets the number of ranges).
    normalize : {"nfc"} or None
        Unicode normalisation of the gold labels, as locally (so that ``positive`` matches them alike).
    """
    r: RankingSummary = ranked(data, RankingSpec.of_column(gold, score, positive, normalize=normalize, ranges=ranges),
                               client=client, memory=memory)
    return r


def binning(data: Any, *, score: str = "score", bins: int, kind: str = "quantile", lo: float | None = None,
            hi: float | None = None, cap: int = 1 << 18, client: Any = None) -> Binning:
    """The bins of a score column on Dask, as the local first pass cuts them (the same row sample, the same range)."""
    parts = data if isinstance(data, Parts) else parts_of(data, [score])
    if kind == "uniform":
        if lo is None or hi is None:
            (rng,) = run(client, tree_sum(parts.map(part_range, score)))
            lo, hi = rng.lo, rng.hi
        return uniform_binning(bins, lo, hi)
    sizes = run(client, *parts.map(row_count))
    firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64).tolist()
    samples = parts.map_each(part_sample, [(score, f, cap) for f in firsts])
    (sample,) = run(client, tree_sum(samples, combine=merge_samples))
    return quantile_binning(sample.values(), bins)


def histogram(data: Any, *, gold: str = "gold", score: str = "score", positive: Any, binning: Binning,
              client: Any = None) -> ScoreHistogram:
    """The binned ranking on Dask: one histogram per partition, added in a tree (the local histogram, exactly)."""
    parts = data if isinstance(data, Parts) else parts_of(data, [gold, score])
    (h,) = run(client, tree_sum(parts.map(part_histogram, gold, score, positive, binning)))
    return h


class DaskRanking(RangeRanking):
    """The ranking of one score column on a Dask cluster, for threshold choice
    (:class:`~clfeval.scores._rankthreshold.RangeRanking`).

    Its range cuts and every group of partitions' sorted runs stay on the
    workers until the object is dropped.

    Parameters
    ----------
    data : dask.dataframe.DataFrame, path(s), or Parts
    gold, score : str
        Column names.
    positive : label
        The positive class (matched by value or string form, partition by partition).
    client : distributed.Client, optional
        Default: Dask's threads on this machine.
    ranges : int, optional
        Ranges of the score axis (as :func:`clfeval.engines.dask.ranking`).
    """

    def __init__(self, data: Any, *, gold: str = "gold", score: str = "score", positive: Any, client: Any = None,
                 ranges: int | None = None, normalize: str | None = None) -> None:
        spec = column_spec(gold, score, positive, normalize=normalize, ranges=ranges)
        super().__init__(open_ranges(data, spec, client=client), score=score, positive=positive)


def threshold(test: Any, dev: Any = None, *, gold: str = "gold", score: str = "score", positive: Any,
              objective: str | Objective = "f1", cost_fp: float = 1.0, cost_fn: float = 1.0,
              default_threshold: float | None = None, zero_division: Any = 0, client: Any = None,
              ranges: int | None = None, source: ScoreSource | None = None,
              dev_source: ScoreSource | None = None, normalize: str | None = None) -> ThresholdResult:
    """``clfeval threshold``'s choice on Dask: a cut chosen on ``dev``, measured on ``test``, exactly.

    Parameters
    ----------
    test, dev : dask.dataframe.DataFrame, path(s), or Parts
        The test data and (optional) the development data the cut is chosen on.
    gold, score : str
        Column names (the same in both inputs).
    positive, objective, cost_fp, cost_fn, default_threshold, zero_division, source, dev_source
        As :func:`clfeval.scores._thresholds.choose_threshold`.
    client : distributed.Client, optional
        The cluster (:func:`clfeval.engines.dask.connect`); default Dask's threads here.
    ranges : int, optional
        Ranges of the score axis of each input (as :func:`clfeval.engines.dask.ranking`).
    normalize : {"nfc"} or None
        Unicode normalisation of the gold labels, as locally.

    Returns
    -------
    ThresholdResult
        ``choose_threshold_batches``' result on the same items, bit for bit, but
        for ``external``: ``{"engine": "dask", "partitions": ..., "ranges": ...}``
        (per input) instead of the memory budget.
    """
    choice = dict(objective=objective, cost_fp=cost_fp, cost_fn=cost_fn, default_threshold=default_threshold,
                  zero_division=zero_division, source=source, dev_source=dev_source)
    r: ThresholdResult = ranked(test, ThresholdSpec(gold, score, positive, dev, choice, normalize, ranges),
                                client=client)
    return r


def calibration(data: Any, *, gold: str = "gold", prob: str = "prob", positive: Any, bins: int = 10,
                strategy: str = "uniform", with_ranking: bool = True, client: Any = None,
                normalize: str | None = None) -> Calibration:
    """``reliability(gold, probs, positive=..., bins=B)`` of an input on Dask (equal-width bins); ``normalize``:
    Unicode normalisation of the gold labels, as locally."""
    n_bins = check_bins(bins)
    runner(Dask()).admit("calibration", {"strategy": strategy != "uniform"})  # the capability table's refusal
    read = ProbabilityColumns(positive=positive, prob=prob, source=ScoreSource(name=prob))
    sums, _ = accumulate(data, partial(CalibrationSums.empty, n_bins, read=read), gold=gold, pred=None, extra=[prob],
                         extra_options=["--prob"], scores=[prob], normalize=normalize, client=client)
    sums.check()
    ranked = ranking(data, gold=gold, score=prob, positive=positive, client=client,
                     normalize=normalize) if with_ranking and sums.kind == "binary" else None
    result: Calibration = sums.finish(ranked)
    return result
