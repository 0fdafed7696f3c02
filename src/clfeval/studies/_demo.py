"""The worked examples of the mission, rebuilt from data built into the package.

Each mode builds its items from the published counts (no download), runs them
through the real library — the same code as ``clfeval report`` — and returns a
:class:`DemoResult`: tables, the numbers as data, and one plain sentence on
what the example shows. ``clfeval demo MODE`` renders it.

Later stages add modes with :func:`register_mode`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, SupportsFloat

import numpy as np

from clfeval.core import Display, build_signature

__all__ = ["DemoResult", "DemoTable", "MODES", "register_mode", "run_demo", "items_from_counts", "demo_modes"]


@dataclass(frozen=True)
class DemoTable:
    """A table of a demo: title, column names, rows of plain values."""

    title: str
    columns: list[str]
    rows: list[list[Any]]
    caption: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "columns": self.columns, "rows": self.rows, "caption": self.caption}


@dataclass(frozen=True)
class DemoResult(Display):
    """One worked example: what it is, its tables, its numbers and what it shows."""

    mode: str
    title: str
    intro: str
    tables: list[DemoTable]
    conclusion: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "title": self.title, "intro": self.intro,
                "tables": [t.to_dict() for t in self.tables], "conclusion": self.conclusion,
                "data": self.data, "signature": build_signature()}


@dataclass(frozen=True)
class _Mode:
    name: str
    summary: str
    fn: Callable[[], DemoResult]


MODES: dict[str, _Mode] = {}


def register_mode(name: str, summary: str) -> Callable[[Callable[[], DemoResult]], Callable[[], DemoResult]]:
    """Decorator: add a demo mode."""
    def deco(fn: Callable[[], DemoResult]) -> Callable[[], DemoResult]:
        MODES[name] = _Mode(name, summary, fn)
        return fn
    return deco


def demo_modes() -> list[tuple[str, str]]:
    """(name, summary) of every mode, in registration order."""
    return [(m.name, m.summary) for m in MODES.values()]


def run_demo(name: str) -> DemoResult:
    """Run one demo mode by name."""
    from clfeval.errors import UsageError

    if name not in MODES:
        raise UsageError(f"unknown demo mode {name!r}; the modes are: {', '.join(MODES)}.")
    return MODES[name].fn()


def items_from_counts(counts: Sequence[Sequence[int]], labels: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Items (gold, pred) whose confusion table is ``counts`` (rows = gold).

    >>> g, p = items_from_counts([[2, 1], [0, 1]], ["a", "b"])
    >>> g.tolist(), p.tolist()
    (['a', 'a', 'a', 'b'], ['a', 'a', 'b', 'b'])
    """
    c = np.asarray(counts, dtype=np.int64)
    k = c.shape[0]
    lab = np.asarray(list(labels), dtype=object)
    flat = c.ravel()
    gold = np.repeat(np.repeat(np.arange(k), k), flat)
    pred = np.repeat(np.tile(np.arange(k), k), flat)
    out_g, out_p = lab[gold], lab[pred]
    if all(isinstance(x, str) for x in labels):
        return out_g.astype(str), out_p.astype(str)
    return out_g, out_p


def _counted(counts: Sequence[Sequence[int]], labels: Sequence[str], **kw: Any) -> Any:
    """The report of the items whose confusion table is ``counts`` (rows = gold, in ``labels`` order), counted
    once: from the table, as :func:`report` of :func:`items_from_counts` gives it without making the items."""
    from clfeval.core import ConfusionTable
    from clfeval.evaluate import report_from_table

    return report_from_table(ConfusionTable(np.asarray(counts, dtype=np.int64), tuple(labels)), **kw)


def _r(x: SupportsFloat, d: int = 4) -> float:
    return round(float(x), d)


@register_mode("report", "every section on one synthetic example: report, baselines, ranking, threshold, calibration, "
                         "A against B (try --format html)")
def demo_report() -> Any:
    """Help-desk tickets in three queues, two systems, training labels and a development split (synthetic)."""
    from clfeval.studies._demo_report import demo_report as build

    return build()


