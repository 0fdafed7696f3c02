"""Figures of count tables: the confusion matrix, per-class P/R/F1, the φ–δ rhombus."""

from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np

from clfeval.errors import UsageError
from clfeval.plots import _mpl
from clfeval.plots._data import as_dict, need, value

__all__ = ["confusion_matrix", "per_class", "phi_delta", "phi_delta_points", "MAX_HEATMAP"]

#: Largest number of classes drawn as a heatmap; beyond it, the top directional confusions.
MAX_HEATMAP = 50


def confusion_matrix(result: Any, *, max_classes: int = MAX_HEATMAP, top: int = 25) -> Any:
    """The confusion matrix as a heatmap: counts in the cells, colour by row share (recall).

    Rows are gold, columns predicted. The most confused pair (both
    directions) is outlined. Above ``max_classes`` classes the ``top``
    largest directional confusions are drawn as a bar chart instead (the
    figure's title says so).

    Parameters
    ----------
    result : Report or its JSON dict (single-label)

    Returns
    -------
    matplotlib.figure.Figure
    """
    d = as_dict(result)
    if isinstance(d.get("pooled"), dict):
        d = d["pooled"]
    cm = np.asarray(need(d, "confusion_matrix", "confusion-matrix", "a single-label report"), dtype=np.int64)
    labels = list(d["labels"])
    k = len(labels)
    if k > max_classes:
        return top_confusions(d, top=top)
    with _mpl.rc():
        side = min(max(0.32 * k + 2.2, 4.2), 12.5)
        fig, ax = _mpl.figure(side + 0.6, side)
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
        pos = range(k)
        limit = 22 if k <= 20 else 14
        _mpl.label_ticks(fig, ax, "x", pos, labels, limit)
        _mpl.label_ticks(fig, ax, "y", pos, labels, limit)
        ax.tick_params(axis="x", labelrotation=90 if k > 6 else 0, labelsize=max(fs, 5))
        ax.tick_params(axis="y", labelsize=max(fs, 5))
        ax.set_xlabel("predicted")
        ax.set_ylabel("gold")
        for s in ax.spines.values():
            s.set_visible(False)
        mcp = (d.get("diagnostics") or {}).get("most_confused_pair")
        if mcp:
            from matplotlib.patches import Rectangle

            a, b = (labels.index(x) for x in mcp["classes"])
            for (r, c) in ((a, b), (b, a)):
                ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, edgecolor="#D55E00", linewidth=2.2,
                                       gid=f"most-confused-{r}-{c}"))
        bar = fig.colorbar(im, ax=ax, shrink=0.7, pad=0.02)
        bar.set_label("share of the gold row (recall on the diagonal)")
        ax.set_title("Confusion matrix" + (" (most confused pair outlined)" if mcp else ""))
    return fig


def top_confusions(result: Any, *, top: int = 25) -> Any:
    """The ``top`` largest off-diagonal cells of the confusion matrix (gold → predicted) as bars."""
    d = as_dict(result)
    cm = np.asarray(need(d, "confusion_matrix", "confusion-matrix", "a single-label report"), dtype=np.int64)
    labels = list(d["labels"])
    off = cm.copy()
    np.fill_diagonal(off, 0)
    flat = np.argsort(-off, axis=None, kind="stable")[:top]
    cells = [(int(i), int(j)) for i, j in zip(*np.unravel_index(flat, off.shape)) if off[i, j] > 0]
    with _mpl.rc():
        fig, ax = _mpl.figure(7.0, max(2.0, 0.24 * len(cells) + 1.2))
        y = np.arange(len(cells))
        ax.barh(y, [off[i, j] for i, j in cells], color=_mpl.COLORS[0])
        _mpl.label_ticks(fig, ax, "y", y, [f"{labels[i]} → {labels[j]}" for i, j in cells], 44)
        ax.invert_yaxis()
        ax.set_xlabel("items (gold → predicted as)")
        ax.set_title(f"{len(labels)} classes, too many for a readable heatmap: the {len(cells)} largest confusions")
    return fig


