"""Argument checks shared by the library: each normalises one kind of argument
once, so that the numerical code after it can trust its inputs."""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Mapping, MappingView, Set
from typing import Any

import numpy as np

from clfeval.errors import DataError, UsageError

__all__ = [
    "check_zero_division",
    "zero_division_name",
    "check_beta",
    "check_rng",
    "check_finite",
    "check_positive",
    "check_positive_int",
    "check_samples",
    "check_probability",
    "check_sequence",
    "MAX_SAMPLES",
    "MEMORY_BUDGET",
    "MIN_MEMORY",
    "parse_memory",
]

MAX_SAMPLES = 1_000_000
"""Most resampling replicates (``samples``, ``--samples``): every replicate's value is kept for the intervals."""

MEMORY_BUDGET = 1 << 30
#: The smallest budget accepted (tests force spilling with it).
MIN_MEMORY = 1 << 12
"""Bytes that the arrays one result keeps (replicate values, count tables) may take: 1 GiB."""


def check_zero_division(value: Any, *, option: str = "zero_division") -> float:
    """Normalise the 0/0 policy to a float: ``0.0``, ``1.0`` or ``nan``.

    Accepts ``0``, ``1``, ``"0"``, ``"1"``, ``"nan"``, ``float("nan")`` and
    ``np.nan``; anything else is a :class:`~clfeval.errors.UsageError`.

    >>> check_zero_division("nan")
    nan
    >>> check_zero_division(1)
    1.0
    """
    if isinstance(value, str):
        text = value.strip().lower()
        if text in {"0", "0.0"}:
            return 0.0
        if text in {"1", "1.0"}:
            return 1.0
        if text == "nan":
            return math.nan
    elif isinstance(value, numbers.Real) and not isinstance(value, bool):
        v = float(value)
        if math.isnan(v) or v in (0.0, 1.0):
            return v
    raise UsageError(lambda name: f"option {name} must be 0, 1 or nan (the value a 0/0 ratio takes); got {value!r}.",
                     params=[option])


def zero_division_name(value: float) -> str:
    """The policy as it is printed: ``"0"``, ``"1"`` or ``"nan"``."""
    if math.isnan(value):
        return "nan"
    return "1" if value == 1.0 else "0"


def check_beta(value: Any, *, option: str = "beta") -> float:
    """F-beta's beta: a finite number > 0.

    >>> check_beta(2)
    2.0
    """
    try:
        beta = float(value)
    except (TypeError, ValueError):
        beta = math.nan
    if not math.isfinite(beta) or beta <= 0:
        raise UsageError(lambda name: f"option {name} must be a positive number (F-beta weighs recall beta times as "
                                      f"much as precision); got {value!r}.", params=[option])
    return beta


def check_finite(value: Any, *, option: str) -> float:
    """A finite number (a threshold, a cost, ...).

    >>> check_finite("0.5", option="threshold")
    0.5
    """
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if not math.isfinite(v):
        raise UsageError(lambda name: f"option {name} must be a finite number; got {value!r}.", params=[option])
    return v


def check_positive(value: Any, *, option: str, what: str = "") -> float:
    """A finite real number > 0 (a duration, a smoothing constant, ...); NaN, ±inf, booleans, text and other
    objects refused.

    The one check of such an argument: ``x > 0`` alone lets infinity through, and its negation ``x <= 0`` lets
    NaN through (every comparison with NaN is false). ``what`` says what the number is, in the message.

    >>> check_positive(2.5, option="deadline")
    2.5
    >>> check_positive(float("nan"), option="deadline", what="seconds")
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option deadline (seconds) must be a finite number > 0; got nan.
    """
    real = isinstance(value, numbers.Real) and not isinstance(value, bool)
    v = float(value) if real else math.nan
    if not (math.isfinite(v) and v > 0):
        about = f" ({what})" if what else ""
        raise UsageError(lambda name: f"option {name}{about} must be a finite number > 0; got {value!r}.",
                         params=[option])
    return v


