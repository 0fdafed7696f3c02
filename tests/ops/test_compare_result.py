"""compare's one typed result (issue 36): every case of the front door's registry returns
:class:`clfeval.ops.compare.Compared`, frozen all the way down, its JSON the golden one; the six old result types
warn and resolve to it; the names the guides read are properties, and on a kind where one has no meaning it
raises :class:`AttributeError` naming the kind."""

from __future__ import annotations

import dataclasses
import inspect
import json
import operator
import warnings
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest

import clfeval
import clfeval.significance
from clfeval.ops import compare as ops_compare
from tests._helpers.goldenpins import diff
from tests._helpers.registry import CASES, LABELS, columns, dump, write_inputs

GOLDEN = Path(__file__).resolve().parents[1] / "_helpers" / "golden" / "registry"
COMPARE = sorted(n for n in CASES if n.startswith("compare/"))
KIND = {"compare/arrays": "pair", "compare/frame-preds": "pair", "compare/path": "pair", "compare/arrays-many": "many",
        "compare/path-delong": "delong", "compare/arrays-margin": "noninferiority", "compare/frame-by": "sliced"}
OLD = ("Comparison", "MultiComparison", "DeLongComparison", "DeLongOvR", "NonInferiority")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("registry")
    write_inputs(root)
    out = {name: CASES[name](root) for name in COMPARE}
    c = columns()
    out["compare/arrays-delong-ovr"] = clfeval.compare(
        c["gold"], {k: c[f"p:{k}"] for k in LABELS}, {k: np.roll(c[f"p:{k}"], 7) for k in LABELS}, test="delong",
        metric="roc_auc")
    return out


def test_every_compare_case_of_the_registry_is_here():
    assert set(COMPARE) == set(KIND)


@pytest.mark.parametrize("name", [*COMPARE, "compare/arrays-delong-ovr"])
def test_each_case_returns_the_one_type_with_its_part(name, results):
    r = results[name]
    assert type(r) is ops_compare.Compared is clfeval.Compared
    assert r.kind == KIND.get(name, "delong_ovr")
    assert [k for k in ("pair", "many", "delong", "delong_ovr", "noninferiority", "sliced")
            if getattr(r, k) is not None] == [r.kind]
    assert isinstance(r.engine, clfeval.core.EngineInfo) and r.engine.mode in ("memory", "streamed")
    assert not hasattr(type(r), "__getattr__")


@pytest.mark.parametrize("name", COMPARE)
def test_to_dict_is_the_golden_json(name, results):
    want = json.loads((GOLDEN / (name.replace("/", "__") + ".json")).read_text(encoding="utf-8"))
    assert diff(json.loads(dump(results[name])), want) == []  # resampled fields: within their Monte-Carlo tolerance


