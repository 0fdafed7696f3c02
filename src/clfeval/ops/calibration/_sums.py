"""The one accumulator of calibration: :class:`CalibrationSums`, additive, the same bits in any order.

Every calibration counts through it: ``update(batch)`` with the checked batches of a PATH (the engine runs it:
one accumulator streamed here, one per group of partitions on Dask, added in a tree), the in-memory
``reliability`` (one batch of arrays, binary or top-label) and ``calibration --by`` (one per slice); ``+`` adds
two; :meth:`CalibrationSums.finish` gives the :class:`~clfeval.ops.calibration.Calibration`. How a batch gives its
items (the probability columns, the positive label, how messages name them) is the ``read`` it was made with
(``clfeval.scores.ProbabilityColumns``): this module knows no column. It holds counting state only:

* equal-width bins (``uniform``): per bin the item count, the positives (hits) and the exact sum of the
  confidences (:func:`~clfeval.core.grouped_sums`: integers of 2^-1074, so no split of the items changes a bit);
* equal-mass bins (``quantile``): the (confidence, outcome) arrays themselves, since their edges are order
  statistics of every item;
* always the exact sums of the squared errors (Brier) and of the log losses;
* the gold labels seen and the positive label as found (binary): a positive that never occurs is refused,
  naming the labels there are.

Equal-mass bins are the one part that is not counting: their edges are exact order statistics of every item, the
multi-pass exception of an exact ranking (its range planner: ``clfeval/core/_rangeplan.py``). They keep every
(confidence, outcome) until :meth:`~CalibrationSums.finish`, in memory, as they always have (the Dask engine
refuses them: the capability table, ``clfeval/engines/_capabilities.py``). The ROC-AUC and average precision beside
the bins are that exception too: the ranking computes them (:func:`clfeval.ranking`) and :meth:`finish` takes them.

Bins, two edge conventions: ``clfeval`` puts a value v in bin min(⌊v·B⌋, B − 1) (left-closed, empty bins kept);
``sklearn`` as scikit-learn's ``calibration_curve``, right-closed on the float edges (``numpy.linspace(0, 1, B+1)``,
or the percentiles of the values for ``quantile``), empty bins dropped. :meth:`CalibrationSums.finish` gives the
result (the reliability table, ECE, MCE, Brier score and log loss: :meth:`CalibrationSums.reliability`,
:func:`reliability_rows`).

>>> import numpy as np
>>> y, p = np.array([True, False, True, False]), np.array([0.6, 0.4, 0.6, 0.4])
>>> s = CalibrationSums.of(y[:2], p[:2], bins=10) + CalibrationSums.of(y[2:], p[2:], bins=10)
>>> f = s.finish(); f.n, round(f.ece, 4), round(f.brier, 4)
(4, 0.4, 0.16)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from clfeval.core import ExactSum, grouped_sums, resolve_label
from clfeval.errors import DataError
from clfeval.ops.calibration._result import Calibration, CalibrationBin
from clfeval.ops.calibration._words import EPS, calibration_words

if TYPE_CHECKING:
    from clfeval.core import RankingSummary

__all__ = ["EPS", "CalibrationSums", "Read", "Reliability", "binary_losses", "quantile_bins", "reliability_rows"]


def binary_losses(outcome: np.ndarray, conf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per item: the squared error (p − y)² and the log-likelihood log p(y), p clipped to [EPS, 1 − EPS]."""
    pc = np.clip(conf, EPS, 1.0 - EPS)
    return (conf - outcome.astype(np.float64)) ** 2, np.where(outcome, np.log(pc), np.log1p(-pc))


def _uniform_bin(conf: np.ndarray, bins: int, edges: str) -> np.ndarray:
    """The equal-width bin of every value, in either edge convention."""
    if edges == "sklearn":  # right-closed on the float edges, as calibration_curve
        return np.searchsorted(np.linspace(0.0, 1.0, bins + 1)[1:-1], conf).astype(np.int64)
    idx: np.ndarray = np.minimum(np.floor(conf * bins).astype(np.int64), bins - 1)
    return idx


def _sums(values: np.ndarray, group: np.ndarray, n_groups: int) -> list[ExactSum]:
    """One exact sum per group (one group: a plain :class:`~clfeval.core.ExactSum`, faster than grouping)."""
    return [ExactSum().add(values)] if n_groups == 1 else grouped_sums(values, group, n_groups)


