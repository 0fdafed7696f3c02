"""Baselines as exact expected count tables — no sampling.

A score means nothing alone. Each baseline is a *table* of expected counts,
rows = gold, so every metric of :mod:`clfeval.core._metrics` applies to it unchanged:

* majority — always predicts one class: the most frequent class of the
  training labels when they are given (the honest version), otherwise of the
  evaluated gold labels (and the result says so). Ties go to the first label.
  Its table is exact: column m holds every gold row total.
* uniform — predicts each of the K classes with probability 1/K:
  E[C_ij] = t_i / K, expected accuracy 1/K.
* stratified — predicts class j with probability q_j, the class frequencies
  (of the training labels when given, otherwise of the gold labels):
  E[C_ij] = t_i · q_j, expected accuracy Σ p_i q_i (= Σ p_k² without
  training labels).

Ratio metrics of a random baseline (precision, F1, ...) are computed from its
expected table — ratios of expected counts, which is what the table gives and
what these baselines are usually quoted as.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import ClassCounts, Evaluation, TableStats, encode_labels, encode_multilabel, label_str
from clfeval.errors import DataError

__all__ = ["majority_table", "uniform_table", "stratified_table", "rank_one_stats", "majority_index",
           "TrainFrequencies",
           "train_frequencies", "single_label_baselines", "multilabel_baselines"]


def majority_index(frequencies: np.ndarray) -> int:
    """Index of the most frequent class; ties go to the first in label order.

    >>> majority_index(np.array([3, 7, 7]))
    1
    """
    return int(np.argmax(np.asarray(frequencies)))


def majority_table(support: np.ndarray, index: int) -> np.ndarray:
    """Counts of "always predict class ``index``": that column holds each gold row total.

    Examples
    --------
    >>> majority_table(np.array([90, 10]), 0).tolist()
    [[90.0, 0.0], [10.0, 0.0]]
    """
    support = np.asarray(support, dtype=np.float64)
    out = np.zeros((support.size, support.size))
    out[:, index] = support
    return out


def uniform_table(support: np.ndarray) -> np.ndarray:
    """Expected counts of uniform random guessing over the K labels: t_i / K in every cell."""
    support = np.asarray(support, dtype=np.float64)
    k = support.size
    return np.repeat(support[:, None] / max(k, 1), k, axis=1)


def stratified_table(support: np.ndarray, frequencies: np.ndarray) -> np.ndarray:
    """Expected counts of guessing class j with probability q_j: t_i · q_j.

    Examples
    --------
    >>> stratified_table(np.array([3, 1]), np.array([0.75, 0.25])).tolist()
    [[2.25, 0.75], [0.75, 0.25]]
    """
    support = np.asarray(support, dtype=np.float64)
    q = np.asarray(frequencies, dtype=np.float64)
    total = q.sum()
    q = q / total if total > 0 else q
    return support[:, None] * q[None, :]


# --- the baselines scored: what a report shows beside the classifier -------------------

@dataclass(frozen=True)
class TrainFrequencies:
    """How often each label occurs in the training labels: what the honest baselines follow.

    ``labels`` are label strings, ``counts`` their training items (single-label:
    the class counts; multi-label: the items carrying each label); multi-label
    data also need ``n_items``, the number of training items.
    """

    labels: tuple[str, ...]
    counts: np.ndarray
    n_items: int | None = None

    def over(self, labels: Sequence[str]) -> tuple[list[str], np.ndarray]:
        """``labels`` extended by the other training labels (sorted), and the frequencies over that list."""
        counts = {lab: float(c) for lab, c in zip(self.labels, np.asarray(self.counts).tolist(), strict=True) if c > 0}
        have = set(labels)
        ext = list(labels) + sorted(k for k in counts if k not in have)
        return ext, np.array([counts.get(x, 0.0) for x in ext], dtype=np.float64)


def train_frequencies(train_labels: Any, *, multilabel: bool = False, sep: str = "|") -> TrainFrequencies:
    """Count the training labels (encoded once): the honest majority and stratified baselines follow them.

    >>> train_frequencies(["a", "b", "b"]).over(["b", "c"])[0]
    ['b', 'c', 'a']
    """
    if multilabel:
        enc = encode_multilabel(train_labels, [[]] * len(train_labels), sep=sep, names=("train_labels", "train_labels"))
        return TrainFrequencies(tuple(label_str(x) for x in enc.labels), enc.gold.sum(axis=0), enc.n)
    (codes,), r, raw = encode_labels([train_labels], ("train_labels",))
    if len(codes) == 0:
        raise DataError("the training labels are empty; the majority baseline needs at least one training label.")
    bc = np.bincount(codes, minlength=r)
    present = np.flatnonzero(bc)
    return TrainFrequencies(tuple(label_str(raw[j]) for j in present), bc[present])


def rank_one_stats(support: np.ndarray, q: np.ndarray) -> TableStats:
    """The per-class counts of the expected table E_ij = t_i·q_j (every baseline's table), in O(K).

    TP_j = t_j q_j, predicted totals N q_j, gold totals t_j: what a table of
    many classes (held sparsely) needs instead of K×K expected counts.

    >>> s = rank_one_stats(np.array([3.0, 1.0]), np.array([0.75, 0.25]))
    >>> s.classes.tp.tolist(), s.classes.fp.tolist()
    ([2.25, 0.25], [0.75, 0.75])
    """
    t = np.asarray(support, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    n = t.sum()
    tp = t * q
    fp = n * q - tp
    fn = t - tp
    return TableStats(ClassCounts(tp, fp, fn, n - tp - fp - fn), np.asarray(n))


def _entry(description: str, cm: np.ndarray | TableStats, ext: list[str], keep: int, beta: float, zd: float,
           positive_index: int | None) -> dict[str, Any]:
    e = Evaluation(cm if isinstance(cm, TableStats) else TableStats.of_matrix(cm), zd, beta)
    p, r, f1 = (e(f"{m}:LABEL")[0] for m in ("precision", "recall", "f1"))
    cols = [np.asarray(x, dtype=np.float64)[:keep].tolist() for x in (p, r, f1)]
    per_class = {lab: {"precision": a, "recall": b, "f1": c} for lab, a, b, c in zip(ext[:keep], *cols, strict=False)}
    f1s = f1[:keep].astype(np.float64)
    macro_f1 = float(np.nanmean(f1s)) if math.isnan(zd) and not np.all(np.isnan(f1s)) else \
        float(f1s.mean()) if f1s.size else math.nan
    entry = {"description": description, "accuracy": float(e("accuracy")[0]), "macro_f1": macro_f1,
             "micro_f1": float(e("micro_f1")[0]), "per_class": per_class}
    if positive_index is not None:
        entry["positive_f1"] = per_class[ext[positive_index]]["f1"]
    return entry


def single_label_baselines(cm: np.ndarray, labels: list[str], *, beta: float = 1.0, zero_division: float = 0.0,
                           positive_index: int | None = None,
                           train: TrainFrequencies | None = None) -> tuple[dict[str, Any], list[str]]:
    """The majority, uniform and stratified baselines of a K×K table, scored (and the notes to show).

    ``cm`` is the K×K table, or (a table of many classes, held sparsely) its
    gold totals (K,): the expected tables are then scored from their per-class
    counts (:func:`rank_one_stats`).

    Each entry holds ``accuracy``, ``macro_f1`` (over the evaluated labels),
    ``micro_f1``, per-class precision, recall and F1 (and ``positive_f1``).
    """
    zd = zero_division
    notes = []
    dense = isinstance(cm, np.ndarray) and cm.ndim == 2
    support = (cm.sum(axis=1) if dense else np.asarray(cm)).astype(np.float64)
    k = len(labels)
    if train is None:
        ext = list(labels)
        freq = support
        source = "gold labels of the evaluated data"
        notes.append("The majority baseline's class is the most frequent gold label of the evaluated data "
                     "(pass training labels for the honest version).")
    else:
        if not any(c > 0 for c in np.asarray(train.counts).tolist()):
            raise DataError("the training labels are empty; the majority baseline needs at least one training label.")
        ext, freq = train.over(labels)
        source = "training labels"
    sup_ext = np.concatenate([support, np.zeros(len(ext) - k)])
    m = majority_index(freq)
    q = freq / freq.sum() if freq.sum() > 0 else freq
    tables: tuple[np.ndarray | TableStats, ...]
    if dense:
        tables = (majority_table(sup_ext, m), uniform_table(support), stratified_table(sup_ext, q))
    else:  # many classes: the expected tables' per-class counts, never K×K
        tables = (rank_one_stats(sup_ext, np.eye(1, len(ext), m)[0]),
                  rank_one_stats(support, np.full(k, 1.0 / max(k, 1))), rank_one_stats(sup_ext, q))
    out = {}
    out["majority"] = _entry(f"always predicts {ext[m]!r}, the most frequent class of the {source}",
                             tables[0], ext, k, beta, zd, positive_index)
    out["majority"]["label"] = ext[m]
    out["majority"]["source"] = source
    out["uniform"] = _entry(f"uniform random over the {k} labels (expected counts)",
                            tables[1], labels, k, beta, zd, positive_index)
    out["stratified"] = _entry(f"random, following the class frequencies of the {source} (expected counts)",
                               tables[2], ext, k, beta, zd, positive_index)
    out["stratified"]["source"] = source
    return out, notes


def multilabel_baselines(t: Any, labels: list[str], *, beta: float = 1.0, zero_division: float = 0.0,
                         train: TrainFrequencies | None = None) -> tuple[dict[str, Any], list[str]]:
    """The baselines of a multi-label table (:class:`~clfeval.core._tables.MultilabelTable`), scored per label."""
    zd = zero_division
    notes = []
    pos = t.tp + t.fn
    neg = t.n_items - pos
    if train is None:
        prevalence = pos / t.n_items if t.n_items else np.zeros(len(labels))
        source = "gold labels of the evaluated data"
        notes.append("Multi-label baselines take each label's prevalence from the evaluated gold labels "
                     "(pass training labels for the honest version).")
    else:
        ext, freq = train.over(labels)
        n_train = train.n_items
        prevalence = np.array([freq[ext.index(lab)] for lab in labels]) / n_train if n_train else np.zeros(len(labels))
        source = "training labels"

    def table(q: np.ndarray) -> np.ndarray:
        q = np.asarray(q, dtype=np.float64)
        return np.stack([np.stack([neg * (1 - q), neg * q], -1), np.stack([pos * (1 - q), pos * q], -1)], 1)

    out = {}
    for name, q, desc in (
        ("majority", (prevalence > 0.5).astype(np.float64),
         f"each label predicted iff it is present in most items of the {source}"),
        ("uniform", np.full(len(labels), 0.5), "each label predicted with probability 1/2 (expected counts)"),
        ("stratified", prevalence, f"each label predicted with its prevalence in the {source} (expected counts)"),
    ):
        e = Evaluation(TableStats.of_multilabel(table(q), n_items=t.n_items, exact=0, jaccard_sum=0.0, jaccard_empty=0),
                       zd, beta)
        cols = {m: e(f"{m}:LABEL")[0] for m in ("precision", "recall", "f1", "accuracy")}
        out[name] = {"description": desc, "source": source, "hamming_loss": float(e("hamming_loss")[0]),
                     "macro_f1": float(e("macro_f1")[0]), "micro_f1": float(e("micro_f1")[0]),
                     "per_class": {lab: {m: float(v[i]) for m, v in cols.items()} for i, lab in enumerate(labels)}}
    notes.append("Multi-label baselines report per-label and averaged measures; subset accuracy and Jaccard "
                 "of a random baseline depend on the items, not the tables, and are not shown.")
    return out, notes
