"""The id join's refusals and its DuckDB fast path (issue 21, item 3; the join items of issue 17).

Every case runs at two budgets: the default (the join runs as one DuckDB query, which hands any defect back
to the general path) and the smallest (the general path's hash partitions on disk). Both must name the same
duplicate — the one whose first row comes first in the input — and count missing ids over all partitions.
Expected messages are written out by hand from the files each test writes.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from clfeval.errors import DataError
from clfeval.io._join import Matching, aligned
from clfeval.io._predictions import iter_predictions
from tests._helpers.clihelp import run

MIN_MEMORY = 1  # the library's smallest budget: every input goes to hash partitions on disk
BUDGETS = [MIN_MEMORY, 1 << 30]  # spilled, and the default


def _csv_dir(root: Path, files: list[list[tuple]], header: str = "id,gold,pred") -> str:
    root.mkdir()
    for k, rows in enumerate(files):
        (root / f"part-{k}.csv").write_text(header + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    return str(root)


def _readers(*paths: str, batch_rows: int = 3):
    return [iter_predictions(p, batch_rows=batch_rows) for p in paths]


def _refusal(paths: tuple[str, ...], budget: int) -> str:
    matching = Matching()
    with pytest.raises(DataError) as exc:
        for _ in aligned(_readers(*paths), budget=budget, matching=matching):
            pass
    assert matching.spilled == (budget == MIN_MEMORY)  # the smallest budget partitions on disk
    return str(exc.value)


@pytest.mark.parametrize("budget", BUDGETS)
def test_two_duplicated_ids_the_first_in_input_order_is_named(tmp_path, budget):
    # ids 9 and 7 both occur twice; reading in input order, 7 is the first id seen again: its second row
    # (part-0, row 3) comes before 9's (part-1, row 2), though 9's first row (part-0, row 1) comes before 7's
    # (part-0, row 2). The same rule as the streamed report's and the Dask engine's duplicate check (issue 17).
    a = _csv_dir(tmp_path / "a", [[(9, "x", "x"), (7, "x", "y"), (7, "y", "y"), (1, "x", "x")],
                                  [(2, "y", "y"), (9, "x", "y"), (3, "x", "x")]])
    b = _csv_dir(tmp_path / "b", [[(i, "x", "x") for i in (1, 2, 3, 7, 9)]])
    msg = _refusal((a, b), budget)
    pa0, pa1 = str(tmp_path / "a" / "part-0.csv"), str(tmp_path / "a" / "part-1.csv")
    assert "the id '7' occurs more than once" in msg
    assert f"file {pa0!r}, column 'id'" in msg and "(rows 2 and 3)" in msg  # both rows in one file
    assert "'9'" not in msg and pa1 not in msg


@pytest.mark.parametrize("budget", BUDGETS)
def test_two_duplicated_ids_in_b_the_first_in_b_is_named(tmp_path, budget):
    a = _csv_dir(tmp_path / "a", [[(i, "x", "x") for i in range(1, 9)]])
    b = _csv_dir(tmp_path / "b", [[(1, "x", "x"), (5, "x", "x"), (2, "x", "x")],
                                  [(3, "x", "x"), (2, "x", "x"), (5, "x", "x"), (4, "x", "x")]])
    msg = _refusal((a, b), budget)
    pb0, pb1 = str(tmp_path / "b" / "part-0.csv"), str(tmp_path / "b" / "part-1.csv")
    # 2 is the first id seen again (part-1, row 2), before 5 (part-1, row 3), though 5 first occurs earlier
    assert "the id '2' occurs more than once" in msg
    assert f"file {pb0!r}, row 3" in msg and f"file {pb1!r}, row 2" in msg


@pytest.mark.parametrize("budget", BUDGETS)
def test_b_with_extra_ids_is_refused_naming_the_first(tmp_path, budget):
    a = _csv_dir(tmp_path / "a", [[(i, "x", "x") for i in range(10)]])
    b = _csv_dir(tmp_path / "b", [[(i, "x", "y") for i in range(10)] + [(12, "x", "x")],
                                  [(11, "x", "x"), (13, "y", "x")]])
    msg = _refusal((a, b), budget)
    pb0 = str(tmp_path / "b" / "part-0.csv")
    assert f"3 id(s) of {str(tmp_path / 'b')!r} are missing from {str(tmp_path / 'a')!r}" in msg
    assert f"(e.g. '12', file {pb0!r}, row 11 (line 12))" in msg
    assert "of " + repr(str(tmp_path / "a")) + " are missing" not in msg


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_fifty_ids_only_in_a(tmp_path, budget, fmt):
    """A holds 200 ids over 4 files, B the first 150: 50 ids only in A, counted over every partition."""
    da, db = tmp_path / "a", tmp_path / "b"
    da.mkdir()
    db.mkdir()
    ids = np.arange(200)
    for k, chunk in enumerate(np.array_split(ids, 4)):
        t = pa.table({"id": chunk, "gold": chunk % 3, "pred": (chunk + k) % 3})
        if fmt == "csv":
            (da / f"p{k}.csv").write_text("id,gold,pred\n" + "".join(f"{i},{i % 3},{(i + k) % 3}\n" for i in chunk))
        else:
            pq.write_table(t, da / f"p{k}.parquet")
    pq.write_table(pa.table({"id": ids[:150][::-1], "gold": ids[:150][::-1] % 3, "pred": ids[:150][::-1] % 2}),
                   db / "b.parquet")
    msg = _refusal((str(da), str(db)), budget)
    first = str(da / f"p3.{fmt}")  # id 150 is the 1st row of the 4th file (ids 150..199)
    line = " (line 2)" if fmt == "csv" else ""
    assert f"50 id(s) of {str(da)!r} are missing from {str(db)!r} (e.g. '150', file {first!r}, row 1{line})" in msg
    assert "of " + repr(str(db)) + " are missing" not in msg


def test_cli_names_the_duplicate_and_the_missing_ids(tmp_path):
    a = _csv_dir(tmp_path / "a", [[(4, "x", "x"), (8, "x", "x"), (4, "y", "y"), (8, "x", "y")]])
    b = _csv_dir(tmp_path / "b", [[(4, "x", "x"), (8, "x", "x")]])
    for memory in ("4KiB", "1GiB"):
        res = run("compare", a, b, "--samples", "50", "--memory", memory)
        assert res.code == 1 and "Traceback" not in res.err
        assert "the id '4' occurs more than once (rows 1 and 3)" in res.err
    c = _csv_dir(tmp_path / "c", [[(4, "x", "x")]])
    for memory in ("4KiB", "1GiB"):
        res = run("compare", b, c, "--samples", "50", "--memory", memory)
        assert res.code == 1 and "Traceback" not in res.err
        assert "1 id(s) of" in res.err and "(e.g. '8', file" in res.err


# --- the fast path: the same joint table as the general path --------------------------------------------------


def _joint(paths, budget, **kw):
    matching = Matching()
    got: Counter = Counter()
    for batch in aligned([iter_predictions(p, batch_rows=kw.get("rows", 5)) for p in paths], budget=budget,
                         matching=matching, weighted=kw.get("weighted", False)):
        counts = batch.counts if batch.counts is not None else [1] * len(batch.gold)
        for g, x, y, c in zip(batch.gold.to_pylist(), *[p.to_pylist() for p in batch.preds], counts, strict=True):
            got[(g, x, y)] += int(c)
    return got, matching


@pytest.mark.parametrize("weighted", [False, True])
def test_csv_text_ids_match_parquet_integer_ids_on_the_fast_path(tmp_path, weighted):
    """A CSV's "1" matches a Parquet file's 1; labels keep their types (CSV text beside Parquet integers)."""
    rng = np.random.default_rng(3)
    n = 60
    g = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.7, g, (g + 1) % 3)
    b = np.where(rng.random(n) < 0.6, g, (g + 2) % 3)
    da = _csv_dir(tmp_path / "a", [[(i, g[i], a[i]) for i in range(0, 30)], [(i, g[i], a[i]) for i in range(30, n)]])
    db = tmp_path / "b"
    db.mkdir()
    order = rng.permutation(n)
    pq.write_table(pa.table({"id": order.astype(np.int64), "gold": g[order], "pred": b[order]}), db / "b.parquet")
    expected = Counter(zip(map(str, g), map(str, a), b.tolist(), strict=True))
    fast, m1 = _joint((da, str(db)), 1 << 30, weighted=weighted)
    slow, m2 = _joint((da, str(db)), MIN_MEMORY)
    assert m1.engine == "duckdb" and m2.engine == "" and m2.partitions > 1
    assert fast == slow == expected
    assert m1.rows == m2.rows == n


def test_an_id_type_that_changes_between_files_takes_the_general_path(tmp_path):
    """The first file's ids are integers, the second's text: the fast path hands back; the result is exact."""
    a = _csv_dir(tmp_path / "a", [[(1, "x", "x"), (2, "y", "x")], [("k3", "x", "y"), ("k4", "y", "y")]])
    b = _csv_dir(tmp_path / "b", [[("k4", "y", "x"), (2, "y", "y"), ("k3", "x", "x"), (1, "x", "y")]])
    got, m = _joint((a, b), 1 << 30, rows=1)
    assert got == Counter({("x", "x", "y"): 1, ("y", "x", "y"): 1, ("x", "y", "x"): 1, ("y", "y", "x"): 1})
    assert m.rows == 4


def test_a_label_type_that_changes_between_files_takes_the_general_path(tmp_path):
    """Integer labels in one Parquet file, text in the next: compared as text, as the general path does."""
    da, db = tmp_path / "a", tmp_path / "b"
    da.mkdir()
    db.mkdir()
    pq.write_table(pa.table({"id": [1, 2], "gold": [1, 2], "pred": [1, 1]}), da / "p0.parquet")
    pq.write_table(pa.table({"id": [3], "gold": ["c"], "pred": ["c"]}), da / "p1.parquet")
    pq.write_table(pa.table({"id": [3, 2, 1], "gold": ["c", "2", "1"], "pred": ["2", "2", "1"]}), db / "b.parquet")
    got, m = _joint((str(da), str(db)), 1 << 30, rows=1)
    assert got == Counter({("1", "1", "1"): 1, ("2", "1", "2"): 1, ("c", "c", "2"): 1})
    assert m.engine == "" and m.rows == 3


def test_gold_labels_that_differ_are_named_on_both_paths(tmp_path):
    a = _csv_dir(tmp_path / "a", [[(1, "x", "x"), (2, "y", "x"), (3, "x", "y")]])
    b = _csv_dir(tmp_path / "b", [[(3, "y", "y"), (2, "x", "x"), (1, "x", "y")]])
    for budget in BUDGETS:
        with pytest.raises(DataError) as exc:
            list(aligned(_readers(a, b), budget=budget))
        assert "the item with id '2' has gold 'y'" in str(exc.value) and "(2 item(s) differ)" in str(exc.value)


def test_a_large_integer_label_after_small_ones_is_counted_exactly(tmp_path):
    """Small integer labels travel through DuckDB as int16; a label beyond int16 in a later file hands back to
    the general path, and every label keeps its value."""
    da, db = tmp_path / "a", tmp_path / "b"
    da.mkdir()
    db.mkdir()
    pq.write_table(pa.table({"id": [1, 2], "gold": [1, 2], "pred": [1, 1]}), da / "p0.parquet")
    pq.write_table(pa.table({"id": [3], "gold": [40_000], "pred": [-70_000]}), da / "p1.parquet")
    pq.write_table(pa.table({"id": [3, 2, 1], "gold": [40_000, 2, 1], "pred": [2**40, 2, 1]}), db / "b.parquet")
    got, m = _joint((str(da), str(db)), 1 << 30, rows=1)
    assert got == Counter({(1, 1, 1): 1, (2, 1, 2): 1, (40_000, -70_000, 2**40): 1})
    assert m.engine == "" and m.rows == 3
    pq.write_table(pa.table({"id": [2, 1], "gold": [2, 1], "pred": [2**40, 7]}), db / "b.parquet")
    (da / "p1.parquet").unlink()
    got, m = _joint((str(da), str(db)), 1 << 30)  # int16 labels in A, int64 in B: values kept on the fast path
    assert got == Counter({(1, 1, 7): 1, (2, 1, 2**40): 1}) and m.engine == "duckdb"


def test_a_signal_during_the_duckdb_query_unwinds_at_once_and_removes_the_spill(tmp_path):
    """SIGTERM's handler raises while the query runs on its worker thread: the query is interrupted, the
    error unwinds within a moment, and the run's spill directory is gone."""
    import os
    import signal
    import tempfile
    import time

    from clfeval.errors import Interrupted

    n = 20_000
    for name in ("a", "b"):
        (tmp_path / f"{name}.csv").write_text("id,gold,pred\n" + "".join(f"{i},x,y\n" for i in range(n)))
    readers = [iter_predictions(str(tmp_path / f"{x}.csv"), batch_rows=1) for x in ("a", "b")]  # slow: 1 row a batch

    def on_alarm(signum, frame):
        raise Interrupted(signum)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    mine = f"-{os.getpid()}-"
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        t0 = time.perf_counter()
        with pytest.raises(Interrupted):
            list(aligned(readers, budget=1 << 30))
        assert time.perf_counter() - t0 < 0.5 + 2.0  # not after the whole input was read
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert not [d for d in os.listdir(tempfile.gettempdir()) if d.startswith("clfeval-spill-") and mine in d]