GENRES = ["news", "fiction", "government", "learned"]
GENRE_MATRIX = [[9, 1, 2, 0], [1, 9, 1, 1], [3, 2, 7, 0], [0, 1, 0, 11]]


@register_mode("trap", "the accuracy trap: 0.9999 accuracy and F1 0 on the pie tweets; 0.90 for 'always news'")
def demo_trap() -> DemoResult:
    pie = _counted([[999_900, 0], [100, 0]], ["not pie", "pie"], positive="pie")
    news = _counted([[90, 0], [10, 0]], ["news", "other"])
    b = pie.binary
    tables = [
        DemoTable("1,000,000 tweets, 100 about pie; the classifier says 'not pie' to everything",
                  ["measure", "value"],
                  [["accuracy", _r(pie.accuracy)], ["recall (pie)", _r(b.recall)],
                   ["precision (pie)", _r(b.precision)],
                   ["F1 (pie)", _r(b.f1)], ["balanced accuracy", _r(pie.balanced_accuracy)]],
                  caption="precision of pie is 0/0 (pie is never predicted), counted as 0"),
        DemoTable("100 documents, 90 news; the classifier says 'news' to everything",
                  ["measure", "value"],
                  [["accuracy", _r(news.accuracy)], ["F1 (news)", _r(news.per_class["news"].f1)],
                   ["F1 (other)", _r(news.per_class["other"].f1)], ["macro-F1", _r(news.macro.f1)],
                   ["majority baseline accuracy", _r(news.baselines.majority.accuracy)]]),
    ]
    return DemoResult(
        "trap", "The accuracy trap",
        "A classifier that always answers the majority class scores high accuracy on skewed data.",
        tables,
        "Accuracy says 0.9999 and 0.90, yet the classes that matter are never found: recall 0 and F1 0 for pie, "
        "and macro-F1 0.4737 for 'always news' — which is exactly the majority baseline.",
        {"pie": {"accuracy": pie.accuracy, "recall": b.recall, "f1": b.f1},
         "news": {"accuracy": news.accuracy, "macro_f1": news.macro.f1}},
    )


@register_mode("matrix", "the genre confusion matrix scored class by class, and a binary report")
def demo_matrix() -> DemoResult:
    rep = _counted(GENRE_MATRIX, GENRES)
    rows = [[lab, rep.per_class[lab].support, _r(rep.per_class[lab].precision), _r(rep.per_class[lab].recall),
             _r(rep.per_class[lab].f1)] for lab in GENRES]
    rep7 = _counted([[167, 2], [24, 7]], ["0", "1"], positive="1")
    b = rep7.binary
    tables = [
        DemoTable("Genre classifier: confusion matrix (rows = gold, columns = predicted)", ["gold \\ pred", *GENRES],
                  [[lab, *row] for lab, row in zip(GENRES, GENRE_MATRIX, strict=True)]),
        DemoTable(f"Per class — accuracy {_r(rep.accuracy)}", ["class", "support", "precision", "recall", "F1"], rows),
        DemoTable("A binary report: TN 167, FP 2, FN 24, TP 7", ["measure", "value"],
                  [["accuracy", _r(b.accuracy)], ["error rate", _r(b.error_rate)],
                   ["precision", _r(b.precision)],
                   ["recall", _r(b.recall)], ["specificity", _r(b.specificity)], ["F1", _r(b.f1)],
                   ["balanced accuracy", _r(b.balanced_accuracy)],
                   ["macro P / R / F1", f"{rep7.macro.precision:.2f} / {rep7.macro.recall:.2f} / "
                                        f"{rep7.macro.f1:.2f}"],
                   ["weighted P / R / F1",
                    f"{rep7.weighted.precision:.2f} / {rep7.weighted.recall:.2f} / {rep7.weighted.f1:.2f}"]]),
    ]
    return DemoResult(
        "matrix", "Scoring a confusion matrix class by class",
        "Each class is scored against all others: precision from its column, recall from its row.",
        tables,
        f"Accuracy {rep.accuracy:.2f} hides that government is found only {rep.per_class['government'].recall:.4f} "
        f"of the time; in the binary report accuracy 0.87 sits beside recall 0.2258: most positives are missed.",
        {"accuracy": rep.accuracy,
         "per_class": {lab: {k: getattr(rep.per_class[lab], k) for k in ("precision", "recall", "f1")}
                       for lab in GENRES},
         "binary": {k: getattr(b, k) for k in ("accuracy", "error_rate", "precision", "recall", "specificity", "f1",
                                               "balanced_accuracy")},
         "binary_macro": rep7.macro.to_dict(), "binary_weighted": rep7.weighted.to_dict()},
    )


