"""Issue 27: the slice search's counts (LatticeCounter: a few block joint tables for all column sets) equal the
straightforward count -- one K×K table per slice and column set (SliceCounter, one bincount per set and batch),
turned into (items, trials, successes) -- on random data, in memory, streamed batch by batch, and on Dask."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from clfeval.core._latticecount import LatticeCounter, plan_blocks
from clfeval.core._slicecount import SliceBinning
from clfeval.slicing._slicecounting import count_sliced
from clfeval.slicing._slicefind import lattice, slice_proportions

METRICS = ["recall:b", "precision:b", "specificity:b", "fpr:b", "fnr:b", "npv:b", "accuracy:b", "error_rate:b",
           "accuracy", "error_rate"]


def random_table(rng: np.random.Generator, n: int) -> pa.Table:
    """Columns of every kind the coder meets: small integers (coded as value − base), integers of a wide range,
    text with nulls, a float column (binned), booleans; three classes."""
    labels = np.array(["a", "b", "c"])
    gold = labels[rng.integers(0, 3, n)]
    pred = np.where(rng.random(n) < 0.6, gold, labels[rng.integers(0, 3, n)])
    text = np.array(["x", "y", "z", None], dtype=object)[rng.integers(0, 4, n)]
    return pa.table({"gold": gold, "pred": pred,
                     "small": rng.integers(0, 6, n),
                     "wide": rng.choice([-5_000, 7, 123_456, 9_999_999], n),
                     "text": pa.array(list(text), type=pa.string()),
                     "num": rng.normal(0, 1, n),
                     "flag": rng.random(n) < 0.3})


COLUMNS = ["small", "wide", "text", "num", "flag"]


def straightforward(batches, sets, metric, binning):
    """Every set counted on its own (one K×K table per slice), then turned into the metric's proportions."""
    _, tables = count_sliced(batches, sets, binning=binning, max_slices=100_000)
    return [slice_proportions(t, metric) for t in tables]


def fast(batches, sets, metric, binning, **kw):
    counter = LatticeCounter(sets, metric, binning=binning, max_slices=100_000, **kw)
    count_sliced(batches, [], binning=binning, lattice=counter)
    return counter.result()


def assert_same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x.columns == y.columns
        assert x.keys == y.keys, (x.columns, x.keys[:5], y.keys[:5])
        for f in ("items", "trials", "successes"):
            np.testing.assert_array_equal(getattr(x, f), getattr(y, f), err_msg=f"{x.columns} {f}")


def batches_of(table: pa.Table, sizes):
    out, start = [], 0
    for m in sizes:
        if start >= table.num_rows:
            break
        out.append(table.slice(start, m))
        start += m
    if start < table.num_rows:
        out.append(table.slice(start))
    return out


BINNING = {"num": SliceBinning("num", "uniform", (-4.0, -1.0, 0.0, 1.0, 4.5))}


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("depth", [2, 3])
def test_in_memory_equals_straightforward(metric, depth):
    t = random_table(np.random.default_rng(len(metric) + depth), 3_000)
    sets = lattice(COLUMNS, depth)
    assert_same(fast([t], sets, metric, BINNING), straightforward([t], sets, metric, BINNING))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), sizes=st.lists(st.integers(1, 400), min_size=1, max_size=8),
       metric=st.sampled_from(METRICS), block_cells=st.sampled_from([0, 40, 600, 1 << 19]),
       dense_cells=st.sampled_from([1, 50, 1 << 22]))
def test_batch_by_batch_equals_straightforward(seed, sizes, metric, block_cells, dense_cells):
    """Streamed: batches of any size (values first seen late, a column that turns from integers to nulls), blocks
    of any size, sets counted on their own, dense or as sparse keys, blocks split as they grow."""
    rng = np.random.default_rng(seed)
    t = random_table(rng, 1_200)
    # later rows: small integers above and below the first batch's range, then nulls -- the coder changes path
    late = np.concatenate([rng.integers(0, 3, 600), rng.integers(-3, 40, 600)])
    t = t.set_column(2, "small", pa.array([None if i % 97 == 5 and i > 900 else int(v) for i, v in enumerate(late)],
                                          type=pa.int64()))
    sets = lattice(COLUMNS, 2)
    got = fast(batches_of(t, sizes), sets, metric, BINNING, block_cells=block_cells, dense_cells=dense_cells)
    assert_same(got, straightforward(batches_of(t, sizes), sets, metric, BINNING))


def test_a_block_covers_each_set_once_and_the_blocks_stay_small():
    cols = [f"c{j}" for j in range(10)]
    sets = lattice(cols, 2)
    blocks = plan_blocks(sets, {c: 10 for c in cols}, 1 << 19, 3)
    assert sorted(j for _, mine in blocks for j in mine) == list(range(55))
    for b, mine in blocks:
        assert 10 ** len(b) * 3 <= 1 << 19 and all(set(sets[j]) <= set(b) for j in mine)
    assert len(blocks) <= 8  # 45 pairs in blocks of 5 columns (10 pairs each): 5 at the very least


