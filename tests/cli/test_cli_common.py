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
