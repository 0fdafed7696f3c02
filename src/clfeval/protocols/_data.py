"""The labels of a protocol run, validated and encoded once."""

from __future__ import annotations

from typing import Any

import numpy as np

from clfeval.core import (
    MAX_DENSE,
    ConfusionTable,
    MultilabelTable,
    check_class_count,
    confusion_table,
    encode_labels,
    encode_multilabel,
    label_str,
    sort_labels,
)
from clfeval.errors import DataError, UsageError
from clfeval.evaluate import TrainFrequencies

__all__ = ["RunData"]


class RunData:
    """The labels of a run, validated and encoded once; every fold's tables are counted from these codes."""

    def __init__(self, y: Any, multilabel: bool, sep: str) -> None:
        self.multilabel = multilabel
        self.sep = sep
        if multilabel:
            if isinstance(y, np.ndarray) and y.ndim == 2:
                raise UsageError("multi-label runs take label sets (lists or strings separated by sep), "
                                 "not an indicator matrix, so that the labels have names.")
            enc = encode_multilabel(y, [[]] * len(y), sep=sep, names=("labels", "labels"))
            self.Y = enc.gold
            self.labels = tuple(enc.labels)
            if not self.labels:
                raise DataError("the label column holds no labels at all; multi-label data need label sets.")
            self.fit_target = self.Y.astype(np.int64)
            self.n = self.Y.shape[0]
        else:
            (codes,), r, raw = encode_labels([y], ("label",))
            counts = np.bincount(codes, minlength=r)
            present = np.flatnonzero(counts)
            if present.size < 2:
                only = label_str(raw[present[0]]) if present.size else None
                what = f"only the class {only!r}" if only is not None else "no labels"
                raise DataError(f"the label column has {what} in {len(codes)} rows; a classifier needs at least two "
                                f"classes to tell apart.")
            check_class_count(int(present.size), limit=MAX_DENSE, table="K×K confusion table of each fold",
                              where="in the label column")  # before any model is trained
            self.codes = np.asarray(codes)
            values = np.empty(len(raw), dtype=object)
            values[:] = raw
            self.values = values[self.codes]
            self.labels = tuple(sort_labels([raw[j] for j in present]))
            rank = {x: i for i, x in enumerate(self.labels)}
            to_sorted = np.array([rank.get(x, -1) for x in raw], dtype=np.intp)
            self.label_codes = to_sorted[self.codes]  # position of each item's label in self.labels
            self.fit_target = self.values
            self.n = len(self.codes)
        self.label_strings = tuple(label_str(x) for x in self.labels)

    def gold(self, idx: np.ndarray) -> Any:
        """The gold labels of the items ``idx`` (label values, or an indicator matrix)."""
        return self.Y[idx] if self.multilabel else self.values[idx]

    def pred_codes(self, pred: Any) -> np.ndarray | None:
        """Predicted labels as positions in :attr:`labels` (None if a prediction is not one of them)."""
        values, inverse = np.unique(np.asarray(pred, dtype=object), return_inverse=True)
        rank = {label_str(x): i for i, x in enumerate(self.labels)}
        lut = np.array([rank.get(label_str(v), -1) for v in values], dtype=np.intp)
        codes = lut[inverse.reshape(-1)] if values.size else np.empty(0, dtype=np.intp)
        return None if np.any(codes < 0) else codes

    def table(self, idx: np.ndarray, pred: Any) -> ConfusionTable | MultilabelTable:
        """The count table of one part: over the labels occurring in its gold or predicted labels."""
        if self.multilabel:
            g = self.Y[idx]
            p = np.asarray(pred, dtype=bool)
            keep = np.flatnonzero(g.any(axis=0) | p.any(axis=0))  # the labels occurring in this part
            return MultilabelTable.from_indicators(g[:, keep], p[:, keep], [self.labels[i] for i in keep])
        codes = self.pred_codes(pred)
        if codes is None:  # an estimator predicting a label outside the data: count it the general way
            return confusion_table(self.values[idx], pred)
        k = len(self.labels)
        cm = np.bincount(self.label_codes[idx] * k + codes, minlength=k * k).reshape(k, k)
        keep = np.flatnonzero(cm.sum(axis=0) + cm.sum(axis=1))
        return ConfusionTable(cm[np.ix_(keep, keep)], tuple(self.labels[i] for i in keep))

    def train_frequencies(self, idx: np.ndarray) -> TrainFrequencies:
        """How often each label occurs among the items ``idx`` (the honest baselines of a fold follow them)."""
        if self.multilabel:
            return TrainFrequencies(self.label_strings, self.Y[idx].sum(axis=0), int(idx.size))
        counts = np.bincount(self.label_codes[idx], minlength=len(self.labels))
        present = np.flatnonzero(counts)
        return TrainFrequencies(tuple(self.label_strings[j] for j in present), counts[present])

    def strings(self, values: Any) -> list[str]:
        """Labels (or label sets, joined by ``sep``) as text, for the predictions table."""
        if self.multilabel:
            m = np.asarray(values, dtype=bool)
            return [self.sep.join(self.label_strings[j] for j in np.flatnonzero(row)) for row in m]
        return [label_str(v) for v in values]
