"""Figures of scores: ROC and precision–recall curves, the threshold sweep, the reliability diagram.

Curves are drawn from the decimated points the results carry in JSON
(:mod:`clfeval.core._decimate`): within one pixel of the exact curve at any
figure size up to :data:`clfeval.core._decimate.REFERENCE_PX`. When the result
carries bootstrap bands (a report made with scores and ``--ci``: its
``ranking_ci`` section; or a :class:`~clfeval.significance._curvebands.CurveBands`),
each curve is drawn inside its pointwise band.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.core import LabelMap, RankingSummary, manyclasses
from clfeval.errors import UsageError
from clfeval.ops.calibration import Calibration, CalibrationBin
from clfeval.ops.ranking import RankingResult
from clfeval.ops.report import RankingIntervals, RankingPart, Report
from clfeval.ops.threshold import ChosenCut, CutRow, LabelCuts, Sweep, ThresholdResult
from clfeval.plots import _mpl
from clfeval.plots._data import as_dict, need, value

__all__ = ["roc", "pr", "threshold", "label_thresholds", "tuning_panel", "reliability", "MAX_CURVES"]

#: One-vs-rest curves drawn, each in its own colour with its own legend entry: the largest classes
#: (:mod:`clfeval.core._manyclasses`).
MAX_CURVES = manyclasses.FIGURE_ALL


@dataclass(frozen=True)
class _Curve:
    """One label's curves and the numbers its legend entry gives."""

    label: str
    points: Mapping[str, Any]  # the decimated curves: {"roc": {"fpr", "tpr"}, "pr": {"recall", "precision"}}
    roc_auc: float | None
    average_precision: float | None
    prevalence: float | None


@dataclass(frozen=True)
class _Ranked:
    """What a ROC or PR figure draws: the curves (of many classes, the ones a figure draws), the one-vs-rest
    macro means, and the pointwise bootstrap bands by label (level, then label → curve → band)."""

    curves: list[_Curve]
    n_labels: int = 0  # one-vs-rest: every class (0: one positive class)
    macro_roc_auc: float | None = None
    macro_average_precision: float | None = None
    level: float | None = None
    bands: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


def _ovr(labels: list[str], rows: Mapping[str, Any], curves: Mapping[str, Any]) -> list[_Curve]:
    """The one-vs-rest curves a figure draws: rows are each label's typed ranking row (support, average precision,
    ROC-AUC, prevalence)."""
    sup = {lab: (rows[lab].support or 0) if lab in rows else 0 for lab in labels}
    ap = {lab: value(rows[lab].average_precision) if lab in rows else math.nan for lab in labels}
    picked = manyclasses.for_figure(labels, sup, ap)
    return [_Curve(lab, curves.get(lab) or {}, rows[lab].roc_auc, rows[lab].average_precision, rows[lab].prevalence)
            for lab in picked.labels]


def _of_part(rk: RankingPart, rc: RankingIntervals | None) -> _Ranked:
    """The curves of a report's typed ranking part, with the bands of its ranking intervals."""
    curves: Mapping[str, Any] = rk.curves or {}
    bands: dict[str, Mapping[str, Any]] = {}
    if rc is not None and rc.per_class is not None:
        bands = {lab: e.bands for lab, e in rc.per_class.items() if e.bands}
    elif rc is not None and rc.bands:
        bands = {str(rc.positive): rc.bands}
    level = rc.level if rc is not None and bands else None
    if rk.per_class is not None:
        labels = [str(x) for x in (rk.labels or rk.per_class)]
        macro = rk.macro or {}
        return _Ranked(_ovr(labels, rk.per_class, curves), len(rk.labels or ()), macro.get("roc_auc"),
                       macro.get("average_precision"), level, bands)
    return _Ranked([_Curve(str(rk.positive), curves, rk.roc_auc, rk.average_precision, rk.prevalence)], 0,
                   level=level, bands=bands)


def _of_summary(s: RankingSummary) -> _Ranked:
    return _Ranked([_Curve(s.positive, s.curves(), s.roc_auc, s.average_precision, s.prevalence)])


def _of_ranking(r: RankingResult) -> _Ranked:
    """The curves of a ranking result: its binary summary, or its one-vs-rest rows and each label's curves."""
    if r.ovr is None:
        assert r.summary is not None  # a ranking is one of the two
        return _of_summary(r.summary)
    ovr = r.ovr
    pc = ovr.per_class
    rows = pc.as_text() if isinstance(pc, LabelMap) else {str(k): v for k, v in pc.items()}
    return _Ranked(_ovr(list(ovr.labels), rows, ovr.curves()), len(ovr.labels), ovr.macro.roc_auc,
                   ovr.macro.average_precision)


