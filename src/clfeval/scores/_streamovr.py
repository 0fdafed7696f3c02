"""Rankings beyond memory from labelled batches: one positive class, or one-vs-rest per label.

The glue between batches of a predictions file — gold labels and score
columns — and the exact stores of :mod:`clfeval.scores._external`:

* :func:`stream_binary` — gold labels and one score column per batch, a
  positive label: the summary of ``ranking(gold, scores, positive=...)``;
* :class:`OvRStore` / :func:`stream_ovr` — gold labels (or label sets) and one
  score column per label: ``ranking_ovr``'s result (per-label ROC-AUC and
  AP, macro, weighted and micro averages, the curves), every label's store and
  the micro store sharing one memory budget and one spill directory.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import EncodedGold, RankingSummary, label_str
from clfeval.errors import DataError
from clfeval.ops.ranking import RankingResult
from clfeval.scores._curves import ovr_of
from clfeval.scores._external import DEFAULT_MEMORY, RankingStore, SpillSpace

__all__ = ["batch_is_positive", "stream_binary", "binary_summary", "OvRStore", "stream_ovr"]


def batch_is_positive(gold: Any, positive: Any) -> np.ndarray:
    """``gold == positive`` on one batch, matching labels as ``--positive`` does (value or string form).

    A batch in which the positive label does not occur is all False (the
    check that it occurs somewhere is made on the whole input).

    >>> batch_is_positive(["a", "b", "a"], "a").tolist(), batch_is_positive([1, 2], "1").tolist()
    ([True, False, True], [True, False])
    """
    fast = _integer_is_positive(gold, positive)
    if fast is not None:
        return fast
    g = EncodedGold.of(gold)
    if g.n == 0:
        return np.zeros(0, dtype=bool)
    try:
        code = g.positive_code(positive)
    except DataError:
        return np.zeros(g.n, dtype=bool)
    assert g.codes is not None  # positive_code has refused label sets
    is_pos: np.ndarray = g.codes == code
    return is_pos


_INT_FORM = re.compile(r"0|-?[1-9][0-9]*")


def _integer_is_positive(gold: Any, positive: Any) -> np.ndarray | None:
    """``gold == positive`` by value for an integer pyarrow column without missing values and an integer positive
    (or the string form of one), the common case, without encoding the labels: the same answer, since an integer
    label matches ``positive`` by value or string form exactly when it equals it. ``None`` for other cases."""
    if not isinstance(gold, (pa.Array, pa.ChunkedArray)) or not pa.types.is_integer(gold.type) or gold.null_count:
        return None
    if isinstance(positive, str):
        if _INT_FORM.fullmatch(positive) is None:
            return None
        value = int(positive)
    elif isinstance(positive, (int, np.integer)) and not isinstance(positive, (bool, np.bool_)):
        value = int(positive)
    else:
        return None
    chunks = gold.chunks if isinstance(gold, pa.ChunkedArray) else [gold]
    if not chunks:
        return np.zeros(0, dtype=bool)
    g = np.concatenate([c.to_numpy(zero_copy_only=False) for c in chunks]) if len(chunks) != 1 else \
        chunks[0].to_numpy(zero_copy_only=False)
    if g.shape[0] == 0:
        return np.zeros(0, dtype=bool)
    info = np.iinfo(g.dtype)
    if not info.min <= value <= info.max:
        return np.zeros(g.shape[0], dtype=bool)
    return g == g.dtype.type(value)


def stream_binary(batches: Iterable[tuple[Any, Any]], *, positive: Any, memory: Any = DEFAULT_MEMORY,
                  tmpdir: str | None = None, source: str = "the gold labels") -> RankingSummary:
    """``ranking(gold, scores, positive=positive)``'s numbers from batches of (gold labels, scores).

    Raises :class:`~clfeval.errors.DataError` when ``positive`` never occurs
    (naming ``source``) or no item arrives.

    Examples
    --------
    >>> r = stream_binary([(["a", "b"], [0.9, 0.1]), (["b", "a"], [0.5, 0.4])], positive="a")
    >>> r.roc_auc, r.positive  # a's 0.9 above both b's, a's 0.4 above one: 3 of 4 pairs
    (0.75, 'a')
    """
    with RankingStore(label_str(positive), memory=memory, tmpdir=tmpdir) as st:
        for gold, scores in batches:
            st.add(batch_is_positive(gold, positive), np.asarray(scores, dtype=np.float64))
        return binary_summary(st, positive, source=source)


def binary_summary(store: Any, positive: Any, *, source: str = "the gold labels") -> Any:
    """The summary of a filled binary store (a :class:`RankingStore` or a binned histogram), refusing a
    ranking without items or without the positive label (naming ``source``)."""
    if store.n == 0:
        raise DataError(f"{source} hold no items; a ranking needs at least one item.")
    if store.n_positive == 0:
        raise DataError(lambda name: f"{name} names the label {label_str(positive)!r}, which does not occur in "
                                     f"{source}.", params=["positive"])
    summary = getattr(store, "summary", None)  # a store's method; a histogram's property
    if summary is None:
        return store
    return summary() if callable(summary) else summary


class OvRStore:
    """One-vs-rest rankings filled batch by batch: one store per label and the micro store, one budget.

    Parameters
    ----------
    labels : sequence of str
        The score columns' labels, in order.
    memory : int or str
        The budget shared by every label's store and the micro store.
    multilabel : bool
        Gold holds label sets (the result's ``kind``).

    Examples
    --------
    >>> with OvRStore(["a", "b"], memory=4096) as st:
    ...     st.add(np.array([[True, False], [False, True]]), np.array([[0.8, 0.2], [0.3, 0.7]]))
    ...     r = st.result()
    >>> r.macro.roc_auc, r.micro.roc_auc
    (1.0, 1.0)
    """

    def __init__(self, labels: Sequence[Any], *, memory: Any = DEFAULT_MEMORY, multilabel: bool = False,
                 tmpdir: str | None = None) -> None:
        self.labels = [label_str(x) for x in labels]
        self.multilabel = multilabel
        self.space = SpillSpace(memory, tmpdir=tmpdir)
        self.stores = {lab: RankingStore(lab, space=self.space) for lab in self.labels}
        self.micro = RankingStore("micro", space=self.space)
        self.n = 0

    def add(self, indicator: Any, scores: Any) -> None:
        """One batch: an (n, L) boolean gold indicator and (n, L) finite scores, columns in label order."""
        y = np.asarray(indicator, dtype=bool)
        s = np.asarray(scores, dtype=np.float64)
        if y.shape != s.shape or y.ndim != 2 or y.shape[1] != len(self.labels):
            raise DataError(f"a batch has gold of shape {y.shape} and scores of shape {s.shape}; expected (n, "
                            f"{len(self.labels)}) for both (one column per label).")
        for j, lab in enumerate(self.labels):
            self.stores[lab].add(y[:, j], s[:, j])
        self.micro.add(y.ravel(), s.ravel())
        self.n += y.shape[0]

    def add_gold(self, gold: Any, scores: Any, *, sep: str = "|", prefix: str = "") -> None:
        """One batch of gold labels (label sets with ``multilabel``) and an (n, L) score array."""
        g = EncodedGold.of(gold, multilabel=self.multilabel, sep=sep)
        if g.n == 0:
            return
        self.add(g.over(self.labels, prefix=prefix), scores)

    def result(self) -> RankingResult:
        """``ranking_ovr``'s result for every item added."""
        rankings = {lab: self.stores[lab].summary() for lab in self.labels}
        return ovr_of(self.labels, self.n, rankings, self.micro.summary(), multilabel=self.multilabel)

    @property
    def spilled(self) -> bool:
        return self.space.spilled

    def close(self) -> None:
        for st in self.stores.values():
            st.close()
        self.micro.close()
        self.space.close()

    def __enter__(self) -> OvRStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def stream_ovr(batches: Iterable[tuple[Any, Any]], labels: Sequence[Any], *, multilabel: bool = False,
               sep: str = "|", memory: Any = DEFAULT_MEMORY, tmpdir: str | None = None) -> RankingResult:
    """``ranking_ovr(gold, scores, labels=labels)`` from batches of (gold labels, (n, L) scores).

    Examples
    --------
    >>> r = stream_ovr([(["a", "b"], np.array([[0.8, 0.2], [0.3, 0.7]]))], ["a", "b"])
    >>> r.per_class["a"].roc_auc
    1.0
    """
    with OvRStore(labels, memory=memory, multilabel=multilabel, tmpdir=tmpdir) as st:
        for gold, scores in batches:
            st.add_gold(gold, scores, sep=sep)
        return st.result()
