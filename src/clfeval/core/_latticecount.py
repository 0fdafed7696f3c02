"""The counts the slice search needs, for every slice of a lattice of column sets, in one pass.

The search (:mod:`clfeval.slicing._slicefind`) tests one proportion per slice -- successes out of
trials, say the positive items found out of the positive items for recall -- so a slice needs three counts, not
a K×K table: its items, its trials and its successes. Each row is one *outcome*: not a trial (0), a trial
that failed (1), a trial that succeeded (2) (metrics whose trials are all items -- accuracy, error rate -- have
the outcomes 0 = failed and 1 = succeeded only). :class:`LatticeCounter` counts (slice, outcome) batch by
batch for every column set of the lattice at once:

* **Small codes.** A column of integers in a narrow range is coded as ``value − base`` (no lookup: the
  Parquet column as read is the code); other columns (text, nulls, bins of numeric columns) through a
  vocabulary, as ``--by`` codes them.
* **Blocks.** The column sets are covered by a few *blocks* -- sets of columns whose joint table (every
  combination of their codes × the outcome) has at most :data:`BLOCK_CELLS` cells -- chosen greedily so that
  every column set of the lattice lies inside one block. One ``bincount`` per block and batch counts the
  joint table; the table of a column set is the block's table summed over the block's other columns. Ten
  columns of ten values (10 + 45 column sets) need 6 blocks of at most 5 columns, not 55 counts.
* The keys of a block are built :data:`CHUNK` rows at a time (within the cache) from column codes narrowed
  to ``uint8`` where a column has at most 256 values, each partial key in the narrowest unsigned type that
  holds it (the last digit as ``intp``, which ``bincount`` reads). Labels that are small integers are not
  coded: the outcome of a row comes from its gold and predicted values (:meth:`LatticeCounter.update_ints`),
  one to one with their codes. When the blocks together would exceed
  :data:`TOTAL_CELLS` (many columns, ``max_depth=3``) the plan is redone with smaller blocks. A search whose
  first batch already shows more slices than ``max_slices`` is refused there, not after the whole input.
* A column set whose own table is too large for a block (columns of many values) is counted on its own:
  a dense table up to :data:`DENSE_CELLS` cells, else the distinct (slice, outcome) keys of each batch
  (``np.unique``) added up.

The result is one :class:`SliceProportions` per column set: value tuples and their (items, trials,
successes), in the order :class:`~clfeval.core._slicecount.SliceTables` sorts its slices. Two results of the
same column set add (partitions counted apart, on Dask). The counts equal those the K×K slice tables give
through :func:`clfeval.slicing._slicefind.proportions`
(:func:`clfeval.slicing._slicefind.slice_proportions`): the tests check it on every engine.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core._slicebins import MISSING, SliceBinning, slice_order
from clfeval.core._slicecount import ColumnVocab, small_ints
from clfeval.errors import DataError, UsageError

__all__ = ["LatticeCounter", "SliceProportions", "outcome_of", "plan_blocks", "BLOCK_CELLS", "DENSE_CELLS"]

#: Cells (code combinations × outcomes) of one block's joint table at most (int64: 4 MB).
BLOCK_CELLS = 1 << 19
#: Cells of a column set counted on its own in a dense table at most (int64: 32 MB); beyond, sparse keys.
DENSE_CELLS = 1 << 22
#: Cells of all blocks together at most (int64: 128 MB); beyond, smaller blocks.
TOTAL_CELLS = 1 << 24
#: Rows whose block keys are built at a time (the intermediate keys stay in the cache).
CHUNK = 1 << 16
#: Integer columns whose values span at most this many codes are coded as ``value − base``.
OFFSET_SPAN = 256
_BITS = 20

#: Metrics whose trials are all items: (outcome is success) from (gold is the class, pred is the class).
_ALL = {"accuracy", "error_rate"}


def outcome_of(metric: str) -> tuple[str, str | None]:
    """(metric name, class label or None) of a proportion metric (``recall:1`` → ``("recall", "1")``)."""
    from clfeval.core import _catalog as catalog

    entry, label = catalog.parse(metric)
    return str(entry.name), None if label is None else str(label)


def outcomes(name: str, label_code: int | None, gold: np.ndarray, pred: np.ndarray, *, whole: bool = False
             ) -> np.ndarray:
    """The outcome of every row (uint8): 0 no trial, 1 failed, 2 succeeded; for accuracy and error rate (all
    items are trials) 0 failed, 1 succeeded. ``gold`` and ``pred``: label codes, or the labels themselves
    (integers: any one-to-one coding does); ``label_code``: the code of the metric's class among them (None:
    absent from the data so far); ``whole``: accuracy or error rate over all classes (no class named).

    >>> outcomes("recall", 1, np.array([1, 1, 0]), np.array([1, 0, 1])).tolist()
    [2, 1, 0]
    """
    if name in _ALL:
        if label_code is None and whole:
            hit = gold == pred
        elif label_code is None:  # neither is the class: a hit
            hit = np.ones(np.shape(gold), dtype=bool)
        else:
            hit = (gold == label_code) == (pred == label_code)
        ok = hit if name == "accuracy" else ~hit
        ok_codes: np.ndarray = ok.astype(np.uint8)
        return ok_codes
    if label_code is None:
        a = b = np.zeros(np.shape(gold), dtype=bool)
    else:
        a, b = gold == label_code, pred == label_code
    trial, success = {"recall": (a, b), "fnr": (a, ~b), "precision": (b, a), "specificity": (~a, ~b),
                      "fpr": (~a, b), "npv": (~b, ~a)}[name]
    out: np.ndarray = trial.astype(np.uint8)
    out += trial & success
    return out


@dataclass(frozen=True)
class SliceProportions:
    """Items, trials and successes of the metric in every slice of one column set (see the module docstring).

    >>> a = SliceProportions(("g",), (("x",), ("y",)), np.array([3, 2]), np.array([2, 1]), np.array([1, 1]))
    >>> b = SliceProportions(("g",), (("y",),), np.array([4]), np.array([4]), np.array([0]))
    >>> s = a + b; s.keys, s.items.tolist(), s.trials.tolist(), s.successes.tolist()
    ((('x',), ('y',)), [3, 6], [2, 5], [1, 1])
    """

    columns: tuple[str, ...]
    keys: tuple[tuple[Any, ...], ...]
    items: np.ndarray
    trials: np.ndarray
    successes: np.ndarray
    binning: Mapping[str, Any] | None = None

    def sorted(self) -> SliceProportions:
        order = slice_order(self.keys, self.columns, self.binning)
        idx = np.asarray(order, dtype=np.int64)
        return SliceProportions(self.columns, tuple(self.keys[i] for i in order), self.items[idx], self.trials[idx],
                                self.successes[idx], self.binning)

    def check_values(self) -> None:
        """A column null in every row is refused (as ``--by`` refuses it)."""
        for j, c in enumerate(self.columns):
            if self.keys and all(k[j] == MISSING for k in self.keys):
                raise DataError(lambda o, _c=c: f"column {_c!r} (option {o}) is null in every row: there is nothing "
                                                f"to slice by.", params=["find_slices"])

    def __add__(self, other: SliceProportions) -> SliceProportions:
        if not isinstance(other, SliceProportions):
            return NotImplemented
        if other.columns != self.columns:
            raise ValueError("slice counts of different column sets do not add")
        pos = {k: i for i, k in enumerate(self.keys)}
        keys = list(self.keys) + [k for k in other.keys if k not in pos]
        pos = {k: i for i, k in enumerate(keys)}
        out = [np.zeros(len(keys), dtype=np.int64) for _ in range(3)]
        for t in (self, other):
            idx = np.asarray([pos[k] for k in t.keys], dtype=np.int64)
            for o, x in zip(out, (t.items, t.trials, t.successes), strict=True):
                np.add.at(o, idx, x)
        return SliceProportions(self.columns, tuple(keys), out[0], out[1], out[2],
                                self.binning or other.binning).sorted()


class _Coder:
    """The codes of one column: ``value − base`` for integers of a narrow range, else a vocabulary's."""

    def __init__(self, name: str, binning: SliceBinning | None) -> None:
        self.vocab = ColumnVocab(name, binning)
        self.base: int | None = None

    @property
    def size(self) -> int:
        return len(self.vocab.values)

    def codes(self, column: Any) -> np.ndarray:
        if self.vocab.binning is None and (self.base is not None or not self.vocab.values):
            ints = small_ints([column])
            if ints is not None and ints[0].size:
                x = ints[0]
                if not self.base:  # values in [0, OFFSET_SPAN): their own codes
                    got = _small_codes(x)
                    if got is not None:
                        self._extend(0, got[1])
                        self.vocab.nonnull += x.size
                        return got[0]
                import pyarrow.compute as pc

                mm = pc.min_max(column)  # one pass
                lo, hi = int(mm["min"].as_py()), int(mm["max"].as_py())
                base = self.base if self.base is not None else min(lo, 0)
                if lo >= base and hi - base < OFFSET_SPAN:
                    self._extend(base, hi)
                    self.vocab.nonnull += x.size
                    return (x - base).astype(np.uint8) if base else x.astype(np.uint8)
        self.base = None  # from now on through the vocabulary (which holds the values coded so far)
        return self.vocab.codes(column)

    def _extend(self, base: int, hi: int) -> None:
        """Codes ``base + j`` (code j is that value) for every value up to ``hi``."""
        self.base = base
        for v in range(self.size, hi - base + 1):
            self.vocab._code(base + v)


