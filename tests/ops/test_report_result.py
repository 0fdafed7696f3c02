"""``clfeval.report`` returns one type, :class:`clfeval.ops.report.Report` (issue 36): on every case of the front
door's registry (arrays, a DataFrame with column names, a PATH; plain, intervals, scores, ``by=``,
``find_slices=``, label sets, ``require=``) it is that type, read-only all the way down, typed without ``Any``,
and its ``to_dict()`` is the golden JSON. Its optional parts are typed fields; the old part names that merged
into another type warn, those that moved do not; item reads of the parts warn and still give the JSON's values."""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
import typing
import warnings
from pathlib import Path

import pytest

import clfeval
import clfeval.evaluate
import clfeval.ops.report as ops
from clfeval.core import EngineInfo
from clfeval.evaluate import report_from_table
from clfeval.front import report as front_door
from tests._helpers.goldenpins import diff
from tests._helpers.readonly import writable_places
from tests._helpers.registry import CASES, dump, write_inputs

NAMES = sorted(n for n in CASES if n.startswith("report/"))
GOLDEN = Path(__file__).resolve().parents[1] / "_helpers" / "golden" / "registry"
PARTS = [getattr(ops, n) for n in ops.__all__]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    write_inputs(root)
    return {name: CASES[name](root) for name in NAMES}


def test_the_registry_has_the_variants():
    assert NAMES == ["report/arrays", "report/arrays-ci", "report/arrays-multilabel", "report/frame",
                     "report/frame-by", "report/frame-require", "report/frame-scored", "report/path",
                     "report/path-find"]


@pytest.mark.parametrize("name", NAMES)
def test_each_case_returns_the_one_type_read_only_all_the_way_down(results, name):
    r = results[name]
    assert type(r) is ops.Report
    assert writable_places(r) == []
    assert all(isinstance(row, ops.ClassRow) for row in r.per_class.values())
    assert all(isinstance(a, ops.Averages) for a in (r.macro, r.micro, r.weighted))
    assert isinstance(r.diagnostics, ops.Diagnostics) and isinstance(r.baselines, ops.Baselines)
    assert all(isinstance(u, ops.UndefinedValue) for u in r.undefined)
    assert type(r.engine) is EngineInfo and r.engine.name == "local"
    assert r.confusion_matrix is None or all(type(row) is tuple for row in r.confusion_matrix)


def test_each_optional_part_is_its_typed_field(results):
    assert isinstance(results["report/arrays-ci"].ci, ops.Intervals)
    assert results["report/arrays-ci"].ci.level == 0.95
    lo, hi = results["report/arrays-ci"].ci.macro["f1"]
    assert lo <= results["report/arrays-ci"].macro.f1 <= hi
    scored = results["report/frame-scored"]
    assert isinstance(scored.ranking, ops.RankingPart) and 0.5 < scored.ranking.roc_auc <= 1
    assert isinstance(scored.binary, ops.BinaryRow) and scored.binary.positive == "dog"
    sliced = results["report/frame-by"].slices
    assert isinstance(sliced, ops.SlicesPart) and sliced.n_slices == 4
    assert all(isinstance(s, ops.SliceRow) for s in sliced.slices)
    assert all(isinstance(t, ops.SliceTest) for s in sliced.slices for t in (s.tests or {}).values())
    found = results["report/path-find"].find_slices
    assert isinstance(found, ops.FoundSlices) and found.signature is None and found.examined == 4
    assert isinstance(found.overall, ops.SliceProportion) and found.overall.items == 240
    req = results["report/frame-require"].requirements
    assert isinstance(req, ops.RequirementsPart) and req.met
    assert [c.metric for c in req.conditions] == ["macro_f1", "accuracy"]
    assert all(isinstance(c, ops.Condition) for c in req.conditions)
    ml = results["report/arrays-multilabel"]
    assert ml.kind == "multilabel" and ml.confusion_matrix is None and ml.diagnostics.omitted


def test_the_attributes_the_guides_read(results):
    r = results["report/frame"]
    assert r.accuracy == pytest.approx(0.825) and r.per_class["dog"].recall == r.metric("recall:dog")
    assert r.macro.f1 == r.metric("macro_f1") and r.hardest_class == "eel"
    assert r.most_confused_pair is not None and r.most_confused_pair.classes == ["cat", "eel"]
    ints = clfeval.report([1, 2, 2, 1], [1, 2, 1, 1])
    assert ints.per_class[1].tp == 2 and ints.per_class["1"] is ints.per_class[1]
    assert results["report/frame-scored"].ranking.partial_roc_auc > 0
    assert math.isnan(results["report/frame"].metric("roc_auc"))


