"""The exact McNemar critical value (significance/_critical.py, issue 35 item 5): its search from a guess."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from clfeval.significance._critical import _exact_critical


def brute_force(d: int, a: Fraction) -> int:
    """min{c : Σ_{k ≥ c} C(d, k) < a · 2^d}, every c tried in exact fractions."""
    return next(c for c in range(d + 2) if sum(math.comb(d, k) for k in range(c, d + 1)) < a * 2 ** d)


def test_a_guess_below_the_answer_walks_up():
    # d = 4: the tails Σ_{k ≥ c} C(4, k) are 16, 15, 11, 5, 1, 0 for c = 0..5; a·2^d = 1, so the first tail below
    # it is c = 5 (the tail at 4 equals 1, which is not below)
    assert _exact_critical(4, 1 / 16, 4) == 5


@pytest.mark.parametrize("a", [Fraction(1, 16), Fraction(1, 32), Fraction(3, 64)])
def test_critical_values_equal_a_brute_force_search(a):
    for d in range(0, 41):
        want = brute_force(d, a)
        for guess in {0, max(want - 2, 0), max(want - 1, 0), want, want + 1, d // 2, d, d + 1}:
            assert _exact_critical(d, float(a), guess) == want, (d, guess)
