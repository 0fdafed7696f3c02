"""Armano's φ–δ rhombus: the classes of a report, the folds of a cross-validation, the terms of a category, the
systems of a comparison."""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.core import LabelMap, manyclasses
from clfeval.errors import UsageError
from clfeval.ops.report import ClassRow, Report
from clfeval.plots import _mpl
from clfeval.plots._data import as_dict, value

if TYPE_CHECKING:
    from clfeval.ops.compare import Compared, PhiDeltaPoint

__all__ = ["phi_delta", "phi_delta_points", "phi_delta_groups"]

#: One group of points: (group name or None, point names, φ, δ).
Group = tuple[str | None, list[str], list[float], list[float]]


def _classes(pc: Mapping[str, Any], label: Any = None) -> tuple[list[str], list[float], list[float]]:
    """The points of the classes (each a typed row or point with ``phi`` and ``delta``, a report's row with
    ``support`` and ``f1`` too): class ``label``, or the classes a figure draws (at most 20, the largest:
    :mod:`clfeval.core._manyclasses`)."""
    if label is not None and str(label) in pc:
        keys = [str(label)]
    else:
        sup = {k: getattr(pc[k], "support", None) or 0 for k in pc}
        keys = list(manyclasses.for_figure(list(pc), sup, {k: value(getattr(pc[k], "f1", None)) for k in pc}).labels)
    return keys, [value(pc[k].phi) for k in keys], [value(pc[k].delta) for k in keys]


def _rows(r: Report) -> Mapping[str, ClassRow]:
    """A report's per-class rows by label text."""
    pc = r.per_class
    return pc.as_text() if isinstance(pc, LabelMap) else {str(k): v for k, v in pc.items()}


def _compared_systems(r: Compared) -> Mapping[str, Mapping[str, PhiDeltaPoint]] | None:
    """The systems' classes of a comparison (two systems, or the pairs of several), read from its typed
    :class:`~clfeval.ops.compare.PhiDelta` parts, in the order of its systems; None without (score metrics)."""
    pairs = list(r.comparisons) if r.many is not None else [r] if r.pair is not None else []
    found: dict[str, Mapping[str, PhiDeltaPoint]] = {}
    for c in pairs:
        points = c.phi_delta
        for name, pts in (points.systems.items() if points is not None else ()):
            found.setdefault(name, pts)
    return {n: found[n] for n in r.names if n in found} or None


def _systems(d: Any) -> Mapping[str, Mapping[str, Any]] | None:
    """A comparison's JSON ``phi_delta.systems`` (name → label → point, typed by
    :meth:`~clfeval.ops.compare.PhiDelta.of`), or a mapping name → report (or its JSON: :meth:`Report.from_dict`)
    as name → the report's per-class rows; else None."""
    if isinstance(d, Mapping) and isinstance(d.get("phi_delta"), Mapping) and "systems" in d["phi_delta"]:
        from clfeval.ops.compare import PhiDelta

        return PhiDelta.of(d["phi_delta"]).systems
    if isinstance(d, Mapping) and d and "per_class" not in d and "terms" not in d and "pooled" not in d and \
            all(isinstance(v, Mapping) or hasattr(v, "to_dict") for v in d.values()):
        out = {}
        for name, rep in d.items():
            if not isinstance(rep, Report) and "per_class" not in as_dict(rep):
                return None
            out[str(name)] = _rows(rep if isinstance(rep, Report) else Report.from_dict(as_dict(rep)))
        return out
    return None


def _is_compared(result: Any) -> bool:
    """Whether ``result`` is a comparison, without importing the comparison's types for a report's figure (one
    exists only once its module is imported)."""
    module = sys.modules.get("clfeval.ops.compare")
    return module is not None and isinstance(result, module.Compared)


