"""threshold's one typed result (issue 36): every case of the front door's registry (arrays, a DataFrame with column
names, a PATH, one cut per label, by slice) returns :class:`clfeval.ops.threshold.ThresholdResult`, read-only all
the way down, typed without ``Any``, its JSON the golden one; ``ThresholdChoice``, ``LabelThresholds`` and
``SlicedThreshold`` warn and resolve to it; the names the guides read are properties, and one without meaning for
the variant raises :class:`AttributeError` naming what to read."""

from __future__ import annotations

import dataclasses
import inspect
import json
import typing
from pathlib import Path

import pytest

import clfeval
import clfeval.engines
import clfeval.scores
from clfeval.front._scores import threshold
from clfeval.ops import threshold as ops
from tests._helpers.readonly import writable_places
from tests._helpers.registry import CASES, dump, write_inputs

NAMES = sorted(n for n in CASES if n.startswith("threshold/"))
GOLDEN = Path(__file__).resolve().parents[1] / "_helpers" / "golden" / "registry"
PARTS = [getattr(ops, n) for n in ops.__all__]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("threshold")
    write_inputs(root)
    return {name: CASES[name](root) for name in NAMES}


def test_the_registry_has_the_variants():
    assert NAMES == ["threshold/arrays", "threshold/frame", "threshold/path", "threshold/path-by",
                     "threshold/path-labels"]


@pytest.mark.parametrize("name", NAMES)
def test_each_case_returns_the_one_type_read_only_all_the_way_down(results, name):
    r = results[name]
    assert type(r) is ops.ThresholdResult
    assert writable_places(r) == []
    assert r.engine is not None and r.engine.name == "local"
    if name == "threshold/path-labels":
        assert r.choice is None and isinstance(r.labels_cuts, ops.LabelCuts)
        assert all(isinstance(e, ops.LabelCut) and isinstance(e.default, ops.CutRow) for e in r.per_label.values())
        assert all(isinstance(a, ops.CutAverages) for a in r.averages.values())
    else:
        assert r.labels_cuts is None and isinstance(r.choice, ops.ChosenCut)
        assert isinstance(r.default, ops.CutRow) and isinstance(r.hindsight, ops.CutRow)
        assert isinstance(r.sweep, ops.Sweep)
    assert (r.slices is not None) == (name == "threshold/path-by")


def test_the_slices_are_typed(results):
    s = results["threshold/path-by"].slices
    assert isinstance(s, ops.ThresholdSlices) and s.threshold == results["threshold/path-by"].threshold
    assert [r.slice for r in s.rows] == ["e", "n", "s", "w"] and s.n_slices == 4
    assert all(isinstance(r, ops.SliceRow) for r in s.rows)
    assert all(isinstance(t, ops.SliceTest) for r in s.rows for t in r.tests.values())
    assert all(isinstance(h, ops.SliceHeterogeneity) for h in s.heterogeneity.values())
    assert isinstance(s.fairness, ops.SliceFairness) and isinstance(s.adjustment, ops.SliceAdjustment)
    assert s.row("e").n == s.rows[0].n


@pytest.mark.parametrize("name", NAMES)
def test_nested_assignment_raises(results, name):
    r = results[name]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.n_test = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.signature["objective"] = "x"  # type: ignore[index]
    if r.choice is not None:
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.default.tp = 0  # type: ignore[misc]
        with pytest.raises(TypeError):
            r.sweep.threshold[0] = 1.0  # type: ignore[index, union-attr]
    else:
        with pytest.raises(TypeError):
            r.thresholds["grain"] = 0.0  # type: ignore[index]
        with pytest.raises(TypeError):
            r.averages["default"].micro["f1"] = 0.0  # type: ignore[index]
    if r.slices is not None:
        with pytest.raises(TypeError):
            r.slices.rows[0].metrics["accuracy"] = 1.0  # type: ignore[index]


@pytest.mark.parametrize("name", NAMES)
def test_to_dict_is_the_golden_json_and_a_copy(results, name):
    r = results[name]
    want = json.loads((GOLDEN / (name.replace("/", "__") + ".json")).read_text(encoding="utf-8"))
    assert json.loads(dump(r)) == want
    d = r.to_dict()
    d["notes"].clear()
    d["signature"]["objective"] = "changed"
    assert json.loads(dump(r)) == want  # the JSON is a copy: changing it changes nothing


@pytest.mark.parametrize("package", [clfeval, clfeval.scores])
@pytest.mark.parametrize("old", ["ThresholdChoice", "LabelThresholds"])
def test_the_old_names_warn_and_resolve_to_the_one_type(package, old):
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated.*ThresholdResult"):
        value = getattr(package, old)
    assert value is ops.ThresholdResult
    assert old in package.__all__


