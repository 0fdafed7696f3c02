"""``clfeval report FILE``: every count-based number about one predictions file."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import (check_paths, emit, existing_file, input_options, input_path, option_names,
                                 output_options, parse_list, reading_progress)
from clfeval.cli._decide import require_exit
from clfeval.cli._scale import engine_options, memory_option, score_bin_options
from clfeval.errors import DataError, LabelListError, UsageError


def read_train_labels(path: Path, column: str | None, gold: str, input_format: str | None, *, encoding: str = "utf-8",
                      normalize: str | None = None, multilabel: bool = False, sep: str = "|") -> Any:
    """The training-label column of ``--train-labels FILE``, every label present (single-label data).

    The column is ``--train-column`` if given, else the ``--gold`` column name,
    else ``label``, else the file's only column.
    """
    from clfeval.core.labelforms import normalize_labels
    from clfeval.io.predictions import check_labels_present
    from clfeval.io.readers import Source, detect_format, read_frame

    src = Source.of(existing_file(path, "--train-labels"), encoding=encoding)
    fmt = detect_format(src, input_format if input_format and src.suffix == "" else None)
    table = read_frame(src, input_format=fmt, encoding=encoding, exact=True)
    names = table.column_names
    chosen = None
    for candidate in ([column] if column else [gold, "label"]):
        if candidate in names:
            chosen = candidate
            break
    if chosen is None and column is None and len(names) == 1:
        chosen = names[0]
    if chosen is None:
        wanted = repr(column) if column else f"{gold!r} or 'label'"
        raise DataError(f"file {src.name!r} (option --train-labels) has no column {wanted}; its columns are: "
                        f"{', '.join(repr(c) for c in names)}. Name the column with --train-column.")
    col = table.column(chosen)
    if normalize:
        col = normalize_labels(col, normalize, multilabel=multilabel, sep=sep)
    if not multilabel:
        check_labels_present(src, fmt, col, chosen)
    return col


def _label_texts(col: Any, multilabel: bool, sep: str) -> set[str]:
    """The distinct labels of a column, as text (label sets flattened)."""
    import pyarrow.compute as pc

    from clfeval.core.labelforms import plain
    from clfeval.core.labels import flatten_sets, split_sets, label_str

    values = flatten_sets(split_sets(col, "labels", sep))[1] if multilabel else plain(col)
    return {label_str(v) for v in pc.unique(values).to_pylist() if v is not None}


def check_train_overlap(train: Any, train_path: Any, preds: Any, multilabel: bool, sep: str,
                        labels: set[str] | None = None) -> None:
    """Refuse training labels that share no label with the data (its labels as text, or those of ``preds``):
    almost surely the wrong file or column."""
    theirs = _label_texts(train, multilabel, sep)
    if labels is not None:
        ours = labels
    else:
        ours = _label_texts(preds.gold, multilabel, sep)
        if preds.pred is not None:
            ours |= _label_texts(preds.pred, multilabel, sep)
    if not theirs or not ours or theirs & ours:
        return

    def few(labels: set[str]) -> str:
        shown = sorted(labels)[:5]
        return ", ".join(repr(x) for x in shown) + (f" and {len(labels) - 5} more" if len(labels) > 5 else "")

    name = preds if isinstance(preds, str) else preds.path
    raise DataError(f"the training labels of {str(train_path)!r} (option --train-labels) share no label with "
                    f"{name!r}: the training labels are {few(theirs)}; the labels of {name!r} are "
                    f"{few(ours)}. Baselines that follow these training labels would predict classes the data never "
                    f"holds; check that --train-labels names the training file of this data and --train-column "
                    f"its label column.")


@click.command()
@click.argument("file", type=click.Path(path_type=Path), metavar="PATH")
@input_options
@click.option("--positive", default=None, help="Add a binary summary of this class against all others.")
@click.option("--beta", type=float, default=1.0, show_default=True, help="Add F-beta beside F1 (beta > 1 favours recall).")
@click.option("--zero-division", type=click.Choice(["0", "1", "nan"]), default="0", show_default=True,
              help="Value of 0/0 ratios (e.g. precision of a class never predicted); nan leaves them out of averages.")
@click.option("--order", default=None, help="Ordered classes, low to high, comma-separated (adds MAE and weighted kappa).")
@click.option("--train-labels", type=click.Path(path_type=Path), default=None,
              help="File of training labels: baselines then follow the training class frequencies (the honest version).")
@click.option("--train-column", default=None, help="Column of --train-labels (default: the --gold name, 'label', or the only column).")
@click.option("--show-errors", type=click.IntRange(min=0), default=0, metavar="N", help="List up to N misclassified items.")
@click.option("--score", default=None, help="Score column (higher = more positive; needs --positive): adds ROC-AUC and PR-AUC.")
@click.option("--scores-prefix", default=None, metavar="PREFIX",
              help="Score columns PREFIX<label>, one per class or label (e.g. 'score:'): one-vs-rest ROC-AUC and PR-AUC.")
@click.option("--threshold", type=float, default=None,
              help="Predictions come from the cut: positive iff score >= T (the pred column must then be absent).")
@click.option("--ci", "ci_level", type=float, default=None, metavar="LEVEL",
              help="Add a bootstrap confidence interval at this level (e.g. 0.95) to every metric.")
@click.option("--samples", "-b", type=int, default=10_000, show_default=True,
              help="Bootstrap replicates of --ci (at most 1,000,000).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Random seed of --ci.")
@click.option("--ci-method", "ci_method", multiple=True, metavar="METHOD|METRIC=METHOD",
              help="Interval method of --ci: percentile, bca, wilson (binomial proportions: accuracy, error rate, "
                   "precision, recall, specificity, …), delong, logit-delong, hanley-mcneil (roc_auc only); one for "
                   "every metric it applies to, or METRIC=METHOD (e.g. accuracy=wilson, roc_auc=delong; "
                   "repeatable). Default per metric, the best measured coverage: Wilson for per-class precision "
                   "and recall, BCa for the other count metrics, logit DeLong for ROC-AUC.")
@click.option("--require", "require", multiple=True, metavar="COND",
              help="A condition such as 'macro_f1>=0.70', 'recall:spam>=0.9' or 'accuracy>majority' (repeatable): "
                   "each is shown with its value, and an unmet one exits 3.")
@memory_option()
@score_bin_options
@engine_options
@output_options
def report(file: Path, gold: str, pred: str, id_col: str | None, input_format: str | None, multilabel: bool, sep: str,
           encoding: str, normalize_labels: str | None, positive: str | None, beta: float, zero_division: str, order: str | None, train_labels: Path | None,
           train_column: str | None, show_errors: int, score: str | None, scores_prefix: str | None,
           threshold: float | None, ci_level: float | None, samples: int, seed: int, ci_method: tuple[str, ...],
           require: tuple[str, ...],
           memory: str | None, score_bins: int | None, score_binning: str, engine: str, scheduler: str | None,
           fmt: str, output: Path | None) -> None:
    """Score a predictions file: confusion matrix, per-class table, averages, baselines, diagnostics.

    FILE is CSV, TSV, JSONL or Parquet with columns gold and pred (and optionally id), or a directory of
    such files (a Parquet dataset, also hive-partitioned), or a quoted glob pattern ('preds/part-*.csv');
    '-' reads standard input (CSV unless --input-format says otherwise). Count reports are read in
    batches, in bounded memory, whatever the number of rows; so are the rankings of --score and
    --scores-prefix (exact: sorted runs spill to disk beyond --memory), except with --threshold or --ci,
    which keep every score in memory. --score-bins N ranks approximately from N bins, with the error bound.
    """
    from clfeval.core.validation import check_probability, check_samples

    from clfeval.evaluate.requirements import parse_requirement

    from clfeval.cli._scale import check_engine, check_memory

    check_paths([("FILE", file), ("--train-labels", train_labels)], [("--output", output)])
    conditions = [parse_requirement(text) for text in require]
    if ci_level is not None:
        check_probability(ci_level, option="--ci")
        check_samples(samples, option="--samples")
    methods = _ci_methods(ci_method, ci_level, scored=score is not None or scores_prefix is not None,
                          multilabel=multilabel)
    budget = check_memory(memory)
    scored = score is not None or scores_prefix is not None
    if score_bins is not None and score is None:
        raise UsageError("option --score-bins bins the scores of one --score column (with --positive); "
                         "--scores-prefix rankings are exact only.")
    if score_bins is not None and (threshold is not None or ci_level is not None):
        raise UsageError("option --score-bins streams a binned ranking; --threshold and --ci need every score in "
                         "memory (exact): leave --score-bins out for them.")
    dask = check_engine(engine, scheduler, {"--scores-prefix": scores_prefix is not None,
                                            "--threshold": threshold is not None, "--ci": ci_level is not None,
                                            "--show-errors": bool(show_errors), "--train-labels": train_labels is not None,
                                            "--multilabel with scores": multilabel and scored})
    reading = dict(encoding=encoding, normalize=normalize_labels, sep=sep)
    inp = input_path(file, input_format=input_format, encoding=encoding)
    train = None
    if train_labels is not None:
        train = read_train_labels(train_labels, train_column, gold, input_format, multilabel=multilabel, **reading)
    order_list = parse_list(order)
    settings = dict(positive=positive, beta=beta, zero_division=zero_division, order=order_list, multilabel=multilabel,
                    sep=sep, train_labels=train, show_errors=show_errors, ci=ci_level, samples=samples, seed=seed,
                    ci_method=methods or "auto")
    try:
        if dask:
            rep, gold_items, scores = _on_dask(inp, gold, pred, score, settings, score_bins, score_binning,
                                               scheduler, id_col, normalize_labels), None, None
        elif threshold is not None or (multilabel and ci_level) or (scored and ci_level is not None):
            rep, gold_items, scores = _in_memory(inp, gold, pred, id_col, score, scores_prefix, threshold, train,
                                                 train_labels, settings, reading)
        elif scored:
            rep, gold_items, scores = _streamed_scores(inp, gold, pred, id_col, score, scores_prefix, train,
                                                       train_labels, settings, reading, budget, score_bins,
                                                       score_binning), None, None
        else:
            rep, gold_items, scores = _streamed(inp, gold, pred, id_col, train, train_labels, settings, reading), None, None
    except LabelListError as exc:
        text = exc.describe("option --order") if exc.parameter == "order" else str(exc)
        raise DataError(f"file {inp.name!r}: {text}") from None
    if inp.aliases:
        rep = dataclasses.replace(rep, sections={**rep.sections, "inputs": {
            "aliases": [{"skipped": a, "same_as": b} for a, b in inp.aliases]}})
    rep = _decisions(rep, gold_items, scores, conditions, positive=positive, multilabel=multilabel, sep=sep,
                     ci_level=ci_level, samples=samples, seed=seed, methods=methods)
    emit(rep, fmt, output)
    require_exit(rep)


def _ci_methods(values: tuple[str, ...], ci_level: float | None, *, scored: bool, multilabel: bool) -> dict[str, str]:
    """``--ci-method`` values parsed and checked against the metrics they name, before any file is read."""
    from clfeval.core import catalog
    from clfeval.evaluate.cimethods import check_ci_methods, parse_ci_methods

    if not values:
        return {}
    if ci_level is None:
        raise UsageError("option --ci-method chooses the method of --ci's intervals: give --ci LEVEL too.")
    methods = parse_ci_methods(values)
    check_ci_methods(methods, count_names=[n.split(":")[0] for n in catalog.names(input="counts")], scored=scored,
                     multilabel=multilabel)
    return methods


def _decisions(rep: Any, gold: Any, scores: Any, conditions: list[Any], *, positive: str | None, multilabel: bool,
               sep: str, ci_level: float | None, samples: int, seed: int, methods: dict[str, str]) -> Any:
    """``--ci`` with scores: DeLong's and the bootstrap intervals of the ranking; ``--require``: the conditions."""
    if ci_level is not None and scores is not None:
        from clfeval.significance.rankingci import with_ranking_ci

        rep = with_ranking_ci(rep, gold, scores, positive=positive, multilabel=multilabel, sep=sep, level=ci_level,
                              samples=samples, seed=seed, methods=methods)
    if conditions:
        from clfeval.evaluate.requirements import with_requirements

        rep = with_requirements(rep, conditions)
    return rep


