"""The protocol runner: every fold fitted, predicted and scored from its count tables.

:func:`run_protocol` clones the estimator for each fold, fits it on that
fold's training items only (and, with a :class:`ThresholdStep`, chooses a
cut on a development split of them), predicts the test fold (and the
training and validation parts), counts each part into a table and reads
every reported metric off that table through the metric catalogue — no
whole report per fold. The fold's baselines come from its table and its
training labels' frequencies. The fold tables are then added up into the
pooled out-of-fold report of each repeat.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from clfeval.core import (
    ConfusionTable,
    MultilabelTable,
    build_signature,
    catalog,
    check_beta,
    check_zero_division,
    metric_values,
    resolve_label,
    stats_of,
    zero_division_name,
)
from clfeval.errors import DataError, UsageError
from clfeval.evaluate import Report, check_ids, multilabel_baselines, report_from_table, single_label_baselines
from clfeval.protocols._data import RunData
from clfeval.protocols._estimators import (
    align_scores,
    final_step,
    fit_model,
    has_probabilities,
    model_probabilities,
    model_scores,
    n_items,
    take,
)
from clfeval.protocols._predictions import predictions_table
from clfeval.protocols._results import FoldResult, ProtocolResult
from clfeval.protocols._splits import Fold, Protocol, check_seed, derived_seed, iterative_stratification, split
from clfeval.protocols._spread import Spread, spread
from clfeval.protocols._threshold import ThresholdStep
from clfeval.scores import cut_labels, cut_sets

__all__ = ["run_protocol", "default_metrics", "check_metric_names", "check_probabilities"]

_SINGLE_DEFAULT = ("accuracy", "error_rate", "balanced_accuracy", "macro_precision", "macro_recall", "macro_f1",
                   "macro_f1_of_means", "micro_f1", "weighted_f1", "mcc", "kappa")
_MULTI_DEFAULT = ("accuracy", "hamming_loss", "jaccard", "macro_precision", "macro_recall", "macro_f1",
                  "macro_f1_of_means", "micro_precision", "micro_recall", "micro_f1", "weighted_f1")


def default_metrics(multilabel: bool = False) -> tuple[str, ...]:
    """The metrics a protocol run reports by default (single-label or multi-label)."""
    return _MULTI_DEFAULT if multilabel else _SINGLE_DEFAULT


class _Runner:
    """One protocol run: fits, predicts and scores fold after fold."""

    def __init__(self, estimator: Any, X: Any, data: RunData, protocol: Protocol, seed: int, ids: Any,
                 metrics: tuple[str, ...], threshold: ThresholdStep | None, train_scores: bool, zd: float,
                 progress: Callable[[int, int, str], None] | None, beta: float = 1.0,
                 probabilities: bool = False) -> None:
        self.estimator, self.X, self.data, self.protocol, self.seed = estimator, X, data, protocol, seed
        self.ids, self.metrics, self.threshold, self.train_scores, self.zd = ids, metrics, threshold, train_scores, zd
        self.progress = progress
        self.beta = beta
        self.probabilities = probabilities
        self.last_probabilities: np.ndarray | None = None
        self.score_kind: str | None = None
        self.positive_index: int | None = None
        if threshold is not None and not data.multilabel:
            if len(data.labels) != 2:
                raise UsageError(f"a threshold step applies to binary or multi-label data; these data have "
                                 f"{len(data.labels)} classes.")
            self.positive_index = 1 if threshold.positive is None else resolve_label(
                threshold.positive, list(data.labels), option="positive")

    # -- one fitted model → predictions and scores ------------------------------------------------
    def _positive(self) -> int:
        """The positive class's index (a threshold step on single-label data sets it)."""
        assert self.positive_index is not None
        return self.positive_index

    def _predict(self, model: Any, idx: np.ndarray, cuts: np.ndarray | None,
                 scores: bool = True) -> tuple[Any, np.ndarray | None]:
        """Predictions of the items ``idx`` (by the cuts when given), and their scores when asked for or cut;
        with ``probabilities`` and scores, :attr:`last_probabilities` holds the items' class probabilities."""
        Xp = take(self.X, idx)
        if not scores and cuts is None:
            return self._labels_of(model.predict(Xp)), None
        classes = None if self.data.multilabel else list(getattr(model, "classes_", []))
        ncols = len(self.data.labels)
        model, Xp = final_step(model, Xp)
        if self.probabilities and classes is not None:
            self.last_probabilities = model_probabilities(model, Xp, classes, self.data.labels)
        s, kind = model_scores(model, Xp, ncols, classes)
        if kind is not None:
            self.score_kind = kind
        if s is not None and classes is not None:
            s = align_scores(s, classes, self.data.labels)
        if cuts is not None and s is not None:
            if self.data.multilabel:
                return cut_sets(s, cuts[None, :]), s
            pos = self._positive()
            labs = self.data.labels
            return cut_labels(s[:, pos], cuts[pos], positive=labs[pos], negative=labs[1 - pos]), s
        return self._labels_of(model.predict(Xp)), s

    def _labels_of(self, pred: Any) -> Any:
        if self.data.multilabel:
            return np.asarray(pred.toarray() if hasattr(pred, "toarray") else pred).astype(bool)
        return np.asarray(pred, dtype=object)

    def _choose_cuts(self, fold: Fold, where: str, notes: list[str]) -> np.ndarray:
        """One cut per label column, chosen on the development split (0 where nothing is chosen)."""
        from sklearn.base import clone

        step = self.threshold
        if step is None:  # run_fold asks for cuts only with a threshold step
            raise UsageError("no threshold step was given; there is no cut to choose.")
        if fold.validation is not None:
            inner, dev = fold.train, fold.validation
        else:
            inner, dev = self._inner_split(fold, step.dev_size)
        model = fit_model(clone(self.estimator), take(self.X, inner), self._target(inner),
                          where + " (development split)")
        Xd = take(self.X, dev)
        classes = None if self.data.multilabel else list(getattr(model, "classes_", []))
        s, _ = model_scores(model, Xd, len(self.data.labels), classes)
        if s is None:
            raise UsageError("a threshold step needs an estimator with decision_function or predict_proba scores.")
        if classes is not None:
            s = align_scores(s, classes, self.data.labels)
        cuts = np.zeros(len(self.data.labels))
        if self.data.multilabel:
            golds = {j: self.data.Y[dev, j] for j in range(len(self.data.labels))}
        else:
            golds = {self._positive(): self.data.label_codes[dev] == self.positive_index}
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
                         f"{', '.join(unreached[:10])}{' …' if len(unreached) > 10 else ''}; the default cut 0 is "
                         f"kept.")
        return cuts

    def _cut_rows(self, fold: Fold, scores: np.ndarray | None, cuts: np.ndarray) -> dict[str, dict[str, Any]] | None:
        """Per label on the test fold: the default cut, the cut chosen on dev, and the best cut in hindsight."""
        obj = self.threshold.objective if self.threshold is not None else None
        if obj is None or scores is None:
            return None
        from clfeval.scores import SortedRanking, cut_row

        if self.data.multilabel:
            golds = {j: self.data.Y[fold.test, j] for j in range(len(self.data.labels))}
        else:
            golds = {self._positive(): self.data.label_codes[fold.test] == self.positive_index}
        out = {}
        for j, g in golds.items():
            s = scores[:, j]
            if np.isnan(s).any():
                continue
            rk = SortedRanking.from_indicator(np.asarray(g, dtype=bool), s.astype(np.float64))
            k = rk.best_cut(obj)
            row = {"default": cut_row(rk, 0.0, obj, self.zd), "chosen": cut_row(rk, float(cuts[j]), obj, self.zd)}
            if k is not None:
                row["hindsight"] = cut_row(rk, float(rk.cuts.thresholds[k]), obj, self.zd)
            out[self.data.label_strings[j]] = row
        return out

    def _inner_split(self, fold: Fold, dev_size: float) -> tuple[np.ndarray, np.ndarray]:
        rng_seed = derived_seed(self.seed, fold.repeat, fold.fold, 7)
        tr = fold.train
        if self.data.multilabel:
            s = iterative_stratification(self.data.Y[tr], [1 - dev_size, dev_size], seed=rng_seed)
            return tr[s == 0], tr[s == 1]
        from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit

        codes = self.data.codes[tr]
        counts = np.bincount(codes)
        n_dev = math.ceil(dev_size * tr.size)
        if counts[counts > 0].min() >= 2 and n_dev >= np.count_nonzero(counts) \
                and tr.size - n_dev >= np.count_nonzero(counts):
            a, b = next(StratifiedShuffleSplit(n_splits=1, test_size=n_dev,
                                               random_state=rng_seed).split(np.zeros(tr.size), codes))
        else:
            a, b = next(ShuffleSplit(n_splits=1, test_size=n_dev, random_state=rng_seed).split(np.zeros(tr.size)))
        return tr[np.sort(a)], tr[np.sort(b)]

    def _target(self, idx: np.ndarray) -> Any:
        return self.data.fit_target[idx]

    def _metrics(self, table: ConfusionTable | MultilabelTable) -> dict[str, float]:
        """Every reported metric of one part, from its count table through the catalogue."""
        return metric_values(self.metrics, stats_of(table), table.label_strings, zero_division=self.zd, beta=self.beta)

    def _baselines(self, table: ConfusionTable | MultilabelTable, train_idx: np.ndarray) -> dict[str, dict[str, float]]:
        """The fold's baselines (majority and stratified from its training labels), their numbers only."""
        train = self.data.train_frequencies(train_idx)
        if self.data.multilabel:
            out, _ = multilabel_baselines(table, table.label_strings, zero_division=self.zd, train=train)
        else:
            out, _ = single_label_baselines(table.counts, table.label_strings, zero_division=self.zd, train=train)
        return {b: {k: v for k, v in entry.items() if isinstance(v, (int, float))} for b, entry in out.items()}

    def run_fold(self, fold: Fold, notes: list[str]) -> tuple[FoldResult, Any, np.ndarray | None, np.ndarray | None]:
        from sklearn.base import clone

        where = f"repeat {fold.repeat}, fold {fold.fold}" if self.protocol.kind == "kfold" else f"repeat {fold.repeat}"
        fold_notes: list[str] = []
        cuts = None
        if self.threshold is not None:
            cuts = self._choose_cuts(fold, where, fold_notes)
        model = fit_model(clone(self.estimator), take(self.X, fold.train), self._target(fold.train), where)
        const = getattr(getattr(model, "steps", [[None, model]])[-1][1], "constant_labels_", None)
        if const is not None and len(const):
            names = [self.data.label_strings[j] for j in const]
            fold_notes.append(f"{where}: {len(names)} label(s) constant in the training part (never or always "
                              "present), predicted constantly: "
                              f"{', '.join(names[:10])}{' …' if len(names) > 10 else ''}.")
        self.last_probabilities = None
        pred, scores = self._predict(model, fold.test, cuts)
        probs = self.last_probabilities
        table = self.data.table(fold.test, pred)
        metrics = self._metrics(table)
        train_metrics = None
        if self.train_scores:
            tpred, _ = self._predict(model, fold.train, cuts, scores=False)
            train_metrics = self._metrics(self.data.table(fold.train, tpred))
        val_metrics = None
        if fold.validation is not None:
            vpred, _ = self._predict(model, fold.validation, cuts, scores=False)
            val_metrics = self._metrics(self.data.table(fold.validation, vpred))
        baselines = self._baselines(table, fold.train)
        thresholds = cut_rows = None
        if cuts is not None:
            which = range(len(self.data.labels)) if self.data.multilabel else [self._positive()]
            thresholds = {self.data.label_strings[j]: float(cuts[j]) for j in which}
            cut_rows = self._cut_rows(fold, scores, cuts)
        notes.extend(fold_notes)
        fr = FoldResult(fold.repeat, fold.fold, int(fold.train.size), int(fold.test.size), table, metrics,
                        train_metrics, val_metrics, baselines, thresholds, tuple(fold_notes),
                        None if fold.validation is None else int(fold.validation.size), cut_rows)
        return fr, pred, scores, probs



