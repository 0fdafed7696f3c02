"""THE capability table: which option of which operation runs on which engine, and why not where it does not.

One table, read by everything that needs it: the refusals (:func:`refuse`, raised before any work),
the notes under each command's ``--help`` (:func:`help_note`) and the large-data guide page's table
(:func:`markdown`). The parity test runs every supported cell on every engine
(``tests/engines/test_front_door.py``).

Every cell of the table is either supported (the same numbers as every other engine) or refused with a
reason; there is no third state.

>>> supported("report", "dask", "ci"), supported("calibration", "dask", "strategy=quantile")
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from clfeval.errors import UsageError

__all__ = ["OPERATIONS", "ENGINES", "Capability", "TABLE", "supported", "refuse", "refuse_stdin", "help_note",
           "markdown"]

OPERATIONS = ("report", "compare", "threshold", "calibration", "ranking", "error_analysis")
ENGINES = ("local", "dask")


@dataclass(frozen=True)
class Capability:
    """One option of one operation: its parameter (as the library names it; the command line shows its option),
    what it does, and for each engine None (supported) or the reason it is not."""

    operation: str
    option: str
    what: str
    local: str | None = None
    dask: str | None = None

    @property
    def parameter(self) -> str:
        """The library parameter the refusal names (``strategy=quantile`` → ``strategy``; "" for a condition that
        is not one parameter, such as ``more than two inputs``)."""
        first = self.option.split("=", 1)[0].split(" ", 1)[0]
        return first if first.isidentifier() and first not in ("more", "PATH", "arrays") else ""

    @property
    def as_option(self) -> str:
        """The option as the command line spells it (``strategy=quantile`` → ``--strategy quantile``)."""
        p = self.parameter
        if not p:
            return self.option
        return "--" + p.replace("_", "-") + self.option[len(p):].replace("=", " ")

    def reason(self, engine: str) -> str | None:
        return self.local if engine == "local" else self.dask


_ITEMS = "the items must all be on one machine"
_RANK = "a table of systems × data sets fits in memory: nothing to distribute"


def _fitting(operation: str) -> str:
    return (f"fitting models is not distributed: run {operation} on Local; evaluate its predictions file with "
            f"report/compare on Dask")


_STDIN = "Dask workers cannot read the standard input of this process; give a file, a directory or a glob"

TABLE: tuple[Capability, ...] = (
    Capability("report", "gold/pred", "count report: confusion matrix, per class, averages, baselines"),
    Capability("report", "score", "exact ROC-AUC and average precision of one score column"),
    Capability("report", "score_bins", "binned ROC-AUC with its exact error bound"),
    Capability("report", "ci", "bootstrap intervals of the count metrics (multinomial over the table)"),
    Capability("report", "ci with score", "DeLong's and the bootstrap interval of the ROC-AUC",
               dask=f"the bootstrap of a ranking resamples items: {_ITEMS}"),
    Capability("report", "train_labels", "baselines following the training class frequencies"),
    Capability("report", "scores_prefix", "one-vs-rest ROC-AUC and AP of every class's score column",
               dask="one ranking per class over one pass is the local stream's (the Dask engine ranks one score "
                    "column)"),
    Capability("report", "threshold", "predictions from a cut on the score",
               dask=f"the cut's predictions are made from the scores in memory: {_ITEMS}"),
    Capability("report", "show_errors", "the first N misclassified items in input order",
               dask="input order is the order of one reader; Dask partitions are counted in any order"),
    Capability("report", "multilabel with score", "rankings of label sets",
               dask="label-set rankings are one-vs-rest (as scores_prefix)"),
    Capability("report", "arrays of label sets or ragged values", "arrays that are no plain columns of labels",
               dask="the Dask engine reads plain columns of labels: give arrays of single labels (or a table, or a "
                    "PATH)"),
    Capability("report", "by", "one count table per slice in the same pass: slice metrics, tests, fairness"),
    Capability("compare", "gold/pred", "paired test of a count metric, two inputs joined by id"),
    Capability("compare", "by", "A vs B within every slice from per-slice joint (gold, A, B) tables, Holm- and "
               "BY-adjusted, Simpson's paradox named"),
    Capability("compare", "more than two inputs", "every pair (or each against a baseline), Holm-adjusted",
               dask="the Dask join pairs two inputs"),
    Capability("compare", "score", "paired test of ROC-AUC or AP",
               dask=f"paired resampling of rankings: {_ITEMS}"),
    Capability("compare", "test=delong", "DeLong's test of two correlated ROC-AUCs",
               dask=f"DeLong's variance needs every item's midranks: {_ITEMS}"),
    Capability("compare", "scores_prefix", "DeLong one-vs-rest, Holm-adjusted",
               dask=f"DeLong's variance needs every item's midranks: {_ITEMS}"),
    Capability("compare", "margin", "non-inferiority (bootstrap with the null at the margin)",
               dask="the Dask engine runs the paired tests of the joint table, 'A better than B'"),
    Capability("compare", "alternative=two-sided", "two-sided alternative",
               dask="the Dask engine runs the paired tests of the joint table, 'A better than B'"),
    Capability("compare", "repeat", "one repeat of a repeated out-of-fold file",
               dask="the Dask join matches ids, not (repeat, id) keys"),
    Capability("compare", "score_bins", "binned ROC-AUCs compared at any size",
               dask="the binned joint table is counted by the local stream"),
    Capability("compare", "label_issues", "the verdict again without the likely label errors, and relabelled",
               dask=f"the two systems are read into memory and compared again without the flagged items: {_ITEMS}"),
    Capability("threshold", "score", "a cut chosen on dev, applied to test (exact, any size)"),
    Capability("threshold", "by", "one cut chosen on dev overall; the test data's slice tables at that cut"),
    Capability("threshold", "scores_prefix", "one cut per label (multi-label)",
               dask="one cut per label is chosen by the local stream (the Dask engine ranks one score column)"),
    Capability("calibration", "prob", "reliability bins, ECE, MCE, Brier, log loss (binary, equal-width bins)"),
    Capability("calibration", "by", "ECE, MCE, Brier, log loss per slice from per-slice bin counts and exact sums"),
    Capability("calibration", "probs_prefix", "top-label calibration of every class's probability"),
    Capability("calibration", "strategy=quantile", "equal-mass bins",
               dask=f"equal-mass bins need exact order statistics of every probability: {_ITEMS}"),
    Capability("calibration", "edges=sklearn", "scikit-learn's bin edges (right-closed, empty bins dropped)"),
    Capability("ranking", "score", "exact ROC-AUC, AP and curves of one score column"),
    Capability("error_analysis", "gold/pred/text", "per confused cell: counts, examples (bottom-k by a keyed hash), "
               "distinctive terms (weighted log-odds, informative Dirichlet prior)"),
    Capability("error_analysis", "texts", "texts from a second file joined by id first (compare's id join: hash "
               "partitions on disk beyond the budget), the joined rows spooled to Parquet and counted as a PATH"),
    Capability("error_analysis", "multilabel", "label sets: per category its false negatives and false positives, "
               "each against its true positives and true negatives"),
    Capability("error_analysis", "score", "the most confident mistakes of each cell"),
    Capability("error_analysis", "by", "every slice analysed on its own documents in the same pass (the error "
               "accumulator wrapped per slice, slices matched by value when partitions add)"),
    Capability("error_analysis", "label_issues", "the likely gold errors of label-issues (its result, JSON or "
               "--flagged file) marked in every cell by id and shown first, the same bottom-k however split"),
    Capability("power", "gold/pred", "one system: the width of a count metric's bootstrap interval now and the "
               "items for a target width, from the confusion table"),
    Capability("power", "b", "two systems joined by id: the smallest detectable difference (exact McNemar power, or "
               "the paired bootstrap standard error) and the items for a difference, from the joint table"),
    Capability("power", "repeat", "one repeat of a repeated out-of-fold file",
               dask="the Dask join matches ids, not (repeat, id) keys"),
    Capability("label_issues", "gold/probs", "likely label errors by confident learning (prune by noise rate) "
               "from every class's probability column: in memory, or in three passes (thresholds, confident joint, "
               "the per-cell cut) beyond the budget and on a cluster"),
    Capability("rank", "results", "k systems over N data sets from a table of scores: average ranks, Friedman, "
               "Nemenyi, Wilcoxon–Holm, the Bayesian signed-rank test", dask=_RANK),
    Capability("rank", "runs_db", "k systems over N data sets from the run log", dask=_RANK),
    Capability("*", "PATH '-'", "standard input", dask=_STDIN),
    # cv and holdout (issue 39): one row each, the fitting of the models
    Capability("cv", "model", "k-fold cross-validation of a text model (arrays, a table or one data file)",
               dask=_fitting("cv")),
    Capability("holdout", "model", "holdout evaluation of a text model (arrays, a table or one data file)",
               dask=_fitting("holdout")),
)


def _find(operation: str, option: str) -> Capability:
    for c in TABLE:
        if c.option == option and c.operation in (operation, "*"):
            return c
    raise KeyError(f"{operation}: {option}")


def supported(operation: str, engine: str, option: str) -> bool:
    """Whether ``option`` of ``operation`` runs on ``engine`` (an option the table does not list runs everywhere)."""
    try:
        return _find(operation, option).reason(engine) is None
    except KeyError:
        return True


def refuse(operation: str, engine: str, given: Mapping[str, bool]) -> None:
    """Raise one :class:`~clfeval.errors.UsageError` naming every given option ``engine`` does not run, each with
    its reason (``given``: option of the table → whether the call uses it)."""
    bad = [_find(operation, opt) for opt, on in given.items() if on and not supported(operation, engine, opt)]
    if not bad:
        return
    params = ["engine"] + [c.parameter for c in bad if c.parameter]

    def text(option: str, *names: str) -> str:
        shown = dict(zip(params[1:], names, strict=False))
        parts = []
        for c in bad:
            label = c.option
            if c.parameter in shown:
                label = shown[c.parameter] + c.option[len(c.parameter):].replace("=", " ")
            parts.append(f"{label} ({c.reason(engine)})")
        other = "local" if engine == "dask" else "dask"
        return (f"{option} {engine} does not run {operation} with " + "; ".join(parts) +
                f". Run without {option} {engine} ({option} {other}), or leave {'it' if len(bad) == 1 else 'them'} "
                f"out.")

    raise UsageError(text, params=params)


def refuse_stdin(engine: str, given: Mapping[str, bool]) -> None:
    """Standard input where the engine cannot read it (``given``: parameter → whether it is ``-``), refused
    naming the parameter, with the table's reason."""
    reason = _find("*", "PATH '-'").reason(engine)
    bad = [p for p, on in given.items() if on]
    if reason is None or not bad:
        return
    p = bad[0]
    if p == "data":
        raise UsageError(f"the input is '-' (standard input): {reason} with the {engine} engine.")
    raise UsageError(lambda name: f"option {name} is '-' (standard input): {reason} with the {engine} engine.",
                     params=[p])


def help_note(operation: str) -> str:
    """The ``--help`` note of a command: the options the Dask engine does not run, each with its reason."""
    lines = [f"{c.as_option} ({c.reason('dask')})" for c in TABLE
             if c.operation in (operation, "*") and c.reason("dask") is not None]
    return "Not with --engine dask (clfeval.engines capability table): " + "; ".join(lines) + "." if lines else ""


def markdown() -> str:
    """The large-data guide page's table (docs/guide/large-data.md, put in by docs/hooks.py).

    Operation × option × engine, with the reason of every refusal."""
    rows = ["| operation | option | what | local | dask |", "|---|---|---|---|---|"]
    for c in TABLE:
        cells = ["yes" if c.reason(e) is None else f"no: {c.reason(e)}" for e in ENGINES]
        rows.append(f"| {c.operation} | `{c.option}` | {c.what} | {cells[0]} | {cells[1]} |")
    return "\n".join(rows)


def as_dict() -> list[dict[str, Any]]:
    """The table as plain data."""
    return [{"operation": c.operation, "option": c.option, "what": c.what, "local": c.local, "dask": c.dask}
            for c in TABLE]
