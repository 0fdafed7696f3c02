"""``clfeval demo [MODE]``: the worked examples, from data built into the package."""

from __future__ import annotations

from pathlib import Path

import click

from clfeval.cli._common import check_paths, emit, output_options


@click.command()
@click.argument("mode", required=False)
@output_options
def demo(mode: str | None, fmt: str, output: Path | None) -> None:
    """Run a worked example (no download). Without MODE, list the modes."""
    from clfeval.render import DemoList
    from clfeval.studies import demo_modes, run_demo

    check_paths([], [("--output", output)])
    emit(DemoList(demo_modes()) if mode is None else run_demo(mode), fmt, output)
