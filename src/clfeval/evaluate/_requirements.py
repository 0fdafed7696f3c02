"""Conditions on a report, for pipelines: ``macro_f1>=0.70``, ``recall:spam>=0.9``, ``accuracy>majority``.

A condition is ``METRIC OP TARGET``: a metric named as the catalogue names it
(:mod:`clfeval.core._catalog`: ``accuracy``, ``macro_f1``, ``f1:LABEL``,
``roc_auc``, ...), one of ``>=``, ``>``, ``<=``, ``<``, and a number or a
baseline — ``majority``, ``uniform``, ``stratified`` — whose value of the
same metric the report holds (accuracy, macro-F1, micro-F1, per-class
precision, recall and F1; Hamming loss for label sets).

Each condition is met when the report's value satisfies it. A value the
report lists as undefined (a 0/0, even when ``zero_division`` filled it, an
infinite ratio, an AUC without negatives) never meets a condition, and says
why. With intervals in the report (``--ci``: the bootstrap interval of a
count metric, the bootstrap interval of ROC-AUC or AP), each condition also
says whether the whole interval clears it — shown beside, the condition
itself is judged on the value.

Beside metrics, a condition may call a function registered in
:mod:`clfeval.core._reqfunctions` -- one grammar for every gate:
``FUNC(ARGS) OP TARGET`` for a number (``min_slice(recall:spam)>=0.8``;
``equalized_odds_difference<=0.1`` for a function without parameters) and a
bare ``FUNC(ARGS)`` for a truth value (``in_best_group(B)``). Each function
reads one kind of result (a report, a rank result); the same rules hold:
an undefined value never meets a condition, an interval is shown beside.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from clfeval.core import (
    FUNCTIONS,
    RESULT_KINDS,
    Display,
    Function,
    Name,
    NamedValues,
    build_signature,
    catalog,
    function_names_text,
    named_values,
    quote_name,
    split_names,
)
from clfeval.errors import UsageError
from clfeval.ops.report import Report, RequirementsPart

__all__ = ["Requirement", "Requirements", "parse_requirement", "check_requirements", "with_requirements",
           "BASELINES", "BASELINE_METRICS"]

#: Names of the baselines a condition may compare with.
BASELINES = ("majority", "uniform", "stratified")
#: Metrics the report scores its baselines on.
BASELINE_METRICS = ("accuracy", "macro_f1", "micro_f1", "hamming_loss", "precision:LABEL", "recall:LABEL",
                    "f1:LABEL")

#: How a condition's operator reads in a sentence ("required ≥ 0.9").
_SIGNS = {">=": "≥", ">": ">", "<=": "≤", "<": "<"}
_OPS = {">=": lambda v, t: v >= t, ">": lambda v, t: v > t, "<=": lambda v, t: v <= t, "<": lambda v, t: v < t}
_SYNTAX = re.compile(r"^\s*(?P<metric>[^<>=]+?)\s*(?P<op>>=|<=|>|<)\s*(?P<target>[^<>=]+?)\s*$")
#: ``FUNC(ARGS)``, optionally ``OP TARGET``: the arguments run to the last ``)`` before the operator.
_CALL = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)\s*\((?P<args>.*)\)"
                   r"\s*(?:(?P<op>>=|<=|>|<)\s*(?P<target>[^<>=()]*?))?\s*$", re.S)
_WORD = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)\s*$")
#: A number in a condition: decimal, with an optional sign, point and exponent (``0.9``, ``.5``, ``1e-3``). The
#: digits are Unicode decimal digits, as Python reads them (full-width ``０.５`` is 0.5); what else ``float()``
#: reads (``1_0``, ``inf``, ``nan``) is not a number here.
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_NUMBER_FORM = "a decimal number such as 0.9, .5 or 1e-3"


@dataclass(frozen=True)
class Requirement:
    """One parsed condition: ``metric op target`` (target a number, or a baseline name)."""

    text: str
    metric: str
    op: str | None
    target: float | str | None
    #: The function called (:mod:`clfeval.core._reqfunctions`), None for a metric condition.
    function: str | None = None
    #: The function's arguments as parsed: text for metric and name arguments, float for numbers.
    args: tuple[str | float, ...] = ()

    @property
    def baseline(self) -> str | None:
        return self.target if isinstance(self.target, str) and self.function is None else None


def _refuse(text: str, why: str) -> UsageError:
    return UsageError(lambda name: f"option {name} {text!r}: {why}", params=["require"])


def parse_requirement(text: str, *, applies_to: str = "report") -> Requirement:
    """A condition from its text, checked against the catalogue (before any data is read).

    ``applies_to`` is the kind of result it will be checked on (``"report"`` or ``"rank"``): a metric condition
    reads a report; a function condition reads the kind of result its function declares.

    Examples
    --------
    >>> parse_requirement("macro_f1>=0.70")
    Requirement(text='macro_f1>=0.70', metric='macro_f1', op='>=', target=0.7, function=None, args=())
    >>> parse_requirement("accuracy > majority").baseline
    'majority'
    >>> parse_requirement("acuracy>=0.9")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option require 'acuracy>=0.9': unknown metric 'acuracy'; valid metrics are: accuracy,
    error_rate, ...
    """
    if not isinstance(text, str):
        raise _refuse(str(text), "a condition is text such as 'macro_f1>=0.70'.")
    if applies_to not in RESULT_KINDS:
        raise ValueError(f"applies_to is one of {RESULT_KINDS}; got {applies_to!r}")
    called = _parse_call(text, applies_to)
    if called is not None:
        return called
    if applies_to != "report":
        raise _refuse(text, f"expected FUNC(ARGS) OP TARGET or FUNC(ARGS) with a function of {applies_to} results: "
                            f"{function_names_text(applies_to)}.")
    m = _SYNTAX.match(text)
    if m is None:
        raise _refuse(text, "expected METRIC OP TARGET with OP one of >=, >, <=, < and TARGET a number or one of "
                            f"{', '.join(BASELINES)} (for example 'macro_f1>=0.70', 'accuracy>majority'), "
                            "FUNC(ARGS) OP TARGET or FUNC(ARGS) with a function of reports: "
                            f"{function_names_text('report')}.")
    name, op, raw = m.group("metric"), m.group("op"), m.group("target")
    found = catalog.find(name)
    if found is None:
        raise _refuse(text, f"unknown metric {name!r}; valid metrics are: {catalog.valid_names_text()}.")
    entry = found[0]
    if entry.input == "probabilities":
        raise _refuse(text, f"metric {name!r} is a calibration measure (clfeval calibration), not part of a report.")
    target: float | str
    if raw in BASELINES:
        if entry.key not in BASELINE_METRICS:
            raise _refuse(text, f"the baselines are scored on {', '.join(BASELINE_METRICS)}; {name!r} has no "
                                f"baseline value to compare with (give a number instead).")
        target = raw
    else:
        number = _number(text, raw, "the target")
        if number is None:
            raise _refuse(text, f"the target {raw!r} is neither a number nor a baseline ({', '.join(BASELINES)}); "
                                f"a number is written as {_NUMBER_FORM}.")
        target = number
    return Requirement(text, name, op, target)


def _number(text: str, raw: str, what: str) -> float | None:
    """The finite number ``raw`` writes (:data:`_NUMBER`), or None when it writes none (a word, for the caller to
    read); refused when it is not finite (``nan``, ``1e999``) or in another syntax Python reads (``1_0``)."""
    s = raw.strip()
    try:
        x = float(s)
    except ValueError:
        return None
    if not math.isfinite(x):
        raise _refuse(text, f"{what} must be a finite number; got {s!r}.")
    if not _NUMBER.fullmatch(s):
        raise _refuse(text, f"{what} must be written as {_NUMBER_FORM} (no underscores); got {s!r}.")
    return x


def _split_args(text: str, raw: str) -> list[Name]:
    """Arguments split at the commas outside quotes and parentheses (``''`` gives none; the quoting rule of
    :mod:`clfeval.core._quoting`)."""
    if not raw.strip():
        return []
    return split_names(raw, ",", lambda why: _refuse(text, why))


def _name_args(text: str, fn: Function, raw: str) -> list[str]:
    """The arguments as text. A function of one name takes everything between its parentheses as the name when no
    part is quoted (``in_best_group(lr, l2)`` names the system ``lr, l2``)."""
    parts = _split_args(text, raw)
    if fn.params == ("name",) and len(parts) > 1 and not any(p.quoted for p in parts):
        return [raw.strip()]
    if len(parts) != len(fn.params):
        hint = ""
        if fn.params and all(k == "name" for k in fn.params) and len(parts) > len(fn.params):
            hint = (f" A name holding a comma is written in quotes: {fn.name}("
                    + ", ".join(['"lr, l2"'] + ["B"] * (len(fn.params) - 1)) + ").")
        raise _refuse(text, f"{fn.usage} takes {len(fn.params)} argument{'s' if len(fn.params) != 1 else ''}; got "
                            f"{len(parts)}.{hint}")
    return [p.text for p in parts]


def _parse_arg(text: str, fn: Function, kind: str, raw: str) -> str | float:
    if not raw:
        raise _refuse(text, f"{fn.usage} has an empty argument.")
    if kind == "number":
        x = _number(text, raw, f"{fn.usage}: the argument")
        if x is None:
            raise _refuse(text, f"{fn.usage}: {raw!r} is not a number ({_NUMBER_FORM}).")
        return x
    if kind == "metric":
        found = catalog.find(raw)
        if found is None:
            raise _refuse(text, f"{fn.usage}: unknown metric {raw!r}; valid metrics are: "
                                f"{catalog.valid_names_text()}.")
    return raw


def _parse_call(text: str, applies_to: str) -> Requirement | None:
    """A function condition (None when the text does not call a registered function)."""
    m = _CALL.match(text)
    if m is not None:
        name, raw_args, op, raw = m.group("name"), m.group("args"), m.group("op"), m.group("target")
        if name not in FUNCTIONS:
            if catalog.find(name) is not None or (op is None and raw is None and "(" not in raw_args):
                return None
            raise _refuse(text, f"unknown function {name!r}; functions of {applies_to} results are: "
                                f"{function_names_text(applies_to)}.")
    else:
        m = _SYNTAX.match(text) or _WORD.match(text)
        name = (m.groupdict().get("metric") or m.groupdict().get("name") or "").strip() if m else ""
        if name not in FUNCTIONS:
            return None
        op, raw = m.groupdict().get("op"), m.groupdict().get("target")  # type: ignore[union-attr]
        raw_args = ""
        if FUNCTIONS[name].params:
            raise _refuse(text, f"{name} takes arguments: write {FUNCTIONS[name].usage}.")
    fn = FUNCTIONS[name]
    if fn.applies_to != applies_to:
        raise _refuse(text, f"{fn.usage} is a condition on {fn.applies_to} results ({fn.doc}); this command "
                            f"produces a {applies_to} result.")
    parts = _name_args(text, fn, raw_args)
    args = tuple(_parse_arg(text, fn, kind, a) for kind, a in zip(fn.params, parts, strict=False))
    call = fn.name + (f"({', '.join(quote_name(a, ',') if isinstance(a, str) else f'{a:g}' for a in args)})"
                      if fn.params else "")
    if fn.returns == "bool":
        if op is not None:
            raise _refuse(text, f"{fn.usage} is true or false: write it alone, without an operator and target.")
        return Requirement(text, call, None, None, fn.name, args)
    if op is None or raw is None or not raw.strip():
        raise _refuse(text, f"{fn.usage} is a number: write {fn.usage} OP TARGET with OP one of >=, >, <=, <.")
    target = _number(text, raw, "the target")
    if target is None:
        raise _refuse(text, f"the target {raw.strip()!r} of {fn.usage} must be a number ({_NUMBER_FORM}).")
    return Requirement(text, call, op, target, fn.name, args)


@dataclass(frozen=True)
class Requirements(Display):
    """The conditions checked on a report: each with its value, target, verdict and (with ``--ci``) interval."""

    conditions: list[dict[str, Any]]
    signature: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    @property
    def met(self) -> bool:
        return all(c["met"] for c in self.conditions)

    @property
    def unmet(self) -> list[dict[str, Any]]:
        return [c for c in self.conditions if not c["met"]]

    def to_dict(self) -> dict[str, Any]:
        return {"met": self.met, "conditions": [dict(c) for c in self.conditions],
                "unmet": [c["condition"] for c in self.unmet], "notes": list(self.notes), "signature": self.signature}


def _places(d: dict[str, Any]) -> NamedValues:
    """The report's metrics by catalogue name, read once (:func:`clfeval.core._named.named_values`)."""
    return named_values(d)


