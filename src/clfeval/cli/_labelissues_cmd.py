"""``clfeval label-issues PATH``: which gold labels are likely wrong? One call of :func:`clfeval.label_issues`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, emit, input_path, output_options
from clfeval.cli._scale import engine_and_output, engine_options, help_note, memory_option


@click.command(epilog=help_note("label_issues"))
@click.argument("file", type=click.Path(path_type=Path), metavar="PATH")
@click.option("--gold", default="gold", show_default=True, help="Column of gold labels.")
@click.option("--id", "id_col", default=None, help="Column of item ids (default: 'id' when present); ties go by id.")
@click.option("--probs-prefix", default="p:", show_default=True, metavar="PREFIX",
              help="Out-of-sample probability columns PREFIX<class>, one per class; each row sums to 1.")
@click.option("--rank-by", type=click.Choice(["self_confidence", "normalized_margin"]), default="self_confidence",
              show_default=True, help="How the flagged items are ranked, lowest (likeliest error) first.")
@click.option("--flagged", type=click.Path(path_type=Path), default=None, metavar="OUT",
              help="Write every flagged item, ranked, to OUT (.csv or .parquet).")
@click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
              help="File format (default: from the extension; CSV for standard input, '-').")
@click.option("--encoding", type=click.Choice(["utf-8", "latin-1"]), default="utf-8", show_default=True,
              help="Text encoding of CSV, TSV and JSONL input.")
@memory_option("Memory budget (e.g. 512MB, default 1GiB): a PATH larger than it is read in three passes "
               "(thresholds, confident joint, the per-cell cut), with the same result.")
@engine_options
@output_options
def label_issues(file: Path, **o: Any) -> None:
    """Which gold labels are likely wrong? Confident learning from out-of-sample class probabilities.

    Northcutt, Jiang & Chuang (2021): per-class thresholds, the confident joint calibrated to the label counts,
    the noise matrix, the estimated number of label errors and the flagged items (prune by noise rate), each with
    its suggested label. The probabilities must be out-of-sample (`clfeval cv`'s out-of-fold predictions).
    """
    check_paths([("FILE", file)], [("--output", o["output"]), ("--flagged", o["flagged"])])
    from clfeval.front import check_flagged, label_issues as run, write_flagged

    flagged = check_flagged(o.pop("flagged"))
    engine, fmt, output = engine_and_output(o)
    r = run(input_path(file, input_format=o["input_format"], encoding=o["encoding"]), id=o.pop("id_col"),
            engine=engine, **o)
    write_flagged(r, flagged) if flagged is not None else None
    emit(r, fmt, output)
