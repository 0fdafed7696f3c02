"""``clfeval report FILE``: every count-based number about one predictions file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, emit, input_options, output_options
from clfeval.cli._decide import require_exit
from clfeval.cli._scale import engine_and_output, engine_options, help_note, memory_option, score_bin_options
from clfeval.cli._slices import find_slice_options, slice_arguments, slice_options
from clfeval.errors import UsageError


@click.command(epilog=help_note("report"))
@click.argument("file", type=click.Path(path_type=Path), metavar="PATH")
@input_options
@click.option("--positive", default=None, help="Add a binary summary of this class against all others.")
@click.option("--beta", type=float, default=1.0, show_default=True,
              help="Add F-beta beside F1 (beta > 1 favours recall).")
@click.option("--zero-division", type=click.Choice(["0", "1", "nan"]), default="0", show_default=True,
              help="Value of 0/0 ratios (e.g. precision of a class never predicted); nan leaves them out of averages.")
@click.option("--order", default=None, help="Ordered classes, low to high, comma-separated (adds MAE and weighted "
                                            "kappa).")
@click.option("--train-labels", type=click.Path(path_type=Path), default=None,
              help="File of training labels: baselines then follow the training class frequencies (the honest "
                   "version).")
@click.option("--train-column", default=None,
              help="Column of --train-labels (default: the --gold name, 'label', or the only column).")
@click.option("--show-errors", type=click.IntRange(min=0), default=0, metavar="N",
              help="List up to N misclassified items.")
@click.option("--text", "text_col", default=None, metavar="COLUMN",
              help="Column of the documents' texts: adds 'what the errors share', the three largest confused cells "
                   "and the terms their documents share (the whole analysis: `clfeval errors`).")
@click.option("--score", default=None, help="Score column (higher = more positive; needs --positive): adds ROC-AUC and "
                                            "PR-AUC.")
@click.option("--scores-prefix", default=None, metavar="PREFIX",
              help="Score columns PREFIX<label>, one per class or label (e.g. 'score:'): one-vs-rest ROC-AUC and "
                   "PR-AUC.")
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
                   "every metric it applies to, or METRIC=METHOD (e.g. accuracy=wilson, recall:spam=percentile, "
                   "roc_auc=delong; repeatable, each metric once). The more specific choice wins: recall:spam=… over "
                   "recall=… over a METHOD for every metric. Default per metric, the best measured coverage: Wilson "
                   "for per-class precision and recall, BCa for the other count metrics, logit DeLong for ROC-AUC.")
@click.option("--require", "require", multiple=True, metavar="COND",
              help="A condition such as 'macro_f1>=0.70', 'recall:spam>=0.9' or 'accuracy>majority' (repeatable), "
                   "or a registered function: FUNC(ARGS) OP TARGET for a number, FUNC(ARGS) alone for a truth "
                   "value: each is shown with its value, and an unmet one exits 3.")
@slice_options
@find_slice_options
@memory_option()
@score_bin_options
@engine_options
@output_options
def report(file: Path, **o: Any) -> None:
    """Score a predictions file: confusion matrix, per-class table, averages, baselines, diagnostics.

    FILE is CSV, TSV, JSONL or Parquet with columns gold and pred (and optionally id), or a directory of
    such files (a Parquet dataset, also hive-partitioned), or a quoted glob pattern ('preds/part-*.csv');
    '-' reads standard input (CSV unless --input-format says otherwise). Count reports are read in
    batches, in bounded memory, whatever the number of rows; so are the rankings of --score and
    --scores-prefix (exact: sorted runs spill to disk beyond --memory), except with --threshold or --ci,
    which keep every score in memory. --score-bins N ranks approximately from N bins, with the error bound.
    """
    check_paths([("FILE", file), ("--train-labels", o["train_labels"])], [("--output", o["output"])])
    from clfeval.cli._common import existing_file, input_path, parse_list, reading_progress
    from clfeval.evaluate import parse_ci_methods  # the parser of ci_method= in every form: one rule
    from clfeval.front import report as run

    engine, fmt, output = engine_and_output(o)
    inp = input_path(file, input_format=o["input_format"], encoding=o["encoding"])
    if o["train_labels"] is not None:  # '-': standard input, read once
        o["train_labels"] = existing_file(o["train_labels"], "--train-labels")
    o.update(order=parse_list(o["order"]), id=o.pop("id_col"), normalize=o.pop("normalize_labels"),
             ci=o.pop("ci_level"), require=o.pop("require"), ci_method=parse_ci_methods(o["ci_method"]))
    text = o.pop("text_col")
    if text is not None and str(file) == "-":
        raise UsageError("option --text reads the predictions a second time, for the error analysis: give a file "
                         "(not '-').")
    slicing = slice_arguments(o)
    rep = run(inp, engine=engine, progress=reading_progress, **o, **slicing)
    if text is not None:
        rep = _errors_share(rep, inp, text, o, engine)
    emit(rep, fmt, output)
    require_exit(rep)


def _errors_share(rep: Any, inp: Any, text: str, o: dict[str, Any], engine: Any) -> Any:
    """The report with its ``errors_share`` part: the three largest confused cells of `clfeval errors`."""
    import dataclasses

    from clfeval.front import error_analysis
    from clfeval.ops.report import ErrorsSharePart

    e = error_analysis(inp, o["pred"], gold=o["gold"], text=text, id=o["id"], input_format=o["input_format"],
                       encoding=o["encoding"], engine=engine, multilabel=o["multilabel"] or None,
                       sep=o["sep"]).to_dict()
    share = {"cells": e["cells"][:3], "prior": e["prior"], "settings": e["settings"], "notes": e["notes"]}
    return dataclasses.replace(rep, errors_share=ErrorsSharePart.of(share))