def _uniform_edges(bins: int, edges: str) -> tuple[np.ndarray, np.ndarray]:
    cuts = np.linspace(0.0, 1.0, bins + 1) if edges == "sklearn" else np.arange(bins + 1) / bins
    return cuts[:-1], cuts[1:]


def quantile_bins(conf: np.ndarray, bins: int, edges: str = "clfeval") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Equal-mass bins of ``conf``: (bin of each item, lower edges, upper edges).

    ``clfeval``: bin k starts at the (k·N // B)-th smallest value, ties kept together (fewer than B bins may
    result); ``sklearn``: edges the percentiles ``numpy.percentile(conf, linspace(0, 100, B + 1))``, right-closed.
    """
    if edges == "sklearn":
        cuts = np.percentile(conf, np.linspace(0, 1, bins + 1) * 100)
        return np.searchsorted(cuts[1:-1], conf).astype(np.int64), cuts[:-1], cuts[1:]
    ordered = np.sort(conf)
    n = ordered.shape[0]
    lo, hi = float(ordered[0]), float(ordered[-1])
    # bin k starts at the (k·n // B)-th smallest value: B groups of n/B items, ties kept together
    interior = np.unique(ordered[(np.arange(1, bins) * n) // bins])
    interior = interior[(interior > lo)]
    idx = np.searchsorted(interior, conf, side="right")
    return idx.astype(np.int64), np.concatenate([[lo], interior]), np.concatenate([interior, [hi]])


def reliability_rows(count: Any, hits: Any, conf_sum: Any, lower: Any,
                     upper: Any) -> tuple[list[dict[str, Any]], float, float]:
    """The reliability table, ECE and MCE from per-bin counts, positives (hits) and exact confidence sums.

    ``conf_sum(b)`` is the exact sum of bin b's confidences (a ``Fraction``). Every gap is computed
    exactly, n_b·|acc_b − conf_b| = |hits_b − Σ conf|, and rounded once, so that any split of the items
    into batches, files or partitions gives the same bits.

    >>> rows, ece, mce = reliability_rows([2, 0], [1, 0], lambda b: Fraction(3, 2), [0.0, 0.5], [0.5, 1.0])
    >>> rows[0]["gap"], ece, mce
    (0.25, 0.25, 0.25)
    """
    table, dev_total, mce, n = [], Fraction(0), Fraction(-1), 0
    for b in range(len(count)):
        c = int(count[b])
        n += c
        row = {"lower": float(lower[b]), "upper": float(upper[b]), "count": c}
        if c:
            s_conf, s_hit = conf_sum(b), int(hits[b])
            dev = abs(s_hit - s_conf)  # n_b·|acc_b − conf_b|, exactly
            dev_total += dev
            mce = max(mce, dev / c)
            row.update(confidence=float(s_conf / c), accuracy=s_hit / c, gap=float(dev / c))
        else:
            row.update(confidence=math.nan, accuracy=math.nan, gap=math.nan)
        table.append(row)
    return table, (float(dev_total / n) if n else math.nan), (float(mce) if n else math.nan)


class Reliability(NamedTuple):
    """What :meth:`CalibrationSums.finish` gives: the table's rows (``sklearn`` edges: the non-empty ones), the
    number of bins formed, ECE, MCE, Brier score and log loss of the ``n`` items."""

    rows: list[dict[str, Any]]
    formed: int
    ece: float
    mce: float
    brier: float
    log_loss: float
    n: int


class Read(NamedTuple):
    """The items of one batch as the sums take them (:meth:`CalibrationSums.add`): what ``read(batch)`` gives."""

    outcome: np.ndarray
    """bool per item: the positive class (binary), the top label correct (top-label)."""
    conf: np.ndarray
    """The confidence per item: the probability of the positive class, or the top label's."""
    kind: str
    """``binary`` or ``top-label``."""
    sq: np.ndarray | None = None
    """The squared error per item (None: binary's, from ``outcome`` and ``conf``)."""
    loss: np.ndarray | None = None
    """The log-likelihood per item (None: binary's)."""
    labels: tuple[str, ...] = ()
    """Binary: the gold labels occurring in the batch, as text."""
    positive: str | None = None
    """Binary: the positive label as the batch holds it (None: it does not occur in the batch)."""


