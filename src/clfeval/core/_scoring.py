"""Count metrics of tables, computed by iterating the metric catalogue.

:func:`leaves` evaluates every count entry of :mod:`clfeval.core._catalog` that
applies to a table (single-label or multi-label; with an ordinal scale; with
a positive class; with β ≠ 1) and places its values at the entry's paths of
the report's JSON. It works on stacks of tables: one table gives the
report's numbers (:func:`score`, and :func:`score_table`,
:func:`score_binary`, :func:`score_multilabel` for the usual cases), a
stack of bootstrap replicates gives their intervals
(:mod:`clfeval.evaluate._intervals`). Because both go through the same entries, a
metric and its interval cannot disagree.

:func:`scalar_metric` gives one named metric as a function of confusion
tables — what ``compare`` resamples and the protocol runner evaluates per
fold.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.core import _catalog as catalog
from clfeval.core._catalog import SINGLE_LABEL, Metric, Place
from clfeval.core._labels import label_str, resolve_label
from clfeval.core._metrics import TableStats, one_vs_rest_tables, pooled
from clfeval.errors import UsageError

__all__ = ["Evaluation", "Leaf", "leaves", "score", "score_table", "score_binary", "score_multilabel",
           "ScalarMetric", "scalar_metric", "metric_values", "stats_of"]

#: One metric value (or stack of values) at one JSON path: (entry, path, values, undefined).
Leaf = tuple[Metric, tuple[str, ...], np.ndarray, np.ndarray]


class Evaluation:
    """Count metrics of one stack of tables, each catalogue entry computed at most once.

    ``evaluation(key)`` returns ``(values, undefined)`` of the catalogue entry
    ``key`` (``precision:LABEL`` → per-label values (..., K)); entries built
    on others (averages, markedness, ...) ask for them through the same call.

    >>> e = Evaluation(TableStats.of_matrix(np.array([[9, 1], [3, 7]])))
    >>> round(float(e("macro_f1")[0]), 4), e("f1:LABEL")[0].round(4).tolist()
    (0.798, [0.8182, 0.7778])
    """

    def __init__(self, stats: TableStats, zero_division: float = 0.0, beta: float = 1.0) -> None:
        self.stats = stats
        self.zd = float(zero_division)
        self.beta = float(beta)
        self._memo: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._pooled: Any = None
        self._ovr: Any = None

    @property
    def c(self) -> Any:
        """Per-class counts (..., K)."""
        return self.stats.classes

    @property
    def pooled(self) -> Any:
        """Counts summed over classes (the micro table)."""
        if self._pooled is None:
            self._pooled = pooled(self.stats.classes)
        return self._pooled

    @property
    def ovr(self) -> np.ndarray:
        """Each class against all others as a 2×2 table, (..., K, 2, 2)."""
        if self._ovr is None:
            self._ovr = one_vs_rest_tables(self.stats.classes)
        ret: np.ndarray = self._ovr
        return ret

    @property
    def matrix(self) -> np.ndarray:
        """The K×K tables, for the metrics that need them."""
        if self.stats.matrix is None:
            raise UsageError("this metric needs the K×K confusion table of single-label data; a multi-label table "
                             "has none.")
        return self.stats.matrix

    def __call__(self, key: str) -> tuple[np.ndarray, np.ndarray]:
        got = self._memo.get(key)
        if got is None:
            got = catalog.by_key(key).compute(self)
            self._memo[key] = got
        return got

    def infinite(self, key: str) -> np.ndarray:
        """Where an entry's value is infinite (x/0 with x > 0): undefined, and NaN even under policy 0."""
        v, u = self(key)
        if catalog.by_key(key).infinite is None or not np.asarray(u).any():
            return np.zeros(np.shape(u), dtype=bool)
        if math.isnan(self.zd):
            v = Evaluation(self.stats, 0.0, self.beta)(key)[0]
        ret: np.ndarray = u & np.isnan(v)
        return ret


# --- which entries and places a table has ---------------------------------------------

def _applies(m: Metric, multilabel: bool, order: bool, beta: float) -> bool:
    if m.input != "counts" or (m.uses_beta and beta == 1.0):
        return False
    if multilabel:
        return "multilabel" in m.tasks
    if m.tasks == ("ordinal",):
        return order
    return any(t in m.tasks for t in ("binary", "multiclass"))


def _place_applies(p: Place, multilabel: bool, positive: int | None) -> bool:
    if p.result != "report" or p.path.startswith("ranking."):
        return False
    if p.tasks is not None and not (
            ("multilabel" in p.tasks) if multilabel else any(t in SINGLE_LABEL for t in p.tasks)):
        return False
    return positive is not None or not p.path.startswith("binary.")


