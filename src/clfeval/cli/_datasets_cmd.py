"""``clfeval datasets``: fetch public data sets and export their subsets (``clfeval.text._fetch``, ``_export``)."""

from __future__ import annotations

from pathlib import Path

import click

from clfeval.cli._common import FiniteFloatRange, Group, check_paths, emit, message, output_options


@click.group(cls=Group)
def datasets() -> None:
    """Public data sets: download them, checked, for the studies (`clfeval reuters`); export their subsets."""


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

    The archive's SHA-256 must match the original's and it must hold the 22 SGML files with 21,578 stories; only then is
    it renamed into place, so a failed or interrupted download leaves nothing behind. A download larger than 32 MiB (the
    archive is 7.8 MiB) or slower than --deadline is stopped. An archive already in --dest is checked the same way.
    Prints where the archive is.
    """
    from clfeval.text import fetch_dataset

    result = fetch_dataset(name, dest, url=url, force=force, deadline=deadline, outputs=[("--output", output)])
    message(result.describe())
    emit(result, fmt, output)


@datasets.command("export")
@click.argument("name", type=click.Choice(["reuters21578"]))
@click.option("--archive", required=True, type=click.Path(path_type=Path), help="reuters21578.tar.gz or its folder.")
@click.option("--subset", required=True, type=click.Choice(["r8"]), help="r8: the 8 classes of `reuters` part 7.")
@click.option("--split", type=click.Choice(["train", "test", "all"]), default="all", show_default=True)
@click.option("--to", required=True, type=click.Path(dir_okay=False, path_type=Path), help="A .csv or .parquet file.")
@output_options
def export(name: str, archive: Path, subset: str, split: str, to: Path, fmt: str, output: Path | None) -> None:
    """Write a single-label subset of NAME (reuters21578) as a data file: id, text, label (and split)."""
    from clfeval.text import export_reuters

    check_paths([("--archive", archive)], [("--to", to), ("--output", output)])
    emit(export_reuters(archive, to, subset=subset, split=split), fmt, output)