@register_mode("read", "reading the errors: hardest class, most confused pair, directional errors")
def demo_read() -> DemoResult:
    rep = _counted(GENRE_MATRIX, GENRES)
    d = rep.diagnostics
    mcp = d.most_confused_pair
    assert mcp is not None  # the demo's matrix has errors
    a, b = mcp.classes
    tables = [
        DemoTable("Per-class F1 (lowest = hardest class)", ["class", "F1"],
                  [[lab, _r(rep.per_class[lab].f1)] for lab in GENRES]),
        DemoTable("Errors between each pair of classes, both directions",
                  ["pair", "a predicted as b", "b predicted as a", "total"],
                  [[f"{GENRES[i]} / {GENRES[j]}", GENRE_MATRIX[i][j], GENRE_MATRIX[j][i],
                    GENRE_MATRIX[i][j] + GENRE_MATRIX[j][i]]
                   for i in range(4) for j in range(i + 1, 4) if GENRE_MATRIX[i][j] + GENRE_MATRIX[j][i]]),
    ]
    return DemoResult(
        "read", "Reading the errors",
        "The matrix says where to look: the weakest class and the pair of classes the classifier mixes up.",
        tables,
        f"The hardest class is {d.hardest_class} (F1 {rep.per_class[d.hardest_class].f1:.4f}); the most "
        f"confused pair is {{{a}, {b}}} with {mcp.errors} errors — {mcp.b_as_a} {b} documents called {a} and "
        f"{mcp.a_as_b} the other way: the two directions are different mistakes.",
        {"hardest_class": d.hardest_class, "most_confused_pair": mcp.to_dict()},
    )


