"""Item reads of a result's typed parts, kept for one release (issue 36).

Before issue 36 a result's parts were dicts shaped like its JSON (``r.friedman["chi2"]``); they are typed, frozen
dataclasses now (``r.friedman.chi2``). :class:`ItemReads` keeps the old reads working for one release: ``part[key]``
gives what the part's JSON holds under ``key`` (a plain copy) and warns (:class:`DeprecationWarning`), naming the
field to read instead. It is no mapping: a part has no keys, length or iteration, only its fields.

>>> import warnings
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Part(ItemReads):
...     chi2: float
...     def to_dict(self) -> dict[str, object]:
...         return {"chi2": self.chi2}
>>> with warnings.catch_warnings(record=True) as seen:
...     warnings.simplefilter("always")
...     value = Part(3.0)["chi2"]
>>> value, seen[0].category.__name__
(3.0, 'DeprecationWarning')
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["ItemReads"]


class ItemReads:
    """Mixin of a typed part with ``to_dict()``: ``part[key]`` is its JSON's value under ``key``, deprecated."""

    __slots__ = ()

    def to_dict(self) -> Mapping[str, object]:
        raise NotImplementedError

    def __getitem__(self, key: str) -> object:
        d = self.to_dict()
        if key not in d:
            raise KeyError(key)
        import warnings

        name = type(self).__name__
        warnings.warn(f"{name}[{key!r}] is deprecated and will be removed in the next release: the parts of a result "
                      f"are typed now; read the field ({name}.{key})", DeprecationWarning, stacklevel=2)
        return d[key]
