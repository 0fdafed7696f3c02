"""``clfeval.ranking`` and ``clfeval.ranking_ovr`` return one type, :class:`clfeval.ops.ranking.RankingResult`
(issue 36): on every case of the front door's registry (arrays, a DataFrame with column names, a PATH, one score
column per class) it is that type, read-only all the way down (its NumPy arrays too), typed without ``Any``, and its
``to_dict()`` is the golden JSON. ``Ranking`` and ``RankingOvR`` merged into it: the old names warn and resolve to
it."""

from __future__ import annotations

import dataclasses
import inspect
import json
import typing
import warnings
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest

import clfeval
import clfeval.ops.ranking as ops
import clfeval.scores
from clfeval.core import RankingSummary
from clfeval.errors import UsageError
from clfeval.front import ranking
from clfeval.scores._curves import ranking_ovr
from tests._helpers.readonly import writable_places
from tests._helpers.registry import CASES, dump, write_inputs

NAMES = sorted(n for n in CASES if n.startswith("ranking/"))
GOLDEN = Path(__file__).resolve().parents[1] / "_helpers" / "golden" / "registry"
PARTS = [getattr(ops, n) for n in ops.__all__]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("ranking")
    write_inputs(root)
    return {name: CASES[name](root) for name in NAMES}


def arrays_in(value: object, path: str = "result", seen: set[int] | None = None) -> list[tuple[str, np.ndarray]]:
    """Every NumPy array reachable from ``value`` through dataclass fields, tuples and mappings."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        return [(path, value)]
    out: list[tuple[str, np.ndarray]] = []
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            out += arrays_in(getattr(value, f.name), f"{path}.{f.name}", seen)
    elif isinstance(value, tuple):
        for i, v in enumerate(value):
            out += arrays_in(v, f"{path}[{i}]", seen)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            out += arrays_in(v, f"{path}[{k!r}]", seen)
    return out


def test_the_registry_has_the_variants():
    assert NAMES == ["ranking/arrays", "ranking/arrays-ovr", "ranking/frame", "ranking/path"]


@pytest.mark.parametrize("name", NAMES)
def test_each_case_returns_the_one_type_read_only_all_the_way_down(results, name):
    r = results[name]
    assert type(r) is ops.RankingResult
    assert writable_places(r) == []
    if name.endswith("-ovr"):
        assert r.kind == "multiclass" and r.summary is None and isinstance(r.ovr, ops.OneVsRest)
        assert all(isinstance(v, ops.LabelRanking) for v in r.per_class.values())
        assert all(isinstance(a, ops.RankingAverages) for a in (r.macro, r.weighted, r.micro))
        assert all(isinstance(s, RankingSummary) for s in r.rankings.values())
        assert r.engine is None  # ranking_ovr is computed outside the front door
    else:
        assert r.kind == "binary" and r.ovr is None and isinstance(r.summary, RankingSummary)
        assert r.engine is not None and r.engine.name == "local"
        assert r.engine.mode == ("streamed" if name == "ranking/path" else "memory")


@pytest.mark.parametrize("name", NAMES)
def test_its_arrays_are_read_only(results, name):
    r = results[name]
    r.curves(), r.to_dict()  # what is computed on first use
    found = arrays_in(r)
    if name != "ranking/path":  # in memory: the sorted scores are held
        assert found
    writable = [p for p, a in found if a.flags.writeable]
    assert writable == []
    for _, a in found[:1]:
        with pytest.raises(ValueError):
            a[...] = 0


@pytest.mark.parametrize("name", NAMES)
def test_nested_assignment_raises(results, name):
    r = results[name]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.engine = None  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.signature["version"] = "0"  # type: ignore[index]
    if r.ovr is not None:
        with pytest.raises(TypeError):
            r.per_class["cat"] = r.per_class["dog"]  # type: ignore[index]
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.per_class["cat"].roc_auc = 0.0  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.macro.roc_auc = 0.0  # type: ignore[misc]
        with pytest.raises(TypeError):
            r.rankings["cat"] = r.rankings["dog"]  # type: ignore[index]
    else:
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.summary.below = 0  # type: ignore[misc, union-attr]
        with pytest.raises(TypeError):
            r.engine.more["x"] = 1  # type: ignore[index, union-attr]


@pytest.mark.parametrize("name", NAMES)
def test_to_dict_is_the_golden_json_and_a_copy(results, name):
    r = results[name]
    want = json.loads((GOLDEN / (name.replace("/", "__") + ".json")).read_text(encoding="utf-8"))
    assert json.loads(dump(r)) == want
    d = r.to_dict()
    d["curves"].clear()
    d["signature"]["version"] = "changed"
    assert json.loads(dump(r)) == want  # the JSON is a copy: changing it changes nothing


def test_the_measures_read_the_same_on_both_kinds(results):
    b, o = results["ranking/arrays"], results["ranking/arrays-ovr"]
    d = b.to_dict()
    assert (b.roc_auc, b.average_precision, b.pr_auc, b.n) == (d["roc_auc"], d["average_precision"],
                                                               d["average_precision"], d["n"])
    assert (b.positive, b.n_positive, b.n_negative, b.pairs) == ("dog", d["n_positive"], d["n_negative"], d["pairs"])
    assert b.pairs_in_order == d["pairs_in_order"] and list(b.notes) == d["notes"]
    assert b.metric("partial_roc_auc", max_fpr=0.1) == d["partial_roc_auc"]
    assert b.curves() == d["curves"]
    od = o.to_dict()
    assert (o.roc_auc, o.average_precision, o.n) == (od["roc_auc"], od["average_precision"], od["n"])
    assert o.labels == ("cat", "dog", "eel") and o.macro.to_dict() == od["macro"]
    assert o.per_class["dog"].support == od["per_class"]["dog"]["support"]
    assert list(o.notes) == od["notes"] and o.undefined == ()


def test_what_belongs_to_the_other_kind_is_refused_with_a_hint(results):
    b, o = results["ranking/arrays"], results["ranking/arrays-ovr"]
    with pytest.raises(UsageError, match="per_class"):
        _ = o.positive
    with pytest.raises(UsageError, match="one-vs-rest"):
        _ = b.per_class
    with pytest.raises(ValueError):
        ops.RankingResult()


def test_integer_labels_are_kept_in_per_class():
    r = ranking_ovr([1, 2, 1, 2], {1: [0.9, 0.2, 0.8, 0.3], 2: [0.1, 0.8, 0.2, 0.7]})
    assert list(r.per_class) == [1, 2] and r.per_class["1"] is r.per_class[1]
    assert r.to_dict()["per_class"]["1"]["roc_auc"] == 1.0


def test_the_item_reads_of_earlier_versions_warn_and_give_the_json(results):
    o = results["ranking/arrays-ovr"]
    with pytest.warns(DeprecationWarning, match=r"LabelRanking\['roc_auc'\] is deprecated"):
        assert o.per_class["cat"]["roc_auc"] == o.per_class["cat"].roc_auc
    with pytest.warns(DeprecationWarning, match="RankingAverages"):
        assert o.macro["average_precision"] == o.macro.average_precision


@pytest.mark.parametrize("where", [clfeval, clfeval.scores])
@pytest.mark.parametrize("old", ["Ranking", "RankingOvR"])
def test_the_old_names_warn_and_are_the_one_type(where, old):
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated.*RankingResult"):
        assert getattr(where, old) is ops.RankingResult
    assert old in where.__all__


def test_the_one_type_is_exported_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert clfeval.RankingResult is ops.RankingResult


def test_the_significance_functions_take_the_result(results):
    from clfeval.significance import curve_bands, delong_auc

    r = results["ranking/arrays"]
    assert delong_auc(r).auc == r.roc_auc
    assert curve_bands(r, samples=20).roc_auc["value"] == r.roc_auc
    with pytest.raises(UsageError, match="one-vs-rest"):
        delong_auc(results["ranking/arrays-ovr"])


def test_it_renders_and_gives_a_frame(results):
    b, o = results["ranking/arrays"], results["ranking/arrays-ovr"]
    assert "Ranking (scores)" in str(b) and "One label against the rest" in str(o)
    assert list(o.to_frame().index) == ["cat", "dog", "eel"]
    for r in (b, o):
        assert r.to_html().startswith("<!DOCTYPE html>") and "ROC curve" in r.to_html()
    (row,) = b.to_frame().to_dict("records")  # a binary ranking: one summary row
    assert row["roc_auc"] == b.roc_auc and row["n_positive"] + row["n_negative"] == row["n"]


@pytest.mark.parametrize("part", PARTS, ids=lambda p: p.__name__)
def test_every_field_is_typed_without_any_and_documented(part):
    fields = dataclasses.fields(part)
    assert fields and not [f.name for f in fields if "Any" in str(f.type)]  # the annotations as written
    typing.get_type_hints(part)  # and they resolve
    doc = inspect.getdoc(part) or ""
    assert "Attributes\n----------" in doc
    section = doc.split("Attributes", 1)[1]
    missing = [f.name for f in fields if f.name not in section]
    assert not missing, f"{part.__name__}: fields without a line in Attributes: {missing}"


@pytest.mark.parametrize("door", [ranking, ranking_ovr, clfeval.ranking_ovr], ids=["ranking", "ovr", "ovr-top"])
def test_the_front_doors_are_typed_without_any(door):
    hints = inspect.get_annotations(door)
    assert hints["return"] == "RankingResult"
    assert not [k for k, v in hints.items() if "Any" in str(v)], hints