@register_mode("averages", "micro-F1 lands on accuracy; macro vs micro; the two macro-F1s; F1 vs the plain mean")
def demo_averages() -> DemoResult:
    # Worked example 4: class 1 TP 10, FP 10; class 2 TP 90, FP 10 (two classes, single label).
    r4 = _counted([[10, 10], [10, 90]], ["class 1", "class 2"])
    # Worked example 5 is given with rows = system output; transpose to rows = gold.
    out_rows = np.array([[8, 10, 1], [5, 60, 50], [3, 30, 200]])
    labs5 = ["urgent", "normal", "spam"]
    r5 = _counted(out_rows.T.tolist(), labs5)
    # Worked example 3, the spam filter: flags 40, 30 truly spam, misses 20 spam.
    spam_p, spam_r = 30 / 40, 30 / 50
    tables = [
        DemoTable("Two classes: class 1 TP 10, FP 10; class 2 TP 90, FP 10", ["", "precision"],
                  [["class 1", _r(r4.per_class["class 1"].precision)],
                   ["class 2", _r(r4.per_class["class 2"].precision)],
                   ["macro (mean of the two)", _r(r4.macro.precision)],
                   ["micro (pooled: 100 / 120)", _r(r4.micro.precision)],
                   ["accuracy", _r(r4.accuracy)]]),
        DemoTable("Three classes (urgent, normal, spam)", ["class", "precision", "recall", "F1"],
                  [[lab, _r(r5.per_class[lab].precision), _r(r5.per_class[lab].recall),
                    _r(r5.per_class[lab].f1)] for lab in labs5]
                  + [["macro", _r(r5.macro.precision), _r(r5.macro.recall), _r(r5.macro.f1)],
                     ["micro", _r(r5.micro.precision), _r(r5.micro.recall), _r(r5.micro.f1)]],
                  caption=f"accuracy {r5.accuracy:.4f} = micro-F1 {r5.micro.f1:.4f}; "
                          f"macro-F1 as mean of per-class F1 {r5.macro.f1:.4f}, as F1 of macro-P and macro-R "
                          f"{r5.macro.f1_of_means:.4f}"),
        DemoTable("Why F1 and not the plain mean of P and R (spam filter)", ["P", "R", "plain mean", "F1 (harmonic)"],
                  [[0.75, 0.60, _r((spam_p + spam_r) / 2), _r(2 * spam_p * spam_r / (spam_p + spam_r))],
                   [0.75, 0.20, _r((0.75 + 0.20) / 2), _r(2 * 0.75 * 0.20 / 0.95)]]),
    ]
    return DemoResult(
        "averages", "Averaging over classes",
        "Macro averages treat every class alike; micro averages pool the counts, so big classes dominate.",
        tables,
        "On single-label data every error is one false positive and one false negative, so micro-P = micro-R = "
        f"micro-F1 = accuracy exactly ({r5.micro.f1:.4f} = {r5.accuracy:.4f}); macro-P {r4.macro.precision:.2f} "
        f"vs micro-P {r4.micro.precision:.2f} shows the small class pulling the macro mean down; and the two "
        f"macro-F1s differ ({r5.macro.f1:.4f} vs {r5.macro.f1_of_means:.4f}), so say which one you report.",
        {"two_class": {"macro_precision": r4.macro.precision, "micro_precision": r4.micro.precision},
         "three_class": {"precision": {lab: r5.per_class[lab].precision for lab in labs5},
                         "macro_precision": r5.macro.precision, "micro_precision": r5.micro.precision,
                         "accuracy": r5.accuracy, "micro_f1": r5.micro.f1, "macro_f1": r5.macro.f1,
                         "macro_f1_of_means": r5.macro.f1_of_means},
         "spam": {"precision": spam_p, "recall": spam_r, "mean": (spam_p + spam_r) / 2,
                  "f1": 2 * spam_p * spam_r / (spam_p + spam_r)}},
    )


# --- scores: rankings, thresholds, calibration ------------------------------------

def _ranked(positive_ranks: Sequence[int], n: int) -> tuple[list[int], list[int]]:
    """Gold labels (1 = positive) and scores n, n−1, …, 1 of a ranking with positives at the given ranks."""
    gold = [0] * n
    for r in positive_ranks:
        gold[r - 1] = 1
    return gold, list(range(n, 0, -1))


@register_mode("threshold", "rankings: ROC-AUC 0.9524 and AP 0.9167 on ten documents; ROC flatters a rare class (0.949 "
                            "vs 0.267)")
