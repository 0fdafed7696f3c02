"""Helpers of the hostile output tests: real child processes, signals at a named step, snapshots of a folder."""

from __future__ import annotations

import contextlib
import csv
import ctypes
import hashlib
import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[2] / "src")
TIMEOUT = 300  # only against a hang

# The child patches clfeval.io._outputs.checkpoint: at the nth time the step is reached it acts:
# a signal name (SIGTERM, SIGINT, SIGKILL) is sent to itself with os.kill; "append:PATH" appends to a file.
CHILD = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {src!r})
    step, action, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if step:
        from clfeval.io import _outputs as outputs
        seen = []
        def checkpoint(name):
            if name != step:
                return
            seen.append(name)
            if len(seen) != nth:
                return
            if action.startswith("append:"):
                with open(action[len("append:"):], "a") as fh:
                    fh.write("changed,after,the,start\\n")
            else:
                os.kill(os.getpid(), getattr(signal, action))
        outputs.checkpoint = checkpoint
    from clfeval.cli import main
    main(sys.argv[4:])
""").format(src=SRC)


def _drop_file_capabilities() -> None:  # pragma: no cover - runs in the child, before exec
    """As root, give up the capabilities that override file permissions, so that they apply as to any user."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2, 3):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP: gone from the process after exec
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def interruptible() -> None:
    """In a child before it runs: the signals the tests send delivered as to a process started from a terminal.

    A runner that started the tests in the background of a shell without job control (``cmd &``) hands them
    SIGINT ignored, and Python keeps an ignored SIGINT ignored; a runner can also hand them SIGQUIT, SIGHUP or
    SIGTERM *blocked* (the project's CI did: SIGQUIT stayed pending and the run finished, exit 0), and a blocked
    signal is inherited across exec, whatever handler clfeval installs. Either way a test of what the signal does
    would see nothing happen: SIGINT goes back to its default and all four are unblocked."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT})


def child(args: list[object], *, cwd: Path, step: str = "", action: str = "", nth: int = 1,
          unprivileged: bool = False, stdout: object = subprocess.PIPE) -> subprocess.CompletedProcess:
    """Run ``clfeval ARGS`` in a fresh Python process (optionally acting at a checkpoint step)."""
    drop = unprivileged and os.geteuid() == 0

    def preexec() -> None:
        interruptible()
        if drop:
            _drop_file_capabilities()

    env = dict(os.environ, PYTHONPATH=SRC)
    return subprocess.run([sys.executable, "-c", CHILD, step, action, str(nth), *map(str, args)], cwd=cwd, env=env,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT, preexec_fn=preexec)


def snapshot(root: Path) -> dict[str, tuple[str, str, int]]:
    """Every entry under ``root``: kind, content hash (files) or link target, permission bits."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[str(p.relative_to(root))] = ("link", os.readlink(p), 0)
            elif stat.S_ISREG(st.st_mode):
                out[str(p.relative_to(root))] = ("file", hashlib.sha256(p.read_bytes()).hexdigest(),
                                                 stat.S_IMODE(st.st_mode))
            else:
                out[str(p.relative_to(root))] = ("dir" if stat.S_ISDIR(st.st_mode) else "other", "",
                                                 stat.S_IMODE(st.st_mode))
    return out


def assert_one_paragraph(err: str, *needles: str) -> None:
    """A clean error: no traceback, one paragraph on stderr, naming what is at fault."""
    assert "Traceback" not in err and "Exception ignored" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for n in needles:
        assert n in err, (n, err)


def make_texts(path: Path, n: int = 40) -> Path:
    """A small two-class text data set (id, body, topic) that trains in a moment."""
    words = {"grain": "wheat corn harvest grain", "oil": "crude barrel opec oil"}
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "body", "topic"])
        for i in range(n):
            topic = "grain" if i % 2 else "oil"
            w.writerow([f"n{i}", f"{words[topic]} the market said {i}", topic])
    return path


def sha256(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def runs_in(db: Path) -> int:
    """How many runs a run log holds (0 when it does not exist), read without leaving -wal/-shm files."""
    if not db.exists():
        return 0
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
        return con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
