"""One range of a ranking's score axis: merged run-length codes and what the range adds, exactly.

A ranking too large for one array is cut into ranges of the score axis
(:mod:`clfeval.scores.external` on one machine, :mod:`clfeval.dask.rankings`
on a cluster). Each range is merged into distinct scores with their positives
and negatives (run-length codes: a tie group of any size is one entry), and,
given the positives and negatives below the range, adds to the ranking exactly
what its items add in memory: pairs in order, tied pairs, the average-precision
terms (summed exactly, :class:`~clfeval.core.exactsum.ExactSum`), distinct
scores and the sampled cuts of the curves (:class:`RangeStats`, which add).
:class:`StreamRanking` is the result: the numbers of the in-memory
:class:`~clfeval.scores.curves.Ranking` of the same items, bit for bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.core.decimate import curves_of_points, sample_ranks, sweep_of_points
from clfeval.core.display import Display
from clfeval.core.exactsum import ExactSum
from clfeval.scores.curves import PairCounts, ranking_signature, ranking_summary, roc_auc_of

__all__ = ["rle", "rle_merge", "exact_dot", "merge_range", "sample_ranks_of", "RangeStats", "range_stats",
           "StreamRanking"]


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


def exact_dot(a: np.ndarray, b: np.ndarray) -> int:
    """Σ a·b of non-negative int64 arrays as a Python int, without int64 overflow."""
    if a.shape[0] == 0:
        return 0
    top = int(a.max()) * int(b.max())
    if top == 0:
        return 0
    step = max(1, (1 << 62) // top)
    return sum(int(np.dot(a[i:i + step], b[i:i + step])) for i in range(0, a.shape[0], step))


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

    def __add__(self, other: "RangeStats") -> "RangeStats":
        return RangeStats(self.below + other.below, self.tied + other.tied, self.ap + other.ap,
                          self.n_cuts + other.n_cuts, self.picks + other.picks)

    def result(self, positive: str, n_positive: int, n_negative: int, *, spilled: bool = False, memory: int = 0,
               runs: int = 0) -> "StreamRanking":
        """The ranking's summary once every range is added."""
        P, N = n_positive, n_negative
        points = None
        if self.picks and P:  # without negatives too: the sweep curves need only positives
            v = np.concatenate([x[0] for x in self.picks])
            u, first = np.unique(v, return_index=True)
            tps = np.concatenate([x[1] for x in self.picks])[first]
            fps = np.concatenate([x[2] for x in self.picks])[first]
            points = (u[::-1], tps[::-1].astype(np.int64), fps[::-1].astype(np.int64))
        return StreamRanking(positive, P, N, self.below, self.tied, self.ap.divided(P) if P else math.nan,
                             self.n_cuts, points, spilled, memory, runs, ranking_signature(positive))


def range_stats(values: np.ndarray, pos: np.ndarray, neg: np.ndarray, pos_below: int, neg_below: int,
                n_positive: int, n_negative: int, ranks: tuple[np.ndarray, np.ndarray]) -> RangeStats:
    """:class:`RangeStats` of one merged range: distinct ``values`` ascending with their positives and
    negatives, and the positives and negatives below the range (over the whole ranking)."""
    P, N = n_positive, n_negative
    out = RangeStats(n_cuts=int(values.shape[0]))
    if values.shape[0] == 0:
        return out
    pos_lt = pos_below + np.cumsum(pos) - pos
    neg_lt = neg_below + np.cumsum(neg) - neg
    out.below = exact_dot(pos, neg_lt)
    out.tied = exact_dot(pos, neg)
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



@dataclass(frozen=True, eq=False)
class StreamRanking(PairCounts, Display):
    """A ranking's summary computed beyond memory: the numbers of ``Ranking`` for the same items, bit for bit.

    ``spilled`` says whether sorted runs went to disk (``runs`` of them);
    ``points`` are the sampled cuts the curves are drawn from.
    """

    positive: str
    n_positive: int
    n_negative: int
    below: int
    tied: int
    average_precision: float
    n_cuts: int
    points: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(repr=False)
    spilled: bool
    memory: int
    runs: int
    signature: dict[str, Any] = field(default_factory=dict, repr=False)
    engine: dict[str, Any] | None = field(default=None, repr=False, compare=False)  # where it ran (the front door)

    @property
    def pairs_in_order(self) -> float:
        return self.below + self.tied / 2

    @property
    def roc_auc(self) -> float:
        return roc_auc_of(self.below, self.tied, self.pairs)

    @property
    def pr_auc(self) -> float:
        return self.average_precision

    def curves(self) -> dict[str, Any]:
        """The decimated ROC and PR curves, as ``Ranking.curves()``."""
        return curves_of_points(self.points, self.n_positive, self.n_negative)

    def sweep_curves(self, *, beta: float = 1.0) -> dict[str, Any] | None:
        """Precision, recall and F-beta against the threshold, decimated (as ``decimate.sweep_curves``)."""
        if self.points is None:
            return None
        return sweep_of_points(self.points, self.n_positive, beta=beta)

    def external(self) -> dict[str, Any]:
        """How it was computed: the budget, whether it spilled, how many runs."""
        return {"memory": self.memory, "spilled": self.spilled, "runs": self.runs, "n_cuts": self.n_cuts}

    def to_dict(self) -> dict[str, Any]:
        """``Ranking.to_dict()`` of the same items, plus an ``external`` block."""
        out = ranking_summary(self.positive, self.n_positive, self.n_negative, self.below, self.tied,
                              self.average_precision, self.curves(), self.signature)
        out["external"] = self.external()
        return out