def demo_threshold() -> DemoResult:
    from clfeval.scores import ranking

    g10, s10 = _ranked([1, 2, 4], 10)
    r10 = ranking(g10, s10, positive=1)
    g100, s100 = _ranked([3, 10], 100)
    r100 = ranking(g100, s100, positive=1)
    sw = r10.sweep()
    sweep_rows = [[k + 1, int(sw.tp[k]), int(sw.fp[k]), _r(sw.precision[k]), _r(sw.recall[k]), _r(sw.fbeta[k]),
                   _r(sw.tpr[k]), _r(sw.fpr[k])] for k in range(len(sw))]
    best = r10.best_cut("f1")
    assert best is not None  # F1 has a best cut on every ranking with a positive
    def at_positives(gold: list[int]) -> str:
        hits, parts = 0, []
        for rank, g in enumerate(gold, start=1):
            if g:
                hits += 1
                parts.append(f"{hits}/{rank} = {hits / rank:.4f}")
        return ", ".join(parts)

    tables = [
        DemoTable("Ten documents, three positive at ranks 1, 2 and 4: every cut (cut k = the top k documents)",
                  ["top k", "TP", "FP", "precision", "recall", "F1", "TPR", "FPR"], sweep_rows,
                  caption=f"Best F1 {_r(sw.fbeta[best])} at the top {best + 1}; predicted positive iff score >= "
                          "threshold."),
        DemoTable("Two rankings, one summary each", ["ranking", "items", "positives at ranks", "pairs in order",
                                                     "ROC-AUC", "precision at each positive", "AP (PR-AUC)"],
                  [["ten documents", 10, "1, 2, 4", f"{r10.pairs_in_order:g} of {r10.pairs}", _r(r10.roc_auc),
                    at_positives(g10), _r(r10.average_precision)],
                   ["a hundred documents", 100, "3, 10", f"{r100.pairs_in_order:g} of {r100.pairs}", _r(r100.roc_auc),
                    at_positives(g100), _r(r100.average_precision)]],
                  caption="ROC-AUC = pairs in order / all positive–negative pairs; AP = mean precision at the rank of "
                          "each positive."),
    ]
    return DemoResult(
        "threshold", "Rankings: ROC-AUC and PR-AUC",
        "A classifier that outputs scores has not chosen its threshold: every cut of the ranking is a classifier, "
        "and the whole ranking is summarised by ROC-AUC and average precision (PR-AUC).",
        tables,
        f"Both rankings look good to ROC-AUC ({r10.roc_auc:.4f} and {r100.roc_auc:.3f}), but only the first is: with "
        f"2 positives among 100, the 96 and 90 negatives ranked below them are cheap credit, while a reader of the "
        f"top 10 finds 2 relevant documents (precision 0.20) and AP is {r100.average_precision:.3f}. Under imbalance "
        f"ROC flatters; report PR-AUC beside it.",
        {"ten": {"roc_auc": r10.roc_auc, "average_precision": r10.average_precision, "pairs": r10.pairs,
                 "pairs_in_order": r10.pairs_in_order, "best_f1_threshold": float(r10.cuts.thresholds[best])},
         "hundred": {"roc_auc": r100.roc_auc, "average_precision": r100.average_precision, "pairs": r100.pairs,
                     "pairs_in_order": r100.pairs_in_order}},
    )


@register_mode("calibration", "a perfect ranking with wrong confidence (ECE 0.35) beside a calibrated, weaker ranking "
                              "(ECE 0)")
def demo_calibration() -> DemoResult:
    from clfeval.scores import reliability

    # Model A: every positive gets 0.60-0.69, every negative 0.30-0.39: a perfect ranking, timid confidence.
    gold_a = [1] * 50 + [0] * 50
    prob_a = [0.60 + 0.002 * i for i in range(50)] + [0.30 + 0.002 * i for i in range(50)]
    a = reliability(gold_a, prob_a, positive=1, bins=10)
    # Model B: 20 items at each of 0.05, 0.15, ..., 0.95, of which exactly that fraction positive.
    gold_b: list[int] = []
    prob_b: list[float] = []
    for k in range(10):
        p = (2 * k + 1) / 20
        pos = 2 * k + 1
        gold_b += [1] * pos + [0] * (20 - pos)
        prob_b += [p] * 20
    b = reliability(gold_b, prob_b, positive=1, bins=10)

    def rows(c: Any) -> list[list[Any]]:
        return [[f"[{x.lower:.1f}, {x.upper:.1f}{']' if i == len(c.bins) - 1 else ')'}", x.count,
                 _r(x.confidence) if x.count else "—", _r(x.accuracy) if x.count else "—",
                 _r(x.gap) if x.count else "—"] for i, x in enumerate(c.bins) if x.count]

    cols = ["bin", "items", "mean P(positive)", "frequency of positives", "|gap|"]
    # both models' items hold positives and negatives: reliability() gives their ranking measures
    assert a.roc_auc is not None and a.average_precision is not None
    assert b.roc_auc is not None and b.average_precision is not None
    tables = [
        DemoTable("Model A: positives at 0.60–0.70, negatives at 0.30–0.40 (non-empty bins)", cols, rows(a)),
        DemoTable("Model B: 20 items at each of 0.05, 0.15, …, 0.95, that fraction of them positive", cols, rows(b)),
        DemoTable("Order against confidence", ["model", "ROC-AUC", "AP (PR-AUC)", "ECE", "MCE", "Brier"],
                  [["A", _r(a.roc_auc), _r(a.average_precision), _r(a.ece), _r(a.mce), _r(a.brier)],
                   ["B", _r(b.roc_auc), _r(b.average_precision), _r(b.ece), _r(b.mce), _r(b.brier)]],
                  caption="ECE = sum over bins of (n_b / N)·|frequency − confidence|; bins of width 0.1, v goes to "
                          "min(floor(10v), 9)."),
    ]
    return DemoResult(
        "calibration", "Calibration: does 0.9 mean nine times in ten?",
        "Group predictions by confidence, compare each bin's mean confidence with what happened in it.",
        tables,
        f"Model A ranks perfectly (ROC-AUC {a.roc_auc:.4f}) yet its 0.65 comes true every time and its 0.35 never: "
        f"ECE {a.ece:.4f}. Model B ranks worse (ROC-AUC {b.roc_auc:.4f}) but its probabilities mean what they say "
        f"(ECE {b.ece:.4f}). Ranking metrics cannot see calibration: they depend on the order only.",
        {"a": {"roc_auc": a.roc_auc, "ece": a.ece, "mce": a.mce, "brier": a.brier},
         "b": {"roc_auc": b.roc_auc, "ece": b.ece, "mce": b.mce, "brier": b.brier}},
    )


