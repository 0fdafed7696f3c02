"""SIGINT, SIGTERM and SIGKILL at every step of a run, on a real child process (issue 9, data loss 3).

The child patches ``clfeval.io._outputs.checkpoint`` to send itself the signal the nth time a named step is
reached, then runs the command line. A signal before the run is recorded leaves no record and no output
file (not even a temporary one); a signal after it leaves the complete record and every output. SIGINT
exits 130, SIGTERM 143.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from clfeval.io._readers import read_frame
from tests._helpers.outhelp import child, make_texts, runs_in, sha256, snapshot

N = 40
CV = ["cv", "data.csv", "--text", "body", "--label", "topic", "--folds", "2", "--runs-db", "runs.sqlite",
      "--predictions", "oof.csv", "-f", "json", "-o", "result.json"]


@pytest.fixture
def folder(tmp_path) -> Path:
    make_texts(tmp_path / "data.csv", n=N)
    return tmp_path


def assert_nothing_written(folder: Path, before: dict) -> None:
    after = snapshot(folder)
    extra = {k: v for k, v in after.items() if k not in before}
    # at most the run log itself, holding no run (it is created at the first write, in the record's transaction)
    assert set(extra) <= {"runs.sqlite"}, extra
    assert runs_in(folder / "runs.sqlite") == 0
    assert {k: after[k] for k in before} == before  # the data byte-identical


def assert_complete(folder: Path, data_hash: str) -> None:
    assert runs_in(folder / "runs.sqlite") == 1
    out = json.loads((folder / "result.json").read_text())
    assert out["run_id"] == 1
    assert read_frame(folder / "oof.csv").num_rows == N
    (stored,) = (folder / "runs-predictions").iterdir()
    assert read_frame(stored).num_rows == N
    from clfeval.protocols._runlog import RunLog

    run = RunLog(folder / "runs.sqlite", readonly=True).get(1)
    assert run.data_hash == data_hash and run.predictions == str(stored)
    assert not [p for p in snapshot(folder) if p.endswith(".tmp")]


# step, occurrence, signal, whether the run is then recorded
STEPS = [
    ("run finished", 1, "SIGTERM", False),   # trained, nothing written yet
    ("staged", 1, "SIGINT", False),          # --predictions in its temporary file
    ("staged", 2, "SIGTERM", False),         # the run log's copy of the predictions in its temporary file
    ("staged", 3, "SIGTERM", False),         # -o (showing the run id) staged inside the record's transaction
    ("inserted", 1, "SIGINT", False),        # the rows inserted, not committed
    ("published", 1, "SIGTERM", True),       # outputs in place, COMMIT next: held back until it is done
    ("recorded", 1, "SIGINT", True),         # after the record
]


@pytest.mark.parametrize("step,nth,sig,recorded", STEPS, ids=[f"{s}-{n}-{g}" for s, n, g, _ in STEPS])
def test_a_signal_at_each_step_of_cv(folder, step, nth, sig, recorded):
    before = snapshot(folder)
    res = child(CV, cwd=folder, step=step, action=sig, nth=nth)
    code = 128 + getattr(signal, sig)
    assert res.returncode == code, (res.returncode, res.stderr)
    assert res.stderr.splitlines()[-1] == f"clfeval: interrupted by {sig}."
    assert "Traceback" not in res.stderr
    if recorded:
        assert_complete(folder, sha256(folder / "data.csv"))
    else:
        assert_nothing_written(folder, before)


def test_sigterm_while_the_output_is_written_keeps_the_old_file_and_leaves_no_temporary(folder):
    (folder / "p.csv").write_text("gold,pred\na,a\nb,a\n")
    (folder / "out.json").write_text("the previous report")
    before = snapshot(folder)
    res = child(["report", "p.csv", "-f", "json", "-o", "out.json"], cwd=folder, step="staged", action="SIGTERM")
    assert res.returncode == 143, res.stderr
    assert snapshot(folder) == before


def test_sigint_exits_130_not_1(folder):
    res = child(["holdout", "data.csv", "--text", "body", "--label", "topic", "--no-log"], cwd=folder,
                step="run finished", action="SIGINT")
    assert res.returncode == 130 and res.stdout == "", res.stderr
    assert res.stderr.strip() == "clfeval: interrupted by SIGINT."


@pytest.mark.parametrize("nth", [1, 2])
def test_kill_9_while_predictions_are_written_leaves_no_orphan(folder, nth):
    """SIGKILL cannot be caught: the temporary files have no name, so nothing is left to clean up."""
    before = snapshot(folder)
    res = child(CV, cwd=folder, step="staged", action="SIGKILL", nth=nth)
    assert res.returncode == -signal.SIGKILL
    after = snapshot(folder)
    files = [k for k, v in after.items() if v[0] == "file" and k not in before]
    assert files == [], files  # no .tmp, no oof.csv, no stored predictions, no run log
    assert runs_in(folder / "runs.sqlite") == 0


def test_the_data_is_hashed_before_the_run(folder):
    """The record carries the hash of the bytes that were read, even if the file changes during the run."""
    original = sha256(folder / "data.csv")
    res = child(CV, cwd=folder, step="run finished", action=f"append:{folder / 'data.csv'}")
    assert res.returncode == 0, res.stderr
    assert sha256(folder / "data.csv") != original
    from clfeval.protocols._runlog import RunLog

    assert RunLog(folder / "runs.sqlite", readonly=True).get(1).data_hash == original
