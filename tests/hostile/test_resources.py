"""Hostile inputs, resources: every size clfeval is given is capped before it costs memory or time.

Each case runs the command line in a child process whose address space is
capped with ``resource.setrlimit(RLIMIT_AS)``, so that a run that would grow
without bound fails (MemoryError, a traceback) instead of passing; the
timeout only guards against a hang and is never a measurement. Every case
checks the exit code, that the message names the fault, that there is no
traceback, that the input files are byte-identical afterwards and that no
file was left behind. Downloads go to servers on 127.0.0.1 only.
"""

from __future__ import annotations

import csv
import gzip
import http.server
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests._helpers.outhelp import interruptible

# Address space, not resident memory: the interpreter, numpy, pyarrow and the allocator's slack take about 1 GiB of
# it, so 2.5 GiB leaves the runs below (at most ~0.6 GB resident) room, while the defects grew to 4-24 GB.
MEMORY_CAP = 5 << 29
HANG_GUARD = 300  # seconds; only against a hang
CHILD_ENV = {**os.environ, "MALLOC_ARENA_MAX": "2", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}


def _cap_memory() -> None:
    interruptible()  # the SIGINT test needs SIGINT's default, whatever the runner handed the tests
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def clfeval(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m clfeval ARGS`` in a child with the memory cap."""
    return subprocess.run([sys.executable, "-m", "clfeval", *map(str, args)], cwd=cwd, env=CHILD_ENV,
                          preexec_fn=_cap_memory, capture_output=True, text=True, timeout=HANG_GUARD)


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (hidden ones too) with its bytes."""
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def assert_refused(r: subprocess.CompletedProcess[str], code: int, *needles: str) -> None:
    assert r.returncode == code, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert r.stderr.startswith("clfeval: error: ") and r.stderr.count("\n") == 1, r.stderr  # one paragraph
    for n in needles:
        assert n in r.stderr, (n, r.stderr)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    d = tmp_path / "work"
    d.mkdir()
    return d


# --- calibration --bins ---------------------------------------------------------------------------

PROBS = [("spam", 0.9), ("ham", 0.1), ("spam", 0.7), ("ham", 0.4), ("spam", 0.6), ("ham", 0.2)]


def _calibration_file(work: Path) -> Path:
    f = work / "c.csv"
    f.write_text("gold,p\n" + "".join(f"{g},{p}\n" for g, p in PROBS))
    return f


def test_calibration_bins_beyond_the_cap_are_refused_before_any_work(work: Path) -> None:
    f = _calibration_file(work)
    before = snapshot(work)
    r = clfeval("calibration", f.name, "--prob", "p", "--positive", "spam", "--bins", "100000000", cwd=work)
    assert_refused(r, 2, "--bins", "at most 100,000", "100,000,000")
    assert snapshot(work) == before


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_calibration_at_the_cap_works_in_bounded_memory(work: Path, fmt: str) -> None:
    f = _calibration_file(work)
    before = snapshot(work)
    r = clfeval("calibration", f.name, "--prob", "p", "--positive", "spam", "--bins", "100000", "-f", fmt, cwd=work)
    assert r.returncode == 0, r.stderr[-2000:]
    assert snapshot(work) == before
    # 100,000 bins of width 1e-5: every item has a bin to itself, so ECE = mean |y - p| (by hand: 1.5 / 6)
    if fmt == "json":
        d = json.loads(r.stdout)
        assert d["n_bins"] == 100_000 and len(d["bins"]) == 100_000
        assert sum(b["count"] for b in d["bins"]) == 6 and sum(b["count"] > 0 for b in d["bins"]) == 6
        assert d["ece"] == pytest.approx(sum(abs((g == "spam") - p) for g, p in PROBS) / 6) == pytest.approx(0.25)
    else:
        # the text table shows the 6 non-empty bins and the 7 runs of empty bins between them, not 100,000 rows
        rows = [line for line in r.stdout.splitlines() if line.startswith("[")]
        assert len(rows) == 13 and sum("empty bins" in line for line in rows) == 7
        assert "ECE (expected calibration error)          0.2500" in r.stdout


# --- classes of a K×K table, a K×K×K joint table, multi-label cells ------------------------------------

def _labels_file(path: Path, k: int, *, seed: int, right: float = 0.6, items: int | None = None) -> Path:
    rng = random.Random(seed)
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "gold", "pred"])
        for i in range(items or 3 * k):
            g = f"c{i % k}"
            w.writerow([i, g, g if rng.random() < right else f"c{rng.randrange(k)}"])
    return path


