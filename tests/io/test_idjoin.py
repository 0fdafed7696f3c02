"""The one id-join specification (issue 39, item 2; :mod:`clfeval.io._idjoin`) run through every back end.

The same cases go through the in-memory alignment (read_predictions + align_predictions), the local
partitioned join at a tiny budget (hash partitions on disk), the local join at the default budget (the DuckDB
fast path, which hands a defect back to the partitioned path) and the Dask join on the session's LocalCluster.
Expected messages are written out by hand from the files each test writes (CSV rows count from 1 after the
header, which is line 1).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from clfeval.errors import DataError
from clfeval.io._align import align_predictions
from clfeval.io._idjoin import hash_ids, id_keys, partition_of
from clfeval.io._join import Matching, Spill, aligned
from clfeval.io._predictions import iter_predictions, read_predictions
from clfeval.significance._streamed import JointCounts

BACKENDS = ["memory", "partitioned", "duckdb", "dask"]


def _csv(path: Path, rows: list[tuple]) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("id,gold,pred\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    return str(path)


def _parquet(path: Path, ids: list, gold: list, pred: list) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({"id": ids, "gold": gold, "pred": pred}), path)
    return str(path)


def _join(backend: str, a: str, b: str, request: pytest.FixtureRequest, id: str | None = "id"
          ) -> tuple[int, dict[str, np.ndarray]]:
    """The matched items of ``a`` and ``b`` through one back end: (how many, each system's confusion table)."""
    if backend == "memory":
        gold, preds, _ = align_predictions([read_predictions(a), read_predictions(b)])
        acc = JointCounts(["A", "B"])
        from clfeval.io._join import Aligned

        acc.update(Aligned(pa.concat_arrays(pa.chunked_array(gold).chunks),
                           [pa.concat_arrays(pa.chunked_array(p).chunks) for p in preds], False))
    elif backend == "dask":
        from clfeval.engines.dask._join import accumulate_joined

        client = request.getfixturevalue("dask_client")
        acc = accumulate_joined([a, b], partial(JointCounts, ["A", "B"]), gold="gold", pred="pred", id=id,
                                names=[a, b], client=client)
    else:
        budget = 1 if backend == "partitioned" else 1 << 30
        acc = JointCounts(["A", "B"])
        matching = Matching()
        for batch in aligned([iter_predictions(p, batch_rows=2) for p in (a, b)], budget=budget, matching=matching,
                             weighted=True):
            acc.update(batch)
        assert matching.spilled == (backend == "partitioned")
    tables = acc.counter.tables()
    out = {}
    for x in ("A", "B"):
        t = tables.table(x)
        assert [str(v) for v in t.labels] == ["x", "y"]
        out[x] = np.asarray(t.counts)
    return acc.n, out


def _refusal(backend: str, a: str, b: str, request: pytest.FixtureRequest, id: str | None = "id") -> str:
    with pytest.raises(DataError) as exc:
        _join(backend, a, b, request, id)
    return str(exc.value)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_duplicate_in_one_file_is_named_with_both_rows(tmp_path, backend, request):
    # 9 and 7 both repeat; 7's second row (row 3) comes before 9's (row 4): 7 is named, on every back end
    a = _csv(tmp_path / "a" / "p.csv", [(9, "x", "x"), (7, "x", "y"), (7, "y", "y"), (9, "x", "x"), (1, "x", "x")])
    b = _csv(tmp_path / "b.csv", [(i, "x", "x") for i in (1, 7, 9)])
    assert _refusal(backend, a, b, request) == (f"file {a!r}, column 'id': ids must be unique, but the id '7' occurs "
                                                f"more than once (rows 2 and 3).")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_duplicate_across_files_names_both_files(tmp_path, backend, request):
    d = tmp_path / "b"
    p0 = _csv(d / "part-0.csv", [(1, "x", "x"), (2, "x", "x")])
    p1 = _csv(d / "part-1.csv", [(3, "x", "x"), (2, "x", "x")])
    a = _csv(tmp_path / "a.csv", [(i, "x", "x") for i in (1, 2, 3)])
    msg = _refusal(backend, a, str(d), request)
    assert msg.endswith(f", column 'id': ids must be unique, but the id '2' occurs more than once (file {p0!r}, "
                        f"row 2 (line 3) and file {p1!r}, row 2 (line 3)).")


@pytest.mark.parametrize("backend", BACKENDS)
def test_missing_ids_on_both_sides_are_counted_and_the_first_named(tmp_path, backend, request):
    a = _csv(tmp_path / "a.csv", [(1, "x", "x"), (4, "x", "x"), (2, "x", "x"), (6, "y", "y")])
    b = _csv(tmp_path / "b.csv", [(2, "x", "x"), (5, "x", "x"), (1, "x", "x")])
    assert _refusal(backend, a, b, request) == (
        f"2 id(s) of {a!r} are missing from {b!r} (e.g. '4', file {a!r}, row 2 (line 3)); 1 id(s) of {b!r} are "
        f"missing from {a!r} (e.g. '5', file {b!r}, row 2 (line 3)). Compared files must hold predictions for the "
        f"same items.")


@pytest.mark.parametrize("backend", BACKENDS)
def test_gold_disagreement_names_the_first_item_of_the_first_input(tmp_path, backend, request):
    a = _csv(tmp_path / "a.csv", [(3, "x", "x"), (1, "y", "x"), (2, "y", "y")])
    b = _csv(tmp_path / "b.csv", [(1, "x", "x"), (2, "x", "y"), (3, "x", "x")])
    assert _refusal(backend, a, b, request) == (
        f"gold labels differ between {a!r} and {b!r}: the item with id '1' has gold 'y' in {a!r} and 'x' in {b!r} "
        f"(2 item(s) differ). Compared files must be predictions on the same test set.")


@pytest.mark.parametrize("backend", BACKENDS)
def test_gold_disagreement_without_ids_names_the_first_row(tmp_path, backend, request):
    def put(name: str, gold: str) -> str:
        (tmp_path / name).write_text("gold,pred\n" + "".join(f"{g},x\n" for g in gold))
        return str(tmp_path / name)

    a, b = put("a.csv", "xyyx"), put("b.csv", "xxyy")  # rows 2 and 4 differ
    assert _refusal(backend, a, b, request, id=None) == (
        f"gold labels differ between {a!r} and {b!r}: row 2 has gold 'y' in {a!r} and 'x' in {b!r} (2 item(s) "
        f"differ). Compared files must be predictions on the same test set.")


@pytest.mark.parametrize("backend", BACKENDS)
def test_integer_ids_match_their_text(tmp_path, backend, request):
    # the Parquet file's integer 7 and the CSV's text "7" are one id (its text), in another order
    a = _parquet(tmp_path / "a.parquet", [7, 8, 10], ["x", "y", "y"], ["x", "x", "y"])
    b = _csv(tmp_path / "b.csv", [(10, "y", "x"), (7, "x", "y"), (8, "y", "y")])
    n, tables = _join(backend, a, b, request)
    assert n == 3
    # rows gold (x, y), columns predicted: A got x→x, y→x, y→y; B got x→y, y→x, y→y
    assert tables["A"].tolist() == [[1, 0], [1, 1]]
    assert tables["B"].tolist() == [[0, 1], [1, 1]]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_leading_zero_is_another_id(tmp_path, backend, request):
    a = _parquet(tmp_path / "a.parquet", [7, 8], ["x", "y"], ["x", "y"])
    b = _csv(tmp_path / "b.csv", [("07", "x", "x"), (8, "y", "y")])
    assert _refusal(backend, a, b, request) == (
        f"1 id(s) of {a!r} are missing from {b!r} (e.g. '7', file {a!r}, row 1); 1 id(s) of {b!r} are missing from "
        f"{a!r} (e.g. '07', file {b!r}, row 1 (line 2)). Compared files must hold predictions for the same items.")


def test_one_hash_places_a_key_in_the_same_partition_on_every_path(tmp_path):
    from clfeval.engines.dask._ids import split

    ids = pa.array([7, 70, 700, 12345, 3, 99, 2**40])
    keys = id_keys(ids)
    assert keys.to_pylist() == ["7", "70", "700", "12345", "3", "99", str(2**40)]
    assert np.array_equal(hash_ids(ids), hash_ids(keys))  # an integer id hashes as its text
    assert hash_ids(pa.array(["07"]))[0] != hash_ids(pa.array(["7"]))[0]
    k = 4
    want = partition_of(keys, k)
    assert np.array_equal(want, hash_ids(keys) % np.uint64(k))
    rows = pa.table({"key": keys, "row": pa.array(np.arange(len(keys)))})
    local = Spill(k, str(tmp_path), "t")  # the local join's spill partitions
    local.add(rows)
    local.close()
    dask_side = split(rows, k)  # the Dask join's and duplicate check's buckets
    for j in range(k):
        on_disk = sorted(r for t in local.partition(j) for r in t.column("row").to_pylist())
        expected = sorted(np.flatnonzero(want == j).tolist())
        assert on_disk == expected == sorted(dask_side[j].column("row").to_pylist())
    # the hash is a fixed function of the bytes (stable across runs and machines): a polynomial over byte+1
    # in the FNV prime, plus length·φ, then splitmix64's finaliser, computed here independently for one key
    mask = (1 << 64) - 1
    h = ((ord("7") + 1) * 0x100000001B3 + 1 * 0x9E3779B97F4A7C15) & mask
    h ^= h >> 30
    h = h * 0xBF58476D1CE4E5B9 & mask
    h ^= h >> 27
    h = h * 0x94D049BB133111EB & mask
    h ^= h >> 31
    assert int(hash_ids(pa.array(["7"]))[0]) == h
