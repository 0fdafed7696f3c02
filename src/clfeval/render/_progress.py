"""Progress bars of the command line (rich, imported when a bar is shown): on stderr when it is a terminal, else
silent. Kept beside the other renderers so that the command line holds option mapping only."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

from clfeval.core import shown

__all__ = ["progress", "reading_progress", "ticks"]


@contextlib.contextmanager
def progress(description: str, total: int | None = None, *, reading: Any = None) -> Iterator[Any]:
    """A progress bar on stderr when stderr is a terminal, else silent: yields ``advance(steps)``, or for a read
    (``reading``: the input) ``update(rows, bytes)`` (bytes, rows, rows per second; None when silent)."""
    if not sys.stderr.isatty():
        yield None if reading is not None else (lambda steps=1: None)
        return
    import time

    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeElapsedColumn

    columns = ([TextColumn("reading {task.description}"), BarColumn(), DownloadColumn(),
                TextColumn("{task.fields[rows]:,} rows"), TextColumn("{task.fields[rate]}")] if reading is not None
               else [TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}")])
    with Progress(*columns, TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        if reading is None:
            task = bar.add_task(description, total=total)
            yield lambda steps=1: bar.advance(task, steps)
            return
        task, start = bar.add_task(shown(reading.stem), total=max(reading.size, 1), rows=0, rate=""), time.monotonic()

        def update(rows: int, done: int) -> None:
            elapsed = time.monotonic() - start
            bar.update(task, completed=done, rows=rows, rate=f"{rows / elapsed:,.0f} rows/s" if elapsed > 0 else "")

        yield update


def reading_progress(inp: Any) -> Any:  # the progress bar of a read, as the library's progress= takes it
    return progress("", reading=inp)


def ticks(advance: Callable[[int], None]) -> Callable[..., None]:
    """A progress callback ``(done, total, ...)`` advancing a bar by the steps done since the last call."""
    last = [0]

    def tick(done: int, *_: Any) -> None:
        advance(done - last[0])
        last[0] = done

    return tick
