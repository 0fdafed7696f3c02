"""The typed parts of a threshold result (:class:`~clfeval.ops.threshold.ThresholdResult`): one cut's counts and
measures, the threshold sweep, the single cut chosen (default → dev-chosen → hindsight), the cuts of every label
and their averages, how a streamed or distributed ranking was computed.

Each is a frozen dataclass of plain fields whose ``to_dict()`` is its JSON, exactly as ``clfeval threshold`` lays
it out; ``of(d)`` reads a part from the plain data the threshold code computes (:mod:`clfeval.scores._thresholds`
builds them). Nothing here computes a cut.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clfeval.core import FrozenDict, ItemReads
from clfeval.ops.threshold._json import (
    flag,
    real,
    real_or_none,
    reals,
    table,
    whole,
    whole_or_none,
    word,
    word_or_none,
    words,
)

if TYPE_CHECKING:
    import pandas

__all__ = ["CutRow", "Sweep", "SortedRuns", "ChosenCut", "LabelCut", "CutAverages", "LabelCuts"]


def _frozen(d: Mapping[str, object]) -> FrozenDict:
    return d if isinstance(d, FrozenDict) else FrozenDict(d)


@dataclass(frozen=True)
class CutRow(ItemReads):
    """One cut applied to one data set: its counts and measures (a row of the threshold table).

    Attributes
    ----------
    threshold : float
        The cut: an item is predicted positive iff its score ≥ threshold (an int for integer scores).
    tp, fp, fn, tn : int
        The counts at the cut.
    precision, recall, f1 : float
        The measures at the cut (0/0 by ``zero_division``).
    fbeta : float or None
        F-beta for the objective's beta when it is not 1 (None: F1 is the objective's F).
    fpr : float
        The false positive rate.
    accuracy : float
        (TP + TN) / N.
    cost : float
        The expected cost per item, (cost_fp · FP + cost_fn · FN) / N.
    source : str or None
        Where the default cut comes from, in words (the default row only).
    label : str or None
        What the row is, in words (the hindsight row only).
    """

    threshold: float
    tp: int
    fp: int
    fn: int
    tn: int
    precision: float
    recall: float
    f1: float
    fpr: float
    accuracy: float
    cost: float
    fbeta: float | None = None
    source: str | None = None
    label: str | None = None

    @classmethod
    def of(cls, d: Mapping[str, object]) -> CutRow:
        """The row of its plain data (``cut_row``'s dict, with ``source`` or ``label``)."""
        return cls(real(d["threshold"]), whole(d["tp"]), whole(d["fp"]), whole(d["fn"]), whole(d["tn"]),
                   real(d["precision"]), real(d["recall"]), real(d["f1"]), real(d["fpr"]), real(d["accuracy"]),
                   real(d["cost"]), real_or_none(d.get("fbeta")), word_or_none(d.get("source")),
                   word_or_none(d.get("label")))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"threshold": self.threshold, "tp": self.tp, "fp": self.fp, "fn": self.fn,
                                  "tn": self.tn, "precision": self.precision, "recall": self.recall, "f1": self.f1}
        if self.fbeta is not None:
            out["fbeta"] = self.fbeta
        out.update(fpr=self.fpr, accuracy=self.accuracy, cost=self.cost)
        if self.source is not None:
            out["source"] = self.source
        if self.label is not None:
            out["label"] = self.label
        return out


