"""Per-label values keyed by the labels as the input gave them: ``r.per_class[1]`` for integer labels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from clfeval.core._labels import label_str
from clfeval.core._results import FrozenDict

__all__ = ["LabelMap"]


class LabelMap(FrozenDict):
    """Per-label values keyed by the labels as the input gave them (``1`` stays an int; 1 and 1.0 are one label).

    A label's string form finds it too (``m["1"]`` as ``m[1]``: a command-line option is text; one lookup in an
    index of the string forms, built once), and two maps are equal when they agree label by label under
    :func:`label_str`. ``to_dict`` of a result writes the string forms (JSON keys are text). Like every result's
    data it is read-only (:class:`~clfeval.core._results.FrozenDict`).

    >>> m = LabelMap.of([1, 2], [{"f1": 0.5}, {"f1": 1.0}])
    >>> m[1], m["2"], 1.0 in m, list(m)
    ({'f1': 0.5}, {'f1': 1.0}, True, [1, 2])
    >>> m == {"1": {"f1": 0.5}, "2": {"f1": 1.0}}
    True
    """

    @classmethod
    def of(cls, labels: Sequence[Any], values: Sequence[Any]) -> LabelMap:
        return cls(zip((x.item() if isinstance(x, np.generic) else x for x in labels), values, strict=False))

    def key_of(self, key: Any) -> Any:
        """The key as stored (the label as given) of a label or its string form; KeyError when absent."""
        try:
            if dict.__contains__(self, key):
                return key
        except TypeError:  # an unhashable key
            raise KeyError(key) from None
        index = self.__dict__.get("_by_text")
        if index is None:  # read-only, so the index of the string forms stays true (the first key of a text wins)
            index = {}
            for k in dict.keys(self):
                index.setdefault(label_str(k), k)
            self.__dict__["_by_text"] = index
        try:
            return index[label_str(key)]
        except KeyError:
            raise KeyError(key) from None

    def __getitem__(self, key: Any) -> Any:
        return dict.__getitem__(self, self.key_of(key))

    def __contains__(self, key: Any) -> bool:
        try:
            self.key_of(key)
        except KeyError:
            return False
        return True

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def as_text(self) -> dict[str, Any]:
        """The same values keyed by each label's string form (the JSON keys)."""
        return {label_str(k): v for k, v in self.items()}

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, dict):
            return self.as_text() == {label_str(k): v for k, v in other.items()}
        return NotImplemented

    def __ne__(self, other: Any) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

