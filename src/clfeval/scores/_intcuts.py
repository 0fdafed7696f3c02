"""Cuts on integer scores, exactly.

A ranking of an integer score column holds :func:`clfeval.scores._columns.order_keys` (float64 keys in the
integers' order, one key per integer: the one mechanism the report's rankings use), so integers beyond 2^53 are
ranked exactly. A cut is a value the user reads: :class:`IntegerRanking` wraps such a ranking so that every cut
that goes in or comes out is a score value — a chosen cut is the integer itself (a JSON integer), and a float cut
``t`` counts the items with ``x >= t`` exactly (``x >= ceil(t)`` for integers x).
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from clfeval.core import sweep_of_points
from clfeval.errors import DataError
from clfeval.scores._columns import as_scores, is_integer_column, order_keys

__all__ = ["check_kinds", "valued", "IntegerKeys", "integer_keys", "key_of_cut", "value_of_key", "float_cut",
           "IntegerRanking", "FloatRanking"]

_FINITE_BITS = 0x7FF0000000000000


class IntegerKeys(np.ndarray):
    """Order keys of an integer score column (a marker: a ranking filled with them is an :class:`IntegerRanking`)."""


def integer_keys(values: Any, **kw: Any) -> np.ndarray:
    """A score column checked as :func:`~clfeval.scores._columns.as_scores` does (``kw``: name, n, where); an
    integer column as :class:`IntegerKeys` (its order keys), any other as float64 scores."""
    s = as_scores(values, order_only=True, **kw)
    return s.view(IntegerKeys) if is_integer_column(values) else s


def key_of_cut(t: Any) -> float:
    """The key ``k`` with ``x >= t`` ⇔ ``order_keys(x) >= k`` for every integer x (``t`` an int or a finite float).

    >>> bool(key_of_cut(2.5) == order_keys(np.array([3]))[0]), bool(key_of_cut(-1) == order_keys(np.array([-1]))[0])
    (True, True)
    """
    c = t if isinstance(t, (int, np.integer)) and not isinstance(t, bool) else math.ceil(t)
    c = int(c)
    if c >= _FINITE_BITS:
        return math.inf
    if c <= -_FINITE_BITS:
        return -math.inf
    return float(order_keys(np.array([c], dtype=np.int64))[0])


def value_of_key(k: float) -> int:
    """The integer whose key is ``k`` (the inverse of :func:`~clfeval.scores._columns.order_keys`).

    >>> value_of_key(order_keys(np.array([2**62 + 1]))[0]), value_of_key(order_keys(np.array([-7]))[0])
    (4611686018427387905, -7)
    """
    bits = int(np.array([abs(float(k))], dtype=np.float64).view(np.int64)[0])
    return -bits if k < 0 else bits


def float_cut(t: Any) -> float:
    """The float cut for float scores: ``t`` itself, or for an integer the least float ``>= t`` (so that
    ``x >= float_cut(t)`` ⇔ ``x >= t`` for every float x).

    >>> float_cut(2**53 + 1) == 2.0**53 + 2, float_cut(0.25)
    (True, 0.25)
    """
    if isinstance(t, (int, np.integer)) and not isinstance(t, bool):
        f = float(t)
        return float(np.nextafter(f, math.inf)) if f < int(t) else f
    return float(t)


class _Wrapped:
    def __init__(self, rk: Any) -> None:
        self.rk = rk

    @property
    def n(self) -> int:
        return int(self.rk.n)

    @property
    def n_positive(self) -> int:
        return int(self.rk.n_positive)

    @property
    def n_negative(self) -> int:
        return int(self.rk.n_negative)

    def summary(self) -> Any:
        return self.rk.summary()


class FloatRanking(_Wrapped):
    """A ranking of float scores that accepts integer cuts (chosen on integer development scores) exactly."""

    def counts_at(self, t: Any) -> Any:
        return self.rk.counts_at(float_cut(t))

    def best_cut(self, objective: Any) -> Any:
        return self.rk.best_cut(objective)


class IntegerRanking(_Wrapped):
    """A ranking of integer scores held as order keys, whose cuts go in and come out as score values."""

    def counts_at(self, t: Any) -> Any:
        return self.rk.counts_at(key_of_cut(t))

    def best_cut(self, objective: Any) -> Any:
        c = self.rk.best_cut(objective)
        row = None if c.row is None else dict(c.row, threshold=value_of_key(c.row["threshold"]))
        top = None if c.top_precision is None else (c.top_precision[0], value_of_key(c.top_precision[1]))
        return dataclasses.replace(c, row=row, top_precision=top)

    def summary(self) -> Any:
        return _IntegerSummary(self.rk.summary())


class _IntegerSummary:
    """A ranking summary whose sweep curves show score values (the keys decoded), all else as the summary's."""

    def __init__(self, s: Any) -> None:
        self._s = s

    def __getattr__(self, name: str) -> Any:
        return getattr(self._s, name)

    def sweep_curves(self, *, beta: float = 1.0) -> dict[str, Any] | None:
        points = getattr(self._s, "points", None)
        if points is None:
            return None
        thr = np.array([float(value_of_key(k)) for k in np.asarray(points[0], dtype=np.float64)])
        return sweep_of_points((thr, *points[1:]), self._s.n_positive, beta=beta)


def check_kinds(kinds: set[bool]) -> bool:
    """Whether a ranking's batches held integer keys (``kinds``: True per integer batch, False per float batch);
    both kinds in one ranking cannot be ordered together and are refused."""
    if len(kinds) > 1:
        raise DataError("the score column holds integers in some files (or row groups) and non-integer numbers in "
                        "others; integers are ranked exactly as integers, so one ranking cannot mix them. Give the "
                        "scores one type (for example floats throughout).")
    return kinds == {True}


def valued(test: Any, dev: Any = None) -> tuple[Any, Any]:
    """The ``store`` of filled test and development rankings, each wrapped so that cuts are score values: an
    integer ranking as :class:`IntegerRanking`, a float ranking as :class:`FloatRanking` when the other is integer
    (a cut chosen on integers applied exactly), else as it is."""
    ints = [getattr(x, "integers", False) for x in (test, dev) if x is not None]

    def wrap(x: Any) -> Any:
        if x is None:
            return None
        if getattr(x, "integers", False):
            return IntegerRanking(x.store)
        return FloatRanking(x.store) if any(ints) else x.store

    return wrap(test), wrap(dev)
