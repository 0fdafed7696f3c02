"""Bootstrap confidence intervals for every count-table metric of one classifier.

For a confusion table with N items, drawing N items with replacement is
drawing the K×K cell counts from a multinomial over the non-empty cells; each
replicate is a new table, and every metric of the report is computed on the
whole stack of replicate tables at once (:mod:`clfeval.metrics` works on
stacks). The cost is O(cells) per replicate, independent of N.

Multi-label data has no K×K table; its items are grouped by their (gold set,
predicted set) pattern instead, and the patterns' counts are drawn from a
multinomial the same way.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np

from clfeval import _resample as rs
from clfeval._labels import label_str
from clfeval._validation import MEMORY_BUDGET, check_probability, check_rng, check_samples, check_zero_division
from clfeval.errors import DataError, UsageError
from clfeval.metrics import (PER_CLASS_METRICS, ClassCounts, _micro, accuracy, balanced_accuracy,
                             binary_class_counts, class_counts, f1_of_means, fbeta, kappa, macro_average, mcc,
                             ordinal_mae, recall, safe_divide, specificity, weighted_average, weighted_kappa)

__all__ = ["table_ci", "multilabel_ci"]

Leaves = dict[tuple[str, ...], np.ndarray]


def _per_class(c: ClassCounts, labels: Sequence[str], beta: float, zd: float, out: Leaves) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    vals = {m: f(c, zd) for m, f in PER_CLASS_METRICS.items()}
    if beta != 1.0:
        vals["fbeta"] = fbeta(c, beta, zd)
    for m, (v, _) in vals.items():
        for i, lab in enumerate(labels):
            out[("per_class", lab, m)] = v[..., i]
    return vals


def _averages(c: ClassCounts, vals: dict, beta: float, zd: float, out: Leaves) -> None:
    for m in ("precision", "recall", "f1") + (("fbeta",) if beta != 1.0 else ()):
        out[("macro", m)] = macro_average(*vals[m], zd)
        out[("weighted", m)] = weighted_average(*vals[m], c.support, zd)
    out[("macro", "f1_of_means")] = f1_of_means(out[("macro", "precision")], out[("macro", "recall")], zd)[0]
    for m, (v, _) in _micro(c, zd, beta).items():
        out[("micro", m)] = v


def _table_leaves(cm: np.ndarray, labels: Sequence[str], beta: float, zd: float, order: bool,
                  positive: int | None) -> Leaves:
    """Every metric of the report over a stack of tables (c, K, K): {json path: values (c,)}."""
    out: Leaves = {}
    acc = accuracy(cm, zd)[0]
    out[("accuracy",)] = acc
    out[("error_rate",)] = 1.0 - acc
    out[("balanced_accuracy",)] = balanced_accuracy(cm, zd)[0]
    out[("mcc",)] = mcc(cm, zd)[0]
    out[("kappa",)] = kappa(cm, zd)[0]
    c = class_counts(cm)
    vals = _per_class(c, labels, beta, zd, out)
    _averages(c, vals, beta, zd, out)
    if order:
        out[("ordinal", "mae")] = ordinal_mae(cm, zd)[0]
        out[("ordinal", "linear_kappa")] = weighted_kappa(cm, "linear", zd)[0]
        out[("ordinal", "quadratic_kappa")] = weighted_kappa(cm, "quadratic", zd)[0]
    if positive is not None:
        one = ClassCounts(*(x[..., positive] for x in c))
        for m, (v, _) in vals.items():
            out[("binary", m)] = v[..., positive]
        n = one.tp + one.fp + one.fn + one.tn
        b_acc = safe_divide(one.tp + one.tn, n, zd)[0]
        out[("binary", "accuracy")] = b_acc
        out[("binary", "error_rate")] = 1.0 - b_acc
        sens, us = recall(one, math.nan)
        spec, up = specificity(one, math.nan)
        out[("binary", "balanced_accuracy")] = np.where(us | up, zd, (sens + spec) / 2.0)
        two = np.stack([np.stack([one.tp, one.fn], -1), np.stack([one.fp, one.tn], -1)], -2)
        out[("binary", "mcc")] = mcc(two, zd)[0]
        out[("binary", "kappa")] = kappa(two, zd)[0]
    return out


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


def _nest(leaves: Leaves, level: float, head: dict[str, Any], samples: int) -> dict[str, Any]:
    """Percentile intervals of every leaf, nested like the report's keys, with a note on undefined replicates."""
    out = dict(head)
    undefined = 0
    for path, reps in leaves.items():
        undefined = max(undefined, int(np.count_nonzero(~np.isfinite(reps))))
        node = out
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = rs.percentile_interval(reps, level)
    if undefined:
        out["note"] = f"up to {undefined} of {samples} replicates had an undefined value and were left out."
    return out


