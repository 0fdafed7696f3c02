"""A report counted batch by batch: any number of rows, memory bounded by the table and one batch.

:func:`report_batches` takes the checked batches of a PATH
(:func:`clfeval.io._predictions.iter_predictions`; any iterable of
:class:`~clfeval.io._predictions.PredictionBatch`) and counts them into one
table with :class:`clfeval.core._counting.Counter` (single-label; label sets
that differ between batches or files align as tables add; dense or sparse by
the number of classes) or :class:`clfeval.core._tables.MultilabelAccumulator`
(label sets), keeping the first misclassified items for ``show_errors``; the
report is then :func:`clfeval.evaluate._reports.report_from_table` of that table —
the same numbers as :func:`clfeval.evaluate._reports.report` of all items at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from clfeval.core import Counter, MultilabelTable, encode_multilabel, label_str, resolve_requested
from clfeval.errors import DataError, LabelListError, UsageError
from clfeval.evaluate._reports import Report, report_from_table

__all__ = ["ReportCounts", "report_batches", "count_batches", "finish_report"]


class _Errors:
    """The first ``limit`` misclassified items in input order, and how many there are."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self.items: list[dict[str, Any]] = []
        self.seen = 0
        self.by_row = False  # items without ids are named by their row

    def add(self, wrong: np.ndarray, ids: Any, show: Any) -> None:
        pos = np.flatnonzero(wrong)
        self.total += int(pos.size)
        room = self.limit - len(self.items)
        if room > 0 and pos.size:
            take = pos[:room]
            self.by_row = self.by_row or ids is None
            id_values = ids.take(take).to_pylist() if ids is not None else (take + self.seen).tolist()
            for i, item_id in zip(take.tolist(), id_values, strict=False):
                gold, pred = show(i)
                self.items.append({"id": item_id if isinstance(item_id, (int, str)) else str(item_id),
                                   "gold": gold, "pred": pred})

    def result(self) -> dict[str, Any]:
        return {"total": self.total, "shown": len(self.items), "items": self.items}

    def merged(self, other: _Errors) -> _Errors:
        """``self``'s items, then ``other``'s (rows without ids counted on from ``self``'s), up to the limit."""
        out = _Errors(self.limit)
        out.total, out.seen = self.total + other.total, self.seen + other.seen
        later = [dict(e, id=e["id"] + self.seen) if other.by_row else e for e in other.items]
        out.items = (self.items + later)[:self.limit]
        out.by_row = self.by_row or other.by_row
        return out


