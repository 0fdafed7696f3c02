"""One range of a ranking's score axis: merged run-length codes and what the range adds, exactly.

A ranking too large for one array is cut into ranges of the score axis
(:mod:`clfeval.scores._external` on one machine, :mod:`clfeval.engines.dask._ranges`
on a cluster). Each range is merged into distinct scores with their positives
and negatives (run-length codes: a tie group of any size is one entry), and,
given the positives and negatives below the range, adds to the ranking exactly
what its items add in memory: pairs in order, tied pairs, the average-precision
terms (summed exactly, :class:`~clfeval.core._exactsum.ExactSum`), distinct
scores and the sampled cuts of the curves (:class:`RangeStats`, which add).
:class:`~clfeval.core._ranksummary.RankingSummary` is the result, as in memory: the numbers of the in-memory
:class:`~clfeval.scores._curves.SortedRanking` of the same items, bit for bit (and its per-distinct-score counts while
they number at most :data:`~clfeval.core._ranksummary.EXACT_CUTS_MAX`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from clfeval.core import EXACT_CUTS_MAX, MAX_FPR, ExactSum, RankingSummary, exact_dot, sample_ranks
from clfeval.scores._curves import ranking_signature
from clfeval.scores._sweep import Cuts

__all__ = ["rle", "rle_merge", "exact_dot", "merge_range", "sample_ranks_of", "RangeStats", "range_stats",
           "ExactCuts"]


@dataclass(frozen=True)
class ExactCuts:
    """The per-distinct-score counts of a ranking computed beyond memory (when few enough to keep); read-only."""

    cuts: Cuts

    def __post_init__(self) -> None:
        for a in self.cuts:
            a.flags.writeable = False


def rle(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct values, counts) of a sorted array."""
    if v.shape[0] == 0:
        return np.empty(0), np.empty(0, dtype=np.int64)
    new = np.empty(v.shape[0], dtype=bool)
    new[0] = True
    np.not_equal(v[1:], v[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    return v[starts], np.diff(np.append(starts, v.shape[0])).astype(np.int64)


def rle_merge(pieces: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Merge run-length codes of sorted pieces into one."""
    pieces = [p for p in pieces if p[0].shape[0]]
    if not pieces:
        return np.empty(0), np.empty(0, dtype=np.int64)
    if len(pieces) == 1:
        return pieces[0]
    v = np.concatenate([p[0] for p in pieces])
    c = np.concatenate([p[1] for p in pieces])
    order = np.argsort(v, kind="stable")  # timsort: a merge of sorted pieces
    v = v[order]
    c = c[order]
    new = np.empty(v.shape[0], dtype=bool)
    new[0] = True
    np.not_equal(v[1:], v[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    return v[starts], np.add.reduceat(c, starts)


def sample_ranks_of(n_positive: int, n_negative: int) -> tuple[np.ndarray, np.ndarray]:
    """The ranks of the positives and of the negatives the curves are sampled at (distinct, ascending)."""
    return np.unique(sample_ranks(n_positive)), np.unique(sample_ranks(n_negative))


@dataclass
class RangeStats:
    """What one range of the score axis adds to a ranking: pairs in order, tied pairs, the exact sum of the
    average-precision terms, distinct scores, and the sampled cuts that fall in it. Ranges add (``+``)."""

    below: int = 0
    tied: int = 0
    ap: ExactSum = field(default_factory=ExactSum)
    n_cuts: int = 0
    picks: list = field(default_factory=list)
    full: list | None = field(default_factory=list)  # every cut (values, tp, fp) while at most `cap` of them
    cap: int = EXACT_CUTS_MAX
    pauc_twice: int = 0  # the partial ROC-AUC at MAX_FPR: twice the whole trapezoids, and the crossing segment
    pauc_cross: tuple | None = None

    def __add__(self, other: RangeStats) -> RangeStats:
        n, cap = self.n_cuts + other.n_cuts, min(self.cap, other.cap)
        full = (self.full + other.full) if self.full is not None and other.full is not None and n <= cap else None
        return RangeStats(self.below + other.below, self.tied + other.tied, self.ap + other.ap,
                          n, self.picks + other.picks, full, cap, self.pauc_twice + other.pauc_twice,
                          self.pauc_cross or other.pauc_cross)

    def _exact(self) -> ExactCuts | None:
        if self.full is None or self.n_cuts > self.cap:
            return None
        if not self.full:
            e = np.empty(0, dtype=np.int64)
            return ExactCuts(Cuts(np.empty(0), e, e.copy()))
        v = np.concatenate([x[0] for x in self.full])
        order = np.argsort(v, kind="stable")[::-1]  # decreasing threshold
        tp = np.concatenate([x[1] for x in self.full])[order]
        fp = np.concatenate([x[2] for x in self.full])[order]
        return ExactCuts(Cuts(v[order], tp.astype(np.int64), fp.astype(np.int64)))

    def result(self, positive: str, n_positive: int, n_negative: int, *, spilled: bool = False, memory: int = 0,
               runs: int = 0) -> RankingSummary:
        """The ranking's summary once every range is added."""
        P, N = n_positive, n_negative
        points = None
        if self.picks and P:  # without negatives too: the sweep curves need only positives
            v = np.concatenate([x[0] for x in self.picks])
            u, first = np.unique(v, return_index=True)
            tps = np.concatenate([x[1] for x in self.picks])[first]
            fps = np.concatenate([x[2] for x in self.picks])[first]
            points = (u[::-1], tps[::-1].astype(np.int64), fps[::-1].astype(np.int64))
        return RankingSummary(positive, P, N, self.below, self.tied, self.ap.divided(P) if P else math.nan,
                              self.n_cuts, points, ranking_signature(positive),
                              external={"memory": memory, "spilled": spilled, "runs": runs, "n_cuts": self.n_cuts},
                              exact=self._exact(), partial=(self.pauc_twice, self.pauc_cross))


def range_stats(values: np.ndarray, pos: np.ndarray, neg: np.ndarray, pos_below: int, neg_below: int,
                n_positive: int, n_negative: int, ranks: tuple[np.ndarray, np.ndarray], *,
                cap: int = EXACT_CUTS_MAX) -> RangeStats:
    """:class:`RangeStats` of one merged range: distinct ``values`` ascending with their positives and
    negatives, and the positives and negatives below the range (over the whole ranking). Its cuts are kept
    while there are at most ``cap`` (the whole ranking's, once ranges are added)."""
    P, N = n_positive, n_negative
    out = RangeStats(n_cuts=int(values.shape[0]), cap=cap)
    if values.shape[0] == 0:
        return out
    pos_lt = pos_below + np.cumsum(pos) - pos
    neg_lt = neg_below + np.cumsum(neg) - neg
    out.below = exact_dot(pos, neg_lt)
    out.tied = exact_dot(pos, neg)
    tp_at, fp_at = P - pos_lt, N - neg_lt  # at or above each distinct score; above it: minus its own
    limit = MAX_FPR * N
    whole = fp_at <= limit
    if whole.any():
        out.pauc_twice = exact_dot(neg[whole], (2 * tp_at - pos)[whole])
    cross = np.flatnonzero((fp_at - neg < limit) & (fp_at > limit))
    if cross.size:
        i = int(cross[0])
        out.pauc_cross = (int(fp_at[i] - neg[i]), int(fp_at[i]), int(tp_at[i] - pos[i]), int(tp_at[i]))
    if values.shape[0] <= cap:  # each distinct score: positives and negatives at or above it
        out.full = [(values, P - pos_lt, N - neg_lt)]
    else:
        out.full = None
    m = pos > 0
    if m.any():
        tp = P - pos_lt[m]  # positives at or above each score, as Ranking counts them
        fp = N - neg_lt[m]
        out.ap.add(tp / (tp + fp), pos[m])
    for counts, first, r in ((pos, pos_below, ranks[0]), (neg, neg_below, ranks[1])):
        total = int(counts.sum())
        r = r[(r >= first) & (r < first + total)] - first
        if r.size:
            at = np.searchsorted(np.cumsum(counts), r, side="right")
            out.picks.append((values[at], P - pos_lt[at], N - neg_lt[at]))
    return out


def merge_range(pieces_pos: list[tuple[np.ndarray, np.ndarray]],
                pieces_neg: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run-length pieces of one range (positives', negatives') merged: distinct values ascending, counts of each."""
    pv, pc = rle_merge(pieces_pos)
    nv, nc = rle_merge(pieces_neg)
    v = np.union1d(pv, nv)
    p = np.zeros(v.shape[0], dtype=np.int64)
    q = np.zeros(v.shape[0], dtype=np.int64)
    p[np.searchsorted(v, pv)] = pc
    q[np.searchsorted(v, nv)] = nc
    return v, p, q
