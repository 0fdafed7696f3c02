"""The results of a protocol run: one :class:`FoldResult` per fold, and the :class:`ProtocolResult`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from clfeval.core import ConfusionTable, Display, EngineInfo, MultilabelTable, freeze_fields, thaw
from clfeval.evaluate import Report
from clfeval.protocols._splits import Protocol
from clfeval.protocols._spread import Spread

__all__ = ["FoldResult", "ProtocolResult"]


@dataclass(frozen=True, eq=False)
class FoldResult:
    """Everything measured on one fold. ``repeat`` and ``fold`` count from 1."""

    repeat: int
    fold: int
    n_train: int
    n_test: int
    table: ConfusionTable | MultilabelTable = field(repr=False)
    metrics: Mapping[str, float]
    train_metrics: Mapping[str, float] | None
    validation_metrics: Mapping[str, float] | None
    baselines: Mapping[str, Mapping[str, float]]
    thresholds: Mapping[str, float] | None = None
    notes: tuple[str, ...] = ()
    n_validation: int | None = None
    cut_rows: Mapping[str, Mapping[str, object]] | None = None

    def __post_init__(self) -> None:
        freeze_fields(self, ("metrics", "train_metrics", "validation_metrics", "baselines", "thresholds", "cut_rows"))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"repeat": self.repeat, "fold": self.fold, "n_train": self.n_train, "n_test": self.n_test}
        if self.n_validation is not None:
            out["n_validation"] = self.n_validation
        out.update(self.metrics)
        if self.train_metrics is not None:
            out["train"] = dict(self.train_metrics)
        if self.validation_metrics is not None:
            out["validation"] = dict(self.validation_metrics)
        out["baselines"] = self.baselines
        out["phi_delta"] = _phi_delta(self.table)
        if self.thresholds is not None:
            out["thresholds"] = self.thresholds
        if self.cut_rows is not None:
            out["cuts"] = self.cut_rows
        if self.notes:
            out["notes"] = list(self.notes)
        return thaw(out)  # type: ignore[no-any-return]


def _phi_delta(table: ConfusionTable | MultilabelTable) -> dict[str, dict[str, float]]:
    """φ and δ of every class of a fold's table (the points of the fold in the φ–δ diagram); NaN undefined."""
    from clfeval.core import binary_class_counts, class_counts, phi_delta_of_counts

    c = binary_class_counts(table.counts) if isinstance(table, MultilabelTable) else class_counts(table.counts)
    return phi_delta_of_counts(c, table.label_strings)


@dataclass(frozen=True, eq=False)
class ProtocolResult(Display):
    """A model evaluated under a protocol: per fold, spread, pooled, train–test gap.

    Attributes
    ----------
    kind : {"single-label", "multilabel"}
    protocol : Protocol
    labels : tuple of str
    metric_names : tuple of str
        The reported metrics, in order.
    folds : tuple of FoldResult
        All folds of all repeats.
    spread : dict name → Spread
        Of every reported metric over all folds of all repeats.
    pooled : Report
        The report of the out-of-fold table summed over folds (and repeats).
    pooled_by_repeat : tuple of Report
        One pooled report per repeat.
    train_vs_test : dict or None
        ``{"train": {metric: mean}, "test": {...}, "gap": {...}}``.
    validation : dict name → Spread, or None
        Train/validation/test holdout: the metrics on the validation part.
    baselines : dict
        Per baseline and metric, the spread over folds.
    thresholds : dict or None
        With an objective threshold step: per label, the mean over test folds
        of the measures at the default cut 0, at the cut chosen on the
        development split, and at the best cut in hindsight (chosen on the
        test fold itself: optimistic, shown only to measure what the
        development split found).
    predictions : pyarrow.Table
        Out-of-fold predictions and scores: ``[repeat,] id, fold, gold, pred, score:<label>...`` and, with
        ``probabilities``, ``p:<label>...`` (:mod:`clfeval.protocols._predictions`).
    signature : dict
        clfeval version, seed, protocol, model, library versions, definitions.
    run_id : int or None
        The run's id in the run log (the command line records it; None from the library).
    predictions_path : str or None
        Where the command line wrote the out-of-fold predictions (None from the library).
    engine : EngineInfo or None
        Where it ran (``clfeval.cv`` and ``clfeval.holdout`` run on the local engine only: fitting models is not
        distributed), ``to_dict()["engine"]`` when set; without it ``to_dict()`` is the JSON of ``clfeval cv``
        and ``clfeval holdout``.
    """

    kind: str
    protocol: Protocol
    labels: tuple[str, ...]
    metric_names: tuple[str, ...]
    folds: tuple[FoldResult, ...]
    spread: Mapping[str, Spread]
    pooled: Report
    pooled_by_repeat: tuple[Report, ...]
    train_vs_test: Mapping[str, object] | None  # train, test, gap: {metric: mean}; how: the words
    validation: Mapping[str, Spread] | None
    baselines: Mapping[str, Mapping[str, Spread]]
    predictions: pa.Table = field(repr=False)
    signature: Mapping[str, object] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    run_id: int | None = None
    predictions_path: str | None = None
    thresholds: Mapping[str, object] | None = None
    engine: EngineInfo | None = None

    def __post_init__(self) -> None:
        freeze_fields(self, ("spread", "train_vs_test", "validation", "baselines", "signature", "thresholds"))

    @property
    def n(self) -> int:
        """Items in the data (each tested once per repeat in k-fold)."""
        n = self.signature.get("n", 0)
        return int(n) if isinstance(n, (int, float)) else 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON interface: ``folds``, ``per_fold``, one ``{"mean","std","min","max","n"}`` per
        metric at the top level, ``pooled`` (a report), ``train_vs_test``, ``run_id``, ..."""
        out: dict[str, Any] = {"schema_version": 1, "kind": self.kind, "protocol": self.protocol.to_dict(),
                               "folds": self.protocol.folds, "repeats": self.protocol.repeats, "n": self.n,
                               "labels": list(self.labels), "metrics": list(self.metric_names)}
        for name in self.metric_names:
            out[name] = self.spread[name].to_dict()
        out["per_fold"] = [f.to_dict() for f in self.folds]
        out["baselines"] = {b: {m: s.to_dict() for m, s in ms.items()} for b, ms in self.baselines.items()}
        if self.validation is not None:
            out["validation"] = {m: s.to_dict() for m, s in self.validation.items()}
        out["train_vs_test"] = self.train_vs_test
        if self.thresholds is not None:
            out["thresholds"] = self.thresholds
        out["pooled"] = self.pooled.to_dict()
        if len(self.pooled_by_repeat) > 1:
            out["pooled_by_repeat"] = [{"repeat": i + 1, **{m: r.metric(m) for m in self.metric_names}}
                                       for i, r in enumerate(self.pooled_by_repeat)]
        out["predictions"] = self.predictions_path
        out["run_id"] = self.run_id
        out["notes"] = list(self.notes)
        out["signature"] = self.signature
        return thaw(out)  # type: ignore[no-any-return]
