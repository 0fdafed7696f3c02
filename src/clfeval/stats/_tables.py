"""The one table bootstrap: N items drawn with replacement from a count table is its cells' counts drawn from a
multinomial over the table's non-empty cells (the cost is O(cells) per replicate, independent of N).

Every interval and test that resamples a confusion table, a per-slice table, a joint table or a table of patterns
draws through :func:`draw_tables`; its stream is that of ``Generator.multinomial(n, p, size=samples)`` over the
non-empty cells in the table's C order, so drawing in chunks of replicates gives the same replicates as drawing
them at once.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["draw_tables", "draw_cells", "TableSampler"]


def draw_tables(table: Any, samples: int, rng: np.random.Generator) -> np.ndarray:
    """``samples`` bootstrap replicates of a count table, shape ``(samples, *table.shape)``, int64.

    Each replicate holds ``n = table.sum()`` items drawn with replacement from the table's items: the counts of the
    non-empty cells drawn from Multinomial(n, counts / n); empty cells stay empty. An empty table gives replicates
    of zeros.

    >>> t = np.array([[3, 0], [1, 4]])
    >>> reps = draw_tables(t, 5, np.random.default_rng(0))
    >>> reps.shape, bool((reps.sum(axis=(1, 2)) == 8).all()), bool((reps[:, 0, 1] == 0).all())
    ((5, 2, 2), True, True)
    """
    cells = np.asarray(table)
    flat = cells.reshape(-1)
    out = np.zeros((samples, flat.size), dtype=np.int64)
    n = int(flat.sum())
    if n:
        nz = np.flatnonzero(flat)
        out[:, nz] = draw_cells(n, flat[nz] / n, samples, rng)
    return out.reshape((samples, *cells.shape))


def draw_cells(n: int, p: np.ndarray, samples: int, rng: np.random.Generator) -> np.ndarray:
    """``samples`` draws of n items over cells of probabilities ``p`` (summing to 1), shape ``(samples, p.size)``:
    ``Generator.multinomial(n, p, size=samples)``. :func:`draw_tables` calls it over a table's non-empty cells;
    a caller that keeps empty cells in ``p`` (a dense joint table, a binned 2×B table) calls it directly, which
    keeps the stream of its draws (NumPy's multinomial draws one binomial per cell up to the last, so the
    cells listed change the stream, never the distribution).

    >>> draw_cells(10, np.array([0.5, 0.0, 0.5]), 3, np.random.default_rng(1)).sum(axis=1).tolist()
    [10, 10, 10]
    """
    return rng.multinomial(n, p, size=samples)


# --- repeated draws of one table: Poissonization ------------------------------------------------------------------
#
# Multinomial(n, p) over d cells is d − 1 binomial draws per replicate, each with its own n (what is left), so
# NumPy sets up every one afresh. Independent X_j ~ Poisson(λ·p_j) have fixed parameters — their samplers can be
# tabulated once — and, given their sum S = s, X ~ Multinomial(s, p). So a replicate with s ≤ n plus n − s more
# items drawn one by one over p is exactly Multinomial(n, p) (the sum of two independent multinomials over the same
# p), whatever s; a replicate with s > n is drawn again. λ = n − Z·√n keeps rejections rare (≈ 16 %) and the
# n − s items to add about 1.3·√n, each drawn as an item index into a table of the items' cells (a plain resample
# of items; above _MAX_CODES items, by inversion of the cells' CDF). The Poisson samplers invert their CDFs through
# guide tables (Chen & Asau 1974): a bucket of the uniform's range gives a start at or below the answer, and a short
# walk up the CDF finds it.

#: λ = n − _Z·√n: the Poisson total's mean, _Z of its standard deviations below n.
_Z = 1.0
#: The Poisson tables' support per cell: μ ± _TAIL·√μ (+ a margin): the mass left out is below 1e-17.
_TAIL = 9.0
#: Cells at least: below, NumPy's multinomial costs a few µs a replicate (and small tables keep its stream).
_MIN_CELLS = 64
#: Table entries (all cells) at most, ≈ 12 bytes each: beyond a few MB the draws wait on memory.
_MAX_TABLE = 1 << 19
#: Replicates are drawn in blocks of this many rows (≤ _BLOCK cells), whatever the caller asks for at a time.
_BLOCK_ROWS = 256
_BLOCK = 1 << 18
#: Items at most for the fill's table of the items' cells (2 bytes an item below 32,768 cells, else 4).
_MAX_CODES = 1 << 23


class _Inversion:
    """Discrete distributions on 0, 1, … by inversion: ``k = min{k : F[k] > u}``, u uniform on [0, 1).

    ``cdf`` holds the distributions one after the other (distribution i at ``cdf[starts[i]:starts[i] + sizes[i]]``,
    its last value exactly 1.0). Distribution i's guide has G = ``buckets·sizes[i]`` buckets: bucket t starts the
    walk at the first k with F[k] > (t − ½)/G, at or below the answer of every u in [t/G, (t + 1)/G) whatever the
    rounding of u·G and of the search keys (``side="left"`` on keys that round down to a tie only moves the start
    lower). The walk ends at the distribution's last entry (F = 1 > u) at the latest.
    """

    def __init__(self, cdf: np.ndarray, starts: np.ndarray, sizes: np.ndarray, buckets: int = 2) -> None:
        self.cdf = cdf
        g = sizes * buckets
        self.g = g.astype(np.float64)
        self.gstart = np.concatenate([[0], np.cumsum(g)[:-1]]).astype(np.intp)
        owner = np.repeat(np.arange(sizes.size), sizes)
        keys = cdf + 2.0 * owner  # one sorted array: distribution i's values in [2i, 2i + 1]
        gowner = np.repeat(np.arange(sizes.size), g)
        t = np.arange(int(g.sum())) - self.gstart[gowner]
        guide = np.searchsorted(keys, 2.0 * gowner + (t - 0.5) / self.g[gowner], side="left")
        self.guide = guide.astype(np.int32 if cdf.size < 1 << 31 else np.intp)

    def draw(self, which: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Flat indices into ``cdf`` of the draws ``u`` (any shape) from distributions ``which`` (broadcast)."""
        b = (u * self.g[which]).astype(np.intp)
        b += self.gstart[which]
        idx = self.guide[b].astype(np.intp).reshape(-1)
        flat_u = u.reshape(-1)
        walk = np.flatnonzero(self.cdf[idx] <= flat_u)
        while walk.size:
            idx[walk] += 1
            walk = walk[self.cdf[idx[walk]] <= flat_u[walk]]
        return idx.reshape(b.shape)


