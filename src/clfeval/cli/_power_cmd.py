"""``clfeval power A_FILE [B_FILE]``: is my test set big enough? One call of :func:`clfeval.power`, rendered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, emit, output_options, reading_options
from clfeval.cli._decide import paired_file_options
from clfeval.cli._scale import engine_and_output, engine_options
from clfeval.errors import UsageError


@click.command()
@click.argument("files", nargs=-1, type=click.Path(path_type=Path), metavar="A_FILE [B_FILE]")
@click.option("--metric", "-m", default="accuracy", show_default=True,
              help="A count metric (`clfeval metrics --input counts`): accuracy, macro_f1, f1:LABEL, ...")
@click.option("--delta", type=float, default=None, metavar="D",
              help="Two files: the difference to detect; prints the number of items needed for it.")
@click.option("--width", type=float, default=None, metavar="W",
              help="One file: the interval width wanted; prints the number of items needed for it.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="Level of the test.")
@click.option("--power", type=float, default=0.8, show_default=True, help="The power wanted.")
@click.option("--alternative", type=click.Choice(["greater", "two-sided"]), default="greater", show_default=True,
              help="One-sided (H1: A better than B) or two-sided test.")
@click.option("--level", type=float, default=0.95, show_default=True, help="One file: level of the interval.")
@click.option("--samples", "-b", type=int, default=2000, show_default=True,
              help="Bootstrap replicates (bootstrap standard error, interval width).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Random seed.")
@click.option("--unit", default="items", show_default=True,
              help="What the items are called in the sentence (stories, tweets).")
@click.option("--gold", default="gold", show_default=True, help="Column of gold labels (the same in both files).")
@click.option("--pred", default="pred", show_default=True, help="Column of predicted labels.")
@paired_file_options
@reading_options
@engine_options
@output_options
def power(files: tuple[Path, ...], **o: Any) -> None:
    """Is the test set big enough? The smallest detectable difference, the items needed, interval widths.

    Two files (A and B on the same items): the smallest difference in --metric that the test set detects
    at --alpha with --power (exact McNemar for accuracy, error rate and the micro averages; the paired
    bootstrap standard error otherwise) and, with --delta, the number of items needed to detect it.
    One file: the width of the metric's interval now and, with --width, the number of items for that width.
    """
    if len(files) not in (1, 2):
        raise UsageError(f"power takes one predictions file (interval width) or two on the same items (A_FILE "
                         f"B_FILE: the detectable difference); got {len(files)}.")
    check_paths([("A_FILE", files[0]), ("B_FILE", files[1] if len(files) > 1 else None)], [("--output", o["output"])])
    if o["delta" if len(files) == 1 else "width"] is not None:  # in the words of the files
        raise UsageError("option --delta is the difference between two systems: give A_FILE and B_FILE (one file "
                         "answers --width)." if len(files) == 1 else "option --width is about one system's interval: "
                         "give one file (two files answer --delta).")
    from clfeval.front import power as run

    o.update(id=o.pop("id_col"), normalize=o.pop("normalize_labels"), memory=None)
    engine, fmt, output = engine_and_output(o)
    emit(run(*[str(f) for f in files], engine=engine, **o), fmt, output)
