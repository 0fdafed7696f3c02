"""Reading a ranking's JSON back into its typed parts, and laying the parts out as JSON.

``to_dict()`` of every part is :func:`as_json` of its fields, in their order (the order of the JSON keys);
``of(d)`` reads a part from its JSON (``to_dict()``, or ``clfeval rank --format json`` parsed, where an
undefined number is ``null``), checking each value's type: what ``clfeval plot cd RESULT.json`` draws from.

>>> number(None), number(3), text("a"), names(["a", "b"])
(nan, 3.0, 'a', ('a', 'b'))
>>> number("x")
Traceback (most recent call last):
...
TypeError: expected a number; got 'x'
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["as_json", "fields_json", "number", "integer", "text", "optional_text", "flag", "items", "mapping", "names",
           "name_groups"]


def as_json(value: object) -> object:
    """Plain JSON data of a part's value: a part by its fields (in order), tuples as lists, mappings as dicts."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return fields_json(value)
    if isinstance(value, (tuple, list)):
        return [as_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: as_json(v) for k, v in value.items()}
    return value


def fields_json(part: DataclassInstance) -> dict[str, object]:
    """The JSON object of a part: its fields in order (:func:`as_json` of each)."""
    return {f.name: as_json(getattr(part, f.name)) for f in dataclasses.fields(part)}


def number(x: object) -> float:
    """A number of the JSON as a float; ``null`` (an undefined number) is NaN."""
    if x is None:
        return math.nan
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"expected a number; got {x!r}")
    return float(x)


def integer(x: object) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError(f"expected an integer; got {x!r}")
    return x


def text(x: object) -> str:
    if not isinstance(x, str):
        raise TypeError(f"expected a text; got {x!r}")
    return x


def optional_text(x: object) -> str | None:
    return None if x is None else text(x)


def flag(x: object) -> bool:
    if not isinstance(x, bool):
        raise TypeError(f"expected true or false; got {x!r}")
    return x


def items(x: object) -> Sequence[object]:
    """A JSON list (``null``: empty)."""
    if x is None:
        return ()
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"expected a list; got {x!r}")
    return x


def mapping(x: object) -> Mapping[str, object]:
    if not isinstance(x, Mapping):
        raise TypeError(f"expected an object; got {x!r}")
    return x


def names(x: object) -> tuple[str, ...]:
    return tuple(text(v) for v in items(x))


def name_groups(x: object) -> tuple[tuple[str, ...], ...]:
    return tuple(names(g) for g in items(x))