def _entries(multilabel: bool, order: bool, beta: float,
             positive: int | None) -> list[tuple[Metric, list[tuple[str, ...]]]]:
    """The count entries a table of this kind has, each with its JSON paths (the same for every such table)."""
    return _entries_of(multilabel, order, beta != 1.0, positive is not None)


@functools.cache
def _entries_of(multilabel: bool, order: bool, with_beta: bool,
                with_positive: bool) -> list[tuple[Metric, list[tuple[str, ...]]]]:
    out = []
    for m in catalog.METRICS:
        if _applies(m, multilabel, order, 2.0 if with_beta else 1.0):
            paths = [tuple(p.path.split(".")) for p in m.where
                     if _place_applies(p, multilabel, 0 if with_positive else None)]
            if paths:
                out.append((m, paths))
    return out


def leaves(stats: TableStats, labels: Sequence[str], *, zero_division: float = 0.0, beta: float = 1.0,
           order: bool = False, positive: int | None = None, infinity: bool = False,
           evaluation: Evaluation | None = None) -> list[Leaf]:
    """Every count metric of a report over a stack of tables, at its JSON path, in catalogue order.

    Parameters
    ----------
    stats : TableStats
        One table or a stack (..., K).
    labels : sequence of str
        Label names in table order (the ``LABEL`` of per-label paths).
    order : bool
        The table order is an ordinal scale: the ordinal entries too.
    positive : int, optional
        Index of the positive class: the ``binary`` block too.
    infinity : bool
        Infinite values (x/0, x > 0) as ``+inf`` instead of NaN (for
        resampling, where an infinite replicate is larger than every other).

    Returns
    -------
    list of (entry, path, values, undefined)
        ``values`` of shape (...,) — the stack's leading shape.
    """
    e = evaluation if evaluation is not None else Evaluation(stats, zero_division, beta)
    out: list[Leaf] = []
    for m, path, v, u in _vector_leaves(e, order, positive, infinity):
        if "LABEL" in path:
            i = path.index("LABEL")
            for k, lab in enumerate(labels):
                out.append((m, path[:i] + (lab,) + path[i + 1:], v[..., k], u[..., k]))
        elif m.per_label:
            out.append((m, path, v[..., positive], u[..., positive]))
        else:
            out.append((m, path, v, u))
    return out


def _vector_leaves(e: Evaluation, order: bool, positive: int | None, infinity: bool) -> Any:
    """(entry, path, values, undefined) with per-label paths unexpanded (``LABEL`` in the path, values (..., K))."""
    for m, paths in _entries(e.stats.multilabel, order, e.beta, positive):
        v, u = e(m.key)
        if infinity and m.infinite is not None:
            v = np.where(e.infinite(m.key), math.inf, v)
        for path in paths:
            yield m, path, v, u


# --- one table → the report's numbers ------------------------------------------------

_SECTION_ORDER = {False: ("top", "macro", "weighted", "micro", "ordinal"), True: ("macro", "weighted", "micro", "top")}
_INFINITE = "infinite: x/0 with x > 0 ({}), reported as undefined whatever zero_division"


def _undefined(e: Evaluation, labels: list[str], order: bool, positive: int | None) -> list[dict[str, Any]]:
    """The metrics and labels whose value was undefined, in the order the report lists them."""
    per_label: list[dict[str, Any]] = []
    sections: dict[str, list[dict[str, Any]]] = {}
    for m, paths in _entries(e.stats.multilabel, order, e.beta, positive):
        if m.undefined_items is not None:
            items = int(m.undefined_items(e.stats))
            if items:
                sections.setdefault("top", []).append({"metric": m.name, "items": items,
                                                       "reason": "items with empty gold and predicted sets (0/0)"})
            continue
        if not m.listed:
            continue
        u = np.asarray(e(m.key)[1])
        if not u.any():
            continue
        inf = e.infinite(m.key)
        for path in paths:
            if m.per_label and path[0] != "per_class":
                continue  # the binary block repeats per_class
            name = m.name if m.per_label else ".".join(path)
            target = per_label if m.per_label else sections.setdefault(path[0] if len(path) > 1 else "top", [])
            for mask, extra in ((u & ~inf, {}), (inf, {"reason": _INFINITE.format(m.infinite), "infinite": True})):
                if not np.any(mask):
                    continue
                entry: dict[str, Any] = {"metric": name}
                if mask.ndim:
                    entry["labels"] = [labels[i] for i in np.flatnonzero(mask)]
                target.append({**entry, **extra})
    out = per_label
    for s in _SECTION_ORDER[e.stats.multilabel]:
        out.extend(sections.get(s, []))
    return out