def _more(rk: _Ranked) -> str:
    """What a one-vs-rest figure leaves out, or ''."""
    k, drawn = rk.n_labels, len(rk.curves)
    return f"; the {drawn} largest of {k:,} classes drawn" if k > drawn else ""


def _is_bands(d: dict[str, Any]) -> bool:
    return d.get("band") == "pointwise percentile" and isinstance(d.get("roc"), dict) and "fpr" in d["roc"]


def _from_bands(d: dict[str, Any]) -> _Ranked:
    """A CurveBands dict (no typed reading yet) as its observed curves at the grid points, and its bands."""
    curves = {"roc": {"fpr": d["roc"]["fpr"], "tpr": d["roc"]["observed"]},
              "pr": {"recall": d["pr"]["recall"], "precision": d["pr"]["observed"]}}
    n = d["n_positive"] + d["n_negative"]
    one = _Curve(d["positive"], curves, d["roc_auc"]["value"], d["average_precision"]["value"],
                 d["n_positive"] / n if n else None)
    return _Ranked([one], level=d["level"], bands={d["positive"]: {"roc": d["roc"], "pr": d["pr"]}})


def _no_scores(figure: str) -> UsageError:
    return UsageError(f"the {figure} figure needs scores: a report made with scores (--score or --scores-prefix) "
                      f"or a ranking; this result has no ranking curves.")


def _ranked(result: Any, figure: str) -> _Ranked:
    """What a ROC or PR figure draws, read from the typed result: a report (or its JSON, through
    :meth:`Report.from_dict`; a cross-validation result's pooled report), a ranking result or summary, a ranking's
    JSON (read as the report's typed ranking part: the same JSON), or curve bands."""
    if isinstance(result, RankingResult):
        return _of_ranking(result)
    if isinstance(result, RankingSummary):
        return _of_summary(result)
    if isinstance(result, Report):
        r = result
    else:
        d = as_dict(result)
        if _is_bands(d):
            return _from_bands(d)
        if isinstance(d.get("pooled"), dict):
            d = d["pooled"]
        if "curves" in d and ("roc_auc" in d or "per_class" in d) and "confusion_matrix" not in d:
            return _of_part(RankingPart.of(d), None)
        if not (isinstance(d.get("ranking"), dict) and "curves" in d["ranking"]):
            raise _no_scores(figure)
        r = Report.from_dict(d)
    if r.ranking is None or r.ranking.curves is None:
        raise _no_scores(figure)
    return _of_part(r.ranking, r.ranking_ci)


def _band(ax: Any, rk: _Ranked, lab: str, curve: str, x: str, color: str, n: int) -> Any:
    """Fill the pointwise band of one curve (None when the result has none for it)."""
    b = (rk.bands.get(lab) or {}).get(curve)
    if not b:
        return None
    xs = np.asarray([np.nan if v is None else v for v in b[x]], dtype=np.float64)
    lo = np.asarray([np.nan if v is None else v for v in b["low"]], dtype=np.float64)
    hi = np.asarray([np.nan if v is None else v for v in b["high"]], dtype=np.float64)
    return ax.fill_between(xs, lo, hi, color=color, alpha=0.18, linewidth=0, gid=f"{curve}-band-{n}")


def _band_legend(rk: _Ranked, drawn: bool, handles: list[Any], names: list[str]) -> None:
    if drawn:
        import matplotlib.patches as mpatches

        handles.append(mpatches.Patch(color="#777777", alpha=0.3))
        level = rk.level
        names.append(f"{level * 100:g}% bootstrap band (pointwise)" if isinstance(level, (int, float))
                     else "bootstrap band (pointwise)")


def _fmt(x: Any) -> str:
    v = value(x)
    return "undef" if math.isnan(v) else f"{v:.4f}"


def _legend(fig: Any, ax: Any, handles: list[Any], names: list[str], curves: int, loc: str) -> None:
    if curves == 1:
        _mpl.legend(fig, ax, handles, names, loc=loc)
    else:
        _mpl.legend(fig, ax, handles, names, loc="outside right upper", fontsize=7 if curves > 6 else None)