def _key(entry: catalog.Metric, label: str | None) -> str:
    return f"{entry.name}:{label}" if label is not None else entry.name


def _value(entry: catalog.Metric, label: str | None, d: dict[str, Any]) -> tuple[float | None, str | None]:
    """The value of a metric by its catalogue name, and that name (None when the report does not hold it)."""
    key = _key(entry, label)
    v = _places(d).values.get(key)
    return (None, None) if v is None else (v, key)


def _interval(key: str, d: dict[str, Any]) -> list[float] | None:
    """The bootstrap interval of the metric named ``key``: the ``ci`` section, or ``ranking_ci`` for a ranking."""
    return _places(d).intervals.get(key)


def _undefined(entry: catalog.Metric, label: str | None, d: dict[str, Any], value: float) -> str | None:
    if not math.isfinite(value):
        return "its value is undefined (infinite or 0/0 left undefined)"
    why = _places(d).reason(_key(entry, label))
    return None if why is None else f"the report lists it as undefined ({why})"


def _clears(op: str, ci: list[float] | None, target: float) -> bool | None:
    if ci is None:
        return None
    lo, hi = ci
    return bool(_OPS[op](lo, target) if op in (">=", ">") else _OPS[op](hi, target))


def _num(x: float) -> str:
    return f"{x:.4f}" if math.isfinite(x) else "undefined"