def phi_delta_groups(result: Any, label: Any = None) -> tuple[list[Group], str]:
    """The points a φ–δ figure draws, in groups, and what they are.

    A report: its classes (one group); a cross-validation result: its folds (each the mean over classes of the
    fold's φ and δ, or those of class ``label``); the Reuters study: the terms of its category; a comparison (or
    a mapping name → report): one group per system, its classes (or only class ``label``).
    """
    systems: Mapping[str, Mapping[str, Any]] | None = None
    if _is_compared(result):
        systems = _compared_systems(result)
    if isinstance(result, Report):
        return _report_group(result)
    d = result if isinstance(result, Mapping) else as_dict(result)
    if systems is None:
        systems = _systems(d)
    if systems is None and not isinstance(result, Mapping) and hasattr(result, "to_dict"):
        d = as_dict(result)
        systems = _systems(d)
    if systems is not None:
        groups: list[Group] = [(str(name), *_classes(pc, label)) for name, pc in systems.items()]
        return groups, "systems" + (f", class {label}" if label is not None else " (their classes)")
    # the Reuters study's terms and a cross-validation result's folds: dicts with no typed result yet
    if isinstance(d.get("terms"), dict) and "most_discriminative" in d["terms"]:
        t = d["terms"]
        seen: dict[str, tuple[float, float]] = {}
        for key in ("most_discriminative", "most_negative", "stop_word_corner", "rare_corner"):
            for row in t.get(key, [])[:8]:
                seen.setdefault(row["term"], (value(row["phi"]), value(row["delta"])))
        for term, row in (t.get("selected") or {}).items():
            seen.setdefault(term, (value(row["phi"]), value(row["delta"])))
        return [(None, list(seen), [v[0] for v in seen.values()], [v[1] for v in seen.values()])], \
            f"terms of {t['category']}"
    folds = d.get("per_fold")
    if folds and all("phi_delta" in f for f in folds):
        names = [f"fold {f['fold']}" + (f" (repeat {f['repeat']})" if d.get("repeats", 1) > 1 else "") for f in folds]
        if label is not None:
            pts = [f["phi_delta"].get(str(label), {}) for f in folds]
            return [(None, names, [value(p.get("phi")) for p in pts], [value(p.get("delta")) for p in pts])], \
                f"folds, class {label}"
        phis = [float(np.nanmean([value(v["phi"]) for v in f["phi_delta"].values()])) for f in folds]
        deltas = [float(np.nanmean([value(v["delta"]) for v in f["phi_delta"].values()])) for f in folds]
        return [(None, names, phis, deltas)], "folds (mean over classes)"
    rd = d["pooled"] if isinstance(d.get("pooled"), dict) else d
    if not rd.get("per_class") or "macro" not in rd:
        raise _none()
    return _report_group(Report.from_dict(rd))


def _none() -> UsageError:
    return UsageError("the phi-delta figure needs φ and δ: a report, a cross-validation result, the Reuters study, "
                      "a comparison of predicted labels or several reports; this result has none.")


def _report_group(r: Report) -> tuple[list[Group], str]:
    """A report's classes, one group."""
    pc = _rows(r)
    if not pc or not all(row.phi is not None for row in pc.values()):
        raise _none()
    group = (None, *_classes(pc))
    what = "classes" if len(group[1]) == len(pc) else f"the {len(group[1])} largest of {len(pc):,} classes"
    return [group], what


def phi_delta_points(result: Any, label: Any = None) -> tuple[list[str], list[float], list[float], str]:
    """The points of :func:`phi_delta_groups` in one list: (names, φ, δ, what they are); a point of a group is
    named ``name (group)``."""
    groups, what = phi_delta_groups(result, label)
    names, phis, deltas = [], [], []
    for g, n, f, dl in groups:
        names += [x if g is None else f"{x} ({g})" for x in n]
        phis += f
        deltas += dl
    return names, phis, deltas, what


#: A φ–δ figure gets a second panel zoomed on its points when they span less than this (in φ and in δ).
ZOOM_SPAN = 0.5


