"""``clfeval cv`` and ``clfeval holdout``: train a standard text model under an honest protocol.

Both read a data file with a text column and a label column, evaluate one of
clfeval's text models (``nb``, ``bnb``, ``logreg``, ``svm``) without leakage,
print every metric with its fold-to-fold spread, the train–test gap and the
pooled out-of-fold report, optionally write the out-of-fold predictions, and
record the run in the run log.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import (
    DEFAULT_RUNS_DB,
    check_paths,
    check_sep,
    emit,
    existing_file,
    finish_run,
    message,
    output_options,
    progress,
    where_recorded,
)
from clfeval.errors import MissingExtra, UsageError

#: Options shared by ``cv`` and ``holdout`` (:func:`experiment_options` applies them).
_EXPERIMENT_OPTIONS = [
    click.option("--text", "text_col", required=True, help="Column holding the documents."),
    click.option("--label", "label_col", required=True,
                 help="Column holding the labels (label sets with --multilabel)."),
    click.option("--id", "id_col", default=None,
                 help="Column of item ids (default: 'id' when present, else the row number from 1)."),
    click.option("--model", type=click.Choice(["nb", "bnb", "logreg", "svm"], case_sensitive=False), default="nb",
                 show_default=True,
                 help="nb: multinomial Naive Bayes (add-one); bnb: Bernoulli NB; logreg: tf-idf + logistic "
                      "regression; svm: tf-idf + linear SVM."),
    click.option("--ngrams", type=click.Choice(["1", "2"]), default="1", show_default=True,
                 help="1: unigrams; 2: unigrams and bigrams."),
    click.option("--stem", is_flag=True, help="Porter-stem the tokens (PyStemmer)."),
    click.option("--stop-words", is_flag=True, help="Drop English stop words (scikit-learn's list)."),
    click.option("--multilabel", is_flag=True,
                 help="Each item carries a set of labels (one classifier per label)."),
    click.option("--sep", default="|", show_default=True, callback=check_sep,
                 help="Separator of labels within a multi-label cell."),
    click.option("--stratified", is_flag=True,
                 help="Keep the class proportions in every part (multi-label: iterative stratification)."),
    click.option("--repeats", type=click.IntRange(min=1), default=1, show_default=True,
                 help="Repeat the protocol with different random splits."),
    click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                 help="Seed of every random split (recorded with the run)."),
    click.option("--predictions", "predictions_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
                 help="Write the out-of-fold predictions and scores here (.csv, .tsv, .jsonl or .parquet)."),
    click.option("--errors", "errors_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
                 help="Write the error analysis of the out-of-fold (or test) predictions here: every confused "
                      "pair, its documents and the terms they share (see `clfeval errors`); the format from the "
                      "extension: .html, .json, .md or .txt. Its terms are the model's: --stop-words and --stem "
                      "(each off unless given). Single-label data."),
    click.option("--tune-threshold", "tune", default=None, metavar="OBJECTIVE",
                 help="Choose the decision threshold inside every training fold, on a development split, for "
                      "OBJECTIVE: f1, f0.5, f2, cost, precision>=X or recall>=X (binary or multi-label data)."),
    click.option("--dev-size", type=float, default=0.2, show_default=True,
                 help="With --tune-threshold: share of each training fold held out to choose the cut."),
    click.option("--positive", default=None,
                 help="With --tune-threshold on binary data: the positive class (default: the second label)."),
    click.option("--cost-fp", type=float, default=1.0, show_default=True,
                 help="With --tune-threshold cost: cost of a false positive."),
    click.option("--cost-fn", type=float, default=1.0, show_default=True,
                 help="With --tune-threshold cost: cost of a false negative."),
    click.option("--metric", "extra_metrics", multiple=True,
                 help="Report this metric too (e.g. f1:LABEL); repeatable."),
    click.option("--zero-division", type=click.Choice(["0", "1", "nan"]), default="0", show_default=True,
                 help="Value of 0/0 ratios; nan leaves them out of averages."),
    click.option("--compare-model", type=click.Choice(["nb", "bnb", "logreg", "svm"], case_sensitive=False),
                 default=None, help="Also run this model on the same folds (both runs recorded) and print the "
                                    "fold-by-fold comparison of the two (see `clfeval runs compare`)."),
    click.option("--compare-metric", default="macro_f1", show_default=True,
                 help="With --compare-model: the metric the two models are compared on."),
    click.option("--runs-db", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_RUNS_DB,
                 show_default=True, help="The run log (SQLite) that records this run."),
    click.option("--no-log", is_flag=True, help="Do not record the run in the run log."),
    click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
                 help="Data file format (default: from the extension; CSV for standard input, '-')."),
    click.option("--encoding", type=click.Choice(["utf-8", "latin-1"]), default="utf-8", show_default=True,
                 help="Text encoding of CSV, TSV and JSONL input (Parquet text is always UTF-8)."),
    click.option("--normalize-labels", "normalize_labels", type=click.Choice(["nfc"]), default=None,
                 help="Unicode-normalise text labels (NFC) so that labels that only print alike are one class."),
]


def experiment_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Options shared by ``cv`` and ``holdout``."""
    for o in reversed(_EXPERIMENT_OPTIONS):
        f = o(f)
    return f


