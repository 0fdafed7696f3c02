"""The estimated noise matrix of ``clfeval.label_issues`` as a heatmap (issue 41): P(given = row | true = column)."""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.errors import UsageError
from clfeval.plots import _mpl

__all__ = ["noise_matrix"]


def _fields(result: Any) -> tuple[list[str], np.ndarray]:
    """The labels and the noise matrix (NaN where undefined) of a ``LabelIssues`` or its JSON dict."""
    d = result if isinstance(result, dict) else result.to_dict() if hasattr(result, "to_dict") else None
    if not isinstance(d, dict) or "noise_matrix" not in d or "labels" not in d:
        raise UsageError("the noise-matrix figure needs a label-issues result (clfeval label-issues --format json); "
                         "this result has no 'noise_matrix'.")
    labels = [str(x) for x in d["labels"]]
    m = np.array([[np.nan if v is None else float(v) for v in row] for row in d["noise_matrix"]], dtype=float)
    return labels, m.reshape(len(labels), len(labels))


def noise_matrix(result: Any, *, ax: Any = None) -> Any:
    """The estimated noise matrix as a heatmap: cell (i, j) is P(given label = i | true label = j), each column a
    distribution over the given labels (the diagonal: the share of class j's items whose label is right). A column
    of a class no item is confidently in is undefined: drawn hatched, marked "—".

    Parameters
    ----------
    result : LabelIssues or its JSON dict
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's and return its Figure; default a new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    labels, m = _fields(result)
    k = len(labels)
    with _mpl.rc():
        side = min(max(0.32 * k + 2.2, 4.2), 12.5)
        fig, ax = _mpl.figure(side + 0.6, side, ax=ax)
        shown = np.where(np.isnan(m), 0.0, m)
        im = ax.imshow(shown, cmap="Oranges", vmin=0.0, vmax=1.0, aspect="equal")
        fs = 9 if k <= 10 else 7 if k <= 20 else 5.5
        for j in range(k):
            if np.isnan(m[:, j]).all():
                from matplotlib.patches import Rectangle

                ax.add_patch(Rectangle((j - 0.5, -0.5), 1, k, fill=False, hatch="///", edgecolor="#999999",
                                       linewidth=0.0, gid=f"undefined-{j}"))
            for i in range(k):
                v = m[i, j]
                text = "—" if np.isnan(v) else f"{v:.2f}"
                ax.text(j, i, text, ha="center", va="center", fontsize=fs, in_layout=False,
                        color="white" if not np.isnan(v) and v > 0.55 else "#222222", gid=f"cell-{i}-{j}")
        _mpl.class_grid(fig, ax, labels, fs, "true label (estimated)", "given label")
        bar = fig.colorbar(im, ax=ax, shrink=0.85, pad=0.02)
        bar.set_label("P(given = row | true = column)")
        ax.set_title("Estimated noise matrix")
    return fig
