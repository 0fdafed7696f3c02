"""Exact rankings beyond memory: ROC-AUC, average precision, curves, sweep and best cut from batches.

:class:`RankingStore` takes a ranking's items in batches — a boolean "is
positive" array and a float64 score array each — within a memory budget, and
gives what the in-memory :class:`~clfeval.scores._curves.SortedRanking` of the same
items gives, to the last bit: ROC-AUC, average precision, the decimated ROC and
PR curves, the threshold sweep, the cut an objective chooses, the counts at
any threshold.

How it works
------------
1. **Sorted runs.** Batches are buffered; when the buffer reaches its share of
   the budget, the positives' and the negatives' scores are sorted (two plain
   sorts, as in memory) and written to a temporary directory as ``.npy``
   runs (*spilled*). Data that fits is never written. The directory is
   removed when the store closes — after an error, and after SIGINT or SIGTERM
   too (the command line turns them into exceptions that unwind it).
2. **Ranges.** The score axis is cut into ranges that each hold at most a
   chunk of items, planned by :mod:`clfeval.core._rangeplan` (the one range
   planner, shared with :mod:`clfeval.engines.dask`): candidate cut points are the
   scores at evenly spaced ranks of every run, their exact counts come from
   binary searches in the runs, and the cuts are chosen greedily. A range's slice of every run is read,
   merged, and run-length encoded (one entry per distinct score and class, so
   a tie group of any size costs one entry).
3. **Offsets.** Ranges are visited in order with the counts of every range
   before them (the positives and negatives below), so each range computes its
   pairs in order, tied pairs, average-precision terms, cuts and curve samples
   exactly, as if the whole arrays were in memory. Pair counts are Python
   integers; the average-precision terms are the same float64 divisions as in
   memory, summed exactly (:class:`~clfeval.core._exactsum.ExactSum`), so the
   order of ranges and batches cannot change a bit.

Why sorted runs and not a first pass of approximate quantiles: the runs read
the input once (a Parquet dataset is decoded once), and their exact counts
make every range's size known before it is read; the quantile design needs a
second read of the input, and is what :mod:`clfeval.engines.dask` uses, where no disk
is shared.

Memory: the budget bounds the buffered scores (8 bytes a score, twice while a
run is sorted), the one range being merged, and the curve samples. Pass
``memory`` in bytes or as text (``"1GB"``, ``"512MiB"``); :func:`parse_memory`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from clfeval.core import (  # noqa: F401 - re-exported
    EXACT_CUTS_MAX,
    MEMORY_BUDGET,
    MIN_MEMORY,
    ClassCounts,
    RankingSummary,
    choose_cuts,
    cut_counts,
    exact_candidates,
    parse_memory,
    range_offsets,
    run_bounds,
)
from clfeval.errors import DataError, UsageError
from clfeval.io import checkpoint, deferred_signals, make_spill_directory, remove_spill_directory
from clfeval.scores._objectives import Objective, parse_objective
from clfeval.scores._rangestats import RangeStats, merge_range, range_stats, rle, sample_ranks_of
from clfeval.scores._sweep import CutChooser, Cuts, Sweep, sweep_of

__all__ = ["DEFAULT_MEMORY", "parse_memory", "SpillSpace", "RankingStore", "RankingSummary", "CutChoice",
           "stream_ranking"]

#: The default memory budget: 1 GiB (the one budget of every spill: rankings, id partitions, standard input).
DEFAULT_MEMORY = MEMORY_BUDGET
#: Bytes of budget per buffered score (8 while buffered, 8 more while a run is sorted, headroom for a batch).
BUFFER_BYTES_PER_ITEM = 24
#: Bytes of budget per item of the range being merged (its scores, run-length codes, offsets, temporaries).
RANGE_BYTES_PER_ITEM = 96

# --- runs: sorted score arrays, in memory or in a file ------------------------------------

class _Run:
    """A sorted float64 array, held in memory or in a ``.npy`` file read by slices (never mapped for long)."""

    def __init__(self, data: np.ndarray | None, path: str | None, n: int) -> None:
        self.data = data
        self.path = path
        self.n = n
        self._offset = 0
        if path is not None:
            with open(path, "rb") as f:
                np.lib.format.read_magic(f)
                np.lib.format.read_array_header_1_0(f)
                self._offset = f.tell()

    def read(self, lo: int, hi: int) -> np.ndarray:
        if self.data is not None:
            return self.data[lo:hi]
        if hi <= lo:
            return np.empty(0)
        with open(self.path, "rb") as f:  # type: ignore[arg-type]
            f.seek(self._offset + 8 * lo)
            out = np.fromfile(f, dtype=np.float64, count=hi - lo)
        if out.shape[0] != hi - lo:
            raise DataError(f"the spilled run {self.path!r} was cut short (removed or truncated while in use).")
        return out

    def below(self, values: np.ndarray, side: Literal["left", "right"] = "left") -> np.ndarray:
        """Items below each value (``side="right"``: at or below), by binary search."""
        if self.n == 0:
            return np.zeros(values.shape[0], dtype=np.int64)
        if self.data is not None:
            return np.searchsorted(self.data, values, side=side).astype(np.int64)
        mm = np.load(self.path, mmap_mode="r")  # type: ignore[arg-type]
        try:
            return np.searchsorted(mm, values, side=side).astype(np.int64)  # touches log(n) pages
        finally:
            del mm

    def sample(self, step: int) -> np.ndarray:
        """Scores at every ``step``-th rank (and the last)."""
        if self.n == 0:
            return np.empty(0)
        idx = np.unique(np.append(np.arange(0, self.n, step), self.n - 1))
        if self.data is not None:
            return self.data[idx]
        mm = np.load(self.path, mmap_mode="r")  # type: ignore[arg-type]
        try:
            return np.array(mm[idx])
        finally:
            del mm


class SpillSpace:
    """A memory budget shared by one or more stores, and the temporary directory their runs spill to.

    Several stores that fill at once (one per label of a one-vs-rest ranking,
    and the micro ranking) share one budget: when their buffers together reach
    it, every buffer becomes a run. Use as a context manager (or call
    :meth:`close`): the directory and every run in it are removed on exit,
    whatever the exit.
    """

    def __init__(self, memory: Any = DEFAULT_MEMORY, *, tmpdir: str | None = None) -> None:
        self.memory = parse_memory(memory)
        self.tmpdir = tmpdir
        self.directory: str | None = None
        self.stores: list[RankingStore] = []
        self.runs_written = 0
        self.bytes_written = 0
        self.closed = False

    @property
    def spilled(self) -> bool:
        return self.runs_written > 0

    @property
    def buffer_items(self) -> int:
        """Scores buffered (over every store) before they are sorted into runs."""
        return max(1, self.memory // BUFFER_BYTES_PER_ITEM)

    @property
    def range_items(self) -> int:
        """Items per range of the merge."""
        return max(64, self.memory // RANGE_BYTES_PER_ITEM)

    def buffered(self) -> int:
        return sum(s.buffered for s in self.stores)

    def write(self, array: np.ndarray) -> _Run:
        """A sorted array written as one run file."""
        if self.closed:
            raise UsageError("the spill space was closed; build a new store.")
        if self.directory is None:
            try:
                with deferred_signals():  # made and remembered at once: close() removes it whatever arrives
                    self.directory = make_spill_directory(self.tmpdir)
            except (OSError, UsageError) as exc:
                why = str(exc) if isinstance(exc, UsageError) else (exc.strerror or str(exc))
                raise UsageError(lambda name: f"cannot create a temporary directory for sorted runs "
                                              f"({why}); give {name} a writable place with room, "
                                              f"or a larger memory budget.", params=["tmpdir"]) from None
        path = os.path.join(self.directory, f"run-{self.runs_written:06d}.npy")
        try:
            np.save(path, array, allow_pickle=False)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(path)
            raise UsageError(f"cannot write a sorted run to {self.directory!r}: {exc.strerror or exc}. Spilling "
                             f"needs about 8 bytes per score of free disk there; free some space, choose another "
                             f"temporary directory or give a larger memory budget.") from None
        self.runs_written += 1
        self.bytes_written += array.nbytes
        checkpoint("spilled")
        return _Run(None, path, array.shape[0])

    def flush_all(self) -> None:
        for s in self.stores:
            s.flush()

    def close(self) -> None:
        """Remove the temporary directory and every run in it."""
        self.closed = True
        if self.directory is not None:
            remove_spill_directory(self.directory)
            self.directory = None

    def __enter__(self) -> SpillSpace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class _Range:
    """One range of the score axis, merged: distinct values ascending, counts per class, counts below."""

    values: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    pos_lt: np.ndarray  # positives with a lower score (over the whole ranking)
    neg_lt: np.ndarray


# --- the store ------------------------------------------------------------------------------

class RankingStore:
    """A binary ranking filled batch by batch, exact beyond memory (see the module notes).

    Parameters
    ----------
    positive : str
        The positive label's string form (for the result).
    memory : int or str
        The memory budget (ignored when ``space`` is given).
    space : SpillSpace, optional
        A budget and spill directory shared with other stores; the store then
        does not own it.
    tmpdir : str, optional
        Where the spill directory is made (default: the system's).

    Examples
    --------
    >>> with RankingStore("1", memory=4096) as st:
    ...     for k in range(3):
    ...         st.add(np.array([True, False, True, False]), np.array([0.9, 0.1, 0.4, 0.5]) + k)
    ...     r = st.summary()
    >>> r.spilled, r.n, r.pairs_in_order, r.pairs  # each positive above 1, 2, ..., 6 negatives
    (False, 12, 21.0, 36)
    """

    def __init__(self, positive: str = "1", *, memory: Any = DEFAULT_MEMORY, space: SpillSpace | None = None,
                 tmpdir: str | None = None) -> None:
        self.positive = str(positive)
        self._own = space is None
        self.space = space if space is not None else SpillSpace(memory, tmpdir=tmpdir)
        self.space.stores.append(self)
        self._buf: tuple[list[np.ndarray], list[np.ndarray]] = ([], [])
        self.buffered = 0
        self.runs: tuple[list[_Run], list[_Run]] = ([], [])
        self.n_positive = 0
        self.n_negative = 0
        self._summary: RankingSummary | None = None
        self._ranges: list[tuple[np.ndarray, np.ndarray, int, int]] | None = None

    # filling

    def add(self, is_positive: Any, scores: Any) -> None:
        """One batch: a boolean "is positive" array and finite float64 scores (checked by the caller)."""
        if self._ranges is not None:
            raise UsageError("items were added after the ranking was read; add every batch first.")
        y = np.asarray(is_positive, dtype=bool)
        s = np.asarray(scores, dtype=np.float64)
        if y.shape != s.shape or y.ndim != 1:
            raise DataError(f"a batch has {y.size} labels but {s.size} scores; give one score per item.")
        if s.size == 0:
            return
        pos = s[y]
        neg = s[~y]
        self._buf[0].append(pos)
        self._buf[1].append(neg)
        self.n_positive += pos.shape[0]
        self.n_negative += neg.shape[0]
        self.buffered += s.shape[0]
        if self.space.buffered() >= self.space.buffer_items:
            self.space.flush_all()

    def flush(self, *, keep: bool = False) -> None:
        """Sort the buffer into one run per class: written to disk, or kept in memory with ``keep``."""
        for k in (0, 1):
            if not self._buf[k]:
                continue
            a = self._buf[k][0] if len(self._buf[k]) == 1 else np.concatenate(self._buf[k])
            self._buf[k].clear()
            if not a.flags.writeable or not a.flags.owndata:
                a = a.copy()
            a.sort()
            self.runs[k].append(_Run(a, None, a.shape[0]) if keep else self.space.write(a))
        self.buffered = 0

    def _seal(self) -> None:
        if self._ranges is None:
            self.flush(keep=True)  # the last buffer fits the budget: it stays in memory
            self._ranges = self._plan()

    @property
    def spilled(self) -> bool:
        """Whether any of this store's runs went to disk."""
        return any(r.path is not None for k in (0, 1) for r in self.runs[k])

    @property
    def n(self) -> int:
        return self.n_positive + self.n_negative

    # the ranges

    def _all_runs(self) -> list[_Run]:
        return [r for k in (0, 1) for r in self.runs[k] if r.n]

    def _count_below(self, values: np.ndarray, k: int, side: Literal["left", "right"] = "left") -> np.ndarray:
        out = np.zeros(values.shape[0], dtype=np.int64)
        for r in self.runs[k]:
            out += r.below(values, side)
        return out

    def _plan(self) -> list[tuple[np.ndarray, np.ndarray, int, int]]:
        """The ranges of :mod:`~clfeval.core._rangeplan`, each holding at most ``range_items`` items.

        Returns, per range: each run's start and stop index (positive runs
        first), and the positives and negatives below the range.
        """
        runs = self._all_runs()
        cap = self.space.range_items
        edges = np.empty(0)
        if self.n > cap and runs:
            step = max(1, cap // (4 * len(runs)))
            cand, below = exact_candidates([r.sample(step) for r in runs],
                                           lambda v: sum((r.below(v) for r in runs), np.zeros(v.shape[0], np.int64)))
            edges = choose_cuts(cand, below, cap)
        ranges = edges.shape[0] + 1
        idx = [run_bounds(r.below(edges), r.n, ranges) for r in runs]
        kinds = [k for k in (0, 1) for r in self.runs[k] if r.n]
        counts = []
        for i, k in zip(idx, kinds, strict=True):
            c = np.zeros((ranges, 2), dtype=np.int64)
            c[:, k] = np.diff(i)
            counts.append(c)
        off = range_offsets(counts)
        return [(np.array([i[j] for i in idx], dtype=np.int64), np.array([i[j + 1] for i in idx], dtype=np.int64),
                 int(off.below[j, 0]), int(off.below[j, 1])) for j in range(ranges)]

    def _read_range(self, j: int) -> _Range:
        lo, hi, pos_lt0, neg_lt0 = self._ranges[j]  # type: ignore[index]
        runs = self._all_runs()
        kinds = [k for k in (0, 1) for r in self.runs[k] if r.n]
        block = max(1, self.space.range_items)
        pieces: tuple[list, list] = ([], [])
        for m, r in enumerate(runs):
            for a in range(int(lo[m]), int(hi[m]), block):
                pieces[kinds[m]].append(rle(r.read(a, min(int(hi[m]), a + block))))
        v, p, q = merge_range(pieces[0], pieces[1])
        return _Range(v, p, q, pos_lt0 + np.cumsum(p) - p, neg_lt0 + np.cumsum(q) - q)

    def ranges(self, *, descending: bool = False) -> Iterator[_Range]:
        """The merged ranges of the score axis, ascending (or descending)."""
        self._seal()
        order = range(len(self._ranges))  # type: ignore[arg-type]
        for j in (reversed(order) if descending else order):
            yield self._read_range(j)

    # results

    def summary(self) -> RankingSummary:
        """ROC-AUC, average precision and the curve samples, in one pass over the ranges."""
        if self._summary is None:
            P, N = self.n_positive, self.n_negative
            ranks = sample_ranks_of(P, N)
            cap = min(EXACT_CUTS_MAX, self.space.memory // RANGE_BYTES_PER_ITEM)  # the cuts kept within the budget
            total = RangeStats(cap=cap)
            for rg in self.ranges():
                total = total + range_stats(rg.values, rg.pos, rg.neg, int(rg.pos_lt[0]) if rg.values.size else 0,
                                            int(rg.neg_lt[0]) if rg.values.size else 0, P, N, ranks, cap=cap)
            runs = sum(r.path is not None for k in (0, 1) for r in self.runs[k])
            self._summary = total.result(self.positive, P, N, spilled=self.spilled, memory=self.space.memory,
                                         runs=runs)
        return self._summary

    def cut_chunks(self) -> Iterator[Cuts]:
        """Every cut (distinct score) with TP and FP, in decreasing threshold order, a range at a time."""
        P, N = self.n_positive, self.n_negative
        for rg in self.ranges(descending=True):
            yield Cuts(rg.values[::-1].copy(), (P - rg.pos_lt)[::-1].copy(), (N - rg.neg_lt)[::-1].copy())

    def sweep_chunks(self, *, beta: float = 1.0, cost_fp: float = 1.0, cost_fn: float = 1.0,
                     zero_division: Any = 0) -> Iterator[Sweep]:
        """The threshold sweep, a range at a time (decreasing threshold): the rows of ``SortedRanking.sweep()``."""
        for c in self.cut_chunks():
            yield sweep_of(c, self.n_positive, self.n_negative, beta=beta, cost_fp=cost_fp, cost_fn=cost_fn,
                           zero_division=zero_division)

    def best_cut(self, objective: str | Objective = "f1") -> CutChoice:
        """The cut an objective chooses, with ``SortedRanking.best_cut``'s tie rules; one pass over the ranges."""
        obj = parse_objective(objective)
        chooser = CutChooser(obj)
        for sw in self.sweep_chunks(beta=obj.beta, cost_fp=obj.cost_fp, cost_fn=obj.cost_fn):
            chooser.add(sw)
        return CutChoice(obj.name, chooser.index, chooser.row, chooser.top_precision)

    def sweep_rows(self, max_rows: int | None = None, **kwargs: Any) -> list[dict[str, Any]]:
        """``SortedRanking.sweep(**kwargs).rows(max_rows)``: rows spread evenly over the sweep, first and last kept."""
        n = self.summary().n_cuts
        assert n is not None  # a store's summary counts its distinct scores
        if max_rows is None or n <= max_rows:
            if n * RANGE_BYTES_PER_ITEM > self.space.memory:
                raise UsageError(lambda name: f"the sweep has {n} cuts, more than {name} allows in memory; ask for "
                                              f"at most some rows (max_rows).", params=["memory"])
            want = np.arange(n)
        else:
            want = np.unique(np.linspace(0, n - 1, max(max_rows, 2)).round().astype(np.int64))
        rows: list[dict[str, Any]] = []
        seen = 0
        for sw in self.sweep_chunks(**kwargs):
            k = len(sw)
            sel = want[(want >= seen) & (want < seen + k)] - seen
            rows.extend(sw.row(int(i)) for i in sel)
            seen += k
        return rows

    def sweep(self, **kwargs: Any) -> Sweep:
        """The whole sweep as one :class:`Sweep` (as ``SortedRanking.sweep()``), when its cuts fit the budget."""
        n = self.summary().n_cuts
        assert n is not None  # a store's summary counts its distinct scores
        if n * RANGE_BYTES_PER_ITEM > self.space.memory:
            raise UsageError(lambda name: f"the sweep has {n} cuts, more than {name} allows in memory; use "
                                          f"sweep_chunks() or sweep_rows(max_rows).", params=["memory"])
        chunks = list(self.cut_chunks())
        cuts = Cuts(*(np.concatenate([getattr(c, f) for c in chunks]) if chunks else np.empty(0, dtype=t)
                      for f, t in (("thresholds", np.float64), ("tp", np.int64), ("fp", np.int64))))
        return sweep_of(cuts, self.n_positive, self.n_negative, **kwargs)

    def counts_at(self, threshold: float) -> ClassCounts:
        """TP, FP, FN, TN when items with score ≥ ``threshold`` are predicted positive."""
        self._seal()
        t = np.array([float(threshold)])
        tp = self.n_positive - int(self._count_below(t, 0)[0])
        fp = self.n_negative - int(self._count_below(t, 1)[0])
        return cut_counts(tp, fp, self.n_positive, self.n_negative)

    def close(self) -> None:
        """Drop the runs (and the spill directory, when the store owns it)."""
        self.runs = ([], [])
        self._buf = ([], [])
        if self._own:
            self.space.close()

    def __enter__(self) -> RankingStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class CutChoice:
    """The cut an objective chose: its index in the sweep (decreasing threshold), threshold and row.

    ``index`` is None when no cut reaches a precision or recall target;
    ``top_precision`` is (highest precision, its threshold), what a refused
    precision target reports.
    """

    objective: str
    index: int | None
    row: dict[str, Any] | None
    top_precision: tuple[float, float] | None

    @property
    def threshold(self) -> float | None:
        if self.row is None:
            return None
        t = self.row["threshold"]
        return t if isinstance(t, int) else float(t)  # a cut on integer scores stays an integer

    def to_dict(self) -> dict[str, Any]:
        return {"objective": self.objective, "index": self.index, "row": self.row,
                "top_precision": None if self.top_precision is None else list(self.top_precision)}


def stream_ranking(batches: Iterable[tuple[Any, Any]], *, positive: str = "1", memory: Any = DEFAULT_MEMORY,
                   tmpdir: str | None = None) -> RankingSummary:
    """The summary of a ranking given as batches of (is_positive, scores), within ``memory``.

    >>> r = stream_ranking([(np.array([True, False]), np.array([0.8, 0.2])), (np.array([False]), np.array([0.9]))])
    >>> r.roc_auc, r.average_precision, r.spilled
    (0.5, 0.5, False)
    """
    with RankingStore(positive, memory=memory, tmpdir=tmpdir) as st:
        for y, s in batches:
            st.add(y, s)
        return st.summary()
