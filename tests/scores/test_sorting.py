"""The sorted arrays under a ranking and their counts (issue 40's fast path): exact against independent oracles."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pyarrow as pa
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import clfeval
from clfeval.errors import DataError
from clfeval.scores import _sorting as sorting


def exact_mean(tp, fp, n, w=None):
    """Σ w·fl(tp/(tp+fp)) / n with fractions: float() of a Fraction is correctly rounded."""
    q = np.asarray(tp, dtype=np.float64) / (np.asarray(tp, dtype=np.float64) + np.asarray(fp))
    w = np.ones(len(q), dtype=np.int64) if w is None else w
    return float(sum((Fraction(float(x)) * int(k) for x, k in zip(q, w, strict=True)), Fraction(0)) / n)


@pytest.mark.parametrize("seed", range(6))
def test_precision_mean_is_the_exact_mean_correctly_rounded(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 400))
    tp = rng.integers(1, 10 ** int(rng.integers(1, 8)), k).astype(np.float64)
    fp = rng.integers(0, 10 ** int(rng.integers(1, 8)), k)
    w = rng.integers(1, 40, k) if seed % 2 else None
    n = int(rng.integers(1, 10**6))
    assert sorting.precision_mean(tp, fp, n, w) == exact_mean(tp, fp, n, w)


def test_precision_mean_in_cache_chunks_and_beyond_its_fixed_point(monkeypatch):
    rng = np.random.default_rng(7)
    tp = rng.integers(1, 1000, 300).astype(np.float64)
    fp = rng.integers(0, 1000, 300)
    w = rng.integers(1, 5, 300)
    want = exact_mean(tp, fp, 777, w)
    monkeypatch.setattr(sorting, "_CACHE_CHUNK", 7)  # many chunks: the sums are joined exactly
    assert sorting.precision_mean(tp, fp, 777, w) == want
    # a bound of 2^31 items leaves the fixed point (int64 could overflow): the general exact sum, same bits
    assert sorting.precision_mean(tp, fp, 777, w, bound=2**31) == want
    assert sorting.precision_mean(np.array([1.0]), np.array([0]), 1, np.array([2**21])) == 2.0 ** 21
    assert sorting.precision_mean(tp[:0], fp[:0], 5) == 0.0 and math.isnan(sorting.precision_mean(tp, fp, 0))


@pytest.mark.parametrize("window", [1, 3, 16])
def test_windowed_search_counts_below_and_tied_as_brute_force(monkeypatch, window):
    """Windows of positives (some above every negative, some below, ties across window edges)."""
    monkeypatch.setattr(sorting, "_WINDOW", window)
    rng = np.random.default_rng(window)
    neg = np.sort(rng.integers(0, 30, 200).astype(np.float64))
    pos = np.sort(np.concatenate([rng.integers(-5, 40, 150), [29, 29, 29, 40, 41, 41]]).astype(np.float64))
    left, tied = sorting._below_and_tied(pos, neg)
    assert left.tolist() == [int((neg < p).sum()) for p in pos]
    assert tied == sum(int((neg == p).sum()) for p in pos)
    left, tied = sorting._below_and_tied(pos, neg[:0])
    assert left.tolist() == [0] * len(pos) and tied == 0


def test_parts_on_threads_agree_with_scikit_learn_with_ties_and_windows(monkeypatch):
    monkeypatch.setattr(sorting, "_WINDOW", 5)
    rng = np.random.default_rng(3)
    y = rng.random(3000) < 0.3
    s = np.round(rng.normal(size=3000) + y, 1)
    for plan, k in (("single", 1), ("parts", 3), ("simd", 2)):
        pos, parts = sorting.split_sorted(y, s, plan=plan, n_threads=k)
        assert np.array_equal(pos, np.sort(s[y])) and np.array_equal(np.sort(np.concatenate(parts)), np.sort(s[~y]))
        below, tied, ap = sorting.pairs_and_ap(pos, parts, n_threads=k)
        assert (2 * below + tied) / (2 * int(y.sum()) * int((~y).sum())) == pytest.approx(roc_auc_score(y, s),
                                                                                          abs=1e-12)
        assert ap == pytest.approx(average_precision_score(y, s), abs=1e-12)


def test_classes_take_an_indicator_of_zeros_and_ones_and_a_strided_column():
    y = np.array([[1, 0], [0, 1], [1, 1], [0, 0], [0, 1]], dtype=np.uint8)
    s = np.array([[0.5, 0.1], [0.2, 0.9], [0.7, 0.3], [0.1, 0.4], [0.3, 0.8]])
    pos, neg = sorting._classes(y[:, 1], s[:, 1])
    assert pos.tolist() == [0.9, 0.3, 0.8] and neg.tolist() == [0.1, 0.4]
    pos, neg = sorting._classes(np.ones(8, dtype=bool), np.arange(8.0))  # a dense class, an empty one
    assert pos.tolist() == list(np.arange(8.0)) and neg.shape == (0,)
    assert pos.flags.writeable and neg.flags.writeable


@pytest.mark.parametrize(("where", "bad"), [(0, math.nan), (4321, math.inf), (9999, -math.inf), (5000, math.nan)])
def test_a_non_finite_score_anywhere_is_refused_naming_it(monkeypatch, where, bad):
    """The finiteness is read off the sorted ends (no pass of its own): each part's and the positives'."""
    import clfeval.scores._curves as curves

    monkeypatch.setattr(curves, "_PARALLEL_MIN", 10)
    monkeypatch.setattr(curves, "_n_threads", lambda: 3)
    rng = np.random.default_rng(0)
    y = rng.random(10_000) < 0.2
    s = rng.random(10_000)
    s[where] = bad
    with pytest.raises(DataError, match=f"holds {bad!r} at item {where} \\(0-based\\); scores must be finite"):
        clfeval.ranking(y, s, positive=True)


def test_a_boolean_gold_array_becomes_the_arrow_column_pyarrow_makes():
    from clfeval.front._scores import _column

    y = np.random.default_rng(1).random(1001) < 0.3
    got = _column(y, "gold")
    assert got.equals(pa.array(y)) and got.nbytes == pa.array(y).nbytes
    assert _column(y[::2], "gold").equals(pa.array(y[::2]))


def test_average_precision_without_ties_is_exact_in_cache_chunks(monkeypatch):
    """No tied positives: tp made chunk by chunk (P, P−1, ...), fp the negatives at or above each positive."""
    monkeypatch.setattr(sorting, "_CACHE_CHUNK", 7)
    rng = np.random.default_rng(5)
    y = rng.random(600) < 0.25
    s = rng.permutation(600) / 7.0  # distinct scores
    pos, parts = sorting.split_sorted(y, s, plan="parts", n_threads=2)
    fp = np.array([int((s[~y] >= p).sum()) for p in pos])
    tp = np.arange(len(pos), 0, -1)
    assert sorting.pairs_and_ap(pos, parts, n_threads=2)[2] == exact_mean(tp, fp, len(pos))


def test_parts_counted_on_their_sorting_threads_equal_the_counts_made_after(monkeypatch):
    monkeypatch.setattr(sorting, "_WINDOW", 4)
    rng = np.random.default_rng(9)
    y = rng.random(2000) < 0.3
    s = np.round(rng.normal(size=2000) + y, 1)
    pos, parts, core = sorting.ranked_parts(y, s, n_threads=3)
    want_pos, want_parts = sorting.split_sorted(y, s, plan="parts", n_threads=3)
    assert np.array_equal(pos, want_pos) and all(np.array_equal(a, b) for a, b in zip(parts, want_parts, strict=True))
    assert core == sorting.pairs_and_ap(want_pos, want_parts, n_threads=1)
    none = np.zeros(2000, dtype=bool)
    assert sorting.ranked_parts(none, s, n_threads=2)[2][:2] == (0, 0)


def test_a_failure_sorting_the_positives_ends_the_part_threads(monkeypatch):
    real = sorting._classes

    def classes(y, scores, which=(True, False)):
        if which == (True,):
            raise MemoryError("no room for the positives")
        return real(y, scores, which)

    monkeypatch.setattr(sorting, "_classes", classes)
    with pytest.raises(MemoryError, match="no room"):
        sorting.ranked_parts(np.arange(100) % 2 == 0, np.arange(100.0), n_threads=2)
