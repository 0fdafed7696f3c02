"""The calibration accumulator (issue 38): ``CalibrationSums.update(batch)``, ``+`` and ``finish()`` over batches
split any way and added in any order give the calibration of every item at once, to the bit; the numbers are
scikit-learn's (``calibration_curve`` for the mean predicted probability and the fraction of positives of each
equal-width bin, ``brier_score_loss``, ``log_loss``), the ECE recomputed from them by hand."""

from __future__ import annotations

import json
import pickle
from functools import reduce
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss, log_loss

from clfeval.errors import DataError
from clfeval.ops.calibration import CalibrationSums
from clfeval.scores import ProbabilityColumns, ScoreSource

N = 400


def _data(seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    p = np.concatenate([rng.random(N - 4), [0.0, 1.0, 0.5, 1e-300]])
    gold = np.where(rng.random(N) < p, "pos", "neg")
    return gold, p


def _batch(gold: np.ndarray, p: np.ndarray, first: int = 0) -> SimpleNamespace:
    """A batch as every engine hands it (gold, the extra columns by name, where its rows are)."""
    return SimpleNamespace(gold=pa.array(gold), extra={"p": pa.array(p)},
                           where=lambda i, _f=first: f"file 'x.csv', row {_f + i + 1}")


def _binary(bins: int, edges: str = "clfeval") -> CalibrationSums:
    read = ProbabilityColumns(positive="pos", prob="p", source=ScoreSource(name="p"))
    return CalibrationSums.empty(bins, "uniform", edges, read=read)


def _sums_of(gold: np.ndarray, p: np.ndarray, cuts: list[int], bins: int, edges: str = "clfeval"
             ) -> list[CalibrationSums]:
    """One accumulator per piece of the items cut at ``cuts``, each updated batch by batch (two batches)."""
    bounds = [0, *cuts, gold.shape[0]]
    out = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        acc = _binary(bins, edges)
        mid = (a + b) // 2
        for lo, hi in ((a, mid), (mid, b)):
            if hi > lo:
                acc.update(_batch(gold[lo:hi], p[lo:hi], lo))
        out.append(acc)
    return out


def _json(acc: CalibrationSums) -> str:
    return json.dumps(acc.finish().to_dict(), sort_keys=True, default=str)


@settings(max_examples=25, deadline=None)
@given(cuts=st.lists(st.integers(1, N - 1), max_size=6, unique=True).map(sorted), seed=st.integers(0, 2 ** 32 - 1),
       edges=st.sampled_from(["clfeval", "sklearn"]))
def test_any_split_added_in_any_order_is_the_whole(cuts, seed, edges):
    gold, p = _data()
    (whole,) = _sums_of(gold, p, [], 7, edges)
    parts = _sums_of(gold, p, cuts, 7, edges)
    order = np.random.default_rng(seed).permutation(len(parts))
    shuffled = reduce(lambda a, b: a + b, [parts[i] for i in order])
    assert _json(shuffled) == _json(whole)
    # added in a tree after a round trip through pickle, as the Dask workers send them
    shipped = [pickle.loads(pickle.dumps(s)) for s in parts]
    while len(shipped) > 1:
        shipped = [shipped[i] + shipped[i + 1] if i + 1 < len(shipped) else shipped[i]
                   for i in range(0, len(shipped), 2)]
    assert _json(shipped[0]) == _json(whole)


@pytest.mark.parametrize("bins", [1, 5, 10, 37])
def test_uniform_bins_equal_scikit_learn(bins):
    gold, p = _data(11)
    y = gold == "pos"
    acc = reduce(lambda a, b: a + b, _sums_of(gold, p, [50, 51, 300], bins, "sklearn"))
    c = acc.finish()
    frac, mean = calibration_curve(y, p, n_bins=bins, strategy="uniform")
    assert [b.accuracy for b in c.bins] == pytest.approx(frac, rel=1e-12)
    assert [b.confidence for b in c.bins] == pytest.approx(mean, rel=1e-12)
    counts = np.array([b.count for b in c.bins])
    assert counts.sum() == N and c.n == N
    assert c.ece == pytest.approx(float(np.sum(counts * np.abs(frac - mean)) / N), rel=1e-12)  # ECE by hand
    assert c.mce == pytest.approx(float(np.max(np.abs(frac - mean))), rel=1e-12)
    assert c.brier == pytest.approx(brier_score_loss(y, p), rel=1e-12)
    assert c.log_loss == pytest.approx(log_loss(y, np.clip(p, c.eps, 1 - c.eps)), rel=1e-12)
    assert (c.kind, c.positive) == ("binary", "pos")


def test_top_label_split_and_merged_equals_the_whole_and_scikit_learn():
    rng = np.random.default_rng(7)
    raw = rng.random((300, 3)) ** 2
    probs = raw / raw.sum(axis=1, keepdims=True)
    gold = np.array(["a", "b", "c"])[rng.integers(0, 3, 300)]
    read = ProbabilityColumns(prefix="p:", source=ScoreSource(prefix="p:"))

    def acc(lo: int, hi: int) -> CalibrationSums:
        s = CalibrationSums.empty(6, read=read)
        s.update(SimpleNamespace(gold=pa.array(gold[lo:hi]),
                                 extra={f"p:{k}": pa.array(probs[lo:hi, j]) for j, k in enumerate("abc")},
                                 where=lambda i: f"row {lo + i + 1}"))
        return s

    whole = acc(0, 300).finish()
    merged = (acc(250, 300) + acc(0, 17)) + acc(17, 250)
    assert json.dumps(merged.finish().to_dict(), sort_keys=True) == json.dumps(whole.to_dict(), sort_keys=True)
    onehot = gold[:, None] == np.array(list("abc"))
    assert whole.kind == "top-label" and whole.positive is None and whole.roc_auc is None
    assert whole.brier == pytest.approx(float(np.mean(np.sum((probs - onehot) ** 2, axis=1))), rel=1e-12)
    assert whole.log_loss == pytest.approx(log_loss(gold, probs, labels=["a", "b", "c"]), rel=1e-12)
    # top-label: confidence the largest probability, observation whether that class is the gold one
    top = probs.argmax(axis=1)
    frac, mean = calibration_curve(onehot[np.arange(300), top], probs.max(axis=1), n_bins=6)
    kept = [b for b in whole.bins if b.count]
    assert [b.accuracy for b in kept] == pytest.approx(frac, rel=1e-12)
    assert [b.confidence for b in kept] == pytest.approx(mean, rel=1e-12)


def test_the_positive_found_in_one_part_only_is_found_in_the_sum():
    gold = np.array(["neg", "neg", "pos", "neg"])
    p = np.array([0.1, 0.2, 0.9, 0.3])
    first, second = _sums_of(gold, p, [2], 2)
    assert first.positive is None and second.positive == "pos"
    assert (first + second).finish().positive == "pos" == (second + first).finish().positive


def test_a_positive_that_never_occurs_names_the_labels_seen_in_every_part():
    gold = np.array(["b", "a", "c", "a"])
    p = np.array([0.1, 0.2, 0.9, 0.3])
    first, second = _sums_of(gold, p, [2], 2)
    with pytest.raises(DataError, match=r"'pos', which does not occur in the gold labels; the labels there are: "
                                        r"'b', 'a', 'c'\."):
        (first + second).finish()
    with pytest.raises(DataError, match="there are no items to calibrate"):
        _binary(3).finish()
