"""Every count-based metric, computed from count tables only.

The functions here work on *stacks* of tables: a confusion table is an array
of shape ``(..., K, K)`` (rows = gold, columns = predicted), per-class counts
are arrays of shape ``(..., K)``. One table, a thousand bootstrap replicates
or ten cross-validation folds all go through the same code.

Undefined values
----------------
A ratio whose denominator is 0 (precision of a class never predicted, recall
of a class absent from gold, ...) is *undefined*. Every such value is filled
by one policy, ``zero_division``:

* ``0`` (default) — counts 0/0 as 0; the numbers then agree with
  scikit-learn's defaults, so results can be cross-checked;
* ``1`` — counts 0/0 as 1;
* ``nan`` — leaves the value undefined; undefined values are left out of
  macro and weighted averages (the mean is over the defined values only).

Whatever the policy, the report lists every metric and label that was
undefined, so every output can say which numbers were filled in.

A ratio of rates x/0 with x > 0 — the positive likelihood ratio of a class
never predicted for an item outside it, the diagnostic odds ratio when FP or
FN is 0 — is *infinite*, not 0/0: :func:`ratio` reports it as undefined
(NaN, ``null`` in JSON) whatever the policy, never as 0 and never as an
infinity.

The named metrics (what a report shows, what ``compare``, the protocol runner
and the run log accept by name) are listed in :mod:`clfeval.core._catalog`, which
maps each name to the functions here.

References
----------
* Sokolova & Lapalme (2009), "A systematic analysis of performance measures
  for classification tasks".
* Armano (2015), "A direct measure of discriminant and characteristic
  capability for classifier building and assessment" (δ and φ).
* Opitz & Burst (2019), "Macro F1 and Macro F1" (the two macro-F1s).
* Powers (2011), "Evaluation: from precision, recall and F-measure to ROC,
  informedness, markedness and correlation".
* Glas, Lijmer, Prins, Bonsel & Bossuyt (2003), "The diagnostic odds ratio: a
  single indicator of test performance".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from clfeval.core._exact import int_array, ratio_floats, sqrt_ratio_floats
from clfeval.errors import UsageError

__all__ = [
    "ClassCounts",
    "TableStats",
    "class_counts",
    "cut_counts",
    "binary_class_counts",
    "one_vs_rest_tables",
    "pooled",
    "safe_divide",
    "ratio",
    "precision",
    "recall",
    "specificity",
    "fpr",
    "fbeta",
    "f1",
    "delta",
    "phi_delta_of_counts",
    "phi",
    "npv",
    "fnr",
    "prevalence",
    "markedness",
    "lr_plus",
    "lr_minus",
    "dor",
    "accuracy",
    "balanced_accuracy",
    "balanced_accuracy_of_counts",
    "mcc",
    "mcc_of_counts",
    "kappa",
    "kappa_of_counts",
    "weighted_kappa",
    "ordinal_mae",
    "ordinal",
    "weighted_kappa_cells",
    "ordinal_mae_cells",
    "macro_average",
    "weighted_average",
    "f1_of_means",
    "hamming_loss",
    "jaccard",
]


class ClassCounts(NamedTuple):
    """Per-class TP, FP, FN, TN arrays of shape (..., K) (one class against all others)."""

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray

    @property
    def support(self) -> np.ndarray:
        """Gold items of each class: TP + FN."""
        out: np.ndarray = self.tp + self.fn
        return out


def cut_counts(tp: int, fp: int, n_positive: int, n_negative: int) -> ClassCounts:
    """TP, FP, FN, TN of one cut of a binary ranking, as NumPy integers.

    >>> [int(x) for x in cut_counts(3, 1, 4, 6)]
    [3, 1, 1, 5]
    """
    fn, tn = n_positive - tp, n_negative - fp
    # ClassCounts is annotated for (..., K) arrays; one cut's counts are NumPy integers, which every metric takes
    return ClassCounts(np.int64(tp), np.int64(fp), np.int64(fn), np.int64(tn))  # type: ignore[arg-type]


def class_counts(cm: np.ndarray) -> ClassCounts:
    """One-vs-rest counts of every class of a confusion table (stack).

    Parameters
    ----------
    cm : array, shape (..., K, K)
        Rows = gold, columns = predicted.

    Examples
    --------
    >>> class_counts(np.array([[5, 1], [2, 3]])).fp.tolist()
    [2, 1]
    """
    cm = np.asarray(cm)
    tp = np.diagonal(cm, axis1=-2, axis2=-1)
    pred_sum = cm.sum(axis=-2)
    true_sum = cm.sum(axis=-1)
    n = cm.sum(axis=(-2, -1))[..., None]
    fp = pred_sum - tp
    fn = true_sum - tp
    tn = n - tp - fp - fn
    return ClassCounts(tp, fp, fn, tn)


def binary_class_counts(counts: np.ndarray) -> ClassCounts:
    """Per-label counts of a multi-label table stack ``(..., L, 2, 2)`` = [[TN, FP], [FN, TP]]."""
    c = np.asarray(counts)
    return ClassCounts(c[..., 1, 1], c[..., 0, 1], c[..., 1, 0], c[..., 0, 0])


def safe_divide(num: Any, den: Any, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """``num / den`` with 0/0 (a zero denominator) filled by ``zero_division``.

    Returns the values and a boolean mask of the undefined entries.

    Examples
    --------
    >>> v, u = safe_divide(np.array([1, 0]), np.array([2, 0]))
    >>> v.tolist(), u.tolist()
    ([0.5, 0.0], [False, True])
    """
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    undefined = den == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / den
    if undefined.any():
        out = np.where(undefined, zero_division, out)
    return out, undefined


def ratio(num: Any, den: Any, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """``num / den`` for a ratio that can be infinite: 0/0 takes ``zero_division``; x/0 with x > 0 is NaN.

    A ratio of rates such as the likelihood ratio TPR / FPR is 0/0 when both
    rates are 0 (or undefined) — filled by ``zero_division`` like every 0/0 —
    but *infinite* when only the denominator is 0. An infinity is reported as
    undefined (NaN; ``null`` in JSON), never as 0 and never as ``inf``.
    Returns the values and the mask of every undefined entry (both cases);
    the infinite ones are those that are NaN whatever ``zero_division``.

    >>> v, u = ratio(np.array([1.0, 0.0, 3.0]), np.array([0.0, 0.0, 2.0]))
    >>> v.tolist(), u.tolist()
    ([nan, 0.0, 1.5], [True, True, False])
    """
    num = np.asarray(num, dtype=np.float64)
    out, undefined = safe_divide(num, den, zero_division)
    if undefined.any():
        out = np.where(undefined & (num != 0), math.nan, out)
    return out, undefined


# --- per class ---------------------------------------------------------------

def precision(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """P = TP / (TP + FP); undefined when the class is never predicted."""
    return safe_divide(c.tp, c.tp + c.fp, zero_division)


def recall(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """R = TPR = sensitivity = TP / (TP + FN); undefined when the class is absent from gold."""
    return safe_divide(c.tp, c.tp + c.fn, zero_division)


def specificity(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """TNR = TN / (TN + FP); undefined when every item belongs to the class."""
    return safe_divide(c.tn, c.tn + c.fp, zero_division)


def fpr(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """FPR = FP / (FP + TN) = 1 − specificity."""
    return safe_divide(c.fp, c.fp + c.tn, zero_division)


def fbeta(c: ClassCounts, beta: float = 1.0, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """F-beta = (1+β²)·TP / ((1+β²)·TP + β²·FN + FP) = (1+β²)PR / (β²P + R).

    Computed from counts, so it is 0 (not undefined) when TP = 0 but FP + FN > 0,
    as in scikit-learn; undefined only when TP = FP = FN = 0.
    """
    b2 = beta * beta
    return safe_divide((1 + b2) * c.tp, (1 + b2) * c.tp + b2 * c.fn + c.fp, zero_division)


def f1(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """F1 = 2·TP / (2·TP + FP + FN)."""
    return fbeta(c, 1.0, zero_division)


def delta(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Armano's discriminant capability δ = TPR − FPR, in [−1, 1].

    Undefined (and filled with ``zero_division``) when TPR or FPR is.
    """
    r, ur = recall(c, math.nan)
    f, uf = fpr(c, math.nan)
    undefined = ur | uf
    return np.where(undefined, zero_division, r - f), undefined


