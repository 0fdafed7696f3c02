"""Paired tests on any number of items: the joint (gold, A, B) tables counted from a stream.

The count-based tests of :mod:`clfeval.significance._paired` — the paired
bootstrap and approximate randomization over the cells of the joint table,
McNemar's test on its discordant cells — need nothing of the items but the
joint (gold, A, B) table, and joint tables add. :func:`compare_stream` counts
them batch by batch (:class:`clfeval.core._counting.JointCounter`: one
vocabulary, every pair of systems, dense or sparse by the number of classes)
from matched batches (:func:`clfeval.io._join.aligned`), then runs the same
test on the tables: the same numbers as :func:`~clfeval.significance._paired.compare`
on the items in memory, for the same seed. The result says that its tables
were streamed (a note, and the ``engine`` of its signature). Score metrics
(ROC-AUC, average precision) still rank the items in memory.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from clfeval.core import JointCounter, JointTables
from clfeval.errors import DataError, UsageError
from clfeval.ops.compare import Compared
from clfeval.significance._paired import compare, compare_many

__all__ = ["compare_stream", "JointCounts"]


def compare_stream(batches: Iterable[Any], names: Sequence[str], *, baseline: str | None = None,
                   describe: str | Callable[[], str] = "", **settings: Any) -> Compared:
    """Compare systems on matched batches (each with ``gold``, ``preds`` and ``text``), counting only tables.

    Parameters
    ----------
    batches : iterable
        Matched batches: gold labels and each system's predictions, item for item
        (:class:`clfeval.io._join.Aligned`); a batch with ``counts`` is joint cells, each that many items.
    names : sequence of str
        The systems, in the order of ``preds``.
    baseline : str, optional
        With two systems: the one that is B; with more: each other system is compared with it.
    describe : str or callable
        How the tables were counted (called after the last batch), for the note and the signature.
    **settings
        ``metric``, ``test``, ``samples``, ``seed``, ``alpha``, ``ci``, ``zero_division``, ``beta``,
        ``progress`` as in :func:`~clfeval.significance._paired.compare` (a count metric).

    Examples
    --------
    >>> from types import SimpleNamespace as B
    >>> parts = [B(gold=["y"] * 5, preds=[["y"] * 4 + ["n"], ["y"] * 2 + ["n"] * 3], text=False)] * 2
    >>> r = compare_stream(parts, ["a", "b"], test="mcnemar", samples=100)
    >>> r.a, r.b, r.details.n_ab
    (0.8, 0.4, 4)
    """
    metric = settings.get("metric", "accuracy")
    if callable(metric) or not isinstance(metric, str):
        raise UsageError("a streamed comparison takes a count metric by name (items are not kept).")
    acc = JointCounts(names, baseline=baseline)
    for batch in batches:
        acc.update(batch)
    return acc.finish(describe() if callable(describe) else describe, **settings)


class JointCounts:
    """``compare``'s accumulator: the joint (gold, A, B) table of every compared pair of systems, counted from
    matched batches (``update``), added (``+``: any split of the items, merged in any order, gives the tables of
    the whole), and tested (``finish``). It holds counts only.

    Parameters
    ----------
    names : sequence of str
        The systems, in the order of each batch's ``preds``.
    baseline : str, optional
        With two systems: the one that is B; with more: each other system is compared with it.

    Examples
    --------
    >>> from types import SimpleNamespace as B
    >>> one = JointCounts(["a", "b"]); one.update(B(gold=["y", "n"], preds=[["y", "y"], ["n", "n"]], text=False))
    >>> two = JointCounts(["a", "b"]); two.update(B(gold=["y"], preds=[["n"], ["y"]], text=False))
    >>> (one + two).n
    3
    """

    def __init__(self, names: Sequence[str], *, baseline: str | None = None) -> None:
        names = [str(n) for n in names]
        if baseline is not None and baseline not in names:
            raise UsageError(f"the baseline {baseline!r} is not one of the systems: {', '.join(names)}.")
        s = len(names)
        if s < 2:
            raise UsageError(f"comparing needs at least two systems; got {s}.")
        if s == 2:
            pairs = [(0, 1)]
        elif baseline is not None:
            b = names.index(baseline)
            pairs = [(i, b) for i in range(s) if i != b]
        else:
            pairs = [(i, j) for i in range(s) for j in range(i + 1, s)]
        self.names, self.baseline = names, baseline
        self.counter = JointCounter(names, pairs)

    def update(self, batch: Any) -> None:
        """Count one matched batch: ``gold``, ``preds`` (one per system), ``text`` (labels compared as text) and
        optionally ``counts`` (how many items each row stands for)."""
        self.counter.update(batch.gold, batch.preds, text=batch.text, weights=getattr(batch, "counts", None))

    def __add__(self, other: JointCounts) -> JointCounts:
        out = copy.deepcopy(self)
        out.counter.merge(other.counter)
        return out

    @property
    def n(self) -> int:
        """The items counted."""
        return self.counter.n

    def finish(self, describe: str = "", **settings: Any) -> Compared:
        """The test on the tables (``settings``: ``metric``, ``test``, ``samples``, ``seed``, ``alpha``, ``ci``,
        ``zero_division``, ``beta``, ``progress``, ... as :func:`~clfeval.significance._paired.compare` takes them
        with a count metric); ``describe``: how the tables were counted, for the signature."""
        metric = settings.get("metric", "accuracy")
        if callable(metric) or not isinstance(metric, str):
            raise UsageError("a streamed comparison takes a count metric by name (items are not kept).")
        if self.counter.n == 0:
            raise DataError("there are no items to compare.")
        names, baseline = self.names, self.baseline
        tables = self.counter.tables(describe=describe)
        result: Compared
        if len(names) == 2:
            x, y = (names[1], names[0]) if baseline == names[0] else (names[0], names[1])
            one = JointTables([x, y], tables.labels, {(0, 1): tables.pair(x, y)}, tables.n, describe)
            result = compare(one, None, None, names=(x, y), **settings)
        else:
            result = compare_many(tables, {n: None for n in names}, baseline=baseline, **settings)
        # no note: streaming changes no number, and the signature says how the tables were counted
        return result
