"""Exact ROC-AUC and average precision on Dask, without collecting the scores on one machine.

Never an average of per-partition AUCs. The score axis is cut into ranges:

1. every partition sends a few of its scores (evenly spaced ranks) to one
   small task that chooses cut points at approximate quantiles;
2. every partition splits its positives' and negatives' scores by range, each
   piece sorted and run-length encoded, and reports only its counts per range;
3. one small task turns the counts into offsets (positives and negatives below
   each range) and the ranks the curves are sampled at;
4. each range merges its pieces from every partition on one worker and adds
   exactly what its items add (:func:`clfeval.scores.rangestats.range_stats`:
   pairs in order, tied pairs, the exact sum of the average-precision terms,
   the sampled cuts);
5. the few numbers of each range are added on the client.

The quantiles only balance the ranges; the numbers do not depend on them. The
result is the :class:`~clfeval.scores.rangestats.StreamRanking` of the local
ranking, bit for bit. :func:`histogram` is the binned mode on Dask: per
partition histograms added in a tree.
"""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass
from typing import Any, Callable

import dask
import numpy as np
import pyarrow as pa

from clfeval.core.labels import label_str
from clfeval.dask.parts import Parts, parts_of, run, tree_sum
from clfeval.errors import DataError
from clfeval.scores.binned import Binning, RowSample, ScoreHistogram, ScoreRange, quantile_binning, uniform_binning
from clfeval.scores.columns import as_scores
from clfeval.scores.rangestats import RangeStats, StreamRanking, merge_range, range_stats, rle, sample_ranks_of
from clfeval.scores.streamovr import batch_is_positive

__all__ = ["ranking", "range_plan", "RangePlan", "merged_range", "range_stats_of", "ranking_of", "histogram",
           "binning", "SAMPLE_PER_PART"]

#: Scores each partition contributes to the choice of cut points.
SAMPLE_PER_PART = 256