def per_class(result: Any) -> Any:
    """Precision, recall and F1 of every class, the baselines' F1 marked, the hardest class highlighted."""
    d = as_dict(result)
    if isinstance(d.get("pooled"), dict):
        d = d["pooled"]
    pc = need(d, "per_class", "per-class", "a report")
    labels = list(d.get("labels") or pc)
    k = len(labels)
    hardest = (d.get("diagnostics") or {}).get("hardest_class")
    metrics = ("precision", "recall", "f1")
    with _mpl.rc():
        fig, ax = _mpl.figure(7.2, max(2.4, 0.42 * k + 1.4))
        y = np.arange(k)
        h = 0.26
        handles = []
        for m, (name, color) in enumerate(zip(metrics, (_mpl.COLORS[5], _mpl.COLORS[1], _mpl.COLORS[0]))):
            vals = [value(pc[lab].get(name)) for lab in labels]
            handles.append(ax.barh(y + (m - 1) * h, np.nan_to_num(vals), height=h, color=color, gid=f"bars-{name}"))
        names = ["precision", "recall", "F1"]
        markers = {"majority": ("|", "#000000"), "stratified": ("x", "#555555"), "uniform": ("+", "#999999")}
        for bname, bl in (d.get("baselines") or {}).items():
            bpc = bl.get("per_class") or {}
            if not bpc or bname not in markers:
                continue
            mk, col = markers[bname]
            xs = [value(bpc.get(lab, {}).get("f1")) for lab in labels]
            handles.append(ax.scatter(xs, y + h, marker=mk, s=46, color=col, zorder=3, linewidths=1.4,
                                      gid=f"baseline-{bname}"))
            names.append(f"{bname} baseline F1")
        if hardest in labels:
            i = labels.index(hardest)
            ax.axhspan(i - 0.5, i + 0.5, color="#D55E00", alpha=0.10, zorder=0, gid="hardest")
        _mpl.label_ticks(fig, ax, "y", y, [f"{lab}  (hardest)" if lab == hardest else lab for lab in labels], 30)
        for t, lab in zip(ax.get_yticklabels(), labels):
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
        ax.set_title("Per class: precision, recall, F1 (markers: baselines' F1)")
    return fig


def phi_delta_points(result: Any, label: Any = None) -> tuple[list[str], list[float], list[float], str]:
    """The points a φ–δ figure draws: (names, φ, δ, what they are).

    A report: its classes; a cross-validation result: its folds (each the mean
    over classes of the fold's φ and δ, or those of class ``label``); the Reuters study: the
    terms of its category; a mapping name → report: the systems (their
    binary block, else their macro-averaged φ and δ).
    """
    if isinstance(result, Mapping) and result and all(isinstance(v, Mapping) or hasattr(v, "to_dict")
                                                      for v in result.values()) and "per_class" not in result \
            and "terms" not in result and "pooled" not in result:
        names, phis, deltas = [], [], []
        for name, rep in result.items():
            r = as_dict(rep)
            src = r.get("binary") or {"phi": np.nanmean([value(c.get("phi")) for c in r["per_class"].values()]),
                                      "delta": np.nanmean([value(c.get("delta")) for c in r["per_class"].values()])}
            names.append(str(name))
            phis.append(value(src["phi"]))
            deltas.append(value(src["delta"]))
        return names, phis, deltas, "systems"
    d = as_dict(result)
    if isinstance(d.get("terms"), dict) and "most_discriminative" in d["terms"]:
        t = d["terms"]
        seen: dict[str, tuple[float, float]] = {}
        for key in ("most_discriminative", "most_negative", "stop_word_corner", "rare_corner"):
            for row in t.get(key, [])[:8]:
                seen.setdefault(row["term"], (value(row["phi"]), value(row["delta"])))
        for term, row in (t.get("selected") or {}).items():
            seen.setdefault(term, (value(row["phi"]), value(row["delta"])))
        return list(seen), [v[0] for v in seen.values()], [v[1] for v in seen.values()], f"terms of {t['category']}"
    folds = d.get("per_fold")
    if folds and all("phi_delta" in f for f in folds):
        names = [f"fold {f['fold']}" + (f" (repeat {f['repeat']})" if d.get("repeats", 1) > 1 else "") for f in folds]
        if label is not None:
            pts = [f["phi_delta"].get(str(label), {}) for f in folds]
            return (names, [value(p.get("phi")) for p in pts], [value(p.get("delta")) for p in pts],
                    f"folds, class {label}")
        phis = [float(np.nanmean([value(v["phi"]) for v in f["phi_delta"].values()])) for f in folds]
        deltas = [float(np.nanmean([value(v["delta"]) for v in f["phi_delta"].values()])) for f in folds]
        return names, phis, deltas, "folds (mean over classes)"
    if isinstance(d.get("pooled"), dict):
        d = d["pooled"]
    pc = d.get("per_class")
    if not pc or not all("phi" in c for c in pc.values()):
        raise UsageError("the phi-delta figure needs φ and δ: a report, a cross-validation result, the Reuters study "
                         "or several reports; this result has none.")
    return list(pc), [value(c["phi"]) for c in pc.values()], [value(c["delta"]) for c in pc.values()], "classes"


