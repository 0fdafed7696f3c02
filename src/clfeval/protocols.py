"""Honest protocols: data splits, cross-validation with its spread, the train–test gap.

Every item is tested by a model that never saw it, and every step that is
fitted — the vectorizer's vocabulary and idf, feature selection, a decision
threshold, hyper-parameters chosen by a search estimator — is fitted on the
training part of a fold only: the runner clones the whole estimator for each
fold and fits it on that fold's training items, and a threshold is chosen on
a development split carved out of the training fold.

The splits — holdout, stratified, train/validation/test, repeated, k-fold,
multi-label iterative stratification — live in :mod:`clfeval.splits` and are
re-exported here (:class:`Protocol`, :func:`split`).

The runner
----------
:func:`run_protocol` (and its short forms :func:`cross_validate` and
:func:`holdout`) returns a :class:`ProtocolResult`: the count table of every
fold, merged with ``+`` into the pooled out-of-fold table of each repeat;
every reported metric per fold and its spread over all folds of all repeats
(mean, sample standard deviation with ddof = 1, min, max); the baselines of
every fold, their majority class taken from that fold's training labels; the
same model scored on its own training items beside its test items (the
train–test gap); and the out-of-fold predictions and scores as a table
(columns ``id, fold, gold, pred`` and ``score:<label>``, plus ``repeat`` when
there are several repeats) that :func:`write_predictions` saves as CSV, TSV,
JSON lines or Parquet.

Per-fold metrics are those of the fold's own table — the labels that occur
in that fold's gold or predicted labels — so that ``clfeval report`` on the
rows of one fold of the predictions file gives the same numbers.

References
----------
* Kohavi (1995), "A study of cross-validation and bootstrap for accuracy
  estimation and model selection".
* Hastie, Tibshirani & Friedman (2009), *The Elements of Statistical
  Learning*, §7.10.2 ("the wrong and the right way to do cross-validation").
"""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import pyarrow as pa

from clfeval._labels import encode_labels, encode_multilabel, label_str, resolve_label, sort_labels
from clfeval._validation import check_probability, check_zero_division, zero_division_name
from clfeval.errors import DataError, UsageError
from clfeval.reports import Report, report_from_table
from clfeval.signature import build_signature
from clfeval.splits import Fold, Protocol, _check_seed, _derived_seed, iterative_stratification, split
from clfeval.tables import ConfusionTable, MultilabelTable, confusion_table

__all__ = [
    "Protocol",
    "Fold",
    "split",
    "iterative_stratification",
    "Spread",
    "spread",
    "ThresholdStep",
    "FoldResult",
    "ProtocolResult",
    "run_protocol",
    "cross_validate",
    "holdout",
    "report_metric",
    "default_metrics",
    "write_predictions",
    "PREDICTION_FORMATS",
]


# ----------------------------------------------------------------------------
# Spread
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Spread:
    """Mean, sample standard deviation (ddof = 1), min and max of a metric over folds.

    ``n`` counts the folds where the metric was defined; ``std`` is NaN when
    fewer than two were.
    """

    mean: float
    std: float
    min: float
    max: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "std": self.std, "min": self.min, "max": self.max, "n": self.n}


def spread(values: Sequence[float]) -> Spread:
    """The spread of a metric over folds: mean, sample std (ddof = 1), min, max.

    s = sqrt(Σ (x_i − x̄)² / (n − 1)), undefined for n < 2. NaN values
    (a metric undefined in a fold) are left out, and ``n`` says how many
    remained.

    Examples
    --------
    Mission §10 example 10: five folds scoring 82, 80, 84, 81 and 83 %:

    >>> s = spread([0.82, 0.80, 0.84, 0.81, 0.83])
    >>> round(s.mean, 10), round(s.std, 6), s.min, s.max
    (0.82, 0.015811, 0.8, 0.84)
    """
    x = np.asarray(values, dtype=np.float64)
    x = x[~np.isnan(x)]
    if x.size == 0:
        return Spread(math.nan, math.nan, math.nan, math.nan, 0)
    std = float(np.std(x, ddof=1)) if x.size > 1 else math.nan
    return Spread(float(np.mean(x)), std, float(x.min()), float(x.max()), int(x.size))


# ----------------------------------------------------------------------------
# Metrics read off a report
# ----------------------------------------------------------------------------

_SINGLE_DEFAULT = ("accuracy", "error_rate", "balanced_accuracy", "macro_precision", "macro_recall", "macro_f1",
                   "macro_f1_of_means", "micro_f1", "weighted_f1", "mcc", "kappa")
_MULTI_DEFAULT = ("accuracy", "hamming_loss", "jaccard", "macro_precision", "macro_recall", "macro_f1",
                  "macro_f1_of_means", "micro_precision", "micro_recall", "micro_f1", "weighted_f1")
_LOWER_IS_BETTER = frozenset({"error_rate", "hamming_loss"})
_PER_LABEL = ("f1", "precision", "recall", "specificity", "fpr", "delta", "phi", "fbeta")


