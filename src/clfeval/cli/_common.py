"""Shared options and output plumbing of the command line."""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import click

from clfeval.core import shown
from clfeval.core.lazy import LazyDict
from clfeval.render import progress, reading_progress, ticks

__all__ = ["Group", "LazyGroup", "option_names", "output_options", "input_options", "reading_options", "sep_option",
           "check_paths", "FiniteFloatRange", "stack", "emit", "finish_run", "progress", "ticks", "where_recorded",
           "DEFAULT_RUNS_DB", "reading_progress", "existing_file", "input_path", "parse_list", "message"]

# Library parameter names whose option is not named after them: the first option the command has wins.
_ALIASES = {"objective": ("--objective", "--tune-threshold"), "dest_dir": ("--dest",)}


class Group(click.Group):
    """A command group that notes which command runs, so that its errors can use the command's option names."""

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None and isinstance(ctx.obj, dict):
            ctx.obj.update(command=cmd, command_path=f"{ctx.command_path} {name}")
        return name, cmd, rest


class LazyGroup(Group):
    """A group whose subcommands are imported when they run (or when their help is shown): ``lazy`` maps each name
    to ``"module:attribute"``, so that ``clfeval --version`` and each command import only what they use."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, summaries: dict[str, str] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands: LazyDict[click.Command] = LazyDict(dict(lazy or {}))
        self.summaries = dict(summaries or {})

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands of ``--help``: click's, from ``summaries`` (each command's first paragraph) when
        every command has one, so that the help imports no command."""
        names = self.list_commands(ctx)
        if not names or any(n not in self.summaries or dict.__contains__(self.commands, n) for n in names):
            return super().format_commands(ctx, formatter)  # a command added or already imported: click's way
        from gettext import gettext as _  # as click's own texts

        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = [(n, click.Command(n, help=self.summaries[n]).get_short_help_str(limit)) for n in names]
        with formatter.section(_("Commands")):
            formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*dict.keys(self.commands), *self.commands.lazy})

    def get_command(self, ctx: click.Context | None, cmd_name: str) -> click.Command | None:
        return self.commands[cmd_name] if cmd_name in self.commands else None

    def load_all(self) -> None:
        """Import every command (``self.commands`` then holds them all)."""
        self.commands._all()


def option_names(command: click.Command | None) -> dict[str, str]:
    """Library parameter name → the command's option (``dev_size`` → ``--dev-size``, ``ci`` → ``--ci``): errors name
    the library's parameters, the command line shows them by its options (``ClfevalError.with_names``)."""
    names: dict[str, str] = {}
    options = [p for p in (command.params if command is not None else []) if isinstance(p, click.Option) and p.opts]
    for p in options:
        long = [o for o in p.opts if o.startswith("--")]
        if p.name and long:
            names.setdefault(p.name, long[0])
        for o in long:
            names.setdefault(o[2:].replace("-", "_"), o)
    have = {o for p in options for o in p.opts}
    for name, candidates in _ALIASES.items():
        found = [c for c in candidates if c in have]
        if found and name not in names:
            names[name] = found[0]
    return names


def check_paths(inputs: Iterable[tuple[str, Any]] = (), outputs: Iterable[tuple[str, Any] | Any] = ()) -> Any:
    """Before any long work: resolve every output and refuse one that would destroy an input or another output
    (:func:`clfeval.io._outputs.check_paths`)."""
    from clfeval.io import check_paths as check

    return check(inputs, outputs)


def stack(*options: Callable[[Callable[..., Any]], Callable[..., Any]]) -> Callable[[Callable[..., Any]], Any]:
    """Several options as one decorator, listed in the order ``--help`` shows them."""
    def apply(f: Callable[..., Any]) -> Any:
        for option in reversed(options):
            f = option(f)
        return f

    return apply


