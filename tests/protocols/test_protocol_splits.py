"""Splits: every item tested once, stratification within one item, clean refusals, iterative stratification."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from clfeval.errors import DataError, UsageError
from clfeval.protocols._api import Protocol, iterative_stratification, split


def _labels(counts: list[int]) -> list[str]:
    return [f"c{i}" for i, c in enumerate(counts) for _ in range(c)]


@settings(max_examples=60, deadline=None)
@given(k=st.integers(2, 10), extra=st.lists(st.integers(0, 40), min_size=2, max_size=6), seed=st.integers(0, 2**31),
       repeats=st.integers(1, 3))
def test_stratified_folds_keep_every_class_within_one_item(k, extra, seed, repeats):
    counts = [k + e for e in extra]  # every class has at least k items
    y = _labels(counts)
    rng = np.random.default_rng(seed)
    y = list(np.array(y)[rng.permutation(len(y))])
    folds = split(Protocol.kfold(k, stratified=True, repeats=repeats), y, seed=seed)
    assert len(folds) == k * repeats
    ya = np.array(y)
    for f in folds:
        for i, c in enumerate(counts):
            share = np.count_nonzero(ya[f.test] == f"c{i}")
            assert abs(share - c / k) < 1, (f.repeat, f.fold, i, share, c / k)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 200), k=st.integers(2, 12), seed=st.integers(0, 2**31), repeats=st.integers(1, 3))
def test_every_item_is_in_exactly_one_test_fold_per_repeat(n, k, seed, repeats):
    if n < k:
        return
    folds = split(Protocol.kfold(k, repeats=repeats), ["x"] * n, seed=seed)
    for r in range(1, repeats + 1):
        mine = [f for f in folds if f.repeat == r]
        assert [f.fold for f in mine] == list(range(1, k + 1))
        tests = np.concatenate([f.test for f in mine])
        assert sorted(tests.tolist()) == list(range(n))
        for f in mine:
            assert not set(f.train) & set(f.test)
            assert len(f.train) + len(f.test) == n


def test_multilabel_stratified_folds_cover_every_item_once():
    rng = np.random.default_rng(1)
    Y = rng.random((300, 6)) < [0.4, 0.2, 0.1, 0.05, 0.02, 0.3]
    sets = [[f"l{j}" for j in np.flatnonzero(row)] for row in Y]
    folds = split(Protocol.kfold(5, stratified=True, repeats=2), sets, seed=3, multilabel=True)
    for r in (1, 2):
        tests = np.concatenate([f.test for f in folds if f.repeat == r])
        assert sorted(tests.tolist()) == list(range(300))


def test_same_seed_same_splits_other_seed_other_splits():
    y = _labels([30, 20, 10])
    a = split(Protocol.kfold(5, stratified=True), y, seed=7)
    b = split(Protocol.kfold(5, stratified=True), y, seed=7)
    c = split(Protocol.kfold(5, stratified=True), y, seed=8)
    assert all(np.array_equal(x.test, z.test) for x, z in zip(a, b, strict=True))
    assert not all(np.array_equal(x.test, z.test) for x, z in zip(a, c, strict=True))


def test_repeats_differ():
    folds = split(Protocol.kfold(4, repeats=3), ["x"] * 40, seed=0)
    first = [tuple(f.test) for f in folds if f.repeat == 1]
    second = [tuple(f.test) for f in folds if f.repeat == 2]
    assert first != second


def test_too_many_folds_for_the_smallest_class_names_it():
    y = ["earn"] * 50 + ["wheat"] * 4 + ["corn"] * 6
    with pytest.raises(DataError) as exc:
        split(Protocol.kfold(10, stratified=True), y, seed=0)
    msg = str(exc.value)
    assert "'wheat' has only 4 items" in msg and "10" in msg and "'corn': 6" in msg


def test_unstratified_kfold_needs_k_items():
    with pytest.raises(DataError, match="at least 10 items"):
        split(Protocol.kfold(10), ["a", "b"] * 4, seed=0)


def test_bad_protocol_options_are_usage_errors():
    with pytest.raises(UsageError, match="folds"):
        Protocol.kfold(1)
    with pytest.raises(UsageError, match="repeats"):
        Protocol.kfold(5, repeats=0)
    with pytest.raises(UsageError, match="test_size"):
        Protocol.holdout(1.5)
    with pytest.raises(UsageError, match="below 1"):
        Protocol.holdout(0.5, val_size=0.5)
    with pytest.raises(UsageError, match="seed"):
        split(Protocol.kfold(2), ["a", "b"], seed=-1)


# --- holdout -------------------------------------------------------------------------------------

def test_holdout_sizes_and_disjoint_parts():
    folds = split(Protocol.holdout(0.2, repeats=3), ["a"] * 101, seed=0)
    assert len(folds) == 3
    for f in folds:
        assert len(f.test) == math.ceil(0.2 * 101) and len(f.train) == 101 - 21
        assert not set(f.train) & set(f.test)
    assert len({tuple(f.test) for f in folds}) == 3


def test_train_validation_test_sizes():
    (f,) = split(Protocol.holdout(0.15, val_size=0.15), ["a"] * 200, seed=0)
    assert (len(f.train), len(f.validation), len(f.test)) == (140, 30, 30)
    assert len(set(f.train) | set(f.validation) | set(f.test)) == 200


@settings(max_examples=30, deadline=None)
@given(counts=st.lists(st.integers(3, 60), min_size=2, max_size=5), seed=st.integers(0, 2**31),
       t=st.sampled_from([0.2, 0.25, 0.3]), v=st.sampled_from([0.0, 0.15]))
def test_stratified_holdout_keeps_class_shares_within_one_item(counts, seed, t, v):
    y = np.array(_labels(counts))
    n = len(y)
    if math.ceil(t * n) < len(counts) or (v and math.ceil(v * n) < len(counts)):
        return
    (f,) = split(Protocol.holdout(t, val_size=v, stratified=True), list(y), seed=seed)
    for i, c in enumerate(counts):
        got = np.count_nonzero(y[f.test] == f"c{i}")
        assert abs(got - c * len(f.test) / n) <= 1, (i, got, c * len(f.test) / n)


def test_stratified_holdout_refuses_a_singleton_class():
    with pytest.raises(DataError, match="class 'rare' has only 1 item"):
        split(Protocol.holdout(0.2, stratified=True), ["common"] * 20 + ["rare"], seed=0)


def test_stratified_holdout_refuses_a_test_part_too_small_for_the_classes():
    y = [c for c in "abcdef" for _ in range(3)]
    with pytest.raises(DataError, match="room for each of the 6 classes in the test part"):
        split(Protocol.holdout(0.1, stratified=True), y, seed=0)


# --- iterative stratification -------------------------------------------------------------------

def _label_distribution(Y: np.ndarray, subsets: np.ndarray, k: int) -> float:
    """Sechidis et al.'s LD measure: mean over labels and folds of |positives share deviation|."""
    out = []
    for c in range(Y.shape[1]):
        d = Y[:, c].sum() / len(Y)
        if d in (0, 1):
            continue
        for j in range(k):
            part = Y[subsets == j, c]
            p = part.mean() if part.size else 0.0
            out.append(abs(p / (1 - p + 1e-12) - d / (1 - d)))
    return float(np.mean(out))