def _scored(path: Any, make: Any) -> Any:
    """``make()``, its data errors named by the file (and the command's option names)."""
    try:
        return make()
    except LabelListError:
        raise
    except DataError as exc:
        text = str(exc.with_names(option_names(click.get_current_context().command)))
        if text.startswith(("file ", "directory ", "pattern ")):  # it names its file already
            raise DataError(text) from None
        raise DataError(f"file {path!r}: {text}") from None


def _streamed(inp: Any, gold: str, pred: str, id_col: str | None, train: Any, train_labels: Any,
              settings: dict[str, Any], reading: dict[str, Any]) -> Any:
    """Count the PATH batch by batch (bounded memory), ids checked across all its files."""
    from clfeval.evaluate.streaming import count_batches, finish_report
    from clfeval.io.join import unique_batches
    from clfeval.io.predictions import iter_predictions

    s = dict(settings)
    with reading_progress(inp) as update:
        reader = iter_predictions(inp, gold=gold, pred=pred, id=id_col, multilabel=s["multilabel"], progress=update,
                                  **reading)
        table, errors = count_batches(unique_batches(reader), order=s.pop("order"), multilabel=s.pop("multilabel"),
                                      sep=s["sep"], show_errors=s.pop("show_errors"))
    if train is not None:
        check_train_overlap(train, train_labels, inp.name, settings["multilabel"], s["sep"], set(table.label_strings))
    return _scored(inp.name, lambda: finish_report(table, errors, order=settings["order"] is not None, **s))


