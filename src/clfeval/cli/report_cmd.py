"""``clfeval report FILE``: every count-based number about one predictions file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import emit, existing_file, input_options, output_options, parse_list
from clfeval.errors import DataError, LabelListError


def read_train_labels(path: Path, column: str | None, gold: str, input_format: str | None) -> Any:
    """The training-label column of ``--train-labels FILE``.

    The column is ``--train-column`` if given, else the ``--gold`` column name,
    else ``label``, else the file's only column.
    """
    from clfeval.io import read_frame

    table = read_frame(existing_file(path, "--train-labels"), input_format=input_format if input_format and Path(path).suffix == "" else None)
    names = table.column_names
    for candidate in ([column] if column else [gold, "label"]):
        if candidate in names:
            return table.column(candidate)
    if column is None and len(names) == 1:
        return table.column(names[0])
    wanted = repr(column) if column else f"{gold!r} or 'label'"
    raise DataError(f"file {str(path)!r} (option --train-labels) has no column {wanted}; its columns are: "
                    f"{', '.join(repr(c) for c in names)}. Name the column with --train-column.")


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
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
@click.option("--samples", "-b", type=int, default=10_000, show_default=True, help="Bootstrap replicates of --ci.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed of --ci.")
@output_options
def report(file: Path, gold: str, pred: str, id_col: str | None, input_format: str | None, multilabel: bool, sep: str,
           positive: str | None, beta: float, zero_division: str, order: str | None, train_labels: Path | None,
           train_column: str | None, show_errors: int, score: str | None, scores_prefix: str | None,
           threshold: float | None, ci_level: float | None, samples: int, seed: int, fmt: str,
           output: Path | None) -> None:
    """Score a predictions file: confusion matrix, per-class table, averages, baselines, diagnostics.

    FILE is CSV, TSV, JSONL or Parquet with columns gold and pred (and optionally id).
    """
    from clfeval._validation import check_positive_int, check_probability
    from clfeval.io import read_predictions
    from clfeval.reports import report as make_report

    if ci_level is not None:
        check_probability(ci_level, option="--ci")
        check_positive_int(samples, option="--samples")
    path = existing_file(file)
    scores = None
    if score is not None or scores_prefix is not None or threshold is not None:
        preds, scores = _read_with_scores(path, gold, pred, id_col, multilabel, input_format, score, scores_prefix,
                                          threshold, positive)
    else:
        preds = read_predictions(path, gold=gold, pred=pred, id=id_col, multilabel=multilabel, input_format=input_format)
    train = read_train_labels(train_labels, train_column, gold, input_format) if train_labels is not None else None
    order_list = parse_list(order)
    try:
        rep = make_report(preds.gold, preds.pred, ids=preds.ids, positive=positive, beta=beta,
                             zero_division=zero_division, order=order_list, multilabel=multilabel, sep=sep,
                             train_labels=train, show_errors=show_errors, scores=scores, threshold=threshold,
                             ci=ci_level, samples=samples, seed=seed)
    except LabelListError as exc:
        text = exc.describe("option --order") if exc.parameter == "order" else str(exc)
        raise DataError(f"file {str(path)!r}: {text}") from None
    except DataError as exc:
        raise DataError(f"file {str(path)!r}: {exc}") from None
    emit(rep, fmt, output)


def _read_with_scores(path: Path, gold: str, pred: str, id_col: str | None, multilabel: bool, input_format: str | None,
                      score: str | None, prefix: str | None, threshold: float | None, positive: str | None) -> tuple[Any, Any]:
    """Predictions and checked scores for ``--score`` / ``--scores-prefix`` (and ``--threshold``)."""
    from clfeval.cli._scorefile import check_score_options, read_scored
    from clfeval.errors import UsageError

    check_score_options(score, prefix)
    if score is not None and positive is None:
        raise UsageError("option --score needs --positive: the class whose scores rank the items.")
    sf = read_scored(path, gold=gold, score=score, prefix=prefix, pred=None if threshold is not None else pred,
                     id_col=id_col, multilabel=multilabel, input_format=input_format)
    if threshold is not None and pred in sf.columns:
        raise UsageError(f"file {sf.path!r} has a predictions column {pred!r} and --threshold {threshold:g} was given: "
                         f"predictions would come from two places. Drop --threshold to use the column, or name "
                         f"another --pred.")
    return sf, sf.scores