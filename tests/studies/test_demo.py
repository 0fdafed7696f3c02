"""`clfeval demo`: each mode reproduces the mission's worked examples (mission.md §10)."""

from __future__ import annotations

import json

import pytest

from tests._helpers.clihelp import run


def demo_json(mode: str) -> dict:
    res = run("demo", mode, "--format", "json")
    assert res.code == 0, res.err
    return json.loads(res.out)


def test_trap():
    d = demo_json("trap")["data"]
    assert d["pie"]["accuracy"] == pytest.approx(0.9999, abs=5e-5)
    assert d["pie"]["recall"] == 0 and d["pie"]["f1"] == 0
    assert d["news"]["accuracy"] == pytest.approx(0.90)
    assert d["news"]["macro_f1"] == pytest.approx(0.4737, abs=5e-5)  # (0.9474 + 0) / 2


def test_matrix():
    d = demo_json("matrix")["data"]
    assert d["accuracy"] == pytest.approx(0.75)
    assert [round(d["per_class"][c]["f1"], 4) for c in ("news", "fiction", "government", "learned")] == [0.72, 0.72,
                                                                                                         0.6364, 0.9167]
    assert round(d["per_class"]["government"]["precision"], 4) == 0.7
    assert round(d["per_class"]["government"]["recall"], 4) == 0.5833
    b = d["binary"]
    assert round(b["accuracy"], 2) == 0.87 and round(b["error_rate"], 2) == 0.13
    assert round(b["precision"], 4) == 0.7778 and round(b["recall"], 4) == 0.2258
    assert round(b["specificity"], 4) == 0.9882 and round(b["f1"], 2) == 0.35
    assert round(b["balanced_accuracy"], 4) == 0.6070
    assert [round(d["binary_macro"][k], 2) for k in ("precision", "recall", "f1")] == [0.83, 0.61, 0.64]
    assert [round(d["binary_weighted"][k], 2) for k in ("precision", "recall", "f1")] == [0.86, 0.87, 0.84]


def test_read():
    d = demo_json("read")["data"]
    assert d["hardest_class"] == "government"
    assert d["most_confused_pair"] == {"classes": ["news", "government"], "errors": 5, "a_as_b": 2, "b_as_a": 3}


def test_averages():
    d = demo_json("averages")["data"]
    assert d["two_class"]["macro_precision"] == pytest.approx(0.70)
    assert d["two_class"]["micro_precision"] == pytest.approx(100 / 120)
    t = d["three_class"]
    assert [round(t["precision"][c], 2) for c in ("urgent", "normal", "spam")] == [0.42, 0.52, 0.86]
    assert round(t["macro_precision"], 2) == 0.60 and round(t["micro_precision"], 2) == 0.73
    assert t["micro_f1"] == t["accuracy"]  # exactly, not approximately
    assert t["macro_f1"] != pytest.approx(t["macro_f1_of_means"], abs=1e-4)
    s = d["spam"]
    assert (round(s["precision"], 2), round(s["recall"], 2), round(s["mean"], 3), round(s["f1"], 3)) == (0.75, 0.6,
                                                                                                         0.675, 0.667)


@pytest.mark.parametrize("mode", ["trap", "matrix", "read", "averages"])
@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_modes_render_with_a_plain_sentence(mode, fmt):
    res = run("demo", mode, "--format", fmt)
    assert res.code == 0 and res.err == ""
    conclusion = demo_json(mode)["conclusion"]
    assert conclusion.split()[0] in res.out


def test_demo_cv_mission_example_10():
    import math

    from clfeval.studies._demo import run_demo

    d = run_demo("cv").data
    assert d["folds"]["mean"] == pytest.approx(0.82, abs=1e-12)
    assert d["repeats"]["mean"] == pytest.approx(0.85, abs=1e-12)
    assert d["folds"]["std"] == pytest.approx(math.sqrt(10 / 4) / 100, abs=1e-12)
    assert d["repeats"]["std"] == pytest.approx(math.sqrt(20 / 4) / 100, abs=1e-12)
    assert (d["folds"]["min"], d["folds"]["max"]) == (0.80, 0.84)
