"""``clfeval.engines.dask.ranking``, ``histogram`` and ``binning``, the documented Dask functions of the ranking,
kept as they were: thin calls of the generic pieces (the range runner of :mod:`clfeval.engines.dask._ranges`, the
tree sums of :mod:`clfeval.engines.dask._parts`) with the ranking's own pieces (:mod:`clfeval.scores._rankruns`).

Never an average of per-partition AUCs: the score axis is cut into ranges, each merged on one worker from every
group of partitions' sorted runs, knowing the positives and negatives below it; the result is the local
ranking's :class:`~clfeval.core.RankingSummary`, bit for bit. :func:`histogram` is the binned mode on Dask:
per-partition histograms added in a tree.
"""

from __future__ import annotations

from typing import Any

import dask
import numpy as np

from clfeval.core import RankingSummary
from clfeval.engines.dask._parts import Parts, parts_of, run, tree_sum
from clfeval.engines.dask._ranges import ranked
from clfeval.scores import (
    Binning,
    RankingSpec,
    ScoreHistogram,
    merge_samples,
    part_histogram,
    part_range,
    part_sample,
    quantile_binning,
    row_count,
    uniform_binning,
)

__all__ = ["ranking", "histogram", "binning"]


def ranking(data: Any, *, gold: str = "gold", score: str = "score", positive: Any, client: Any = None,
            ranges: int | None = None, memory: Any = None, normalize: str | None = None) -> RankingSummary:
    """The exact ranking of one score column on Dask: ``ranking(gold, scores, positive=...)``'s numbers.

    Parameters
    ----------
    data : dask.dataframe.DataFrame, path(s), or Parts
    positive : label
        The positive class (matched by value or string form); it must occur.
    ranges : int, optional
        Ranges of the score axis (default: four per worker thread of the cluster, at most one per partition, more
        when a range would outgrow ``memory``): each range is merged on one worker, and every group of partitions
        sends one piece to every range.
    memory : int or str, optional
        The memory budget of each task on the workers (default 1 GiB): the scores a task sorts at a time, and
        the size of a merged range (which sets the number of ranges).
    normalize : {"nfc"} or None
        Unicode normalisation of the gold labels, as locally (so that ``positive`` matches them alike).
    """
    r: RankingSummary = ranked(data, RankingSpec.of_column(gold, score, positive, normalize=normalize, ranges=ranges),
                               client=client, memory=memory)
    return r


def binning(data: Any, *, score: str = "score", bins: int, kind: str = "quantile", lo: float | None = None,
            hi: float | None = None, cap: int = 1 << 18, client: Any = None) -> Binning:
    """The bins of a score column on Dask, as the local first pass cuts them (the same row sample, the same range)."""
    parts = data if isinstance(data, Parts) else parts_of(data, [score])
    if kind == "uniform":
        if lo is None or hi is None:
            (rng,) = run(client, tree_sum(parts.map(part_range, score)))
            lo, hi = rng.lo, rng.hi
        return uniform_binning(bins, lo, hi)
    sizes = run(client, *parts.map(row_count))
    firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64).tolist()
    samples = [dask.delayed(part_sample, pure=True)(t, score, f, cap) for t,
               f in zip(parts.tasks, firsts, strict=True)]
    (sample,) = run(client, tree_sum(samples, combine=merge_samples))
    return quantile_binning(sample.values(), bins)


def histogram(data: Any, *, gold: str = "gold", score: str = "score", positive: Any, binning: Binning,
              client: Any = None) -> ScoreHistogram:
    """The binned ranking on Dask: one histogram per partition, added in a tree (the local histogram, exactly)."""
    parts = data if isinstance(data, Parts) else parts_of(data, [gold, score])
    (h,) = run(client, tree_sum(parts.map(part_histogram, gold, score, positive, binning)))
    return h
