"""compare's accumulator (issue 38): the joint (gold, A, B) table of any split of the items, merged in any order,
is the joint table of the whole; the oracle is collections.Counter of the (gold, a, b) triples."""

from __future__ import annotations

import collections
import random
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pytest

from clfeval.significance import JointCounts


def _triples(acc: JointCounts, x: str = "a", y: str = "b") -> collections.Counter:
    t = acc.counter.tables().pair(x, y)
    out: collections.Counter = collections.Counter()
    for g, a, b in zip(*np.nonzero(t.counts), strict=True):
        out[(t.labels[g], t.labels[a], t.labels[b])] = int(t.counts[g, a, b])
    return out


def _batch(gold, a, b, text=False, counts=None):
    return SimpleNamespace(gold=pa.array(gold), preds=[pa.array(a), pa.array(b)], text=text, counts=counts)


def _cuts(rng: random.Random, n: int) -> list[tuple[int, int]]:
    k = rng.randint(1, 6)
    edges = sorted({0, n, *(rng.randint(0, n) for _ in range(k))})
    return list(zip(edges, edges[1:], strict=False))


@pytest.mark.parametrize("seed", range(12))
def test_any_split_merged_in_any_order_is_the_whole(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 300)
    labels = ["x", "y", "z", "w"][: rng.randint(2, 4)]
    gold = [rng.choice(labels) for _ in range(n)]
    a = [rng.choice(labels) for _ in range(n)]
    b = [rng.choice(labels) for _ in range(n)]
    oracle = collections.Counter(zip(gold, a, b, strict=True))
    whole = JointCounts(["a", "b"])
    whole.update(_batch(gold, a, b))
    assert _triples(whole) == oracle
    parts = []
    for lo, hi in _cuts(rng, n):  # a piece may itself be fed in several batches
        acc = JointCounts(["a", "b"])
        mid = rng.randint(lo, hi)
        for s, e in ((lo, mid), (mid, hi)):
            if e > s:
                acc.update(_batch(gold[s:e], a[s:e], b[s:e]))
        parts.append(acc)
    rng.shuffle(parts)
    total = parts[0]
    for p in parts[1:]:
        total = p + total if rng.random() < 0.5 else total + p
    assert total.n == n
    assert _triples(total) == oracle
    assert _triples(total) == _triples(whole)  # the same labels in the same order: the same replicates


def test_weighted_cells_and_an_empty_part_add_like_items():
    """A batch of joint cells (``counts``: how many items each row is, as the DuckDB join hands them) adds like
    its items; an empty accumulator is the zero of ``+``; the addends are left as they were."""
    cells = JointCounts(["a", "b"])
    cells.update(_batch(["x", "y"], ["x", "x"], ["y", "y"], counts=np.array([3, 2])))
    items = JointCounts(["a", "b"])
    items.update(_batch(["x"] * 3 + ["y"] * 2, ["x"] * 5, ["y"] * 5))
    assert _triples(cells) == _triples(items) == collections.Counter({("x", "x", "y"): 3, ("y", "x", "y"): 2})
    empty = JointCounts(["a", "b"])
    assert _triples(empty + cells) == _triples(cells + empty) == _triples(items)
    both = cells + items
    assert both.n == 10 and cells.n == 5 and items.n == 5


def test_a_part_read_as_text_makes_the_merge_compare_text():
    """Labels read as numbers in one part and as text in another (a CSV beside a Parquet file) are one label
    once merged, whichever side is text, as when one stream meets both."""
    ints = JointCounts(["a", "b"])
    ints.update(_batch([1, 2], [1, 1], [2, 2]))
    text = JointCounts(["a", "b"])
    text.update(_batch(["1", "2"], ["1", "1"], ["2", "2"], text=True))
    want = collections.Counter({("1", "1", "2"): 2, ("2", "1", "2"): 2})
    assert _triples(ints + text) == want
    assert _triples(text + ints) == want


def test_three_systems_every_pair():
    rng = random.Random(5)
    n = 120
    cols = [[rng.choice("pq") for _ in range(n)] for _ in range(4)]
    gold, *preds = cols
    halves = []
    for lo, hi in ((0, 50), (50, n)):
        acc = JointCounts(["a", "b", "c"])
        acc.update(SimpleNamespace(gold=gold[lo:hi], preds=[p[lo:hi] for p in preds], text=False))
        halves.append(acc)
    total = halves[1] + halves[0]
    for (i, x), (j, y) in (((0, "a"), (1, "b")), ((0, "a"), (2, "c")), ((1, "b"), (2, "c"))):
        assert _triples(total, x, y) == collections.Counter(zip(gold, preds[i], preds[j], strict=True))


def _quads(acc) -> collections.Counter:
    c = acc.cells()
    out: collections.Counter = collections.Counter()
    for row, n in zip(c.cols.tolist(), c.counts.tolist(), strict=True):
        out[(c.keys[row[0]], c.labels[row[1]], c.labels[row[2]], c.labels[row[3]])] += n
    return out


def _sliced_part(src, gold, a, b):
    from clfeval.slicing import SlicedJointCounts

    acc = SlicedJointCounts(["src"], max_slices=100)
    tags = acc.tag({"src": pa.array(src)})
    acc.update(SimpleNamespace(gold=pa.array(gold), preds=[pa.array(a), pa.array(b)], tags=tags, text=False,
                               counts=None))
    return acc


@pytest.mark.parametrize("seed", range(8))
def test_sliced_cells_of_any_split_merged_in_any_order_are_the_whole(seed):
    """compare --by's accumulator: each part tags its own slices (codes differ between parts, as on Dask's
    partitions); merged, the (slice, gold, A, B) cells are the whole's."""
    rng = random.Random(100 + seed)
    n = rng.randint(1, 200)
    src = [rng.choice(["news", "web", "mail"]) for _ in range(n)]
    gold, a, b = ([rng.choice("xyz") for _ in range(n)] for _ in range(3))
    oracle = collections.Counter(((s,), g, x, y) for s, g, x, y in zip(src, gold, a, b, strict=True))
    assert _quads(_sliced_part(src, gold, a, b)) == oracle
    parts = [_sliced_part(src[lo:hi], gold[lo:hi], a[lo:hi], b[lo:hi]) for lo, hi in _cuts(rng, n)]
    rng.shuffle(parts)
    total = parts[0]
    for p in parts[1:]:
        total = p + total if rng.random() < 0.5 else total + p
    assert _quads(total) == oracle