def default_metrics(multilabel: bool = False) -> tuple[str, ...]:
    """The metrics a protocol run reports by default (single-label or multi-label)."""
    return _MULTI_DEFAULT if multilabel else _SINGLE_DEFAULT


def report_metric(rep: Report, name: str) -> float:
    """A named metric read off a :class:`~clfeval.reports.Report`.

    Names are the report's JSON paths joined by underscores, as everywhere
    in clfeval: ``accuracy``, ``error_rate``, ``balanced_accuracy``, ``mcc``,
    ``kappa``, ``macro_f1``, ``macro_f1_of_means``, ``micro_f1``,
    ``weighted_precision``, …; multi-label also ``subset_accuracy``,
    ``hamming_loss``, ``jaccard``; ``f1:LABEL`` (and ``precision:``,
    ``recall:``, …) for one class — NaN when the class does not occur.

    >>> from clfeval import report
    >>> report_metric(report(["a", "b", "b"], ["a", "b", "a"]), "macro_f1")
    0.6666666666666666
    """
    if ":" in name:
        prefix, _, label = name.partition(":")
        if prefix not in _PER_LABEL:
            raise UsageError(f"unknown metric {name!r}; per-class metrics are {', '.join(p + ':LABEL' for p in _PER_LABEL)}.")
        row = rep.per_class.get(label)
        return math.nan if row is None or prefix not in row else float(row[prefix])
    for how in ("macro", "micro", "weighted"):
        if name.startswith(how + "_"):
            key = name[len(how) + 1:]
            block = getattr(rep, how)
            if key in block:
                return float(block[key])
            break
    value = getattr(rep, name, None) if name in {"accuracy", "error_rate", "balanced_accuracy", "mcc", "kappa",
                                                 "subset_accuracy", "hamming_loss", "jaccard"} else None
    if value is None:
        valid = ", ".join(default_metrics(rep.kind == "multilabel"))
        raise UsageError(f"unknown metric {name!r} for {rep.kind} data; for example: {valid}, or f1:LABEL.")
    return float(value)


# ----------------------------------------------------------------------------
# The fold-internal threshold step
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ThresholdStep:
    """Choose a decision threshold on a development split inside each training fold.

    In each fold, the training items are split again (``dev_size`` of them,
    stratified, seeded) into an inner training part and a development part;
    a clone of the estimator is fitted on the inner part and scores the
    development part; ``choose(is_positive, scores)`` returns the cut; the
    model fitted on the *whole* training fold then decides "positive iff
    score ≥ cut" on the test fold. In a train/validation/test holdout the
    validation part is the development split. Binary data: one cut for
    ``positive``; multi-label data: one cut per label. A label whose
    development part holds only one class keeps the default cut 0.

    :meth:`for_objective` builds the usual step from :mod:`clfeval.curves`:
    maximise F-beta, minimise an expected cost, or reach a precision or
    recall target, with curves' tie rules; the test fold then also shows
    the default cut and the best-in-hindsight cut (chosen on the test fold
    itself, optimistic by construction) beside the cut chosen on the
    development split.

    Parameters
    ----------
    choose : callable (is_positive: bool array, scores: float array) -> float or None
        The threshold choice; None keeps the default cut 0 (e.g. no cut
        reaches a precision target).
    dev_size : float
        Share of the training fold held out for choosing.
    positive : label, optional
        Binary data: the positive class (default: the second in natural order).
    name : str
        What the choice optimises, for the signature.
    objective : clfeval.curves.Objective, optional
        Set by :meth:`for_objective`; enables the default/chosen/hindsight rows.

    Examples
    --------
    >>> ThresholdStep.for_objective("f1").name
    'f1'
    """

    choose: Callable[[np.ndarray, np.ndarray], float | None]
    dev_size: float = 0.2
    positive: Any = None
    name: str = "custom"
    objective: Any = None

    def __post_init__(self) -> None:
        check_probability(self.dev_size, option="dev_size")
        if not callable(self.choose):
            raise UsageError("ThresholdStep.choose must be a callable (is_positive, scores) -> threshold.")

    @classmethod
    def for_objective(cls, objective: Any = "f1", *, dev_size: float = 0.2, positive: Any = None,
                      cost_fp: float = 1.0, cost_fn: float = 1.0) -> "ThresholdStep":
        """The threshold choice of :mod:`clfeval.curves` for an objective (``f1``, ``f0.5``, ``cost``,
        ``precision>=0.9``, ``recall>=0.8``, ...), run on each fold's development split."""
        from clfeval.curves import parse_objective

        obj = parse_objective(objective, cost_fp=cost_fp, cost_fn=cost_fn)
        return cls(_ObjectiveChoice(obj), dev_size=dev_size, positive=positive, name=obj.name, objective=obj)

    def to_dict(self) -> dict[str, Any]:
        out = {"objective": self.name, "dev_size": self.dev_size,
               "positive": None if self.positive is None else label_str(self.positive),
               "rule": "positive iff score >= threshold; threshold chosen on a development split of each training fold"}
        if self.objective is not None:
            out["description"] = self.objective.describe()
        return out


