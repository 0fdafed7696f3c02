"""The requirement functions of a report by slice (``--by``): ``min_slice(METRIC)``, ``max_slice_gap(METRIC)``
and the group fairness measures (``equalized_odds_difference<=0.1``), registered in
:mod:`clfeval.core._reqfunctions` and called as ``fn(report_dict, *args)`` → ``(value, why, interval)``."""

from __future__ import annotations

import math
from typing import Any

from clfeval.errors import UsageError

__all__ = ["min_slice", "max_slice_gap", "fairness_measure"]


def _section(d: dict[str, Any], what: str) -> dict[str, Any]:
    sec = d.get("slices")
    if not isinstance(sec, dict):
        raise UsageError(lambda r: f"option {r}: {what} reads the slices of a report: give --by COLUMN (by= in the "
                                   f"library).", params=["require"])
    return sec


def _rows(sec: dict[str, Any], metric: str, what: str) -> list[dict[str, Any]]:
    if metric not in sec["metrics"]:
        raise _not_sliced(sec, metric, what)
    return [r for r in sec["slices"] if not r["small"] and _finite(r["metrics"].get(metric))]


def _not_sliced(sec: dict[str, Any], metric: str, what: str) -> UsageError:
    """Why ``metric`` is not among the slices' metrics, and what would give it: a class the data does not have,
    a ranking metric (the scores), a count metric not shown by default (``slice_metrics``)."""
    from clfeval.core import catalog
    from clfeval.slicing._slices import RANKING_METRICS

    call = f"{what}({metric})"
    entry, label = catalog.parse(metric)
    labels = [str(x) for x in sec.get("labels", [])]
    if label is not None and str(label) not in labels:
        more = ", …" if len(labels) > 20 else ""
        return UsageError(lambda r: f"option {r}: {call} names the class {label!r}, which the data does not have; its "
                                    f"classes are: {', '.join(labels[:20])}{more}.", params=["require"])
    if entry.input == "ranking":
        if entry.name in RANKING_METRICS:
            return UsageError(lambda r, s, p: f"option {r}: {call} ranks the items of each slice by their scores: give "
                                              f"the score column with {s} (and the positive class with {p}) beside "
                                              f"the slices.", params=["require", "score", "positive"])
        return UsageError(lambda r: f"option {r}: {call}: of the ranking metrics, the slices have "
                                    f"{' and '.join(RANKING_METRICS)} (with a score column).", params=["require"])
    if entry.input == "counts" and "multiclass" in entry.tasks:
        return UsageError(lambda r, m: f"option {r}: {call} needs {metric} among the slices' metrics "
                                       f"({', '.join(sec['metrics'])}); add {m} {metric}.",
                          params=["require", "slice_metrics"])
    return UsageError(lambda r: f"option {r}: {call}: {metric} is not a metric of the slices' count tables; they have "
                                f"{', '.join(sec['metrics'])}.", params=["require"])


def _finite(x: Any) -> bool:
    return isinstance(x, (int, float)) and math.isfinite(x)


def min_slice(d: dict[str, Any], metric: str) -> tuple[float | None, str | None, list | None]:
    """The lowest value of ``metric`` over the slices of at least ``--min-slice`` items (and its interval)."""
    sec = _section(d, "min_slice")
    rows = _rows(sec, metric, "min_slice")
    if not rows:
        return None, f"no slice has {sec['min_slice']} items or more with a defined {metric}", None
    worst = min(rows, key=lambda r: r["metrics"][metric])
    ci = (worst.get("ci") or {}).get(metric)
    return float(worst["metrics"][metric]), None, ci if ci and None not in ci else None


def max_slice_gap(d: dict[str, Any], metric: str) -> tuple[float | None, str | None, None]:
    """The largest |slice − overall| of ``metric`` over the slices of at least ``--min-slice`` items."""
    sec = _section(d, "max_slice_gap")
    rows = _rows(sec, metric, "max_slice_gap")
    overall = sec["overall"].get(metric)
    if not rows or not _finite(overall):
        return None, f"no slice has {sec['min_slice']} items or more with a defined {metric}", None
    return float(max(abs(r["metrics"][metric] - overall) for r in rows)), None, None


def fairness_measure(name: str) -> Any:
    def fn(d: dict[str, Any]) -> tuple[float | None, str | None, list | None]:
        sec = _section(d, name)
        fair = sec.get("fairness")
        if not isinstance(fair, dict):
            raise UsageError(lambda r, p: f"option {r}: {name} is a group fairness measure of binary data: give "
                                          f"{p} CLASS with --by.", params=["require", "positive"])
        v = fair["measures"].get(name)
        ci = (fair.get("ci") or {}).get(name)
        if v is None:
            return None, "a rate is undefined in every group", None
        return float(v), None, ci if ci and None not in ci else None

    fn.__name__ = name
    return fn


def __getattr__(name: str) -> Any:
    """A group fairness measure's requirement function by its name (each entry of
    :data:`clfeval.core.FAIRNESS`; :mod:`clfeval.core._reqfunctions` names them ``module:NAME``)."""
    from clfeval.core import FAIRNESS

    if name in FAIRNESS:
        return fairness_measure(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
