"""Calibration: does a predicted 0.9 come true nine times in ten?

Predictions are grouped by confidence into bins; each bin's mean confidence
is compared with what was observed in it (the reliability table and diagram).

* Binary: the confidence is the probability of the positive class and the
  observation the frequency of positives in the bin.
* Multiclass with one probability column per class: the confidence is the
  top-label probability (the largest in the row, first column on ties) and
  the observation the accuracy of the top label in the bin.

Bins: ``uniform`` — B equal-width bins, value v goes to bin
min(⌊v·B⌋, B − 1) (so 1.0 falls in the last bin); ``quantile`` — equal-mass
bins: bin k starts at the (k·N // B)-th smallest confidence, so each holds
N/B items (tied values stay in one bin, so bins may differ in size and fewer
than B bins may result).

Measures
--------
* ECE = Σ_b (n_b / N)·|acc_b − conf_b| (empty bins weigh 0);
* MCE = max_b |acc_b − conf_b| over non-empty bins;
* Brier score = mean (p − y)² (binary), mean Σ_k (p_k − y_k)² (multiclass);
* log loss = −mean log p(gold), probabilities clipped to [ε, 1 − ε] with ε the
  float64 machine epsilon (2.22e-16), so that a confident miss is a large
  finite number (at most −log ε ≈ 36.04), never an infinity that breaks JSON.

Ranking metrics do not see any of this: they depend on the order only.

Scores outside [0, 1] are refused: they are not probabilities.

The library function is :func:`reliability` (exported as ``clfeval.reliability``;
a function named like this module would be shadowed by it).

References
----------
* Brier (1950), "Verification of forecasts expressed in terms of probability".
* DeGroot & Fienberg (1983), reliability diagrams.
* Naeini, Cooper & Hauskrecht (2015), ECE and MCE; Guo et al. (2017),
  "On calibration of modern neural networks" (top-label confidence).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import check_positive_int, encode_labels, label_str, resolve_label
from clfeval.errors import DataError, UsageError
from clfeval.ops.calibration import EPS, Calibration, CalibrationSums, Read, calibration_words, reliability_rows
from clfeval.scores._columns import DEFAULT_SOURCE, ScoreSource, as_probabilities, check_probabilities, score_matrix
from clfeval.scores._curves import indicator_gold
from clfeval.scores._external import DEFAULT_MEMORY, RankingStore, parse_memory

__all__ = ["Calibration", "Calibrator", "ProbabilityColumns", "reliability", "reliability_rows", "calibration_words",
           "check_bins", "check_rows_sum_to_one", "EPS", "STRATEGIES", "EDGES", "MAX_BINS", "ROW_SUM_TOLERANCE"]

STRATEGIES = ("uniform", "quantile")
#: Bin edge rules: clfeval's left-closed bins (empty bins kept), or scikit-learn's ``calibration_curve`` rule
#: (right-closed on float edges, empty bins dropped).
EDGES = ("clfeval", "sklearn")
ROW_SUM_TOLERANCE = 0.01
MAX_BINS = 100_000
"""Most bins of a reliability table. Time and memory grow linearly with the number of bins (every bin is
a row of the JSON table); at this many bins even ten million items leave only 100 per bin."""


def check_rows_sum_to_one(p: np.ndarray, where: Callable[[int], str], purpose: str) -> None:
    """Every row of an (n, K) matrix of class probabilities sums to 1 within :data:`ROW_SUM_TOLERANCE`; the first
    row that does not is refused, named by ``where(i)``, saying what needs it (``purpose``)."""
    sums = p.sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1.0) > ROW_SUM_TOLERANCE)
    if bad.size:
        i = int(bad[0])
        raise DataError(f"the probability columns of {where(i)} sum to {sums[i]:.6g}, not 1; {purpose} needs one "
                        f"probability distribution over the classes per item.")


def check_bins(bins: Any, *, option: str = "bins") -> int:
    """The number of bins: an integer from 1 to :data:`MAX_BINS`."""
    n_bins = check_positive_int(bins, option=option)
    if n_bins > MAX_BINS:
        raise UsageError(lambda name: f"option {name} must be at most {MAX_BINS:,}; got {n_bins:,}. Time and memory "
                                      f"grow with the number of bins, and at {MAX_BINS:,} bins even ten million items "
                                      f"leave only 100 per bin.", params=[option])
    return n_bins


@dataclass(frozen=True)
class ProbabilityColumns:
    """How a batch gives a calibration its items (the ``read`` of :class:`~clfeval.ops.calibration.CalibrationSums`):
    picklable, so that the same reading runs on every engine.

    ``prob`` names the one probability column of a batch's ``extra`` (binary, with ``positive``); ``prefix`` the
    columns ``prefix<class>`` (top-label: every extra column). Arrays in memory go to :meth:`read` directly (one
    probability per item, a mapping class → column, or an (n, K) matrix whose classes are ``labels``).
    ``source`` names the columns and items in messages (``batch.where`` names the file and row when it has one).
    """

    positive: Any = None
    labels: tuple[Any, ...] | None = None
    prob: str | None = None
    prefix: str | None = None
    source: ScoreSource = DEFAULT_SOURCE

    def __call__(self, batch: Any) -> Read:
        if self.prob is not None:
            probs = batch.extra[self.prob]
        else:
            probs = {c[len(self.prefix or ""):]: col for c, col in batch.extra.items()}
        return self.read(batch.gold, probs, getattr(batch, "where", None) or self.source.where)

    def read(self, gold: Any, probs: Any, where: Callable[[int], str]) -> Read:
        """The items of one batch: gold labels and their probabilities (one column, or one per class);
        ``where(i)`` names the batch's item i in messages."""
        name, prefix = self.source.column("probabilities"), self.source.prefix
        if isinstance(probs, dict) or (isinstance(probs, np.ndarray) and probs.ndim == 2):
            if self.positive is not None:
                raise UsageError("give positive with one probability column (binary), or one probability column per "
                                 "class (multiclass, top-label calibration), not both.")
            p, col_labels = score_matrix(probs, labels=self.labels, where=where, prefix=prefix)
            for j, lab in enumerate(col_labels):
                check_probabilities(p[:, j], name=f"{prefix}{label_str(lab)}", where=where)
            # a gold class without its column first: its missing probabilities are why a row sums to less than 1
            y = indicator_gold(gold, col_labels, multilabel=False, prefix=prefix)
            if y.shape[0] != p.shape[0]:
                raise DataError(f"gold has {y.shape[0]} items but the probability columns have {p.shape[0]} values.")
            check_rows_sum_to_one(p, where, "top-label calibration")
            top = np.argmax(p, axis=1)
            rows = np.arange(p.shape[0])
            # per item over every class: sum_k (p_k - y_k)^2, and log p(gold) clipped as binary's
            return Read(y[rows, top], p[rows, top], "top-label", sq=np.sum((p - y) ** 2, axis=1),
                        loss=np.log(np.clip(p[y], EPS, 1.0 - EPS)))
        if self.positive is None:
            raise UsageError("binary calibration needs positive: the label whose probability the column gives.")
        outcome, labels, found = self._is_positive(gold)
        conf = as_probabilities(probs, name=name, n=outcome.shape[0], where=where)
        return Read(outcome, conf, "binary", labels=labels, positive=found)

    def _is_positive(self, gold: Any) -> tuple[np.ndarray, tuple[str, ...], str | None]:
        """Gold == positive per item (matched by value or string form), the labels occurring (as text) and the
        positive as found; the positive need not be in this batch."""
        (codes,), r, raw = encode_labels([gold], ("gold",))
        present = np.flatnonzero(np.bincount(codes, minlength=r)) if codes.size else np.empty(0, dtype=np.int64)
        occurring = [raw[j] for j in present]
        labels = tuple(label_str(lab) for lab in occurring)
        try:
            i = resolve_label(self.positive, occurring, option="positive", source="the gold labels")
        except DataError:
            return np.zeros(codes.shape[0], dtype=bool), labels, None
        return codes == present[i], labels, label_str(occurring[i])


