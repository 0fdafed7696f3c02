"""Read-only all the way down (issue 36): every field of a result, and every field and item nested in it, refuses
to be assigned. A part is a frozen dataclass (assignment raises ``FrozenInstanceError``), a collection a tuple or a
read-only mapping / list (item assignment raises ``TypeError``); a plain ``list``, ``dict`` or ``set`` anywhere in
a result is a failure."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest

from clfeval.core import FrozenDict, FrozenList

_SENTINEL = object()


def writable_places(value: object, path: str = "result") -> list[str]:
    """Every place in ``value`` that accepted an assignment (each is tried, on the value itself), or holds a
    mutable collection."""
    bad: list[str] = []
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            try:
                setattr(value, f.name, _SENTINEL)
            except (dataclasses.FrozenInstanceError, AttributeError, TypeError):
                pass
            else:
                bad.append(f"{path}.{f.name}")
            bad += writable_places(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, tuple):
        for i, v in enumerate(value):
            bad += writable_places(v, f"{path}[{i}]")
    elif isinstance(value, FrozenList):
        with pytest.raises(TypeError):
            value.append(_SENTINEL)
        for i, v in enumerate(value):
            bad += writable_places(v, f"{path}[{i}]")
    elif isinstance(value, Mapping):
        if isinstance(value, dict) and not isinstance(value, FrozenDict):
            bad.append(f"{path} (a dict)")
        try:
            value["__probe__"] = _SENTINEL  # type: ignore[index]
        except TypeError:
            pass
        else:
            bad.append(f"{path}[...]")
        for k, v in value.items():
            bad += writable_places(v, f"{path}[{k!r}]")
    elif isinstance(value, (list, dict, set, bytearray)):
        bad.append(f"{path} (a {type(value).__name__})")
    return bad
