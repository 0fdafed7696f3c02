"""The metric catalogue: the one list of the named metrics clfeval reports.

Every metric clfeval computes — from a count table, from a ranking of scores,
or from predicted probabilities — is one :class:`Metric` entry of
:data:`METRICS`: its name (per-label metrics are named ``METRIC:LABEL``, e.g.
``f1:spam``), the input it is computed from, the tasks it applies to, its
direction (higher is better, lower is better, or none), its range, its
definition in words and as a formula with its undefined case, where it sits
in the JSON of a result, and the function that computes it.

Everything that names a metric goes through this list:

* a report's metric sections (``per_class``, ``binary``, the overall
  numbers, ``macro`` / ``micro`` / ``weighted``, ``ordinal``) are built by
  :func:`clfeval.core._scoring.leaves` iterating the count entries;
* the bootstrap intervals apply the same entries to stacks of replicate
  tables (:mod:`clfeval.evaluate._intervals`), so a metric and its interval cannot
  disagree;
* ``compare`` / ``compare_many``, the protocol runner, the run log and the
  command line's ``--metric`` options resolve names and directions here
  (:func:`get`, :func:`clfeval.core._scoring.scalar_metric`), and refuse an unknown name with the
  list of valid ones;
* ``clfeval metrics`` lists the entries (:func:`catalogue`).

Count metrics are functions of the per-class counts TP, FP, FN, TN of a
stack of tables, shape (..., K) (:class:`clfeval.core._metrics.TableStats`): MCC and
kappa need only the trace and the margins; only the ordinal measures weigh each
cell of the K×K table (``needs_matrix``: dense, or its non-empty cells when the
table is held sparsely). Each returns its values and the mask of the
undefined ones; 0/0 follows ``zero_division`` and an infinite ratio (x/0,
x > 0) is NaN whatever the policy (:func:`clfeval.core._metrics.ratio`).

Adding a metric: one entry in :func:`_entries` below and, if new arithmetic
is needed, its function in :mod:`clfeval.core._metrics`. Reports,
intervals, ``compare``, the protocol runner, the run log and
``clfeval metrics`` then know it.

This module imports neither SciPy nor scikit-learn.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.core import _metrics as M, _ranksummary as RS
from clfeval.core._metrics import TableStats
from clfeval.core._signature import build_signature
from clfeval.errors import UsageError

__all__ = [
    "TASKS",
    "INPUTS",
    "DIRECTIONS",
    "Place",
    "Metric",
    "MetricCatalogue",
    "METRICS",
    "get",
    "by_key",
    "find",
    "parse",
    "names",
    "valid_names_text",
    "check_name",
    "label",
    "catalogue",
    "Function",
    "FUNCTIONS",
]

# The functions a requirement may call beside the metrics (min_slice(METRIC), in_best_group(NAME), ...) are
# registered in one table of their own, core/reqfunctions.py, and re-exported here.
from clfeval.core._reqfunctions import FUNCTIONS, Function  # noqa: E402

#: The kinds of task a metric applies to.
TASKS = ("binary", "multiclass", "multilabel", "ordinal")
#: What a metric is computed from.
INPUTS = ("counts", "ranking", "probabilities")
#: Which way is better.
DIRECTIONS = ("higher", "lower", "none")

SINGLE_LABEL = ("binary", "multiclass", "ordinal")


@dataclass(frozen=True)
class Place:
    """Where a metric sits in the JSON of a result.

    ``path`` is dot-separated; ``LABEL`` stands for each label (a key of
    ``per_class``). ``tasks`` restricts the place to some of the metric's
    tasks; ``result`` names the result whose JSON holds it (``report`` —
    also the pooled report of a protocol run — or ``calibration``). Places
    under ``binary`` exist when the report has a positive class, places of
    ordinal metrics when it has an ordinal scale.
    """

    path: str
    tasks: tuple[str, ...] | None = None
    result: str = "report"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"result": self.result, "path": self.path}
        if self.tasks is not None:
            out["tasks"] = list(self.tasks)
        return out


@dataclass(frozen=True)
class Metric:
    """One named metric.

    Attributes
    ----------
    name : str
        The name as it appears in JSON (``f1``, ``accuracy``, ``macro_f1``
        is found at ``macro.f1``); see :attr:`key` for the name other code
        uses.
    title : str
        How prose names it (``macro-F1``, ``Cohen's kappa``).
    input : {"counts", "ranking", "probabilities"}
    tasks : tuple of str
        Of :data:`TASKS`.
    direction : {"higher", "lower", "none"}
    range : (float, float)
        Smallest and largest value (``inf`` for unbounded).
    definition, formula, undefined : str
        In words; as a formula; when it is undefined and what is then reported.
    where : tuple of Place
    compute : callable
        Count metrics: ``compute(evaluation) -> (values, undefined)`` over an
        :class:`clfeval.core._scoring.Evaluation` of a stack of tables, values of shape (...,) or,
        per label, (..., K). Ranking metrics: ``compute(summary, **params) -> float``
        of a :class:`clfeval.core._ranksummary.RankingSummary` (what every engine's ranking produces);
        probability metrics:
        ``compute(calibration) -> float`` of a
        :class:`clfeval.scores._calibration.Calibration`.
    per_label : bool
        One value per label: named ``name:LABEL``.
    needs_matrix : bool
        Needs the cells of the K×K table (dense or sparse), not only the per-class counts.
    uses_beta : bool
        Depends on β; a report shows it only when β ≠ 1.
    trace_only : bool
        Depends on the number of correctly labelled items only (single-label).
    listed : bool
        Its undefined cases are listed under a report's ``undefined``.
    infinite : str or None
        When the value can be infinite (x/0 with x > 0): the case, in words.
    undefined_items : callable or None
        For a mean over items with 0/0 items (Jaccard): the number of such items.
    aliases : tuple of str
        Other names tables and prose give the metric (``Matthews correlation``, ``sensitivity``); the HTML
        report's glossary links them to this entry.
    params : dict
        Keyword parameters ``compute`` takes beyond its input, with their defaults (``max_fpr`` of
        ``partial_roc_auc``).
    random, needs, shown : callable, callable, str, or None
        Ranking metrics (laid out from these entries everywhere: a new one is its entry and its ``compute``):
        ``random(summary, **params)``, a random ranking's value; ``needs(summary, **params)``, why the summary
        cannot give it (then NaN and listed) or None; the table label, formatted with the parameters.
    """

    name: str
    title: str
    input: str
    tasks: tuple[str, ...]
    direction: str
    range: tuple[float, float]
    definition: str
    formula: str
    undefined: str
    where: tuple[Place, ...]
    compute: Callable[..., Any] = field(repr=False, compare=False)
    per_label: bool = False
    needs_matrix: bool = False
    uses_beta: bool = False
    trace_only: bool = False
    listed: bool = True
    infinite: str | None = None
    undefined_items: Callable[[TableStats], Any] | None = field(default=None, repr=False, compare=False)
    aliases: tuple[str, ...] = ()
    params: dict[str, Any] = field(default_factory=dict, compare=False)
    random: Callable[..., float] | None = field(default=None, repr=False, compare=False)
    needs: Callable[..., str | None] | None = field(default=None, repr=False, compare=False)
    shown: str | None = None

    @property
    def label(self) -> str:  # the table label: shown with the default parameters, else the title
        return self.title if self.shown is None else self.shown.format(**self.params)

    def __post_init__(self) -> None:
        if self.input not in INPUTS or self.direction not in DIRECTIONS or not set(self.tasks) <= set(TASKS):
            raise ValueError(f"catalogue entry {self.name!r} is malformed")  # a programming error, caught by the tests

    @property
    def key(self) -> str:
        """The name other code uses: ``accuracy``, ``macro_f1``, ``f1:LABEL`` (per label)."""
        return f"{self.name}:LABEL" if self.per_label else self.name

    @property
    def higher_is_better(self) -> bool | None:
        """True, False, or None for a metric without a better direction (prevalence, φ)."""
        return {"higher": True, "lower": False, "none": None}[self.direction]

    def range_text(self) -> str:
        lo, hi = self.range
        def fmt(x: float) -> str:
            return "∞" if x == math.inf else "−∞" if x == -math.inf else f"{x:g}"
        return f"[{fmt(lo)}, {fmt(hi)}{')' if hi == math.inf else ']'}"

    def to_dict(self) -> dict[str, Any]:
        """Plain data: what ``clfeval metrics --format json`` lists."""
        return {"name": self.key, "title": self.title, "input": self.input, "tasks": list(self.tasks),
                "direction": self.direction, "higher_is_better": self.higher_is_better,
                "range": [self.range[0], self.range[1]], "range_text": self.range_text(),
                "definition": self.definition, "formula": self.formula, "undefined": self.undefined,
                "where": [p.to_dict() for p in self.where], "needs_matrix": self.needs_matrix,
                "aliases": list(self.aliases), **({"parameters": dict(self.params)} if self.params else {})}


# --- the entries -------------------------------------------------------------------

def _needs_pairs(s: Any, **_params: Any) -> str | None:
    """Why a ranking measure of positive–negative pairs is undefined on a summary, or None."""
    return "needs at least one positive and one negative item" if s.pairs == 0 else None


ALL = TASKS
ML = ("multilabel",)
INF = math.inf
_ZERO_DIVISION = "0/0, filled by zero_division (0 by default; nan leaves it undefined)"


def _none(values: np.ndarray) -> np.ndarray:
    return np.zeros(np.shape(values), dtype=bool)


def _per_label(name: str, title: str, fn: Callable[..., Any], direction: str, rng: tuple[float, float],
               definition: str, formula: str, undefined: str, *, extra: tuple[Place, ...] = (),
               **kw: Any) -> Metric:
    """A metric of each class against all others (of each label, multi-label), at per_class.LABEL and binary."""
    return Metric(name, title, "counts", ALL, direction, rng, definition, formula, undefined,
                  (Place(f"per_class.LABEL.{name}"), Place(f"binary.{name}")) + extra, fn, per_label=True, **kw)


def _ratio(name: str, title: str, fn: Callable[..., Any], direction: str, definition: str, formula: str,
           zero_case: str, infinite_case: str) -> Metric:
    """A per-label ratio of rates that can be infinite (x/0 with x > 0); not averaged over classes."""
    return _per_label(name, title, lambda e: fn(e.c, e.zd), direction, (0.0, INF),
                      f"{definition} Not averaged over classes.", formula,
                      f"When {zero_case}: {_ZERO_DIVISION}. With {infinite_case} it is infinite: reported as "
                      f"undefined (null), whatever zero_division.", infinite=infinite_case)


def _one_vs_rest(name: str, title: str, fn: Callable[..., Any], direction: str, rng: tuple[float, float],
                 definition: str, formula: str, undefined: str, **kw: Any) -> Metric:
    """A whole-table metric applied to one class against all others: in the binary block of single-label reports."""
    return Metric(name, title, "counts", SINGLE_LABEL, direction, rng, definition, formula, undefined,
                  (Place(f"binary.{name}", SINGLE_LABEL),), fn, per_label=True, listed=False, **kw)


def _averages(base: str, title: str, uses_beta: bool = False) -> list[Metric]:
    """The macro, weighted and micro averages of a per-label metric."""
    key = f"{base}:LABEL"
    word = title

    def mean(e: Any) -> tuple[np.ndarray, np.ndarray]:
        values, undefined = e(key)
        v = M.macro_average(values, undefined, e.zd)
        return v, _none(v)  # not listed: the per-label values it averages are

    macro = Metric(
        f"macro_{base}", f"macro-{word}", "counts", ALL, "higher", (0.0, 1.0),
        f"The mean over labels of the per-label {word}: every label counts equally.",
        f"macro-{word} = (1/K) Σ_k {word}_k",
        "Never undefined itself when there is a label: undefined per-label values are filled by zero_division, or, "
        "under nan, left out of the mean (NaN when every one is undefined).",
        (Place(f"macro.{base}"),), mean, uses_beta=uses_beta, listed=False)

    def weighted(e: Any) -> tuple[np.ndarray, np.ndarray]:
        v, u = e(key)
        w = np.where(u, 0, e.c.support) if math.isnan(e.zd) else e.c.support
        return M.weighted_average(v, u, e.c.support, e.zd), np.sum(w, axis=-1) == 0

    weighted_m = Metric(
        f"weighted_{base}", f"weighted {word}", "counts", ALL, "higher", (0.0, 1.0),
        f"The mean over labels of the per-label {word}, weighted by support (gold items of the label).",
        f"weighted-{word} = Σ_k s_k·{word}_k / Σ_k s_k, s_k = TP_k + FN_k",
        f"When the weights sum to 0 (no gold item at all; under nan, no label with support and a defined value): "
        f"{_ZERO_DIVISION}.", (Place(f"weighted.{base}"),), weighted, uses_beta=uses_beta)
    fn = {"precision": M.precision, "recall": M.recall, "f1": M.f1}.get(base)
    micro_fn = (lambda e: fn(e.pooled, e.zd)) if fn is not None else (lambda e: M.fbeta(e.pooled, e.beta, e.zd))
    micro = Metric(
        f"micro_{base}", f"micro-{word}", "counts", ALL, "higher", (0.0, 1.0),
        f"The {word} of the counts pooled over labels: big labels weigh more. On single-label data micro-precision "
        f"= micro-recall = micro-F1 = accuracy.",
        f"micro-{word} = {word}(Σ_k TP_k, Σ_k FP_k, Σ_k FN_k)",
        f"As the per-label {word}, on the pooled counts: {_ZERO_DIVISION}.", (Place(f"micro.{base}"),), micro_fn,
        uses_beta=uses_beta, trace_only=base != "fbeta")
    return [macro, weighted_m, micro]


def _accuracy(e: Any) -> tuple[np.ndarray, np.ndarray]:
    if e.stats.multilabel:
        subset: tuple[np.ndarray, np.ndarray] = e("subset_accuracy")
        return subset
    return M.safe_divide(e.c.tp.sum(axis=-1), e.stats.n, e.zd)


def _error_rate(key: str) -> Callable[[Any], tuple[np.ndarray, np.ndarray]]:
    def fn(e: Any) -> tuple[np.ndarray, np.ndarray]:
        v, u = e(key)
        return 1.0 - v, u
    return fn


def _label_accuracy(e: Any) -> tuple[np.ndarray, np.ndarray]:
    c = e.c
    return M.safe_divide(c.tp + c.tn, c.tp + c.fp + c.fn + c.tn, e.zd)


_RATE_UNDEFINED = "when the class is absent from gold (TP + FN = 0)"
_NEG_UNDEFINED = "when every item belongs to the class (TN + FP = 0)"


def _entries() -> list[Metric]:
    per_label = [
        _per_label("precision", "precision", lambda e: M.precision(e.c, e.zd), "higher", (0.0, 1.0),
                   "Of the items predicted as the class, the share that belong to it (positive predictive value, PPV).",
                   "precision = TP / (TP + FP)",
                   f"When the class is never predicted (TP + FP = 0): {_ZERO_DIVISION}.",
                   aliases=("positive predictive value", "PPV")),
        _per_label("recall", "recall", lambda e: M.recall(e.c, e.zd), "higher", (0.0, 1.0),
                   "Of the items of the class, the share predicted as it (sensitivity, true-positive rate TPR).",
                   "recall = TP / (TP + FN)", f"{_RATE_UNDEFINED.capitalize()}: {_ZERO_DIVISION}.",
                   aliases=("sensitivity", "true-positive rate", "TPR")),
        _per_label("specificity", "specificity", lambda e: M.specificity(e.c, e.zd), "higher", (0.0, 1.0),
                   "Of the items not of the class, the share not predicted as it (true-negative rate TNR).",
                   "specificity = TN / (TN + FP)", f"{_NEG_UNDEFINED.capitalize()}: {_ZERO_DIVISION}.",
                   aliases=("true-negative rate", "TNR")),
        _per_label("fpr", "false-positive rate", lambda e: M.fpr(e.c, e.zd), "lower", (0.0, 1.0),
                   "Of the items not of the class, the share wrongly predicted as it (fall-out; 1 − specificity).",
                   "FPR = FP / (FP + TN)", f"{_NEG_UNDEFINED.capitalize()}: {_ZERO_DIVISION}."),
        _per_label("f1", "F1", lambda e: M.f1(e.c, e.zd), "higher", (0.0, 1.0),
                   "The harmonic mean of precision and recall, computed from the counts.",
                   "F1 = 2·TP / (2·TP + FP + FN)",
                   f"When TP = FP = FN = 0 (the class neither occurs nor is predicted): {_ZERO_DIVISION}. With TP = 0 "
                   f"and FP + FN > 0 it is 0, not undefined (as in scikit-learn)."),
        _per_label("delta", "δ", lambda e: M.delta(e.c, e.zd), "higher", (-1.0, 1.0),
                   "Armano's discriminant capability: how much more often the class is predicted for its own items "
                   "than for the others (Youden's J, informedness); 0 for a classifier that cannot tell them apart.",
                   "δ = TPR − FPR",
                   f"When TPR or FPR is undefined (no item of the class, or every item of it): {_ZERO_DIVISION}."),
        _per_label("phi", "bias φ (Armano)", lambda e: M.phi(e.c, e.zd), "none", (-1.0, 1.0),
                   "Armano's characteristic capability: the bias towards predicting the class (positive: said too "
                   "often, negative: too rarely), whatever the classifier's skill. Not the phi coefficient (which is "
                   "the Matthews correlation, MCC): a good class has φ near 0 or below it. Its JSON key stays "
                   "'phi' (per_class.LABEL.phi, binary.phi).",
                   "φ = TPR + FPR − 1",
                   f"When TPR or FPR is undefined (no item of the class, or every item of it): {_ZERO_DIVISION}.",
                   aliases=("φ", "bias φ", "Armano's φ", "bias φ (Armano) = TPR + FPR − 1")),
        _per_label("fbeta", "F-beta", lambda e: M.fbeta(e.c, e.beta, e.zd), "higher", (0.0, 1.0),
                   "The F-measure weighting recall β times as much as precision (β > 1 favours recall); a report "
                   "shows it beside F1 when beta ≠ 1.",
                   "Fβ = (1 + β²)·TP / ((1 + β²)·TP + β²·FN + FP)",
                   f"When TP = FP = FN = 0: {_ZERO_DIVISION}.", uses_beta=True),
        _per_label("npv", "negative predictive value", lambda e: M.npv(e.c, e.zd), "higher", (0.0, 1.0),
                   "Of the items not predicted as the class, the share that indeed do not belong to it.",
                   "NPV = TN / (TN + FN)",
                   f"When the class is predicted for every item (TN + FN = 0): {_ZERO_DIVISION}."),
        _per_label("fnr", "false-negative rate", lambda e: M.fnr(e.c, e.zd), "lower", (0.0, 1.0),
                   "Of the items of the class, the share not predicted as it (miss rate; 1 − recall).",
                   "FNR = FN / (TP + FN)", f"{_RATE_UNDEFINED.capitalize()}: {_ZERO_DIVISION}."),
        _per_label("prevalence", "prevalence", lambda e: M.prevalence(e.c, e.zd), "none", (0.0, 1.0),
                   "The share of the items that belong to the class (in gold), whatever the classifier predicts: the "
                   "precision a random classifier would reach, and the average precision of a random ranking.",
                   "prevalence = (TP + FN) / N", f"For an empty table (N = 0): {_ZERO_DIVISION}.",
                   extra=(Place("ranking.prevalence"), Place("ranking.per_class.LABEL.prevalence"))),
        _per_label("markedness", "markedness", lambda e: M.markedness(e.c, e.zd), "higher", (-1.0, 1.0),
                   "How much more likely an item predicted as the class belongs to it than an item predicted "
                   "otherwise (Powers' markedness, the predictive counterpart of δ).",
                   "markedness = PPV + NPV − 1",
                   f"When precision or NPV is undefined (the class is never predicted, or predicted for every item): "
                   f"{_ZERO_DIVISION}."),
        _ratio("lr_plus", "positive likelihood ratio LR+", M.lr_plus, "higher",
               "The positive likelihood ratio: by how much predicting the class multiplies the odds that the item "
               "belongs to it (1: not at all).", "LR+ = TPR / FPR = TP·(FP + TN) / (FP·(TP + FN))",
               "no item of the class, no other item, or TP = FP = 0", "FP = 0 and TP > 0 (specificity 1)"),
        _ratio("lr_minus", "negative likelihood ratio LR−", M.lr_minus, "lower",
               "The negative likelihood ratio: by how much not predicting the class multiplies the odds that the "
               "item belongs to it (below 1: it lowers them).", "LR− = FNR / TNR = FN·(FP + TN) / (TN·(TP + FN))",
               "no item of the class, no other item, or FN = TN = 0", "TN = 0 and FN > 0 (specificity 0)"),
        _ratio("dor", "diagnostic odds ratio", M.dor, "higher",
               "The odds of predicting the class for its own items divided by the odds for the others (LR+ / LR−): "
               "one number for a diagnostic test, 1 for a useless one.", "DOR = (TP·TN) / (FP·FN)",
               "TP·TN = FP·FN = 0", "FP·FN = 0 and TP·TN > 0"),
        Metric("accuracy", "accuracy of the class", "counts", ALL, "higher", (0.0, 1.0),
               "The share of items the class-against-all-others decision gets right (per label, multi-label).",
               "accuracy = (TP + TN) / N", f"For an empty table: {_ZERO_DIVISION}.",
               (Place("per_class.LABEL.accuracy", ML), Place("binary.accuracy")), _label_accuracy, per_label=True,
               listed=False),
        _one_vs_rest("error_rate", "error rate of the class", _error_rate("accuracy:LABEL"), "lower", (0.0, 1.0),
                     "The share of items the class-against-all-others decision gets wrong.",
                     "error rate = 1 − (TP + TN) / N", "As the accuracy of the class (1 minus the filled value)."),
        _one_vs_rest("balanced_accuracy", "balanced accuracy of the class",
                     lambda e: M.balanced_accuracy(e.ovr, e.zd), "higher", (0.0, 1.0),
                     "The mean of sensitivity and specificity; when gold holds only one side, that side's rate.",
                     "balanced accuracy = (TPR + TNR) / 2", f"For an empty table: {_ZERO_DIVISION}."),
        _one_vs_rest("mcc", "Matthews correlation of the class", lambda e: M.mcc(e.ovr, e.zd), "higher", (-1.0, 1.0),
                     "The correlation between 'is the class' and 'predicted as the class'.",
                     "MCC = (TP·TN − FP·FN) / √((TP + FP)(TP + FN)(TN + FP)(TN + FN))",
                     f"When a factor under the root is 0 (one side never occurs or is never predicted): "
                     f"{_ZERO_DIVISION} (scikit-learn returns 0)."),
        _one_vs_rest("kappa", "Cohen's kappa of the class", lambda e: M.kappa(e.ovr, e.zd), "higher", (-1.0, 1.0),
                     "The agreement of the class-against-all-others decision with gold beyond chance.",
                     "κ = (p_o − p_e) / (1 − p_e) on the 2×2 table",
                     f"When the expected disagreement is 0 (one side only): {_ZERO_DIVISION}."),
    ]
    out = [
        Metric("accuracy", "accuracy", "counts", ALL, "higher", (0.0, 1.0),
               "The share of items labelled correctly; on multi-label data subset accuracy: the share of items whose "
               "predicted label set equals the gold set.",
               "accuracy = Σ_k TP_k / N (multi-label: exact matches / N)", f"For an empty table: {_ZERO_DIVISION}.",
               (Place("accuracy"),), _accuracy, trace_only=True),
        Metric("error_rate", "error rate", "counts", ALL, "lower", (0.0, 1.0),
               "The share of items labelled wrongly (multi-label: whose predicted set is not the gold set).",
               "error rate = 1 − accuracy", "As accuracy (1 minus the filled value).",
               (Place("error_rate"),), _error_rate("accuracy"), trace_only=True, listed=False),
        Metric("balanced_accuracy", "balanced accuracy", "counts", SINGLE_LABEL, "higher", (0.0, 1.0),
               "The mean recall over the classes that occur in gold (scikit-learn's rule): accuracy that every class "
               "weighs equally in; for two classes (sensitivity + specificity) / 2.",
               "balanced accuracy = (1/K') Σ_{k: TP_k + FN_k > 0} TP_k / (TP_k + FN_k)",
               f"For an empty table: {_ZERO_DIVISION}.", (Place("balanced_accuracy"),),
               lambda e: M.balanced_accuracy_of_counts(e.c, e.zd)),
        Metric("mcc", "MCC", "counts", SINGLE_LABEL, "higher", (-1.0, 1.0),
               "The Matthews correlation coefficient, multiclass (Gorodkin's R_K): the correlation between gold and "
               "predicted labels, 0 for chance.",
               "MCC = (c·N − Σ_k t_k p_k) / √((N² − Σ_k p_k²)(N² − Σ_k t_k²)), c = Σ_k TP_k, t = gold totals, "
               "p = predicted totals",
               f"When every gold label or every prediction is one class: {_ZERO_DIVISION} (scikit-learn returns 0).",
               (Place("mcc"),), lambda e: M.mcc_of_counts(e.c, e.zd),
               aliases=("Matthews correlation", "Matthews correlation coefficient")),
        Metric("kappa", "Cohen's kappa", "counts", SINGLE_LABEL, "higher", (-1.0, 1.0),
               "Cohen's kappa: the agreement between gold and predicted labels beyond the agreement expected by chance "
               "from their totals.",
               "κ = (p_o − p_e) / (1 − p_e), p_o = Σ_k TP_k / N, p_e = Σ_k t_k p_k / N²",
               f"When the expected disagreement is 0 (one class only): {_ZERO_DIVISION}.", (Place("kappa"),),
               lambda e: M.kappa_of_counts(e.c, e.zd)),
        Metric("subset_accuracy", "subset accuracy", "counts", ML, "higher", (0.0, 1.0),
               "The share of items whose predicted label set equals the gold set exactly.",
               "subset accuracy = #{i: P_i = G_i} / N", f"For no items: {_ZERO_DIVISION}.",
               (Place("subset_accuracy"),), lambda e: M.safe_divide(e.stats.exact, e.stats.n, e.zd), listed=False),
        Metric("hamming_loss", "Hamming loss", "counts", ML, "lower", (0.0, 1.0),
               "The share of (item, label) decisions that are wrong.",
               "Hamming loss = Σ_k (FP_k + FN_k) / (N·L)", f"For no items or no labels: {_ZERO_DIVISION}.",
               (Place("hamming_loss"),), lambda e: M.hamming_loss(e.c, e.stats.n, e.zd)),
        Metric("jaccard", "Jaccard index", "counts", ML, "higher", (0.0, 1.0),
               "The mean over items of the overlap of the predicted and gold label sets.",
               "Jaccard = (1/N) Σ_i |G_i ∩ P_i| / |G_i ∪ P_i|",
               "When an item has empty gold and predicted sets: 0/0, counted as zero_division, or under nan left out "
               "of the mean; such items are listed under undefined.", (Place("jaccard"),),
               lambda e: M.jaccard(e.stats.jaccard_sum, e.stats.jaccard_empty, e.stats.n, e.zd),
               undefined_items=lambda s: s.jaccard_empty),
    ]
    families = [_averages(base, title) for base,
                title in (("precision", "precision"), ("recall", "recall"), ("f1", "F1"))]
    families.append(_averages("fbeta", "F-beta", uses_beta=True))
    macro, weighted, micro = ([f[i] for f in families] for i in range(3))
    out.extend(macro[:3])
    out.append(Metric(
        "macro_f1_of_means", "macro-F1 (F1 of macro-P and macro-R)", "counts", ALL, "higher", (0.0, 1.0),
        "The second macro-F1: the harmonic mean of macro-precision and macro-recall (Opitz & Burst 2019), beside "
        "the mean of the per-label F1s.", "macro-F1 of means = 2·P̄·R̄ / (P̄ + R̄)",
        f"When macro-precision + macro-recall = 0: {_ZERO_DIVISION}.", (Place("macro.f1_of_means"),),
        lambda e: M.f1_of_means(e("macro_precision")[0], e("macro_recall")[0], e.zd)))
    out.extend(macro[3:] + micro + weighted)
    for name, title, weights, definition, formula in (
            ("mae", "MAE over class ranks", None, "The mean distance between the gold and the predicted class on the "
             "ordinal scale (classes in scale order, ranks 0 … K−1).", "MAE = Σ_ij |i − j|·n_ij / N"),
            ("linear_kappa", "linear-weighted kappa", "linear", "Cohen's kappa with disagreements weighted by their "
             "distance on the scale.", "κ_w = 1 − Σ w_ij O_ij / Σ w_ij E_ij, w_ij = |i − j|"),
            ("quadratic_kappa", "quadratic-weighted kappa", "quadratic", "Cohen's kappa with disagreements weighted "
             "by their squared distance on the scale.", "κ_w = 1 − Σ w_ij O_ij / Σ w_ij E_ij, w_ij = (i − j)²")):
        out.append(Metric(f"ordinal_{name}", title, "counts", ("ordinal",), "lower" if weights is None else "higher",
                          (0.0, INF) if weights is None else (-1.0, 1.0), definition, formula,
                          f"For an empty table (kappa: when the expected disagreement is 0): {_ZERO_DIVISION}.",
                          (Place(f"ordinal.{name}"),), lambda e, _w=weights: M.ordinal(e.stats, _w, e.zd),
                          needs_matrix=True,
                          aliases=("mean absolute error",) if weights is None else ()))
    out.extend(per_label)
    ranked = ("binary", "multiclass", "multilabel")
    for name, title, definition, formula, undefined in (
            ("roc_auc", "ROC-AUC", "The probability that a random positive item scores above a random negative one "
             "(ties count one half): the area under the ROC curve, the Mann–Whitney statistic. One-vs-rest per label, "
             "with macro, weighted and micro averages.",
             "AUC = (#{(p, n): s_p > s_n} + ½·#{(p, n): s_p = s_n}) / (P·N)",
             "Without a positive or without a negative item: NaN and listed (never filled by zero_division: an AUC "
             "of 0 would mean a perfectly inverted ranking)."),
            ("average_precision", "average precision (PR-AUC)", "The mean over the positive items of the precision at "
             "the cut that first includes them: scikit-learn's non-interpolated area under the precision–recall "
             "curve. About the prevalence for a random ranking. The curve is drawn up to its first point of full "
             "recall, as scikit-learn's precision_recall_curve ends: lower cuts add only negatives.",
             "AP = Σ_k (R_k − R_{k−1})·P_k over the cuts in decreasing threshold order (tied scores form one cut)",
             "Without a positive item: NaN and listed.")):
        places = tuple(Place(f"ranking.{p}{name}") for p in ("", "per_class.LABEL.", "macro.", "weighted.", "micro."))
        auc = name == "roc_auc"
        out.append(Metric(name, title, "ranking", ranked, "higher", (0.0, 1.0), definition, formula, undefined,
                          places + (Place(f"ranking.{name}", result="calibration"),), getattr(RS, name),
                          random=(lambda s: 0.5) if auc else (lambda s: s.prevalence),
                          needs=_needs_pairs if auc else None, shown=None if auc else "PR-AUC (average precision)"))
    out.append(Metric(
        "partial_roc_auc", "partial ROC-AUC", "ranking", ("binary",), "higher", (0.0, 1.0),
        "The area under the ROC curve from false-positive rate 0 up to max_fpr (0.1 unless given), not "
        "standardized: max_fpr for a perfect ranking, max_fpr²/2 for a random one. The segment crossing max_fpr "
        "is interpolated linearly; tied scores form a diagonal segment. scikit-learn's roc_auc_score(max_fpr=...) "
        "reports McClish's standardization of it, ½·(1 + (A − m²/2)/(m − m²/2)).",
        "pAUC(m) = ∫_0^m TPR d(FPR)",
        "Without a positive or without a negative item: NaN and listed (never filled by zero_division). Beyond "
        "memory a max_fpr other than 0.1 needs the counts at every distinct score (kept while they fit the "
        "memory budget): refused otherwise.",
        (Place("ranking.partial_roc_auc", ("binary",)),), RS.partial_roc_auc, params={"max_fpr": RS.MAX_FPR},
        aliases=("pAUC",), random=lambda s, max_fpr: max_fpr ** 2 / 2, shown="partial ROC-AUC (FPR ≤ {max_fpr:g})",
        needs=lambda s, max_fpr: _needs_pairs(s) or (
            None if s.has_cuts or s.partial is not None else
            f"needs the counts at every distinct score, kept beyond memory while they fit the memory budget (and "
            f"at most {RS.EXACT_CUTS_MAX:,}); {s.n_cuts:,} distinct scores here")))
    probs = ("binary", "multiclass")
    for name, title, rng, definition, formula in (
            ("ece", "expected calibration error", (0.0, 1.0), "The gap between confidence and accuracy, averaged over "
             "the bins of the reliability table weighted by their items (binary: the frequency of the positive class "
             "instead of accuracy; multiclass: the top-label confidence). Bins (--edges): clfeval's are left-closed, "
             "[k/B, (k+1)/B), a value v in bin min(floor(v·B), B − 1) (1 in the last bin), empty bins kept; "
             "scikit-learn's (calibration_curve, --edges sklearn) are right-closed on the float edges "
             "linspace(0, 1, B + 1) (or the percentiles of the values, --strategy quantile), (e_k, e_(k+1)] with 0 "
             "in the first bin, and empty bins dropped.", "ECE = Σ_b (n_b / N)·|acc_b − conf_b|"),
            ("mce", "maximum calibration error", (0.0, 1.0), "The largest gap between confidence and accuracy over the "
             "non-empty bins.", "MCE = max_b |acc_b − conf_b|"),
            ("brier", "Brier score", (0.0, 2.0), "The mean squared difference between the predicted probabilities and "
             "the outcomes (binary at most 1; multiclass, summed over classes, at most 2).",
             "Brier = (1/N) Σ_i (p_i − y_i)² (multiclass: Σ_k (p_ik − y_ik)²)"),
            ("log_loss", "log loss", (0.0, INF), "The mean negative log-probability of the gold label, probabilities "
             "clipped to [ε, 1 − ε] with ε the float64 machine epsilon (so at most −log ε ≈ 36.04).",
             "log loss = −(1/N) Σ_i log p_i(gold)")):
        out.append(Metric(name, title, "probabilities", probs, "lower", rng, definition, formula,
                          "Never, for a non-empty set of probabilities (no items, or values outside [0, 1], are "
                          "refused).", (Place(name, result="calibration"),),
                          lambda cal, _a=name: float(getattr(cal, _a))))
    return out


METRICS: tuple[Metric, ...] = tuple(_entries())
_BY_KEY: dict[str, Metric] = {m.key: m for m in METRICS}
if len(_BY_KEY) != len(METRICS):  # pragma: no cover - a programming error
    raise RuntimeError("the metric catalogue names a metric twice")


# --- lookup ----------------------------------------------------------------------

def names(*, input: str | None = None, task: str | None = None) -> list[str]:
    """Catalogue keys in catalogue order (per-label metrics as ``name:LABEL``), optionally of one input / task.

    >>> names(input="ranking")
    ['roc_auc', 'average_precision', 'partial_roc_auc']
    """
    return [m.key for m in METRICS if (input is None or m.input == input) and (task is None or task in m.tasks)]


def entries(*, input: str | None = None, task: str | None = None) -> tuple[Metric, ...]:
    """Catalogue entries in catalogue order, optionally of one input / task.

    >>> [m.label for m in entries(input="ranking", task="binary")]
    ['ROC-AUC', 'PR-AUC (average precision)', 'partial ROC-AUC (FPR ≤ 0.1)']
    """
    return tuple(m for m in METRICS if (input is None or m.input == input) and (task is None or task in m.tasks))


def valid_names_text(*, input: str | None = None, task: str | None = None) -> str:
    return ", ".join(names(input=input, task=task))


def _unknown(name: Any, extra: str = "") -> UsageError:
    return UsageError(f"unknown metric {name!r}; valid metrics are: {valid_names_text()}{extra}.")


def parse(name: Any, *, extra: str = "") -> tuple[Metric, str | None]:
    """A metric name → (its entry, the label it names or None).

    ``f1:spam`` → (the ``f1`` entry, ``"spam"``). An unknown name is refused
    with the list of valid ones (``extra`` is appended to that list).

    >>> m, lab = parse("lr_plus:spam")
    >>> m.title, lab
    ('positive likelihood ratio LR+', 'spam')
    >>> parse("acuracy")
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: unknown metric 'acuracy'; valid metrics are: accuracy, error_rate, ...
    """
    found = find(name)
    if found is None:
        raise _unknown(name, extra)
    return found


def find(name: Any) -> tuple[Metric, str | None] | None:
    """:func:`parse` without the error: None for a name that is not in the catalogue."""
    if not isinstance(name, str):
        return None
    m = _BY_KEY.get(name)
    if m is not None and not m.per_label:
        return m, None
    prefix, sep, lab = name.partition(":")
    m = _BY_KEY.get(f"{prefix}:LABEL")
    if sep and m is not None and lab != "":
        return m, lab
    return None


def get(name: str) -> Metric:
    """The entry of a metric name (``f1:spam`` → the ``f1`` entry)."""
    return parse(name)[0]


def by_key(key: str) -> Metric:
    """The entry of a catalogue key exactly as :attr:`Metric.key` spells it (``f1:LABEL``, ``macro_f1``)."""
    return _BY_KEY[key]


def check_name(name: str, *, task: str | None = None, input: str | None = None, directed: bool = False,
               what: str = "metric") -> Metric:
    """Refuse a name that is unknown, of another input or task, or (``directed``) without a better direction.

    >>> check_name("macro_f1", task="multiclass").title
    'macro-F1'
    >>> check_name("prevalence:spam", directed=True)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: metric 'prevalence:spam' has no better direction (...); choose a metric where higher or
    lower is better.
    """
    m, _ = parse(name)
    if input is not None and m.input != input:
        raise UsageError(f"{what} {name!r} is computed from {m.input}, not from {input}; valid here: "
                         f"{valid_names_text(input=input, task=task)}.")
    if task is not None and task not in m.tasks:
        raise UsageError(f"{what} {name!r} does not apply to {task} data (it applies to {', '.join(m.tasks)}); "
                         f"valid here: {valid_names_text(input=input, task=task)}.")
    if directed and m.direction == "none":
        raise UsageError(f"metric {name!r} has no better direction ({m.title} describes the data or the "
                         f"classifier's bias, not its quality); choose a metric where higher or lower is better.")
    return m


def label(name: str) -> str:
    """How prose names a metric: ``macro_f1`` → ``macro-F1``, ``f1:spam`` → ``F1 of class 'spam'``.

    Names that are not in the catalogue are returned unchanged (a user's callable).

    >>> label("macro_f1"), label("error_rate"), label("f1:spam")
    ('macro-F1', 'error rate', "F1 of class 'spam'")
    """
    try:
        m, lab = parse(name)
    except UsageError:
        return name
    return f"{m.title} of class {lab!r}" if lab is not None else m.title


# --- the list as a result: `clfeval metrics` ---------------------------------------

@dataclass(frozen=True)
class MetricCatalogue:
    """Every entry of the catalogue (what ``clfeval metrics`` prints)."""

    metrics: tuple[Metric, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"metrics": [m.to_dict() for m in self.metrics],
                "tasks": list(TASKS), "inputs": list(INPUTS), "directions": list(DIRECTIONS),
                "naming": "per-label metrics are named METRIC:LABEL (e.g. f1:spam); averages are "
                          "macro_/micro_/weighted_ + the per-label name, found at macro.NAME etc. in a report",
                "signature": build_signature()}


def catalogue(*, input: str | None = None, task: str | None = None) -> MetricCatalogue:
    """The catalogue as a result object (optionally the entries of one input or task)."""
    if input is not None and input not in INPUTS:
        raise UsageError(f"unknown input {input!r}; valid inputs are: {', '.join(INPUTS)}.")
    if task is not None and task not in TASKS:
        raise UsageError(f"unknown task {task!r}; valid tasks are: {', '.join(TASKS)}.")
    return MetricCatalogue(tuple(m for m in METRICS if (input is None or m.input == input)
                                 and (task is None or task in m.tasks)))