def phi(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Armano's characteristic capability (bias) φ = TPR + FPR − 1, in [−1, 1]."""
    r, ur = recall(c, math.nan)
    f, uf = fpr(c, math.nan)
    undefined = ur | uf
    return np.where(undefined, zero_division, r + f - 1.0), undefined


def phi_delta_of_counts(c: ClassCounts, labels: Sequence[str]) -> dict[str, dict[str, float]]:
    """Each class's point in Armano's φ–δ diagram: ``{label: {"phi": φ, "delta": δ}}`` of one table's counts
    (shape (K,)), NaN where undefined.

    >>> c = class_counts(np.array([[3, 1], [0, 4]]))
    >>> phi_delta_of_counts(c, ["a", "b"])["a"]
    {'phi': -0.25, 'delta': 0.75}
    """
    d, f = delta(c, math.nan)[0], phi(c, math.nan)[0]
    return {lab: {"phi": float(f[j]), "delta": float(d[j])} for j, lab in enumerate(labels)}


def npv(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Negative predictive value NPV = TN / (TN + FN); undefined when the class is predicted for every item."""
    return safe_divide(c.tn, c.tn + c.fn, zero_division)


def fnr(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """False-negative rate (miss rate) FNR = FN / (TP + FN) = 1 − recall; undefined when the class is absent from
    gold."""
    return safe_divide(c.fn, c.tp + c.fn, zero_division)


def prevalence(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Share of the items that belong to the class, (TP + FN) / N; undefined for an empty table."""
    return safe_divide(c.tp + c.fn, c.tp + c.fp + c.fn + c.tn, zero_division)


def markedness(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Markedness MK = PPV + NPV − 1, in [−1, 1]; undefined (filled) when precision or NPV is.

    >>> markedness(class_counts(np.array([[8, 2], [1, 9]])))[0].round(4).tolist()  # 8/9 + 9/11 − 1
    [0.7071, 0.7071]
    """
    p, up = precision(c, math.nan)
    v, uv = npv(c, math.nan)
    undefined = up | uv
    return np.where(undefined, zero_division, p + v - 1.0), undefined


def _f64(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def lr_plus(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Positive likelihood ratio LR+ = TPR / FPR = TP·(FP + TN) / (FP·(TP + FN)).

    0/0 (no item of the class, no other item, or TP = FP = 0) takes
    ``zero_division``; FP = 0 with TP > 0 (specificity 1) is infinite:
    NaN and undefined (see :func:`ratio`).
    """
    tp, fp, fn, tn = (_f64(x) for x in c)
    return ratio(tp * (fp + tn), fp * (tp + fn), zero_division)


def lr_minus(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Negative likelihood ratio LR− = FNR / TNR = FN·(FP + TN) / (TN·(TP + FN)).

    0/0 takes ``zero_division``; TN = 0 with FN > 0 (specificity 0) is
    infinite: NaN and undefined.
    """
    tp, fp, fn, tn = (_f64(x) for x in c)
    return ratio(fn * (fp + tn), tn * (tp + fn), zero_division)


def dor(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Diagnostic odds ratio DOR = LR+ / LR− = (TP·TN) / (FP·FN).

    0/0 (TP·TN = FP·FN = 0) takes ``zero_division``; FP = 0 or FN = 0 with
    TP·TN > 0 is infinite: NaN and undefined.

    >>> dor(class_counts(np.array([[8, 2], [1, 9]])))[0].tolist()
    [36.0, 36.0]
    """
    tp, fp, fn, tn = (_f64(x) for x in c)
    return ratio(tp * tn, fp * fn, zero_division)


def one_vs_rest_tables(c: ClassCounts) -> np.ndarray:
    """Each class against all others as a 2×2 table [[TP, FN], [FP, TN]] (rows = gold): shape (..., K, 2, 2)."""
    return np.stack([np.stack([c.tp, c.fn], -1), np.stack([c.fp, c.tn], -1)], -2)


# --- whole table -------------------------------------------------------------

def accuracy(cm: np.ndarray, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """trace / N (single-label); undefined for an empty table."""
    cm = np.asarray(cm)
    return safe_divide(np.trace(cm, axis1=-2, axis2=-1), cm.sum(axis=(-2, -1)), zero_division)


def balanced_accuracy(cm: np.ndarray, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Mean recall over the classes present in gold (scikit-learn's rule).

    For two classes, (sensitivity + specificity) / 2 = (1 + δ) / 2.
    """
    return balanced_accuracy_of_counts(class_counts(cm), zero_division)


def balanced_accuracy_of_counts(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """:func:`balanced_accuracy` from the per-class counts (it needs no K×K table)."""
    support = c.support
    present = support > 0
    r, _ = safe_divide(c.tp, support, 0.0)
    k = present.sum(axis=-1)
    return safe_divide(np.where(present, r, 0.0).sum(axis=-1), k, zero_division)


def _agreement(c: ClassCounts) -> tuple[np.ndarray, ...]:
    """(N, trace, Σ t_k p_k, Σ p_k², Σ t_k²) of per-class counts (..., K): exact integers for integer counts."""
    t = c.tp + c.fn
    p = c.tp + c.fp
    n = t.sum(axis=-1)
    if np.asarray(t).dtype.kind in "iu" and np.asarray(p).dtype.kind in "iu":
        t, p, n = int_array(t, n), int_array(p, n), int_array(n, n)
        tp = int_array(c.tp, n)
    else:
        tp = c.tp
    return n, tp.sum(axis=-1), (t * p).sum(axis=-1), (p * p).sum(axis=-1), (t * t).sum(axis=-1)


def _integer(c: ClassCounts) -> bool:
    return all(np.asarray(x).dtype.kind in "iuO" for x in (c.tp, c.fp, c.fn))


def mcc_of_counts(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Matthews correlation (Gorodkin's R_K) from the per-class counts (..., K): the trace and the margins.

    MCC = (c·N − Σ t_k p_k) / √((N² − Σ p_k²)(N² − Σ t_k²)) with c = Σ TP_k,
    t_k = TP_k + FN_k (gold totals), p_k = TP_k + FP_k (predicted totals).
    On integer counts the three differences are exact integers (int64, or
    Python integers once N² would pass 2^62) and the result is correctly
    rounded (for up to :data:`clfeval.core._exact.EXACT_ELEMENTS` values at
    once), so a table of 10^12 items loses nothing to cancellation:
    ``[[0, 1], [1, 122070312]]`` gives −1/122070313, not 0.

    >>> mcc_of_counts(class_counts(np.array([[0, 1], [1, 122070312]])))[0].item() == -1 / 122070313
    True
    """
    n, trace, s_tp, s_pp, s_tt = _agreement(c)
    if _integer(c):
        cov_tp, cov_pp, cov_tt = trace * n - s_tp, n * n - s_pp, n * n - s_tt
        values = sqrt_ratio_floats(cov_tp, cov_pp, cov_tt)
        undefined = np.asarray((cov_pp == 0) | (cov_tt == 0), dtype=bool)
        return np.where(undefined, zero_division, values), undefined
    cov_tp = trace * n - s_tp
    cov_pp = n * n - s_pp
    cov_tt = n * n - s_tt
    # n² − Σp² ≥ 0 exactly; on float tables of expected counts (baselines) rounding can
    # make it −1e-13, whose square root would be NaN rather than an undefined 0
    return safe_divide(cov_tp, np.sqrt(np.maximum(cov_pp, 0.0) * np.maximum(cov_tt, 0.0)), zero_division)


def kappa_of_counts(c: ClassCounts, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Cohen's kappa from the per-class counts (..., K): κ = (N·c − Σ t_k p_k) / (N² − Σ t_k p_k).

    That is (p_o − p_e) / (1 − p_e) with p_o = c / N and p_e = Σ t_k p_k / N²,
    as a ratio of exact integers on integer counts (correctly rounded; see
    :func:`mcc_of_counts`). Undefined when the expected disagreement is 0.
    """
    n, trace, s_tp, _, _ = _agreement(c)
    num, den = n * trace - s_tp, n * n - s_tp
    if _integer(c):
        undefined = np.asarray(den == 0, dtype=bool)
        return np.where(undefined, zero_division, ratio_floats(num, den)), undefined
    v, u = safe_divide(num, den, math.nan)
    return np.where(u, zero_division, v), u


def mcc(cm: np.ndarray, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Matthews correlation coefficient of confusion tables (..., K, K), multiclass (Gorodkin's R_K).

    MCC = (c·n − Σ t_k p_k) / sqrt((n² − Σ p_k²)(n² − Σ t_k²)) with c = trace,
    t = gold totals, p = predicted totals; it needs only the per-class counts
    (:func:`mcc_of_counts`, exact on integer tables). Undefined when every gold
    label or every prediction is one class (scikit-learn returns 0 there).
    """
    return mcc_of_counts(class_counts(np.asarray(cm)), zero_division)


def weighted_kappa(cm: np.ndarray, weights: str | None = None,
                   zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Cohen's kappa, unweighted or with ``"linear"`` / ``"quadratic"`` disagreement weights.

    κ = 1 − Σ w_ij O_ij / Σ w_ij E_ij with E = outer(gold totals, predicted
    totals) / N and w_ij = 1[i≠j], |i−j| or (i−j)² (classes in table order).
    Undefined when the expected disagreement is 0 (one class only).
    """
    cm = np.asarray(cm, dtype=np.float64)
    k = cm.shape[-1]
    i, j = np.indices((k, k))
    if weights is None:
        w = (i != j).astype(np.float64)
    elif weights == "linear":
        w = np.abs(i - j).astype(np.float64)
    elif weights == "quadratic":
        w = ((i - j) ** 2).astype(np.float64)
    else:
        raise UsageError(f"kappa weights must be None, 'linear' or 'quadratic'; got {weights!r}.")
    n = cm.sum(axis=(-2, -1))
    t = cm.sum(axis=-1)
    p = cm.sum(axis=-2)
    expected_dis = np.einsum("...i,...j,ij->...", t, p, w)
    with np.errstate(divide="ignore", invalid="ignore"):
        expected_dis = np.where(n > 0, expected_dis / np.where(n > 0, n, 1), 0.0)
    observed_dis = (cm * w).sum(axis=(-2, -1))
    ratio, undefined = safe_divide(observed_dis, expected_dis, math.nan)
    return np.where(undefined, zero_division, 1.0 - ratio), undefined


def kappa(cm: np.ndarray, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Cohen's kappa, κ = (p_o − p_e) / (1 − p_e) (integer tables exactly: :func:`kappa_of_counts`)."""
    return kappa_of_counts(class_counts(np.asarray(cm)), zero_division)


def ordinal_mae(cm: np.ndarray, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Mean absolute error over class ranks (classes in table order = the ordinal order)."""
    cm = np.asarray(cm, dtype=np.float64)
    k = cm.shape[-1]
    i, j = np.indices((k, k))
    return safe_divide((cm * np.abs(i - j)).sum(axis=(-2, -1)), cm.sum(axis=(-2, -1)), zero_division)


def _rank_moments(values: np.ndarray) -> tuple[float, float, float]:
    r = np.arange(values.size, dtype=np.float64)
    v = values.astype(np.float64)
    return float(v.sum()), float((r * v).sum()), float((r * r * v).sum())


def weighted_kappa_cells(rows: np.ndarray, cols: np.ndarray, counts: np.ndarray, k: int, weights: str,
                         zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """:func:`weighted_kappa` of one table given by its non-empty cells (gold rank, predicted rank, count).

    The observed disagreement sums over the cells; the expected one,
    Σ_ij w_ij t_i p_j / N, comes from the margins in O(K): for w = (i − j)²
    it is T₂P₀ + T₀P₂ − 2T₁P₁ (T_m = Σ i^m t_i, P_m = Σ j^m p_j); for
    w = |i − j| each row's Σ_j |i − j| p_j from prefix sums of p.
    """
    rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
    w_counts = np.asarray(counts, dtype=np.float64)
    t = np.bincount(rows, weights=w_counts, minlength=k)
    p = np.bincount(cols, weights=w_counts, minlength=k)
    n = float(w_counts.sum())
    d = (rows - cols).astype(np.float64)
    if weights == "quadratic":
        observed = float((d * d * w_counts).sum())
        t0, t1, t2 = _rank_moments(t)
        p0, p1, p2 = _rank_moments(p)
        expected = t2 * p0 + t0 * p2 - 2.0 * t1 * p1
    elif weights == "linear":
        observed = float((np.abs(d) * w_counts).sum())
        r = np.arange(k, dtype=np.float64)
        below, below_r = np.cumsum(p), np.cumsum(p * r)  # Σ_{j ≤ i} p_j, Σ_{j ≤ i} j·p_j
        per_row = r * below - below_r + (below_r[-1] - below_r) - r * (below[-1] - below) if k else r
        expected = float((t * per_row).sum())
    else:
        raise UsageError(f"kappa weights of a sparse table must be 'linear' or 'quadratic'; got {weights!r}.")
    expected = expected / n if n > 0 else 0.0
    ratio_v, undefined = safe_divide(observed, expected, math.nan)
    return np.where(undefined, zero_division, 1.0 - ratio_v), undefined


def ordinal_mae_cells(rows: np.ndarray, cols: np.ndarray, counts: np.ndarray,
                      zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ordinal_mae` of one table given by its non-empty cells."""
    w = np.asarray(counts, dtype=np.float64)
    dist = np.abs(np.asarray(rows, dtype=np.int64) - np.asarray(cols, dtype=np.int64)).astype(np.float64)
    return safe_divide((dist * w).sum(), w.sum(), zero_division)


def ordinal(stats: TableStats, weights: str | None, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The ordinal measures of a table, dense or sparse: MAE over ranks (``weights=None``) or weighted kappa."""
    if stats.matrix is not None:
        if weights is None:
            return ordinal_mae(stats.matrix, zero_division)
        return weighted_kappa(stats.matrix, weights, zero_division)
    if stats.cells is None:
        raise UsageError("the ordinal measures need the cells of a single-label table; a multi-label table has none.")
    rows, cols, counts = stats.cells
    if weights is None:
        return ordinal_mae_cells(rows, cols, counts, zero_division)
    return weighted_kappa_cells(rows, cols, counts, int(np.shape(stats.classes.tp)[-1]), weights, zero_division)


# --- averages ----------------------------------------------------------------

def macro_average(values: np.ndarray, undefined: np.ndarray, zero_division: float = 0.0) -> np.ndarray:
    """Plain mean over classes; with the ``nan`` policy, the mean of the defined values."""
    values = np.asarray(values, dtype=np.float64)
    if values.shape[-1] == 0:
        return np.full(values.shape[:-1], math.nan)
    if math.isnan(zero_division):
        keep = ~np.asarray(undefined)
        cnt = keep.sum(axis=-1)
        s = np.where(keep, values, 0.0).sum(axis=-1)
        return safe_divide(s, cnt, math.nan)[0]
    out: np.ndarray = values.mean(axis=-1)
    return out


def weighted_average(values: np.ndarray, undefined: np.ndarray, support: np.ndarray,
                     zero_division: float = 0.0) -> np.ndarray:
    """Support-weighted mean over classes (the ``nan`` policy renormalises over defined values).

    When the weights sum to 0 (no gold items at all, e.g. a multi-label batch
    without labels; or, under ``nan``, no defined value with support) the mean
    is itself 0/0 and takes ``zero_division``.
    """
    values = np.asarray(values, dtype=np.float64)
    w = np.asarray(support, dtype=np.float64)
    if math.isnan(zero_division):
        w = np.where(np.asarray(undefined), 0.0, w)
        values = np.where(np.asarray(undefined), 0.0, values)
    return safe_divide((values * w).sum(axis=-1), w.sum(axis=-1), zero_division)[0]


def f1_of_means(p: np.ndarray, r: np.ndarray, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """F1 of (macro) precision and recall, 2PR / (P + R): the second macro-F1."""
    p = np.asarray(p, dtype=np.float64)
    r = np.asarray(r, dtype=np.float64)
    return safe_divide(2 * p * r, p + r, zero_division)


def pooled(c: ClassCounts) -> ClassCounts:
    """TP, FP, FN, TN summed over classes (the micro table)."""
    return ClassCounts(c.tp.sum(axis=-1), c.fp.sum(axis=-1), c.fn.sum(axis=-1), c.tn.sum(axis=-1))


# --- multi-label ---------------------------------------------------------------

def hamming_loss(c: ClassCounts, n_items: Any, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(Σ_labels FP + FN) / (N·L): the share of (item, label) decisions that are wrong."""
    n_lab = np.asarray(c.fp).shape[-1]
    return safe_divide((c.fp + c.fn).sum(axis=-1), np.asarray(n_items) * n_lab, zero_division)


def jaccard(jaccard_sum: Any, jaccard_empty: Any, n_items: Any,
            zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Mean over items of |G ∩ P| / |G ∪ P| from its sums.

    ``jaccard_sum`` adds the items' ratios (items with both sets empty add 0),
    ``jaccard_empty`` counts those 0/0 items: they count as ``zero_division``,
    or with ``nan`` are left out of the mean.
    """
    if math.isnan(zero_division):
        return safe_divide(jaccard_sum, np.asarray(n_items) - np.asarray(jaccard_empty), math.nan)
    return safe_divide(np.asarray(jaccard_sum) + zero_division * np.asarray(jaccard_empty), n_items, zero_division)


# --- what count metrics are computed from ----------------------------------------

@dataclass(frozen=True)
class TableStats:
    """The statistics every count metric is computed from, for one table or a stack of them.

    ``classes`` holds the per-class counts TP, FP, FN, TN of shape (..., K);
    ``n`` the items of each table (...,). Single-label tables carry
    ``matrix``, the K×K counts (..., K, K), or, held sparsely (one table of
    many classes), ``cells`` — asked for only by the metrics that need more
    than the per-class counts (the ordinal measures; MCC and kappa need only
    the trace and the margins); multi-label tables carry the per-item sums instead (items
    whose predicted set equals the gold set, the sum of the items' Jaccard
    ratios, and the items with both sets empty).
    """

    classes: ClassCounts
    n: np.ndarray
    matrix: np.ndarray | None = None
    exact: np.ndarray | None = None
    jaccard_sum: np.ndarray | None = None
    jaccard_empty: np.ndarray | None = None
    cells: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    @classmethod
    def of_cells(cls, rows: np.ndarray, cols: np.ndarray, counts: np.ndarray, k: int) -> TableStats:
        """From one table's non-empty cells (gold index, predicted index, count): a sparse K×K table.

        The per-class counts are the diagonal and the margins; ``cells`` keeps
        the cells for the measures that weigh each cell (the ordinal ones).
        """
        rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
        counts = np.asarray(counts, dtype=np.int64)
        tp = np.zeros(k, dtype=np.int64)
        t = np.zeros(k, dtype=np.int64)
        p = np.zeros(k, dtype=np.int64)
        diag = rows == cols
        np.add.at(tp, rows[diag], counts[diag])
        np.add.at(t, rows, counts)
        np.add.at(p, cols, counts)
        n = counts.sum(dtype=np.int64)
        fp, fn = p - tp, t - tp
        return cls(ClassCounts(tp, fp, fn, n - tp - fp - fn), np.asarray(n), None, cells=(rows, cols, counts))

    @classmethod
    def of_matrix(cls, cm: np.ndarray) -> TableStats:
        """From confusion tables (..., K, K), rows = gold."""
        cm = np.asarray(cm)
        return cls(class_counts(cm), cm.sum(axis=(-2, -1)), cm)

    @classmethod
    def of_multilabel(cls, counts: np.ndarray, *, n_items: Any, exact: Any, jaccard_sum: Any,
                      jaccard_empty: Any) -> TableStats:
        """From multi-label tables (..., L, 2, 2) = [[TN, FP], [FN, TP]] and their per-item sums."""
        c = binary_class_counts(counts)
        shape = np.shape(c.tp)[:-1]
        def as_arr(x: Any) -> np.ndarray:
            return np.broadcast_to(np.asarray(x), shape)
        return cls(c, as_arr(n_items), None, as_arr(exact), as_arr(jaccard_sum), as_arr(jaccard_empty))

    @property
    def multilabel(self) -> bool:
        return self.exact is not None


