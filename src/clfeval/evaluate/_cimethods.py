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

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from clfeval.errors import UsageError

__all__ = ["COUNT_METHODS", "RANKING_METHODS", "ALL_METHODS", "PROPORTIONS", "parse_ci_methods", "count_method",
           "ranking_method", "check_ci_methods", "check_method_labels", "DEFAULT_RANKING", "METHOD_NAMES"]

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


def parse_ci_methods(values: Any) -> dict[str, str]:
    """Every form of ``ci_method`` (``--ci-method``) as one mapping ``{METRIC: METHOD}`` (``"*"``: every metric).

    The forms: ``"auto"`` or None (the defaults: ``{}``); one text, ``METHOD`` (every metric it applies to)
    or ``METRIC=METHOD``; a list or tuple of such texts (the command line's repeated option); a mapping
    ``{METRIC: METHOD}``. ``METRIC`` is a catalogue name, ``NAME:LABEL`` for one class (``recall:spam``).
    Refused by name: an unknown method, a text with two ``=``, an empty metric or class, and a key given
    twice (even with the same method: one choice per metric). A more specific key wins over a less specific
    one when the intervals are chosen (:func:`count_method`, :func:`ranking_method`): ``recall:spam``
    over ``recall`` over a ``METHOD`` for every metric.

    >>> parse_ci_methods(["bca", "precision:spam=wilson"])
    {'*': 'bca', 'precision:spam': 'wilson'}
    >>> parse_ci_methods("roc_auc=delong") == parse_ci_methods({"roc_auc": "delong"}) == {"roc_auc": "delong"}
    True
    >>> parse_ci_methods("jackknife")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option ci_method: unknown interval method 'jackknife'; the methods are percentile, bca,
    wilson (binomial proportions only), delong, logit-delong, hanley-mcneil (ROC-AUC only).
    >>> parse_ci_methods(["accuracy=wilson", "accuracy=bca"])  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option ci_method names accuracy twice (accuracy=wilson, accuracy=bca); give each
    metric one method.
    """
    if values is None or (isinstance(values, str) and values.strip().lower() == "auto"):
        return {}
    if isinstance(values, str):
        pairs = [_split(values)]
    elif isinstance(values, Mapping):
        pairs = [(_key(k), _method(v)) for k, v in values.items()]
    elif isinstance(values, (list, tuple)) and all(isinstance(v, str) for v in values):
        pairs = [_split(v) for v in values]
    else:
        raise UsageError(lambda name: f"option {name} must be a METHOD or METRIC=METHOD text, a list of them, or a "
                                      f"mapping {{METRIC: METHOD}}; got {values!r}.", params=["ci_method"])
    out: dict[str, str] = {}
    for metric, method in pairs:
        if metric in out:
            what = "a method for every metric" if metric == "*" else metric
            given = ", ".join(_shown(metric, m) for m in (out[metric], method))
            raise _option_error(f" names {what} twice ({given}); give each metric one method.")
        out[metric] = method
    return out


def _shown(metric: str, method: str) -> str:
    return method if metric == "*" else f"{metric}={method}"


def _split(text: str) -> tuple[str, str]:
    """One ``METHOD`` or ``METRIC=METHOD`` text as (key, method)."""
    if text.count("=") > 1:
        raise _option_error(f" {text}: one METRIC=METHOD per value (this one holds {text.count('=')} '='); give "
                            f"each metric its own value.")
    metric, eq, method = text.partition("=")
    if not eq:
        return "*", _method(metric)
    return _key(metric, text), _method(method)


def _key(metric: Any, text: str | None = None) -> str:
    """A metric key (``NAME`` or ``NAME:LABEL``) checked for form: text, a name and (when given) a class."""
    shown = text if text is not None else f"{metric}=..."
    if not isinstance(metric, str):
        raise _option_error(f" {shown}: a metric is named by text (such as accuracy or recall:spam); got "
                            f"{metric!r}.")
    key = metric.strip()
    if key == "*":
        return key
    name, colon, label = key.partition(":")
    if not name.strip():
        raise _option_error(f" {shown}: no metric before '='; give METRIC=METHOD (such as accuracy=wilson), or the "
                            f"METHOD alone for every metric.")
    if colon and not label.strip():
        raise _option_error(f" {shown}: no class after ':'; give NAME:LABEL (such as recall:spam).")
    return f"{name.strip()}:{label.strip()}" if colon else name.strip()


def _method(value: Any) -> str:
    method = value.strip().lower() if isinstance(value, str) else value
    if method not in ALL_METHODS:
        raise _option_error(f": unknown interval method {method!r}; the methods are percentile, bca, wilson "
                            f"(binomial proportions only), delong, logit-delong, hanley-mcneil (ROC-AUC only).")
    return str(method)


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
    """Refuse, before any work, a method named for a metric it does not apply to (or a metric not in the report).

    ``count_names``: the catalogue's count metrics (``recall:LABEL`` for a per-class one). The classes a key
    names are checked once the data's labels are known (:func:`check_method_labels`).
    """
    names = {n.split(":")[0] for n in count_names}
    per_label = {n.split(":")[0] for n in count_names if n.endswith(":LABEL")}
    for metric, method in methods.items():
        if metric == "*":
            if method in ("delong", "logit-delong", "hanley-mcneil") and not scored:
                raise _option_error(f" {method}: {method} is an interval of ROC-AUC; give --score (with --positive) "
                                    f"or --scores-prefix, or choose percentile, bca or wilson.")
            if multilabel and method in ("bca", "wilson"):
                raise _option_error(f" {method}: multi-label intervals are bootstrap percentile intervals only.")
            continue
        base, colon, _ = metric.partition(":")
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
        if colon and base not in per_label:
            raise _option_error(f" {metric}={method}: {base} is one number for the whole table, not one per class; "
                                f"give {base}={method}.")
        if method not in COUNT_METHODS or (method == "wilson" and base not in PROPORTIONS):
            raise _refuse(metric, method)
        if multilabel and method != "percentile":
            raise _option_error(f" {metric}={method}: multi-label intervals are bootstrap percentile intervals only.")


def check_method_labels(methods: Mapping[str, str], labels: Sequence[str], *, ranking: bool = False) -> None:
    """Refuse a ``NAME:LABEL`` key whose class the data does not have (``labels``: the labels' text), once they are
    known: the count metrics' keys (``ranking`` False) or ROC-AUC's (True; ``labels`` then the ranked classes).

    >>> check_method_labels({"recall:spam": "bca", "roc_auc:x": "delong"}, ["ham", "spam"])
    >>> check_method_labels({"recall:nope": "bca"}, ["ham", "spam"])  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option ci_method recall:nope=bca names the class 'nope', which the data does not have;
    its classes are: 'ham', 'spam'.
    """
    known = set(labels)
    for metric, method in methods.items():
        base, colon, label = metric.partition(":")
        if not colon or (base == "roc_auc") != ranking or label in known:
            continue
        shown = ", ".join(repr(x) for x in list(labels)[:20]) + (", ..." if len(labels) > 20 else "")
        why = (f"which the scores do not rank; they rank: {shown}" if ranking else
               f"which the data does not have; its classes are: {shown}")
        raise _option_error(f" {metric}={method} names the class {label!r}, {why}.")


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
