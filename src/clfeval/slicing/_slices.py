"""How good is it for whom: the ``slices`` section of a report, from the slice tables of one column set.

For each slice: its size, the catalogue metrics of its table, the gap to the overall value and to the rest of the
data (the overall table minus the slice's), the majority baseline of the slice, intervals with ``ci``; across the
slices a heterogeneity test per tested metric and per slice a slice-vs-rest test, adjusted with Holm and
Benjamini–Yekutieli (:mod:`clfeval.slicing._slicetests`); with a positive class, the group fairness measures
as fairlearn defines them (:mod:`clfeval.slicing._fairness`). Everything comes from the count tables.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from clfeval.core import (
    Evaluation,
    SliceTables,
    TableStats,
    catalog,
    check_rng,
    check_zero_division,
    label_str,
    resolve_label,
)
from clfeval.errors import UsageError
from clfeval.slicing import _slicetests as T
from clfeval.stats import two_by_two

__all__ = ["slice_section", "default_metrics", "metric_function", "slices_frame", "pandas_or_extra", "MIN_SLICE",
           "ALPHA", "RANKING_METRICS"]

#: Slices below this many items are shown but never called the worst, and not tested.
MIN_SLICE = 30
ALPHA = 0.05
_COMMON = ("accuracy", "balanced_accuracy", "macro_precision", "macro_recall", "macro_f1", "weighted_f1", "mcc",
           "kappa")
_PER_LABEL_SHOWN = 20
#: The ranking metrics each slice gets from a score column (:func:`with_rankings`).
RANKING_METRICS = ("roc_auc", "average_precision")


def metric_function(name: str, labels: Sequence[str], zero_division: float, beta: float) -> Callable[[np.ndarray], Any]:
    """A catalogue count metric as a function of stacks of K×K tables (..., K, K) → (...)."""
    m, lab = catalog.parse(name)
    if m.input != "counts" or "multiclass" not in m.tasks:
        raise UsageError(lambda o: f"option {o}: {name!r} is not a count metric of single-label data; choose among "
                                   f"{catalog.valid_names_text(input='counts', task='multiclass')}.",
                         params=["slice_metrics"])
    index = None if lab is None else resolve_label(lab, list(labels), option="slice_metrics")

    def fn(stack: np.ndarray, _k: str = m.key, _i: int | None = index) -> Any:
        v = Evaluation(TableStats.of_matrix(np.asarray(stack)), zero_division, beta)(_k)[0]
        return v[..., _i] if _i is not None else v

    return fn


def default_metrics(labels: Sequence[str], positive: str | None) -> tuple[list[str], list[str]]:
    """(metrics shown per slice, metrics tested): with a positive class its recall, precision, FPR and accuracy;
    otherwise accuracy and each class's recall (up to ten classes). The default tests are of proportions (a
    chi-square across slices, a 2×2 test per slice: exact nulls, no redraws); F1, MCC, kappa and the macro
    averages get their permutation tests when named (``metrics``)."""
    shown = list(_COMMON)
    if len(labels) <= _PER_LABEL_SHOWN:
        shown += [f"{m}:{lab}" for lab in labels for m in ("precision", "recall", "f1")]
    if positive is not None:
        shown += [f"specificity:{positive}", f"fpr:{positive}"]
        tested = [f"recall:{positive}", f"precision:{positive}", f"fpr:{positive}", "accuracy"]
    else:
        tested = ["accuracy"] + ([f"recall:{lab}" for lab in labels] if len(labels) <= 10 else [])
    return shown, tested


def _higher(name: str) -> bool | None:
    return catalog.parse(name)[0].higher_is_better


def _values(fn: Callable[[np.ndarray], Any], stack: np.ndarray) -> np.ndarray:
    return np.asarray(fn(stack), dtype=np.float64)


def _tests(name: str, labels: Sequence[str], counts: np.ndarray, testable: np.ndarray, values: np.ndarray,
           fn_nan: Callable[[np.ndarray], Any], samples: int, rng: np.random.Generator) -> tuple[dict, np.ndarray]:
    """Heterogeneity across the testable slices, and slice-vs-rest p-values (NaN where not tested)."""
    sub = counts[testable]
    overall = counts.sum(axis=0)
    p = np.full(counts.shape[0], np.nan)
    het: dict[str, Any]
    if T.is_proportion(name):
        lab = catalog.parse(name)[1]
        index = None if lab is None else resolve_label(lab, list(labels), option="slice_metrics")
        succ, trials = T.proportion_counts(name, counts, index)
        het = T.chi_square(succ[testable], trials[testable]) if testable.sum() >= 2 else \
            {"test": "chi-square", "statistic": None, "p": None, "why": "fewer than two slices to test"}
        tot_s, tot_n = succ.sum(), trials.sum()
        t = np.flatnonzero(testable)
        p[t] = two_by_two(succ[t], trials[t], tot_s - succ[t], tot_n - trials[t])[0]
        for_rest = ("slice against the rest: Pearson's chi-square on the 2×2 table (two-sided), Fisher's exact test "
                    "where an expected count is below 5")
    else:
        het = T.permutation_heterogeneity(fn_nan, sub, samples, rng) if testable.sum() >= 2 else \
            {"test": "permutation", "statistic": None, "p": None, "why": "fewer than two slices to test"}
        t = np.flatnonzero(testable & ~np.isnan(values))
        if t.size:
            p[t] = T.permutation_vs_rest(fn_nan, counts[t], overall, samples, rng)
        for_rest = (f"permutation test of |slice − rest| ({samples:,} multivariate-hypergeometric redraws of the "
                    f"slice's table)")
    het["across"] = int(testable.sum())
    return {**het, "slice_vs_rest": for_rest}, p


def _slice_intervals(counts: np.ndarray, labels: Sequence[str], tested: Sequence[str], positive: int | None, *,
                     level: float, samples: int, seed: Any, method: Any, zero_division: float, beta: float
                     ) -> tuple[list[dict[str, list[float | None]]], dict[str, dict[str, int]], str]:
    """Each slice's intervals of the ``tested`` metrics: the overall report's intervals
    (:func:`clfeval.evaluate.table_ci`, the same ``method``, ``level``, ``samples`` and ``seed``) run on the slice's own
    table. Returns (per slice {metric: [low, high]}, per metric {method used: slices}, the method in words).
    An empty slice, an undefined or an infinite end is None."""
    from clfeval.evaluate import table_ci

    paths = _ci_paths(labels, positive)
    per: list[dict[str, list[float | None]]] = []
    used: dict[str, dict[str, int]] = {m: {} for m in tested}
    words = ""
    for table in counts:
        if not int(table.sum()):
            per.append({m: [None, None] for m in tested})
            continue
        got = table_ci(table, labels, level=level, samples=samples, seed=seed, zero_division=zero_division,
                       beta=beta, positive=positive, method=method)
        words = words or str(got["method"])
        methods = got.get("methods") or {}
        row: dict[str, list[float | None]] = {}
        for m in tested:
            path = paths.get(m)
            node: Any = got
            for key in path or ():
                node = node.get(key) if isinstance(node, dict) else None
            if path is None or node is None:
                row[m] = [None, None]
                continue
            row[m] = [float(x) if x is not None and math.isfinite(x) else None for x in node]
            name = methods.get(".".join(path), "percentile")
            used[m][name] = used[m].get(name, 0) + 1
        per.append(row)
    return per, used, words


def _ci_paths(labels: Sequence[str], positive: int | None) -> dict[str, tuple[str, ...]]:
    """A catalogue metric name (``recall:pos``, ``macro_f1``) → its path in :func:`~clfeval.evaluate.table_ci`'s
    intervals (a per-class path before the ``binary`` one)."""
    from clfeval.core import leaves

    k = len(labels)
    out: dict[str, tuple[str, ...]] = {}
    for m, path, _, _ in leaves(TableStats.of_matrix(np.eye(k, dtype=np.int64)[None]), list(labels),
                                positive=positive):
        label = path[1] if path[0] == "per_class" else (labels[positive] if m.per_label and positive is not None
                                                        else None)
        out.setdefault(m.name if label is None else f"{m.name}:{label}", path)
    return out


def slice_section(tables: SliceTables, *, positive: Any = None, beta: float = 1.0, zero_division: Any = 0,
                  min_slice: int = MIN_SLICE, metrics: Sequence[str] | None = None, samples: int = 1_000,
                  seed: Any = 0, ci: float | None = None, ci_samples: int = 2_000, alpha: float = ALPHA,
                  ci_method: Any = "auto") -> dict:
    """The ``slices`` section of a report from the slice tables of one column set (see the module docstring).

    ``metrics``: the metrics tested (and shown); default :func:`default_metrics`. ``samples``: redraws of each
    permutation test; ``ci``/``ci_samples``/``ci_method``: the intervals of the tested metrics per slice, each the
    overall report's intervals (:func:`clfeval.evaluate.table_ci`, the same method and seed) on the slice's table.
    """
    zd = check_zero_division(zero_division)
    if int(min_slice) < 1:
        raise UsageError(lambda o: f"option {o} must be a whole number ≥ 1; got {min_slice!r}.", params=["min_slice"])
    labels = [label_str(x) for x in tables.labels]
    pos = None if positive is None else labels[resolve_label(positive, list(tables.labels), option="positive")]
    shown, tested = default_metrics(labels, pos)
    if metrics:
        tested = list(dict.fromkeys(metrics))
        shown = list(dict.fromkeys(shown + tested))
    rng = check_rng(seed)
    counts = tables.counts
    sizes = tables.sizes
    overall = counts.sum(axis=0)
    rest = overall[None] - counts
    names = tables.names()
    fns = {m: metric_function(m, labels, zd, beta) for m in shown}
    nan_fns = {m: metric_function(m, labels, math.nan, beta) for m in shown}
    vals = {m: _values(fns[m], counts) if counts.shape[0] else np.empty(0) for m in shown}
    undefined = {m: np.isnan(_values(nan_fns[m], counts)) if counts.shape[0] else np.empty(0, bool) for m in shown}
    over = {m: float(_values(fns[m], overall)) for m in shown}
    rest_vals = {m: _values(fns[m], rest) if counts.shape[0] else np.empty(0) for m in tested}
    testable = sizes >= int(min_slice)
    tests, pvals = {}, {}
    for m in tested:
        tests[m], pvals[m] = _tests(m, labels, counts, testable, _values(nan_fns[m], counts), nan_fns[m],
                                    int(samples), rng)
    adjusted = {m: (T.holm(p), T.benjamini_yekutieli(p)) for m, p in pvals.items()}
    gold_rows = counts.sum(axis=2)
    shares = {m: _successes(m, labels, counts) for m in tested if T.is_proportion(m)}  # every slice at once
    # every per-slice number made a Python one at once (as float() and int() make them), not slice by slice
    total = max(int(sizes.sum()), 1)
    n_l, share_l = sizes.tolist(), (sizes / total).tolist()
    classes_l = (gold_rows > 0).sum(axis=1).tolist()
    with np.errstate(divide="ignore", invalid="ignore"):
        majority_l = np.where(sizes > 0, gold_rows.max(axis=1, initial=0) / np.where(sizes > 0, sizes, 1),
                              math.nan).tolist()
    vals_l = {m: vals[m].tolist() for m in shown}
    gap_over_l = {m: (vals[m] - over[m]).tolist() for m in tested}
    no_rest = (sizes == int(sizes.sum())).tolist()  # one slice holds every item: the rest is empty, the gap undefined
    gap_rest_l = {m: [None if e else g for g, e in zip((vals[m] - rest_vals[m]).tolist(), no_rest, strict=True)]
                  for m in tested}
    undefined_l = {m: undefined[m].tolist() for m in shown}
    higher = {m: _higher(m) for m in tested}
    tests_l = {m: (pvals[m].tolist(), np.asarray(adjusted[m][0], dtype=np.float64).tolist(),
                   np.asarray(adjusted[m][1], dtype=np.float64).tolist()) for m in tested}
    shares_l = {m: tuple(np.asarray(x).astype(np.int64).tolist() for x in shares[m]) for m in shares}
    cis: list[dict[str, list[float | None]]] = []
    if ci is not None:
        pos_index = None if pos is None else labels.index(pos)
        cis, ci_used, ci_words = _slice_intervals(counts, labels, tested, pos_index, level=ci, samples=int(ci_samples),
                                                  seed=seed, method=ci_method, zero_division=zd, beta=beta)
    rows = []
    for i, name in enumerate(names):
        row: dict[str, Any] = {
            "slice": name, "key": {c: label_str(v) for c, v in zip(tables.columns, tables.keys[i], strict=False)},
            "n": n_l[i], "share": share_l[i],
            "small": bool(n_l[i] < min_slice), "gold_classes": classes_l[i],
            "metrics": {m: vals_l[m][i] for m in shown},
            "gap_to_overall": {m: gap_over_l[m][i] for m in tested},
            "gap_to_rest": {m: gap_rest_l[m][i] for m in tested},
            "undefined": [m for m in shown if undefined_l[m][i]] + [f"gap_to_rest:{m}" for m in tested if no_rest[i]],
            "baselines": {"majority_accuracy": majority_l[i]},
            "tests": {}}
        for m in tested:
            ps, hs, bs = tests_l[m]
            p = ps[i]
            if not math.isnan(p):
                hb = higher[m]
                gap = row["gap_to_rest"][m]
                worse = None if hb is None or not gap else (gap < 0) == bool(hb)
                row["tests"][m] = {"p": p, "p_holm": hs[i], "p_by": bs[i],
                                   "flagged": hs[i] <= alpha, "flagged_by": bs[i] <= alpha,
                                   "direction": None if worse is None else ("worse" if worse else "better")}
        if ci is not None:
            row["ci"] = cis[i]
        row["counts"] = {m: [shares_l[m][0][i], shares_l[m][1][i]] for m in shares}
        rows.append(row)
    worst = {}
    for m in tested:
        hb = _higher(m)
        cand = [i for i in range(len(rows)) if not rows[i]["small"] and not undefined[m][i]]
        if hb is not None and cand:
            pick = min(cand, key=lambda i: vals[m][i]) if hb else max(cand, key=lambda i: vals[m][i])
            worst[m] = rows[pick]["slice"]
    notes = _notes(rows, tables, min_slice, testable)
    perm = [m for m in tested if not T.is_proportion(m)]
    m_tested = int(testable.sum())
    if perm and m_tested and m_tested / (int(samples) + 1) > alpha:
        notes.append(f"The permutation tests ({', '.join(perm)}) draw {int(samples):,} redraws: their smallest "
                     f"p-value, 1/{int(samples) + 1:,}, cannot pass Holm's threshold over {m_tested:,} slices; raise "
                     f"--slice-samples above {int(m_tested / alpha):,} for a slice to be flagged by them.")
    out: dict[str, Any] = {
        "by": list(tables.columns), "n_slices": len(rows), "min_slice": int(min_slice), "labels": labels,
        "positive": pos, "metrics": shown, "tested": tested, "overall": over, "slices": rows,
        "heterogeneity": tests, "worst": worst, "alpha": alpha,
        "adjustment": {"methods": ["holm", "benjamini-yekutieli"], "family": "the slices tested, per metric",
                       "flagged": f"Holm-adjusted p ≤ {alpha:g}"},
        "samples": int(samples), "seed": seed if isinstance(seed, (int, type(None))) else str(seed), "notes": notes}
    if tables.binning:
        out["binning"] = [dict(v) for v in tables.binning.values()]
    if ci is not None:
        out["ci"] = {"level": ci, "method": "the overall intervals run on each slice's own table" + (
                         f" ({ci_words.removeprefix('per metric (see methods): ')})" if ci_words else ""),
                     "samples": int(ci_samples), "methods": ci_used}
    if pos is not None:
        from clfeval.slicing._fairness import fairness

        out["fairness"] = {"groups_in_order": names,
                           **fairness(counts, labels.index(pos), ci=ci, samples=ci_samples, rng=rng)}
    return out


def with_rankings(section: dict[str, Any], per: Sequence[Any], overall: Any, score: str) -> dict[str, Any]:
    """The ``slices`` section with each slice's ROC-AUC and average precision of the score column ``score`` (the
    ranking summaries ``per`` slice, in the section's order, and ``overall``; the catalogue's ranking metrics read
    them). A slice without positives or negatives has them undefined (listed under ``undefined``)."""
    from clfeval.core import DEFINITIONS

    names = RANKING_METRICS
    rows = []
    for row, summary in zip(section["slices"], per, strict=True):
        values = {m: float(_ranking_metric(m)(summary)) for m in names}
        undefined = [m for m in names if math.isnan(values[m])]
        rows.append({**row, "metrics": {**row["metrics"], **values}, "undefined": [*row["undefined"], *undefined],
                     "ranking": {"n_positive": summary.n_positive, "n_negative": summary.n_negative,
                                 "pairs": summary.pairs, "pairs_in_order": summary.pairs_in_order}})
    out = {**section, "slices": rows, "metrics": [*section["metrics"], *names],
           "overall": {**section["overall"], **{m: float(_ranking_metric(m)(overall)) for m in names}},
           "ranking": {"score": score, "positive": overall.positive, "metrics": list(names),
                       "definitions": {m: DEFINITIONS[m] for m in names},
                       "how": "one ranking summary per slice (exact pair counts, average precision summed per "
                              "slice) from one sort of the items by slice and score"}}
    return out


def _successes(name: str, labels: Sequence[str], tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(successes, trials) of a proportion metric in each of ``tables`` (S, K, K)."""
    lab = catalog.parse(name)[1]
    index = None if lab is None else resolve_label(lab, list(labels), option="slice_metrics")
    succ, trials = T.proportion_counts(name, tables, index)
    return np.asarray(succ), np.asarray(trials)


