"""One signature for every result: the same keys mean the same thing everywhere."""

from __future__ import annotations

import importlib.metadata
import platform

import numpy as np
import pytest

import clfeval
from clfeval.core._catalog import catalogue as clfeval_catalogue
from clfeval.core._signature import build_signature, versions
from clfeval.studies._demo import run_demo

BASE = {"python", "clfeval", "numpy", "scipy", "pyarrow"}


def results():
    gold = ["a", "b", "a", "b", "a", "b", "a", "a"]
    pred = ["a", "b", "b", "b", "a", "a", "a", "a"]
    s = [0.9, 0.2, 0.6, 0.1, 0.8, 0.7, 0.95, 0.4]
    yield "report", clfeval.report(gold, pred), False
    yield "report ci", clfeval.report(gold, pred, ci=0.9, samples=50), False
    yield "ranking", clfeval.ranking(gold, s, positive="a"), False
    yield "ranking_ovr", clfeval.ranking_ovr(gold, {"a": s, "b": [1 - x for x in s]}), False
    yield "reliability", clfeval.reliability(gold, s, positive="a"), False
    yield "choose_threshold", clfeval.choose_threshold(gold, s, positive="a", dev_gold=gold, dev_scores=s), False
    yield "choose_label_thresholds", clfeval.choose_label_thresholds(["a", "b", "a|b", ""],
                                                                     {"a": [0.9, 0.1, 0.8, 0.2],
                                                                      "b": [0.1, 0.9, 0.7, 0.3]}), False
    yield "compare", clfeval.compare(gold, pred, gold, samples=50, seed=4), True
    yield "compare_many", clfeval.compare_many(gold, {"x": pred, "y": gold, "z": ["a"] * 8}, samples=50, seed=4), True
    yield "demo", run_demo("trap"), False
    yield from decision_results(gold, pred, s)
    yield "metrics", clfeval_catalogue(), False


def decision_results(gold, pred, s):
    from clfeval.evaluate._requirements import check_requirements
    from clfeval.significance import (
        _curvebands as curvebands,
        _cvcompare as cvcompare,
        _delong as delong,
        _noninferiority as noninferiority,
        _power as power,
    )

    other = [1 - x for x in s]
    yield "delong_test", clfeval.compare(gold, s, other, metric="roc_auc", test="delong", positive="a"), False
    yield "delong_ovr", delong.delong_ovr(gold, {"a": s, "b": other}, {"a": other, "b": s}), False
    yield "delong_auc", delong.delong_auc(gold, s, positive="a"), False
    yield "curve_bands", curvebands.curve_bands(gold, s, positive="a", samples=50, seed=4), True
    yield "noninferiority", noninferiority.noninferiority(gold, pred, gold, margin=0.1, samples=50, seed=4), True
    yield "mcnemar_power", power.power_compare(gold, pred, gold), False
    yield "bootstrap_power", power.power_compare(gold, pred, gold, metric="macro_f1", samples=50, seed=4), True
    yield "interval_width", power.interval_width(gold, pred, samples=50, seed=4), True
    folds = [{"fold": j, "n_train": 6, "n_test": 2, "accuracy": 0.5 + 0.1 * j} for j in (1, 2, 3)]
    yield "cv_compare", cvcompare.cv_compare(folds, [dict(f, accuracy=0.5) for f in folds], metric="accuracy"), False
    yield "requirements", check_requirements(clfeval.report(gold, pred), ["accuracy>majority"]), False


@pytest.mark.parametrize("name,result,random", list(results()), ids=lambda x: x if isinstance(x, str) else "")
def test_every_result_carries_the_one_signature(name, result, random):
    sig = result.to_dict()["signature"]
    assert sig["version"] == clfeval.__version__ == importlib.metadata.version("clfeval")
    assert set(sig["versions"]) == BASE, name  # no scikit-learn: none of these used it
    assert sig["versions"]["python"] == platform.python_version()
    assert sig["versions"]["numpy"] == np.__version__
    assert list(sig)[0] == "version" and list(sig)[-1] == "versions"
    if random:
        assert sig["seed"] == 4 and sig["samples"] == 50


def test_protocol_signature_names_scikit_learn():
    from sklearn.dummy import DummyClassifier

    from clfeval.protocols._api import cross_validate

    r = cross_validate(DummyClassifier(), [[0]] * 6, ["a", "b"] * 3, folds=2, seed=7)
    sig = r.to_dict()["signature"]
    assert BASE | {"scikit-learn"} <= set(sig["versions"]) <= BASE | {"scikit-learn", "PyStemmer"}
    assert sig["versions"]["scikit-learn"] == importlib.metadata.version("scikit-learn")
    assert sig["seed"] == 7


def test_generator_seed_is_recorded_as_none():
    sig = build_signature({"test": "x"}, seed=np.random.default_rng(0), samples=10)
    assert sig["seed"] is None and sig["samples"] == 10
    assert "seed" not in build_signature({"test": "x"})
    assert build_signature(random=True)["seed"] is None


def test_versions_read_the_installed_distributions():
    v = versions(["scikit-learn"])
    assert v["scipy"] == importlib.metadata.version("scipy")
    assert v["pyarrow"] == importlib.metadata.version("pyarrow")
    assert v["scikit-learn"] == importlib.metadata.version("scikit-learn")
