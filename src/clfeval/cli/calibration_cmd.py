"""``clfeval calibration FILE``: does a predicted 0.9 come true nine times in ten?"""

from __future__ import annotations

from pathlib import Path

import click

from clfeval.cli._common import check_paths, emit, input_path, output_options, reading_options, reading_progress
from clfeval.cli._scale import engine_options, memory_option


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
              help="uniform: equal-width bins; quantile: equal-mass bins.")
@click.option("--edges", type=click.Choice(["clfeval", "sklearn"]), default="clfeval", show_default=True,
              help="Bin edges (with either --strategy). clfeval: left-closed bins [k/B, (k+1)/B), v goes to "
                   "min(floor(v*B), B-1) (1 in the last bin), empty bins kept. sklearn: as scikit-learn's "
                   "calibration_curve, right-closed on the float edges numpy.linspace(0, 1, B+1) (quantile: the "
                   "percentiles of the values), bin = searchsorted(edges[1:-1], v), empty bins dropped.")
@click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
              help="File format (default: from the extension; CSV for standard input, '-').")
@reading_options
@memory_option("Memory budget of the binary ranking beside the calibration (ROC-AUC, average precision; e.g. 512MB, "
               "default 1GiB): beyond it sorted runs spill to disk and are merged, exactly; the output says so.")
@engine_options
@output_options
def calibration(file: Path, gold: str, prob: str | None, probs_prefix: str | None, positive: str | None, bins: int,
                strategy: str, edges: str, input_format: str | None, encoding: str, normalize_labels: str | None,
                memory: str | None, engine: str, scheduler: str | None, fmt: str, output: Path | None) -> None:
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
    from clfeval.cli._scale import check_engine, check_memory, dask_client, dask_paths

    budget = check_memory(memory)
    dask = check_engine(engine, scheduler, {"--probs-prefix": probs_prefix is not None,
                                            "--strategy quantile": strategy != "uniform",
                                            "--edges sklearn": edges != "clfeval"})
    inp = input_path(file, input_format=input_format, encoding=encoding)
    if dask:
        from clfeval.dask.calibrate import calibration as dask_calibration

        paths = dask_paths(inp, "FILE")
        with dask_client(scheduler) as client:
            result = dask_calibration(paths, gold=gold, prob=prob, positive=positive, bins=bins, client=client,
                                      normalize=normalize_labels)
        emit(result, fmt, output)
        return
    extra, _ = score_columns(inp, prob, probs_prefix, score_option="--prob", prefix_option="--probs-prefix")
    with reading_progress(inp) as update:
        reader = iter_predictions(inp, gold=gold, pred=None, require_pred=False, extra=extra,
                                  extra_options=["--prob"] if prob is not None else None, normalize=normalize_labels,
                                  progress=update)
        source = ScoreSource(name=prob, prefix=probs_prefix or "", data=f"file {inp.name!r}")
        result = calibrate_batches(reader, prob=prob, prefix=probs_prefix, positive=positive, bins=bins,
                                   strategy=strategy, source=source, memory=budget, edges=edges)
    emit(result, fmt, output)