def _assignments(value, path="r"):
    """Every (path, attempt) that would change ``value`` or anything nested in it."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield f"{path}.{f.name}", lambda v=value, n=f.name: setattr(v, n, None)
            yield from _assignments(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, Mapping):
        for k, v in list(value.items())[:3]:
            yield f"{path}[{k!r}]", lambda m=value, key=k: operator.setitem(m, key, None)
            yield from _assignments(v, f"{path}[{k!r}]")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value[:3]):
            yield f"{path}[{i}]", lambda s=value, j=i: operator.setitem(s, j, None)
            yield from _assignments(v, f"{path}[{i}]")


@pytest.mark.parametrize("name", [*COMPARE, "compare/arrays-delong-ovr"])
def test_assigning_into_any_nested_field_raises(name, results):
    r = results[name]
    before = dump(r)
    tried = 0
    for path, attempt in _assignments(r):
        with pytest.raises((TypeError, dataclasses.FrozenInstanceError)):
            attempt()
            pytest.fail(f"{path} could be changed")
        tried += 1
    assert tried > 20 and dump(r) == before


@pytest.mark.parametrize("package", [clfeval, clfeval.significance])
@pytest.mark.parametrize("old", OLD)
def test_the_old_names_warn_and_resolve_to_the_one_type(package, old):
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated.*Compared"):
        value = getattr(package, old)
    assert value is ops_compare.Compared
    assert old in package.__all__


def test_sliced_comparison_stays_importable_from_significance():
    with pytest.warns(DeprecationWarning, match="SlicedComparison"):
        from clfeval.significance import SlicedComparison
    assert SlicedComparison is ops_compare.Compared


def test_the_guides_names_are_properties_of_the_set_part(results):
    pair, many = results["compare/arrays"], results["compare/arrays-many"]
    assert (pair.a, pair.b, pair.delta, pair.p_value) == (pair.pair.a, pair.pair.b, pair.pair.delta,
                                                          pair.pair.p_value)
    assert pair.ci is pair.pair.ci and pair.verdict == pair.pair.verdict and pair.significant == pair.rejected
    assert [c.kind for c in many.comparisons] == ["pair"] * 3 and list(many.significant) == list(many.many.significant)
    delong = results["compare/path-delong"]
    assert delong.auc_a == delong.delong.auc_a and delong.p_value == delong.delong.p_value
    margin = results["compare/arrays-margin"]
    assert margin.bound == margin.noninferiority.bound and margin.rejected == (margin.p_value < margin.alpha)
    sliced = results["compare/frame-by"]
    assert sliced.overall.kind == "pair" and [s.slice for s in sliced.slices] == ["e", "n", "s", "w"]
    ovr = results["compare/arrays-delong-ovr"]
    assert set(ovr.per_class) == set(LABELS) and all(c is None or c.kind == "delong" for c in ovr.per_class.values())


@pytest.mark.parametrize("name, attribute, said", [
    ("compare/arrays-many", "p_value", r"several systems \(kind 'many'\) has no p_value"),
    ("compare/arrays-many", "verdict", "kind 'many'.*r.verdicts"),
    ("compare/arrays", "comparisons", r"two systems \(kind 'pair'\) has no comparisons"),
    ("compare/path-delong", "a", r"DeLong's test \(kind 'delong'\) has no a: .*auc_a"),
    ("compare/frame-by", "p_value", r"by slice \(kind 'sliced'\) has no p_value: read r.overall"),
    ("compare/arrays-margin", "ci", r"non-inferiority test \(kind 'noninferiority'\) has no ci"),
    ("compare/arrays", "margin", "kind 'pair'.*margin="),
])
def test_a_name_without_meaning_for_the_kind_raises_naming_it(name, attribute, said, results):
    with pytest.raises(AttributeError, match=said):
        getattr(results[name], attribute)
    assert getattr(results[name], attribute, None) is None  # getattr's default still works (the gate reads so)


def _dataclasses():
    for name in ops_compare.__all__:
        obj = getattr(ops_compare, name)
        if dataclasses.is_dataclass(obj):
            yield obj


@pytest.mark.parametrize("cls", list(_dataclasses()), ids=lambda c: c.__name__)
def test_every_part_is_a_frozen_documented_dataclass_without_any(cls):
    assert cls.__dataclass_params__.frozen
    doc = inspect.getdoc(cls) or ""
    assert "Attributes\n----------" in doc, cls
    for f in dataclasses.fields(cls):
        assert f.name in doc, (cls, f.name)
    for field_name, annotation in inspect.get_annotations(cls).items():
        assert "Any" not in str(annotation), (cls, field_name, annotation)


def test_the_front_door_signature_is_precise():
    from clfeval.front._compare import compare

    annotations = inspect.get_annotations(compare)
    assert annotations["return"] == "Compared"
    assert not [k for k, v in annotations.items() if "Any" in str(v)]


def test_the_direct_tests_return_the_one_type():
    c = columns()
    a, b = c["pred"][:60], c["other"][:60]
    g = c["gold"][:60]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert clfeval.compare_many(g, {"a": a, "b": b, "g": g}, samples=50).kind == "many"
        assert clfeval.noninferiority(g, a, b, margin=0.1, samples=50).kind == "noninferiority"
        y = g == "dog"
        assert clfeval.delong_compare(y, c["score"][:60], c["score_b"][:60], positive=True).kind == "delong"
        assert clfeval.significance.delong_test(y, c["score"][:60], c["score_b"][:60], positive=True).kind == "delong"
