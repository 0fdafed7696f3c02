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

Whatever the policy, :func:`score_table` lists every metric and label that was
undefined, so every output can say which numbers were filled in.

References
----------
* Sokolova & Lapalme (2009), "A systematic analysis of performance measures
  for classification tasks".
* Armano (2015), "A direct measure of discriminant and characteristic
  capability for classifier building and assessment" (δ and φ).
* Opitz & Burst (2019), "Macro F1 and Macro F1" (the two macro-F1s).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from clfeval._labels import label_str, resolve_label
from clfeval.errors import UsageError

__all__ = [
    "ClassCounts",
    "class_counts",
    "binary_class_counts",
    "safe_divide",
    "precision",
    "recall",
    "specificity",
    "fpr",
    "fbeta",
    "f1",
    "delta",
    "phi",
    "accuracy",
    "balanced_accuracy",
    "mcc",
    "kappa",
    "weighted_kappa",
    "ordinal_mae",
    "macro_average",
    "weighted_average",
    "f1_of_means",
    "ScalarMetric",
    "scalar_metric",
    "metric_names",
    "score_table",
    "score_multilabel",
    "score_binary",
    "PER_CLASS_METRICS",
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
        return self.tp + self.fn


def class_counts(cm: np.ndarray) -> ClassCounts:
    """One-vs-rest counts of every class of a confusion table (stack).

    Parameters
    ----------
    cm : array, shape (..., K, K)
        Rows = gold, columns = predicted.

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

    >>> v, u = safe_divide(np.array([1, 0]), np.array([2, 0]))
    >>> v.tolist(), u.tolist()
    ([0.5, 0.0], [False, True])
    """
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    undefined = den == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / den
    if np.any(undefined):
        out = np.where(undefined, zero_division, out)
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


PER_CLASS_METRICS: dict[str, Callable[..., tuple[np.ndarray, np.ndarray]]] = {
    "precision": precision,
    "recall": recall,
    "specificity": specificity,
    "fpr": fpr,
    "f1": f1,
    "delta": delta,
    "phi": phi,
}


# --- whole table -------------------------------------------------------------

def accuracy(cm: np.ndarray, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """trace / N (single-label); undefined for an empty table."""
    cm = np.asarray(cm)
    return safe_divide(np.trace(cm, axis1=-2, axis2=-1), cm.sum(axis=(-2, -1)), zero_division)


def balanced_accuracy(cm: np.ndarray, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Mean recall over the classes present in gold (scikit-learn's rule).

    For two classes, (sensitivity + specificity) / 2 = (1 + δ) / 2.
    """
    c = class_counts(cm)
    support = c.support
    present = support > 0
    r, _ = safe_divide(c.tp, support, 0.0)
    k = present.sum(axis=-1)
    return safe_divide(np.where(present, r, 0.0).sum(axis=-1), k, zero_division)


def mcc(cm: np.ndarray, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Matthews correlation coefficient, multiclass (Gorodkin's R_K).

    MCC = (c·n − Σ t_k p_k) / sqrt((n² − Σ p_k²)(n² − Σ t_k²)) with c = trace,
    t = gold totals, p = predicted totals. Undefined when every gold label or
    every prediction is one class (scikit-learn returns 0 there).
    """
    cm = np.asarray(cm, dtype=np.float64)
    t = cm.sum(axis=-1)
    p = cm.sum(axis=-2)
    n = cm.sum(axis=(-2, -1))
    c = np.trace(cm, axis1=-2, axis2=-1)
    cov_tp = c * n - (t * p).sum(axis=-1)
    cov_pp = n * n - (p * p).sum(axis=-1)
    cov_tt = n * n - (t * t).sum(axis=-1)
    # n² − Σp² ≥ 0 exactly; on float tables of expected counts (baselines) rounding can
    # make it −1e-13, whose square root would be NaN rather than an undefined 0
    return safe_divide(cov_tp, np.sqrt(np.maximum(cov_pp, 0.0) * np.maximum(cov_tt, 0.0)), zero_division)


def weighted_kappa(cm: np.ndarray, weights: str | None = None, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
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
    """Cohen's kappa, κ = (p_o − p_e) / (1 − p_e)."""
    return weighted_kappa(cm, None, zero_division)


def ordinal_mae(cm: np.ndarray, zero_division: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Mean absolute error over class ranks (classes in table order = the ordinal order)."""
    cm = np.asarray(cm, dtype=np.float64)
    k = cm.shape[-1]
    i, j = np.indices((k, k))
    return safe_divide((cm * np.abs(i - j)).sum(axis=(-2, -1)), cm.sum(axis=(-2, -1)), zero_division)


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
    return values.mean(axis=-1)


def weighted_average(values: np.ndarray, undefined: np.ndarray, support: np.ndarray, zero_division: float = 0.0) -> np.ndarray:
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


def _pool(c: ClassCounts) -> ClassCounts:
    """TP, FP, FN, TN summed over classes (the micro table)."""
    return ClassCounts(c.tp.sum(axis=-1), c.fp.sum(axis=-1), c.fn.sum(axis=-1), c.tn.sum(axis=-1))


def _micro(c: ClassCounts, zero_division: float, beta: float = 1.0) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    pooled = _pool(c)
    out = {
        "precision": precision(pooled, zero_division),
        "recall": recall(pooled, zero_division),
        "f1": f1(pooled, zero_division),
    }
    if beta != 1.0:
        out["fbeta"] = fbeta(pooled, beta, zero_division)
    return out


# --- named scalar metrics (a registry used by compare, cv, runs, ...) ---------

@dataclass(frozen=True)
class ScalarMetric:
    """A named metric of a confusion-table stack.

    ``fn(cm, zero_division)`` maps counts of shape (..., K, K) to values of
    shape (...). ``higher_is_better`` is False for losses such as the error rate.
    """

    name: str
    description: str
    fn: Callable[[np.ndarray, float], np.ndarray]
    higher_is_better: bool = True

    def __call__(self, cm: np.ndarray, zero_division: float = 0.0) -> np.ndarray:
        return self.fn(cm, zero_division)


def _per_class_avg(metric: str, how: str, beta: float = 1.0) -> Callable[[np.ndarray, float], np.ndarray]:
    def fn(cm: np.ndarray, zd: float) -> np.ndarray:
        c = class_counts(cm)
        if how == "micro":
            if metric == "fbeta":  # also for beta = 1, where _micro leaves F-beta out
                return fbeta(_pool(c), beta, zd)[0]
            return _micro(c, zd, beta)[metric][0]
        if metric == "fbeta":
            v, u = fbeta(c, beta, zd)
        else:
            v, u = PER_CLASS_METRICS[metric](c, zd)
        if how == "macro":
            return macro_average(v, u, zd)
        return weighted_average(v, u, c.support, zd)
    return fn


def _macro_f1_of_means(cm: np.ndarray, zd: float) -> np.ndarray:
    c = class_counts(cm)
    p, up = precision(c, zd)
    r, ur = recall(c, zd)
    return f1_of_means(macro_average(p, up, zd), macro_average(r, ur, zd), zd)[0]


def _first(f: Callable[..., tuple[np.ndarray, np.ndarray]]) -> Callable[[np.ndarray, float], np.ndarray]:
    return lambda cm, zd: f(cm, zd)[0]


_BASE_METRICS: dict[str, ScalarMetric] = {}


def _register(name: str, description: str, fn: Callable[[np.ndarray, float], np.ndarray], higher: bool = True) -> None:
    _BASE_METRICS[name] = ScalarMetric(name, description, fn, higher)


_register("accuracy", "accuracy = correct / N", _first(accuracy))
_register("error_rate", "error rate = 1 − accuracy (lower is better)", lambda cm, zd: 1.0 - accuracy(cm, zd)[0], higher=False)
_register("balanced_accuracy", "balanced accuracy = mean recall over classes present in gold", _first(balanced_accuracy))
_register("mcc", "Matthews correlation coefficient", _first(mcc))
_register("kappa", "Cohen's kappa", _first(kappa))
for _how in ("macro", "micro", "weighted"):
    for _m in ("precision", "recall", "f1"):
        _desc = {"macro": "mean over classes of per-class", "micro": "pooled (micro)", "weighted": "support-weighted mean of per-class"}[_how]
        _register(f"{_how}_{_m}", f"{_desc} {_m}", _per_class_avg(_m, _how))
_register("macro_f1_of_means", "F1 of macro-precision and macro-recall (the second macro-F1)", _macro_f1_of_means)

_PER_LABEL_PREFIXES = ("f1", "precision", "recall", "specificity", "fpr", "delta", "phi")


def metric_names() -> list[str]:
    """The metric names :func:`scalar_metric` accepts (plus ``f1:LABEL`` and kin)."""
    return list(_BASE_METRICS) + [f"{p}:LABEL" for p in _PER_LABEL_PREFIXES] + ["macro_fbeta", "micro_fbeta", "weighted_fbeta", "fbeta:LABEL"]


def scalar_metric(name: str, labels: Sequence[Any] | None = None, *, beta: float = 1.0) -> ScalarMetric:
    """Look up a named metric of confusion tables.

    Names follow the report's JSON paths joined by underscores: ``accuracy``,
    ``error_rate``, ``balanced_accuracy``, ``mcc``, ``kappa``, ``macro_f1``,
    ``macro_precision``, ``macro_recall``, ``macro_f1_of_means``, ``micro_f1``,
    ``weighted_f1``, …; ``f1:LABEL`` (also ``precision:``, ``recall:``, …)
    for one class, which needs ``labels``; ``macro_fbeta`` etc. use ``beta``.

    >>> m = scalar_metric("macro_f1")
    >>> round(float(m(np.array([[9, 1], [3, 7]]))), 4)
    0.798
    >>> float(scalar_metric("f1:b", ["a", "b"])(np.array([[9, 1], [3, 7]])))
    0.7777777777777778
    """
    if name in _BASE_METRICS:
        return _BASE_METRICS[name]
    for how in ("macro", "micro", "weighted"):
        if name == f"{how}_fbeta":
            return ScalarMetric(name, f"{how} F-beta, beta={beta:g}", _per_class_avg("fbeta", how, beta))
    if ":" in name:
        prefix, _, label = name.partition(":")
        if prefix in _PER_LABEL_PREFIXES or prefix == "fbeta":
            if labels is None:
                raise UsageError(f"metric {name!r} names a class; the labels of the data are needed to resolve it.")
            i = resolve_label(label, list(labels), option=f"metric {name}")
            per = (lambda c, zd: fbeta(c, beta, zd)) if prefix == "fbeta" else PER_CLASS_METRICS[prefix]

            def fn(cm: np.ndarray, zd: float, _i: int = i, _per: Callable = per) -> np.ndarray:
                return _per(class_counts(cm), zd)[0][..., _i]

            return ScalarMetric(name, f"{prefix} of class {label_str(list(labels)[i])}", fn, prefix != "fpr")
    valid = ", ".join(metric_names())
    raise UsageError(f"unknown metric {name!r}; valid metrics are: {valid}.")


# --- scoring a whole table into plain data -----------------------------------

def _note_undefined(undef: list[dict], metric: str, mask: np.ndarray, labels: Sequence[str]) -> None:
    mask = np.asarray(mask)
    if mask.ndim == 0:
        if bool(mask):
            undef.append({"metric": metric})
    elif mask.any():
        undef.append({"metric": metric, "labels": [labels[i] for i in np.flatnonzero(mask)]})


def _f(x: Any) -> float:
    return float(x)


def _class_block(c: ClassCounts, labels: list[str], beta: float, zd: float, undef: list[dict] | None) -> tuple[dict, dict[str, tuple]]:
    vals: dict[str, tuple[np.ndarray, np.ndarray]] = {m: f(c, zd) for m, f in PER_CLASS_METRICS.items()}
    if beta != 1.0:
        vals["fbeta"] = fbeta(c, beta, zd)
    if undef is not None:
        for m, (_, u) in vals.items():
            _note_undefined(undef, m, u, labels)
    per_class = {}
    for i, lab in enumerate(labels):
        row = {"tp": c.tp[i].item(), "fp": c.fp[i].item(), "fn": c.fn[i].item(), "tn": c.tn[i].item(),
               "support": c.support[i].item()}
        for m, (v, _) in vals.items():
            row[m] = _f(v[i])
        per_class[lab] = row
    return per_class, vals


def _averages(c: ClassCounts, vals: dict[str, tuple], beta: float, zd: float, undef: list[dict] | None) -> dict[str, dict]:
    macro = {m: _f(macro_average(*vals[m], zd)) for m in ("precision", "recall", "f1")}
    fom, ufom = f1_of_means(macro["precision"], macro["recall"], zd)
    macro["f1_of_means"] = _f(fom)
    weighted = {m: _f(weighted_average(*vals[m], c.support, zd)) for m in ("precision", "recall", "f1")}
    micro_raw = _micro(c, zd, beta)
    micro = {m: _f(v) for m, (v, _) in micro_raw.items()}
    if beta != 1.0:
        macro["fbeta"] = _f(macro_average(*vals["fbeta"], zd))
        weighted["fbeta"] = _f(weighted_average(*vals["fbeta"], c.support, zd))
    if undef is not None:
        _note_undefined(undef, "macro.f1_of_means", ufom, [])
        for m in weighted:
            u = np.asarray(vals[m][1])
            w = np.where(u, 0, c.support) if math.isnan(zd) else c.support
            _note_undefined(undef, f"weighted.{m}", np.sum(w) == 0, [])
        for m, (_, u) in micro_raw.items():
            _note_undefined(undef, f"micro.{m}", u, [])
    return {"macro": macro, "micro": micro, "weighted": weighted}


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
        0.0, 1.0 or nan: the value of a 0/0 ratio (see module docstring).
    order : bool
        The table order is an ordinal scale: add MAE and weighted kappas.

    Returns
    -------
    dict
        ``per_class``, ``accuracy``, ``error_rate``, ``balanced_accuracy``,
        ``mcc``, ``kappa``, ``macro``, ``micro``, ``weighted``, ``undefined``
        (and ``ordinal`` when ``order``).
    """
    cm = np.asarray(cm)
    labs = [label_str(x) for x in labels]
    undef: list[dict] | None = [] if track_undefined else None
    c = class_counts(cm)
    per_class, vals = _class_block(c, labs, beta, zero_division, undef)
    out: dict[str, Any] = {"per_class": per_class}
    for name, fn in (("accuracy", accuracy), ("balanced_accuracy", balanced_accuracy), ("mcc", mcc), ("kappa", kappa)):
        v, u = fn(cm, zero_division)
        out[name] = _f(v)
        if undef is not None:
            _note_undefined(undef, name, u, labs)
        if name == "accuracy":
            out["error_rate"] = _f(1.0 - v)
    out.update(_averages(c, vals, beta, zero_division, undef))
    if order:
        mae, umae = ordinal_mae(cm, zero_division)
        lk, ulk = weighted_kappa(cm, "linear", zero_division)
        qk, uqk = weighted_kappa(cm, "quadratic", zero_division)
        out["ordinal"] = {"order": labs, "mae": _f(mae), "linear_kappa": _f(lk), "quadratic_kappa": _f(qk)}
        if undef is not None:
            for name, u in (("ordinal.mae", umae), ("ordinal.linear_kappa", ulk), ("ordinal.quadratic_kappa", uqk)):
                _note_undefined(undef, name, u, labs)
    out["undefined"] = undef if undef is not None else []
    return out


def score_binary(cm: np.ndarray, labels: Sequence[Any], positive_index: int, *, beta: float = 1.0,
                 zero_division: float = 0.0) -> dict[str, Any]:
    """The binary summary of one class against all others (the ``binary`` block of a report)."""
    cm = np.asarray(cm)
    full = class_counts(cm)
    c = ClassCounts(*(x[positive_index] for x in full))
    vals = {m: f(c, zero_division)[0] for m, f in PER_CLASS_METRICS.items()}
    out: dict[str, Any] = {"positive": label_str(labels[positive_index]),
                           "tp": c.tp.item(), "fp": c.fp.item(), "fn": c.fn.item(), "tn": c.tn.item()}
    out.update({m: _f(v) for m, v in vals.items()})
    if beta != 1.0:
        out["fbeta"] = _f(fbeta(c, beta, zero_division)[0])
    n = c.tp + c.fp + c.fn + c.tn
    acc = safe_divide(c.tp + c.tn, n, zero_division)[0]
    out["accuracy"] = _f(acc)
    out["error_rate"] = _f(1.0 - acc)
    two = np.array([[c.tp, c.fn], [c.fp, c.tn]])
    # (sensitivity + specificity) / 2, by the same rule as the whole table: mean recall
    # over the classes present in gold (all positives or all negatives: that one recall).
    out["balanced_accuracy"] = _f(balanced_accuracy(two, zero_division)[0])
    out["mcc"] = _f(mcc(two, zero_division)[0])
    out["kappa"] = _f(kappa(two, zero_division)[0])
    return out


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
    labs = [label_str(x) for x in labels]
    undef: list[dict] | None = [] if track_undefined else None
    c = binary_class_counts(counts)
    per_class, vals = _class_block(c, labs, beta, zero_division, undef)
    n_lab = len(labs)
    acc_l, u_acc = safe_divide(c.tp + c.tn, np.full(n_lab, n_items), zero_division)
    for i, lab in enumerate(labs):
        per_class[lab]["accuracy"] = _f(acc_l[i])
    out: dict[str, Any] = {"per_class": per_class}
    sa, usa = safe_divide(exact, n_items, zero_division)
    out["accuracy"] = _f(sa)
    out["subset_accuracy"] = _f(sa)
    out["error_rate"] = _f(1.0 - sa)
    hl, uhl = safe_divide((c.fp + c.fn).sum(), n_items * n_lab, zero_division)
    out["hamming_loss"] = _f(hl)
    if math.isnan(zero_division):
        jac, uj = safe_divide(jaccard_sum, n_items - jaccard_empty, math.nan)
    else:
        jac, uj = safe_divide(jaccard_sum + zero_division * jaccard_empty, n_items, zero_division)
    out["jaccard"] = _f(jac)
    out.update(_averages(c, vals, beta, zero_division, undef))
    if undef is not None:
        _note_undefined(undef, "accuracy", usa, labs)
        _note_undefined(undef, "hamming_loss", uhl, labs)
        if jaccard_empty:
            undef.append({"metric": "jaccard", "items": int(jaccard_empty),
                          "reason": "items with empty gold and predicted sets (0/0)"})
    out["undefined"] = undef if undef is not None else []
    return out
