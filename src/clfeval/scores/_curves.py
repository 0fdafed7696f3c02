"""Rankings: ROC and PR curves, ROC-AUC, average precision (PR-AUC), the threshold sweep and the best cut.

A classifier that outputs scores has not chosen its threshold yet. The rule
everywhere in clfeval is: **an item is predicted positive iff its score ≥ the
threshold**. Scores are any finite real numbers (probabilities, Naive Bayes
log-odds, SVM margins); only their order matters here.

How it is computed
------------------
The positives' scores and the negatives' scores are sorted separately (two
plain sorts, no argsort; on threads as the CPU's sort makes worth it, see
:mod:`clfeval.scores._sorting`) and counted against each other with binary searches:

* ROC-AUC, the Mann–Whitney statistic: the probability that a random positive
  scores above a random negative, ties counting one half,
  ``AUC = (#{(p, n): s_p > s_n} + ½·#{(p, n): s_p = s_n}) / (P·N)``;
* average precision (PR-AUC), scikit-learn's non-interpolated step area:
  ``AP = Σ_k (R_k − R_{k−1})·P_k`` over the cuts in decreasing threshold
  order, i.e. the mean over positives of the precision at the cut that first
  includes that positive (tied scores form one cut).

The cumulative counts at every distinct score (tied scores form one cut), the
ROC and PR curves and the threshold sweep are computed on first use, from the
same two sorted arrays merged in linear time, so reading only ``roc_auc`` and
``average_precision`` costs little more than the sorts.

Undefined cases: ROC-AUC needs at least one positive and one negative (it is
NaN otherwise and listed under ``undefined``); average precision needs a
positive. These are not filled by ``zero_division``: an AUC of 0 would mean a
perfectly inverted ranking.

References
----------
* Hanley & McNeil (1982), "The meaning and use of the area under a receiver
  operating characteristic (ROC) curve" (AUC = Mann–Whitney U / PN).
* Fawcett (2006), "An introduction to ROC analysis".
* Davis & Goadrich (2006), precision-recall vs ROC; Saito & Rehmsmeier (2015), PR under imbalance.
* scikit-learn, ``average_precision_score`` (the step definition used here).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.core import (
    DEFINITIONS,
    ClassCounts,
    Display,
    EncodedGold,
    FrozenDict,
    LabelMap,
    RankingSummary,
    binary_gold,
    build_signature,
    check_finite,
    cut_counts,
    freeze_fields,
    indicator_gold,
    label_str,
    ranking_curves,
    ranking_notes,
    ranking_points,
    roc_auc_of,
)
from clfeval.errors import DataError, UsageError
from clfeval.ops.ranking import LabelRanking, OneVsRest, RankingAverages, RankingResult, UndefinedRanking
from clfeval.scores._columns import DEFAULT_SOURCE, ScoreSource, as_scores, score_matrix
from clfeval.scores._objectives import Objective, choose_cut, parse_objective
from clfeval.scores._sorting import (
    PARALLEL_MIN,
    pairs_and_ap,
    ranked_parts,
    simd_sort,
    split_sorted,
    strategy,
    threads,
)
from clfeval.scores._sweep import Cuts, Sweep, sweep_of

if TYPE_CHECKING:  # the input types of ranking_ovr, named for type checkers only
    from typing import TypeAlias

    import numpy.typing as npt

    #: A label as the data hold it (matched by value or string form).
    Label: TypeAlias = str | int | float | bool
    #: One label per item, or (multi-label) one label set per item: a sequence of labels or a joined string.
    Gold: TypeAlias = npt.ArrayLike | Sequence[Sequence[Label] | str]
    #: One score column per label: a mapping label → column, or an (n, L) array.
    ScoreColumns: TypeAlias = Mapping[Label, npt.ArrayLike] | npt.ArrayLike

__all__ = [
    "RULE",
    "SortedRanking",
    "Cuts",
    "Sweep",
    "Objective",
    "ranking",
    "ranking_ovr",
    "parse_objective",
    "binary_gold",
    "indicator_gold",
    "predictions_from_cut",
    "binary_cut",
    "cut_labels",
    "cut_sets",
    "ranking_section",
    "RankingSummary",
    "ranking_notes",
    "summary_sweep",
    "best_cut_of",
    "ranking_signature",
    "roc_auc_of",
    "ovr_of",
    "PairCounts",
    "summary_of",
]

RULE = "an item is predicted positive iff its score >= threshold"



# --- the core: two sorted arrays (how they are made: clfeval.scores._sorting) ---------------

# Above this many items a ranking uses threads, as the CPU's sort makes worth it (sorting.strategy).
_PARALLEL_MIN = PARALLEL_MIN


def _n_threads() -> int:
    return threads()


def _simd_sort() -> bool:
    return simd_sort()


def _plan(n: int) -> tuple[str, int]:
    """The sorting strategy for ``n`` items, and the threads it may use."""
    k = _n_threads()
    return strategy(n, n_threads=k, simd=_simd_sort() if n >= _PARALLEL_MIN and k > 1 else False,
                    parallel_min=_PARALLEL_MIN), k


# --- the binary ranking ----------------------------------------------------------

class PairCounts:
    """``n``, ``prevalence`` and ``pairs`` of anything with ``n_positive`` and ``n_negative`` (rankings in
    memory, beyond it, binned)."""

    @property
    def n_positive(self) -> int:
        raise NotImplementedError

    @property
    def n_negative(self) -> int:
        raise NotImplementedError

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


@dataclass(frozen=True, eq=False)
class SortedRanking(PairCounts, Display):
    """A binary ranking in memory: the positives' and the negatives' scores, each sorted ascending.

    Everything is derived from the two sorted arrays: ``roc_auc`` and
    ``average_precision`` by binary searches, the cuts, curves and sweep by a
    linear merge, on first use. Build it with :func:`ranking`. It is how a
    ranking is computed in memory (its :attr:`summary` is what the front door's
    :class:`~clfeval.ops.ranking.RankingResult` holds); the arrays are read-only.

    Attributes
    ----------
    positive : str
        The positive label.
    pos_scores : ndarray
        Sorted scores of the positive items.
    neg_parts : tuple of ndarray
        Sorted parts of the negative items' scores (one part, or one per
        thread for large inputs); ``neg_scores`` is their merge.
    """

    positive: str
    pos_scores: np.ndarray = field(repr=False)
    neg_parts: tuple[np.ndarray, ...] = field(repr=False)
    signature: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:  # read-only all the way down: the arrays, the signature
        for a in (self.pos_scores, *self.neg_parts):
            a.flags.writeable = False
        freeze_fields(self, ("signature",))

    @classmethod
    def from_indicator(cls, y: np.ndarray, scores: np.ndarray, positive: str = "1",
                       signature: dict[str, Any] | None = None) -> SortedRanking:
        """From a boolean "is positive" array and finite float scores (no checks)."""
        plan, k = _plan(scores.shape[0])
        sig = signature if signature is not None else ranking_signature(positive)
        if plan == "parts":  # the counts made on the sorting threads (sorting.ranked_parts)
            pos, parts, core = ranked_parts(y, scores, n_threads=k)
            ranked = cls(positive, pos, parts, sig)
            ranked.__dict__["_core"] = core  # the cached property, filled
            return ranked
        pos, parts = split_sorted(y, scores, plan=plan, n_threads=k)
        return cls(positive, pos, parts, sig)

    def finite_ends(self) -> bool:
        """Whether the smallest and largest score of each sorted array are finite: then every score is (NaN
        sorts last, -inf first and +inf before NaN)."""
        ends = [float(a[k]) for a in (self.pos_scores, *self.neg_parts) if a.shape[0] for k in (0, -1)]
        return all(math.isfinite(v) for v in ends)

    @cached_property
    def neg_scores(self) -> np.ndarray:
        """Sorted scores of the negative items (the parts merged on first use)."""
        if len(self.neg_parts) == 1:
            return self.neg_parts[0]
        merged = np.concatenate(self.neg_parts)
        merged.sort(kind="stable")  # timsort: a linear merge of sorted runs
        merged.flags.writeable = False
        return merged

    @property
    def n_positive(self) -> int:
        return int(self.pos_scores.shape[0])

    @property
    def n_negative(self) -> int:
        return int(sum(p.shape[0] for p in self.neg_parts))

    @cached_property
    def _core(self) -> tuple[int, int, float]:
        k = _n_threads() if self.n >= _PARALLEL_MIN else 1
        return pairs_and_ap(self.pos_scores, self.neg_parts, n_threads=k)

    @property
    def pairs_in_order(self) -> float:
        """Pairs with the positive above the negative, ties counting one half (Mann–Whitney U)."""
        below, tied, _ = self._core
        return below + tied / 2

    @property
    def roc_auc(self) -> float:
        """ROC-AUC = U / (P·N); NaN without positives or negatives."""
        below, tied, _ = self._core
        return roc_auc_of(below, tied, self.pairs)

    @property
    def average_precision(self) -> float:
        """Average precision (PR-AUC, non-interpolated); NaN without positives."""
        return self._core[2]

    pr_auc = average_precision

    @cached_property
    def cuts(self) -> Cuts:
        """Cumulative TP and FP at every distinct score, decreasing threshold (read-only arrays)."""
        c = _merged_cuts(self.pos_scores, self.neg_scores)
        for a in c:
            a.flags.writeable = False
        return c

    def top_cuts(self, n_neg: int) -> Cuts:
        """The cuts from the top down to the first with more than ``n_neg`` negatives at or above it (all
        cuts when there is none): what a partial ROC-AUC needs, without merging every score."""
        if n_neg + 1 > self.n_negative or "cuts" in self.__dict__:
            return top_of(self.cuts, n_neg)
        # the (n_neg + 1)-th largest negative: from the top n_neg + 1 of each sorted part
        top = np.sort(np.concatenate([p[max(0, p.shape[0] - n_neg - 1):] for p in self.neg_parts]))
        t = top[top.shape[0] - n_neg - 1]
        neg = np.concatenate([p[np.searchsorted(p, t, side="left"):] for p in self.neg_parts])
        neg.sort()
        pos = self.pos_scores[np.searchsorted(self.pos_scores, t, side="left"):]
        return _merged_cuts(pos, neg)  # every item scored ≥ t: the cuts down to t are those of the whole ranking

    def roc_curve(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(fpr, tpr, thresholds) as ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``
        (:func:`clfeval.core._ranksummary.roc_curve` of the summary)."""
        return self.summary.roc_curve()

    def pr_curve(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(precision, recall, thresholds), one point per cut in decreasing threshold order
        (:func:`clfeval.core._ranksummary.pr_curve` of the summary). scikit-learn's ``precision_recall_curve``
        lists the same points in increasing threshold order and appends (precision 1, recall 0)."""
        return self.summary.pr_curve()

    def counts_at(self, threshold: float) -> ClassCounts:
        """TP, FP, FN, TN when items with score ≥ ``threshold`` are predicted positive."""
        t = float(threshold)
        tp = self.n_positive - int(np.searchsorted(self.pos_scores, t, side="left"))
        fp = self.n_negative - int(np.searchsorted(self.neg_scores, t, side="left"))
        return cut_counts(tp, fp, self.n_positive, self.n_negative)

    def sweep(self, *, beta: float = 1.0, cost_fp: float = 1.0, cost_fn: float = 1.0, zero_division: Any = 0) -> Sweep:
        """The threshold sweep: every cut with TP, FP, FN, TN, P, R, F-beta, TPR, FPR and expected cost."""
        return summary_sweep(self.summary, beta=beta, cost_fp=cost_fp, cost_fn=cost_fn, zero_division=zero_division)

    def best_cut(self, objective: str | Objective = "f1", *, source: str = "the data") -> int | None:
        """Index (into :attr:`cuts`) of the cut an objective chooses; None when no cut reaches a
        precision target. See :class:`Objective` for the tie rules."""
        return best_cut_of(self.summary, objective)

    def curves(self) -> dict[str, Any]:
        """The decimated ROC and PR curves as plain data (:func:`clfeval.core._decimate.ranking_curves`)."""
        return ranking_curves(self.pos_scores, self.neg_parts)

    def points(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The sampled cuts the curves are drawn from (:func:`clfeval.core._decimate.ranking_points`)."""
        return ranking_points(self.pos_scores, self.neg_parts) if self.n_positive and self.n_negative else None

    @cached_property
    def summary(self) -> RankingSummary:
        """The ranking summary every engine produces (its exact cuts computed from these arrays on first use)."""
        below, tied, ap = self._core
        return RankingSummary(self.positive, self.n_positive, self.n_negative, below, tied, ap,
                              signature=self.signature, exact=self)

    def to_dict(self) -> dict[str, Any]:
        """Summary as plain data (no per-cut arrays): AUC, AP, counts, baselines of a random ranking."""
        return self.summary.to_dict()


def _merged_cuts(pos: np.ndarray, neg: np.ndarray) -> Cuts:
    """Cumulative TP and FP at every distinct score of two ascending arrays, decreasing threshold."""
    merged = np.concatenate([pos, neg])
    # Two sorted runs: a stable argsort is timsort's linear merge, not a sort.
    order = np.argsort(merged, kind="stable")[::-1]
    values = merged[order]
    is_pos = order < pos.shape[0]
    if values.size:
        last = np.empty(values.size, dtype=bool)  # last item of each tie group, decreasing order
        last[-1] = True
        np.not_equal(values[:-1], values[1:], out=last[:-1])
        ends = np.flatnonzero(last)
    else:
        ends = np.empty(0, dtype=np.intp)
    tp = np.cumsum(is_pos, dtype=np.int64)[ends]
    return Cuts(values[ends], tp.astype(np.int64), ((ends + 1) - tp).astype(np.int64))


def top_of(c: Cuts, n_neg: int) -> Cuts:
    """The cuts from the top down to the first with more than ``n_neg`` negatives (all when there is none)."""
    k = int(np.searchsorted(c.fp, n_neg, side="right")) + 1
    return Cuts(c.thresholds[:k], c.tp[:k], c.fp[:k])


def summary_sweep(s: RankingSummary, *, beta: float = 1.0, cost_fp: float = 1.0, cost_fn: float = 1.0,
                  zero_division: Any = 0) -> Sweep:
    """The threshold sweep of a ranking summary: every cut (its per-distinct-score counts) with TP, FP, FN, TN,
    P, R, F-beta, TPR, FPR and expected cost."""
    return sweep_of(s.cuts, s.n_positive, s.n_negative, beta=beta, cost_fp=cost_fp, cost_fn=cost_fn,
                    zero_division=zero_division)


def best_cut_of(s: RankingSummary, objective: str | Objective = "f1") -> int | None:
    """Index (into the summary's cuts) of the cut an objective chooses; None when there is no cut or no cut
    reaches a precision target (:class:`Objective`'s tie rules).

    >>> best_cut_of(ranking([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], positive=1).summary, "f1")  # the cut at 0.7
    2
    """
    obj = parse_objective(objective)
    if len(s.cuts.thresholds) == 0:
        return None
    return choose_cut(summary_sweep(s, beta=obj.beta, cost_fp=obj.cost_fp, cost_fn=obj.cost_fn), obj)


def ranking_signature(positive: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return build_signature({"positive": positive, "definitions": dict(DEFINITIONS), **(extra or {})})


def ranking(gold: Any, scores: Any, *, positive: Any, source: ScoreSource | None = None) -> SortedRanking:
    """Rank items by score against gold labels: ROC-AUC, average precision, curves, sweep.

    Parameters
    ----------
    gold : sequence of labels
        One label per item; every label other than ``positive`` is negative.
    scores : sequence of numbers
        One finite score per item, higher = more positive (probabilities,
        log-odds, margins).
    positive : label
        The positive class (matched by value or string form); it must occur.
    source : ScoreSource, optional
        How messages name the score column and its items (the command line
        names the file, column and row).

    Returns
    -------
    SortedRanking
        ``.roc_auc``, ``.average_precision`` (``.pr_auc``), ``.cuts``,
        ``.roc_curve()``, ``.pr_curve()``, ``.sweep()``, ``.best_cut()``.

    Notes
    -----
    ROC-AUC = (#pairs in order + ½·#tied pairs) / (P·N), undefined (NaN)
    without negatives. AP = Σ_k (R_k − R_{k−1})·P_k over the cuts in
    decreasing threshold order. See the module docstring for references.

    Examples
    --------
    Worked example 8: ten documents, the three positives at ranks 1, 2 and 4.

    >>> r = ranking([1, 1, 0, 1, 0, 0, 0, 0, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], positive=1)
    >>> r.pairs_in_order, r.pairs, round(r.roc_auc, 4), round(r.average_precision, 4)
    (20.0, 21, 0.9524, 0.9167)
    """
    src = source or DEFAULT_SOURCE
    y, pos_label, _ = binary_gold(gold, positive)
    s = as_scores(scores, name=src.column("scores"), n=y.shape[0], where=src.where, finite=False)
    ranked = SortedRanking.from_indicator(y, s, pos_label)
    if not ranked.finite_ends():  # NaN sorts last, ±inf at the ends: the full check names the first
        as_scores(s, name=src.column("scores"), n=y.shape[0], where=src.where)
    return ranked


def summary_of(ranked: object) -> RankingSummary | None:
    """The binary ranking summary of a ranking (a :class:`SortedRanking`, a
    :class:`~clfeval.core.RankingSummary` or a binary :class:`~clfeval.ops.ranking.RankingResult`); None for
    anything else (gold labels). A one-vs-rest result is refused: it holds one ranking per label.
    """
    if isinstance(ranked, RankingSummary):
        return ranked
    if isinstance(ranked, SortedRanking):
        return ranked.summary
    if isinstance(ranked, RankingResult):
        if ranked.summary is None:
            raise UsageError("a one-vs-rest ranking holds one ranking per label; give one of them "
                             "(result.rankings[label]) or a binary ranking.")
        return ranked.summary
    return None


# --- one-vs-rest: multiclass and multi-label --------------------------------------

def ranking_ovr(gold: Gold, scores: ScoreColumns, *, labels: Sequence[Label] | None = None,
                multilabel: bool = False, sep: str = "|", source: ScoreSource | None = None) -> RankingResult:
    """One-vs-rest ROC-AUC and average precision per label, with macro, weighted and micro averages.

    Parameters
    ----------
    gold : sequence
        One label per item, or with ``multilabel=True`` one label set per item
        (lists, or strings separated by ``sep``).
    scores : mapping label → column, or array (n, L)
        One score column per label (``labels`` names the columns of an array).
    labels : sequence of labels, optional
        With an (n, L) array ``scores``: the label of each column, one per column (required then; unused with
        a mapping, whose keys name the columns).
    multilabel : bool, default False
        ``gold`` holds a set of labels per item; an item is positive for every label of its set.
    sep : str, default "|"
        The separator of the labels within a string item of ``multilabel`` gold.
    source : ScoreSource, optional
        How messages name the score columns (``ScoreSource(prefix="score:")``
        for columns ``score:<label>``) and their items.

    Returns
    -------
    RankingResult
        Its ``ovr`` part (:class:`~clfeval.ops.ranking.OneVsRest`) holds the
        per-label rows and the averages (``r.per_class``, ``r.macro``, ...).

    Notes
    -----
    A label with no positive (or no negative) item has an undefined ROC-AUC
    (and without positives an undefined AP): NaN, listed under
    ``undefined`` and left out of the macro and weighted averages.

    Examples
    --------
    >>> r = ranking_ovr(["a", "b", "c", "a"],
    ...                 {"a": [0.8, 0.1, 0.1, 0.3], "b": [0.1, 0.7, 0.2, 0.4], "c": [0.1, 0.2, 0.7, 0.3]})
    >>> r.per_class["a"].roc_auc, r.macro.roc_auc, r.kind
    (1.0, 1.0, 'multiclass')
    """
    src = source or DEFAULT_SOURCE
    s, score_labels = score_matrix(scores, labels=labels, where=src.where, prefix=src.prefix)
    y = indicator_gold(gold, score_labels, multilabel=multilabel, sep=sep, prefix=src.prefix)
    if y.shape[0] != s.shape[0]:
        raise DataError(f"gold has {y.shape[0]} items but the score columns have {s.shape[0]} values; give one score "
                        "per item.")
    labs = [label_str(x) for x in score_labels]
    rankings = {lab: SortedRanking.from_indicator(y[:, j], s[:, j], lab) for j, lab in enumerate(labs)}
    return ovr_of(labs, int(y.shape[0]), rankings, SortedRanking.from_indicator(y.ravel(), s.ravel(), "micro"),
                  multilabel=multilabel, keys=score_labels)


def ovr_of(labs: Sequence[str], n: int, rankings: Mapping[str, SortedRanking | RankingSummary],
           micro_rk: SortedRanking | RankingSummary, *, multilabel: bool,
           keys: Sequence[Any] | None = None) -> RankingResult:
    """The one-vs-rest result from one ranking per label and the micro ranking of every (item, label) pair.

    The rankings may be in memory (:class:`SortedRanking`) or beyond it
    (a :class:`~clfeval.core._ranksummary.RankingSummary`); the result holds their summaries. ``keys``: the
    labels as the input gave them (``per_class[1]`` for integer labels), when their text forms are ``labs``.
    """
    summaries = {lab: rk.summary if isinstance(rk, SortedRanking) else rk for lab, rk in rankings.items()}
    undefined: list[UndefinedRanking] = []
    auc = np.array([summaries[lab].roc_auc for lab in labs], dtype=np.float64)
    ap = np.array([summaries[lab].average_precision for lab in labs], dtype=np.float64)
    rows = [LabelRanking(float(auc[j]), float(ap[j]), summaries[lab].n_positive, summaries[lab].prevalence)
            for j, lab in enumerate(labs)]
    for metric, vals in (("roc_auc", auc), ("average_precision", ap)):
        bad = tuple(labs[int(j)] for j in np.flatnonzero(np.isnan(vals)))
        if bad:
            undefined.append(UndefinedRanking(metric, bad, "a label needs positive and negative items"
                                              if metric == "roc_auc" else "a label needs at least one positive item"))
    support = np.array([summaries[lab].n_positive for lab in labs], dtype=np.float64)
    macro, weighted = {}, {}
    for metric, vals in (("roc_auc", auc), ("average_precision", ap)):
        ok = ~np.isnan(vals)
        macro[metric] = float(vals[ok].mean()) if ok.any() else math.nan
        w = support * ok
        weighted[metric] = float(np.dot(np.where(ok, vals, 0.0), w) / w.sum()) if w.sum() > 0 else math.nan
    notes = []
    if undefined:
        notes.append("Labels without positive (or negative) items have undefined ranking metrics; they are left "
                     "out of the macro and weighted averages.")
    notes.append("Macro = mean over labels (every label counts equally); weighted = weighted by the number of "
                 "gold positives; micro = one ranking of every (item, label) score.")
    kind = "multilabel" if multilabel else "multiclass"
    sig = ranking_signature("one-vs-rest", {"kind": kind})
    per_class: Mapping[object, LabelRanking]
    if keys is not None and [label_str(x) for x in keys] == list(labs):  # keyed by the labels as given
        per_class = LabelMap.of(keys, rows)
    else:
        per_class = FrozenDict(zip(labs, rows, strict=True))
    return RankingResult(ovr=OneVsRest(
        kind, tuple(labs), n, per_class, RankingAverages(macro["roc_auc"], macro["average_precision"]),
        RankingAverages(weighted["roc_auc"], weighted["average_precision"]),
        RankingAverages(micro_rk.roc_auc, micro_rk.average_precision), tuple(undefined), tuple(notes), sig,
        summaries))


# --- glue for reports: predictions from a cut, the "ranking" section ------------------

def _is_multi(scores: Any) -> bool:
    return isinstance(scores, dict) or (isinstance(scores, np.ndarray) and scores.ndim == 2)


def predictions_from_cut(gold: Any, scores: Any, threshold: float, *, positive: Any = None, multilabel: bool = False,
                         labels: Sequence[Any] | None = None, source: ScoreSource | None = None) -> Any:
    """Predicted labels from scores: positive iff score ≥ ``threshold``.

    Binary (one score column): the positive label where the score reaches the
    cut, the other gold label elsewhere — gold must hold exactly two labels.
    Multi-label (one score column per label): each item's predicted set is
    the labels whose score reaches the cut.

    >>> predictions_from_cut(["spam", "ham", "spam"], [0.9, 0.7, 0.2], 0.5, positive="spam").tolist()
    ['spam', 'spam', 'ham']
    """
    t = check_finite(threshold, option="threshold")
    if multilabel:
        if not _is_multi(scores):
            raise UsageError("multi-label predictions from a cut need one score column per label.")
        src = source or DEFAULT_SOURCE
        s, labs = score_matrix(scores, labels=labels, where=src.where, prefix=src.prefix)
        hit = cut_sets(s, t)
        return [[labs[j] for j in np.flatnonzero(row)] for row in hit]
    g, codes = binary_cut(gold, scores, t, positive=positive, source=source)
    raw = np.empty(len(g.raw), dtype=object)
    raw[:] = g.raw
    return raw[codes]


def binary_cut(gold: Any, scores: Any, threshold: float, *, positive: Any,
               source: ScoreSource | None = None) -> tuple[EncodedGold, np.ndarray]:
    """The cut on one score column as raw label codes: gold encoded once, and each item's predicted code.

    Gold must hold exactly two labels: the positive one, predicted where the
    score reaches ``threshold``, and the negative one, predicted elsewhere.
    Returns the :class:`~clfeval.core._gold.EncodedGold` and the predicted codes in
    its raw code space (what :func:`predictions_from_cut` turns into labels).
    """
    t = check_finite(threshold, option="threshold")
    if _is_multi(scores) or positive is None:
        raise UsageError("predictions from a cut need one score column and positive (binary data); "
                         "for multiclass data give the predicted labels.")
    g = EncodedGold.of(gold)
    pos = g.positive_code(positive)
    others = [int(j) for j in g.present if j != pos]
    if len(others) != 1:
        raise DataError(
            f"predictions from a cut need exactly two gold labels (the positive {label_str(g.raw[pos])!r} and one "
            f"negative label to predict below the cut); the gold labels are "
            f"{', '.join(repr(label_str(x)) for x in g.occurring)}. Give the predicted labels instead.")
    src = source or DEFAULT_SOURCE
    s = as_scores(scores, name=src.column("scores"), n=g.n, where=src.where)
    return g, cut_labels(s, t, positive=pos, negative=others[0]).astype(np.intp)


def cut_labels(scores: np.ndarray, threshold: Any, *, positive: Any, negative: Any) -> np.ndarray:
    """The decision rule on one score column: ``positive`` iff score ≥ threshold, else ``negative``.

    Returns an object array of the two labels (as given). The threshold step
    of :mod:`clfeval.protocols._api` and :func:`predictions_from_cut` both decide
    through it.

    >>> cut_labels(np.array([0.9, 0.5, 0.1]), 0.5, positive="yes", negative="no").tolist()
    ['yes', 'yes', 'no']
    """
    out = np.empty(np.shape(scores)[0], dtype=object)
    out[:] = negative
    out[np.asarray(scores) >= threshold] = positive
    return out


def cut_sets(scores: np.ndarray, thresholds: Any) -> np.ndarray:
    """The decision rule on one score column per label: an (n, L) indicator, score ≥ the label's threshold.

    >>> cut_sets(np.array([[0.9, 0.1], [0.4, 0.6]]), np.array([0.5, 0.5])).tolist()
    [[True, False], [False, True]]
    """
    return np.asarray(scores) >= np.asarray(thresholds)


def ranking_section(gold: Any, scores: Any, *, positive: Any = None, multilabel: bool = False,
                    labels: Sequence[Any] | None = None, sep: str = "|", threshold: float | None = None,
                    source: ScoreSource | None = None) -> dict[str, Any]:
    """The ``"ranking"`` section of a report: ROC-AUC, average precision (PR-AUC) and context.

    One score column needs ``positive`` (binary ranking); one column per label
    gives the one-vs-rest ranking (multiclass, or multi-label with ``multilabel``).
    """
    if _is_multi(scores):
        out = ranking_ovr(gold, scores, labels=labels, multilabel=multilabel, sep=sep, source=source).to_dict()
    else:
        if positive is None:
            raise UsageError("a ranking of one score column needs positive: the class the scores rank.")
        if multilabel:
            raise UsageError("multi-label data needs one score column per label to be ranked.")
        out = ranking(gold, scores, positive=positive, source=source).to_dict()
    if threshold is not None:
        out["threshold"] = {"value": float(threshold), "rule": RULE}
    return out
