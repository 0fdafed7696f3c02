"""``clfeval.cv`` and ``clfeval.holdout`` (issue 39): the commands as library operations.

- the library call's ``to_dict()`` is the JSON of ``clfeval cv`` / ``clfeval holdout --no-log --format json``;
- arrays, a DataFrame and a PATH of the same data give the same result;
- ``engine=Dask()`` is refused with the capability table's reason before any work (no cluster started);
- the numbers are those of the out-of-fold predictions themselves (accuracy per fold and pooled, counted here).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import clfeval
from clfeval.engines import Dask, Local, _capabilities as caps
from clfeval.errors import DataError, UsageError
from tests._helpers.clihelp import run
from tests._helpers.news import make_data

pytest.importorskip("sklearn")


@pytest.fixture(scope="module")
def news(tmp_path_factory):
    path = make_data(tmp_path_factory.mktemp("front_protocols") / "news.csv", n=60)
    return path, pd.read_csv(path, dtype=str)


def _json(result):
    """``to_dict()`` as the command prints it (NaN is null in JSON) without the engine block, which a result of the
    front door carries and the command (the library's steps, no engine) does not."""
    d = {k: v for k, v in result.to_dict().items() if k != "engine"}
    assert result.to_dict()["engine"]["name"] == "local"
    return json.loads(json.dumps(d, allow_nan=True).replace("NaN", "null"))


def _cli(command, path, *extra):
    res = run(command, path, "--text", "body", "--label", "topic", "--no-log", "--format", "json", *extra)
    assert res.code == 0, res.err
    return json.loads(res.out)


def test_cv_equals_the_commands_json(news):
    path, _ = news
    got = clfeval.cv(str(path), text="body", label="topic", folds=3, stratified=True, seed=4, metrics=["f1:sport"])
    assert _json(got) == _cli("cv", path, "--folds", "3", "--stratified", "--seed", "4", "--metric", "f1:sport")
    assert got.engine.name == "local" and got.run_id is None


def test_holdout_equals_the_commands_json(news):
    path, _ = news
    got = clfeval.holdout(path, text="body", label="topic", test_size=0.25, val_size=0.25, repeats=2, seed=1,
                          model="logreg")
    want = _cli("holdout", path, "--test-size", "0.25", "--val-size", "0.25", "--repeats", "2", "--seed", "1",
                "--model", "logreg")
    assert _json(got) == want
    assert [f.n_test for f in got.folds] == [15, 15]  # a quarter of 60, each repeat


def test_arrays_a_dataframe_and_a_path_give_the_same_result(news):
    path, frame = news
    kw = dict(folds=4, seed=2, stratified=True)
    from_path = clfeval.cv(path, text="body", label="topic", id="id", **kw).to_dict()
    from_frame = clfeval.cv(frame, text="body", label="topic", id="id", **kw).to_dict()
    from_arrays = clfeval.cv(frame["body"].to_numpy(), frame["topic"].tolist(), **kw).to_dict()
    assert from_frame == from_path
    assert from_arrays == from_path  # ids do not enter the JSON; the row numbers stand in for them


def test_the_numbers_are_those_of_the_out_of_fold_predictions(news):
    _, frame = news
    r = clfeval.cv(frame, text="body", label="topic", folds=3, seed=0)
    p = r.predictions.to_pandas()
    assert len(p) == 60 and sorted(p["fold"].unique()) == [1, 2, 3]  # every item tested once
    per_fold = [float((g["gold"] == g["pred"]).mean()) for _, g in p.groupby("fold")]
    assert [f.metrics["accuracy"] for f in r.folds] == pytest.approx(per_fold, abs=1e-12)
    assert r.spread["accuracy"].mean == pytest.approx(np.mean(per_fold), abs=1e-12)
    assert r.spread["accuracy"].std == pytest.approx(np.std(per_fold, ddof=1), abs=1e-12)
    assert r.pooled.accuracy == pytest.approx(float((p["gold"] == p["pred"]).mean()), abs=1e-12)


@pytest.mark.parametrize("op", ["cv", "holdout"])
def test_dask_is_refused_with_the_tables_reason_before_any_work(op, monkeypatch):
    started = []
    monkeypatch.setattr("clfeval.front._protocols.read_data", lambda *a, **k: started.append(a))
    reason = next(c.dask for c in caps.TABLE if (c.operation, c.option) == (op, "model"))
    assert reason.startswith("fitting models is not distributed: run " + op + " on Local")
    with pytest.raises(UsageError) as err:
        getattr(clfeval, op)(["a b", "c d"] * 5, ["x", "y"] * 5, engine=Dask())  # Dask(): a cluster started per call
    assert reason in str(err.value)
    assert started == []  # refused before reading anything, let alone starting a cluster


def test_local_is_the_default_engine():
    r = clfeval.cv(["a b", "c d"] * 5, ["x", "y"] * 5, folds=2, engine=Local())
    assert r.engine.name == "local" and r.engine.mode == "memory"
    assert _json(clfeval.cv(["a b", "c d"] * 5, ["x", "y"] * 5, folds=2)) == _json(r)  # NaN == NaN as null


def test_arguments_are_checked_before_the_data_is_read(news):
    _, frame = news
    with pytest.raises(UsageError, match="positive"):
        clfeval.cv(frame, text="body", label="topic", positive="sport")  # without tune_threshold
    with pytest.raises(UsageError, match="labels"):
        clfeval.cv(["a b", "c d"])  # texts as an array need their labels
    with pytest.raises(DataError, match="differ in number"):
        clfeval.holdout(["a b", "c d", "e f"], ["x", "y"])
    with pytest.raises(DataError, match="no column 'body2'"):
        clfeval.cv(frame, text="body2", label="topic")
