"""Threshold choice on Dask: ``choose_threshold_batches``' result, bit for bit, without the scores on one machine.

A :class:`DaskRanking` is the ranking of one input on the cluster, cut into
score ranges as :func:`clfeval.engines.dask._rankings.ranking` cuts it (approximate
quantiles; each range merged on one worker from every partition's sorted
piece, with the counts below it as offsets). It offers what
:func:`clfeval.scores._thresholds.choose_threshold_filled` asks of a ranking:

* ``best_cut(objective)`` — every range's cuts (distinct scores, TP = P −
  positives below, FP = N − negatives below, in decreasing threshold order)
  are computed and kept on the workers; the client fetches them one range at
  a time, highest range first, into one
  :class:`~clfeval.scores._sweep.CutChooser` (so it holds one range at a time),
  which gives the whole sweep's choice with its tie rules;
* ``counts_at(threshold)`` — a count per partition, added;
* ``n``, ``n_positive``, ``n_negative``, the labels seen (for the checks and
  messages of the positive label) and the scores' range (for the default cut);
* ``summary()`` — the :class:`~clfeval.scores._rangestats.RankingSummary` (the
  sweep curves).
"""

from __future__ import annotations

from typing import Any

import dask
import numpy as np

from clfeval.core import ClassCounts, RankingSummary, cut_counts
from clfeval.engines.dask._parts import Parts, parts_of, probe
from clfeval.engines.dask._ranges import run_ranges
from clfeval.ops.threshold import ThresholdResult
from clfeval.scores import (
    CutChoice,
    CutChooser,
    Objective,
    RankingSpec,
    ScoreSource,
    at_least,
    check_positive,
    choose_threshold_filled,
    facts_of,
    labels_and_extent,
    parse_objective,
    range_cuts,
    range_stats_of,
    ranking_of,
    score_kind,
    sweep_of,
)

__all__ = ["DaskRanking", "threshold"]


class DaskRanking:
    """The ranking of one score column on a Dask cluster, for threshold choice (see the module notes).

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
        parts = data if isinstance(data, Parts) else parts_of(data, [gold, score], labels=[gold], normalize=normalize,
                                                              options=[("--gold", gold), ("--score", score)],
                                                              scores=[score])
        probe(parts, client)
        spec = RankingSpec(gold, score, positive, {}, labels=True)  # integer scores as order keys (scores.intcuts)
        budget = spec.budget(None)
        rr = run_ranges(parts, spec.make(budget), gold=gold, extra=spec.extra, budget=budget,
                        entry_bytes=spec.entry_bytes, offsets=spec.offsets, client=client, ranges=ranges)
        info = dask.delayed(labels_and_extent, pure=True)(rr.per_state(facts_of),
                                                          [dask.delayed(score_kind, pure=True)(t, score)
                                                           for t in parts.tasks])
        stats, cuts = rr.per_range(range_stats_of), rr.per_range(range_cuts)
        k, r = len(rr.states), rr.ranges
        kept = rr.keep([*rr.states, *cuts, rr.offsets, info, *stats])
        self._rr, self._positive = rr, positive
        self._runs, self._cuts = kept[:k], kept[k:k + r]
        self._offsets, (self.seen, self.range, self.integers), *self._stats = rr.compute(*kept[k + r:])
        self.partitions, self.ranges = len(parts), r
        self._summary: RankingSummary | None = None
        self._at: dict[float, tuple[int, int]] = {}  # threshold → (TP, FP), counted once

    @property
    def store(self) -> DaskRanking:
        """The ranking itself (what ``choose_threshold_filled`` reads as ``store``)."""
        return self

    @property
    def n_positive(self) -> int:
        return int(self._offsets["P"])

    @property
    def n_negative(self) -> int:
        return int(self._offsets["N"])

    @property
    def n(self) -> int:
        return self.n_positive + self.n_negative

    def summary(self) -> RankingSummary:
        """ROC-AUC, average precision and the curve samples: ``clfeval.engines.dask.ranking``'s result."""
        if self._summary is None:
            self._summary = ranking_of(self._offsets, self._stats, self._positive)
        return self._summary

    def best_cut(self, objective: str | Objective = "f1") -> CutChoice:
        """The cut an objective chooses (``RankingStore.best_cut``): the ranges fetched one at a time, highest first."""
        obj = parse_objective(objective)
        chooser = CutChooser(obj)
        for j in reversed(range(self.ranges)):
            (c,) = self._rr.compute(self._cuts[j])
            chooser.add(sweep_of(c, self.n_positive, self.n_negative, beta=obj.beta, cost_fp=obj.cost_fp,
                                 cost_fn=obj.cost_fn))
        return CutChoice(obj.name, chooser.index, chooser.row, chooser.top_precision)

    def counts_at(self, threshold: float) -> ClassCounts:
        """TP, FP, FN, TN when items with score ≥ ``threshold`` are predicted positive (a count per partition)."""
        t = float(threshold)
        if t not in self._at:
            counts = self._rr.compute(*[dask.delayed(at_least, pure=True)(p, t) for p in self._runs])
            total = np.sum(counts, axis=0) if counts else np.zeros(2, dtype=np.int64)
            self._at[t] = (int(total[0]), int(total[1]))
        tp, fp = self._at[t]
        return cut_counts(tp, fp, self.n_positive, self.n_negative)


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
    parse_objective(objective, cost_fp=cost_fp, cost_fn=cost_fn)  # option errors before any work
    t = DaskRanking(test, gold=gold, score=score, positive=positive, client=client, ranges=ranges, normalize=normalize)
    check_positive(t, positive, "test gold")  # refused before the development data is read, as locally
    d = None if dev is None else DaskRanking(dev, gold=gold, score=score, positive=positive, client=client,
                                             ranges=ranges, normalize=normalize)
    external: dict[str, Any] = {"engine": "dask", "partitions": {"test": t.partitions}, "ranges": {"test": t.ranges}}
    if d is not None:
        external["partitions"]["dev"], external["ranges"]["dev"] = d.partitions, d.ranges
    return choose_threshold_filled(t, d, positive=positive, objective=objective, cost_fp=cost_fp, cost_fn=cost_fn,
                                   default_threshold=default_threshold, zero_division=zero_division, source=source,
                                   dev_source=dev_source, external=external)
