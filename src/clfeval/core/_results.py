"""Small pieces shared by the results of the decision modules (DeLong, CV comparison, power, curve bands).

* :func:`number` — a float for ``to_dict()``: the value, or NaN when undefined (the caller records why);
* :func:`signature` — the signature block: library versions, settings, and
  the seed and number of replicates when the result is random.

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

__all__ = ["number", "numbers_list", "signature", "versions", "seed_value"]


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
