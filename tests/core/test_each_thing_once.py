"""Work done once: a report encodes its gold labels once, compare_many encodes them once and scores each system once."""

from __future__ import annotations

import numpy as np
import pytest

import clfeval
from clfeval.core import _labels


@pytest.fixture
def gold_encodings(monkeypatch):
    """Counts how often each watched column is turned into an arrow array (the first step of every encoding)."""
    seen: list[int] = []
    watched: dict[int, str] = {}
    real = _labels._to_arrow

    def counting(values, name):
        if id(values) in watched:
            seen.append(id(values))
        return real(values, name)

    monkeypatch.setattr(_labels, "_to_arrow", counting)

    def watch(column):
        watched[id(column)] = "x"
        return lambda: seen.count(id(column))

    return watch


def test_report_with_a_cut_and_a_ranking_encodes_gold_once(gold_encodings):
    gold = ["spam", "ham", "spam", "ham", "spam"] * 4
    scores = [0.9, 0.2, 0.7, 0.6, 0.4] * 4
    count = gold_encodings(gold)
    r = clfeval.report(gold, scores=scores, threshold=0.5, positive="spam")
    assert count() == 1
    assert r.per_class["spam"].tp == 8 and r.ranking.to_dict()["n_positive"] == 12
    # the same numbers as from predictions made by hand and the ranking on its own
    pred = ["spam" if s >= 0.5 else "ham" for s in scores]
    assert clfeval.report(gold, pred, positive="spam").per_class == r.per_class
    assert r.ranking.to_dict()["roc_auc"] == clfeval.ranking(gold, scores, positive="spam").roc_auc


def test_report_with_predictions_and_one_vs_rest_scores_encodes_gold_once(gold_encodings):
    gold = ["a", "b", "c", "a", "b", "c"]
    pred = ["a", "b", "b", "a", "c", "c"]
    scores = {"a": [0.8, 0.1, 0.1, 0.7, 0.2, 0.1], "b": [0.1, 0.8, 0.5, 0.2, 0.3, 0.2],
              "c": [0.1, 0.1, 0.4, 0.1, 0.5, 0.7]}
    count = gold_encodings(gold)
    r = clfeval.report(gold, pred, scores=scores)
    assert count() == 1
    assert r.ranking.to_dict()["macro"] == clfeval.ranking_ovr(gold, scores).macro.to_dict()


def test_compare_many_encodes_gold_once_and_scores_each_system_once(gold_encodings, monkeypatch):
    rng = np.random.default_rng(0)
    gold = list(rng.integers(0, 3, 60))
    systems = {name: list(np.where(rng.random(60) < acc, gold, rng.integers(0, 3, 60)))
               for name, acc in (("x", 0.9), ("y", 0.7), ("z", 0.5), ("w", 0.6))}
    count = gold_encodings(gold)
    from clfeval.stats import _resample

    observed = []
    real = _resample.CountEngine.observed
    monkeypatch.setattr(_resample.CountEngine, "observed", lambda self: observed.append(1) or real(self))
    r = clfeval.compare_many(gold, systems, metric="macro_f1", samples=200, seed=1)
    assert count() == 1 and len(r.comparisons) == 6
    assert observed == []  # each system was scored once, before the pairs; no pair scores them again
    for c in r.comparisons:  # and the pairs are the pairwise comparisons
        alone = clfeval.compare(gold, systems[c.names[0]], systems[c.names[1]], metric="macro_f1", samples=200,
                                seed=1, labels=[0, 1, 2])
        assert (c.a, c.b, c.p_value) == (alone.a, alone.b, alone.p_value)