def test_report_with_100000_labels_works_in_bounded_memory(work: Path) -> None:
    # Issue 12 replaced the 2,048-class cap by sparse tables: the 1.4 MB file of 100,000 labels is reported
    # (under the memory cap), with the top classes and confusions in text instead of a 100,000-column matrix
    f = _labels_file(work / "many.csv", 100_000, seed=1, items=100_000)
    before = snapshot(work)
    r = clfeval("report", f.name, cwd=work)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "100,000 classes, held sparsely" in r.stdout and len(r.stdout.splitlines()) < 200
    with open(f, newline="") as fh:
        rows = list(csv.DictReader(fh))
    right = sum(x["gold"] == x["pred"] for x in rows)
    assert any(line.split() == ["accuracy", f"{right / len(rows):.4f}"] for line in r.stdout.splitlines()), r.stdout
    assert snapshot(work) == before


def test_more_classes_than_the_stated_limit_are_refused() -> None:
    from clfeval.core._counting import Counter
    from clfeval.core._labels import MAX_CLASSES
    from clfeval.errors import DataError

    labels = list(range(MAX_CLASSES + 1))
    with pytest.raises(DataError, match="1,000,001 distinct labels.*at most 1,000,000 classes"):
        Counter().update([labels, labels])


@pytest.mark.slow
def test_report_at_the_class_limit_works_in_bounded_memory(work: Path) -> None:
    f = _labels_file(work / "k.csv", 2048, seed=2)
    r = clfeval("report", f.name, "-f", "json", cwd=work)
    assert r.returncode == 0, r.stderr[-2000:]
    d = json.loads(r.stdout)
    with open(f, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(d["labels"]) == 2048
    assert d["accuracy"] == pytest.approx(sum(x["gold"] == x["pred"] for x in rows) / len(rows))


def test_cv_with_too_many_classes_is_refused_before_training(work: Path) -> None:
    f = work / "d.csv"
    f.write_text("body,topic\n" + "".join(f"w{i} x,c{i % 2500}\n" for i in range(5000)))
    before = snapshot(work)
    r = clfeval("cv", f.name, "--text", "body", "--label", "topic", "--folds", "2", "--no-log", cwd=work)
    assert_refused(r, 1, "2,500 distinct labels", "label column", "at most 2,048 classes")
    assert snapshot(work) == before


def test_compare_beyond_the_dense_joint_table_works(work: Path) -> None:
    # Issue 12: above 256 classes compare's joint table is held sparsely, instead of being refused
    a = _labels_file(work / "a.csv", 257, seed=3)
    b = _labels_file(work / "b.csv", 257, seed=4, right=0.5)
    before = snapshot(work)
    r = clfeval("compare", a.name, b.name, "--metric", "macro_f1", "--samples", "100", "-f", "json", cwd=work)
    assert r.returncode == 0, r.stderr[-2000:]
    d = json.loads(r.stdout)
    assert d["samples"] == 100 and len(d["signature"]["labels"]) == 257
    from sklearn.metrics import f1_score

    def rows(p: Path) -> list[dict[str, str]]:
        with open(p, newline="") as fh:
            return list(csv.DictReader(fh))

    ra, rb = rows(a), rows(b)
    gold = [x["gold"] for x in ra]
    labels = sorted(set(gold) | {x["pred"] for x in ra} | {x["pred"] for x in rb})
    want = (f1_score(gold, [x["pred"] for x in ra], labels=labels, average="macro", zero_division=0)
            - f1_score(gold, [x["pred"] for x in rb], labels=labels, average="macro", zero_division=0))
    assert d["delta"] == pytest.approx(want, abs=1e-12)
    assert snapshot(work) == before
    a256 = _labels_file(work / "a256.csv", 256, seed=3)
    b256 = _labels_file(work / "b256.csv", 256, seed=4, right=0.5)
    r = clfeval("compare", a256.name, b256.name, "--metric", "macro_f1", "--samples", "200", "-f", "json", cwd=work)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout)["samples"] == 200


def test_multilabel_indicator_matrices_are_capped(work: Path) -> None:
    f = work / "ml.csv"
    with open(f, "w") as fh:
        fh.write("gold,pred\n" + "".join(f"l{i % 8192}|l{(i * 7) % 8192},l{i % 8192}\n" for i in range(8193)))
    before = snapshot(work)
    r = clfeval("report", f.name, "--multilabel", cwd=work)
    assert_refused(r, 1, "8,193 items × 8,192 distinct labels", "67,108,864 cells")
    assert snapshot(work) == before


# --- --samples ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("compare", "a.csv", "b.csv", "--samples", "10000000000"),
                                  ("report", "a.csv", "--ci", "0.95", "--samples", "2000000000")])