class _ObjectiveChoice:
    """Picklable ``choose``: the cut :meth:`clfeval.curves.Ranking.best_cut` picks for an objective."""

    def __init__(self, objective: Any) -> None:
        self.objective = objective

    def __call__(self, is_positive: np.ndarray, scores: np.ndarray) -> float | None:
        from clfeval.curves import Ranking

        rk = Ranking.from_indicator(np.asarray(is_positive, dtype=bool), np.asarray(scores, dtype=np.float64))
        k = rk.best_cut(self.objective)
        return None if k is None else float(rk.cuts.thresholds[k])


# ----------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FoldResult:
    """Everything measured on one fold. ``repeat`` and ``fold`` count from 1."""

    repeat: int
    fold: int
    n_train: int
    n_test: int
    table: ConfusionTable | MultilabelTable = field(repr=False)
    metrics: dict[str, float]
    train_metrics: dict[str, float] | None
    validation_metrics: dict[str, float] | None
    baselines: dict[str, dict[str, float]]
    thresholds: dict[str, float] | None = None
    notes: tuple[str, ...] = ()
    n_validation: int | None = None
    cut_rows: dict[str, dict[str, Any]] | None = None

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
        if self.thresholds is not None:
            out["thresholds"] = self.thresholds
        if self.cut_rows is not None:
            out["cuts"] = self.cut_rows
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True, eq=False)
class ProtocolResult:
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
        Out-of-fold predictions and scores (see the module docstring).
    signature : dict
        clfeval version, seed, protocol, model, library versions, definitions.
    """

    kind: str
    protocol: Protocol
    labels: tuple[str, ...]
    metric_names: tuple[str, ...]
    folds: tuple[FoldResult, ...]
    spread: dict[str, Spread]
    pooled: Report
    pooled_by_repeat: tuple[Report, ...]
    train_vs_test: dict[str, dict[str, float]] | None
    validation: dict[str, Spread] | None
    baselines: dict[str, dict[str, Spread]]
    predictions: pa.Table = field(repr=False)
    signature: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    run_id: int | None = None
    predictions_path: str | None = None
    thresholds: dict[str, Any] | None = None

    @property
    def n(self) -> int:
        """Items in the data (each tested once per repeat in k-fold)."""
        return int(self.signature.get("n", 0))

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
            out["pooled_by_repeat"] = [{"repeat": i + 1, **{m: report_metric(r, m) for m in self.metric_names}}
                                       for i, r in enumerate(self.pooled_by_repeat)]
        out["predictions"] = self.predictions_path
        out["run_id"] = self.run_id
        out["notes"] = list(self.notes)
        out["signature"] = self.signature
        return out


# ----------------------------------------------------------------------------
# The runner
# ----------------------------------------------------------------------------


def _take(X: Any, idx: np.ndarray) -> Any:
    if hasattr(X, "iloc"):
        return X.iloc[idx]
    if isinstance(X, np.ndarray) or hasattr(X, "tocsr") or hasattr(X, "shape"):
        return X[idx]
    return [X[i] for i in idx.tolist()]


def _scores(model: Any, X: Any, n_cols: int, classes: Sequence[Any] | None) -> tuple[np.ndarray | None, str | None]:
    """Scores (n, n_cols) in the column order of the data's labels, and what they are."""
    if hasattr(model, "decision_function"):
        s, kind = np.asarray(model.decision_function(X), dtype=np.float64), "decision_function"
    elif hasattr(model, "predict_proba"):
        s, kind = model.predict_proba(X), "predict_proba"
        if isinstance(s, list):  # multi-output estimators: one (n, 2) array per label
            s = np.column_stack([np.asarray(p)[:, -1] for p in s])
        s = np.asarray(s, dtype=np.float64)
    else:
        return None, None
    if classes is None:  # multi-label: columns are the label columns
        return s.reshape(s.shape[0], -1), kind
    if s.ndim == 1:
        if kind == "decision_function":
            s = np.column_stack([-s, s])
        else:
            s = np.column_stack([1 - s, s])
    return s, kind


def _align_scores(s: np.ndarray, model_classes: Sequence[Any], labels: Sequence[Any]) -> np.ndarray:
    """Scores in the order of all ``labels``; NaN for a class the fold's model never saw."""
    out = np.full((s.shape[0], len(labels)), np.nan)
    pos = {label_str(c): j for j, c in enumerate(model_classes)}
    for i, lab in enumerate(labels):
        j = pos.get(label_str(lab))
        if j is not None:
            out[:, i] = s[:, j]
    return out


