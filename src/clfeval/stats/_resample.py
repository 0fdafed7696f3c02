"""Resampling engines for paired comparisons: one from counts, one from item indices (the percentile and BCa
intervals of their replicates, the basic bound).

Both draw the same things — bootstrap replicates (items drawn with
replacement, the same items for A and B) and randomization replicates (A's
and B's outputs swapped on each item with probability ½) — and return the
metric of A and of B on every replicate, chunk by chunk so that memory stays
bounded whatever the number of replicates.

:class:`CountEngine` — for metrics that are functions of a count table.
    Items that look the same to the metric form one *group* (for a K×K metric
    a cell (gold, A, B) of the joint table; for accuracy the four cells
    (A right?, B right?)). Drawing n items with replacement is drawing the
    group counts from a multinomial over the non-empty groups; swapping
    outputs moves a Bin(count, ½) number of items of each group (x, y) to
    (y, x). A replicate costs O(groups), independent of n.

:class:`IndexEngine` — for anything else (scores, user callables). Draws item
    indices (or swap masks) for a chunk of replicates at a time and hands them
    to an evaluator.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from clfeval.stats._draws import draw_items, draw_swap_mask, draw_swaps
from clfeval.stats._tables import TableSampler

__all__ = ["CountEngine", "SlotEngine", "trace_value", "IndexEngine", "CallableItems", "CodedItems", "draw", "BUDGET",
           "jackknife_values", "allowed_count", "basic_bound", "percentile_levels", "row_quantiles", "percentile_ends",
           "percentile_interval", "bca_ends", "bca_interval"]

#: Elements per chunk array (≈ 32 MB of int64): the memory bound of every engine.
BUDGET = 1 << 22

TableValue = Callable[[np.ndarray], np.ndarray]


class _Scatter:
    """Sum columns of a (c, G) array into (c, R) by a fixed group → cell map, with ``reduceat``."""

    def __init__(self, key: np.ndarray, size: int) -> None:
        self.order = np.argsort(key, kind="stable")
        sorted_key = key[self.order]
        self.cells, self.starts = np.unique(sorted_key, return_index=True)
        self.size = size
        self.identity = self.cells.size == key.size and np.array_equal(self.order, np.arange(key.size))

    def __call__(self, x: np.ndarray) -> np.ndarray:
        out = np.zeros((x.shape[0], self.size), dtype=x.dtype)
        if x.shape[1] == 0:
            return out
        if self.identity:
            out[:, self.cells] = x
        else:
            out[:, self.cells] = np.add.reduceat(x[:, self.order], self.starts, axis=1)
        return out


class CountEngine:
    """A paired comparison reduced to groups of items that a count metric cannot tell apart.

    Parameters
    ----------
    key_a, key_b : ndarray of int, shape (G,)
        The cell of A's (resp. B's) table that the items of each group add to.
    counts : ndarray of int, shape (G,)
        Items per group (all > 0); groups have distinct ``(key_a, key_b)``.
    size : int
        Number of cells R of each system's table.
    value : callable
        ``value(tables)`` maps tables of shape (c, R) to metric values (c,).
    """

    def __init__(self, key_a: np.ndarray, key_b: np.ndarray, counts: np.ndarray, size: int, value: TableValue,
                 grid: tuple[int, np.ndarray] | None = None) -> None:
        self.key_a = np.asarray(key_a, dtype=np.intp)
        self.key_b = np.asarray(key_b, dtype=np.intp)
        self.counts = np.asarray(counts, dtype=np.int64)
        self.size = int(size)
        self.value = value
        self.n = int(self.counts.sum())
        self.groups = int(self.counts.size)
        self._scatter_a = _Scatter(self.key_a, self.size)
        self._scatter_b = _Scatter(self.key_b, self.size)
        self.base_a = np.bincount(self.key_a, weights=self.counts, minlength=self.size).astype(np.int64)
        self.base_b = np.bincount(self.key_b, weights=self.counts, minlength=self.size).astype(np.int64)
        disc = self.key_a != self.key_b
        self._disc_counts = self.counts[disc]
        self._swap_out_a = _Scatter(self.key_a[disc], self.size)
        self._swap_out_b = _Scatter(self.key_b[disc], self.size)
        self.grid = None
        if grid is not None:
            # Dense joint table (K, K, K): the non-empty cells' draws placed in the grid, A's and B's tables its
            # sums over an axis — no gather.
            k, pos = grid
            self.grid = (k, np.asarray(pos, dtype=np.intp))
        self._sampler: TableSampler | None = None

    @property
    def sampler(self) -> TableSampler:
        """The groups' multinomial sampler (:class:`~clfeval.stats._tables.TableSampler`), built on first use."""
        if self._sampler is None:
            self._sampler = TableSampler(self.counts)
        return self._sampler

    @classmethod
    def from_joint(cls, joint: np.ndarray, value: TableValue, *, trace_only: bool = False) -> CountEngine:
        """Groups of a (K, K, K) joint table (gold, A, B).

        ``trace_only`` — the metric depends on the number of correct items
        only (accuracy, error rate, micro averages): the joint table collapses
        to the cells (A right?, B right?) and each system's table to
        ``[wrong, right]``; ``value`` then receives the 2×2 table
        ``[[right, wrong], [0, 0]]`` (all items in one gold class, predicted
        correctly or not), whose trace / N is the accuracy.
        """
        joint = np.asarray(joint)
        k = joint.shape[0]
        nz = np.flatnonzero(joint)
        g, a, b = np.unravel_index(nz, joint.shape)
        counts = joint.reshape(-1)[nz]
        if not trace_only:
            dense = (k, nz) if k ** 3 <= 4 * nz.size else None
            return cls(g * k + a, g * k + b, counts, k * k, lambda t: value(t.reshape(t.shape[0], k, k)), grid=dense)
        return cls.from_joint_cells(g, a, b, counts, value)

    @classmethod
    def of_table(cls, table: Any, value: TableValue, stats_value: Callable[[Any], np.ndarray] | None = None, *,
                 trace_only: bool = False) -> CountEngine:
        """The engine of a joint (gold, A, B) table, dense (:meth:`from_joint`) or sparse (its cells).

        A sparse table (many classes) is resampled over its non-empty cells, and each system's table is
        kept as its per-class counts (TP, FP, FN of every class, :class:`SlotEngine`): ``stats_value`` maps
        a stack of :class:`~clfeval.core._metrics.TableStats` to metric values.
        """
        if hasattr(table, "counts"):
            return cls.from_joint(table.counts, value, trace_only=trace_only)
        g, a, b, counts = table.cells()
        k = len(table.labels)
        if trace_only:
            return cls.from_joint_cells(g, a, b, counts, value)
        if stats_value is None:
            raise ValueError("a sparse joint table needs stats_value")
        return SlotEngine(g, a, b, counts, k, stats_value)

    @classmethod
    def from_joint_cells(cls, g: np.ndarray, a: np.ndarray, b: np.ndarray, counts: np.ndarray,
                         value: TableValue) -> CountEngine:
        """The four groups (A right?, B right?) of a joint table's cells (a metric of correct items only)."""
        ra = (g == a).astype(np.intp)
        rb = (g == b).astype(np.intp)
        four = np.bincount(2 * ra + rb, weights=counts, minlength=4).astype(np.int64)
        keep = np.flatnonzero(four)
        return cls(keep // 2, keep % 2, four[keep], 2, trace_value(value))

    @property
    def rows_per_chunk(self) -> int:
        cells = self.grid[0] ** 3 if self.grid is not None else self.groups
        return max(1, BUDGET // max(cells, self.size, 1))

    def observed(self) -> tuple[float, float]:
        va = self.value(self.base_a[None, :])[0]
        vb = self.value(self.base_b[None, :])[0]
        return float(va), float(vb)

    def bootstrap(self, rng: np.random.Generator, c: int) -> tuple[np.ndarray, np.ndarray]:
        """c replicates: group counts ~ Multinomial(n, counts / n) (:class:`~clfeval.stats._tables.TableSampler`
        over the groups; the dense grid places them in the (K, K, K) table)."""
        draws = self.sampler.draw(c, rng) if self.n else np.zeros((c, self.groups), dtype=np.int64)
        if self.grid is not None:
            k, pos = self.grid
            if pos.size < k ** 3:
                full = np.zeros((c, k ** 3), dtype=np.int64)
                full[:, pos] = draws
                draws = full
            cube = draws.reshape(c, k, k, k)
            return (self.value(cube.sum(axis=3).reshape(c, k * k)),
                    self.value(cube.sum(axis=2).reshape(c, k * k)))
        return self.value(self._scatter_a(draws)), self.value(self._scatter_b(draws))

    def permute(self, rng: np.random.Generator, c: int) -> tuple[np.ndarray, np.ndarray]:
        """c replicates of approximate randomization: Bin(count, ½) items of each discordant group swap."""
        s = draw_swaps(self._disc_counts, c, rng)
        out_a = self._swap_out_a(s)
        out_b = self._swap_out_b(s)
        ta = self.base_a[None, :] - out_a + out_b
        tb = self.base_b[None, :] - out_b + out_a
        return self.value(ta), self.value(tb)

    def jackknife(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Leave-one-out values, one per group, weighted by the group's count.

        Leaving out one item of group j subtracts 1 from its cell in A's and
        in B's table; every item of the group gives the same value.
        """
        step = max(1, BUDGET // max(self.size, 1))
        for start in range(0, self.groups, step):
            stop = min(self.groups, start + step)
            j = np.arange(start, stop)
            ta = np.repeat(self.base_a[None, :], j.size, axis=0)
            tb = np.repeat(self.base_b[None, :], j.size, axis=0)
            ta[np.arange(j.size), self.key_a[j]] -= 1
            tb[np.arange(j.size), self.key_b[j]] -= 1
            yield self.value(ta), self.value(tb), self.counts[j]


def trace_value(value: TableValue) -> TableValue:
    """A metric of correct items only, on tables ``[wrong, right]``: given to ``value`` as the 2×2 table
    ``[[right, wrong], [0, 0]]`` (all items in one gold class), whose trace / N is the accuracy."""
    def collapsed(t: np.ndarray) -> np.ndarray:
        cm = np.zeros((t.shape[0], 2, 2), dtype=t.dtype)
        cm[:, 0, 0] = t[:, 1]
        cm[:, 0, 1] = t[:, 0]
        return value(cm)
    return collapsed


class _PairScatter(_Scatter):
    """Sum columns of a (c, G) array into (c, R) by (group, cell) pairs: a group may add to several cells."""

    def __init__(self, groups: np.ndarray, cells: np.ndarray, size: int) -> None:
        super().__init__(cells, size)
        self.columns = groups[self.order]
        self.identity = False

    def __call__(self, x: np.ndarray) -> np.ndarray:
        out = np.zeros((x.shape[0], self.size), dtype=x.dtype)
        if x.shape[1] == 0 or self.columns.size == 0:
            return out
        out[:, self.cells] = np.add.reduceat(x[:, self.columns], self.starts, axis=1)
        return out


class SlotEngine(CountEngine):
    """:class:`CountEngine` over the cells of a sparse joint table: each system's table as per-class counts.

    A system's table is the vector [TP_1..K, FP_1..K, FN_1..K] (3K slots): an
    item of cell (gold g, prediction p) adds to TP_g when g = p, else to FN_g
    and to FP_p. Draws are the same multinomial / binomial draws over the
    cells; the metric is evaluated on the stacks of per-class counts (every
    comparable count metric needs no more: MCC and kappa too).
    """

    def __init__(self, g: np.ndarray, a: np.ndarray, b: np.ndarray, counts: np.ndarray, k: int,
                 stats_value: Callable[[Any], np.ndarray]) -> None:
        from clfeval.core import ClassCounts, TableStats

        g, a, b = (np.asarray(x, dtype=np.intp) for x in (g, a, b))
        self.k = k

        def value(t: np.ndarray) -> np.ndarray:
            tp, fp, fn = t[:, :k], t[:, k:2 * k], t[:, 2 * k:]
            n = tp.sum(axis=1) + fn.sum(axis=1)
            return stats_value(TableStats(ClassCounts(tp, fp, fn, n[:, None] - tp - fp - fn), n))

        self.key_a, self.key_b = g * k + a, g * k + b  # the cells, for telling discordant groups
        self.counts = np.asarray(counts, dtype=np.int64)
        self.size = 3 * k
        self.value = value
        self.n = int(self.counts.sum())
        self.groups = int(self.counts.size)
        self.grid = None
        self._sampler = None
        self.slots_a = self._slots(g, a)
        self.slots_b = self._slots(g, b)
        self._scatter_a = _PairScatter(*self.slots_a, self.size)
        self._scatter_b = _PairScatter(*self.slots_b, self.size)
        self.base_a = self._scatter_a(self.counts[None, :])[0]
        self.base_b = self._scatter_b(self.counts[None, :])[0]
        disc = np.flatnonzero(a != b)
        where = np.full(self.groups, -1, dtype=np.intp)
        where[disc] = np.arange(disc.size)
        self._disc_counts = self.counts[disc]
        sa, sb = self.slots_a, self.slots_b
        ka, kb = where[sa[0]] >= 0, where[sb[0]] >= 0
        self._swap_out_a = _PairScatter(where[sa[0][ka]], sa[1][ka], self.size)
        self._swap_out_b = _PairScatter(where[sb[0][kb]], sb[1][kb], self.size)

    def _slots(self, g: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(group, slot) pairs: TP_g for a right group; FN_g and FP_p for a wrong one."""
        k = self.k
        groups = np.arange(g.size)
        right = g == p
        wrong = ~right
        return (np.concatenate([groups[right], groups[wrong], groups[wrong]]),
                np.concatenate([g[right], 2 * k + g[wrong], k + p[wrong]]))

    def jackknife(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        step = max(1, BUDGET // max(self.size, 1))
        for start in range(0, self.groups, step):
            stop = min(self.groups, start + step)
            rows = stop - start
            ta = np.repeat(self.base_a[None, :], rows, axis=0)
            tb = np.repeat(self.base_b[None, :], rows, axis=0)
            for t, (grp, slot) in ((ta, self.slots_a), (tb, self.slots_b)):
                sel = (grp >= start) & (grp < stop)
                t[grp[sel] - start, slot[sel]] -= 1
            yield self.value(ta), self.value(tb), self.counts[start:stop]


class CodedItems:
    """Evaluator for count metrics over items given as integer cell codes (index resampling, for checking).

    ``cell_a[i]`` / ``cell_b[i]``: the cell of A's / B's table (size R) that item i adds to.
    """

    def __init__(self, cell_a: np.ndarray, cell_b: np.ndarray, size: int, value: TableValue) -> None:
        self.cell_a = np.asarray(cell_a, dtype=np.int64)
        self.cell_b = np.asarray(cell_b, dtype=np.int64)
        self.size = int(size)
        self.value = value
        self.n = int(self.cell_a.size)

    def _tables(self, cells: np.ndarray) -> np.ndarray:
        c = cells.shape[0]
        flat = (cells + (np.arange(c, dtype=np.int64) * self.size)[:, None]).ravel()
        return np.bincount(flat, minlength=c * self.size).reshape(c, self.size)

    def observed(self) -> tuple[float, float]:
        ta = np.bincount(self.cell_a, minlength=self.size)[None, :]
        tb = np.bincount(self.cell_b, minlength=self.size)[None, :]
        return float(self.value(ta)[0]), float(self.value(tb)[0])

    def resampled(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.value(self._tables(self.cell_a[idx])), self.value(self._tables(self.cell_b[idx]))

    def swapped(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ca = np.where(mask, self.cell_b[None, :], self.cell_a[None, :])
        cb = np.where(mask, self.cell_a[None, :], self.cell_b[None, :])
        return self.value(self._tables(ca)), self.value(self._tables(cb))

    def jackknife(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        key = self.cell_a * self.size + self.cell_b
        uniq, first, counts = np.unique(key, return_index=True, return_counts=True)
        ta = np.bincount(self.cell_a, minlength=self.size)
        tb = np.bincount(self.cell_b, minlength=self.size)
        a = np.repeat(ta[None, :], uniq.size, axis=0)
        b = np.repeat(tb[None, :], uniq.size, axis=0)
        a[np.arange(uniq.size), self.cell_a[first]] -= 1
        b[np.arange(uniq.size), self.cell_b[first]] -= 1
        yield self.value(a), self.value(b), counts


class CallableItems:
    """Evaluator for an item-level metric ``fn(gold, x) -> float`` (scores, user callables).

    The metric is called once per system per replicate on the resampled items.
    """

    #: Leave-one-out (for BCa) is computed only up to this many distinct items (n metric calls each).
    JACKKNIFE_LIMIT = 1000

    def __init__(self, gold: np.ndarray, xa: np.ndarray, xb: np.ndarray, fn: Callable[[Any, Any], float]) -> None:
        self.gold = gold
        self.xa = xa
        self.xb = xb
        self.fn = fn
        self.n = int(len(gold))

    def _call(self, g: np.ndarray, x: np.ndarray) -> float:
        return float(self.fn(g, x))

    def observed(self) -> tuple[float, float]:
        return self._call(self.gold, self.xa), self._call(self.gold, self.xb)

    def resampled(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        va = np.empty(idx.shape[0])
        vb = np.empty(idx.shape[0])
        for r, row in enumerate(idx):
            g = self.gold[row]
            va[r] = self._call(g, self.xa[row])
            vb[r] = self._call(g, self.xb[row])
        return va, vb

    def swapped(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        va = np.empty(mask.shape[0])
        vb = np.empty(mask.shape[0])
        for r, m in enumerate(mask):
            va[r] = self._call(self.gold, np.where(m, self.xb, self.xa))
            vb[r] = self._call(self.gold, np.where(m, self.xa, self.xb))
        return va, vb

    def jackknife(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]] | None:
        codes = [np.unique(x, return_inverse=True)[1].ravel().astype(np.int64) for x in (self.gold, self.xa, self.xb)]
        key = (codes[0] * (codes[1].max(initial=0) + 1) + codes[1]) * (codes[2].max(initial=0) + 1) + codes[2]
        _, first, counts = np.unique(key, return_index=True, return_counts=True)
        if first.size > self.JACKKNIFE_LIMIT:
            return None

        def gen() -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
            va = np.empty(first.size)
            vb = np.empty(first.size)
            keep = np.ones(self.n, dtype=bool)
            for r, i in enumerate(first):
                keep[i] = False
                va[r] = self._call(self.gold[keep], self.xa[keep])
                vb[r] = self._call(self.gold[keep], self.xb[keep])
                keep[i] = True
            yield va, vb, counts

        return gen()


class IndexEngine:
    """Plain resampling of item indices (bootstrap) or per-item swap masks (randomization), in chunks."""

    def __init__(self, items: CodedItems | CallableItems) -> None:
        self.items = items
        self.n = items.n

    @property
    def rows_per_chunk(self) -> int:
        return max(1, BUDGET // max(self.n, 1))

    def observed(self) -> tuple[float, float]:
        return self.items.observed()

    def bootstrap(self, rng: np.random.Generator, c: int) -> tuple[np.ndarray, np.ndarray]:
        return self.items.resampled(draw_items(self.n, c, rng))

    def permute(self, rng: np.random.Generator, c: int) -> tuple[np.ndarray, np.ndarray]:
        return self.items.swapped(draw_swap_mask(self.n, c, rng))

    def jackknife(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]] | None:
        return self.items.jackknife()


Engine = CountEngine | IndexEngine


def draw(engine: Engine, kind: str, samples: int, rng: np.random.Generator,
         progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Metric of A and of B on ``samples`` replicates (``kind`` = "bootstrap" or "permute").

    Replicates are drawn chunk by chunk (chunk size fixed by the problem's
    size, so the same seed gives the same numbers on any machine);
    ``progress(k)`` is called with the number of replicates just finished.
    """
    va = np.empty(samples)
    vb = np.empty(samples)
    step = engine.rows_per_chunk
    fn = engine.bootstrap if kind == "bootstrap" else engine.permute
    for start in range(0, samples, step):
        c = min(step, samples - start)
        a, b = fn(rng, c)
        va[start:start + c] = a
        vb[start:start + c] = b
        if progress is not None:
            progress(c)
    return va, vb


def jackknife_values(engine: Engine) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """All leave-one-out values (A, B) and their weights, or None when too costly to compute."""
    it = engine.jackknife()
    if it is None:
        return None
    parts = list(it)
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))  # type: ignore[return-value]


def allowed_count(alpha: float, samples: int) -> int:
    """K, the largest replicate count c with c / b < α (the bootstrap test rejects iff its count ≤ K).

    Mathematically ⌈αb⌉ − 1; computed with the same float comparison as ``p < alpha``.

    >>> allowed_count(0.05, 10_000), allowed_count(0.05, 30), allowed_count(0.05, 20)
    (499, 1, 0)
    """
    k = math.ceil(alpha * samples) - 1
    while (k + 1) / samples < alpha:
        k += 1
    while k >= 0 and k / samples >= alpha:
        k -= 1
    return k


def basic_bound(gains: np.ndarray, gain: float, alpha: float, tol: float) -> float:
    """The one-sided basic (reverse-percentile) lower bound of a gain that matches the 2δ test.

    ``gains`` are the replicates of g = ±δ (sign so that larger is better) and
    ``gain`` the observed g. The bound is 2g − q, q the r-th smallest replicate
    with r = b − K (K = :func:`allowed_count`, i.e. r = b − ⌈αb⌉ + 1); undefined
    (NaN) replicates, which never reach the test's threshold, rank lowest.
    The test counts replicates ≥ 2g − tol·max(1, |2g|) and rejects iff that
    count ≤ K, i.e. iff at least r replicates lie below the threshold, i.e.
    iff q < 2g − tol·max(1, |2g|): then the bound is > 0, and otherwise it is
    shown as at most 0 (a value within the tie tolerance of 0 is 0). So the
    bound is > 0 exactly when p < α.

    >>> basic_bound(np.array([0.1, 0.2, 0.3, 0.4]), 0.25, 0.5, 1e-12)  # r = 3: q = 0.3, 2g − q = 0.2
    0.2
    """
    b = gains.size
    if not math.isfinite(gain) or b == 0:
        return math.nan
    r = min(b, max(1, b - allowed_count(alpha, b)))
    x = np.where(np.isnan(gains), -np.inf, gains)
    q = float(np.partition(x, r - 1)[r - 1])
    t = 2 * gain
    if q < t - tol * max(1.0, abs(t)):
        return t - q if math.isfinite(q) else math.inf
    gap = t - q
    return 0.0 if abs(gap) <= tol * max(1.0, abs(t)) else min(gap, 0.0)


def percentile_levels(level: float) -> tuple[float, float]:
    """The quantile levels of a two-sided percentile interval: (1 − level)/2 and (1 + level)/2."""
    return (1 - level) / 2, (1 + level) / 2


def row_quantiles(sorted_rows: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Per-row quantiles of rows sorted ascending (R, B), at per-row levels ``q`` (R,) or (R, k): numpy's default
    (linear) rule to the last bit — position q·(B − 1), and numpy's two-sided interpolation (from the upper
    neighbour when the fraction is ≥ ½) — so one row equals ``np.quantile`` of it. The one quantile rule of every
    bootstrap interval (percentile and BCa)."""
    r, b = sorted_rows.shape
    q = np.asarray(q, dtype=np.float64)
    qq = q if q.ndim == 2 else q[:, None]
    pos = np.clip(qq, 0.0, 1.0) * (b - 1)
    lo = np.floor(pos).astype(np.intp)
    hi = np.minimum(lo + 1, b - 1)
    frac = pos - lo
    rows = np.arange(r)[:, None]
    a, c = sorted_rows[rows, lo], sorted_rows[rows, hi]
    with np.errstate(invalid="ignore"):
        diff = c - a
        out = np.where(frac >= 0.5, c - diff * (1 - frac), a + diff * frac)
    out = np.where(frac == 0, a, out)
    ret: np.ndarray = out if q.ndim == 2 else out[:, 0]
    return ret


def percentile_ends(sorted_rows: np.ndarray, level: float) -> np.ndarray:
    """Percentile interval ends (R, 2) of many problems at once, rows (R, B) of finite replicates sorted ascending:
    the :func:`percentile_levels` quantiles of each row (:func:`row_quantiles`)."""
    q = np.broadcast_to(np.array(percentile_levels(level)), (sorted_rows.shape[0], 2))
    return row_quantiles(sorted_rows, q)


def percentile_interval(reps: np.ndarray, level: float) -> list[float]:
    """Percentile interval: the (1−level)/2 and (1+level)/2 quantiles of the finite replicates
    (:func:`percentile_ends` of one problem); NaN ends when no replicate is finite.

    >>> percentile_interval(np.array([3.0, 1.0, np.nan, 2.0, 4.0, 5.0]), 0.5)
    [2.0, 4.0]
    """
    finite = reps[np.isfinite(reps)]
    if finite.size == 0:
        return [math.nan, math.nan]
    lo, hi = percentile_ends(np.sort(finite)[None, :], level)[0]
    return [float(lo), float(hi)]


def bca_ends(reps: np.ndarray, theta: np.ndarray, jack: np.ndarray, weights: np.ndarray,
             level: float) -> np.ndarray:
    """THE bias-corrected and accelerated (BCa) interval (Efron & Tibshirani 1993, §14.3), of many problems at
    once: rows (R, B) of finite replicates, ``theta`` (R,) the observed values, ``jack`` (R, J) leave-one-out values
    with ``weights`` (R, J) or (J,) (items per group; NaN leave-one-out values do not count). Returns (R, 2); a row
    whose interval is undefined is NaN.

    z0 = Φ⁻¹(share of replicates below θ̂, ties counting ½); acceleration a = Σ w·d³ / (6 (Σ w·d²)^{3/2}) with
    d = θ̄_jack − θ_(j) the jackknife deviations; the ends are the replicate quantiles (:func:`row_quantiles`) at
    Φ(z0 + (z0 + z_α)/(1 − a(z0 + z_α))) for z_α = Φ⁻¹((1∓level)/2). Undefined: every replicate on one side of θ̂,
    θ̂ not finite, no finite leave-one-out value. :func:`bca_interval` is this for one problem.
    """
    from statistics import NormalDist

    phi = NormalDist()
    reps = np.sort(np.asarray(reps, dtype=np.float64), axis=1)
    theta = np.asarray(theta, dtype=np.float64)
    jack = np.asarray(jack, dtype=np.float64)
    w_all = np.broadcast_to(np.asarray(weights, dtype=np.float64), jack.shape)
    zs = [phi.inv_cdf(q) for q in percentile_levels(level)]
    out = np.full((reps.shape[0], 2), math.nan)
    b = reps.shape[1]
    for i in range(reps.shape[0]):
        t = float(theta[i])
        if b == 0 or not math.isfinite(t):
            continue
        row = reps[i]
        share = (np.count_nonzero(row < t) + 0.5 * np.count_nonzero(row == t)) / b
        if share <= 0.0 or share >= 1.0:
            continue
        z0 = phi.inv_cdf(share)
        ok = np.isfinite(jack[i])
        w = w_all[i][ok]
        jv = jack[i][ok]
        if w.sum() == 0:
            continue
        d = np.average(jv, weights=w) - jv
        den = 6.0 * float(np.sum(w * d * d)) ** 1.5
        acc = float(np.sum(w * d ** 3)) / den if den > 0 else 0.0
        ends = []
        for z in zs:
            den_z = 1 - acc * (z0 + z)
            ends.append(phi.cdf(z0 + (z0 + z) / den_z) if den_z != 0 else math.nan)
        if all(math.isfinite(e) for e in ends):
            out[i] = row_quantiles(row[None, :], np.array([ends]))[0]
    return out


def bca_interval(reps: np.ndarray, theta: float, jack: np.ndarray, weights: np.ndarray,
                 level: float) -> list[float] | None:
    """The BCa interval of one problem (:func:`bca_ends`) over its finite replicates; None when undefined (every
    replicate on one side of θ̂, or θ̂ undefined)."""
    finite = reps[np.isfinite(reps)]
    if finite.size == 0 or not math.isfinite(theta):
        return None
    lo, hi = bca_ends(finite[None, :], np.array([theta]), np.asarray(jack)[None, :], np.asarray(weights)[None, :],
                      level)[0]
    if math.isnan(lo) or math.isnan(hi):
        return None
    return [float(lo), float(hi)]
