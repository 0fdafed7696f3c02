"""Shared options and output plumbing of the command line."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import click

from clfeval.errors import InputFileError, UsageError

__all__ = ["output_options", "input_options", "emit", "progress", "existing_file", "parse_list", "message", "check_outputs"]


def output_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--format text|json|markdown`` and ``--output PATH`` (written atomically)."""
    f = click.option("--output", "-o", "output", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Write the result to this file (atomically: temporary file, then rename) instead of stdout.")(f)
    f = click.option("--format", "-f", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text",
                     show_default=True, help="Output format: text (tables), json (the stable machine interface) or markdown.")(f)
    return f


def input_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Column names and format of a predictions file."""
    opts = [
        click.option("--gold", default="gold", show_default=True, help="Column of gold (true) labels."),
        click.option("--pred", default="pred", show_default=True, help="Column of predicted labels."),
        click.option("--id", "id_col", default=None, help="Column of item ids (default: 'id' when present)."),
        click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
                     help="File format (default: from the extension)."),
        click.option("--multilabel", is_flag=True, help="Each cell is a set of labels (separated by --sep; JSON arrays in JSONL)."),
        click.option("--sep", default="|", show_default=True, help="Separator of labels within a multi-label cell."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def existing_file(path: str | Path, option: str | None = None) -> Path:
    """A path that must exist: missing files are usage errors (exit 2) that name the file."""
    p = Path(path)
    where = f" (option {option})" if option else ""
    if not p.exists():
        raise InputFileError(f"file {str(p)!r}{where} does not exist.")
    if p.is_dir():
        raise InputFileError(f"{str(p)!r}{where} is a directory; expected a file.")
    return p


def parse_list(text: str | None) -> list[str] | None:
    """A comma-separated option value as a list (``None`` stays ``None``)."""
    if text is None:
        return None
    items = [x.strip() for x in text.split(",")]
    return [x for x in items if x != ""]


def message(text: str) -> None:
    """A message for the user: stderr, never mixed with data on stdout."""
    click.echo(text, err=True)


def emit(result: Any, fmt: str, output: Path | None, *, width: int | None = None) -> None:
    """Render ``result`` and write it to ``output`` (atomically) or stdout.

    Text goes to a terminal with rich's colours; piped or written to a file
    it is plain text.
    """
    from clfeval.io import atomic_write_text
    from clfeval.render import print_renderables, render, renderables

    if fmt == "text" and output is None and sys.stdout.isatty():
        from rich.console import Console

        print_renderables(Console(highlight=False), renderables(result))
        return
    text = render(result, fmt, width=width or 120)
    if output is not None:
        atomic_write_text(output, text)
        message(f"wrote {output}")
    else:
        click.echo(text, nl=False)


@contextlib.contextmanager
def progress(description: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr when stderr is a terminal; otherwise silent.

    Yields ``advance(steps)``.
    """
    if not sys.stderr.isatty():
        yield lambda steps=1: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda steps=1: bar.advance(task, steps)


def iterate_with_progress(items: Iterable[Any], description: str, total: int | None = None) -> Iterator[Any]:
    """Iterate, advancing a stderr progress bar (terminal only)."""
    with progress(description, total) as advance:
        for x in items:
            yield x
            advance(1)


def check_outputs(predictions_out: Path | None, output: Path | None) -> None:
    """Refuse a bad output path before a long run, not after it."""
    from clfeval.io import detect_format

    for p, opt in ((predictions_out, "--predictions"), (output, "--output")):
        if p is None:
            continue
        if p.exists() and p.is_dir():
            raise UsageError(f"option {opt} names a directory ({str(p)!r}); give a file name.")
        parent = p.parent if str(p.parent) else Path(".")
        if not parent.is_dir():
            raise UsageError(f"option {opt}: the directory {str(parent)!r} does not exist.")
    if predictions_out is not None:
        try:
            detect_format(predictions_out)
        except UsageError:
            raise UsageError(f"option --predictions: cannot tell the format of {str(predictions_out)!r} from its "
                             f"extension; use .csv, .tsv, .jsonl or .parquet.") from None