def _small_codes(x: np.ndarray) -> tuple[np.ndarray, int] | None:
    """An int64 column of values in ``[0, OFFSET_SPAN)`` as uint8, and its largest value; None otherwise. One pass
    over the column: each :data:`CHUNK` of it checked (an unsigned maximum: a negative value reads as a huge one)
    and narrowed while it is in the cache."""
    out = np.empty(x.size, dtype=np.uint8)
    hi = 0
    for a in range(0, x.size, CHUNK):
        chunk = x[a:a + CHUNK]
        hi = max(hi, int(chunk.view(np.uint64).max()))
        if hi >= OFFSET_SPAN:
            return None
        out[a:a + CHUNK] = chunk
    return out, hi


def plan_blocks(sets: Sequence[tuple[str, ...]], sizes: Mapping[str, int], cells: int, outcomes: int
                ) -> list[tuple[tuple[str, ...], list[int]]]:
    """Blocks of columns covering the column sets: (block columns, indices of the sets it counts).

    Each block costs a pass over the batch, so the fewest blocks win: the greedy plan of :func:`_greedy_blocks`
    for the sets in their order and in a few fixed shuffles of it (a fixed seed: the same plan every run;
    plans differ in speed only, never in the counts), the one with the fewest blocks (then cells) kept. Ten
    columns and their 45 pairs in blocks of five columns: 6 blocks (the covering number), where the order given
    alone needs 7.

    >>> [b for b, _ in plan_blocks([("a",), ("b",), ("a", "b")], {"a": 3, "b": 4}, 100, 3)]
    [('a', 'b')]
    """
    import random

    def cost(plan: list[tuple[tuple[str, ...], list[int]]]) -> tuple[int, int]:
        return len(plan), sum(math.prod(max(sizes[c], 1) for c in b) for b, _ in plan)

    best = _greedy_blocks(sets, sizes, cells, outcomes)
    width = len({c for s in sets for c in s})
    rng = random.Random(0)
    for _ in range(max(0, min(32, 20_000 // max(1, len(sets) * width)))):  # a few milliseconds in all
        order = list(range(len(sets)))
        rng.shuffle(order)
        plan = [(b, sorted(order[j] for j in mine)) for b, mine in
                _greedy_blocks([sets[i] for i in order], sizes, cells, outcomes)]
        alone = all(len(mine) == 1 for b, mine in plan if math.prod(max(sizes[c], 1) for c in b) * outcomes > cells)
        if alone and cost(plan) < cost(best):  # a set too large for a block stays a block of its own
            best = plan
    return best


def _greedy_blocks(sets: Sequence[tuple[str, ...]], sizes: Mapping[str, int], cells: int, outcomes: int
                   ) -> list[tuple[tuple[str, ...], list[int]]]:
    """One greedy cover: a block starts from the first set not covered yet and takes, one by one, the column
    that puts the most uncovered sets inside it (ties: the fewest values), while its joint table stays within
    ``cells``. A set whose own table is larger is a block of its own."""
    def size(cols: Sequence[str]) -> int:
        return math.prod(max(sizes[c], 1) for c in cols) * outcomes

    as_sets = [frozenset(s) for s in sets]
    uncovered = list(range(len(sets)))
    columns = list(dict.fromkeys(c for s in sets for c in s))
    out: list[tuple[tuple[str, ...], list[int]]] = []
    while uncovered:
        block = list(sets[uncovered[0]])
        if size(block) <= cells:
            while True:
                inside = set(block)
                best, gain = None, 0
                for c in columns:
                    if c in inside or size(block + [c]) > cells:
                        continue
                    grown = inside | {c}
                    g = sum(1 for j in uncovered if c in as_sets[j] and as_sets[j] <= grown)
                    if g > gain or (g == gain and g and best is not None and sizes[c] < sizes[best]):
                        best, gain = c, g
                if best is None:
                    break
                block.append(best)
        inside = set(block)
        mine = [j for j in uncovered if as_sets[j] <= inside]
        out.append((tuple(block), mine))
        taken = set(mine)
        uncovered = [j for j in uncovered if j not in taken]
    return out


def _narrowest(bound: int) -> np.dtype:
    """The narrowest unsigned integer type holding every value below ``bound``."""
    for t in (np.uint8, np.uint16, np.uint32):
        if bound <= np.iinfo(t).max + 1:
            return np.dtype(t)
    return np.dtype(np.intp)


class _Block:
    """The joint (outcome, codes of the block's columns) table of a block, dense; grows with the columns."""

    def __init__(self, columns: tuple[str, ...], sets: list[int], sizes: Mapping[str, int], outcomes: int) -> None:
        self.columns, self.sets, self.outcomes = columns, sets, outcomes
        self.radix = [max(sizes[c], 1) for c in columns]
        self.counts = np.zeros((outcomes, *self.radix), dtype=np.int64)

    @property
    def cells(self) -> int:
        return int(self.counts.size)

    def grow(self, sizes: Mapping[str, int]) -> None:
        want = [max(r, sizes[c]) for c, r in zip(self.columns, self.radix, strict=True)]
        if want == self.radix:
            return
        want = [r if w == r else max(w, 2 * r) for w, r in zip(want, self.radix, strict=True)]
        pad = [(0, 0)] + [(0, w - r) for w, r in zip(want, self.radix, strict=True)]
        self.counts = np.pad(self.counts, pad)
        self.radix = want

    def add(self, codes: Mapping[str, np.ndarray], outcome: np.ndarray, key: np.ndarray) -> None:
        """Count a batch (``key``: a buffer of at least as many integers as rows). The key of a row is built
        :data:`CHUNK` rows at a time, within the cache, each partial key in the narrowest unsigned type that holds
        it (its last digit written as ``intp`` into ``key``), and the batch counted in one ``bincount``; the
        outcome is its leading digit."""
        m = outcome.size
        key = key[:m]
        steps = []
        bound = self.outcomes
        for i, (c, r) in enumerate(zip(self.columns, self.radix, strict=True)):
            bound *= r
            last = i == len(self.columns) - 1
            steps.append((codes[c], r, np.dtype(np.intp) if last else _narrowest(bound), last))
        scratch = {t: np.empty(min(CHUNK, m), dtype=t) for _, _, t, last in steps if not last}
        for a in range(0, m, CHUNK):
            b = min(a + CHUNK, m)
            k: np.ndarray = outcome[a:b]
            for code, r, t, last in steps:
                dst = key[a:b] if last else scratch[t][:b - a]
                np.multiply(k, r, out=dst, dtype=t, casting="unsafe")
                np.add(dst, code[a:b], out=dst, dtype=t, casting="unsafe")
                k = dst
        self.counts += np.bincount(key, minlength=self.cells).reshape(self.counts.shape)

    def table(self, cols: tuple[str, ...]) -> np.ndarray:
        """The (codes of ``cols``, outcome) table: the block's summed over its other columns."""
        axes = tuple(i + 1 for i, c in enumerate(self.columns) if c not in cols)
        t = self.counts.sum(axis=axes) if axes else self.counts
        kept = [c for c in self.columns if c in cols]
        return np.transpose(t, [kept.index(c) + 1 for c in cols] + [0])

    def tables(self, sets: Sequence[tuple[str, ...]]) -> dict[tuple[str, ...], np.ndarray]:
        """:meth:`table` of several column sets at once: each summed one column at a time from the smallest table
        made so far that holds its columns (the largest column summed out first), so that the block's cells are
        read about once, not once per set (a block of five columns: 15 sets from ~1.2 passes over its cells
        instead of 15). Sums of integers: the same tables as :meth:`table`."""
        made: dict[frozenset[str], np.ndarray] = {frozenset(self.columns): self.counts}
        radix = dict(zip(self.columns, self.radix, strict=True))

        def marginal(want: frozenset[str]) -> np.ndarray:
            while True:
                # the fewest cells, then the fewest columns (summing out a column of one value keeps the size)
                have = min((k for k in made if want <= k), key=lambda k: (made[k].size, len(k)))
                if have == want:
                    return made[have]
                kept = [c for c in self.columns if c in have]
                drop = max((c for c in kept if c not in want), key=lambda c: radix[c])
                made[have - {drop}] = made[have].sum(axis=kept.index(drop) + 1)

        out = {}
        for cols in sorted(dict.fromkeys(sets), key=len, reverse=True):
            t = marginal(frozenset(cols))
            kept = [c for c in self.columns if c in cols]
            out[cols] = np.transpose(t, [kept.index(c) + 1 for c in cols] + [0])
        return out


class _Sparse:
    """The (slice, outcome) counts of one column set of many values: the distinct keys of each batch added."""

    def __init__(self, columns: tuple[str, ...], sets: list[int], outcomes: int, limit: int) -> None:
        self.columns, self.sets, self.outcomes, self.limit = columns, sets, outcomes, limit
        self.keys = np.empty(0, dtype=np.int64)
        self.counts = np.empty(0, dtype=np.int64)

    def add(self, codes: Mapping[str, np.ndarray], outcome: np.ndarray) -> None:
        key = np.array(codes[self.columns[0]], dtype=np.int64)
        for c in self.columns[1:]:
            key <<= _BITS
            key |= codes[c]
        key <<= 2
        key |= outcome
        u, n = np.unique(key, return_counts=True)
        self.add_counts(u, n)

    def add_counts(self, keys: np.ndarray, counts: np.ndarray) -> None:
        """Add counts of (slice, outcome) keys."""
        both, inverse = np.unique(np.concatenate([self.keys, keys]), return_inverse=True)
        total = np.zeros(both.size, dtype=np.int64)
        np.add.at(total, inverse, np.concatenate([self.counts, np.asarray(counts, dtype=np.int64)]))
        self.keys, self.counts = both, total
        if np.unique(both >> 2).size > self.limit:
            raise UsageError(lambda o: f"the combinations of the values of {', '.join(self.columns)} make more than "
                                       f"{self.limit:,} slices (option {o}); search fewer columns, bin numeric "
                                       f"columns (--by-bins N), or raise {o}.", params=["max_search"])

    def slices(self) -> tuple[list[tuple[int, ...]], np.ndarray]:
        """The code tuple of every slice and its (slices × outcomes) counts."""
        sl = self.keys >> 2
        u, inv = np.unique(sl, return_inverse=True)
        t = np.zeros((u.size, self.outcomes), dtype=np.int64)
        np.add.at(t, (inv, self.keys & 3), self.counts)
        mask = (1 << _BITS) - 1
        n = len(self.columns)
        tuples = [tuple((int(k) >> (_BITS * (n - 1 - i))) & mask for i in range(n)) for k in u.tolist()]
        return tuples, t


class LatticeCounter:
    """Items, trials and successes of a proportion metric in every slice of every column set, batch by batch.

    Parameters
    ----------
    sets : sequence of tuples of column names
        The column sets of the lattice (every column, every pair, ...).
    metric : str
        A proportion metric of :data:`clfeval.slicing._slicefind.PROPORTION_METRICS` (``recall:1``).
    binning : mapping column → :class:`~clfeval.core._slicecount.SliceBinning`
        Numeric columns cut into bins.
    max_slices : int
        Slices of one column set counted at most (a sparse set past it is refused).
    block_cells : int
        Cells of a block's joint table at most (:data:`BLOCK_CELLS`); 0 counts every set on its own.
    dense_cells : int
        Cells of a set's own dense table at most (:data:`DENSE_CELLS`); larger sets are counted as sparse keys.
    """

    def __init__(self, sets: Sequence[tuple[str, ...]], metric: str, *, binning: Mapping[str, SliceBinning] | None
                 = None, max_slices: int = 10_000, block_cells: int = BLOCK_CELLS,
                 dense_cells: int = DENSE_CELLS) -> None:
        self.sets = [tuple(s) for s in sets]
        self.metric = metric
        self.name, self.label = outcome_of(metric)
        self.outcomes = 2 if self.name in _ALL else 3
        self.columns = list(dict.fromkeys(c for s in self.sets for c in s))
        self.coders = {c: _Coder(c, (binning or {}).get(c)) for c in self.columns}
        self.max_slices, self.block_cells, self.dense_cells = max_slices, block_cells, dense_cells
        self.units: list[Any] | None = None
        self._key = np.empty(0, dtype=np.intp)
        self.n = 0

    def _label_code(self, labels: Sequence[Any]) -> int | None:
        if self.label is None:
            return None
        for i, v in enumerate(labels):
            if str(v) == self.label:
                return i
        return None

    def update(self, columns: Mapping[str, Any], gold_codes: np.ndarray, pred_codes: np.ndarray,
               labels: Sequence[Any]) -> None:
        """Count one batch: its columns (name → values), the label codes of its rows, and the label of each code
        (the counter's vocabulary)."""
        m = int(np.size(gold_codes))
        if not m or not self.sets:
            return
        out = outcomes(self.name, self._label_code(labels), np.asarray(gold_codes), np.asarray(pred_codes),
                       whole=self.label is None)
        self._count(columns, out)

    def update_ints(self, columns: Mapping[str, Any], gold: np.ndarray, pred: np.ndarray, lo: int, lut: np.ndarray,
                    labels: Sequence[Any]) -> None:
        """Count one batch of integer labels, as :meth:`clfeval.core._counting.Counter.update_ints` gives them:
        the labels themselves (``gold``, ``pred``), and the code in ``labels`` of each value ``lo + i`` (``lut``,
        −1: absent). The outcome is found from the labels (one to one with their codes), no codes made."""
        m = int(np.size(gold))
        if not m or not self.sets:
            return
        code = self._label_code(labels)
        value = None
        if code is not None:
            at = np.flatnonzero(lut == code)
            value = lo + int(at[0]) if at.size else None
        self._count(columns, outcomes(self.name, value, gold, pred, whole=self.label is None))

    def _count(self, columns: Mapping[str, Any], out: np.ndarray) -> None:
        m = out.size
        codes = {c: self.coders[c].codes(columns[c]) for c in self.columns}
        for c, x in codes.items():
            if x.size != m:
                raise DataError(f"column {c!r} has {x.size:,} values for {m:,} items.")
        sizes = {c: self.coders[c].size for c in self.columns}
        for c, n in sizes.items():  # the narrowest codes: the blocks read each column several times
            want = np.uint8 if n <= 1 << 8 else np.uint16 if n <= 1 << 16 else np.int64
            if codes[c].dtype != want:
                codes[c] = codes[c].astype(want)
        first = self.units is None
        if self.units is None:
            cells = self.block_cells
            while True:  # smaller blocks when the blocks together would hold too many cells
                self.units = self._plan(self.sets, list(range(len(self.sets))), sizes, cells)
                if cells <= 0 or sum(u.cells for u in self.units if isinstance(u, _Block)) <= TOTAL_CELLS:
                    break
                cells //= 8
        units: list[Any] = []
        for u in self.units:
            if isinstance(u, _Block):
                u.grow(sizes)
                if u.cells > max(self.block_cells, self.dense_cells):
                    units.extend(self._split(u, sizes))
                    continue
            units.append(u)
        self.units = units
        if self._key.size < m:
            self._key = np.empty(m, dtype=np.intp)
        for u in self.units:
            if isinstance(u, _Block):
                u.add(codes, out, self._key)
            else:
                u.add(codes, out)
        self.n += m
        if first and sum(math.prod(sizes[c] for c in st) for st in self.sets) > self.max_slices:
            seen = sum(len(p.keys) for p in self.result())
            if seen > self.max_slices:  # refused now rather than after the whole input
                depth = max(len(st) for st in self.sets)
                raise UsageError(lambda o: f"the slice search of {', '.join(self.columns)} to depth {depth} examines "
                                           f"{seen:,} slices in its first {m:,} rows, more than option {o} "
                                           f"({self.max_slices:,}): search fewer columns, lower --max-depth, bin "
                                           f"numeric columns (--by-bins N), or raise {o}.", params=["max_search"])

    def _plan(self, sets: Sequence[tuple[str, ...]], index: list[int], sizes: Mapping[str, int],
              cells: int | None = None) -> list[Any]:
        units: list[Any] = []
        limit = self.block_cells if cells is None else cells
        for cols, mine in plan_blocks([sets[j] for j in range(len(sets))], sizes, limit, self.outcomes):
            ids = [index[j] for j in mine]
            if math.prod(max(sizes[c], 1) for c in cols) * self.outcomes <= max(self.block_cells, self.dense_cells):
                units.append(_Block(cols, ids, sizes, self.outcomes))
            else:
                units.append(_Sparse(cols, ids, self.outcomes, self.max_slices))
        return units

    def _split(self, block: _Block, sizes: Mapping[str, int]) -> list[Any]:
        """A block grown too large: each of its sets counted on its own from now on, its counts so far kept."""
        out: list[Any] = []
        for j in block.sets:
            s = self.sets[j]
            old = block.table(s)[tuple(slice(0, max(sizes[c], 1)) for c in s)]  # beyond the values seen: zeros
            (unit,) = self._plan([s], [j], sizes)
            if isinstance(unit, _Block):
                unit.grow(sizes)
                first = np.moveaxis(old, -1, 0)  # the block's layout: the outcome first
                unit.counts[tuple(slice(0, n) for n in first.shape)] += first
            else:
                cells = np.argwhere(old > 0)
                key = np.zeros(len(cells), dtype=np.int64)
                for d in range(len(s)):
                    key = key << _BITS | cells[:, d]
                unit.add_counts(key << 2 | cells[:, -1], old[tuple(cells.T)])
            out.append(unit)
        return out

    def result(self) -> list[SliceProportions]:
        """The counts of every column set (in the order of ``sets``), slices without items left out."""
        out: list[SliceProportions | None] = [None] * len(self.sets)
        for u in self.units or []:
            made = u.tables([self.sets[j] for j in u.sets]) if isinstance(u, _Block) else {}
            for j in u.sets:
                s = self.sets[j]
                if isinstance(u, _Block):
                    t = made[s]
                    flat = t.reshape(-1, self.outcomes)
                    present = np.flatnonzero(flat.sum(axis=1))
                    digits = list(zip(*np.unravel_index(present, t.shape[:-1]), strict=True)) if present.size else []
                    counts = flat[present]
                else:
                    digits, counts = u.slices()
                out[j] = self._proportions(s, digits, counts)
        return [o if o is not None else self._proportions(s, [], np.zeros((0, self.outcomes), dtype=np.int64))
                for s, o in zip(self.sets, out, strict=True)]

    def _proportions(self, s: tuple[str, ...], digits: Sequence[Sequence[int]], counts: np.ndarray
                     ) -> SliceProportions:
        values = [self.coders[c].vocab.values for c in s]
        keys = tuple(tuple(v[int(d)] for v, d in zip(values, ds, strict=True)) for ds in digits)
        items = counts.sum(axis=1)
        if self.outcomes == 2:
            trials, successes = items, counts[:, 1]
        else:
            trials, successes = counts[:, 1] + counts[:, 2], counts[:, 2]
        bins = {c: self.coders[c].vocab.binning for c in s}
        binning = {c: b.to_dict() for c, b in bins.items() if b is not None}
        out = SliceProportions(s, keys, np.asarray(items, dtype=np.int64), np.asarray(trials, dtype=np.int64),
                               np.asarray(successes, dtype=np.int64), binning)
        # digits come in increasing order; a column coded as value − base has its values in that order too
        return out if all(self.coders[c].base is not None for c in s) else out.sorted()