def test_samples_beyond_the_cap_are_refused(work: Path, args: tuple[str, ...]) -> None:
    _labels_file(work / "a.csv", 3, seed=5)
    _labels_file(work / "b.csv", 3, seed=6)
    before = snapshot(work)
    r = clfeval(*args, cwd=work)
    assert_refused(r, 2, "--samples", "at most 1,000,000")
    assert snapshot(work) == before


def test_interval_replicates_beyond_the_memory_budget_are_refused(work: Path) -> None:
    f = _labels_file(work / "k.csv", 500, seed=7)
    r = clfeval("report", f.name, "--ci", "0.95", "--samples", "1000000", cwd=work)
    assert_refused(r, 2, "1 GiB budget", "ask for at most", "--samples")
    # the same table with what fits works: 100 replicates
    r = clfeval("report", f.name, "--ci", "0.95", "--samples", "100", "-f", "json", cwd=work)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout)["ci"]["samples"] == 100


# --- text rendering of a long label -------------------------------------------------------------------

@pytest.mark.slow
def test_a_2mb_label_is_printed_whole_in_text_output(work: Path) -> None:
    label = "x" * 2_000_000
    f = work / "long.csv"
    f.write_text(f"gold,pred\n{label},a\na,a\n")
    r = clfeval("report", f.name, cwd=work)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.count("x") >= 2_000_000  # the whole label, not an abbreviation


# --- Reuters archives: decompression bombs --------------------------------------------------------------