def check_positive_int(value: Any, *, option: str, minimum: int = 1) -> int:
    """An integer ≥ ``minimum`` (booleans refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise UsageError(lambda name: f"option {name} must be an integer >= {minimum}; got {value!r}.", params=[option])
    if value < minimum:
        raise UsageError(lambda name: f"option {name} must be an integer >= {minimum}; got {value}.", params=[option])
    return int(value)


def check_samples(value: Any, *, option: str = "samples") -> int:
    """A number of resampling replicates: an integer from 1 to :data:`MAX_SAMPLES`."""
    n = check_positive_int(value, option=option)
    if n > MAX_SAMPLES:
        raise UsageError(lambda name: f"option {name} must be at most {MAX_SAMPLES:,}; got {n:,}. Every replicate's "
                                      f"value is kept for the confidence intervals, so memory and time grow with "
                                      f"their number; the default 10,000 already gives p-values down to 1e-4 and "
                                      f"stable 95% intervals.", params=[option])
    return n


def check_probability(value: Any, *, option: str, open_interval: bool = True) -> float:
    """A number strictly between 0 and 1 (or within [0, 1] when not ``open_interval``)."""
    try:
        p = float(value)
    except (TypeError, ValueError):
        p = math.nan
    ok = (0.0 < p < 1.0) if open_interval else (0.0 <= p <= 1.0)
    if not ok:
        bounds = "strictly between 0 and 1" if open_interval else "between 0 and 1"
        raise UsageError(lambda name: f"option {name} must be a number {bounds}; got {value!r}.", params=[option])
    return p


def check_range(value: Any, low: float, high: float, *, option: str, what: str, noun: str = "number") -> float:
    """A number within [low, high], refused otherwise with the valid range in words (before any work).

    >>> check_range("0.05", 1e-6, 0.5, option="alpha", what="the level of the test")
    0.05
    """
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if not (low <= v <= high):
        raise UsageError(lambda name: f"option {name} ({what}) must be a {noun} from {low:g} to {high:g}; got "
                                      f"{value!r}.", params=[option])
    return v


def check_rng(seed: Any) -> np.random.Generator:
    """A :class:`numpy.random.Generator` from a seed (int) or a generator.

    Library code never draws from global state: the caller passes ``seed``.

    >>> bool(check_rng(0).integers(10) == check_rng(0).integers(10))
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise UsageError(lambda name: f"option {name} must be a non-negative integer (or a numpy Generator); got "
                                      f"{seed!r}.", params=["seed"])
    return np.random.default_rng(int(seed))


_UNITS = {"": 1, "b": 1, "k": 10 ** 3, "kb": 10 ** 3, "kib": 1 << 10, "m": 10 ** 6, "mb": 10 ** 6, "mib": 1 << 20,
          "g": 10 ** 9, "gb": 10 ** 9, "gib": 1 << 30, "t": 10 ** 12, "tb": 10 ** 12, "tib": 1 << 40}


def parse_memory(value: Any) -> int:
    """A memory budget in bytes from an int or text such as ``"1GB"``, ``"512MiB"``, ``"2e9"``.

    >>> parse_memory("1GB"), parse_memory("512MiB"), parse_memory(4096)
    (1000000000, 536870912, 4096)
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        n = int(value)
    else:
        m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][0-9]+)?)\s*([A-Za-z]*)\s*", str(value))
        unit = m.group(2).lower() if m else None
        if m is None or unit not in _UNITS:
            raise UsageError(lambda name: f"option {name} must be a size such as 1GB, 512MB or 2GiB (bytes without a "
                                          f"unit); got {value!r}.", params=["memory"])
        n = int(float(m.group(1)) * _UNITS[unit])
    if n < MIN_MEMORY:
        raise UsageError(lambda name: f"option {name} must be at least {MIN_MEMORY} bytes; got {n}.",
                         params=["memory"])
    return n


def check_sequence(values: Any, name: str, what: str = "labels") -> None:
    """Refuse what is not a sequence in a fixed order: text, a generator (read once, no length), a set or a mapping
    (no order: the items of two columns are paired by position).

    >>> check_sequence({"b", "a"}, "gold")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.DataError: gold must be a sequence of labels (list, tuple, numpy or pyarrow array); got set, whose
    items have no order, while the items of the columns are paired by position.
    """
    if isinstance(values, (Set, Mapping, MappingView)):
        raise DataError(f"{name} must be a sequence of {what} (list, tuple, numpy or pyarrow array); got "
                        f"{type(values).__name__}, whose items have no order, while the items of the columns are "
                        f"paired by position.")
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise DataError(f"{name} must be a sequence of {what} (list, tuple, numpy or pyarrow array); got "
                        f"{type(values).__name__}.")
    if getattr(values, "shape", None) == ():
        raise DataError(f"{name} must be one-dimensional (one label per item); got an array of shape ().")
