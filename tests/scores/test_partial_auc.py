"""Partial ROC-AUC: a ranking metric added through the catalogue and one function of the ranking summary.

Oracle: scikit-learn's ROC points, trapezoids up to max_fpr with the crossing segment interpolated
(tests/_helpers/partial_auc_oracle.py); scikit-learn's roc_auc_score(max_fpr=...) is McClish's standardization of it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import clfeval
from clfeval.core import _catalog as catalog, _ranksummary as ranksummary
from clfeval.engines import Local
from tests._helpers.partial_auc_oracle import mcclish, partial_auc


def _case(seed: int, n: int, distinct: int | None, prevalence: float = 0.3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    y[0], y[1] = True, False
    s = y * 0.8 + rng.normal(size=n)
    if distinct is not None:
        s = np.round(s * distinct / 4) / distinct  # heavy ties
    return y, s


def test_hand_computed():
    # positives at 0.9 and 0.7, negatives at 0.8 and 0.1: ROC (0,0) (0,.5) (.5,.5) (.5,1) (1,1)
    r = clfeval.ranking([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], positive=1)
    assert r.metric("partial_roc_auc", max_fpr=0.5) == 0.25
    assert r.metric("partial_roc_auc", max_fpr=0.25) == 0.125
    assert r.metric("partial_roc_auc", max_fpr=0.75) == 0.25 + 0.25  # 0.5·0.5 + 0.25·1
    assert r.metric("partial_roc_auc", max_fpr=1.0) == r.roc_auc == 0.75
    # a tie between a positive and a negative is a diagonal segment: (0,0) → (1,1) at max_fpr 0.5 → 0.125
    assert clfeval.ranking([1, 0], [0.5, 0.5], positive=1).metric("partial_roc_auc", max_fpr=0.5) == 0.125


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("max_fpr", [0.01, 0.05, 0.1, 0.3, 0.77, 1.0])
def test_against_the_oracle_and_mcclish(seed, max_fpr):
    y, s = _case(seed, 50 + 97 * seed, [None, 3, 20][seed % 3])
    r = clfeval.ranking(y, s, positive=True)
    got = r.metric("partial_roc_auc", max_fpr=max_fpr)
    assert got == pytest.approx(partial_auc(y, s, max_fpr), abs=1e-12)
    if max_fpr < 1:
        assert mcclish(got, max_fpr) == pytest.approx(roc_auc_score(y, s, max_fpr=max_fpr), abs=1e-12)


def test_the_catalogue_entry_is_the_function_of_the_summary():
    m = catalog.get("partial_roc_auc")
    assert m.input == "ranking" and m.compute is ranksummary.partial_roc_auc and m.params == {"max_fpr": 0.1}
    y, s = _case(5, 400, None)
    d = clfeval.ranking(y, s, positive=True).to_dict()
    assert d["max_fpr"] == 0.1 and d["partial_roc_auc"] == pytest.approx(partial_auc(y, s, 0.1), abs=1e-12)


def test_undefined_without_negatives_and_bad_max_fpr():
    r = clfeval.ranking([1, 1], [0.2, 0.3], positive=1)
    assert math.isnan(r.metric("partial_roc_auc")) and math.isnan(r.to_dict()["partial_roc_auc"])
    assert "partial_roc_auc" in [u["metric"] for u in r.to_dict()["undefined"]]
    with pytest.raises(clfeval.UsageError, match="max_fpr"):
        clfeval.ranking([1, 0], [0.2, 0.3], positive=1).metric("partial_roc_auc", max_fpr=0)


def test_every_engine_gives_the_same_value(tmp_path):
    y, s = _case(7, 3000, 50)
    want = partial_auc(y, s, 0.2)
    for engine in (None, Local(memory=16384)):  # streamed: 50 distinct scores' counts fit 16 KiB
        r = clfeval.ranking(y, s, positive=True, engine=engine)
        assert r.engine["mode"] == ("memory" if engine is None else "streamed")
        assert r.metric("partial_roc_auc", max_fpr=0.2) == pytest.approx(want, abs=1e-12), engine


def test_beyond_memory_without_the_cuts_the_json_value_is_still_exact():
    y, s = _case(8, 3000, None)  # 3,000 distinct scores: their counts do not fit a 4 KiB budget
    r = clfeval.ranking(y, s, positive=True, engine=Local(memory=4096))
    assert r.engine["mode"] == "streamed" and not r.has_cuts
    d = r.to_dict()
    # at the JSON's max_fpr the area is summed range by range, exactly: the in-memory bits
    assert d["partial_roc_auc"] == clfeval.ranking(y, s, positive=True).to_dict()["partial_roc_auc"]
    assert d["partial_roc_auc"] == pytest.approx(partial_auc(y, s, 0.1), abs=1e-12)
    assert "partial_roc_auc" not in [u["metric"] for u in d["undefined"]]
    with pytest.raises(clfeval.UsageError, match="distinct scores"):  # another max_fpr needs the cuts
        r.metric("partial_roc_auc", max_fpr=0.2)
    assert r.roc_auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)  # the exact counts stay exact


def test_on_dask_the_same_value(dask_client):
    from clfeval.engines import Dask

    y, s = _case(9, 2000, 40)
    r = clfeval.ranking(y, s, positive=True, engine=Dask(dask_client))
    assert r.engine["mode"] == "cluster"
    assert r.metric("partial_roc_auc", max_fpr=0.2) == pytest.approx(partial_auc(y, s, 0.2), abs=1e-12)


def test_compare_and_require_find_it_through_the_catalogue():
    from clfeval.evaluate._requirements import check_requirements

    y, s = _case(11, 300, None)
    other = y + np.random.default_rng(1).normal(0, 1.5, y.size)
    c = clfeval.compare(y, s, other, metric="partial_roc_auc", positive=True, samples=100)
    assert c.a == pytest.approx(partial_auc(y, s, 0.1), abs=1e-12)
    assert c.b == pytest.approx(partial_auc(y, other, 0.1), abs=1e-12)
    rep = clfeval.report(y.astype(int), (s > 0.5).astype(int), scores=s, positive=1)
    cond = check_requirements(rep, ["partial_roc_auc>=0.01"]).conditions[0]
    assert cond["value"] == pytest.approx(partial_auc(y, s, 0.1), abs=1e-12)
