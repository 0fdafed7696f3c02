"""`compare` over directories equals `compare` over the concatenated files, also when the id join spills.

The items of each system are shuffled and split over several files (a different order and split per
system), so they can only be matched by id. The oracle is the in-memory path: the items aligned by hand
(a dict by id) and :func:`clfeval.significance._paired.compare` on the arrays.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from clfeval.errors import DataError
from clfeval.evaluate._streaming import count_batches
from clfeval.io._join import Matching, aligned, unique_batches
from clfeval.io._predictions import iter_predictions
from clfeval.significance._paired import compare
from clfeval.significance._streamed import compare_stream
from tests._helpers.clihelp import run

LABELS = np.array(["news", "sport", "tech"])
N = 240


def _systems(seed: int = 5):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, 3, N)
    a = np.where(rng.random(N) < 0.8, g, (g + 1) % 3)
    b = np.where(rng.random(N) < 0.7, g, (g + 2) % 3)
    return [f"item-{i}" for i in range(N)], LABELS[g], LABELS[a], LABELS[b]


def _csv(path: Path, ids, gold, pred, rows) -> None:
    path.write_text("id,gold,pred\n" + "".join(f"{ids[i]},{gold[i]},{pred[i]}\n" for i in rows))


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("join")
    ids, gold, a, b = _systems()
    rng = np.random.default_rng(1)
    out = {"ids": ids, "gold": gold, "a": a, "b": b}
    for name, pred, n_files in (("a", a, 3), ("b", b, 4)):
        d = root / f"dir-{name}"
        d.mkdir()
        order = rng.permutation(N)
        for k, chunk in enumerate(np.array_split(order, n_files)):
            _csv(d / f"part-{k}.csv", ids, gold, pred, chunk)
        single = root / f"{name}.csv"
        _csv(single, ids, gold, pred, rng.permutation(N))
        out[f"dir-{name}"], out[f"file-{name}"] = str(d), str(single)
        pqdir = root / f"pq-{name}"
        pqdir.mkdir()
        order = rng.permutation(N)
        for k, chunk in enumerate(np.array_split(order, 2)):
            pq.write_table(pa.table({"id": [ids[i] for i in chunk], "gold": gold[chunk].tolist(),
                                     "pred": pred[chunk].tolist()}), pqdir / f"part-{k}.parquet")
        out[f"pq-{name}"] = str(pqdir)
    return out


def _json(*args: str) -> dict:
    res = run("compare", *args, "--format", "json", "--samples", "500", "--seed", "7")
    assert res.code == 0, res.err
    return json.loads(res.out)


KEYS = ("n", "a", "b", "delta", "p_value", "ci")


@pytest.mark.parametrize("test,metric", [("bootstrap", "accuracy"), ("randomization", "macro_f1"),
                                         ("mcnemar", "accuracy")])
def test_compare_directories_equals_single_files(data, test, metric):
    args = ["--test", test, "--metric", metric]
    over_dirs = _json(data["dir-a"], data["dir-b"], *args)
    over_files = _json(data["file-a"], data["file-b"], *args)
    over_parquet = _json(data["pq-a"], data["pq-b"], *args)
    for key in KEYS:
        assert over_dirs.get(key) == over_files.get(key) == over_parquet.get(key), key
    # the in-memory oracle: items aligned by hand, compared as arrays
    mem = compare(data["gold"], data["a"], data["b"], test=test, metric=metric, samples=500, seed=7)
    assert over_dirs["n"] == N
    assert over_dirs["a"] == mem.a and over_dirs["b"] == mem.b and over_dirs["delta"] == mem.delta
    assert over_dirs["p_value"] == mem.p_value
    if test == "bootstrap":
        assert over_dirs["ci"]["delta"] == list(mem.ci.delta)


def _readers(*paths: str):
    return [iter_predictions(p, batch_rows=17) for p in paths]


def test_the_join_spilled_to_disk_gives_the_same_comparison(data):
    direct = Matching()
    spilled = Matching()
    settings = dict(samples=500, seed=7, metric="macro_f1")
    r1 = compare_stream(aligned(_readers(data["dir-a"], data["dir-b"]), matching=direct), ["a", "b"], **settings)
    r2 = compare_stream(aligned(_readers(data["dir-a"], data["dir-b"]), budget=1, matching=spilled), ["a", "b"],
                        **settings)
    assert direct.partitions == 1
    assert spilled.partitions > 1  # the budget forced the hash partitions on disk
    assert "hash partitions on disk" in spilled.describe()
    assert spilled.rows == direct.rows == N
    mem = compare(data["gold"], data["a"], data["b"], **settings)
    for r in (r1, r2):
        assert (r.a, r.b, r.delta, r.p_value) == (mem.a, mem.b, mem.delta, mem.p_value)
        assert tuple(r.ci.delta) == tuple(mem.ci.delta)


def test_the_spilled_join_pairs_each_item_with_its_own_predictions(data):
    """Every matched item: gold and both predictions are those of one id (checked against a dict by id)."""
    truth = {(g, x, y) for g, x, y in zip(data["gold"], data["a"], data["b"], strict=True)}
    from collections import Counter

    expected = Counter(zip(data["gold"], data["a"], data["b"], strict=True))
    got: Counter = Counter()
    for batch in aligned(_readers(data["dir-a"], data["pq-b"]), budget=1):
        for g, x, y in zip(batch.gold.to_pylist(), *[p.to_pylist() for p in batch.preds], strict=True):
            got[(g, x, y)] += 1
    assert got == expected and set(got) <= truth


def _dup_dir(root: Path, ids_per_file: list[list[str]]) -> str:
    root.mkdir()
    for k, ids in enumerate(ids_per_file):
        (root / f"part-{k}.csv").write_text("id,gold,pred\n" + "".join(f"{i},x,x\n" for i in ids))
    return str(root)


def test_duplicate_id_across_files_is_refused_naming_both_files(tmp_path):
    a = _dup_dir(tmp_path / "a", [["1", "2", "3"], ["4", "2"]])
    b = _dup_dir(tmp_path / "b", [["1", "2", "3", "4"]])
    res = run("compare", a, b, "--samples", "100")
    assert res.code == 1
    assert "Traceback" not in res.err
    assert "'2'" in res.err and "part-0.csv" in res.err and "part-1.csv" in res.err
    assert f"directory {a!r}" in res.err  # the input is a directory, not a file
    for budget in (1, 1 << 30):
        with pytest.raises(DataError) as exc:
            list(aligned(_readers(a, b), budget=budget))
        assert "part-0.csv" in str(exc.value) and "part-1.csv" in str(exc.value) and "'2'" in str(exc.value)


def test_duplicate_id_in_a_report_input_is_refused_also_spilled(tmp_path):
    d = _dup_dir(tmp_path / "a", [["1", "2"], ["3"], ["4", "1"]])
    res = run("report", d)
    assert res.code == 1 and "Traceback" not in res.err
    assert "'1'" in res.err and "part-0.csv" in res.err and "part-2.csv" in res.err
    with pytest.raises(DataError, match="part-2.csv"):
        count_batches(unique_batches(iter_predictions(d, batch_rows=1), budget=1))


def test_missing_ids_are_refused_naming_the_inputs(tmp_path):
    a = _dup_dir(tmp_path / "a", [["1", "2"], ["3", "4"]])
    b = _dup_dir(tmp_path / "b", [["1", "2", "3"], ["5"]])
    res = run("compare", a, b, "--samples", "100")
    assert res.code == 1 and "Traceback" not in res.err
    assert str(tmp_path / "a") in res.err and str(tmp_path / "b") in res.err
    assert "'4'" in res.err and "'5'" in res.err
    # each example is named by its file and row
    assert f"'4', file {str(tmp_path / 'a' / 'part-1.csv')!r}, row 2" in res.err
    assert f"'5', file {str(tmp_path / 'b' / 'part-1.csv')!r}, row 1" in res.err
    for budget in (1, 1 << 30):
        with pytest.raises(DataError, match="missing") as exc:
            list(aligned(_readers(a, b), budget=budget))
        assert "'4'" in str(exc.value) and "'5'" in str(exc.value)


@pytest.mark.parametrize("with_ids", [True, False])
@pytest.mark.parametrize("budget", [1, 1 << 30])
def test_text_labels_beside_typed_labels_compare_as_text(tmp_path, with_ids, budget):
    """A CSV directory (labels read as text) against a Parquet directory of integer labels: as in memory,
    the labels are compared by their text (regression: the streamed join refused them as two kinds)."""
    rng = np.random.default_rng(9)
    n = 90
    g = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.8, g, (g + 1) % 3)
    b = np.where(rng.random(n) < 0.6, g, (g + 2) % 3)
    ids = [f"i{i}" for i in range(n)]
    da, db = tmp_path / "a", tmp_path / "b"
    da.mkdir()
    db.mkdir()
    order = rng.permutation(n) if with_ids else np.arange(n)
    head = "id,gold,pred\n" if with_ids else "gold,pred\n"
    for k, chunk in enumerate(np.array_split(order, 3)):
        (da / f"p{k}.csv").write_text(head + "".join((f"{ids[i]}," if with_ids else "") + f"{g[i]},{a[i]}\n"
                                                     for i in chunk))
    for k, chunk in enumerate(np.array_split(np.arange(n), 2)):
        cols = {"id": [ids[i] for i in chunk]} if with_ids else {}
        pq.write_table(pa.table({**cols, "gold": g[chunk], "pred": b[chunk]}), db / f"p{k}.parquet")
    got = compare_stream(aligned([iter_predictions(str(da), batch_rows=7), iter_predictions(str(db), batch_rows=5)],
                                 budget=budget), ["a", "b"], samples=300, seed=2)
    mem = compare(g.astype(str), a.astype(str), b.astype(str), samples=300, seed=2)
    assert (got.a, got.b, got.delta, got.p_value) == (mem.a, mem.b, mem.delta, mem.p_value)
