"""Options for large inputs: ``--memory``, ``--score-bins`` / ``--score-binning``, ``--engine`` / ``--scheduler``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from clfeval.cli._common import FiniteFloatRange, stack

__all__ = ["memory_option", "score_bin_options", "engine_options", "engine_and_output", "help_note"]

MEMORY_HELP = ("Memory budget of the rankings (e.g. 512MB, 2GiB; default 1GiB): beyond it, sorted score runs spill "
               "to a temporary directory and are merged, exactly; the output says when they did.")


def memory_option(help: str = MEMORY_HELP) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--memory SIZE``: the budget that decides when rankings (and id joins) spill to disk."""
    return click.option("--memory", "memory", default=None, metavar="SIZE", help=help, callback=_keep_memory)


def _keep_memory(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Keep the budget for the readers (the largest CSV block: min(256 MiB, --memory / 4)); a bad value is
    refused later, by the command (check_memory)."""
    from clfeval.core import parse_memory

    if value is not None:
        try:
            ctx.meta["clfeval.memory"] = parse_memory(value)
        except Exception:  # noqa: BLE001 - refused with its own message by check_memory
            pass
    return value


#: ``--score-bins N`` and ``--score-binning uniform|quantile``: the opt-in binned (approximate) ranking.
score_bin_options = stack(
    click.option("--score-bins", "score_bins", type=click.IntRange(min=2, max=1_000_000), default=None, metavar="N",
                 help="Approximate ROC-AUC from N score bins (2 to 1,000,000), with its exact error bound printed "
                      "beside it; AP and the curves at the bin edges. Default: exact."),
    click.option("--score-binning", type=click.Choice(["uniform", "quantile"]), default="quantile", show_default=True,
                 help="Edges of --score-bins: equal widths over the score range, or the quantiles of the scores (a "
                      "first pass over the input)."))

#: ``--engine local|dask``, ``--scheduler ADDRESS`` and ``--connect-timeout SECONDS``.
engine_options = stack(
    click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                 help="local: stream the PATHs on this machine; dask: map their partitions on a Dask cluster (needs "
                      "the dask extra; every format and reading option of the local engine)."),
    click.option("--scheduler", default=None, metavar="ADDRESS",
                 help="With --engine dask: the Dask scheduler to run on (e.g. tcp://10.0.0.5:8786); default a "
                      "LocalCluster on 127.0.0.1 with one worker per core, closed at the end."),
    click.option("--connect-timeout", "connect_timeout", type=FiniteFloatRange(min=0.1, max=3600), default=10.0,
                 show_default=True, metavar="SECONDS",
                 help="With --scheduler: seconds to reach the scheduler before it is called unreachable (exit 2)."))


def engine_and_output(o: dict[str, Any]) -> tuple[Any, str, Any]:
    """Popped from a command's options ``o``: ``--engine``, ``--scheduler``, ``--memory`` and ``--connect-timeout``
    as the library's engine value (:func:`clfeval.engines.from_options`: checked there, before any work), then
    ``--format`` and ``--output``."""
    from clfeval.engines import from_options

    engine = from_options(o.pop("engine"), scheduler=o.pop("scheduler"), memory=o.pop("memory"),
                          connect_timeout=o.pop("connect_timeout"))
    return engine, o.pop("fmt"), o.pop("output")


def help_note(operation: str) -> str:
    """The ``--help`` note of a command's options the Dask engine does not run (from the capability table)."""
    from clfeval.engines import help_note as note

    return note(operation)
