"""The exact ranking's own pieces for a range runner: what an engine that cuts the score axis into ranges runs,
without knowing it is a ranking.

A range runner (:mod:`clfeval.engines.dask._ranges` on a cluster) keeps one sorted state per group of partitions
where it was made, plans cut points from their samples with the one range planner
(:mod:`clfeval.core._rangeplan`), turns every state's counts per range into offsets and merges each range's
pieces on one worker. This module is the ranking's side of that contract:

- :class:`RunsBuilder` — the state's accumulator: ``update(batch)`` with the checked batches of a group of
  partitions (a :class:`clfeval.io.PredictionBatch`, the score column among its extra columns), ``finish()`` the
  sorted :class:`Runs` (positives' and negatives' scores, run-length encoded) which offers ``sample()``,
  ``counts(cuts, ranges)`` and ``piece(cuts, ranges, j)``;
- :func:`offsets_of` — every state's counts per range as the offsets of the ranges (positives and negatives
  below each, in all, and the ranks the curves are sampled at);
- :func:`range_stats_of` — what one range adds (:class:`~clfeval.scores._rangestats.RangeStats`), and
  :func:`ranking_of` the :class:`~clfeval.core.RankingSummary` from them;
- :class:`RankingSpec` — all of it for one score column, as :meth:`clfeval.engines.Runner.ranked` takes it;
- the threshold's pieces (:func:`range_cuts`, :func:`facts_of`, :func:`labels_and_extent`, :func:`at_least`) and
  the binned mode's per-partition reductions (:func:`part_histogram`, :func:`part_sample`, :func:`merge_samples`,
  :func:`part_range`, :func:`row_count`).

The numbers depend neither on the cuts nor on the grouping: the local ranking's
:class:`~clfeval.core.RankingSummary`, bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import EXACT_CUTS_MAX, RankingSummary, label_str, range_offsets, run_bounds
from clfeval.errors import DataError
from clfeval.scores._binned import Binning, RowSample, ScoreHistogram, ScoreRange
from clfeval.scores._columns import as_scores, is_integer_column
from clfeval.scores._external import BUFFER_BYTES_PER_ITEM, DEFAULT_MEMORY, RANGE_BYTES_PER_ITEM, parse_memory
from clfeval.scores._intcuts import check_kinds, value_of_key
from clfeval.scores._rangestats import RangeStats, merge_range, range_stats, rle, rle_merge, sample_ranks_of
from clfeval.scores._streamovr import batch_is_positive
from clfeval.scores._sweep import Cuts

__all__ = ["Runs", "RunsBuilder", "RankingSpec", "offsets_of", "merged_range", "range_stats_of", "ranking_of",
           "range_cuts", "facts_of", "score_kind", "labels_and_extent", "at_least", "part_histogram", "part_sample",
           "merge_samples", "part_range", "row_count", "SAMPLE_PER_PART"]

#: Run entries each group of partitions contributes to the choice of cut points (per class).
SAMPLE_PER_PART = 256


def _prep(gold: Any, scores: Any, n: int, name: str, positive: Any,
          order_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    y = batch_is_positive(gold, positive) if n else np.zeros(0, dtype=bool)
    s = as_scores(scores, name=name, n=n, order_only=order_only) if n else np.zeros(0)
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


class RunsBuilder:
    """The :class:`Runs` of one group of partitions as an accumulator: ``update(batch)`` with its checked batches
    (the score column ``score`` among the batch's extra columns), ``finish()`` the runs; the scores are sorted
    ``buffer`` at a time at most (and then merged). ``labels``: the runs also hold the gold labels that occur."""

    def __init__(self, score: str, positive: Any, order_only: bool = False, labels: bool = False,
                 buffer: int | None = None) -> None:
        self.score, self.positive, self.order_only, self.labels, self.buffer = (score, positive, order_only, labels,
                                                                                 buffer)
        self._done: Runs | None = None
        self._ys: list[np.ndarray] = []
        self._ss: list[np.ndarray] = []
        self._held = 0
        self._seen: dict[str, Any] = {}

    def update(self, batch: Any) -> None:
        from clfeval.core import EncodedGold

        y, s = _prep(batch.gold, batch.extra[self.score], batch.n, self.score, self.positive, self.order_only)
        self._ys.append(y)
        self._ss.append(s)
        self._held += s.shape[0]
        if self.labels and batch.n:
            for x in EncodedGold.of(batch.gold).occurring:
                self._seen.setdefault(label_str(x), x)
        if self.buffer is not None and self._held >= self.buffer:
            self._flush()

    def _flush(self) -> None:
        more = Runs.of(self._ys, self._ss)
        self._done = more if self._done is None else self._done.merge(more)
        self._ys, self._ss, self._held = [], [], 0

    def finish(self) -> Runs:
        if self._done is None or self._ys:
            self._flush()
        assert self._done is not None
        return Runs(self._done.pos, self._done.pos_n, self._done.neg, self._done.neg_n,
                    self._seen if self.labels else None)


def offsets_of(counts: list[np.ndarray]) -> dict[str, Any]:
    """The offsets of the ranges from every state's positives and negatives per range: ``{"P", "N", "below",
    "ranks"}`` (the ranks the curves are sampled at)."""
    off = range_offsets(counts)
    return {"P": off.P, "N": off.N, "below": off.below, "ranks": sample_ranks_of(off.P, off.N)}


def merged_range(pieces: list[tuple[Any, Any, int, int]], offsets: dict[str, Any],
                 j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Range ``j`` merged from every group's piece: distinct scores ascending, positives and negatives at each,
    and the positives and negatives below the range."""
    v, p, q = merge_range([x[0] for x in pieces], [x[1] for x in pieces])
    pos_below, neg_below = (int(x) for x in offsets["below"][j])
    return v, p, q, pos_below, neg_below


