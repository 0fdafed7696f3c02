"""Threshold choice on Dask (``clfeval.engines.dask.threshold``, ``clfeval threshold --engine dask``) equals the
local one.

Heavy ties, many partitions (row groups of 16 rows, files of 0 and 1 rows); the
only key that differs is ``external`` (the local budget and spills against the
Dask partitions and ranges).
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

pytest.importorskip("distributed")

from clfeval.engines import dask as cd  # noqa: E402
from clfeval.errors import DataError  # noqa: E402
from clfeval.front._dask import DaskRanking  # noqa: E402
from clfeval.scores._thresholds import choose_threshold, choose_threshold_batches, choose_threshold_filled  # noqa: E402
from tests._helpers.clihelp import (
    assert_clean_error,  # noqa: E402
    run,  # noqa: E402
)

OBJECTIVES = ["f1", "f2", "cost", "precision>=0.8", "recall>=0.9"]


def _write(d, n, seed):
    rng = np.random.default_rng(seed)
    gold = rng.choice(["no", "yes", "maybe"], n, p=[0.55, 0.35, 0.1])
    score = np.round(rng.random(n) * 0.6 + 0.4 * (gold == "yes"), 1)  # 11 distinct scores: heavy ties
    d.mkdir()
    t = pa.table({"gold": gold, "score": score})
    for i, (lo, hi) in enumerate([(0, 0), (0, 1), (1, 1), (1, n)]):
        pq.write_table(t.slice(lo, hi - lo), d / f"part-{i}.parquet", row_group_size=16)
    return gold, score


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("dthr")
    return {"test": (d / "test", *_write(d / "test", 240, 0)), "dev": (d / "dev", *_write(d / "dev", 160, 1))}


def _dump(d) -> str:
    return json.dumps(d, sort_keys=True)


def _without_external(d: dict) -> dict:
    d = dict(d)
    d.pop("external")
    d.pop("engine", None)  # the front door's engine block (issue 21): where it ran, not what it computed
    return d


@pytest.fixture(scope="module")
def rankings(dask_client, data):
    """The test and development rankings on the session's cluster, built once (their ranges stay on the workers)."""
    return tuple(DaskRanking(str(data[k][0]), positive="yes", client=dask_client) for k in ("test", "dev"))


def test_dask_threshold_equals_local_bit_for_bit_for_every_objective(data, rankings):
    (_, tg, ts), (_, dg, ds) = data["test"], data["dev"]
    assert rankings[0].partitions > 15 and rankings[0].ranges > 1
    for objective in OBJECTIVES:
        kw = dict(positive="yes", objective=objective, cost_fp=3.0)
        remote = choose_threshold_filled(*rankings, **kw)
        streamed = choose_threshold_batches([(tg[:100], ts[:100]), (tg[100:], ts[100:])], [(dg, ds)], **kw)
        in_memory = choose_threshold(tg, ts, dev_gold=dg, dev_scores=ds, **kw)
        assert _dump(remote.to_dict()) == _dump(_without_external(streamed.to_dict())), objective
        assert _dump(remote.to_dict()) == _dump(in_memory.to_dict()), objective


def test_dask_f1_cut_is_the_brute_force_best_and_ranges_do_not_matter(dask_client, data):
    (tp, tg, ts), (dp, dg, ds) = data["test"], data["dev"]
    y = dg == "yes"
    cuts = np.unique(ds)[::-1]  # decreasing threshold; the first maximum wins
    f1 = [2 * np.sum(y & (ds >= t)) / (np.sum(y) + np.sum(ds >= t)) for t in cuts]
    want = float(cuts[int(np.argmax(f1))])
    outs = [cd.threshold(str(tp), str(dp), positive="yes", client=dask_client, ranges=r) for r in (1, 13)]
    assert outs[0].threshold == outs[1].threshold == want
    assert _dump(_without_external(outs[0].to_dict())) == _dump(_without_external(outs[1].to_dict()))
    y_test = tg == "yes"
    assert outs[0].test.tp == int(np.sum(y_test & (ts >= want)))
    assert outs[0].test.fp == int(np.sum(~y_test & (ts >= want)))
    assert outs[0].external.engine == "dask" and "Ranked on Dask" in str(outs[0])


def test_dask_threshold_without_dev_equals_local(dask_client, data):
    tp, tg, ts = data["test"]
    remote = cd.threshold(str(tp), positive="yes", objective="f2", client=dask_client)
    assert _dump(_without_external(remote.to_dict())) == _dump(choose_threshold(tg, ts, positive="yes",
                                                                                objective="f2").to_dict())


@pytest.mark.parametrize("positive, objective, dev_only", [("cat", "f1", False), ("cat", "f1", True),
                                                           ("maybe", "precision>=0.99", False)])
def test_dask_threshold_refuses_as_locally(dask_client, data, positive, objective, dev_only):
    """A positive missing from the test data, from the development data only; a precision target out of reach."""
    (tp, tg, ts), (dp, dg, ds) = data["test"], data["dev"]
    if dev_only:  # the positive occurs in the test data only
        tg = np.where(tg == "maybe", "cat", tg)
        tp = tp.parent / "test-cat"
        tp.mkdir(exist_ok=True)
        pq.write_table(pa.table({"gold": tg, "score": ts}), tp / "p.parquet", row_group_size=50)
    with pytest.raises(DataError) as local:
        choose_threshold_batches([(tg, ts)], [(dg, ds)], positive=positive, objective=objective)
    with pytest.raises(DataError) as remote:
        cd.threshold(str(tp), str(dp), positive=positive, objective=objective, client=dask_client)
    assert str(remote.value) == str(local.value) and ("0.99" in str(local.value) or "'cat'" in str(local.value))


# --- the command line ------------------------------------------------------------------------

def _json(*args) -> dict:
    res = run(*args, "--format", "json")
    assert res.code == 0, res.err
    return json.loads(res.out)


def test_cli_threshold_engine_dask_equals_local(dask_client, data):
    args = ["threshold", data["test"][0], "--dev", data["dev"][0], "--score", "score", "--positive", "yes",
            "--objective", "cost", "--cost-fn", "2"]
    local = _json(*args)
    remote = _json(*args, "--engine", "dask", "--scheduler", dask_client.scheduler.address)
    assert local["external"]["spilled"] is False and remote["external"]["engine"] == "dask"
    assert _dump(_without_external(remote)) == _dump(_without_external(local))


@pytest.mark.parametrize("extra, needles", [
    (["--multilabel", "--scores-prefix", "s_"], ["--engine dask", "--scores-prefix"]),
    (["--score", "score", "--positive", "yes", "--dev", "-"], ["--dev", "standard input"]),
])
def test_cli_threshold_engine_dask_refuses_what_it_cannot_do(data, extra, needles):
    res = run("threshold", data["test"][0], *extra, "--engine", "dask", "--scheduler", "tcp://127.0.0.1:1")
    assert_clean_error(res, 2, *needles)


def test_cli_threshold_scheduler_needs_engine_dask(data):
    res = run("threshold", data["test"][0], "--score", "score", "--positive", "yes", "--scheduler", "tcp://127.0.0.1:1")
    assert_clean_error(res, 2, "--scheduler", "--engine dask")
