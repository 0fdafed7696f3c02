"""The run log: best / ablation / check logic, and real concurrency and kill -9 with subprocesses."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pyarrow as pa
import pytest

from clfeval.errors import DataError, UsageError
from clfeval.protocols._runlog import RunLog, file_hash, flatten_settings

SRC = str(Path(__file__).resolve().parents[2] / "src")


def settings(model="nb", ngrams=1, stem=False, seed=0, folds=10):
    return {"model": {"name": model, "ngrams": ngrams, "stem": stem}, "protocol": {"kind": "kfold", "folds": folds},
            "seed": seed}


def add(log: RunLog, value: float, *, data="sha256:d1", task="label", metric="macro_f1", std=0.01, **kw) -> int:
    s = settings(**kw)
    return log.record("cv", settings=s, seed=s["seed"], protocol=s["protocol"], data_hash=data, task=task,
                      data_path="/data/x.csv", summary={metric: {"mean": value, "std": std, "min": value - 0.02,
                                                                 "max": value + 0.02, "n": 10},
                                                        "error_rate": {"mean": 1 - value}},
                      per_fold=[{"repeat": 1, "fold": i + 1, metric: value} for i in range(3)])


@pytest.fixture
def log(tmp_path) -> RunLog:
    return RunLog(tmp_path / "runs.sqlite")


def test_record_and_read_back(log, tmp_path):
    table = pa.table({"id": [1, 2], "fold": [1, 2], "gold": ["a", "b"], "pred": ["a", "a"]})
    rid = log.record("cv", settings=settings(), seed=0, protocol={"kind": "kfold", "folds": 10},
                     summary={"accuracy": {"mean": 0.5, "std": float("nan"), "min": 0.5, "max": 0.5, "n": 1}},
                     per_fold=[{"repeat": 1, "fold": 1, "accuracy": 0.5}], data_hash="sha256:x",
                     versions={"clfeval": "0.1.0"}, predictions=table)
    run = log.get(rid)
    assert run.settings == settings() and run.seed == 0 and run.versions == {"clfeval": "0.1.0"}
    assert run.metrics["accuracy"]["mean"] == 0.5 and run.metrics["accuracy"]["std"] != run.metrics["accuracy"]["std"]
    assert run.per_fold == [{"repeat": 1, "fold": 1, "accuracy": 0.5}]
    import pyarrow.parquet as pq

    assert Path(run.predictions).parent == tmp_path / "runs-predictions"
    assert pq.read_table(run.predictions).equals(table)
    with sqlite3.connect(log.path) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(DataError, match="no run 99"):
        log.get(99)


def test_file_hash_is_of_the_content(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("text,label\nx,1\n")
    b.write_text("text,label\nx,1\n")
    assert file_hash(a) == file_hash(b)
    b.write_text("text,label\nx,2\n")
    assert file_hash(a) != file_hash(b)


def test_best_per_data_and_task(log):
    add(log, 0.70)
    b = add(log, 0.80, model="svm")
    add(log, 0.75, model="logreg")
    c = add(log, 0.60, data="sha256:d2")
    d = add(log, 0.90, task="topics (label sets)")  # same file, another task: does not compete
    best = log.best("macro_f1")
    assert [r.id for r in best.best] == [b, c, d]
    assert best.counts == (3, 1, 1)
    # a lower-is-better metric
    assert [r.id for r in log.best("error_rate").best] == [b, c, d]
    with pytest.raises(UsageError, match="no run .* recorded the metric 'kappa'"):
        log.best("kappa")


def test_best_ties_go_to_the_earliest_run(log):
    a = add(log, 0.8)
    add(log, 0.8, model="svm")
    assert log.best("macro_f1").best[0].id == a


def test_ablation_lists_one_factor_changes_worse_included(log):
    add(log, 0.99, model="svm", data="sha256:other")            # other data: never shown
    base = add(log, 0.80, model="nb", ngrams=2)                 # the best
    worse_model = add(log, 0.74, model="svm", ngrams=2)         # differs in model.name
    worse_ngram = add(log, 0.78, model="nb", ngrams=1)          # differs in model.ngrams
    seed_run = add(log, 0.79, model="nb", ngrams=2, seed=5)     # differs in seed
    add(log, 0.77, model="svm", ngrams=1)                       # two differences: not an ablation row
    ab = log.ablation("macro_f1")
    assert ab.base.id == base and "best" in ab.base_reason
    rows = {r.run.id: r for r in ab.rows}
    assert set(rows) == {worse_model, worse_ngram, seed_run}
    assert rows[worse_model].setting == "model.name" and rows[worse_model].base_value == "nb"
    assert rows[worse_model].value_setting == "svm"
    assert rows[worse_model].delta == pytest.approx(-0.06) and not rows[worse_model].better
    assert rows[seed_run].setting == "seed"
    assert ab.others == 1
    # with another base, the rows change accordingly
    ab2 = log.ablation("macro_f1", base=worse_ngram)
    ids = {r.run.id: r for r in ab2.rows}
    assert base in ids and ids[base].better and ids[base].delta == pytest.approx(0.02)


def test_ablation_default_base_is_on_the_latest_runs_data(log):
    add(log, 0.9, data="sha256:A")
    b = add(log, 0.5, data="sha256:B")
    add(log, 0.4, data="sha256:B", model="svm")
    assert log.ablation("macro_f1").base.id == b
    assert log.ablation("macro_f1", data_hash="sha256:A").base.data_hash == "sha256:A"


def test_check_passes_only_for_the_best_row(log):
    a = add(log, 0.80, std=0.05)
    b = add(log, 0.82, model="svm", std=0.05)
    add(log, 0.95, data="sha256:other")
    fail = log.check(a, "macro_f1")
    assert not fail.passed and fail.best.id == b and [r.id for r in fail.better] == [b]
    assert f"run {a} is not the best row by macro_f1" in fail.message
    assert f"run {b} with 0.8200 against 0.8000" in fail.message
    assert "model.name='svm'" in fail.message
    assert "smaller than the fold-to-fold standard deviation" in fail.message
    ok = log.check(b, "macro_f1")
    assert ok.passed and ok.runs_on_data == 2
    tie = add(log, 0.82, model="logreg")
    assert log.check(tie, "macro_f1").passed  # a tie with the best is a best row
    with pytest.raises(DataError, match="did not record the metric 'kappa'"):
        log.check(a, "kappa")


def test_flatten_settings():
    assert flatten_settings({"a": {"b": {"c": 1}}, "d": None}) == {"a.b.c": 1, "d": None}


def test_a_file_that_is_not_a_run_log(tmp_path):
    bad = tmp_path / "x.sqlite"
    bad.write_bytes(b"this is not a database, just some bytes" * 100)
    with pytest.raises(DataError, match="not a clfeval run log|cannot open"):
        RunLog(bad)
    with pytest.raises(UsageError, match="does not exist"):
        RunLog(tmp_path / "missing-dir" / "runs.sqlite")


# --- real processes -----------------------------------------------------------------------------

WRITER = textwrap.dedent("""
    import sys
    sys.path.insert(0, {src!r})
    from clfeval.protocols._runlog import RunLog
    log = RunLog(sys.argv[1], timeout=5.0, retries=200)
    tag = sys.argv[2]
    n = int(sys.argv[3])
    print("ready", flush=True)
    sys.stdin.readline()  # start together
    for i in range(n):
        log.record("cv", settings={{"writer": tag, "i": i}}, seed=i, protocol={{"kind": "kfold"}},
                   summary={{"accuracy": {{"mean": i / n}}}}, per_fold=[{{"repeat": 1, "fold": 1, "accuracy": i / n}}],
                   data_hash="sha256:same")
