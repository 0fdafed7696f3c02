"""Figures of count tables: the confusion matrix and per-class P/R/F1 (the φ–δ rhombus:
:mod:`clfeval.plots._phidelta`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.core import manyclasses
from clfeval.errors import UsageError
from clfeval.ops.report import Report
from clfeval.plots import _mpl
from clfeval.plots._data import report_of, value

__all__ = ["confusion_matrix", "top_confusions", "per_class", "MAX_HEATMAP"]

#: Largest number of classes drawn as a heatmap (every class a figure may draw); beyond it, the largest directional
#: confusions.
MAX_HEATMAP = manyclasses.FIGURE_ALL
_SINGLE = "a single-label report"


def confusion_matrix(result: Any, *, max_classes: int = MAX_HEATMAP, top: int = manyclasses.TOP,
                     ax: Any = None) -> Any:
    """The confusion matrix as a heatmap: counts in the cells, colour by row share (recall).

    Rows are gold, columns predicted. The most confused pair (both
    directions) is outlined. Above ``max_classes`` classes the ``top``
    largest directional confusions are drawn as a bar chart instead (the
    figure's title says so).

    Parameters
    ----------
    result : Report or its JSON dict (single-label)
        A cross-validation result (or its JSON) is read as its pooled report.
    max_classes : int, default 20
        Above this many classes the ``top`` largest confusions are drawn as bars (:func:`top_confusions`).
    top : int, default 20
        The number of confusions drawn then.
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    r = report_of(result, "confusion-matrix", _SINGLE, "confusion_matrix")
    cm = _matrix(r)
    labels = list(r.labels)
    k = len(labels)
    if k > max_classes:
        return top_confusions(r, top=top, ax=ax)
    with _mpl.rc():
        side = min(max(0.32 * k + 2.2, 4.2), 12.5)
        fig, ax = _mpl.figure(side + 0.6, side, ax=ax)
        rows = cm.sum(axis=1, keepdims=True)
        share = np.divide(cm, rows, out=np.zeros(cm.shape), where=rows > 0)
        im = ax.imshow(share, cmap="Blues", vmin=0.0, vmax=1.0, aspect="equal")
        fs = 9 if k <= 10 else 7 if k <= 20 else 5.5 if k <= 35 else 4.2
        for i in range(k):
            for j in range(k):
                if cm[i, j] == 0 and k > 20:
                    continue
                ax.text(j, i, str(int(cm[i, j])), ha="center", va="center", fontsize=fs, in_layout=False,
                        color="white" if share[i, j] > 0.55 else "#222222", gid=f"cell-{i}-{j}")
        _mpl.class_grid(fig, ax, labels, fs, "predicted", "gold")
        mcp = r.diagnostics.most_confused_pair
        if mcp:
            from matplotlib.patches import Rectangle

            a, b = (labels.index(x) for x in mcp.classes)
            for (i, j) in ((a, b), (b, a)):
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="#D55E00", linewidth=2.2,
                                       gid=f"most-confused-{i}-{j}"))
        bar = fig.colorbar(im, ax=ax, shrink=0.85, pad=0.02)
        bar.set_label("share of the gold row (diagonal: recall)")
        ax.set_title("Confusion matrix")
        if mcp:  # said beneath the title, over the whole figure (a long title would run into the colour bar)
            ax.text(0.0, 1.01, "outlined: the most confused pair, both directions", transform=ax.transAxes, fontsize=7,
                    color="#B03A00", va="bottom", ha="left", gid="most-confused-note")
            ax.set_title("Confusion matrix", pad=14)
    return fig


def _matrix(r: Report) -> np.ndarray:
    """The report's confusion matrix (a usage error for one without: multi-label, or held sparsely)."""
    if r.confusion_matrix is None:
        raise UsageError(f"the confusion-matrix figure needs {_SINGLE}; this result has no 'confusion_matrix'.")
    return np.asarray(r.confusion_matrix, dtype=np.int64)


