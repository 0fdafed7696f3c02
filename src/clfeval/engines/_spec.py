"""The engines as values: :class:`Local` (this machine, within a memory budget) and :class:`Dask` (a cluster).

An engine says *where* an operation runs, never *what* it computes: every operation gives the same
numbers on every engine (``tests/engines/test_front_door.py``). What an engine cannot do is declared once, in
:mod:`clfeval.engines._capabilities`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from clfeval.errors import UsageError

__all__ = ["Local", "Dask", "from_options"]


@dataclass(frozen=True)
class Local:
    """This machine: in memory when the input fits ``memory``, streamed (and spilled to ``tmpdir``) when not.

    Parameters
    ----------
    memory : int or str
        The budget, in bytes or as text (``"512MB"``, ``"1GiB"``). Arrays and tables larger than it are
        spooled to temporary Parquet files and streamed; rankings beyond it spill sorted runs; id joins
        beyond it hash-partition to disk. The result's engine block says which happened (``spilled``).
    tmpdir : str, optional
        Where spill directories go (default: the system's temporary directory).

    Examples
    --------
    >>> Local(memory="512MB").budget
    512000000
    """

    memory: Any = "1GiB"
    tmpdir: str | None = None

    @property
    def name(self) -> str:
        return "local"

    @property
    def budget(self) -> int:
        from clfeval.core import parse_memory

        return parse_memory(self.memory)


@dataclass(frozen=True)
class Dask:
    """A Dask cluster: a ``distributed.Client``, a scheduler address (``tcp://host:port``), or None for a
    ``LocalCluster`` on 127.0.0.1 started for the call and closed after it.

    Parameters
    ----------
    client : distributed.Client, str or None
        Where to run.
    connect_timeout : float
        Seconds to reach a scheduler given by address before it is called unreachable.
    memory : int or str, optional
        The budget of each range of an exact ranking on a worker (default: the library's).
    """

    client: Any = None
    connect_timeout: float = 10.0
    memory: Any = None

    def __post_init__(self) -> None:
        """What the cluster is given as, checked now (a wrong value would fail at the first task, far from here);
        ``distributed`` is not imported for it: a Client exists only once its module is loaded."""
        import math
        import sys

        client, distributed = self.client, sys.modules.get("distributed")
        if not (client is None or isinstance(client, str)
                or (distributed is not None and isinstance(client, distributed.Client))):
            raise UsageError(lambda name: f"option {name} must be a distributed.Client, a scheduler address "
                                          f"('tcp://host:port') or None (a LocalCluster started for the call); got "
                                          f"{client!r}.", params=["client"])
        timeout = self.connect_timeout
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not (math.isfinite(timeout)
                                                                                     and timeout > 0):
            raise UsageError(lambda name: f"option {name} must be a number of seconds > 0; got {timeout!r}.",
                             params=["connect_timeout"])
        if self.memory is not None:
            from clfeval.core import parse_memory

            parse_memory(self.memory)

    @property
    def name(self) -> str:
        return "dask"

    def check(self) -> None:
        """The dask extra installed and the address well formed, before any work."""
        from clfeval.errors import MissingExtra

        MissingExtra.require("engine=Dask", [("dask", "dask"), ("distributed", "dask.distributed"),
                                             ("dask.dataframe", "dask.dataframe")], "dask")
        if isinstance(self.client, str):
            from clfeval.engines.dask import check_address

            check_address(self.client)

    @contextlib.contextmanager
    def connected(self) -> Iterator[Any]:
        """A client: the one given, or one to the address or to a new LocalCluster (closed on exit)."""
        if self.client is not None and not isinstance(self.client, str):
            yield self.client
            return
        import logging

        from clfeval.engines.dask import connect

        # a lost cluster is said in one paragraph (ClusterLost): Dask's own reconnection errors and their
        # tracebacks are not logged on top of it
        quiet = [logging.getLogger(name) for name in ("distributed.client", "distributed.utils", "distributed.core",
                                                   "distributed.batched")]
        levels = [q.level for q in quiet]
        for q in quiet:
            q.setLevel(logging.CRITICAL)
        try:
            with connect(self.client, connect_timeout=self.connect_timeout) as client:
                yield client
        finally:
            for q, level in zip(quiet, levels, strict=False):
                q.setLevel(level)


def from_options(engine: str, *, scheduler: str | None = None, memory: str | None = None,
                 connect_timeout: float = 10.0) -> Local | Dask:
    """The command line's ``--engine``, ``--scheduler``, ``--memory`` and ``--connect-timeout`` as an engine value,
    checked before any work (a bad ``--memory``, a scheduler without ``--engine dask``, the dask extra missing, an
    address that is not ``tcp://HOST:PORT``)."""
    from clfeval.errors import MissingExtra

    if engine != "dask":
        if scheduler is not None:
            raise UsageError(f"option --scheduler {scheduler!r} names a Dask scheduler, which only --engine dask "
                             f"uses; add --engine dask, or leave --scheduler out to run locally.")
        local = Local(memory=memory if memory is not None else "1GiB")
        local.budget  # noqa: B018  (a bad --memory is refused before any work)
        return local
    MissingExtra.require("--engine dask", [("dask", "dask"), ("distributed", "dask.distributed"),
                                          ("dask.dataframe", "dask.dataframe")], "dask")
    remote = Dask(scheduler, connect_timeout=connect_timeout, memory=memory)
    remote.check()
    return remote
