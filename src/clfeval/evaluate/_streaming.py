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

from clfeval.core import Counter, MultilabelTable, encode_multilabel, label_str
from clfeval.errors import DataError, LabelListError, UsageError
from clfeval.evaluate._reports import Report, report_from_table

__all__ = ["report_batches", "count_batches", "finish_report"]


class _Errors:
    """The first ``limit`` misclassified items in input order, and how many there are."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self.items: list[dict[str, Any]] = []
        self.seen = 0

    def add(self, wrong: np.ndarray, ids: Any, show: Any) -> None:
        pos = np.flatnonzero(wrong)
        self.total += int(pos.size)
        room = self.limit - len(self.items)
        if room > 0 and pos.size:
            take = pos[:room]
            id_values = ids.take(take).to_pylist() if ids is not None else (take + self.seen).tolist()
            for i, item_id in zip(take.tolist(), id_values, strict=False):
                gold, pred = show(i)
                self.items.append({"id": item_id if isinstance(item_id, (int, str)) else str(item_id),
                                   "gold": gold, "pred": pred})

    def result(self) -> dict[str, Any]:
        return {"total": self.total, "shown": len(self.items), "items": self.items}


def count_batches(batches: Iterable[Any], *, order: Sequence[Any] | None = None, multilabel: bool = False,
                  sep: str = "|", show_errors: int = 0) -> tuple[Any, dict[str, Any] | None]:
    """Every batch counted into one table (and the first ``show_errors`` misclassified items).

    Each batch needs ``gold``, ``pred``, ``ids`` (or None), ``text`` (labels
    compared as text) and ``n``; a batch with a ``part`` (where its rows are)
    names its file and rows when its labels cannot be counted with the others.
    ``order``: the output labels in this order (every label of the data must
    be in it: :class:`~clfeval.errors.LabelListError` otherwise).
    """
    errors = _Errors(show_errors) if show_errors else None
    if multilabel:
        if order is not None:
            raise UsageError("option order (ordinal classes) applies to single-label data, not to multi-label data.")
        table: Any = None
        for b in batches:
            enc = encode_multilabel(b.gold, b.pred, sep=sep)
            part = MultilabelTable.from_indicators(enc.gold, enc.pred, enc.labels)
            table = part if table is None else table + part
            if errors is not None:
                labs = [label_str(x) for x in enc.labels]
                errors.add(np.any(enc.gold != enc.pred, axis=1), b.ids,
                           lambda i, _e=enc, _l=labs: ([_l[j] for j in np.flatnonzero(_e.gold[i])],
                                                       [_l[j] for j in np.flatnonzero(_e.pred[i])]))
                errors.seen += b.n
        if table is None:
            raise DataError("there are no items to report on.")
        return table, errors.result() if errors is not None else None
    counter = Counter(2)
    for b in batches:
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
    if counter.n == 0:
        raise DataError("there are no items to report on.")
    try:
        table = counter.table(labels=order)
    except LabelListError as exc:
        if order is None:
            raise
        raise LabelListError(exc.missing, parameter="order") from None
    return table, errors.result() if errors is not None else None


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