def _draw(fig: Any, ax: Any, rk: _Ranked, curve: str, x: str, y: str) -> tuple[list[tuple[_Curve, Any, str]], bool]:
    """Draw one curve per label (thin grey past :data:`MAX_CURVES`), inside its band when the result has one;
    (curve, line, colour) of the coloured curves, and whether a band was drawn."""
    shown, banded = [], False
    colors = _mpl.palette(len(rk.curves))
    for n, cv in enumerate(rk.curves):
        c = cv.points.get(curve)
        if not c:
            continue
        color = colors[n]
        if rk.bands:
            banded = _band(ax, rk, cv.label, curve, x, color, n) is not None or banded
        xs, ys = c[x], c[y]
        if curve == "pr":
            xs, ys = _to_full_recall(xs, ys)
        (line,) = ax.plot(*_mpl.fit(fig, xs, ys), linewidth=1.6, color=color, gid=f"{curve}-{n}")
        shown.append((cv, line, color))
    return shown, banded


def _to_full_recall(recall: list[Any], precision: list[Any]) -> tuple[list[Any], list[Any]]:
    """A PR curve up to its first point of full recall (scikit-learn's ``precision_recall_curve`` stops there):
    the cuts below it add only negatives, a drop of precision to the prevalence at recall 1 that no threshold
    worth choosing reaches.

    >>> _to_full_recall([0.5, 1.0, 1.0, 1.0], [1.0, 0.8, 0.5, 0.3])
    ([0.5, 1.0], [1.0, 0.8])
    """
    rec = [math.nan if v is None else float(v) for v in recall]
    finite = [v for v in rec if math.isfinite(v)]
    if not finite:
        return list(recall), list(precision)
    top = max(finite)
    end = next(i for i, v in enumerate(rec) if v == top)
    return list(recall[:end + 1]), list(precision[:end + 1])


def _frame(ax: Any, xlabel: str, ylabel: str, title: str) -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True)


def roc(result: Any, *, ax: Any = None) -> Any:
    """ROC curve(s) with the chance diagonal; ROC-AUC in the legend (one curve per class for one-vs-rest); the
    bootstrap band around each curve when the result carries one.

    Parameters
    ----------
    result : Report with scores, RankingResult, or the JSON dict of either
        A cross-validation result (or its JSON) is read as its pooled report.
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    rk = _ranked(result, "roc")
    items = rk.curves
    with _mpl.rc():
        fig, ax = _mpl.figure(5.4 if len(items) == 1 else 8.4, 4.9, ax=ax)
        (diag,) = ax.plot([0, 1], [0, 1], linestyle="--", color="#999999", linewidth=0.9, gid="chance")
        shown, banded = _draw(fig, ax, rk, "roc", "fpr", "tpr")
        handles = [line for _, line, _ in shown]
        names = [f"{_mpl.short(cv.label, 24)} (AUC {_fmt(cv.roc_auc)})" for cv, _, _ in shown]
        if len(items) > 1:
            names.append(f"macro ROC-AUC {_fmt(rk.macro_roc_auc)}")
            handles.append(ax.plot([], [], linestyle="none")[0])
            if _more(rk):
                names.append(_more(rk)[2:])
                handles.append(ax.plot([], [], linestyle="none")[0])
        handles.append(diag)
        names.append("chance (AUC 0.5)")
        _band_legend(rk, banded, handles, names)
        _legend(fig, ax, handles, names, len(items), "lower right")
        _frame(ax, "false-positive rate (FPR)", "true-positive rate (recall)",
               "ROC curve" + (" (one class against the rest)" if len(items) > 1 else f": positive {items[0].label!r}"))
    return fig


def pr(result: Any, *, ax: Any = None) -> Any:
    """Precision–recall curve(s) with the prevalence line (what a random ranking scores); AP in the legend; the
    bootstrap band around each curve when the result carries one.

    Parameters
    ----------
    result : Report with scores, RankingResult, or the JSON dict of either
        A cross-validation result (or its JSON) is read as its pooled report.
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    rk = _ranked(result, "pr")
    items = rk.curves
    with _mpl.rc():
        fig, ax = _mpl.figure(5.4 if len(items) == 1 else 8.4, 4.9, ax=ax)
        handles, names = [], []
        shown, banded = _draw(fig, ax, rk, "pr", "recall", "precision")
        for n, (cv, line, color) in enumerate(shown):
            prev = value(cv.prevalence)
            if math.isfinite(prev):
                ax.axhline(prev, linestyle=":", color=color, linewidth=0.9, gid=f"prevalence-{n}")
            handles.append(line)
            names.append(f"{_mpl.short(cv.label, 24)} (AP {_fmt(cv.average_precision)}, prevalence "
                         f"{_fmt(prev)})")
        if len(items) > 1:
            handles.append(ax.plot([], [], linestyle="none")[0])
            names.append(f"macro AP {_fmt(rk.macro_average_precision)}")
            handles.append(ax.plot([], [], linestyle=":", color="#555555")[0])
            names.append("dotted: each class's prevalence")
            if _more(rk):
                handles.append(ax.plot([], [], linestyle="none")[0])
                names.append(_more(rk)[2:])
        else:
            handles.append(ax.plot([], [], linestyle=":", color="#555555")[0])
            names.append("random ranking (precision = prevalence)")
        _band_legend(rk, banded, handles, names)
        _legend(fig, ax, handles, names, len(items), "lower left")
        _frame(ax, "recall", "precision",
               "Precision–recall curve" + (" (one class against the rest)" if len(items) > 1 else ""))
    return fig


