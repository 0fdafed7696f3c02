"""``clfeval calibration FILE``: does a predicted 0.9 come true nine times in ten?"""

from __future__ import annotations

from pathlib import Path

import click

from clfeval.cli._common import check_paths, emit, input_path, output_options, reading_options, reading_progress


@click.command()
@click.argument("file", type=click.Path(path_type=Path), metavar="PATH")
@click.option("--gold", default="gold", show_default=True, help="Column of gold labels.")
@click.option("--prob", default=None, help="Column of the probability of --positive (binary).")
@click.option("--probs-prefix", default=None, metavar="PREFIX",
              help="Multiclass: probability columns PREFIX<class>, one per class (top-label calibration).")
@click.option("--positive", default=None, help="The class whose probability --prob gives.")
@click.option("--bins", type=click.IntRange(min=1), default=10, show_default=True,
              help="Number of bins (at most 100,000).")
@click.option("--strategy", type=click.Choice(["uniform", "quantile"]), default="uniform", show_default=True,
              help="uniform: equal-width bins, v goes to min(floor(v*B), B-1); quantile: equal-mass bins.")
@click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
              help="File format (default: from the extension; CSV for standard input, '-').")
@reading_options
@output_options
def calibration(file: Path, gold: str, prob: str | None, probs_prefix: str | None, positive: str | None, bins: int,
                strategy: str, input_format: str | None, encoding: str, normalize_labels: str | None, fmt: str,
                output: Path | None) -> None:
    """Reliability table, ECE, MCE, Brier score and log loss of predicted probabilities.

    Values outside [0, 1] are refused: they are not probabilities (rank them with `clfeval report --score`).
    PATH is a file, a directory, a quoted glob or '-'; it is read in batches, every sum kept exactly.
    """
    from clfeval.cli._scorefile import check_score_options, score_columns
    from clfeval.errors import UsageError
    from clfeval.io.predictions import iter_predictions
    from clfeval.scores.calibration import calibrate_batches, check_bins
    from clfeval.scores.columns import ScoreSource

    check_paths([("FILE", file)], [("--output", output)])
    check_bins(bins, option="--bins")
    check_score_options(prob, probs_prefix, score_option="--prob", prefix_option="--probs-prefix")
    if prob is not None and positive is None:
        raise UsageError("option --prob needs --positive: the class whose probability the column gives.")
    if probs_prefix is not None and positive is not None:
        raise UsageError("option --positive goes with --prob; --probs-prefix calibrates the top label of every item.")
    inp = input_path(file, input_format=input_format, encoding=encoding)
    extra, _ = score_columns(inp, prob, probs_prefix, score_option="--prob", prefix_option="--probs-prefix")
    with reading_progress(inp) as update:
        reader = iter_predictions(inp, gold=gold, pred=None, require_pred=False, extra=extra,
                                  extra_options=["--prob"] if prob is not None else None, normalize=normalize_labels,
                                  progress=update)
        source = ScoreSource(name=prob, prefix=probs_prefix or "", data=f"file {inp.name!r}")
        result = calibrate_batches(reader, prob=prob, prefix=probs_prefix, positive=positive, bins=bins,
                                   strategy=strategy, source=source)
    emit(result, fmt, output)