""")


def test_two_concurrent_writers_lose_nothing(tmp_path):
    db = tmp_path / "runs.sqlite"
    script = tmp_path / "writer.py"
    script.write_text(WRITER.format(src=SRC))
    n = 40
    procs = [subprocess.Popen([sys.executable, str(script), str(db), tag, str(n)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for tag in ("A", "B")]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    runs = RunLog(db).runs().runs
    assert len(runs) == 2 * n
    got = sorted((r.settings["writer"], r.settings["i"]) for r in runs)
    assert got == sorted((t, i) for t in "AB" for i in range(n))
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("SELECT COUNT(*) FROM metrics").fetchone()[0] == 2 * n
        assert con.execute("SELECT COUNT(*) FROM folds").fetchone()[0] == 2 * n


KILLED_IN_TRANSACTION = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {src!r})
    from clfeval.protocols._runlog import RunLog
    log = RunLog(sys.argv[1])
    original = RunLog._insert_rows
    def slow(self, con, row, summary, per_fold):
        rid = original(self, con, row, summary, per_fold)  # rows written, transaction still open
        print("inserted", rid, flush=True)
        time.sleep(60)
        return rid
    RunLog._insert_rows = slow
    log.record("cv", settings={{"x": 1}}, seed=0, protocol={{}}, summary={{"accuracy": {{"mean": 0.5}}}},
               per_fold=[{{"repeat": 1, "fold": f, "accuracy": 0.5}} for f in range(1, 11)], data_hash="sha256:k")
""")

