"""Confident learning streamed in passes, within a memory budget and on a cluster: the same answer as
:func:`~clfeval.ops.label_issues._rule.confident_learning` on every item in memory, however the input is split.

Each pass is an accumulator (``update(batch)``, ``a + b`` in input order, ``finish()``; it pickles) that the engine
runs over every batch of the PATH:

1. :class:`ThresholdSums`: per given label its exact sum of self-confidences and its count (the thresholds), and
   the rows of each file (the global row of an item is its file's offset plus its row in the file);
2. :class:`JointCounts`: the confident joint C, given the thresholds;
3. :class:`CellCuts`: in every off-diagonal cell (i, j) with round(n · Q[i][j]) = m > 0, the m items given i with
   the largest margin p̂_j − p̂_i (equal: id, then row), kept as a bounded selection merged batch by batch; the
   flagged items follow from them (:func:`flagged_of`).

``read(batch)`` turns a batch into (given class codes, probabilities (m, k), ids or None, file number, first row
in the file): the front door's reader, which checks the probabilities as the in-memory path does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from clfeval.core import ExactSums
from clfeval.ops.label_issues._rule import ConfidentLearning, at_or_above, matrices

__all__ = ["ThresholdSums", "Thresholds", "JointCounts", "CellCuts", "flagged_of", "Read"]

#: A batch as (given codes, probabilities, ids or None, file number, first row of the batch in its file).
Read = Callable[[Any], tuple[np.ndarray, np.ndarray, Any, int, int]]


@dataclass(frozen=True)
class Thresholds:
    """What pass 1 found.

    Attributes
    ----------
    n_given : numpy.ndarray
        The items given each label.
    thresholds : numpy.ndarray
        t_j correctly rounded (NaN: no item is given label j).
    exact : list of Fraction
        Each label's exact sum of self-confidences (t_j = exact[j] / n_given[j], compared exactly).
    offsets : dict
        Each file's number → the global row of its first row.
    """

    n_given: np.ndarray
    thresholds: np.ndarray
    exact: list[Fraction]
    offsets: dict[int, int]


@dataclass
class ThresholdSums:
    """Pass 1: per label the exact sum of the self-confidences of the items given it, and their count; the rows
    of each file.

    Attributes
    ----------
    read : callable
        A batch → (given, probabilities, ids, file number, first row).
    k : int
        The classes.
    sums : ExactSums
        Per label the exact sum of p̂_j over the items given j.
    n_given : numpy.ndarray
        Per label its items.
    rows : dict
        Per file number its rows so far.
    """

    read: Read
    k: int
    sums: ExactSums = field(init=False)
    n_given: np.ndarray = field(init=False)
    rows: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.sums = ExactSums(self.k)
        self.n_given = np.zeros(self.k, dtype=np.int64)

    def update(self, batch: Any) -> None:
        given, p, _, file_no, _ = self.read(batch)
        self.sums.add(p[np.arange(given.size), given], given)
        self.n_given += np.bincount(given, minlength=self.k)
        self.rows[file_no] = self.rows.get(file_no, 0) + int(given.size)

    def __add__(self, other: ThresholdSums) -> ThresholdSums:
        self.sums.merge(other.sums)
        self.n_given = self.n_given + other.n_given
        for f, m in other.rows.items():
            self.rows[f] = self.rows.get(f, 0) + m
        return self

    def finish(self) -> Thresholds:
        exact = [self.sums.fraction(j) for j in range(self.k)]
        t = np.array([float(exact[j] / int(m)) if m else np.nan for j, m in enumerate(self.n_given)],
                     dtype=np.float64)
        offsets, at = {}, 0
        for f in sorted(self.rows):
            offsets[f] = at
            at += self.rows[f]
        return Thresholds(self.n_given, t, exact, offsets)


@dataclass
class JointCounts:
    """Pass 2: the confident joint C given the thresholds.

    Attributes
    ----------
    read : callable
        A batch → (given, probabilities, ids, file number, first row).
    t : Thresholds
        Pass 1's result.
    c : numpy.ndarray
        The confident joint so far (k × k).
    """

    read: Read
    t: Thresholds
    c: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        k = self.t.n_given.size
        self.c = np.zeros((k, k), dtype=np.int64)

    def update(self, batch: Any) -> None:
        given, p, _, _, _ = self.read(batch)
        above = at_or_above(p, self.t.thresholds, self.t.exact, self.t.n_given)
        best = np.argmax(np.where(above, p, -1.0), axis=1)
        counted = above.any(axis=1)
        np.add.at(self.c, (given[counted], best[counted]), 1)

    def __add__(self, other: JointCounts) -> JointCounts:
        self.c = self.c + other.c
        return self


def _top(rows: np.ndarray, ids: Any, margin: np.ndarray, m: int) -> np.ndarray:
    """The positions of the m largest margins, equal ones by id, then row."""
    keys = (rows, -margin) if ids is None else (rows, ids, -margin)
    return np.lexsort(keys)[:m]


@dataclass
class CellCuts:
    """Pass 3: in every off-diagonal cell with a count m, the m items given i with the largest margin p̂_j − p̂_i
    (equal: id, then row), each with its row, id, margin, self-confidence and normalised margin.

    Attributes
    ----------
    read : callable
        A batch → (given, probabilities, ids, file number, first row).
    t : Thresholds
        Pass 1's result (the files' offsets).
    counts : numpy.ndarray
        round(n · Q[i][j]) per cell (0 on the diagonal).
    kept : dict
        Per cell (i, j) the selection so far: arrays ``row``, ``id`` (None without ids), ``margin``, ``self``,
        ``norm``.
    """

    read: Read
    t: Thresholds
    counts: np.ndarray
    kept: dict[tuple[int, int], dict[str, np.ndarray | None]] = field(default_factory=dict)

    def update(self, batch: Any) -> None:
        given, p, ids, file_no, start = self.read(batch)
        rows = self.t.offsets[file_no] + start + np.arange(given.size, dtype=np.int64)
        idv = None if ids is None else np.asarray(ids)
        if idv is not None and idv.dtype == object:  # text ids: compared as text (lexsort needs a fixed type)
            idv = idv.astype(str)
        k = p.shape[1]
        for i, j in zip(*np.nonzero(self.counts), strict=True):
            members = np.flatnonzero(given == i)
            if members.size == 0:
                continue
            margin = p[members, j] - p[members, i]
            own = p[members, i]
            others = p[members].copy()
            others[:, i] = -np.inf
            part = {"row": rows[members], "id": None if idv is None else idv[members], "margin": margin,
                    "self": own, "norm": own - (others.max(axis=1) if k > 1 else 0.0)}
            self._keep((int(i), int(j)), part)

    def _keep(self, cell: tuple[int, int], part: dict[str, Any]) -> None:
        old = self.kept.get(cell)
        if old is not None:
            part = {key: (None if old[key] is None else np.concatenate([old[key], part[key]])) for key in part}
        pick = _top(part["row"], part["id"], part["margin"], int(self.counts[cell]))
        self.kept[cell] = {key: (None if v is None else v[pick]) for key, v in part.items()}

    def __add__(self, other: CellCuts) -> CellCuts:
        for cell, part in other.kept.items():
            self._keep(cell, part)
        return self


def flagged_of(t: Thresholds, c: np.ndarray, cuts: CellCuts, rank_by: str) -> tuple[ConfidentLearning, Any]:
    """The rule's arrays from the three passes, and each flagged row's id (a mapping row → id, or None)."""
    calibrated, joint, noise, counts = matrices(c, t.n_given)
    k = c.shape[0]
    cell_flagged = np.zeros((k, k), dtype=np.int64)
    best: dict[int, tuple[float, int, int, Any, float, float]] = {}  # row → margin, suggested, given, id, self, norm
    for (i, j) in sorted(cuts.kept):  # classes in increasing order: equal margins keep the lower class
        part: dict[str, Any] = cuts.kept[(i, j)]
        cell_flagged[i, j] = part["row"].size
        for n in range(part["row"].size):
            row, margin = int(part["row"][n]), float(part["margin"][n])
            if row not in best or margin > best[row][0]:
                ident = None if part["id"] is None else part["id"][n]
                best[row] = (margin, j, i, ident, float(part["self"][n]), float(part["norm"][n]))
    rows = np.array(sorted(best), dtype=np.int64)
    own = np.array([best[r][4] for r in rows], dtype=np.float64)
    norm = np.array([best[r][5] for r in rows], dtype=np.float64)
    key = own if rank_by == "self_confidence" else norm
    has_ids = any(part["id"] is not None for part in cuts.kept.values())
    ids = np.array([best[int(r)][3] for r in rows]) if has_ids and best else None
    order = np.lexsort((rows, key) if ids is None else (rows, ids, key))
    rows, own, norm = rows[order], own[order], norm[order]
    cl = ConfidentLearning(t.n_given, t.thresholds, c, calibrated, joint, noise, counts, cell_flagged, rows,
                           np.array([best[int(r)][2] for r in rows], dtype=np.int64),
                           np.array([best[int(r)][1] for r in rows], dtype=np.int64), own, norm)
    return cl, (None if ids is None else {int(r): best[int(r)][3] for r in rows})
