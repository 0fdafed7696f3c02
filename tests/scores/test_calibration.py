"""Calibration: reliability bins, ECE, MCE, Brier and log loss against direct computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import brier_score_loss, log_loss

from clfeval import reliability
from clfeval.errors import DataError, UsageError
from clfeval.scores._calibration import EPS


def direct(conf, outcome, assign, nbins):
    """ECE and MCE by looping over bins, from a bin assignment function."""
    groups = {}
    for c, o in zip(conf, outcome, strict=True):
        groups.setdefault(assign(c), []).append((c, o))
    ece, mce = 0.0, 0.0
    for items in groups.values():
        mc = sum(c for c, _ in items) / len(items)
        mo = sum(o for _, o in items) / len(items)
        ece += len(items) / len(conf) * abs(mo - mc)
        mce = max(mce, abs(mo - mc))
    return ece, mce, groups


@pytest.mark.parametrize("nbins", [1, 5, 10, 15])
def test_binary_uniform_bins_against_direct_computation(nbins):
    rng = np.random.default_rng(nbins)
    p = rng.random(500) ** 2
    p[:4] = [0.0, 1.0, 0.5, 0.1]  # edges: 1.0 goes to the last bin
    y = rng.random(500) < p * 0.8 + 0.1
    c = reliability(y, p, positive=True, bins=nbins)
    ece, mce, groups = direct(p, y.astype(float), lambda v: min(math.floor(v * nbins), nbins - 1), nbins)
    assert c.ece == pytest.approx(ece, abs=1e-12) and c.mce == pytest.approx(mce, abs=1e-12)
    assert [b.count for b in c.bins] == [len(groups.get(k, [])) for k in range(nbins)]
    assert c.brier == pytest.approx(np.mean((p - y) ** 2), abs=1e-12)
    assert c.brier == pytest.approx(brier_score_loss(y, p), abs=1e-12)
    assert c.log_loss == pytest.approx(log_loss(y, p), rel=1e-12)  # sklearn also clips at the float64 epsilon
    assert c.bins[-1].upper == 1.0 and c.bins[0].lower == 0.0


def test_quantile_bins_hold_equal_mass_and_keep_ties_together():
    rng = np.random.default_rng(1)
    p = rng.random(1000)
    y = rng.random(1000) < p
    c = reliability(y, p, positive=True, bins=10, strategy="quantile")
    assert [b.count for b in c.bins] == [100] * 10
    q = np.round(p, 1)  # heavy ties: at most 11 distinct values
    c = reliability(y, q, positive=True, bins=20, strategy="quantile")
    assert sum(b.count for b in c.bins) == 1000 and c.n_bins <= 11
    lowers = np.array([b.lower for b in c.bins])

    def assign(v):
        return int(np.searchsorted(lowers, v, side="right") - 1)

    ece, mce, groups = direct(q, y.astype(float), assign, c.n_bins)
    assert len(groups) == c.n_bins  # every value lands in one bin and no bin is empty
    assert c.ece == pytest.approx(ece, abs=1e-12) and c.mce == pytest.approx(mce, abs=1e-12)


def test_top_label_multiclass():
    rng = np.random.default_rng(2)
    labels = ["a", "b", "c"]
    P = rng.dirichlet([2, 1, 1], 300)
    gold = np.array(labels)[[rng.choice(3, p=row) for row in P]]
    c = reliability(gold, P, labels=labels, bins=10)
    top = P.argmax(axis=1)
    conf = P.max(axis=1)
    correct = (np.array(labels)[top] == gold).astype(float)
    ece, mce, _ = direct(conf, correct, lambda v: min(math.floor(v * 10), 9), 10)
    assert c.kind == "top-label" and c.ece == pytest.approx(ece, abs=1e-12) and c.mce == pytest.approx(mce, abs=1e-12)
    onehot = (gold[:, None] == np.array(labels)[None, :]).astype(float)
    assert c.brier == pytest.approx(np.mean(np.sum((P - onehot) ** 2, axis=1)), abs=1e-12)
    assert c.log_loss == pytest.approx(log_loss(gold, P, labels=labels), rel=1e-12)


def test_confident_miss_is_finite():
    c = reliability([1, 0], [0.0, 0.0], positive=1)
    assert c.log_loss == pytest.approx(-math.log(EPS) / 2) and math.isfinite(c.log_loss)
    assert "machine epsilon" in " ".join(c.notes)


def test_perfect_ranking_badly_calibrated():
    c = reliability([1, 1, 0, 0], [0.6, 0.6, 0.4, 0.4], positive=1)
    assert c.roc_auc == 1.0 and c.ece == pytest.approx(0.4) and c.mce == pytest.approx(0.4)


def test_refusals():
    with pytest.raises(DataError, match=r"1\.5 at item 1.*not probabilities|outside \[0, 1\]"):
        reliability([1, 0], [0.5, 1.5], positive=1)
    with pytest.raises(DataError, match="outside"):
        reliability([1, 0], [-2.0, 3.0], positive=1)
    with pytest.raises(DataError, match="sum to"):
        reliability(["a", "b"], {"a": [0.5, 0.5], "b": [0.2, 0.2]})
    with pytest.raises(DataError, match="'z'"):
        reliability([1, 0], [0.5, 0.5], positive="z")
    with pytest.raises(UsageError):
        reliability([1, 0], [0.5, 0.5], positive=1, strategy="kmeans")
    with pytest.raises(UsageError):
        reliability([1, 0], [0.5, 0.5], positive=1, bins=0)


def test_top_label_names_the_missing_column_of_a_class():
    # issue 35 (L07): class b occurs in gold but has no probability column; its row sums to 0.7 because of it
    import pandas as pd

    import clfeval

    with pytest.raises(DataError, match=r"expected columns 'p:b'") as err:
        clfeval.calibration(pd.DataFrame({"gold": ["a", "b"], "p:a": [0.7, 0.4]}), probs_prefix="p:")
    assert "sum to" not in str(err.value)
    with pytest.raises(DataError, match=r"gold labels 'b' have no score column"):
        reliability(["a", "b"], {"a": np.array([0.7, 0.4])})
