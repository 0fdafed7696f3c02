"""Honest protocols: data splits, cross-validation with its spread, the train–test gap.

Every item is tested by a model that never saw it, and every step that is
fitted — the vectorizer's vocabulary and idf, feature selection, a decision
threshold, hyper-parameters chosen by a search estimator — is fitted on the
training part of a fold only: the runner clones the whole estimator for each
fold and fits it on that fold's training items, and a threshold is chosen on
a development split carved out of the training fold.

The splits — holdout, stratified, train/validation/test, repeated, k-fold,
multi-label iterative stratification — live in :mod:`clfeval.protocols.splits` and are
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
(:mod:`clfeval.core.catalog`); no whole report is built per fold.

The pieces live in modules of their own: :mod:`clfeval.protocols.spread`
(the spread over folds), :mod:`clfeval.protocols.threshold` (the threshold
step), :mod:`clfeval.protocols.estimators` (fitting and scoring an estimator),
:mod:`clfeval.protocols.data` (the labels of a run, encoded once),
:mod:`clfeval.protocols.runner` (the runner), :mod:`clfeval.protocols.results`
(the result types) and :mod:`clfeval.protocols.predictions` (the
out-of-fold predictions table and file). This module gathers them.

References
----------
* Kohavi (1995), "A study of cross-validation and bootstrap for accuracy
  estimation and model selection".
* Hastie, Tibshirani & Friedman (2009), *The Elements of Statistical
  Learning*, §7.10.2 ("the wrong and the right way to do cross-validation").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.protocols.splits": ("Protocol", "Fold", "split", "iterative_stratification"),
    "clfeval.protocols.spread": ("Spread",),
    "clfeval.protocols.threshold": ("ThresholdStep",),
    "clfeval.protocols.results": ("FoldResult", "ProtocolResult"),
    "clfeval.protocols.api": ("run_protocol", "cross_validate", "holdout", "report_metric", "default_metrics",
                              "check_metric_names", "write_predictions", "PREDICTION_FORMATS"),
    "clfeval.protocols.runcompare": ("RunComparison", "compare_runs", "compare_results"),
    "clfeval.protocols.runlog": ("RunLog",),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.protocols.api import (
        PREDICTION_FORMATS as PREDICTION_FORMATS,
        check_metric_names as check_metric_names,
        cross_validate as cross_validate,
        default_metrics as default_metrics,
        holdout as holdout,
        report_metric as report_metric,
        run_protocol as run_protocol,
        write_predictions as write_predictions,
    )
    from clfeval.protocols.results import FoldResult as FoldResult, ProtocolResult as ProtocolResult
    from clfeval.protocols.runcompare import (
        RunComparison as RunComparison,
        compare_results as compare_results,
        compare_runs as compare_runs,
    )
    from clfeval.protocols.runlog import RunLog as RunLog
    from clfeval.protocols.splits import (
        Fold as Fold,
        Protocol as Protocol,
        iterative_stratification as iterative_stratification,
        split as split,
    )
    from clfeval.protocols.spread import Spread as Spread
    from clfeval.protocols.threshold import ThresholdStep as ThresholdStep

