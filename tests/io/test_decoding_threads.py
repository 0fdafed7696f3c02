"""pyarrow's thread pool and the read-ahead thread: on two cores or fewer, a reader that decodes while another
thread counts decodes alone (``use_threads=False``), everywhere else with the pool."""

from __future__ import annotations

import os
import threading

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from clfeval.io import _readers
from clfeval.io._readers import arrow_threads, decoding_alongside


@pytest.fixture
def cores(monkeypatch):
    def set_cores(n: int) -> None:
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(n)), raising=False)
        monkeypatch.setattr(os, "cpu_count", lambda: n)

    return set_cores


@pytest.mark.parametrize("n, pool", [(1, False), (2, False), (3, True), (8, True)])
def test_alongside_a_counting_thread_the_pool_is_left_out_on_two_cores_or_fewer(cores, n, pool):
    cores(n)
    assert arrow_threads() is True
    with decoding_alongside():
        assert arrow_threads() is pool
    assert arrow_threads() is True


def test_the_choice_is_the_threads_own(cores):
    cores(2)
    seen: dict[str, bool] = {}
    with decoding_alongside():
        t = threading.Thread(target=lambda: seen.update(other=arrow_threads()))
        t.start()
        t.join()
        seen["this"] = arrow_threads()
    assert seen == {"other": True, "this": False}


def test_the_parquet_and_csv_readers_pass_the_choice_to_pyarrow(tmp_path, cores, monkeypatch):
    import pyarrow.csv as pacsv

    pq.write_table(pa.table({"gold": [0, 1] * 50, "pred": [1, 1] * 50}), tmp_path / "p.parquet", row_group_size=10)
    (tmp_path / "p.csv").write_text("gold,pred\n" + "0,1\n1,1\n" * 50)
    asked: list[tuple[str, bool]] = []
    read_row_group = pq.ParquetFile.read_row_group
    read_options = pacsv.ReadOptions

    def spy_group(self, i, *a, **k):
        asked.append(("parquet", k.get("use_threads", True)))
        return read_row_group(self, i, *a, **k)

    def spy_options(*a, **k):
        asked.append(("csv", k.get("use_threads", True)))
        return read_options(*a, **k)

    monkeypatch.setattr(pq.ParquetFile, "read_row_group", spy_group)
    monkeypatch.setattr(pacsv, "ReadOptions", spy_options)
    from clfeval.io import iter_batches

    cores(2)

    def rows() -> int:
        return sum(b.num_rows for f in ("p.parquet", "p.csv") for b in iter_batches(tmp_path / f, batch_rows=10))

    assert rows() == 200
    assert {k for k, _ in asked} == {"parquet", "csv"} and all(v for _, v in asked)
    asked.clear()
    with decoding_alongside():
        assert rows() == 200
    assert {k for k, _ in asked} == {"parquet", "csv"} and not any(v for _, v in asked)


def test_read_ahead_decodes_alongside_and_leaves_the_caller_alone(cores):
    from clfeval.io import read_ahead

    cores(2)
    seen = []

    def batches():
        for i in range(3):
            seen.append((threading.current_thread().name, _readers.arrow_threads()))
            yield np.arange(i)

    got = [b.size for b in read_ahead(batches())]
    assert got == [0, 1, 2]
    assert seen == [("clfeval-read-ahead", False)] * 3
    assert arrow_threads() is True
