"""Outputs do what the file name says (issue 19, items 7 and 9): --format from --output's extension, a
contradicting --format refused, text folded to 100 columns when piped."""

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
    ("out.csv", lambda t: t.startswith("clfeval report")),  # an unknown extension: text
    ("out", lambda t: t.startswith("clfeval report")),  # none: text
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
