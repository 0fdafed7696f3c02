"""The scikit-learn side of a protocol run: fit a clone, take the scores, put them in the data's label order.

Everything here speaks to an estimator (``fit``, ``predict``,
``decision_function`` / ``predict_proba``, ``classes_``); nothing here
evaluates. scikit-learn is imported by the runner, not here: any object with
those methods works.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from clfeval.core import label_str
from clfeval.errors import DataError

__all__ = ["take", "n_items", "model_scores", "align_scores", "fit_model", "final_step", "model_probabilities",
           "has_probabilities"]


def n_items(X: Any) -> int:
    """How many items ``X`` holds (rows of an array or matrix, or its length)."""
    if hasattr(X, "shape"):
        return int(X.shape[0])
    return len(X)


def take(X: Any, idx: np.ndarray) -> Any:
    """The items at positions ``idx`` (a DataFrame, an array, a sparse matrix or a list)."""
    if hasattr(X, "iloc"):
        return X.iloc[idx]
    if isinstance(X, np.ndarray) or hasattr(X, "tocsr") or hasattr(X, "shape"):
        return X[idx]
    return [X[i] for i in idx.tolist()]


def final_step(model: Any, X: Any) -> tuple[Any, Any]:
    """The estimator that decides, and what it decides on: for a scikit-learn ``Pipeline`` its last step and
    ``X`` sent through the other steps once (so that predictions and scores share one transform); else the
    model and ``X``. ``Pipeline.predict`` and ``decision_function`` are defined as exactly this."""
    steps = getattr(model, "steps", None)
    if isinstance(steps, list) and len(steps) > 1 and hasattr(model, "__getitem__"):
        return steps[-1][1], model[:-1].transform(X)
    return model, X


def model_scores(model: Any, X: Any, n_cols: int,
                 classes: Sequence[Any] | None) -> tuple[np.ndarray | None, str | None]:
    """Scores (n, n_cols) in the column order of the data's labels, and what they are."""
    if hasattr(model, "decision_function"):
        s, kind = np.asarray(model.decision_function(X), dtype=np.float64), "decision_function"
    elif hasattr(model, "predict_proba"):
        s, kind = model.predict_proba(X), "predict_proba"
        if isinstance(s, list):  # multi-output estimators: one (n, 2) array per label
            s = np.column_stack([np.asarray(p)[:, -1] for p in s])
        s = np.asarray(s, dtype=np.float64)
    else:
        return None, None
    if classes is None:  # multi-label: columns are the label columns
        return s.reshape(s.shape[0], -1), kind
    if s.ndim == 1:
        if kind == "decision_function":
            s = np.column_stack([-s, s])
        else:
            s = np.column_stack([1 - s, s])
    return s, kind


def has_probabilities(model: Any) -> bool:
    """Whether ``model`` (a pipeline: its last step) gives class probabilities (``predict_proba``)."""
    steps = getattr(model, "steps", None)
    last = steps[-1][1] if isinstance(steps, list) and steps else model
    return callable(getattr(last, "predict_proba", None))


def model_probabilities(model: Any, X: Any, model_classes: Sequence[Any], labels: Sequence[Any]) -> np.ndarray:
    """``model.predict_proba(X)`` (n, len(labels)) in the order of ``labels``; 0 for a class the model never saw
    (it gives it no probability), so that every row still sums to 1."""
    p = np.asarray(model.predict_proba(X), dtype=np.float64)
    if p.ndim == 1:
        p = np.column_stack([1 - p, p])
    out: np.ndarray = np.nan_to_num(align_scores(p, model_classes, labels), nan=0.0)
    return out


def align_scores(s: np.ndarray, model_classes: Sequence[Any], labels: Sequence[Any]) -> np.ndarray:
    """Scores in the order of all ``labels``; NaN for a class the fold's model never saw."""
    out = np.full((s.shape[0], len(labels)), np.nan)
    pos = {label_str(c): j for j, c in enumerate(model_classes)}
    for i, lab in enumerate(labels):
        j = pos.get(label_str(lab))
        if j is not None:
            out[:, i] = s[:, j]
    return out


def fit_model(model: Any, X: Any, y: Any, where: str) -> Any:
    """``model.fit(X, y)``, scikit-learn's usual complaints turned into a data error naming ``where``."""
    try:
        return model.fit(X, y)
    except ValueError as exc:
        msg = str(exc)
        if "empty vocabulary" in msg:
            raise DataError(f"{where}: the training texts hold no alphabetic token (empty vocabulary after "
                            f"tokenization and stop-word removal); check the text column.") from None
        if "class" in msg and ("only one" in msg or "at least 2" in msg or "needs samples of at least 2" in msg):
            raise DataError(f"{where}: the training part holds a single class ({msg}); use stratification or "
                            f"fewer folds.") from None
        raise
