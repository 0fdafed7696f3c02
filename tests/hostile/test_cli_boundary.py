"""The command line's boundary: no traceback ever, exit codes 0/1/2/70, option names in messages, the run log
refused or read without being touched (issue 9: "No tracebacks" and "Smaller")."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
from pathlib import Path

import pytest

from tests._helpers.clihelp import run
from tests._helpers.outhelp import assert_one_paragraph, child, make_texts, snapshot

PRED = "gold,pred,score\nspam,spam,0.9\nham,spam,0.6\nham,ham,0.1\nspam,ham,0.4\nham,ham,0.2\n"


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.csv").write_text(PRED)
    make_texts(tmp_path / "c.csv")
    return tmp_path


# --- the last resort ------------------------------------------------------------------------------

def test_an_unexpected_error_is_a_bug_report_paragraph_exit_70(folder, monkeypatch):
    import clfeval.evaluate._streaming

    def broken(*_a, **_k):
        raise RuntimeError("something clfeval did not foresee")

    # `clfeval report` counts its input in batches (issue 12): the table is reported by finish_report
    monkeypatch.setattr(clfeval.evaluate._streaming, "finish_report", broken)
    res = run("report", "p.csv")
    assert res.code == 70 and res.out == ""
    assert_one_paragraph(res.err, "RuntimeError", "something clfeval did not foresee", "`clfeval report`",
                         "this is a bug in clfeval: please report it", "--debug")
    res = run("--debug", "report", "p.csv")
    assert res.code == 70
    assert "Traceback (most recent call last)" in res.err and "broken" in res.err
    assert "this is a bug in clfeval: please report it" in res.err


def test_debug_shows_the_traceback_of_an_ordinary_error_too(folder):
    plain = run("report", "missing.csv")
    assert plain.code == 2
    assert_one_paragraph(plain.err, "missing.csv")
    debug = run("--debug", "report", "missing.csv")
    assert debug.code == 2 and "Traceback" in debug.err and plain.err.strip() in debug.err


# --- option names, not Python names ---------------------------------------------------------------

NAMES = [
    (["report", "p.csv", "--beta", "0"], "option --beta", "option beta"),
    (["compare", "p.csv", "p.csv", "--beta", "-1"], "option --beta", "option beta"),
    (["report", "p.csv", "--pred", "none", "--score", "score", "--positive", "spam", "--threshold", "nan"],
     "option --threshold", "option threshold"),
    (["report", "p.csv", "--positive", "nope"], "--positive names the label", "positive names"),
    (["threshold", "p.csv", "--score", "score", "--positive", "spam", "--cost-fp", "-1"], "option --cost-fp",
     "cost_fp"),
    (["threshold", "p.csv", "--score", "score", "--positive", "spam", "--objective", "cost", "--cost-fp", "0",
      "--cost-fn", "0"], "options --cost-fp and --cost-fn", "cost_fn"),
    (["threshold", "p.csv", "--score", "score", "--positive", "spam", "--default-threshold", "inf"],
     "option --default-threshold", "default_threshold"),
    (["threshold", "p.csv", "--score", "score", "--positive", "spam", "--objective", "f0"], "option --objective",
     "objective's"),
    (["threshold", "p.csv", "--score", "score", "--positive", "nope"], "--positive names", "positive names"),
    (["calibration", "p.csv", "--prob", "score", "--positive", "nope"], "--positive names", "positive names"),
    (["cv", "c.csv", "--text", "body", "--label", "topic", "--tune-threshold", "f1", "--dev-size", "2", "--no-log"],
     "option --dev-size", "dev_size"),
    (["cv", "c.csv", "--text", "body", "--label", "topic", "--tune-threshold", "cost", "--cost-fn", "-2",
      "--no-log"], "option --cost-fn", "cost_fn"),
    (["cv", "c.csv", "--text", "body", "--label", "topic", "--tune-threshold", "f0", "--no-log"],
     "option --tune-threshold", "objective"),
    (["holdout", "c.csv", "--text", "body", "--label", "topic", "--test-size", "1.5", "--no-log"],
     "option --test-size", "test_size"),
    (["holdout", "c.csv", "--text", "body", "--label", "topic", "--test-size", "0.5", "--val-size", "0.6",
      "--no-log"], "--test-size (0.5) and --val-size (0.6)", "val_size"),
]


@pytest.mark.parametrize("args,wanted,python", NAMES, ids=[" ".join(a[:1] + a[-2:]) for a, _, _ in NAMES])
def test_messages_name_the_command_line_options(folder, args, wanted, python):
    res = run(*args)
    assert res.code in (1, 2) and res.out == "", res.err
    assert_one_paragraph(res.err, wanted)
    assert not re.search(rf"(?<![-\w]){re.escape(python)}", res.err), res.err


def test_the_library_keeps_its_parameter_names():
    """Library callers see the parameters they passed."""
    from clfeval.errors import UsageError
    from clfeval.protocols._api import ThresholdStep
    from clfeval.scores._curves import parse_objective

    with pytest.raises(UsageError, match="option dev_size must be"):
        ThresholdStep.for_objective("f1", dev_size=2)
    with pytest.raises(UsageError, match="options cost_fp and cost_fn cannot both be 0"):
        parse_objective("cost", cost_fp=0, cost_fn=0)


def test_a_failed_download_does_not_speak_python(folder):
    res = run("datasets", "fetch", "reuters21578", "--dest", "data", "--url", "file:///nonexistent/archive.tar.gz")
    assert res.code == 1
    assert_one_paragraph(res.err, "file:///nonexistent/archive.tar.gz")
    for python in ("read_reuters", "fetch_reuters", "sha256=None", "dest_dir"):
        assert python not in res.err


# --- the run log: a foreign file untouched, a read-only folder readable ---------------------------

def foreign(path: Path) -> bytes:
    with contextlib.closing(sqlite3.connect(path)) as con:
        con.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
        con.execute("INSERT INTO invoices (amount) VALUES (12.5), (99.0)")
        con.commit()
    return path.read_bytes()


@pytest.mark.parametrize("command", ["cv", "list"])
def test_a_foreign_sqlite_file_is_refused_untouched(folder, monkeypatch, command):
    import clfeval.protocols._api

    monkeypatch.setattr(clfeval.protocols._api, "run_protocol", lambda *a, **k: pytest.fail("trained before refusing"))
    original = foreign(folder / "books.sqlite")
    before = snapshot(folder)
    args = (["cv", "c.csv", "--text", "body", "--label", "topic", "--runs-db", "books.sqlite"] if command == "cv"
            else ["runs", "list", "--runs-db", "books.sqlite"])
    res = run(*args)
    assert res.code == 1, res.err
    assert_one_paragraph(res.err, "'books.sqlite'", "not a clfeval run log", "invoices")
    assert (folder / "books.sqlite").read_bytes() == original  # not switched to WAL, nothing added
    assert snapshot(folder) == before  # no -wal, no -shm, no predictions folder
    with contextlib.closing(sqlite3.connect(f"file:{folder / 'books.sqlite'}?mode=ro", uri=True)) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_file_that_is_no_database_is_refused_untouched(folder):
    (folder / "notes.sqlite").write_bytes(b"just some notes, not SQLite" * 40)
    before = snapshot(folder)
    res = run("cv", "c.csv", "--text", "body", "--label", "topic", "--runs-db", "notes.sqlite")
    assert res.code == 1
    assert_one_paragraph(res.err, "'notes.sqlite'", "not a clfeval run log")
    assert snapshot(folder) == before


def test_a_read_only_run_log_folder_can_still_be_queried(folder):
    logs = folder / "logs"
    logs.mkdir()
    for model in ("nb", "bnb"):
        res = run("cv", "c.csv", "--text", "body", "--label", "topic", "--folds", "2", "--model", model,
                  "--runs-db", "logs/runs.sqlite")
        assert res.code == 0, res.err
    os.chmod(logs / "runs-predictions", 0o555)
    os.chmod(logs, 0o555)
    before = snapshot(folder)
    try:
        listed = child(["runs", "list", "--runs-db", "logs/runs.sqlite", "-f", "json"], cwd=folder, unprivileged=True)
        shown = child(["runs", "show", "2", "--runs-db", "logs/runs.sqlite"], cwd=folder, unprivileged=True)
        best = child(["runs", "best", "--metric", "accuracy", "--runs-db", "logs/runs.sqlite", "--data", "c.csv"],
                     cwd=folder, unprivileged=True)
        recording = child(["cv", "c.csv", "--text", "body", "--label", "topic", "--runs-db", "logs/runs.sqlite"],
                          cwd=folder, unprivileged=True)
        after = snapshot(folder)
    finally:
        os.chmod(logs, 0o755)
        os.chmod(logs / "runs-predictions", 0o755)
    assert listed.returncode == 0, listed.stderr
    assert [r["id"] for r in json.loads(listed.stdout)["runs"]] == [1, 2]
    assert shown.returncode == 0 and "bnb" in shown.stdout, shown.stderr
    assert best.returncode == 0, best.stderr
    assert recording.returncode == 2, recording.stderr  # writing is refused up front, in one paragraph
    assert_one_paragraph(recording.stderr, "--runs-db", "not writable")
    assert after == before