def _need_text_extra(stem: bool) -> None:
    MissingExtra.require("this command (it trains scikit-learn text models)", [("sklearn", "scikit-learn")], "text")
    if stem:
        MissingExtra.require("option --stem", [("Stemmer", "PyStemmer")], "text")


def read_data(path: Any, text_col: str, label_col: str, id_col: str | None, multilabel: bool,
              input_format: str | None, *, encoding: str = "utf-8", normalize: str | None = None,
              sep: str = "|") -> tuple[list[str], list[Any], list[Any]]:
    """Texts, labels and ids of a data file (or standard input): :func:`clfeval.protocols._datafile.read_text_data`."""
    from clfeval.protocols import read_text_data

    return read_text_data(existing_file(path), text_col, label_col, id_col, multilabel, input_format,
                          encoding=encoding, normalize=normalize, sep=sep)


def run_outputs(inputs: list[tuple[str, str | Path | None]], output: Path | None, runs_db: Path | None, *,
                predictions_out: Path | None = None, errors_out: Path | None = None) -> Any:
    """Check every output of a recorded run before the long part; returns the run log (or None).

    The outputs are ``--predictions``, ``--output``, the run log and its
    predictions folder; none may be an input, lie inside an input directory,
    or be another output. An existing run log is looked at (read-only) and
    refused if it is not a clfeval run log.
    """
    from clfeval.io import detect_format, resolve_output
    from clfeval.protocols import RunLog, predictions_dir

    outputs: list[Any] = [("--predictions", predictions_out), ("--output", output), ("--errors", errors_out)]
    if errors_out is not None:
        from clfeval.protocols import errors_format

        errors_format(errors_out)
    if runs_db is not None:
        outputs += [("--runs-db", runs_db),
                    resolve_output(predictions_dir(runs_db), option="--runs-db", directory=True)]
    check_paths(inputs, outputs)
    log = None if runs_db is None else RunLog(runs_db)
    if predictions_out is not None:
        try:
            detect_format(predictions_out)
        except UsageError:
            raise UsageError(f"option --predictions: cannot tell the format of {str(predictions_out)!r} from its "
                             f"extension; use .csv, .tsv, .jsonl or .parquet.") from None
    return log


def run_experiment(command: str, data: Path, protocol_args: dict[str, Any], *, text_col: str, label_col: str,
                   id_col: str | None, model: str, ngrams: str, stem: bool, stop_words: bool, multilabel: bool,
                   sep: str, seed: int, predictions_out: Path | None, extra_metrics: tuple[str, ...],
                   tune: str | None, dev_size: float, positive: str | None, cost_fp: float, cost_fn: float,
                   zero_division: str, runs_db: Path, no_log: bool, input_format: str | None, fmt: str,
                   output: Path | None, encoding: str = "utf-8", normalize_labels: str | None = None,
                   compare_model: str | None = None, compare_metric: str = "macro_f1",
                   errors_out: Path | None = None) -> None:
    """The body of ``cv`` and ``holdout``: check the outputs, hash and read the data, run, write, record, render.

    Every output is checked before the long part, the data is hashed before it
    is read, and the run is recorded last: its outputs are in place when the
    record commits (see :meth:`clfeval.protocols._runlog.RunLog.record`).
    """
    _need_text_extra(stem)
    from clfeval.protocols import Protocol, default_metrics, file_hash
    from clfeval.text import ModelConfig

    extra_metrics = _checked_metrics(extra_metrics, multilabel, model, compare_model, compare_metric, predictions_out)
    src = existing_file(data)  # "-": standard input, read once
    on_disk = isinstance(src, Path)
    existed = runs_db.exists()
    log = run_outputs([("DATA", src if on_disk else "-")], output, None if no_log else runs_db,
                      predictions_out=predictions_out, errors_out=errors_out)
    if errors_out is not None and compare_model is not None:
        raise UsageError("option --errors analyses one model's predictions; leave out --compare-model for it.")
    cfg = ModelConfig(model.lower(), ngrams=int(ngrams), stem=stem, stop_words=stop_words, multilabel=multilabel)
    protocol = Protocol(**protocol_args)
    step = _threshold_step(tune, dev_size, positive, cost_fp, cost_fn)
    data_hash = None if log is None or not on_disk else file_hash(src)  # the bytes about to be read
    texts, labels, ids = read_data(src, text_col, label_col, id_col, multilabel, input_format, encoding=encoding,
                                   normalize=normalize_labels, sep=sep)
    if log is not None and not on_disk:
        data_hash = src.sha256()  # standard input: the bytes as read
    metrics = tuple(dict.fromkeys(default_metrics(multilabel) + tuple(extra_metrics)))
    run = dict(protocol=protocol, seed=seed, ids=ids, multilabel=multilabel, sep=sep, metrics=metrics,
               zero_division=zero_division, threshold=step)
    result = _fit(command, cfg, texts, labels, run)
    settings = {"model": cfg.to_dict(), "protocol": dataclasses.asdict(protocol), "seed": seed,
                "columns": {"text": text_col, "label": label_col}, "zero_division": zero_division,
                "threshold": None if step is None else {"objective": step.name, "dev_size": dev_size,
                                                        "positive": positive}}
    if compare_model is not None:
        cfg_b = ModelConfig(compare_model.lower(), ngrams=int(ngrams), stem=stem, stop_words=stop_words,
                            multilabel=multilabel)
        result_b = _fit(command, cfg_b, texts, labels, run, f" ({cfg_b.name})")
        record_args = dict(data_path=str(src.resolve()) if on_disk else str(src), data_hash=data_hash,
                           task=f"{label_col} (label sets)" if multilabel else label_col)
        _record_comparison(command, (result, result_b), (cfg, cfg_b), settings, record_args, log, runs_db,
                           compare_metric, fmt, output, existed)
        return
    page = None if errors_out is None else _error_page(errors_out, result, texts, ids, cfg, seed, sep)
    _write_and_record(command, result, settings, src, on_disk, data_hash, label_col, multilabel, log, runs_db,
                      predictions_out, fmt, output, page, existed)


