"""Independent oracles of every catalogue entry: scikit-learn, or a hand computation where it has none.

``ORACLES[key](case)`` takes a case with ``g``, ``p`` (single-label codes 0..k-1), ``k``, ``G``, ``P``
(multi-label indicator matrices), ``y``, ``s`` (binary outcome and score) and ``prob`` (probability of the
positive class); per-label entries return one value per class code. F-beta entries use ``BETA``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from sklearn.metrics import (
    accuracy_score,
    average_precision_score,
    balanced_accuracy_score,
    brier_score_loss,
    class_likelihood_ratios,
    cohen_kappa_score,
    hamming_loss,
    jaccard_score,
    log_loss,
    matthews_corrcoef,
    mean_absolute_error,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
    roc_auc_score,
)

from tests._helpers.partial_auc_oracle import partial_auc

BETA = 2.0


def _ovr(g, p, k):
    return g == k, p == k


def _per_label(fn):
    """An oracle of one class against the others, applied to every class."""
    return lambda case: np.array([fn(*_ovr(case.g, case.p, k)) for k in range(case.k)], dtype=float)


def _prfs(average, which, beta=1.0):
    def fn(case):
        out = precision_recall_fscore_support(case.g, case.p, labels=list(range(case.k)), average=average, beta=beta,
                                              zero_division=0)
        return np.asarray(out[which], dtype=float)
    return fn


def _lr(which):
    def fn(t, q):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return class_likelihood_ratios(t, q, labels=[False, True])[which]
    return fn


def _dor(t, q):
    lp, lm = _lr(0)(t, q), _lr(1)(t, q)
    return lp / lm if lm > 0 else math.nan


def _specificity(t, q):
    return recall_score(t, q, pos_label=False, zero_division=0)


def _npv(t, q):
    return precision_score(t, q, pos_label=False, zero_division=0)


def _ranks_mae(case):
    return mean_absolute_error(case.g, case.p)


def _calibration_bins(conf, outcome, bins=10):
    idx = np.minimum((conf * bins).astype(int), bins - 1)
    gaps, weights = [], []
    for b in range(bins):
        sel = idx == b
        if sel.any():
            gaps.append(abs(outcome[sel].mean() - conf[sel].mean()))
            weights.append(sel.sum())
    return np.array(gaps), np.array(weights)


ORACLES = {
    "accuracy": lambda c: accuracy_score(c.g, c.p),
    "error_rate": lambda c: 1 - accuracy_score(c.g, c.p),
    "balanced_accuracy": lambda c: balanced_accuracy_score(c.g, c.p),
    "mcc": lambda c: matthews_corrcoef(c.g, c.p),
    "kappa": lambda c: cohen_kappa_score(c.g, c.p),
    "subset_accuracy": lambda c: accuracy_score(c.G, c.P),
    "hamming_loss": lambda c: hamming_loss(c.G, c.P),
    "jaccard": lambda c: jaccard_score(c.G, c.P, average="samples", zero_division=0),
    "macro_f1_of_means": lambda c: (lambda pr, rc: 2 * pr * rc / (pr + rc))(_prfs("macro", 0)(c), _prfs("macro", 1)(c)),
    "ordinal_mae": _ranks_mae,
    "ordinal_linear_kappa": lambda c: cohen_kappa_score(c.g, c.p, weights="linear"),
    "ordinal_quadratic_kappa": lambda c: cohen_kappa_score(c.g, c.p, weights="quadratic"),
    "precision:LABEL": _prfs(None, 0),
    "recall:LABEL": _prfs(None, 1),
    "f1:LABEL": _prfs(None, 2),
    "fbeta:LABEL": _prfs(None, 2, BETA),
    "specificity:LABEL": _per_label(_specificity),
    "fpr:LABEL": _per_label(lambda t, q: 1 - _specificity(t, q)),
    "delta:LABEL": _per_label(lambda t, q: recall_score(t, q, zero_division=0) - (1 - _specificity(t, q))),
    "phi:LABEL": _per_label(lambda t, q: recall_score(t, q, zero_division=0) + (1 - _specificity(t, q)) - 1),
    "npv:LABEL": _per_label(_npv),
    "fnr:LABEL": _per_label(lambda t, q: 1 - recall_score(t, q, zero_division=0)),
    "prevalence:LABEL": _per_label(lambda t, q: t.mean()),
    "markedness:LABEL": _per_label(lambda t, q: precision_score(t, q, zero_division=0) + _npv(t, q) - 1),
    "lr_plus:LABEL": _per_label(_lr(0)),
    "lr_minus:LABEL": _per_label(_lr(1)),
    "dor:LABEL": _per_label(_dor),
    "accuracy:LABEL": _per_label(accuracy_score),
    "error_rate:LABEL": _per_label(lambda t, q: 1 - accuracy_score(t, q)),
    "balanced_accuracy:LABEL": _per_label(balanced_accuracy_score),
    "mcc:LABEL": _per_label(matthews_corrcoef),
    "kappa:LABEL": _per_label(cohen_kappa_score),
    "roc_auc": lambda c: roc_auc_score(c.y, c.s),
    "partial_roc_auc": lambda c: partial_auc(c.y, c.s, 0.1),  # the JSON's max_fpr
    "average_precision": lambda c: average_precision_score(c.y, c.s),
    "brier": lambda c: brier_score_loss(c.y, c.prob),
    "log_loss": lambda c: log_loss(c.y, c.prob),
    "ece": lambda c: (lambda g, w: float(np.sum(g * w) / w.sum()))(*_calibration_bins(c.prob, c.y.astype(float))),
    "mce": lambda c: float(_calibration_bins(c.prob, c.y.astype(float))[0].max()),
}
for _how in ("macro", "micro", "weighted"):
    for _i, _m in enumerate(("precision", "recall", "f1")):
        ORACLES[f"{_how}_{_m}"] = _prfs(_how, _i)
    ORACLES[f"{_how}_fbeta"] = _prfs(_how, 2, BETA)
