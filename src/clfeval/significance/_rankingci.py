"""Intervals of a ranking's ROC-AUC and average precision, and bands of its curves: the report's ``ranking_ci``.

For one score column (a positive class) or one column per label
(one-vs-rest), each ranking gets

* ROC-AUC with **DeLong's** Wald interval (:func:`clfeval.significance._delong.delong_auc`:
  exact variance of the Mann–Whitney statistic, O(n log n)) and the
  **bootstrap** percentile interval beside it (stratified: positives and
  negatives redrawn separately, :func:`clfeval.significance._curvebands.curve_bands`);
* average precision with its bootstrap percentile interval (no closed form);
* pointwise bootstrap bands of the ROC curve (TPR at fixed FPRs) and of the
  PR curve (precision at fixed recalls), which the figures draw.

A bootstrap replicate of a ranking costs O(U) for U distinct scores, so the
replicates are bounded: at most ``samples``, and at most
:data:`CELL_BUDGET` / U; below :data:`MIN_SAMPLES` the bootstrap is left out
(and the section says so) — DeLong's interval is always there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from clfeval.core import RankingSummary, check_probability, check_rng, check_samples, label_str, number, score_counts
from clfeval.evaluate import (
    DEFAULT_RANKING,
    METHOD_NAMES,
    RankingIntervals,
    check_method_labels,
    parse_ci_methods,
    ranking_method,
)
from clfeval.scores import SortedRanking, ranking, ranking_ovr, summary_of
from clfeval.significance._aucintervals import TOO_FEW, auc_interval, too_narrow_auc
from clfeval.significance._curvebands import curve_bands
from clfeval.significance._delong import delong_auc

__all__ = ["ranking_ci", "with_ranking_ci", "CELL_BUDGET", "MIN_SAMPLES", "GRID_POINTS"]

#: Most (replicates × distinct scores) spent on one ranking's bootstrap (about 3 s on one core).
CELL_BUDGET = 30_000_000
#: Fewer replicates than this are not worth an interval: the bootstrap is left out.
MIN_SAMPLES = 200
#: Points of the FPR and recall grids of the bands.
GRID_POINTS = 51


def _chosen(rk: RankingSummary, method: str, level: float, samples: int, rng: np.random.Generator,
            entry: dict[str, Any]) -> dict[str, Any]:
    """The ROC-AUC interval of ``method`` (the default: logit DeLong, the best worst-cell coverage measured by
    ``bench/ci_coverage.py``), with the sentence that it may be too narrow where the table says it under-covers."""
    if method == "delong":
        ci = entry["roc_auc"]["delong"]["ci"]
    elif method == "percentile" and "bootstrap" in entry["roc_auc"]:
        ci = entry["roc_auc"]["bootstrap"]["ci"]
    else:
        ci = [number(x) for x in auc_interval(rk, method, level=level, samples=samples, rng=rng)]
    out: dict[str, Any] = {"method": method, "name": METHOD_NAMES[method], "ci": ci}
    auc = float(entry["roc_auc"]["value"])
    if too_narrow_auc(auc, rk.n_positive, rk.n_negative):
        worst = min(rk.n_positive, rk.n_negative) * (1 - max(auc, 1 - auc))
        out["too_narrow"] = (f"The ROC-AUC interval may be too narrow here: with {rk.n_positive:,} positive and "
                             f"{rk.n_negative:,} negative items at ROC-AUC {auc:.3f}, min(positives, negatives)·"
                             f"(1 − AUC) = {worst:.1f} < {TOO_FEW:g}, where bench/ci_coverage.py measured coverage "
                             f"below 93%.")
    return out


def _one(ranked: SortedRanking | RankingSummary, level: float, samples: int, rng: np.random.Generator,
         method: str = DEFAULT_RANKING) -> tuple[dict[str, Any], int | None]:
    """(entry, replicates used) of one ranking; replicates None when its bootstrap was left out. Every interval
    is a function of the ranking's summary (its per-distinct-score counts)."""
    rk = summary_of(ranked)
    assert rk is not None
    if rk.n_positive == 0 or rk.n_negative == 0:
        why = (f"{rk.n_positive} positive and {rk.n_negative} negative items: ROC-AUC and its intervals need both")
        return {"positive": rk.positive, "undefined": why}, None
    d = delong_auc(rk, level=level)
    out: dict[str, Any] = {
        "positive": rk.positive, "n_positive": rk.n_positive, "n_negative": rk.n_negative,
        "roc_auc": {"value": number(d.auc), "delong": {"ci": [number(x) for x in d.ci], "se": number(d.se),
                                                       "truncated": d.truncated}},
        "average_precision": {"value": number(rk.average_precision)}}
    distinct = int(score_counts(rk)[0].size)  # the summary's distinct scores (no sort)
    b = min(samples, CELL_BUDGET // max(distinct, 1))
    used: int | None = b if b >= MIN_SAMPLES else None
    if used is None:
        out["bootstrap_left_out"] = (f"{distinct:,} distinct scores: a bootstrap replicate costs one pass over them, "
                                     f"and {MIN_SAMPLES} replicates would exceed the budget of {CELL_BUDGET:,} "
                                     f"replicate × score steps; DeLong's interval is given")
    else:
        bands = curve_bands(rk, samples=b, seed=rng, level=level, fpr_grid=GRID_POINTS,
                            recall_grid=GRID_POINTS).to_dict()
        out["roc_auc"]["bootstrap"] = {"ci": bands["roc_auc"]["ci"]}
        out["average_precision"]["bootstrap"] = {"ci": bands["average_precision"]["ci"]}
        out["bands"] = {"roc": bands["roc"], "pr": bands["pr"]}
    # the chosen interval after the bootstrap: a percentile choice is that bootstrap's interval (one value per
    # metric and method), not a second draw
    if d.undefined:
        out["roc_auc"]["delong"]["undefined"] = d.undefined[0]["reason"]
    else:
        roc = out["roc_auc"]
        roc["interval"] = _chosen(rk, method, level, samples, rng, out)
        out["roc_auc"] = {k: roc[k] for k in ("value", "delong", "interval", "bootstrap") if k in roc}
    return out, used


def ranking_ci(gold: Any, scores: Any, *, positive: Any = None, multilabel: bool = False, sep: str = "|",
               level: float = 0.95, samples: int = 2000, seed: int | np.random.Generator = 0,
               methods: Any = None) -> dict[str, Any]:
    """The ``ranking_ci`` section of a report: DeLong's and the bootstrap interval of ROC-AUC, AP's, the bands.

    Parameters
    ----------
    gold : sequence of labels (label sets with ``multilabel``)
    scores : one column (with ``positive``), or a mapping label → column (one-vs-rest)
    level : float
        Level of every interval and band.
    samples : int
        Bootstrap replicates asked for (fewer when the ranking has many
        distinct scores: see the module docstring; the section says how many).
    seed : int or numpy.random.Generator
        Seeds the bootstrap of every ranking in turn.
    methods : str, sequence of str or mapping, optional
        ``--ci-method`` values in any form :func:`clfeval.evaluate._cimethods.parse_ci_methods` reads
        (``roc_auc=delong``, ``roc_auc:spam=bca``, ``{"roc_auc": "delong"}``): the method of the headline
        ROC-AUC interval (``interval``), by default logit DeLong (the best worst-cell coverage in
        ``bench/ci_coverage.py``); DeLong's and the bootstrap percentile interval stay beside it.

    Returns
    -------
    dict
        ``level``, ``seed``, ``samples`` (asked), ``method``, ``notes`` and
        either the binary ranking's entry (``positive``, ``roc_auc`` with
        ``delong`` and ``bootstrap`` intervals, ``average_precision``,
        ``bands``, ``samples_used``) or ``labels`` and ``per_class``.

    Examples
    --------
    >>> s = ranking_ci([1, 1, 0, 1, 0, 0, 0, 0, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], positive=1, samples=500)
    >>> s["roc_auc"]["value"], [round(x, 4) for x in s["roc_auc"]["delong"]["ci"]]
    (0.9523809523809523, [0.8204, 1.0])
    >>> lo, hi = s["roc_auc"]["bootstrap"]["ci"]; lo < 0.9524 <= hi
    True
    """
    level = check_probability(level, option="ci")
    samples = check_samples(samples)
    rng = check_rng(seed)
    out: dict[str, Any] = {"level": level, "samples": samples,
                           "seed": int(seed) if isinstance(seed, (int, np.integer)) else None,
                           "method": {"roc_auc": "DeLong (Wald, truncated to [0, 1]) and the stratified bootstrap "
                                                 "percentile interval",
                                      "average_precision": "stratified bootstrap percentile interval",
                                      "bands": f"pointwise percentile bands at {GRID_POINTS} FPR / recall points"}}
    notes = ["Bootstrap replicates redraw the positive and the negative items separately (stratified), so every "
             "replicate has a curve; bands are pointwise, not simultaneous."]
    asked = parse_ci_methods(methods)
    if isinstance(scores, Mapping) or getattr(scores, "ndim", 1) == 2:
        ovr = ranking_ovr(gold, scores, multilabel=multilabel, sep=sep)
        check_method_labels(asked, [label_str(x) for x in ovr.labels], ranking=True)
        out["labels"] = list(ovr.labels)
        out["per_class"] = {}
        used = []
        for lab in ovr.labels:
            entry, b = _one(ovr.rankings[lab], level, samples, rng, ranking_method(label_str(lab), asked))
            entry["samples_used"] = b
            out["per_class"][lab] = entry
            used.append(b)
        notes.append("One-vs-rest: each label's ranking has its own intervals; the macro average has none here.")
    else:
        ranked = ranking(gold, scores, positive=positive)
        check_method_labels(asked, [label_str(ranked.summary.positive)], ranking=True)
        entry, b = _one(ranked, level, samples, rng, ranking_method(label_str(ranked.summary.positive), asked))
        entry["samples_used"] = b
        out.update(entry)
        used = [b]
    if any(b is not None and b < samples for b in used):
        notes.append(f"Fewer bootstrap replicates than the {samples:,} asked for where a ranking has many distinct "
                     f"scores (at most {CELL_BUDGET:,} replicate × score steps per ranking): see samples_used.")
    out["notes"] = notes
    return out


def with_ranking_ci(report: Any, gold: Any, scores: Any, **kwargs: Any) -> Any:
    """The report with its ``ranking_ci`` part (:func:`ranking_ci` of the same gold labels and scores)."""
    import dataclasses

    return dataclasses.replace(report, ranking_ci=RankingIntervals.of(ranking_ci(gold, scores, **kwargs)))