def _evaluate(fn: Function, d: Any, args: tuple[str | float, ...]
              ) -> tuple[float | bool | None, str | None, list[float] | None]:
    import importlib

    module, _, attr = fn.evaluator.partition(":")
    out = getattr(importlib.import_module(module), attr)(d, *args)
    value, why = out[0], out[1]
    ci = out[2] if len(out) > 2 else None
    return value, why, (list(ci) if ci is not None else None)


def _check_function(req: Requirement, d: dict[str, Any], result: Any) -> dict[str, Any]:
    fn = FUNCTIONS[req.function]  # type: ignore[index]
    # a rank function reads the typed result (its fields); a report function the report's JSON
    value, why, ci = _evaluate(fn, result if fn.applies_to == "rank" else d, req.args)
    if fn.returns == "bool":
        met = why is None and bool(value)
        summary = f"{req.metric}: " + (f"unmet, {why}" if why is not None else ("met" if met else "unmet"))
        return {"condition": req.text, "metric": req.metric, "op": None, "target": None, "target_value": None,
                "value": None if value is None else bool(value), "met": met, "undefined": why, "interval": None,
                "interval_clears": None, "summary": summary, "note": None}
    v = math.nan if value is None else float(value)
    if why is None and not math.isfinite(v):
        why = "its value is undefined"
    target = float(req.target)  # type: ignore[arg-type]
    met = why is None and bool(_OPS[req.op](v, target))  # type: ignore[index]
    clears = _clears(req.op, ci, target) if why is None else None  # type: ignore[arg-type]
    if why is not None:
        summary = f"{req.text}: unmet, {req.metric} = {_num(v)} but {why}"
    else:
        summary = f"{req.metric} = {_num(v)}, required {_SIGNS[req.op]} {target:g}: {'met' if met else 'unmet'}"  # type: ignore[index]
        if ci is not None:
            summary += (f"; the whole interval [{_num(ci[0])}, {_num(ci[1])}] "
                        + ("clears it" if clears else "does not clear it"))
    note = None
    if fn.higher_is_better is not None and (req.op in ("<", "<=")) == fn.higher_is_better:
        note = (f"{fn.name} is better when {'higher' if fn.higher_is_better else 'lower'}: this condition asks for it "
                f"to be {'at most' if req.op in ('<', '<=') else 'at least'} {target:g}.")
    return {"condition": req.text, "metric": req.metric, "op": req.op, "target": req.target, "target_value": target,
            "value": v if math.isfinite(v) else math.nan, "met": met, "undefined": why, "interval": ci,
            "interval_clears": clears, "summary": summary, "note": note}


