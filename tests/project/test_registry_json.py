"""The JSON does not move (issue 36): ``to_dict()`` of every case of the front door's registry
(``tests/_helpers/registry.py``: seven operations × arrays, a DataFrame, a PATH × their variants), parsed and with
``signature.versions`` masked, equals the dump made from main before the typed-results change
(``tests/_helpers/golden/registry/``, written by ``tools/golden_json.py``).

Issue 39: the fields a seeded resample produced (``tests/_helpers/goldenpins.py`` lists them) are distribution pins,
within their stated Monte-Carlo tolerance (``tests/_helpers/mc.py``); every other field is compared exactly. Another
seed (another draw of the same distribution, as another sampler gives) passes; a changed exact field, or a resampled
one beyond its tolerance, fails."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pandas as pd
import pytest

import clfeval
from tests._helpers.goldenpins import diff
from tests._helpers.registry import CASES, columns, dump, write_inputs

GOLDEN = Path(__file__).resolve().parents[1] / "_helpers" / "golden" / "registry"


def golden(name: str) -> dict:
    return json.loads((GOLDEN / (name.replace("/", "__") + ".json")).read_text(encoding="utf-8"))


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
    assert diff(got, golden(name)) == []


def _reseeded(got: dict, want: dict) -> dict:
    """``got`` with the seed fields set to the golden's (the one thing another seed changes on purpose)."""
    def walk(g, w):
        if isinstance(g, dict) and isinstance(w, dict):
            return {k: (w[k] if k == "seed" and k in w else walk(v, w.get(k))) for k, v in g.items()}
        if isinstance(g, list) and isinstance(w, list) and len(g) == len(w):
            return [walk(a, b) for a, b in zip(g, w, strict=True)]
        return g
    return walk(got, want)


@pytest.mark.parametrize("seed", [2, 3])
def test_another_draw_of_the_same_distribution_passes(seed, inputs):
    """Another seed stands in for another exact sampler: every resampled field moves, all within tolerance."""
    c = columns()
    runs = {"compare/arrays": clfeval.compare(c["gold"], c["pred"], c["other"], samples=200, seed=seed),
            "report/arrays-ci": clfeval.report(c["gold"], c["pred"], ci=0.95, samples=200, seed=seed),
            "compare/arrays-margin": clfeval.compare(c["gold"], c["pred"], c["other"], margin=0.05, samples=200,
                                                     seed=seed)}
    for name, result in runs.items():
        want = golden(name)
        was = want.get("seed", want.get("ci", {}).get("seed"))
        got = _reseeded(json.loads(dump(result).replace(f"seed {seed}", f"seed {was}")), want)
        assert got != want, name  # the draw moved something ...
        assert diff(got, want) == [], name  # ... within the stated tolerance
    rank = clfeval.rank(pd.read_csv(inputs / "wide.csv"), higher_is_better=True, samples=2000, seed=seed)
    want = golden("rank/frame")
    got = _reseeded(json.loads(dump(rank).replace(f"seed {seed}", f"seed {want['seed']}")), want)
    assert diff(got, want) == []  # D against B: P = 0.949 in the golden, 0.953 or 0.956 here (a decision at 0.95)


def test_an_exact_field_that_differs_fails_and_a_resampled_one_only_beyond_its_tolerance():
    want = golden("compare/arrays")
    for path, value in ((("a",), want["a"] + 1e-9), (("delta",), want["delta"] + 1e-9),
                        (("n",), 241), (("significant",), False), (("distribution", "samples"), 199),
                        (("ci", "level"), 0.9), (("ci", "test_bound", "matches_test"), False)):
        got = copy.deepcopy(want)
        *head, last = path
        node = got
        for k in head:
            node = node[k]
        node[last] = value
        assert diff(got, want), path  # not a resampled field: compared exactly
    low, high = want["ci"]["delta"]
    near, far = copy.deepcopy(want), copy.deepcopy(want)
    near["ci"]["delta"] = [low + 0.004, high - 0.004]
    far["ci"]["delta"] = [low + 0.06, high]  # 0.06: beyond 4·√2 Monte-Carlo errors of a 2.5 % quantile at B = 200
    assert diff(near, want) == [] and diff(far, want)
    near, far = copy.deepcopy(want), copy.deepcopy(want)
    near["p_value"], far["p_value"] = 0.01, 0.2  # golden p = 0: one or two replicates of 200 is within; 40 is not
    assert diff(near, want) == [] and diff(far, want)
    r = golden("report/arrays-ci")
    wilson = copy.deepcopy(r)  # a Wilson interval is closed-form: exact, although it sits among bootstrap ones
    wilson["ci"]["per_class"]["cat"]["precision"][0] += 1e-9
    bca = copy.deepcopy(r)
    bca["ci"]["accuracy"][0] += 1e-3
    values = copy.deepcopy(r)
    values["ci"]["values"]["accuracy"] += 1e-9
    assert diff(wilson, r) and diff(bca, r) == [] and diff(values, r)
    rank = golden("rank/frame")
    moved = copy.deepcopy(rank)
    moved["bayes"][0]["p_a_better"] += 0.01
    moved["bayes"][0]["verdict"] = moved["bayes"][0]["verdict"].replace("0.634", "0.644")
    worded = copy.deepcopy(rank)
    worded["bayes"][0]["verdict"] = worded["bayes"][0]["verdict"].replace("undecided", "decided")
    far = copy.deepcopy(rank)
    far["bayes"][0]["p_a_better"] += 0.2
    wilcoxon = copy.deepcopy(rank)
    wilcoxon["pairs"][0]["p_value"] += 1e-9  # Wilcoxon's exact p: not resampled
    assert diff(moved, rank) == [] and diff(worded, rank) and diff(far, rank) and diff(wilcoxon, rank)
    boundary = copy.deepcopy(rank)  # P = 0.949 against the decision level 0.95: the words may change
    boundary["bayes"][1]["verdict"] = "D is practically better than B by more than the ROPE (0.01) (P = 0.953)."
    boundary["bayes"][1]["p_a_better"] = 0.953
    away = copy.deepcopy(rank)  # P = 0.634: far from any level, the words may not
    away["bayes"][0]["verdict"] = "D is practically better than C by more than the ROPE (0.01) (P = 0.634)."
    assert diff(boundary, rank) == [] and diff(away, rank)
