"""Issue 18, item 5: calibration bins said and offered — ``--edges sklearn`` is scikit-learn's calibration_curve.

scikit-learn (the version pinned by the test extra) bins right-closed on its float edges and drops empty
bins; clfeval's own bins are left-closed, [k/B, (k+1)/B). The two differ exactly on values that fall on an
edge, which the data here are made of on purpose.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.calibration import calibration_curve

from clfeval.scores._calibration import reliability
from tests._helpers.clihelp import run


def _data(seed: int, n: int = 400):
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(n), 1)  # many values on the edges 0.1, 0.2, ... (and 0.30000000000000004 ≠ 0.3)
    p[:5] = [0.0, 1.0, 0.3, 0.7, 0.5]
    y = rng.random(n) < p
    return y.astype(int), p


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("bins", [3, 5, 10, 20])
@pytest.mark.parametrize("seed", [0, 1])
def test_edges_sklearn_equals_calibration_curve(strategy, bins, seed):
    y, p = _data(seed)
    true, pred = calibration_curve(y, p, n_bins=bins, strategy=strategy)
    c = reliability(y, p, positive=1, bins=bins, strategy=strategy, edges="sklearn")
    assert [r.accuracy for r in c.bins] == pytest.approx(true.tolist(), abs=1e-12)
    assert [r.confidence for r in c.bins] == pytest.approx(pred.tolist(), abs=1e-12)
    assert all(r.count > 0 for r in c.bins)


def test_the_two_rules_differ_on_the_edges():
    y = np.array([1, 0, 1, 0])
    p = np.array([0.2, 0.2, 0.6, 0.8])  # 0.2 and 0.6 lie on uniform edges of 5 bins
    ours = reliability(y, p, positive=1, bins=5, edges="clfeval")
    theirs = reliability(y, p, positive=1, bins=5, edges="sklearn")
    # clfeval: 0.2 → bin [0.2, 0.4), 0.6 → [0.6, 0.8), 0.8 → [0.8, 1.0]; empty bins kept (5 rows)
    assert [r.count for r in ours.bins] == [0, 2, 0, 1, 1]
    # sklearn: 0.2 → (0, 0.2] (first bin), 0.6 → (0.4, 0.6], 0.8 → (0.6, 0.8]; empty bins dropped
    assert [r.count for r in theirs.bins] == [2, 1, 1]
    assert [r.upper for r in theirs.bins] == pytest.approx([0.2, 0.6, 0.8])
    assert theirs.to_dict()["edges"] == "sklearn" and "right-closed" in theirs.signature["binning"]


def test_cli_edges_option(tmp_path):
    y, p = _data(3, 200)
    path = tmp_path / "probs.csv"
    path.write_text("gold,p\n" + "".join(f"{a},{b!r}\n" for a, b in zip(y.tolist(), p.tolist(), strict=True)))
    res = run("calibration", path, "--prob", "p", "--positive", "1", "--edges", "sklearn", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    true, pred = calibration_curve(y, p, n_bins=10)
    assert [r["accuracy"] for r in d["bins"]] == pytest.approx(true.tolist(), abs=1e-12)
    assert [r["confidence"] for r in d["bins"]] == pytest.approx(pred.tolist(), abs=1e-12)
    assert "right-closed" in " ".join(run("calibration", "--help").out.split())
    bad = run("calibration", path, "--prob", "p", "--positive", "1", "--edges", "numpy")
    assert bad.code == 2 and "--edges" in bad.err and "Traceback" not in bad.err
