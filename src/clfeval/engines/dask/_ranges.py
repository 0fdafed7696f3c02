"""An exact order across partitions on Dask: the generic range runner (the one multi-pass exception of the
engine, issue 38). It knows no metric; the operation hands it what to keep and what to compute per range.

The passes, for a picklable state factory ``make()`` (an accumulator: ``update(batch)``, then ``finish()`` the
sorted state, which offers ``sample()``, ``counts(cuts, ranges)`` and ``piece(cuts, ranges, j)``):

1. one task per group of partitions makes a state and updates it with the group's checked batches, read on the
   worker by the local reader (:func:`clfeval.io.read_pieces`, as :mod:`clfeval.engines.dask._accumulate` reads
   them: a :class:`clfeval.io.PredictionBatch`); the finished states stay on the workers;
2. their samples come to the client, which chooses the cut points with the one range planner,
   :mod:`clfeval.core._rangeplan` (about as many entries in each range, and enough ranges for each to fit the
   memory budget when merged);
3. every state's counts per range become the offsets (the operation's ``offsets(counts)``), in one small task;
4. each range's pieces (one per state) are merged on one worker by the operation's ``fn(pieces, offsets, j)``
   (:meth:`RangeRun.per_range`): the only data that travels.

:class:`RangeRun` holds the tasks, so that a caller computes the per-range results at once (:func:`ranked`), or
keeps them on the workers and fetches them one range at a time (the threshold's sweep).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import dask

from clfeval.engines.dask._accumulate import batches
from clfeval.engines.dask._parts import Parts, parts_of, persist, probe, run, threads

__all__ = ["RangeRun", "run_ranges", "open_ranges", "ranked"]


def _state(items: Sequence[Any], read: bool, first: int, make: Callable[[], Any],
           cols: tuple[str, str | None, str | None, tuple[str, ...]]) -> Any:
    acc = make()
    for batch in batches(items, read, first, cols):
        acc.update(batch)
    return acc.finish()


def _sample(state: Any) -> Any:
    return state.sample()


def _counts(state: Any, cuts: Any, ranges: int) -> Any:
    return state.counts(cuts, ranges)


def _piece(state: Any, cuts: Any, ranges: int, j: int) -> Any:
    return state.piece(cuts, ranges, j)


@dataclass(frozen=True)
class RangeRun:
    """The tasks of an exact order on Dask: every group's finished state (kept on the workers), each range's
    pieces (one per state), the offsets and the number of ranges."""

    client: Any
    parts: Parts
    states: list[Any]
    pieces: list[list[Any]]
    offsets: Any
    ranges: int
    #: The engine's name (for a result's notes on where it ran).
    engine = "dask"

    @property
    def partitions(self) -> int:
        """The input's partitions (files, Parquet row groups, DataFrame partitions)."""
        return len(self.parts)

    def per_range(self, fn: Callable[[list[Any], Any, int], Any]) -> list[Any]:
        """``fn(pieces of range j from every state, offsets, j)`` for every range, as tasks."""
        return [dask.delayed(fn, pure=True)(self.pieces[j], self.offsets, j) for j in range(self.ranges)]

    def per_state(self, fn: Callable[..., Any], *args: Any) -> list[Any]:
        """``fn(state, *args)`` for every group's state, as tasks."""
        return [dask.delayed(fn, pure=True)(s, *args) for s in self.states]

    def per_part(self, fn: Callable[..., Any], *args: Any) -> list[Any]:
        """``fn(table, *args)`` for every partition of the input (read again), as tasks."""
        return self.parts.map(fn, *args)

    def apply(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` as a task (tasks among ``args``, and in lists of them, given as their results)."""
        return dask.delayed(fn, pure=True)(*args)

    def compute(self, *tasks: Any) -> tuple[Any, ...]:
        """The tasks' results, here."""
        return run(self.client, *tasks)

    def keep(self, tasks: Sequence[Any]) -> list[Any]:
        """The tasks computed and kept on the workers (fetched later with :meth:`compute`)."""
        return persist(self.client, tasks)


def run_ranges(parts: Parts, make: Callable[[], Any], *, gold: str, extra: Sequence[str], budget: int,
               entry_bytes: int, offsets: Callable[[list[Any]], Any], client: Any = None,
               ranges: int | None = None) -> RangeRun:
    """Passes 1–3 of the module notes over ``parts``: the states made and kept on the workers, the cut points
    chosen here from their samples, the pieces and the offsets returned as tasks.

    ``ranges`` default: four per worker thread of the cluster, at most one per partition, and more when a merged
    range (``entry_bytes`` per entry) would outgrow ``budget``."""
    from clfeval.core import choose_cuts, sampled_candidates

    k = threads(client)
    cols = (gold, None, None, tuple(dict.fromkeys(e for e in extra if e)))
    read = bool(parts.files)
    states = persist(client, [dask.delayed(_state, pure=True)(items, read, first, make, cols)
                              for items, first in parts.groups(k)])
    samples = [x for one in run(client, *[dask.delayed(_sample, pure=True)(s) for s in states]) for x in one]
    entries = sum(n for _, n in samples)
    n_ranges = ranges or max(1, min(len(parts), 4 * k), -(-entries * entry_bytes // budget))
    cand, below = sampled_candidates(samples)
    cuts = choose_cuts(cand, below, entries / n_ranges, ranges=n_ranges)
    pieces = [[dask.delayed(_piece, pure=True)(s, cuts, n_ranges, j) for s in states] for j in range(n_ranges)]
    off = dask.delayed(offsets, pure=True)([dask.delayed(_counts, pure=True)(s, cuts, n_ranges) for s in states])
    return RangeRun(client, parts, states, pieces, off, n_ranges)


def open_ranges(data: Any, one: Any, *, client: Any = None, memory: Any = None) -> RangeRun:
    """The :class:`RangeRun` of one input (a resolved PATH, paths, a Dask DataFrame or :class:`Parts`) for ``one``,
    the order of one column: ``gold`` and ``extra`` (the columns its batches carry), ``reading`` (the reader's
    ``labels``, ``normalize``, ``options``, ``scores``), ``probe`` (the workers' access to every file checked
    first), ``budget(memory)`` (bytes per task, from the engine's ``memory``), ``make(budget)`` (the state
    factory), ``entry_bytes``, ``ranges`` and ``offsets(counts)``."""
    parts = data if isinstance(data, Parts) else parts_of(data, [one.gold, *one.extra], **one.reading)
    if one.probe:
        probe(parts, client)
    budget = one.budget(memory)
    return run_ranges(parts, one.make(budget), gold=one.gold, extra=one.extra, budget=budget,
                      entry_bytes=one.entry_bytes, offsets=one.offsets, client=client, ranges=one.ranges)


def ranked(data: Any, spec: Any, *, client: Any = None, memory: Any = None) -> Any:
    """An operation's exact order on the cluster: ``spec.on_ranges(data, open)``, where ``open(data, one)`` is
    :func:`open_ranges` on this cluster. The operation then computes its per-range results at once, or keeps them
    on the workers and fetches them lazily."""
    return spec.on_ranges(data, partial(open_ranges, client=client, memory=memory))