@pytest.mark.parametrize("name", NAMES)
def test_nested_assignment_raises(results, name):
    r = results[name]
    row = next(iter(r.per_class.values()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.recall = 5.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.per_class["cat"] = row  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.macro.f1 = 1.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.signature["beta"] = 2  # type: ignore[index]
    with pytest.raises(TypeError):
        r.labels[0] = "x"  # type: ignore[index]
    if r.ci is not None:
        with pytest.raises(TypeError):
            r.ci.macro["f1"] = (0, 1)  # type: ignore[index]
    if r.slices is not None:
        with pytest.raises(TypeError):
            r.slices.slices[0].metrics["accuracy"] = 0  # type: ignore[index]


@pytest.mark.parametrize("name", NAMES)
def test_to_dict_is_the_golden_json_and_a_copy(results, name):
    r = results[name]
    want = json.loads((GOLDEN / (name.replace("/", "__") + ".json")).read_text(encoding="utf-8"))
    assert diff(json.loads(dump(r)), want) == []  # resampled fields: within their Monte-Carlo tolerance
    d = r.to_dict()
    d["per_class"].clear()
    d["macro"]["f1"] = -1
    assert diff(json.loads(dump(r)), want) == []  # the JSON is a copy: changing it changes nothing


def test_the_json_keeps_its_key_order(results):
    d = results["report/frame-scored"].to_dict()
    assert list(d)[:5] == ["schema_version", "kind", "n", "labels", "confusion_matrix"]
    assert list(d)[-3:] == ["undefined", "notes", "signature"]
    assert list(d["per_class"]["cat"])[:6] == ["tp", "fp", "fn", "tn", "support", "precision"]
    assert list(d["binary"])[0] == "positive"


def test_report_is_the_same_type_everywhere_and_moved_parts_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert clfeval.Report is ops.Report is clfeval.evaluate.Report
        for name in ("Intervals", "RankingPart", "RankingIntervals", "InputsPart", "SlicesPart", "RequirementsPart",
                     "ErrorsSharePart"):
            assert getattr(clfeval.evaluate, name) is getattr(ops, name)
        from clfeval.significance import FoundSlices
    assert FoundSlices is ops.FoundSlices


@pytest.mark.parametrize("old, new", [("Part", "Block"), ("FoundSlicesPart", "FoundSlices")])
def test_the_merged_part_names_warn_and_resolve_to_the_new_type(old, new):
    with pytest.warns(DeprecationWarning, match=f"clfeval.evaluate.{old} is deprecated.*{new}"):
        assert getattr(clfeval.evaluate, old) is getattr(ops, new)
    assert old in clfeval.evaluate.__all__


def test_the_item_reads_of_earlier_versions_warn_and_give_the_json(results):
    r = results["report/arrays-ci"]
    with pytest.warns(DeprecationWarning, match=r"ClassRow\['f1'\] is deprecated.*ClassRow\.f1"):
        assert r.per_class["cat"]["f1"] == r.per_class["cat"].f1
    with pytest.warns(DeprecationWarning, match="Averages"):
        assert r.macro["f1"] == r.macro.f1
    with pytest.warns(DeprecationWarning, match="Intervals"):
        assert r.ci["accuracy"] == list(r.ci.accuracy)
    with pytest.warns(DeprecationWarning, match="sections"):
        assert r.sections["ci"] == r.ci.to_dict()
    with pytest.raises(KeyError):
        r.macro["no such key"]


def test_a_found_slices_is_built_with_keywords():
    params = inspect.signature(ops.FoundSlices).parameters
    assert "metric" in params and "signature" in params
    from clfeval.significance import _slicefind

    assert "FoundSlices(metric=metric" in inspect.getsource(_slicefind.search_tables)


def _inherited(part: type) -> set[str]:
    return {f.name for base in part.__mro__[1:] if dataclasses.is_dataclass(base) for f in dataclasses.fields(base)}


@pytest.mark.parametrize("part", PARTS, ids=lambda p: p.__name__)
def test_every_field_is_typed_without_any_and_documented(part):
    fields = dataclasses.fields(part)
    assert fields and not [f.name for f in fields if "Any" in str(f.type)]  # the annotations as written
    typing.get_type_hints(part)  # and they resolve
    doc = inspect.getdoc(part) or ""
    assert "Attributes\n----------" in doc
    own = [f for f in fields if f.name not in _inherited(part) or f.name in part.__annotations__]
    missing = [f.name for f in own if f.name not in doc.split("Attributes", 1)[1]]
    assert not missing, f"{part.__name__}: fields without a line in Attributes: {missing}"


def test_the_front_door_is_typed_without_any():
    for fn in (front_door, report_from_table):
        hints = inspect.get_annotations(fn)
        assert hints["return"] == "Report"
        assert not [k for k, v in hints.items() if "Any" in str(v)], (fn.__name__, hints)
