"""MCC and kappa are the correctly rounded floats of their exact values, on tables of up to 10^12 items.

Oracle: :class:`fractions.Fraction` arithmetic on the table's integers. Kappa is a ratio, whose correctly
rounded float is ``float(Fraction(num, den))``; MCC is num / √den, an irrational number in general, so a
float r is its correctly rounded value exactly when the true value lies within half an ulp of r — checked
by comparing squares of Fractions, with no float arithmetic at all. Small item lists also agree with
scikit-learn.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st
from sklearn.metrics import cohen_kappa_score, matthews_corrcoef

from clfeval.core._tables import ConfusionTable
from clfeval.evaluate._reports import report, report_from_table

LIMIT = 10**12


def _parts(cm: list[list[int]]) -> tuple[int, int, int, int]:
    """N·c − Σ t_k p_k, N² − Σ p_k², N² − Σ t_k², N² − Σ t_k p_k, in Python integers."""
    k = len(cm)
    n = sum(map(sum, cm))
    c = sum(cm[i][i] for i in range(k))
    t = [sum(cm[i]) for i in range(k)]
    p = [sum(cm[i][j] for i in range(k)) for j in range(k)]
    tp = sum(a * b for a, b in zip(t, p, strict=True))
    return n * c - tp, n * n - sum(x * x for x in p), n * n - sum(x * x for x in t), n * n - tp


def _is_correctly_rounded_root(r: float, num: int, den: int) -> bool:
    """Whether r is the float nearest to num / √den (den > 0)."""
    if num == 0:
        return r == 0.0
    if (r < 0) != (num < 0):
        return False
    x, target = abs(r), Fraction(num * num, den)  # compare r² with num²/den, through the half-ulp bounds
    up, down = math.nextafter(x, math.inf), math.nextafter(x, 0.0)
    lo, hi = (Fraction(down) + Fraction(x)) / 2, (Fraction(x) + Fraction(up)) / 2
    return lo * lo <= target <= hi * hi


def _check(cm: list[list[int]]) -> None:
    labels = tuple(f"c{i}" for i in range(len(cm)))
    rep = report_from_table(ConfusionTable(np.array(cm, dtype=np.int64), labels))
    num, dp, dt, dk = _parts(cm)
    if dp == 0 or dt == 0:
        assert rep.mcc == 0.0 and "mcc" in str(rep.undefined)
    else:
        assert _is_correctly_rounded_root(rep.mcc, num, dp * dt), (cm, rep.mcc)
    if dk == 0:
        assert rep.kappa == 0.0
    else:
        assert rep.kappa == float(Fraction(num, dk)), cm


def test_the_issue_example_is_exact():
    cm = [[0, 1], [1, 122070312]]
    rep = report_from_table(ConfusionTable(np.array(cm), ("a", "b")))
    assert rep.mcc == -1 / 122070313 == float(Fraction(-1, 122070313))
    _check(cm)


def test_the_root_check_can_fail():
    """The oracle rejects the neighbours of the right answer (and the naive float formula's 0.0)."""
    num, dp, dt, _ = _parts([[0, 1], [1, 122070312]])
    right = -1 / 122070313
    assert _is_correctly_rounded_root(right, num, dp * dt)
    for wrong in (math.nextafter(right, 0.0), math.nextafter(right, -1.0), 0.0):
        assert not _is_correctly_rounded_root(wrong, num, dp * dt)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, LIMIT // 4), min_size=4, max_size=4))
@example([0, 1, 1, 122070312])
@example([LIMIT // 4, 1, 0, LIMIT // 4])
@example([LIMIT // 2 - 3, 2, 1, LIMIT // 2])
def test_two_by_two_tables_up_to_1e12_items(cells):
    _check([cells[:2], cells[2:]])


@st.composite
def _square(draw):
    k = draw(st.integers(2, 6))
    big = draw(st.sampled_from([LIMIT // (k * k), 1000, 3]))
    flat = draw(st.lists(st.integers(0, big), min_size=k * k, max_size=k * k))
    return [flat[i * k:(i + 1) * k] for i in range(k)]


@settings(max_examples=150, deadline=None)
@given(_square())
def test_k_by_k_tables_up_to_1e12_items(cm):
    assert sum(map(sum, cm)) <= LIMIT
    _check(cm)


@pytest.mark.filterwarnings("ignore::UserWarning")
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=60))
def test_small_item_lists_agree_with_sklearn(pairs):
    gold = [f"l{g}" for g, _ in pairs]
    pred = [f"l{p}" for _, p in pairs]
    rep = report(gold, pred)
    assert rep.mcc == pytest.approx(matthews_corrcoef(gold, pred), rel=1e-12, abs=1e-15)
    kappa = cohen_kappa_score(gold, pred)
    if not math.isnan(kappa):
        assert rep.kappa == pytest.approx(kappa, rel=1e-12, abs=1e-15)