def test_sliced_threshold_warns_from_engines():
    with pytest.warns(DeprecationWarning, match="SlicedThreshold is deprecated.*ThresholdResult"):
        from clfeval.engines import SlicedThreshold
    assert SlicedThreshold is ops.ThresholdResult


def test_the_guides_names_are_properties(results):
    r = results["threshold/path"]
    assert (r.positive, r.threshold, r.default, r.test, r.hindsight, r.dev, r.sweep) == (
        r.choice.positive, r.choice.threshold, r.choice.default, r.choice.test, r.choice.hindsight, r.choice.dev,
        r.choice.sweep)
    assert r.test.f1 == r.to_dict()["test"]["f1"] and r.external.spilled is False
    labels = results["threshold/path-labels"]
    assert labels.labels == ("grain", "trade", "money") and tuple(labels.thresholds) == labels.labels
    assert labels.averages["tuned"].micro["f1"] == labels.to_dict()["averages"]["tuned"]["micro"]["f1"]


@pytest.mark.parametrize("name, attribute, said", [
    ("threshold/path-labels", "threshold", "one cut per label has no threshold: read r.thresholds"),
    ("threshold/path-labels", "default", "one cut per label has no default"),
    ("threshold/path", "per_label", "one score column has no per_label: read r.threshold"),
    ("threshold/path", "thresholds", "one score column has no thresholds"),
])
def test_a_name_without_meaning_for_the_variant_raises_naming_it(results, name, attribute, said):
    with pytest.raises(AttributeError, match=said):
        getattr(results[name], attribute)
    assert getattr(results[name], attribute, None) is None


def test_the_item_reads_of_earlier_versions_warn_and_give_the_json(results):
    r = results["threshold/path"]
    with pytest.warns(DeprecationWarning, match=r"CutRow\['f1'\] is deprecated.*CutRow\.f1"):
        assert r.test["f1"] == r.test.f1
    with pytest.warns(DeprecationWarning, match="SortedRuns"):
        assert r.external["spilled"] is False


@pytest.mark.parametrize("part", PARTS, ids=lambda p: p.__name__)
def test_every_field_is_typed_without_any_and_documented(part):
    assert part.__dataclass_params__.frozen
    fields = dataclasses.fields(part)
    assert fields and not [f.name for f in fields if "Any" in str(f.type)]
    assert not [k for k, v in inspect.get_annotations(part).items() if "Any" in str(v)]
    typing.get_type_hints(part)  # and they resolve
    doc = inspect.getdoc(part) or ""
    assert "Attributes\n----------" in doc
    missing = [f.name for f in fields if f.name not in doc.split("Attributes", 1)[1]]
    assert not missing, f"{part.__name__}: fields without a line in Attributes: {missing}"


def test_the_front_door_is_typed_without_any():
    hints = inspect.get_annotations(threshold)
    assert hints["return"] == "ThresholdResult"
    assert not [k for k, v in hints.items() if "Any" in str(v)], hints
    assert clfeval.threshold is threshold and clfeval.ThresholdResult is ops.ThresholdResult


def test_a_result_without_a_variant_is_refused():
    with pytest.raises(ValueError, match="one cut choice or the cuts of every label"):
        ops.ThresholdResult("f1", "maximise F1", "rule", 1, None)


def test_the_arrays_form_of_one_cut_per_label_equals_the_tables():
    """Issue 38's parity test found it refused: ``threshold(label_sets, {label: scores}, multilabel=True)`` (as
    documented) now chooses one cut per label, the same cuts and numbers as a table with ``scores_prefix``."""
    import json

    import pandas as pd

    import clfeval

    gold = ["a", "b", "a|b", "", "b", "a"] * 30
    sa = [0.9, 0.2, 0.8, 0.1, 0.4, 0.6] * 30
    sb = [0.3, 0.9, 0.7, 0.2, 0.8, 0.1] * 30
    arrays = clfeval.threshold(gold, {"a": sa, "b": sb}, dev=(gold, {"a": sa, "b": sb}), multilabel=True)
    frame = pd.DataFrame({"gold": gold, "s:a": sa, "s:b": sb})
    table = clfeval.threshold(frame, dev=frame, scores_prefix="s:", multilabel=True)
    plain = [json.dumps({k: v for k, v in r.to_dict().items() if k not in ("engine", "signature", "external")},
                        sort_keys=True)
             for r in (arrays, table)]
    assert plain[0] == plain[1]
    assert arrays.per_label["a"].test.f1 == 1.0  # a cut between 0.4 and 0.6 separates label a exactly
