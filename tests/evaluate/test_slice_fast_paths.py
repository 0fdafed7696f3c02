"""The fast paths of the slice counts (issues 26 and 27) against counts made by hand, row by row, on random batches.

Small integer labels are counted without their codes being made: ``--by`` of one integer column in one bincount
per batch (its keys built and their bounds checked a chunk at a time), the slice search from the labels themselves
(the outcome of each row from the gold and predicted values) and from column codes narrowed to ``uint8``, the
block keys in the narrowest unsigned type. The batches switch paths on purpose: labels that are text in one run and
integers in the other, a class first seen in a later batch, labels below zero, slice values beyond the sizes of
the batches before (negative, or past 256), nulls (the general path for that batch), a numeric column cut into
bins, batches longer than a chunk. The reference is a dictionary count over the rows (no NumPy counting)."""

from __future__ import annotations

import bisect
import collections

import numpy as np
import pyarrow as pa
import pytest

from clfeval.core._latticecount import LatticeCounter
from clfeval.core._slicecount import MISSING, SliceBinning, joint_counts
from clfeval.slicing._slicecounting import count_sliced
from clfeval.slicing._slicefind import lattice

EDGES = (-2.0, -0.5, 0.0, 0.7, 3.0)
BINNING = {"num": SliceBinning("num", "uniform", EDGES)}
BIN_LABELS = BINNING["num"].labels()


def random_batches(seed: int, text: bool, long: bool = False) -> list[pa.Table]:
    """Seven or eight batches; batch 0 sets the sizes the later ones break (``long``: batch 3 is longer than a
    chunk)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(int(rng.integers(7, 9))):
        m = 66_000 if i == 3 and long else int(rng.integers(1, 600))
        classes = [0, 1, 2] + ([3] if i >= 2 else []) + ([-1] if i == 4 else [])  # 3 first seen late; -1 once
        gold = rng.choice(classes, m)
        pred = np.where(rng.random(m) < 0.6, gold, rng.choice(classes, m))
        hi = [30, 30, 45, 30, 300, 30, 30, 30][i]
        lo = -4 if i == 5 else 0
        seg = rng.integers(lo, hi, m)
        seg_arr = pa.array(seg, type=pa.int64())
        if i == 6:  # nulls: the general path counts this batch
            seg_arr = pa.array([None if k % 11 == 3 else int(v) for k, v in enumerate(seg)], type=pa.int64())
        if i == 3:  # the last rows leave the earlier sizes: the chunk checks catch it late
            seg[-5:] = 50
            seg_arr = pa.array(seg, type=pa.int64())
        word = np.array(["x", "y", "z", None], dtype=object)[rng.integers(0, 4, m)]
        num = np.where(rng.random(m) < 0.05, np.nan, rng.normal(0, 1, m).clip(-2, 3))
        cols = {"gold": [str(v) for v in gold] if text else gold, "pred": [str(v) for v in pred] if text else pred}
        out.append(pa.table({**{k: pa.array(v) for k, v in cols.items()}, "seg": seg_arr,
                             "small": pa.array(rng.integers(0, 6, m)), "word": pa.array(list(word), pa.string()),
                             "num": pa.array(num)}))
    return out


def _value(col: str, v: object) -> object:
    if col == "num":
        if v is None or (isinstance(v, float) and np.isnan(v)):
            return MISSING
        return BIN_LABELS[min(bisect.bisect_right(EDGES, v) - 1, len(EDGES) - 2)]
    return MISSING if v is None else v


def rows_of(batches: list[pa.Table]) -> list[dict]:
    out = []
    for b in batches:
        for r in b.to_pylist():
            r["num"] = None if r["num"] is None or np.isnan(r["num"]) else r["num"]
            out.append(r)
    return out


def by_hand_tables(rows: list[dict], cols: tuple[str, ...]) -> dict:
    """{slice key: {(gold, pred): items}}, labels as text."""
    out: dict = collections.defaultdict(collections.Counter)
    for r in rows:
        out[tuple(_value(c, r[c]) for c in cols)][(str(r["gold"]), str(r["pred"]))] += 1
    return out


def by_hand_proportions_of_sets(rows: list[dict], sets: list[tuple[str, ...]], metric: str) -> list[dict]:
    """{slice key: [items, trials, successes]} of a proportion metric, from its definition, for each set of columns:
    one pass over the rows, each row's outcome and column values made once for every set."""
    name, _, cls = metric.partition(":")
    outs: list[dict] = [collections.defaultdict(lambda: [0, 0, 0]) for _ in sets]
    columns = sorted({col for s in sets for col in s})
    for r in rows:
        g, p = str(r["gold"]), str(r["pred"])
        a, b = g == cls, p == cls
        trial, success = {"recall": (a, b), "precision": (b, a), "specificity": (not a, not b), "fpr": (not a, b),
                          "accuracy": (True, g == p if not cls else a == b),
                          "error_rate": (True, g != p if not cls else a != b)}[name]
        value = {col: _value(col, r[col]) for col in columns}
        tried, won = int(trial), int(trial and success)
        for out, s in zip(outs, sets, strict=True):
            c = out[tuple(value[col] for col in s)]
            c[0] += 1
            c[1] += tried
            c[2] += won
    return outs