def _head(level: float, samples: int, seed: Any, resampling: str, zd: float) -> dict[str, Any]:
    return {"level": level, "samples": samples, "seed": seed if isinstance(seed, (int, np.integer)) else None,
            "method": "percentile", "resampling": resampling,
            "zero_division": "nan" if math.isnan(zd) else str(int(zd))}


def table_ci(counts: np.ndarray, labels: Sequence[Any], *, level: float = 0.95, samples: int = 10_000,
             seed: int | np.random.Generator = 0, zero_division: Any = 0, beta: float = 1.0, order: bool = False,
             positive: int | None = None, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Bootstrap percentile intervals for every metric of one confusion table.

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
        As in :func:`clfeval.metrics.score_table`.
    order : bool
        Also the ordinal measures (table order is the scale).
    positive : int, optional
        Index of the positive class: also the ``binary`` block.

    Returns
    -------
    dict
        ``level``, ``samples``, ``seed``, ``method`` ("percentile"),
        ``resampling``, then ``[low, high]`` at every path of the report's
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
    >>> bool(lo < 0.85 < hi), ci["level"], sorted(ci["per_class"]["a"])[:3]
    (True, 0.95, ['delta', 'f1', 'fpr'])
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
    nz = np.flatnonzero(cm)
    p = cm.reshape(-1)[nz] / n

    def draw(g: np.random.Generator, c: int) -> Leaves:
        stack = np.zeros((c, k * k), dtype=np.int64)
        stack[:, nz] = g.multinomial(n, p, size=c)
        return _table_leaves(stack.reshape(c, k, k), labs, beta, zd, order, positive)

    rows = max(1, rs.BUDGET // max(k * k * 8, 1))
    leaves = _collect(draw, samples, rows, rng, progress)
    head = _head(level, samples, seed, f"multinomial over the {nz.size} non-empty cells of the {k}×{k} table "
                                       f"(= {n} items drawn with replacement)", zd)
    return _nest(leaves, level, head, samples)


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
    patterns, counts = np.unique(np.concatenate([g, p_], axis=1), axis=0, return_counts=True)
    pg, pp = patterns[:, :n_lab], patterns[:, n_lab:]
    cells = np.stack([~pg & ~pp, ~pg & pp, pg & ~pp, pg & pp], axis=-1).reshape(len(patterns), 4 * n_lab).astype(np.float64)
    inter = (pg & pp).sum(axis=1)
    union = (pg | pp).sum(axis=1)
    exact = (inter == union).astype(np.float64)
    empty = (union == 0).astype(np.float64)
    jac = np.where(union > 0, inter / np.maximum(union, 1), 0.0)
    per_item = np.column_stack([cells, exact, jac, empty])
    labs = [label_str(x) for x in labels]
    prob = counts / n

    def draw(gen: np.random.Generator, c: int) -> Leaves:
        sums = gen.multinomial(n, prob, size=c).astype(np.float64) @ per_item
        tab = sums[:, :4 * n_lab].reshape(c, n_lab, 2, 2)
        ex, js, em = sums[:, -3], sums[:, -2], sums[:, -1]
        out: Leaves = {}
        cc = binary_class_counts(tab)
        vals = _per_class(cc, labs, beta, zd, out)
        lab_acc = (cc.tp + cc.tn) / n
        for i, lab in enumerate(labs):
            out[("per_class", lab, "accuracy")] = lab_acc[:, i]
        out[("accuracy",)] = ex / n
        out[("subset_accuracy",)] = ex / n
        out[("error_rate",)] = 1.0 - ex / n
        out[("hamming_loss",)] = (cc.fp + cc.fn).sum(axis=-1) / (n * n_lab) if n_lab else np.full(c, math.nan)
        if math.isnan(zd):
            out[("jaccard",)] = safe_divide(js, n - em, math.nan)[0]
        else:
            out[("jaccard",)] = (js + zd * em) / n
        _averages(cc, vals, beta, zd, out)
        return out

    rows = max(1, rs.BUDGET // max(len(patterns), per_item.shape[1], 1))
    leaves = _collect(draw, samples, rows, rng, progress)
    head = _head(level, samples, seed, f"multinomial over the {len(patterns)} distinct (gold set, predicted set) "
                                       f"patterns (= {n} items drawn with replacement)", zd)
    return _nest(leaves, level, head, samples)

