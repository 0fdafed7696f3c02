"""``clfeval datasets``: download the public data sets clfeval's studies read
(:func:`clfeval.text._fetch.fetch_dataset`)."""

from __future__ import annotations

from pathlib import Path

import click

from clfeval.cli._common import FiniteFloatRange, Group, emit, message, output_options


@click.group(cls=Group)
def datasets() -> None:
    """Public data sets: download them, checked, for the studies (`clfeval reuters`)."""


@datasets.command("fetch")
@click.argument("name", type=click.Choice(["reuters21578"]))
@click.option("--dest", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True,
              help="Directory to store the archive in (created if missing).")
@click.option("--url", default=None, help="Download from here instead of the UCI KDD archive (http, https or file "
                                          "URL); the copy must still pass the checks.")
@click.option("--force", is_flag=True, help="Download again even if the archive is already in --dest.")
@click.option("--deadline", type=FiniteFloatRange(min=0, min_open=True), default=600, show_default=True,
              metavar="SECONDS", help="Give up when the whole download takes longer than this.")
@output_options
def fetch(name: str, dest: Path, url: str | None, force: bool, deadline: float, fmt: str, output: Path | None) -> None:
    """Download NAME (reuters21578: the original Reuters-21578 Distribution 1.0) and check it.

    The archive's SHA-256 must match the original's and it must hold the 22
    SGML files with 21,578 stories; only then is it renamed into place, so a
    failed or interrupted download leaves nothing behind. A download larger
    than 32 MiB (the archive is 7.8 MiB) or slower than --deadline is stopped.
    An archive already in --dest is checked the same way. Prints where the
    archive is.
    """
    from clfeval.text import fetch_dataset

    result = fetch_dataset(name, dest, url=url, force=force, deadline=deadline, outputs=[("--output", output)])
    message(f"downloaded {result.url} to {result.path}" if result.downloaded else f"{result.path} is already there "
            f"and passed the checks; not downloaded again (use --force to replace it).")
    emit(result, fmt, output)
