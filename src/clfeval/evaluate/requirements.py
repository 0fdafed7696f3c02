"""Conditions on a report, for pipelines: ``macro_f1>=0.70``, ``recall:spam>=0.9``, ``accuracy>majority``.

A condition is ``METRIC OP TARGET``: a metric named as the catalogue names it
(:mod:`clfeval.core.catalog`: ``accuracy``, ``macro_f1``, ``f1:LABEL``,
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
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from clfeval.core import catalog
from clfeval.core.display import Display
from clfeval.core.named import NamedValues, named_values
from clfeval.core.signature import build_signature
from clfeval.errors import UsageError

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


@dataclass(frozen=True)
class Requirement:
    """One parsed condition: ``metric op target`` (target a number, or a baseline name)."""

    text: str
    metric: str
    op: str
    target: float | str

    @property
    def baseline(self) -> str | None:
        return self.target if isinstance(self.target, str) else None


def _refuse(text: str, why: str) -> UsageError:
    return UsageError(lambda name: f"option {name} {text!r}: {why}", params=["require"])


def parse_requirement(text: str) -> Requirement:
    """A condition from its text, checked against the catalogue (before any data is read).

    >>> parse_requirement("macro_f1>=0.70")
    Requirement(text='macro_f1>=0.70', metric='macro_f1', op='>=', target=0.7)
    >>> parse_requirement("accuracy > majority").baseline
    'majority'
    >>> parse_requirement("acuracy>=0.9")
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option require 'acuracy>=0.9': unknown metric 'acuracy'; valid metrics are: accuracy, error_rate, ...
    """
    if not isinstance(text, str):
        raise _refuse(str(text), "a condition is text such as 'macro_f1>=0.70'.")
    m = _SYNTAX.match(text)
    if m is None:
        raise _refuse(text, "expected METRIC OP TARGET with OP one of >=, >, <=, < and TARGET a number or one of "
                            f"{', '.join(BASELINES)} (for example 'macro_f1>=0.70', 'accuracy>majority').")
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
        try:
            target = float(raw)
        except ValueError:
            raise _refuse(text, f"the target {raw!r} is neither a number nor a baseline "
                                f"({', '.join(BASELINES)}).") from None
        if not math.isfinite(target):
            raise _refuse(text, f"the target must be a finite number; got {raw!r}.")
    return Requirement(text, name, op, target)


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
    """The report's metrics by catalogue name, read once (:func:`clfeval.core.named.named_values`)."""
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


def _check(req: Requirement, d: dict[str, Any]) -> dict[str, Any]:
    entry, label = catalog.parse(req.metric)
    if label is not None and label not in (d.get("labels") or []):
        labs = ", ".join(repr(x) for x in (d.get("labels") or [])[:20])
        raise _refuse(req.text, f"the data has no class {label!r}; its classes are: {labs}.")
    value, parts = _value(entry, label, d)
    if value is None or parts is None:
        need = ("scores (--score with --positive, or --scores-prefix)" if entry.input == "ranking" else
                "an ordinal scale (--order)" if "ordinal" in entry.tasks and len(entry.tasks) == 1 else
                f"--positive {label}" if any(p.path.startswith("binary.") for p in entry.where) and label else
                f"{entry.tasks} data")
        raise _refuse(req.text, f"this report has no {catalog.label(req.metric)}; it needs {need}.")
    if req.baseline is not None:
        b = (d.get("baselines") or {}).get(req.baseline) or {}
        tv = b.get(entry.name) if label is None else ((b.get("per_class") or {}).get(label) or {}).get(entry.name)
        target = math.nan if tv is None else float(tv)
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
            level = (d.get("ci") or d.get("ranking_ci") or {}).get("level")
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


def check_requirements(report: Any, conditions: Sequence[str | Requirement]) -> Requirements:
    """Check conditions on a report (a :class:`~clfeval.evaluate.reports.Report` or its ``to_dict()``).

    Parameters
    ----------
    report : Report or dict
        With ``sections["ci"]`` (and ``ranking_ci``) when intervals should be judged too.
    conditions : sequence of str or Requirement
        ``'macro_f1>=0.70'``, ``'recall:spam>=0.9'``, ``'accuracy>majority'``, ...

    Returns
    -------
    Requirements
        ``met`` is True when every condition is met.

    Examples
    --------
    >>> from clfeval.evaluate.reports import report
    >>> r = report(["spam"] * 10 + ["ham"] * 30, ["spam"] * 9 + ["ham"] * 31)
    >>> q = check_requirements(r, ["recall:spam>=0.9", "accuracy>majority", "precision:spam>=0.95"])
    >>> [c["met"] for c in q.conditions], q.met
    ([True, True, True], True)
    >>> check_requirements(r, ["macro_f1>=0.99"]).conditions[0]["summary"]  # (18/19 + 60/61) / 2
    'macro_f1 = 0.9655, required ≥ 0.99: unmet'
    """
    reqs = [c if isinstance(c, Requirement) else parse_requirement(c) for c in conditions]
    d = report.to_dict() if hasattr(report, "to_dict") else dict(report)
    rows = [_check(r, d) for r in reqs]
    notes = ["Each condition is judged on the report's value; with --ci the whole interval is shown beside "
             "(clears it or not)."] if any(c["interval"] is not None for c in rows) else []
    notes += [c["note"] for c in rows if c["note"]]
    sig = build_signature({"result": "requirements", "conditions": [r.text for r in reqs]})
    return Requirements(rows, sig, notes)


def with_requirements(report: Any, conditions: Sequence[str | Requirement]) -> Any:
    """The report with its ``requirements`` section (:func:`check_requirements`), rendered after the others."""
    import dataclasses

    section = check_requirements(report, conditions).to_dict()
    section.pop("signature")
    return dataclasses.replace(report, sections={**report.sections, "requirements": section})