def _key(cols: tuple[str, ...], key: tuple) -> tuple:
    return tuple(str(v) if c in ("seg", "small") and v != MISSING else v for c, v in zip(cols, key, strict=True))


def assert_tables(t, hand: dict) -> None:
    labels = [str(x) for x in t.labels]
    got = {_key(t.columns, k): {(labels[a], labels[b]): int(t.counts[i, a, b])
                                for a in range(len(labels)) for b in range(len(labels)) if t.counts[i, a, b]}
           for i, k in enumerate(t.keys)}
    want = {_key(t.columns, k): dict(v) for k, v in hand.items()}
    assert got == want


def assert_proportions(props, hand: dict) -> None:
    got = {_key(props.columns, k): [int(props.items[i]), int(props.trials[i]), int(props.successes[i])]
           for i, k in enumerate(props.keys)}
    assert got == {_key(props.columns, k): v for k, v in hand.items()}


SEARCHED = ["seg", "small", "word", "num"]


@pytest.mark.parametrize(("seed", "metric"), list(enumerate(["recall:3", "precision:1", "accuracy", "error_rate:0",
                                                          "fpr:-1", "specificity:2"])))
@pytest.mark.parametrize("text", [False, True])
def test_by_and_search_equal_the_count_by_hand(seed, metric, text):
    """``by`` of one integer column (the fused path where the batch allows it) and the search of every column and
    pair, in the same pass, against the dictionary counts of the rows; text and integer labels alike."""
    batches = random_batches(seed, text, long=seed < 2)
    rows = rows_of(batches)
    sets = lattice(SEARCHED, 2)
    counter = LatticeCounter(sets, metric, binning=BINNING, max_slices=100_000,
                             block_cells=[1 << 19, 0, 600][seed % 3])
    table, (by,) = count_sliced(batches, [("seg",)], binning=BINNING, max_slices=100_000, lattice=counter)
    assert table.n == len(rows)
    assert_tables(by, by_hand_tables(rows, ("seg",)))
    for props, hand in zip(counter.result(), by_hand_proportions_of_sets(rows, sets, metric), strict=True):
        assert_proportions(props, hand)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("text", [False, True])
def test_search_alone_equals_the_count_by_hand(seed, text):
    """The search without ``by`` (its labels counted without codes when they are small integers)."""
    batches = random_batches(seed + 10, text)
    rows = rows_of(batches)
    sets = lattice(SEARCHED, 2)
    counter = LatticeCounter(sets, "recall:1", binning=BINNING, max_slices=100_000)
    table, tables = count_sliced(batches, [], binning=BINNING, lattice=counter)
    assert tables == [] and table.n == len(rows)
    hand = collections.Counter((str(r["gold"]), str(r["pred"])) for r in rows)
    labels = [str(x) for x in table.labels]
    assert {(labels[a], labels[b]): int(v) for (a, b), v in np.ndenumerate(table.counts) if v} == dict(hand)
    for props, hand in zip(counter.result(), by_hand_proportions_of_sets(rows, sets, "recall:1"), strict=True):
        assert_proportions(props, hand)


def test_by_of_several_sets_and_text_slices_take_the_general_path():
    """Two ``by`` sets (no fused path), a text column: the same counts as by hand."""
    batches = random_batches(3, False)
    rows = rows_of(batches)
    _, tables = count_sliced(batches, [("seg",), ("word", "small")], max_slices=100_000)
    assert_tables(tables[0], by_hand_tables(rows, ("seg",)))
    assert_tables(tables[1], by_hand_tables(rows, ("word", "small")))


def test_joint_counts_checks_every_chunk():
    """The chunked key of (slice, gold, pred): equal to a count by hand, and None (nothing to add) when any value,
    in any chunk, is outside the sizes -- including negative values."""
    rng = np.random.default_rng(0)
    m = 150_000
    x, g, p = rng.integers(0, 40, m), rng.integers(0, 3, m), rng.integers(0, 3, m)
    got = joint_counts(x, g, p, 40, 3, check=True)
    hand = collections.Counter(zip(x.tolist(), g.tolist(), p.tolist(), strict=True))
    assert {k: int(v) for k, v in np.ndenumerate(got) if v} == dict(hand)
    for arr, bad in ((x, 40), (g, 3), (p, -1), (x, -7)):
        saved = arr[m - 3]
        arr[m - 3] = bad
        assert joint_counts(x, g, p, 40, 3, check=True) is None
        arr[m - 3] = saved
    offset = joint_counts(x + 5, g - 2, p - 2, 40, 3, 5, -2)
    np.testing.assert_array_equal(offset, got)
