"""The z-scores of one confused cell's distinctive terms, both sides, as horizontal bars."""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.ops.errors import ErrorCell
from clfeval.plots import _mpl

__all__ = ["cell_terms"]


def cell_terms(cell: ErrorCell, *, z_min: float = 1.96, ax: Any = None) -> Any:
    """Two panels of bars: the terms of the ``gold → pred`` mistakes against the correct ``gold`` documents,
    and against the correct ``pred`` documents (label sets: a category's false negatives against its true
    positives and true negatives, its false positives against its true negatives and true positives; the
    cell's ``vs``); z-scores, the dotted line at ``z_min``."""
    vs = cell.vs
    if not vs[0]:
        vs = (f"vs correct {cell.gold}", f"vs correct {cell.pred}")
    sides = [(vs[0], cell.terms_vs_gold), (vs[1], cell.terms_vs_pred)]
    rows = max(1, max(len(t) for _, t in sides))
    with _mpl.rc():
        fig, axes = _mpl.figure(7.0, max(1.6, 0.22 * rows + 1.0), ncols=2, ax=ax)
        for ax, (title, terms), color in zip(axes, sides, _mpl.COLORS[:2], strict=False):
            y = np.arange(len(terms))
            ax.barh(y, [t.z for t in terms], color=color)
            _mpl.label_ticks(fig, ax, "y", list(y), [t.term for t in terms], 20)
            ax.axvline(z_min, color="0.5", linestyle=":", linewidth=1)
            ax.set_ylim(rows - 0.5, -0.5)
            ax.set_xlabel("z (uncorrected)")
            t = ax.set_title("")
            _mpl.set_label(fig, t, title, 34)
            if not terms:
                ax.text(0.5, 0.5, f"no term with z ≥ {z_min:g}", ha="center", va="center", transform=ax.transAxes)
    return fig
