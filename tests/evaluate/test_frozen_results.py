"""Issue 35 (P24): a result is frozen all the way down. Assigning into a report's per-class table, its averages,
baselines, binary block, notes or optional parts raises, and nothing the report says changes; ``to_dict()`` is a
plain, mutable copy with the same JSON as before (golden files in tests/render and tests/evaluate check the text).
The same holds for the other front-door results (compare, threshold, calibration, ranking).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle

import pytest

import clfeval
from clfeval.ops.report import Averages
from clfeval.render import to_json

GOLD = [1, 2, 2, 1, 2]
PRED = [1, 2, 1, 1, 2]


def _plain(value):
    """True when every dict and list in ``value`` is a plain dict or list."""
    if isinstance(value, dict):
        return type(value) is dict and all(_plain(v) for v in value.values())
    if isinstance(value, list):
        return type(value) is list and all(_plain(v) for v in value)
    return True


@pytest.fixture
def rep():
    return clfeval.report(GOLD, PRED, positive=2, ci=0.9, samples=200)


@pytest.mark.parametrize("change", [
    lambda r: setattr(r.per_class[1], "recall", 5),
    lambda r: r.per_class.__setitem__(3, {}),
    lambda r: r.per_class.update({1: r.per_class[2]}),
    lambda r: setattr(r.macro, "f1", 5),
    lambda r: delattr(r.micro, "f1"),
    lambda r: setattr(r.weighted, "f1", 0),
    lambda r: setattr(r.binary, "recall", 5),
    lambda r: setattr(r.baselines.majority, "accuracy", 5),
    lambda r: r.notes.append("x"),
    lambda r: r.labels.append("3"),
    lambda r: r.undefined.__setitem__(0, None),
    lambda r: r.confusion_matrix[0].__setitem__(0, 99),
    lambda r: r.signature.__setitem__("beta", 9),
    lambda r: setattr(r.ci, "level", 0.5),
    lambda r: r.ci.accuracy.__setitem__(0, -1.0),
], ids=["per_class value", "per_class key", "per_class update", "macro", "micro", "weighted", "binary", "baselines",
        "notes", "labels", "undefined", "confusion matrix", "signature", "ci part", "ci interval"])
def test_a_report_cannot_be_changed(rep, change):
    """A typed part refuses assignment (frozen dataclass: AttributeError), a collection item assignment
    (TypeError)."""
    before = to_json(rep)
    with pytest.raises((TypeError, AttributeError)):
        change(rep)
    assert to_json(rep) == before


def test_the_hostile_case_recall_stays_what_was_counted(rep):
    # recall of class 1: 2 items of class 1, both predicted 1: 2/2
    with pytest.raises(dataclasses.FrozenInstanceError):
        rep.per_class[1].recall = 5
    assert rep.metric("recall:1") == 1.0 and rep.to_dict()["per_class"]["1"]["recall"] == 1.0


def test_to_dict_is_a_plain_mutable_copy(rep):
    d = rep.to_dict()
    assert _plain(d)
    d["per_class"]["1"]["recall"] = 5
    d["notes"].append("mine")
    assert rep.to_dict()["per_class"]["1"]["recall"] == 1.0 and "mine" not in rep.notes


def test_a_frozen_report_pickles_copies_and_reads_as_plain_data(rep):
    again = pickle.loads(pickle.dumps(rep))
    assert to_json(again) == to_json(rep) and copy.deepcopy(rep).to_dict() == rep.to_dict()
    assert rep.per_class[1].to_dict() == rep.to_dict()["per_class"]["1"] and isinstance(rep.macro, Averages)
    assert json.dumps(rep.macro.to_dict()) == json.dumps(rep.to_dict()["macro"])


@pytest.mark.parametrize("make, change", [
    (lambda: clfeval.compare(["a", "b", "a", "b"], ["a", "b", "a", "a"], ["a", "a", "b", "a"], samples=200),
     lambda r: r.signature.__setitem__("test", "x")),
    (lambda: clfeval.compare(["a", "b", "a", "b"], ["a", "b", "a", "a"], ["a", "a", "b", "a"], ["a"] * 4,
                             samples=100),
     lambda r: r.scores.__setitem__("A", 0.0)),
    (lambda: clfeval.threshold([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], positive=1),
     lambda r: r.signature.__setitem__("objective", "x")),  # its rows are frozen parts (tests/ops)
    (lambda: clfeval.calibration([1, 0, 1, 0], [0.9, 0.2, 0.6, 0.4], positive=1, bins=2),
     lambda r: r.signature.__setitem__("bins", 3)),  # its bins are frozen parts (tests/ops)
    (lambda: clfeval.ranking([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], positive=1),
     lambda r: r.signature.__setitem__("result", "x")),
], ids=["compare pair", "compare many", "threshold", "calibration", "ranking"])
def test_the_other_front_door_results_cannot_be_changed(make, change):
    r = make()
    before = to_json(r)
    with pytest.raises(TypeError, match="read-only"):
        change(r)
    assert to_json(r) == before and _plain(r.to_dict())
