"""The forest plot of a report by slice: each slice's value with its interval, the overall line, sizes, and the
slices flagged after adjustment."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from clfeval.errors import UsageError
from clfeval.ops.report import FoundSlices, Report, SliceRow
from clfeval.plots import _mpl
from clfeval.plots._data import as_dict, report_of, value

__all__ = ["forest", "found_forest", "wilson", "MAX_ROWS"]

#: Slices drawn at most (those with the smallest adjusted p first; the JSON holds every slice).
MAX_ROWS = 40
_FIND = "a report with --find-slices"


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion, for a slice whose JSON holds no interval: the one Wilson
    interval of the package (:func:`clfeval.stats.wilson`), NaN for an empty slice.

    >>> [round(x, 4) for x in wilson(8, 10)]
    [0.4902, 0.9433]
    """
    from clfeval.stats import wilson as interval

    lo, hi = interval(successes, trials, 0.95).tolist()
    return float(lo), float(hi)


def _interval(row: SliceRow, metric: str) -> tuple[float, float, str]:
    ci = (row.ci or {}).get(metric)
    if ci and None not in ci:
        return value(ci[0]), value(ci[1]), "ci"
    counts = (row.counts or {}).get(metric)
    if counts:
        lo, hi = wilson(int(counts[0]), int(counts[1]))
        return lo, hi, "wilson"
    return math.nan, math.nan, ""


def _flagged(row: SliceRow, metric: str) -> bool:
    t = (row.tests or {}).get(metric)
    return bool(t is not None and t.flagged)


def _p_holm(row: SliceRow, metric: str) -> float:
    t = (row.tests or {}).get(metric)
    return 2.0 if t is None or t.p_holm is None else t.p_holm


def forest(result: Any, metric: str | None = None, *, ax: Any = None) -> Any:
    """Each slice's value of ``metric`` (default: the first tested) with its interval (``--ci``'s: the overall
    interval method run on the slice's own table; else the 95 % Wilson interval of a proportion), the overall value
    as a line, the slice sizes at the right; slices flagged after Holm's adjustment in colour, slices below
    ``--min-slice`` in grey.

    Parameters
    ----------
    result : Report by slice (``by``) or its JSON dict
    metric : str, optional
        The metric of the slices drawn; default the first tested.
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    sec = report_of(result, "forest", "a report by slice (--by)", "slices").slices
    if sec is None:
        raise UsageError("the forest figure needs a report by slice (--by); this result has no 'slices'.")
    tested, metrics = sec.tested or (), sec.metrics or ()
    metric = metric or (tested[0] if tested else None)
    if metric is None or metric not in metrics:
        raise UsageError(f"the forest figure draws a metric of the slices; {metric!r} is not among them.")
    rows = list(sec.slices)
    if len(rows) > MAX_ROWS:
        rows = sorted(rows, key=lambda r: _p_holm(r, metric))[:MAX_ROWS]
    rows = rows[::-1]  # the first slice at the top
    overall = value((sec.overall or {}).get(metric))
    drawn, kinds = [], set()
    for r in rows:
        lo, hi, kind = _interval(r, metric)
        kinds.add(kind)
        colour = "#aaaaaa" if r.small else (_mpl.COLORS[3] if _flagged(r, metric) else _mpl.COLORS[0])
        drawn.append((r.slice, value((r.metrics or {}).get(metric)), lo, hi, r.n, colour))
    kinds.discard("")
    what = {"ci": "interval of --ci (its method on each slice's table)", "wilson": "95% Wilson interval"}
    flagged = any(_flagged(r, metric) for r in rows)
    title = ", ".join(what[k] for k in sorted(kinds)) or "no interval"
    title += "; flagged after Holm's adjustment in orange" if flagged else "; no slice flagged after adjustment"
    if len(rows) < len(sec.slices):
        title += f"\n{len(rows)} of {len(sec.slices):,} slices, the smallest p first"
    return _draw(drawn, overall, metric, title, max(x.n for x in sec.slices), ax)


def found_forest(result: Any, *, ax: Any = None) -> Any:
    """The slices ``--find-slices`` found (the worst first, at most :data:`MAX_ROWS`), each with its value and
    95 % Wilson interval, the overall value as a line, the slice sizes at the right.

    Parameters
    ----------
    result : Report with ``find_slices``, or its JSON dict
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    sec = _found(result)
    rows = list(sec.found)[:MAX_ROWS]
    if not rows:
        raise UsageError("the search found no slice significantly worse than the rest: there is nothing to draw.")
    drawn = [(r.slice, value(r.value), *_ends(r.interval), r.items, _mpl.COLORS[3]) for r in rows[::-1]]
    title = (f"The {len(rows)} worst slices found (of {sec.examined:,} examined)\n95% Wilson intervals; "
             f"Benjamini–Yekutieli at {sec.alpha:g}")
    return _draw(drawn, value(sec.overall.value), sec.metric, title, max(r.items for r in rows), ax)


def _ends(interval: Sequence[float | None] | None) -> tuple[float, float]:
    """An interval's ends, NaN where undefined."""
    lo, hi = interval or (None, None)
    return value(lo), value(hi)


def _found(result: Any) -> FoundSlices:
    """The slice search a figure draws: a report's ``find_slices`` part, or the search itself (``clfeval slices
    find``), typed, or of its JSON."""
    if isinstance(result, FoundSlices):
        return result
    if not isinstance(result, Report):
        d = as_dict(result)
        if d.get("result") == "find_slices":
            try:
                return FoundSlices.from_dict(d)
            except (KeyError, TypeError, ValueError) as e:
                raise UsageError(f"the found-slices figure needs a slice search; this JSON is not one "
                                 f"({type(e).__name__}: {e}).") from None
    found = report_of(result, "found-slices", _FIND, "find_slices").find_slices
    if found is None:
        raise UsageError(f"the found-slices figure needs {_FIND}; this result has no 'find_slices'.")
    return found


def _draw(rows: Sequence[tuple[str, float, float, float, int | float, str]], overall: float, metric: str, title: str,
          largest: int | float, ax: Any) -> Any:
    """Rows (name, value, low, high, items, colour), bottom to top; the overall value dashed."""
    from clfeval.core import label

    with _mpl.rc():
        fig, ax = _mpl.figure(7.2, max(2.4, 0.28 * len(rows) + 1.4), ax=ax)
        for i, (_, v, lo, hi, n, colour) in enumerate(rows):
            if math.isfinite(lo) and math.isfinite(hi):
                ax.hlines(i, lo, hi, color=colour, linewidth=1.6, gid=f"ci-{i}")
            if math.isfinite(v):
                size = 14 + 46 * math.sqrt(n / max(largest, 1))
                ax.scatter([v], [i], s=size, marker="s", color=colour, zorder=3, gid=f"slice-{i}")
        if math.isfinite(overall):
            ax.axvline(overall, color="#333333", linestyle="--", linewidth=1.0, gid="overall")
        _mpl.label_ticks(fig, ax, "y", list(range(len(rows))), [r[0] for r in rows])
        sizes = ax.secondary_yaxis("right")
        sizes.set_yticks(list(range(len(rows))), [f"n={r[4]:,}" for r in rows])
        sizes.tick_params(length=0, labelsize=8)
        ax.set_ylim(-0.7, len(rows) - 0.3)
        ax.set_xlabel(f"{label(metric)} (dashed: overall {overall:.4f})" if math.isfinite(overall) else label(metric))
        ax.set_title(title, fontsize=9)
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    return fig