class ReportCounts:
    """The counting state of a report, an accumulator: :meth:`update` counts one batch, ``a + b`` merges two
    (their tables add; ``a``'s misclassified items come before ``b``'s, as in input order), :meth:`table` is the
    counted table and :meth:`finish` the report.

    It holds counting state only: one confusion table (counted by :class:`clfeval.core.Counter` over a growing
    vocabulary; single-label) or multi-label table, and the first ``show_errors`` misclassified items. It is
    picklable, so an engine may map it over partitions and add the results in a tree: the local stream updates
    one, a cluster adds one per group of partitions; either way the table is the table of every item.

    Each batch needs ``gold``, ``pred``, ``ids`` (or None), ``text`` (labels compared as text) and ``n``; a batch
    with a ``part`` (where its rows are) names its file and rows when its labels cannot be counted with the others.
    """

    def __init__(self, *, multilabel: bool = False, sep: str = "|", show_errors: int = 0,
                 order: Sequence[Any] | None = None) -> None:
        if multilabel and order is not None:
            raise UsageError("option order (ordinal classes) applies to single-label data, not to multi-label data.")
        self.multilabel, self.sep, self.order = multilabel, sep, None if order is None else list(order)
        self.errors = _Errors(show_errors) if show_errors else None
        self.counter: Counter | None = None if multilabel else Counter(2)
        self.tables: Any = None  # the label-set table, or the tables of merged accumulators (added)
        self.items = 0

    def update(self, b: Any) -> None:
        errors = self.errors
        self.items += int(b.n)
        if self.multilabel:
            enc = encode_multilabel(b.gold, b.pred, sep=self.sep)
            part = MultilabelTable.from_indicators(enc.gold, enc.pred, enc.labels)
            self.tables = part if self.tables is None else self.tables + part
            if errors is not None:
                labs = [label_str(x) for x in enc.labels]
                errors.add(np.any(enc.gold != enc.pred, axis=1), b.ids,
                           lambda i, _e=enc, _l=labs: ([_l[j] for j in np.flatnonzero(_e.gold[i])],
                                                       [_l[j] for j in np.flatnonzero(_e.pred[i])]))
                errors.seen += b.n
            return
        counter = self.counter
        if counter is None:  # merged before: count on into a new counter
            counter = self.counter = Counter(2)
        try:
            got = counter.update([b.gold, b.pred], text=b.text, codes=errors is not None)
        except DataError as exc:
            where = getattr(b, "part", None)
            if where is None:
                raise
            raise DataError(f"file {where.source.name!r}, rows {where.start + 1} to {where.start + b.n}: "
                            f"{exc}") from None
        if errors is not None:
            g, p = got
            values = counter.vocab.values
            errors.add(g != p, b.ids, lambda i, _g=g, _p=p, _v=values: (label_str(_v[_g[i]]), label_str(_v[_p[i]])))
            errors.seen += b.n

    def _settled(self) -> Any:
        """Everything counted as one table (None when nothing was): the counter's table added to the merged ones."""
        if self.counter is None or self.counter.n == 0:
            return self.tables
        own = self.counter.table()
        return own if self.tables is None else self.tables + own

    def __add__(self, other: ReportCounts) -> ReportCounts:
        out = ReportCounts(multilabel=self.multilabel, sep=self.sep, order=self.order)
        out.counter = None
        a, b = self._settled(), other._settled()
        out.tables = a if b is None else b if a is None else a + b
        out.items = self.items + other.items
        if self.errors is not None and other.errors is not None:
            out.errors = self.errors.merged(other.errors)
        return out

    def __getstate__(self) -> dict[str, Any]:
        """A counter travels as its table (to another process, or a cluster's worker)."""
        state = dict(self.__dict__)
        state["tables"], state["counter"] = self._settled(), None
        return state

    def table(self) -> Any:
        """The counted table, its labels in ``order`` when given (every label of the data must be in it:
        :class:`~clfeval.errors.LabelListError` naming ``order`` otherwise)."""
        order = self.order
        if self.multilabel:
            if self.tables is None:
                raise DataError("there are no items to report on.")
            return self.tables
        if self.items == 0:
            raise DataError("there are no items to report on.")
        try:
            if self.tables is None and self.counter is not None:  # one stream: the counter orders its own labels
                return self.counter.table(labels=order)
            table = self._settled()
            if order is None:
                return table
            text = all(isinstance(x, str) for x in table.labels)
            requested = [label_str(x) for x in order] if text else list(order)
            labels, _ = resolve_requested(requested, table.labels, np.ones(len(table.labels), dtype=bool))
            return table.relabel(list(labels))
        except LabelListError as exc:
            if order is None:
                raise
            raise LabelListError(exc.missing, parameter="order") from None

    def finish(self, **settings: Any) -> Report:
        """The report of everything counted (``settings`` as :func:`~clfeval.evaluate._reports.report_from_table`)."""
        table = self.table()
        return finish_report(table, self.errors.result() if self.errors is not None else None,
                             order=self.order is not None, **settings)


def count_batches(batches: Iterable[Any], *, order: Sequence[Any] | None = None, multilabel: bool = False,
                  sep: str = "|", show_errors: int = 0) -> tuple[Any, dict[str, Any] | None]:
    """Every batch counted into one table (and the first ``show_errors`` misclassified items): one
    :class:`ReportCounts` updated with each batch. ``order``: the output labels in this order (every label of the
    data must be in it: :class:`~clfeval.errors.LabelListError` otherwise)."""
    acc = ReportCounts(multilabel=multilabel, sep=sep, show_errors=show_errors, order=order)
    for b in batches:
        acc.update(b)
    return acc.table(), acc.errors.result() if acc.errors is not None else None


def report_batches(batches: Iterable[Any], *, positive: Any = None, beta: float = 1.0, zero_division: Any = 0,
                   order: Sequence[Any] | None = None, multilabel: bool = False, sep: str = "|",
                   train_labels: Any = None, show_errors: int = 0, ci: float | None = None, samples: int = 10_000,
                   seed: Any = 0, ci_method: Any = "auto") -> Report:
    """The report of every batch together (see the module docstring and :func:`count_batches`; parameters
    as :func:`clfeval.evaluate._reports.report`).

    >>> from types import SimpleNamespace as B
    >>> parts = [B(gold=["a", "b"], pred=["a", "a"], ids=None, text=False, n=2),
    ...          B(gold=["c"], pred=["c"], ids=None, text=False, n=1)]
    >>> r = report_batches(parts, show_errors=5)
    >>> r.labels, r.accuracy, [e.to_dict() for e in r.errors.items]
    (['a', 'b', 'c'], 0.6666666666666666, [{'id': 1, 'gold': 'b', 'pred': 'a'}])
    """
    table, errors = count_batches(batches, order=order, multilabel=multilabel, sep=sep, show_errors=show_errors)
    return finish_report(table, errors, positive=positive, beta=beta, zero_division=zero_division,
                         order=order is not None, train_labels=train_labels, sep=sep, ci=ci, samples=samples,
                         seed=seed, ci_method=ci_method)


def finish_report(table: Any, errors: dict[str, Any] | None, **settings: Any) -> Report:
    """:func:`~clfeval.evaluate._reports.report_from_table` of a counted table, with its misclassified items."""
    rep = report_from_table(table, **settings)
    from clfeval.ops.report import Misclassified

    return dataclasses.replace(rep, errors=Misclassified.of(errors)) if errors is not None else rep
