"""The engine as a runner: the one place that knows where an operation runs.

An operation hands the runner what it does in each place — in this process, streamed from a PATH within a
memory budget, or mapped over a cluster's partitions — and the runner picks one, gives it what that place
needs (a budget and a spill directory; a client) and writes the result's engine block. The operation never
tests the engine's type nor reads its attributes; the runner never knows which operation it runs.

- :func:`runner` turns ``engine=`` (None, ``"local"``, ``"dask"``, :class:`~clfeval.engines.Local`,
  :class:`~clfeval.engines.Dask`) into a :class:`Runner`: the only engine type tests of the package are in it.
- :meth:`Runner.admit` refuses, from the capability table (:mod:`clfeval.engines._capabilities`), the options
  the engine does not run, before any work.
- :meth:`Runner.holds` says whether a table is run in this process; :meth:`Runner.spooled` writes one that is not
  to temporary Parquet files, so that it can be streamed or shipped to workers like any PATH.
- :meth:`Runner.accumulate` runs an operation's accumulator (``update``, ``+``) over every item of a PATH:
  one accumulator over the checked batches here, one per group of partitions added in a tree on a cluster.
- :meth:`Runner.accumulate_joined` runs one over the matched items of several inputs joined by id (or row): the
  local io join here (DuckDB, or hash partitions on disk, within the budget), a merge on a cluster.
- :meth:`Runner.ranked` runs an exact order statistic beyond memory (the ranking), the one multi-pass exception:
  the operation's local step here (its spilled sorted runs within the budget), the generic range runner
  (:mod:`clfeval.engines.dask._ranges`) with the operation's ``spec`` on a cluster.
- :meth:`Runner.session` keeps one connection for the several passes of an operation.
- :meth:`Runner.over_path` runs the two routes that have steps of their own: ``local(budget, tmpdir)`` on this
  machine, ``cluster(client, memory)`` on Dask (a report's ranking section with a score column, counted and
  ranked in one pass here; compare's score routes, which the capability table keeps on this machine).
- :meth:`Runner.block` is the result's engine block.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from clfeval.core import EngineInfo
from clfeval.engines._spec import Dask, Local
from clfeval.errors import UsageError

__all__ = ["Runner", "runner", "as_engine"]

R = TypeVar("R")
A = TypeVar("A")

#: The spooling budget of a table handed to a cluster (its parts are files of about this size).
CLUSTER_SPOOL = 1 << 30


class Runner:
    """Where an operation runs; made by :func:`runner`, never directly."""

    #: The engine's name in the engine block (``local``, ``dask``).
    name: str = ""

    def __init__(self, engine: Local | Dask) -> None:
        self.engine = engine

    # --- before any work ----------------------------------------------------------------------------------------
    def admit(self, operation: str, given: Mapping[str, bool] = {}, stdin: Mapping[str, bool] = {}) -> Runner:
        """Refuse what the capability table says this engine does not run (``given``: option → whether the call
        uses it; ``stdin``: parameter → whether it is ``-``), then check the engine itself; returns self."""
        from clfeval.engines._capabilities import refuse, refuse_stdin

        if given:
            refuse(operation, self.name, given)
        refuse_stdin(self.name, stdin)
        self.check()
        return self

    def check(self) -> None:
        """The engine's own checks (the Dask extra installed, an address well formed)."""

    # --- where a table runs ------------------------------------------------------------------------------------
    def holds(self, table: Any, *, needed: bool = False) -> bool:
        """Whether ``table`` (a ``pyarrow.Table``, or None before it is built) runs in this process, all of it in
        memory: the operation needs every item in memory (``needed``), or it fits the budget. An engine that runs
        elsewhere says no."""
        return False

    @property
    def memory(self) -> int | None:
        """The budget the engine block states (None on a cluster)."""
        return None

    def spooled(self, table: Any, what: str = "the table") -> contextlib.AbstractContextManager[Any]:
        """``table`` as a resolved PATH of temporary Parquet files (removed on exit), streamed locally within the
        budget or read by the workers as files."""
        from clfeval.io import inputs

        return inputs.spooled(table, CLUSTER_SPOOL, None, what)

    # --- running ------------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def session(self) -> Iterator[Runner]:
        """One connection for every pass run inside the block (an operation of several passes, or one that hands
        this runner to another operation): on a cluster the client is opened once, not once per pass."""
        yield self

    def over_path(self, local: Callable[[int, str | None], R], cluster: Callable[[Any, Any], R]) -> R:
        """Run a resolved PATH: ``local(budget, tmpdir)`` on this machine (streamed within the budget, spilling
        to ``tmpdir``; or every item read into memory when an option needs them), or ``cluster(client, memory)``
        on a cluster (``memory``: the budget of each range of an exact ranking on a worker, None for the
        library's)."""
        raise NotImplementedError

    def ranked(self, inp: Any, spec: Any, *, local: Callable[[int, str | None], R]) -> tuple[R, str]:
        """An exact order over every item of a resolved PATH (the one multi-pass exception): here
        ``local(budget, tmpdir)`` (the operation's sorted runs, spilled within the budget); on a cluster the
        generic range runner with ``spec`` (the columns and how they are read, the sorted state per group of
        partitions, the offsets, what each range adds and the result: see
        :func:`clfeval.engines.dask._ranges.ranked`), each range within the engine's ``memory``.
        Returns the result and the mode (``streamed``, ``cluster``)."""
        raise NotImplementedError

    def accumulate(self, inp: Any, make: Callable[[], A], *, gold: str, pred: str | None, id: str | None = None,
                   extra: Sequence[str] = (), extra_options: Sequence[str] = (), scores: Sequence[str] = (),
                   multilabel: bool = False, unique: bool = True, reading: Mapping[str, Any] = {},
                   progress: Any = None, read_ahead: bool = False) -> tuple[A, str, int | None]:
        """An accumulator (``update(batch)``, ``+``) over every item of a resolved PATH: ``make()`` gives an empty
        one. Here one accumulator takes the checked batches one after the other, within the budget (ids checked
        unique across the input as they pass); on a cluster one per group of partitions, added in a tree.

        A batch is a :class:`clfeval.io.PredictionBatch` on every engine: ``gold``, ``pred`` (None when
        ``pred`` is), ``ids``, the ``extra`` columns by name (``extra_options``: the option naming each, for
        messages; ``scores``: those that must hold finite numbers, checked as read on a cluster) and
        ``where(i)``, the file and row of its row ``i``. ``unique``: the ids (``id``, or a column ``id`` the files
        have) are read and refused when one repeats; an operation that does not use ids says False (no id is read,
        none checked, as in memory). ``read_ahead``: here, the next batch is read in a thread while the
        accumulator counts the current one (for accumulators whose counting costs as much as the reading).
        ``reading``: ``encoding``, ``normalize``, ``sep``,
        ``input_format`` of the reader; ``progress`` as the operations take it.
        Returns the accumulator, the mode (``streamed``, ``cluster``) and on a cluster the number of parts read."""
        raise NotImplementedError

    def accumulate_joined(self, inputs: Sequence[Any], make: Callable[[], A], *, names: Sequence[str], gold: str,
                          pred: str, id: str | None = None, extra: Sequence[str] = (),
                          extra_options: Sequence[str] = (), repeat: str | None = None,
                          normalize: str | None = None) -> tuple[A, str, Any]:
        """An accumulator (``update(batch)``, ``+``) over the matched items of several resolved PATHs, joined by
        ``id`` (default ``id`` when the files have one; else row by row): ``make()`` gives an empty one. Here one
        accumulator takes the matched batches of the local join (:func:`clfeval.io.aligned`: DuckDB or hash
        partitions on disk within the budget; a batch may be joint cells, each ``counts`` items); on a cluster
        the inputs are merged there and one accumulator per joined partition is added in a tree.

        A batch is a :class:`clfeval.io.Aligned` on every engine: ``gold``, ``preds`` (one per input), ``text``
        (labels compared as text), ``counts`` (None: one item per row) and, with ``extra`` columns of the first
        input (``extra_options``: the option naming each, for messages), ``tags``: the accumulator's
        ``tag(extra)`` of each row of the first input (a small integer, its slice say), carried through the
        join. Duplicate ids, ids on one side only and gold labels that differ are refused, naming the inputs by
        ``names``. ``repeat``: the rows of one repeat of an out-of-fold file; ``normalize`` as the reader takes it.
        Returns the accumulator, the mode (``streamed``, ``cluster``) and how the inputs were matched (a
        :class:`clfeval.io.Matching` here, None on a cluster)."""
        raise NotImplementedError

    def block(self, mode: str, *, spilled: bool = False, spooled: bool = False, parts: int | None = None,
              **more: Any) -> EngineInfo:
        """The result's engine block: this engine's name and budget, the mode (``memory``, ``streamed``,
        ``cluster``), whether anything went to disk (a table spooled to Parquet does, on this machine), and on a
        cluster the number of input ``parts`` (files) it read."""
        if mode == "cluster" and parts is not None:
            more = {"partitions": parts} | more
        return EngineInfo(name=self.name, mode=mode, spilled=bool(spilled), memory=self.memory,
                          more=more | ({"input": "spooled to temporary Parquet files"} if spooled else {}))


