"""Bootstrap confidence intervals for every count-table metric of one classifier.

For a confusion table with N items, drawing N items with replacement is
drawing the K×K cell counts from a multinomial over the non-empty cells; each
replicate is a new table, and every metric of the report is computed on the
whole stack of replicate tables at once, through the same catalogue entries
as the report itself (:func:`clfeval.core._scoring.leaves`), so a metric and its
interval cannot disagree. The cost is O(cells) per replicate, independent of N.

Multi-label data has no K×K table; its items are grouped by their (gold set,
predicted set) pattern instead, and the patterns' counts are drawn from a
multinomial the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import (
    MEMORY_BUDGET,
    TableStats,
    check_probability,
    check_rng,
    check_samples,
    check_zero_division,
    label_str,
    leaves,
)
from clfeval.errors import DataError, UsageError
from clfeval.evaluate._cimethods import check_method_labels, count_method, parse_ci_methods
from clfeval.stats import draw_tables, resample as rs, wilson  # wilson: defined once in clfeval.stats._proportions

__all__ = ["table_ci", "multilabel_ci", "replicate_leaves", "ItemPatterns", "wilson"]

Leaves = dict[tuple[str, ...], np.ndarray]

# Infinite replicates (x/0, x > 0: a likelihood ratio with no false positive) are larger than every finite
# one; they take part in the quantiles as this stand-in, and an end beyond the finite ones is infinite.
_BIG = float(np.finfo(np.float64).max)


def replicate_leaves(stats: TableStats, labels: Sequence[str], *, zero_division: float = 0.0, beta: float = 1.0,
                     order: bool = False, positive: int | None = None) -> Leaves:
    """What a stack of (replicate) tables gives the intervals: {report JSON path: values (c,)}.

    Every count metric of the report, through the catalogue entries the
    report itself is built from (:func:`clfeval.core._scoring.leaves`); infinite
    values (x/0, x > 0) are ``+inf`` here, so that they rank above every
    finite replicate. Applied to the observed table it gives the report's
    own numbers.
    """
    return {path: v for _, path, v, _ in leaves(stats, labels, zero_division=zero_division, beta=beta, order=order,
                                                positive=positive, infinity=True)}


@dataclass(frozen=True)
class ItemPatterns:
    """Multi-label items grouped by their (gold set, predicted set) pattern.

    ``counts`` holds the items of each pattern; ``per_item`` the statistics an
    item of each pattern adds: its 2×2 cells per label, then 1 if its sets
    are equal, its Jaccard ratio, 1 if both sets are empty.
    """

    counts: np.ndarray
    per_item: np.ndarray
    n_labels: int

    @classmethod
    def of(cls, gold: np.ndarray, pred: np.ndarray) -> ItemPatterns:
        """From boolean indicator matrices (n, L)."""
        n_lab = gold.shape[1]
        patterns, counts = np.unique(np.concatenate([gold, pred], axis=1), axis=0, return_counts=True)
        pg, pp = patterns[:, :n_lab], patterns[:, n_lab:]
        cells = np.stack([~pg & ~pp, ~pg & pp, pg & ~pp, pg & pp], axis=-1).reshape(len(patterns), 4 * n_lab)
        inter = (pg & pp).sum(axis=1)
        union = (pg | pp).sum(axis=1)
        jac = np.where(union > 0, inter / np.maximum(union, 1), 0.0)
        per_item = np.column_stack([cells.astype(np.float64), (inter == union).astype(np.float64), jac,
                                    (union == 0).astype(np.float64)])
        return cls(counts, per_item, n_lab)

    def stats(self, weights: np.ndarray) -> TableStats:
        """The tables of item multisets with ``weights`` (c, patterns) items of each pattern."""
        w = np.asarray(weights, dtype=np.float64)
        sums = w @ self.per_item
        c = sums.shape[0]
        tab = sums[:, :4 * self.n_labels].reshape(c, self.n_labels, 2, 2)
        return TableStats.of_multilabel(tab, n_items=w.sum(axis=1), exact=sums[:, -3], jaccard_sum=sums[:, -2],
                                        jaccard_empty=sums[:, -1])


def _check_kept(samples: int, values: int) -> None:
    """Every replicate of every value is kept for its percentiles: refuse what would not fit MEMORY_BUDGET."""
    most = MEMORY_BUDGET // (8 * max(values, 1))
    if samples > most:
        raise UsageError(f"keeping {samples:,} bootstrap replicates of each of the {values} values of these intervals "
                         f"needs {samples * values * 8 / 2**30:.1f} GiB, more than clfeval's "
                         f"{MEMORY_BUDGET / 2**30:g} GiB budget; ask for at most {most:,} replicates (--samples).")


def _collect(draw: Callable[[np.random.Generator, int], Leaves], samples: int, rows: int, rng: np.random.Generator,
             progress: Callable[[int, int], None] | None) -> Leaves:
    parts: dict[tuple[str, ...], list[np.ndarray]] = {}
    done = 0
    while done < samples:
        c = min(rows, samples - done)
        for key, v in draw(rng, c).items():
            parts.setdefault(key, []).append(np.asarray(v, dtype=np.float64))
        if done == 0:
            _check_kept(samples, len(parts))
        done += c
        if progress is not None:
            progress(done, samples)
    return {k: np.concatenate(v) for k, v in parts.items()}


def _nest(leaves: Leaves, level: float, head: dict[str, Any], samples: int,
          chosen: Callable[[tuple[str, ...], np.ndarray], tuple[list[float], str] | None] | None = None
          ) -> dict[str, Any]:
    """Intervals of every leaf, nested like the report's keys, with a note on undefined replicates.

    ``chosen(path, replicates)`` gives a leaf's (interval, method) when it is not the percentile interval
    (BCa, Wilson: :func:`table_ci`); the methods used are listed under ``methods`` (dotted paths).
    """
    out = dict(head)
    methods: dict[str, str] = {}
    undefined = infinite = 0
    for path, reps in leaves.items():
        undefined = max(undefined, int(np.count_nonzero(np.isnan(reps))))
        inf = np.isposinf(reps)
        other = chosen(path, reps) if chosen is not None and not inf.any() else None
        if other is not None:
            interval, method = other
        else:
            method = "percentile"
            interval = rs.percentile_interval(np.where(inf, _BIG, reps), level)
        if inf.any():  # an end beyond every finite replicate lies at (or interpolates towards) infinity
            infinite = max(infinite, int(np.count_nonzero(inf)))
            top = reps[np.isfinite(reps)].max(initial=-math.inf)
            interval = [math.inf if x > top else x for x in interval]
        methods[".".join(path)] = method
        node = out
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = interval
    if chosen is not None:
        out["methods"] = methods
    notes = []
    if undefined:
        notes.append(f"up to {undefined:,} of {samples:,} replicates had an undefined value and were left out.")
    if infinite:
        notes.append(f"up to {infinite:,} of {samples:,} replicates had an infinite value (x/0: a likelihood or odds "
                     f"ratio without false positives or false negatives); they count as larger than every other, "
                     f"and an interval end there is infinite (null in JSON); those intervals are percentile intervals.")
    if notes:
        out["note"] = " ".join(notes)
    return out


def _proportion(name: str, path: tuple[str, ...], stats: TableStats, labels: Sequence[str],
                positive: int | None) -> tuple[float, float] | None:
    """(successes, trials) of a leaf that is a binomial proportion of the observed table, else None."""
    c = stats.classes
    tp, fp, fn, tn = (np.asarray(x).reshape(-1) for x in (c.tp, c.fp, c.fn, c.tn))
    n = float(np.asarray(stats.n).reshape(-1)[0])
    if len(path) == 1 or path[0] == "micro":
        top = {"accuracy": (tp.sum(), n), "error_rate": (n - tp.sum(), n),
               "micro_precision": (tp.sum(), tp.sum() + fp.sum()), "micro_recall": (tp.sum(), tp.sum() + fn.sum())}
        return top.get(name)
    k = labels.index(path[1]) if path[0] == "per_class" else positive
    if k is None:
        return None
    per = {"precision": (tp[k], tp[k] + fp[k]), "recall": (tp[k], tp[k] + fn[k]), "specificity": (tn[k], tn[k] + fp[k]),
           "fpr": (fp[k], fp[k] + tn[k]), "fnr": (fn[k], fn[k] + tp[k]), "npv": (tn[k], tn[k] + fn[k]),
           "prevalence": (tp[k] + fn[k], n), "accuracy": (tp[k] + tn[k], n), "error_rate": (fp[k] + fn[k], n)}
    return per.get(name)


def _head(level: float, samples: int, seed: Any, resampling: str, zd: float) -> dict[str, Any]:
    return {"level": level, "samples": samples, "seed": seed if isinstance(seed, (int, np.integer)) else None,
            "method": "percentile", "resampling": resampling,
            "zero_division": "nan" if math.isnan(zd) else str(int(zd))}


def table_ci(counts: np.ndarray, labels: Sequence[Any], *, level: float = 0.95, samples: int = 10_000,
             seed: int | np.random.Generator = 0, zero_division: Any = 0, beta: float = 1.0, order: bool = False,
             positive: int | None = None, progress: Callable[[int, int], None] | None = None,
             method: Any = "percentile") -> dict[str, Any]:
    """Bootstrap (or Wilson) intervals for every metric of one confusion table.

    Parameters
    ----------
    counts : array (K, K) of int
        The observed confusion table (rows = gold).
    labels : sequence
        Class labels in table order.
    level : float
        Confidence level, e.g. 0.95: the interval runs from the (1−level)/2 to
        the (1+level)/2 quantile of the replicates.
    samples : int
        Bootstrap replicates b.
    seed : int or Generator
    zero_division, beta
        As in :func:`clfeval.core._scoring.score_table`.
    order : bool
        Also the ordinal measures (table order is the scale).
    positive : int, optional
        Index of the positive class: also the ``binary`` block.
    method : str, list of str or dict
        ``percentile`` for every metric; ``auto``, the defaults measured by
        ``bench/ci_coverage.py`` (Wilson for per-class precision and recall, BCa
        for the others); or ``--ci-method`` values (``bca``, ``accuracy=wilson``, …,
        :mod:`clfeval.evaluate._cimethods`). The methods used are listed under
        ``methods``; a BCa interval that is undefined (every replicate alike) falls
        back to the percentile interval, and so does a leaf with infinite replicates.

    Returns
    -------
    dict
        ``level``, ``samples``, ``seed``, ``method``, ``resampling``,
        ``methods`` (dotted path → method, unless every interval is a percentile
        interval), ``values`` (dotted path → the observed value), then ``[low, high]`` at every path of the report's
        JSON that holds a metric: ``accuracy``, ``error_rate``,
        ``balanced_accuracy``, ``mcc``, ``kappa``, ``macro`` / ``micro`` /
        ``weighted`` {metric: [low, high]}, ``per_class`` {label: {metric:
        [low, high]}}, and ``ordinal`` / ``binary`` when asked for.

    Notes
    -----
    Replicate tables are Multinomial(N, cells / N) over the non-empty cells —
    the same distribution as N items drawn with replacement. Undefined values
    follow ``zero_division``; with ``nan`` they are left out of the quantiles.

    Reference: Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, ch. 13.

    >>> ci = table_ci(np.array([[40, 10], [5, 45]]), ["a", "b"], samples=2000)
    >>> lo, hi = ci["accuracy"]
    >>> bool(lo < 0.85 < hi), ci["level"], {"delta", "f1", "fpr", "lr_plus"} <= set(ci["per_class"]["a"])
    (True, 0.95, True)
    """
    level = check_probability(level, option="ci")
    samples = check_samples(samples)
    zd = check_zero_division(zero_division)
    rng = check_rng(seed)
    cm = np.asarray(counts)
    if cm.dtype.kind not in "iu":
        raise UsageError("confidence intervals need a table of observed counts (integers), not expected counts.")
    k = cm.shape[0]
    n = int(cm.sum())
    if n == 0:
        raise DataError("the table is empty; a confidence interval needs at least one item.")
    labs = [label_str(x) for x in labels]
    methods = parse_ci_methods(method)
    check_method_labels(methods, labs)
    nz = np.flatnonzero(cm)

    def draw(g: np.random.Generator, c: int) -> Leaves:
        return replicate_leaves(TableStats.of_matrix(draw_tables(cm, c, g)), labs, zero_division=zd, beta=beta,
                                order=order, positive=positive)

    rows = max(1, rs.BUDGET // max(k * k * 8, 1))
    leaves = _collect(draw, samples, rows, rng, progress)
    head = _head(level, samples, seed, f"multinomial over the {nz.size} non-empty cells of the {k}×{k} table "
                                       f"(= {n} items drawn with replacement)", zd)
    observed = replicate_leaves(TableStats.of_matrix(cm[None]), labs, zero_division=zd, beta=beta, order=order,
                                positive=positive)
    values = {".".join(path): float(v[0]) for path, v in observed.items()}
    if methods == {"*": "percentile"}:
        return {**_nest(leaves, level, head, samples), "values": values}
    chosen = _chooser(cm, nz, labs, level, methods, zd, beta, order, positive)
    asked = ", ".join(f"{k}={v}" if k != "*" else v for k, v in methods.items())
    head["method"] = ("per metric (see methods): Wilson for per-class precision and recall, BCa otherwise (the "
                      "defaults measured by bench/ci_coverage.py)" + (f"; asked for: {asked}" if asked else ""))
    return {**_nest(leaves, level, head, samples, chosen), "values": values}


def _chooser(cm: np.ndarray, nz: np.ndarray, labs: list[str], level: float, methods: dict[str, str], zd: float,
             beta: float, order: bool, positive: int | None) -> Callable[[tuple[str, ...], np.ndarray], Any]:
    """(path, replicates) → (interval, method) of every leaf whose method is not the percentile interval."""
    k = cm.shape[0]
    stats = TableStats.of_matrix(cm[None])
    kw: dict[str, Any] = dict(zero_division=zd, beta=beta, order=order, positive=positive)
    names = {path: (m.name, path[1] if path[0] == "per_class"
                    else (labs[positive] if m.per_label and positive is not None else None))
             for m, path, _, _ in leaves(stats, labs, infinity=True, **kw)}
    observed = replicate_leaves(stats, labs, **kw)
    jack: dict[str, Any] = {}

    def jackknife() -> tuple[Leaves, np.ndarray]:
        if not jack:  # one leave-one-out table per non-empty cell, in chunks of bounded memory
            parts: dict[tuple[str, ...], list[np.ndarray]] = {}
            step = max(1, rs.BUDGET // max(k * k, 1))
            for start in range(0, nz.size, step):
                cells = nz[start:start + step]
                tables = np.repeat(cm.reshape(1, -1), cells.size, axis=0)
                tables[np.arange(cells.size), cells] -= 1
                for path, v in replicate_leaves(TableStats.of_matrix(tables.reshape(-1, k, k)), labs, **kw).items():
                    parts.setdefault(path, []).append(v)
            jack["values"] = {path: np.concatenate(v) for path, v in parts.items()}
            jack["weights"] = cm.reshape(-1)[nz].astype(np.float64)
        return jack["values"], jack["weights"]

    def chosen(path: tuple[str, ...], reps: np.ndarray) -> tuple[list[float], str] | None:
        name, label = names[path]
        method = count_method(name, label, methods)
        if method == "wilson":
            sx = _proportion(name, path, stats, labs, positive)
            if sx is None:
                return None
            lo, hi = wilson(sx[0], sx[1], level)
            return [float(lo), float(hi)], "wilson"
        if method == "bca":
            values, weights = jackknife()
            theta = float(observed[path][0])
            out = rs.bca_interval(reps, theta, values[path], weights, level)
            return (out, "bca") if out is not None else None
        return None

    return chosen


def multilabel_ci(gold: np.ndarray, pred: np.ndarray, labels: Sequence[Any], *, level: float = 0.95,
                  samples: int = 10_000, seed: int | np.random.Generator = 0, zero_division: Any = 0,
                  beta: float = 1.0, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Bootstrap percentile intervals for every metric of a multi-label report.

    Items are grouped by their (gold set, predicted set) pattern; a replicate
    draws the pattern counts from a multinomial. ``gold``, ``pred`` are
    boolean indicator matrices (n, L). Paths as in the multi-label report:
    ``accuracy`` (subset accuracy), ``subset_accuracy``, ``error_rate``,
    ``hamming_loss``, ``jaccard``, ``macro`` / ``micro`` / ``weighted``,
    ``per_class`` (with per-label ``accuracy``).

    >>> g = np.array([[1, 0], [1, 1], [0, 1], [0, 0]] * 10, dtype=bool)
    >>> p = np.array([[1, 0], [1, 0], [0, 1], [1, 0]] * 10, dtype=bool)
    >>> ci = multilabel_ci(g, p, ["x", "y"], samples=500)
    >>> lo, hi = ci["hamming_loss"]
    >>> bool(lo <= 0.25 <= hi)
    True
    """
    level = check_probability(level, option="ci")
    samples = check_samples(samples)
    zd = check_zero_division(zero_division)
    rng = check_rng(seed)
    g = np.asarray(gold, dtype=bool)
    p_ = np.asarray(pred, dtype=bool)
    n, n_lab = g.shape
    if n == 0:
        raise DataError("there are no items; a confidence interval needs at least one item.")
    pat = ItemPatterns.of(g, p_)
    labs = [label_str(x) for x in labels]

    def draw(gen: np.random.Generator, c: int) -> Leaves:
        return replicate_leaves(pat.stats(draw_tables(pat.counts, c, gen)), labs, zero_division=zd, beta=beta)

    rows = max(1, rs.BUDGET // max(len(pat.counts), pat.per_item.shape[1], 1))
    leaves = _collect(draw, samples, rows, rng, progress)
    head = _head(level, samples, seed, f"multinomial over the {len(pat.counts)} distinct (gold set, predicted set) "
                                       f"patterns (= {n} items drawn with replacement)", zd)
    return _nest(leaves, level, head, samples)

