"""The ranking summary: what every engine produces for one ranked score column, and the ranking metrics of it.

However a ranking was computed — two sorted arrays in memory
(:class:`clfeval.scores._curves.SortedRanking`), score ranges merged beyond memory
(:mod:`clfeval.scores._external`, :mod:`clfeval.engines.dask._ranges`) or opt-in score
bins (:class:`clfeval.scores._binned.ScoreHistogram`) — its result is one frozen
:class:`RankingSummary`:

* the exact counts: positives ``P``, negatives ``N``, pairs with the positive
  above the negative (``below``), tied pairs (``tied``), and the exact average
  precision (its terms summed exactly, then divided once);
* the per-distinct-score counts (cumulative TP and FP at every cut, decreasing
  threshold) where they are held: always in memory and when binned; beyond
  memory while they fit the memory budget (96 bytes a cut, as a whole sweep) and
  number at most :data:`EXACT_CUTS_MAX` (else only the sampled cuts the curves
  are drawn from);
* how it was computed: the ``external`` block (budget, spilled, runs), the
  ``binned`` block (bins, error bound).

The ranking metrics of the catalogue (``input="ranking"``) are functions of it:
:func:`roc_auc`, :func:`average_precision`, :func:`partial_roc_auc`; so are the
curves (:func:`roc_curve`, :func:`pr_curve`). Adding a ranking metric is its
function here and one catalogue entry.

This module imports numpy only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

import numpy as np

from clfeval.core._decimate import curves_of_points, sweep_of_points
from clfeval.core._display import Display
from clfeval.core._results import freeze_fields, thaw
from clfeval.errors import UsageError

__all__ = ["EXACT_CUTS_MAX", "MAX_FPR", "RankingSummary", "roc_auc", "average_precision", "partial_roc_auc",
           "roc_curve", "pr_curve", "partial_area", "exact_dot", "roc_auc_of", "ranking_notes", "score_counts",
           "DEFINITIONS"]

#: Beyond memory, the per-distinct-score counts are kept while there are at most this many distinct scores
#: (and they fit the memory budget); above it a summary holds the sampled cuts of its curves only.
EXACT_CUTS_MAX = 1 << 20

#: The false-positive rate up to which a summary's JSON reports the partial ROC-AUC.
MAX_FPR = 0.1

DEFINITIONS = {
    "rule": "an item is predicted positive iff its score >= threshold",
    "roc_auc": "Mann-Whitney: probability that a random positive scores above a random negative, ties counting 1/2",
    "average_precision": "PR-AUC, non-interpolated: sum over cuts (decreasing threshold) of (R_k - R_(k-1)) * P_k, "
                         "as scikit-learn's average_precision_score; tied scores form one cut",
}

Cuts3 = tuple[np.ndarray, np.ndarray, np.ndarray]


class CutArrays(Protocol):
    """Cumulative counts at every distinct score, decreasing threshold (a named tuple in scores/)."""

    @property
    def thresholds(self) -> np.ndarray: ...
    @property
    def tp(self) -> np.ndarray: ...
    @property
    def fp(self) -> np.ndarray: ...


class ExactCuts(Protocol):
    """What holds a ranking's per-distinct-score counts (an in-memory ranking, the cuts kept beyond memory):
    ``cuts``, the (thresholds, tp, fp) of every distinct score, descending; optionally ``points()`` and
    ``top_cuts(n_neg)``."""

    @property
    def cuts(self) -> CutArrays: ...


def roc_auc_of(below: int, tied: int, pairs: int) -> float:
    """ROC-AUC from exact pair counts, (2·below + tied) / (2·pairs) correctly rounded; NaN without pairs."""
    return math.nan if pairs == 0 else (2 * int(below) + int(tied)) / (2 * int(pairs))


def ranking_notes(prevalence: float) -> list[str]:
    """The plain-language reading of ROC-AUC beside average precision."""
    notes = [f"A random ranking scores ROC-AUC 0.5 and average precision (PR-AUC) about the prevalence, "
             f"{prevalence:.4g} here."]
    if prevalence < 0.1:
        notes.append("The positive class is rare: ROC-AUC flatters here (every negative ranked below a positive "
                     "is cheap credit), while average precision (PR-AUC) describes what a user reading the top "
                     "of the ranking experiences. Report both.")
    return notes


def _count(value: object) -> int:
    """A count of the external block (an int in it; 0 when absent)."""
    return int(value) if isinstance(value, (int, float, np.integer)) else 0


@dataclass(frozen=True, eq=False)
class RankingSummary(Display):
    """One ranked score column, counted once: what every engine returns for a ranking.

    Attributes
    ----------
    positive : str
        The positive label.
    n_positive, n_negative : int
    below, tied : int
        Positive–negative pairs with the positive scored higher, and with equal scores (exact integers).
    average_precision : float
        Average precision (PR-AUC, non-interpolated) from its exactly summed terms; NaN without positives.
    n_cuts : int or None
        Distinct scores (cuts); None when not counted.
    points : (thresholds, tp, fp) or None
        Sampled cuts the curves are drawn from (decreasing threshold), when the exact cuts are not held.
    external, binned : dict or None
        How a ranking beyond memory was computed; the binning of a binned ranking.
    partial : (int, tuple or None) or None
        Beyond memory: the exact parts of the partial ROC-AUC at :data:`MAX_FPR` summed range by range
        (:func:`partial_area`), so the JSON has it even when the cuts were not kept.
    exact : object or None
        What holds the per-distinct-score counts: anything with ``cuts`` (``thresholds``, ``tp``, ``fp``) and,
        optionally, ``points()``; an in-memory ranking computes them on first use.
    """

    positive: str
    n_positive: int
    n_negative: int
    below: int
    tied: int
    average_precision: float
    n_cuts: int | None = None
    points: Cuts3 | None = field(default=None, repr=False)
    signature: Mapping[str, object] = field(default_factory=dict, repr=False)
    external: Mapping[str, object] | None = field(default=None, repr=False)
    binned: Mapping[str, object] | None = field(default=None, repr=False)
    curves_how: str | None = field(default=None, repr=False)
    exact: ExactCuts | None = field(default=None, repr=False, compare=False)
    partial: tuple[int, tuple[int, int, int, int] | None] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:  # a result is read-only all the way down; to_dict() gives a plain copy
        freeze_fields(self, ("signature", "external", "binned"))
        for a in self.points or ():
            a.flags.writeable = False

    # --- counts ------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return self.n_positive + self.n_negative

    @property
    def prevalence(self) -> float:
        return self.n_positive / self.n if self.n else math.nan

    @property
    def pairs(self) -> int:
        """Positive–negative pairs, P·N."""
        return self.n_positive * self.n_negative

    @property
    def pairs_in_order(self) -> float:
        """Pairs with the positive above the negative, ties counting one half (Mann–Whitney U)."""
        return self.below + self.tied / 2

    @property
    def roc_auc(self) -> float:
        return roc_auc(self)

    @property
    def pr_auc(self) -> float:
        return self.average_precision

    @property
    def spilled(self) -> bool:
        return bool(self.external and self.external.get("spilled"))

    @property
    def memory(self) -> int:
        return _count(self.external.get("memory")) if self.external else 0

    @property
    def runs(self) -> int:
        return _count(self.external.get("runs")) if self.external else 0

    # --- the per-distinct-score counts -------------------------------------------------------
    @property
    def has_cuts(self) -> bool:
        """Whether the exact per-distinct-score counts are held (in memory, binned, or beyond memory while few)."""
        return self.exact is not None

    @cached_property
    def cuts(self) -> Any:  # the holder's named tuple (scores/ defines it: Cuts)
        """Cumulative TP and FP at every distinct score, decreasing threshold (``thresholds``, ``tp``, ``fp``)."""
        if self.exact is None:
            raise UsageError(
                f"this ranking was computed beyond memory with {self.n_cuts:,} distinct scores, more than it keeps "
                f"the counts of (at most {EXACT_CUTS_MAX:,}, and what the memory budget holds); the exact curve (and "
                f"the metrics read from it, such as partial_roc_auc) needs them. Give a larger --memory "
                f"(engine=Local(memory=...)), or round the scores.")
        return self.exact.cuts

    def top_cuts(self, n_neg: int) -> Any:
        """The cuts from the top down to the first with more than ``n_neg`` negatives at or above it (all of
        them when there is none): the part of the curve up to a false-positive rate, without every cut."""
        if self.exact is not None and hasattr(self.exact, "top_cuts"):
            return self.exact.top_cuts(n_neg)
        c = self.cuts
        k = int(np.searchsorted(c.fp, n_neg, side="right")) + 1
        return type(c)(c.thresholds[:k], c.tp[:k], c.fp[:k])

    def _points(self) -> Cuts3 | None:
        if self.points is not None:
            return self.points
        if self.exact is None:
            return None
        if hasattr(self.exact, "points"):
            points: Cuts3 = self.exact.points()
            return points
        c = self.exact.cuts
        return (c.thresholds, c.tp, c.fp)

    def curves(self) -> dict[str, Any]:
        """The decimated ROC and PR curves as plain data (:func:`clfeval.core._decimate.curves_of_points`)."""
        pts = self._points() if self.n_positive and self.n_negative else None
        out = curves_of_points(pts, self.n_positive, self.n_negative)
        if self.curves_how is not None:
            out["how"] = self.curves_how
        return out

    def sweep_curves(self, *, beta: float = 1.0) -> dict[str, Any] | None:
        """Precision, recall and F-beta against the threshold, decimated (as ``decimate.sweep_curves``)."""
        pts = self._points()
        if pts is None or not self.n_positive:
            return None
        return sweep_of_points(pts, self.n_positive, beta=beta)

    def roc_curve(self) -> Cuts3:
        return roc_curve(self)

    def pr_curve(self) -> Cuts3:
        return pr_curve(self)

    def metric(self, name: str, **params: Any) -> float:
        """A ranking metric of the catalogue by name (``roc_auc``, ``average_precision``, ``partial_roc_auc``).

        Examples
        --------
        >>> from clfeval.scores._curves import ranking
        >>> ranking([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], positive=1).summary.metric("roc_auc")
        0.75
        """
        from clfeval.core import _catalog as catalog

        return float(catalog.check_name(name, input="ranking").compute(self, **params))

    def to_dict(self) -> dict[str, Any]:
        """Plain data (no per-cut arrays): AUC, AP, counts, baselines of a random ranking, curves; ``external``
        beyond memory, ``binned`` for binned scores. Undefined values are NaN here, null in JSON text."""
        from clfeval.core import _catalog as catalog

        prevalence = self.prevalence
        values: dict[str, Any] = {}
        params: dict[str, Any] = {}
        random: dict[str, float] = {}
        undefined = []
        for entry in catalog.entries(input="ranking", task="binary"):  # each measure: its entry and its function
            why = entry.needs(self, **entry.params) if entry.needs is not None else None
            if why is not None:
                undefined.append({"metric": entry.name, "reason": why})
            values[entry.name] = math.nan if why is not None else float(entry.compute(self, **entry.params))
            params.update(entry.params)
            if entry.random is not None:
                random[entry.name] = entry.random(self, **entry.params)
        out: dict[str, Any] = {
            "positive": self.positive, "n": self.n, "n_positive": self.n_positive, "n_negative": self.n_negative,
            "prevalence": prevalence, **values, **params,
            "pairs": self.pairs, "pairs_in_order": self.pairs_in_order,
            "random": random,
            "undefined": undefined, "notes": ranking_notes(prevalence), "signature": self.signature,
            "curves": self.curves(),
        }
        if self.external is not None:
            out["external"] = dict(self.external)
        if self.binned is not None:
            out["binned"] = dict(self.binned)
            out["notes"] = [self.binned["note"], *out["notes"]]
        plain: dict[str, Any] = thaw(out)
        return plain


# --- the ranking metrics: functions of the summary (the catalogue's compute) ----------------

def score_counts(s: RankingSummary) -> tuple[np.ndarray, np.ndarray]:
    """(positives, negatives) at each distinct score, decreasing threshold (int64): the per-distinct-score
    counts the ranking intervals (DeLong's variance, the stratified bootstrap) are functions of.

    >>> from clfeval.scores._curves import ranking
    >>> p, n = score_counts(ranking([1, 0, 1, 0, 0], [0.9, 0.9, 0.5, 0.2, 0.1], positive=1).summary)
    >>> p.tolist(), n.tolist()
    ([1, 1, 0, 0], [1, 0, 1, 1])
    """
    c = s.cuts
    tp, fp = np.asarray(c.tp, dtype=np.int64), np.asarray(c.fp, dtype=np.int64)
    return np.diff(tp, prepend=0), np.diff(fp, prepend=0)


def roc_auc(s: RankingSummary) -> float:
    """ROC-AUC = (below + ½·tied) / (P·N), correctly rounded; NaN without positives or negatives."""
    return roc_auc_of(s.below, s.tied, s.pairs)


def average_precision(s: RankingSummary) -> float:
    """Average precision (PR-AUC, non-interpolated); NaN without positives."""
    return float(s.average_precision)


def roc_curve(s: RankingSummary) -> Cuts3:
    """(fpr, tpr, thresholds): the point (0, 0) at threshold +inf, then one point per cut.

    The same points as ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``; NaN rates without
    positives (TPR) or negatives (FPR).
    """
    c = s.cuts
    tp = np.concatenate([[0], c.tp]).astype(np.float64)
    fp = np.concatenate([[0], c.fp]).astype(np.float64)
    thr = np.concatenate([[np.inf], c.thresholds])
    with np.errstate(invalid="ignore", divide="ignore"):
        return (fp / s.n_negative if s.n_negative else np.full(fp.shape, np.nan),
                tp / s.n_positive if s.n_positive else np.full(tp.shape, np.nan), thr)


def pr_curve(s: RankingSummary) -> Cuts3:
    """(precision, recall, thresholds), one point per cut in decreasing threshold order."""
    c = s.cuts
    tp = np.asarray(c.tp, dtype=np.float64)
    rec = tp / s.n_positive if s.n_positive else np.full(tp.shape, np.nan)
    return tp / (tp + c.fp), rec, c.thresholds


def partial_roc_auc(s: RankingSummary, max_fpr: float = MAX_FPR) -> float:
    """The area under the ROC curve from FPR 0 to ``max_fpr`` (not standardized).

    The ROC curve joins the points (FPR, TPR) of every cut (tied scores a
    diagonal segment, as ROC-AUC counts ties one half); at ``max_fpr`` the
    segment that crosses it is cut by linear interpolation. The value lies in
    [0, max_fpr]: ``max_fpr`` for a perfect ranking, ``max_fpr²/2`` for a
    random one. McClish's standardization, scikit-learn's
    ``roc_auc_score(max_fpr=...)``, maps it to [0.5, 1] for rankings above the
    diagonal: ``½·(1 + (A − m²/2) / (m − m²/2))``.

    Undefined (NaN) without a positive or without a negative item. Needs the
    per-distinct-score counts (:attr:`RankingSummary.cuts`).

    References: McClish (1989), "Analyzing a portion of the ROC curve", Medical Decision Making 9(3).

    >>> from clfeval.scores._curves import ranking
    >>> s = ranking([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], positive=1).summary
    >>> partial_roc_auc(s, 0.5)   # TPR 0.5 on FPR [0, 0.5]
    0.25
    """
    m = float(max_fpr)
    if not (0.0 < m <= 1.0) or math.isnan(m):
        raise UsageError(f"max_fpr must be in (0, 1]; got {max_fpr!r}.")
    if s.pairs == 0:
        return math.nan
    if m == 1.0:
        return roc_auc(s)
    P, N = s.n_positive, s.n_negative
    limit = m * N  # in negatives
    if not s.has_cuts and m == MAX_FPR and s.partial is not None:  # summed range by range beyond memory
        return partial_area(*s.partial, P, N, limit)
    c = s.top_cuts(math.floor(limit))
    fp = np.concatenate([[0], np.asarray(c.fp, dtype=np.int64)])
    tp = np.concatenate([[0], np.asarray(c.tp, dtype=np.int64)])
    k = int(np.searchsorted(fp, limit, side="right"))  # points 0 … k-1 have fp ≤ limit; fp[k] > limit
    # whole segments: Σ (fp_i − fp_{i−1})·(tp_i + tp_{i−1}) over i < k, an exact integer
    twice = exact_dot(np.diff(fp[:k]), tp[1:k] + tp[:k - 1]) if k > 1 else 0
    cross = (int(fp[k - 1]), int(fp[k]), int(tp[k - 1]), int(tp[k])) if k < fp.shape[0] and fp[k - 1] < limit else None
    return partial_area(twice, cross, P, N, limit)


def partial_area(twice: int, cross: tuple[int, int, int, int] | None, P: int, N: int, limit: float) -> float:
    """The partial area from its exact parts: twice the area of the whole trapezoids below ``limit`` negatives
    (an integer, in units of one positive × one negative) and the segment crossing it ``(fp0, fp1, tp0, tp1)``,
    interpolated. The same bits however the parts were summed (in memory, or range by range)."""
    area = int(twice) / (2 * P * N)
    if cross is not None:
        x0, x1, y0, y1 = cross
        y = y0 + (y1 - y0) * (limit - x0) / (x1 - x0)
        area += (limit - x0) * (y0 + y) / (2 * P * N)
    return float(area)


def exact_dot(a: np.ndarray, b: np.ndarray) -> int:
    """Σ a·b of non-negative int64 arrays as a Python int, without int64 overflow."""
    if a.shape[0] == 0:
        return 0
    top = int(a.max()) * int(b.max())
    if top == 0:
        return 0
    step = max(1, (1 << 62) // top)
    return sum(int(np.dot(a[i:i + step], b[i:i + step])) for i in range(0, a.shape[0], step))