class Calibrator:
    """A calibration counted batch by batch in this process: ``update(gold, probs)`` per batch, then :meth:`result`.

    The sums are one :class:`~clfeval.ops.calibration.CalibrationSums` (the accumulator every calibration
    counts with, on every engine), read by :class:`ProbabilityColumns`. Every sum is exact
    (:mod:`clfeval.core._exactsum`: integer counts, float sums kept as exact integers of 2^-1074), so the order
    of the batches cannot change a single bit of the result. Uniform bins need nothing but the sums; equal-mass
    bins (``quantile``) keep each item's confidence and outcome until the end (their edges are order
    statistics). Beside them, the binary ranking (ROC-AUC, average precision) keeps every score in a
    :class:`~clfeval.scores._external.RankingStore` within ``memory`` (sorted runs spill to disk beyond it):
    exact, the numbers of the in-memory ``Ranking`` to the bit. Call :meth:`close` (or use the calibrator as a
    context manager) to remove any spilled runs.

    >>> c = Calibrator(positive=1, bins=10)
    >>> c.update([1, 0], [0.6, 0.4]); c.update([1, 0], [0.6, 0.4])
    >>> r = c.result(); round(r.ece, 4), r.roc_auc
    (0.4, 1.0)
    """

    def __init__(self, *, positive: Any = None, labels: Sequence[Any] | None = None, bins: int = 10,
                 strategy: str = "uniform", source: ScoreSource | None = None,
                 memory: Any = DEFAULT_MEMORY, tmpdir: str | None = None, edges: str = "clfeval") -> None:
        self.src = source or DEFAULT_SOURCE
        self.n_bins = check_bins(bins)
        check_binning(strategy, edges)
        self.positive = positive
        self.memory, self.tmpdir = parse_memory(memory), tmpdir
        self.store: RankingStore | None = None  # the binary ranking (ROC-AUC, average precision)
        self.reader = ProbabilityColumns(positive=positive, labels=None if labels is None else tuple(labels),
                                         source=self.src)
        self.sums = CalibrationSums.empty(self.n_bins, strategy, edges, read=self.reader)
        self.offset = 0

    def _where(self, i: int) -> str:
        return self.src.where(self.offset + i)

    def update(self, gold: Any, probs: Any, *, where: Any = None) -> None:
        """One batch of items: gold labels and their probabilities (one column, or one per class);
        ``where(i)`` names the batch's item i in messages (default: counted over every batch so far)."""
        items = self.reader.read(gold, probs, where or self._where)
        self.sums.add(items)
        if items.kind == "binary":
            if self.store is None:
                self.store = RankingStore(label_str(self.positive), memory=self.memory, tmpdir=self.tmpdir)
            self.store.add(items.outcome, items.conf)
        self.offset += int(items.conf.shape[0])

    def close(self) -> None:
        """Remove the ranking's spilled runs (if any)."""
        if self.store is not None:
            self.store.close()

    def __enter__(self) -> Calibrator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def result(self) -> Calibration:
        """The reliability table, ECE, MCE, Brier score and log loss of every item so far."""
        self.sums.check()
        ranked = None
        if self.sums.kind == "binary" and self.store is not None and self.store.n:
            ranked = self.store.summary()
        return self.sums.finish(ranked, memory=self.memory)