class _Data:
    """The labels of a run, validated and encoded once."""

    def __init__(self, y: Any, multilabel: bool, sep: str) -> None:
        self.multilabel = multilabel
        self.sep = sep
        if multilabel:
            if isinstance(y, np.ndarray) and y.ndim == 2:
                raise UsageError("multi-label runs take label sets (lists or strings separated by sep), "
                                 "not an indicator matrix, so that the labels have names.")
            enc = encode_multilabel(y, [[]] * len(y), sep=sep, names=("labels", "labels"))
            self.Y = enc.gold
            self.labels = tuple(enc.labels)
            if not self.labels:
                raise DataError("the label column holds no labels at all; multi-label data need label sets.")
            self.fit_target = self.Y.astype(np.int64)
            self.n = self.Y.shape[0]
        else:
            (codes,), r, raw = encode_labels([y], ("label",))
            counts = np.bincount(codes, minlength=r)
            present = np.flatnonzero(counts)
            if present.size < 2:
                only = label_str(raw[present[0]]) if present.size else None
                what = f"only the class {only!r}" if only is not None else "no labels"
                raise DataError(f"the label column has {what} in {len(codes)} rows; a classifier needs at least two "
                                f"classes to tell apart.")
            self.codes = np.asarray(codes)
            values = np.empty(len(raw), dtype=object)
            values[:] = raw
            self.values = values[self.codes]
            self.labels = tuple(sort_labels([raw[j] for j in present]))
            rank = {x: i for i, x in enumerate(self.labels)}
            to_sorted = np.array([rank.get(x, -1) for x in raw], dtype=np.intp)
            self.label_codes = to_sorted[self.codes]  # position of each item's label in self.labels
            self.fit_target = self.values
            self.n = len(self.codes)
        self.label_strings = tuple(label_str(x) for x in self.labels)

    def gold(self, idx: np.ndarray) -> Any:
        return self.Y[idx] if self.multilabel else self.values[idx]

    def table(self, idx: np.ndarray, pred: Any) -> ConfusionTable | MultilabelTable:
        if self.multilabel:
            g = self.Y[idx]
            p = np.asarray(pred, dtype=bool)
            keep = np.flatnonzero(g.any(axis=0) | p.any(axis=0))  # the labels occurring in this part
            return MultilabelTable.from_indicators(g[:, keep], p[:, keep], [self.labels[i] for i in keep])
        return confusion_table(self.values[idx], pred)

    def train_labels(self, idx: np.ndarray) -> Any:
        if self.multilabel:
            return [[self.labels[j] for j in np.flatnonzero(row)] for row in self.Y[idx]]
        return self.values[idx]

    def strings(self, values: Any) -> list[str]:
        if self.multilabel:
            m = np.asarray(values, dtype=bool)
            return [self.sep.join(self.label_strings[j] for j in np.flatnonzero(row)) for row in m]
        return [label_str(v) for v in values]


def _fit(model: Any, X: Any, y: Any, where: str) -> Any:
    try:
        return model.fit(X, y)
    except ValueError as exc:
        msg = str(exc)
        if "empty vocabulary" in msg:
            raise DataError(f"{where}: the training texts hold no alphabetic token (empty vocabulary after "
                            f"tokenization and stop-word removal); check the text column.") from None
        if "class" in msg and ("only one" in msg or "at least 2" in msg or "needs samples of at least 2" in msg):
            raise DataError(f"{where}: the training part holds a single class ({msg}); use stratification or "
                            f"fewer folds.") from None
        raise