#: The cuts of a threshold choice: key of the result, name, colour, line style.
CUTS = (("default", "default cut", "#555555", "--"), ("dev", "chosen on dev", "#009E73", "-"),
        ("hindsight", "best in hindsight (optimistic)", "#D55E00", ":"))


def cut_thresholds(c: ChosenCut) -> dict[str, float]:
    """The thresholds of a threshold choice's three cuts (those that exist)."""
    out = {"default": float(c.default.threshold)}
    if c.threshold is not None:
        out["dev"] = float(c.threshold)
    if c.hindsight is not None:
        out["hindsight"] = float(c.hindsight.threshold)
    return out


def _threshold_of(result: Any) -> ThresholdResult | dict[str, Any]:
    """A threshold result as it is; its JSON (a dict) as a threshold result's parts are read from it below."""
    return result if isinstance(result, ThresholdResult) else as_dict(result)


def _chosen(result: ThresholdResult | dict[str, Any]) -> ChosenCut | None:
    """The one score column's cuts of a threshold result or of its JSON (None: one cut per label)."""
    if isinstance(result, ThresholdResult):
        return result.choice
    d = result
    if isinstance(d.get("per_label"), dict) and "sweep" not in d:
        return None
    sw = need(d, "sweep", "threshold", "a threshold choice (clfeval threshold, one score column)")
    default = need(d, "default", "threshold", "a threshold choice (clfeval threshold, one score column)")

    def row(x: Any) -> CutRow | None:
        return None if not x else CutRow.of(x)

    return ChosenCut(str(d.get("positive")), d.get("threshold"), CutRow.of(default), row(d.get("test")),
                     row(d.get("hindsight")), row(d.get("dev")), Sweep.of(sw))