def _check(req: Requirement, d: dict[str, Any], result: Any) -> dict[str, Any]:
    if req.function is not None:
        return _check_function(req, d, result)
    assert req.op is not None  # the parser gives every metric condition its operator
    entry, label = catalog.parse(req.metric)
    labels = list(result.labels) if isinstance(result, Report) else list(d.get("labels") or [])
    if label is not None and label not in labels:
        labs = ", ".join(repr(x) for x in labels[:20])
        raise _refuse(req.text, f"the data has no class {label!r}; its classes are: {labs}.")
    value, parts = _value(entry, label, d)
    if value is None or parts is None:
        need = ("scores (--score with --positive, or --scores-prefix)" if entry.input == "ranking" else
                "an ordinal scale (--order)" if "ordinal" in entry.tasks and len(entry.tasks) == 1 else
                f"--positive {label}" if any(p.path.startswith("binary.") for p in entry.where) and label else
                f"{entry.tasks} data")
        raise _refuse(req.text, f"this report has no {catalog.label(req.metric)}; it needs {need}.")
    if req.baseline is not None:
        tv = _baseline_value(result, d, req.baseline, entry.name, label)
        target = math.nan if not isinstance(tv, (int, float)) else float(tv)
        target_text = f"the {req.baseline} baseline ({_num(target)})"
    else:
        target = float(req.target)  # type: ignore[arg-type]
        target_text = f"{target:g}"
    why = _undefined(entry, label, d, value)
    if why is None and not math.isfinite(target):
        why = f"the {req.baseline} baseline has no value of it"
    met = why is None and bool(_OPS[req.op](value, target))
    ci = _interval(parts, d)
    clears = _clears(req.op, ci, target) if why is None else None
    shown = f"{req.metric} = {_num(value)}, required {_SIGNS[req.op]} {target_text}"
    if why is not None:
        summary = f"{req.text}: unmet, {req.metric} = {_num(value)} but {why}"
    else:
        summary = f"{shown}: {'met' if met else 'unmet'}"
        if ci is not None:
            level = _level(result, d)
            pct = f"{level * 100:g}% " if isinstance(level, (int, float)) else ""
            summary += (f"; the whole {pct}interval [{_num(ci[0])}, {_num(ci[1])}] "
                        + ("clears it" if clears else "does not clear it"))
    direction = entry.higher_is_better
    note = None
    if direction is not None and (req.op in ("<", "<=")) == direction:
        note = (f"{catalog.label(req.metric)} is better when {'higher' if direction else 'lower'}: this condition "
                f"asks for it to be {'at most' if req.op in ('<', '<=') else 'at least'} {target_text}.")
    return {"condition": req.text, "metric": req.metric, "op": req.op,
            "target": req.target, "target_value": target if math.isfinite(target) else math.nan,
            "value": value if math.isfinite(value) else math.nan, "met": met, "undefined": why,
            "interval": ci, "interval_clears": clears, "summary": summary, "note": note}


