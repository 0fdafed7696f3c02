"""Typed results (issue 22): label keys of the input's type, metric() by catalogue name refusing unknown labels,
1 and 1.0 one label, delong_compare / noninferiority with one result type each, one undefined convention
(NaN in Python, null in JSON) over every result type's to_dict()."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from sklearn.metrics import f1_score, precision_score, recall_score

import clfeval
from clfeval.render import to_json

GOLD = [1, 2, 2, 3, 3, 3, 1, 2]
PRED = [1, 2, 3, 3, 3, 2, 2, 2]


def test_integer_labels_are_integer_keys():
    r = clfeval.report(GOLD, PRED)
    assert list(r.per_class) == [1, 2, 3] and all(type(k) is int for k in r.per_class)
    assert r.per_class[1].recall == recall_score(GOLD, PRED, labels=[1], average=None)[0] == 0.5
    assert r.per_class["2"] is r.per_class[2]  # the text form (a command-line option) finds it too
    assert list(r.to_dict()["per_class"]) == ["1", "2", "3"]  # JSON keys are text
    assert json.loads(to_json(r))["per_class"]["3"]["f1"] == pytest.approx(
        f1_score(GOLD, PRED, labels=[3], average=None)[0], abs=1e-15)


def test_one_vs_rest_rankings_keep_the_label_type():
    from sklearn.metrics import roc_auc_score

    g = [1, 2, 1, 3, 2, 1]
    cols = {1: [.9, .1, .4, .2, .3, .5], 2: [.1, .9, .1, .2, .6, .3], 3: [.1, .1, .2, .9, .3, .2]}
    r = clfeval.ranking_ovr(g, cols)
    assert list(r.per_class) == [1, 2, 3]
    assert r.per_class[1].roc_auc == roc_auc_score([x == 1 for x in g], cols[1])
    assert list(r.to_dict()["per_class"]) == ["1", "2", "3"]


def test_string_and_boolean_labels_keep_their_type():
    assert list(clfeval.report(["b", "a"], ["a", "a"]).per_class) == ["a", "b"]
    r = clfeval.report([True, False, True], [True, True, False])
    assert set(r.per_class) == {False, True} and r.per_class[True].precision == 0.5


def test_integral_floats_beside_integers_are_one_label():
    gold = [float(x) for x in GOLD]
    r = clfeval.report(gold, PRED)
    assert to_json(r) == to_json(clfeval.report(GOLD, PRED))  # NaN != NaN: compared as JSON text
    assert r.per_class[1].precision == precision_score(GOLD, PRED, labels=[1], average=None)[0]
    assert clfeval.compare(gold, PRED, GOLD, samples=50).a == pytest.approx(5 / 8)
    with pytest.raises(clfeval.DataError, match="float labels"):  # 1.5 is not a label of the integers
        clfeval.report([1.5, 2.0], [1, 2])


def test_metric_by_name_refuses_an_unknown_label():
    r = clfeval.report(GOLD, PRED)
    assert r.metric("recall:1") == 0.5 and r.metric("macro_f1") == r.macro.f1
    with pytest.raises(clfeval.UsageError, match="'9'.*labels are: '1', '2', '3'"):
        r.metric("recall:9")
    with pytest.raises(clfeval.UsageError, match="unknown metric"):
        r.metric("recal:1")
    assert r.values["f1:2"] == r.per_class[2].f1 and r.values["accuracy"] == r.accuracy


def test_delong_compare_and_noninferiority_have_one_result_type_each():
    rng = np.random.default_rng(0)
    y = rng.random(60) < 0.5
    a, b = y + rng.normal(0, 0.8, 60), y + rng.normal(0, 1.2, 60)
    r = clfeval.delong_compare(y, a, b, positive=True)
    assert type(r) is clfeval.Compared and r.kind == "delong"
    with pytest.raises(clfeval.UsageError, match="delong_ovr"):
        clfeval.delong_compare(y, {"x": a}, {"x": b}, positive=True)
    g = ["x", "y"] * 30
    ovr = clfeval.delong_ovr(g, {"x": a, "y": -a}, {"x": b, "y": -b})
    assert type(ovr) is clfeval.Compared and ovr.kind == "delong_ovr"
    ni = clfeval.noninferiority(GOLD * 5, PRED * 5, GOLD * 5, margin=0.05, samples=200)
    assert type(ni) is clfeval.Compared and ni.kind == "noninferiority"


# --- one undefined convention --------------------------------------------------------------

def _at(d, path):
    for k in path:
        d = d[k]
    return d


def _undefined_cases():
    from clfeval.evaluate._requirements import check_requirements
    from clfeval.significance._delong import delong_auc

    yield "report (zero_division nan)", clfeval.report(["a", "b", "b"], ["b", "b", "b"], zero_division="nan"), \
        ("per_class", "a", "precision")
    yield "report (infinite LR+)", clfeval.report(["a", "a", "b", "b"], ["a", "b", "b", "b"], positive="a"), \
        ("binary", "lr_plus")
    yield "ranking summary (no negatives)", clfeval.ranking([1, 1, 1], [0.2, 0.4, 0.1], positive=1), ("roc_auc",)
    streamed = clfeval.ranking([1] * 3000, np.linspace(0, 1, 3000), positive=1, engine=clfeval.Local(memory=4096))
    assert streamed.engine["mode"] == "streamed"
    yield "ranking summary streamed", streamed, ("roc_auc",)
    yield "one-vs-rest ranking", clfeval.ranking_ovr(["a", "a", "b"], {"a": [0.9, 0.8, 0.1], "b": [0.1, 0.2, 0.9],
                                                                        "c": [0.3, 0.3, 0.3]}), \
        ("per_class", "c", "roc_auc")
    yield "comparison", clfeval.compare(["a", "b", "b"], ["b", "b", "b"], ["b", "b", "b"], metric="precision:a",
                                        zero_division="nan", samples=20), ("a",)
    yield "DeLong interval (one positive)", delong_auc([1, 0, 0, 0], [0.9, 0.1, 0.4, 0.3], positive=1), ("se",)
    yield "DeLong comparison (one positive)", clfeval.delong_compare(
        [1, 0, 0, 0], [0.9, 0.1, 0.4, 0.3], [0.2, 0.1, 0.4, 0.3], positive=1), ("var_a",)
    rep = clfeval.report(["a", "b", "b"], ["b", "b", "b"], zero_division="nan")
    yield "requirements", check_requirements(rep, ["precision:a>=0.5"]), ("conditions", 0, "value")
    from clfeval.significance import _power as pw
    from clfeval.significance._cvcompare import cv_compare

    yield "McNemar power (no discordant item)", pw.mcnemar_power(0, 0, 500, delta=0.01), ("detectable_delta",)
    yield "bootstrap power (identical systems)", pw.bootstrap_power(GOLD * 10, PRED * 10, PRED * 10,
                                                                     samples=100), ("detectable_delta",)
    folds = lambda vals: [{"repeat": 1, "fold": i + 1, "n_train": 200, "n_test": 100, "macro_f1": v}  # noqa: E731
                          for i, v in enumerate(vals)]
    yield "CV comparison (zero variance)", cv_compare(folds([0.8, 0.81, 0.79]), folds([0.78, 0.79, 0.77]),
                                                      metric="macro_f1"), ("corrected_t", "p_value")
    yield "non-inferiority (undefined metric)", clfeval.noninferiority(
        ["a", "b", "b"] * 4, ["b", "b", "b"] * 4, ["b", "b", "b"] * 4, margin=0.1, metric="precision:a",
        zero_division="nan", samples=50), ("a",)
    # the typed optional parts of a report, each on its own (their to_dict is what the report lays out)
    parted = clfeval.report(["a", "b", "b"] * 5, ["b", "b", "b"] * 5, zero_division="nan", ci=0.9, samples=100,
                            require=["precision:a>=0.5"])
    yield "report part: intervals", parted.ci, ("per_class", "a", "precision", 0)
    yield "report part: requirements", parted.requirements, ("conditions", 0, "value")
    yield "report part: ranking (no negatives)", clfeval.report([1, 1, 1], [1, 1, 0], scores=[.2, .4, .1],
                                                                positive=1).ranking, ("roc_auc",)
    import pyarrow as pa

    sliced = clfeval.report(pa.table({"gold": ["a", "b", "b"] * 20, "pred": ["b", "b", "b"] * 20,
                                      "reg": ["x", "y"] * 30}), by="reg", zero_division="nan")
    yield "report part: slices", sliced.slices, ("slices", 0, "metrics", "precision:a")
    yield "compare's one type (undefined metric)", clfeval.compare(
        ["a", "b", "b"], ["b", "b", "b"], ["b", "b", "b"], metric="precision:a", zero_division="nan",
        samples=20), ("a",)


@pytest.mark.parametrize("what, result, path", list(_undefined_cases()), ids=lambda x: x if isinstance(x, str) else "")
def test_undefined_is_nan_in_python_and_null_in_json(what, result, path):
    v = _at(result.to_dict(), path)
    assert isinstance(v, float) and math.isnan(v), (what, v)
    assert _at(json.loads(to_json(result)), path) is None


def _leaves(d, path=()):
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(d, (list, tuple)):
        for i, v in enumerate(d):
            yield from _leaves(v, path + (i,))
    else:
        yield path, d


@pytest.mark.parametrize("what, result, path", list(_undefined_cases()), ids=lambda x: x if isinstance(x, str) else "")
def test_no_result_holds_an_infinity(what, result, path):
    bad = [p for p, v in _leaves(result.to_dict()) if isinstance(v, float) and math.isinf(v)]
    assert not bad, (what, bad)
