"""What every typed part of a report shares: built from the JSON it lays out, read-only, that JSON again.

A :class:`Block` is a frozen dataclass whose fields are the keys of one JSON object of the report (``ci``,
``ranking``, a per-class row, ...). :meth:`Block.of` builds it from that object: nested objects become their
typed parts (each class names them in ``_nested``), other lists and dicts read-only
(:class:`~clfeval.core.FrozenList`, :class:`~clfeval.core.FrozenDict`). :meth:`Block.to_dict` gives the object
back, its keys in the order it was built with (``json_keys``), so the report's JSON does not move. Item reads
(``part["key"]``) still work for one release and warn (:class:`~clfeval.core.ItemReads`).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Pair(Block):
...     low: float = 0.0
...     high: float = 0.0
>>> p = Pair.of({"high": 2.0, "low": 1.0})
>>> p.low, p.to_dict()
(1.0, {'high': 2.0, 'low': 1.0})
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TypeAlias, TypeVar

from clfeval.core import FrozenDict, FrozenList, ItemReads, freeze

__all__ = ["Block", "Json", "Bound", "plain", "blocks", "block_map"]

#: A JSON value as a report part holds it (objects and arrays read-only): for the few places whose content is
#: genuinely open (a figure's curve points, a signature).
Json: TypeAlias = "None | bool | int | float | str | Sequence[Json] | Mapping[str, Json]"
#: An interval ``[low, high]`` (an end None or NaN where it is undefined).
Bound: TypeAlias = Sequence[float | None]

B = TypeVar("B", bound="Block")


def plain(value: object) -> object:
    """A typed part, or read-only data holding typed parts, as plain JSON data (dicts and lists, copies)."""
    if isinstance(value, Block):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Block(ItemReads):
    """One typed, read-only JSON object of a report.

    Attributes
    ----------
    json_keys : tuple of str
        The JSON's keys, in its order (empty: every field that is not None, in the order of the fields).
    """

    json_keys: tuple[str, ...] = field(default=(), repr=False, compare=False, kw_only=True)

    #: How a nested value of a key becomes its typed part (keys not named here: read-only data, frozen).
    _nested: ClassVar[Mapping[str, Callable[[object], object]]] = {}
    #: Whether keys without a field are kept (in the field ``more``, a read-only mapping) rather than refused:
    #: a part whose keys the metric catalogue decides (a new ranking measure adds one).
    _open: ClassVar[bool] = False

    @classmethod
    def of(cls: type[B], data: object) -> B:
        """The part of a JSON object (a part of this type is kept as it is); a key without a field is refused."""
        if isinstance(data, cls):
            return data
        if isinstance(data, Block):
            data = data.to_dict()
        if not isinstance(data, Mapping):
            raise TypeError(f"{cls.__name__} is made of a JSON object (a mapping), not {type(data).__name__}")
        names = {f.name for f in dataclasses.fields(cls)} - {"json_keys", "more"}
        extra = [k for k in data if k not in names]
        if extra and not cls._open:
            raise TypeError(f"{cls.__name__} has no field for the key(s) {', '.join(map(repr, extra))}")
        nested = cls._nested
        values = {k: (nested[k](v) if k in nested and v is not None else freeze(v)) for k, v in data.items()
                  if k in names}
        if extra:
            values["more"] = FrozenDict({k: freeze(data[k]) for k in extra})
        return cls(**values, json_keys=tuple(data))

    def to_dict(self) -> dict[str, object]:
        """The JSON object (a plain, mutable copy)."""
        keys = self.json_keys or tuple(f.name for f in dataclasses.fields(self)
                                  if f.name != "json_keys" and getattr(self, f.name) is not None)
        fields = self.__dataclass_fields__
        more: Mapping[str, object] = getattr(self, "more", {}) or {}
        return {k: plain(getattr(self, k) if k in fields else more[k]) for k in keys}


def blocks(cls: type[B]) -> Callable[[object], object]:
    """A converter of a JSON array of objects into a tuple of ``cls`` parts."""
    def convert(value: object) -> object:
        assert isinstance(value, (list, tuple))
        return tuple(cls.of(v) for v in value)
    return convert


def block_map(cls: type[B]) -> Callable[[object], object]:
    """A converter of a JSON object of objects (by label, by metric) into a read-only mapping of ``cls`` parts."""
    def convert(value: object) -> object:
        assert isinstance(value, Mapping)
        return FrozenDict({k: cls.of(v) for k, v in value.items()})
    return convert


def frozen_list(value: object) -> FrozenList:
    """A read-only list."""
    out = freeze(list(value) if isinstance(value, (list, tuple)) else value)
    assert isinstance(out, FrozenList)
    return out
