"""Curves with their uncertainty: bootstrap bands for the ROC and PR curves, intervals for ROC-AUC and AP.

A bootstrap replicate of a ranking redraws its items with replacement.
**Stratified** (the default, as pROC's curve intervals): the P positives and
the N negatives are redrawn separately, so every replicate has P positives
and N negatives and every curve is defined. **Plain**: the n items are
redrawn together; a replicate without positives (or negatives) has no curve
and is counted and left out. Items with the same score and class are one
group, so a replicate is a multinomial draw of the group counts — or, when
there are few ties, the same draw made item by item (random integers
counted per cut, much cheaper than a binomial per group) — and costs
O(groups + items) — no sort per replicate: the cuts are the distinct scores
of the data, and a replicate's TP and FP at every cut are cumulative sums of
its counts.

On each replicate the curves are read at fixed grids (*vertical averaging*,
Fawcett 2006 §8):

* ROC: TPR at each FPR f of the grid, on the ROC polyline through the cuts
  (linear between cuts, so its area is the ROC-AUC with ties counting ½); at
  an FPR where the curve rises vertically, the top of the rise;
* PR: precision at each recall ρ of the grid: the precision of the first cut
  (highest threshold) whose recall reaches ρ — the step curve whose area is
  average precision.

The band at a grid point is the pointwise percentile interval of the
replicates' values ((1 − level)/2 and (1 + level)/2 quantiles), beside the
observed curve and the replicates' mean (the vertically averaged curve).
Pointwise: a band covers each point with the stated probability, not the
whole curve at once. ROC-AUC and AP get percentile intervals from the same
replicates.

References
----------
* Fawcett (2006), "An introduction to ROC analysis", §8 (averaging ROC curves).
* Macskassy, Provost & Rosset (2005), "ROC confidence bands: an empirical evaluation".
* Robin et al. (2011), "pROC" (stratified bootstrap of curves).
* Efron & Tibshirani (1993), *An Introduction to the Bootstrap* (percentile intervals).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import (
    Display,
    RankingSummary,
    check_positive_int,
    check_probability,
    check_rng,
    number,
    numbers_list,
    score_counts,
    signature,
)
from clfeval.errors import DataError, UsageError
from clfeval.scores import SortedRanking, ranking, summary_of
from clfeval.stats import draw_items, draw_tables, resample as rs

__all__ = ["CurveBands", "curve_bands", "auc_replicates"]

# Float tolerance when a grid value meets a curve's FPR or recall (grids are decimal fractions).
_TOL = 1e-12
# Items are drawn one by one (not a multinomial over groups) when there are at most this many per group.
_ITEM_DRAW = 4


@dataclass(frozen=True)
class CurveBands(Display):
    """Bootstrap bands of the ROC and PR curves and intervals of ROC-AUC and AP.

    Attributes
    ----------
    fpr_grid, recall_grid : ndarray
        The grids the curves are read at.
    roc, pr : dict of ndarray
        ``observed``, ``low``, ``high``, ``mean`` at each grid point (TPR for
        ROC, precision for PR).
    roc_auc, average_precision : dict
        ``value`` (observed) and ``ci`` [low, high].
    undefined_replicates : int
        Replicates without a curve (plain resampling only), left out.
    """

    positive: str
    n_positive: int
    n_negative: int
    samples: int
    level: float
    stratified: bool
    fpr_grid: np.ndarray
    recall_grid: np.ndarray
    roc: dict[str, np.ndarray]
    pr: dict[str, np.ndarray]
    roc_auc: dict[str, Any]
    average_precision: dict[str, Any]
    undefined_replicates: int
    notes: list[str]
    signature: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        def curve(grid: np.ndarray, key: str, values: dict[str, np.ndarray]) -> dict[str, Any]:
            return {key: numbers_list(grid), **{k: numbers_list(v) for k, v in values.items()}}

        def interval(d: dict[str, Any]) -> dict[str, Any]:
            return {"value": number(d["value"]), "ci": [number(x) for x in d["ci"]]}

        return {"positive": self.positive, "n_positive": self.n_positive, "n_negative": self.n_negative,
                "samples": self.samples, "seed": self.signature.get("seed"), "level": self.level,
                "resampling": "stratified" if self.stratified else "plain", "band": "pointwise percentile",
                "roc": curve(self.fpr_grid, "fpr", self.roc), "pr": curve(self.recall_grid, "recall", self.pr),
                "roc_auc": interval(self.roc_auc), "average_precision": interval(self.average_precision),
                "undefined_replicates": self.undefined_replicates, "notes": list(self.notes),
                "signature": self.signature}


def _grid(value: Any, option: str) -> np.ndarray:
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return np.linspace(0.0, 1.0, check_positive_int(int(value), option=option, minimum=2))
    try:
        g = np.asarray(value, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        g = np.array([np.nan])
    if g.size == 0 or not np.all(np.isfinite(g)) or g.min() < 0 or g.max() > 1 or np.any(np.diff(g) <= 0):
        raise UsageError(f"option {option} must be a number of points (>= 2) or increasing values in [0, 1]; "
                         f"got {value!r}.")
    return g


class _Groups:
    """The distinct scores (cuts) of a ranking and its (score, class) groups."""

    def __init__(self, rk: SortedRanking | RankingSummary) -> None:
        # from the summary's per-distinct-score counts (no sort of the scores): cut k is the k-th largest
        # distinct score; each class's groups in increasing score order (the order the draws have always used)
        p, q = score_counts(rk.summary if isinstance(rk, SortedRanking) else rk)
        self.size = int(p.size)
        up, un = p[::-1], q[::-1]
        self.ip = self.size - 1 - np.flatnonzero(up)
        self.ineg = self.size - 1 - np.flatnonzero(un)
        self.pos_c, self.neg_c = up[up > 0], un[un > 0]
        self.P, self.N = int(self.pos_c.sum()), int(self.neg_c.sum())
        # Few ties: a replicate draws items (integers, then counts per cut) instead of a multinomial over groups,
        # whose binomial per group costs far more than one random integer per item. Same distribution.
        self.by_item = self.P + self.N <= _ITEM_DRAW * (self.pos_c.size + self.neg_c.size)
        if self.by_item:
            self.pos_cut = np.repeat(self.ip, self.pos_c)  # cut of every positive item
            self.neg_cut = np.repeat(self.ineg, self.neg_c)

    def rows(self) -> int:
        """Replicates per chunk, within the memory bound."""
        per = max(self.size, self.P + self.N if self.by_item else 1)
        return max(1, (rs.BUDGET // 4) // per)

    def _count(self, cuts: np.ndarray, width: int) -> np.ndarray:
        c = cuts.shape[0]
        flat = (cuts + (np.arange(c, dtype=np.int64) * width)[:, None]).ravel()
        return np.bincount(flat, minlength=c * width).reshape(c, width)

    def draw(self, rng: np.random.Generator, c: int, stratified: bool) -> tuple[np.ndarray, np.ndarray]:
        """(TP, FP) added at every cut (decreasing threshold) by each of ``c`` replicates, shape (c, cuts)."""
        if self.by_item and stratified:
            return (self._count(self.pos_cut[draw_items(self.P, c, rng)], self.size),
                    self._count(self.neg_cut[draw_items(self.N, c, rng)], self.size))
        if self.by_item:
            cuts = np.concatenate([self.pos_cut, self.neg_cut + self.size])  # negatives counted in a second block
            both = self._count(cuts[draw_items(self.P + self.N, c, rng)], 2 * self.size)
            return both[:, :self.size], both[:, self.size:]
        if stratified:
            wp = draw_tables(self.pos_c, c, rng)
            wn = draw_tables(self.neg_c, c, rng)
        else:
            w = draw_tables(np.concatenate([self.pos_c, self.neg_c]), c, rng)
            wp, wn = w[:, :self.pos_c.size], w[:, self.pos_c.size:]
        return self.at_cuts(wp, wn)

    def at_cuts(self, wp: np.ndarray, wn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Group counts (c, groups) of each class placed at their cuts, shape (c, cuts)."""
        tp = np.zeros((wp.shape[0], self.size), dtype=np.int64)
        fp = np.zeros((wn.shape[0], self.size), dtype=np.int64)
        tp[:, self.ip] = wp
        fp[:, self.ineg] = wn
        return tp, fp

    @staticmethod
    def cumulative(tp: np.ndarray, fp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """TP and FP at every cut (decreasing threshold), shape (c, cuts), from what each cut adds."""
        return np.cumsum(tp, axis=1, dtype=np.float64), np.cumsum(fp, axis=1, dtype=np.float64)


def _evaluate(tp: np.ndarray, fp: np.ndarray, fpr_grid: np.ndarray, recall_grid: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(TPR at fpr_grid, precision at recall_grid, ROC-AUC, AP) of each row; NaN rows without a curve."""
    c = tp.shape[0]
    P, N = tp[:, -1], fp[:, -1]
    ok = (P > 0) & (N > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.concatenate([np.zeros((c, 1)), fp / N[:, None]], axis=1)
        y = np.concatenate([np.zeros((c, 1)), tp / P[:, None]], axis=1)
        # trapezoids on the counts (integers): Σ ΔFP·(TP_k + TP_(k−1)) / (2PN), exact ties ½
        tp0 = np.concatenate([np.zeros((c, 1)), tp], axis=1)
        auc = np.sum(np.diff(np.concatenate([np.zeros((c, 1)), fp], axis=1), axis=1) * (tp0[:, 1:] + tp0[:, :-1]),
                     axis=1) / (2 * P * N)
        gain = np.diff(y, axis=1)
        prec = tp / (tp + fp)
        ap = np.sum(np.where(gain > 0, gain * prec, 0.0), axis=1)
    roc = np.full((c, fpr_grid.size), np.nan)
    pr = np.full((c, recall_grid.size), np.nan)
    for r in np.flatnonzero(ok):
        xr, yr = x[r], y[r]
        k = np.searchsorted(xr, fpr_grid + _TOL, side="right") - 1  # last point with FPR <= f: the top of a rise
        at = xr[k] >= fpr_grid - _TOL
        k1 = np.minimum(k + 1, xr.size - 1)
        span = xr[k1] - xr[k]
        with np.errstate(divide="ignore", invalid="ignore"):
            between = yr[k] + (yr[k1] - yr[k]) * (fpr_grid - xr[k]) / span
        roc[r] = np.where(at | (span <= 0), yr[k], between)
        first = int(np.argmax(tp[r] + fp[r] > 0))  # cuts above it hold no drawn item: no precision
        rec = yr[1:]
        j = np.searchsorted(rec[first:], recall_grid - _TOL, side="left") + first
        pr[r] = prec[r, np.minimum(j, rec.size - 1)]
    auc[~ok] = np.nan
    ap[P <= 0] = np.nan
    return roc, pr, auc, ap


def _bands(reps: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ok = np.all(np.isfinite(reps), axis=1)
    if not ok.any():
        nan = np.full(reps.shape[1], np.nan)
        return nan, nan, nan
    good = reps[ok]
    ends = rs.percentile_ends(np.sort(good.T, axis=1), level)  # the percentile interval at every grid point
    return ends[:, 0], ends[:, 1], good.mean(axis=0)


def curve_bands(gold: Any, scores: Any = None, *, positive: Any = None, samples: int = 1000,
                seed: int | np.random.Generator = 0, level: float = 0.95, stratified: bool = True,
                fpr_grid: Any = 101, recall_grid: Any = 101) -> CurveBands:
    """Bootstrap bands of the ROC and PR curves, and percentile intervals of ROC-AUC and average precision.

    Parameters
    ----------
    gold : sequence of labels, or a ranking (:class:`clfeval.RankingResult` of ``clfeval.ranking``, or its
        :class:`~clfeval.core.RankingSummary`)
        With a ranking, ``scores`` and ``positive`` are not needed.
    scores : sequence of numbers
        One finite score per item (higher = more positive).
    positive : label
        The positive class.
    samples : int
        Bootstrap replicates.
    seed : int or numpy.random.Generator
        The same seed gives the same bands.
    level : float
        Level of the pointwise bands and the intervals.
    stratified : bool
        Redraw positives and negatives separately (default), or all items together.
    fpr_grid, recall_grid : int or sequence of float
        Number of evenly spaced points in [0, 1], or the points themselves (increasing).

    Returns
    -------
    CurveBands

    Examples
    --------
    Worked example 8: ten documents, the positives at ranks 1, 2 and 4.

    >>> b = curve_bands([1, 1, 0, 1, 0, 0, 0, 0, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], positive=1,
    ...                 samples=500, fpr_grid=[0.0, 0.5, 1.0], recall_grid=[0.5, 1.0])
    >>> round(b.roc_auc["value"], 4), round(b.average_precision["value"], 4)
    (0.9524, 0.9167)
    >>> b.roc["observed"].tolist(), [round(p, 4) for p in b.pr["observed"].tolist()]
    ([0.6666666666666666, 1.0, 1.0], [1.0, 0.75])
    >>> b.roc_auc["ci"][0] <= 0.9524 <= b.roc_auc["ci"][1]
    True
    """
    samples = check_positive_int(samples, option="samples", minimum=2)
    level = check_probability(level, option="level")
    fg, rg = _grid(fpr_grid, "fpr_grid"), _grid(recall_grid, "recall_grid")
    rng = check_rng(seed)
    held = summary_of(gold)
    rk = held if held is not None else ranking(gold, scores, positive=positive).summary
    if rk.n_positive == 0 or rk.n_negative == 0:
        raise DataError(f"the ranking has {rk.n_positive} positive and {rk.n_negative} negative items; the ROC and "
                        f"PR curves need both.")
    groups = _Groups(rk)
    obs = _evaluate(*groups.cumulative(*groups.at_cuts(groups.pos_c[None, :], groups.neg_c[None, :])), fg, rg)
    rows = groups.rows()
    parts = []
    for start in range(0, samples, rows):
        c = min(rows, samples - start)
        parts.append(_evaluate(*groups.cumulative(*groups.draw(rng, c, stratified)), fg, rg))
    roc, pr, auc, ap = (np.concatenate([p[i] for p in parts]) for i in range(4))
    undefined = int(np.count_nonzero(~np.isfinite(auc)))
    notes = ["Bands are pointwise: each covers the curve at its grid point with the stated probability, not the "
             "whole curve at once.",
             "ROC: TPR on the polyline through the cuts (the top of a vertical rise at its FPR); PR: the precision "
             "of the first cut whose recall reaches the grid value."]
    if undefined:
        notes.append(f"{undefined} of {samples} replicates drew no positive or no negative item: they have no curve "
                     f"and are left out of the bands and intervals.")
    lo, hi, mean = _bands(roc, level)
    roc_d = {"observed": obs[0][0], "low": lo, "high": hi, "mean": mean}
    lo, hi, mean = _bands(pr, level)
    pr_d = {"observed": obs[1][0], "low": lo, "high": hi, "mean": mean}
    auc_d = {"value": float(obs[2][0]), "ci": rs.percentile_interval(auc, level)}
    ap_d = {"value": float(obs[3][0]), "ci": rs.percentile_interval(ap, level)}
    sig = signature("curve_bands", {"level": level, "resampling": "stratified" if stratified else "plain",
                                    "band": "pointwise percentile", "fpr_points": int(fg.size),
                                    "recall_points": int(rg.size), "positive": rk.positive},
                    seed=seed, samples=samples, random=True)
    return CurveBands(rk.positive, rk.n_positive, rk.n_negative, samples, level, bool(stratified), fg, rg, roc_d,
                      pr_d, auc_d, ap_d, undefined, notes, sig)


def auc_replicates(rk: SortedRanking | RankingSummary, samples: int, rng: np.random.Generator,
                   stratified: bool = True) -> np.ndarray:
    """ROC-AUC of ``samples`` bootstrap replicates of a ranking (the draws of :func:`curve_bands`, without the
    curves): the replicates of the percentile and BCa intervals of :mod:`clfeval.significance._aucintervals`."""
    groups = _Groups(rk)
    rows = groups.rows()
    out = np.empty(samples)
    for start in range(0, samples, rows):
        c = min(rows, samples - start)
        tp, fp = groups.cumulative(*groups.draw(rng, c, stratified))
        z = np.zeros((c, 1))
        tp0 = np.concatenate([z, tp], axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            out[start:start + c] = np.sum(np.diff(np.concatenate([z, fp], axis=1), axis=1) * (tp0[:, 1:] + tp0[:, :-1]),
                                          axis=1) / (2 * tp[:, -1] * fp[:, -1])
    return out
