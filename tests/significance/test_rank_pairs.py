"""clfeval rank, pair by pair (issue 35): a Wilcoxon p-value belongs to its pair, extreme scores stay finite,
Nemenyi's pair p-value, p_better in either order.

Oracles: SciPy 1.17.1's ``wilcoxon(a, b, zero_method="pratt", method="auto")`` called on each pair alone; the
issue's stated values; hand computations (written out beside each value).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import wilcoxon

import clfeval
from clfeval.significance._manysystems import EXACT_MAX_N, hodges_lehmann, nemenyi, wilcoxon_methods
from clfeval.significance._multirank import rank_scores
from tests._helpers.demsar import DATASETS, SYSTEMS, TABLE6


def _issue_case() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(2)
    n = 20
    a = rng.uniform(0.70, 0.90, n)
    b = a - rng.uniform(0.001, 0.05, n) * rng.choice([1, 1, 1, -1], n)  # A-B: no zero, no tied |d|
    c = a.copy()
    c[10:] = rng.uniform(0.6, 0.9, n - 10)                                  # A-C: 10 zero differences
    return a, b, c


def _rank(columns: dict[str, np.ndarray], **kw):
    names = list(columns)
    x = np.column_stack([columns[s] for s in names])
    return rank_scores(x, names, [f"d{i}" for i in range(x.shape[0])], higher_is_better=True, bayes=False, **kw)


def test_the_issues_minimal_case_keeps_its_exact_p_whatever_else_is_ranked():
    a, b, c = _issue_case()
    ref = wilcoxon(a, b, zero_method="pratt", method="auto")
    assert float(ref.pvalue) == pytest.approx(0.0171814, abs=5e-8)  # the issue's value: exact, 20 tie-free d
    two = _rank({"A": a, "B": b}).pair("A", "B")
    three = _rank({"A": a, "B": b, "C": c}).pair("A", "B")
    assert two.p_value == three.p_value == float(ref.pvalue)  # not 0.0186749, the batch's normal value
    assert two.wilcoxon_method == three.wilcoxon_method == "exact"
    ac = _rank({"A": a, "B": b, "C": c}).pair("A", "C")
    assert ac.wilcoxon_method == "normal"  # 10 zeros and N = 20 > 13
    assert ac.p_value == float(wilcoxon(a, c, zero_method="pratt", method="auto").pvalue)


def _holm(ps: list[float]) -> list[float]:
    """Holm's step-down adjustment, written out: the j-th smallest times (m − j), running maximum, capped at 1."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out, running = [0.0] * len(ps), 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - j) * ps[i]))
        out[i] = running
    return out


@st.composite
def tables(draw):
    """Scores on a coarse grid (ties and zero differences are common), N from 2 to 60, k from 2 to 5.

    N from 10 to 13 is left out: with ties or zeros SciPy's "auto" rule takes its permutation method there, whose
    2^N sign flips cost the oracle (and clfeval, which gives SciPy's value) seconds per pair — a run of this test
    took 0.7 s or 154 s by the draw. N up to 9 takes the same permutation path in milliseconds."""
    n = draw(st.one_of(st.integers(2, 9), st.integers(14, 60)))
    k = draw(st.integers(2, 5))
    grid = draw(st.sampled_from([4, 10, 100, 10_000]))
    cells = draw(st.lists(st.integers(0, grid), min_size=n * k, max_size=n * k))
    return np.array(cells, dtype=np.float64).reshape(n, k) / grid


@settings(max_examples=40, deadline=None)
@given(tables(), st.data())
def test_a_pairs_p_is_scipys_per_pair_value_whatever_other_systems_are_present(x, data):
    n, k = x.shape
    names = [f"s{i}" for i in range(k)]
    full = rank_scores(x, names, [f"d{i}" for i in range(n)], higher_is_better=True, bayes=False)
    keep = sorted(data.draw(st.sets(st.integers(0, k - 1), min_size=2, max_size=k)))
    part = rank_scores(x[:, keep], [names[i] for i in keep], [f"d{i}" for i in range(n)], higher_is_better=True,
                       bayes=False)
    for r in (full, part):
        ref = []
        for p in r.pairs:
            a, b = names.index(p.a), names.index(p.b)
            if np.all(x[:, a] == x[:, b]):
                assert p.p_value == 1.0 and p.wilcoxon_method == "equal"  # SciPy gives NaN: nothing separates
                ref.append(1.0)
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = wilcoxon(x[:, a], x[:, b], zero_method="pratt", method="auto")
            assert p.p_value == float(want.pvalue), (p.a, p.b)
            assert p.wilcoxon_statistic == float(want.statistic)
            ref.append(float(want.pvalue))
        assert [p.p_holm for p in r.pairs] == pytest.approx(_holm(ref), rel=1e-12, abs=0)
    for p in part.pairs:
        assert p.p_value == full.pair(p.a, p.b).p_value


def test_the_method_of_each_pair_follows_scipys_auto_rule():
    tie_free = np.arange(1.0, 14.0) * np.where(np.arange(13) % 3, 1, -1)
    assert wilcoxon_methods(np.array([tie_free])).tolist() == ["exact"]
    assert wilcoxon_methods(np.array([np.r_[tie_free[:-1], 0.0]])).tolist() == ["permutation"]  # a zero, N = 13
    assert wilcoxon_methods(np.array([np.r_[tie_free, 0.0]])).tolist() == ["normal"]             # a zero, N = 14
    assert wilcoxon_methods(np.array([np.r_[tie_free, -1.0]])).tolist() == ["normal"]            # |d| tied, N = 14
    assert wilcoxon_methods(np.arange(1.0, EXACT_MAX_N + 1)[None]).tolist() == ["exact"]
    assert wilcoxon_methods(np.arange(1.0, EXACT_MAX_N + 2)[None]).tolist() == ["normal"]        # N = 51