def _baseline_value(result: Any, d: dict[str, Any], baseline: str, name: str, label: str | None) -> object:
    """A baseline's value of a metric (of a label): read from the report's typed baselines (a report's JSON when
    given as one)."""
    if not isinstance(result, Report):
        b = (d.get("baselines") or {}).get(baseline) or {}
        return b.get(name) if label is None else ((b.get("per_class") or {}).get(label) or {}).get(name)
    bl = getattr(result.baselines, baseline, None)
    if bl is None:
        return None
    if label is None:
        return getattr(bl, name, None)
    row = (bl.per_class or {}).get(label)
    return None if row is None else getattr(row, name, None)


def _level(result: Any, d: dict[str, Any]) -> object:
    """The level of the report's intervals (``ci``, else ``ranking_ci``)."""
    if isinstance(result, Report):
        part = result.ci or result.ranking_ci
        return None if part is None else part.level
    return (d.get("ci") or d.get("ranking_ci") or {}).get("level")


def check_requirements(report: Any, conditions: Sequence[str | Requirement], *,
                       applies_to: str = "report") -> Requirements:
    """Check conditions on a report (a :class:`~clfeval.evaluate._reports.Report` or its ``to_dict()``).

    Parameters
    ----------
    report : Report or dict
        With ``ci`` (and ``ranking_ci``) when intervals should be judged too. Any result with
        ``to_dict()`` for function conditions of its kind.
    conditions : sequence of str or Requirement
        ``'macro_f1>=0.70'``, ``'recall:spam>=0.9'``, ``'accuracy>majority'``, ``'min_slice(recall:spam)>=0.8'``...
    applies_to : str
        The kind of result ``report`` is (``"report"``, ``"rank"``): conditions are parsed for it.

    Returns
    -------
    Requirements
        ``met`` is True when every condition is met.

    Examples
    --------
    >>> from clfeval.evaluate._reports import report
    >>> r = report(["spam"] * 10 + ["ham"] * 30, ["spam"] * 9 + ["ham"] * 31)
    >>> q = check_requirements(r, ["recall:spam>=0.9", "accuracy>majority", "precision:spam>=0.95"])
    >>> [c["met"] for c in q.conditions], q.met
    ([True, True, True], True)
    >>> check_requirements(r, ["macro_f1>=0.99"]).conditions[0]["summary"]  # (18/19 + 60/61) / 2
    'macro_f1 = 0.9655, required ≥ 0.99: unmet'
    """
    reqs = [c if isinstance(c, Requirement) else parse_requirement(c, applies_to=applies_to) for c in conditions]
    d = report.to_dict() if hasattr(report, "to_dict") else dict(report)
    rows = [_check(r, d, report) for r in reqs]
    notes = ["Each condition is judged on the report's value; with --ci the whole interval is shown beside "
             "(clears it or not)."] if any(c["interval"] is not None for c in rows) else []
    notes += [c["note"] for c in rows if c["note"]]
    sig = build_signature({"result": "requirements", "conditions": [r.text for r in reqs]})
    return Requirements(rows, sig, notes)


def with_requirements(report: Any, conditions: Sequence[str | Requirement]) -> Any:
    """The report with its ``requirements`` part (:func:`check_requirements`), rendered after the others."""
    import dataclasses

    section = check_requirements(report, conditions).to_dict()
    section.pop("signature")
    return dataclasses.replace(report, requirements=RequirementsPart.of(section))
