"""Functions a requirement may call: ``min_slice(recall:spam)>=0.8``, ``in_best_group(B)``.

The catalogue (:mod:`clfeval.core._catalog`) names every metric; this module
names every *function* a ``--require`` condition may use beside them, in
one place. A function reads one kind of result (``applies_to``: a
``report`` or a ``rank`` result), takes arguments of declared kinds and
returns either a number (used as ``FUNC(ARGS) OP TARGET``) or a truth value
(used bare, ``FUNC(ARGS)``). A function without parameters is written
without parentheses (``equalized_odds_difference<=0.1``).

The code that computes a function lives with the result it reads; its
entry here names it as ``"module:function"``, imported only when a
condition is checked. The evaluator is called as ``fn(result, *args)``
(``result`` the typed result for a ``rank`` function, which reads its
fields; the result's ``to_dict()`` for a ``report`` function; metric and
name arguments as text, number arguments as float) and returns ``(value, why)`` or
``(value, why, interval)``: ``why`` is None, or a short clause saying why
the value is undefined (an undefined value never meets a condition);
``interval`` is None or ``[low, high]`` when the result holds one.
"""

from __future__ import annotations

from dataclasses import dataclass

from clfeval.core._fairmeasures import FAIRNESS

__all__ = ["Function", "FUNCTIONS", "PARAM_KINDS", "RESULT_KINDS", "function_names_text"]

#: The kinds of argument: a catalogue metric (``recall:spam``), a free name (a system), a number.
PARAM_KINDS = ("metric", "name", "number")
#: The kinds of result a condition can be checked on.
RESULT_KINDS = ("report", "rank")


@dataclass(frozen=True)
class Function:
    """One function a condition may call.

    Attributes
    ----------
    name : str
        How it is written: ``min_slice``.
    params : tuple of str
        One kind per argument, each in :data:`PARAM_KINDS`; ``()`` for a function written without parentheses.
    returns : str
        ``"number"`` (compared with a target) or ``"bool"`` (a condition by itself).
    higher_is_better : bool or None
        The direction of a number (None: no direction, or a truth value).
    applies_to : str
        The result it reads, one of :data:`RESULT_KINDS`.
    evaluator : str
        ``"module:function"`` computing it (see the module's docstring).
    doc : str
        One sentence, shown in ``--help`` texts and error messages.
    """

    name: str
    params: tuple[str, ...]
    returns: str
    higher_is_better: bool | None
    applies_to: str
    evaluator: str
    doc: str

    def __post_init__(self) -> None:
        if any(p not in PARAM_KINDS for p in self.params):
            raise ValueError(f"{self.name}: parameter kinds are {PARAM_KINDS}; got {self.params}")
        if self.returns not in ("number", "bool") or self.applies_to not in RESULT_KINDS:
            raise ValueError(f"{self.name}: returns is 'number' or 'bool', applies_to one of {RESULT_KINDS}")

    @property
    def usage(self) -> str:
        """How a call is written: ``min_slice(METRIC)``, ``in_best_group(NAME)``, ``equalized_odds_difference``."""
        if not self.params:
            return self.name
        return f"{self.name}({', '.join(p.upper() for p in self.params)})"


def _table(*functions: Function) -> dict[str, Function]:
    return {f.name: f for f in functions}


#: Every function a condition may call, by name. Add an entry here (and its evaluator beside its result).
_SLICES = "clfeval.slicing._slicereq"


def _fair(name: str, higher: bool, doc: str) -> Function:
    return Function(name, (), "number", higher, "report", f"{_SLICES}:{name}", doc)


FUNCTIONS: dict[str, Function] = _table(
    # issue 26: a report by slice (--by)
    Function("min_slice", ("metric",), "number", True, "report", f"{_SLICES}:min_slice",
             "the lowest value of the metric over the slices of at least --min-slice items (--by)"),
    Function("max_slice_gap", ("metric",), "number", False, "report", f"{_SLICES}:max_slice_gap",
             "the largest |slice − overall| of the metric over the slices of at least --min-slice items (--by)"),
    *(_fair(m.name, m.higher_is_better, f"{m.definition} (--by, --positive)") for m in FAIRNESS.values()),
    # issue 28: many systems over many data sets (clfeval rank)
    Function("p_better", ("name", "name"), "number", True, "rank", "clfeval.significance._multirank:req_p_better",
             "P(A better than B by more than the ROPE): the Bayesian signed-rank test of the pair A:B"),
    Function("in_best_group", ("name",), "bool", None, "rank", "clfeval.significance._multirank:req_in_best_group",
             "the system is ranked first or not separated from the first by the Holm-adjusted Wilcoxon tests"),
)


def function_names_text(applies_to: str | None = None) -> str:
    """The functions' usages, comma-separated (for error messages); ``none`` when there are none."""
    found = [f.usage for f in FUNCTIONS.values() if applies_to is None or f.applies_to == applies_to]
    return ", ".join(sorted(found)) or "none"
