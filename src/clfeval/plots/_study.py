"""The Reuters-21578 study in one figure: per-category F1, ours beside the published, and the tuned thresholds."""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.plots import _mpl
from clfeval.plots._data import as_dict, need, value
from clfeval.plots._scores import tuning_panel

__all__ = ["reuters"]


def reuters(result: Any, *, ax: Any = None) -> Any:
    """Left: F1 per category, this run beside the published table. Right: F1 of the categories whose
    threshold was tuned, at the default cut, the dev-tuned cut and the best cut in hindsight.

    Parameters
    ----------
    result : the Reuters study result, or its JSON dict
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.
        The figure's two panels split that cell.

    Returns
    -------
    matplotlib.figure.Figure
    """
    d = as_dict(result)
    binary = need(d, "binary", "reuters", "the Reuters study (clfeval reuters)")
    cats = list(d.get("categories") or binary["per_class"])
    published = (d.get("published") or {}).get("per_class") or {}
    tuned = d.get("thresholds") or {}
    with _mpl.rc():
        fig, (ax, ax2) = _mpl.figure(10.0, max(3.6, 0.36 * len(cats) + 1.4), ncols=2,
                                     gridspec_kw={"width_ratios": [3, 2]}, ax=ax)
        y = np.arange(len(cats))
        ours = [value(binary["per_class"][c]["f1"]) for c in cats]
        pub = [value(published.get(c, {}).get("f1")) for c in cats]
        h1 = ax.barh(y - 0.19, ours, height=0.38, color=_mpl.COLORS[0], gid="f1-ours")
        h2 = ax.barh(y + 0.19, np.nan_to_num(pub), height=0.38, color="#bbbbbb", gid="f1-published")
        _mpl.label_ticks(fig, ax, "y", y, cats, 20)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.grid(axis="x")
        ax.set_axisbelow(True)
        ax.set_xlabel("F1 (Naive Bayes, log-odds ≥ 0)")
        _mpl.legend(fig, ax, [h1, h2], ["this run", "published"], loc="lower right")
        ax.set_title("Per-category F1: ours and published")
        tc = [c for c in cats if c in tuned] + [c for c in tuned if c not in cats]
        rows = [{"label": c, "default": tuned[c].get("default_f1"), "tuned": tuned[c].get("tuned_f1"),
                 "hindsight": tuned[c].get("hindsight_f1"), "cuts": f"t = {value(tuned[c].get('threshold')):.3g}"}
                for c in tc]
        handles = tuning_panel(fig, ax2, rows)
        _mpl.legend(fig, ax2, handles, ["default cut (0)", "tuned on dev", "best in hindsight"], loc="upper center",
                    bbox_to_anchor=(0.5, -0.18), ncols=3)
        ax2.set_title("Tuned thresholds (t: chosen on dev)")
    return fig