def output_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--format text|json|markdown|html`` (default: from ``--output``'s extension, else text) and
    ``--output PATH`` (written atomically); the format is resolved (:func:`clfeval.io._outputs.output_format`)."""
    import functools

    from clfeval.io import outputs

    @functools.wraps(f)
    def resolved(*args: Any, **kwargs: Any) -> Any:
        kwargs["fmt"] = outputs.output_format(kwargs.get("fmt"), kwargs.get("output"))
        if kwargs["fmt"] == "html":
            from clfeval.render.html.document import check_installed

            check_installed()
        return f(*args, **kwargs)

    return stack(
        click.option("--format", "-f", "fmt", type=click.Choice(list(outputs.FORMATS)), default=None,
                     help="Output format: text (tables), json (the stable machine interface), markdown, or html "
                          "(one self-contained page with figures; needs the html extra). Default: from the "
                          f"--output extension ({outputs.EXTENSIONS_TEXT}; another extension needs --format, which "
                          "then accepts any name), text without --output; a --format that contradicts the extension "
                          "is refused."),
        click.option("--output", "-o", "output", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Write the result to this file (atomically: temporary file, then rename) instead of "
                          "stdout; its extension names the format (see --format)."))(resolved)


class FiniteFloatRange(click.FloatRange):
    """click's ``FloatRange`` that also refuses nan and ±inf, for every float option with bounds: click's bounds let
    NaN through (every comparison with NaN is false) and, without a maximum, infinity (``--deadline nan``)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value} is not a finite number.", param, ctx)
        return number


def check_sep(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if value == "":
        raise click.BadParameter("the separator of labels within a multi-label cell must not be empty "
                                 "(for example --sep '|').", ctx=ctx, param=param)
    return value


#: ``--sep``: the separator of labels within a multi-label cell (never empty).
sep_option = click.option("--sep", default="|", show_default=True, callback=check_sep,
                          help="Separator of labels within a multi-label cell.")


#: ``--encoding`` and ``--normalize-labels``: how the text of input files is read.
reading_options = stack(
    click.option("--encoding", type=click.Choice(["utf-8", "latin-1"]), default="utf-8", show_default=True,
                 help="Text encoding of CSV, TSV and JSONL input (Parquet text is always UTF-8)."),
    click.option("--normalize-labels", "normalize_labels", type=click.Choice(["nfc"]), default=None,
                 help="Unicode-normalise text labels (NFC) so that labels that only print alike (é as one code "
                      "point or e + combining accent) are one class."))

#: Column names and format of a predictions file.
input_options = stack(
    click.option("--gold", default="gold", show_default=True, help="Column of gold (true) labels."),
    click.option("--pred", default="pred", show_default=True, help="Column of predicted labels."),
    click.option("--id", "id_col", default=None, help="Column of item ids (default: 'id' when present)."),
    click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
                 help="File format (default: from the extension; CSV for standard input, '-')."),
    click.option("--multilabel", is_flag=True,
                 help="Each cell is a set of labels (separated by --sep; JSON arrays in JSONL)."),
    sep_option, reading_options)


def existing_file(path: str | Path, option: str | None = None) -> Any:
    """A path that must exist (missing files are usage errors, exit 2, naming the file), or ``-``: standard input,
    read once (a second ``-`` in the same command is refused), as a :class:`clfeval.io._source.Source`."""
    from clfeval.io import Source, existing_file as check

    if isinstance(path, Source):
        return path
    return _stdin(option) if str(path) == "-" else check(path, option)


def input_path(path: str | Path, option: str | None = None, *, input_format: str | None = None,
               encoding: str = "utf-8") -> Any:
    """The files a PATH names (:func:`clfeval.io._paths.resolve_path`: a file, a directory, a glob pattern),
    or standard input for ``-`` (read once; spooled to an unnamed temporary file when large)."""
    from clfeval.io import block_cap_for, resolve_path

    ctx = click.get_current_context(silent=True)
    memory = ctx.meta.get("clfeval.memory") if ctx is not None else None
    inp = resolve_path(_stdin(option) if str(path) == "-" else path, input_format=input_format, encoding=encoding,
                       option=option, block_cap=block_cap_for(memory) if memory is not None else None)
    if inp.alias_note is not None:
        message(f"note: {inp.alias_note}")
        if ctx is not None:  # the run's JSON lists them (emit): every command that reads a PATH
            ctx.meta.setdefault("clfeval.aliases", []).extend(inp.aliases)
    return inp


