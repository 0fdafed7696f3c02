"""Exact ROC-AUC and average precision on Dask, without collecting the scores on one machine.

Never an average of per-partition AUCs. The score axis is cut into ranges:

1. one task per group of partitions (up to
   :data:`~clfeval.engines.dask._parts.PARTS_PER_TASK` files or row groups, read on
   the worker) sorts its positives' and negatives' scores and run-length
   encodes them (:class:`Runs`: a tie group of any size is one entry); the
   runs stay on that worker, and only a few of their values (evenly spaced
   entries) come to the client, which chooses the cut points with the one range
   planner, :mod:`clfeval.scores._rangeplan` (shared with the local
   :class:`~clfeval.scores._external.RankingStore`): about as many entries in
   each range, and enough ranges for each to fit the memory budget when merged;
2. every group cuts its runs at the cut points by binary search and reports
   only its counts per range;
3. one small task turns the counts into offsets (positives and negatives below
   each range, :func:`~clfeval.scores._rangeplan.range_offsets`) and the ranks the curves are sampled at;
4. each range merges its slice of every group's runs on one worker (the only
   data that travels) and adds exactly what its items add
   (:func:`clfeval.scores._rangestats.range_stats`: pairs in order, tied pairs,
   the exact sum of the average-precision terms, the sampled cuts);
5. the few numbers of each range are added on the client.

The scores are read and sorted once; the cut points only balance the ranges, and
the numbers depend neither on them nor on the grouping. The result is the
:class:`~clfeval.core._ranksummary.RankingSummary` of the local ranking, bit for
bit. :func:`histogram` is the binned mode on Dask: per partition histograms
added in a tree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import dask
import numpy as np
import pyarrow as pa

from clfeval.core import EXACT_CUTS_MAX, RankingSummary, label_str
from clfeval.engines.dask._parts import Parts, parts_of, persist, run, threads, tree_sum
from clfeval.errors import DataError
from clfeval.scores import (
    BUFFER_BYTES_PER_ITEM,
    DEFAULT_MEMORY,
    RANGE_BYTES_PER_ITEM,
    Binning,
    RangeStats,
    RowSample,
    ScoreHistogram,
    ScoreRange,
    as_scores,
    batch_is_positive,
    choose_cuts,
    merge_range,
    parse_memory,
    quantile_binning,
    range_offsets,
    range_stats,
    rle,
    rle_merge,
    run_bounds,
    sample_ranks_of,
    sampled_candidates,
    uniform_binning,
)

__all__ = ["ranking", "range_plan", "RangePlan", "Runs", "merged_range", "range_stats_of", "ranking_of", "histogram",
           "binning", "SAMPLE_PER_PART"]

#: Run entries each group of partitions contributes to the choice of cut points (per class).
SAMPLE_PER_PART = 256


def _prep(t: pa.Table, gold: str, score: str, positive: Any,
          order_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    y = batch_is_positive(t.column(gold), positive) if t.num_rows else np.zeros(0, dtype=bool)
    s = as_scores(t.column(score), name=score, n=t.num_rows, order_only=order_only) if t.num_rows else np.zeros(0)
    return y, np.asarray(s, dtype=np.float64)


@dataclass(frozen=True, eq=False)
class Runs:
    """The scores of a group of partitions, sorted once: the positives' and the negatives' distinct scores
    ascending (``pos``, ``neg``) with their counts (``pos_n``, ``neg_n``); when asked for, the gold labels that
    occur (string form → value, in the order the partitions give them)."""

    pos: np.ndarray
    pos_n: np.ndarray
    neg: np.ndarray
    neg_n: np.ndarray
    labels: dict[str, Any] | None = None

    @classmethod
    def of(cls, ys: list[np.ndarray], ss: list[np.ndarray], labels: dict[str, Any] | None = None) -> Runs:
        """The runs of scores given in pieces (``ss``) with their "is positive" masks (``ys``)."""
        out: list[np.ndarray] = []
        for want in (True, False):
            sizes = [int(np.count_nonzero(y)) if want else y.shape[0] - int(np.count_nonzero(y)) for y in ys]
            v = np.empty(sum(sizes))
            at = 0
            for y, s, k in zip(ys, ss, sizes, strict=True):
                np.compress(y if want else ~y, s, out=v[at:at + k])
                at += k
            v.sort()
            out.extend(rle(v))
        pos, pos_n, neg, neg_n = out
        return cls(pos, pos_n, neg, neg_n, labels)

    def merge(self, other: Runs) -> Runs:
        """The runs of both sets of scores."""
        pos = rle_merge([(self.pos, self.pos_n), (other.pos, other.pos_n)])
        neg = rle_merge([(self.neg, self.neg_n), (other.neg, other.neg_n)])
        return Runs(*pos, *neg, self.labels)

    def sample(self) -> list[tuple[np.ndarray, int]]:
        """Evenly spaced entries of each class's runs, with the number of entries each stands for."""
        out = []
        for v in (self.pos, self.neg):
            k = min(v.shape[0], SAMPLE_PER_PART)
            out.append((v[np.linspace(0, v.shape[0] - 1, k).round().astype(np.intp)] if k else v, int(v.shape[0])))
        return out

    def bounds(self, cuts: np.ndarray, ranges: int) -> tuple[np.ndarray, np.ndarray]:
        """Where each of ``ranges`` ranges starts and ends in the positives' and the negatives' runs (those
        beyond the cuts are empty)."""
        return tuple(run_bounds(np.searchsorted(v, cuts, side="left"), v.shape[0], ranges)
                     for v in (self.pos, self.neg))  # type: ignore[return-value]

    def piece(self, cuts: np.ndarray, ranges: int, j: int) -> tuple[Any, Any, int, int]:
        """Range ``j``'s slice: (positives' run-length codes, negatives', positives, negatives)."""
        (a, b), (c, d) = ((x[j], x[j + 1]) for x in self.bounds(cuts, ranges))
        pn, nn = self.pos_n[a:b], self.neg_n[c:d]
        return (self.pos[a:b], pn), (self.neg[c:d], nn), int(pn.sum()), int(nn.sum())

    def counts(self, cuts: np.ndarray, ranges: int) -> np.ndarray:
        """Positives and negatives of every range, shape (ranges, 2)."""
        out = np.zeros((ranges, 2), dtype=np.int64)
        for k, (n, at) in enumerate(zip((self.pos_n, self.neg_n), self.bounds(cuts, ranges), strict=False)):
            cum = np.concatenate([[0], np.cumsum(n)])
            out[:, k] = np.diff(cum[at])
        return out

    def extent(self) -> tuple[float, float] | None:
        """The smallest and the largest score (``None`` without items)."""
        ends = [x for v in (self.pos, self.neg) if v.shape[0] for x in (v[0], v[-1])]
        return (float(min(ends)), float(max(ends))) if ends else None

    def at_least(self, t: float) -> np.ndarray:
        """Positives and negatives with score ≥ ``t``."""
        return np.array([int(n[np.searchsorted(v, t, side="left"):].sum()) for v, n in
                         ((self.pos, self.pos_n), (self.neg, self.neg_n))], dtype=np.int64)


