"""Exact sums: equal to the exact rational sum (fractions), whatever the order or the split into chunks."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from clfeval.core._exactsum import ExactSum, exact_mean, exact_sum, grouped_sums

finite = st.floats(allow_nan=False, allow_infinity=False, width=64)


@settings(max_examples=100, deadline=None)
@given(st.lists(finite, max_size=60), st.data())
def test_equals_the_exact_rational_sum_correctly_rounded(values, data):
    x = np.array(values, dtype=np.float64)
    w = np.array(data.draw(st.lists(st.integers(0, 2 ** 62), min_size=len(values), max_size=len(values))),
                 dtype=np.int64)
    exact = sum((Fraction(v) * int(k) for v, k in zip(values, w, strict=True)), Fraction(0))
    s = ExactSum().add(x, w)
    assert s.num == exact * 2 ** 1074  # the sum is held exactly
    try:
        expected = float(exact)
    except OverflowError:
        expected = math.inf if exact > 0 else -math.inf
    assert s.value() == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(finite, min_size=1, max_size=80), st.randoms(use_true_random=False))
def test_order_and_chunks_do_not_change_a_bit(values, rnd):
    x = np.array(values)
    shuffled = list(values)
    rnd.shuffle(shuffled)
    cut = rnd.randrange(len(values) + 1)
    parts = ExactSum().add(np.array(shuffled[:cut])) + ExactSum().add(np.array(shuffled[cut:]))
    assert parts == ExactSum().add(x)
    try:
        expected = math.fsum(values)  # the standard library's correctly rounded sum
    except OverflowError:  # fsum overflows on the way; the exact sum, correctly rounded, may still be finite
        exact = sum((Fraction(v) for v in values), Fraction(0))
        try:
            expected = float(exact)
        except OverflowError:
            expected = math.inf if exact > 0 else -math.inf
    assert exact_sum(x) == expected


def test_a_plain_float_sum_depends_on_the_order_and_this_one_does_not():
    x = np.array([1e16, 1.0, -1e16, 1.0])
    assert sum(x.tolist()) != sum(x[::-1].tolist()) or sum(x.tolist()) != 2.0
    assert exact_sum(x) == exact_sum(x[::-1]) == 2.0


def test_mean_is_one_rounding_of_the_exact_quotient():
    x = np.array([0.1, 0.2, 0.4])
    assert exact_mean(x) == float((Fraction(0.1) + Fraction(0.2) + Fraction(0.4)) / 3)
    assert math.isnan(exact_mean(np.empty(0)))


def test_grouped_sums_equal_one_sum_per_group():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(5000) * 10.0 ** rng.integers(-300, 300, 5000)
    g = rng.integers(0, 17, 5000)
    got = grouped_sums(x, g, 20)
    for k in range(20):
        assert got[k].num == sum((Fraction(v) for v in x[g == k].tolist()), Fraction(0)) * 2 ** 1074


def test_non_finite_values_are_refused():
    with pytest.raises(ValueError, match="finite"):
        ExactSum().add(np.array([1.0, math.inf]))
    with pytest.raises(ValueError, match="finite"):
        grouped_sums(np.array([math.nan]), np.array([0]), 1)
