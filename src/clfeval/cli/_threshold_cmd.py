"""``clfeval threshold TEST --dev DEV``: choose a cut on development data, measure it on the test data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, emit, input_path, output_options, reading_options, sep_option
from clfeval.cli._scale import engine_and_output, engine_options, help_note, memory_option
from clfeval.cli._slices import slice_arguments, slice_options


@click.command(epilog=help_note("threshold"))
@click.argument("test", type=click.Path(path_type=Path))
@click.option("--dev", type=click.Path(path_type=Path), default=None,
              help="Development file (a held-out slice of the training data) the cut is chosen on; never the test "
                   "file.")
@click.option("--gold", default="gold", show_default=True, help="Column of gold labels (label sets with --multilabel).")
@click.option("--score", default=None, help="Score column (higher = more positive); needs --positive.")
@click.option("--scores-prefix", default=None, metavar="PREFIX",
              help="Multi-label: score columns PREFIX<label>, one per label; one cut per label.")
@click.option("--positive", default=None, help="The positive class of --score.")
@click.option("--objective", default="f1", show_default=True,
              help="f1, f0.5, f2 (any f<beta>), cost, precision>=X or recall>=X.")
@click.option("--cost-fp", type=float, default=1.0, show_default=True,
              help="Cost of one false positive (objective cost).")
@click.option("--cost-fn", type=float, default=1.0, show_default=True,
              help="Cost of one false negative (objective cost).")
@click.option("--default-threshold", type=float, default=None,
              help="The default cut shown first (default: 0.5 when every score lies in [0, 1], else 0).")
@click.option("--zero-division", type=click.Choice(["0", "1", "nan"]), default="0", show_default=True,
              help="Value of 0/0 ratios.")
@click.option("--multilabel", is_flag=True,
              help="Gold cells are label sets (separated by --sep); use with --scores-prefix.")
@sep_option
@click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
              help="Format of both files (default: from the extensions; CSV for standard input, '-').")
@memory_option()
@slice_options
@engine_options
@reading_options
@output_options
def threshold(test: Path, **o: Any) -> None:
    """Choose a threshold on DEV and apply it to TEST, beside the default and the best-in-hindsight cut.

    The rule everywhere: an item is predicted positive iff its score >= threshold. The threshold reported
    is a score of the development file (the lowest score predicted positive at that cut). Without --dev
    only the default and the hindsight cut can be shown, and the hindsight cut is optimistic.

    With --score both files stream batch by batch, exactly, whatever their size: beyond --memory sorted
    score runs spill to disk and are merged (the output says when). So does --scores-prefix (one cut per
    label, one ranking each, sharing --memory); its TEST is read twice (standard input is kept for the second
    pass), the second time for the averages that need each item's predictions of every label.

    With --engine dask (one --score column; Parquet, CSV or TSV files) both rankings stay on the cluster, the
    score axis cut into ranges merged on the workers: the same numbers as the local run.
    """
    check_paths([("TEST", test), ("--dev", o["dev"])], [("--output", o["output"])])
    from clfeval.cli._common import reading_progress
    from clfeval.front import check_threshold_options, threshold as run

    (engine, fmt, output), dev = engine_and_output(o), o.pop("dev")
    check_threshold_options(test, dev, engine=engine, **o)
    t = input_path(test, input_format=o["input_format"], encoding=o["encoding"])
    d = None if dev is None else input_path(dev, "--dev", input_format=o["input_format"], encoding=o["encoding"])
    o.update(normalize=o.pop("normalize_labels"))
    slicing = slice_arguments(o)
    emit(run(t, dev=d, engine=engine, progress=reading_progress, **o, **slicing), fmt, output)