@dataclass
class CalibrationSums:
    """The calibration sums of a set of items (see the module docstring); two of them add (``+``, :meth:`merge`).

    Attributes
    ----------
    bins, strategy, edges
        The number of bins B asked for, ``uniform`` or ``quantile``, ``clfeval`` or ``sklearn`` edges.
    count, hits, conf
        Per equal-width bin: the items, the positives and the exact sum of the confidences (zeros for ``quantile``).
    sq, loss
        The exact sums of the squared errors and of the log-likelihoods (the log loss is −loss/n).
    kept
        The (confidence, outcome) arrays of equal-mass bins (``quantile``; empty for ``uniform``).
    read
        How a batch gives its items, a picklable ``read(batch) -> Read`` (None: sums fed by :meth:`add` only).
    kind, positive, seen
        ``binary`` or ``top-label`` (None before any batch); binary: the positive label as found (None: not yet)
        and the gold labels seen, in the order first seen.
    """

    bins: int
    strategy: str
    edges: str
    count: np.ndarray
    hits: np.ndarray
    conf: list[ExactSum]
    sq: ExactSum = field(default_factory=ExactSum)
    loss: ExactSum = field(default_factory=ExactSum)
    kept: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    read: Callable[[object], Read] | None = field(default=None, repr=False, compare=False)
    kind: str | None = None
    positive: str | None = None
    seen: dict[str, None] = field(default_factory=dict)

    @classmethod
    def empty(cls, bins: int, strategy: str = "uniform", edges: str = "clfeval", *,
              read: Callable[[object], Read] | None = None) -> CalibrationSums:
        """The sums of no items (``strategy``: ``uniform`` or ``quantile``; ``edges``: ``clfeval`` or ``sklearn``;
        ``read``: how a batch gives its items, for :meth:`update`)."""
        return cls(bins, strategy, edges, np.zeros(bins, dtype=np.int64), np.zeros(bins, dtype=np.int64),
                   [ExactSum() for _ in range(bins)], read=read)

    @classmethod
    def of(cls, outcome: np.ndarray, conf: np.ndarray, *, bins: int, strategy: str = "uniform",
           edges: str = "clfeval", sq: np.ndarray | None = None, loss: np.ndarray | None = None) -> CalibrationSums:
        """The sums of one batch: ``outcome`` (bool: positive, or top label correct) and ``conf`` per item;
        ``sq`` and ``loss`` the per-item squared error and log-likelihood (default: binary's,
        :func:`binary_losses`; top-label gives its own, summed over the classes)."""
        (one,) = cls.grouped(outcome, conf, np.zeros(conf.shape[0], dtype=np.int64), 1, bins=bins,
                             strategy=strategy, edges=edges, sq=sq, loss=loss)
        return one

    @classmethod
    def grouped(cls, outcome: np.ndarray, conf: np.ndarray, group: np.ndarray, n_groups: int, *, bins: int,
                strategy: str = "uniform", edges: str = "clfeval", sq: np.ndarray | None = None,
                loss: np.ndarray | None = None) -> list[CalibrationSums]:
        """The sums of every group of one batch at once (``group[i]`` in 0 … n_groups − 1: a slice), each the
        same bits as :meth:`of` of the group's items alone."""
        if sq is None or loss is None:
            sq, loss = binary_losses(outcome, conf)
        sqs, losses = _sums(sq, group, n_groups), _sums(loss, group, n_groups)
        if strategy == "quantile":
            if n_groups == 1:
                split = [(conf, outcome)]
            else:
                order = np.argsort(group, kind="stable")
                cuts = np.cumsum(np.bincount(group, minlength=n_groups))[:-1]
                split = list(zip(np.split(conf[order], cuts), np.split(outcome[order], cuts), strict=True))
            out = [cls.empty(bins, strategy, edges) for _ in range(n_groups)]
            for one, s, lo, (c, o) in zip(out, sqs, losses, split, strict=True):
                one.sq, one.loss, one.kept = s, lo, ([(c, o)] if c.size else [])
            return out
        idx = _uniform_bin(conf, bins, edges)
        cell = idx if n_groups == 1 else group * bins + idx
        size = n_groups * bins
        count = np.bincount(cell, minlength=size).reshape(n_groups, bins)
        hits = np.bincount(cell[outcome], minlength=size).reshape(n_groups, bins)
        sums = grouped_sums(conf, cell, size)
        return [cls(bins, strategy, edges, count[g], hits[g], sums[g * bins:(g + 1) * bins], sqs[g], losses[g])
                for g in range(n_groups)]

    def update(self, batch: Any) -> None:
        """Add one checked batch (a :class:`clfeval.io.PredictionBatch`, or arrays in memory), read by ``read``."""
        if self.read is None:
            raise TypeError("these calibration sums were made without read=: add(Read(...)) feeds them")
        self.add(self.read(batch))

    def add(self, items: Read) -> None:
        """Add the items of one batch (as :meth:`of`), in place."""
        self.merge(self.of(items.outcome, items.conf, bins=self.bins, strategy=self.strategy, edges=self.edges,
                           sq=items.sq, loss=items.loss))
        self.kind = items.kind
        self.seen.update(dict.fromkeys(items.labels))
        if items.positive is not None:
            self.positive = items.positive

    def merge(self, other: CalibrationSums) -> CalibrationSums:
        """Add ``other`` into these sums (in place); returns self."""
        self.count = self.count + other.count
        self.hits = self.hits + other.hits
        for mine, more in zip(self.conf, other.conf, strict=True):
            mine.merge(more)
        self.sq.merge(other.sq)
        self.loss.merge(other.loss)
        self.kept = self.kept + other.kept
        self.kind, self.positive = other.kind or self.kind, other.positive or self.positive
        self.seen.update(other.seen)
        self.read = self.read or other.read
        return self

    def __add__(self, other: CalibrationSums) -> CalibrationSums:
        return CalibrationSums(self.bins, self.strategy, self.edges, self.count + other.count,
                               self.hits + other.hits, [a + b for a, b in zip(self.conf, other.conf, strict=True)],
                               self.sq + other.sq, self.loss + other.loss, self.kept + other.kept,
                               self.read or other.read, other.kind or self.kind, other.positive or self.positive,
                               self.seen | other.seen)

    @property
    def n(self) -> int:
        """The number of items summed."""
        if self.strategy == "quantile":
            return sum(int(c.size) for c, _ in self.kept)
        return int(self.count.sum())

    @property
    def positives(self) -> int:
        """The number of positive (or correct) items."""
        if self.strategy == "quantile":
            return sum(int(np.count_nonzero(o)) for _, o in self.kept)
        return int(self.hits.sum())

    def check(self) -> None:
        """Refuse sums that cannot be finished: no items; binary, a positive label that never occurred (the
        message lists the gold labels seen)."""
        if self.n == 0:
            raise DataError("there are no items to calibrate.")
        if self.kind == "binary" and self.positive is None:
            resolve_label(getattr(self.read, "positive", None), list(self.seen), option="positive",
                          source="the gold labels")

    def finish(self, ranking: RankingSummary | None = None, *, memory: int | None = None) -> Calibration:
        """The calibration of the items summed (see :meth:`check`): the reliability table and measures, with
        the ROC-AUC and average precision of ``ranking`` (binary: the exact ranking of the same items, computed
        apart, see the module notes; ``memory``: the budget its note states when it spilled)."""
        self.check()
        rel = self.reliability()
        kind = self.kind or "binary"
        auc = ap = None
        if ranking is not None:
            auc, ap = ranking.roc_auc, ranking.average_precision
        notes, sig = calibration_words(kind, self.positive, strategy=self.strategy, edges=self.edges, bins=self.bins,
                                       formed=rel.formed, spilled=bool(ranking is not None and ranking.spilled),
                                       memory=memory)
        return Calibration(kind, self.positive if kind == "binary" else None, rel.n, self.strategy, rel.formed,
                           tuple(CalibrationBin.of(row) for row in rel.rows), rel.ece, rel.mce, rel.brier,
                           rel.log_loss, EPS, auc, ap, tuple(notes), sig, self.edges)

    def reliability(self) -> Reliability:
        """The reliability table, ECE, MCE, Brier score and log loss of the items summed (at least one)."""
        n = self.n
        if self.strategy == "quantile":  # the bins of every kept item, each a sum like an equal-width bin's
            conf = np.concatenate([c for c, _ in self.kept])
            outcome = np.concatenate([o for _, o in self.kept])
            idx, lower, upper = quantile_bins(conf, self.bins, self.edges)
            k = lower.shape[0]
            count, hits, sums = np.bincount(idx, minlength=k), np.bincount(idx[outcome], minlength=k), \
                grouped_sums(conf, idx, k)
        else:
            (lower, upper), count, hits, sums = _uniform_edges(self.bins, self.edges), self.count, self.hits, self.conf
        rows, ece, mce = reliability_rows(count, hits, lambda b: sums[b].fraction(), lower, upper)
        if self.edges == "sklearn":  # calibration_curve drops the empty bins
            rows = [row for row in rows if row["count"]]
        return Reliability(rows, int(lower.shape[0]), ece, mce, float(self.sq.fraction() / n),
                           float(-self.loss.fraction() / n), n)
