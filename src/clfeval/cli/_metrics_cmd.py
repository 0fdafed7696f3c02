"""``clfeval metrics``: every metric clfeval reports — name, tasks, direction, formula, undefined case."""

from __future__ import annotations

from pathlib import Path

import click

from clfeval.cli._common import emit, output_options


@click.command()
@click.option("--input", "input_kind", type=click.Choice(["counts", "ranking", "probabilities"]), default=None,
              help="Only the metrics computed from this input.")
@click.option("--task", type=click.Choice(["binary", "multiclass", "multilabel", "ordinal"]), default=None,
              help="Only the metrics that apply to this kind of task.")
@output_options
def metrics(input_kind: str | None, task: str | None, fmt: str, output: Path | None) -> None:
    """List every metric: name, tasks, whether higher is better, range, formula, definition, undefined case.

    The JSON form (--format json) is the catalogue as data, with where each metric sits in a report's JSON.
    """
    from clfeval.core import catalogue

    emit(catalogue(input=input_kind, task=task), fmt, output)