@dataclass(frozen=True)
class Sweep(ItemReads):
    """Precision, recall and F-beta against the threshold on the test data, decimated (figure data:
    :func:`clfeval.plots.threshold`).

    Attributes
    ----------
    beta : float
        The F's beta.
    threshold : tuple of float
        The cuts, decreasing.
    precision, recall, fbeta : tuple of float
        The measures at each cut.
    reference_px : tuple of int
        The figure size (pixels) the decimation keeps every visible point of.
    """

    beta: float
    threshold: tuple[float, ...]
    precision: tuple[float, ...]
    recall: tuple[float, ...]
    fbeta: tuple[float, ...]
    reference_px: tuple[int, ...]

    @classmethod
    def of(cls, d: Mapping[str, object]) -> Sweep:
        px = d["reference_px"]
        return cls(real(d["beta"]), reals(d["threshold"]), reals(d["precision"]), reals(d["recall"]),
                   reals(d["fbeta"]), tuple(whole(v) for v in px) if isinstance(px, (list, tuple)) else ())

    def to_dict(self) -> dict[str, object]:
        return {"beta": self.beta, "threshold": list(self.threshold), "precision": list(self.precision),
                "recall": list(self.recall), "fbeta": list(self.fbeta), "reference_px": list(self.reference_px)}

    def to_frame(self) -> pandas.DataFrame:
        """One row per candidate cut of the sweep on the test data (decimated as the figure keeps it). Columns
        (``FRAME_COLUMNS['Sweep']`` of :mod:`clfeval.render._frames`): ``threshold``, ``precision``, ``recall``,
        ``fbeta`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)


@dataclass(frozen=True)
class SortedRuns(ItemReads):
    """How the exact rankings behind a streamed or distributed choice were computed (``external`` in the JSON).

    Attributes
    ----------
    memory : int or None
        The memory budget in bytes the rankings shared (streamed; None on Dask).
    spilled : bool
        Whether sorted runs went to disk (always False on Dask).
    runs : int
        Sorted runs written (streamed).
    engine : str or None
        ``dask`` for a choice made on a cluster (None: streamed locally).
    partitions : Mapping[str, int]
        On Dask: the partitions of each input (``test``, ``dev``), read-only.
    ranges : Mapping[str, int]
        On Dask: the score ranges each input's ranking was cut into, read-only.
    """

    memory: int | None = None
    spilled: bool = False
    runs: int = 0
    engine: str | None = None
    partitions: Mapping[str, int] = field(default_factory=FrozenDict)
    ranges: Mapping[str, int] = field(default_factory=FrozenDict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "partitions", _frozen(self.partitions))
        object.__setattr__(self, "ranges", _frozen(self.ranges))

    @classmethod
    def of(cls, d: Mapping[str, object]) -> SortedRuns:
        if d.get("engine") is not None:
            parts, ranges = table(d.get("partitions") or {}), table(d.get("ranges") or {})
            return cls(engine=word(d["engine"]), partitions={k: whole(v) for k, v in parts.items()},
                       ranges={k: whole(v) for k, v in ranges.items()})
        return cls(memory=whole_or_none(d.get("memory")), spilled=flag(d.get("spilled", False)),
                   runs=whole(d.get("runs", 0)))

    @property
    def on_cluster(self) -> bool:
        """Whether the rankings were computed on a Dask cluster."""
        return self.engine is not None

    def to_dict(self) -> dict[str, object]:
        if self.engine is not None:
            return {"engine": self.engine, "partitions": dict(self.partitions), "ranges": dict(self.ranges)}
        return {"memory": self.memory, "spilled": self.spilled, "runs": self.runs}


@dataclass(frozen=True)
class ChosenCut(ItemReads):
    """One score column's cut: the default, the cut chosen on development data and the best in hindsight, each
    measured on the test data.

    Attributes
    ----------
    positive : str
        The class whose scores are cut.
    threshold : float or None
        The cut chosen on the development data (None without development data).
    default : CutRow
        The default cut on the test data (with its ``source``).
    test : CutRow or None
        The chosen cut on the test data (None without development data).
    hindsight : CutRow or None
        The best cut chosen on the test labels themselves: optimistic (None when no cut qualifies).
    dev : CutRow or None
        The chosen cut on the development data.
    sweep : Sweep or None
        The threshold sweep of the test data (None when it has no items of a class).
    """

    positive: str
    threshold: float | None
    default: CutRow
    test: CutRow | None = None
    hindsight: CutRow | None = None
    dev: CutRow | None = None
    sweep: Sweep | None = None

    @property
    def cut(self) -> float:
        """The cut in force: the chosen one, else the default."""
        return self.default.threshold if self.threshold is None else self.threshold

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"positive": self.positive, "threshold": self.threshold,
                                  "default": self.default.to_dict()}
        for name, row in (("test", self.test), ("hindsight", self.hindsight), ("dev", self.dev)):
            out[name] = None if row is None else row.to_dict()
        if self.sweep is not None:
            out["sweep"] = self.sweep.to_dict()
        return out


@dataclass(frozen=True)
class LabelCut(ItemReads):
    """The cuts of one label (multi-label data): the default, the one chosen on development data, hindsight.

    Attributes
    ----------
    default : CutRow
        The label's default cut on the test data (with its ``source``).
    threshold : float or None
        The cut chosen on the development data (None: the label keeps its default, or no development data).
    test : CutRow or None
        The cut in force on the test data (None without development data).
    hindsight : CutRow or None
        The best cut chosen on the test labels (None without a positive test item).
    dev : CutRow or None
        The chosen cut on the development data (None when none was chosen).
    """

    default: CutRow
    threshold: float | None
    test: CutRow | None = None
    hindsight: CutRow | None = None
    dev: CutRow | None = None

    @classmethod
    def of(cls, d: Mapping[str, object]) -> LabelCut:
        def row(x: object) -> CutRow | None:
            return None if x is None else CutRow.of(table(x))

        return cls(CutRow.of(table(d["default"])), real_or_none(d.get("threshold")), row(d.get("test")),
                   row(d.get("hindsight")), row(d.get("dev")))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"default": self.default.to_dict()}
        if self.dev is not None:
            out["dev"] = self.dev.to_dict()
        out.update(threshold=self.threshold, test=None if self.test is None else self.test.to_dict(),
                   hindsight=None if self.hindsight is None else self.hindsight.to_dict())
        return out


@dataclass(frozen=True)
class CutAverages(ItemReads):
    """The test data's averages over labels at one vector of cuts (default, tuned or hindsight).

    Attributes
    ----------
    micro : Mapping[str, float]
        Precision, recall, F1 (and F-beta) pooling TP, FP and FN over labels, read-only.
    macro : Mapping[str, float]
        The same as the plain mean over labels, read-only.
    subset_accuracy : float
        The share of items whose whole label set is right.
    hamming_loss : float
        The share of wrong (item, label) decisions.
    """

    micro: Mapping[str, float]
    macro: Mapping[str, float]
    subset_accuracy: float
    hamming_loss: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "micro", _frozen(self.micro))
        object.__setattr__(self, "macro", _frozen(self.macro))

    @classmethod
    def of(cls, d: Mapping[str, object]) -> CutAverages:
        return cls({k: real(v) for k, v in table(d["micro"]).items()},
                   {k: real(v) for k, v in table(d["macro"]).items()}, real(d["subset_accuracy"]),
                   real(d["hamming_loss"]))

    def to_dict(self) -> dict[str, object]:
        return {"micro": dict(self.micro), "macro": dict(self.macro), "subset_accuracy": self.subset_accuracy,
                "hamming_loss": self.hamming_loss}


@dataclass(frozen=True)
class LabelCuts(ItemReads):
    """Multi-label data: one cut per label chosen on development data, with the averages on the test data before
    tuning (``default``), after it (``tuned``) and in hindsight.

    Attributes
    ----------
    labels : tuple of str
        The labels (score columns), in order.
    thresholds : Mapping[str, float or None]
        Each label's chosen cut (None: it keeps its default), read-only.
    per_label : Mapping[str, LabelCut]
        Each label's cuts and rows, read-only.
    averages : Mapping[str, CutAverages]
        ``default``, ``tuned`` (with development data) and ``hindsight``: the averages at each vector of cuts.
    """

    labels: tuple[str, ...]
    thresholds: Mapping[str, float | None]
    per_label: Mapping[str, LabelCut]
    averages: Mapping[str, CutAverages]

    def __post_init__(self) -> None:
        for name in ("thresholds", "per_label", "averages"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))

    @classmethod
    def of(cls, labels: object, thresholds: Mapping[str, object], per_label: Mapping[str, object],
           averages: Mapping[str, object]) -> LabelCuts:
        return cls(words(labels), {k: real_or_none(v) for k, v in thresholds.items()},
                   {k: LabelCut.of(table(v)) for k, v in per_label.items()},
                   {k: CutAverages.of(table(v)) for k, v in averages.items()})

    def to_dict(self) -> dict[str, object]:
        return {"labels": list(self.labels), "thresholds": dict(self.thresholds),
                "per_label": {k: v.to_dict() for k, v in self.per_label.items()},
                "averages": {k: v.to_dict() for k, v in self.averages.items()}}

    def to_frame(self) -> pandas.DataFrame:
        """One row per label × cut (``default``, ``dev``, ``test``, ``hindsight``; absent cuts left out). Columns
        (``FRAME_COLUMNS['LabelCuts']`` of :mod:`clfeval.render._frames`): ``label``, ``cut``, ``threshold``, ``tp``,
        ``fp``, ``fn``, ``tn``, ``precision``, ``recall``, ``f1``, ``fbeta``, ``fpr``, ``accuracy``, ``cost``,
        ``source`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)
