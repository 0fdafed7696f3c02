"""``clfeval.error_analysis`` returns one type, :class:`clfeval.ops.errors.ErrorAnalysis` (issue 36): on every
case of the front door's registry (arrays, a DataFrame with column names, a PATH, label sets) it is that type,
read-only all the way down, typed without ``Any``, and its ``to_dict()`` is the golden JSON
(``tests/project/test_registry_json.py``). The type moved from ``clfeval.evaluate``: the old names are the same
objects, without a warning; the parts' item reads of earlier versions warn and still give the JSON's values."""

from __future__ import annotations

import dataclasses
import inspect
import json
import typing
import warnings
from pathlib import Path

import pytest

import clfeval
import clfeval.evaluate
import clfeval.ops.errors as ops
from clfeval.front import error_analysis
from tests._helpers.readonly import writable_places
from tests._helpers.registry import CASES, dump, write_inputs

NAMES = sorted(n for n in CASES if n.startswith("error_analysis/"))
GOLDEN = Path(__file__).resolve().parents[1] / "_helpers" / "golden" / "registry"
PARTS = [getattr(ops, n) for n in ops.__all__]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("errors")
    write_inputs(root)
    return {name: CASES[name](root) for name in NAMES}


def test_the_registry_has_the_variants():
    assert NAMES == ["error_analysis/arrays", "error_analysis/frame", "error_analysis/path",
                     "error_analysis/path-sets"]


@pytest.mark.parametrize("name", NAMES)
def test_each_case_returns_the_one_type_read_only_all_the_way_down(results, name):
    r = results[name]
    assert type(r) is ops.ErrorAnalysis
    assert writable_places(r) == []
    assert all(isinstance(c, ops.ErrorCell) for c in r.cells) and isinstance(r.prior, ops.ErrorPrior)
    assert isinstance(r.settings, ops.ErrorSettings) and isinstance(r.analyzer, ops.TextAnalyzer)
    assert r.engine is not None and r.engine.name == "local"
    listed = [t for c in r.cells for t in c.terms_vs_gold + c.terms_vs_pred]
    assert all(isinstance(t, ops.ErrorTerm) for t in listed)
    assert all(isinstance(e, ops.ErrorExample) for c in r.cells for e in c.examples)
    assert all(isinstance(e, ops.ConfidentMistake) for c in r.cells for e in c.confident)
    assert all(isinstance(x, ops.CategoryCounts) for x in r.categories)


def test_the_cases_hold_what_each_part_reads(results):
    scored = results["error_analysis/path"]
    assert scored.settings.scored and any(c.confident for c in scored.cells)
    assert any(t for c in scored.cells for t in c.terms_vs_pred)
    sets = results["error_analysis/path-sets"]
    assert sets.task == "multi-label" and [x.label for x in sets.categories] == ["grain", "money", "trade"]
    assert {c.kind for c in sets.cells} == {"false negatives", "false positives"}


@pytest.mark.parametrize("name", NAMES)
def test_nested_assignment_raises(results, name):
    r = results[name]
    c = r.cells[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.count = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        c.examples[0] = c.examples[0]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.examples[0].text = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.signature["seed"] = 5  # type: ignore[index]
    with pytest.raises(TypeError):
        r.engine.more["x"] = 1  # type: ignore[index, union-attr]


@pytest.mark.parametrize("name", NAMES)
def test_to_dict_is_the_golden_json_and_a_copy(results, name):
    r = results[name]
    want = json.loads((GOLDEN / (name.replace("/", "__") + ".json")).read_text(encoding="utf-8"))
    assert json.loads(dump(r)) == want
    d = r.to_dict()
    d["cells"][0]["examples"].clear()
    d["prior"]["tokens"] = -1
    assert json.loads(dump(r)) == want  # the JSON is a copy: changing it changes nothing


def test_the_moved_names_are_the_same_types_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert clfeval.ErrorAnalysis is ops.ErrorAnalysis
        assert clfeval.evaluate.ErrorAnalysis is ops.ErrorAnalysis
        assert clfeval.evaluate.ErrorCell is ops.ErrorCell
        from clfeval.evaluate import ErrorAnalysis, ErrorCell
    assert (ErrorAnalysis, ErrorCell) == (ops.ErrorAnalysis, ops.ErrorCell)


def test_the_item_reads_of_earlier_versions_warn_and_give_the_json(results):
    r = results["error_analysis/path"]
    c = next(c for c in r.cells if c.terms_vs_pred)
    with pytest.warns(DeprecationWarning, match=r"ErrorTerm\['term'\] is deprecated.*ErrorTerm\.term"):
        assert c.terms_vs_pred[0]["term"] == c.terms_vs_pred[0].term
    with pytest.warns(DeprecationWarning, match="ErrorExample"):
        assert c.examples[0]["spans"] == [list(s) for s in c.examples[0].spans]
    with pytest.warns(DeprecationWarning, match="ErrorPrior"):
        assert r.prior["documents"] == r.prior.documents == 240
    with pytest.raises(KeyError):
        r.prior["no such key"]


@pytest.mark.parametrize("part", PARTS, ids=lambda p: p.__name__)
def test_every_field_is_typed_without_any_and_documented(part):
    fields = dataclasses.fields(part)
    assert fields and not [f.name for f in fields if "Any" in str(f.type)]  # the annotations as written
    typing.get_type_hints(part)  # and they resolve
    doc = inspect.getdoc(part) or ""
    assert "Attributes\n----------" in doc
    missing = [f.name for f in fields if f.name not in doc.split("Attributes", 1)[1]]
    assert not missing, f"{part.__name__}: fields without a line in Attributes: {missing}"


def test_the_front_door_is_typed_without_any():
    hints = inspect.get_annotations(error_analysis)
    assert hints["return"] == "ErrorAnalysis"
    assert not [k for k, v in hints.items() if "Any" in str(v)], hints