def _poisson_tables(mu: np.ndarray) -> tuple[_Inversion, np.ndarray]:
    """Inversion tables of Poisson(μ_j) for every cell, and the shift from a table index to the count drawn."""
    sd = np.sqrt(mu)
    lo = np.maximum(0, np.floor(mu - _TAIL * sd - 5)).astype(np.intp)
    hi = np.ceil(mu + _TAIL * sd + 25).astype(np.intp)
    sizes = hi - lo + 1
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    owner = np.repeat(np.arange(mu.size), sizes)
    k = np.arange(int(sizes.sum())) - starts[owner] + lo[owner]
    # log P(k) − log P(lo) as a sum of log(μ/k') over lo < k' ≤ k: small terms, no cancellation of large ones
    step = np.log(mu[owner]) - np.log(np.maximum(k, 1))
    step[starts] = 0.0
    level = np.cumsum(step)
    level -= level[starts][owner]
    w = np.exp(level - np.maximum.reduceat(level, starts)[owner])
    run = np.cumsum(w)
    base = run[starts] - w[starts]
    ends = starts + sizes - 1
    cdf = (run - base[owner]) / (run[ends] - base)[owner]
    cdf[ends] = 1.0
    return _Inversion(cdf, starts, sizes, 1), lo - starts


class TableSampler:
    """Bootstrap replicates of a table's cells, drawn many times: ``draw(samples, rng)`` is, in distribution,
    ``Generator.multinomial(n, counts / n, size=samples)`` (:func:`draw_cells`), shape ``(samples, cells)``, int64.

    ``counts`` are the cells' item counts. Where it pays (``_MIN_CELLS`` cells or more, all non-empty,
    √n ≤ 1.5 × cells, tables of at most ``_MAX_TABLE`` entries) it draws by Poissonization with tabulated samplers
    (see above), at about half the cost of NumPy's multinomial; elsewhere it is :func:`draw_cells`. The stream is
    not NumPy's multinomial's. Poissonized replicates are drawn in blocks of ``block`` rows and handed out in order,
    the rest of a block kept for the next call with the same generator: replicates drawn in chunks are those drawn
    at once.
    ``method`` forces one way ("multinomial" or "poisson"; default: by cost).

    >>> s = TableSampler(np.array([400, 300, 200, 100]), method="poisson")
    >>> reps = s.draw(1000, np.random.default_rng(0))
    >>> reps.shape, bool((reps.sum(axis=1) == 1000).all()), bool(abs(reps[:, 0].mean() - 400) < 2)
    ((1000, 4), True, True)
    """

    def __init__(self, counts: np.ndarray, method: str | None = None) -> None:
        self.counts = np.asarray(counts, dtype=np.int64)
        self.n = int(self.counts.sum())
        self.cells = int(self.counts.size)
        self.p = self.counts / self.n if self.n else self.counts.astype(np.float64)
        self.method = method or self._cheaper()
        if self.method == "poisson" and (self.n == 0 or bool((self.counts <= 0).any())):
            raise ValueError("Poissonized draws need cells of positive counts")
        self.block = max(1, min(_BLOCK_ROWS, _BLOCK // max(self.cells, 1)))
        self._left = np.zeros((0, self.cells), dtype=np.int64)
        self._left_rng: np.random.Generator | None = None
        if self.method == "poisson":
            lam = self.n - _Z * math.sqrt(self.n)
            self.mu = self.counts * (lam / self.n)
            self._pois, self._shift = _poisson_tables(self.mu)
            self._cols = np.arange(self.cells)
            self._codes: np.ndarray | None = None
            self._fill: _Inversion | None = None
            if self.n <= _MAX_CODES:  # the items' cells, one entry an item: the fill is a resample of items
                self._codes = np.repeat(np.arange(self.cells, dtype=np.int16 if self.cells < 1 << 15 else np.int32),
                                        self.counts)
            else:
                cum = np.cumsum(self.counts) / self.n
                cum[-1] = 1.0
                self._fill = _Inversion(cum, np.zeros(1, dtype=np.intp), np.array([self.cells], dtype=np.intp), 8)

    def _cheaper(self) -> str:
        d, n = self.cells, self.n
        if d < _MIN_CELLS or n == 0 or bool((self.counts <= 0).any()) or math.sqrt(n) > 1.5 * d:
            return "multinomial"  # few cells (µs a replicate), or many items to add one by one (≈ 1.3·√n each)
        table = float(np.sum(2 * _TAIL * np.sqrt(self.counts) + 32))
        return "poisson" if table <= _MAX_TABLE else "multinomial"  # tables in cache, built in ~0.1 s at most

    def _poisson(self, rows: int, rng: np.random.Generator) -> np.ndarray:
        u = rng.random((rows, self.cells))
        return self._pois.draw(self._cols, u) + self._shift

    def draw(self, samples: int, rng: np.random.Generator) -> np.ndarray:
        if self.method != "poisson":
            return draw_cells(self.n, self.p, samples, rng)
        parts = []
        while samples > 0:
            if self._left_rng is not rng or self._left.shape[0] == 0:
                self._left, self._left_rng = self._block(self.block, rng), rng
            parts.append(self._left[:samples])
            self._left = self._left[samples:]
            samples -= parts[-1].shape[0]
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def _block(self, samples: int, rng: np.random.Generator) -> np.ndarray:
        n, d = self.n, self.cells
        out = self._poisson(samples, rng)
        total = out.sum(axis=1)
        over = np.flatnonzero(total > n)
        while over.size:  # S > n: drawn again (the accepted ones are exactly multinomial whatever S)
            out[over] = self._poisson(over.size, rng)
            total[over] = out[over].sum(axis=1)
            over = over[total[over] > n]
        short = n - total
        if self._codes is not None:
            cell = self._codes[rng.integers(0, n, size=int(short.sum()))].astype(np.intp)
        else:
            assert self._fill is not None
            cell = self._fill.draw(np.zeros(1, dtype=np.intp), rng.random(int(short.sum())))
        cell += np.repeat(np.arange(samples, dtype=np.intp) * d, short)
        out += np.bincount(cell, minlength=samples * d).reshape(samples, d)
        return out