def top_confusions(result: Any, *, top: int = manyclasses.TOP, ax: Any = None) -> Any:
    """The ``top`` largest off-diagonal cells of the confusion matrix (gold → predicted) as bars.

    Parameters
    ----------
    result : Report or its JSON dict (single-label)
        A cross-validation result (or its JSON) is read as its pooled report.
    top : int, default 20
        The number of largest off-diagonal cells drawn.
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    r = report_of(result, "confusion-matrix", _SINGLE, "confusion_matrix")
    cm = _matrix(r)
    labels = list(r.labels)
    off = cm.copy()
    np.fill_diagonal(off, 0)
    flat = np.argsort(-off, axis=None, kind="stable")[:top]
    cells = [(int(i), int(j)) for i, j in zip(*np.unravel_index(flat, off.shape), strict=True) if off[i, j] > 0]
    with _mpl.rc():
        fig, ax = _mpl.figure(7.0, max(2.0, 0.24 * len(cells) + 1.2), ax=ax)
        y = np.arange(len(cells))
        ax.barh(y, [off[i, j] for i, j in cells], color=_mpl.COLORS[0])
        _mpl.label_ticks(fig, ax, "y", y, [f"{labels[i]} → {labels[j]}" for i, j in cells], 44)
        ax.invert_yaxis()
        ax.set_xlabel("items (gold → predicted as)")
        ax.set_title(f"{len(labels)} classes, too many for a readable heatmap: the {len(cells)} largest confusions")
    return fig


def per_class(result: Any, *, ax: Any = None) -> Any:
    """Precision, recall and F1 of every class, the baselines' F1 marked, the hardest class highlighted.

    Parameters
    ----------
    result : Report or its JSON dict
        A cross-validation result (or its JSON) is read as its pooled report.
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    r = report_of(result, "per-class", "a report")
    pc = r.per_class
    picked = manyclasses.for_figure(list(r.labels), {lab: pc[lab].support or 0 for lab in r.labels},
                                    {lab: value(pc[lab].f1) for lab in r.labels})
    labels = list(picked.labels)
    k = len(labels)
    hardest = picked.marked[0] if picked.partial and picked.marked else r.diagnostics.hardest_class
    metrics = ("precision", "recall", "f1")
    with _mpl.rc():
        fig, ax = _mpl.figure(7.2, max(2.4, 0.42 * k + 1.4), ax=ax)
        y = np.arange(k)
        h = 0.26
        handles = []
        for m, (name, color) in enumerate(zip(metrics, (_mpl.COLORS[5], _mpl.COLORS[1], _mpl.COLORS[0]), strict=False)):
            vals = [value(getattr(pc[lab], name)) for lab in labels]
            bars = ax.barh(y + (m - 1) * h, np.nan_to_num(vals), height=h, color=color)
            for i, bar in enumerate(bars):  # one id a bar: an id names one element of the page
                bar.set_gid(f"bars-{name}-{i}")
            handles.append(bars)
        names = ["precision", "recall", "F1"]
        markers = {"majority": ("|", "#000000"), "stratified": ("x", "#555555"), "uniform": ("+", "#999999")}
        for bname in r.baselines.json_keys or ("majority", "uniform", "stratified"):
            bl = getattr(r.baselines, bname, None)
            bpc = bl.per_class if bl is not None else None
            if not bpc or bname not in markers:
                continue
            mk, col = markers[bname]
            xs = [value(bpc[lab].f1 if lab in bpc else None) for lab in labels]
            handles.append(ax.scatter(xs, y + h, marker=mk, s=46, color=col, zorder=3, linewidths=1.4,
                                      gid=f"baseline-{bname}"))
            names.append(f"{bname} baseline F1")
        if hardest in labels:
            i = labels.index(hardest)
            ax.axhspan(i - 0.5, i + 0.5, color="#D55E00", alpha=0.10, zorder=0, gid="hardest")
        _mpl.label_ticks(fig, ax, "y", y, [f"{lab}  (hardest{' of these' if picked.partial else ''})" if lab == hardest
                                           else lab for lab in labels], 30)
        for t, lab in zip(ax.get_yticklabels(), labels, strict=False):
            if lab == hardest:
                t.set_color("#B03A00")
                t.set_fontweight("bold")
        ax.set_xlim(0, 1.0)
        ax.invert_yaxis()
        ax.grid(axis="x")
        ax.set_axisbelow(True)
        ax.set_xlabel("value")
        _mpl.legend(fig, ax, handles, names, loc="upper center", bbox_to_anchor=(0.5, -0.12 if k > 3 else -0.25),
                    ncols=min(len(names), 3))
        ax.set_title("Per class: precision, recall, F1 (markers: baselines' F1)" if not picked.partial else
                     f"Precision, recall, F1 of the {k} largest of {picked.total:,} classes")
    return fig