class _Runner:
    def __init__(self, estimator: Any, X: Any, data: _Data, protocol: Protocol, seed: int, ids: Any,
                 metrics: tuple[str, ...], threshold: ThresholdStep | None, train_scores: bool, zd: float,
                 progress: Callable[[int, int, str], None] | None) -> None:
        self.estimator, self.X, self.data, self.protocol, self.seed = estimator, X, data, protocol, seed
        self.ids, self.metrics, self.threshold, self.train_scores, self.zd = ids, metrics, threshold, train_scores, zd
        self.progress = progress
        self.score_kind: str | None = None
        self.positive_index: int | None = None
        if threshold is not None and not data.multilabel:
            if len(data.labels) != 2:
                raise UsageError(f"a threshold step applies to binary or multi-label data; these data have "
                                 f"{len(data.labels)} classes.")
            self.positive_index = 1 if threshold.positive is None else resolve_label(
                threshold.positive, list(data.labels), option="positive")

    # -- one fitted model → predictions and scores ------------------------------------------------
    def _predict(self, model: Any, idx: np.ndarray, cuts: np.ndarray | None) -> tuple[Any, np.ndarray | None]:
        Xp = _take(self.X, idx)
        classes = None if self.data.multilabel else list(getattr(model, "classes_", []))
        ncols = len(self.data.labels)
        s, kind = _scores(model, Xp, ncols, classes)
        if kind is not None:
            self.score_kind = kind
        if s is not None and classes is not None:
            s = _align_scores(s, classes, self.data.labels)
        if cuts is not None and s is not None:
            if self.data.multilabel:
                return s >= cuts[None, :], s
            pos = self.positive_index
            yes = s[:, pos] >= cuts[pos]
            labs = self.data.labels
            out = np.empty(len(idx), dtype=object)
            out[:] = labs[1 - pos]
            out[yes] = labs[pos]
            return out, s
        pred = model.predict(Xp)
        if self.data.multilabel:
            pred = np.asarray(pred.toarray() if hasattr(pred, "toarray") else pred).astype(bool)
        else:
            pred = np.asarray(pred, dtype=object)
        return pred, s

    def _choose_cuts(self, fold: Fold, where: str, notes: list[str]) -> np.ndarray:
        """One cut per label column, chosen on the development split (0 where nothing is chosen)."""
        from sklearn.base import clone

        step = self.threshold
        assert step is not None
        if fold.validation is not None:
            inner, dev = fold.train, fold.validation
        else:
            inner, dev = self._inner_split(fold, step.dev_size)
        model = _fit(clone(self.estimator), _take(self.X, inner), self._target(inner), where + " (development split)")
        Xd = _take(self.X, dev)
        classes = None if self.data.multilabel else list(getattr(model, "classes_", []))
        s, _ = _scores(model, Xd, len(self.data.labels), classes)
        if s is None:
            raise UsageError("a threshold step needs an estimator with decision_function or predict_proba scores.")
        if classes is not None:
            s = _align_scores(s, classes, self.data.labels)
        cuts = np.zeros(len(self.data.labels))
        if self.data.multilabel:
            golds = {j: self.data.Y[dev, j] for j in range(len(self.data.labels))}
        else:
            golds = {self.positive_index: self.data.label_codes[dev] == self.positive_index}
        kept, unreached = [], []
        for j, g in golds.items():
            if g.all() or not g.any() or np.isnan(s[:, j]).any():
                kept.append(self.data.label_strings[j])
                continue
            cut = step.choose(g.copy(), s[:, j].copy())
            if cut is None:
                unreached.append(self.data.label_strings[j])
                continue
            cuts[j] = float(cut)
        if kept:
            notes.append(f"{where}: the development split holds one class only for {', '.join(kept[:10])}"
                         f"{' …' if len(kept) > 10 else ''}; the default cut 0 is kept there.")
        if unreached:
            notes.append(f"{where}: no cut on the development split meets the objective {step.name} for "
                         f"{', '.join(unreached[:10])}{' …' if len(unreached) > 10 else ''}; the default cut 0 is kept.")
        return cuts

    def _cut_rows(self, fold: Fold, scores: np.ndarray | None, cuts: np.ndarray) -> dict[str, dict[str, Any]] | None:
        """Per label on the test fold: the default cut, the cut chosen on dev, and the best cut in hindsight."""
        obj = self.threshold.objective if self.threshold is not None else None
        if obj is None or scores is None:
            return None
        from clfeval.curves import Ranking
        from clfeval.thresholds import cut_row

        if self.data.multilabel:
            golds = {j: self.data.Y[fold.test, j] for j in range(len(self.data.labels))}
        else:
            golds = {self.positive_index: self.data.label_codes[fold.test] == self.positive_index}
        out = {}
        for j, g in golds.items():
            s = scores[:, j]
            if np.isnan(s).any():
                continue
            rk = Ranking.from_indicator(np.asarray(g, dtype=bool), s.astype(np.float64))
            k = rk.best_cut(obj)
            row = {"default": cut_row(rk, 0.0, obj, self.zd), "chosen": cut_row(rk, float(cuts[j]), obj, self.zd)}
            if k is not None:
                row["hindsight"] = cut_row(rk, float(rk.cuts.thresholds[k]), obj, self.zd)
            out[self.data.label_strings[j]] = row
        return out

    def _inner_split(self, fold: Fold, dev_size: float) -> tuple[np.ndarray, np.ndarray]:
        rng_seed = _derived_seed(self.seed, fold.repeat, fold.fold, 7)
        tr = fold.train
        if self.data.multilabel:
            s = iterative_stratification(self.data.Y[tr], [1 - dev_size, dev_size], seed=rng_seed)
            return tr[s == 0], tr[s == 1]
        from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit

        codes = self.data.codes[tr]
        counts = np.bincount(codes)
        n_dev = math.ceil(dev_size * tr.size)
        if counts[counts > 0].min() >= 2 and n_dev >= np.count_nonzero(counts) and tr.size - n_dev >= np.count_nonzero(counts):
            a, b = next(StratifiedShuffleSplit(n_splits=1, test_size=n_dev, random_state=rng_seed).split(np.zeros(tr.size), codes))
        else:
            a, b = next(ShuffleSplit(n_splits=1, test_size=n_dev, random_state=rng_seed).split(np.zeros(tr.size)))
        return tr[np.sort(a)], tr[np.sort(b)]

    def _target(self, idx: np.ndarray) -> Any:
        return self.data.fit_target[idx]

    def _metrics(self, table: ConfusionTable | MultilabelTable, train_idx: np.ndarray | None) -> tuple[Report, dict[str, float]]:
        rep = report_from_table(table, zero_division=self.zd, sep=self.data.sep,
                                train_labels=None if train_idx is None else self.data.train_labels(train_idx))
        return rep, {m: report_metric(rep, m) for m in self.metrics}

    def run_fold(self, fold: Fold, notes: list[str]) -> tuple[FoldResult, Any, np.ndarray | None]:
        from sklearn.base import clone

        where = f"repeat {fold.repeat}, fold {fold.fold}" if self.protocol.kind == "kfold" else f"repeat {fold.repeat}"
        fold_notes: list[str] = []
        cuts = None
        if self.threshold is not None:
            cuts = self._choose_cuts(fold, where, fold_notes)
        model = _fit(clone(self.estimator), _take(self.X, fold.train), self._target(fold.train), where)
        const = getattr(getattr(model, "steps", [[None, model]])[-1][1], "constant_labels_", None)
        if const is not None and len(const):
            names = [self.data.label_strings[j] for j in const]
            fold_notes.append(f"{where}: {len(names)} label(s) constant in the training part (never or always "
                              f"present), predicted constantly: {', '.join(names[:10])}{' …' if len(names) > 10 else ''}.")
        pred, scores = self._predict(model, fold.test, cuts)
        table = self.data.table(fold.test, pred)
        rep_fold, metrics = self._metrics(table, fold.train)
        train_metrics = None
        if self.train_scores:
            tpred, _ = self._predict(model, fold.train, cuts)
            _, train_metrics = self._metrics(self.data.table(fold.train, tpred), None)
        val_metrics = None
        if fold.validation is not None:
            vpred, _ = self._predict(model, fold.validation, cuts)
            _, val_metrics = self._metrics(self.data.table(fold.validation, vpred), fold.train)
        baselines = {b: {k: v for k, v in entry.items() if isinstance(v, (int, float))}
                     for b, entry in rep_fold.baselines.items()}
        thresholds = cut_rows = None
        if cuts is not None:
            which = range(len(self.data.labels)) if self.data.multilabel else [self.positive_index]
            thresholds = {self.data.label_strings[j]: float(cuts[j]) for j in which}
            cut_rows = self._cut_rows(fold, scores, cuts)
        notes.extend(fold_notes)
        fr = FoldResult(fold.repeat, fold.fold, int(fold.train.size), int(fold.test.size), table, metrics,
                        train_metrics, val_metrics, baselines, thresholds, tuple(fold_notes),
                        None if fold.validation is None else int(fold.validation.size), cut_rows)
        return fr, pred, scores


