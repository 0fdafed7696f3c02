"""Find the slices where a classifier is worst, without being told where to look (after SliceFinder).

Chung, Kraska, Polyzotis, Tae & Whang (2019), "Slice Finder: automated data
slicing for model validation", search the lattice of slices -- single
column values, then crosses of two (or three) columns -- for large,
significant effects. Because every slice is a count table and counts add,
the search here is exact and needs only the counts of each column set:

1. **Counts.** For every column set of the lattice (each column, each pair,
   each triple with ``max_depth=3``) the items, trials and successes of the
   metric in each slice, counted in the report's pass
   (:class:`clfeval.core._latticecount.LatticeCounter`: a few joint tables
   cover all column sets of a level; in memory, streamed or on Dask). The
   rest of a slice is the overall counts minus the slice's.
2. **The metric is a proportion of items**: accuracy, error rate, and per
   class recall, precision, specificity, FPR, FNR, NPV, one-vs-rest accuracy
   and error rate. Each slice has successes s out of trials n (for recall of
   c: the items of gold class c found), so slice and rest compare as two
   proportions.
3. **The test** of a slice against the rest: Pearson's two-proportion test
   (the χ² test of the 2×2 table, two-sided); Fisher's exact test instead
   when an expected count is below 5. A slice or rest without trials is not
   testable and not counted.
4. **False-discovery control**: Benjamini–Yekutieli adjusted p-values over
   every testable slice examined (all depths together): valid under the
   overlap of crosses and independent of the order of the search.
   Alpha-investing is out of scope.
5. **Found** = adjusted p ≤ ``alpha``, the slice worse than the rest, and at
   least ``min_slice`` items (smaller slices are counted in the adjustment,
   never called the worst). Ranked by the standardized effect, Cohen's
   h = 2·asin√p_rest − 2·asin√p_slice for a higher-is-better metric (the
   sign flipped for lower-is-better: positive h means worse), the gap to the
   rest beside it.
6. **A child explained by its parent is dropped.** A significant cross (A=a ∧ B=b) is kept only when it is
   significantly worse than the rest of *each* of its parents -- the slices one column fewer, A=a and B=b --
   where the rest of a parent is the parent minus the cross (A=a ∧ B≠b): the same two-proportion test, cross
   against parent − cross, its p-values Benjamini–Yekutieli-adjusted over every such comparison (every parent
   of every significant cross), adjusted p ≤ ``alpha`` and the cross worse. Otherwise the cross is dropped as
   explained by the parent whose comparison has the largest adjusted p (a parent that is the cross itself,
   with nothing left, explains it too). A cross inside a bad single value is no worse than its siblings
   there, so it is dropped; a cross bad where neither of its columns alone is stays. Each cross's
   comparisons are listed (``vs_parents``) so that the rule can be checked by hand.
7. **A slice explained by the slices kept inside it is not found** (:mod:`clfeval.slicing._slicedescend`):
   a kept slice that contains kept slices is tested again on its items outside them against the items outside
   it (one-sided, unadjusted, at ``alpha``); not worse, it is listed under ``explained`` with them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from clfeval.core import build_signature, catalog
from clfeval.errors import UsageError
from clfeval.ops.report import FoundSlice, FoundSlices, SliceProportion
from clfeval.slicing._slicedescend import descendant_rule
from clfeval.stats import two_by_two

__all__ = ["FoundSlices", "PROPORTION_METRICS", "proportions", "lattice", "search_tables", "slice_proportions"]

#: Metrics the search can test: proportions of items (successes / trials) from a K×K table.
PROPORTION_METRICS = ("accuracy", "error_rate", "recall:LABEL", "precision:LABEL", "specificity:LABEL", "fpr:LABEL",
                      "fnr:LABEL", "npv:LABEL", "accuracy:LABEL", "error_rate:LABEL")


def _parts(t: np.ndarray, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """TP, FP, FN, TN of class ``i`` for a stack of tables (..., K, K), rows gold."""
    tp = t[..., i, i]
    fn = t[..., i, :].sum(axis=-1) - tp
    fp = t[..., :, i].sum(axis=-1) - tp
    tn = t.sum(axis=(-2, -1)) - tp - fn - fp
    return tp, fp, fn, tn


def proportions(metric: str, labels: Sequence[Any], option: str = "metric"
                ) -> tuple[Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], bool]:
    """(successes, trials) of ``metric`` from a stack of K×K tables, and whether higher is better (``option``: the
    parameter that named the metric, for the messages).

    >>> fn, higher = proportions("recall:b", ["a", "b"])
    >>> s, n = fn(np.array([[[5, 1], [2, 6]]]))
    >>> s.tolist(), n.tolist(), higher
    ([6], [8], True)
    """
    entry, label = catalog.parse(metric)
    if entry.key not in PROPORTION_METRICS:
        raise UsageError(lambda m: f"option {m} {metric!r}: the slice search tests proportions of items "
                                   f"({', '.join(PROPORTION_METRICS)}); {metric!r} is not one (F1, MCC and the "
                                   f"averages have no slice-against-rest proportion test here: name the slices with "
                                   f"--by, whose permutation test covers them).", params=[option])
    higher = bool(entry.higher_is_better)
    if label is None:
        def overall(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            total = t.sum(axis=(-2, -1))
            correct = np.trace(t, axis1=-2, axis2=-1)
            return (correct if entry.key == "accuracy" else total - correct), total
        return overall, higher
    names = [str(x) for x in labels]
    if str(label) not in names:
        raise UsageError(lambda m: f"option {m} {metric!r}: the data has no class {label!r}; its classes are: "
                                   f"{', '.join(names[:20])}.", params=[option])
    i = names.index(str(label))
    pick = {"recall": lambda tp, fp, fn, tn: (tp, tp + fn), "fnr": lambda tp, fp, fn, tn: (fn, tp + fn),
            "precision": lambda tp, fp, fn, tn: (tp, tp + fp), "specificity": lambda tp, fp, fn, tn: (tn, tn + fp),
            "fpr": lambda tp, fp, fn, tn: (fp, tn + fp), "npv": lambda tp, fp, fn, tn: (tn, tn + fn),
            "accuracy": lambda tp, fp, fn, tn: (tp + tn, tp + fp + fn + tn),
            "error_rate": lambda tp, fp, fn, tn: (fp + fn, tp + fp + fn + tn)}[entry.name]

    def per_class(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return pick(*_parts(t, i))
    return per_class, higher


def slice_proportions(tables: Any, metric: str) -> Any:
    """The :class:`~clfeval.core._latticecount.SliceProportions` (items, trials, successes per slice) of ``metric``
    from the K×K tables of a :class:`~clfeval.core._slicecount.SliceTables` (the straightforward count, one table
    per slice)."""
    from clfeval.core import SliceProportions

    fn, _ = proportions(metric, tables.labels)
    s, n = fn(tables.counts)
    items = tables.counts.sum(axis=(1, 2))
    return SliceProportions(tuple(tables.columns), tuple(tables.keys), np.asarray(items, dtype=np.int64),
                            np.asarray(n, dtype=np.int64), np.asarray(s, dtype=np.int64), tables.binning)


def lattice(columns: Sequence[str], max_depth: int) -> list[tuple[str, ...]]:
    """The column sets of the lattice, by depth: every column, every pair, ... up to ``max_depth``."""
    return [c for d in range(1, max_depth + 1) for c in itertools.combinations(columns, d)]


def _cohen_h(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return 2 * np.arcsin(np.sqrt(np.clip(a, 0, 1))) - 2 * np.arcsin(np.sqrt(np.clip(b, 0, 1)))


METHOD = {
    "test": "slice against the rest of the data: Pearson's two-proportion χ² test, two-sided (Fisher's exact test "
            "when an expected count is below 5)",
    "adjustment": "Benjamini–Yekutieli over every testable slice examined (all depths): false-discovery rate ≤ alpha "
                  "under any dependence between overlapping slices",
    "found": "adjusted p ≤ alpha, worse than the rest, and at least min_slice items",
    "ranking": "by Cohen's h (2·asin√p_rest − 2·asin√p_slice; positive = worse), the gap to the rest beside it",
    "parent_rule": "a significant cross is kept only if it is significantly worse than the rest of each parent "
                   "(the slice one column fewer, minus the cross): two-proportion test, Benjamini–Yekutieli-adjusted "
                   "over every parent of every significant cross, at alpha; otherwise it is dropped because that "
                   "parent explains it",
    "descendant_rule": "then a kept slice that contains kept slices (its descendants, any depth) is tested again on "
                       "its items outside them, against the items outside the slice: the same two-proportion test, "
                       "one-sided (worse), unadjusted, at alpha; otherwise it is explained by those descendants and "
                       "not found",
    "interval": "Wilson score interval of the slice's proportion at 95%",
}


def _name(cs: tuple[str, ...], values: Sequence[Any]) -> str:
    return " ∧ ".join(f"{c}={v}" for c, v in zip(cs, values, strict=True))


def search_tables(tables: Sequence[Any], metric: str, *, alpha: float = 0.05, min_slice: int = 30,
                  max_depth: int = 2, notes: Sequence[str] = (), overall: Any = None,
                  recount: Callable[[list[Any]], np.ndarray] | None = None) -> FoundSlices:
    """The search on the counts of every column set of the lattice: each a
    :class:`~clfeval.core._latticecount.SliceProportions` (items, trials and successes per slice, as
    :class:`~clfeval.core._latticecount.LatticeCounter` counts them in one pass) or a
    :class:`~clfeval.core._slicecount.SliceTables` (one K×K table per slice). ``overall``: the confusion table of
    all items (checked against the slices; by default the sum of the first column set's slices). ``recount``: the
    items, trials and successes of slices outside overlapping sub-slices, counted from the items
    (:func:`clfeval.slicing._slicedescend.descendant_rule`; needed only when found slices overlap so)."""
    from clfeval.core import SliceProportions
    from clfeval.evaluate import wilson
    from clfeval.stats import benjamini_yekutieli

    entry, _ = catalog.parse(metric)
    higher = bool(entry.higher_is_better)
    props = [t if isinstance(t, SliceProportions) else slice_proportions(t, metric) for t in tables]
    if overall is not None:
        fn, _ = proportions(metric, overall.labels)
        s0, n0 = fn(np.asarray(overall.counts))
        s_all, n_all, items_all = float(s0), float(n0), int(np.asarray(overall.counts).sum())
    else:
        s_all, n_all = float(props[0].successes.sum()), float(props[0].trials.sum())
        items_all = int(props[0].items.sum())
    for t in props:
        if (int(t.items.sum()), float(t.trials.sum()), float(t.successes.sum())) != (items_all, n_all, s_all):
            raise AssertionError(f"the slice counts of {', '.join(t.columns)} do not add up to the overall counts")
    # every slice's numbers as arrays; a slice's row (a dict) made only when it is shown: found, dropped, parent
    where = [(t, j) for t in props for j in range(len(t.keys))]
    s = np.concatenate([np.asarray(t.successes, dtype=np.float64) for t in props]) if props else np.empty(0)
    n = np.concatenate([np.asarray(t.trials, dtype=np.float64) for t in props]) if props else np.empty(0)
    items = np.concatenate([np.asarray(t.items, dtype=np.int64) for t in props]) if props else np.empty(0, np.int64)
    p, how = two_by_two(s, n, s_all - s, n_all - n)
    adj = np.asarray(benjamini_yekutieli(p.tolist()), dtype=np.float64) if len(p) else p
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.where(n > 0, s / np.where(n > 0, n, 1), math.nan)
        rest = np.where(n_all - n > 0, (s_all - s) / np.where(n_all - n > 0, n_all - n, 1), math.nan)
    h = _cohen_h(rest, v) if higher else _cohen_h(v, rest)
    ci = wilson(s, n, 0.95)
    made: dict[int, dict[str, Any]] = {}

    def row(j: int) -> dict[str, Any]:
        r = made.get(j)
        if r is None:
            t, i = where[j]
            cs, key = tuple(t.columns), t.keys[i]
            vals = [_plain(x) for x in key]
            r = made[j] = {"columns": list(cs), "values": vals, "slice": _name(cs, vals), "items": int(t.items[i]),
                           "successes": int(t.successes[i]), "trials": int(t.trials[i]), "_key": (cs, tuple(key)),
                           "value": _f(v[j]), "rest_value": _f(rest[j]), "gap": _f(v[j] - rest[j]),
                           "effect_h": _f(h[j]), "p_value": _f(p[j]), "p_adjusted": _f(adj[j]), "test": how[j],
                           "interval": None if not np.all(np.isfinite(ci[j])) else [float(ci[j][0]), float(ci[j][1])]}
        return r

    worse = np.isfinite(h) & (h > 0)
    hit = np.flatnonzero(np.isfinite(adj) & (adj <= alpha) & worse & (items >= min_slice)).tolist()
    kept, dropped = _parent_rule(row, where, hit, alpha, higher)
    found, explained = descendant_rule(kept, lambda j: row(j)["_key"], alpha=alpha, higher=higher,
                                       overall=(items_all, n_all, s_all), recount=recount)
    rank = lambda r: (-r["effect_h"], r["gap"] if higher else -r["gap"], r["slice"])  # noqa: E731
    found.sort(key=rank)
    explained.sort(key=rank)
    testable = int(np.isfinite(p).sum())
    n_notes = list(notes)
    if not found:
        n_notes.append(f"No slice is significantly worse than the rest after the Benjamini–Yekutieli adjustment over "
                       f"{testable:,} testable slices at alpha {alpha:g}.")
    small = int((items < min_slice).sum())
    if small:
        n_notes.append(f"{small:,} slice{'s' if small != 1 else ''} below {min_slice} items "
                       f"{'were' if small != 1 else 'was'} tested and counted in the adjustment, but never called "
                       "the worst.")
    overall_d = {"value": _f(s_all / n_all) if n_all else None, "successes": int(s_all), "trials": int(n_all),
                 "items": items_all}
    cols = [t.columns[0] for t in props if len(t.columns) == 1]
    sig = build_signature({"result": "find_slices", "metric": metric, "alpha": alpha, "min_slice": min_slice,
                           "max_depth": max_depth, "columns": cols})
    bins = {}
    for t in props:
        for c, b in (t.binning or {}).items():
            bins[c] = [float(e) for e in (b["edges"] if isinstance(b, dict) else getattr(b, "edges", b))]
    return FoundSlices(metric=metric, higher_is_better=higher, overall=SliceProportion.of(overall_d), columns=cols,
                       max_depth=max_depth, examined=len(where), testable=testable,
                       found=tuple(FoundSlice.of(f) for f in found), dropped=tuple(FoundSlice.of(d) for d in dropped),
                       alpha=alpha, min_slice=min_slice, method=dict(METHOD), notes=n_notes, signature=sig, bins=bins,
                       explained=tuple(FoundSlice.of(x) for x in explained))


def _parent_rule(row: Callable[[int], dict[str, Any]], where: Sequence[tuple[Any, int]], hit: list[int],
                 alpha: float, higher: bool) -> tuple[list[tuple[int, dict[str, Any]]], list[dict[str, Any]]]:
    """The significant slices kept (their index and row) and dropped (a parent explains them): see the module
    docstring, 6. ``row(j)``: the row of slice j; ``where``: the (column set's counts, index) of every slice."""
    from clfeval.stats import benjamini_yekutieli

    pairs: list[tuple[int, int]] = []   # (child row, parent row): every parent of every significant cross
    if any(len(row(j)["_key"][0]) > 1 for j in hit):
        by_key = {(tuple(t.columns), tuple(t.keys[i])): j for j, (t, i) in enumerate(where)}
        for j in hit:
            cs, key = row(j)["_key"]
            if len(cs) > 1:
                pairs.extend((j, by_key[(cs[:d] + cs[d + 1:], key[:d] + key[d + 1:])]) for d in range(len(cs)))
    rows = {j: row(j) for pair in pairs for j in pair}
    s1 = np.array([rows[c]["successes"] for c, _ in pairs], dtype=np.float64)
    n1 = np.array([rows[c]["trials"] for c, _ in pairs], dtype=np.float64)
    s2 = np.array([rows[q]["successes"] for _, q in pairs], dtype=np.float64) - s1
    n2 = np.array([rows[q]["trials"] for _, q in pairs], dtype=np.float64) - n1
    p, _ = two_by_two(s1, n1, s2, n2)
    adj = np.asarray(benjamini_yekutieli(p.tolist()), dtype=np.float64) if pairs else p
    checks: dict[int, list[dict[str, Any]]] = {}
    for i, (c, q) in enumerate(pairs):
        rest = s2[i] / n2[i] if n2[i] > 0 else math.nan
        value = s1[i] / n1[i] if n1[i] > 0 else math.nan
        worse = bool(np.isfinite(rest) and np.isfinite(value) and (value < rest if higher else value > rest))
        checks.setdefault(c, []).append({"parent": rows[q]["slice"], "parent_rest_value": _f(rest),
                                         "p_value": _f(p[i]), "p_adjusted": _f(adj[i]),
                                         "kept": bool(worse and np.isfinite(adj[i]) and adj[i] <= alpha)})
    found: list[tuple[int, dict[str, Any]]] = []
    dropped = []
    for j in hit:
        out = {k: x for k, x in row(j).items() if k != "_key"}
        mine = checks.get(j, [])
        if mine:
            out["vs_parents"] = mine
        failing = [x for x in mine if not x["kept"]]
        if not failing:
            found.append((j, out))
        else:
            worst = max(failing, key=lambda x: 2.0 if x["p_adjusted"] is None else x["p_adjusted"])
            dropped.append({**out, "explained_by": worst["parent"]})
    return found, dropped


def _plain(v: Any) -> Any:
    """A slice value as JSON holds it (NumPy scalars as Python ones)."""
    return v.item() if hasattr(v, "item") else v


def _f(x: Any) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None
