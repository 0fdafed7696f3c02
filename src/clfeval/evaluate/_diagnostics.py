"""Reading the errors: where a classifier goes wrong, from its confusion table.

* the hardest class — the lowest per-class F1;
* the most confused pair — the unordered pair {a, b} with the largest
  cell(a, b) + cell(b, a), with both directional cells (a predicted as b and
  b predicted as a are different mistakes);
* the top confusions — the largest off-diagonal cells, directional;
* the misclassified items themselves, when the input has ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from clfeval.core import label_str

__all__ = ["hardest_classes", "most_confused_pair", "top_confusions", "misclassified"]


def hardest_classes(f1: np.ndarray, labels: Sequence[Any]) -> list[str]:
    """Every label tied at the lowest per-class F1, in label order (first = ``hardest_class``).

    NaN F1 values (undefined under the ``nan`` policy) are skipped.

    Examples
    --------
    >>> hardest_classes(np.array([0.72, 0.72, 0.6364, 0.9167]), ["news", "fiction", "government", "learned"])
    ['government']
    """
    f1 = np.asarray(f1, dtype=np.float64)
    ok = ~np.isnan(f1)
    if not ok.any():
        return []
    low = f1[ok].min()
    return [label_str(labels[int(i)]) for i in np.flatnonzero(ok & (f1 == low))]


def _cells(table: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(gold, predicted, count) of the non-empty cells, row-major: of a K×K array or of a (sparse) table."""
    if hasattr(table, "cells"):
        return table.cells()
    cm = np.asarray(table)
    g, p = np.nonzero(cm)
    return g, p, cm[g, p]


def most_confused_pair(cm: Any, labels: Sequence[Any]) -> dict[str, Any] | None:
    """The unordered pair with the most errors between them, or None when there are no errors.

    ``cm`` is a K×K array or a table (dense or sparse: only its non-empty
    cells are looked at). Ties go to the pair that comes first in label order.

    Examples
    --------
    >>> cm = np.array([[9, 1, 2, 0], [1, 9, 1, 1], [3, 2, 7, 0], [0, 1, 0, 11]])
    >>> most_confused_pair(cm, ["news", "fiction", "government", "learned"])
    {'classes': ['news', 'government'], 'errors': 5, 'a_as_b': 2, 'b_as_a': 3}
    """
    g, p, c = _cells(cm)
    off = g != p
    g, p, c = g[off].astype(np.int64), p[off].astype(np.int64), c[off]
    if len(labels) < 2 or c.size == 0 or c.max() <= 0:
        return None
    lo, hi = np.minimum(g, p), np.maximum(g, p)
    k = len(labels)
    pair, start = np.unique(lo * k + hi, return_inverse=True)
    errors = np.bincount(start, weights=c.astype(np.float64), minlength=pair.size)
    best = int(np.argmax(errors))  # pairs ascending in row-major order over i < j: the first maximum in label order
    i, j = divmod(int(pair[best]), k)
    one = (g == i) & (p == j)
    other = (g == j) & (p == i)
    a_as_b = c[one].sum().item() if one.any() else 0
    b_as_a = c[other].sum().item() if other.any() else 0
    return {"classes": [label_str(labels[i]), label_str(labels[j])], "errors": a_as_b + b_as_a,
            "a_as_b": a_as_b, "b_as_a": b_as_a}


def top_confusions(cm: Any, labels: Sequence[Any], n: int = 5) -> list[dict[str, Any]]:
    """The ``n`` largest off-diagonal cells, directional: gold ``a`` predicted as ``b`` (ties in label order).

    ``cm`` is a K×K array or a table (dense or sparse).

    Examples
    --------
    >>> top_confusions(np.array([[5, 2], [4, 1]]), ["x", "y"], 1)
    [{'gold': 'y', 'pred': 'x', 'count': 4}]
    """
    g, p, c = _cells(cm)
    off = (g != p) & (c > 0)
    g, p, c = g[off], p[off], c[off]
    order = np.argsort(-c.astype(np.float64), kind="stable")[: max(n, 0)]
    return [{"gold": label_str(labels[int(g[f])]), "pred": label_str(labels[int(p[f])]), "count": c[f].item()}
            for f in order]


def misclassified(gold: np.ndarray, pred: np.ndarray, labels: Sequence[Any], ids: Sequence[Any] | None,
                  limit: int) -> dict[str, Any]:
    """The first ``limit`` misclassified items (in input order) with id, gold and prediction.

    ``gold`` and ``pred`` are codes into ``labels``; without ids the item's
    0-based position is its id.
    """
    wrong = np.flatnonzero(np.asarray(gold) != np.asarray(pred))
    shown = wrong[: max(limit, 0)]
    items = []
    for pos in shown.tolist():
        item_id = ids[pos] if ids is not None else pos
        if isinstance(item_id, np.generic):
            item_id = item_id.item()
        items.append({"id": item_id if isinstance(item_id, (int, str)) else str(item_id),
                      "gold": label_str(labels[gold[pos]]), "pred": label_str(labels[pred[pos]])})
    return {"total": int(wrong.size), "shown": len(items), "items": items}
