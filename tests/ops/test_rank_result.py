"""``clfeval.rank`` returns one type, :class:`clfeval.ops.rank.RankResult` (issue 36): on every case of the front
door's registry (a DataFrame, a PATH, a long table with pairs and a control) and with conditions (``require=``) it
is that type, read-only all the way down, typed without ``Any``; its ``to_dict()`` is the golden JSON
(``tests/project/test_registry_json.py``) and ``RankResult.from_dict`` reads that JSON back. The type moved from
``clfeval.significance``: the old names are the same object, without a warning; the parts' item reads of earlier
versions warn and still give the JSON's values."""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
import typing
import warnings
from pathlib import Path

import pandas as pd
import pytest

import clfeval
import clfeval.ops.rank as ops
import clfeval.significance
from clfeval.front import rank
from tests._helpers.goldenpins import diff
from tests._helpers.readonly import writable_places
from tests._helpers.registry import CASES, dump, write_inputs

NAMES = sorted(n for n in CASES if n.startswith("rank/"))
GOLDEN = Path(__file__).resolve().parents[1] / "_helpers" / "golden" / "registry"
PARTS = [getattr(ops, n) for n in ops.__all__]


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    root = tmp_path_factory.mktemp("rank")
    write_inputs(root)
    return root


@pytest.fixture(scope="module")
def results(root):
    out = {name: CASES[name](root) for name in NAMES}
    out["rank/frame-require"] = clfeval.rank(pd.read_csv(root / "wide.csv"), higher_is_better=True, samples=2000,
                                             require=["p_better(D,A)>=0.95", "in_best_group(B)"])
    return out


def test_the_registry_has_the_variants():
    assert NAMES == ["rank/arrays", "rank/frame", "rank/frame-long-pairs", "rank/path"]


@pytest.mark.parametrize("name", [*NAMES, "rank/frame-require"])
def test_each_case_returns_the_one_type_read_only_all_the_way_down(results, name):
    r = results[name]
    assert type(r) is ops.RankResult
    assert writable_places(r) == []
    assert isinstance(r.friedman, ops.FriedmanTest) and isinstance(r.nemenyi, ops.NemenyiTest)
    assert r.pairs and all(isinstance(p, ops.RankPair) for p in r.pairs)
    assert all(isinstance(b, ops.BayesPair) for b in r.bayes)
    assert r.control is None or all(isinstance(c, ops.ControlPair) for c in r.control.comparisons)


def test_the_cases_hold_every_part(results):
    long = results["rank/frame-long-pairs"]
    assert isinstance(long.control, ops.ControlComparisons) and long.control.name == "A"
    assert [(b.a, b.b) for b in long.bayes] == [("A", "B"), ("C", "D")]
    assert results["rank/path"].bayes == () and results["rank/path"].p_better("A", "B") is None
    req = results["rank/frame-require"].requirements
    assert isinstance(req, ops.RankRequirements) and all(isinstance(c, ops.RankCondition) for c in req.conditions)
    assert [c.condition for c in req.conditions] == ["p_better(D,A)>=0.95", "in_best_group(B)"]


def test_nested_assignment_raises(results):
    r = results["rank/frame-long-pairs"]
    with pytest.raises(TypeError):
        r.average_ranks["A"] = 1.0  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.friedman.chi2 = 0.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.nemenyi.groups[0] = ("A",)  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.pairs[0].p_value = 0.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.control.comparisons[0].separated = False  # type: ignore[misc, union-attr]
    with pytest.raises(TypeError):
        r.signature["seed"] = 1  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        results["rank/frame-require"].requirements.conditions[0].met = True  # type: ignore[misc, union-attr]


@pytest.mark.parametrize("name", NAMES)
def test_to_dict_is_the_golden_json_and_from_dict_reads_it_back(results, name):
    r = results[name]
    want = json.loads((GOLDEN / (name.replace("/", "__") + ".json")).read_text(encoding="utf-8"))
    assert diff(json.loads(dump(r)), want) == []  # resampled fields: within their Monte-Carlo tolerance
    assert ops.RankResult.from_dict(r.to_dict()) == r
    d = r.to_dict()
    d["pairs"].clear()
    d["average_ranks"]["A"] = -1
    assert diff(json.loads(dump(r)), want) == []  # the JSON is a copy


def test_from_dict_reads_the_json_text_where_undefined_numbers_are_null(results):
    from clfeval.render import to_json

    r = results["rank/frame-require"]
    back = ops.RankResult.from_dict(json.loads(to_json(r)))
    assert back.to_dict()["requirements"] == r.to_dict()["requirements"]
    assert back.pairs == r.pairs and back.bayes == r.bayes and back.friedman == r.friedman
    null_f = {**r.to_dict()["friedman"], "iman_davenport_f": None}
    assert math.isnan(ops.FriedmanTest.of(null_f).iman_davenport_f)
    with pytest.raises(TypeError, match="expected a number"):
        ops.FriedmanTest.of({**null_f, "chi2": "high"})


def test_the_requirement_functions_and_the_figures_read_fields(results):
    from clfeval.significance._multirank import req_in_best_group, req_p_better

    r = results["rank/frame-require"]
    assert req_p_better(r, "D", "A") == (r.p_better("D", "A"), None)
    assert req_p_better(r.to_dict(), "D", "A") == req_p_better(r, "D", "A")  # a JSON dict: read through from_dict
    assert req_in_best_group(r, "B") == ("B" in r.best_group, None)
    assert r.requirements.conditions[0].value == r.p_better("D", "A")
    pytest.importorskip("matplotlib")
    from clfeval import plots

    for draw in (plots.cd_diagram, plots.bayes_bars):
        a, b = draw(r), draw(json.loads(json.dumps(r.to_dict(), default=str)))
        assert [t.get_text() for t in a.axes[0].texts] == [t.get_text() for t in b.axes[0].texts]
    with pytest.raises(clfeval.UsageError, match="cd figure needs a ranking"):
        plots.cd_diagram({"accuracy": 0.5})


def test_the_moved_name_is_the_same_type_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert clfeval.RankResult is ops.RankResult
        assert clfeval.significance.RankResult is ops.RankResult
        from clfeval.significance import RankResult
    assert RankResult is ops.RankResult


def test_the_item_reads_of_earlier_versions_warn_and_give_the_json(results):
    r = results["rank/frame-require"]
    with pytest.warns(DeprecationWarning, match=r"FriedmanTest\['chi2'\] is deprecated.*FriedmanTest\.chi2"):
        assert r.friedman["chi2"] == r.friedman.chi2
    with pytest.warns(DeprecationWarning, match="FriedmanTest"):
        assert r.friedman["df_f"] == list(r.friedman.df_f)
    with pytest.warns(DeprecationWarning, match="RankRequirements"):
        assert r.requirements["met"] is r.requirements.met
    with pytest.warns(DeprecationWarning, match="RankPair"):
        assert r.pair("A", "B")["p_value"] == r.pair("A", "B").p_value


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
    hints = inspect.get_annotations(rank)
    assert hints["return"] == "RankResult"
    assert not [k for k, v in hints.items() if "Any" in str(v)], hints
