"""Spill directories: where a run puts what does not fit its memory budget, and how they never outlive it.

Every spill of a run — sorted score runs of a ranking, hash partitions of an
id join, the local Dask cluster's scratch space — goes into a directory named
``clfeval-spill-<host>-<pid>-<random>`` in the temporary directory. The run
holds an ``flock`` on a lock file inside it for as long as the directory
exists; the directory is removed when the work ends, on any error, and after
SIGINT, SIGTERM, SIGHUP or SIGQUIT (the command line turns them into
exceptions that unwind through :func:`spill_directory`).

A run killed with ``kill -9`` cannot clean up: the next run that spills
removes what it left (:func:`sweep_stale`) — only directories whose name
matches that pattern exactly, owned by the current user, not symbolic links,
whose lock can be taken (so a live run's directory is never touched). Never a
file, never a name of another pattern: a run log ``clfeval-runs.sqlite`` or
Dask's own ``dask-scratch-space`` beside them stay as they are.

Example:

>>> import os, tempfile
>>> base = tempfile.mkdtemp()
>>> with spill_directory(base) as d:
...     os.path.basename(d).startswith("clfeval-spill-"), os.path.isdir(d)
(True, True)
>>> os.listdir(base)
[]
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import stat
from collections.abc import Iterator

from clfeval.errors import UsageError
from clfeval.io._outputs import deferred_signals

__all__ = ["SPILL_PATTERN", "spill_directory", "sweep_stale", "make_spill_directory", "remove_spill_directory"]

#: The names of spill directories: ``clfeval-spill-<host>-<pid>-<random>``.
SPILL_PATTERN = re.compile(r"clfeval-spill-[A-Za-z0-9_.]+-[0-9]+-[0-9a-f]{12}")
_LOCK = "lock"
_held: dict[str, int] = {}  # spill directory → the descriptor holding its lock


def _tempdir() -> str:
    import tempfile  # (imports shutil, random): only when a spill directory is made or swept

    return tempfile.gettempdir()


def _rmtree(path: str) -> None:
    import shutil  # only when a spill directory is removed

    shutil.rmtree(path, ignore_errors=True)


def _host() -> str:
    return re.sub(r"[^A-Za-z0-9_.]", "_", socket.gethostname() or "host")[:40] or "host"


def _try_lock(fd: int) -> bool:
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def sweep_stale(base: str | None = None) -> list[str]:
    """Remove the spill directories left in ``base`` by runs that died (see the module notes); returns them."""
    base = base or _tempdir()
    removed: list[str] = []
    try:
        names = os.listdir(base)
    except OSError:
        return removed
    uid = os.getuid() if hasattr(os, "getuid") else None
    for name in names:
        if not SPILL_PATTERN.fullmatch(name):
            continue
        path = os.path.join(base, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode) or (uid is not None and st.st_uid != uid) or path in _held:
            continue
        try:
            fd = os.open(os.path.join(path, _LOCK), os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue  # no lock file: not ours to judge
        try:
            if _try_lock(fd):
                _rmtree(path)
                removed.append(path)
        finally:
            os.close(fd)
    return removed


def make_spill_directory(base: str | None = None) -> str:
    """A new spill directory in ``base`` (default: the system's temporary directory), its lock held.

    Raises
    ------
    UsageError
        The directory cannot be made (no room, no permission), naming the place.
    """
    base = base or _tempdir()
    sweep_stale(base)
    for _ in range(100):
        name = f"clfeval-spill-{_host()}-{os.getpid()}-{os.urandom(6).hex()}"
        # made under a name no sweep judges, its lock taken, then renamed: another run's sweep never finds a live
        # directory whose lock file exists but is not held yet (it would take the lock and remove the directory)
        path, making = os.path.join(base, name), os.path.join(base, f".{name}.new")
        try:
            os.mkdir(making, 0o700)
        except FileExistsError:
            continue
        except OSError as exc:
            why = exc.strerror or str(exc)
            raise UsageError(f"cannot create a spill directory in {base!r} ({why}); set TMPDIR to a writable place "
                             f"with room, or give a larger memory budget (--memory).") from None
        fd = -1
        try:
            fd = os.open(os.path.join(making, _LOCK), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            _try_lock(fd)
            if os.path.lexists(path):
                raise FileExistsError(path)
            os.rename(making, path)
        except FileExistsError:
            os.close(fd)
            _rmtree(making)
            continue
        except OSError:
            if fd >= 0:
                os.close(fd)
            _rmtree(making)
            raise
        _held[path] = fd
        return path
    raise UsageError(f"cannot find a free spill directory name in {base!r}.")  # pragma: no cover


def remove_spill_directory(path: str) -> None:
    """Remove a spill directory made by :func:`make_spill_directory` and let its lock go."""
    _rmtree(path)
    fd = _held.pop(path, None)
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


@contextlib.contextmanager
def spill_directory(base: str | None = None) -> Iterator[str]:
    """A spill directory for the block, removed at its end whatever the end (an error, a signal)."""
    path = None
    try:
        with deferred_signals():  # a signal between the mkdir and the try would leave it behind
            path = make_spill_directory(base)
        yield path
    finally:
        if path is not None:
            remove_spill_directory(path)