@register_mode("bootstrap",
               "paired bootstrap on ten documents: why δ's distribution is centred on δ(x), the 2δ rule, p")
def demo_bootstrap() -> DemoResult:
    """Worked example 11: ten documents, A right on 7 (accuracy 0.70), B right on 5 (0.50), δ = 0.20."""
    from clfeval.ops.compare import ResampledCounts
    from clfeval.significance import bootstrap_distribution, compare

    samples, seed = 10_000, 0
    gold = np.array(["relevant"] * 10)
    # A is right on documents 1–7, B on documents 1–5: they disagree on documents 6 and 7 only.
    a = np.array(["relevant"] * 7 + ["other"] * 3)
    b = np.array(["relevant"] * 5 + ["other"] * 5)
    res = compare(gold, a, b, samples=samples, seed=seed)
    deltas = bootstrap_distribution(gold, a, b, samples=samples, seed=seed)
    steps = np.rint(deltas * 10).astype(int)  # δ(x^(i)) is a multiple of 1/10 here
    values, counts = np.unique(steps, return_counts=True)
    two_delta = 2 * res.delta
    dist_rows = [[f"{v / 10:.1f} {'#' * max(1, round(60 * c / samples))}", int(c), _r(c / samples),
                  "≥ 2δ" if v / 10 >= two_delta - 1e-9 else ""] for v, c in zip(values, counts, strict=True)]
    count = res.details.count if isinstance(res.details, ResampledCounts) else 0  # the bootstrap's counts
    mean = float(deltas.mean())
    mcn = compare(gold, a, b, test="mcnemar", samples=samples, seed=seed)
    docs = [[i + 1, "right" if a[i] == gold[i] else "wrong",
             "right" if b[i] == gold[i] else "wrong"] for i in range(10)]
    tables = [
        DemoTable("Ten test documents: which system got each one right", ["document", "A", "B"], docs,
                  caption="A's accuracy 0.70, B's 0.50, δ(x) = 0.20; they differ on documents 6 and 7 only"),
        DemoTable(f"Bootstrap distribution of δ over {samples:,} virtual test sets (10 documents drawn with "
                  "replacement)",
                  ["δ(x^(i))", "test sets", "share", ""], dist_rows,
                  caption=f"mean δ(x^(i)) = {mean:.3f} ≈ δ(x) = {res.delta:.2f}: centred on the observed δ, not on 0"),
        DemoTable("The 2δ rule", ["", "value"],
                  [["δ(x) = M(A) − M(B)", f"{res.delta:.2f}"],
                   ["2·δ(x)", f"{two_delta:.2f}"],
                   ["virtual test sets with δ(x^(i)) ≥ 2δ(x)", f"{count:,} of {samples:,}"],
                   ["p = count / b", f"{res.p_value:.4f}"],
                   ["McNemar exact p on the same documents (n_AB = 2, n_BA = 0)", f"{mcn.p_value:.4f}"],
                   ["Jurafsky & Martin's illustration (Speech and Language Processing, 3rd ed., §4.9): 47 of 10,000",
                    "p = 0.0047 < 0.01"]]),
    ]
    return DemoResult(
        "bootstrap", "Is the difference real? The paired bootstrap",
        "Draw b virtual test sets of n documents from the test set itself, with replacement (the same documents "
        "for A and B), and compute δ on each. The virtual test sets come from a world where A is ahead by δ(x) = "
        "0.20, so their δ's scatter around 0.20, not around 0. H0 says the true δ is 0: shifting the distribution "
        "left by δ(x) centres it on 0, and the chance that the shifted δ reaches δ(x) is the chance that the "
        "unshifted one reaches 2δ(x). Hence p = (1/b)·#{δ(x^(i)) ≥ 2δ(x)}.",
        tables,
        f"Here {count:,} of {samples:,} virtual test sets reach 2δ = 0.40, so p = {res.p_value:.4f} ≥ 0.05: with ten "
        f"documents a lead of 0.20 resting on two documents could well be luck. Jurafsky & Martin's count of 47 "
        f"(p = 0.0047 < 0.01, reject H0) is illustrative: the real count depends on which documents each system got "
        f"right. Report δ and p together: p says whether the difference is real, δ whether it matters.",
        {"n": 10, "a": res.a, "b": res.b, "delta": res.delta, "threshold": two_delta, "samples": samples, "seed": seed,
         "count": count, "p_value": res.p_value, "mean_delta": mean,
         "distribution": {f"{v / 10:.1f}": int(c) for v, c in zip(values, counts, strict=True)},
         "mcnemar_p_value": mcn.p_value, "textbook": {"count": 47, "p_value": 0.0047}},
    )