def test_streamed_and_dask_equal_straightforward(tmp_path, dask_client):
    """The engines' own counting: Parquet row groups as the streamed batches, and the Dask tasks (each counts its
    partitions, the results added in a tree), against the per-set tables counted in the same call."""
    from functools import partial

    from clfeval.engines import Dask, runner
    from clfeval.io import inputs
    from clfeval.slicing import SlicedCounts

    t = random_table(np.random.default_rng(9), 4_000).drop_columns(["num"])
    d = tmp_path / "parts"
    d.mkdir()
    for i, (lo, hi) in enumerate([(0, 1500), (1500, 1501), (1501, 4000)]):
        pq.write_table(t.slice(lo, hi - lo), d / f"p{i}.parquet", row_group_size=700)
    cols = ["small", "wide", "text", "flag"]
    sets = lattice(cols, 2)
    metric = "recall:b"
    groups = [pq.ParquetFile(f).read_row_group(g) for f in sorted(d.iterdir())
              for g in range(pq.ParquetFile(f).num_row_groups)]
    assert_same(fast(groups, sets, metric, {}), straightforward(groups, sets, metric, {}))
    find = {"sets": sets, "metric": metric, "max_search": 100_000}
    inp = inputs.resolve(str(d), input_format=None, encoding="utf-8")
    make = partial(SlicedCounts, sets, max_slices=100_000, binning={}, find=find)
    acc, mode, _ = runner(Dask(client=dask_client)).accumulate(inp, make, gold="gold", pred="pred", extra=cols,
                                                               extra_options=["--by"] * len(cols))
    assert mode == "cluster"
    got = acc.finish()
    table, tables, found = got.table, got.tables, got.found
    assert_same(found, [slice_proportions(x, metric) for x in tables])
    assert_same(found, straightforward([t], sets, metric, {}))
    assert int(found[0].items.sum()) == table.n == 4_000


def test_a_class_first_seen_in_a_later_batch():
    """The metric's class is absent from the first batches (no trials there), then appears."""
    t = pa.table({"gold": ["a"] * 50 + ["b"] * 50, "pred": ["a"] * 60 + ["b"] * 40, "g": [1, 2] * 50})
    sets = [("g",)]
    assert_same(fast(batches_of(t, [30, 30, 40]), sets, "recall:b", {}),
                straightforward([t], sets, "recall:b", {}))


def test_batches_longer_than_a_chunk():
    """Block keys are built CHUNK rows at a time: a batch of several chunks (and a ragged last one)."""
    from clfeval.core._latticecount import CHUNK

    t = random_table(np.random.default_rng(12), 2 * CHUNK + 1234)
    sets = lattice(COLUMNS, 2)
    assert_same(fast([t], sets, "recall:b", BINNING), straightforward([t], sets, "recall:b", BINNING))


def test_smaller_blocks_when_the_blocks_would_hold_too_many_cells(monkeypatch):
    """Past TOTAL_CELLS in all the plan is redone with blocks of an eighth of the cells (down to each set alone);
    the counts do not change."""
    import clfeval.core._latticecount as lc

    monkeypatch.setattr(lc, "TOTAL_CELLS", 200)
    t = random_table(np.random.default_rng(13), 2_000)
    sets = lattice(COLUMNS, 3)
    counter = LatticeCounter(sets, "recall:b", binning=BINNING, max_slices=100_000)
    count_sliced([t], [], binning=BINNING, lattice=counter)
    assert all(len(u.sets) == 1 for u in counter.units)  # 200 cells: every set on its own
    assert_same(counter.result(), straightforward([t], sets, "recall:b", BINNING))


def test_the_plan_covers_every_set_once_in_the_fewest_blocks_found():
    """Ten columns of ten values and their 45 pairs, blocks of five columns: 6 blocks (the covering number
    C(10, 5, 2) = 6: one block holds 10 of the 45 pairs, so 5 cannot do), where the greedy cover in the given
    order needs 7; every set counted by exactly one block that holds all its columns."""
    import itertools

    from clfeval.core._latticecount import _greedy_blocks, plan_blocks

    cols = [f"c{j}" for j in range(10)]
    sets = [(c,) for c in cols] + list(itertools.combinations(cols, 2))
    sizes = {c: 10 for c in cols}
    cells = 3 * 10 ** 5  # five columns of ten values and three outcomes
    assert len(_greedy_blocks(sets, sizes, cells, 3)) == 7
    plan = plan_blocks(sets, sizes, cells, 3)
    assert len(plan) == 6 and plan == plan_blocks(sets, sizes, cells, 3)  # the same plan every time
    counted = [j for _, mine in plan for j in mine]
    assert sorted(counted) == list(range(len(sets)))
    assert all(set(sets[j]) <= set(block) and len(block) <= 5 for block, mine in plan for j in mine)


def test_the_tables_of_a_block_made_from_marginals_equal_each_summed_alone():
    """A block's tables for many sets at once (summed one column at a time from the smallest table made so far)
    equal each set's sum over the block's other columns, with the columns in the set's order; a column of one value
    (summing it out keeps the size) among them."""
    from itertools import combinations

    from clfeval.core._latticecount import _Block

    rng = np.random.default_rng(7)
    cols = ("a", "b", "e", "c", "d")
    block = _Block(cols, [0], {"a": 3, "b": 5, "e": 1, "c": 2, "d": 4}, 3)
    block.counts[...] = rng.integers(0, 50, block.counts.shape)
    sets = [s for k in (1, 2, 3) for s in combinations(cols, k)] + [("c", "a"), ("d", "b", "a"), ("e", "a")]
    got = block.tables(sets)
    assert set(got) == set(sets)
    for s in sets:
        by_hand = np.zeros([block.radix[cols.index(c)] for c in s] + [3], dtype=np.int64)
        for idx in np.ndindex(block.counts.shape):
            o, digits = idx[0], dict(zip(cols, idx[1:], strict=True))
            by_hand[tuple(digits[c] for c in s) + (o,)] += block.counts[idx]
        np.testing.assert_array_equal(got[s], by_hand, err_msg=str(s))
