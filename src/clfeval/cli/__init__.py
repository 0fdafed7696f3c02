"""The ``clfeval`` command line: parse options → call the library → render.

Every command takes ``--format text|json|markdown|html`` and ``--output PATH``, writes data to stdout (or the file)
and messages to stderr. Errors are one paragraph on stderr, no traceback (``--debug`` shows it); the exit codes are
:data:`clfeval.errors.EXIT_CODES` (0 success, 1 data, 2 usage or environment, 3 a gate not met, 70 a bug, 128 + N
after signal N).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from typing import Any

import click

from clfeval._version import __version__
from clfeval.cli._common import LazyGroup, message, option_names
from clfeval.errors import ClfevalError, GateNotMet, Interrupted

__all__ = ["cli", "main", "console_main"]

EX_SOFTWARE = 70  # sysexits.h: an internal software error


#: The commands, each imported when it runs: name → "module:attribute", one line a command.
COMMANDS = {
    "report": "clfeval.cli._report_cmd:report",
    "demo": "clfeval.cli._demo_cmd:demo",
    "compare": "clfeval.cli._compare_cmd:compare",
    "threshold": "clfeval.cli._threshold_cmd:threshold",
    "calibration": "clfeval.cli._calibration_cmd:calibration",
    "cv": "clfeval.cli._experiment_cmd:cv",
    "holdout": "clfeval.cli._experiment_cmd:holdout",
    "runs": "clfeval.cli._runs_cmd:runs",
    "reuters": "clfeval.cli._reuters_cmd:reuters",
    "datasets": "clfeval.cli._datasets_cmd:datasets",
    "plot": "clfeval.cli._plot_cmd:plot",
    "metrics": "clfeval.cli._metrics_cmd:metrics",
    "power": "clfeval.cli._power_cmd:power",
    "label-issues": "clfeval.cli._labelissues_cmd:label_issues",
    "errors": "clfeval.cli._errors_cmd:errors",
    "rank": "clfeval.cli._rank_cmd:rank",
}

#: The first paragraph of each command's help, for `clfeval --help` without importing the commands (a test
#: checks them against the commands' own help).
SUMMARIES = {
    "report": "Score a predictions file: confusion matrix, per-class table, averages, baselines, diagnostics.",
    "demo": "Run a worked example (no download). Without MODE, list the modes.",
    "compare": "Is the difference real? Compare systems on the same test items with a paired test.",
    "threshold": "Choose a threshold on DEV and apply it to TEST, beside the default and the best-in-hindsight cut.",
    "calibration": "Reliability table, ECE, MCE, Brier score and log loss of predicted probabilities.",
    "cv": "k-fold cross-validation of a text model on DATA (CSV, TSV, JSONL or Parquet).",
    "holdout": "Holdout evaluation of a text model on DATA: train/test or train/validation/test, optionally repeated.",
    "runs": "Query the run log: every cv / holdout run with its settings, seed, metrics and predictions.",
    "reuters": "Re-run the Reuters-21578 reference study (ModApte split) and print it beside the published numbers.",
    "datasets": "Public data sets: download them, checked, for the studies (`clfeval reuters`); export their subsets.",
    "plot": "Draw one figure from RESULT, the JSON output of a clfeval command (nothing is recomputed).",
    "metrics": "List every metric: name, tasks, whether higher is better, range, formula, definition, undefined case.",
    "power": "Is the test set big enough? The smallest detectable difference, the items needed, interval widths.",
    "label-issues": "Which gold labels are likely wrong? Confident learning from out-of-sample class probabilities.",
    "errors": "Read the errors: for every off-diagonal cell gold → predicted with --min-count documents, largest "
              "first, its count and share of gold, the opposite cell, examples (bottom-k by a BLAKE2b hash keyed by "
              "--seed: the same however the input is split), and the terms over-represented in the mistakes against "
              "the correctly classified gold documents and against the correctly classified predicted ones (weighted "
              "log-odds ratio with an informative Dirichlet prior; z-scores uncorrected).",
    "rank": "Which of k systems over N data sets are better, which are indistinguishable, and how sure?",
}


@click.group(cls=LazyGroup, lazy=COMMANDS, summaries=SUMMARIES, context_settings={"help_option_names": ["-h", "--help"],
                                                             "max_content_width": 100})
@click.version_option(__version__, prog_name="clfeval")
@click.option("--debug", is_flag=True, help="Show the traceback of an error (to report a bug).")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """clfeval: how good is your classifier really, and does it really beat the other one?

    Try `clfeval demo` for the worked examples, `clfeval report FILE` for a predictions file.
    """
    if isinstance(ctx.obj, dict):
        ctx.obj["debug"] = debug


def _register() -> None:
    """Import every command now (tests that walk ``cli.commands``)."""
    cli.load_all()


#: Signals that end a run cleanly (temporary files and spill directories removed, no output): SIGTERM, SIGHUP (a
#: closed terminal, a dropped ssh session) and SIGQUIT; they exit 128 + the signal's number (143, 129, 131).
_HANDLED = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, name))


def _on_sigterm(signum: int, _frame: Any) -> None:
    raise Interrupted(signum)


def _interrupted(name: str, code: int) -> int:
    message(f"clfeval: interrupted by {name}.")
    return code


def _bug(exc: BaseException, state: dict[str, Any]) -> int:
    where = f" in `{state['command_path']}`" if state.get("command_path") else ""
    text = str(exc).strip().replace("\n", " ")
    message(f"clfeval: internal error{where}: {type(exc).__name__}{': ' + text.rstrip('.') if text else ''}; this is "
            f"a bug in clfeval: please report it, with the command line and the traceback that `clfeval --debug ...` "
            f"shows.")
    return EX_SOFTWARE


def _run(argv: list[str] | None, state: dict[str, Any]) -> int:
    """Run one command line; every outcome becomes an exit code and at most one paragraph on stderr."""
    try:
        rv = cli.main(args=argv, prog_name="clfeval", standalone_mode=False, obj=state)
        try:
            sys.stdout.flush()
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            from clfeval.io import outputs

            raise outputs.stdout_error(exc) from None
        return rv if isinstance(rv, int) else 0
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            return _interrupted("SIGINT", 130)
        message("clfeval: aborted.")
        return 1
    except KeyboardInterrupt:
        return _interrupted("SIGINT", 130)
    except Interrupted as exc:
        return _interrupted(signal.Signals(exc.signum).name, exc.exit_code)
    except BrokenPipeError:
        sys.stdout = None  # nothing more can reach the reader that left
        return 1
    except Exception as exc:
        return _failed(exc, state)


def _failed(exc: Exception, state: dict[str, Any]) -> int:
    """A failure said in one paragraph (with ``--debug`` after its traceback, but for a gate not met): clfeval's own
    errors by their message, the environment's (a file, the disk) by the system's reason, anything else a bug."""
    if isinstance(exc, GateNotMet):
        message(f"clfeval: gate not met: {exc.with_names(option_names(state.get('command')))}")
        return exc.exit_code
    if state.get("debug"):
        import traceback  # only with --debug

        traceback.print_exc()
    if isinstance(exc, ClfevalError):
        message(f"clfeval: error: {exc.with_names(option_names(state.get('command')))}")
        return exc.exit_code
    if isinstance(exc, OSError):  # the environment said no where no message was prepared
        from clfeval.io import os_reason

        message(f"clfeval: error: {f'{exc.filename!r}: ' if exc.filename else ''}{os_reason(exc)}.")
        return 2
    return _bug(exc, state)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script: maps every outcome to an exit code, without tracebacks. SIGTERM, SIGHUP
    and SIGQUIT raise :class:`~clfeval.errors.Interrupted` while the command runs (SIGINT stays
    :class:`KeyboardInterrupt`), so that temporary files are removed on the way out; they exit 143, 129, 131, 130."""
    state: dict[str, Any] = {"debug": False, "command": None, "command_path": None}
    main_thread = threading.current_thread() is threading.main_thread()
    previous = {sig: signal.signal(sig, _on_sigterm) for sig in _HANDLED} if main_thread else {}
    try:
        try:
            code = _run(argv, state)
        except KeyboardInterrupt:  # a second signal while the first was being reported
            code = 130
        except Interrupted as exc:
            code = exc.exit_code
        except Exception as exc:  # raised while an error was being reported: still one paragraph, exit 70
            if state.get("debug"):
                import traceback

                traceback.print_exc()
            code = _bug(exc, state)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
    sys.exit(code)


def console_main() -> None:
    """The ``clfeval`` program: :func:`main` (pyarrow kept from importing pandas behind its back:
    :mod:`clfeval.core._nopandas`), then leave without the interpreter's teardown. Every output is written and
    flushed, and every temporary file removed, by the time :func:`main` returns; what remains of a normal exit is
    the interpreter tearing down extension modules, where pyarrow's thread pools can abort the process ("terminate
    called without an active exception", exit 134; apache/arrow#34314). ``os._exit`` skips that teardown, so the
    exit code is always the command's."""
    import os

    from clfeval.core import nopandas

    nopandas.install()
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader that left, a full disk: the code says it all
            if stream is not None:
                stream.flush()
    os._exit(code)
