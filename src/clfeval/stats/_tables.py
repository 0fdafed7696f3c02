"""The one table bootstrap: N items drawn with replacement from a count table is its cells' counts drawn from a
multinomial over the table's non-empty cells (the cost is O(cells) per replicate, independent of N).

Every interval and test that resamples a confusion table, a per-slice table, a joint table or a table of patterns
draws through :func:`draw_tables`; its stream is that of ``Generator.multinomial(n, p, size=samples)`` over the
non-empty cells in the table's C order, so drawing in chunks of replicates gives the same replicates as drawing
them at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["draw_tables", "draw_cells"]


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
