"""Conventions every clfeval command keeps."""

from __future__ import annotations

import click
import pytest

from clfeval.cli import cli
from tests._helpers.clihelp import run


def leaf_commands(group: click.Group, prefix: str = ""):
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from leaf_commands(cmd, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", cmd


@pytest.mark.parametrize("name,cmd", list(leaf_commands(cli)), ids=lambda x: x if isinstance(x, str) else "")
def test_every_command_takes_format_and_output(name, cmd):
    opts = {o for p in cmd.params for o in getattr(p, "opts", [])}
    if name == "plot":  # an image, its format from the extension of --output (issue 11: plot has no --format)
        assert "--output" in opts and "--format" not in opts
        return
    assert "--format" in opts and "--output" in opts, name
    fmt = next(p for p in cmd.params if "--format" in getattr(p, "opts", []))
    assert list(fmt.type.choices) == ["text", "json", "markdown", "html"], name


def test_version_and_help():
    res = run("--version")
    assert res.code == 0 and "clfeval" in res.out
    res = run("--help")
    assert res.code == 0 and "report" in res.out and "demo" in res.out


def test_demo_lists_modes_and_refuses_unknown():
    res = run("demo")
    assert res.code == 0
    for mode in ("trap", "matrix", "read", "averages"):
        assert mode in res.out
    res = run("demo", "nosuchmode")
    assert res.code == 2 and "trap" in res.err and "Traceback" not in res.err


@pytest.mark.parametrize("name,cmd", list(leaf_commands(cli)), ids=lambda x: x if isinstance(x, str) else "")
def test_no_bounded_float_option_takes_nan_or_infinity(name, cmd):
    """click's FloatRange lets NaN through its bounds (issue 35: `datasets fetch --deadline nan` passed `x>0`):
    every bounded float option is a FiniteFloatRange, which refuses nan and ±inf."""
    from clfeval.cli._common import FiniteFloatRange

    for p in cmd.params:
        if isinstance(p.type, click.FloatRange):
            assert isinstance(p.type, FiniteFloatRange), (name, p.name)
            for bad in ("nan", "NaN", "inf", "-inf"):  # infinity beyond a bound: click's own words
                with pytest.raises(click.BadParameter, match="not a finite number|not in the range"):
                    p.type.convert(bad, p, None)
            with pytest.raises(click.BadParameter, match="nan is not a finite number"):
                p.type.convert("nan", p, None)


@pytest.mark.parametrize("args, option", [
    (["datasets", "fetch", "reuters21578", "--url", "file:///nonexistent/x.tar.gz", "--deadline"], "--deadline"),
    (["report", "-", "--engine", "dask", "--connect-timeout"], "--connect-timeout"),
    (["report", "-", "--find-slices", "a", "--find-alpha"], "--find-alpha"),
])
def test_nan_in_a_bounded_float_option_is_a_usage_error(args, option):
    res = run(*args, "nan")
    assert res.code == 2 and option in res.err and "nan is not a finite number" in res.err, res.err
