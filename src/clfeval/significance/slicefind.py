"""Find the slices where a classifier is worst, without being told where to look (after SliceFinder).

Chung, Kraska, Polyzotis, Tae & Whang (2019), "Slice Finder: automated data
slicing for model validation", search the lattice of slices -- single
column values, then crosses of two (or three) columns -- for large,
significant effects. Because every slice is a count table and tables add,
the search here is exact and needs only the tables of each column set:

1. **Tables.** For every column set of the lattice (each column, each pair,
   each triple with ``max_depth=3``) one K×K confusion table per slice value,
   counted in one pass (:func:`clfeval.evaluate.slicecounting.count_sliced`, as
   ``--by`` counts: in memory, streamed or on Dask). The rest of a slice is
   the overall table minus the slice's.
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
6. **A child explained by its parent is dropped**: a found cross (A=a ∧ B=b)
   is dropped when one of its parents (A=a, or B=b) is found too and the
   cross is not significantly worse than the rest of that parent (the same
   two-proportion test, cross against parent − cross, unadjusted, at
   ``alpha``): the parent already explains it. The dropped slices are listed
   with the parent that explains them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.core import catalog
from clfeval.core.display import Display
from clfeval.core.signature import build_signature
from clfeval.errors import UsageError

__all__ = ["FoundSlices", "PROPORTION_METRICS", "proportions", "lattice", "search_tables"]

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


def proportions(metric: str, labels: Sequence[Any]) -> tuple[Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
                                                               bool]:
    """(successes, trials) of ``metric`` from a stack of K×K tables, and whether higher is better.

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
                                   f"--by, whose permutation test covers them).", params=["metric"])
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
                                   f"{', '.join(names[:20])}.", params=["metric"])
    i = names.index(str(label))
    pick = {"recall": lambda tp, fp, fn, tn: (tp, tp + fn), "fnr": lambda tp, fp, fn, tn: (fn, tp + fn),
            "precision": lambda tp, fp, fn, tn: (tp, tp + fp), "specificity": lambda tp, fp, fn, tn: (tn, tn + fp),
            "fpr": lambda tp, fp, fn, tn: (fp, tn + fp), "npv": lambda tp, fp, fn, tn: (tn, tn + fn),
            "accuracy": lambda tp, fp, fn, tn: (tp + tn, tp + fp + fn + tn),
            "error_rate": lambda tp, fp, fn, tn: (fp + fn, tp + fp + fn + tn)}[entry.name]

    def per_class(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return pick(*_parts(t, i))
    return per_class, higher


def lattice(columns: Sequence[str], max_depth: int) -> list[tuple[str, ...]]:
    """The column sets of the lattice, by depth: every column, every pair, ... up to ``max_depth``."""
    return [c for d in range(1, max_depth + 1) for c in itertools.combinations(columns, d)]


def _two_proportion_p(s1: np.ndarray, n1: np.ndarray, s2: np.ndarray, n2: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Two-sided p of s1/n1 against s2/n2: Pearson's χ² (Fisher's exact below an expected count of 5)."""
    from scipy.stats import fisher_exact, norm

    s1, n1, s2, n2 = (np.asarray(x, dtype=np.float64) for x in (s1, n1, s2, n2))
    p = np.full(s1.shape, math.nan)
    method = ["untestable"] * s1.size
    ok = (n1 > 0) & (n2 > 0)
    pooled = np.where(ok, (s1 + s2) / np.where(ok, n1 + n2, 1), 0.5)
    var = pooled * (1 - pooled) * (1 / np.where(ok, n1, 1) + 1 / np.where(ok, n2, 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (s1 / np.where(ok, n1, 1) - s2 / np.where(ok, n2, 1)) / np.sqrt(var)
    flat = ok & (var == 0)
    p[flat] = 1.0
    chi = ok & (var > 0)
    p[chi] = 2 * norm.sf(np.abs(z[chi]))
    expected = np.minimum.reduce([pooled * n1, (1 - pooled) * n1, pooled * n2, (1 - pooled) * n2])
    small = chi & (expected < 5)
    for j in np.flatnonzero(ok):
        method[j] = "chi2"
    for j in np.flatnonzero(small):
        table = [[int(s1[j]), int(n1[j] - s1[j])], [int(s2[j]), int(n2[j] - s2[j])]]
        p[j] = float(fisher_exact(table).pvalue)
        method[j] = "fisher"
    return p, method


def _cohen_h(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return 2 * np.arcsin(np.sqrt(np.clip(a, 0, 1))) - 2 * np.arcsin(np.sqrt(np.clip(b, 0, 1)))


@dataclass(frozen=True)
class FoundSlices(Display):
    """The slices where the metric is worst, found by searching the lattice under false-discovery control."""

    metric: str
    higher_is_better: bool
    overall: dict[str, Any]
    columns: list[str]
    max_depth: int
    examined: int
    testable: int
    found: list[dict[str, Any]]
    dropped: list[dict[str, Any]]
    alpha: float
    min_slice: int
    method: dict[str, str]
    notes: list[str]
    signature: dict[str, Any]
    bins: dict[str, list[float]] = field(default_factory=dict)

    @property
    def survived(self) -> int:
        return len(self.found) + len(self.dropped)

    def to_dict(self) -> dict[str, Any]:
        return {"result": "find_slices", "metric": self.metric, "higher_is_better": self.higher_is_better,
                "overall": dict(self.overall), "columns": list(self.columns), "max_depth": self.max_depth,
                "examined": self.examined, "testable": self.testable, "survived": self.survived,
                "found": [dict(f) for f in self.found], "dropped": [dict(d) for d in self.dropped],
                "alpha": self.alpha, "min_slice": self.min_slice, "method": dict(self.method),
                "bins": {k: list(v) for k, v in self.bins.items()}, "notes": list(self.notes),
                "signature": self.signature}


METHOD = {
    "test": "slice against the rest of the data: Pearson's two-proportion χ² test, two-sided (Fisher's exact test "
            "when an expected count is below 5)",
    "adjustment": "Benjamini–Yekutieli over every testable slice examined (all depths): false-discovery rate ≤ alpha "
                  "under any dependence between overlapping slices",
    "found": "adjusted p ≤ alpha, worse than the rest, and at least min_slice items",
    "ranking": "by Cohen's h (2·asin√p_rest − 2·asin√p_slice; positive = worse), the gap to the rest beside it",
    "parent_rule": "a found cross is dropped when a parent slice (one column fewer) is found too and the cross is "
                   "not significantly worse than the rest of that parent (two-proportion test, unadjusted, at alpha)",
    "interval": "Wilson score interval of the slice's proportion at 95%",
}


def _name(cs: tuple[str, ...], values: Sequence[Any]) -> str:
    return " ∧ ".join(f"{c}={v}" for c, v in zip(cs, values, strict=False))


def search_tables(tables: Sequence[Any], metric: str, *, alpha: float = 0.05, min_slice: int = 30,
                  max_depth: int = 2, notes: Sequence[str] = ()) -> FoundSlices:
    """The search on the slice tables of every column set of the lattice
    (:class:`clfeval.core.slicecount.SliceTables`: ``columns``, ``keys`` (value tuples), ``labels``, ``counts``)."""
    from clfeval.evaluate.intervals import wilson
    from clfeval.significance.classic import benjamini_yekutieli

    labels = tables[0].labels
    fn, higher = proportions(metric, labels)
    total = tables[0].counts.sum(axis=0)
    for t in tables[1:]:
        if tuple(t.labels) != tuple(labels) or not np.array_equal(t.counts.sum(axis=0), total):
            raise AssertionError(f"the slice tables of {t.columns} do not add up to the overall table")
    s_all, n_all = (float(x) for x in fn(total))
    rows: list[dict[str, Any]] = []
    for t in tables:
        cs = tuple(t.columns)
        s, n = fn(t.counts)
        items = t.counts.sum(axis=(1, 2))
        for j, key in enumerate(t.keys):
            vals = [_plain(v) for v in key]
            rows.append({"columns": list(cs), "values": vals, "slice": _name(cs, vals), "items": int(items[j]),
                         "successes": int(s[j]), "trials": int(n[j]), "_key": (cs, tuple(key))})
    s = np.array([r["successes"] for r in rows], dtype=np.float64)
    n = np.array([r["trials"] for r in rows], dtype=np.float64)
    p, how = _two_proportion_p(s, n, s_all - s, n_all - n)
    adj = benjamini_yekutieli(p)
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.where(n > 0, s / np.where(n > 0, n, 1), math.nan)
        rest = np.where(n_all - n > 0, (s_all - s) / np.where(n_all - n > 0, n_all - n, 1), math.nan)
    h = _cohen_h(rest, v) if higher else _cohen_h(v, rest)
    ci = wilson(s, n, 0.95)
    for j, r in enumerate(rows):
        r.update(value=_f(v[j]), rest_value=_f(rest[j]), gap=_f(v[j] - rest[j]), effect_h=_f(h[j]),
                 p_value=_f(p[j]), p_adjusted=_f(adj[j]), test=how[j],
                 interval=None if not np.all(np.isfinite(ci[j])) else [float(ci[j][0]), float(ci[j][1])])
    worse = np.isfinite(h) & (h > 0)
    hit = [j for j in range(len(rows)) if np.isfinite(adj[j]) and adj[j] <= alpha and worse[j]
           and rows[j]["items"] >= min_slice]
    by_key = {rows[j]["_key"]: j for j in range(len(rows))}
    hit_set = {rows[j]["_key"] for j in hit}
    found, dropped = [], []
    for j in hit:
        r = rows[j]
        cs, digits = r["_key"]
        explained = None
        if len(cs) > 1:
            for drop in range(len(cs)):
                parent = (cs[:drop] + cs[drop + 1:], digits[:drop] + digits[drop + 1:])
                if parent not in hit_set:
                    continue
                q = rows[by_key[parent]]
                ps, pn = q["successes"] - r["successes"], q["trials"] - r["trials"]
                pp, _ = _two_proportion_p(np.array([r["successes"]]), np.array([r["trials"]]), np.array([ps]),
                                          np.array([pn]))
                sub_rest = ps / pn if pn else math.nan
                still_worse = (r["value"] < sub_rest) if higher else (r["value"] > sub_rest)
                if not (np.isfinite(pp[0]) and pp[0] <= alpha and still_worse):
                    explained = q["slice"]
                    break
        out = {k: x for k, x in r.items() if k != "_key"}
        if explained is None:
            found.append(out)
        else:
            dropped.append({**out, "explained_by": explained})
    found.sort(key=lambda r: (-r["effect_h"], r["gap"] if higher else -r["gap"], r["slice"]))
    testable = int(np.isfinite(p).sum())
    n_notes = list(notes)
    if not found:
        n_notes.append(f"No slice is significantly worse than the rest after the Benjamini–Yekutieli adjustment over "
                       f"{testable:,} testable slices at alpha {alpha:g}.")
    small = sum(1 for r in rows if r["items"] < min_slice)
    if small:
        n_notes.append(f"{small:,} slice{'s' if small != 1 else ''} below {min_slice} items "
                       f"{'were' if small != 1 else 'was'} tested and counted in the adjustment, but never called the "
                       "worst.")
    overall = {"value": _f(s_all / n_all) if n_all else None, "successes": int(s_all), "trials": int(n_all),
               "items": int(total.sum())}
    cols = [t.columns[0] for t in tables if len(t.columns) == 1]
    sig = build_signature({"result": "find_slices", "metric": metric, "alpha": alpha, "min_slice": min_slice,
                           "max_depth": max_depth, "columns": cols})
    bins = {}
    for t in tables:
        for c, b in (t.binning or {}).items():
            bins[c] = [float(e) for e in (b["edges"] if isinstance(b, dict) else getattr(b, "edges", b))]
    return FoundSlices(metric, higher, overall, cols, max_depth, len(rows), testable, found, dropped, alpha,
                       min_slice, dict(METHOD), n_notes, sig, bins)


def _plain(v: Any) -> Any:
    """A slice value as JSON holds it (NumPy scalars as Python ones)."""
    return v.item() if hasattr(v, "item") else v


def _f(x: Any) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None