def check_binning(strategy: Any, edges: Any) -> None:
    """``strategy`` and ``edges`` among :data:`STRATEGIES` and :data:`EDGES`."""
    if strategy not in STRATEGIES:
        raise UsageError(f"option strategy must be one of {', '.join(STRATEGIES)}; got {strategy!r}.")
    if edges not in EDGES:
        raise UsageError(lambda name: f"option {name} must be one of {', '.join(EDGES)}; got {edges!r}.",
                         params=["edges"])


def reliability(gold: Any, probs: Any, *, positive: Any = None, labels: Sequence[Any] | None = None, bins: int = 10,
                strategy: str = "uniform", source: ScoreSource | None = None, edges: str = "clfeval") -> Calibration:
    """Reliability table, ECE, MCE, Brier score and log loss of predicted probabilities.

    Parameters
    ----------
    gold : sequence of labels
        One gold label per item.
    probs : sequence of numbers, or mapping label → column / array (n, K)
        Binary: the probability of ``positive`` for each item. Multiclass: one
        probability column per class (``labels`` names an array's columns);
        rows must sum to 1 (within 0.01).
    positive : label
        Binary only: the positive class (it must occur in ``gold``).
    labels : sequence of labels, optional
        Multiclass with an (n, K) array ``probs``: the class of each column, one per column (unused with a
        mapping, whose keys name the columns).
    bins : int
        Number of bins B (1 ≤ B ≤ :data:`MAX_BINS`).
    strategy : "uniform" or "quantile"
        Equal-width bins, or equal-mass bins.
    edges : "clfeval" or "sklearn"
        clfeval's bins are left-closed, [k/B, (k+1)/B) (a value v in bin min(floor(v·B), B − 1)), empty bins
        kept; ``sklearn`` bins as scikit-learn's ``calibration_curve``: right-closed on the float edges
        ``numpy.linspace(0, 1, B + 1)`` (quantile: the percentiles of the values), empty bins dropped.
    source : ScoreSource, optional
        How messages name the probability columns and their items.

    Returns
    -------
    Calibration

    Raises
    ------
    DataError
        A probability outside [0, 1] (naming the item and column), rows that
        do not sum to 1, an absent positive label, non-numeric values.

    Notes
    -----
    Every sum is exact (see :class:`Calibrator`, which counts the same table
    batch by batch): ECE = Σ_b |Σ y − Σ p| / N over the bins, computed as a
    rational number and rounded once.

    Examples
    --------
    A perfect ranking whose confidence is not: every positive gets 0.6, every negative 0.4.

    >>> c = reliability([1, 1, 0, 0], [0.6, 0.6, 0.4, 0.4], positive=1, bins=10)
    >>> c.roc_auc, round(c.ece, 4), round(c.brier, 4)
    (1.0, 0.4, 0.16)
    """
    with Calibrator(positive=positive, labels=labels, bins=bins, strategy=strategy, source=source, edges=edges) as cal:
        cal.update(gold, probs)
        return cal.result()