def _rhombus(ax: Any, tag: str = "") -> None:
    """The rhombus, its TPR and FPR isometrics every 0.1 and the axes through the origin (ids start with
    ``tag``: a second, zoomed panel draws them again, and an id names one element of the page)."""
    ax.plot([-1, 0, 1, 0, -1], [0, 1, 0, -1, 0], color="#444444", linewidth=1.0, gid=f"{tag}rhombus")
    for c in np.linspace(0.1, 0.9, 9):
        # TPR = c: φ + δ = 2c − 1; FPR = c: φ − δ = 2c − 1 (clipped to the rhombus)
        s = 2 * c - 1
        xs, ys = _iso(s, +1)
        ax.plot(xs, ys, color="#0072B2", linewidth=0.5, alpha=0.35, gid=f"{tag}tpr-{c:.1f}")
        xs, ys = _iso(s, -1)
        ax.plot(xs, ys, color="#D55E00", linewidth=0.5, alpha=0.35, gid=f"{tag}fpr-{c:.1f}")
    # the axes through the origin, inside the rhombus only: the corner labels beyond it stay clear of every line
    ax.plot([-1, 1], [0, 0], color="#999999", linewidth=0.6, gid=f"{tag}phi-axis")
    ax.plot([0, 0], [-1, 1], color="#999999", linewidth=0.6, gid=f"{tag}delta-axis")


def _points(ax: Any, groups: list[Group], prefix: str) -> list[Any]:
    many = len(groups) > 1
    return [ax.scatter(f, dl, s=30, color=_mpl.COLORS[i % len(_mpl.COLORS)] if many else _mpl.COLORS[0],
                       marker="osD^v<>"[i % 7] if many else "o", zorder=3,
                       gid=f"{prefix}-{i}" if many else prefix) for i, (_, _, f, dl) in enumerate(groups)]