def run_protocol(estimator: Any, X: Any, y: Any, *, protocol: Protocol, seed: int, ids: Any = None,
                 multilabel: bool = False, sep: str = "|", metrics: Sequence[str] | None = None,
                 threshold: ThresholdStep | None = None, train_scores: bool = True, zero_division: Any = 0,
                 model: dict[str, Any] | None = None,
                 progress: Callable[[int, int, str], None] | None = None) -> ProtocolResult:
    """Evaluate any scikit-learn estimator or pipeline under a protocol, without leakage.

    For every fold the estimator is cloned and fitted on that fold's training
    items only; everything it fits (vocabulary, idf, selected features, a
    grid-searched hyper-parameter) is therefore fitted inside the fold. With
    a :class:`ThresholdStep`, the decision threshold is chosen on a
    development split of the training fold as well.

    Parameters
    ----------
    estimator : scikit-learn estimator
        Anything with ``fit`` and ``predict``; ``decision_function`` (or
        ``predict_proba``) provides the scores. Multi-label: it is fitted on
        the label indicator matrix (n, L) and predicts one.
    X : sequence or array
        The items (texts for clfeval's text models), indexable by position.
    y : sequence
        One label per item; with ``multilabel`` one label set per item
        (lists, or strings separated by ``sep``).
    protocol : Protocol
    seed : int
        Seeds every split (the estimator's own ``random_state`` is its own).
    ids : sequence, optional
        Item ids for the predictions table (default: the row position, from 0).
    metrics : sequence of str, optional
        Metric names (default :func:`default_metrics`).
    threshold : ThresholdStep, optional
    train_scores : bool
        Also score every fold's model on its own training items (the
        train–test gap).
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios (see :mod:`clfeval.metrics`).
    model : dict, optional
        A description of the model for the signature (e.g.
        ``ModelConfig.to_dict()``).
    progress : callable (done, total, what), optional
        Called before the first fold and after every fold.

    Returns
    -------
    ProtocolResult

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> X = [[0]] * 8
    >>> y = ["a"] * 6 + ["b"] * 2    # stratified: each test fold holds 3 a and 1 b
    >>> r = cross_validate(DummyClassifier(strategy="most_frequent"), X, y, folds=2, stratified=True, seed=0)
    >>> [f.metrics["accuracy"] for f in r.folds], r.pooled.accuracy
    ([0.75, 0.75], 0.75)
    >>> r.predictions.column_names
    ['id', 'fold', 'gold', 'pred', 'score:a', 'score:b']
    """
    seed = _check_seed(seed)
    zd = check_zero_division(zero_division)
    data = _Data(y, multilabel, sep)
    n = data.n
    if _length(X) != n:
        raise DataError(f"the items and their labels differ in number: {_length(X)} items, {n} labels.")
    id_values = _ids(ids, n)
    names = tuple(metrics) if metrics is not None else default_metrics(multilabel)
    if not names:
        raise UsageError("at least one metric must be reported.")
    folds = split(protocol, y if not multilabel else data.Y, seed=seed, multilabel=multilabel, sep=sep)
    runner = _Runner(estimator, X, data, protocol, seed, id_values, names, threshold, train_scores, zd, progress)
    _check_metric_names(names, multilabel)
    total = len(folds)
    if progress is not None:
        progress(0, total, protocol.describe())
    notes: list[str] = []
    results: list[FoldResult] = []
    preds: list[tuple[Fold, Any, np.ndarray | None]] = []
    for i, fold in enumerate(folds):
        fr, pred, scores = runner.run_fold(fold, notes)
        results.append(fr)
        preds.append((fold, pred, scores))
        if progress is not None:
            progress(i + 1, total, f"repeat {fold.repeat}, fold {fold.fold}")
    return _assemble(results, preds, data, protocol, seed, id_values, names, runner, threshold, zd, model, notes)


