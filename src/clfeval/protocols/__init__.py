"""Honest protocols: data splits, cross-validation with its spread, the train–test gap.

Every item is tested by a model that never saw it, and every step that is
fitted — the vectorizer's vocabulary and idf, feature selection, a decision
threshold, hyper-parameters chosen by a search estimator — is fitted on the
training part of a fold only: the runner clones the whole estimator for each
fold and fits it on that fold's training items, and a threshold is chosen on
a development split carved out of the training fold.

The splits — holdout, stratified, train/validation/test, repeated, k-fold,
multi-label iterative stratification — live in :mod:`clfeval.protocols._splits` and are
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
(:mod:`clfeval.core._catalog`); no whole report is built per fold.

The pieces live in modules of their own: :mod:`clfeval.protocols._spread`
(the spread over folds), :mod:`clfeval.protocols._threshold` (the threshold
step), :mod:`clfeval.protocols._estimators` (fitting and scoring an estimator),
:mod:`clfeval.protocols._data` (the labels of a run, encoded once),
:mod:`clfeval.protocols._runner` (the runner), :mod:`clfeval.protocols._results`
(the result types) and :mod:`clfeval.protocols._predictions` (the
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
    "clfeval.protocols._splits": ("Protocol", "Fold", "split", "iterative_stratification"),
    "clfeval.protocols._spread": ("Spread",),
    "clfeval.protocols._threshold": ("ThresholdStep",),
    "clfeval.protocols._results": ("FoldResult", "ProtocolResult"),
    "clfeval.protocols._api": ("run_protocol", "cross_validate", "holdout", "report_metric", "default_metrics",
                              "check_metric_names", "write_predictions", "PREDICTION_FORMATS"),
    "clfeval.protocols._runcompare": ("RunComparison", "compare_runs", "compare_results"),
    "clfeval.protocols._runlog": ("RunLog",),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.protocols._api": ("spread",),
    "clfeval.protocols._datafile": ("read_text_data", "text_data_of"),
    "clfeval.protocols._errorsof": ("errors_format", "errors_of_run"),
    "clfeval.protocols._runner": ("check_probabilities",),
    "clfeval.protocols._runwrite": ("Written", "check_compare_model", "errors_page", "open_run_log", "write_run"),
    "clfeval.protocols._runlog": ("Ablation", "BestRuns", "CheckResult", "Run", "RunList", "file_hash",
                                  "flatten_settings", "higher_is_better", "predictions_dir"),
    "clfeval.protocols._runquery": ("query_run_log",),
}
_INTERNAL_MODULES: dict[str, str] = {
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.protocols._api import spread as spread
    from clfeval.protocols._datafile import read_text_data as read_text_data, text_data_of as text_data_of
    from clfeval.protocols._errorsof import errors_format as errors_format, errors_of_run as errors_of_run
    from clfeval.protocols._runlog import (
        Ablation as Ablation,
        BestRuns as BestRuns,
        CheckResult as CheckResult,
        Run as Run,
        RunList as RunList,
        file_hash as file_hash,
        flatten_settings as flatten_settings,
        higher_is_better as higher_is_better,
        predictions_dir as predictions_dir,
    )
    from clfeval.protocols._runner import check_probabilities as check_probabilities
    from clfeval.protocols._runquery import query_run_log as query_run_log
    from clfeval.protocols._runwrite import (
        Written as Written,
        check_compare_model as check_compare_model,
        errors_page as errors_page,
        open_run_log as open_run_log,
        write_run as write_run,
    )
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)

if TYPE_CHECKING:
    from clfeval.protocols._api import (
        PREDICTION_FORMATS as PREDICTION_FORMATS,
        check_metric_names as check_metric_names,
        cross_validate as cross_validate,
        default_metrics as default_metrics,
        holdout as holdout,
        report_metric as report_metric,
        run_protocol as run_protocol,
        write_predictions as write_predictions,
    )
    from clfeval.protocols._results import FoldResult as FoldResult, ProtocolResult as ProtocolResult
    from clfeval.protocols._runcompare import (
        RunComparison as RunComparison,
        compare_results as compare_results,
        compare_runs as compare_runs,
    )
    from clfeval.protocols._runlog import RunLog as RunLog
    from clfeval.protocols._splits import (
        Fold as Fold,
        Protocol as Protocol,
        iterative_stratification as iterative_stratification,
        split as split,
    )
    from clfeval.protocols._spread import Spread as Spread
    from clfeval.protocols._threshold import ThresholdStep as ThresholdStep