def range_stats_of(pieces: list[tuple[Any, Any, int, int]], offsets: dict[str, Any], j: int) -> RangeStats:
    """What range ``j`` adds to the ranking: pairs in order, tied pairs, the exact sum of the average-precision
    terms, the sampled cuts."""
    v, p, q, pos_below, neg_below = merged_range(pieces, offsets, j)
    cap = EXACT_CUTS_MAX // max(1, len(offsets["below"]))  # the cuts the client gathers: at most EXACT_CUTS_MAX
    return range_stats(v, p, q, pos_below, neg_below, offsets["P"], offsets["N"], offsets["ranks"], cap=cap)


def ranking_of(off: dict[str, Any], per_range: Sequence[RangeStats], positive: Any) -> RankingSummary:
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


@dataclass(frozen=True)
class RankingSpec:
    """The exact ranking of one score column as a range runner runs it (:meth:`clfeval.engines.Runner.ranked`):
    the columns it reads and how (``reading``: the reader's ``labels``, ``normalize``, ``options``, ``scores``),
    the sorted state per group (:meth:`make`), the offsets, what each range adds and the result."""

    gold: str
    score: str
    positive: Any
    reading: dict[str, Any]
    order_only: bool = True
    labels: bool = False
    ranges: int | None = None
    probe: bool = False
    #: The memory budget of each task (None: the engine's).
    memory: Any = None
    #: Bytes an entry of a merged range takes (the number of ranges keeps each within the budget).
    entry_bytes: int = RANGE_BYTES_PER_ITEM

    @classmethod
    def of_column(cls, gold: str, score: str, positive: Any, *, normalize: str | None = None,
                  ranges: int | None = None) -> RankingSpec:
        """The ranking of one score column of a PATH (``normalize``: the gold labels normalised as locally, so that
        ``positive`` matches them alike); only the order counts (integer scores ranked exactly as order keys)."""
        return cls(gold, score, positive, {"labels": [gold] if normalize else (), "normalize": normalize},
                   ranges=ranges)

    @property
    def extra(self) -> tuple[str, ...]:
        return (self.score,)

    def budget(self, memory: Any) -> int:
        """The memory budget of each task: this spec's ``memory``, else the engine's ``memory``, else 1 GiB."""
        chosen = self.memory if self.memory is not None else memory
        return parse_memory(DEFAULT_MEMORY if chosen is None else chosen)

    def make(self, budget: int) -> partial[RunsBuilder]:
        """The empty state of a group (picklable): its scores sorted ``budget`` bytes' worth at a time."""
        return partial(RunsBuilder, self.score, self.positive, self.order_only, self.labels,
                       max(1, budget // BUFFER_BYTES_PER_ITEM))

    offsets = staticmethod(offsets_of)
    per_range = staticmethod(range_stats_of)

    def result(self, offsets: dict[str, Any], per_range: Sequence[RangeStats]) -> RankingSummary:
        return ranking_of(offsets, per_range, self.positive)

    def on_ranges(self, data: Any, open_ranges: Any) -> RankingSummary:
        """The ranking of ``data`` from its ranges (``open_ranges(data, spec)``: a range runner's run): every
        range's stats computed at once and added."""
        rr = open_ranges(data, self)
        off, *per = rr.compute(rr.offsets, *rr.per_range(self.per_range))
        return self.result(off, per)


# --- the threshold's pieces ----------------------------------------------------------------------------------

def range_cuts(pieces: list[tuple[Any, Any, int, int]], offsets: dict[str, Any], j: int) -> Cuts:
    """Range ``j``'s cuts in decreasing threshold order, as ``RankingStore.cut_chunks`` gives them."""
    v, p, q, pos_below, neg_below = merged_range(pieces, offsets, j)
    pos_lt, neg_lt = pos_below + np.cumsum(p) - p, neg_below + np.cumsum(q) - q
    P, N = offsets["P"], offsets["N"]
    return Cuts(v[::-1].copy(), (P - pos_lt)[::-1].copy(), (N - neg_lt)[::-1].copy())


def facts_of(runs: Runs) -> tuple[dict[str, Any], tuple[float, float] | None]:
    """The gold labels of one group of partitions (string form → value, in the order local batches give them)
    and its scores' extent."""
    return runs.labels or {}, runs.extent()


def score_kind(t: pa.Table, score: str) -> bool | None:
    """Whether one partition's scores are integers (ranked as order keys); None without rows."""
    return is_integer_column(t.column(score)) if t.num_rows else None


def labels_and_extent(facts: list[tuple[dict[str, Any], tuple[float, float] | None]],
                      kinds: list[bool | None]) -> tuple[dict[str, Any], np.ndarray, bool]:
    """The labels seen over all partitions (in partition order), the scores' [min, max] (empty without items;
    score values, integer keys decoded) and whether the scores are integers."""
    labels: dict[str, Any] = {}
    extents = [e for _, e in facts]
    for d, _ in facts:
        for k, v in d.items():
            labels.setdefault(k, v)
    ints = check_kinds({k for k in kinds if k is not None})
    ext = [e for e in extents if e is not None]
    lo_hi = (min(e[0] for e in ext), max(e[1] for e in ext)) if ext else None
    if lo_hi is None:
        return labels, np.empty(0), ints
    return labels, np.array([value_of_key(x) for x in lo_hi] if ints else lo_hi), ints


def at_least(runs: Runs, t: float) -> np.ndarray:
    """Positives and negatives of one group with score ≥ ``t``."""
    return runs.at_least(t)


# --- the binned mode's reductions per partition ---------------------------------------------------------------

def row_count(t: pa.Table) -> int:
    return t.num_rows


def part_sample(t: pa.Table, score: str, first_row: int, cap: int) -> RowSample:
    """The row sample of one partition whose first row is ``first_row`` of the input."""
    out = RowSample(cap)
    out.add(first_row, as_scores(t.column(score).to_numpy(zero_copy_only=False), name=score, n=t.num_rows)
            if t.num_rows else np.zeros(0))
    return out


def merge_samples(samples: Sequence[RowSample]) -> RowSample:
    total = samples[0]
    for s in samples[1:]:
        total = total.merge(s)
    return total


def part_range(t: pa.Table, score: str) -> ScoreRange:
    return ScoreRange.of(t.column(score).to_numpy(zero_copy_only=False)) if t.num_rows else ScoreRange()


def part_histogram(t: pa.Table, gold: str, score: str, positive: Any, b: Binning) -> ScoreHistogram:
    """The score histogram of one partition's positives and negatives."""
    y, s = _prep(t.column(gold), t.column(score), t.num_rows, score, positive)
    return ScoreHistogram.of(b, y, s, positive=label_str(positive))