def _runs_of(tables: Iterable[pa.Table], gold: str, score: str, positive: Any, order_only: bool,
             labels: bool = False, buffer: int | None = None) -> Runs:
    """The :class:`Runs` of a group of partitions (``labels``: with the gold labels that occur), sorted
    ``buffer`` scores at a time at most (and then merged)."""
    from clfeval.core import EncodedGold

    done: Runs | None = None
    ys: list[np.ndarray] = []
    ss: list[np.ndarray] = []
    held, seen = 0, dict[str, Any]()
    for t in tables:
        y, s = _prep(t, gold, score, positive, order_only)
        ys.append(y)
        ss.append(s)
        held += s.shape[0]
        if labels and t.num_rows:
            for x in EncodedGold.of(t.column(gold)).occurring:
                seen.setdefault(label_str(x), x)
        if buffer is not None and held >= buffer:
            done = Runs.of(ys, ss) if done is None else done.merge(Runs.of(ys, ss))
            ys, ss, held = [], [], 0
    if done is None or ys:
        done = Runs.of(ys, ss) if done is None else done.merge(Runs.of(ys, ss))
    return replace(done, labels=seen if labels else None)


def _sample(runs: Runs) -> list[tuple[np.ndarray, int]]:
    return runs.sample()


def _piece(runs: Runs, cuts: np.ndarray, ranges: int, j: int) -> tuple[Any, Any, int, int]:
    return runs.piece(cuts, ranges, j)