def score(stats: TableStats, labels: Sequence[Any], *, beta: float = 1.0, zero_division: float = 0.0,
          order: bool = False, positive: int | None = None, track_undefined: bool = True) -> dict[str, Any]:
    """Every count metric of one table as plain data, nested like the report's JSON.

    ``per_class`` (counts, then every per-label metric), the overall
    numbers, ``macro`` / ``micro`` / ``weighted``, ``binary`` (with
    ``positive``), ``ordinal`` (with ``order``) and ``undefined``.
    """
    labs = [label_str(x) for x in labels]
    c = stats.classes
    e = Evaluation(stats, zero_division, beta)
    counts = [np.asarray(x).tolist() for x in (c.tp, c.fp, c.fn, c.tn, c.support)]
    out: dict[str, Any] = {"per_class": {lab: dict(zip(("tp", "fp", "fn", "tn", "support"), row, strict=True))
                                         for lab, row in zip(labs, zip(*counts, strict=True), strict=True)}}
    if positive is not None:
        out["binary"] = {"positive": labs[positive], "tp": c.tp[positive].item(), "fp": c.fp[positive].item(),
                         "fn": c.fn[positive].item(), "tn": c.tn[positive].item()}
    if order:
        out["ordinal"] = {"order": labs}
    for m, path, v, _ in _vector_leaves(e, order, positive, False):
        node = out
        if "LABEL" in path:  # one value per label: the list once, then one dictionary entry per label
            i = path.index("LABEL")
            for key in path[:i]:
                node = node.setdefault(key, {})
            head, last = path[i + 1:-1], path[-1]
            for lab, x in zip(labs, np.asarray(v, dtype=np.float64).tolist(), strict=True):
                target = node.setdefault(lab, {})
                for key in head:
                    target = target.setdefault(key, {})
                target[last] = x
            continue
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = float(v[..., positive] if m.per_label else v)
    if order:
        out["ordinal"] = out.pop("ordinal")  # after the averages, as the report shows it
    out["undefined"] = _undefined(e, labs, order, positive) if track_undefined else []
    return out


def score_table(cm: np.ndarray, labels: Sequence[Any], *, beta: float = 1.0, zero_division: float = 0.0,
                order: bool = False, track_undefined: bool = True) -> dict[str, Any]:
    """Every count-based metric of one K×K confusion table, as plain data.

    Parameters
    ----------
    cm : array (K, K)
        Counts (or expected counts), rows = gold, columns = predicted.
    labels : sequence
        Class labels in table order.
    beta : float
        Adds F-beta (key ``fbeta``) beside F1 when not 1.
    zero_division : float
        0.0, 1.0 or nan: the value of a 0/0 ratio (see :mod:`clfeval.core._metrics`).
    order : bool
        The table order is an ordinal scale: add MAE and weighted kappas.

    Returns
    -------
    dict
        ``per_class``, ``accuracy``, ``error_rate``, ``balanced_accuracy``,
        ``mcc``, ``kappa``, ``macro``, ``micro``, ``weighted``, ``undefined``
        (and ``ordinal`` when ``order``).

    >>> s = score_table(np.array([[5, 1], [2, 3]]), ["a", "b"])
    >>> round(s["accuracy"], 4), round(s["per_class"]["b"]["npv"], 4), s["undefined"]
    (0.7273, 0.7143, [])
    """
    return score(TableStats.of_matrix(cm), labels, beta=beta, zero_division=zero_division, order=order,
                 track_undefined=track_undefined)


def score_binary(cm: np.ndarray, labels: Sequence[Any], positive_index: int, *, beta: float = 1.0,
                 zero_division: float = 0.0) -> dict[str, Any]:
    """The binary summary of one class against all others (the ``binary`` block of a report)."""
    binary: dict[str, Any] = score(TableStats.of_matrix(cm), labels, beta=beta, zero_division=zero_division,
                                   positive=positive_index, track_undefined=False)["binary"]
    return binary


def score_multilabel(counts: np.ndarray, labels: Sequence[Any], *, n_items: int, exact: int, jaccard_sum: float,
                     jaccard_empty: int, beta: float = 1.0, zero_division: float = 0.0,
                     track_undefined: bool = True) -> dict[str, Any]:
    """Every count-based metric of a multi-label table (per-label binary tables + per-item sums).

    Per-label rows carry their own ``accuracy`` ((TP + TN) / N, as in the
    Reuters table); ``accuracy`` at the top is subset accuracy (exact set
    match), ``hamming_loss`` = (FP + FN) summed / (N·L), ``jaccard`` the mean
    over items of |G∩P| / |G∪P| (items with both sets empty are 0/0 and follow
    ``zero_division``; with ``nan`` they are left out of the mean).
    """
    stats = TableStats.of_multilabel(counts, n_items=n_items, exact=exact, jaccard_sum=jaccard_sum,
                                     jaccard_empty=jaccard_empty)
    return score(stats, labels, beta=beta, zero_division=zero_division, track_undefined=track_undefined)


# --- one named metric -------------------------------------------------------------------