def test_the_rule_is_stated_in_the_output():
    a, b, c = _issue_case()
    r = _rank({"A": a, "B": b, "C": c})
    text = " ".join(str(r).split())
    assert "each pair is tested on its own" in text and "with more than 50 data sets, the normal approximation" in text
    assert "all 2^N sign flips when N ≤ 13" in text and "Pratt" in text
    assert "Pairs by method — exact: 2, normal approximation: 1." in text
    assert [p["wilcoxon_method"] for p in r.to_dict()["pairs"]] == [r.pair(p.a, p.b).wilcoxon_method
                                                                      for p in r.pairs]


# --- extreme but finite scores (K27) ---------------------------------------------------------------------------

def _huge():
    return {"A": np.full(6, 1e308), "B": np.full(6, -1e308), "C": np.arange(6) % 2 * 1.0}


def test_extreme_scores_give_finite_effect_sizes_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning: overflow
        r = rank_scores(np.column_stack(list(_huge().values())), list(_huge()), [f"d{i}" for i in range(6)],
                        higher_is_better=True, samples=2000)
        text = str(r)
    ac = r.pair("A", "C")
    # d = 1e308 − 0 and 1e308 − 1, both 1e308 in floating point: mean, median and Walsh averages are 1e308
    assert (ac.mean_difference, ac.median_difference, ac.hodges_lehmann) == (1e308, 1e308, 1e308)
    assert ac.undefined is None
    assert r.mean_scores == {"A": 1e308, "B": -1e308, "C": 0.5}
    # A − B = 2e308 on every data set: beyond the float range, so undefined, with the reason
    ab = r.pair("A", "B")
    assert all(math.isnan(getattr(ab, k)) for k in ("mean_difference", "median_difference", "hodges_lehmann"))
    assert "beyond the float range" in ab.undefined
    assert "1.0000e+308" in text and "inf" not in text.replace("infinite", "")
    assert r.bayes[0].p_a_better == 1.0


def test_an_effect_size_within_range_survives_a_difference_beyond_it():
    # d = A − B = 2e308 (beyond the range), 1, 1: mean (2e308 + 2)/3, median 1; the Walsh averages are
    # 2e308, (2e308 + 1)/2 = 1e308 twice, and 1 three times: their median is (1 + 1e308)/2 = 5e307
    r = _rank({"A": np.array([1e308, 1.0, 1.0]), "B": np.array([-1e308, 0.0, 0.0])})
    p = r.pair("A", "B")
    assert p.mean_difference == pytest.approx(1e308 / 3 * 2, rel=1e-15)
    assert p.median_difference == 1.0
    assert p.hodges_lehmann == pytest.approx(5e307, rel=1e-15)
    assert p.undefined is None
    assert hodges_lehmann(np.array([[1e308, 1e308, 1e308]])).tolist() == [1e308]


# --- Nemenyi's pair p-value (item 5) ---------------------------------------------------------------------------

def test_nemenyi_p_is_alpha_at_the_critical_difference():
    # Demšar's example, k = 4, N = 14: CD = 2.569·√(4·5/(6·14)) = 1.2536; a pair exactly CD apart has p = 0.05
    # (without the √2 of q_α = q/√2 it would be the studentized range tail at 2.569: 0.2654)
    se = math.sqrt(4 * 5 / (6 * 14))
    assert 2.569 * se == pytest.approx(1.2536, abs=1e-4)
    q, cd, p = nemenyi(np.array([1.0, 1.0 + 1.2536, 2.5, 3.0]), 14, 0.05)
    assert cd == pytest.approx(1.2536, abs=1e-4)
    assert p[0, 1] == pytest.approx(0.0500, abs=1e-4) and p[1, 0] == p[0, 1]


@pytest.mark.parametrize("seed", range(8))
def test_nemenyi_p_below_alpha_exactly_when_separated(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(5, 30)), int(rng.integers(3, 8))
    x = rng.normal(0, 1, (n, k)) + np.linspace(0, 1.5, k)
    r = rank_scores(x, [f"s{i}" for i in range(k)], [f"d{i}" for i in range(n)], higher_is_better=True,
                    bayes=False)
    cd = r.nemenyi.critical_difference
    for p in r.pairs:
        if abs(p.rank_difference - cd) > 1e-9:
            assert (p.nemenyi_p < r.alpha) == p.nemenyi_separated


# --- p_better in either order (item 5) -------------------------------------------------------------------------

def test_p_better_reads_a_pair_computed_the_other_way_round():
    t = pa.table({"dataset": DATASETS, **{s: [row[j] for row in TABLE6] for j, s in enumerate(SYSTEMS)}})
    r = clfeval.rank(t, metric="roc_auc", samples=5000, require=["p_better(C4.5,C4.5+m+cf)<=0.5"])
    # the default pairs set the best-ranked first: the pair was computed as (C4.5+m+cf, C4.5)
    assert [(b.a, b.b) for b in r.bayes if {b.a, b.b} == {"C4.5", "C4.5+m+cf"}] == [("C4.5+m+cf",
                                                                                                  "C4.5")]
    value = r.requirements.conditions[0].value
    assert value == r.p_better("C4.5", "C4.5+m+cf") == r.bayes[2].p_b_better
    assert value != r.p_better("C4.5+m+cf", "C4.5")