def _counts(runs: Runs, cuts: np.ndarray, ranges: int) -> np.ndarray:
    return runs.counts(cuts, ranges)


def _offsets(counts: list[np.ndarray]) -> dict[str, Any]:
    off = range_offsets(counts)
    return {"P": off.P, "N": off.N, "below": off.below, "ranks": sample_ranks_of(off.P, off.N)}


def range_stats_of(pieces: list[tuple[Any, Any, int, int]], offsets: dict[str, Any], j: int) -> RangeStats:
    """What range ``j`` adds to the ranking (step 4 of the module notes)."""
    v, p, q, pos_below, neg_below = merged_range(pieces, offsets, j)
    cap = EXACT_CUTS_MAX // max(1, len(offsets["below"]))  # the cuts the client gathers: at most EXACT_CUTS_MAX
    return range_stats(v, p, q, pos_below, neg_below, offsets["P"], offsets["N"], offsets["ranks"], cap=cap)


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
    parts = data if isinstance(data, Parts) else parts_of(data, [gold, score], labels=[gold] if normalize else (),
                                                          normalize=normalize)
    plan = range_plan(parts, gold=gold, score=score, positive=positive, client=client, ranges=ranges,
                      order_only=True, memory=memory)  # only the order counts: integer scores ranked exactly
    off, *per_range = run(client, plan.offsets, *plan.per_range(range_stats_of))
    return ranking_of(off, per_range, positive)


@dataclass(frozen=True)
class RangePlan:
    """The tasks of a ranking on Dask: every group's :class:`Runs`, each range's pieces (one per group), the
    offsets (``{"P", "N", "below", "ranks"}``) and the number of ranges."""

    runs: list[Any]
    pieces: list[list[Any]]
    offsets: Any
    ranges: int

    @property
    def prepped(self) -> list[Any]:
        """The runs (the name of earlier versions, which kept each partition's unsorted scores)."""
        return self.runs

    def per_range(self, fn: Callable[[list[Any], dict[str, Any], int], Any]) -> list[Any]:
        """``fn(pieces of range j from every group, offsets, j)`` for every range, as tasks."""
        return [dask.delayed(fn, pure=True)(self.pieces[j], self.offsets, j) for j in range(self.ranges)]


