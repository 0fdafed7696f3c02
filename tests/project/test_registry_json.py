"""The JSON does not move (issue 36): ``to_dict()`` of every case of the front door's registry
(``tests/_helpers/registry.py``: seven operations × arrays, a DataFrame, a PATH × their variants), parsed and with
``signature.versions`` masked, equals the dump made from main before the typed-results change
(``tests/_helpers/golden/registry/``, written by ``tools/golden_json.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._helpers.registry import CASES, dump, write_inputs

GOLDEN = Path(__file__).resolve().parents[1] / "_helpers" / "golden" / "registry"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("registry")
    write_inputs(root)
    return root


def test_every_case_has_its_golden_file_and_no_other():
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(n.replace("/", "__") for n in CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_json_of_each_case_is_the_golden_one(name, inputs):
    got = json.loads(dump(CASES[name](inputs)))
    want = json.loads((GOLDEN / (name.replace("/", "__") + ".json")).read_text(encoding="utf-8"))
    assert got == want
