"""The fold-internal threshold step: a decision threshold chosen on a development split of each training fold."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import check_probability, label_str
from clfeval.errors import UsageError

__all__ = ["ThresholdStep"]


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

    :meth:`for_objective` builds the usual step from :mod:`clfeval.scores._curves`:
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
    objective : clfeval.scores._curves.Objective, optional
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
                      cost_fp: float = 1.0, cost_fn: float = 1.0) -> ThresholdStep:
        """The threshold choice of :mod:`clfeval.scores._curves` for an objective (``f1``, ``f0.5``, ``cost``,
        ``precision>=0.9``, ``recall>=0.8``, ...), run on each fold's development split."""
        from clfeval.scores import parse_objective

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
    """Picklable ``choose``: the cut :meth:`clfeval.scores._curves.SortedRanking.best_cut` picks for an objective."""

    def __init__(self, objective: Any) -> None:
        self.objective = objective

    def __call__(self, is_positive: np.ndarray, scores: np.ndarray) -> float | None:
        from clfeval.scores import SortedRanking

        rk = SortedRanking.from_indicator(np.asarray(is_positive, dtype=bool), np.asarray(scores, dtype=np.float64))
        k = rk.best_cut(self.objective)
        return None if k is None else float(rk.cuts.thresholds[k])