class _Local(Runner):
    name = "local"
    engine: Local

    def holds(self, table: Any, *, needed: bool = False) -> bool:
        from clfeval.io import inputs

        return needed or (table is not None and inputs.table_bytes(table) <= self.engine.budget)

    @property
    def memory(self) -> int:
        return self.engine.budget

    @property
    def budget(self) -> int:
        return self.engine.budget

    def spooled(self, table: Any, what: str = "the table") -> contextlib.AbstractContextManager[Any]:
        from clfeval.io import inputs

        return inputs.spooled(table, self.engine.budget, self.engine.tmpdir, what)

    def over_path(self, local: Callable[[int, str | None], R], cluster: Callable[[Any, Any], R]) -> R:
        return local(self.engine.budget, self.engine.tmpdir)

    def ranked(self, inp: Any, spec: Any, *, local: Callable[[int, str | None], R]) -> tuple[R, str]:
        return local(self.engine.budget, self.engine.tmpdir), "streamed"

    def accumulate(self, inp: Any, make: Callable[[], A], *, gold: str, pred: str | None, id: str | None = None,
                   extra: Sequence[str] = (), extra_options: Sequence[str] = (), scores: Sequence[str] = (),
                   multilabel: bool = False, unique: bool = True, reading: Mapping[str, Any] = {},
                   progress: Any = None, read_ahead: bool = False) -> tuple[A, str, int | None]:
        from clfeval import io
        from clfeval.io import iter_predictions, unique_batches

        acc = make()
        with progress(inp) if progress is not None else contextlib.nullcontext(None) as update:
            opts = {"repeat": "repeat" if unique else None} | dict(reading)
            reader = iter_predictions(inp, gold=gold, pred=pred, id=id if unique else None, multilabel=multilabel,
                                      progress=update, extra=extra, extra_options=list(extra_options) or None,
                                      require_pred=pred is not None, ids=unique, **opts)
            batches = unique_batches(reader, budget=self.engine.budget) if unique else iter(reader)
            for batch in io.read_ahead(batches) if read_ahead else batches:
                acc.update(batch)  # type: ignore[attr-defined]
        return acc, "streamed", None

    def accumulate_joined(self, inputs: Sequence[Any], make: Callable[[], A], *, names: Sequence[str], gold: str,
                          pred: str, id: str | None = None, extra: Sequence[str] = (),
                          extra_options: Sequence[str] = (), repeat: str | None = None,
                          normalize: str | None = None) -> tuple[A, str, Any]:
        from clfeval.io import Matching, aligned, iter_predictions

        acc = make()
        readers: list[Any] = [iter_predictions(i, gold=gold, pred=pred, id=id, normalize=normalize) for i in inputs]
        if extra:  # the accumulator's tags of the first input's rows ride the join inside its predictions
            from clfeval.engines._carry import Carried

            readers[0] = Carried(iter_predictions(inputs[0], gold=gold, pred=pred, id=id, normalize=normalize,
                                                  extra=list(extra), extra_options=list(extra_options) or None),
                                 acc.tag)  # type: ignore[attr-defined]
        matching = Matching()
        for batch in aligned(readers, list(names), repeat=repeat, matching=matching, budget=self.engine.budget,
                             weighted=True):
            acc.update(readers[0].decoded(batch) if extra else batch)  # type: ignore[attr-defined]
        return acc, "streamed", matching

    def block(self, mode: str, *, spilled: bool = False, spooled: bool = False, parts: int | None = None,
              **more: Any) -> EngineInfo:
        return super().block(mode, spilled=spilled or spooled, spooled=spooled, parts=parts, **more)


