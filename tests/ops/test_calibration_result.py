"""calibration's one typed result (issue 36): every case of the front door's registry (arrays, a DataFrame with
column names, a PATH, one column per class, by slice) returns :class:`clfeval.ops.calibration.Calibration`,
read-only all the way down, typed without ``Any``, its JSON the golden one. The type moved from
``clfeval.scores``: the old names are the same object, without a warning; ``SlicedCalibration`` (the slices now a
typed field) warns and resolves to it."""

from __future__ import annotations

import dataclasses
import inspect
import json
import typing
import warnings
from pathlib import Path

import pytest

import clfeval
import clfeval.scores
from clfeval.front._scores import calibration
from clfeval.ops import calibration as ops
from tests._helpers.readonly import writable_places
from tests._helpers.registry import CASES, dump, write_inputs

NAMES = sorted(n for n in CASES if n.startswith("calibration/"))
GOLDEN = Path(__file__).resolve().parents[1] / "_helpers" / "golden" / "registry"
PARTS = [getattr(ops, n) for n in ops.__all__]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("calibration")
    write_inputs(root)
    return {name: CASES[name](root) for name in NAMES}


def test_the_registry_has_the_variants():
    assert NAMES == ["calibration/arrays", "calibration/frame", "calibration/frame-by", "calibration/path",
                     "calibration/path-classes"]


@pytest.mark.parametrize("name", NAMES)
def test_each_case_returns_the_one_type_read_only_all_the_way_down(results, name):
    r = results[name]
    assert type(r) is ops.Calibration
    assert writable_places(r) == []
    assert r.engine is not None and r.engine.name == "local"
    assert all(isinstance(b, ops.CalibrationBin) for b in r.bins) and len(r.bins) == r.n_bins
    assert (r.slices is not None) == (name == "calibration/frame-by")


def test_the_slices_are_typed(results):
    r = results["calibration/frame-by"]
    assert isinstance(r.slices, ops.CalibrationSlices) and r.by == ("grp",) and r.slices.min_slice == 10
    assert [s.slice for s in r.slices.rows] == ["e", "n", "s", "w"]
    assert all(isinstance(s, ops.CalibrationSlice) and s.ece is not None for s in r.slices.rows)
    assert sum(s.n for s in r.slices.rows) == r.n


@pytest.mark.parametrize("name", NAMES)
def test_nested_assignment_raises(results, name):
    r = results[name]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.ece = 0.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.bins[0].count = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.bins[0] = r.bins[1]  # type: ignore[index]
    with pytest.raises(TypeError):
        r.signature["bins"] = 3  # type: ignore[index]
    if r.slices is not None:
        with pytest.raises(TypeError):
            r.slices.rows[0].key["grp"] = "x"  # type: ignore[index]


@pytest.mark.parametrize("name", NAMES)
def test_to_dict_is_the_golden_json_and_a_copy(results, name):
    r = results[name]
    want = json.loads((GOLDEN / (name.replace("/", "__") + ".json")).read_text(encoding="utf-8"))
    assert json.loads(dump(r)) == want
    d = r.to_dict()
    d["bins"][0]["count"] = -1
    d["notes"].clear()
    assert json.loads(dump(r)) == want


def test_the_moved_name_is_the_same_type_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert clfeval.Calibration is ops.Calibration
        assert clfeval.scores.Calibration is ops.Calibration
        from clfeval.scores import Calibration
    assert Calibration is ops.Calibration


def test_sliced_calibration_warns_and_resolves_to_the_one_type():
    with pytest.warns(DeprecationWarning, match="SlicedCalibration is deprecated.*Calibration"):
        from clfeval.engines import SlicedCalibration
    assert SlicedCalibration is ops.Calibration


def test_the_item_reads_of_earlier_versions_warn_and_give_the_json(results):
    b = results["calibration/path"].bins[0]
    with pytest.warns(DeprecationWarning, match=r"CalibrationBin\['count'\] is deprecated.*CalibrationBin\.count"):
        assert b["count"] == b.count


@pytest.mark.parametrize("part", PARTS, ids=lambda p: p.__name__)
def test_every_field_is_typed_without_any_and_documented(part):
    assert part.__dataclass_params__.frozen
    fields = dataclasses.fields(part)
    assert fields and not [f.name for f in fields if "Any" in str(f.type)]
    assert not [k for k, v in inspect.get_annotations(part).items() if "Any" in str(v)]
    typing.get_type_hints(part)
    doc = inspect.getdoc(part) or ""
    assert "Attributes\n----------" in doc
    missing = [f.name for f in fields if f.name not in doc.split("Attributes", 1)[1]]
    assert not missing, f"{part.__name__}: fields without a line in Attributes: {missing}"


def test_the_front_door_is_typed_without_any():
    hints = inspect.get_annotations(calibration)
    assert hints["return"] == "Calibration"
    assert not [k for k, v in hints.items() if "Any" in str(v)], hints
    assert clfeval.calibration is calibration
