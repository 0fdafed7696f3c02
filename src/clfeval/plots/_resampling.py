"""Figures of resampling: the spread of cross-validation folds, the paired bootstrap and the randomization null."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from clfeval.errors import UsageError
from clfeval.ops.compare import Compared, Distribution
from clfeval.ops.report import Report
from clfeval.plots import _mpl
from clfeval.plots._data import as_dict, need, value

__all__ = ["cv_spread", "bootstrap"]


def _pooled_value(d: dict[str, Any], name: str) -> float:
    """The pooled (out-of-fold) value of a metric: read from the typed report of the result's ``pooled`` JSON
    (NaN where it has none)."""
    pooled = d.get("pooled")
    if not isinstance(pooled, dict) or "per_class" not in pooled:
        return math.nan
    return Report.from_dict(pooled).values.get(name, math.nan)


def cv_spread(result: Any, *, ax: Any = None) -> Any:
    """Every fold's value per metric as points, the mean and the min–max range, the pooled (out-of-fold)
    value and the baselines' mean beside them.

    Parameters
    ----------
    result : cross-validation or holdout result, or its JSON dict
        The Reuters study (or its JSON) is read as its cross-validation.
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    d = as_dict(result)
    if isinstance(d.get("cross_validation"), dict):  # the Reuters study
        d = d["cross_validation"]
    folds = need(d, "per_fold", "cv-spread", "a cross-validation or holdout result")
    metrics = d.get("metrics") or [m for m in folds[0] if isinstance(d.get(m), dict) and "mean" in d[m]]
    if not metrics:
        raise UsageError("the cv-spread figure found no metric with a spread over folds in this result.")
    with _mpl.rc():
        fig, ax = _mpl.figure(min(9.6, max(4.2, 0.75 * len(metrics) + 2.8)), 4.4, ax=ax)
        rng = np.random.default_rng(0)  # fixed jitter: the same input draws the same figure
        handles: dict[str, Any] = {}
        for i, m in enumerate(metrics):
            vals = np.array([value(f.get(m)) for f in folds])
            jitter = (rng.random(vals.size) - 0.5) * 0.18
            handles["folds"] = ax.scatter(i + jitter, vals, s=16, color=_mpl.COLORS[0], alpha=0.75, zorder=3,
                                          gid=f"folds-{i}")
            s = d.get(m) or {}
            lo, hi, mean = value(s.get("min")), value(s.get("max")), value(s.get("mean"))
            handles["range"] = ax.vlines(i + 0.22, lo, hi, color="#333333", linewidth=1.5, gid=f"range-{i}")
            handles["mean"] = ax.scatter([i + 0.22], [mean], marker="_", s=260, color="#333333", linewidths=2.2,
                                         zorder=4, gid=f"mean-{i}")
            pooled = _pooled_value(d, m)
            if math.isfinite(pooled):
                handles["pooled"] = ax.scatter([i + 0.36], [pooled], marker="D", s=26, color=_mpl.COLORS[3], zorder=4,
                                               gid=f"pooled-{i}")
            for b, (bname, bm) in enumerate((d.get("baselines") or {}).items()):
                bv = value((bm.get(m) or {}).get("mean")) if isinstance(bm, dict) else math.nan
                if math.isfinite(bv):
                    handles[f"baseline {bname}"] = ax.scatter(
                        [i - 0.3], [bv], marker=("v", "s", "^")[b % 3], s=22,
                        color=("#777777", "#aaaaaa", "#555555")[b % 3],
                        zorder=2, gid=f"baseline-{bname}-{i}")
        from clfeval.core import label

        _mpl.label_ticks(fig, ax, "x", range(len(metrics)), [label(m) for m in metrics], 18)
        if len(metrics) > 6:
            for t in ax.get_xticklabels():
                t.set_rotation(30)
                t.set_horizontalalignment("right")
                t.set_rotation_mode("anchor")
        labels = {"folds": "one point per fold", "range": "min–max over folds", "mean": "mean over folds",
                  "pooled": "pooled out-of-fold"}
        _mpl.legend(fig, ax, list(handles.values()), [labels.get(k, k + " (mean)") for k in handles],
                    loc="center left", bbox_to_anchor=(1.01, 0.5))
        ax.set_xlim(-0.6, len(metrics) - 0.4)
        ax.grid(axis="y")
        ax.set_ylabel("value")
        k = len(folds)
        ax.set_title(f"Spread over {k} fold{'s' if k != 1 else ''}")
    return fig


def _pick(rows: Sequence[Any], pair: int) -> Any:
    if not 0 <= pair < len(rows):
        raise UsageError(f"pair {pair} does not exist: this comparison has {len(rows)} pairs (0 to "
                         f"{len(rows) - 1}).")
    return rows[pair]


