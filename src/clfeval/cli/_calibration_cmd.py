"""``clfeval calibration FILE``: does a predicted 0.9 come true nine times in ten?"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, emit, input_path, output_options, reading_options, reading_progress
from clfeval.cli._scale import engine_and_output, engine_options, help_note, memory_option
from clfeval.cli._slices import compare_slice_options, slice_arguments


@click.command(epilog=help_note("calibration"))
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
@compare_slice_options
@output_options
def calibration(file: Path, **o: Any) -> None:
    """Reliability table, ECE, MCE, Brier score and log loss of predicted probabilities.

    Values outside [0, 1] are refused: they are not probabilities (rank them with `clfeval report --score`).
    PATH is a file, a directory, a quoted glob or '-'; it is read in batches, every sum kept exactly.
    """
    check_paths([("FILE", file)], [("--output", o["output"])])
    engine, fmt, output = engine_and_output(o)
    from clfeval.front import calibration as run, check_calibration_options

    check_calibration_options(engine, data=file, **o)
    inp = input_path(file, input_format=o["input_format"], encoding=o["encoding"])
    o.update(normalize=o.pop("normalize_labels"))
    slicing = slice_arguments(o)
    emit(run(inp, engine=engine, progress=reading_progress, **o, **slicing), fmt, output)
