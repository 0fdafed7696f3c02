"""Streamed calibration sums are bit-identical under any batch order and size, and exact.

Oracle: the same measures computed item by item with :class:`fractions.Fraction` (every float64 is a
dyadic rational, so the exact sum of the per-item values, divided by N and rounded once, is what an exact
accumulator must give).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from clfeval.scores._calibration import EPS, Calibrator

N = 997


def _data(seed: int = 11):
    rng = np.random.default_rng(seed)
    # values of very different magnitudes, so that a float sum's result depends on its order
    p = np.concatenate([rng.random(N - 7), [1e-300, 1.0, 0.0, 1 - 1e-16, 0.5, 0.1, 0.3]])
    y = np.where(rng.random(N) < p, "pos", "neg")
    return y, p


def _run(y, p, splits, *, strategy="uniform"):
    cal = Calibrator(positive="pos", bins=10, strategy=strategy)
    for idx in splits:
        cal.update(y[idx], p[idx])
    return cal.result()


def _splits(order, sizes):
    out, i, k = [], 0, 0
    while i < len(order):
        step = sizes[k % len(sizes)]
        out.append(order[i:i + step])
        i, k = i + step, k + 1
    return out


def _key(r):
    return (r.ece, r.mce, r.brier, r.log_loss, [(row.count, row.confidence, row.gap) for row in r.bins])


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_any_batch_order_and_size_gives_the_same_bits(strategy):
    y, p = _data()
    rng = np.random.default_rng(0)
    ref = _run(y, p, [np.arange(N)], strategy=strategy)
    runs = [_splits(np.arange(N), [1]), _splits(np.arange(N), [7]), _splits(np.arange(N)[::-1], [13, 1, 200])]
    for _ in range(3):
        runs.append(_splits(rng.permutation(N), [int(rng.integers(1, 300))]))
    for splits in runs:
        got = _run(y, p, splits, strategy=strategy)
        assert _key(got) == _key(ref)


def test_the_sums_are_exact():
    y, p = _data()
    r = _run(y, p, _splits(np.random.default_rng(3).permutation(N), [37]))
    outcome = (y == "pos")
    brier = sum(Fraction(float(v)) for v in (p - outcome) ** 2) / N
    assert r.brier == float(brier)
    assert r.brier == pytest.approx(math.fsum((p - outcome) ** 2) / N, rel=1e-15)  # fsum: correctly rounded sum
    clipped = np.clip(p, EPS, 1 - EPS)
    logs = np.where(outcome, np.log(clipped), np.log1p(-clipped))
    assert r.log_loss == float(-sum(Fraction(float(v)) for v in logs) / N)
    # ECE and MCE: per uniform bin, |hits − Σ confidence| exactly
    idx = np.minimum(np.floor(p * 10).astype(int), 9)
    gaps, mce = Fraction(0), Fraction(-1)
    for b in range(10):
        members = np.flatnonzero(idx == b)
        if members.size:
            dev = abs(int(outcome[members].sum()) - sum(Fraction(float(v)) for v in p[members]))
            gaps += dev
            mce = max(mce, dev / members.size)
    assert r.ece == float(gaps / N)
    assert r.mce == float(mce)


def test_top_label_calibration_is_order_free():
    rng = np.random.default_rng(5)
    raw = rng.random((300, 3)) ** 3
    probs = raw / raw.sum(axis=1, keepdims=True)
    gold = np.array(["a", "b", "c"])[rng.integers(0, 3, 300)]

    def run(splits):
        cal = Calibrator(bins=5)
        for s in splits:
            cal.update(gold[s], {lab: probs[s, j] for j, lab in enumerate("abc")})
        return cal.result()

    ref = run([np.arange(300)])
    for sizes in ([1], [7], [299, 1]):
        got = run(_splits(rng.permutation(300), sizes))
        assert _key(got) == _key(ref)
    onehot = gold[:, None] == np.array(list("abc"))
    assert ref.brier == float(sum(Fraction(float(v)) for v in ((probs - onehot) ** 2).sum(axis=1)) / 300)


def test_cli_calibration_of_a_directory_equals_the_file_and_the_library(tmp_path):
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    from tests._helpers.clihelp import run

    y, p = _data()
    order = np.random.default_rng(8).permutation(N)
    d = tmp_path / "parts"
    d.mkdir()
    for k, chunk in enumerate(np.array_split(order, 3)):
        (d / f"part-{k}.csv").write_text("gold,prob\n" + "".join(f"{y[i]},{float(p[i])!r}\n" for i in chunk))
    pq.write_table(pa.table({"gold": y.tolist(), "prob": p}), tmp_path / "all.parquet")
    got = []
    for path in (d, tmp_path / "all.parquet", str(d / "part-*.csv")):
        res = run("calibration", str(path), "--prob", "prob", "--positive", "pos", "--format", "json")
        assert res.code == 0, res.err
        got.append(json.loads(res.out))
    ref = _run(y, p, [np.arange(N)])
    for out in got:
        assert (out["ece"], out["mce"], out["brier"], out["log_loss"]) == (ref.ece, ref.mce, ref.brier, ref.log_loss)
