"""Data with a planted weak slice, shared by the slice tests."""

from __future__ import annotations

import numpy as np
import pyarrow as pa


def planted(n: int = 20_000, seed: int = 1) -> pa.Table:
    """Binary data over 20 sources; source 's00' (5 % of the rows) has recall 0.6 where the others have 0.8."""
    rng = np.random.default_rng(seed)
    src = np.array([f"s{i:02d}" for i in range(20)])[np.arange(n) % 20]
    gold = rng.random(n) < 0.4
    recall = np.where(src == "s00", 0.6, 0.8)
    pred = np.where(gold, rng.random(n) < recall, rng.random(n) < 0.1)
    return pa.table({"gold": np.where(gold, "pos", "neg"), "pred": np.where(pred, "pos", "neg"), "source": src,
                     "length": rng.gamma(2.0, 100.0, n)})
