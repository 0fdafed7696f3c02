"""An expensive session fixture computed once for the whole pytest-xdist run, not once per worker.

The first worker that asks computes the value and pickles it into the run's shared temporary directory (the parent
of every worker's base temporary directory, fresh for each run); the other workers wait for the file and load it.
Without xdist, or when the first worker failed (a ``.failed`` mark), the value is computed here as before. Files the
value names (a directory of pages) stay in the first worker's temporary directory, which lives as long as the run.
"""

from __future__ import annotations

import os
import pickle
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: How long a worker waits for another's value before computing its own.
WAIT_SECONDS = 900


def once_per_run(factory: Any, name: str, compute: Callable[[], T]) -> T:
    """``compute()``, once per test run (``factory``: pytest's ``tmp_path_factory``; ``name``: the value's file)."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return compute()
    root = factory.getbasetemp().parent
    data, lock, failed = root / f"{name}.pickle", root / f"{name}.lock", root / f"{name}.failed"
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:  # another worker computes it: wait for its file
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            if data.exists():
                value: T = pickle.loads(data.read_bytes())
                return value
            if failed.exists():
                break
            time.sleep(0.1)
        return compute()
    os.close(fd)
    try:
        value = compute()
    except BaseException:
        failed.touch()
        raise
    part = root / f"{name}.pickle.{os.getpid()}"
    part.write_bytes(pickle.dumps(value))
    os.replace(part, data)  # whole or not at all: a waiting worker never reads half a file
    return value
