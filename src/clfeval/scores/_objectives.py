"""What a threshold is chosen for: maximise F-beta, minimise an expected cost, or reach a precision or recall target.

:func:`parse_objective` reads ``f1``, ``f0.5``, ``cost``, ``precision>=0.9``,
``recall>=0.8``; :func:`choose_cut` applies an :class:`Objective` to the
threshold sweep of a ranking (:meth:`clfeval.scores._curves.SortedRanking.sweep`), with
the tie rules the objective describes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import check_beta
from clfeval.errors import UsageError

__all__ = ["Objective", "parse_objective", "check_cost", "choose_cut"]


@dataclass(frozen=True)
class Objective:
    """What a threshold is chosen for.

    ``kind`` is ``"fbeta"`` (maximise F-beta), ``"cost"`` (minimise the
    expected cost (cost_fp·FP + cost_fn·FN) / N), ``"precision"`` (the lowest
    cut whose precision ≥ target: the most recall at that precision) or
    ``"recall"`` (the highest cut whose recall ≥ target). Ties between cuts of
    equal F-beta or cost go to the highest threshold.
    """

    kind: str
    beta: float = 1.0
    target: float | None = None
    cost_fp: float = 1.0
    cost_fn: float = 1.0

    @property
    def name(self) -> str:
        if self.kind == "fbeta":
            return f"f{self.beta:g}"
        if self.kind == "cost":
            return "cost"
        return f"{self.kind}>={self.target:g}"

    def describe(self) -> str:
        if self.kind == "fbeta":
            return f"maximise F{self.beta:g} (ties: the highest threshold)"
        if self.kind == "cost":
            return (f"minimise the expected cost ({self.cost_fp:g}·FP + {self.cost_fn:g}·FN) / N "
                    f"(ties: the highest threshold)")
        if self.kind == "precision":
            return f"the lowest cut with precision >= {self.target:g} (the most recall at that precision)"
        return f"the highest cut with recall >= {self.target:g}"


_OBJECTIVE_FORMS = "f1, f0.5, f2 (any f<beta>), cost, precision>=X or recall>=X with X in (0, 1]"


def parse_objective(spec: str | Objective, *, cost_fp: Any = 1.0, cost_fn: Any = 1.0) -> Objective:
    """Read an objective such as ``"f1"``, ``"f0.5"``, ``"cost"``, ``"precision>=0.9"``.

    >>> parse_objective("precision>=0.9").describe()
    'the lowest cut with precision >= 0.9 (the most recall at that precision)'
    >>> parse_objective("f2").beta
    2.0
    """
    cfp = check_cost(cost_fp, "cost_fp")
    cfn = check_cost(cost_fn, "cost_fn")
    if cfp == 0 and cfn == 0:
        raise UsageError(lambda a, b: f"options {a} and {b} cannot both be 0: every cut would cost nothing.",
                         params=["cost_fp", "cost_fn"])
    if isinstance(spec, Objective):
        return spec
    text = str(spec).strip().lower().replace(" ", "")
    m = re.fullmatch(r"f(\d+(?:\.\d*)?|\.\d+)", text)
    if m:
        beta_text = m.group(1)
        if not float(beta_text) > 0:
            raise UsageError(lambda name: f"option {name}: {spec!r} asks for F-beta with beta {beta_text}; beta must "
                                          f"be a positive number (f0.5, f1, f2, ...).", params=["objective"])
        return Objective("fbeta", beta=check_beta(m.group(1), option="objective"), cost_fp=cfp, cost_fn=cfn)
    if text == "cost":
        return Objective("cost", cost_fp=cfp, cost_fn=cfn)
    m = re.fullmatch(r"(precision|recall)>=(\d+(?:\.\d*)?|\.\d+)", text)
    if m:
        target = float(m.group(2))
        if not 0.0 < target <= 1.0:
            raise UsageError(f"objective {spec!r}: the target must lie in (0, 1]; got {target:g}.")
        return Objective(m.group(1), target=target, cost_fp=cfp, cost_fn=cfn)
    raise UsageError(f"unknown objective {spec!r}; valid objectives are {_OBJECTIVE_FORMS}.")


def check_cost(value: Any, option: str) -> float:
    """The cost of one error: a finite number >= 0 (named ``option`` in the message otherwise)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if not math.isfinite(v) or v < 0:
        raise UsageError(lambda name: f"option {name} must be a finite number >= 0 (the cost of one such error); got "
                                      f"{value!r}.", params=[option])
    return v


def choose_cut(sw: Any, obj: Objective) -> int | None:
    """Index of the cut of a sweep (:class:`clfeval.scores._curves.Sweep`) an objective chooses; None when a target is
    out of reach."""
    if obj.kind == "fbeta":
        return int(np.argmax(sw.fbeta))  # first maximum = highest threshold
    if obj.kind == "cost":
        return int(np.argmin(sw.cost))
    if obj.kind == "precision":
        ok = np.flatnonzero(sw.precision >= obj.target)
        return int(ok[-1]) if ok.size else None
    ok = np.flatnonzero(sw.recall >= obj.target)
    return int(ok[0]) if ok.size else None
