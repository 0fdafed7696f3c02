"""Reading the plain data the threshold code computes (and its JSON) into typed parts, value by value checked.

>>> real(3), real(0.5), real_or_none(None), whole(4), word("f1"), words(["a", "b"])
(3, 0.5, None, 4, 'f1', ('a', 'b'))
>>> real("x")
Traceback (most recent call last):
...
TypeError: expected a number; got 'x'
"""

from __future__ import annotations

import math
from collections.abc import Mapping

__all__ = ["real", "real_or_none", "whole", "whole_or_none", "word", "word_or_none", "words", "table", "reals",
           "flag"]


def real(x: object) -> float:
    """A number as it is (an int stays an int: integer scores keep integer cuts); ``null`` is NaN."""
    if x is None:
        return math.nan
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"expected a number; got {x!r}")
    return x


def real_or_none(x: object) -> float | None:
    """A number, or None where the JSON holds ``null``."""
    return None if x is None else real(x)


def whole(x: object) -> int:
    """A whole number."""
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError(f"expected a whole number; got {x!r}")
    return x


def whole_or_none(x: object) -> int | None:
    return None if x is None else whole(x)


def flag(x: object) -> bool:
    if not isinstance(x, bool):
        raise TypeError(f"expected true or false; got {x!r}")
    return x


def word(x: object) -> str:
    """A string."""
    if not isinstance(x, str):
        raise TypeError(f"expected text; got {x!r}")
    return x


def word_or_none(x: object) -> str | None:
    return None if x is None else word(x)


def words(x: object) -> tuple[str, ...]:
    """A list of strings as a tuple."""
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"expected a list of text; got {x!r}")
    return tuple(word(v) for v in x)


def reals(x: object) -> tuple[float, ...]:
    """A list of numbers as a tuple (``null`` items NaN)."""
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"expected a list of numbers; got {x!r}")
    return tuple(real(v) for v in x)


def table(x: object) -> Mapping[str, object]:
    """A JSON object (a mapping with string keys)."""
    if not isinstance(x, Mapping):
        raise TypeError(f"expected an object; got {x!r}")
    return {word(k): v for k, v in x.items()}
