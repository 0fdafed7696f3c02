"""Small pieces shared by the results of the decision modules (DeLong, CV comparison, power, curve bands).

* :func:`number` — a float for ``to_dict()``: the value, or NaN when undefined (the caller records why);
* :func:`signature` — the signature block: library versions, settings, and
  the seed and number of replicates when the result is random;
* :func:`freeze` / :func:`thaw` — a result's plain data made read-only (a result is frozen all the way down:
  ``r.per_class["a"]["recall"] = 5`` raises), and a plain, mutable copy of it for ``to_dict()``.

One undefined convention for every result: a value that is undefined is NaN in
``to_dict()`` (an infinity too: it is undefined) and listed with its reason; JSON
text shows it as ``null`` (:func:`clfeval.render.to_json`). ``None`` means absent
(a part the result does not have), never undefined.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from clfeval.core._signature import build_signature, versions

__all__ = ["number", "numbers_list", "signature", "versions", "seed_value", "FrozenDict", "FrozenList", "freeze",
           "freeze_fields", "thaw"]


def number(x: Any) -> float | None:
    """``float(x)`` when finite, else NaN (undefined); ``None`` (absent) stays ``None``.

    >>> number(0.5), number(float("nan")), number(np.inf), number(None)
    (0.5, nan, nan, None)
    """
    if x is None:
        return None
    v = float(x)
    return v if math.isfinite(v) else math.nan


def numbers_list(values: Any) -> list[float]:
    """A 1-D array as a list, non-finite values as NaN (undefined; null in JSON text)."""
    arr = np.asarray(values, dtype=np.float64).ravel()
    return [float(v) if math.isfinite(v) else math.nan for v in arr.tolist()]


def seed_value(seed: Any) -> int | None:
    """The seed as recorded: an int, or None when a generator was passed."""
    return int(seed) if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) else None


def signature(kind: str, settings: dict[str, Any], *, seed: Any = None, samples: int | None = None,
              random: bool = False) -> dict[str, Any]:
    """The signature of a result (:func:`clfeval.core._signature.build_signature`): what produced it (``result``),
    the settings that shaped the numbers at the top level as in every other signature, and the seed and samples
    when random.

    >>> s = signature("delong", {"level": 0.95})
    >>> list(s), sorted(s["versions"])
    (['version', 'result', 'level', 'versions'], ['clfeval', 'numpy', 'pyarrow', 'python', 'scipy'])
    >>> signature("bands", {}, seed=3, samples=100, random=True)["seed"]
    3
    """
    return build_signature({"result": kind, **dict(settings)}, seed=seed if random else None,
                           samples=samples if random else None, random=random)


def _read_only(self: Any, *args: Any, **kwargs: Any) -> Any:
    kind = "list" if isinstance(self, list) else "dict"  # a LabelMap is a result's dict too
    raise TypeError(f"a result's {kind} is read-only: results are frozen (to_dict() gives a copy to change)")


class FrozenDict(dict[Any, Any]):
    """A dict that cannot change: a result's nested data (reads, equality, ``json.dumps`` and ``repr`` as a dict).

    >>> d = FrozenDict({"recall": 0.5})
    >>> d["recall"], d == {"recall": 0.5}
    (0.5, True)
    >>> d["recall"] = 5
    Traceback (most recent call last):
    ...
    TypeError: a result's dict is read-only: results are frozen (to_dict() gives a copy to change)
    """

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _read_only

    def __reduce__(self) -> Any:  # pickled and copied through the constructor, never item by item
        return type(self), (dict(self),)

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: Any) -> FrozenDict:
        return self


class FrozenList(list[Any]):
    """A list that cannot change (reads, equality with a list, ``json.dumps`` and ``repr`` as a list)."""

    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = sort = reverse = _read_only
    __iadd__ = __imul__ = _read_only

    def __reduce__(self) -> Any:
        return type(self), (list(self),)

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: Any) -> FrozenList:
        return self


#: Values kept as they are inside frozen data (a list of only these is copied at once).
_SCALARS = frozenset({int, float, str, bool, type(None)})


def freeze(value: Any) -> Any:
    """``value`` with every dict and list in it (all the way down) read-only: :class:`FrozenDict`,
    :class:`FrozenList` (copies; tuples stay tuples, frozen parts stay as they are). Other values are kept.

    >>> f = freeze({"a": [1, {"b": 2}]})
    >>> type(f["a"]).__name__, type(f["a"][1]).__name__, f == {"a": [1, {"b": 2}]}
    ('FrozenList', 'FrozenDict', True)
    """
    if isinstance(value, (FrozenDict, FrozenList)):
        return value
    if type(value) is dict:
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if type(value) is list:  # a row of numbers (a K×K confusion matrix's) without a Python call per number
        return FrozenList(value if _SCALARS.issuperset(map(type, value)) else [freeze(v) for v in value])
    if type(value) is tuple:
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A plain, mutable copy of frozen data (dicts and lists all the way down): what ``to_dict()`` gives.

    >>> thaw(freeze({"a": [1, {"b": 2}]}))
    {'a': [1, {'b': 2}]}
    """
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list):
        return list(value) if _SCALARS.issuperset(map(type, value)) else [thaw(v) for v in value]
    if type(value) is tuple:
        return tuple(thaw(v) for v in value)
    return value


def freeze_fields(result: Any, names: tuple[str, ...]) -> None:
    """The fields ``names`` of a frozen dataclass made read-only all the way down (:func:`freeze`), from its
    ``__post_init__``; its ``to_dict()`` then returns :func:`thaw` of what it lays out."""
    for name in names:
        value = getattr(result, name)
        if isinstance(value, (dict, list)) and not isinstance(value, (FrozenDict, FrozenList)):
            object.__setattr__(result, name, freeze(value))
