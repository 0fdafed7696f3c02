"""Confident learning (Northcutt, Jiang & Chuang 2021, *JAIR* 70): which given labels are likely wrong.

From the given (gold) labels ỹ of n items and out-of-sample probabilities p̂_j(x) over k classes:

1. thresholds: t_j = mean of p̂_j(x) over the items x given label j, summed exactly and compared exactly (the
   value shown is correctly rounded); undefined for a class no item is given (nothing is counted in its column);
2. the confident joint C (k × k): an item given label i counts in C[i][j], where j is the class with the largest
   p̂_j(x) among the classes whose probability is at or above their threshold (p̂_j(x) ≥ t_j); equal probabilities:
   the lower class index; an item at or above no threshold is not counted;
3. calibrated: C̃[i][j] = C[i][j] / Σ_j' C[i][j'] · n_i (n_i: the items given label i; a row with no count stays
   0); the joint Q = C̃ / Σ C̃; the noise matrix P(ỹ=i | y*=j) = Q[i][j] / Σ_i' Q[i'][j] (undefined for a
   column no item is confidently in);
4. the number of label errors in cell (i, j), i ≠ j: round(n · Q[i][j]), rounded half up and computed exactly in
   integers (n · Q[i][j] = n · n_i · C[i][j] / (Σ_j' C[i][j'] · S), S the items given a label whose row counts),
   at most n_i; the estimated number of label errors is their sum;
5. prune by noise rate: in every off-diagonal cell (i, j) the round(n · Q[i][j]) items given label i with the
   largest margin p̂_j(x) − p̂_i(x) are flagged (equal margins: by id, then row); an item flagged by two cells
   is flagged once, with the suggested label of the cell where its margin is largest (equal: the lower class).

Each flagged item has its self-confidence p̂_ỹ(x) and normalised margin p̂_ỹ(x) − max_{j≠ỹ} p̂_j(x); they are
ranked by self-confidence ascending (or the normalised margin), equal values by id, then row.

This module is NumPy only; it trusts its inputs (the front door checks them).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from clfeval.core import grouped_sums

__all__ = ["ConfidentLearning", "confident_learning", "RANK_BY", "cell_counts", "id_order", "matrices", "at_or_above",
           "top_margins"]

RANK_BY = ("self_confidence", "normalized_margin")


@dataclass(frozen=True)
class ConfidentLearning:
    """The pieces of the rule (plain NumPy; the result type turns them into JSON-safe fields)."""

    n_given: np.ndarray          # (k,) items given each label
    thresholds: np.ndarray       # (k,) t_j, NaN where no item is given label j
    confident_joint: np.ndarray  # (k, k) int64 C
    calibrated: np.ndarray       # (k, k) float64 C̃
    joint: np.ndarray            # (k, k) float64 Q
    noise: np.ndarray            # (k, k) float64 P(ỹ=i | y*=j), NaN in undefined columns
    cell_counts: np.ndarray      # (k, k) int64 round(n · Q[i][j]) capped at n_i, 0 on the diagonal
    cell_flagged: np.ndarray     # (k, k) int64 items the rule flags in each cell (before the overlap is removed)
    flagged_rows: np.ndarray     # (m,) rows of the flagged items, in the ranking's order
    given_of_flagged: np.ndarray  # (m,) given class index of each flagged item
    suggested: np.ndarray        # (m,) suggested class index of each flagged item
    self_confidence: np.ndarray  # (m,) p̂_ỹ(x)
    margin: np.ndarray           # (m,) p̂_ỹ(x) − max_{j≠ỹ} p̂_j(x)


def cell_counts(c: np.ndarray, n_given: np.ndarray) -> np.ndarray:
    """round(n · Q[i][j]) of every cell, half up, exactly in integers, at most n_i (0 where a row has no count).

    >>> cell_counts(np.array([[3, 1], [0, 2]]), np.array([4, 2])).tolist()
    [[3, 1], [0, 2]]
    """
    k = c.shape[0]
    rows = c.sum(axis=1)
    counted = rows > 0
    n = int(n_given.sum())
    s = int(n_given[counted].sum())
    out = np.zeros((k, k), dtype=np.int64)
    for i in range(k):
        if not counted[i]:
            continue
        for j in range(k):
            num = n * int(n_given[i]) * int(c[i, j])
            den = int(rows[i]) * s
            out[i, j] = min((2 * num + den) // (2 * den), int(n_given[i]))
    return out


def matrices(c: np.ndarray, n_given: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """From the confident joint C and the label counts: C̃, Q, the noise matrix (NaN columns where Q's column sums
    to 0) and the count per off-diagonal cell (0 on the diagonal)."""
    k = c.shape[0]
    rowsum = c.sum(axis=1)
    calibrated = np.where(rowsum[:, None] > 0, c / np.maximum(rowsum, 1)[:, None] * n_given[:, None], 0.0)
    total = calibrated.sum()
    joint = calibrated / total if total > 0 else np.zeros((k, k))
    colsum = joint.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        noise = np.where(colsum[None, :] > 0, joint / np.where(colsum > 0, colsum, 1)[None, :], np.nan)
    counts = cell_counts(c, n_given)
    np.fill_diagonal(counts, 0)
    return calibrated, joint, noise, counts


def confident_learning(given: np.ndarray, p: np.ndarray, order: np.ndarray | None = None,
                       rank_by: str = "self_confidence") -> ConfidentLearning:
    """The rule on class codes ``given`` (n,) in [0, k) and probabilities ``p`` (n, k); ``order`` (n,) the rank
    of each row's id among the ids (None: the row), the tie-break after the value.

    >>> g = np.array([0, 0, 0, 1, 1, 1])
    >>> p = np.array([[1, 0], [.75, .25], [.25, .75], [.25, .75], [0, 1], [.5, .5]])
    >>> r = confident_learning(g, p)
    >>> r.thresholds.tolist(), r.confident_joint.tolist()
    ([0.6666666666666666, 0.75], [[2, 1], [0, 2]])
    >>> r.flagged_rows.tolist(), r.suggested.tolist()
    ([2], [1])
    """
    n, k = p.shape
    given = np.asarray(given, dtype=np.int64)
    rows = np.arange(n, dtype=np.int64)
    tie = rows if order is None else np.asarray(order, dtype=np.int64)
    n_given = np.bincount(given, minlength=k).astype(np.int64)
    # t_j: the exact sum of the self-confidences given label j, divided once and correctly rounded (the same bits
    # in any order or split of the items)
    sums = grouped_sums(p[rows, given], given, k)
    thresholds = np.array([s.divided(int(m)) if m else np.nan for s, m in zip(sums, n_given, strict=True)],
                          dtype=np.float64)
    # the confident joint: among the classes at or above their threshold, the largest probability (argmax takes the
    # first, the lower class, on equal values); classes below (or without) a threshold are masked to -1
    above = at_or_above(p, thresholds, [s.fraction() for s in sums], n_given)
    masked = np.where(above, p, -1.0)
    best = np.argmax(masked, axis=1) if k else np.zeros(n, dtype=np.int64)
    counted = above.any(axis=1)
    c = np.bincount(given[counted] * k + best[counted], minlength=k * k).astype(np.int64).reshape(k, k)
    calibrated, joint, noise, counts = matrices(c, n_given)
    cell_flagged = np.zeros((k, k), dtype=np.int64)
    # every flagged (row, class, margin); an item in two cells keeps the cell of its largest margin
    best_margin = np.full(n, -np.inf)
    suggested = np.full(n, -1, dtype=np.int64)
    by_given = np.argsort(given, kind="stable")  # the rows given each label, in row order
    bounds = np.searchsorted(given[by_given], np.arange(k + 1))
    for i in range(k):
        members = by_given[bounds[i]:bounds[i + 1]]
        if not counts[i].any():
            continue
        rows_i = p[members]  # the rows given i, gathered once for all of the row's cells
        for j in range(k):
            m = int(counts[i, j])
            if i == j or m == 0:
                continue
            pick = top_margins(rows_i[:, j] - rows_i[:, i], members, tie, m)
            cell_flagged[i, j] = pick.size
            mj = p[pick, j] - p[pick, i]
            better = mj > best_margin[pick]  # classes in increasing order: equal margins keep the lower class
            best_margin[pick[better]] = mj[better]
            suggested[pick[better]] = j
    flagged = np.flatnonzero(suggested >= 0)
    own = p[flagged, given[flagged]]
    others = p[flagged].copy()
    others[np.arange(flagged.size), given[flagged]] = -np.inf
    margin_f = own - (others.max(axis=1) if k > 1 else np.zeros(flagged.size))
    key = own if rank_by == "self_confidence" else margin_f
    ranked = np.lexsort((flagged, tie[flagged], key))
    flagged = flagged[ranked]
    return ConfidentLearning(n_given, thresholds, c, calibrated, joint, noise, counts, cell_flagged, flagged,
                             given[flagged], suggested[flagged], own[ranked], margin_f[ranked])


def top_margins(margin: np.ndarray, members: np.ndarray, tie: np.ndarray, m: int) -> np.ndarray:
    """The ``m`` rows of ``members`` with the largest ``margin`` (equal margins: the smaller ``tie``, then the
    smaller row), in no particular order: the m-th largest margin found by a partial sort, the rows above it
    taken, and only the rows equal to it sorted by the tie-break (a full sort of every cell's rows is what this
    avoids: it took most of the rule's time at 1e6 items).

    >>> top_margins(np.array([.5, .9, .5, .1]), np.array([10, 11, 12, 13]), np.arange(14)[::-1], 2).tolist()
    [11, 12]
    """
    size = members.size
    if m >= size:
        return members
    kth = np.partition(margin, size - m)[size - m]
    above = margin > kth
    need = m - int(np.count_nonzero(above))
    equal = np.flatnonzero(margin == kth)
    if need < equal.size:
        rows = members[equal]
        equal = equal[np.lexsort((rows, tie[rows]))[:need]]
    return np.concatenate([members[above], members[equal]])


def at_or_above(p: np.ndarray, thresholds: np.ndarray, sums: list[Fraction], n_given: np.ndarray) -> np.ndarray:
    """p̂_j(x) ≥ t_j, compared exactly: t_j is the exact sum over n_j (a fraction), of which ``thresholds`` holds the
    correctly rounded value. A probability above or below the rounded value is above or below the exact one (the
    exact value lies within half a unit of it); one equal to it is compared as a fraction."""
    t = np.where(np.isnan(thresholds), np.inf, thresholds)[None, :]
    above = p > t
    for r, j in zip(*np.nonzero(p == t), strict=True):
        above[r, j] = Fraction(float(p[r, j])) * int(n_given[j]) >= sums[j]
    return above


def id_order(ids: Any) -> np.ndarray:
    """The rank of each id among the ids (equal ids share one), the tie-break by id."""
    arr = np.asarray(ids)
    _, inverse = np.unique(arr, return_inverse=True)
    return np.asarray(inverse, dtype=np.int64).reshape(-1)