def _notes(rows: list[dict], tables: SliceTables, min_slice: int, testable: np.ndarray) -> list[str]:
    notes = []
    small = [r["slice"] for r in rows if r["small"]]
    if small:
        notes.append(f"{len(small):,} slice{'s' if len(small) != 1 else ''} below {min_slice} items "
                     f"({', '.join(small[:5])}{', …' if len(small) > 5 else ''}): shown, not tested and never called "
                     f"the worst.")
    one = [r["slice"] for r in rows if r["gold_classes"] == 1]
    if one:
        notes.append(f"{len(one):,} slice{'s' if len(one) != 1 else ''} hold{'s' if len(one) == 1 else ''} one gold "
                     f"class only ({', '.join(one[:5])}{', …' if len(one) > 5 else ''}): the metrics of the other "
                     f"classes are undefined there (listed per slice under undefined).")
    return notes


def pandas_or_extra(what: str) -> Any:
    """pandas, or :class:`~clfeval.errors.MissingExtra` naming the ``frame`` extra."""
    try:
        import pandas as pd
    except ImportError:
        from clfeval.errors import MissingExtra

        raise MissingExtra(f"{what} needs pandas", "frame") from None
    return pd


def slices_frame(result: Any) -> Any:
    """The slice table of a report by slice (``by=``) as a pandas DataFrame, one row per slice × metric
    (:meth:`clfeval.ops.report.SlicesPart.to_frame`, which ``report.slices.to_frame()`` gives too)."""
    from clfeval.ops.report import SlicesPart

    d = result if isinstance(result, dict) else result.to_dict()
    sec = d.get("slices")
    if not isinstance(sec, dict):
        raise UsageError("slices_frame reads a report by slice: give by= (--by) to the report.")
    pandas_or_extra("slices_frame")
    return SlicesPart.of(sec).to_frame()


def _ranking_metric(name: str) -> Callable[[Any], float]:
    """The catalogue's compute of a ranking metric (of a :class:`~clfeval.core._ranksummary.RankingSummary`)."""
    found = catalog.find(name)
    if found is None or found[0].input != "ranking":
        raise KeyError(name)
    return found[0].compute
