"""The Dask engine gives the local numbers, bit for bit, on a LocalCluster (2 processes, 127.0.0.1).

Many partitions, including empty ones and ones with a single row; a worker killed mid-run.
"""

from __future__ import annotations

import json
import math
import os
import signal
import threading
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

pytest.importorskip("distributed")
dd = pytest.importorskip("dask.dataframe")

import clfeval  # noqa: E402
from clfeval.core import _catalog as catalog  # noqa: E402
from clfeval.engines import dask as cd  # noqa: E402
from clfeval.errors import DataError  # noqa: E402
from clfeval.evaluate._reports import report as in_memory_report  # noqa: E402  (the in-memory step: no engine block)
from clfeval.scores._binned import RowSample, ScoreHistogram, quantile_binning  # noqa: E402
from clfeval.scores._curves import ranking  # noqa: E402
from clfeval.significance._paired import compare as in_memory_compare  # noqa: E402

LABELS = ["cat", "dog", "eel", "fox"]


def _dump(d):
    return json.dumps(d, sort_keys=True, default=str)


def _columns(n, seed):
    rng = np.random.default_rng(seed)
    gold = rng.choice(LABELS, n, p=[0.5, 0.3, 0.15, 0.05])
    pred = np.where(rng.random(n) < 0.7, gold, rng.choice(LABELS, n))
    score = np.round(rng.random(n) * 0.7 + 0.3 * (gold == "dog"), 2)  # many ties
    return {"id": np.arange(n), "gold": gold, "pred": pred, "score": score}


def _files(tmp_path_factory, rows_per_group):
    d = tmp_path_factory.mktemp("dask") / "preds"
    d.mkdir()
    cols = _columns(1500, 0)
    t = pa.table(cols)
    for i, (lo, hi) in enumerate([(0, 1), (1, 1), (1, 2), (2, 700), (700, 1500)]):
        pq.write_table(t.slice(lo, hi - lo), d / f"part-{i}.parquet", row_group_size=rows_per_group)
    return str(d), cols


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """1,500 items in Parquet files of 1, 0, 1 and many rows, row groups of 150 rows: 14 partitions, empty and
    single-row ones among them (the id check's tasks grow as partitions × buckets: 44 partitions cost ~4× the time
    for no other case; the grouping test has its own many partitions)."""
    return _files(tmp_path_factory, 150)


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    """The same items in row groups of 37 rows: 44 partitions, enough for groups of eight per task."""
    return _files(tmp_path_factory, 37)


def _frame(cols, sizes):
    """A Dask DataFrame whose partitions have exactly these sizes (0 and 1 included)."""
    import pandas as pd

    pdf = pd.DataFrame(cols)
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    parts = [pdf.iloc[bounds[i]:bounds[i + 1]] for i in range(len(sizes))]
    return dd.from_pandas(pdf.iloc[:0], npartitions=1).map_partitions(lambda x: x) if not sizes else \
        dd.from_delayed([__import__("dask").delayed(p) for p in parts], meta=pdf.iloc[:0])


def _metric_names(labels):
    out = []
    for m in catalog.METRICS:
        if m.input != "counts" or "multiclass" not in m.tasks:
            continue
        out.extend([m.key.replace("LABEL", lab) for lab in labels] if "LABEL" in m.key else [m.key])
    return out


def test_report_equals_local_for_every_count_metric(dask_client, data):
    path, cols = data
    r = cd.report(path, client=dask_client, score="score", positive="dog")
    local = in_memory_report(cols["gold"], cols["pred"], scores=cols["score"], positive="dog")
    assert _dump(r.to_dict()) == _dump(local.to_dict())  # every section, the ranking included
    names = _metric_names(LABELS)
    assert len(names) > 60
    for name in names:
        a, b = r.metric(name), local.metric(name)
        assert a == b or (math.isnan(a) and math.isnan(b)), name
    # the same items as a DataFrame, partitions of 0, 1 and many rows
    frame = _frame({k: v for k, v in cols.items()}, [0, 1, 0, 600, 1, 0, 898])
    assert _dump(cd.report(frame, client=dask_client).to_dict()) == _dump(in_memory_report(cols["gold"],
                                                                                           cols["pred"]).to_dict())