def _typed(r: Compared, pair: int) -> tuple[Distribution, tuple[str, str], str]:
    """(the histogram, A and B, the metric) of a comparison, read from its typed fields."""
    c = _pick(r.comparisons, pair) if r.many is not None else r
    if c.pair is None and c.noninferiority is None:
        raise UsageError(f"the bootstrap figure needs a comparison of two systems, several, or a non-inferiority "
                         f"test (a comparison result: clfeval compare); this one is of kind {c.kind!r}.")
    h = c.distribution
    if h is None:
        raise UsageError("the bootstrap figure needs a comparison result (clfeval compare); this result has no "
                         "'distribution'.")
    return h, (c.names[0], c.names[1]), r.metric


def _of_json(d: dict[str, Any], pair: int) -> tuple[Distribution, tuple[str, str], str]:
    """The same, from a comparison's JSON (a file written by ``clfeval compare --format json``)."""
    row = _pick(d["comparisons"], pair) if "comparisons" in d else d
    h = need(row, "distribution", "bootstrap", "a comparison result (clfeval compare)")
    names = row.get("names") or {"a": row.get("a"), "b": row.get("b")}
    return Distribution.of(h), (str(names.get("a", "A")), str(names.get("b", "B"))), str(d.get("metric", "metric"))


def bootstrap(result: Any, *, pair: int = 0, ax: Any = None) -> Any:
    """The paired bootstrap distribution of δ(x^(i)) with δ(x) and 2δ(x) marked and the tail beyond 2δ(x)
    shaded; for a randomization test, its null distribution with δ(x) marked and the tail beyond it shaded.

    ``result`` is a comparison (:class:`~clfeval.ops.compare.Compared`: two systems, several, non-inferiority) or
    its JSON; ``pair`` picks one comparison of a multiple comparison.

    Parameters
    ----------
    result : Compared or its JSON dict
        Two systems, several, or non-inferiority.
    pair : int, default 0
        Which comparison of a multiple comparison is drawn (its index).
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    h, (a, b), metric = _typed(result, pair) if isinstance(result, Compared) else _of_json(as_dict(result), pair)
    edges = np.asarray(h.edges, dtype=np.float64)
    counts = np.asarray(h.counts, dtype=np.float64)
    delta, thr = h.delta, h.threshold
    boot = h.kind == "bootstrap"
    above = (h.tail or "above") == "above"
    with _mpl.rc():
        fig, ax = _mpl.figure(6.4, 3.9, ax=ax)
        if edges.size:
            ax.stairs(counts, edges, fill=True, color="#9ecae1", gid="histogram")
            ax.stairs(counts, edges, color="#3182bd", linewidth=0.8)
        lo = min(float(edges[0]) if edges.size else delta, thr, 0.0, delta)
        hi = max(float(edges[-1]) if edges.size else delta, thr, 0.0, delta)
        pad = (hi - lo) * 0.05 or 0.01
        lo, hi = lo - pad, hi + pad
        tail = ax.axvspan(thr, hi, color="#D55E00", alpha=0.14, gid="tail") if above else \
            ax.axvspan(lo, thr, color="#D55E00", alpha=0.14, gid="tail")
        d_line = ax.axvline(delta, color="#000000", linewidth=1.5, gid="delta")
        handles = [d_line]
        labels = [f"δ(x) = {delta:.4g}"]
        if boot:
            t_line = ax.axvline(thr, color="#D55E00", linewidth=1.5, linestyle="--", gid="two-delta")
            handles.append(t_line)
            labels.append(f"{h.threshold_label or '2δ(x)'} = {thr:.4g}")
        zero = ax.axvline(0, color="#777777", linewidth=0.8, linestyle=":", gid="zero")
        handles += [zero, tail]
        labels += ["0 (no difference)", f"tail: {h.count_beyond:,} of {h.samples:,} replicates"
                   + (" (p-value numerator)" if boot else " (p = (1 + count)/(b + 1))")]
        ax.set_xlim(lo, hi)
        top = float(counts.max()) if counts.size else 1.0
        ax.set_ylim(0, top * 1.05 or 1.0)
        # beneath the axes, across the figure: the histogram keeps the full width
        _mpl.legend(fig, ax, handles, labels, loc="outside lower center", ncols=2)
        if boot:
            xlabel = "δ(x^(i)) = M(A) − M(B) on each virtual test set"
            title = f"Paired bootstrap: {h.samples:,} virtual test sets, centred on δ(x)"
        else:
            xlabel = "δ = M(A) − M(B) after random swaps (the null distribution)"
            title = f"Approximate randomization: {h.samples:,} random swaps"
        ax.set_ylabel("replicates")
        ax.set_title(title)
        who = "" if (a, b) == ("A", "B") else f", A = {_mpl.short(a, 30)}, B = {_mpl.short(b, 30)}"
        _mpl.set_lines(fig, ax.xaxis.label, [xlabel, f"M = {metric}{who}"], 120)
    return fig
