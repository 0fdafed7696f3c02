"""Baselines as exact expected count tables — no sampling.

A score means nothing alone. Each baseline is a *table* of expected counts,
rows = gold, so every metric of :mod:`clfeval.metrics` applies to it unchanged:

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


import numpy as np

__all__ = ["majority_table", "uniform_table", "stratified_table", "majority_index"]


def majority_index(frequencies: np.ndarray) -> int:
    """Index of the most frequent class; ties go to the first in label order.

    >>> majority_index(np.array([3, 7, 7]))
    1
    """
    return int(np.argmax(np.asarray(frequencies)))


def majority_table(support: np.ndarray, index: int) -> np.ndarray:
    """Counts of "always predict class ``index``": that column holds each gold row total.

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

    >>> stratified_table(np.array([3, 1]), np.array([0.75, 0.25])).tolist()
    [[2.25, 0.75], [0.75, 0.25]]
    """
    support = np.asarray(support, dtype=np.float64)
    q = np.asarray(frequencies, dtype=np.float64)
    total = q.sum()
    q = q / total if total > 0 else q
    return support[:, None] * q[None, :]
