"""The draws of clfeval.stats (issue 39): the table bootstrap's sums and empty cells, and the item draw against the
table draw in distribution (the two ways of resampling the same items)."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.stats import draw_items, draw_tables
from clfeval.stats._draws import draw_dirichlet, draw_swap_mask, draw_swaps
from clfeval.stats._tables import draw_cells


def test_draw_tables_keeps_the_total_and_the_empty_cells():
    t = np.array([[5, 0, 2], [0, 0, 1], [3, 0, 9]])
    reps = draw_tables(t, 2000, np.random.default_rng(0))
    assert reps.shape == (2000, 3, 3) and reps.dtype == np.int64
    assert (reps.sum(axis=(1, 2)) == t.sum()).all()
    assert (reps[:, t == 0] == 0).all()
    # each cell ~ Bin(n, p): its mean n·p within 5 standard errors of the mean
    n, p = t.sum(), t / t.sum()
    se = np.sqrt(n * p * (1 - p) / 2000)
    assert np.all(np.abs(reps.mean(axis=0) - n * p) <= 5 * se + 1e-12)


def test_draw_tables_empty_table_and_chunks():
    assert (draw_tables(np.zeros((2, 2), dtype=int), 3, np.random.default_rng(0)) == 0).all()
    t = np.array([4, 1, 0, 7])
    whole = draw_tables(t, 10, np.random.default_rng(3))
    g = np.random.default_rng(3)
    parts = np.concatenate([draw_tables(t, 4, g), draw_tables(t, 6, g)])
    assert (whole == parts).all()  # drawing in chunks gives the same replicates


def test_draw_tables_is_draw_cells_over_the_non_empty_cells():
    t = np.array([4, 0, 1, 7])
    a = draw_tables(t, 50, np.random.default_rng(9))
    b = draw_cells(12, np.array([4, 1, 7]) / 12, 50, np.random.default_rng(9))
    assert (a[:, [0, 2, 3]] == b).all() and (a[:, 1] == 0).all()


def test_item_draw_and_table_draw_agree_in_distribution():
    """n items resampled by index, then counted per cell, against the multinomial of the cells: the replicate
    quantiles of a cell's count and of the accuracy agree within Monte-Carlo tolerance."""
    cells = np.array([0] * 30 + [1] * 8 + [2] * 12 + [3] * 50)  # cells of a 2×2 table, row-major
    counts = np.bincount(cells, minlength=4)
    b = 4000
    by_item = np.stack([np.bincount(cells[row], minlength=4) for row in draw_items(cells.size, b,
                                                                                       np.random.default_rng(1))])
    by_table = draw_tables(counts, b, np.random.default_rng(2))
    for stat, unit in ((lambda r: r[:, 0], 1.0), (lambda r: r[:, 1], 1.0), (lambda r: (r[:, 0] + r[:, 3]) / 100, 0.01)):
        qa = np.quantile(stat(by_item), [0.05, 0.25, 0.5, 0.75, 0.95])
        qb = np.quantile(stat(by_table), [0.05, 0.25, 0.5, 0.75, 0.95])
        sd = stat(by_table).std()
        assert np.all(np.abs(qa - qb) <= 0.15 * sd + unit), (qa, qb)  # MC error of a quantile, and one step
        assert abs(stat(by_item).mean() - stat(by_table).mean()) < 4 * sd / np.sqrt(b) * np.sqrt(2)


def test_swaps_and_dirichlet():
    s = draw_swaps(np.array([10, 0, 3]), 3000, np.random.default_rng(0))
    assert s[:, 0].mean() == pytest.approx(5, abs=0.2) and (s[:, 1] == 0).all() and s.max() <= 10
    m = draw_swap_mask(200, 50, np.random.default_rng(0))
    assert m.dtype == bool and m.mean() == pytest.approx(0.5, abs=0.02)
    w = draw_dirichlet(np.array([1.0, 1.0, 2.0]), 4000, np.random.default_rng(0))
    assert np.allclose(w.sum(axis=1), 1) and w.mean(axis=0) == pytest.approx([0.25, 0.25, 0.5], abs=0.01)


def test_draws_are_the_callers_stream():
    """A draw is one call of the caller's generator: the same numbers as the NumPy call it replaces."""
    assert (draw_items(7, 5, np.random.default_rng(4)) == np.random.default_rng(4).integers(0, 7, size=(5, 7))).all()
    c = np.array([3, 5])
    assert (draw_swaps(c, 4, np.random.default_rng(4)) == np.random.default_rng(4).binomial(c, 0.5, size=(4, 2))).all()
    assert (draw_tables(c, 4, np.random.default_rng(4))
            == np.random.default_rng(4).multinomial(8, c / 8, size=4)).all()
