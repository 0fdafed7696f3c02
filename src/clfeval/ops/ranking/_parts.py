"""The typed parts of a one-vs-rest ranking: :class:`OneVsRest`, its per-label rows and its averages.

Every part is a frozen dataclass; its collections are tuples and read-only mappings. ``to_dict()`` lays the
fields out as the JSON of ``ranking_ovr`` (the same keys in the same order as before the parts were typed).

>>> a = RankingAverages(roc_auc=0.75, average_precision=0.5)
>>> a.roc_auc, a.to_dict()
(0.75, {'roc_auc': 0.75, 'average_precision': 0.5})
>>> a.roc_auc = 1.0
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'roc_auc'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clfeval.core import FrozenDict, ItemReads, LabelMap, RankingSummary, freeze, thaw

if TYPE_CHECKING:
    import pandas

__all__ = ["LabelRanking", "RankingAverages", "UndefinedRanking", "OneVsRest", "OVR_KINDS"]

#: What one-vs-rest ranks: one gold label per item (one score column per class), or a gold label set per item.
OVR_KINDS = ("multiclass", "multilabel")


@dataclass(frozen=True)
class LabelRanking(ItemReads):
    """One label ranked against all the others.

    Attributes
    ----------
    roc_auc : float
        Its ROC-AUC (NaN without positive or without negative items).
    average_precision : float
        Its average precision, PR-AUC (NaN without positive items).
    support : int
        Its gold positives.
    prevalence : float
        Its share of the items.
    """

    roc_auc: float
    average_precision: float
    support: int
    prevalence: float

    def to_dict(self) -> dict[str, object]:
        return {"roc_auc": self.roc_auc, "average_precision": self.average_precision, "support": self.support,
                "prevalence": self.prevalence}


@dataclass(frozen=True)
class RankingAverages(ItemReads):
    """ROC-AUC and average precision averaged over the labels (macro, weighted or micro).

    Attributes
    ----------
    roc_auc : float
        The averaged ROC-AUC (NaN when no label has one).
    average_precision : float
        The averaged average precision.
    """

    roc_auc: float
    average_precision: float

    def to_dict(self) -> dict[str, object]:
        return {"roc_auc": self.roc_auc, "average_precision": self.average_precision}


@dataclass(frozen=True)
class UndefinedRanking(ItemReads):
    """A ranking measure undefined for some labels (left out of the macro and weighted averages).

    Attributes
    ----------
    metric : str
        ``roc_auc`` or ``average_precision``.
    labels : tuple of str
        The labels it is undefined for.
    reason : str
        Why, in words.
    """

    metric: str
    labels: tuple[str, ...]
    reason: str

    def to_dict(self) -> dict[str, object]:
        return {"metric": self.metric, "labels": list(self.labels), "reason": self.reason}


@dataclass(frozen=True, eq=False)
class OneVsRest:
    """Per-label rankings (one label against all others) with macro, weighted and micro averages.

    Macro = plain mean over the labels with a defined value; weighted = weighted by support (gold positives);
    micro = one ranking of every (item, label) pair, as scikit-learn's ``average="micro"``.

    Attributes
    ----------
    kind : str
        ``multiclass`` (one gold label per item, one score column per class) or ``multilabel`` (a gold label
        set per item, one score column per label).
    labels : tuple of str
        The labels, in the order of the score columns.
    n : int
        Items.
    per_class : Mapping[object, LabelRanking]
        Each label's ranking measures, keyed by the labels as given (their text forms find them too), read-only.
    macro, weighted, micro : RankingAverages
        The three averages.
    undefined : tuple of UndefinedRanking
        The measures undefined for some labels.
    notes : tuple of str
        How to read the averages.
    signature : Mapping[str, object]
        The signature (version, definitions, kind), read-only.
    rankings : Mapping[str, RankingSummary]
        Each label's ranking summary (its curves are drawn from it), keyed by the label's text form, read-only.
    """

    kind: str
    labels: tuple[str, ...]
    n: int
    per_class: Mapping[object, LabelRanking]
    macro: RankingAverages
    weighted: RankingAverages
    micro: RankingAverages
    undefined: tuple[UndefinedRanking, ...] = ()
    notes: tuple[str, ...] = ()
    signature: Mapping[str, object] = field(default_factory=FrozenDict, repr=False)
    rankings: Mapping[str, RankingSummary] = field(default_factory=FrozenDict, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in OVR_KINDS:
            raise ValueError(f"a one-vs-rest ranking is one of {', '.join(OVR_KINDS)}; got {self.kind!r}")
        if not isinstance(self.per_class, FrozenDict):
            object.__setattr__(self, "per_class", FrozenDict(self.per_class))
        object.__setattr__(self, "signature", freeze(dict(self.signature)))
        object.__setattr__(self, "rankings", FrozenDict(self.rankings))

    @property
    def roc_auc(self) -> float:
        """Macro ROC-AUC."""
        return self.macro.roc_auc

    @property
    def average_precision(self) -> float:
        """Macro average precision."""
        return self.macro.average_precision

    def curves(self) -> dict[str, dict[str, object]]:
        """Each label's decimated ROC and PR curves as plain data."""
        return {lab: rk.curves() for lab, rk in self.rankings.items()}

    def to_dict(self) -> dict[str, object]:
        """Plain data, the JSON of ``ranking_ovr``."""
        pc = self.per_class
        rows = pc.as_text() if isinstance(pc, LabelMap) else {str(k): v for k, v in pc.items()}
        plain: dict[str, object] = thaw({
            "kind": self.kind, "n": self.n, "labels": list(self.labels),
            "per_class": {k: v.to_dict() for k, v in rows.items()},
            "roc_auc": self.macro.roc_auc, "average_precision": self.macro.average_precision,
            "macro": self.macro.to_dict(), "weighted": self.weighted.to_dict(), "micro": self.micro.to_dict(),
            "undefined": [u.to_dict() for u in self.undefined], "notes": list(self.notes),
            "signature": self.signature, "curves": self.curves()})
        return plain

    def to_frame(self) -> pandas.DataFrame:
        """One row per class (index ``class``). Columns (``FRAME_COLUMNS['OneVsRest']`` of
        :mod:`clfeval.render._frames`): ``class``, ``prevalence``, ``roc_auc``, ``average_precision``, ``support``
        (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)
