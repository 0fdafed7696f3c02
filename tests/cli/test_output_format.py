"""Outputs do what the file name says (issue 19, items 7 and 9): --format from --output's extension, a
contradicting --format refused, an extension that names no format refused without --format (issue 35, item 3),
text folded to 100 columns when piped."""

from __future__ import annotations

import json
import os

import pytest

from tests._helpers.clihelp import run

ROWS = "gold,pred\n" + "a,a\nb,a\na,b\nb,b\nc,c\nc,a\n" * 3


@pytest.fixture
def preds(tmp_path):
    p = tmp_path / "preds.csv"
    p.write_text(ROWS)
    return p


@pytest.mark.parametrize("name, check", [
    ("out.html", lambda t: t.startswith("<!DOCTYPE html>")),
    ("out.HTM", lambda t: t.startswith("<!DOCTYPE html>")),
    ("out.json", lambda t: json.loads(t)["n"] == 18),
    ("out.md", lambda t: t.startswith("## clfeval report")),
    ("out.markdown", lambda t: t.startswith("## clfeval report")),
    ("out.txt", lambda t: t.startswith("clfeval report") and "┃" not in t and "─" in t),
    ("out", lambda t: t.startswith("clfeval report")),  # none: text
    ("out.TXT", lambda t: t.startswith("clfeval report")),
])
def test_format_follows_the_extension(tmp_path, preds, name, check):
    if name.endswith((".html", ".HTM")):
        pytest.importorskip("jinja2")
        pytest.importorskip("matplotlib")
    out = tmp_path / name
    res = run("report", preds, "-o", out)
    assert res.code == 0, res.err
    assert check(out.read_text(encoding="utf-8"))


def test_explicit_format_agreeing_with_the_extension_is_fine(tmp_path, preds):
    res = run("report", preds, "--format", "json", "-o", tmp_path / "r.json")
    assert res.code == 0 and json.loads((tmp_path / "r.json").read_text())["n"] == 18


@pytest.mark.parametrize("fmt, name", [("text", "out.html"), ("json", "out.md"), ("html", "out.json"),
                                       ("markdown", "out.txt")])
def test_contradicting_format_is_refused_before_anything_is_written(tmp_path, preds, fmt, name):
    out = tmp_path / name
    res = run("report", preds, "--format", fmt, "-o", out)
    assert res.code == 2
    assert "--format" in res.err and name in res.err and "Traceback" not in res.err
    assert not out.exists()


@pytest.mark.parametrize("name", ["report.csv", "out.pdf", "r.JSONL", "notes.text", "v1.2"])
def test_an_extension_that_names_no_format_is_refused_without_format(tmp_path, preds, name):
    out = tmp_path / name  # -o report.csv used to write the text report into a .csv file
    res = run("report", preds, "-o", out)
    assert res.code == 2 and res.out == ""
    suffix = "." + name.rsplit(".", 1)[1]
    for words in ("-o/--output", name, repr(suffix), ".json, .md/.markdown, .html/.htm, .txt or none for text",
                  "--format", "any name"):
        assert words in res.err, (words, res.err)
    assert "Traceback" not in res.err and not out.exists()


@pytest.mark.parametrize("fmt, check", [("text", lambda t: t.startswith("clfeval report")),
                                        ("json", lambda t: json.loads(t)["n"] == 18),
                                        ("markdown", lambda t: t.startswith("## clfeval report"))])
def test_an_explicit_format_accepts_any_name(tmp_path, preds, fmt, check):
    out = tmp_path / "report.csv"
    res = run("report", preds, "--format", fmt, "-o", out)
    assert res.code == 0, res.err
    assert check(out.read_text(encoding="utf-8"))


def _commands_with_format():
    """Every command with --format and --output (cli._common.output_options), with values for its required
    parameters that click accepts (the format is resolved before the command's body runs)."""
    import click

    from clfeval.cli import cli

    def walk(group, ctx, path):
        for name in group.list_commands(ctx):
            cmd = group.get_command(ctx, name)
            if isinstance(cmd, click.Group):
                yield from walk(cmd, ctx, [*path, name])
            elif {"fmt", "output"} <= {p.name for p in cmd.params}:
                yield [*path, name], cmd

    return list(walk(cli, click.Context(cli), []))


def _required_args(cmd, existing):
    import click

    args, opts = [], []
    for p in cmd.params:
        if not p.required:
            continue
        value = (p.type.choices[0] if isinstance(p.type, click.Choice)
                 else "1" if isinstance(p.type, click.types.IntParamType)
                 else str(existing) if isinstance(p.type, click.Path) else "x")
        if isinstance(p, click.Argument):
            args.append(value)
        else:
            opts += [p.opts[0], value]
    return [*args, *opts]


def test_every_command_with_format_refuses_an_unknown_extension(tmp_path, preds):
    commands = _commands_with_format()
    names = {" ".join(path) for path, _ in commands}
    assert {"report", "compare", "threshold", "calibration", "errors", "rank", "power", "metrics", "demo", "cv",
            "holdout", "reuters", "datasets fetch", "runs list", "runs show", "runs compare"} <= names
    assert "plot" not in names  # its -o is an image, named by its own rule
    for path, cmd in commands:
        out = tmp_path / "result.csv"
        res = run(*path, *_required_args(cmd, preds), "-o", out)
        assert res.code == 2, (path, res.code, res.err)
        assert "-o/--output" in res.err and "'.csv'" in res.err and "--format" in res.err, (path, res.err)
        assert not out.exists()


def test_devices_and_fifos_get_text(tmp_path, preds):
    res = run("report", preds, "-o", os.devnull)
    assert res.code == 0, res.err
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)  # a FIFO named like a page: its name says nothing about what reads it
    import threading

    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    res = run("report", preds, "-o", fifo)
    reader.join(timeout=30)
    assert res.code == 0, res.err
    assert got and got[0].startswith("clfeval report")


def test_other_commands_follow_the_extension_too(tmp_path):
    out = tmp_path / "m.json"
    res = run("metrics", "-o", out)
    assert res.code == 0, res.err
    json.loads(out.read_text())


def test_piped_text_folds_to_100_columns(tmp_path):
    labels = [f"a-rather-long-class-name-{i:02d}" for i in range(6)]
    rows = "gold,pred\n" + "".join(f"{g},{p}\n" for g in labels for p in labels)
    f = tmp_path / "wide.csv"
    f.write_text(rows)
    res = run("report", f, "--beta", "2")  # the per-class table is about 150 columns wide
    assert res.code == 0, res.err
    lines = res.out.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert max(len(line) for line in lines if "─" in line) > 60  # tables use the width
    per_class = res.out.split("Per class")[1].split("Averages")[0]
    assert sum(line.startswith(labels[0]) for line in per_class.splitlines()) == 2  # folded once
