"""The three passes of label issues (thresholds, confident joint, per-cell cut) are accumulators: any split of the
items into batches, merged in any tree (in input order), gives the in-memory rule's arrays exactly."""

from __future__ import annotations

from functools import partial

import numpy as np
from hypothesis import given, settings, strategies as st

from clfeval.ops.label_issues import (
    CellCuts,
    JointCounts,
    ThresholdSums,
    confident_learning,
    flagged_of,
    id_order,
    matrices,
)


class Batch:
    """A batch as the reader gives it: (given, probabilities, ids, file number, first row in the file)."""

    def __init__(self, given, p, ids, file_no, start):
        self.item = (given, p, ids, file_no, start)


def read(batch):
    return batch.item


def _tree(accs, rng):
    """Merge neighbours in a random order until one is left (always a + b with a before b)."""
    accs = list(accs)
    while len(accs) > 1:
        i = int(rng.integers(0, len(accs) - 1))
        accs[i:i + 2] = [accs[i] + accs[i + 1]]
    return accs[0]


def _run(batches, make, rng):
    accs = []
    for b in batches:
        a = make()
        a.update(b)
        accs.append(a)
    return _tree(accs, rng)


@st.composite
def cases(draw):
    k = draw(st.integers(2, 4))
    n = draw(st.integers(1, 40))
    g = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    p = []
    for _ in range(n):  # eighths: many ties at thresholds and between margins
        w = draw(st.lists(st.integers(0, 8), min_size=k, max_size=k).filter(lambda v: sum(v) > 0))
        cuts = [v * 8 // sum(w) for v in w]
        cuts[-1] = 8 - sum(cuts[:-1])
        p.append([c / 8 for c in cuts])
    ids = np.array(draw(st.permutations(list(range(n))))) * 5
    files = sorted(draw(st.lists(st.integers(0, n), max_size=3)))  # file boundaries
    chunks = draw(st.lists(st.integers(1, 7), min_size=1, max_size=20))
    return g, np.array(p, dtype=float), ids, files, chunks, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=150, deadline=None)
@given(cases(), st.sampled_from(["self_confidence", "normalized_margin"]))
def test_any_split_and_merge_tree_equals_the_rule_in_memory(case, rank_by):
    g, p, ids, files, chunks, seed = case
    rng = np.random.default_rng(seed)
    n = g.size
    bounds = sorted({0, n, *files})
    batches = []
    for f, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:], strict=True)):  # files, each cut into batches
        at, c = lo, 0
        while at < hi:
            step = chunks[c % len(chunks)]
            c += 1
            batches.append(Batch(g[at:min(hi, at + step)], p[at:min(hi, at + step)], ids[at:min(hi, at + step)],
                                 f, at - lo))
            at += step
    k = p.shape[1]
    t = _run(batches, partial(ThresholdSums, read, k), rng).finish()
    joint = _run(batches, partial(JointCounts, read, t), rng)
    cuts = _run(batches, partial(CellCuts, read, t, matrices(joint.c, t.n_given)[3]), rng)
    got, got_ids = flagged_of(t, joint.c, cuts, rank_by)
    want = confident_learning(g, p, id_order(ids), rank_by)
    assert np.array_equal(got.thresholds, want.thresholds, equal_nan=True)
    assert got.confident_joint.tolist() == want.confident_joint.tolist()
    assert got.cell_counts.tolist() == want.cell_counts.tolist()
    assert got.cell_flagged.tolist() == want.cell_flagged.tolist()
    assert got.flagged_rows.tolist() == want.flagged_rows.tolist()
    assert got.suggested.tolist() == want.suggested.tolist()
    assert got.self_confidence.tolist() == want.self_confidence.tolist()
    assert got.margin.tolist() == want.margin.tolist()
    assert got_ids is None or [got_ids[r] for r in got.flagged_rows.tolist()] == ids[want.flagged_rows].tolist()
