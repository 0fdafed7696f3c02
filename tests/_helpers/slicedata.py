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


def grid_tables(cells):
    """The count tables of columns a, b and their cross from {(a, b): (trials, successes)} (items = trials), as the
    slice search's lattice counts them: a hand-built input of the found and parent rules."""
    import numpy as np

    from clfeval.core._latticecount import SliceProportions

    def sp(cols, keyf):
        acc = {}
        for (a, b), (n, s) in cells.items():
            k = keyf(a, b)
            acc[k] = [x + y for x, y in zip(acc.get(k, [0, 0]), [n, s], strict=True)]
        keys = sorted(acc)
        n = np.array([acc[k][0] for k in keys])
        return SliceProportions(cols, tuple(keys), n, n, np.array([acc[k][1] for k in keys]))
    return [sp(("a",), lambda a, b: (a,)), sp(("b",), lambda a, b: (b,)), sp(("a", "b"), lambda a, b: (a, b))]