def run_protocol(estimator: Any, X: Any, y: Any, *, protocol: Protocol, seed: int, ids: Any = None,
                 multilabel: bool = False, sep: str = "|", metrics: Sequence[str] | None = None,
                 threshold: ThresholdStep | None = None, train_scores: bool = True, zero_division: Any = 0,
                 beta: float = 1.0, probabilities: bool = False,
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
        The value of 0/0 ratios (see :mod:`clfeval.core._metrics`).
    beta : float
        β of the F-beta metrics (``macro_fbeta``, ``fbeta:LABEL``, …); the
        pooled reports show F-beta beside F1 when β ≠ 1.
    probabilities : bool
        Add to the predictions table one column ``p:<label>`` per class, in the order of the labels: the
        ``predict_proba`` of the model that did not see the item (each row sums to 1; a class a fold's model
        never saw gets 0). Single-label data, and an estimator with ``predict_proba`` (refused before any
        fitting otherwise).
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
    >>> from clfeval.protocols._api import cross_validate
    >>> X = [[0]] * 8
    >>> y = ["a"] * 6 + ["b"] * 2    # stratified: each test fold holds 3 a and 1 b
    >>> r = cross_validate(DummyClassifier(strategy="most_frequent"), X, y, folds=2, stratified=True, seed=0)
    >>> [f.metrics["accuracy"] for f in r.folds], r.pooled.accuracy
    ([0.75, 0.75], 0.75)
    >>> r.predictions.column_names
    ['id', 'fold', 'gold', 'pred', 'score:a', 'score:b']
    """
    seed = check_seed(seed)
    zd = check_zero_division(zero_division)
    beta = check_beta(beta)
    data = RunData(y, multilabel, sep)
    n = data.n
    if n_items(X) != n:
        raise DataError(f"the items and their labels differ in number: {n_items(X)} items, {n} labels.")
    if probabilities:
        check_probabilities(estimator, multilabel)
    id_values = _ids(ids, n)
    names = tuple(metrics) if metrics is not None else default_metrics(multilabel)
    if not names:
        raise UsageError("at least one metric must be reported.")
    folds = split(protocol, y if not multilabel else data.Y, seed=seed, multilabel=multilabel, sep=sep)
    runner = _Runner(estimator, X, data, protocol, seed, id_values, names, threshold, train_scores, zd, progress, beta,
                     bool(probabilities))
    check_metric_names(names, multilabel)
    total = len(folds)
    if progress is not None:
        progress(0, total, protocol.describe())
    notes: list[str] = []
    results: list[FoldResult] = []
    preds: list[tuple[Fold, Any, np.ndarray | None]] = []
    probs: list[np.ndarray | None] = []
    for i, fold in enumerate(folds):
        fr, pred, scores, p = runner.run_fold(fold, notes)
        results.append(fr)
        preds.append((fold, pred, scores))
        probs.append(p)
        if progress is not None:
            progress(i + 1, total, f"repeat {fold.repeat}, fold {fold.fold}")
    return _assemble(results, preds, data, protocol, seed, id_values, names, runner, threshold, zd, model, notes,
                     probs if probabilities else None)


def check_probabilities(estimator: Any, multilabel: bool = False, model: str | None = None) -> None:
    """``probabilities``: refused, before any fitting, for label sets and for an estimator without
    ``predict_proba`` (named by ``model``, else by its class)."""
    if multilabel:
        raise UsageError(lambda p: f"option {p} writes one probability per class of single-label data; label sets "
                                   f"have none that sum to 1 (leave out {p}, or give one label per item).",
                         params=["probabilities"])
    if not has_probabilities(estimator):
        steps = getattr(estimator, "steps", None)
        name = model or type(steps[-1][1] if isinstance(steps, list) and steps else estimator).__name__
        raise UsageError(lambda p: f"the model {name} has no predict_proba, so option {p} has no class "
                                   f"probabilities to write; choose a model with them (nb, bnb or logreg) or leave "
                                   f"out {p}.", params=["probabilities"])


def check_metric_names(names: Sequence[str], multilabel: bool = False) -> None:
    """Refuse an unknown metric name, or one of another task or input, before any model is fitted."""
    for name in names:
        catalog.check_name(name, task="multilabel" if multilabel else "multiclass", input="counts")


def _ids(ids: Any, n: int) -> list[Any]:
    return list(range(n)) if ids is None else check_ids(ids, n)


def _assemble(results: list[FoldResult], preds: list[tuple[Any, Any, Any]], data: RunData, protocol: Protocol,
              seed: int, ids: list[Any],
              names: tuple[str, ...], runner: _Runner, threshold: ThresholdStep | None, zd: float,
              model: dict[str, Any] | None, notes: list[str],
              probs: list[np.ndarray | None] | None = None) -> ProtocolResult:
    spreads = {m: spread([f.metrics[m] for f in results]) for m in names}
    by_repeat: list[Report] = []
    pooled_table = None
    everything = data.train_frequencies(np.arange(data.n))
    for r in range(1, protocol.repeats + 1):
        tables = [f.table for f in results if f.repeat == r]
        t = sum(tables[1:], tables[0])  # as sum(tables, 0): 0 + table is the table
        by_repeat.append(report_from_table(t, zero_division=zd, beta=runner.beta, sep=data.sep,
                                           train_labels=everything))
        pooled_table = t if pooled_table is None else pooled_table + t
    assert pooled_table is not None  # a protocol has at least one repeat
    pooled = report_from_table(pooled_table, zero_division=zd, beta=runner.beta, sep=data.sep, train_labels=everything)
    pooled_notes = ["pooled: the fold tables summed with + (each item once per repeat); its baselines follow the "
                    "class frequencies of all items (each item trains k − 1 of the k fold models), while each "
                    "fold's baselines follow that fold's training labels."]
    pooled = dataclasses.replace(pooled, notes=list(pooled.notes) + pooled_notes)
    train_vs_test: dict[str, Any] | None = None
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
    table = predictions_table(preds, data, ids, protocol, probs)
    thresholds = _threshold_summary(results, threshold)
    sig = build_signature({
        "protocol": protocol.to_dict(), "n": data.n, "model": model, "scores": runner.score_kind,
        "zero_division": zero_division_name(zd), "beta": runner.beta,
        "std": "sample standard deviation (ddof = 1) over all folds of all repeats",
        "per_fold_labels": "each fold is scored on the labels occurring in its gold or predicted labels",
        "splits": _splitter_name(protocol, data.multilabel),
        "threshold": threshold.to_dict() if threshold is not None else "the model's own decision "
                                                                      "(score >= 0 for clfeval's text models)",
        **({} if probs is None else {"probabilities": _PROBABILITIES})},
        seed=seed, random=True, uses=("scikit-learn", "PyStemmer"))
    return ProtocolResult(kind="multilabel" if data.multilabel else "single-label", protocol=protocol,
                          labels=data.label_strings, metric_names=names, folds=tuple(results), spread=spreads,
                          pooled=pooled, pooled_by_repeat=tuple(by_repeat), train_vs_test=train_vs_test,
                          validation=validation, baselines=baselines, predictions=table, signature=sig,
                          notes=tuple(dict.fromkeys(notes)), thresholds=thresholds)


def _splitter_name(protocol: Protocol, multilabel: bool) -> str:
    """Which splitter made the folds, for the signature."""
    if protocol.stratified and multilabel:
        return "iterative stratification (Sechidis et al. 2011), clfeval.protocols._splits"
    if protocol.kind == "kfold":
        return "scikit-learn " + ("RepeatedStratifiedKFold" if protocol.stratified else "RepeatedKFold")
    return "scikit-learn " + ("StratifiedShuffleSplit" if protocol.stratified else "ShuffleSplit")


_PROBABILITIES = ("p:<label>: predict_proba of the model that did not see the item (out-of-fold; 0 for a class that "
                  "model never saw)")

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
        rows: list[Mapping[str, Any]] = [f.cut_rows[lab] for f in results if f.cut_rows and lab in f.cut_rows]
        entry: dict[str, Any] = {"folds": len(rows)}
        for which in ("default", "chosen", "hindsight"):
            got = [r[which] for r in rows if which in r]
            if got:
                entry[which] = {k: float(np.mean([g[k] for g in got])) for k in got[0] if k not in skip}
        out["labels"][lab] = entry
    return out
