"""The range planner of an exact ranking beyond memory: the one multi-pass exception, written once.

Every other operation is one pass of a mergeable accumulator. An exact order
statistic over more items than fit in memory (ROC-AUC, average precision, the
curves, the sweep, the best cut) is not: its sorted runs are cut into ranges of
the score axis, and each range is merged in a second pass, knowing the
positives and negatives below it (:mod:`clfeval.scores._rangestats`). This
module plans those ranges, for every place an exact order statistic is
needed:

- :class:`clfeval.scores._external.RankingStore` (one machine, spilled sorted
  runs: exact counts below each candidate, by binary search in the runs);
- :mod:`clfeval.engines.dask._ranges`, the generic range runner of a cluster (the sorted
  states stay on the workers, the counts below each candidate are estimated from evenly
  spaced entries), with the ranking's pieces of :mod:`clfeval.scores._rankruns` (its runs'
  bounds and offsets) and the threshold's of :mod:`clfeval.scores._rankthreshold`.

The plan is three steps, each one function: candidate cut points with the items
below each (:func:`exact_candidates`, :func:`sampled_candidates`); the cuts, so
that each range holds at most ``cap`` items (:func:`choose_cuts`); each run's
bounds at the cuts (:func:`run_bounds`), and from every run's items per range,
the positives and negatives below each range (:func:`range_offsets`). The cuts only
balance the ranges: the numbers depend on neither them nor their count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["exact_candidates", "sampled_candidates", "choose_cuts", "run_bounds", "Offsets", "range_offsets"]


def exact_candidates(samples: Sequence[np.ndarray],
                     count_below: Callable[[np.ndarray], np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Candidate cut points (every sampled score, distinct, ascending) and the exact items below each
    (``count_below(values)``: the items with a lower score, over every run)."""
    cand = np.unique(np.concatenate(samples)) if samples else np.empty(0)
    return cand, count_below(cand)


def sampled_candidates(samples: Sequence[tuple[np.ndarray, int]]) -> tuple[np.ndarray, np.ndarray]:
    """Candidate cut points from evenly spaced entries of sorted runs, each sample given with the number of
    entries it stands for; the entries below each candidate are estimated (each sampled value weighs its share)."""
    kept = [(s, n) for s, n in samples if n]
    if not kept:
        return np.empty(0), np.empty(0)
    v = np.concatenate([s for s, _ in kept])
    w = np.concatenate([np.full(s.size, n / s.size) for s, n in kept])
    order = np.argsort(v, kind="stable")
    v, w = v[order], w[order]
    cand, first = np.unique(v, return_index=True)
    return cand, (np.cumsum(w) - w)[first]


def choose_cuts(cand: np.ndarray, below: np.ndarray, cap: float, *, ranges: int | None = None) -> np.ndarray:
    """Cut points of the score axis, chosen greedily among ``cand`` (ascending, ``below[i]`` items under
    ``cand[i]``): each range (from a cut up to the next, a cut belonging to the range it starts) holds at most
    ``cap`` items wherever the candidates are dense enough; at most ``ranges - 1`` cuts when ``ranges`` is given
    (the last range then holds the rest).

    >>> choose_cuts(np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([0, 2, 4, 6, 8]), 3)
    array([2., 3., 4.])
    >>> choose_cuts(np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([0, 2, 4, 6, 8]), 3, ranges=2)
    array([2.])
    """
    limit = cand.shape[0] if ranges is None else ranges - 1
    cuts: list[float] = []
    last = 0
    for i in range(1, cand.shape[0]):
        if len(cuts) >= limit:
            break
        # cut before cand[i] when the range from the last cut up to it would be over the cap
        if below[i] - last > cap and below[i - 1] > last:
            cuts.append(float(cand[i - 1]))
            last = below[i - 1]
    return np.array(cuts)


def run_bounds(below_cuts: np.ndarray, n: int, ranges: int) -> np.ndarray:
    """Where each of ``ranges`` ranges starts in one sorted run of ``n`` entries, and where the last ends
    (``ranges + 1`` indices): ``below_cuts`` are the run's entries below each cut (ranges beyond the cuts are empty)."""
    return np.concatenate([[0], below_cuts, [n] * (ranges - below_cuts.shape[0])]).astype(np.int64)


@dataclass(frozen=True)
class Offsets:
    """The positives and negatives below each range (``below``, shape (ranges, 2)), and in all (``P``, ``N``)."""

    below: np.ndarray
    P: int
    N: int


def range_offsets(counts: Sequence[np.ndarray]) -> Offsets:
    """The :class:`Offsets` of the ranges from every run's (or group of runs') positives and negatives per
    range, each of shape (ranges, 2)."""
    total = np.sum(counts, axis=0) if len(counts) else np.zeros((1, 2), dtype=np.int64)
    below = np.cumsum(total, axis=0) - total
    return Offsets(below, int(total[:, 0].sum()), int(total[:, 1].sum()))
