"""``to_frame()``: every result's tables as pandas DataFrames, with their columns documented (pandas imported only
when a frame is made).

The scheme: ``result.to_frame()`` gives the result's main table; each part of a result that is a table has its own
``to_frame()`` (``report.slices``, ``report.find_slices``, ``threshold.sweep``, ``threshold.labels_cuts``,
``threshold.slices``, ``calibration.slices``, ``ranking.ovr``); a result's second table that is no part object is a
``<name>_frame()`` method (``compared.systems_frame()``, ``errors.terms_frame()``, ``rank.pairs_frame()``).
``FRAME_COLUMNS`` names and explains every column of every table (a name in angle brackets is a family, e.g. the
slice columns); the tests check each returned frame against it, and :func:`frame_columns_markdown` renders it for
the docs. Without pandas the call names the extra that brings it (``pip install 'clfeval[frame]'``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from clfeval.errors import MissingExtra

__all__ = ["FRAME_COLUMNS", "FRAME_ROWS", "Column", "to_frame", "flat", "expected_columns", "check_columns",
           "frame_columns_markdown"]


class Column(NamedTuple):
    """One documented column: its name (``<family>`` for a family of columns), what it holds, and when present
    (None: always)."""

    name: str
    doc: str
    when: str | None = None


C = Column
_SLICE_KEY = [C("slice", "the slice's name (`grp=n`, `a=x ∧ b=p`)"),
              C("<by>", "the slice's value of each slice column, one column per column of `by=`")]
_CUT = [C("threshold", "the cut: an item is positive iff its score ≥ threshold"),
        C("tp", "true positives at the cut"), C("fp", "false positives"), C("fn", "false negatives"),
        C("tn", "true negatives"), C("precision", "TP / (TP + FP)"), C("recall", "TP / (TP + FN)"),
        C("f1", "F1 at the cut"), C("fbeta", "F-beta of the objective's beta (NaN when the objective's F is F1)"),
        C("fpr", "FP / (FP + TN)"), C("accuracy", "(TP + TN) / N"),
        C("cost", "expected cost per item, (cost_fp · FP + cost_fn · FN) / N"),
        C("source", "where the default cut comes from, in words (the default row; else None)")]
_PAIR = [C("system_a", "the first system's name"), C("system_b", "the second system's name"),
         C("n", "items compared (DeLong: positives + negatives)"), C("value_a", "the metric of system a (DeLong: AUC)"),
         C("value_b", "the metric of system b"), C("delta", "value_a − value_b"),
         C("ci_low", "lower end of the interval of delta (NaN: none, e.g. non-inferiority)"),
         C("ci_high", "upper end of the interval of delta"), C("p_value", "the test's p-value"),
         C("p_adjusted", "the p-value adjusted for the several pairs, classes or slices (Holm by default; NaN for "
                                 "a single pair)"),
         C("significant", "the test rejects at α (after the adjustment, when there is one)"),
         C("margin", "the non-inferiority margin (NaN for other tests)"),
         C("bound", "the one-sided bound of delta that decides the test: a pair's test bound (beyond 0 exactly when "
                   "significant), a non-inferiority test's bound; NaN when the test has none (DeLong)"),
         C("verdict", "the conclusion in words")]
_TIDY = [C("n", "items in the slice"), C("share", "their share of all items"),
         C("small", "below `min_slice` items (shown, never flagged)"), C("metric", "the metric's catalogue name"),
         C("value", "its value in the slice (NaN: undefined)"),
         C("ci_low", "lower end of its interval in the slice (`ci=`; NaN when no interval)"),
         C("ci_high", "upper end of that interval"),
         C("gap_to_overall", "value − value on all items (tested metrics; else NaN)"),
         C("gap_to_rest", "value − value on the other items (tested metrics; else NaN)"),
         C("p", "the test of the slice against the rest (tested metrics; else NaN)"),
         C("p_holm", "p adjusted by Holm over the slices"), C("p_by", "p adjusted by Benjamini–Yekutieli"),
         C("flagged", "significant after the adjustment (None for untested metrics)"),
         C("direction", "`worse` or `better` than the rest (None for untested metrics)")]

#: Table name → its columns, in order (a result's second table: ``Type.table``, e.g. ``ErrorAnalysis.terms``).
FRAME_COLUMNS: dict[str, list[Column]] = {
    "Report": [C("class", "index: the class (or label) name"), C("tp", "true positives"), C("fp", "false positives"),
               C("fn", "false negatives"), C("tn", "true negatives"), C("support", "gold items of the class"),
               C("precision", "TP / (TP + FP)"), C("recall", "TP / (TP + FN)"), C("specificity", "TN / (TN + FP)"),
               C("fpr", "FP / (FP + TN)"), C("f1", "harmonic mean of precision and recall"),
               C("delta", "Youden's J, recall + specificity − 1"),
               C("phi", "φ of the φ–δ diagram, recall − specificity"),
               C("npv", "TN / (TN + FN)"), C("fnr", "FN / (FN + TP)"), C("prevalence", "support / N"),
               C("markedness", "precision + npv − 1"), C("lr_plus", "recall / fpr"), C("lr_minus", "fnr / specificity"),
               C("dor", "diagnostic odds ratio, lr_plus / lr_minus"),
               C("accuracy", "the label's accuracy, (TP + TN) / N", "multi-label data")],
    "SlicesPart": [*_SLICE_KEY, *_TIDY],
    "FoundSlices": [C("status", "`found`, `dropped` (a parent explains it) or `explained` (slices inside explain it)"),
                    C("slice", "the slice's name"), C("items", "its items"),
                    C("successes", "successes of the searched metric in it"), C("trials", "its trials"),
                    C("value", "the metric in the slice"), C("rest_value", "the metric on the other items"),
                    C("gap", "the difference of value and rest_value"),
                    C("effect_h", "Cohen's h of the gap (positive: worse)"),
                    C("p_value", "the test against the rest"),
                    C("p_adjusted", "p adjusted by Benjamini–Yekutieli over the slices examined"),
                    C("explained_by", "a list of the slices' names that explain it")],
    "Compared": [C("class", "index: the class (one-vs-rest DeLong only)", "one-vs-rest DeLong"),
                 *[C(c.name, c.doc, "by slice") for c in _SLICE_KEY], *_PAIR,
                 C("small", "below `min_slice` items", "by slice"),
                 C("p_by", "p adjusted by Benjamini–Yekutieli over the slices (p_adjusted: Holm)", "by slice")],
    "Compared.systems": [C("system", "the system's name"), C("value", "its metric (DeLong: AUC)"),
                         C("ci_low", "lower end of its interval (NaN: none)"), C("ci_high", "upper end")],
    "ThresholdResult": [C("label", "the label", "per label"),
                        *[C(c.name, c.doc, "without by=") for c in (C("cut", "`default`, `dev`, `test` or "
                                                                         "`hindsight`"), *_CUT)],
                        *[C(c.name, c.doc, "by slice") for c in (*_SLICE_KEY, *_TIDY)]],
    "LabelCuts": [C("label", "the label"), C("cut", "`default`, `dev`, `test` or `hindsight`"), *_CUT],
    "Sweep": [C("threshold", "the candidate cut (decreasing)"), C("precision", "precision at the cut"),
              C("recall", "recall at the cut"), C("fbeta", "F-beta at the cut (F1 when beta = 1)")],
    "ThresholdSlices": [*_SLICE_KEY, *_TIDY],
    "Calibration": [C("lower", "the bin's lower edge"), C("upper", "its upper edge"), C("count", "items in the bin"),
                    C("confidence", "their mean predicted probability"),
                    C("accuracy", "their observed frequency of the positive (top label: of a correct top label)"),
                    C("gap", "accuracy − confidence")],
    "CalibrationSlices": [*_SLICE_KEY, C("n", "items in the slice"), C("small", "below `min_slice` items"),
                          C("ece", "expected calibration error in the slice"), C("mce", "maximum calibration error"),
                          C("brier", "Brier score"), C("log_loss", "log loss")],
    "RankingResult": [C("class", "index: the class", "one-vs-rest"),
                      C("positive", "the positive class", "binary"), C("n", "items", "binary"),
                      C("n_positive", "positive items", "binary"), C("n_negative", "negative items", "binary"),
                      C("prevalence", "positives / items (one-vs-rest: the class's share)"),
                      C("roc_auc", "area under the ROC curve"), C("average_precision", "average precision"),
                      C("support", "gold items of the class", "one-vs-rest"),
                      C("pairs", "positive × negative pairs", "binary"),
                      C("pairs_in_order", "pairs ranked in order (ties count half)", "binary")],
    "OneVsRest": [C("class", "index: the class"), C("prevalence", "support / N"),
                  C("roc_auc", "the class against the rest"), C("average_precision", "the class against the rest"),
                  C("support", "gold items of the class")],
    "ErrorAnalysis": [C("gold", "the gold label of the cell"), C("pred", "the predicted label"),
                      C("kind", "`confusion` (single-label), `false negatives` or `false positives` (label sets)"),
                      C("category", "the label of a label-set cell (None for a confusion)"),
                      C("count", "items in the cell"),
                      C("share", "their share of the gold class (label sets: of the items that carry the category, "
                                 "or not)"),
                      C("opposite", "items of the opposite cell (pred → gold; label sets: the category's other error)"),
                      C("tokens", "tokens in the cell's texts"), C("terms_vs_gold", "terms listed against gold"),
                      C("terms_vs_pred", "terms listed against pred"), C("examples", "examples listed"),
                      C("confident", "confident mistakes listed (with a score)")],
    "ErrorAnalysis.terms": [C("gold", "the cell's gold label"), C("pred", "its predicted label"),
                            C("count", "items in the cell"), C("side", "`vs_gold` or `vs_pred`: compared with"),
                            C("rank", "the term's place in its list (1 first)"), C("term", "the term"),
                            C("z", "its z-score (log-odds with an informative prior)"),
                            C("delta", "its log-odds difference"), C("term_count", "its count in the cell"),
                            C("other_count", "its count in the compared items")],
    "RankResult": [C("system", "the system"), C("position", "its place in the order (1 best)"),
                   C("average_rank", "its rank averaged over the data sets (1 best)"),
                   C("mean_score", "its score averaged over the data sets"),
                   C("in_best_group", "not separated from the best system")],
    "RankResult.pairs": [C("a", "first system"), C("b", "second system"), C("rank_a", "a's average rank"),
                         C("rank_b", "b's average rank"), C("rank_difference", "rank_b − rank_a (≥ 0)"),
                         C("wilcoxon_statistic", "Wilcoxon signed-rank statistic"),
                         C("p_value", "its p-value"), C("wilcoxon_method", "exact or approximate"),
                         C("p_holm", "p adjusted by Holm over the pairs"), C("separated", "p_holm < α"),
                         C("nemenyi_p", "Nemenyi's p-value"), C("nemenyi_separated", "Nemenyi separates them"),
                         C("mean_difference", "mean of a − b"), C("median_difference", "median of a − b"),
                         C("hodges_lehmann", "Hodges–Lehmann estimate of a − b"),
                         C("undefined", "why the test is undefined (None: defined)"), C("wins", "data sets a wins"),
                         C("ties", "ties"), C("losses", "data sets a loses"),
                         C("p_a_better", "Bayesian signed-rank: P(a better) (NaN without `bayes`)"),
                         C("p_equivalent", "P(within the rope)"), C("p_b_better", "P(b better)"),
                         C("bayes_verdict", "the Bayesian conclusion (None without `bayes`)")],
    "PowerResult": [C("kind", "which question: `mcnemar`, `bootstrap` (two systems) or `width` (one system)"),
                    C("metric", "the count metric"), C("n", "items counted"),
                    C("observed", "two systems: the observed δ = A − B; one system: the metric now"),
                    C("detectable_delta", "two systems: the smallest δ detected with the power wanted (NaN: one "
                                          "system, or undefined)"),
                    C("width", "one system: the width of its interval now (NaN: two systems)"),
                    C("target", "the δ (two systems) or the width (one system) asked for (NaN: none)"),
                    C("required_n", "the items needed for the target (NaN: none asked, or undefined)")],
    "LabelIssues": [C("rank", "the item's place in the ranking (1: the likeliest error by `rank_by`)"),
                    C("row", "its 0-based row in the input"), C("id", "its id (None without an id column)"),
                    C("given", "the label it is given (gold)"),
                    C("suggested", "the label of the cell that flagged it (its likely true label)"),
                    C("self_confidence", "p(given | x): the probability of its given label"),
                    C("normalized_margin", "p(given | x) − max over the other classes of p(j | x)")],
    "ProtocolResult": [C("<field>", "the fold's fields of `per_fold` in `to_dict()`, nested ones dotted "
                                    "(`train.accuracy`)")],
    "CVComparison": [C("<field>", "the fold's fields of `per_fold` in `to_dict()`, nested ones dotted")],
}

#: Table name → what a row is (the docs' heading line).
FRAME_ROWS: dict[str, str] = {
    "Report": "`report.to_frame()`: one row per class (index `class`)",
    "SlicesPart": "`report.slices.to_frame()`: one row per slice × shown metric (tidy)",
    "FoundSlices": "`report.find_slices.to_frame()`: one row per significant slice",
    "Compared": "`compared.to_frame()`: one row per pair of systems (two systems, DeLong, non-inferiority: one row; "
                "several: one per pair; one-vs-rest DeLong: one per class; by slice: one per slice, with the slice "
                "columns instead of the system names)",
    "Compared.systems": "`compared.systems_frame()`: one row per system (by slice: overall)",
    "ThresholdResult": "`threshold.to_frame()`: one row per cut (default, dev, test, hindsight); per label: "
                       "`labels_cuts`'s table; by slice: the slices' table",
    "LabelCuts": "`threshold.labels_cuts.to_frame()`: one row per label × cut",
    "Sweep": "`threshold.sweep.to_frame()`: one row per candidate cut of the test sweep",
    "ThresholdSlices": "`threshold.slices.to_frame()`: one row per slice × metric at the chosen cut (tidy)",
    "Calibration": "`calibration.to_frame()`: one row per bin",
    "CalibrationSlices": "`calibration.slices.to_frame()`: one row per slice",
    "RankingResult": "`ranking.to_frame()`: binary: one summary row; one-vs-rest: one row per class (index `class`)",
    "OneVsRest": "`ranking.ovr.to_frame()`: one row per class (index `class`)",
    "ErrorAnalysis": "`errors.to_frame()`: one row per error cell",
    "ErrorAnalysis.terms": "`errors.terms_frame()`: one row per listed term of a cell",
    "RankResult": "`rank.to_frame()`: one row per system, best first",
    "PowerResult": "`power.to_frame()`: one row, the question's numbers",
    "LabelIssues": "`issues.to_frame()`: one row per flagged item, in the ranking's order",
    "RankResult.pairs": "`rank.pairs_frame()`: one row per pair of systems",
    "ProtocolResult": "`protocol.to_frame()`: one row per fold",
    "CVComparison": "`cv.to_frame()`: one row per fold",
}

_FLAT = {"ProtocolResult": "per_fold", "CVComparison": "per_fold"}


def flat(row: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """One record with nested dicts flattened to dotted keys; None → NaN.

    >>> flat({"a": 1, "train": {"accuracy": 1.0, "f1": None}})
    {'a': 1, 'train.accuracy': 1.0, 'train.f1': nan}
    """
    out: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flat(value, name + "."))
        else:
            out[name] = math.nan if value is None else value
    return out


def _table_name(result: Any, table: str | None) -> str:
    for cls in type(result).__mro__:
        name = cls.__name__ if table is None else f"{cls.__name__}.{table}"
        if name in FRAME_COLUMNS:
            return name
    have = [k for k in FRAME_COLUMNS if k.startswith(type(result).__name__)]
    raise TypeError(f"{type(result).__name__} has no table {table or ''!r} to give as a DataFrame; its tables: "
                    f"{', '.join(have) or 'none'} (to_dict() holds everything)")


def to_frame(result: Any, table: str | None = None) -> Any:
    """The table ``table`` of ``result`` (None: its main table) as a :class:`pandas.DataFrame`; its columns are
    ``FRAME_COLUMNS[<type name>]`` (see the module notes)."""
    from clfeval.render._tables import BUILDERS

    name = _table_name(result, table)
    MissingExtra.require("to_frame()", [("pandas", "pandas")], "frame")
    import pandas as pd

    if name in _FLAT:
        return pd.DataFrame([flat(r) for r in result.to_dict()[_FLAT[name]]])
    rows, columns, index = BUILDERS[name](result)
    if index is None:
        return pd.DataFrame(rows, columns=columns)
    return pd.DataFrame([{c: r[c] for c in columns} for r in rows], columns=columns,
                        index=pd.Index([r[index] for r in rows], name=index, dtype=object))


def expected_columns(name: str, fill: Mapping[str, Iterable[str]] | None = None, *,
                     when: Iterable[str] = ()) -> list[str]:
    """The documented columns of table ``name`` in order: families (``<by>``) replaced by ``fill[family]``, columns
    present only ``when`` some case kept when that case is in ``when``; the index column left out."""
    fill = fill or {}
    cases = set(when)
    out: list[str] = []
    for c in FRAME_COLUMNS[name]:
        if c.doc.startswith("index:") or (c.when is not None and c.when not in cases):
            continue
        fam = re.fullmatch(r"<(\w+)>", c.name)
        out += list(fill.get(fam.group(1), ())) if fam else [c.name]
    return out


def check_columns(name: str, columns: Iterable[str]) -> list[str]:
    """The columns not documented for table ``name`` (a family matches any name): empty when all are."""
    docs = FRAME_COLUMNS[name]
    fixed = {c.name for c in docs}
    family = any(re.fullmatch(r"<\w+>", c.name) for c in docs)
    return [c for c in columns if c not in fixed and not family]


def frame_columns_markdown() -> str:
    """Every table's columns as Markdown: a heading line per table (what a row is), then a table of column, what it
    holds and when it is present."""
    parts = []
    for name, cols in FRAME_COLUMNS.items():
        lines = [f"**{name}** — {FRAME_ROWS[name]}", "", "| column | holds | present |", "|---|---|---|"]
        lines += [f"| `{c.name}` | {c.doc} | {c.when or 'always'} |" for c in cols]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"
