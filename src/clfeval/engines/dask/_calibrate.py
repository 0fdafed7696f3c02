"""Calibration on Dask: the one calibration accumulator run over the partitions, as the front door runs it.

:func:`calibration` (public, kept for its callers) is :func:`clfeval.engines.dask._accumulate.accumulate` with
:class:`~clfeval.ops.calibration.CalibrationSums` (per group of partitions the per-bin counts and exact sums,
added in a tree: no partitioning changes a bit), then the exact ranking of the same column for the ROC-AUC and
average precision (:func:`clfeval.engines.dask._rankings.ranking`, the multi-pass exception). The result is a
:class:`~clfeval.ops.calibration.Calibration`, the numbers of ``clfeval.calibration`` on any engine.

Equal-mass (quantile) bins need the exact order statistics of the probabilities and are not offered on Dask yet
(the capability table says so; this function refuses them in the same words).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from clfeval.errors import UsageError
from clfeval.ops.calibration import Calibration, CalibrationSums
from clfeval.scores import ProbabilityColumns, ScoreSource, check_bins

__all__ = ["calibration"]


def calibration(data: Any, *, gold: str = "gold", prob: str = "prob", positive: Any, bins: int = 10,
                strategy: str = "uniform", with_ranking: bool = True, client: Any = None,
                normalize: str | None = None) -> Calibration:
    """``reliability(gold, probs, positive=..., bins=B)`` of an input on Dask (equal-width bins); ``normalize``:
    Unicode normalisation of the gold labels, as locally."""
    from clfeval.engines.dask._accumulate import accumulate
    from clfeval.engines.dask._rankings import ranking

    n_bins = check_bins(bins)
    if strategy != "uniform":
        raise UsageError(lambda name: f"option {name} quantile (equal-mass bins) needs exact order statistics, not "
                                      f"offered on the Dask engine yet; use uniform bins there.", params=["strategy"])
    read = ProbabilityColumns(positive=positive, prob=prob, source=ScoreSource(name=prob))
    sums, _ = accumulate(data, partial(CalibrationSums.empty, n_bins, read=read), gold=gold, pred=None, extra=[prob],
                         extra_options=["--prob"], scores=[prob], normalize=normalize, client=client)
    sums.check()
    ranked = ranking(data, gold=gold, score=prob, positive=positive, client=client,
                     normalize=normalize) if with_ranking and sums.kind == "binary" else None
    result: Calibration = sums.finish(ranked)
    return result
