"""The item draws, each once: the bootstrap of item indices, the swaps of the paired randomization test, and the
Bayesian bootstrap's Dirichlet weights. (Tables of counts are drawn by :mod:`clfeval.stats._tables`.)

Each is one call of the caller's generator, so a seeded caller gets the same numbers as when it drew them itself:
the order of the calls is the caller's.
"""

from __future__ import annotations

import numpy as np

__all__ = ["draw_items", "draw_swaps", "draw_swap_mask", "draw_dirichlet"]


def draw_items(n: int, samples: int, rng: np.random.Generator) -> np.ndarray:
    """``samples`` bootstrap replicates of n items as indices drawn with replacement, shape ``(samples, n)``:
    ``rng.integers(0, n, size=(samples, n))``. Counting a replicate's indices per cell gives the same distribution
    as :func:`clfeval.stats.draw_tables` on those cells' counts (at a cost O(n) instead of O(cells)).

    >>> idx = draw_items(4, 3, np.random.default_rng(0))
    >>> idx.shape, bool(((idx >= 0) & (idx < 4)).all())
    ((3, 4), True)
    """
    return rng.integers(0, n, size=(samples, n))


def draw_swaps(counts: np.ndarray, samples: int, rng: np.random.Generator) -> np.ndarray:
    """Items of each group of discordant items whose two systems' outputs swap, in ``samples`` replicates of the
    paired randomization test: Bin(count, ½) per group, shape ``(samples, counts.size)``.

    >>> s = draw_swaps(np.array([4, 0, 9]), 5, np.random.default_rng(0))
    >>> s.shape, bool((s[:, 1] == 0).all()), bool((s <= [4, 0, 9]).all())
    ((5, 3), True, True)
    """
    return rng.binomial(counts, 0.5, size=(samples, counts.size))


def draw_swap_mask(n: int, samples: int, rng: np.random.Generator) -> np.ndarray:
    """The same swaps item by item: True where item i's outputs swap (probability ½), shape ``(samples, n)``."""
    mask: np.ndarray = rng.random((samples, n)) < 0.5
    return mask


def draw_dirichlet(alpha: np.ndarray, samples: int, rng: np.random.Generator) -> np.ndarray:
    """``samples`` weight vectors of the Bayesian bootstrap, Dirichlet(``alpha``), shape ``(samples, alpha.size)``
    (Rubin 1981; alpha all 1 is the plain Bayesian bootstrap).

    >>> w = draw_dirichlet(np.ones(3), 2, np.random.default_rng(0))
    >>> w.shape, bool(np.allclose(w.sum(axis=1), 1))
    ((2, 3), True)
    """
    return rng.dirichlet(alpha, samples)
