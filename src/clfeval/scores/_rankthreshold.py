"""Threshold choice from a range runner's ranking: ``choose_threshold_batches``' result, bit for bit, with the
scores never on one machine (the one multi-pass exception, as :mod:`clfeval.scores._rankruns`).

A :class:`RangeRanking` is the ranking of one input as a range runner keeps it (on a cluster:
:func:`clfeval.engines.dask._ranges.open_ranges`; its sorted runs and every range's cuts stay where they were
computed). It offers what :func:`clfeval.scores._thresholds.choose_threshold_filled` asks of a ranking:

* ``best_cut(objective)`` — every range's cuts (distinct scores, TP = P − positives below, FP = N − negatives
  below, in decreasing threshold order) are fetched one range at a time, highest range first, into one
  :class:`~clfeval.scores._sweep.CutChooser` (so the client holds one range at a time), which gives the whole
  sweep's choice with its tie rules;
* ``counts_at(threshold)`` — a count per group of partitions, added;
* ``n``, ``n_positive``, ``n_negative``, the labels seen (for the checks and messages of the positive label) and
  the scores' range (for the default cut);
* ``summary()`` — the :class:`~clfeval.core.RankingSummary` (the sweep curves).

:class:`ThresholdSpec` is the whole choice (a cut chosen on the development data, measured on the test data) as
:meth:`clfeval.engines.Runner.ranked` takes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.core import ClassCounts, RankingSummary, cut_counts
from clfeval.ops.threshold import ThresholdResult
from clfeval.scores._external import DEFAULT_MEMORY, CutChoice
from clfeval.scores._objectives import Objective, parse_objective
from clfeval.scores._rankruns import (
    RankingSpec,
    at_least,
    facts_of,
    labels_and_extent,
    range_cuts,
    range_stats_of,
    ranking_of,
    score_kind,
)
from clfeval.scores._sweep import CutChooser, sweep_of
from clfeval.scores._thresholds import check_positive, choose_threshold_filled

__all__ = ["RangeRanking", "ThresholdSpec", "column_spec"]


def column_spec(gold: str, score: str, positive: Any, *, normalize: str | None = None,
                ranges: int | None = None) -> RankingSpec:
    """The ranking of one input for a threshold: every score checked finite as read, the gold labels seen kept,
    each task within the library's memory budget (integer scores as order keys, ranked exactly)."""
    return RankingSpec(gold, score, positive, {"labels": [gold], "normalize": normalize,
                                               "options": [("--gold", gold), ("--score", score)], "scores": [score]},
                       labels=True, ranges=ranges, probe=True, memory=DEFAULT_MEMORY)


class RangeRanking:
    """The ranking of one score column kept by a range runner, for threshold choice (see the module notes).

    ``rr`` is the range runner's run of the input (its states, pieces and offsets as tasks, ``per_range``,
    ``per_state``, ``per_part``, ``apply``, ``keep``, ``compute``); ``score`` the score column (its kind read per
    partition)."""

    def __init__(self, rr: Any, *, score: str, positive: Any) -> None:
        info = rr.apply(labels_and_extent, rr.per_state(facts_of), rr.per_part(score_kind, score))
        stats, cuts = rr.per_range(range_stats_of), rr.per_range(range_cuts)
        k, r = len(rr.states), rr.ranges
        kept = rr.keep([*rr.states, *cuts, rr.offsets, info, *stats])
        self._rr, self._positive = rr, positive
        self._runs, self._cuts = kept[:k], kept[k:k + r]
        self._offsets, (self.seen, self.range, self.integers), *self._stats = rr.compute(*kept[k + r:])
        self.partitions, self.ranges, self.engine = rr.partitions, r, rr.engine
        self._summary: RankingSummary | None = None
        self._at: dict[float, tuple[int, int]] = {}  # threshold → (TP, FP), counted once

    @property
    def store(self) -> RangeRanking:
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
        """TP, FP, FN, TN when items with score ≥ ``threshold`` are predicted positive (a count per group)."""
        t = float(threshold)
        if t not in self._at:
            counts = self._rr.compute(*[self._rr.apply(at_least, p, t) for p in self._runs])
            total = np.sum(counts, axis=0) if counts else np.zeros(2, dtype=np.int64)
            self._at[t] = (int(total[0]), int(total[1]))
        tp, fp = self._at[t]
        return cut_counts(tp, fp, self.n_positive, self.n_negative)


@dataclass(frozen=True)
class ThresholdSpec:
    """``clfeval threshold``'s choice of one score column as a range runner runs it: ``dev`` (or None) the
    development input, ``choice`` the options of :func:`choose_threshold_filled` (``objective``, ``cost_fp``,
    ``cost_fn``, ``default_threshold``, ``zero_division``, ``source``, ``dev_source``); ``sources`` (optional)
    gives ``source`` and ``dev_source`` when the choice runs, after the score columns are checked."""

    gold: str
    score: str
    positive: Any
    dev: Any = None
    choice: dict[str, Any] = field(default_factory=dict)
    normalize: str | None = None
    ranges: int | None = None
    sources: Callable[[], tuple[Any, Any]] | None = None

    def on_ranges(self, test: Any, open_ranges: Callable[[Any, RankingSpec], Any]) -> ThresholdResult:
        """The choice from the rankings of ``test`` and ``dev`` (``open_ranges(data, spec)``: a range runner's run
        of one input), with ``external`` the partitions and ranges of each."""
        opts = dict(self.choice)
        if self.sources is not None:
            opts["source"], opts["dev_source"] = self.sources()
        parse_objective(opts.get("objective", "f1"), cost_fp=opts.get("cost_fp", 1.0),
                        cost_fn=opts.get("cost_fn", 1.0))  # option errors before any work
        one = column_spec(self.gold, self.score, self.positive, normalize=self.normalize, ranges=self.ranges)
        t = RangeRanking(open_ranges(test, one), score=self.score, positive=self.positive)
        check_positive(t, self.positive, "test gold")  # refused before the development data is read, as locally
        d = None if self.dev is None else RangeRanking(open_ranges(self.dev, one), score=self.score,
                                                       positive=self.positive)
        external: dict[str, Any] = {"engine": t.engine, "partitions": {"test": t.partitions},
                                    "ranges": {"test": t.ranges}}
        if d is not None:
            external["partitions"]["dev"], external["ranges"]["dev"] = d.partitions, d.ranges
        return choose_threshold_filled(t, d, positive=self.positive, external=external, **opts)