def _error_page(path: Path, result: Any, texts: list[str], ids: list[Any], cfg: Any, seed: int,
                sep: str) -> tuple[Path, str]:
    """``--errors``: the analysis of the pooled predictions, in the model's stop list and stems, rendered."""
    from clfeval.protocols import errors_format, errors_of_run
    from clfeval.render import render

    spec = f"stop={'sklearn' if cfg.stop_words else 'none'},stem={'porter' if cfg.stem else 'none'}"
    analysis = errors_of_run(result, texts, ids, processing=spec, seed=seed, multilabel=cfg.multilabel, sep=sep)
    return path, render(analysis, errors_format(path), width=120)


def _write_and_record(command: str, result: Any, settings: dict[str, Any], src: Any, on_disk: bool, data_hash: Any,
                      label_col: str, multilabel: bool, log: Any, runs_db: Path, predictions_out: Path | None,
                      fmt: str, output: Path | None, page: tuple[Path, str] | None = None,
                      existed: bool = True) -> None:
    """The out-of-fold predictions, --errors and --output written, the run recorded (outputs in place first), the
    result shown."""
    from clfeval.io import OutputFiles
    from clfeval.protocols import write_predictions

    result = dataclasses.replace(result, predictions_path=None if predictions_out is None else str(predictions_out))

    def record(files: Any, on_id: Any) -> int:
        return log.record_result(command, result, settings=settings,
                                 data_path=str(src.resolve()) if on_disk else str(src),
                                 data_hash=data_hash, task=f"{label_col} (label sets)" if multilabel else label_col,
                                 outputs=files, on_id=on_id)

    with OutputFiles() as files:
        if predictions_out is not None:
            write_predictions(result, predictions_out, files=files)
        if page is not None:
            text = page[1]
            files.stage(page[0], lambda p: Path(p).write_text(text, encoding="utf-8", newline=""), option="--errors")
        result = finish_run(result, fmt, output, files, None if log is None else record)
    if predictions_out is not None:
        message(f"wrote the out-of-fold predictions to {predictions_out}")
    if page is not None:
        message(f"wrote the error analysis to {page[0]}")
    if log is not None:
        message(where_recorded(f"run {result.run_id}", runs_db, existed))
    _finish(result, fmt, output)



def _fit(command: str, cfg: Any, texts: list[str], labels: list[Any], run: dict[str, Any], suffix: str = "") -> Any:
    """One model through the protocol, with a progress bar of its folds."""
    from clfeval.io import outputs as _outputs
    from clfeval.protocols import run_protocol

    protocol = run["protocol"]
    total = protocol.folds * protocol.repeats if protocol.kind == "kfold" else protocol.repeats
    with progress(f"{command}: {protocol.describe()}{suffix}", total) as advance:
        result = run_protocol(cfg.build(run["seed"]), texts, labels,
                              model=dict(cfg.to_dict(), description=cfg.describe()),
                              progress=lambda done, _total, _what: advance(1) if done else None, **run)
    _outputs.checkpoint("run finished")
    return result