def test_the_duckdb_join_spills_within_its_budget_and_counts_exactly(tmp_path):
    """2e6 items at the smallest budget of the fast path (64 MiB): DuckDB spills into the run's spill
    directory, and the joint cells equal numpy's count of the items (B's rows in another order)."""
    from clfeval.io._duckjoin import MIN_BUDGET

    n = 2_000_000
    rng = np.random.default_rng(21)
    g, a, b = rng.integers(0, 5, n), rng.integers(0, 5, n), rng.integers(0, 5, n)
    order = rng.permutation(n)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    pq.write_table(pa.table({"id": np.arange(n), "gold": g, "pred": a}), tmp_path / "a" / "a.parquet")
    pq.write_table(pa.table({"id": order, "gold": g[order], "pred": b[order]}), tmp_path / "b" / "b.parquet")
    matching = Matching()
    cells = np.zeros((5, 5, 5), dtype=np.int64)
    for batch in aligned([iter_predictions(str(tmp_path / x)) for x in ("a", "b")], budget=MIN_BUDGET,
                         matching=matching, weighted=True):
        np.add.at(cells, (batch.gold.to_numpy(), batch.preds[0].to_numpy(), batch.preds[1].to_numpy()),
                  batch.counts)
    expected = np.zeros((5, 5, 5), dtype=np.int64)
    np.add.at(expected, (g, a, b), 1)
    assert matching.engine == "duckdb" and matching.spilled and matching.spilled_bytes > 0
    assert "spilled to disk" in matching.describe()
    assert np.array_equal(cells, expected) and matching.rows == n
