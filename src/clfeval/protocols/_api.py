"""The protocol API in one place: :func:`cross_validate`, :func:`holdout`, :func:`report_metric`, and the pieces
of the other protocol modules, gathered (the package re-exports them; see :mod:`clfeval.protocols`)."""

from __future__ import annotations

from typing import Any

from clfeval.evaluate import Report
from clfeval.protocols._predictions import PREDICTION_FORMATS, write_predictions
from clfeval.protocols._results import FoldResult, ProtocolResult
from clfeval.protocols._runner import check_metric_names, default_metrics, run_protocol
from clfeval.protocols._splits import Fold, Protocol, iterative_stratification, split
from clfeval.protocols._spread import Spread, spread
from clfeval.protocols._threshold import ThresholdStep

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
    """A named metric read off a :class:`~clfeval.evaluate._reports.Report`
    (:meth:`Report.metric <clfeval.evaluate._reports.Report.metric>`).

    Names are the metric catalogue's, as everywhere in clfeval: ``accuracy``,
    ``error_rate``, ``balanced_accuracy``, ``mcc``, ``kappa``, ``macro_f1``,
    ``macro_f1_of_means``, ``micro_f1``, ``weighted_precision``, …; multi-label
    also ``subset_accuracy``, ``hamming_loss``, ``jaccard``; ``f1:LABEL`` (and
    ``precision:``, ``recall:``, ``lr_plus:``, …) for one class — NaN when the
    class does not occur.

    Examples
    --------
    >>> from clfeval.evaluate._reports import report
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
