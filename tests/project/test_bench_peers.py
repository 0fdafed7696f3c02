"""bench/peers.py (issue 40) at a small size: the checks it makes at 1e5 and 1e6 rows, on 2e4. The planted cross is
the first slice clfeval's search finds; the per-group numbers of the report by group equal fairlearn's
``MetricFrame`` (scikit-learn's metrics, fairlearn's selection rate: the oracle, a test-only dependency) and a
pandas groupby; SliceLine (the ``bench`` extra only) ranks the cross within its top 5. Nothing is timed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
N = 20_000


def _load():
    spec = importlib.util.spec_from_file_location("peers", ROOT / "bench" / "peers.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("peers", mod)
    spec.loader.exec_module(mod)
    return mod


peers = _load()


@pytest.fixture(scope="module")
def data():
    return peers.make_data(N)


def test_the_data_holds_the_planted_cross(data):
    """By hand from the arrays: 1/25 of the rows in c0=1 ∧ c1=2, about half of them wrong, 0.5 % elsewhere."""
    cross = (data["cols"]["c0"] == 1) & (data["cols"]["c1"] == 2)
    wrong = data["gold"] != data["pred"]
    assert abs(cross.mean() - 1 / 25) < 0.005
    assert abs(wrong[cross].mean() - 0.5) < 0.05 and wrong[~cross].mean() < 0.01
    assert set(np.unique(data["gold"]).tolist()) == {0, 1} and all(
        set(np.unique(v).tolist()) == set(range(5)) for v in data["cols"].values())


def test_the_planted_cross_is_the_first_slice_clfeval_finds(data):
    found = peers.clfeval_search(data)
    assert found[0] == "c0=1 ∧ c1=2"
    assert peers.search_check(found)[0]


def test_the_per_group_numbers_equal_fairlearns_metricframe_and_a_pandas_groupby(data):
    ours = peers.clfeval_groups(data)
    df = peers.frame_inputs(data)
    mf = peers.metricframe_groups(df)
    assert set(mf) == set(peers.METRICS) and all(set(v) == {"0", "1", "2", "3", "4"} for v in mf.values())
    for name, theirs in (("MetricFrame", mf), ("pandas", peers.pandas_groups(df))):
        ok, text = peers.groups_check(ours, theirs)
        assert ok, f"{name}: {text}"
        for m in peers.METRICS:
            np.testing.assert_allclose([ours[m][g] for g in sorted(ours[m])], [theirs[m][g] for g in sorted(ours[m])],
                                       rtol=0, atol=1e-12, err_msg=f"{name}, {m}")


def test_sliceline_ranks_the_planted_cross_within_its_top_five(data):
    pytest.importorskip("sliceline", reason="sliceline is in the bench extra only (pip install -e '.[bench]'), "
                                            "not in the test extra: the bench's SliceLine half is skipped")
    top = peers.sliceline_top(*peers.sliceline_inputs(data))
    assert 1 <= len(top) <= 5
    assert peers.sliceline_check(top)[0], top


def test_the_checks_can_fail():
    assert not peers.search_check(["c2=1", "c0=1 ∧ c1=2"])[0]
    assert not peers.search_check([])[0]
    assert not peers.sliceline_check([{"c0": 1}, {"c1": 2}, {"c0": 1, "c1": 2, "c2": 0}])[0]
    ours = {m: {"0": 0.5, "1": 0.25} for m in peers.METRICS}
    near = {m: dict(v) for m, v in ours.items()}
    near["f1"]["1"] += 1e-11
    assert peers.groups_check(ours, {m: dict(v) for m, v in ours.items()})[0]
    assert not peers.groups_check(ours, near)[0]
    assert not peers.groups_check(ours, {**ours, "recall": {"0": 0.5}})[0]


@pytest.mark.parametrize("ok", [True, False])
def test_the_bench_exits_non_zero_when_a_check_fails_and_writes_its_json(ok, monkeypatch, tmp_path, capsys):
    row = {"rows": 100_000, "what": "slice search vs SliceLine", "clfeval": [0.02, 0.03], "peer": [2.0, 3.0],
           "ok": ok, "check": "cross 1st" if ok else "FAILED: x", "ratio_min": 100.0, "ratio_median": 100.0}
    monkeypatch.setattr(peers, "run_size", lambda n, repeat: [dict(row, rows=n)])
    monkeypatch.setattr(peers, "warm_up", lambda: None)
    monkeypatch.setattr(peers, "versions", lambda: {"clfeval": "x", "load_average": [0.0, 0.0, 0.0]})
    out = tmp_path / "peers.json"
    assert peers.main(["--quick", "--json", str(out)]) == (0 if ok else 1)
    text = capsys.readouterr().out
    assert "slice search vs SliceLine" in text and "100×/100×" in text and peers.QUIET_RERUN in text
    written = json.loads(out.read_text(encoding="utf-8"))
    assert [r["rows"] for r in written["rows"]] == [100_000] and written["rows"][0]["ok"] is ok