def phi_delta(result: Any, *, label: Any = None, annotate: int = 24) -> Any:
    """Armano's φ–δ rhombus: δ = TPR − FPR (up: discriminates), φ = TPR + FPR − 1 (right: says yes often).

    The rhombus has corners (±1, 0) and (0, ±1); the thin lines inside are
    the isometrics TPR = const (falling) and FPR = const (rising), every 0.1.
    See :func:`phi_delta_points` for what the points are.
    """
    names, phis, deltas, what = phi_delta_points(result, label)
    with _mpl.rc():
        fig, ax = _mpl.figure(5.6, 5.6)
        ax.plot([-1, 0, 1, 0, -1], [0, 1, 0, -1, 0], color="#444444", linewidth=1.0, gid="rhombus")
        for c in np.linspace(0.1, 0.9, 9):
            # TPR = c: φ + δ = 2c − 1; FPR = c: φ − δ = 2c − 1 (clipped to the rhombus)
            s = 2 * c - 1
            xs, ys = _iso(s, +1)
            ax.plot(xs, ys, color="#0072B2", linewidth=0.5, alpha=0.35, gid=f"tpr-{c:.1f}")
            xs, ys = _iso(s, -1)
            ax.plot(xs, ys, color="#D55E00", linewidth=0.5, alpha=0.35, gid=f"fpr-{c:.1f}")
        ax.axhline(0, color="#999999", linewidth=0.6)
        ax.axvline(0, color="#999999", linewidth=0.6)
        ax.scatter(phis, deltas, s=28, color=_mpl.COLORS[0], zorder=3, gid="points")
        order = np.argsort(-np.abs(np.nan_to_num(deltas)), kind="stable")[:annotate]
        for i in sorted(order.tolist()):
            if math.isfinite(phis[i]) and math.isfinite(deltas[i]):
                t = ax.annotate("", (phis[i], deltas[i]), xytext=(4, 3), textcoords="offset points", fontsize=7,
                                color="#333333", in_layout=False)
                _mpl.set_label(fig, t, names[i], 18)
        ax.text(0, 1.04, "perfect", ha="center", fontsize=7, color="#555555")
        ax.text(0, -1.1, "inverted", ha="center", fontsize=7, color="#555555")
        ax.text(1.02, 0.02, "always yes", ha="left", fontsize=7, color="#555555")
        ax.text(-1.02, 0.02, "always no", ha="right", fontsize=7, color="#555555")
        ax.set_xlim(-1.25, 1.25)
        ax.set_ylim(-1.15, 1.12)
        ax.set_aspect("equal")
        ax.set_xlabel("φ = TPR + FPR − 1 (bias towards yes)")
        ax.set_ylabel("δ = TPR − FPR (discrimination)")
        ax.set_title(f"φ–δ diagram: {what} (lines: TPR and FPR every 0.1)")
    return fig


def _iso(s: float, sign: int) -> tuple[list[float], list[float]]:
    """The isometric inside the rhombus: TPR = (s + 1)/2 is φ + δ = s (sign +1), FPR = (s + 1)/2 is φ − δ = s (−1).

    Each runs between the two rhombus edges it is not parallel to.
    """
    a = (s - 1) / 2, (s + 1) / 2
    if sign > 0:  # φ + δ = s: from (φ=(s-1)/2, δ=(s+1)/2) to (φ=(s+1)/2, δ=(s-1)/2)
        return [a[0], a[1]], [a[1], a[0]]
    return [a[0], a[1]], [-a[1], -a[0]]  # φ − δ = s