def _gzip_bomb(path: Path, members: list[tuple[str, int]]) -> Path:
    """A .tar.gz of members of zero bytes (name, size), as concatenated gzip members: a few MB on disk."""
    chunk = 64 << 20
    zeros = gzip.compress(b"\0" * chunk, compresslevel=9)
    with open(path, "wb") as out:
        for name, size in members:
            info = tarfile.TarInfo(name)
            info.size = size
            out.write(gzip.compress(info.tobuf(format=tarfile.USTAR_FORMAT)))
            padded = -(-size // 512) * 512
            for _ in range(padded // chunk):
                out.write(zeros)
            out.write(gzip.compress(b"\0" * (padded % chunk)))
        out.write(gzip.compress(b"\0" * 1024))  # end of archive
    return path


@pytest.mark.parametrize("first", ["reut2-000.sgm", "junk.bin"])
def test_archive_with_a_4gib_member_is_refused_early(work: Path, first: str) -> None:
    bomb = _gzip_bomb(work / "bomb.tar.gz", [(first, 4 << 30)])
    assert bomb.stat().st_size < 5 << 20  # a 4 MB file ...
    with tarfile.open(bomb) as tar:  # ... whose member really holds 4 GiB (the header tarfile reads says so)
        assert tar.next().size == 4 << 30
    before = snapshot(work)
    r = clfeval("reuters", "--archive", bomb.name, "--no-log", cwd=work)
    assert_refused(r, 1, f"bomb.tar.gz:{first}", "4,294,967,296 bytes", "at most 8,388,608 bytes")
    assert snapshot(work) == before


def test_archive_decompressing_beyond_the_total_cap_is_refused(work: Path) -> None:
    archive = _gzip_bomb(work / "many.tar.gz", [(f"junk{i}.bin", 15 << 19) for i in range(9)])  # 9 × 7.5 MiB
    r = clfeval("reuters", "--archive", archive.name, "--no-log", cwd=work)
    assert_refused(r, 1, "many.tar.gz", "more than 67,108,864 bytes")


def test_directory_with_a_4gib_file_is_refused_before_reading(work: Path) -> None:
    corpus = work / "corpus"
    corpus.mkdir()
    for i in range(22):
        (corpus / f"reut2-{i:03d}.sgm").write_text("<REUTERS NEWID=\"1\" OLDID=\"1\"></REUTERS>\n")
    with open(corpus / "reut2-007.sgm", "r+b") as fh:
        fh.truncate(4 << 30)  # sparse: 4 GiB that take no disk
    r = clfeval("reuters", "--archive", "corpus", "--no-log", cwd=work)
    assert_refused(r, 1, "reut2-007.sgm", "4,294,967,296 bytes", "at most 8,388,608 bytes")
    assert sorted(p.name for p in corpus.iterdir()) == [f"reut2-{i:03d}.sgm" for i in range(22)]


# --- datasets fetch: size cap, deadline, signals -----------------------------------------------------

def test_fetch_from_dev_zero_stops_at_the_size_cap(work: Path) -> None:
    dest = work / "data"
    r = clfeval("datasets", "fetch", "reuters21578", "--dest", dest, "--url", "file:///dev/zero", cwd=work)
    assert_refused(r, 1, "file:///dev/zero", "more than the 33,554,432 bytes accepted")
    assert list(dest.iterdir()) == []  # no .part file


def test_fetch_refuses_an_announced_oversize_download_at_once(served: tuple[Path, str], work: Path) -> None:
    root, base = served
    with open(root / "big.tar.gz", "wb") as fh:
        fh.truncate(40 << 20)
    dest = work / "data"
    r = clfeval("datasets", "fetch", "reuters21578", "--dest", dest, "--url", f"{base}/big.tar.gz", cwd=work)
    assert_refused(r, 1, "announces 41,943,040 bytes", "33,554,432")
    assert list(dest.iterdir()) == []


class _DripHandler(http.server.BaseHTTPRequestHandler):
    """Announces the real archive's size, then sends one zero byte every ``server.interval`` seconds."""

    def do_GET(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Length", "8150112")
        self.end_headers()
        try:
            while not self.server.stop.is_set():  # type: ignore[attr-defined]
                self.wfile.write(b"\0")
                self.wfile.flush()
                self.server.sent.set()  # type: ignore[attr-defined]
                self.server.stop.wait(self.server.interval)  # type: ignore[attr-defined]
        except OSError:
            pass

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture
def drip() -> Iterator[object]:
    """``start(interval)`` → (URL, server) of a slow-drip server on 127.0.0.1."""
    servers: list[http.server.ThreadingHTTPServer] = []

    def start(interval: float) -> tuple[str, http.server.ThreadingHTTPServer]:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _DripHandler)
        server.daemon_threads = True
        server.block_on_close = False
        server.interval, server.stop, server.sent = interval, threading.Event(), threading.Event()  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/reuters21578.tar.gz", server

    yield start
    for s in servers:
        s.stop.set()  # type: ignore[attr-defined]
        s.shutdown()
        s.server_close()


@pytest.mark.parametrize("interval, deadline", [(5.0, "4"), (0.2, "2")])
def test_fetch_from_a_slow_drip_trips_the_deadline(drip, work: Path, interval: float, deadline: str) -> None:
    url, _ = drip(interval)
    dest = work / "data"
    r = clfeval("datasets", "fetch", "reuters21578", "--dest", dest, "--url", url, "--deadline", deadline, cwd=work)
    assert_refused(r, 1, url, f"did not finish within the deadline of {deadline} s")
    assert list(dest.iterdir()) == []


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_during_a_download_leaves_no_part_file(drip, work: Path, sig: int, code: int) -> None:
    url, server = drip(0.5)
    dest = work / "data"
    child = subprocess.Popen([sys.executable, "-m", "clfeval", "datasets", "fetch", "reuters21578", "--dest",
                              str(dest), "--url", url], cwd=work, env=CHILD_ENV, preexec_fn=_cap_memory,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.sent.wait(60), "the download never started"  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        while not any(p.name.endswith(".part") for p in dest.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [p.name for p in dest.iterdir() if p.name.endswith(".part")], "no .part file during the download"
        child.send_signal(sig)
        out, err = child.communicate(timeout=HANG_GUARD)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == code, err
    assert "Traceback" not in err and out == ""
    assert ("SIGTERM" if sig == signal.SIGTERM else "SIGINT") in err
    assert list(dest.iterdir()) == []


def test_a_garbage_archive_already_in_dest_is_checked_and_refused(work: Path) -> None:
    dest = work / "data"
    dest.mkdir()
    (dest / "reuters21578.tar.gz").write_bytes(b"\x1f\x8b" + b"garbage" * 100)
    before = snapshot(work)
    r = clfeval("datasets", "fetch", "reuters21578", "--dest", dest, "--url", "http://127.0.0.1:9/unreachable",
                cwd=work)
    assert_refused(r, 1, "already in", "reuters21578.tar.gz", "SHA-256", "--force")
    assert snapshot(work) == before  # left as it is


@pytest.mark.reuters
def test_the_real_archive_already_in_dest_passes_the_checks(reuters_archive: Path, work: Path) -> None:
    dest = work / "data"
    dest.mkdir()
    (dest / "reuters21578.tar.gz").write_bytes(reuters_archive.read_bytes())
    r = clfeval("datasets", "fetch", "reuters21578", "--dest", dest, "--url", "http://127.0.0.1:9/unreachable",
                "-f", "json", cwd=work)
    assert r.returncode == 0, r.stderr
    assert "already there and passed the checks" in r.stderr
    d = json.loads(r.stdout)
    assert d["downloaded"] is False and "21,578 stories" in d["checks"]
