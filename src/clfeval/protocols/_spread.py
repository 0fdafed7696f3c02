"""The spread of a metric over folds: mean, sample standard deviation (ddof = 1), min, max."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Spread", "spread"]


@dataclass(frozen=True)
class Spread:
    """Mean, sample standard deviation (ddof = 1), min and max of a metric over folds.

    ``n`` counts the folds where the metric was defined; ``std`` is NaN when
    fewer than two were.
    """

    mean: float
    std: float
    min: float
    max: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "std": self.std, "min": self.min, "max": self.max, "n": self.n}


def spread(values: Sequence[float]) -> Spread:
    """The spread of a metric over folds: mean, sample std (ddof = 1), min, max.

    s = sqrt(Σ (x_i − x̄)² / (n − 1)), undefined for n < 2. NaN values
    (a metric undefined in a fold) are left out, and ``n`` says how many
    remained.

    Examples
    --------
    Mission §10 example 10: five folds scoring 82, 80, 84, 81 and 83 %:

    >>> s = spread([0.82, 0.80, 0.84, 0.81, 0.83])
    >>> round(s.mean, 10), round(s.std, 6), s.min, s.max
    (0.82, 0.015811, 0.8, 0.84)
    """
    x = np.asarray(values, dtype=np.float64)
    x = x[~np.isnan(x)]
    if x.size == 0:
        return Spread(math.nan, math.nan, math.nan, math.nan, 0)
    std = float(np.std(x, ddof=1)) if x.size > 1 else math.nan
    return Spread(float(np.mean(x)), std, float(x.min()), float(x.max()), int(x.size))