KILLED_WRITING_PREDICTIONS = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {src!r})
    import pyarrow as pa, pyarrow.parquet as pq
    from clfeval.protocols._runlog import RunLog
    log = RunLog(sys.argv[1])
    original = pq.write_table
    def slow(table, where, *a, **k):
        original(table, where, *a, **k)   # the temporary file is written, not yet renamed
        print("written", flush=True)
        time.sleep(60)
    pq.write_table = slow
    log.record("cv", settings={{"x": 1}}, seed=0, protocol={{}}, summary={{"accuracy": {{"mean": 0.5}}}},
               data_hash="sha256:k", predictions=pa.table({{"id": [1], "gold": ["a"], "pred": ["a"]}}))
""")


def _kill_when(script: Path, db: Path, marker: str) -> None:
    p = subprocess.Popen([sys.executable, str(script), str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        line = p.stdout.readline()
        assert line.startswith(marker), (line, p.stderr.read() if p.poll() is not None else "")
        os.kill(p.pid, signal.SIGKILL)
        p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == -signal.SIGKILL


@pytest.mark.parametrize("which", ["transaction", "predictions"])
def test_kill_9_in_the_middle_of_a_run_leaves_no_half_record(tmp_path, which):
    db = tmp_path / "runs.sqlite"
    log = RunLog(db)
    before = log.record("cv", settings={"x": 0}, seed=0, protocol={}, summary={"accuracy": {"mean": 0.4}},
                        data_hash="sha256:k")
    script = tmp_path / "victim.py"
    script.write_text((KILLED_IN_TRANSACTION if which == "transaction" else KILLED_WRITING_PREDICTIONS).format(src=SRC))
    _kill_when(script, db, "inserted" if which == "transaction" else "written")
    log = RunLog(db)
    runs = log.runs().runs
    assert [r.id for r in runs] == [before]  # nothing of the killed run
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("SELECT COUNT(*) FROM metrics").fetchone()[0] == 1
        assert con.execute("SELECT COUNT(*) FROM folds").fetchone()[0] == 0
    assert list(log.predictions_dir.glob("*.parquet")) == [] if log.predictions_dir.exists() else True
    after = log.record("cv", settings={"x": 2}, seed=0, protocol={}, summary={"accuracy": {"mean": 0.6}},
                       data_hash="sha256:k")
    assert [r.id for r in log.runs().runs] == [before, after]


@pytest.mark.parametrize("mode", [0o444, 0o644])
def test_runs_list_on_a_log_no_one_has_open_leaves_no_wal_or_shm(tmp_path, mode):
    """Issue 17: a read-only look opens the log read-only and leaves the folder as it was."""
    import os

    from tests._helpers.clihelp import run

    log = RunLog(tmp_path / "runs.sqlite")
    add(log, 0.7)
    del log
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs.sqlite"]
    os.chmod(tmp_path / "runs.sqlite", mode)
    before = (tmp_path / "runs.sqlite").read_bytes()
    try:
        res = run("runs", "list", "--runs-db", str(tmp_path / "runs.sqlite"))
    finally:
        os.chmod(tmp_path / "runs.sqlite", 0o644)
    assert res.code == 0, res.err
    assert "0.7" in res.out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs.sqlite"]
    assert (tmp_path / "runs.sqlite").read_bytes() == before
