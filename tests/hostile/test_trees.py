"""Inputs as trees (issue 17): globs, directories, symbolic links, unreadable parts, odd members and options.

The cases of ``shared/tests/hostile_trees.sh``, sized to run in seconds, with this issue's own exit codes and
numbers. Expected values are hand counts of the few rows written here (the comments show them) or come from
brute-force enumeration with exact fractions.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests._helpers.clihelp import run
from tests._helpers.outhelp import interruptible

SRC = str(Path(__file__).resolve().parents[2] / "src")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def report_json(*args) -> dict:
    res = run("report", *map(str, args), "-f", "json")
    assert res.code == 0, (res.code, res.err)
    return json.loads(res.out)


def refused(res, code: int, *needles: str) -> None:
    assert res.code == code, (res.code, res.out, res.err)
    assert "Traceback" not in res.err and res.out == ""
    for n in needles:
        assert n in res.err, (n, res.err)


# --- 1. an output named by a glob input ---------------------------------------------------------------

ROWS = "id,gold,pred,score\nd1,1,1,0.8\nd2,0,0,0.3\nd3,1,1,0.7\nd4,0,1,0.6\n"


@pytest.mark.parametrize("argv", [
    ["report", "od/*.csv"],
    ["compare", "od/*.csv", "od/*.csv"],
    ["threshold", "od/*.csv", "--score", "score", "--positive", "1"],
    ["threshold", "keep.csv", "--score", "score", "--positive", "1", "--dev", "od/*.csv"],
    ["calibration", "od/*.csv", "--prob", "score", "--positive", "1"],
    ["report", "od/*.csv", "--engine", "dask"],
])
def test_an_output_that_a_glob_input_names_is_refused(tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "od" / "a.csv", ROWS)
    write(tmp_path / "keep.csv", ROWS)
    res = run(*argv, "-f", "text", "-o", "od/a.csv")
    refused(res, 2, "--output", "'od/a.csv'", "destroy the input", "'od/*.csv'")
    assert (tmp_path / "od" / "a.csv").read_text() == ROWS


def test_an_output_beside_the_glob_matches_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "od" / "a.csv", ROWS)
    assert run("report", "od/*.csv", "-o", "od/out.json", "-f", "json").code == 0
    assert json.loads((tmp_path / "od" / "out.json").read_text())["n"] == 4


# --- 2, 3. second paths and loops ---------------------------------------------------------------------

def test_a_symlink_to_a_sibling_directory_is_read_once_and_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "d" / "real" / "p.csv", "gold,pred\na,a\nb,a\na,b\nb,b\n")
    (tmp_path / "d" / "alias").symlink_to("real")
    res = run("report", "d", "-f", "json")
    assert res.code == 0
    out = json.loads(res.out)
    assert out["n"] == 4 and out["accuracy"] == 0.5  # 2 of the 4 rows right, each row once
    assert out["inputs"]["aliases"] == [{"skipped": "d/alias", "same_as": "d/real"}]
    assert res.err.count("\n") == 1 and "'d/alias' is 'd/real'" in res.err


@pytest.mark.parametrize("argv", [["threshold", "d", "--score", "s", "--positive", "a"],
                                  ["calibration", "d", "--prob", "s", "--positive", "a"],
                                  ["compare", "d", "e.csv", "--score", "s", "--positive", "a", "-m", "roc_auc"],
                                  ["compare", "d", "e.csv"]])
def test_every_command_lists_the_skipped_second_paths_in_its_json(tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    rows = "gold,pred,s\na,a,0.9\nb,a,0.4\na,b,0.6\nb,b,0.1\n"
    write(tmp_path / "d" / "real" / "p.csv", rows)
    write(tmp_path / "e.csv", rows)
    (tmp_path / "d" / "alias").symlink_to("real")
    res = run(*argv, "-f", "json")
    assert res.code == 0, res.err
    out = json.loads(res.out)
    assert out["inputs"]["aliases"] == [{"skipped": "d/alias", "same_as": "d/real"}]
    assert "'d/alias' is 'd/real'" in res.err


def test_no_aliases_no_inputs_section(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "e.csv", "gold,pred,s\na,a,0.9\nb,a,0.4\n")
    res = run("threshold", "e.csv", "--score", "s", "--positive", "a", "-f", "json")
    assert res.code == 0 and "inputs" not in json.loads(res.out)


def test_a_hard_link_and_a_glob_through_a_symlink_count_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "h" / "a.csv", "gold,pred\na,a\nb,a\n")
    os.link(tmp_path / "h" / "a.csv", tmp_path / "h" / "b.csv")
    assert report_json("h")["n"] == 2
    write(tmp_path / "g" / "real" / "p.csv", "gold,pred\na,a\nb,a\n")
    (tmp_path / "g" / "alias").symlink_to("real")
    assert report_json("g/**/*.csv")["n"] == 2


def test_symlink_loops_are_refused_naming_the_link(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "loopdir" / "p.csv", "gold,pred\na,a\nb,a\n")
    (tmp_path / "loopdir" / "sub").symlink_to("..")
    (tmp_path / "loopdir" / "loop").symlink_to("../loopdir")
    refused(run("report", "loopdir"), 2, "symbolic link 'loopdir/loop'", "never ends")
    refused(run("report", "loopdir/**/*.csv"), 2, "symbolic link", "never ends")
    os.unlink(tmp_path / "loopdir" / "loop")
    refused(run("report", "loopdir"), 2, "symbolic link 'loopdir/sub'")


# --- 4. unreadable parts ------------------------------------------------------------------------------

def _unprivileged() -> list[str]:
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: permissions cannot be denied")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


@pytest.mark.parametrize("path", ["e", "e/**/*.csv"])
def test_an_unreadable_subdirectory_is_an_error_naming_it(tmp_path, path):
    prefix = _unprivileged()
    write(tmp_path / "e" / "p1" / "p.csv", "gold,pred\na,a\nb,a\n")
    write(tmp_path / "e" / "p2" / "p.csv", "gold,pred\na,a\nb,b\na,a\n")
    os.chmod(tmp_path / "e" / "p2", 0)
    try:
        got = subprocess.run([*prefix, sys.executable, "-m", "clfeval", "report", path, "-f", "json"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=SRC))
    finally:
        os.chmod(tmp_path / "e" / "p2", 0o755)
    assert got.returncode == 2, got.stderr
    assert "'e/p2'" in got.stderr and "cannot be listed" in got.stderr and "Traceback" not in got.stderr
    assert got.stdout == ""


def test_a_broken_symlink_is_an_error_naming_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "b" / "p.csv", "gold,pred\na,a\n")
    (tmp_path / "b" / "gone.csv").symlink_to("nowhere.csv")
    refused(run("report", "b"), 2, "'b/gone.csv'", "does not exist")


# --- 5. members that lack a column --------------------------------------------------------------------

@pytest.mark.parametrize("member", ["a,b\n", "a,b\nx,y\n"])
def test_a_member_without_the_columns_is_refused_whatever_its_length(tmp_path, monkeypatch, member):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "d" / "a.csv", "gold,pred\na,a\n")
    write(tmp_path / "d" / "b.csv", member)
    refused(run("report", "d"), 1, "'d/b.csv'", "no column 'gold'", "'a', 'b'")


def test_a_header_only_member_with_the_columns_adds_no_rows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "d" / "a.csv", "gold,pred\na,a\nb,a\n")
    write(tmp_path / "d" / "b.csv", "gold,pred\n")
    assert report_json("d")["n"] == 2


# --- 6. '_' and '.' names -----------------------------------------------------------------------------

def test_underscore_directories_are_skipped_below_what_the_user_typed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "sp" / "part-0.csv", "gold,pred\na,a\nb,b\n")
    write(tmp_path / "sp" / "_temporary" / "0" / "part-0.csv", "gold,pred\na,b\nb,a\na,a\n")
    write(tmp_path / "sp" / ".hidden.csv", "gold,pred\na,b\n")
    assert report_json("sp")["n"] == report_json("sp/**/*.csv")["n"] == report_json("sp/*.csv")["n"] == 2
    assert report_json("sp/_temporary/*/*.csv")["n"] == 3  # typed: read
    assert report_json("sp/_*/*/*.csv")["n"] == 3  # a pattern component that starts with '_' matches '_' names
    assert report_json("sp/_temporary")["n"] == 3


def test_a_glob_that_matches_nothing_with_a_bracket_says_how_to_escape_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "r[1].csv", "gold,pred\na,a\n")
    refused(run("report", "r[1]*.csv"), 2, "matches no file", "'[[]'")
    assert report_json("r[[]1]*.csv")["n"] == 1


# --- 8. one long field --------------------------------------------------------------------------------

def test_a_field_longer_than_a_block_is_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "l.csv").write_text("gold,pred\na,a\n" + "x" * (17 << 20) + ",a\nb,b\n")
    out = report_json("l.csv")
    assert out["n"] == 3 and out["accuracy"] == pytest.approx(2 / 3)  # rows a/a, x/a, b/b


def test_a_field_beyond_the_block_cap_is_refused_naming_the_cap(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the cap: min(256 MiB, --memory / 4) = 1 MiB
    (tmp_path / "l.csv").write_text("gold,pred\na,a\n" + "x" * (3 << 20) + ",a\nb,b\n")
    refused(run("report", "l.csv", "--memory", "4MiB"), 1, "'l.csv'", "longer than 1 MiB", "row 2 (line 3)")


# --- 9. numeric options in range ----------------------------------------------------------------------

@pytest.mark.parametrize("args, needle", [
    (["--alpha", "1e-20", "--delta", "0.01"], "--alpha"),
    (["--delta", "0"], "--delta"),
    (["--power", "1"], "--power"),
])
def test_power_options_out_of_range_are_refused_before_any_work(tmp_path, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.csv", "id,gold,pred\nd1,a,a\nd2,b,b\nd3,a,b\nd4,b,b\n")
    write(tmp_path / "b.csv", "id,gold,pred\nd1,a,a\nd2,b,a\nd3,a,b\nd4,b,b\n")
    refused(run("power", "a.csv", "b.csv", *args), 2, needle, "must be a", " from ")


@pytest.mark.parametrize("args, needle", [(["--width", "1e-15"], "--width"),
                                          (["--level", "0.999999999999"], "--level")])
def test_interval_options_out_of_range_are_refused(tmp_path, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.csv", "gold,pred\na,a\nb,b\na,b\n")
    refused(run("power", "a.csv", *args), 2, needle, " from ")


def test_a_margin_wider_than_the_metric_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.csv", "id,gold,pred\nd1,a,a\nd2,b,b\n")
    write(tmp_path / "b.csv", "id,gold,pred\nd1,a,a\nd2,b,a\n")
    refused(run("compare", "a.csv", "b.csv", "--margin", "1e308"), 2, "--margin", "from 0 to 1")


# --- 10. signals and spill directories ----------------------------------------------------------------

def _spilling_run(tmp_path: Path, n: int = 1_000_000) -> subprocess.Popen:
    """A report that spills its ranking for a while (killed by the test: a million rows, so that under load the run
    is still spilling when the signal arrives; with 300,000 it sometimes had finished, exit 0)."""
    import numpy as np

    rng = np.random.default_rng(1)
    g = rng.integers(0, 2, n)
    s = np.round(rng.random(n) * 0.6 + g * 0.3, 6)
    with open(tmp_path / "big.csv", "w") as f:
        f.write("gold,pred,score\n")
        f.write("".join(f"{a},{int(c >= .5)},{c}\n" for a, c in zip(g.tolist(), s.tolist(), strict=True)))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, PYTHONPATH=SRC, TMPDIR=str(tmp))
    return subprocess.Popen([sys.executable, "-m", "clfeval", "report", "big.csv", "--score", "score", "--positive",
                             "1",
                             "--memory", "4KiB", "-f", "json", "-o", "out.json"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=interruptible)


@pytest.mark.parametrize("sig, code", [("SIGHUP", 129), ("SIGQUIT", 131)])
def test_sighup_and_sigquit_remove_the_spill_and_write_nothing(tmp_path, sig, code):
    import signal
    import time

    p = _spilling_run(tmp_path)
    tmp = tmp_path / "tmp"
    deadline = time.monotonic() + 60
    seen = False
    while not seen and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.01)
        seen = any(tmp.iterdir())
    if not seen:
        p.kill()
        _, err = p.communicate(timeout=60)
        raise AssertionError(f"no spill directory appeared (exit {p.returncode}): {err.decode()[-2000:]}")
    p.send_signal(getattr(signal, sig))
    _, err = p.communicate(timeout=60)
    assert p.returncode == code, err
    assert f"interrupted by {sig}" in err.decode()
    assert list(tmp.iterdir()) == [] and not (tmp_path / "out.json").exists()


def test_stale_spill_directories_are_swept_and_nothing_else(tmp_path):
    import fcntl

    from clfeval.io._spill import spill_directory

    dead = tmp_path / "clfeval-spill-host-123-0123456789ab"
    dead.mkdir()
    (dead / "lock").write_text("")
    (dead / "run-000000.npy").write_bytes(b"x" * 100)
    live = tmp_path / "clfeval-spill-host-124-0123456789ac"
    live.mkdir()
    (live / "lock").write_text("")
    fd = os.open(live / "lock", os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # a running clfeval holds its lock
    keep = [tmp_path / "clfeval-runs.sqlite", tmp_path / "clfeval-spill-host-125-0123456789ad"]
    keep[0].write_text("log")
    keep[1].write_text("a file of the pattern")
    (tmp_path / "dask-scratch-space").mkdir()
    (tmp_path / "clfeval-spill-other").mkdir()
    try:
        with spill_directory(str(tmp_path)) as d:
            assert os.path.isdir(d)
        names = sorted(x.name for x in tmp_path.iterdir())
    finally:
        os.close(fd)
    assert names == sorted(["clfeval-spill-host-124-0123456789ac", "clfeval-runs.sqlite",
                            "clfeval-spill-host-125-0123456789ad", "dask-scratch-space", "clfeval-spill-other"])


# --- 11. integer scores beyond 2^53 -------------------------------------------------------------------

@pytest.fixture
def int_scores(tmp_path, monkeypatch):
    import pyarrow as pa
    import pyarrow.parquet as pq

    monkeypatch.chdir(tmp_path)
    pq.write_table(pa.table({"gold": ["a", "b", "a"], "pred": ["a", "a", "a"],
                             "score": pa.array([2 ** 62 + 1, 2 ** 62, 3])}), "s.parquet")
    return tmp_path


def test_integer_scores_beyond_2p53_rank_exactly(int_scores):
    # positives a at 2^62+1 and 3, the negative b at 2^62: one of the two (positive, negative) pairs in order
    out = report_json("s.parquet", "--score", "score", "--positive", "a")
    assert out["ranking"]["roc_auc"] == 0.5
    assert out["ranking"]["average_precision"] == pytest.approx((1 / 2) * 1 + (1 / 2) * (2 / 3))


def test_integer_scores_beyond_2p53_threshold_cuts_exactly(int_scores):
    # precision >= 1 holds only above the negative at 2^62: the cut is 2^62+1 itself, a JSON integer
    # (as a float it would be 2^62, which lets the negative in: precision 1/2)
    got = run("threshold", "s.parquet", "--score", "score", "--positive", "a", "--objective", "precision>=1",
              "-f", "json")
    assert got.code == 0, got.err
    hind = json.loads(got.out)["hindsight"]
    assert type(hind["threshold"]) is int and hind["threshold"] == 2 ** 62 + 1
    assert (hind["tp"], hind["fp"], hind["fn"], hind["tn"]) == (1, 0, 1, 1)
    text = run("threshold", "s.parquet", "--score", "score", "--positive", "a", "--objective", "precision>=1")
    assert "4611686018427387905" in text.out  # the text shows the integer in full too


def test_integer_scores_a_float_threshold_compares_exactly(int_scores):
    # 2^62 - 0.5 is the float 2^62: items >= 2^62 are 2^62+1 (a) and 2^62 (b); 2^62 + 1024 (the next float):
    # none of them
    for given, counts in (("4611686018427387903.5", (1, 1)), ("4611686018427388928", (0, 0)), ("3.5", (1, 1)),
                          ("3", (2, 1))):
        got = run("threshold", "s.parquet", "--score", "score", "--positive", "a", "--default-threshold", given,
                  "-f", "json")
        assert got.code == 0, got.err
        d = json.loads(got.out)["default"]
        assert (d["tp"], d["fp"]) == counts, given


def test_integer_scores_beyond_2p53_compare_roc_auc_exactly(int_scores):
    got = run("compare", "s.parquet", "s.parquet", "--score", "score", "--positive", "a", "-m", "roc_auc",
              "-f", "json")
    assert got.code == 0, got.err
    d = json.loads(got.out)
    assert d["a"] == d["b"] == 0.5


def test_integer_scores_beyond_2p53_are_no_probabilities(int_scores):
    # calibration needs probabilities: an integer outside [0, 1] is refused as such, shown exactly
    refused(run("calibration", "s.parquet", "--prob", "score", "--positive", "a"), 1, "'score'",
            "4611686018427387905", "row 1", "outside [0, 1]")


def test_order_keys_keep_the_order_of_every_int64():
    import numpy as np

    from clfeval.scores._columns import order_keys

    rng = np.random.default_rng(3)
    x = np.concatenate([rng.integers(-(2 ** 62), 2 ** 62, 2000), [0, 1, -1, 2 ** 53, 2 ** 53 + 1, -(2 ** 53) - 1]])
    k = order_keys(x)
    assert np.isfinite(k).all()
    assert (np.argsort(x, kind="stable") == np.argsort(k, kind="stable")).all()
    assert len(np.unique(k)) == len(np.unique(x))


# --- 12. scheduler addresses --------------------------------------------------------------------------

@pytest.mark.parametrize("address", ["not a url", "http://127.0.0.1:8786", "inproc://x", "tcp://[::1",
                                     "tcp://127.0.0.1:0", "tcp://127.0.0.1:70000", "tcp://127.0.0.1"])
def test_malformed_scheduler_addresses_are_refused_with_a_sentence(tmp_path, monkeypatch, address):
    pytest.importorskip("distributed")
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "p.csv", "gold,pred\na,a\nb,a\n")
    refused(run("report", "p.csv", "--engine", "dask", "--scheduler", address), 2, "--scheduler",
            "tcp://HOST:PORT", "65535")


def test_an_unreachable_scheduler_is_refused_within_the_connect_timeout(tmp_path, monkeypatch):
    import time

    pytest.importorskip("distributed")
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "p.csv", "gold,pred\na,a\nb,a\n")
    for address in ("tcp://127.0.0.1:1", "tls://127.0.0.1:1"):
        start = time.monotonic()
        res = run("report", "p.csv", "--engine", "dask", "--scheduler", address, "--connect-timeout", "2")
        refused(res, 2, "cannot reach the Dask scheduler", address)
        assert time.monotonic() - start < 2 + 15


# --- McNemar's exact power: the critical values against brute force -------------------------------------

def _brute_power(n: int, p10: float, p01: float, alpha, two_sided: bool = False) -> float:
    """Σ over every (n10, n01) of its multinomial probability, where the exact p-value (integer tails) < α."""
    from fractions import Fraction
    from math import comb

    a = Fraction(alpha) / (2 if two_sided else 1)
    total = 0.0
    q = 1 - p10 - p01
    for d in range(n + 1):
        tails = [sum(comb(d, k) for k in range(c, d + 1)) for c in range(d + 2)]
        for x in range(d + 1):
            reject = Fraction(tails[x], 2 ** d) < a or (two_sided and Fraction(tails[d - x], 2 ** d) < a)
            if reject:
                total += comb(n, d) * comb(d, x) * p10 ** x * p01 ** (d - x) * q ** (n - d)
    return total


@pytest.mark.parametrize("alpha", [1 / 8, 1 / 16, 1 / 32, 0.05])
def test_exact_mcnemar_power_against_enumeration_at_alphas_a_tail_can_equal(alpha):
    from clfeval.significance._power import mcnemar_exact_power

    for n, p10, p01 in [(4, 1.0, 0.0), (5, 1.0, 0.0), (7, 1.0, 0.0), (12, 0.3, 0.1), (20, 0.25, 0.15)]:
        for two in (False, True):
            got = mcnemar_exact_power(n, p10, p01, alpha=alpha, alternative="two-sided" if two else "greater")
            assert got == pytest.approx(_brute_power(n, p10, p01, alpha, two), abs=1e-12), (n, p10, p01, two)


@pytest.mark.parametrize("alpha", [1 / 8, 1 / 16, 1 / 32, 1 / 64, 0.05, 1e-6])
def test_critical_values_are_the_smallest_with_a_tail_below_alpha(alpha):
    from fractions import Fraction
    from math import comb

    import numpy as np

    from clfeval.significance._critical import critical_values

    d = np.arange(0, 80)
    got = critical_values(d, alpha)
    for dd, c in zip(d.tolist(), got.tolist(), strict=True):
        want = next(k for k in range(dd + 2) if Fraction(sum(comb(dd, j) for j in range(k, dd + 1)), 2 ** dd)
                    < Fraction(alpha))
        assert c == want, (dd, c, want)


def test_the_search_that_never_ended_ends():
    from clfeval.significance._power import mcnemar_exact_power

    assert mcnemar_exact_power(7, 1.0, 0.0, alpha=0.0625) == 1.0  # p = 2^-7 < 1/16
    assert mcnemar_exact_power(4, 1.0, 0.0, alpha=0.0625) == 0.0  # p = 1/16, not < 1/16


# --- smaller items --------------------------------------------------------------------------------------

@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le"])
def test_utf16_input_is_refused_naming_utf16_and_encoding(tmp_path, monkeypatch, codec):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "u.csv").write_bytes("gold,pred\na,a\nb,a\n".encode(codec))
    for args in (["u.csv"], ["u.csv", "--encoding", "latin-1"], ["."]):
        refused(run("report", *args), 1, "'u.csv'" if args[0] == "u.csv" else "u.csv", "UTF-16", "--encoding")


def test_a_gzip_member_is_refused_as_the_single_file_is(tmp_path, monkeypatch):
    import gzip

    monkeypatch.chdir(tmp_path)
    (tmp_path / "gz").mkdir()
    (tmp_path / "gz" / "a.csv.gz").write_bytes(gzip.compress(b"gold,pred\na,a\n"))
    single, member = run("report", "gz/a.csv.gz"), run("report", "gz")
    refused(single, 2, "'gz/a.csv.gz'", "compressed CSV", "decompress")
    refused(member, 2, "'gz/a.csv.gz'", "compressed CSV", "decompress")
    refused(run("report", "gz/a.csv.gz", "--input-format", "csv"), 1, "gzip-compressed", "decompress")


# --- 8. one huge field: the block cap follows --memory ------------------------------------------------

def test_a_row_longer_than_a_quarter_of_memory_is_refused_naming_row_and_cap(tmp_path, monkeypatch):
    # a 2 MiB field in row 2 (line 3, after a quoted newline in row 1): with --memory 4MiB blocks stop at
    # 4 MiB / 4 = 1 MiB; the default budget (1 GiB: 256 MiB blocks) reads it
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "l.csv", 'gold,pred,note\na,a,"two\nlines"\nb,a,' + "x" * (2 << 20) + "\nb,b,z\n")
    got = run("report", "l.csv", "--memory", "4MiB")
    refused(got, 1, "'l.csv'", "row 2 (line 4)", "1 MiB", "--memory")
    assert report_json("l.csv")["n"] == 3
    assert report_json("l.csv", "--memory", "16MiB")["n"] == 3  # 4 MiB blocks hold the 2 MiB row
