"""The ranking's pieces for a range runner (scores/_rankruns.py), run here by a small range runner of the test's own
(no Dask): any split of the items into groups and batches, any cut points, any order of merging gives the same
numbers — scikit-learn's ROC-AUC and average precision, and the local in-memory ranking's summary bit for bit."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

from clfeval.core._rangeplan import choose_cuts, sampled_candidates
from clfeval.scores._curves import ranking
from clfeval.scores._rankruns import RankingSpec, Runs, RunsBuilder, range_cuts

sklearn_metrics = pytest.importorskip("sklearn.metrics")


class _Batch:
    """What a range runner hands a state: gold labels and the score column among the extra columns."""

    def __init__(self, gold, scores):
        self.gold = pa.chunked_array([pa.array(gold)])
        self.extra = {"score": pa.chunked_array([pa.array(scores)])}
        self.n = len(gold)


def _groups(gold, scores, group_cuts, batch_rows, buffer):
    """The finished state of each group: groups cut at ``group_cuts``, each updated ``batch_rows`` items at a time."""
    out = []
    edges = [0, *sorted(group_cuts), len(gold)]
    for a, b in zip(edges, edges[1:], strict=False):
        acc = RunsBuilder("score", "pos", order_only=True, labels=True, buffer=buffer)
        for i in range(a, b, batch_rows):
            acc.update(_Batch(gold[i:min(b, i + batch_rows)], scores[i:min(b, i + batch_rows)]))
        out.append(acc.finish())
    return out


def _run(states, n_ranges, spec):
    """Passes 2–4 of a range runner, here: cut points from the samples, offsets, each range merged."""
    samples = [x for s in states for x in s.sample()]
    entries = sum(n for _, n in samples)
    cand, below = sampled_candidates(samples)
    cuts = choose_cuts(cand, below, entries / n_ranges, ranges=n_ranges)
    off = spec.offsets([s.counts(cuts, n_ranges) for s in states])
    per = [spec.per_range([s.piece(cuts, n_ranges, j) for s in states], off, j) for j in range(n_ranges)]
    return spec.result(off, per), off, [range_cuts([s.piece(cuts, n_ranges, j) for s in states], off, j)
                                        for j in range(n_ranges)]


def _dump(d):
    return json.dumps(d, sort_keys=True, default=str)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 300), seed=st.integers(0, 10_000), groups=st.integers(1, 6), batch=st.integers(1, 80),
       ranges=st.integers(1, 7), buffer=st.sampled_from([None, 1, 7, 50]), levels=st.sampled_from([3, 20, 1000]))
def test_any_split_gives_sklearns_numbers_and_the_local_ranking(n, seed, groups, batch, ranges, buffer, levels):
    rng = np.random.default_rng(seed)
    gold = rng.choice(["pos", "neg"], n).tolist()
    gold[0], gold[1] = "pos", "neg"  # both classes occur
    scores = (rng.integers(0, levels, n) / levels).tolist()  # ties when levels is small
    cuts = rng.choice(np.arange(1, n), size=min(groups - 1, n - 1), replace=False).tolist() if n > 1 else []
    spec = RankingSpec.of_column("gold", "score", "pos")
    got, off, per_range_cuts = _run(_groups(gold, scores, cuts, batch, buffer), ranges, spec)
    y = np.array(gold) == "pos"
    assert got.roc_auc == pytest.approx(sklearn_metrics.roc_auc_score(y, scores), abs=1e-12)
    assert got.average_precision == pytest.approx(sklearn_metrics.average_precision_score(y, scores), abs=1e-12)
    assert (off["P"], off["N"]) == (int(y.sum()), int((~y).sum()))
    d = got.to_dict()
    d.pop("external")  # how it was computed (ranges), not what
    assert _dump(d) == _dump(ranking(gold, scores, positive="pos").summary.to_dict())
    # the threshold's cuts of every range, highest range first: every distinct score once, TP and FP at it
    thresholds = np.concatenate([c.thresholds for c in reversed(per_range_cuts)])
    s = np.array(scores)
    assert thresholds.tolist() == sorted(set(scores), reverse=True)
    tps = np.concatenate([c.tp for c in reversed(per_range_cuts)])
    assert tps.tolist() == [int((y & (s >= t)).sum()) for t in thresholds]


def test_runs_merge_in_any_order_equal_the_whole():
    rng = np.random.default_rng(3)
    y = rng.random(200) < 0.4
    s = rng.integers(0, 15, 200).astype(float)
    whole = Runs.of([y], [s])
    parts = [Runs.of([y[a:b]], [s[a:b]]) for a, b in ((0, 50), (50, 51), (51, 200))]
    for order in ((0, 1, 2), (2, 0, 1), (1, 2, 0)):
        acc = parts[order[0]]
        for k in order[1:]:
            acc = acc.merge(parts[k])
        for f in ("pos", "pos_n", "neg", "neg_n"):
            assert np.array_equal(getattr(acc, f), getattr(whole, f)), (order, f)
    # by hand: positives' distinct scores and their counts
    assert whole.pos.tolist() == sorted(set(s[y].tolist()))
    assert whole.pos_n.tolist() == [int(np.sum(s[y] == v)) for v in whole.pos]


def test_the_builder_keeps_the_labels_in_the_order_they_come():
    acc = RunsBuilder("score", "b", labels=True)
    acc.update(_Batch(["c", "b"], [0.1, 0.2]))
    acc.update(_Batch(["a", "c"], [0.3, 0.4]))
    runs = acc.finish()
    assert list(runs.labels) == ["c", "b", "a"]
    assert runs.pos.tolist() == [0.2] and runs.neg.tolist() == [0.1, 0.3, 0.4]
    assert runs.at_least(0.3).tolist() == [0, 2] and runs.extent() == (0.1, 0.4)