def threshold(result: Any, *, ax: Any = None) -> Any:
    """Precision, recall and F-beta on the test data against the threshold; the default, dev-chosen and
    best-in-hindsight cuts marked and named. A multi-label choice (one cut per label) is drawn by
    :func:`label_thresholds`.

    Parameters
    ----------
    result : ThresholdResult or its JSON dict
        A choice of one cut per label is drawn by :func:`label_thresholds`.
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    r = _threshold_of(result)
    c = _chosen(r)
    if c is None:
        return label_thresholds(r, ax=ax)
    sw = c.sweep
    if sw is None:
        raise UsageError("the threshold figure needs a threshold choice (clfeval threshold, one score column); this "
                         "result has no 'sweep'.")
    cuts = cut_thresholds(c)
    beta = sw.beta
    with _mpl.rc():
        fig, ax = _mpl.figure(7.4, 4.6, ax=ax)
        t = np.asarray(sw.threshold, dtype=np.float64)
        handles, names = [], []
        for key, name, color, ys in (("precision", "precision", _mpl.COLORS[5], sw.precision),
                                     ("recall", "recall", _mpl.COLORS[1], sw.recall),
                                     ("fbeta", f"F{beta:g}", _mpl.COLORS[0], sw.fbeta)):
            (line,) = ax.plot(*_mpl.fit(fig, t, list(ys), xlim=(float(np.nanmin(t)), float(np.nanmax(t)))),
                              color=color, linewidth=1.6, gid=f"sweep-{key}")
            handles.append(line)
            names.append(name)
        lo, hi = float(np.nanmin(t)), float(np.nanmax(t))
        for n, (key, name, color, style) in enumerate(CUTS):
            if key not in cuts:
                continue
            x = cuts[key]
            ax.axvline(x, color=color, linestyle=style, linewidth=1.3, gid=f"cut-{key}")
            ax.text(x, 1.02 + 0.055 * n, f" {name}: {x:g}", color=color, fontsize=7.5, ha="left" if x < (lo + hi) / 2
                    else "right", va="bottom", transform=ax.get_xaxis_transform(), gid=f"cut-label-{key}")
        _mpl.legend(fig, ax, handles, names, loc="outside lower center", ncols=3)
        ax.set_ylim(0, 1.0)
        ax.set_xlabel(f"threshold (positive {c.positive!r} iff score ≥ threshold)")
        ax.set_ylabel(f"precision, recall, F{beta:g} on TEST")
        ax.grid(True)
        ax.set_title("Threshold sweep on the test data", pad=44)
    return fig


#: The three F1 markers of a tuning panel: key, legend name, marker, colour.
TUNING = (("default", "default cut", "o", "#777777"), ("tuned", "cut chosen on dev", "D", _mpl.COLORS[2]),
          ("hindsight", "best in hindsight (optimistic)", "^", _mpl.COLORS[3]))


def tuning_panel(fig: Any, ax: Any, rows: list[dict[str, Any]], *, limit: int = 16) -> list[Any]:
    """One row per label: its test F1 at the default cut, the dev-chosen cut and the hindsight cut (markers, a
    line from default to chosen), and the cuts written at the right. ``rows``: dicts with ``label``, ``default``,
    ``tuned``, ``hindsight`` (F1s) and ``cuts`` (text). Returns the legend handles (in :data:`TUNING` order)."""
    y = np.arange(len(rows))
    for i, r in enumerate(rows):
        a, b = value(r.get("default")), value(r.get("tuned"))
        if math.isfinite(a) and math.isfinite(b):
            ax.plot([a, b], [i, i], color="#bbbbbb", linewidth=1.2, zorder=2, gid=f"move-{i}")
    handles = [ax.scatter([value(r.get(key)) for r in rows], y, marker=mk, s=30, color=col, zorder=3,
                          gid=f"tuning-{key}") for key, _, mk, col in TUNING]
    for i, r in enumerate(rows):
        ax.text(1.02, i, r["cuts"], va="center", fontsize=7, color="#333333", transform=ax.get_yaxis_transform(),
                gid=f"threshold-{i}")
    _mpl.label_ticks(fig, ax, "y", y, [r["label"] for r in rows], limit)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, 1)
    ax.grid(axis="x")
    ax.set_axisbelow(True)
    ax.set_xlabel("F1 on the test data")
    return handles


def _cut(x: Any) -> str:
    v = value(x)
    return "—" if math.isnan(v) else f"{v:.3g}"


def _label_cuts(result: Any) -> LabelCuts:
    r = _threshold_of(result)
    if isinstance(r, ThresholdResult):
        if r.labels_cuts is None:
            raise UsageError("the label-threshold figure needs a multi-label threshold choice (clfeval threshold "
                             "--multilabel); this result has no 'per_label'.")
        return r.labels_cuts
    per = need(r, "per_label", "label-threshold", "a multi-label threshold choice (clfeval threshold --multilabel)")
    return LabelCuts.of(r.get("labels") or list(per), r.get("thresholds") or {}, per, r.get("averages") or {})


def label_thresholds(result: Any, *, ax: Any = None) -> Any:
    """Multi-label threshold tuning: per label, the test F1 at the default cut, at the cut chosen on the
    development data and at the best cut in hindsight, with the three cuts written beside each row.

    Parameters
    ----------
    result : ThresholdResult or its JSON dict
        A multi-label choice (one cut per label).
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    lc = _label_cuts(result)
    per = lc.per_label
    labels0 = list(lc.labels or per)
    picked = manyclasses.for_figure(labels0, {lab: per[lab].default.tp + per[lab].default.fn for lab in labels0},
                                    {lab: per[lab].default.f1 for lab in labels0})
    labels = list(picked.labels)
    rows = []
    for lab in labels:
        e = per[lab]
        test, hind = e.test, e.hindsight
        rows.append({"label": lab, "default": e.default.f1, "tuned": None if test is None else test.f1,
                     "hindsight": None if hind is None else hind.f1,
                     "cuts": f"{_cut(e.default.threshold)} → {_cut(e.threshold)} "
                             f"(hindsight {_cut(None if hind is None else hind.threshold)})"})
    with _mpl.rc():
        fig, ax = _mpl.figure(7.6, max(2.6, 0.3 * len(rows) + 1.6), ax=ax)
        handles = tuning_panel(fig, ax, rows, limit=24)
        _mpl.legend(fig, ax, handles, [name for _, name, _, _ in TUNING], loc="outside lower center", ncols=3)
        ax.set_title("One cut per label (right: default → chosen on dev, and the hindsight cut)" if not picked.partial
                     else f"One cut per label, the {len(labels)} largest of {picked.total:,} labels")
    return fig


