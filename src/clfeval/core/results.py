"""Small pieces shared by the results of the decision modules (DeLong, CV comparison, power, curve bands).

* :func:`number` — a float for JSON: finite, or ``None`` (the caller records why);
* :func:`signature` — the signature block: library versions, settings, and
  the seed and number of replicates when the result is random.

Results built with these keep NaN and infinities out of ``to_dict()``: every
value that is undefined is ``None`` and listed with its reason.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from clfeval.core.signature import build_signature, versions

__all__ = ["number", "numbers_list", "signature", "versions", "seed_value"]


def number(x: Any) -> float | None:
    """``float(x)`` when finite, else ``None``.

    >>> number(0.5), number(float("nan")), number(np.inf)
    (0.5, None, None)
    """
    if x is None:
        return None
    v = float(x)
    return v if math.isfinite(v) else None


def numbers_list(values: Any) -> list[float | None]:
    """A 1-D array as a JSON list, non-finite values as ``None``."""
    arr = np.asarray(values, dtype=np.float64).ravel()
    return [float(v) if math.isfinite(v) else None for v in arr.tolist()]


def seed_value(seed: Any) -> int | None:
    """The seed as recorded: an int, or None when a generator was passed."""
    return int(seed) if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) else None


def signature(kind: str, settings: dict[str, Any], *, seed: Any = None, samples: int | None = None,
              random: bool = False) -> dict[str, Any]:
    """The signature of a result (:func:`clfeval.core.signature.build_signature`): what produced it (``result``),
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
