"""What a figure reads: the typed report of a result (:func:`report_of`: a Report, or the report of its JSON
through ``Report.from_dict``), or the JSON dict of a result that has no typed reading yet (``result.to_dict()``)."""

from __future__ import annotations

import math
from typing import Any

from clfeval.errors import UsageError
from clfeval.ops.report import Report

__all__ = ["as_dict", "value", "need", "report_of"]


def as_dict(result: Any) -> dict[str, Any]:
    """``result.to_dict()`` for a result object; a dict (parsed JSON output) as it is."""
    if isinstance(result, dict):
        return result
    to_dict = getattr(result, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    raise UsageError(f"a figure is drawn from a clfeval result or its JSON output; got {type(result).__name__}.")


def report_of(result: Any, figure: str, what: str, key: str = "per_class") -> Report:
    """The typed report a figure reads: the :class:`~clfeval.ops.report.Report` given, or the report of its JSON
    (:meth:`Report.from_dict`); a cross-validation result's (or its JSON's) pooled report. A result that is not a
    report: a usage error saying which result the figure needs."""
    if isinstance(result, Report):
        return result
    d = as_dict(result)
    if isinstance(d.get("pooled"), dict):
        d = d["pooled"]
    if d.get(key) is None or "macro" not in d:
        raise UsageError(f"the {figure} figure needs {what}; this result has no {key!r}.")
    return Report.from_dict(d)


def value(x: Any) -> float:
    """A number of a result, NaN for None (JSON null = undefined)."""
    if x is None:
        return math.nan
    return float(x)


def need(d: dict[str, Any], key: str, figure: str, what: str) -> Any:
    """``d[key]``, or a usage error saying which result the figure needs."""
    if key not in d or d[key] is None:
        raise UsageError(f"the {figure} figure needs {what}; this result has no {key!r}.")
    return d[key]