def _zoom(phis: list[float], deltas: list[float]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Limits of a panel zoomed on the points, or None when they are spread enough for the whole rhombus."""
    pts = [(f, d) for f, d in zip(phis, deltas, strict=False) if math.isfinite(f) and math.isfinite(d)]
    if len(pts) < 2:
        return None
    f, d = np.array(pts).T
    span = max(float(np.ptp(f)), float(np.ptp(d)))
    if span >= ZOOM_SPAN:
        return None
    half = max(0.6 * span + 0.03, 0.06)
    cf, cd = (f.min() + f.max()) / 2, (d.min() + d.max()) / 2
    return (cf - half, cf + half), (cd - half, cd + half)


def phi_delta(result: Any, *, label: Any = None, annotate: int = 24, ax: Any = None) -> Any:
    """Armano's φ–δ rhombus: δ = TPR − FPR (up: discriminates), φ = TPR + FPR − 1 (right: says yes often).

    The rhombus has corners (±1, 0) and (0, ±1); the thin lines inside are
    the isometrics TPR = const (falling) and FPR = const (rising), every 0.1.
    See :func:`phi_delta_groups` for what the points are: one group is drawn
    as ``points``; several (the systems of a comparison) as ``points-0``,
    ``points-1``, ... in their own colours, with a legend. The ``annotate``
    points farthest from δ = 0 are named, each label placed where it
    overlaps no other label or point when such a place is near. Points that
    lie close together (within :data:`ZOOM_SPAN`) get a second panel zoomed
    on them, where the labels go; the first panel marks the zoomed region.

    Parameters
    ----------
    result : Report, cross-validation result, Reuters study, Compared, mapping name → Report, or JSON
        What the points are: see :func:`phi_delta_groups`.
    label : label, optional
        Draw only this class: each fold's (cross-validation) or each system's (comparison) φ and δ of it.
    annotate : int, default 24
        The number of points, farthest from δ = 0 first, whose labels are written.
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.
        A zoomed figure's two panels split that cell.

    Returns
    -------
    matplotlib.figure.Figure
    """
    groups, what = phi_delta_groups(result, label)
    names = [x for _, n, _, _ in groups for x in n]
    phis = [x for _, _, f, _ in groups for x in f]
    deltas = [x for _, _, _, d in groups for x in d]
    many = len(groups) > 1
    colors = [(_mpl.COLORS[i % len(_mpl.COLORS)] if many else "#333333") for i, (_, n, _, _) in enumerate(groups)
              for _ in n]
    zoom = _zoom(phis, deltas)
    with _mpl.rc():
        if zoom is None:
            fig, ax = _mpl.figure(5.6, 5.6, ax=ax)
            axes = [ax]
        else:
            fig, axes = _mpl.figure(10.4, 5.4, ncols=2, ax=ax)
            ax = axes[0]
        for i, a in enumerate(axes):
            _rhombus(a, "" if i == 0 else "zoom-")
            a.set_aspect("equal")
            a.set_xlabel("bias φ (Armano) = TPR + FPR − 1 (towards yes)")
        ax.set_xlim(-1.32, 1.32)
        ax.set_ylim(-1.15, 1.12)
        handles = _points(ax, groups, "points")
        named = ax
        if zoom is not None:
            from matplotlib.patches import Rectangle

            (x0, x1), (y0, y1) = zoom
            ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, edgecolor="#555555", linewidth=0.8,
                                   linestyle="--", gid="zoomed-region"))
            named = axes[1]
            named.set_xlim(x0, x1)
            named.set_ylim(y0, y1)
            _points(named, groups, "zoom-points")
            named.set_title("Zoomed on the points (dashed box at left)")
        order = np.argsort(-np.abs(np.nan_to_num(deltas)), kind="stable")[:annotate]
        chosen = [i for i in sorted(order.tolist()) if math.isfinite(phis[i]) and math.isfinite(deltas[i])]
        _mpl.place_labels(fig, named, [phis[i] for i in chosen], [deltas[i] for i in chosen],
                          [names[i] for i in chosen], others=list(zip(phis, deltas, strict=False)), limit=18,
                          colors=[colors[i] for i in chosen])
        if many:
            _mpl.legend(fig, ax, handles, [g for g, *_ in groups], loc="upper right")
        # each corner's name beyond its corner, pointing away from the rhombus (ids for the geometry tests)
        ax.text(0, 1.03, "perfect", ha="center", va="bottom", fontsize=7, color="#555555", gid="corner-top")
        ax.text(0, -1.03, "inverted", ha="center", va="top", fontsize=7, color="#555555", gid="corner-bottom")
        ax.text(1.03, 0, "always yes", ha="left", va="center", fontsize=7, color="#555555", gid="corner-right")
        ax.text(-1.03, 0, "always no", ha="right", va="center", fontsize=7, color="#555555", gid="corner-left")
        ax.text(-1.22, 1.08, "thin lines: TPR = const (blue),\nFPR = const (orange), every 0.1", fontsize=6.5,
                color="#666666", va="top", ha="left", gid="isometrics-note")
        ax.set_ylabel("δ = TPR − FPR (discrimination)")
        ax.set_title(f"φ–δ diagram: {what}")
    return fig


def _iso(s: float, sign: int) -> tuple[list[float], list[float]]:
    """The isometric inside the rhombus: TPR = (s + 1)/2 is φ + δ = s (sign +1), FPR = (s + 1)/2 is φ − δ = s (−1).

    Each runs between the two rhombus edges it is not parallel to.
    """
    a = (s - 1) / 2, (s + 1) / 2
    if sign > 0:  # φ + δ = s: from (φ=(s-1)/2, δ=(s+1)/2) to (φ=(s+1)/2, δ=(s-1)/2)
        return [a[0], a[1]], [a[1], a[0]]
    return [a[0], a[1]], [-a[1], -a[0]]  # φ − δ = s
