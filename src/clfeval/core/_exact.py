"""Exact arithmetic where floats would cancel or depend on the order of a sum.

* :func:`int_array` — integer counts as int64 when every product of two of
  them (and their sums) fits, else as Python integers (object arrays), so
  that covariances such as c·N − Σ t_k p_k are computed exactly at any N
  (at 10^12 items, N² = 10^24 is far beyond int64 and float64's 2^53).
* :func:`ratio_float` / :func:`sqrt_ratio_float` — the correctly rounded
  float64 of a ratio of integers a/b and of √(a/b).

Exact sums of float64 values (the same bits in any order) are
:mod:`clfeval.core._exactsum`'s.

>>> ratio_float(-2, 244140626) == -1 / 122070313
True
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["int_array", "ratio_float", "sqrt_ratio_float", "ratio_floats", "sqrt_ratio_floats", "EXACT_ELEMENTS"]

#: Tables of fewer items are computed in int64: every product of two counts, and every sum of such
#: products (c·N, Σ t_k p_k ≤ N²), stays below 2^62.
_INT64_SAFE = 1 << 31

#: Most values computed one by one in exact integer arithmetic (a table and its per-class values); larger
#: stacks (bootstrap replicates) keep the exact integer parts and round once at the end.
EXACT_ELEMENTS = 4096

_TWO53 = 1 << 53


def int_array(x: Any, total: Any) -> np.ndarray:
    """Integer counts as int64 when N² (``total``: the largest table's N) stays below 2^62, else as Python ints.

    >>> int_array(np.array([3, 4]), 7).dtype, int_array(np.array([10**12, 1]), 10**12 + 1).dtype
    (dtype('int64'), dtype('O'))
    """
    a = np.asarray(x)
    if a.dtype == object:
        return a
    big = int(np.max(total)) if np.size(total) else 0
    if big < _INT64_SAFE:
        return a.astype(np.int64, copy=False)
    return a.astype(object)


def ratio_float(a: int, b: int) -> float:
    """The float64 nearest to a / b (integers; b ≠ 0), correctly rounded."""
    a, b = int(a), int(b)
    if -_TWO53 <= a <= _TWO53 and -_TWO53 <= b <= _TWO53:
        return a / b  # both exact in float64: IEEE division rounds correctly
    return float(Fraction(a, b))


def sqrt_ratio_float(a: int, b: int) -> float:
    """The float64 nearest to √(a / b) (integers, a ≥ 0, b > 0), correctly rounded.

    With m = ⌊√(a·4^k / b)⌋ of at least 60 bits, √(a/b) lies in [m, m + 1)·2^-k;
    no rounding boundary of a 53-bit float lies strictly inside that interval,
    so the value rounds as m·2^-k when the root is exact and as (m + ½)·2^-k
    otherwise (both correctly rounded by :class:`fractions.Fraction`).

    >>> sqrt_ratio_float(1, 4), sqrt_ratio_float(2, 1) == math.sqrt(2)
    (0.5, True)
    """
    a, b = int(a), int(b)
    if a == 0:
        return 0.0
    k = max(0, (120 - (a.bit_length() - b.bit_length())) // 2 + 1)
    scaled = (a << (2 * k))
    q, r = divmod(scaled, b)
    m = math.isqrt(q)
    if r == 0 and m * m == q:
        return float(Fraction(m, 1 << k))
    return float(Fraction(2 * m + 1, 1 << (k + 1)))


def _exact_elementwise(num: np.ndarray, den: np.ndarray, den2: np.ndarray | None) -> np.ndarray:
    out = np.empty(num.shape, dtype=np.float64)
    flat_n, flat_d, flat_o = num.reshape(-1), den.reshape(-1), out.reshape(-1)
    flat_e = den2.reshape(-1) if den2 is not None else None
    for i in range(flat_o.size):
        n, d = int(flat_n[i]), int(flat_d[i])
        if flat_e is not None:
            d *= int(flat_e[i])
        if d == 0:
            flat_o[i] = math.nan
        elif flat_e is not None:
            v = sqrt_ratio_float(n * n, d)
            flat_o[i] = -v if n < 0 else v
        else:
            flat_o[i] = ratio_float(n, d)
    return out


def _large(x: np.ndarray) -> bool:
    return x.dtype == object or bool(np.abs(x).max(initial=0) > _TWO53)


def ratio_floats(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den elementwise for integer arrays, NaN where den = 0.

    Correctly rounded for stacks of up to :data:`EXACT_ELEMENTS` values, and
    whenever both operands are exact in float64 (|x| ≤ 2^53: IEEE division
    rounds correctly); larger stacks of larger integers round each exact
    operand once, then divide.

    >>> ratio_floats(np.array([1, 3]), np.array([3, 0])).tolist()
    [0.3333333333333333, nan]
    """
    num, den = np.asarray(num), np.asarray(den)
    if num.size <= EXACT_ELEMENTS and (_large(num) or _large(den)):
        return _exact_elementwise(num, den, None)
    n, d = num.astype(np.float64), den.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(d == 0, math.nan, n / np.where(d == 0, 1.0, d))


def sqrt_ratio_floats(num: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """num / √(a·b) elementwise for integer arrays (a, b ≥ 0), NaN where a·b = 0.

    Correctly rounded (as sign(num)·√(num² / (a·b)), in Python integers) for
    stacks of up to :data:`EXACT_ELEMENTS` values; larger stacks round the
    exact integer operands once each.

    >>> sqrt_ratio_floats(np.array([-2]), np.array([244140626]), np.array([244140626])).tolist() == [-1 / 122070313]
    True
    """
    num, a, b = np.asarray(num), np.asarray(a), np.asarray(b)
    if num.size <= EXACT_ELEMENTS:
        return _exact_elementwise(num, a, b)
    n = num.astype(np.float64)
    d = a.astype(np.float64) * b.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(d == 0, math.nan, n / np.sqrt(np.where(d == 0, 1.0, d)))