def _stdin(option: str | None) -> Any:
    from clfeval.io import stdin_source

    ctx = click.get_current_context(silent=True)
    meta = ctx.meta if ctx is not None else {}
    what = f"option {option}" if option else "the input file"
    src = stdin_source(what, named_by=meta.get("clfeval.stdin"), memory=ctx.params.get("memory") if ctx else None)
    meta["clfeval.stdin"] = what
    return src


def parse_list(text: str | None) -> list[str] | None:
    """A comma-separated option value as a list (``None`` stays ``None``)."""
    return None if text is None else [x.strip() for x in text.split(",") if x.strip() != ""]


def message(text: str) -> None:
    """A message for the user: stderr, never mixed with data on stdout; control characters shown escaped."""
    click.echo(shown(text), err=True)


#: The run log of ``cv``, ``holdout`` and ``reuters`` when ``--runs-db`` is not given.
DEFAULT_RUNS_DB = Path("clfeval-runs.sqlite")


def where_recorded(what: str, runs_db: Path, existed: bool) -> str:
    """The stderr line of a recorded run: which log holds it (the default one by its full path; new or not)."""
    if runs_db != DEFAULT_RUNS_DB:
        return f"recorded {what} in {runs_db}"
    return (f"recorded {what} in {'' if existed else 'a new run log, '}{Path.cwd() / runs_db} (the default run log; "
            f"--runs-db FILE to choose another, --no-log to record nothing)")


def emit(result: Any, fmt: str, output: Path | None, *, width: int | None = None) -> None:
    """Render ``result`` and write it to ``output`` (whole or not at all) or stdout: text goes to a terminal with
    rich's colours; piped or written to a file it is plain text."""
    from clfeval.io import atomic_write_text
    from clfeval.render import print_renderables, render, renderables

    if fmt == "text" and output is None and sys.stdout.isatty():
        from rich.console import Console

        print_renderables(Console(highlight=False), renderables(result))
        return
    text = render(result, fmt, width=width)  # without a terminal: 100 columns
    ctx = click.get_current_context(silent=True)
    aliases = ctx.meta.get("clfeval.aliases") if ctx is not None else None
    if fmt == "json" and aliases:
        import json

        data = json.loads(text)
        if isinstance(data, dict) and "inputs" not in data:  # (report lists them itself)
            from clfeval.render import to_json

            text = to_json(dict(data, inputs={"aliases": [{"skipped": a, "same_as": b} for a, b in aliases]}))
    if output is not None:
        atomic_write_text(output, text)
        return message(f"wrote {output}")
    try:
        click.echo(text, nl=False)
        sys.stdout.flush()
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        from clfeval.io import outputs

        raise outputs.stdout_error(exc) from None


def finish_run(result: Any, fmt: str, output: Path | None, files: Any,
               record: Callable[[Any, Callable[[int], None]], int] | None = None) -> Any:
    """Write a run's outputs, then record it; returns the result (with its run id when recorded). ``files``
    (:class:`clfeval.io._outputs.OutputFiles`) holds the outputs staged so far (``--predictions``); ``--output`` is
    rendered with the run's id and staged beside them. With ``record(files, on_id)`` every file is put in place just
    before the record commits; without it, at once. Standard output is written last (:func:`emit`), after it."""
    from clfeval.render import render

    final = [result]

    def stage(run_id: int | None) -> None:
        final[0] = result if run_id is None else dataclasses.replace(result, run_id=run_id)
        if output is not None:
            text = render(final[0], fmt)
            files.stage(output, lambda p: Path(p).write_text(text, encoding="utf-8", newline=""), option="--output")

    if record is None:
        stage(None)
        files.publish()
    else:
        record(files, stage)
    return final[0]
