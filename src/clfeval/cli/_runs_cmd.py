"""``clfeval runs``: query the run log — list, show, best, ablation, check, compare."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import DEFAULT_RUNS_DB, Group, emit, existing_file, message, output_options, stack
from clfeval.protocols import file_hash, query_run_log

_ONLY = "Only runs on this data file (by content)."


def _query(data: str | None = None) -> Any:
    """``--runs-db``, ``--data`` (with this help; none without) and the output options, of a query."""
    return stack(click.option("--runs-db", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_RUNS_DB,
                              show_default=True, help="The run log (SQLite)."),
                 *([click.option("--data", type=click.Path(path_type=Path), default=None, help=data)] if data else []),
                 output_options)


def _data_hash(data: Path | None) -> str | None:
    return None if data is None else file_hash(existing_file(data, "--data"))


@click.group(cls=Group)
def runs() -> None:
    """Query the run log: every cv / holdout run with its settings, seed, metrics and predictions."""


@runs.command("list")
@_query(_ONLY)
def list_runs(runs_db: Path, data: Path | None, fmt: str, output: Path | None) -> None:
    """Every recorded run, oldest first."""
    emit(query_run_log(runs_db, output=output, data=data).runs(data_hash=_data_hash(data)), fmt, output)


@runs.command("show")
@click.argument("run_id", type=int)
@_query()
def show(run_id: int, runs_db: Path, fmt: str, output: Path | None) -> None:
    """One run in full: settings, protocol, seed, versions, per-fold and summary metrics."""
    emit(query_run_log(runs_db, output=output).get(run_id), fmt, output)


@runs.command("best")
@click.option("--metric", required=True, help="Metric name, e.g. macro_f1, accuracy, f1:LABEL.")
@_query(_ONLY)
def best(metric: str, runs_db: Path, data: Path | None, fmt: str, output: Path | None) -> None:
    """The best run on each data set by the metric's mean over folds."""
    emit(query_run_log(runs_db, output=output, data=data).best(metric, data_hash=_data_hash(data)), fmt, output)


@runs.command("ablation")
@click.option("--metric", required=True, help="Metric name, e.g. macro_f1.")
@click.option("--base", type=int, default=None, help="The base run (default: the best run by --metric).")
@_query("Without --base: take the best run on this data file (default: on the data of the latest run).")
def ablation(metric: str, base: int | None, runs_db: Path, data: Path | None, fmt: str, output: Path | None) -> None:
    """One factor at a time: runs on the same data that differ from the base run in exactly one setting.

    Worse runs are listed too: an ablation log that keeps only improvements hides what was tried.
    """
    log = query_run_log(runs_db, output=output, data=data)
    emit(log.ablation(metric, base=base, data_hash=_data_hash(data)), fmt, output)


@runs.command("check")
@click.option("--submitted", type=int, required=True, help="The id of the run you submit.")
@click.option("--metric", required=True, help="Metric name, e.g. macro_f1.")
@_query()
@click.pass_context
def check(ctx: click.Context, submitted: int, metric: str, runs_db: Path, fmt: str, output: Path | None) -> None:
    """Exit 1, saying why, unless the submitted run is the best row among the runs on its data."""
    result = query_run_log(runs_db, output=output).check(submitted, metric)
    emit(result, fmt, output)
    if not result.passed:
        message(f"clfeval: check failed: {result.message}")
        ctx.exit(1)


@runs.command("compare")
@click.argument("run_a", type=int)
@click.argument("run_b", type=int)
@click.option("--metric", default="macro_f1", show_default=True,
              help="A metric both runs recorded per fold (macro_f1, accuracy, f1:LABEL with cv --metric, ...).")
@click.option("--samples", "-b", type=int, default=10_000, show_default=True,
              help="Replicates of the paired bootstrap on the pooled out-of-fold predictions.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the bootstrap.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="Significance level of the verdict.")
@click.option("--ci", "ci_level", type=float, default=0.95, show_default=True, help="Level of the intervals.")
@click.option("--gate", is_flag=True, help="Exit 3 unless the corrected resampled t-test says RUN_A is better.")
@_query()
def compare(run_a: int, run_b: int, metric: str, samples: int, seed: int, alpha: float, ci_level: float, gate: bool,
            runs_db: Path, fmt: str, output: Path | None) -> None:
    """Is RUN_A better than RUN_B? Two runs on the same data and folds, compared fold by fold.

    Refused, saying why, unless the runs share the data, the protocol, the seed and so the folds (checked
    item by item from their out-of-fold predictions). Prints the per-fold differences, Nadeau and Bengio's
    corrected resampled t-test, Dietterich's 5x2cv test (for 5 repeats of 2 folds) and the paired bootstrap
    of the pooled out-of-fold predictions side by side, with one sentence saying which to believe.
    """
    from clfeval.cli._decide import gate_exit
    from clfeval.core import check_probability, check_samples
    from clfeval.protocols import compare_runs

    check_samples(samples, option="--samples")
    check_probability(alpha, option="--alpha")
    check_probability(ci_level, option="--ci")
    result = compare_runs(query_run_log(runs_db, output=output), run_a, run_b, metric=metric, samples=samples,
                          seed=seed, alpha=alpha, level=ci_level)
    emit(result, fmt, output)
    gate_exit(result, gate)