def _prep(t: pa.Table, gold: str, score: str, positive: Any,
          order_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    y = batch_is_positive(t.column(gold), positive) if t.num_rows else np.zeros(0, dtype=bool)
    s = as_scores(t.column(score), name=score, n=t.num_rows, order_only=order_only) if t.num_rows else np.zeros(0)
    return y, np.asarray(s, dtype=np.float64)


def _sample(prepped: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, int]:
    s = np.sort(prepped[1])
    if s.size == 0:
        return s, 0
    return s[np.linspace(0, s.size - 1, min(s.size, SAMPLE_PER_PART)).round().astype(np.intp)], int(s.size)


def _choose_cuts(samples: list[tuple[np.ndarray, int]], ranges: int) -> np.ndarray:
    vals = [v for v, n in samples if n]
    if not vals or ranges <= 1:
        return np.empty(0)
    v = np.concatenate(vals)
    w = np.concatenate([np.full(s.size, n / s.size) for s, n in samples if n])
    order = np.argsort(v, kind="stable")
    v, cw = v[order], np.cumsum(w[order])
    at = np.searchsorted(cw, cw[-1] * np.arange(1, ranges) / ranges)
    return np.unique(v[np.minimum(at, v.size - 1)])


def _split(prepped: tuple[np.ndarray, np.ndarray], cuts: np.ndarray, ranges: int) -> list[tuple[Any, Any, int, int]]:
    """Per range (``ranges`` of them; those beyond the cuts are empty): run-length codes of the positives' and
    the negatives' scores, and their counts."""
    y, s = prepped
    out = []
    for part in (s[y], s[~y]):
        part = np.sort(part)
        bounds = np.concatenate([[0], np.searchsorted(part, cuts, side="left"), [part.size] * (ranges - cuts.size)])
        out.append([rle(part[bounds[j]:bounds[j + 1]]) for j in range(ranges)])
    return [(out[0][j], out[1][j], int(out[0][j][1].sum()), int(out[1][j][1].sum())) for j in range(ranges)]


def _counts(split: list[tuple[Any, Any, int, int]]) -> np.ndarray:
    return np.array([[p, q] for _, _, p, q in split], dtype=np.int64).reshape(-1, 2)


def _offsets(counts: list[np.ndarray]) -> dict[str, Any]:
    total = np.sum(counts, axis=0) if counts else np.zeros((1, 2), dtype=np.int64)
    below = np.cumsum(total, axis=0) - total
    P, N = int(total[:, 0].sum()), int(total[:, 1].sum())
    return {"P": P, "N": N, "below": below, "ranks": sample_ranks_of(P, N)}


def range_stats_of(pieces: list[tuple[Any, Any, int, int]], offsets: dict[str, Any], j: int) -> RangeStats:
    """What range ``j`` adds to the ranking (step 4 of the module notes)."""
    v, p, q, pos_below, neg_below = merged_range(pieces, offsets, j)
    return range_stats(v, p, q, pos_below, neg_below, offsets["P"], offsets["N"], offsets["ranks"])


def _threads(client: Any) -> int:
    if client is None:
        return max(1, os.cpu_count() or 1)
    return max(1, sum(client.nthreads().values()))


def ranking(data: Any, *, gold: str = "gold", score: str = "score", positive: Any, client: Any = None,
            ranges: int | None = None, memory: Any = None) -> StreamRanking:
    """The exact ranking of one score column on Dask: ``ranking(gold, scores, positive=...)``'s numbers.

    Parameters
    ----------
    data : dask.dataframe.DataFrame, path(s), or Parts
    positive : label
        The positive class (matched by value or string form); it must occur.
    ranges : int, optional
        Ranges of the score axis (default: four per worker thread of the cluster, at most one per partition):
        each range is merged on one worker, and every partition sends one piece to every range.
    memory : ignored
        Kept for the same call as the local engine; each range is held by one worker.
    """
    parts = data if isinstance(data, Parts) else parts_of(data, [gold, score])
    plan = range_plan(parts, gold=gold, score=score, positive=positive, client=client, ranges=ranges,
                      order_only=True)  # only the order counts: integer scores ranked exactly
    off, *per_range = run(client, plan.offsets, *plan.per_range(range_stats_of))
    return ranking_of(off, per_range, positive)


@dataclass(frozen=True)
class RangePlan:
    """The tasks of a ranking on Dask: every partition's (is positive, scores), its pieces per range, the offsets
    (``{"P", "N", "below", "ranks"}``) and the number of ranges."""

    prepped: list[Any]
    splits: list[Any]
    offsets: Any
    ranges: int

    def per_range(self, fn: Callable[[list[Any], dict[str, Any], int], Any]) -> list[Any]:
        """``fn(pieces of range j from every partition, offsets, j)`` for every range, as tasks."""
        return [dask.delayed(fn, pure=True)([dask.delayed(operator.getitem, pure=True)(s, j) for s in self.splits],
                                            self.offsets, j) for j in range(self.ranges)]


def range_plan(parts: Parts, *, gold: str, score: str, positive: Any, client: Any = None,
               ranges: int | None = None, order_only: bool = False) -> RangePlan:
    """The score axis of ``parts`` cut into ranges at approximate quantiles (steps 1–3 of the module notes), as
    tasks; ``ranges`` default: four per worker thread of the cluster, at most one per partition; ``order_only``:
    integer scores as :func:`clfeval.scores.columns.order_keys` (a ranking, whose scores are never shown)."""
    n_ranges = ranges or max(1, min(len(parts), 4 * _threads(client)))
    prepped = parts.map(_prep, gold, score, positive, order_only)
    cuts = dask.delayed(_choose_cuts, pure=True)([dask.delayed(_sample, pure=True)(p) for p in prepped], n_ranges)
    splits = [dask.delayed(_split, pure=True)(p, cuts, n_ranges) for p in prepped]
    offsets = dask.delayed(_offsets, pure=True)([dask.delayed(_counts, pure=True)(s) for s in splits])
    return RangePlan(prepped, splits, offsets, n_ranges)


def merged_range(pieces: list[tuple[Any, Any, int, int]], offsets: dict[str, Any],
                 j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Range ``j`` merged from every partition's piece: distinct scores ascending, positives and negatives at each,
    and the positives and negatives below the range."""
    v, p, q = merge_range([x[0] for x in pieces], [x[1] for x in pieces])
    pos_below, neg_below = (int(x) for x in offsets["below"][j])
    return v, p, q, pos_below, neg_below


def ranking_of(off: dict[str, Any], per_range: list[RangeStats], positive: Any) -> StreamRanking:
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


def _merge_samples(samples: list[RowSample]) -> RowSample:
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
    samples = [dask.delayed(_part_sample, pure=True)(t, score, f, cap) for t, f in zip(parts.tasks, firsts)]
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
