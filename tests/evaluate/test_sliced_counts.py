"""The slices' accumulator (:class:`clfeval.slicing.SlicedCounts`): any split of the rows, each part counted by its
own accumulator (pickled, as a cluster's worker sends it back), merged in any order, equals the whole -- and the
slice tables equal a pandas groupby of the (slice, gold, pred) counts."""

from __future__ import annotations

import pickle
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from clfeval.slicing import OutsideCounts, SlicedCounts

MISSING = "(missing)"
SETS = [("src",), ("src", "n")]


def rows(seed: int, n: int, *, ints: bool = False) -> pa.Table:
    rng = np.random.default_rng(seed)
    labels = [0, 1, 2] if ints else ["a", "b", "c"]
    gold = [labels[i] for i in rng.integers(0, 3, n)]
    pred = [g if rng.random() < 0.6 else labels[int(rng.integers(0, 3))] for g in gold]
    src = [None if rng.random() < 0.1 else ["x", "y", "z", "w"][int(rng.integers(0, 4))] for _ in range(n)]
    num = [None if rng.random() < 0.05 else int(v) for v in rng.integers(0, 3, n)]
    src[0], num[0] = "x", 1  # no column null in every row (refused: nothing to slice by)
    score = rng.random(n).round(2).tolist()
    return pa.table({"gold": gold, "pred": pred, "src": pa.array(src, pa.string()), "n": pa.array(num, pa.int64()),
                     "s": score})


def batch(t: pa.Table) -> SimpleNamespace:
    return SimpleNamespace(gold=t.column("gold"), pred=t.column("pred"), text=False, n=t.num_rows,
                           extra={c: t.column(c) for c in ("src", "n", "s")})


def oracle(t: pa.Table, columns: tuple[str, ...]) -> dict:
    """(slice key, gold, pred) → count, by pandas (nulls as the missing slice)."""
    df = pd.DataFrame({c: pd.Series(t.column(c).to_pylist(), dtype=object) for c in (*columns, "gold", "pred")})
    for c in columns:
        df[c] = df[c].where(df[c].notna(), MISSING)
    sizes = df.groupby(list(columns) + ["gold", "pred"], dropna=False).size()
    return {(tuple(k[:-2]), str(k[-2]), str(k[-1])): int(v) for k, v in sizes.items()}


def cells(tables) -> dict:
    out = {}
    for key, counts in zip(tables.keys, tables.counts, strict=True):
        for i, g in enumerate(tables.labels):
            for j, p in enumerate(tables.labels):
                if counts[i, j]:
                    out[(tuple(key), str(g), str(p))] = int(counts[i, j])
    return out


def merged(t: pa.Table, cuts: list[int], order: list[int], make):
    """One accumulator per part (cut at ``cuts``), each pickled (as a worker sends it back), taken in the order
    ``order`` (a permutation; indices past the parts left out) and added in a tree, pairs of neighbours."""
    bounds = [0, *sorted(cuts), t.num_rows]
    parts = []
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        acc = make()
        if hi > lo:
            acc.update(batch(t.slice(lo, hi - lo)))
        parts.append(pickle.loads(pickle.dumps(acc)))
    level = [parts[i] for i in order if i < len(parts)]
    assert len(level) == len(parts)
    while len(level) > 1:
        level = [level[i] + level[i + 1] if i + 1 < len(level) else level[i] for i in range(0, len(level), 2)]
    return level[0]


def whole(t: pa.Table, make) -> SlicedCounts:
    acc = make()
    acc.update(batch(t))
    return acc


FIND = {"sets": [("src",), ("n",), ("src", "n")], "metric": "recall:b", "max_search": 1_000}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n=st.integers(1, 300), cuts=st.lists(st.integers(0, 300), max_size=5),
       order=st.permutations(list(range(6))), ints=st.booleans())
def test_any_split_merged_in_any_order_equals_the_whole_and_pandas(seed, n, cuts, order, ints):
    t = rows(seed, n, ints=ints)
    cuts = [min(c, n) for c in cuts]
    find = {**FIND, "metric": "recall:1" if ints else "recall:b"}

    def make() -> SlicedCounts:
        return SlicedCounts(SETS, max_slices=1_000, find=find, score="s", positive=1 if ints else "b")

    got = merged(t, cuts, order, make).finish()
    one = whole(t, make).finish()
    assert got.table.labels == one.table.labels
    assert np.array_equal(got.table.counts, one.table.counts)
    for columns, mine, theirs in zip(SETS, got.tables, one.tables, strict=True):
        assert cells(mine) == cells(theirs) == oracle(t, columns)
        assert mine.keys == theirs.keys
    for a, b in zip(got.found, one.found, strict=True):
        assert a.keys == b.keys and np.array_equal(a.items, b.items)
        assert np.array_equal(a.trials, b.trials) and np.array_equal(a.successes, b.successes)
    label = "1" if ints else "b"
    per_a, all_a = got.ranks.rankings(len(got.tables[0].keys), label)
    per_b, all_b = one.ranks.rankings(len(one.tables[0].keys), label)
    assert repr(all_a) == repr(all_b) and repr(per_a) == repr(per_b)  # NaN where a slice has one class