#: Bins with fewer items are drawn faint and left out of the reliability line.
FEW_ITEMS = 5


def reliability(result: Any, *, ax: Any = None) -> Any:
    """Reliability diagram: mean confidence against observed frequency per bin (marker area: the bin's count;
    bins of fewer than :data:`FEW_ITEMS` items faint and not joined by the line), the diagonal, bin counts
    beneath, ECE in the title.

    Parameters
    ----------
    result : Calibration or its JSON dict
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.
        The figure's two panels (diagram, counts) split that cell.

    Returns
    -------
    matplotlib.figure.Figure
    """
    kind: object
    positive: object
    ece: object
    n_bins: object
    strategy: object
    if isinstance(result, Calibration):
        bins: tuple[CalibrationBin, ...] = result.bins
        kind, positive, ece, n_bins, strategy = (result.kind, result.positive, result.ece, result.n_bins,
                                                 result.strategy)
    else:
        d = as_dict(result)
        bins = tuple(CalibrationBin.of(b) for b in need(d, "bins", "reliability",
                                                         "a calibration result (clfeval calibration)"))
        kind, positive, ece, n_bins, strategy = (d.get("kind"), d.get("positive"), d.get("ece"), d.get("n_bins"),
                                                 d.get("strategy"))
    with _mpl.rc():
        fig, (ax, axh) = _mpl.figure(5.2, 5.6, nrows=2, sharex=True, gridspec_kw={"height_ratios": [3, 1]},
                                     ax=ax)
        (diag,) = ax.plot([0, 1], [0, 1], linestyle="--", color="#999999", linewidth=0.9, gid="diagonal")
        full = [b for b in bins if b.count]
        solid = [b for b in full if b.count >= FEW_ITEMS]
        few = [b for b in full if b.count < FEW_ITEMS]
        for b in full:
            ax.plot([b.lower, b.upper], [value(b.accuracy)] * 2, color=_mpl.COLORS[0],
                    alpha=0.25 if b.count >= FEW_ITEMS else 0.08, linewidth=4, solid_capstyle="butt")
        # the line joins the bins of at least FEW_ITEMS items; each marker's area grows with its bin's count
        (curve,) = ax.plot([value(b.confidence) for b in solid], [value(b.accuracy) for b in solid],
                           color=_mpl.COLORS[0], linewidth=1.4, gid="reliability")
        biggest = max((b.count for b in full), default=1)

        def area(b: CalibrationBin) -> float:
            return 6.0 + 150.0 * b.count / biggest

        handles, names = [curve], [f"bins of ≥ {FEW_ITEMS} items (band: the bin's range)"]
        if solid:
            ax.scatter([value(b.confidence) for b in solid], [value(b.accuracy) for b in solid],
                       s=[area(b) for b in solid], color=_mpl.COLORS[0], zorder=3, gid="bins")
        if few:
            handles.append(ax.scatter([value(b.confidence) for b in few], [value(b.accuracy) for b in few],
                                      s=[area(b) for b in few], color=_mpl.COLORS[0], alpha=0.3, zorder=3,
                                      gid="bins-few"))
            names.append(f"bins of < {FEW_ITEMS} items (faint, not joined)")
        handles.append(diag)
        names.append("perfect calibration")
        _mpl.legend(fig, ax, handles, names, loc="upper left")
        ax.text(0.99, 0.01, "marker area ∝ items in the bin", transform=ax.transAxes, ha="right", va="bottom",
                fontsize=7, color="#555555", gid="area-note")
        ax.set_ylim(-0.03, 1.03)  # markers at 0 and 1 drawn whole
        ax.set_xlim(0, 1)
        ax.set_ylabel("observed frequency" if kind == "binary" else "accuracy of the top label")
        ax.grid(True)
        axh.bar([b.lower for b in bins], [b.count for b in bins], width=[b.upper - b.lower for b in bins],
                align="edge", color="#888888", edgecolor="white", linewidth=0.5, gid="counts")
        axh.set_ylabel("items")
        axh.set_xlabel("mean confidence in the bin" + (f" (P({positive}))" if positive else ""))
        ax.set_title(f"Reliability diagram: ECE = {_fmt(ece)} ({n_bins} {strategy} bins)")
    return fig

