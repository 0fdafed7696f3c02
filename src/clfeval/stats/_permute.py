"""The permutation redraws of slice tables: under "the slice does not matter" a slice's table is its size's items
drawn without replacement from the overall table (multivariate hypergeometric, one cell at a time); the slices
together are a random split of the overall table's items (the slice tests' permutation nulls,
:mod:`clfeval.slicing._slicetests`)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["draw_slice", "split_tables"]


def draw_slice(cells: np.ndarray, size: Any, samples: int, rng: np.random.Generator) -> np.ndarray:
    """``samples`` tables of ``size`` items (one size, or an array of sizes: one set of tables each) drawn
    without replacement from ``cells`` (counts of the overall table, flattened): multivariate hypergeometric,
    one cell at a time, vectorised over the samples (and the sizes). Shape (samples, cells) or
    (sizes, samples, cells)."""
    sizes = np.atleast_1d(np.asarray(size, dtype=np.int64))
    out = np.zeros((sizes.size, samples, cells.size), dtype=np.int64)
    need = np.repeat(sizes[:, None], samples, axis=1)
    left = int(cells.sum())
    nz = np.flatnonzero(cells)
    for j in nz[:-1]:
        good = int(cells[j])
        left -= good
        if left == 0:
            out[..., j] = need
            need = np.zeros_like(need)
            break
        x = rng.hypergeometric(good, left, need) if need.any() else np.zeros_like(need)
        out[..., j] = x
        need = need - x
    if nz.size:
        out[..., nz[-1]] += need
    return out if np.ndim(size) else out[0]



def split_tables(cells: np.ndarray, sizes: np.ndarray, samples: int, rng: np.random.Generator) -> np.ndarray:
    """``samples`` random splits of the overall table (``cells``, flattened) into slices of ``sizes``:
    shape (samples, slices, cells)."""
    out = np.zeros((samples, sizes.size, cells.size), dtype=np.int64)
    remaining = np.broadcast_to(cells, (samples, cells.size)).astype(np.int64).copy()
    total = int(cells.sum())
    for s, size in enumerate(sizes.tolist()):
        need = np.full(samples, int(size), dtype=np.int64)
        left = np.full(samples, total, dtype=np.int64)
        for j in range(cells.size):
            good = remaining[:, j]
            left = left - good
            if j == cells.size - 1:
                x = need
            else:
                x = rng.hypergeometric(good, np.maximum(left, 0), need) if need.any() else np.zeros_like(need)
            out[:, s, j] = x
            need = need - x
        remaining -= out[:, s]
        total -= int(size)
    return out