def test_a_few_explicit_splits_with_ordered_labels():
    """Ordered classes: the merged tables in ``order`` (labels that never occur included), as one stream gives."""
    t = rows(3, 200)
    order = ["c", "b", "a", "d"]

    def make() -> SlicedCounts:
        return SlicedCounts(SETS, max_slices=1_000, order=order)

    one = whole(t, make).finish()
    assert list(one.table.labels) == order
    for cuts, perm in [([], [0]), ([100], [1, 0]), ([1, 1, 199], [3, 0, 2, 1]), ([50, 120, 170], [2, 3, 0, 1])]:
        got = merged(t, cuts, perm, make).finish()
        assert list(got.table.labels) == order and np.array_equal(got.table.counts, one.table.counts)
        for mine, theirs, columns in zip(got.tables, one.tables, SETS, strict=True):
            assert mine.labels == theirs.labels and cells(mine) == cells(theirs) == oracle(t, columns)


def test_more_slices_than_allowed_are_refused_after_merging():
    """Each part within ``max_slices``, the merged parts beyond it: refused with the counter's own sentence."""
    from clfeval.errors import UsageError

    t = pa.table({"gold": ["a"] * 6, "pred": ["a"] * 6, "src": ["p", "q", "r", "s", "t", "u"], "n": [1] * 6,
                  "s": [0.5] * 6})
    make = lambda: SlicedCounts([("src",)], max_slices=3)  # noqa: E731
    with pytest.raises(UsageError, match="make more than 3 slices"):
        merged(t, [3], [0, 1], make).finish()
    with pytest.raises(UsageError, match="make more than 3 slices"):
        whole(t, make)


def test_empty_parts_and_nothing_at_all():
    from clfeval.errors import DataError

    t = rows(1, 40)
    make = lambda: SlicedCounts(SETS)  # noqa: E731
    got = (make() + whole(t, make) + make()).finish()
    assert cells(got.tables[0]) == oracle(t, ("src",))
    with pytest.raises(DataError, match="no items"):
        (make() + make()).finish()


def test_a_score_cut_split_equals_the_whole():
    """``threshold --by``: the predictions are the cut of the score column; gold 'b' at score ≥ 0.5."""
    t = rows(5, 150)
    make = lambda: SlicedCounts([("src",)], cut=(0.5, "b", "s"))  # noqa: E731
    got = merged(t, [40, 90], [2, 0, 1], make).finish()
    one = whole(t, make).finish()
    assert np.array_equal(got.table.counts, one.table.counts) and cells(got.tables[0]) == cells(one.tables[0])
    pred = np.where(np.asarray(t.column("s").to_pylist()) >= 0.5, "b", "below")
    expect = oracle(t.set_column(1, "pred", pa.array(pred)), ("src",))
    assert {k[0] + k[1:2]: v for k, v in cells(got.tables[0]).items() if k[2] == "b"} == \
        {k[0] + k[1:2]: v for k, v in expect.items() if k[2] == "b"}


def test_per_slice_calibration_sums_split_equal_the_whole():
    from clfeval.slicing import slice_rows

    t = rows(8, 250)
    t = t.set_column(0, "gold", pa.array(["b" if g == "b" else "a" for g in t.column("gold").to_pylist()]))
    make = lambda: SlicedCounts([("src",)], calibrate=dict(prob="s", positive="b", bins=5, strategy="uniform",  # noqa: E731
                                                           edges="clfeval"))
    got = merged(t, [10, 200], [1, 2, 0], make).finish().calibration
    one = whole(t, make).finish().calibration
    kw = dict(bins=5, strategy="uniform", edges="clfeval", min_slice=10)
    assert slice_rows(got, **kw) == slice_rows(one, **kw)
    df = pd.DataFrame({"src": pd.Series(t.column("src").to_pylist(), dtype=object)})
    sizes = df["src"].where(df["src"].notna(), MISSING).value_counts().to_dict()
    assert {r["slice"]: r["n"] for r in slice_rows(got, **kw)} == sizes


def test_outside_counts_split_equal_the_whole():
    t = rows(11, 300)
    queries = [((("src",), ("x",)), [(("src", "n"), ("x", 1))]), ((("n",), (2,)), [])]

    def make() -> OutsideCounts:
        return OutsideCounts(queries, "accuracy")

    got = merged(t, [7, 150], [2, 1, 0], make).finish()
    one = whole(t, make).finish()
    assert got.tolist() == one.tolist()
    src, num = t.column("src").to_pylist(), t.column("n").to_pylist()
    ok = [g == p for g, p in zip(t.column("gold").to_pylist(), t.column("pred").to_pylist(), strict=True)]
    first = [i for i in range(t.num_rows) if src[i] == "x" and num[i] != 1]
    second = [i for i in range(t.num_rows) if num[i] == 2]
    assert one.tolist() == [[len(first), len(first), sum(ok[i] for i in first)],
                            [len(second), len(second), sum(ok[i] for i in second)]]
