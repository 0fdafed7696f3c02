"""Inputs as Dask tasks, tree reductions, and the cluster: the plumbing of :mod:`clfeval.engines.dask`.

Every input — a Dask DataFrame, or PATHs (a file, a directory, a glob, a hive
dataset; resolved by :func:`clfeval.io._paths.resolve_path`, as locally) —
becomes a list of *parts*: Dask tasks that each give one partition as a
``pyarrow.Table`` of the columns asked for. A PATH's parts are its files,
each read on a worker by the local engine's own reader
(:func:`clfeval.io._batches.read_part`: every format, encoding and check), so
that the engines cannot drift apart; a DataFrame's partitions are converted
with ``pyarrow.Table.from_pandas``. Results of parts are combined by a tree of
additions (:func:`tree_sum`), never gathered item by item on one machine.

The cluster: :func:`connect` gives a ``distributed.Client`` — to the scheduler
at an address, or to a new ``LocalCluster`` bound to 127.0.0.1 (one worker
process per core). A worker lost mid-run is replaced and its tasks are
recomputed by Dask (the tasks are pure: a partition recomputed is counted once,
in the result of the task that finally succeeds); when Dask gives up
(``KilledWorker``), :func:`run` raises a one-paragraph error instead of
returning a number.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import dask
import pyarrow as pa

from clfeval.errors import ClfevalError, ClusterLost, DataError, InputFileError, UsageError

__all__ = ["Parts", "parts_of", "tree_sum", "connect", "run", "persist", "threads", "SPLIT_EVERY", "PARTS_PER_TASK",
           "check_address", "CONNECT_TIMEOUT", "probe"]

#: Results added per node of a reduction tree.
SPLIT_EVERY = 8
#: Partitions (files, Parquet row groups, DataFrame partitions) one task reads and reduces, at most.
PARTS_PER_TASK = 8


@dataclass(frozen=True)
class Parts:
    """An input as a list of Dask tasks, each giving one partition as a ``pyarrow.Table``; ``files`` are the
    :class:`clfeval.io._batches.FilePart` behind the tasks (one each) when the input is a PATH."""

    tasks: list[Any]
    name: str
    columns: tuple[str, ...]
    files: tuple[Any, ...] = ()

    def __len__(self) -> int:
        return len(self.tasks)

    def map(self, fn: Callable[..., Any], *args: Any) -> list[Any]:
        """``fn(table, *args)`` on every partition, as tasks."""
        return [dask.delayed(fn, pure=True)(t, *args) for t in self.tasks]

    def map_each(self, fn: Callable[..., Any], each: Sequence[tuple[Any, ...]]) -> list[Any]:
        """``fn(table, *each[i])`` on partition ``i``, as tasks (arguments that differ by partition)."""
        return [dask.delayed(fn, pure=True)(t, *e) for t, e in zip(self.tasks, each, strict=True)]

    def map_groups(self, fn: Callable[..., Any], *args: Any, threads: int = 1) -> list[Any]:
        """``fn(tables, *args)`` on groups of consecutive partitions, as tasks: ``tables`` iterates over the
        group's partitions (``pyarrow.Table``), which a PATH's task reads itself, one after the other, with the
        local reader. Fewer, larger tasks: up to :data:`PARTS_PER_TASK` partitions each, at least four tasks
        per worker thread while there are enough partitions, groups of even sizes (their number a multiple of the
        threads when there are enough); no partition is kept between tasks."""
        return [dask.delayed(_over_group, pure=True)(fn, items, bool(self.files), args)
                for items, _ in self.groups(threads)]

    def groups(self, threads: int = 1) -> list[tuple[list[Any], int]]:
        """The groups of :meth:`map_groups`: each a list of consecutive partitions (a PATH's :class:`FilePart`,
        or a DataFrame's partition tasks) and the number of its first."""
        items = list(self.files) if self.files else list(self.tasks)
        k = max(1, threads)
        per = max(1, min(PARTS_PER_TASK, len(items) // (4 * k)))
        n = min(len(items), -(-len(items) // per // k * k) if len(items) >= k * per else -(-len(items) // per))
        at = [len(items) * i // n for i in range(n + 1)]  # n groups (a multiple of the threads) of even sizes
        return [(items[at[i]:at[i + 1]], at[i]) for i in range(n)]


def _over_group(fn: Callable[..., Any], items: list[Any], read: bool, args: tuple[Any, ...]) -> Any:
    if not read:
        return fn(iter(items), *args)
    from clfeval.io import read_part

    return fn((read_part(f) for f in items), *args)


def threads(client: Any) -> int:
    """Worker threads of the client's cluster (this machine's cores for Dask's local threads)."""
    if client is None:
        return max(1, os.cpu_count() or 1)
    with _lost_said(client):
        return max(1, sum(client.nthreads().values()))


def _from_pandas(frame: Any, columns: tuple[str, ...]) -> pa.Table:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise DataError(f"the DataFrame has no column {missing[0]!r}; its columns are "
                        f"{', '.join(map(str, frame.columns))}.")
    return pa.Table.from_pandas(frame[list(columns)], preserve_index=False)


def _inputs(data: Any, input_format: str | None, encoding: str) -> list[Any]:
    from clfeval.io import InputPath, resolve_path

    items = [data] if isinstance(data, (str, os.PathLike, InputPath)) else list(data)
    out = []
    for item in items:
        inp = item if isinstance(item, InputPath) else resolve_path(item, input_format=input_format, encoding=encoding)
        if inp.kind == "stdin":
            raise UsageError("standard input ('-') cannot be read by Dask workers; give a file, a directory or a "
                             "glob pattern with the Dask engine.")
        out.append(inp)
    return out


def parts_of(data: Any, columns: Sequence[str | None], *, name: str = "input", labels: Sequence[str] = (),
             normalize: str | None = None, encoding: str = "utf-8", input_format: str | None = None,
             options: Sequence[tuple[str, str]] = (), scores: Sequence[str] = ()) -> Parts:
    """An input — a Dask DataFrame, or PATHs (files, directories, globs, hive datasets; resolved as the local
    engine resolves them) — as partition tasks of ``columns``.

    Every file is one task that runs :func:`clfeval.io._batches.read_part` on a worker: the local reader,
    with every check and reading option (encodings, byte-order mark, JSON Lines, hive columns, header
    and column checks, empty labels, ``normalize``).
    """
    from clfeval.io import file_parts, read_part

    cols = tuple(dict.fromkeys(c for c in columns if c is not None))
    if hasattr(data, "to_delayed") and hasattr(data, "npartitions"):
        return Parts([dask.delayed(_from_pandas, pure=True)(d, cols) for d in data.to_delayed()], name, cols)
    files = [f for inp in _inputs(data, input_format, encoding)
             for f in file_parts(inp, cols, labels=labels, normalize=normalize, options=options, scores=scores)]
    return Parts([dask.delayed(read_part, pure=True)(f) for f in files], name, cols, tuple(files))


def _unreadable(paths: list[str]) -> str | None:
    """The first of ``paths`` this process cannot open (None when it reads them all)."""
    for p in paths:
        try:
            with open(p, "rb"):
                pass
        except OSError as exc:
            return f"{p} ({exc.strerror or exc})"
    return None


def probe(parts: Parts, client: Any) -> None:
    """On a cluster, check that a worker can open every file of ``parts`` before any work: a file it cannot
    read (another machine, another mount) is refused naming it, instead of a worker's traceback later."""
    if client is None or not parts.files:
        return
    paths = list(dict.fromkeys(str(f.source.path) for f in parts.files if f.source.path is not None))
    if not paths:
        return
    (bad,) = run(client, dask.delayed(_unreadable, pure=False)(paths))
    if bad is not None:
        name = next(f.source.name for f in parts.files if str(f.source.path) == bad.split(" (")[0])
        raise InputFileError(f"file {name!r} cannot be read by the Dask workers: {bad}; on a cluster every file "
                             f"of a PATH must be readable by the workers, at the same path.")


def _add_all(values: Sequence[Any]) -> Any:
    total = values[0]
    for v in values[1:]:
        total = total + v
    return total


def tree_sum(tasks: Sequence[Any], *, split_every: int = SPLIT_EVERY,
             combine: Callable[[Sequence[Any]], Any] = _add_all) -> Any:
    """The sum of the tasks' results (``+``, in a fixed order; or ``combine(list)``), as a tree of tasks
    ``split_every`` wide."""
    level = list(tasks)
    if not level:
        raise DataError("the input has no partitions.")
    while len(level) > 1:
        level = [dask.delayed(combine, pure=True)(level[i:i + split_every]) for i in range(0, len(level), split_every)]
    return level[0]


#: Seconds to reach a scheduler before it is called unreachable (``--connect-timeout``).
CONNECT_TIMEOUT = 10.0
_ADDRESS = re.compile(r"(?P<scheme>tcp|tls)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})/?")


def check_address(address: str) -> str:
    """A scheduler address ``tcp://host:port`` or ``tls://host:port`` (port 1 to 65535); anything else is a
    usage error with a sentence.

    >>> check_address("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    """
    m = _ADDRESS.fullmatch(address.strip()) if isinstance(address, str) else None
    if m is None or not 1 <= int(m.group("port")) <= 65535:
        raise UsageError(lambda name: f"option {name} must be a Dask scheduler address tcp://HOST:PORT or "
                                      f"tls://HOST:PORT with a port from 1 to 65535 (an IPv6 host in brackets: "
                                      f"tcp://[::1]:8786); got {address!r}.", params=["scheduler"])
    return address.strip().rstrip("/")


def _unreachable(address: str, why: str, timeout: float) -> UsageError:
    return UsageError(lambda name, t: f"option {name}: cannot reach the Dask scheduler at {address!r} within "
                                      f"{timeout:g} s ({why}); start one (dask scheduler), check the address, give "
                                      f"{t} more seconds, or leave {name} out for a local cluster.",
                      params=["scheduler", "connect_timeout"])


@contextlib.contextmanager
def connect(scheduler: str | None = None, *, workers: int | None = None, threads_per_worker: int = 1,
            connect_timeout: float = CONNECT_TIMEOUT) -> Iterator[Any]:
    """A ``distributed.Client``: to ``scheduler`` (an address such as ``tcp://10.0.0.5:8786``, reached within
    ``connect_timeout`` seconds), or to a new ``LocalCluster`` bound to 127.0.0.1 with ``workers`` processes
    (default: one per core) whose scratch space is a clfeval spill directory; closed (and removed) on exit."""
    from distributed import Client, LocalCluster

    from clfeval.io import spill_directory

    if scheduler is not None:
        address = check_address(scheduler)
        try:
            client = Client(address, timeout=connect_timeout)
        except Exception as exc:  # refused, unreachable, a TLS address without certificates: all exit 2
            why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise _unreachable(address, why[:200], connect_timeout) from None
        with client:
            yield client
        return
    n = workers or max(1, os.cpu_count() or 1)
    with spill_directory() as scratch, \
            LocalCluster(n_workers=n, threads_per_worker=threads_per_worker, processes=True, host="127.0.0.1",
                         dashboard_address=None, local_directory=scratch, silence_logs=logging.CRITICAL) as cluster, \
            Client(cluster) as client:  # a task's error is said once, by clfeval, not logged by every worker
        client.run(_warm)
        yield client


def _warm() -> None:
    """Run on every worker of a new local cluster: the imports clfeval's tasks need (clfeval, pyarrow's Parquet
    reader, pyarrow's conversion to numpy, which imports pandas when it is installed), paid while the cluster
    starts rather than by the first job."""
    import pyarrow.parquet  # noqa: F401

    import clfeval.engines.dask  # noqa: F401
    from clfeval.io import batches  # noqa: F401

    pa.chunked_array([pa.array([0])]).to_numpy()


def _lost() -> ClusterLost:
    return ClusterLost("the Dask cluster was lost while the job ran (the scheduler stopped or cannot be reached); "
                       "no result was produced. Check the scheduler, then run again.")


def run(client: Any, *tasks: Any) -> tuple[Any, ...]:
    """Compute tasks on the client's cluster; a worker lost for good, or the cluster lost, becomes a
    one-paragraph error (exit 2) instead of a number."""
    from distributed.scheduler import KilledWorker

    try:
        if client is None:
            return dask.compute(*tasks, scheduler="threads")
        return tuple(client.gather(client.compute(list(tasks))))
    except KilledWorker as exc:
        raise DataError(f"the Dask computation failed: workers died while running task {exc.task!r} (Dask "
                        f"recomputes lost partitions, and gave up after repeated losses). No result was produced; "
                        f"check the workers' memory and logs, then run again.") from None
    except ClfevalError:
        raise
    except Exception as exc:
        if client is not None and _is_lost(exc, client):
            raise _lost() from None
        raise


def persist(client: Any, tasks: Sequence[Any]) -> list[Any]:
    """Start computing tasks and keep their results where they are computed (on the workers), as tasks to build
    on; errors surface where a result is asked for (:func:`run`)."""
    if client is None:
        return list(dask.persist(*tasks, scheduler="threads"))
    with _lost_said(client):
        return list(client.persist(list(tasks)))


@contextlib.contextmanager
def _lost_said(client: Any) -> Iterator[None]:
    """A call to the scheduler outside :func:`run` (its threads, a persist): the cluster lost meanwhile is said as
    :func:`run` says it (exit 2, one paragraph), not as a closed stream."""
    try:
        yield
    except ClfevalError:
        raise
    except Exception as exc:
        if _is_lost(exc, client):
            raise _lost() from None
        raise


def _is_lost(exc: BaseException, client: Any) -> bool:
    """Whether an exception of a computation means the cluster went away (not an error of a task)."""
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError

    if isinstance(exc, (FutureCancelledError, CommClosedError)):
        return True
    import asyncio

    if isinstance(exc, asyncio.CancelledError):
        return True
    return getattr(client, "status", "running") not in ("running", "connecting")
