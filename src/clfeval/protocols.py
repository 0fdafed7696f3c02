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
rows of one fold of the predictions file gives the same numbers. They are
read off the fold's count table through the metric catalogue
(:mod:`clfeval.catalog`); no whole report is built per fold.

The pieces live in modules of their own: :mod:`clfeval.protocols_spread`
(the spread over folds), :mod:`clfeval.protocols_threshold` (the threshold
step), :mod:`clfeval.protocols_sklearn` (fitting and scoring an estimator),
:mod:`clfeval.protocols_data` (the labels of a run, encoded once),
:mod:`clfeval.protocols_runner` (the runner), :mod:`clfeval.protocols_results`
(the result types) and :mod:`clfeval.protocols_predictions` (the
out-of-fold predictions table and file). This module gathers them.

References
----------
* Kohavi (1995), "A study of cross-validation and bootstrap for accuracy
  estimation and model selection".
* Hastie, Tibshirani & Friedman (2009), *The Elements of Statistical
  Learning*, §7.10.2 ("the wrong and the right way to do cross-validation").
"""

from __future__ import annotations

from typing import Any

from clfeval.protocols_predictions import PREDICTION_FORMATS, write_predictions
from clfeval.protocols_results import FoldResult, ProtocolResult
from clfeval.protocols_runner import check_metric_names, default_metrics, run_protocol
from clfeval.protocols_spread import Spread, spread
from clfeval.protocols_threshold import ThresholdStep
from clfeval.reports import Report
from clfeval.splits import Fold, Protocol, iterative_stratification, split

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
    "check_metric_names",
    "write_predictions",
    "PREDICTION_FORMATS",
]


def report_metric(rep: Report, name: str) -> float:
    """A named metric read off a :class:`~clfeval.reports.Report` (:meth:`Report.metric <clfeval.reports.Report.metric>`).

    Names are the metric catalogue's, as everywhere in clfeval: ``accuracy``,
    ``error_rate``, ``balanced_accuracy``, ``mcc``, ``kappa``, ``macro_f1``,
    ``macro_f1_of_means``, ``micro_f1``, ``weighted_precision``, …; multi-label
    also ``subset_accuracy``, ``hamming_loss``, ``jaccard``; ``f1:LABEL`` (and
    ``precision:``, ``recall:``, ``lr_plus:``, …) for one class — NaN when the
    class does not occur.

    >>> from clfeval.reports import report
    >>> report_metric(report(["a", "b", "b"], ["a", "b", "a"]), "macro_f1")
    0.6666666666666666
    """
    return rep.metric(name)


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