def test_the_rarest_label_is_spread_one_per_fold():
    rng = np.random.default_rng(0)
    Y = rng.random((200, 4)) < [0.5, 0.3, 0.2, 0.0]
    Y[:, 3] = False
    Y[rng.choice(200, 5, replace=False), 3] = True  # exactly k positives, the rarest label
    for seed in range(5):
        s = iterative_stratification(Y, [0.2] * 5, seed=seed)
        assert np.bincount(s[Y[:, 3]], minlength=5).tolist() == [1] * 5


def test_iterative_stratification_beats_random_folds_and_matches_the_reference_package():
    rng = np.random.default_rng(42)
    Y = rng.random((400, 8)) < np.array([0.4, 0.25, 0.1, 0.06, 0.03, 0.02, 0.15, 0.3])
    k = 5
    mine, rand = [], []
    for seed in range(8):
        mine.append(_label_distribution(Y, iterative_stratification(Y, [1 / k] * k, seed=seed), k))
        rand.append(_label_distribution(Y, np.random.default_rng(seed).permutation(400) % k, k))
    assert np.mean(mine) < 0.5 * np.mean(rand)
    iterstrat = pytest.importorskip("iterstrat.ml_stratifiers")
    ref = []
    for seed in range(8):
        s = np.empty(400, dtype=int)
        for j, (_, te) in enumerate(iterstrat.MultilabelStratifiedKFold(k, shuffle=True, random_state=seed)
                                    .split(np.zeros(400), Y.astype(int))):
            s[te] = j
        ref.append(_label_distribution(Y, s, k))
    assert np.mean(mine) <= 1.25 * np.mean(ref) + 0.005, (np.mean(mine), np.mean(ref))


def test_iterative_stratification_sizes_and_unlabelled_items():
    Y = np.zeros((50, 3), dtype=bool)
    Y[:10, 0] = True
    s = iterative_stratification(Y, [0.6, 0.4], seed=0)
    assert np.bincount(s).tolist() == [30, 20]
    assert np.bincount(s[:10]).tolist() == [6, 4]


def test_multilabel_stratified_holdout_with_validation():
    rng = np.random.default_rng(5)
    Y = rng.random((500, 4)) < [0.3, 0.1, 0.05, 0.5]
    sets = [[f"l{j}" for j in np.flatnonzero(row)] for row in Y]
    (f,) = split(Protocol.holdout(0.2, val_size=0.2, stratified=True), sets, seed=0, multilabel=True)
    assert len(f.train) + len(f.validation) + len(f.test) == 500
    for j in range(4):
        assert abs(Y[f.test, j].sum() - 0.2 * Y[:, j].sum()) <= 1.5