def range_plan(parts: Parts, *, gold: str, score: str, positive: Any, client: Any = None,
               ranges: int | None = None, order_only: bool = False, labels: bool = False,
               memory: Any = None) -> RangePlan:
    """The score axis of ``parts`` cut into ranges of about as many entries each (steps 1–3 of the module notes): the
    runs are computed and kept on the workers, the cut points chosen here from their samples, the rest returned
    as tasks.

    ``ranges`` default: four per worker thread of the cluster, at most one per partition, and more when the
    merged ranges would outgrow ``memory`` (the budget of each task: default 1 GiB; the scores a task sorts at
    a time, too); ``order_only``: integer scores as :func:`clfeval.scores._columns.order_keys` (a ranking,
    whose scores are never shown); ``labels``: every group's runs also hold the gold labels that occur
    (:attr:`Runs.labels`).
    """
    budget = parse_memory(DEFAULT_MEMORY if memory is None else memory)
    k = threads(client)
    runs = persist(client, parts.map_groups(_runs_of, gold, score, positive, order_only, labels,
                                            max(1, budget // BUFFER_BYTES_PER_ITEM), threads=k))
    samples = [x for one in run(client, *[dask.delayed(_sample, pure=True)(r) for r in runs]) for x in one]
    entries = sum(n for _, n in samples)
    n_ranges = ranges or max(1, min(len(parts), 4 * k), -(-entries * RANGE_BYTES_PER_ITEM // budget))
    cand, below = sampled_candidates(samples)
    cuts = choose_cuts(cand, below, entries / n_ranges, ranges=n_ranges)
    pieces = [[dask.delayed(_piece, pure=True)(r, cuts, n_ranges, j) for r in runs] for j in range(n_ranges)]
    offsets = dask.delayed(_offsets, pure=True)([dask.delayed(_counts, pure=True)(r, cuts, n_ranges) for r in runs])
    return RangePlan(runs, pieces, offsets, n_ranges)


def merged_range(pieces: list[tuple[Any, Any, int, int]], offsets: dict[str, Any],
                 j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Range ``j`` merged from every group's piece: distinct scores ascending, positives and negatives at each,
    and the positives and negatives below the range."""
    v, p, q = merge_range([x[0] for x in pieces], [x[1] for x in pieces])
    pos_below, neg_below = (int(x) for x in offsets["below"][j])
    return v, p, q, pos_below, neg_below


def ranking_of(off: dict[str, Any], per_range: list[RangeStats], positive: Any) -> RankingSummary:
    """The ranking from the offsets and every range's stats (refused without items or without a positive)."""
    P, N = off["P"], off["N"]
    if P + N == 0:
        raise DataError("the input holds no items; a ranking needs at least one item.")
    if P == 0:
        raise DataError(lambda name: f"{name} names the label {label_str(positive)!r}, which does not occur in the "
                                     f"gold labels.", params=["positive"])
    total = RangeStats()
    for r in per_range:
        total = total + r
    return total.result(label_str(positive), P, N)


# --- binned mode -------------------------------------------------------------------------

def _row_counts(t: pa.Table) -> int:
    return t.num_rows


def _part_sample(t: pa.Table, score: str, first_row: int, cap: int) -> RowSample:
    out = RowSample(cap)
    out.add(first_row, as_scores(t.column(score).to_numpy(zero_copy_only=False), name=score, n=t.num_rows)
            if t.num_rows else np.zeros(0))
    return out


def _merge_samples(samples: Sequence[RowSample]) -> RowSample:
    total = samples[0]
    for s in samples[1:]:
        total = total.merge(s)
    return total


def _part_range(t: pa.Table, score: str) -> ScoreRange:
    return ScoreRange.of(t.column(score).to_numpy(zero_copy_only=False)) if t.num_rows else ScoreRange()


def binning(data: Any, *, score: str = "score", bins: int, kind: str = "quantile", lo: float | None = None,
            hi: float | None = None, cap: int = 1 << 18, client: Any = None) -> Binning:
    """The bins of a score column on Dask, as the local first pass cuts them (the same row sample, the same range)."""
    parts = data if isinstance(data, Parts) else parts_of(data, [score])
    if kind == "uniform":
        if lo is None or hi is None:
            (rng,) = run(client, tree_sum(parts.map(_part_range, score)))
            lo, hi = rng.lo, rng.hi
        return uniform_binning(bins, lo, hi)
    sizes = run(client, *parts.map(_row_counts))
    firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64).tolist()
    samples = [dask.delayed(_part_sample, pure=True)(t, score, f, cap) for t,
               f in zip(parts.tasks, firsts, strict=True)]
    (sample,) = run(client, tree_sum(samples, combine=_merge_samples))
    return quantile_binning(sample.values(), bins)


def _part_hist(t: pa.Table, gold: str, score: str, positive: Any, b: Binning) -> ScoreHistogram:
    y, s = _prep(t, gold, score, positive)
    return ScoreHistogram.of(b, y, s, positive=label_str(positive))


def histogram(data: Any, *, gold: str = "gold", score: str = "score", positive: Any, binning: Binning,
              client: Any = None) -> ScoreHistogram:
    """The binned ranking on Dask: one histogram per partition, added in a tree (the local histogram, exactly)."""
    parts = data if isinstance(data, Parts) else parts_of(data, [gold, score])
    (h,) = run(client, tree_sum(parts.map(_part_hist, gold, score, positive, binning)))
    return h
