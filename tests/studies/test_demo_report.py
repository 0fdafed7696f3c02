"""`clfeval demo report`: the synthetic example and its numbers, checked against scikit-learn and by hand."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score

from clfeval.studies._demo_report import LABELS, POSITIVE, SIZES, demo_report, tickets
from tests._helpers.clihelp import run


@pytest.fixture(scope="module")
def demo():
    return demo_report()


def test_the_example_is_seeded_and_has_every_part():
    t = tickets()
    assert {k: len(v["gold"]) for k, v in t.items()} == SIZES
    for split in ("dev", "test"):
        assert set(t[split]) == {"gold", "A", "B"}
        for p in (t[split]["A"], t[split]["B"]):
            assert np.allclose(p.sum(axis=1), 1) and p.min() >= 0
    again = tickets()
    assert all(np.array_equal(t["test"][k], again["test"][k]) for k in ("gold", "A", "B"))
    assert set(np.unique(t["train"]["gold"])) == set(LABELS)


def test_the_numbers_agree_with_scikit_learn(demo):
    t = tickets()
    gold = t["test"]["gold"]
    pred_a = np.array(LABELS)[t["test"]["A"].argmax(axis=1)]
    pred_b = np.array(LABELS)[t["test"]["B"].argmax(axis=1)]
    assert demo.report.accuracy == pytest.approx(accuracy_score(gold, pred_a))
    assert demo.report.macro.f1 == pytest.approx(f1_score(gold, pred_a, average="macro"))
    assert demo.report_b.macro.f1 == pytest.approx(f1_score(gold, pred_b, average="macro"))
    ovr = roc_auc_score(gold, t["test"]["A"], multi_class="ovr", average="macro", labels=list(LABELS))
    assert demo.report.ranking.to_dict()["macro"]["roc_auc"] == pytest.approx(ovr)
    assert demo.comparison.delta == pytest.approx(f1_score(gold, pred_a, average="macro")
                                                  - f1_score(gold, pred_b, average="macro"))
    # the baselines follow the training labels: majority = the most frequent training queue
    train = t["train"]["gold"]
    values, counts = np.unique(train, return_counts=True)
    assert demo.report.baselines.majority.label == values[counts.argmax()]
    assert demo.report.baselines.majority.accuracy == pytest.approx(np.mean(gold == values[counts.argmax()]))


def test_the_cut_is_the_best_f1_on_the_development_tickets(demo):
    t = tickets()
    k = LABELS.index(POSITIVE)
    y, s = t["dev"]["gold"] == POSITIVE, t["dev"]["A"][:, k]
    best = max(np.unique(s), key=lambda c: (f1_score(y, s >= c), c))  # ties: the highest cut
    assert demo.threshold.threshold == pytest.approx(best)
    yt, st = t["test"]["gold"] == POSITIVE, t["test"]["A"][:, k]
    assert demo.threshold.test.f1 == pytest.approx(f1_score(yt, st >= best))
    assert demo.threshold.default.f1 == pytest.approx(f1_score(yt, st >= 0.5))


def test_calibration_of_the_top_label(demo):
    t = tickets()
    p = t["test"]["A"]
    conf = p.max(axis=1)
    right = np.array(LABELS)[p.argmax(axis=1)] == t["test"]["gold"]
    bins = np.minimum((conf * 10).astype(int), 9)
    ece = sum(abs(right[bins == b].mean() - conf[bins == b].mean()) * np.mean(bins == b)
              for b in range(10) if np.any(bins == b))
    assert demo.calibration.ece == pytest.approx(ece)
    assert conf.mean() > right.mean()  # the example's A is overconfident, as its conclusion says
    assert "overconfident" in demo.conclusion


def test_every_format_shows_every_part_and_says_synthetic():
    text = run("demo", "report")
    data = run("demo", "report", "--format", "json")
    assert text.code == data.code == 0
    d = json.loads(data.out)
    assert d["synthetic"] is True and d["mode"] == "report"
    assert {"report", "report_b", "threshold", "calibration", "comparison", "signature"} <= set(d)
    assert d["signature"]["seed"] == 0 and d["signature"]["synthetic"] is True
    for needle in ("Synthetic data", "Confusion matrix", "Baselines", "Ranking", "Threshold for 'bug'",
                   "Calibration of top-label confidence", "paired bootstrap", "What the example shows"):
        assert needle in text.out, needle
    assert f"{d['report']['accuracy']:.4f}" in text.out
