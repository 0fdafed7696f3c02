"""Calibration on Dask: per-bin counts and exact sums per partition, added in a tree.

Binary probabilities in equal-width bins (value v in bin min(⌊v·B⌋, B−1), as
locally). Each partition gives its :class:`~clfeval.ops.calibration._sums.CalibrationSums`
(the accumulator every calibration counts with: per bin the item count, the
positives and the exact sum of the probabilities, and the exact sums of the
squared errors and of the log losses); sums of partitions are exact, so no
partitioning changes a bit. The result is a
:class:`~clfeval.ops.calibration.Calibration`.

Equal-mass (quantile) bins need the exact order statistics of the
probabilities and are not offered on Dask yet.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import label_str
from clfeval.engines.dask._parts import Parts, parts_of, probe, run, tree_sum
from clfeval.errors import DataError, UsageError
from clfeval.ops.calibration import EPS, Calibration, CalibrationBin, CalibrationSums
from clfeval.scores import as_probabilities, batch_is_positive, calibration_words, check_bins

__all__ = ["calibration"]


def _part(t: pa.Table, gold: str, prob: str, positive: Any, bins: int) -> CalibrationSums:
    n = t.num_rows
    y = batch_is_positive(t.column(gold), positive) if n else np.zeros(0, dtype=bool)
    p = as_probabilities(t.column(prob).to_numpy(zero_copy_only=False), name=prob, n=n) if n else np.zeros(0)
    return CalibrationSums.of(y, p, bins=bins)


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
    if s.n == 0:
        raise DataError("there are no items to calibrate.")
    if s.positives == 0:
        raise DataError(lambda name: f"{name} names the label {label_str(positive)!r}, which does not occur in the "
                                     f"gold labels.", params=["positive"])
    rel = s.finish()
    pos = label_str(positive)
    notes, sig = calibration_words("binary", pos, strategy=strategy, edges="clfeval", bins=n_bins, formed=rel.formed)
    auc = ap = None
    if with_ranking:
        from clfeval.engines.dask._rankings import ranking

        rk = ranking(parts, gold=gold, score=prob, positive=positive, client=client)
        auc, ap = rk.roc_auc, rk.average_precision
    return Calibration("binary", pos, rel.n, strategy, rel.formed, tuple(CalibrationBin.of(row) for row in rel.rows),
                       rel.ece, rel.mce, rel.brier, rel.log_loss, EPS, auc, ap, tuple(notes), sig)
