"""Per-label values keyed by the labels as the input gave them: ``r.per_class[1]`` for integer labels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from clfeval.core._labels import label_str

__all__ = ["LabelMap"]


class LabelMap(dict[Any, Any]):
    """Per-label values keyed by the labels as the input gave them (``1`` stays an int; 1 and 1.0 are one label).

    A label's string form finds it too (``m["1"]`` as ``m[1]``: a command-line option is text), and two maps
    are equal when they agree label by label under :func:`label_str`. ``to_dict`` of a result writes the
    string forms (JSON keys are text).

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
        text = label_str(key)
        for k in dict.keys(self):
            if label_str(k) == text:
                return k
        raise KeyError(key)

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

    __hash__ = None
