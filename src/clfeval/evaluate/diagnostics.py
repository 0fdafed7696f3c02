"""Reading the errors: where a classifier goes wrong, from its confusion table.

* the hardest class — the lowest per-class F1;
* the most confused pair — the unordered pair {a, b} with the largest
  cell(a, b) + cell(b, a), with both directional cells (a predicted as b and
  b predicted as a are different mistakes);
* the top confusions — the largest off-diagonal cells, directional;
* the misclassified items themselves, when the input has ids.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from clfeval.core.labels import label_str

__all__ = ["hardest_classes", "most_confused_pair", "top_confusions", "misclassified"]


def hardest_classes(f1: np.ndarray, labels: Sequence[Any]) -> list[str]:
    """Every label tied at the lowest per-class F1, in label order (first = ``hardest_class``).

    NaN F1 values (undefined under the ``nan`` policy) are skipped.

    >>> hardest_classes(np.array([0.72, 0.72, 0.6364, 0.9167]), ["news", "fiction", "government", "learned"])
    ['government']
    """
    f1 = np.asarray(f1, dtype=np.float64)
    ok = ~np.isnan(f1)
    if not ok.any():
        return []
    low = f1[ok].min()
    return [label_str(labels[i]) for i in np.flatnonzero(ok & (f1 == low))]


def most_confused_pair(cm: np.ndarray, labels: Sequence[Any]) -> dict[str, Any] | None:
    """The unordered pair with the most errors between them, or None when there are no errors.

    Ties go to the pair that comes first in label order.

    >>> cm = np.array([[9, 1, 2, 0], [1, 9, 1, 1], [3, 2, 7, 0], [0, 1, 0, 11]])
    >>> most_confused_pair(cm, ["news", "fiction", "government", "learned"])
    {'classes': ['news', 'government'], 'errors': 5, 'a_as_b': 2, 'b_as_a': 3}
    """
    cm = np.asarray(cm)
    k = cm.shape[0]
    if k < 2:
        return None
    sym = cm + cm.T
    iu = np.triu_indices(k, 1)
    vals = sym[iu]
    if vals.size == 0 or vals.max() <= 0:
        return None
    best = int(np.argmax(vals))  # first maximum in row-major order over i < j: label order
    i, j = int(iu[0][best]), int(iu[1][best])
    return {"classes": [label_str(labels[i]), label_str(labels[j])], "errors": cm[i, j].item() + cm[j, i].item(),
            "a_as_b": cm[i, j].item(), "b_as_a": cm[j, i].item()}


def top_confusions(cm: np.ndarray, labels: Sequence[Any], n: int = 5) -> list[dict[str, Any]]:
    """The ``n`` largest off-diagonal cells, directional: gold ``a`` predicted as ``b``.

    >>> top_confusions(np.array([[5, 2], [4, 1]]), ["x", "y"], 1)
    [{'gold': 'y', 'pred': 'x', 'count': 4}]
    """
    cm = np.asarray(cm)
    k = cm.shape[0]
    off = cm.astype(np.float64).copy()
    off[np.arange(k), np.arange(k)] = -1
    flat = off.ravel()
    order = np.argsort(-flat, kind="stable")
    out = []
    for f in order[: max(n, 0)]:
        if flat[f] <= 0:
            break
        i, j = divmod(int(f), k)
        out.append({"gold": label_str(labels[i]), "pred": label_str(labels[j]), "count": cm[i, j].item()})
    return out


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
