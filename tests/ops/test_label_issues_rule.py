"""Confident learning (Northcutt, Jiang & Chuang 2021) against the paper's equations written out here.

The oracle below is pure Python over fractions: t_j = Σ p̂_j(x) / n_j over the items given j (exact), the confident
joint C, C̃[i][j] = C[i][j] / Σ_j C[i][j] · n_i, Q = C̃ / Σ C̃, the noise matrix Q[i][j] / Σ_i Q[i][j], the count
round(n · Q[i][j]) (half up, at most n_i) and prune by noise rate. Hand-made cases state their numbers worked by
hand; a hypothesis property checks the whole rule against the oracle on random small cases.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from clfeval.ops.label_issues import cell_counts, confident_learning


def oracle(given_: list[int], p: list[list[float]], ids: list[int] | None = None) -> dict:
    n, k = len(p), len(p[0])
    ids = list(range(n)) if ids is None else ids
    n_i = [sum(1 for g in given_ if g == j) for j in range(k)]
    t = [sum((F(p[x][j]) for x in range(n) if given_[x] == j), F(0)) / n_i[j] if n_i[j] else None
         for j in range(k)]
    c = [[0] * k for _ in range(k)]
    for x in range(n):
        ok = [j for j in range(k) if t[j] is not None and F(p[x][j]) >= t[j]]
        if ok:
            best = max(ok, key=lambda j: (p[x][j], -j))  # the largest probability; equal: the lower class
            c[given_[x]][best] += 1
    ct = [[F(c[i][j], sum(c[i])) * n_i[i] if sum(c[i]) else F(0) for j in range(k)] for i in range(k)]
    total = sum(map(sum, ct), F(0))
    q = [[v / total if total else F(0) for v in row] for row in ct]
    noise = [[q[i][j] / sum(q[r][j] for r in range(k)) if sum(q[r][j] for r in range(k)) else None
              for j in range(k)] for i in range(k)]
    counts = [[0 if i == j else min(int(n * q[i][j] + F(1, 2)), n_i[i]) for j in range(k)] for i in range(k)]
    picked: dict[int, tuple[F, int]] = {}
    per_cell = [[0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if counts[i][j] == 0:
                continue
            members = [x for x in range(n) if given_[x] == i]
            members.sort(key=lambda x: (-(F(p[x][j]) - F(p[x][i])), ids[x], x))
            chosen = members[:counts[i][j]]
            per_cell[i][j] = len(chosen)
            for x in chosen:
                m = F(p[x][j]) - F(p[x][i])
                if x not in picked or m > picked[x][0]:
                    picked[x] = (m, j)
    rows = sorted(picked, key=lambda x: (p[x][given_[x]], ids[x], x))
    return {"t": t, "c": c, "ct": ct, "q": q, "noise": noise, "counts": counts, "per_cell": per_cell,
            "rows": rows, "suggested": [picked[x][1] for x in rows]}


def run(given_: list[int], p: list[list[float]], ids: list[int] | None = None) -> object:
    order = None if ids is None else np.argsort(np.argsort(ids, kind="stable"), kind="stable")
    return confident_learning(np.array(given_), np.array(p, dtype=np.float64), order)


def same(r: object, o: dict) -> None:
    k = len(o["c"])
    assert [None if np.isnan(v) else v for v in r.thresholds] == [None if v is None else float(v) for v in o["t"]]
    assert r.confident_joint.tolist() == o["c"]
    np.testing.assert_allclose(r.calibrated, [[float(v) for v in row] for row in o["ct"]], rtol=1e-12, atol=0)
    np.testing.assert_allclose(r.joint, [[float(v) for v in row] for row in o["q"]], rtol=1e-12, atol=0)
    for i in range(k):
        for j in range(k):
            want = o["noise"][i][j]
            assert np.isnan(r.noise[i, j]) if want is None else r.noise[i, j] == pytest.approx(float(want))
    assert r.cell_counts.tolist() == o["counts"]
    assert r.cell_flagged.tolist() == o["per_cell"]
    assert r.flagged_rows.tolist() == o["rows"]
    assert r.suggested.tolist() == o["suggested"]


def test_two_classes_by_hand():
    # given 0: items 0-2, p0 = 1, 3/4, 1/4 -> t0 = 2/3; given 1: items 3-5, p1 = 3/4, 1, 1/2 -> t1 = 3/4
    g = [0, 0, 0, 1, 1, 1]
    p = [[1, 0], [.75, .25], [.25, .75], [.25, .75], [0, 1], [.5, .5]]
    r = run(g, p)
    assert r.thresholds.tolist() == [2 / 3, 0.75]
    # item 2 (given 0): p1 = 3/4 >= t1 -> C[0][1]; item 5: 1/2 < 2/3 and 1/2 < 3/4 -> not counted
    assert r.confident_joint.tolist() == [[2, 1], [0, 2]]
    assert r.calibrated.tolist() == [[2.0, 1.0], [0.0, 3.0]]  # row 0: [2, 1] / 3 * 3; row 1: [0, 2] / 2 * 3
    np.testing.assert_allclose(r.joint, [[1 / 3, 1 / 6], [0, 1 / 2]], rtol=1e-12)
    np.testing.assert_allclose(r.noise, [[1, 0.25], [0, 0.75]], rtol=1e-12)
    assert r.cell_counts.tolist() == [[0, 1], [0, 0]]  # round(6 * 1/6) = 1
    assert r.flagged_rows.tolist() == [2] and r.suggested.tolist() == [1]
    assert r.self_confidence.tolist() == [0.25] and r.margin.tolist() == [-0.5]
    same(r, oracle(g, p))


def test_a_probability_equal_to_the_threshold_counts():
    # given 0: p0 = 1/2 and 1 -> t0 = 3/4; item 2, given 1, has p0 = 3/4 exactly: at the threshold, counted in C[1][0]
    g = [0, 0, 1, 1]
    p = [[.5, .5], [1, 0], [.75, .25], [0, 1]]
    r = run(g, p)
    assert r.thresholds.tolist() == [0.75, 0.625]
    assert r.confident_joint.tolist() == [[1, 0], [1, 1]]  # item 0: 1/2 < 3/4 and 1/2 < 5/8: not counted
    same(r, oracle(g, p))


def test_the_threshold_is_compared_exactly_not_as_its_rounded_value():
    # t0 = (0 + 0.4 + 0.5) / 3 over the exact binary values of the floats: its rounded value is the float 0.3, the
    # exact value lies above it; t1 = (0.7 + 1) / 2 = 0.85
    g = [0, 0, 0, 1, 1]
    p = [[0, 1], [.4, .6], [.5, .5], [.3, .7], [0, 1]]
    exact = (F(0) + F(.4) + F(.5)) / 3
    assert float(exact) == .3 and F(.3) < exact
    r = run(g, p)
    assert r.thresholds.tolist() == [.3, .85]
    # item 3: p0 = 0.3 equals the rounded t0 but is below the exact one, and p1 = 0.7 < 0.85: not counted (a
    # comparison with the rounded value would count it in C[1][0])
    assert r.confident_joint[1].tolist() == [0, 1]
    same(r, oracle(g, p))


def test_equal_probabilities_go_to_the_lower_class():
    # item 0 (given 2): p = 1/2, 1/2, 0, at or above t0 = 1/2 and t1 = 1/2: the lower class, 0
    g = [2, 0, 1, 2]
    p = [[.5, .5, 0], [.5, .25, .25], [.25, .5, .25], [0, 0, 1]]
    r = run(g, p)
    assert r.thresholds.tolist() == [0.5, 0.5, 0.5]
    assert r.confident_joint[2].tolist() == [1, 0, 1]
    same(r, oracle(g, p))


def test_a_class_no_item_is_confidently_in_and_one_no_item_is_given():
    # class 2 is given to no item (no threshold); no item counts in column 2 -> its noise column is undefined
    g = [0, 0, 1, 1]
    p = [[.75, .25, 0], [.5, .25, .25], [.25, .75, 0], [.5, .5, 0]]
    r = run(g, p)
    assert np.isnan(r.thresholds[2])
    assert r.confident_joint[:, 2].tolist() == [0, 0, 0]
    assert np.isnan(r.noise[:, 2]).all()
    same(r, oracle(g, p))


def test_the_count_per_cell_rounds_half_up_exactly_and_stops_at_n_i():
    # n = 10, n = (5, 5), C = [[1, 1], [0, 4]]: n·Q[0][1] = 10·5·1 / (2·10) = 2.5 -> 3 (half up; half-even gives 2)
    assert cell_counts(np.array([[1, 1], [0, 4]]), np.array([5, 5])).tolist() == [[3, 3], [0, 5]]
    # row 0 has no count: S = n_1 = 2, so n·Q[1][0] = 10·2·1 / (2·2) = 5, above n_1 = 2 -> 2
    assert cell_counts(np.array([[0, 0], [1, 1]]), np.array([8, 2])).tolist() == [[0, 0], [2, 2]]


def test_prune_by_noise_rate_takes_the_largest_margins_ties_by_id_and_keeps_an_item_once():
    g = [0, 0, 0, 0, 1, 1, 2, 2]
    p = [[.25, .5, .25], [.25, .25, .5], [.5, .25, .25], [.25, .5, .25], [0, 1, 0], [0, .75, .25], [0, 0, 1],
         [.25, .25, .5]]
    for ids in (None, [7, 6, 5, 4, 3, 2, 1, 0]):
        same(run(g, p, ids), oracle(g, p, ids))


def test_the_ranking_by_normalized_margin():
    g = [0, 0, 0, 1, 1, 1]
    p = [[1, 0], [.75, .25], [.25, .75], [.25, .75], [0, 1], [.5, .5]]
    r = confident_learning(np.array(g), np.array(p, dtype=float), rank_by="normalized_margin")
    assert r.flagged_rows.tolist() == [2] and r.margin.tolist() == [-0.5]


_K = st.integers(2, 4)


@st.composite
def cases(draw: st.DrawFn) -> tuple[list[int], list[list[float]], list[int]]:
    k = draw(_K)
    n = draw(st.integers(1, 14))
    g = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    p = []
    for _ in range(n):  # probabilities in 1/16ths summing to 1: every margin and sum is exact in float64
        w = draw(st.lists(st.integers(0, 16), min_size=k, max_size=k).filter(lambda v: sum(v) > 0))
        cuts = [v * 16 // sum(w) for v in w]
        cuts[-1] = 16 - sum(cuts[:-1])
        p.append([c / 16 for c in cuts])
    ids = draw(st.permutations(list(range(n))))
    return g, p, ids


@settings(max_examples=200, deadline=None)
@given(cases())
def test_the_rule_equals_the_equations_and_each_cell_flags_its_count(case):
    g, p, ids = case
    r = run(g, p, ids)
    o = oracle(g, p, ids)
    same(r, o)
    k = len(p[0])
    n_i = np.bincount(g, minlength=k)
    for i in range(k):  # the flagged count per cell is the rule's count
        for j in range(k):
            assert r.cell_flagged[i, j] == min(r.cell_counts[i, j], n_i[i])
    assert r.cell_counts.sum() >= len(r.flagged_rows)