def test_ordinal_report_equals_local(dask_client, data):
    path, cols = data
    r = cd.report(path, client=dask_client, order=LABELS[::-1])
    assert _dump(r.to_dict()) == _dump(in_memory_report(cols["gold"], cols["pred"], order=LABELS[::-1]).to_dict())


@pytest.mark.parametrize("ranges", [None, 1, 17])
def test_exact_ranking_equals_local(dask_client, data, ranges):
    path, cols = data
    r = cd.ranking(path, positive="dog", score="score", client=dask_client, ranges=ranges)
    local = ranking(cols["gold"], cols["score"], positive="dog")
    d = r.to_dict()
    d.pop("external")
    assert _dump(d) == _dump(local.to_dict())
    assert r.roc_auc == local.roc_auc and r.average_precision == local.average_precision


@pytest.mark.parametrize("per_task, memory", [(1, None), (8, None), (8, 4096)])
def test_grouping_and_memory_budget_change_no_number(dask_client, many, monkeypatch, per_task, memory):
    """Partitions read one or up to eight per task, sorted whole or a few hundred scores at a time (a 4 KB budget),
    the score axis cut into more ranges when each must fit that budget: the in-memory ranking every time."""
    from clfeval.engines.dask import _parts as dparts, _ranges as dranges
    from clfeval.scores import RankingSpec, parse_memory

    path, cols = many
    monkeypatch.setattr(dparts, "PARTS_PER_TASK", per_task)
    monkeypatch.setattr(dranges, "threads", lambda client: 1)  # one thread: ceil(n / per_task) groups
    r = cd.ranking(path, positive="dog", score="score", client=dask_client, memory=memory)
    local = ranking(cols["gold"], cols["score"], positive="dog")
    d = r.to_dict()
    d.pop("external")
    assert _dump(d) == _dump(local.to_dict())
    parts = dparts.parts_of(path, ["gold", "score"])
    spec = RankingSpec.of_column("gold", "score", "dog")
    budget = spec.budget(memory)
    plan = dranges.run_ranges(parts, spec.make(budget), gold="gold", extra=spec.extra, budget=budget,
                              entry_bytes=spec.entry_bytes, offsets=spec.offsets, client=dask_client)
    assert budget == (4096 if memory else parse_memory("1GiB"))
    assert len(plan.states) == -(-len(parts) // per_task) and len(parts) > 40
    assert plan.ranges > 4 if memory else plan.ranges == 4  # the default: four per thread


def test_calibration_equals_local(dask_client, data):
    path, cols = data
    c = cd.calibration(path, prob="score", positive="dog", bins=7, client=dask_client).to_dict()
    local = clfeval.reliability(cols["gold"], cols["score"], positive="dog", bins=7).to_dict()
    for key in ("n", "ece", "mce", "brier", "log_loss", "bins", "ranking"):
        assert _dump(c[key]) == _dump(local[key]), key


def test_binned_mode_equals_local(dask_client, data):
    path, cols = data
    b = cd.binning(path, score="score", bins=20, client=dask_client, cap=200)
    sample = RowSample(cap=200)
    sample.add(0, cols["score"])
    local_b = quantile_binning(sample.values(), 20)
    assert np.array_equal(b.cuts, local_b.cuts)
    h = cd.histogram(path, positive="dog", score="score", binning=b, client=dask_client)
    local_h = ScoreHistogram.of(local_b, cols["gold"] == "dog", cols["score"], positive="dog")
    assert _dump(h.to_dict()) == _dump(local_h.to_dict())
    u = cd.binning(path, score="score", bins=5, kind="uniform", client=dask_client)
    lo, hi = float(cols["score"].min()), float(cols["score"].max())  # the range a local first pass finds
    assert u.cuts.tolist() == [lo + (hi - lo) * (k / 5) for k in range(1, 5)]


def _shuffled_copy(cols, tmp, seed, sizes, rows_per_group=53):
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(cols["id"]))
    t = pa.table({k: v[order] for k, v in cols.items()})
    tmp.mkdir()
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    for i in range(len(sizes)):
        pq.write_table(t.slice(bounds[i], sizes[i]), tmp / f"p{i}.parquet", row_group_size=rows_per_group)
    return order


