"""A report with score columns, counted batch by batch: the count table and the exact ranking beyond memory.

:func:`report_scored_batches` passes every batch (of
:func:`clfeval.io._predictions.iter_predictions`, score columns in ``extra``)
to the counter of :func:`clfeval.evaluate._streaming.count_batches` and to a
ranking store within one memory budget —
:class:`~clfeval.scores._external.RankingStore` for one score column and a
positive class, :class:`~clfeval.scores._streamovr.OvRStore` for one column per
label (one-vs-rest). The report's ``ranking`` section then holds the numbers of
the in-memory report (:func:`clfeval.evaluate._reports.report` with ``scores``),
bit for bit, plus an ``external`` block: the budget, and whether sorted runs
spilled to disk.

With a ``binning`` (the opt-in binned mode, one score column) the ranking is
a 2×B histogram instead (:class:`~clfeval.scores._binned.ScoreHistogram`): its
section carries the ROC-AUC's exact error bound, and says that average
precision and the curves are those of the bin edges. The bins come from a
first pass over the input (:func:`score_binning`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from clfeval.core import label_str
from clfeval.errors import UsageError
from clfeval.evaluate._reports import Report
from clfeval.evaluate._streaming import count_batches, finish_report
from clfeval.ops.report import RankingPart
from clfeval.scores import (
    DEFAULT_MEMORY,
    Binning,
    OvRStore,
    RankingStore,
    ScoreHistogram,
    as_scores,
    batch_is_positive,
    binary_summary,
    binning_of,
    score_matrix,
)

__all__ = ["report_scored_batches", "score_binning", "batch_scores", "gold_and_scores"]


def batch_scores(batches: Iterable[Any], column: str) -> Iterator[np.ndarray]:
    """The checked scores (finite float64) of one column of every batch, its rows named by the batch."""
    for b in batches:
        yield as_scores(b.extra[column], name=column, n=b.n, where=b.where)


def gold_and_scores(batches: Iterable[Any], column: str) -> Iterator[tuple[Any, np.ndarray]]:
    """(gold labels, checked scores of one column) of every batch: what the streamed threshold choice takes (an
    integer column as :class:`~clfeval.scores._intcuts.IntegerKeys`, ranked exactly at any size)."""
    from clfeval.scores import integer_keys

    for b in batches:
        yield b.gold, integer_keys(b.extra[column], name=column, n=b.n, where=b.where)


def score_binning(batches: Iterable[Any], column: str, *, bins: int, kind: str = "quantile") -> Binning:
    """The first pass of the binned mode over a PATH's batches: the bins of its score column
    (:func:`clfeval.scores._binned.binning_of`; the same edges as the Dask engine cuts)."""
    return binning_of(batch_scores(batches, column), bins=bins, kind=kind)


def _feeding(batches: Iterable[Any], feed: Callable[[Any], None]) -> Iterator[Any]:
    for b in batches:
        feed(b)
        yield b


class _Histogram:
    """A binned ranking filled batch by batch (the histograms of the batches added)."""

    def __init__(self, binning: Binning, positive: str) -> None:
        self.total = ScoreHistogram.empty(binning, positive=positive)

    def add(self, is_positive: np.ndarray, scores: np.ndarray) -> None:
        self.total = self.total + ScoreHistogram.of(self.total.binning, is_positive, scores,
                                                    positive=self.total.positive)

    @property
    def n(self) -> int:
        return self.total.n

    @property
    def n_positive(self) -> int:
        return self.total.n_positive

    def close(self) -> None:
        pass


def report_scored_batches(batches: Iterable[Any], *, score: str | None = None, prefix: str | None = None,
                          labels: Sequence[str] | None = None, positive: Any = None, memory: Any = DEFAULT_MEMORY,
                          binning: Binning | None = None, order: Sequence[Any] | None = None,
                          multilabel: bool = False, sep: str = "|", show_errors: int = 0, tmpdir: str | None = None,
                          source: str = "the gold labels", **settings: Any) -> Report:
    """The report of every batch with its ``ranking`` section, in bounded memory.

    Parameters
    ----------
    batches : iterable of PredictionBatch
        Gold, predictions, and the score columns in ``extra``.
    score : str, optional
        The one score column (needs ``positive``; single-label data).
    prefix, labels : str, sequence of str
        One-vs-rest: the columns ``prefix + label`` for every label of ``labels``.
    memory : int or str
        The budget of the ranking stores (:func:`clfeval.scores._external.parse_memory`).
    binning : Binning, optional
        The binned mode (with ``score``): the ranking is a histogram over these bins.
    **settings
        ``beta``, ``zero_division``, ``train_labels``, ``ci``, ``samples``, ``seed`` as
        :func:`clfeval.evaluate._reports.report` (``ci`` intervals of the count metrics only).
    """
    if (score is None) == (prefix is None):
        raise UsageError("give score (one score column) or prefix (one score column per label), exactly one.")
    if score is not None and positive is None:
        raise UsageError("a ranking of one score column needs positive: the class the scores rank.")
    if score is not None and multilabel:
        raise UsageError("multi-label data needs one score column per label to be ranked.")
    if binning is not None and score is None:
        raise UsageError(lambda name: f"option {name} (binned scores) ranks one score column with a positive "
                                      f"class; one-vs-rest rankings of several columns are exact only.",
                         params=["score_bins"])
    store: Any
    if score is not None:
        pos = label_str(positive)
        store = _Histogram(binning, pos) if binning is not None else RankingStore(pos, memory=memory, tmpdir=tmpdir)

        def feed(b: Any) -> None:
            store.add(batch_is_positive(b.gold, positive), as_scores(b.extra[score], name=score, n=b.n, where=b.where,
                                                                      order_only=binning is None))
    else:
        labs = list(labels or [])
        store = OvRStore(labs, memory=memory, multilabel=multilabel, tmpdir=tmpdir)

        def feed(b: Any) -> None:
            cols = {lab: b.extra[f"{prefix}{lab}"] for lab in labs}
            s, _ = score_matrix(cols, labels=labs, n=b.n, where=b.where, prefix=prefix or "")
            store.add_gold(b.gold, s, sep=sep, prefix=prefix or "")
    try:
        table, errors = count_batches(_feeding(batches, feed), order=order, multilabel=multilabel, sep=sep,
                                      show_errors=show_errors)
        if score is not None:
            rk = binary_summary(store, positive, source=source)
            section = (rk.total if binning is not None else rk).to_dict()
        else:
            section = store.result().to_dict()
            sp = store.space
            section["external"] = {"memory": sp.memory, "spilled": sp.spilled, "runs": sp.runs_written}
    finally:
        store.close()
    rep = finish_report(table, errors, positive=positive, sep=sep, order=order is not None, **settings)
    return dataclasses.replace(rep, ranking=RankingPart.of(section))