def _streamed_scores(inp: Any, gold: str, pred: str, id_col: str | None, score: str | None, prefix: str | None,
                     train: Any, train_labels: Any, settings: dict[str, Any], reading: dict[str, Any], memory: int,
                     bins: int | None, binning: str) -> Any:
    """Counts and the ranking of the score columns, batch by batch: exact beyond memory (or binned)."""
    from clfeval.cli._scorefile import check_score_options, score_columns
    from clfeval.evaluate.scoredstream import report_scored_batches, score_binning
    from clfeval.io.join import unique_batches
    from clfeval.io.predictions import iter_predictions

    check_score_options(score, prefix)
    if score is not None and settings["positive"] is None:
        raise UsageError("option --score needs --positive: the class whose scores rank the items.")
    extra, _ = score_columns(inp, score, prefix)
    s = dict(settings)

    def reader(update: Any = None) -> Any:
        return iter_predictions(inp, gold=gold, pred=pred, id=id_col, multilabel=s["multilabel"], extra=extra,
                                extra_options=["--score"] if score is not None else None, progress=update, **reading)

    cut = None
    if bins is not None:
        with reading_progress(inp) as update:
            cut = _scored(inp.name, lambda: score_binning(reader(update), score, bins=bins, kind=binning))
    with reading_progress(inp) as update:
        labels = [c[len(prefix):] for c in extra] if prefix is not None else None
        rep = _scored(inp.name, lambda: report_scored_batches(
            unique_batches(reader(update)), score=score, prefix=prefix, labels=labels, memory=memory, binning=cut,
            source=f"the gold labels of {inp.name!r}", **s))
    if train is not None:
        check_train_overlap(train, train_labels, inp.name, settings["multilabel"], s["sep"], set(rep.labels))
    return rep


