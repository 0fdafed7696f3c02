"""``clfeval cv`` and ``clfeval holdout``: options → settings → the steps of ``clfeval.cv`` / ``clfeval.holdout``
(:mod:`clfeval.front._protocols`) → the outputs, the run log and the rendered result (this module's concerns)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli import _common as c

_MODELS = click.Choice(["nb", "bnb", "logreg", "svm"], case_sensitive=False)
_FILE = click.Path(dir_okay=False, path_type=Path)
_TUNE, _o = "With --tune-threshold", click.option  # the options shared by cv and holdout: experiment_options
_EXPERIMENT_OPTIONS: list[Any] = [
    _o("--text", required=True, help="Column holding the documents."),
    _o("--label", required=True, help="Column holding the labels (label sets with --multilabel)."),
    _o("--id", help="Column of item ids (default: 'id' when present, else the row number from 1)."),
    _o("--model", type=_MODELS, default="nb", show_default=True, help="nb: multinomial Naive Bayes (add-one); bnb: "
       "Bernoulli NB; logreg: tf-idf + logistic regression; svm: tf-idf + linear SVM."),
    _o("--ngrams", type=click.Choice(["1", "2"]), default="1", show_default=True,
       help="1: unigrams; 2: unigrams and bigrams."),
    _o("--stem", is_flag=True, help="Porter-stem the tokens (PyStemmer)."),
    _o("--stop-words", is_flag=True, help="Drop English stop words (scikit-learn's list)."),
    _o("--multilabel", is_flag=True, help="Each item carries a set of labels (one classifier per label)."),
    c.sep_option,
    _o("--stratified", is_flag=True,
       help="Keep the class proportions in every part (multi-label: iterative stratification)."),
    _o("--repeats", type=click.IntRange(min=1), default=1, show_default=True,
       help="Repeat the protocol with different random splits."),
    _o("--seed", type=click.IntRange(min=0), default=0, show_default=True,
       help="Seed of every random split (recorded with the run)."),
    _o("--predictions", "predictions_out", type=_FILE,
       help="Write the out-of-fold predictions and scores here (.csv, .tsv, .jsonl or .parquet)."),
    _o("--probabilities", is_flag=True, help="Add out-of-fold predict_proba columns p:<label> to --predictions."),
    _o("--errors", "errors_out", type=_FILE, help="Write the error analysis of the out-of-fold (or test) predictions "
       "here: every confused pair, its documents and the terms they share (see `clfeval errors`); the format from "
       "the extension: .html, .json, .md or .txt. Its terms are the model's: --stop-words and --stem (each off "
       "unless given). Single-label data."),
    _o("--tune-threshold", metavar="OBJECTIVE", help="Choose the decision threshold inside every training fold, on a "
       "development split, for OBJECTIVE: f1, f0.5, f2, cost, precision>=X or recall>=X (binary or multi-label data)."),
    _o("--dev-size", type=float, default=0.2, show_default=True,
       help=f"{_TUNE}: share of each training fold held out to choose the cut."),
    _o("--positive", help=f"{_TUNE} on binary data: the positive class (default: the second label)."),
    _o("--cost-fp", type=float, default=1.0, show_default=True, help=f"{_TUNE} cost: cost of a false positive."),
    _o("--cost-fn", type=float, default=1.0, show_default=True, help=f"{_TUNE} cost: cost of a false negative."),
    _o("--metric", "metrics", multiple=True, help="Report this metric too (e.g. f1:LABEL); repeatable."),
    _o("--zero-division", type=click.Choice(["0", "1", "nan"]), default="0", show_default=True,
       help="Value of 0/0 ratios; nan leaves them out of averages."),
    _o("--compare-model", type=_MODELS, help="Also run this model on the same folds (both runs recorded) and print "
       "the fold-by-fold comparison of the two (see `clfeval runs compare`)."),
    _o("--compare-metric", default="macro_f1", show_default=True,
       help="With --compare-model: the metric the two models are compared on."),
    _o("--runs-db", type=_FILE, default=c.DEFAULT_RUNS_DB, show_default=True,
       help="The run log (SQLite) that records this run."),
    _o("--no-log", is_flag=True, help="Do not record the run in the run log."),
    _o("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]),
       help="Data file format (default: from the extension; CSV for standard input, '-')."),
    c.reading_options,
]
experiment_options = c.stack(*_EXPERIMENT_OPTIONS)  # the options shared by cv and holdout


def run_experiment(command: str, data: Path, protocol: dict[str, Any], *, compare_model: str | None,
                   compare_metric: str, predictions_out: Path | None, errors_out: Path | None, runs_db: Path,
                   no_log: bool, fmt: str, output: Path | None, **options: Any) -> None:
    """The body of ``cv`` and ``holdout``: the settings checked, the outputs checked, the data hashed then read
    once, each model run, the outputs written and the run recorded (outputs in place first), the result shown."""
    from clfeval.front import experiment, read_recorded
    from clfeval.io import outputs
    from clfeval.protocols import check_compare_model, errors_page, open_run_log, write_run
    from clfeval.render import render

    metrics = tuple(options.pop("metrics")) + (() if compare_model is None else (compare_metric,))
    exp = experiment(command, protocol, metrics=metrics, **options)
    check_compare_model(compare_model, exp.config.name, predictions_out, errors_out, exp.probabilities)
    src, existed = c.existing_file(data), runs_db.exists()  # "-": standard input, read once
    log = open_run_log([("DATA", src if isinstance(src, Path) else "-")], output, None if no_log else runs_db,
                      predictions_out=predictions_out, errors_out=errors_out)
    texts, labels, ids, record = read_recorded(src, exp, log is not None)
    exps = [exp] + ([] if compare_model is None else [exp.with_model(compare_model)])
    results = [_fit(e, texts, labels, ids, f" ({e.config.name})" if i else "") for i, e in enumerate(exps)]
    page = errors_page(errors_out, results[0], texts, ids, exp, lambda r, f: render(r, f, width=120))
    shown = write_run(command, results, [e.config for e in exps], settings=exp.settings(), log=log, record=record,
                      render=lambda r: render(r, fmt), output=output, predictions=predictions_out, page=page,
                      metric=compare_metric)
    for line in shown.messages + ((c.where_recorded(shown.recorded, runs_db, existed),) if shown.recorded else ()):
        c.message(line)
    outputs.checkpoint("recorded")
    c.message(f"wrote {output}") if output is not None else c.emit(shown.result, fmt, None)


def _fit(exp: Any, texts: list[str], labels: list[Any], ids: list[Any], suffix: str) -> Any:
    """One model through the protocol, with a progress bar of its folds."""
    from clfeval.front import run_experiment as fit
    from clfeval.io import outputs

    with c.progress(f"{exp.operation}: {exp.protocol.describe()}{suffix}", exp.runs) as advance:
        result = fit(exp, texts, labels, ids, progress=lambda done, _total, _what: advance(1) if done else None)
    outputs.checkpoint("run finished")
    return result


@click.command()
@click.argument("data", type=click.Path(path_type=Path))
@experiment_options
@_o("--folds", type=click.IntRange(min=2), default=10, show_default=True, help="k of k-fold cross-validation.")
@c.output_options
def cv(data: Path, folds: int, stratified: bool, repeats: int, **kw: Any) -> None:
    """k-fold cross-validation of a text model on DATA (CSV, TSV, JSONL or Parquet).

    Every item is tested once per repeat by a model that never saw it; the
    vocabulary, idf and everything else fitted is fitted on the training folds
    only. Prints every metric's mean, standard deviation (ddof = 1), min and max
    over the folds, the train–test gap and the pooled out-of-fold report, and
    records the run in the run log (see `clfeval runs`).
    """
    run_experiment("cv", data, {"kind": "kfold", "folds": folds, "stratified": stratified, "repeats": repeats}, **kw)


@click.command()
@click.argument("data", type=click.Path(path_type=Path))
@experiment_options
@_o("--test-size", type=float, default=0.2, show_default=True, help="Share of the items held out for testing.")
@_o("--val-size", type=float, default=0.0, show_default=True,
    help="Share of the items held out for validation (train/validation/test; 0 = none).")
@c.output_options
def holdout(data: Path, test_size: float, val_size: float, stratified: bool, repeats: int, **kw: Any) -> None:
    """Holdout evaluation of a text model on DATA: train/test or train/validation/test, optionally repeated.

    With --repeats R, R independent random splits give the metric's mean and
    spread; with --val-size the model is also scored on the validation part.
    """
    run_experiment("holdout", data, {"kind": "holdout", "test_size": test_size, "val_size": val_size,
                                     "stratified": stratified, "repeats": repeats}, **kw)
