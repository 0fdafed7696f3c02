"""Outputs never destroy inputs: every command checks its outputs before the work (issue 9, data loss 1 and 2).

Each case is a command line that, on the old code, replaced an input or another output, replaced a device
by a regular file, or created files with mode 0600. Each must end in one paragraph naming both options (or
the option and the input), exit 2, with every file of the folder byte-identical and nothing added.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

from tests._helpers.clihelp import run
from tests._helpers.outhelp import assert_one_paragraph, child, make_texts, runs_in, snapshot

PRED = "gold,pred\nspam,spam\nham,spam\nham,ham\nspam,ham\nham,ham\n"
SCORED = "gold,pred,score\nspam,spam,0.9\nham,spam,0.6\nham,ham,0.1\nspam,ham,0.4\nham,ham,0.2\n"


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.csv").write_text(PRED)
    (tmp_path / "s.csv").write_text(SCORED)
    (tmp_path / "dev.csv").write_text(SCORED)
    make_texts(tmp_path / "c.csv")
    return tmp_path


def refused(args: list[object], folder: Path, *needles: str) -> None:
    before = snapshot(folder)
    res = run(*args)
    assert res.code == 2, (res.code, res.err)
    assert res.out == ""
    assert_one_paragraph(res.err, *needles)
    assert snapshot(folder) == before  # inputs byte-identical, nothing added


# --- an output that names an input ------------------------------------------------------------------

CASES = {
    "report -o FILE": (["report", "x.csv", "-f", "json", "-o", "x.csv"], "--output", "FILE"),
    "report -o --train-labels": (["report", "x.csv", "--train-labels", "s.csv", "-f", "text", "-o", "s.csv"],
                                 "--output", "--train-labels"),
    "compare -o B": (["compare", "x.csv", "s.csv", "-f", "text", "-o", "s.csv"], "--output", "B_FILE"),
    "threshold -o --dev": (["threshold", "s.csv", "--dev", "dev.csv", "--score", "score", "--positive", "spam",
                            "-f", "text", "-o", "dev.csv"], "--output", "--dev"),
    "calibration -o FILE": (["calibration", "s.csv", "--prob", "score", "--positive", "spam", "-f", "text",
                             "-o", "s.csv"],
                            "--output", "FILE"),
    "cv --predictions DATA": (["cv", "c.csv", "--text", "body", "--label", "topic", "--predictions", "c.csv"],
                              "--predictions", "DATA"),
    "cv -o DATA": (["cv", "c.csv", "--text", "body", "--label", "topic", "-f", "text", "-o", "c.csv"], "--output",
                   "DATA"),
    "holdout --runs-db DATA": (["holdout", "c.csv", "--text", "body", "--label", "topic", "--runs-db", "c.csv"],
                               "--runs-db", "DATA"),
}


@pytest.mark.parametrize("case", CASES)
def test_an_output_that_is_an_input_is_refused(folder, case):
    args, option, what = CASES[case]
    refused(args, folder, option, what, "destroy the input")


@pytest.mark.parametrize("how", ["symlink", "hardlink", "dotted"])
def test_the_same_file_under_another_name_is_refused(folder, how):
    if how == "symlink":
        os.symlink("x.csv", folder / "alias.csv")
        name = "alias.csv"
    elif how == "hardlink":
        os.link(folder / "x.csv", folder / "alias.csv")
        name = "alias.csv"
    else:
        name = "./sub/../x.csv"
        (folder / "sub").mkdir()
    refused(["report", "x.csv", "-f", "json", "-o", name], folder, "--output", "FILE", "destroy the input")
    refused(["cv", "c.csv", "--text", "body", "--label", "topic", "--predictions", "p.csv", "-f", "text", "-o", "x.csv",
             "--runs-db", name], folder, "--runs-db", "--output")


def test_two_outputs_that_are_one_file_are_refused(folder):
    cv = ["cv", "c.csv", "--text", "body", "--label", "topic", "--folds", "2"]
    refused(cv + ["--runs-db", "r.sqlite", "-f", "text", "-o", "r.sqlite"], folder, "--output", "--runs-db")
    refused(cv + ["--predictions", "p.csv", "-f", "text", "-o", "p.csv"], folder, "--predictions", "--output")
    os.symlink("p.csv", folder / "q.csv")  # a dangling link: its target would be written twice
    refused(cv + ["--predictions", "p.csv", "-f", "text", "-o", "q.csv", "--no-log"], folder, "--predictions",
            "--output", "same file")


def test_the_run_log_itself_is_not_an_output_of_a_query(folder):
    assert run("cv", "c.csv", "--text", "body", "--label", "topic", "--folds", "2", "--runs-db", "r.sqlite").code == 0
    refused(["runs", "list", "--runs-db", "r.sqlite", "-f", "text", "-o", "r.sqlite"], folder, "--output", "--runs-db")
    stored = next((folder / "r-predictions").iterdir())
    refused(["runs", "list", "--runs-db", "r.sqlite", "-f", "text", "-o", f"r-predictions/{stored.name}"], folder,
            "--output", "predictions folder")


def test_an_output_inside_an_input_directory_is_refused(folder):
    pytest.importorskip("sklearn")
    pytest.importorskip("Stemmer")
    corpus = folder / "corpus"
    corpus.mkdir()
    (corpus / "reut2-000.sgm").write_text("<REUTERS></REUTERS>")
    refused(["reuters", "--archive", "corpus", "-o", "corpus/study.json", "--no-log"], folder, "--output",
            "inside the input directory", "--archive")
    refused(["reuters", "--archive", "corpus", "--runs-db", "corpus/runs.sqlite"], folder, "--runs-db",
            "inside the input directory")


def test_datasets_fetch_never_writes_over_its_archive_or_its_source(folder):
    (folder / "data").mkdir()
    (folder / "data" / "reuters21578.tar.gz").write_bytes(b"an archive already there")
    refused(["datasets", "fetch", "reuters21578", "--dest", "data", "-f", "text",
             "-o", "data/reuters21578.tar.gz"], folder,
            "--output", "the archive in --dest")
    (folder / "mirror.tar.gz").write_bytes(b"a local copy")
    refused(["datasets", "fetch", "reuters21578", "--dest", "new", "--url", f"file://{folder}/mirror.tar.gz",
             "-f", "text", "-o", "mirror.tar.gz"], folder, "--output", "--url")


# --- what an output path may be -------------------------------------------------------------------

def test_an_existing_symlink_is_followed_and_stays_a_link(folder):
    (folder / "real.json").write_text("old")
    os.chmod(folder / "real.json", 0o640)
    os.symlink("real.json", folder / "link.json")
    res = run("report", "x.csv", "-f", "json", "-o", "link.json")
    assert res.code == 0, res.err
    assert os.path.islink(folder / "link.json") and os.readlink(folder / "link.json") == "real.json"
    assert json.loads((folder / "real.json").read_text())["n"] == 5
    assert stat.S_IMODE(os.stat(folder / "real.json").st_mode) == 0o640
    assert sorted(p.name for p in folder.iterdir()) == ["c.csv", "dev.csv", "link.json", "real.json", "s.csv", "x.csv"]


def test_a_fifo_is_written_through_never_replaced(folder):
    fifo = folder / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    res = run("report", "x.csv", "-f", "json", "-o", fifo)
    reader.join(60)
    assert res.code == 0, res.err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert json.loads(got[0])["n"] == 5


def devices(folder: Path) -> None:
    """Links to /dev/null and /dev/full in the test's folder.

    The tests never name /dev/null or /dev/full directly: code with the old defect, run as root, would replace
    the machine's devices by regular files. Through a link it can only replace the link.
    """
    os.symlink("/dev/null", folder / "null")
    os.symlink("/dev/full", folder / "full")


def test_a_character_device_is_written_through(folder):
    devices(folder)
    res = run("report", "x.csv", "-o", "null")
    assert res.code == 0 and res.out == "", res.err
    assert os.readlink(folder / "null") == "/dev/null" and stat.S_ISCHR(os.stat(folder / "null").st_mode)
    try:
        os.mknod(folder / "t", 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # like /dev/null
    except PermissionError:
        pytest.skip("no permission to create a device node here")
    assert run("report", "x.csv", "-o", "t").code == 0
    assert stat.S_ISCHR(os.lstat(folder / "t").st_mode)
    assert (folder / "t").read_bytes() == b""


def test_a_symlink_to_standard_output_stays_a_link(folder):
    os.symlink("/dev/stdout", folder / "so")
    res = child(["report", "x.csv", "-f", "json", "-o", "so"], cwd=folder)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["n"] == 5  # reached the pipe
    assert os.path.islink(folder / "so") and os.readlink(folder / "so") == "/dev/stdout"


def test_a_directory_is_refused(folder):
    (folder / "out").mkdir()
    before = snapshot(folder)
    for args in (["report", "x.csv", "-o", "out"],
                 ["cv", "c.csv", "--text", "body", "--label", "topic", "--predictions", "out", "--no-log"]):
        res = run(*args)
        assert res.code == 2 and "directory" in res.err and "Traceback" not in res.err, res.err
    assert snapshot(folder) == before


@pytest.mark.parametrize("mask,new", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_new_files_get_the_mode_the_umask_gives_and_replaced_ones_keep_theirs(folder, mask, new):
    (folder / "kept.json").write_text("old")
    os.chmod(folder / "kept.json", 0o600)
    old = os.umask(mask)
    try:
        assert run("report", "x.csv", "-o", "fresh.txt").code == 0
        assert run("report", "x.csv", "-f", "json", "-o", "kept.json").code == 0
        res = run("cv", "c.csv", "--text", "body", "--label", "topic", "--folds", "2", "--predictions", "p.csv",
                  "--runs-db", "r.sqlite", "-o", "cv.json")
        assert res.code == 0, res.err
    finally:
        os.umask(old)
    for name in ("fresh.txt", "p.csv", "cv.json"):
        assert stat.S_IMODE(os.stat(folder / name).st_mode) == new, name
    (stored,) = (folder / "r-predictions").iterdir()
    assert stat.S_IMODE(os.stat(stored).st_mode) == new
    assert stat.S_IMODE(os.stat(folder / "kept.json").st_mode) == 0o600
    assert json.loads((folder / "kept.json").read_text())["n"] == 5


def test_outputs_are_checked_before_the_long_part(folder, monkeypatch):
    """A bad output is refused before any model is trained and before the run log is created."""
    import clfeval.protocols._api

    def never(*_a, **_k):
        raise AssertionError("the protocol ran although an output was bad")

    monkeypatch.setattr(clfeval.protocols._api, "run_protocol", never)
    cv = ["cv", "c.csv", "--text", "body", "--label", "topic", "--runs-db", "r.sqlite"]
    refused(cv + ["-o", "missing/out.json"], folder, "--output", "'missing' does not exist")
    refused(cv + ["--predictions", "missing/p.csv"], folder, "--predictions", "'missing' does not exist")
    refused(cv + ["--predictions", "p.unknown"], folder, "--predictions", "extension")


# --- a full disk, an unwritable place -------------------------------------------------------------

def test_a_full_disk_is_one_paragraph(folder):
    devices(folder)
    refused(["report", "x.csv", "-o", "full"], folder, "--output", "'full'", "disk is full")


def test_a_full_disk_while_the_predictions_are_written(folder, monkeypatch):
    import errno

    import pyarrow.csv

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pyarrow.csv, "write_csv", full)
    refused(["cv", "c.csv", "--text", "body", "--label", "topic", "--folds", "2", "--predictions", "p.csv",
             "--runs-db", "r.sqlite"], folder, "--predictions", "disk is full")


def test_an_output_that_fails_at_the_end_records_no_run(folder):
    """Defect 3: a cv whose -o cannot be written (here: a full device) leaves no record and no predictions."""
    devices(folder)
    before = snapshot(folder)
    res = run("cv", "c.csv", "--text", "body", "--label", "topic", "--folds", "2", "--predictions", "p.csv",
              "--runs-db", "r.sqlite", "-f", "json", "-o", "full")
    assert res.code == 2, res.err
    assert_one_paragraph(res.err.splitlines()[-1], "--output", "disk is full")
    after = snapshot(folder)
    assert {k: v for k, v in after.items() if k != "r.sqlite"} == before
    assert runs_in(folder / "r.sqlite") == 0


def test_standard_output_on_a_full_device(folder):
    with open("/dev/full", "w") as full:
        res = child(["report", "x.csv", "-f", "json"], cwd=folder, stdout=full)
    assert res.returncode == 2, res.stderr
    assert_one_paragraph(res.stderr, "standard output", "disk is full")


@pytest.fixture
def locked(folder):
    """A directory clfeval may not write (file permissions apply even to root: the child drops them)."""
    d = folder / "locked"
    d.mkdir()
    (d / "old.json").write_text("{}")
    os.chmod(d, 0o555)
    yield d
    os.chmod(d, 0o755)


def test_an_unwritable_output_directory(folder, locked):
    before = snapshot(folder)
    res = child(["report", "x.csv", "-o", "locked/out.json"], cwd=folder, unprivileged=True)
    assert res.returncode == 2, res.stderr
    assert_one_paragraph(res.stderr, "--output", "'locked' is not writable")
    res = child(["cv", "c.csv", "--text", "body", "--label", "topic", "--predictions", "locked/p.csv",
                 "--runs-db", "r.sqlite"], cwd=folder, unprivileged=True)
    assert res.returncode == 2, res.stderr
    assert_one_paragraph(res.stderr, "--predictions", "'locked' is not writable")
    res = child(["report", "x.csv", "-o", "locked/old.json"], cwd=folder, unprivileged=True)
    assert res.returncode == 2, res.stderr
    assert_one_paragraph(res.stderr, "--output", "not writable")
    assert snapshot(folder) == before


def test_a_read_only_output_file_is_not_replaced(folder):
    (folder / "ro.json").write_text("keep me")
    os.chmod(folder / "ro.json", 0o444)
    before = snapshot(folder)
    res = child(["report", "x.csv", "-o", "ro.json"], cwd=folder, unprivileged=True)
    assert res.returncode == 2, res.stderr
    assert_one_paragraph(res.stderr, "--output", "read-only")
    assert snapshot(folder) == before


def test_an_unreadable_download_directory(folder):
    d = folder / "dest"
    d.mkdir()
    os.chmod(d, 0)
    try:
        inside = child(["datasets", "fetch", "reuters21578", "--dest", "dest/sub", "--url", "file:///nonexistent"],
                       cwd=folder, unprivileged=True)
        itself = child(["datasets", "fetch", "reuters21578", "--dest", "dest", "--url", "file:///nonexistent"],
                       cwd=folder, unprivileged=True)
    finally:
        os.chmod(d, 0o755)
    assert inside.returncode == 2, inside.stderr
    assert_one_paragraph(inside.stderr, "--dest", "'dest/sub'", "permission denied")
    assert itself.returncode == 2 and "Traceback" not in itself.stderr, itself.stderr  # click's own usage error
    assert "--dest" in itself.stderr and "not readable" in itself.stderr
    assert list(d.iterdir()) == []


def test_nothing_is_left_when_the_predictions_folder_cannot_be_made(folder):
    shutil.copy(folder / "c.csv", folder / "d.csv")
    (folder / "r-predictions").write_text("a file where the run log keeps its predictions folder")
    refused(["cv", "d.csv", "--text", "body", "--label", "topic", "--runs-db", "r.sqlite"], folder, "--runs-db",
            "r-predictions")


def test_a_path_ending_in_a_separator_names_a_directory(tmp_path):
    """The library sees the path as given (the command line's click turns ``new/`` into ``new``)."""
    from clfeval.errors import OutputFileError
    from clfeval.io._outputs import resolve_output

    with pytest.raises(OutputFileError, match="names a directory"):
        resolve_output(f"{tmp_path}/new/", option="--output")
    assert list(tmp_path.iterdir()) == []
