"""Threshold choice on Dask: ``choose_threshold_batches``' result, bit for bit, without the scores on one machine.

:class:`DaskRanking` and :func:`threshold` (public, kept for their callers) are thin calls of the generic range
runner (:mod:`clfeval.engines.dask._ranges`) with the threshold's own pieces
(:class:`clfeval.scores._rankthreshold.RangeRanking`, :class:`~clfeval.scores._rankthreshold.ThresholdSpec`):
each input's ranking cut into score ranges, every range's cuts kept on the workers and fetched one range at a
time by the sweep.
"""

from __future__ import annotations

from typing import Any

from clfeval.engines.dask._ranges import open_ranges, ranked
from clfeval.ops.threshold import ThresholdResult
from clfeval.scores import Objective, RangeRanking, ScoreSource, ThresholdSpec, column_spec

__all__ = ["DaskRanking", "threshold"]


class DaskRanking(RangeRanking):
    """The ranking of one score column on a Dask cluster, for threshold choice
    (:class:`~clfeval.scores._rankthreshold.RangeRanking`).

    Its range cuts and every group of partitions' sorted runs stay on the
    workers until the object is dropped.

    Parameters
    ----------
    data : dask.dataframe.DataFrame, path(s), or Parts
    gold, score : str
        Column names.
    positive : label
        The positive class (matched by value or string form, partition by partition).
    client : distributed.Client, optional
        Default: Dask's threads on this machine.
    ranges : int, optional
        Ranges of the score axis (as :func:`clfeval.engines.dask.ranking`).
    """

    def __init__(self, data: Any, *, gold: str = "gold", score: str = "score", positive: Any, client: Any = None,
                 ranges: int | None = None, normalize: str | None = None) -> None:
        spec = column_spec(gold, score, positive, normalize=normalize, ranges=ranges)
        super().__init__(open_ranges(data, spec, client=client), score=score, positive=positive)


def threshold(test: Any, dev: Any = None, *, gold: str = "gold", score: str = "score", positive: Any,
              objective: str | Objective = "f1", cost_fp: float = 1.0, cost_fn: float = 1.0,
              default_threshold: float | None = None, zero_division: Any = 0, client: Any = None,
              ranges: int | None = None, source: ScoreSource | None = None,
              dev_source: ScoreSource | None = None, normalize: str | None = None) -> ThresholdResult:
    """``clfeval threshold``'s choice on Dask: a cut chosen on ``dev``, measured on ``test``, exactly.

    Parameters
    ----------
    test, dev : dask.dataframe.DataFrame, path(s), or Parts
        The test data and (optional) the development data the cut is chosen on.
    gold, score : str
        Column names (the same in both inputs).
    positive, objective, cost_fp, cost_fn, default_threshold, zero_division, source, dev_source
        As :func:`clfeval.scores._thresholds.choose_threshold`.
    client : distributed.Client, optional
        The cluster (:func:`clfeval.engines.dask.connect`); default Dask's threads here.
    ranges : int, optional
        Ranges of the score axis of each input (as :func:`clfeval.engines.dask.ranking`).
    normalize : {"nfc"} or None
        Unicode normalisation of the gold labels, as locally.

    Returns
    -------
    ThresholdResult
        ``choose_threshold_batches``' result on the same items, bit for bit, but
        for ``external``: ``{"engine": "dask", "partitions": ..., "ranges": ...}``
        (per input) instead of the memory budget.
    """
    choice = dict(objective=objective, cost_fp=cost_fp, cost_fn=cost_fn, default_threshold=default_threshold,
                  zero_division=zero_division, source=source, dev_source=dev_source)
    r: ThresholdResult = ranked(test, ThresholdSpec(gold, score, positive, dev, choice, normalize, ranges),
                                client=client)
    return r
