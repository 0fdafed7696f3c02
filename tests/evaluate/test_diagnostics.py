"""Diagnostics: hardest class, most confused pair, top confusions, misclassified items.

Hand-built tables for ties and edge cases; a property test against a naive
scan of the confusion matrix and scikit-learn's per-class F1.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from sklearn.metrics import confusion_matrix, f1_score

import clfeval
from clfeval import DataError
from clfeval.evaluate._diagnostics import hardest_classes, misclassified, most_confused_pair, top_confusions
from tests._helpers._strategies import single_label_cases

pytestmark = pytest.mark.filterwarnings("ignore:A single label was found")

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def items(matrix: list[list[int]], labels: list) -> tuple[list, list]:
    gold, pred = [], []
    for i, row in enumerate(matrix):
        for j, c in enumerate(row):
            gold += [labels[i]] * c
            pred += [labels[j]] * c
    return gold, pred


# --- hardest class -------------------------------------------------------------

def test_hardest_class_tie_goes_to_label_order() -> None:
    # a and c both have F1 0.5; b has F1 1
    gold, pred = items([[1, 0, 1], [0, 2, 0], [1, 0, 1]], ["a", "b", "c"])
    r = clfeval.report(gold, pred)
    assert r.per_class["a"].f1 == r.per_class["c"].f1 == 0.5
    assert r.hardest_class == "a"
    assert r.diagnostics.hardest_classes == ["a", "c"]
    r = clfeval.report(gold, pred, labels=["c", "b", "a"])
    assert r.hardest_class == "c"
    assert r.diagnostics.hardest_classes == ["c", "a"]


def test_hardest_class_skips_undefined_f1_under_nan() -> None:
    # "z" occurs nowhere: its F1 is 0/0
    gold, pred = ["a", "a", "b"], ["a", "b", "b"]
    r = clfeval.report(gold, pred, labels=["a", "b", "z"], zero_division="nan")
    assert math.isnan(r.per_class["z"].f1)
    assert r.diagnostics.hardest_classes == ["a", "b"]  # both F1 2/3; z is left out
    # under the default policy the undefined F1 counts as 0 and "z" is the hardest
    assert clfeval.report(gold, pred, labels=["a", "b", "z"]).hardest_class == "z"
    assert hardest_classes(np.array([math.nan, math.nan]), ["x", "y"]) == []


def test_perfect_classifier_every_class_ties() -> None:
    r = clfeval.report(["b", "a", "c"], ["b", "a", "c"])
    assert r.diagnostics.hardest_classes == ["a", "b", "c"]
    assert r.hardest_class == "a"


# --- most confused pair ------------------------------------------------------------

def test_most_confused_pair_tie_goes_to_the_first_pair_in_label_order() -> None:
    # {a, c}: 2 + 1 = 3 errors; {b, c}: 0 + 3 = 3 errors; {a, b}: 1
    cm = [[5, 1, 2], [0, 5, 3], [1, 0, 5]]
    gold, pred = items(cm, ["a", "b", "c"])
    r = clfeval.report(gold, pred)
    assert r.most_confused_pair.to_dict() == {"classes": ["a", "c"], "errors": 3, "a_as_b": 2, "b_as_a": 1}
    r = clfeval.report(gold, pred, labels=["c", "b", "a"])
    # in this order the pairs are (c, b), (c, a), (b, a): {c, b} comes first
    assert r.most_confused_pair.to_dict() == {"classes": ["c", "b"], "errors": 3, "a_as_b": 0, "b_as_a": 3}


def test_most_confused_pair_is_unordered_and_keeps_both_directions() -> None:
    cm = np.array([[0, 4, 0], [1, 0, 0], [0, 0, 9]])
    assert most_confused_pair(cm, ["x", "y", "z"]) == {"classes": ["x", "y"], "errors": 5, "a_as_b": 4, "b_as_a": 1}
    # one direction only still counts; the pair beats a larger one-way cell elsewhere only by its sum
    cm = np.array([[0, 3, 0], [3, 0, 0], [5, 0, 0]])
    assert most_confused_pair(cm, ["x", "y", "z"])["classes"] == ["x", "y"]  # 6 errors vs {x, z}: 5


def test_no_errors() -> None:
    r = clfeval.report(["a", "b"], ["a", "b"])
    assert r.most_confused_pair is None
    assert [c.to_dict() for c in r.diagnostics.top_confusions] == []
    r = clfeval.report(["a", "b"], ["a", "b"], show_errors=5)
    assert r.errors.to_dict() == {"total": 0, "shown": 0, "items": []}
    # a single class: no pair at all
    assert most_confused_pair(np.array([[3]]), ["only"]) is None
    assert clfeval.report(["x"] * 3, ["x"] * 3).most_confused_pair is None


# --- top confusions ------------------------------------------------------------------

def test_top_confusions_are_directional_largest_first_ties_in_row_order() -> None:
    cm = np.array([[9, 2, 4], [4, 9, 0], [1, 2, 9]])
    labels = ["a", "b", "c"]
    top = top_confusions(cm, labels, 3)
    assert top == [{"gold": "a", "pred": "c", "count": 4}, {"gold": "b", "pred": "a", "count": 4},
                   {"gold": "a", "pred": "b", "count": 2}]
    # more requested than there are non-zero off-diagonal cells: only the errors
    assert len(top_confusions(cm, labels, 100)) == 5
    assert top_confusions(cm, labels, 0) == []
    # the diagonal never appears, however large
    assert all(t["gold"] != t["pred"] for t in top_confusions(cm, labels, 100))


def test_report_top_confusions_default_five() -> None:
    gold, pred = items([[0, 1, 2, 3], [4, 0, 5, 6], [7, 8, 0, 9], [1, 1, 1, 0]], ["a", "b", "c", "d"])
    top = [c.to_dict() for c in clfeval.report(gold, pred).diagnostics.top_confusions]
    assert [t["count"] for t in top] == [9, 8, 7, 6, 5]
    assert top[0] == {"gold": "c", "pred": "d", "count": 9}


# --- property: naive scans ----------------------------------------------------------------

@SETTINGS
@given(case=single_label_cases(max_k=12))
def test_diagnostics_match_a_naive_scan(case) -> None:
    r = clfeval.report(case.gold, case.pred)
    back = {str(v) if not isinstance(v, str) else v: v for v in case.vocab}
    labels = [back[s] for s in r.labels]
    cm = confusion_matrix(case.gold, case.pred, labels=labels)
    f1 = f1_score(case.gold, case.pred, labels=labels, average=None, zero_division=0)
    assert r.diagnostics.hardest_classes == [r.labels[i] for i in range(len(labels)) if f1[i] == f1.min()]
    k = len(labels)
    pairs = [(cm[i, j] + cm[j, i], i, j) for i in range(k) for j in range(i + 1, k)]
    best = max((p[0] for p in pairs), default=0)
    if best == 0:
        assert r.most_confused_pair is None
    else:
        _, i, j = next(p for p in pairs if p[0] == best)  # first in label order
        assert r.most_confused_pair.to_dict() == {"classes": [r.labels[i], r.labels[j]], "errors": int(best),
                                        "a_as_b": int(cm[i, j]), "b_as_a": int(cm[j, i])}
    cells = sorted((-cm[i, j], i, j) for i in range(k) for j in range(k) if i != j and cm[i, j] > 0)[:5]
    assert [c.to_dict() for c in r.diagnostics.top_confusions] == [{"gold": r.labels[i], "pred": r.labels[j],
                                                "count": int(-c)} for c, i, j in cells]


# --- misclassified items -----------------------------------------------------------------

def test_misclassified_items_with_ids_in_input_order() -> None:
    gold = ["a", "b", "a", "c", "b"]
    pred = ["a", "a", "c", "c", "c"]
    ids = ["d1", "d2", "d3", "d4", "d5"]
    r = clfeval.report(gold, pred, ids=ids, show_errors=2)
    assert r.errors.to_dict() == {"total": 3, "shown": 2, "items": [{"id": "d2", "gold": "b", "pred": "a"},
                                                          {"id": "d3", "gold": "a", "pred": "c"}]}
    assert r.to_dict()["errors"] == r.errors.to_dict()
    r = clfeval.report(gold, pred, ids=ids, show_errors=10)
    assert [e.id for e in r.errors.items] == ["d2", "d3", "d5"]


def test_misclassified_items_without_ids_use_positions() -> None:
    r = clfeval.report([1, 2, 3, 1], [1, 3, 3, 2], show_errors=5)
    assert r.errors.to_dict() == {"total": 2, "shown": 2, "items": [{"id": 1, "gold": "2", "pred": "3"},
                                                          {"id": 3, "gold": "1", "pred": "2"}]}
    # not asked for: no errors block
    assert clfeval.report([1, 2], [2, 1]).errors is None
    assert "errors" not in clfeval.report([1, 2], [2, 1]).to_dict()


def test_misclassified_ids_of_any_kind() -> None:
    r = clfeval.report(["a", "b"], ["b", "b"], ids=np.array([10, 20]), show_errors=1)
    assert [e.to_dict() for e in r.errors.items] == [{"id": 10, "gold": "a", "pred": "b"}]
    assert type(r.errors.items[0].id) is int
    out = misclassified(np.array([0, 1]), np.array([1, 1]), ["a", "b"], [2.5, 3.5], 5)
    assert out["items"] == [{"id": "2.5", "gold": "a", "pred": "b"}]


def test_misclassified_multilabel_items() -> None:
    r = clfeval.report(["a|b", "a", ""], ["a", "a", "c"], multilabel=True, ids=["x", "y", "z"], show_errors=5)
    assert r.errors.to_dict() == {"total": 2, "shown": 2, "items": [{"id": "x", "gold": ["a", "b"], "pred": ["a"]},
                                                          {"id": "z", "gold": [], "pred": ["c"]}]}


def test_bad_ids_are_refused() -> None:
    with pytest.raises(DataError, match="'d1'"):
        clfeval.report(["a", "b"], ["a", "b"], ids=["d1", "d1"])
    with pytest.raises(DataError, match="2 ids for 3 items"):
        clfeval.report(["a", "b", "c"], ["a", "b", "c"], ids=["d1", "d2"])
    with pytest.raises(DataError, match="item 1"):
        clfeval.report(["a", "b"], ["a", "b"], ids=["d1", None])