@dataclass(frozen=True)
class ScalarMetric:
    """A named count metric of one class (or of the whole table), ready to evaluate.

    ``fn(cm, zero_division)`` maps confusion tables of shape (..., K, K)
    (single-label, labels in the order given to :func:`scalar_metric`) to
    values of shape (...); :meth:`of_stats` evaluates any
    :class:`~clfeval.core._metrics.TableStats` (multi-label tables too).
    """

    name: str
    description: str
    fn: Callable[[np.ndarray, float], np.ndarray]
    higher_is_better: bool = True
    metric: Metric | None = field(default=None, repr=False, compare=False)
    index: int | None = None
    beta: float = 1.0

    def __call__(self, cm: np.ndarray, zero_division: float = 0.0) -> np.ndarray:
        return self.fn(cm, zero_division)

    def of_stats(self, stats: TableStats, zero_division: float = 0.0) -> np.ndarray:
        """The values over a stack of tables of any kind."""
        if self.metric is None:
            raise UsageError(f"metric {self.name!r} is not a catalogue metric.")
        v = Evaluation(stats, zero_division, self.beta)(self.metric.key)[0]
        return v[..., self.index] if self.index is not None else v


def scalar_metric(name: str, labels: Sequence[Any] | None = None, *, beta: float = 1.0) -> ScalarMetric:
    """Look up a named count metric of confusion tables.

    Names follow the report's JSON paths joined by underscores: ``accuracy``,
    ``error_rate``, ``balanced_accuracy``, ``mcc``, ``kappa``, ``macro_f1``,
    ``macro_precision``, ``macro_recall``, ``macro_f1_of_means``, ``micro_f1``,
    ``weighted_f1``, …; ``f1:LABEL`` (also ``precision:``, ``recall:``,
    ``lr_plus:``, …) for one class, which needs ``labels``; ``macro_fbeta``
    etc. use ``beta``. See :data:`clfeval.core._catalog.METRICS` (or ``clfeval metrics``).

    >>> m = scalar_metric("macro_f1")
    >>> round(float(m(np.array([[9, 1], [3, 7]]))), 4)
    0.798
    >>> float(scalar_metric("f1:b", ["a", "b"])(np.array([[9, 1], [3, 7]])))
    0.7777777777777778
    """
    m, lab = catalog.parse(name)
    if m.input != "counts":
        raise UsageError(f"metric {name!r} is computed from {m.input}, not from a count table; count metrics are: "
                         f"{catalog.valid_names_text(input='counts')}.")
    index = None
    if lab is not None:
        if labels is None:
            raise UsageError(f"metric {name!r} names a class; the labels of the data are needed to resolve it.")
        index = resolve_label(lab, list(labels), option=f"metric {name}")
        description = f"{m.title} of class {label_str(list(labels)[index])}"
    else:
        description = m.title if not m.uses_beta else f"{m.title}, beta={beta:g}"

    def fn(cm: np.ndarray, zd: float, _key: str = m.key, _i: int | None = index) -> np.ndarray:
        v = Evaluation(TableStats.of_matrix(cm), zd, beta)(_key)[0]
        return v[..., _i] if _i is not None else v

    return ScalarMetric(name, f"{description}: {m.formula}", fn, m.direction != "lower", m, index, float(beta))


def metric_values(names: Sequence[str], stats: TableStats, labels: Sequence[Any], *, zero_division: float = 0.0,
                  beta: float = 1.0) -> dict[str, float]:
    """Named metrics of one table (each entry computed once); NaN for a label the table does not have.

    >>> t = TableStats.of_matrix(np.array([[9, 1], [3, 7]]))
    >>> metric_values(["accuracy", "f1:b", "f1:z"], t, ["a", "b"])
    {'accuracy': 0.8, 'f1:b': 0.7777777777777778, 'f1:z': nan}
    """
    e = Evaluation(stats, zero_division, beta)
    position = {label_str(x): i for i, x in enumerate(labels)}
    out = {}
    for name in names:
        m, lab = catalog.parse(name)
        v = e(m.key)[0]
        if lab is None:
            out[name] = float(v)
        else:
            out[name] = float(v[..., position[lab]]) if lab in position else math.nan
    return out


def stats_of(table: Any) -> TableStats:
    """The statistics of a :class:`~clfeval.core._tables.ConfusionTable` or
    :class:`~clfeval.core._tables.MultilabelTable`."""
    if hasattr(table, "jaccard_sum"):
        return TableStats.of_multilabel(table.counts, n_items=table.n_items, exact=table.exact,
                                        jaccard_sum=table.jaccard_sum, jaccard_empty=table.jaccard_empty)
    if hasattr(table, "rows"):  # a sparse table: its non-empty cells
        rows, cols, counts = table.cells()
        return TableStats.of_cells(rows, cols, counts, table.k)
    return TableStats.of_matrix(table.counts)
