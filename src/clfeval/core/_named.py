"""A result's numbers keyed by catalogue name: ``macro_f1``, ``f1:spam``, ``roc_auc``, with intervals and reasons.

A report's JSON lays its metrics out in sections (``per_class``, ``binary``,
``macro``, ``ranking``, ...); the catalogue says where each entry sits
(:class:`clfeval.core._catalog.Place`). :func:`named_values` reads them once, so
that everything that asks for a metric by name — ``Report.metric``,
``Report.values``, the ``--require`` conditions, their intervals — reads the
same place, and no other code walks JSON paths.

>>> from clfeval.evaluate._reports import report
>>> v = named_values(report(["a", "b", "b"], ["a", "b", "a"]).to_dict())
>>> v.values["f1:a"], v.values["macro_f1"]
(0.6666666666666666, 0.6666666666666666)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from clfeval.core import _catalog as catalog

__all__ = ["NamedValues", "named_values"]


def _at(node: Any, parts: Sequence[str]) -> Any:
    for key in parts:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


@dataclass(frozen=True)
class NamedValues:
    """The metrics of one result's JSON by catalogue name.

    ``values``: name → value (NaN when undefined); ``intervals``: name → [low, high] (the bootstrap
    interval of ``ci`` or ``ranking_ci``, when finite); ``undefined``: name (or a per-label name's
    ``METRIC`` alone, for every label) → why it is undefined.
    """

    values: dict[str, float] = field(default_factory=dict)
    intervals: dict[str, list[float]] = field(default_factory=dict)
    undefined: dict[str, str] = field(default_factory=dict)

    def reason(self, name: str) -> str | None:
        """Why ``name`` is listed as undefined, or None."""
        if name in self.undefined:
            return self.undefined[name]
        return self.undefined.get(name.partition(":")[0]) if ":" in name else None


def _interval(d: dict[str, Any], parts: list[str]) -> list[float] | None:
    if parts[0] == "ranking":
        rc = d.get("ranking_ci")
        if not isinstance(rc, dict) or len(parts) != 2:
            return None
        ci = ((rc.get(parts[1]) or {}).get("bootstrap") or {}).get("ci")
    else:
        ci = _at(d.get("ci"), parts)
    if isinstance(ci, (list, tuple)) and len(ci) == 2 and all(_number(x) for x in ci):
        lo, hi = float(ci[0]), float(ci[1])
        return [lo, hi] if math.isfinite(lo) and math.isfinite(hi) else None
    return None


def _places(d: dict[str, Any], result: str) -> list[tuple[str, list[str]]]:
    """(catalogue name, JSON path) of every place a result of kind ``result`` may hold, catalogue order."""
    labels = [str(x) for x in (d.get("labels") or [])]
    positive = (d.get("binary") or {}).get("positive")
    out = []
    for m in catalog.METRICS:
        for place in m.where:
            if place.result != result:
                continue
            parts = place.path.split(".")
            if parts[0] == "binary":
                if m.per_label and positive is not None:
                    out.append((f"{m.name}:{positive}", parts))
            elif "LABEL" in parts:
                if m.per_label:
                    out.extend((f"{m.name}:{lab}", [lab if p == "LABEL" else p for p in parts]) for lab in labels)
            elif not m.per_label:
                out.append((m.name, parts))
    return out


def named_values(d: dict[str, Any], *, result: str = "report") -> NamedValues:
    """The metrics a result's JSON (``to_dict()``) holds, by catalogue name; the first place found wins."""
    out = NamedValues()
    for name, parts in _places(d, result):
        if name in out.values:
            continue
        parent = _at(d, parts[:-1])
        if not isinstance(parent, dict) or parts[-1] not in parent:
            continue
        v = parent[parts[-1]]  # null in JSON text read back: undefined
        if v is not None and not _number(v):
            continue
        out.values[name] = math.nan if v is None else float(v)
        ci = _interval(d, parts)
        if ci is not None:
            out.intervals[name] = ci
    for u in list(d.get("undefined") or []) + list((d.get("ranking") or {}).get("undefined") or []):
        metric = u.get("metric")
        if not isinstance(metric, str):
            continue
        why = u.get("reason") or "a 0/0 ratio, filled by the zero_division policy"
        labels = u.get("labels")
        if labels is None:
            out.undefined.setdefault(metric, why)
        else:
            for lab in labels:
                out.undefined.setdefault(f"{metric}:{lab}", why)
    return out
