"""Critical values of the exact one-sided binomial (sign) test under McNemar's exact test, found by a search
that ends by construction.

For d discordant items the test rejects "no difference" when the exact p-value P(Bin(d, ½) ≥ x) is < a
(a tail equal to a does not reject). The critical value c_d = min{c : P(Bin(d, ½) ≥ c) < a} is found by
widening a bracket around a normal guess and halving it, so the number of steps is bounded whatever
floating-point rounding does; where a tail is within 10⁻⁹ of a, integer tails Σ C(d, k) compared with
a·2^d (a as the binary fraction it is) decide, so α = 1/16 and 4 items all won give p = 1/16: no rejection.

>>> critical_values(np.array([4, 5, 7]), 1 / 16).tolist()
[5, 5, 7]
"""

from __future__ import annotations

import math

import numpy as np

from clfeval.significance import _binomial as binomial

__all__ = ["critical_values"]


def _ndtri(x: float) -> float:
    from scipy.special import ndtri

    return float(ndtri(x))


def critical_values(d: np.ndarray, a: float) -> np.ndarray:
    """c_d = min{c : P(Bin(d, ½) ≥ c) < a}: the test rejects when its exact p-value is < a (a tail equal to
    a does not reject).

    Terminates by construction: a bracket around a normal guess (continuity-corrected) is widened until
    P(X ≥ lo) ≥ a > P(X ≥ hi) (at worst lo = 0, where the tail is 1, and hi = d + 1, where it is 0),
    then halved until hi = lo + 1; where the floating-point tail is within 10⁻⁹ of a, the integer tails
    Σ C(d, k) decide (:func:`_exact_critical`).
    """
    d = np.asarray(d, dtype=np.int64)
    z = -float(_ndtri(a))  # the upper a-quantile: finite for every a the options allow
    guess = np.floor(d / 2 + 0.5 + z * np.sqrt(d) / 2) + 1
    hi = np.clip(np.nan_to_num(guess, nan=0.0, posinf=0.0), 0, d + 1).astype(np.int64)
    lo = np.maximum(hi - 1, 0)

    def tail(c: np.ndarray, dd: np.ndarray) -> np.ndarray:  # P(X ≥ c)
        return binomial.sf(c - 1, dd, 0.5)

    step = np.ones_like(d)
    while True:  # widen: lo falls to 0 at worst, hi rises to d + 1 at worst
        bad_lo = (lo > 0) & (tail(lo, d) < a)
        bad_hi = (hi <= d) & (tail(hi, d) >= a)
        if not (bad_lo.any() or bad_hi.any()):
            break
        lo = np.where(bad_lo, np.maximum(lo - step, 0), lo)
        hi = np.where(bad_hi, np.minimum(hi + step, d + 1), hi)
        step = np.where(bad_lo | bad_hi, 2 * step, step)
    hi = np.maximum(hi, lo + 1)
    while True:  # halve: hi - lo shrinks every round
        open_ = hi - lo > 1
        if not open_.any():
            break
        mid = (lo + hi) // 2
        below = tail(mid, d) < a
        hi = np.where(open_ & below, mid, hi)
        lo = np.where(open_ & ~below, mid, lo)
    c = hi
    near = np.flatnonzero((np.abs(tail(c, d) - a) <= 1e-9 * a) | (np.abs(tail(c - 1, d) - a) <= 1e-9 * a))
    for i in near:
        if d[i] <= _EXACT_UP_TO:
            c[i] = _exact_critical(int(d[i]), a, int(c[i]))
    return c


_EXACT_UP_TO = 20_000  # tails within 1e-9 of a are decided by integer sums up to this d (beyond, no tail can be)


def _exact_critical(d: int, a: float, c: int) -> int:
    """min{c : Σ_{k ≥ c} C(d, k) < a·2^d}, exactly (a as the binary fraction it is), from a guess ``c``.

    The integer tails fall as c rises, so the two monotone walks below end (each at most d + 1 steps).
    """
    from fractions import Fraction

    bound = Fraction(a) * (1 << d)

    def tail(k: int) -> int:
        return sum(math.comb(d, j) for j in range(max(k, 0), d + 1))

    while c <= d and tail(c) >= bound:
        c += 1
    while c >= 1 and tail(c - 1) < bound:
        c -= 1
    return c
