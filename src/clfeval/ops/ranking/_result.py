"""The one result of ``clfeval.ranking`` and ``clfeval.ranking_ovr``: :class:`RankingResult`.

A ranking of one score column for a positive class is held as the core's
:class:`~clfeval.core.RankingSummary` (the exact counts every engine produces: positives, negatives, pairs in
order, tied pairs, the exact average precision, the cuts where they are held); a ranking of one score column per
label as a :class:`~clfeval.ops.ranking.OneVsRest` part (per-label rows, macro, weighted and micro averages).
Exactly one of the two is set; ``kind`` says which. The measures both have (``roc_auc``, ``average_precision``,
``n``, ``signature``, ``notes``) read the same on either; the others belong to one kind and refuse the other.
``to_dict()`` is the JSON of ``clfeval ranking`` / ``ranking_ovr`` as it was before the type was merged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clfeval.core import Display, EngineInfo, RankingSummary, ranking_notes
from clfeval.errors import UsageError
from clfeval.ops.ranking._parts import LabelRanking, OneVsRest, RankingAverages, UndefinedRanking

if TYPE_CHECKING:
    import pandas

if TYPE_CHECKING:
    import numpy as np

    Cuts3 = tuple[np.ndarray, np.ndarray, np.ndarray]

__all__ = ["RankingResult", "KINDS"]

#: What a ranking ranks: one score column for a positive class, or one per class / per label.
KINDS = ("binary", "multiclass", "multilabel")


@dataclass(frozen=True, eq=False)
class RankingResult(Display):
    """Items ranked by score against gold labels: the one result of ``clfeval.ranking`` and ``ranking_ovr``.

    Attributes
    ----------
    summary : RankingSummary or None
        The binary ranking (one score column, ``positive`` against the rest): exact counts, the exact average
        precision, the cuts where they are held, how a ranking beyond memory or binned was computed. None for a
        one-vs-rest ranking.
    ovr : OneVsRest or None
        The one-vs-rest ranking (one score column per class or label): per-label rows, the macro, weighted and
        micro averages, each label's ranking summary. None for a binary ranking.
    engine : EngineInfo or None
        Where it ran (the front door fills it; None for a ranking made outside it).

    Both kinds: ``kind``, ``roc_auc``, ``average_precision`` (``pr_auc``; the macro averages one-vs-rest),
    ``n``, ``signature``, ``notes``, ``curves()``. Binary: ``positive``, ``n_positive``, ``n_negative``,
    ``prevalence``, ``pairs``, ``pairs_in_order``, ``has_cuts``, ``cuts``, ``external``, ``roc_curve()``,
    ``pr_curve()``, ``metric()``.
    One-vs-rest: ``labels``, ``per_class``, ``macro``, ``weighted``, ``micro``, ``undefined``, ``rankings``.

    Examples
    --------
    >>> from clfeval.core import RankingSummary
    >>> r = RankingResult(RankingSummary("1", 2, 2, 3, 0, 0.8333333333333333))
    >>> r.kind, r.roc_auc, r.n_positive
    ('binary', 0.75, 2)
    >>> r.summary = None
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'summary'
    """

    summary: RankingSummary | None = None
    ovr: OneVsRest | None = None
    engine: EngineInfo | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if (self.summary is None) == (self.ovr is None):
            raise ValueError("a ranking is either binary (summary) or one-vs-rest (ovr), exactly one of them")
        if self.engine is not None and not isinstance(self.engine, EngineInfo):
            object.__setattr__(self, "engine", EngineInfo.of(self.engine))

    # --- both kinds ----------------------------------------------------------------------------
    @property
    def kind(self) -> str:
        """``binary``, ``multiclass`` or ``multilabel``."""
        return "binary" if self.ovr is None else self.ovr.kind

    @property
    def roc_auc(self) -> float:
        """ROC-AUC (one-vs-rest: the macro average)."""
        return self.ovr.roc_auc if self.ovr is not None else self._binary("roc_auc").roc_auc

    @property
    def average_precision(self) -> float:
        """Average precision, PR-AUC (one-vs-rest: the macro average)."""
        return self.ovr.average_precision if self.ovr is not None else self._binary("ap").average_precision

    pr_auc = average_precision

    @property
    def n(self) -> int:
        """Items."""
        return self.ovr.n if self.ovr is not None else self._binary("n").n

    @property
    def signature(self) -> Mapping[str, object]:
        """The signature (version, definitions), read-only."""
        return self.ovr.signature if self.ovr is not None else self._binary("signature").signature

    @property
    def notes(self) -> tuple[str, ...]:
        """How to read the measures (the JSON's ``notes``)."""
        if self.ovr is not None:
            return self.ovr.notes
        s = self._binary("notes")
        notes = ranking_notes(s.prevalence)
        if s.binned is not None:
            notes = [str(s.binned["note"]), *notes]
        return tuple(notes)

    def curves(self) -> dict[str, object]:
        """The decimated ROC and PR curves as plain data (one-vs-rest: per label)."""
        if self.ovr is not None:
            return dict(self.ovr.curves())
        return self._binary("curves").curves()

    # --- binary --------------------------------------------------------------------------------
    def _binary(self, what: str) -> RankingSummary:
        if self.summary is None:
            raise UsageError(f"{what} belongs to a binary ranking (one score column); this one ranks each label "
                             f"against the rest: read per_class, macro, weighted, micro or rankings[label].")
        return self.summary

    @property
    def positive(self) -> str:
        """The positive label (binary)."""
        return self._binary("positive").positive

    @property
    def n_positive(self) -> int:
        """Positive items (binary)."""
        return self._binary("n_positive").n_positive

    @property
    def n_negative(self) -> int:
        """Negative items (binary)."""
        return self._binary("n_negative").n_negative

    @property
    def prevalence(self) -> float:
        """The positives' share of the items (binary)."""
        return self._binary("prevalence").prevalence

    @property
    def pairs(self) -> int:
        """Positive–negative pairs, P·N (binary)."""
        return self._binary("pairs").pairs

    @property
    def pairs_in_order(self) -> float:
        """Pairs with the positive above the negative, ties counting one half (binary)."""
        return self._binary("pairs_in_order").pairs_in_order

    @property
    def has_cuts(self) -> bool:
        """Whether the exact per-distinct-score counts are held (binary; beyond memory only while few)."""
        return self._binary("has_cuts").has_cuts

    @property
    def external(self) -> Mapping[str, object] | None:
        """How a ranking beyond memory was computed (budget, spilled, runs; binary), read-only; None in memory."""
        return self._binary("external").external

    @property
    def cuts(self) -> object:
        """Cumulative TP and FP at every distinct score, decreasing threshold (binary; where held)."""
        return self._binary("cuts").cuts

    def roc_curve(self) -> Cuts3:
        """(fpr, tpr, thresholds), as ``sklearn.metrics.roc_curve(..., drop_intermediate=False)`` (binary)."""
        return self._binary("roc_curve").roc_curve()

    def pr_curve(self) -> Cuts3:
        """(precision, recall, thresholds), one point per cut in decreasing threshold order (binary)."""
        return self._binary("pr_curve").pr_curve()

    def metric(self, name: str, **params: float) -> float:
        """A ranking metric of the catalogue by name (``roc_auc``, ``average_precision``, ``partial_roc_auc``;
        binary).

        Examples
        --------
        >>> from clfeval.core import RankingSummary
        >>> RankingResult(RankingSummary("1", 2, 2, 3, 0, 0.8333333333333333)).metric("roc_auc")
        0.75
        """
        return self._binary("metric").metric(name, **params)

    # --- one-vs-rest ---------------------------------------------------------------------------
    def _ovr(self, what: str) -> OneVsRest:
        if self.ovr is None:
            raise UsageError(f"{what} belongs to a one-vs-rest ranking (one score column per label); this one "
                             f"ranks one score column for {self.positive!r}.")
        return self.ovr

    @property
    def labels(self) -> tuple[str, ...]:
        """The labels, in the order of the score columns (one-vs-rest)."""
        return self._ovr("labels").labels

    @property
    def per_class(self) -> Mapping[object, LabelRanking]:
        """Each label's ROC-AUC, average precision, support and prevalence (one-vs-rest)."""
        return self._ovr("per_class").per_class

    @property
    def macro(self) -> RankingAverages:
        """The mean over the labels with a defined value (one-vs-rest)."""
        return self._ovr("macro").macro

    @property
    def weighted(self) -> RankingAverages:
        """The mean weighted by support (one-vs-rest)."""
        return self._ovr("weighted").weighted

    @property
    def micro(self) -> RankingAverages:
        """One ranking of every (item, label) score (one-vs-rest)."""
        return self._ovr("micro").micro

    @property
    def undefined(self) -> tuple[UndefinedRanking, ...]:
        """The measures undefined for some labels (one-vs-rest)."""
        return self._ovr("undefined").undefined

    @property
    def rankings(self) -> Mapping[str, RankingSummary]:
        """Each label's ranking summary, keyed by the label's text form (one-vs-rest)."""
        return self._ovr("rankings").rankings

    def to_dict(self) -> dict[str, object]:
        """Plain data: the binary summary's JSON (AUC, AP, counts, baselines of a random ranking, curves;
        ``external`` beyond memory, ``binned`` for binned scores) or the one-vs-rest block's; the engine block
        after it."""
        if self.ovr is not None:
            return self.ovr.to_dict()
        out: dict[str, object] = self._binary("to_dict").to_dict()
        return out

    def to_frame(self) -> pandas.DataFrame:
        """Binary: one summary row; one-vs-rest: one row per class (index ``class``, as ``ovr.to_frame()``). Columns
        (``FRAME_COLUMNS['RankingResult']`` of :mod:`clfeval.render._frames`): ``class``, ``positive``, ``n``,
        ``n_positive``, ``n_negative``, ``prevalence``, ``roc_auc``, ``average_precision``, ``support``, ``pairs``,
        ``pairs_in_order`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)
