"""One ranking summary per slice: ROC-AUC and average precision of every slice from one sort.

The items' scores, whether each is positive, and its slice code are sorted once by (slice, score descending);
each slice is then a run of that order, and within it the tie groups (equal scores) are the cuts of its
ranking. Per cut: its positives and negatives; the negatives of the slice scored lower (for the positive–negative
pairs in order) and the cumulative TP and FP (for average precision) — all vectorised over every slice at once,
the pair counts summed exactly in int64. Each slice's result is a
:class:`~clfeval.core._ranksummary.RankingSummary` (positives, negatives, pairs in order, tied pairs, average
precision), read by the catalogue's ranking metrics (:func:`~clfeval.core._ranksummary.roc_auc`,
:func:`~clfeval.core._ranksummary.average_precision`). :class:`SliceScores` gathers the three columns batch by
batch within a memory budget (:data:`ITEM_BYTES` an item).

This module imports numpy only.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from clfeval.core._ranksummary import RankingSummary
from clfeval.errors import DataError, UsageError

__all__ = ["slice_rankings", "SliceScores", "ITEM_BYTES", "finite_scores"]

#: Bytes held per item for the per-slice rankings: the score (float64), the slice code (int32), positive or not.
ITEM_BYTES = 13


def slice_rankings(scores: np.ndarray, positive: np.ndarray, codes: np.ndarray, n_slices: int,
                   label: str) -> list[RankingSummary]:
    """The ranking summary of every slice code ``0 .. n_slices-1`` (an empty slice: no positives, no negatives).

    >>> s = slice_rankings(np.array([0.9, 0.2, 0.8, 0.1, 0.5]), np.array([1, 0, 0, 1, 1], bool),
    ...                    np.array([0, 0, 1, 1, 1]), 2, "pos")
    >>> [(r.n_positive, r.n_negative, r.below, r.tied) for r in s], s[1].average_precision
    ([(1, 1, 1, 0), (2, 1, 0, 0)], 0.5833333333333333)
    """
    scores = np.asarray(scores, dtype=np.float64)
    positive = np.asarray(positive, dtype=bool)
    codes = np.asarray(codes, dtype=np.int64)
    n_pos = np.bincount(codes[positive], minlength=n_slices)[:n_slices].astype(np.int64)
    n_neg = np.bincount(codes[~positive], minlength=n_slices)[:n_slices].astype(np.int64)
    below = np.zeros(n_slices, dtype=np.int64)
    tied = np.zeros(n_slices, dtype=np.int64)
    ap = np.full(n_slices, math.nan)
    if scores.size:
        order = np.lexsort((-scores, codes))
        c, s, y = codes[order], scores[order], positive[order]
        new = np.ones(c.size, dtype=bool)
        new[1:] = (c[1:] != c[:-1]) | (s[1:] != s[:-1])
        starts = np.flatnonzero(new)  # the first item of every cut (a tie group within a slice)
        gid = np.cumsum(new) - 1
        g = starts.size
        pos_g = np.bincount(gid[y], minlength=g).astype(np.int64)
        neg_g = np.bincount(gid[~y], minlength=g).astype(np.int64)
        slice_g = c[starts]
        first = np.ones(g, dtype=bool)
        first[1:] = slice_g[1:] != slice_g[:-1]
        heads = np.flatnonzero(first)  # the first cut of every slice present
        cum_pos = np.cumsum(pos_g)
        cum_neg = np.cumsum(neg_g)
        run = np.cumsum(first) - 1  # which slice run each cut is in
        pos_before = (cum_pos - pos_g)[heads][run]
        neg_before = (cum_neg - neg_g)[heads][run]
        tp = cum_pos - pos_before  # within the slice, at and above the cut
        fp = cum_neg - neg_before
        lower = n_neg[slice_g] - fp  # the slice's negatives scored below the cut
        present = slice_g[heads]
        below[present] = np.add.reduceat(pos_g * lower, heads)
        tied[present] = np.add.reduceat(pos_g * neg_g, heads)
        with np.errstate(invalid="ignore", divide="ignore"):
            terms = np.where(pos_g > 0, pos_g * (tp / np.maximum(tp + fp, 1)), 0.0)
            sums = np.add.reduceat(terms, heads)
            ap[present] = np.where(n_pos[present] > 0, sums / np.maximum(n_pos[present], 1), math.nan)
    return [RankingSummary(positive=label, n_positive=int(n_pos[i]), n_negative=int(n_neg[i]), below=int(below[i]),
                           tied=int(tied[i]), average_precision=float(ap[i])) for i in range(n_slices)]


class SliceScores:
    """The score, positive-or-not and slice code of every item, gathered batch by batch within ``budget`` bytes.

    Parameters
    ----------
    column : str
        The score column (named in messages).
    budget : int or None
        Bytes the three columns may hold (:data:`ITEM_BYTES` an item); more is refused with a sentence.
    """

    def __init__(self, column: str, budget: int | None = None) -> None:
        self.column, self.budget = column, budget
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.n = 0

    def add(self, scores: Any, positive: np.ndarray, codes: np.ndarray) -> None:
        s = finite_scores(scores, self.column)
        if s.size != positive.size or s.size != codes.size:
            raise DataError(f"score column {self.column!r} has {s.size:,} values for {positive.size:,} items.")
        self.n += s.size
        if self.budget is not None and self.n * ITEM_BYTES > self.budget:
            raise UsageError(lambda o, m: (
                f"per-slice rankings (option {o} with --score) hold the score, the class and the slice of every item "
                f"({ITEM_BYTES} bytes an item): more than {self.n:,} items need more than the memory budget "
                f"({self.budget:,} bytes, option {m}); raise {m}, or leave out the score column."),
                params=["by", "memory"])
        self.parts.append((s, np.asarray(positive, dtype=bool), np.asarray(codes, dtype=np.int32)))

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not self.parts:
            return np.empty(0), np.empty(0, dtype=bool), np.empty(0, dtype=np.int32)
        return tuple(np.concatenate([p[i] for p in self.parts]) for i in range(3))  # type: ignore[return-value]


def finite_scores(values: Any, column: str) -> np.ndarray:
    """A score column as finite float64 values; nulls, NaN, infinities and text refused naming the column."""
    import pyarrow as pa

    arr = values
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    if isinstance(arr, pa.Array):
        if arr.null_count:
            raise DataError(f"score column {column!r} has empty (null) values; every item needs a score.")
        try:
            arr = arr.cast(pa.float64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            raise DataError(f"score column {column!r} holds {values.type} values, not numbers.") from None
        x = np.asarray(arr.to_numpy(zero_copy_only=False), dtype=np.float64)
    else:
        try:
            x = np.asarray(values, dtype=np.float64)
        except (TypeError, ValueError):
            raise DataError(f"score column {column!r} holds values that are not numbers.") from None
    if not np.isfinite(x).all():
        raise DataError(f"score column {column!r} holds NaN or infinite values; every score must be a finite "
                        f"number.")
    return x
