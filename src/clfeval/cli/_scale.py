"""Options for large inputs: ``--memory``, ``--score-bins`` / ``--score-binning``, ``--engine`` / ``--scheduler``."""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator

import click

from clfeval.errors import MissingExtra, UsageError

__all__ = ["memory_option", "score_bin_options", "engine_options", "check_memory", "check_engine", "dask_client",
           "dask_paths"]

MEMORY_HELP = ("Memory budget of the rankings (e.g. 512MB, 2GiB; default 1GiB): beyond it, sorted score runs spill "
               "to a temporary directory and are merged, exactly; the output says when they did.")


def memory_option(help: str = MEMORY_HELP) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--memory SIZE``: the budget that decides when rankings (and id joins) spill to disk."""
    return click.option("--memory", "memory", default=None, metavar="SIZE", help=help, callback=_keep_memory)


def _keep_memory(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Keep the budget for the readers (the largest CSV block: min(256 MiB, --memory / 4)); a bad value is
    refused later, by the command (check_memory)."""
    from clfeval.scores.external import parse_memory

    if value is not None:
        try:
            ctx.meta["clfeval.memory"] = parse_memory(value)
        except Exception:  # noqa: BLE001 - refused with its own message by check_memory
            pass
    return value


def score_bin_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--score-bins N`` and ``--score-binning uniform|quantile``: the opt-in binned (approximate) ranking."""
    f = click.option("--score-binning", type=click.Choice(["uniform", "quantile"]), default="quantile",
                     show_default=True, help="Edges of --score-bins: equal widths over the score range, or the "
                                             "quantiles of the scores (a first pass over the input).")(f)
    f = click.option("--score-bins", "score_bins", type=click.IntRange(min=2, max=1_000_000), default=None,
                     metavar="N", help="Approximate ROC-AUC from N score bins (2 to 1,000,000), with its exact error "
                                       "bound printed beside it; AP and the curves at the bin edges. Default: exact.")(f)
    return f


def _keep_timeout(ctx: click.Context, param: click.Parameter, value: float) -> float:
    ctx.meta["clfeval.connect_timeout"] = value
    return value


def engine_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--engine local|dask``, ``--scheduler ADDRESS`` and ``--connect-timeout SECONDS``."""
    f = click.option("--connect-timeout", "connect_timeout", type=click.FloatRange(min=0.1, max=3600), default=10.0,
                     show_default=True, expose_value=False, callback=_keep_timeout, metavar="SECONDS",
                     help="With --scheduler: seconds to reach the scheduler before it is called unreachable "
                          "(exit 2).")(f)
    f = click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="With --engine dask: the Dask scheduler to run on (e.g. tcp://10.0.0.5:8786); default a "
                          "LocalCluster on 127.0.0.1 with one worker per core, closed at the end.")(f)
    f = click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help="local: stream the PATHs on this machine; dask: map their partitions on a Dask cluster "
                          "(needs the dask extra; every format and reading option of the local engine).")(f)
    return f


def check_memory(memory: str | None) -> int:
    """The budget in bytes (``--memory``; the library's default when not given)."""
    from clfeval.scores.external import DEFAULT_MEMORY, parse_memory

    return DEFAULT_MEMORY if memory is None else parse_memory(memory)


def check_engine(engine: str, scheduler: str | None, refused: dict[str, bool] | None = None) -> bool:
    """Whether the Dask engine runs; ``--scheduler`` needs it, and options it cannot honour are refused
    (``refused``: option text → given?). The dask extra is checked here, before any work."""
    if engine != "dask":
        if scheduler is not None:
            raise UsageError(f"option --scheduler {scheduler!r} names a Dask scheduler, which only --engine dask "
                             f"uses; add --engine dask, or leave --scheduler out to run locally.")
        return False
    given = [opt for opt, on in (refused or {}).items() if on]
    if given:
        raise UsageError(f"--engine dask does not run {', '.join(given)} (the Dask engine counts tables, exact "
                         f"rankings of one score column and binned scores); run without --engine dask for "
                         f"{'it' if len(given) == 1 else 'them'}.")
    MissingExtra.require("--engine dask", [("dask", "dask"), ("distributed", "dask.distributed"),
                                          ("dask.dataframe", "dask.dataframe")], "dask")
    if scheduler is not None:
        from clfeval.dask.parts import check_address

        check_address(scheduler)
    return True


@contextlib.contextmanager
def dask_client(scheduler: str | None) -> Iterator[Any]:
    """A client of the scheduler at ``scheduler``, or of a LocalCluster on 127.0.0.1 closed on exit."""
    from clfeval.dask.parts import CONNECT_TIMEOUT, connect

    ctx = click.get_current_context(silent=True)
    timeout = ctx.meta.get("clfeval.connect_timeout", CONNECT_TIMEOUT) if ctx is not None else CONNECT_TIMEOUT
    import logging

    # a lost cluster is said in one paragraph (exit 2): Dask's own reconnection errors and their tracebacks are
    # not shown on top of it
    quiet = [logging.getLogger(name) for name in ("distributed.client", "distributed.utils", "distributed.core")]
    levels = [q.level for q in quiet]
    for q in quiet:
        q.setLevel(logging.CRITICAL)
    try:
        with connect(scheduler, connect_timeout=timeout) as client:
            yield client
    finally:
        for q, level in zip(quiet, levels):
            q.setLevel(level)


def dask_paths(inp: Any, option: str) -> Any:
    """A resolved PATH for the Dask engine (its workers read its files; standard input cannot be)."""
    if inp.kind == "stdin":
        raise UsageError(f"{option} is '-' (standard input), which Dask workers cannot read; give a file, a directory "
                         f"or a glob pattern with --engine dask.")
    return inp