@pytest.mark.parametrize("test", ["bootstrap", "randomization", "mcnemar"])
def test_compare_by_id_equals_local(dask_client, data, tmp_path, test):
    path, cols = data
    other = dict(cols)
    rng = np.random.default_rng(9)
    other["pred"] = np.where(rng.random(1500) < 0.8, cols["gold"], rng.choice(LABELS, 1500))
    _shuffled_copy(other, tmp_path / "b", 1, [1, 0, 900, 599], 150)  # other order, other partitions (11)
    metric = "accuracy" if test == "mcnemar" else "macro_f1"
    c = cd.compare(path, str(tmp_path / "b"), metric=metric, test=test, samples=300, seed=3, client=dask_client)
    local = in_memory_compare(cols["gold"], cols["pred"], other["pred"], metric=metric, test=test, samples=300, seed=3,
                            names=("a", "b"))
    assert _dump(c.to_dict()) == _dump(local.to_dict())


def test_compare_refuses_duplicate_and_missing_ids(dask_client, tmp_path):
    cols = _columns(60, 4)
    _shuffled_copy(cols, tmp_path / "a", 1, [30, 30])
    dup = {k: np.concatenate([v, v[:1]]) for k, v in cols.items()}
    _shuffled_copy(dup, tmp_path / "dup", 2, [40, 21])
    with pytest.raises(DataError, match="more than once"):
        cd.compare(str(tmp_path / "a"), str(tmp_path / "dup"), client=dask_client, samples=10)
    short = {k: v[:-3] for k, v in cols.items()}
    _shuffled_copy(short, tmp_path / "short", 2, [50, 7])
    local_message = r"3 id\(s\) of 'a' are missing from 'b' \(e\.g\. '\d+', file '.*a/p\d\.parquet', row \d+\)\. "
    with pytest.raises(DataError, match=local_message + "Compared files must hold"):
        cd.compare(str(tmp_path / "a"), str(tmp_path / "short"), client=dask_client, samples=10)


def test_a_lost_worker_is_reported_in_one_paragraph():
    from distributed.scheduler import KilledWorker

    class Broken:
        def compute(self, tasks):
            return tasks

        def gather(self, futures):  # where distributed raises it: the task failed on every worker it was given
            raise KilledWorker("('read-parquet', 3)", "tcp://127.0.0.1:1", 3)

    with pytest.raises(DataError, match="workers died while running task") as info:
        cd.run(Broken(), 1)
    assert "\n" not in str(info.value)


def test_a_worker_killed_mid_run_changes_no_number(dask_client):
    """Dask recomputes the lost partitions; the pure tasks are counted once, in the result."""
    import dask
    import pandas as pd

    cols = _columns(4000, 5)
    sizes = [100] * 40

    def part(i):
        time.sleep(0.15)  # slow partitions, so that the kill lands mid-run
        lo = i * 100
        return pd.DataFrame({k: v[lo:lo + 100] for k, v in cols.items()})

    frame = dd.from_delayed([dask.delayed(part)(i) for i in range(len(sizes))],
                            meta=pd.DataFrame({k: v[:0] for k, v in cols.items()}))
    pids = dask_client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killer = threading.Timer(1.0, os.kill, (victim, signal.SIGKILL))
    killer.start()
    try:
        r = cd.report(frame, client=dask_client, score="score", positive="dog")
    except DataError as exc:  # Dask gave up: a clear message, never a number
        assert "workers died" in str(exc)
        return
    finally:
        killer.join()
    local = in_memory_report(cols["gold"], cols["pred"], scores=cols["score"], positive="dog")
    assert _dump(r.to_dict()) == _dump(local.to_dict())
    assert r.n == 4000
    dask_client.wait_for_workers(2, timeout=60)
    assert victim not in dask_client.run(os.getpid).values()  # it really died and was replaced