@register_mode("cv", "cross-validation arithmetic: five folds 82, 80, 84, 81, 83 % → 82 %; repeated holdout → 85 %; "
                     "the spread")
def demo_cv() -> DemoResult:
    from clfeval.protocols import spread

    folds = [0.82, 0.80, 0.84, 0.81, 0.83]
    repeats = [0.85, 0.82, 0.88, 0.84, 0.86]
    sf, sr = spread(folds), spread(repeats)

    def table(title: str, name: str, values: list[float], s: Any) -> DemoTable:
        rows = [[f"{name} {i + 1}", _r(v)] for i, v in enumerate(values)]
        rows += [["mean", _r(s.mean)], ["sample std (ddof = 1)", _r(s.std)], ["min", _r(s.min)], ["max", _r(s.max)]]
        return DemoTable(title, ["", "accuracy"], rows)

    return DemoResult(
        "cv", "Cross-validation arithmetic and the spread",
        "k-fold cross-validation tests every item once, by a model that never saw it; repeated holdout draws R "
        "random train/test splits. Either way the result is a set of scores, one per fold or repeat.",
        [table("5-fold cross-validation", "fold", folds, sf),
         table("Repeated holdout, 5 random splits", "repeat", repeats, sr)],
        f"The folds average {sf.mean:.2f} and the repeats {sr.mean:.2f}. Report the spread with the mean: the "
        f"fold-to-fold standard deviation is {sf.std:.4f} (min {sf.min:.2f}, max {sf.max:.2f}), so two systems "
        f"whose means differ by less than that are not shown apart without a paired test on the same folds "
        f"(clfeval cv records them; clfeval compare tests them).",
        {"folds": {"values": folds, **sf.to_dict()}, "repeats": {"values": repeats, **sr.to_dict()}},
    )