def _length(X: Any) -> int:
    if hasattr(X, "shape"):
        return int(X.shape[0])
    return len(X)


def _check_metric_names(names: tuple[str, ...], multilabel: bool) -> None:
    """Refuse an unknown metric name before any model is fitted."""
    from clfeval.tables import multilabel_table

    toy = report_from_table(multilabel_table(["a"], ["a"]) if multilabel else confusion_table(["a", "b"], ["a", "b"]))
    for name in names:
        report_metric(toy, name)


def _ids(ids: Any, n: int) -> list[Any]:
    if ids is None:
        return list(range(n))
    from clfeval.reports import _check_ids

    return list(_check_ids(ids, n))


def _assemble(results: list[FoldResult], preds: list, data: _Data, protocol: Protocol, seed: int, ids: list[Any],
              names: tuple[str, ...], runner: _Runner, threshold: ThresholdStep | None, zd: float,
              model: dict[str, Any] | None, notes: list[str]) -> ProtocolResult:
    spreads = {m: spread([f.metrics[m] for f in results]) for m in names}
    by_repeat: list[Report] = []
    pooled_table = None
    for r in range(1, protocol.repeats + 1):
        t = sum((f.table for f in results if f.repeat == r), 0)
        by_repeat.append(report_from_table(t, zero_division=zd, sep=data.sep,
                                           train_labels=data.train_labels(np.arange(data.n))))
        pooled_table = t if pooled_table is None else pooled_table + t
    pooled = report_from_table(pooled_table, zero_division=zd, sep=data.sep,
                               train_labels=data.train_labels(np.arange(data.n)))
    pooled_notes = ["pooled: the fold tables summed with + (each item once per repeat); its baselines follow the "
                    "class frequencies of all items (each item trains k − 1 of the k fold models), while each "
                    "fold's baselines follow that fold's training labels."]
    pooled = dataclasses.replace(pooled, notes=list(pooled.notes) + pooled_notes)
    train_vs_test = None
    if all(f.train_metrics is not None for f in results):
        train = {m: spread([f.train_metrics[m] for f in results]).mean for m in names}  # type: ignore[index]
        test = {m: spreads[m].mean for m in names}
        train_vs_test = {"train": train, "test": test, "gap": {m: train[m] - test[m] for m in names},
                         "how": "each fold's model scored on its own training items and on its test items; "
                                "means over all folds of all repeats; gap = train − test"}
    validation = None
    if all(f.validation_metrics is not None for f in results):
        validation = {m: spread([f.validation_metrics[m] for f in results]) for m in names}  # type: ignore[index]
    baselines: dict[str, dict[str, Spread]] = {}
    for b in results[0].baselines:
        keys = [k for k in results[0].baselines[b]]
        baselines[b] = {k: spread([f.baselines[b].get(k, math.nan) for f in results]) for k in keys}
    table = _predictions_table(preds, data, ids, protocol)
    thresholds = _threshold_summary(results, threshold)
    sig = build_signature({
        "protocol": protocol.to_dict(), "n": data.n, "model": model, "scores": runner.score_kind,
        "zero_division": zero_division_name(zd),
        "std": "sample standard deviation (ddof = 1) over all folds of all repeats",
        "per_fold_labels": "each fold is scored on the labels occurring in its gold or predicted labels",
        "splits": _splitter_name(protocol, data.multilabel),
        "threshold": threshold.to_dict() if threshold is not None else "the model's own decision "
                                                                      "(score >= 0 for clfeval's text models)"},
        seed=seed, random=True, uses=("scikit-learn", "PyStemmer"))
    return ProtocolResult(kind="multilabel" if data.multilabel else "single-label", protocol=protocol,
                          labels=data.label_strings, metric_names=names, folds=tuple(results), spread=spreads,
                          pooled=pooled, pooled_by_repeat=tuple(by_repeat), train_vs_test=train_vs_test,
                          validation=validation, baselines=baselines, predictions=table, signature=sig,
                          notes=tuple(dict.fromkeys(notes)), thresholds=thresholds)


def _splitter_name(protocol: Protocol, multilabel: bool) -> str:
    """Which splitter made the folds, for the signature."""
    if protocol.stratified and multilabel:
        return "iterative stratification (Sechidis et al. 2011), clfeval.splits"
    if protocol.kind == "kfold":
        return "scikit-learn " + ("RepeatedStratifiedKFold" if protocol.stratified else "RepeatedKFold")
    return "scikit-learn " + ("StratifiedShuffleSplit" if protocol.stratified else "ShuffleSplit")


