"""The local engine and the Dask engine on the same trees and reading options (issue 17): the same result, or the
same refusal (the same exit code, naming the same file and column). Dask runs on the session's LocalCluster
(127.0.0.1); each case is a few rows, written here, whose counts are known by hand."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests._helpers.clihelp import run

pytest.importorskip("distributed")
SRC = str(Path(__file__).resolve().parents[2] / "src")


@pytest.fixture(scope="module")
def scheduler(dask_client):
    return dask_client.scheduler.address


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def _parquet(path: Path, **cols) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table(cols), path)


def _tree(case: str, root: Path) -> tuple[list[str], int | None, tuple[str, ...]]:
    """Build one case under ``root``: (command-line arguments, the n both must find or None, needles of a refusal)."""
    two = "gold,pred\na,a\nb,a\n"
    if case == "alias":
        write(root / "d" / "real" / "p.csv", "gold,pred\na,a\nb,a\na,b\nb,b\n")
        (root / "d" / "alias").symlink_to("real")
        return ["d"], 4, ()
    if case == "loop":
        write(root / "loopdir" / "p.csv", two)
        (root / "loopdir" / "loop").symlink_to("../loopdir")
        return ["loopdir"], None, ("'loopdir/loop'",)
    if case == "underscore":
        write(root / "sp" / "part-0.csv", two)
        write(root / "sp" / "_temporary" / "0" / "part-0.csv", "gold,pred\na,b\nb,a\na,a\n")
        return ["sp/**/*.csv"], 2, ()
    if case == "one_line_member":
        write(root / "d" / "a.csv", "gold,pred\na,a\n")
        write(root / "d" / "b.csv", "a,b\n")
        return ["d"], None, ("'d/b.csv'", "'gold'")
    if case == "duplicate_ids":
        write(root / "d" / "p1.csv", "id,gold,pred\nd1,a,a\nd2,b,b\n")
        write(root / "d" / "p2.csv", "id,gold,pred\nd3,a,b\nd1,a,a\n")
        return ["d"], None, ("'d1'", "'d/p1.csv', row 1", "'d/p2.csv', row 2")
    if case == "huge_field":
        write(root / "l.csv", "gold,pred\na,a\n" + "x" * (17 << 20) + ",a\nb,b\n")
        return ["l.csv"], 3, ()
    if case == "latin1":
        write(root / "l1.csv", "gold,pred\ncaf\xe9,caf\xe9\nb,a\n".encode("latin-1"))
        return ["l1.csv", "--encoding", "latin-1"], 2, ()
    if case == "bom":
        write(root / "bom.csv", b"\xef\xbb\xbfgold,pred\na,a\nb,a\n")
        return ["bom.csv"], 2, ()
    if case == "not_utf8":
        write(root / "bad.csv", b"gold,pred\na,a\n\xff,a\n")
        return ["bad.csv"], None, ("'bad.csv'", "UTF-8")
    if case == "jsonl":
        write(root / "j" / "a.jsonl", '{"gold": "a", "pred": "a"}\n{"gold": "b", "pred": "a"}\n')
        write(root / "j" / "b.jsonl", '{"gold": "a", "pred": "b"}\n')
        return ["j"], 3, ()
    if case == "hive":
        _parquet(root / "h" / "model=x" / "part-0.parquet", gold=["a", "b"], pred=["a", "a"])
        _parquet(root / "h" / "model=y" / "part-0.parquet", gold=["a"], pred=["b"])
        return ["h", "--pred", "model"], 3, ()  # the partition column read as predictions: x, x, y
    if case == "nfc":
        write(root / "n.csv", "gold,pred\ne\u0301,\u00e9\nb,b\n")
        return ["n.csv", "--normalize-labels", "nfc"], 2, ()
    if case == "missing_column":
        write(root / "m.csv", "gold,guess\na,a\n")
        return ["m.csv"], None, ("'m.csv'", "'pred'")
    if case == "empty_label":
        write(root / "e.csv", "gold,pred\na,a\n,b\n")
        return ["e.csv"], None, ("'e.csv'", "row 2")
    if case == "int_scores":
        _parquet(root / "s.parquet", gold=["a", "b", "a"], pred=["a", "a", "a"], score=[2 ** 62 + 1, 2 ** 62, 3])
        return ["s.parquet", "--score", "score", "--positive", "a"], 3, ()
    raise AssertionError(case)


CASES = ["alias", "loop", "underscore", "one_line_member", "duplicate_ids", "huge_field", "latin1", "bom", "not_utf8",
         "jsonl", "hive", "nfc", "missing_column", "empty_label", "int_scores"]


def _numbers(out: dict) -> dict:
    keep = {k: out.get(k) for k in ("n", "accuracy", "labels")}
    keep["macro"] = out.get("macro")
    if "ranking" in out:
        keep["ranking"] = {k: out["ranking"].get(k) for k in ("roc_auc", "average_precision", "n_positive")}
    return keep


@pytest.mark.parametrize("case", CASES)
def test_local_and_dask_agree(tmp_path, monkeypatch, scheduler, case):
    monkeypatch.chdir(tmp_path)
    args, n, needles = _tree(case, tmp_path)
    local = run("report", *args, "-f", "json")
    dask = run("report", *args, "-f", "json", "--engine", "dask", "--scheduler", scheduler)
    assert local.code == dask.code, (local.err, dask.err)
    assert "Traceback" not in local.err + dask.err
    if n is None:
        assert local.code in (1, 2)
        for needle in needles:
            assert needle in local.err and needle in dask.err, (needle, local.err, dask.err)
        return
    assert local.code == 0
    lo, da = json.loads(local.out), json.loads(dask.out)
    assert lo["n"] == da["n"] == n
    assert _numbers(lo) == _numbers(da)
    if case == "int_scores":
        assert lo["ranking"]["roc_auc"] == 0.5  # (2^62+1 > 2^62) in order, (3 < 2^62) not
    if case == "alias":
        assert lo["inputs"] == da["inputs"]


def test_unreadable_subdirectory_refused_on_both_engines(tmp_path, scheduler):
    prefix: list[str] = []
    if os.geteuid() == 0:
        import shutil

        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv")
        prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
    write(tmp_path / "e" / "p1" / "p.csv", "gold,pred\na,a\nb,a\n")
    write(tmp_path / "e" / "p2" / "p.csv", "gold,pred\na,a\n")
    os.chmod(tmp_path / "e" / "p2", 0)
    codes = []
    try:
        for extra in ([], ["--engine", "dask", "--scheduler", scheduler]):
            got = subprocess.run([*prefix, sys.executable, "-m", "clfeval", "report", "e", *extra], cwd=tmp_path,
                                 capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=SRC))
            assert "'e/p2'" in got.stderr and "Traceback" not in got.stderr, got.stderr
            codes.append(got.returncode)
    finally:
        os.chmod(tmp_path / "e" / "p2", 0o755)
    assert codes == [2, 2]


def test_the_cli_no_longer_refuses_reading_options_on_dask(tmp_path, monkeypatch, scheduler):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "n.csv", "gold,pred\ne\u0301,\u00e9\n\u00e9,\u00e9\n")
    out = json.loads(run("report", "n.csv", "--normalize-labels", "nfc", "--encoding", "utf-8", "-f", "json",
                         "--engine", "dask", "--scheduler", scheduler).out)
    assert out["n"] == 2 and out["accuracy"] == 1.0  # both golds are é once normalised


@pytest.mark.parametrize("command", ["threshold", "calibration", "compare"])
def test_reading_options_give_the_local_numbers_on_dask(tmp_path, monkeypatch, scheduler, command):
    """--encoding latin-1 and --normalize-labels nfc, once refused with --engine dask, now read as locally."""
    monkeypatch.chdir(tmp_path)
    rows = ["id,gold,pred,score", "1,caf\xe9,caf\xe9,0.9", "2,cafe\u0301,caf\xe9,0.8", "3,no,caf\xe9,0.7",
            "4,no,no,0.2", "5,caf\xe9,no,0.4", "6,no,no,0.1"]
    write(tmp_path / "l1.csv", ("\n".join(rows) + "\n").replace("cafe\u0301", "caf\xe9").encode("latin-1"))
    write(tmp_path / "n.csv", "\n".join(rows) + "\n")
    write(tmp_path / "n2.csv", "\n".join(r.replace(",no,no,0.2", ",no,caf\xe9,0.2") for r in rows) + "\n")
    argv = {"threshold": ["threshold", "n.csv", "--score", "score", "--positive", "caf\xe9"],
            "calibration": ["calibration", "n.csv", "--prob", "score", "--positive", "caf\xe9"],
            "compare": ["compare", "n.csv", "n2.csv", "--samples", "200"]}[command]
    for extra in (["--normalize-labels", "nfc"], ["--encoding", "latin-1"]):
        args = argv + extra
        if "--encoding" in extra:
            args = [a.replace("n.csv", "l1.csv").replace("n2.csv", "l1.csv") for a in args]
        local = run(*args, "-f", "json")
        dask = run(*args, "-f", "json", "--engine", "dask", "--scheduler", scheduler)
        assert local.code == dask.code == 0, (local.err, dask.err)
        lo, da = json.loads(local.out), json.loads(dask.out)
        for key in ("n", "n_test", "ece", "brier", "ranking", "threshold", "test", "a", "b", "delta", "p_value"):
            if key in lo:
                assert _strip(lo[key]) == _strip(da[key]), key


def _strip(x):
    if isinstance(x, dict):
        return {k: _strip(v) for k, v in x.items() if k not in ("external", "signature", "engine")}
    return x


def _wait_for_tasks(address, job, timeout=90.0):
    """Return once the scheduler holds tasks (the job is computing), or when the job ended or the time ran out."""
    from distributed import Client

    with Client(address, timeout=30) as c:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and job.poll() is None:
            if c.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) > 0:
                return
            time.sleep(0.05)


def _wait_for_worker(address, timeout=60.0):
    """Return once the scheduler at ``address`` answers and one worker has registered with it."""
    from distributed import Client

    with Client(address, timeout=timeout) as c:
        c.wait_for_workers(1, timeout=timeout)


def test_a_scheduler_lost_mid_run_is_exit_2_without_output(tmp_path):
    """A scheduler of our own (127.0.0.1) killed while the job runs: exit 2, 'the Dask cluster was lost'."""
    import socket

    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    rng = np.random.default_rng(1)
    (tmp_path / "d").mkdir()
    for k in range(8):
        n = 400_000
        g = rng.integers(0, 2, n)
        sc = rng.random(n)
        pq.write_table(pa.table({"gold": g, "pred": (sc >= .5).astype(int), "score": sc}), tmp_path / "d" /
                       f"part-{k}.parquet", row_group_size=10_000)
    bindir = Path(sys.executable).parent
    env = dict(os.environ, PYTHONPATH=SRC)
    sched = subprocess.Popen([str(bindir / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                              "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    worker = None
    try:
        worker = subprocess.Popen([str(bindir / "dask"), "worker", f"tcp://127.0.0.1:{port}", "--host", "127.0.0.1",
                                   "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        _wait_for_worker(f"tcp://127.0.0.1:{port}")  # no fixed sleeps (they were 7 s): the worker has registered
        job = subprocess.Popen([sys.executable, "-m", "clfeval", "report", "d", "--score", "score", "--positive", "1",
                                "--engine", "dask", "--scheduler", f"tcp://127.0.0.1:{port}", "-f", "json", "-o",
                                "o.json"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
        _wait_for_tasks(f"tcp://127.0.0.1:{port}", job)  # the job connected and its tasks are on the cluster
        sched.send_signal(signal.SIGKILL)
        out, err = job.communicate(timeout=120)
    finally:
        for p in (sched, worker):
            if p is not None and p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
    if job.returncode == 0 or "cannot reach the Dask scheduler" in err:
        pytest.skip("the scheduler was not killed while the job ran (the job was too fast or too slow to start)")
    assert job.returncode == 2, err
    assert "the Dask cluster was lost" in err and "Traceback" not in err
    assert not (tmp_path / "o.json").exists()


# --- the id join names the same id whatever the memory budget or engine ---------------------------------

def _join_files(root: Path) -> None:
    rows = [(f"i{k}", "a" if k % 2 else "b") for k in range(200)]

    def put(name: str, rs: list) -> None:
        write(root / name, "id,gold,pred\n" + "".join(f"{i},{g},{g}\n" for i, g in rs))

    # two duplicated ids: i150 repeats at row 152 (inserted at row 101), i7 at row 202; reading in order,
    # row 152 is the first row whose id was seen before
    put("dup.csv", rows[:100] + [("i150", rows[150][1])] + rows[100:] + [("i7", rows[7][1])])
    put("full.csv", rows)
    put("first150.csv", rows[:150])
    put("extra.csv", rows + [("x1", "a"), ("x2", "b")])


@pytest.mark.parametrize("pair, needles", [
    (("dup.csv", "full.csv"), ("'dup.csv'", "'i150'", "rows 101 and 152")),
    (("full.csv", "dup.csv"), ("'dup.csv'", "'i150'", "rows 101 and 152")),
    (("full.csv", "first150.csv"), ("50 id(s)", "full", "first150", "'i150'")),
    (("first150.csv", "full.csv"), ("50 id(s)", "full", "first150", "'i150'")),
    (("full.csv", "extra.csv"), ("2 id(s)", "extra", "'x1'")),
])
def test_the_id_join_names_the_same_ids_in_memory_spilled_and_on_dask(tmp_path, monkeypatch, scheduler, pair,
                                                                       needles):
    monkeypatch.chdir(tmp_path)
    _join_files(tmp_path)
    for extra in ([], ["--memory", "4KiB"], ["--engine", "dask", "--scheduler", scheduler]):
        res = run("compare", *pair, *extra)
        assert res.code == 1, (extra, res.err)
        for needle in needles:
            assert needle in res.err, (extra, needle, res.err)
        assert "i7'" not in res.err


def test_report_names_the_same_duplicate_whatever_the_budget(tmp_path, monkeypatch, scheduler):
    monkeypatch.chdir(tmp_path)
    _join_files(tmp_path)
    from clfeval.errors import DataError
    from clfeval.io._predictions import read_predictions

    for extra in ([], ["--memory", "4KiB"], ["--engine", "dask", "--scheduler", scheduler]):
        res = run("report", "dup.csv", *extra)
        assert res.code == 1 and "'i150'" in res.err and "rows 101 and 152" in res.err, (extra, res.err)
    with pytest.raises(DataError, match=r"'i150' occurs more than once \(rows 101 and 152\)"):
        read_predictions("dup.csv")  # the whole-file read (thresholds, intervals)


def test_look_alike_ids_are_shown_with_code_points(tmp_path, monkeypatch, scheduler):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "lk.csv", "id,gold,pred\ncafe\u0301,a,a\ncaf\u00e9,b,b\ncafe\u0301,a,b\n")
    for extra in ([], ["--engine", "dask", "--scheduler", scheduler]):
        res = run("report", "lk.csv", *extra)
        assert res.code == 1 and "'cafe\\u0301'" in res.err and "rows 1 and 3" in res.err, res.err


@pytest.mark.parametrize("value, shown", [("nan", "holds nan"), ("inf", "holds inf"), ("", "every item needs a score")])
def test_a_bad_score_is_named_by_file_row_and_line_on_both_engines(tmp_path, monkeypatch, scheduler, value, shown):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "s.csv", f"gold,pred,score\na,a,0.5\nb,a,{value}\n")
    for extra in ([], ["--engine", "dask", "--scheduler", scheduler]):
        res = run("report", "s.csv", "--score", "score", "--positive", "a", *extra)
        assert res.code == 1, res.err
        assert shown in res.err and "row 2 (line 3)" in res.err and "'s.csv'" in res.err, (extra, res.err)


def test_a_file_the_workers_cannot_read_is_refused_naming_it(tmp_path, dask_client):
    """The probe task: the workers open every file before any work (here the file is gone by then, as a path
    on the client's disk only would be on a remote worker)."""
    from clfeval.engines.dask._parts import parts_of, probe
    from clfeval.errors import InputFileError

    write(tmp_path / "d" / "a.csv", "gold,pred\na,a\n")
    write(tmp_path / "d" / "b.csv", "gold,pred\nb,a\n")
    parts = parts_of(str(tmp_path / "d"), ["gold", "pred"])
    probe(parts, dask_client)  # readable: nothing said
    (tmp_path / "d" / "b.csv").unlink()
    with pytest.raises(InputFileError, match=r"b\.csv' cannot be read by the Dask workers"):
        probe(parts, dask_client)


def test_integer_scores_threshold_and_calibration_agree(tmp_path, monkeypatch, scheduler):
    # item 11 beyond the report: the exact cut 2^62+1 (a JSON integer) on both engines; calibration refuses the
    # integers as non-probabilities on both
    monkeypatch.chdir(tmp_path)
    _parquet(tmp_path / "s.parquet", gold=["a", "b", "a"], pred=["a", "a", "a"], score=[2 ** 62 + 1, 2 ** 62, 3])
    dask = ["--engine", "dask", "--scheduler", scheduler]
    argv = ["threshold", "s.parquet", "--score", "score", "--positive", "a", "--objective", "precision>=1", "-f",
            "json"]
    local, remote = run(*argv), run(*argv, *dask)
    assert local.code == remote.code == 0, (local.err, remote.err)
    lo, da = json.loads(local.out), json.loads(remote.out)
    assert lo["hindsight"] == da["hindsight"]
    assert lo["hindsight"]["threshold"] == 2 ** 62 + 1 and (lo["hindsight"]["tp"], lo["hindsight"]["fp"]) == (1, 0)
    assert lo["sweep"] == da["sweep"]
    for extra in ([], dask):
        got = run("calibration", "s.parquet", "--prob", "score", "--positive", "a", *extra)
        assert got.code == 1 and "Traceback" not in got.err
        assert "4611686018427387905" in got.err and "outside [0, 1]" in got.err