class _Dask(Runner):
    name = "dask"
    engine: Dask

    def __init__(self, engine: Dask) -> None:
        super().__init__(engine)
        self._client: Any = None  # the client of an open session()

    def check(self) -> None:
        self.engine.check()

    def over_path(self, local: Callable[[int, str | None], R], cluster: Callable[[Any, Any], R]) -> R:
        with self.connected() as client:
            return cluster(client, self.engine.memory)

    def ranked(self, inp: Any, spec: Any, *, local: Callable[[int, str | None], R]) -> tuple[R, str]:
        from clfeval.engines.dask import ranked

        with self.connected() as client:
            return ranked(inp, spec, client=client, memory=self.engine.memory), "cluster"

    def accumulate(self, inp: Any, make: Callable[[], A], *, gold: str, pred: str | None, id: str | None = None,
                   extra: Sequence[str] = (), extra_options: Sequence[str] = (), scores: Sequence[str] = (),
                   multilabel: bool = False, unique: bool = True, reading: Mapping[str, Any] = {},
                   progress: Any = None, read_ahead: bool = False) -> tuple[A, str, int | None]:
        from clfeval.engines.dask import accumulate

        with self.connected() as client:
            acc, parts = accumulate(inp, make, gold=gold, pred=pred, id=id, extra=extra, extra_options=extra_options,
                                    scores=scores, multilabel=multilabel, unique=unique,
                                    normalize=reading.get("normalize"), client=client)
        return acc, "cluster", parts

    def accumulate_joined(self, inputs: Sequence[Any], make: Callable[[], A], *, names: Sequence[str], gold: str,
                          pred: str, id: str | None = None, extra: Sequence[str] = (),
                          extra_options: Sequence[str] = (), repeat: str | None = None,
                          normalize: str | None = None) -> tuple[A, str, Any]:
        from clfeval.engines.dask import accumulate_joined

        if id is None and not hasattr(inputs[0], "npartitions"):  # the first file's ``id`` column when it has one
            from clfeval.io import column_names

            src = inputs[0].sources[0]
            id = "id" if "id" in column_names(src, input_format=inputs[0].fmt, encoding=src.encoding) else None
        with self.connected() as client:
            acc = accumulate_joined(inputs, make, gold=gold, pred=pred, id=id, names=names, extra=extra,
                                    normalize=normalize, client=client)
        return acc, "cluster", None

    @contextlib.contextmanager
    def session(self) -> Iterator[Runner]:
        if self._client is not None:
            yield self
            return
        with self.engine.connected() as client:
            self._client = client
            try:
                yield self
            finally:
                self._client = None

    @contextlib.contextmanager
    def connected(self) -> Iterator[Any]:
        if self._client is not None:
            yield self._client
            return
        with self.engine.connected() as client:
            yield client


def runner(engine: Any) -> Runner:
    """``engine=`` as its runner (``None`` → the local engine with its default budget); a runner is returned as it
    is (an operation that hands its work to another one passes its runner on)."""
    if isinstance(engine, Runner):
        return engine
    eng = as_engine(engine)
    if isinstance(eng, Dask):
        return _Dask(eng)
    return _Local(eng)


def as_engine(engine: Any) -> Local | Dask:
    """``engine=`` as an engine value: None → ``Local()``; ``"local"`` / ``"dask"`` by name."""
    if engine is None or engine == "local":
        return Local()
    if engine == "dask":
        return Dask()
    if isinstance(engine, (Local, Dask)):
        return engine
    raise UsageError(lambda name: f"option {name} must be clfeval.engines.Local(...) or clfeval.engines.Dask(...) "
                                  f"(or 'local' / 'dask'); got {engine!r}.", params=["engine"])
