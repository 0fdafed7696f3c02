"""Which interval each metric gets (``--ci-method``): the methods that apply to it, and the measured defaults.

Methods:

* ``percentile`` — bootstrap percentile interval (any metric);
* ``bca`` — bootstrap bias-corrected and accelerated interval (any metric;
  its acceleration from the exact leave-one-out tables);
* ``wilson`` — Wilson's score interval, for metrics that are binomial
  proportions x/m of the table: accuracy, error rate, per-class precision,
  recall, specificity, FPR, FNR, NPV, prevalence, micro precision and recall;
* ``delong``, ``logit-delong``, ``hanley-mcneil`` — ROC-AUC only
  (:mod:`clfeval.significance._aucintervals`), beside ``percentile`` and ``bca``.

**Defaults** are the methods whose worst cell covered best in
``bench/ci_coverage.py`` (the table is in docs/guide/significance.md): Wilson for per-class
precision and recall, BCa for every other count metric (accuracy, F1,
macro-F1 measured; the others follow the bootstrap that won for every
measured non-proportion), logit DeLong for ROC-AUC.

``--ci-method`` takes one method for every metric it applies to (``bca``), or
``METRIC=METHOD`` for one metric (``accuracy=wilson``, ``precision=percentile``,
``recall:spam=bca``, ``roc_auc=delong``), repeatable.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from clfeval.errors import UsageError

__all__ = ["COUNT_METHODS", "RANKING_METHODS", "ALL_METHODS", "PROPORTIONS", "parse_ci_methods", "count_method",
           "ranking_method", "DEFAULT_RANKING", "METHOD_NAMES"]

COUNT_METHODS = ("percentile", "bca", "wilson")
RANKING_METHODS = ("delong", "logit-delong", "hanley-mcneil", "percentile", "bca")
ALL_METHODS = ("percentile", "bca", "wilson", "delong", "logit-delong", "hanley-mcneil")
#: Catalogue names of the metrics that are binomial proportions of the table (Wilson applies).
PROPORTIONS = ("accuracy", "error_rate", "precision", "recall", "specificity", "fpr", "fnr", "npv", "prevalence",
               "micro_precision", "micro_recall")
DEFAULT_RANKING = "logit-delong"
_WILSON_DEFAULT = ("precision", "recall")
#: How each method is named in the outputs.
METHOD_NAMES = {"percentile": "bootstrap percentile", "bca": "bootstrap BCa", "wilson": "Wilson score",
                "delong": "DeLong (Wald)", "logit-delong": "DeLong on the logit scale",
                "hanley-mcneil": "Hanley–McNeil"}


def parse_ci_methods(values: Iterable[str] | str | None) -> dict[str, str]:
    """``["bca", "accuracy=wilson"]`` → ``{"*": "bca", "accuracy": "wilson"}``; unknown methods refused by name.

    >>> parse_ci_methods(["bca", "precision:spam=wilson"])
    {'*': 'bca', 'precision:spam': 'wilson'}
    >>> parse_ci_methods("jackknife")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option ci_method: unknown interval method 'jackknife'; the methods are percentile, bca,
    wilson (binomial proportions only), delong, logit-delong, hanley-mcneil (ROC-AUC only).
    """
    if values is None:
        return {}
    if isinstance(values, str):
        values = [values]
    out: dict[str, str] = {}
    for text in values:
        metric, _, method = str(text).rpartition("=")
        method = method.strip().lower()
        if method not in ALL_METHODS:
            raise _option_error(f": unknown interval method {method!r}; the methods are percentile, bca, wilson "
                                f"(binomial proportions only), delong, logit-delong, hanley-mcneil (ROC-AUC only).")
        out[metric.strip() or "*"] = method
    return out


def _option_error(rest: str) -> UsageError:
    """``option --ci-method`` (named as the user gave it) followed by ``rest``: the text is bound now, not in a loop."""
    return UsageError(lambda name: f"option {name}{rest}", params=["ci_method"])


def _refuse(metric: str, method: str) -> UsageError:
    if method == "wilson":
        why = (f"wilson is the interval of a binomial proportion ({', '.join(PROPORTIONS)}); {metric!r} is not one: "
               f"use percentile or bca")
    elif method in ("delong", "logit-delong", "hanley-mcneil"):
        why = f"{method} is an interval of ROC-AUC (roc_auc, with --score); {metric!r} is a count metric: use " \
              f"percentile, bca" + (" or wilson" if metric.split(":")[0] in PROPORTIONS else "")
    else:
        why = f"{method} does not apply to {metric!r}"
    return UsageError(lambda name: f"option {name} {metric}={method}: {why}.", params=["ci_method"])


def check_ci_methods(methods: dict[str, str], *, count_names: Iterable[str], scored: bool, multilabel: bool) -> None:
    """Refuse, before any work, a method named for a metric it does not apply to (or a metric not in the report)."""
    names = set(count_names)
    for metric, method in methods.items():
        if metric == "*":
            if method in ("delong", "logit-delong", "hanley-mcneil") and not scored:
                raise _option_error(f" {method}: {method} is an interval of ROC-AUC; give --score (with --positive) "
                                    f"or --scores-prefix, or choose percentile, bca or wilson.")
            if multilabel and method in ("bca", "wilson"):
                raise _option_error(f" {method}: multi-label intervals are bootstrap percentile intervals only.")
            continue
        base = metric.split(":")[0]
        if base == "roc_auc":
            if method not in RANKING_METHODS:
                raise _option_error(f" roc_auc={method}: ROC-AUC takes {', '.join(RANKING_METHODS)}.")
            if not scored:
                raise UsageError(lambda name: f"option {name} roc_auc=...: the report has no ROC-AUC; give --score "
                                 f"(with --positive) or --scores-prefix.", params=["ci_method"])
            continue
        if base not in names:
            raise _option_error(f" {metric}={method}: {base!r} is not a metric of this report's intervals "
                                f"(`clfeval metrics` lists the names).")
        if method not in COUNT_METHODS or (method == "wilson" and base not in PROPORTIONS):
            raise _refuse(metric, method)
        if multilabel and method != "percentile":
            raise _option_error(f" {metric}={method}: multi-label intervals are bootstrap percentile intervals only.")


def count_method(name: str, label: str | None, methods: dict[str, str]) -> str:
    """The method of one count metric (catalogue ``name``, per-class ``label`` or None): asked for, or default."""
    for key in ((f"{name}:{label}",) if label is not None else ()) + (name,):
        if key in methods:
            return methods[key]
    chosen = methods.get("*")
    if chosen in ("percentile", "bca") or (chosen == "wilson" and name in PROPORTIONS):
        return chosen
    return "wilson" if name in _WILSON_DEFAULT and label is not None else "bca"


def ranking_method(label: str | None, methods: dict[str, Any]) -> str:
    """The method of a ranking's ROC-AUC interval: ``roc_auc:LABEL=``, ``roc_auc=``, a global one, or the default."""
    for key in ((f"roc_auc:{label}",) if label is not None else ()) + ("roc_auc",):
        if key in methods:
            return methods[key]
    chosen = methods.get("*")
    return chosen if chosen in RANKING_METHODS else DEFAULT_RANKING