def _on_dask(inp: Any, gold: str, pred: str, score: str | None, settings: dict[str, Any], bins: int | None,
             binning: str, scheduler: str | None, id_col: str | None = None, normalize: str | None = None) -> Any:
    """``--engine dask``: the PATH's partitions counted (and ranked) on a Dask cluster."""
    from clfeval.cli._scale import dask_client, dask_paths
    from clfeval.dask.counting import report as dask_report

    if score is not None and settings["positive"] is None:
        raise UsageError("option --score needs --positive: the class whose scores rank the items.")
    paths = dask_paths(inp, "FILE")
    with dask_client(scheduler) as client:
        return _scored(inp.name, lambda: dask_report(
            paths, gold=gold, pred=pred, score=score, positive=settings["positive"], multilabel=settings["multilabel"],
            sep=settings["sep"], order=settings["order"], beta=settings["beta"],
            zero_division=settings["zero_division"], score_bins=bins, score_binning=binning, client=client, id=id_col,
            normalize=normalize))


def _in_memory(inp: Any, gold: str, pred: str, id_col: str | None, score: str | None, prefix: str | None,
               threshold: float | None, train: Any, train_labels: Any, settings: dict[str, Any],
               reading: dict[str, Any]) -> Any:
    """Read every item into memory: score columns (rankings), thresholds, multi-label intervals.
    Returns the report, the gold labels and the scores (for the ranking's intervals)."""
    from clfeval.evaluate.reports import report as make_report
    from clfeval.io.predictions import read_predictions

    scores = None
    if score is not None or prefix is not None or threshold is not None:
        preds, scores = _read_with_scores(inp, gold, pred, id_col, settings["multilabel"], None, score, prefix,
                                          threshold, settings["positive"], reading)
    else:
        preds = read_predictions(inp, gold=gold, pred=pred, id=id_col, multilabel=settings["multilabel"],
                                 normalize=reading["normalize"], sep=reading["sep"])
    if train is not None:
        check_train_overlap(train, train_labels, preds, settings["multilabel"], settings["sep"])
    rep = _scored(inp.name, lambda: make_report(preds.gold, preds.pred, ids=preds.ids, scores=scores,
                                                 threshold=threshold, **settings))
    if threshold is not None and pred in getattr(preds, "columns", ()):
        import dataclasses

        rep = dataclasses.replace(rep, notes=[*rep.notes, (
            f"--threshold {threshold:g} decided the predictions from the scores (positive iff score ≥ {threshold:g}); "
            f"the file's predictions column {pred!r} was not used.")])
    return rep, preds.gold, scores


def _read_with_scores(path: Any, gold: str, pred: str, id_col: str | None, multilabel: bool, input_format: str | None,
                      score: str | None, prefix: str | None, threshold: float | None, positive: str | None,
                      reading: dict[str, Any]) -> tuple[Any, Any]:
    """Predictions and checked scores for ``--score`` / ``--scores-prefix`` (and ``--threshold``)."""
    from clfeval.cli._scorefile import check_score_options, read_scored
    from clfeval.errors import UsageError

    check_score_options(score, prefix)
    if score is not None and positive is None:
        raise UsageError("option --score needs --positive: the class whose scores rank the items.")
    sf = read_scored(path, gold=gold, score=score, prefix=prefix, pred=None if threshold is not None else pred,
                     id_col=id_col, multilabel=multilabel, input_format=input_format, **reading)
    return sf, sf.scores