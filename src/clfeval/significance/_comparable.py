"""Which metrics a paired test can compare: names from the catalogue, checked before any data is read.

:func:`check_metric` refuses an unknown name (listing the valid ones), a
metric without a better direction, one of probabilities or of label sets;
:data:`TRACE_METRICS` are the count metrics that depend on the number of
correct items only (McNemar applies), :data:`SCORE_METRICS` those of a
ranking (compared by index resampling, or DeLong's test for ROC-AUC).
"""

from __future__ import annotations

from typing import Any

from clfeval.core import catalog
from clfeval.errors import UsageError

__all__ = ["TRACE_METRICS", "SCORE_METRICS", "metric_label", "check_metric", "comparable_names"]

#: Count metrics that depend on the number of correct items only (micro-P = micro-R = micro-F1 = accuracy on
#: single-label data): their joint table collapses to four cells. Read off the catalogue (``trace_only``).
TRACE_METRICS = frozenset(m.key for m in catalog.METRICS if m.trace_only)

#: Named metrics of *scores* (item-level, compared by index resampling): the catalogue's ranking entries, each
#: computed from a :class:`clfeval.core.RankingSummary` (name → definition).
SCORE_METRICS: dict[str, str] = {m.key: m.definition for m in catalog.METRICS if m.input == "ranking"}


def metric_label(name: str) -> str:
    """How a metric is named in prose (the catalogue's title): ``macro_f1`` → ``macro-F1``.

    >>> metric_label("macro_f1"), metric_label("error_rate"), metric_label("f1:spam")
    ('macro-F1', 'error rate', "F1 of class 'spam'")
    """
    return catalog.label(name)


def _comparable(m: catalog.Metric) -> bool:
    """A catalogue metric ``compare`` can test: of single-label count tables or of a ranking, with a direction."""
    single = m.input == "counts" and any(t in m.tasks for t in ("binary", "multiclass"))
    return (single or m.input == "ranking") and m.direction != "none"


def comparable_names() -> list[str]:
    """The catalogue names a paired test can compare."""
    return [m.key for m in catalog.METRICS if _comparable(m)]


def _valid_metric_text() -> str:
    return (", ".join(comparable_names())
            + ", or a callable metric(gold, pred) -> float")


def check_metric(metric: Any) -> None:
    """Refuse an unknown metric before any data is read (the message lists the valid ones).

    >>> check_metric("macro_f1"); check_metric("f1:spam")
    >>> check_metric("acuracy")
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: unknown metric 'acuracy'; valid metrics are: accuracy, error_rate, ...
    """
    if callable(metric):
        return
    if not isinstance(metric, str):
        raise UsageError(f"option metric must be a metric name or a callable; got {metric!r}. Valid metrics: "
                         f"{_valid_metric_text()}.")
    found = catalog.find(metric)
    if found is None:
        raise UsageError(f"unknown metric {metric!r}; valid metrics are: {_valid_metric_text()}.")
    m = found[0]
    if not _comparable(m):
        why = ("is computed from predicted probabilities (calibration), not from labels or a ranking"
               if m.input == "probabilities" else
               "has no better direction (it describes the data or a bias), so 'A better than B' means nothing"
               if m.direction == "none" else "applies to multi-label data; compare takes single-label predictions")
        raise UsageError(f"metric {metric!r} {why}. Valid metrics are: {_valid_metric_text()}.")
