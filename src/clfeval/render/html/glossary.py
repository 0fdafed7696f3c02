"""The report's glossary: one entry per metric shown, and the names tables use for them.

:func:`glossary_entries` is the one place the HTML report asks for a metric's
definition. Today it reads the small table below; the metric catalogue
(issue 10) will provide the same fields (name, formula, undefined case,
direction, definition), and this function will read the catalogue instead.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

__all__ = ["glossary_entries", "metric_of_label", "anchor"]

_UP, _DOWN, _NONE = "higher is better", "lower is better", "no direction"

# name: (definition, formula, undefined case, direction)
_ENTRIES: dict[str, tuple[str, str, str, str]] = {
    "accuracy": ("Share of items whose predicted label is the gold label.", "(TP + TN) / N; multiclass: trace / N",
                 "no items (N = 0)", _UP),
    "error_rate": ("Share of items predicted wrongly.", "1 − accuracy", "no items", _DOWN),
    "balanced_accuracy": ("Mean recall over classes: every class counts equally, whatever its size.",
                          "(1/K) Σ_k TP_k / (TP_k + FN_k)", "a class absent from gold (0/0 recall)", _UP),
    "precision": ("Of the items predicted as the class, the share that are of the class.", "TP / (TP + FP)",
                  "the class is never predicted (TP + FP = 0)", _UP),
    "recall": ("Of the items of the class, the share found (sensitivity, true-positive rate, TPR).", "TP / (TP + FN)",
               "the class is absent from gold (TP + FN = 0)", _UP),
    "f1": ("Harmonic mean of precision and recall.", "2·TP / (2·TP + FP + FN)", "TP + FP + FN = 0", _UP),
    "fbeta": ("Weighted harmonic mean of precision and recall; β > 1 weighs recall more.",
              "(1 + β²)·TP / ((1 + β²)·TP + β²·FN + FP)", "TP + FP + FN = 0", _UP),
    "specificity": ("Of the items not of the class, the share predicted as not of the class (TNR).", "TN / (TN + FP)",
                    "every item is of the class (TN + FP = 0)", _UP),
    "fpr": ("False-positive rate: of the items not of the class, the share predicted as the class.", "FP / (FP + TN)",
            "every item is of the class (FP + TN = 0)", _DOWN),
    "delta": ("δ, discrimination (Armano): how much more often the class is said for its items than for others.",
              "TPR − FPR", "TPR or FPR undefined", _UP),
    "phi": ("φ, bias (Armano): how often the classifier says yes, whatever the truth; 0 is unbiased.",
            "TPR + FPR − 1", "TPR or FPR undefined", _NONE),
    "macro_f1": ("Mean of the per-class F1: every class counts equally.", "(1/K) Σ_k F1_k",
                 "no classes; with zero_division=nan undefined classes are left out", _UP),
    "macro_f1_of_means": ("F1 of macro-precision and macro-recall (the other macro-F1).",
                          "2·P_macro·R_macro / (P_macro + R_macro)", "P_macro + R_macro = 0", _UP),
    "micro_f1": ("F1 of TP, FP and FN pooled over classes; equals accuracy on single-label data.",
                 "2·ΣTP / (2·ΣTP + ΣFP + ΣFN)", "no items", _UP),
    "weighted_f1": ("Mean of the per-class F1 weighted by support (gold items per class).",
                    "Σ_k support_k·F1_k / N", "no items", _UP),
    "mcc": ("Matthews correlation: the correlation between gold and predicted labels, −1 to 1.",
            "(c·N − Σ p_k·t_k) / √((N² − Σ p_k²)(N² − Σ t_k²)); binary: (TP·TN − FP·FN) / √(…)",
            "one label only in gold or in predictions (a zero denominator)", _UP),
    "kappa": ("Cohen's kappa: agreement beyond the agreement expected by chance.", "(p_o − p_e) / (1 − p_e)",
              "p_e = 1 (a single label everywhere)", _UP),
    "hamming_loss": ("Multi-label: share of (item, label) decisions that are wrong.", "(ΣFP + ΣFN) / (N·L)",
                     "no items or no labels", _DOWN),
    "subset_accuracy": ("Multi-label: share of items whose predicted label set equals the gold set exactly.",
                        "#{items with pred set = gold set} / N", "no items", _UP),
    "jaccard": ("Multi-label: mean over items of |gold ∩ pred| / |gold ∪ pred|.", "(1/N) Σ_i |G_i ∩ P_i| / |G_i ∪ P_i|",
                "an item with both sets empty counts as 1", _UP),
    "mae": ("Ordered classes: mean absolute distance between gold and predicted class ranks.", "(1/N) Σ |r(g_i) − r(p_i)|",
            "no items", _DOWN),
    "linear_kappa": ("Ordered classes: kappa with disagreement weights |i − j|.", "1 − Σ w·O / Σ w·E",
                     "no expected disagreement", _UP),
    "quadratic_kappa": ("Ordered classes: kappa with disagreement weights (i − j)².", "1 − Σ w·O / Σ w·E",
                        "no expected disagreement", _UP),
    "roc_auc": ("ROC-AUC: probability that a random positive scores above a random negative (ties count ½).",
                "(#pairs in order + ½·#tied pairs) / (P·N)", "no positive or no negative item", _UP),
    "average_precision": ("Average precision (PR-AUC): the step area under the precision–recall curve.",
                          "Σ_k (R_k − R_{k−1})·P_k over cuts in decreasing threshold", "no positive item", _UP),
    "ece": ("Expected calibration error: the support-weighted mean gap between confidence and observed frequency.",
            "Σ_b (n_b / N)·|acc_b − conf_b|", "no items", _DOWN),
    "mce": ("Maximum calibration error: the largest gap between confidence and observed frequency over bins.",
            "max_b |acc_b − conf_b|", "no items", _DOWN),
    "brier": ("Brier score: mean squared error of the probabilities.", "(1/N) Σ (p_i − y_i)²", "no items", _DOWN),
    "log_loss": ("Log loss: mean negative log-likelihood of the gold label (probabilities clipped to [ε, 1 − ε]).",
                 "−(1/N) Σ log p_i(y_i)", "no items", _DOWN),
    "p_value": ("One-sided p-value of the paired test (H1: A is better than B).",
                "bootstrap: #{δ(x^(i)) ≥ 2δ(x)} / b; randomization: (1 + #{δ_perm ≥ δ}) / (b + 1)",
                "δ undefined", _NONE),
}

# How tables name metrics (lowercased, before any parenthesis) → glossary name.
_LABELS = {
    "accuracy": "accuracy", "subset accuracy": "subset_accuracy", "error rate": "error_rate",
    "balanced accuracy": "balanced_accuracy", "precision": "precision", "recall": "recall", "f1": "f1",
    "specificity": "specificity", "fpr": "fpr", "false-positive rate": "fpr", "δ": "delta", "φ": "phi",
    "δ = tpr − fpr": "delta", "φ = tpr + fpr − 1": "phi", "macro-f1": "macro_f1", "micro-f1": "micro_f1",
    "macro_f1": "macro_f1", "micro_f1": "micro_f1", "weighted_f1": "weighted_f1", "macro_f1_of_means": "macro_f1_of_means",
    "matthews correlation": "mcc", "mcc": "mcc", "cohen's kappa": "kappa", "kappa": "kappa",
    "hamming loss": "hamming_loss", "jaccard": "jaccard", "mean absolute error": "mae",
    "linear-weighted kappa": "linear_kappa", "quadratic-weighted kappa": "quadratic_kappa", "roc-auc": "roc_auc",
    "roc_auc": "roc_auc", "pr-auc": "average_precision", "average_precision": "average_precision", "ece": "ece",
    "mce": "mce", "brier": "brier", "brier score": "brier", "log loss": "log_loss", "p": "p_value", "p-value": "p_value",
    "balanced_accuracy": "balanced_accuracy", "error_rate": "error_rate",
}
_FBETA = re.compile(r"^f\d+(\.\d+)?$")


def metric_of_label(label: Any) -> str | None:
    """The glossary name of a table's column or row label (``"F1"`` → ``f1``), or None.

    >>> metric_of_label("recall (sensitivity)"), metric_of_label("F2"), metric_of_label("class")
    ('recall', 'fbeta', None)
    """
    text = str(label).strip().lower()
    key = text.split(" (")[0].strip()
    if key in _LABELS:
        return _LABELS[key]
    if _FBETA.match(key):
        return "fbeta"
    if ":" in key and key.split(":", 1)[0] in _ENTRIES:
        return key.split(":", 1)[0]
    return None


def anchor(name: str) -> str:
    """The id of a glossary entry in the page."""
    return f"g-{name}"


def glossary_entries(names: Iterable[str]) -> list[dict[str, str]]:
    """Glossary entries (``name``, ``formula``, ``undefined``, ``direction``, ``definition``) of the named
    metrics that have one, in the order given, each once.

    >>> glossary_entries(["f1"])[0]["formula"]
    '2·TP / (2·TP + FP + FN)'
    """
    out, seen = [], set()
    for name in names:
        if name in seen or name not in _ENTRIES:
            continue
        seen.add(name)
        definition, formula, undefined, direction = _ENTRIES[name]
        out.append({"name": name, "formula": formula, "undefined": undefined, "direction": direction,
                    "definition": definition})
    return out