_HINDSIGHT = ("hindsight: the best cut chosen on each test fold itself — optimistic by construction, an upper bound "
              "on what tuning can give; the gap between 'chosen' and 'hindsight' is what the development split "
              "could not find.")


def _threshold_summary(results: list[FoldResult], step: ThresholdStep | None) -> dict[str, Any] | None:
    """Per label: mean over folds of every measure at the default, chosen and hindsight cuts."""
    if step is None or step.objective is None or not any(f.cut_rows for f in results):
        return None
    labels = list(dict.fromkeys(lab for f in results for lab in (f.cut_rows or {})))
    out: dict[str, Any] = {"objective": step.name, "description": step.objective.describe(), "note": _HINDSIGHT,
                           "labels": {}}
    skip = {"tp", "fp", "fn", "tn"}
    for lab in labels:
        rows = [f.cut_rows[lab] for f in results if f.cut_rows and lab in f.cut_rows]
        entry: dict[str, Any] = {"folds": len(rows)}
        for which in ("default", "chosen", "hindsight"):
            got = [r[which] for r in rows if which in r]
            if got:
                entry[which] = {k: float(np.mean([g[k] for g in got])) for k in got[0] if k not in skip}
        out["labels"][lab] = entry
    return out


def _predictions_table(preds: list, data: _Data, ids: list[Any], protocol: Protocol) -> pa.Table:
    rows_repeat, rows_pos, rows_fold, golds, predictions, score_blocks = [], [], [], [], [], []
    for fold, pred, scores in preds:
        idx = fold.test
        rows_repeat.append(np.full(idx.size, fold.repeat, dtype=np.int64))
        rows_pos.append(idx)
        rows_fold.append(np.full(idx.size, fold.fold, dtype=np.int64))
        golds.extend(data.strings(data.gold(idx)))
        predictions.extend(data.strings(pred))
        score_blocks.append(scores if scores is not None else np.full((idx.size, 0), np.nan))
    rep = np.concatenate(rows_repeat)
    pos = np.concatenate(rows_pos)
    order = np.lexsort((pos, rep))
    cols: dict[str, Any] = {}
    if protocol.repeats > 1:
        cols["repeat"] = pa.array(rep[order])
    id_arr = pa.array(ids)
    cols["id"] = id_arr.take(pa.array(pos[order]))
    cols["fold"] = pa.array(np.concatenate(rows_fold)[order])
    cols["gold"] = pa.array(golds, type=pa.string()).take(pa.array(order))
    cols["pred"] = pa.array(predictions, type=pa.string()).take(pa.array(order))
    if score_blocks and all(b.shape[1] == len(data.labels) for b in score_blocks):
        s = np.concatenate(score_blocks)[order]
        for j, lab in enumerate(data.label_strings):
            cols[f"score:{lab}"] = pa.array(s[:, j], from_pandas=True)  # NaN (class unseen by a fold's model) → null
    return pa.table(cols)


def cross_validate(estimator: Any, X: Any, y: Any, *, folds: int = 10, stratified: bool = False, repeats: int = 1,
                   seed: int, **kwargs: Any) -> ProtocolResult:
    """k-fold cross-validation (stratified and/or repeated): :func:`run_protocol` with
    ``Protocol.kfold(folds, stratified=..., repeats=...)``."""
    return run_protocol(estimator, X, y, protocol=Protocol.kfold(folds, stratified=stratified, repeats=repeats),
                        seed=seed, **kwargs)


def holdout(estimator: Any, X: Any, y: Any, *, test_size: float = 0.2, val_size: float = 0.0,
            stratified: bool = False, repeats: int = 1, seed: int, **kwargs: Any) -> ProtocolResult:
    """A (repeated, stratified) holdout or train/validation/test split: :func:`run_protocol` with
    ``Protocol.holdout(...)``.

    Mission §10 example 10's second half: five holdout repeats scoring 85, 82,
    88, 84 and 86 % average 85 % (see :func:`spread`).
    """
    return run_protocol(estimator, X, y, protocol=Protocol.holdout(test_size, val_size=val_size,
                                                                   stratified=stratified, repeats=repeats),
                        seed=seed, **kwargs)


# ----------------------------------------------------------------------------
# Writing the predictions
# ----------------------------------------------------------------------------

PREDICTION_FORMATS = (".csv", ".tsv", ".jsonl", ".parquet")


def write_predictions(table: pa.Table | ProtocolResult, path: str | os.PathLike[str]) -> Path:
    """Write out-of-fold predictions, the format chosen by the extension.

    ``.csv`` / ``.tsv`` (header row, missing scores empty), ``.jsonl`` (one
    JSON object per line, missing scores ``null``) or ``.parquet``. The file
    appears whole or not at all (:func:`clfeval.io.write_frame`: a temporary
    file in the same directory, then a rename).
    """
    from clfeval.io import write_frame

    if isinstance(table, ProtocolResult):
        table = table.predictions
    write_frame(table, path)
    return Path(path)
