"""Calibration on Dask: per-bin counts and exact sums per partition, added in a tree.

Binary probabilities in equal-width bins (value v in bin min(⌊v·B⌋, B−1), as
locally). Each partition gives, per bin, the item count, the positives, and the
exact sums (:class:`~clfeval.core._exactsum.ExactSum`) of the probabilities,
and over all items the exact sums of the squared errors and of the log losses;
sums of partitions are exact, so no partitioning changes a bit. The result is
a :class:`~clfeval.scores._calibration.Calibration`.

Equal-mass (quantile) bins need the exact order statistics of the
probabilities and are not offered on Dask yet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import ExactSum, grouped_sums, label_str
from clfeval.dask._parts import Parts, parts_of, probe, run, tree_sum
from clfeval.errors import DataError, UsageError
from clfeval.ops.calibration import Calibration, CalibrationBin
from clfeval.scores import (
    EPS,
    as_probabilities,
    batch_is_positive,
    calibration_words,
    check_bins,
    reliability_rows,
)

__all__ = ["calibration", "CalibrationSums"]


@dataclass
class CalibrationSums:
    """What calibration needs of a set of items, additive: per-bin counts, positives and exact sums."""

    bins: int
    count: np.ndarray
    hits: np.ndarray
    conf: list = field(default_factory=list)  # ExactSum per bin
    sq: ExactSum = field(default_factory=ExactSum)
    loss: ExactSum = field(default_factory=ExactSum)

    @classmethod
    def of(cls, y: np.ndarray, p: np.ndarray, bins: int) -> CalibrationSums:
        idx = np.minimum(np.floor(p * bins).astype(np.int64), bins - 1)
        conf = grouped_sums(p, idx, bins)
        pc = np.clip(p, EPS, 1.0 - EPS)
        loss = ExactSum().add(np.where(y, np.log(pc), np.log1p(-pc)))
        return cls(bins, np.bincount(idx, minlength=bins), np.bincount(idx[y], minlength=bins), conf,
                   ExactSum().add((p - y.astype(np.float64)) ** 2), loss)

    def __add__(self, other: CalibrationSums) -> CalibrationSums:
        return CalibrationSums(self.bins, self.count + other.count, self.hits + other.hits,
                               [a + b for a, b in zip(self.conf, other.conf, strict=True)], self.sq + other.sq,
                               self.loss + other.loss)


def _part(t: pa.Table, gold: str, prob: str, positive: Any, bins: int) -> CalibrationSums:
    n = t.num_rows
    y = batch_is_positive(t.column(gold), positive) if n else np.zeros(0, dtype=bool)
    p = as_probabilities(t.column(prob).to_numpy(zero_copy_only=False), name=prob, n=n) if n else np.zeros(0)
    return CalibrationSums.of(y, p, bins)


def calibration(data: Any, *, gold: str = "gold", prob: str = "prob", positive: Any, bins: int = 10,
                strategy: str = "uniform", with_ranking: bool = True, client: Any = None,
                normalize: str | None = None) -> Calibration:
    """``reliability(gold, probs, positive=..., bins=B)`` of an input on Dask (equal-width bins); ``normalize``:
    Unicode normalisation of the gold labels, as locally."""
    n_bins = check_bins(bins)
    if strategy != "uniform":
        raise UsageError(lambda name: f"option {name} quantile (equal-mass bins) needs exact order statistics, not "
                                      f"offered on the Dask engine yet; use uniform bins there.", params=["strategy"])
    parts = data if isinstance(data, Parts) else parts_of(data, [gold, prob], labels=[gold], normalize=normalize,
                                                          options=[("--gold", gold), ("--prob", prob)], scores=[prob])
    probe(parts, client)
    (s,) = run(client, tree_sum(parts.map(_part, gold, prob, positive, n_bins)))
    n = int(s.count.sum())
    if n == 0:
        raise DataError("there are no items to calibrate.")
    if int(s.hits.sum()) == 0:
        raise DataError(lambda name: f"{name} names the label {label_str(positive)!r}, which does not occur in the "
                                     f"gold labels.", params=["positive"])
    edges = np.arange(n_bins + 1) / n_bins
    table, ece, mce = reliability_rows(s.count, s.hits, lambda b: s.conf[b].fraction(), edges[:-1], edges[1:])
    pos = label_str(positive)
    notes, sig = calibration_words("binary", pos, strategy=strategy, edges="clfeval", bins=n_bins, formed=n_bins)
    auc = ap = None
    if with_ranking:
        from clfeval.dask._rankings import ranking

        rk = ranking(parts, gold=gold, score=prob, positive=positive, client=client)
        auc, ap = rk.roc_auc, rk.average_precision
    return Calibration("binary", pos, n, strategy, n_bins, tuple(CalibrationBin.of(row) for row in table), ece, mce,
                       s.sq.divided(n), -s.loss.divided(n), EPS, auc, ap, tuple(notes), sig)