def _checked_metrics(extra: tuple[str, ...], multilabel: bool, model: str, compare_model: str | None,
                     compare_metric: str, predictions_out: Path | None) -> tuple[str, ...]:
    """``--metric`` names (and ``--compare-model``'s) checked before the data is read."""
    from clfeval.protocols import check_metric_names

    check_metric_names(extra, multilabel)
    if compare_model is None:
        return extra
    check_metric_names((compare_metric,), multilabel)
    if compare_model.lower() == model.lower():
        raise UsageError(f"option --compare-model {compare_model} is the model of --model; give another model "
                         f"(the second run uses every other option of the first).")
    if predictions_out is not None:
        raise UsageError("option --predictions writes one model's predictions; with --compare-model both runs' "
                         "out-of-fold predictions are kept in the run log (or run cv once per model).")
    return tuple(extra) + (compare_metric,)


def _threshold_step(tune: str | None, dev_size: float, positive: str | None, cost_fp: float, cost_fn: float) -> Any:
    """``--tune-threshold``: the fold-internal threshold step (None without it)."""
    from clfeval.protocols import ThresholdStep

    if tune is not None:
        return ThresholdStep.for_objective(tune, dev_size=dev_size, positive=positive, cost_fp=cost_fp, cost_fn=cost_fn)
    if positive is not None:
        raise UsageError("option --positive names the positive class of --tune-threshold; give --tune-threshold too.")
    return None

def _record_comparison(command: str, results: tuple[Any, Any], cfgs: tuple[Any, Any], settings: dict[str, Any],
                       record_args: dict[str, Any], log: Any, runs_db: Path, metric: str, fmt: str,
                       output: Path | None, existed: bool = True) -> None:
    """``--compare-model``: compare the two runs, record both (the second with --output staged), print the comparison.

    The comparison is computed first (names: the models); each run is one record, the second with ``--output``
    put in place just before its record commits, showing both run ids.
    """
    from clfeval.io import OutputFiles
    from clfeval.protocols import compare_results

    comparison = compare_results(*results, metric=metric, names=(cfgs[0].name, cfgs[1].name))
    if log is None:
        with OutputFiles() as files:
            finish_run(comparison, fmt, output, files)
    else:
        from clfeval.render import render

        ids: list[int] = []
        with OutputFiles() as files:
            log.record_result(command, results[0], settings=dict(settings, model=cfgs[0].to_dict()), outputs=files,
                              on_id=ids.append, **record_args)
        with OutputFiles() as files:
            def stage(run_id: int) -> None:
                ids.append(run_id)
                if output is not None:
                    text = render(_with_ids(comparison, ids[0], run_id), fmt)
                    files.stage(output, lambda p: Path(p).write_text(text, encoding="utf-8", newline=""),
                                option="--output")

            log.record_result(command, results[1], settings=dict(settings, model=cfgs[1].to_dict()), outputs=files,
                              on_id=stage, **record_args)
        comparison = _with_ids(comparison, ids[0], ids[1])
        message(where_recorded(f"runs {ids[0]} ({cfgs[0].name}) and {ids[1]} ({cfgs[1].name})", runs_db, existed))
    _finish(comparison, fmt, output)


def _finish(result: Any, fmt: str, output: Path | None) -> None:
    """After the record: say where --output went, or print the result."""
    from clfeval.io import outputs as _outputs

    _outputs.checkpoint("recorded")
    if output is not None:
        message(f"wrote {output}")
    else:
        emit(result, fmt, None)


def _with_ids(comparison: Any, id_a: int | None, id_b: int | None) -> Any:
    return dataclasses.replace(comparison, a=dataclasses.replace(comparison.a, run_id=id_a),
                               b=dataclasses.replace(comparison.b, run_id=id_b))


@click.command()
@click.argument("data", type=click.Path(path_type=Path))
@experiment_options
@click.option("--folds", type=click.IntRange(min=2), default=10, show_default=True,
              help="k of k-fold cross-validation.")
@output_options
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
@click.option("--test-size", type=float, default=0.2, show_default=True,
              help="Share of the items held out for testing.")
@click.option("--val-size", type=float, default=0.0, show_default=True,
              help="Share of the items held out for validation (train/validation/test; 0 = none).")
@output_options
def holdout(data: Path, test_size: float, val_size: float, stratified: bool, repeats: int, **kw: Any) -> None:
    """Holdout evaluation of a text model on DATA: train/test or train/validation/test, optionally repeated.

    With --repeats R, R independent random splits give the metric's mean and
    spread; with --val-size the model is also scored on the validation part.
    """
    run_experiment("holdout", data, {"kind": "holdout", "test_size": test_size, "val_size": val_size,
                                     "stratified": stratified, "repeats": repeats}, **kw)
