"""The ``clfeval`` command line: parse options → call the library → render.

Every command takes ``--format text|json|markdown`` and ``--output PATH``,
writes data to stdout (or the file) and messages to stderr. Errors are one
paragraph on stderr, no traceback: exit 2 for usage errors the command line
alone shows, 1 for problems found in the data.
"""

from __future__ import annotations

import sys

import click

from clfeval._version import __version__
from clfeval.errors import ClfevalError

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="clfeval")
def cli() -> None:
    """clfeval: how good is your classifier really, and does it really beat the other one?

    Try `clfeval demo` for the worked examples, `clfeval report FILE` for a predictions file.
    """


def _register() -> None:
    from clfeval.cli.compare_cmd import compare
    from clfeval.cli.calibration_cmd import calibration
    from clfeval.cli.datasets_cmd import datasets
    from clfeval.cli.demo_cmd import demo
    from clfeval.cli.experiment_cmd import cv, holdout
    from clfeval.cli.metrics_cmd import metrics
    from clfeval.cli.report_cmd import report
    from clfeval.cli.reuters_cmd import reuters
    from clfeval.cli.runs_cmd import runs
    from clfeval.cli.threshold_cmd import threshold

    cli.add_command(report)
    cli.add_command(demo)
    cli.add_command(compare)
    cli.add_command(threshold)
    cli.add_command(calibration)
    cli.add_command(cv)
    cli.add_command(holdout)
    cli.add_command(runs)
    cli.add_command(reuters)
    cli.add_command(datasets)
    cli.add_command(metrics)


_register()


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script: maps errors to exit codes without tracebacks."""
    try:
        rv = cli.main(args=argv, prog_name="clfeval", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("clfeval: aborted.", err=True)
        sys.exit(1)
    except ClfevalError as exc:
        click.echo(f"clfeval: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        try:
            sys.stdout = None  # type: ignore[assignment]
        finally:
            sys.exit(1)
    except KeyboardInterrupt:
        click.echo("clfeval: interrupted.", err=True)
        sys.exit(130)
    sys.exit(rv if isinstance(rv, int) else 0)
