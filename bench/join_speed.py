"""The id join of ``compare`` against DuckDB's join + count of the same files (issue 21, item 3).

Two directories of Parquet files with ids (A: ``--files`` files in id order; B: the same items, other
predictions, the ids shuffled over as many files), at each size of ``--n``. Measured in one run, each in a
fresh child process (its own peak RSS):

* ``duckdb``: DuckDB reads both directories, joins them by id and counts the (gold, A, B) cells — nothing
  checked (``memory_limit`` = ``--memory``, its temporary files in a directory of its own);
* ``local``: clfeval's Local engine: :func:`clfeval.io._join.aligned` over the two inputs (every file's checks,
  duplicate and missing ids and gold labels checked as ``compare`` checks them, within ``--memory``) into the
  joint counter that ``compare`` tests on;
* ``read``: pyarrow only reads the three columns of both directories (the floor of any reader).

The two joint tables must be identical (the script fails otherwise); it prints seconds, µs per item, peak
RSS and the ratio local / duckdb (goal: <= 2 at 1e7 and 2e7 rows). Each job runs ``--repeat`` times,
interleaved (duckdb, local, duckdb, local, ...), and the fastest of each counts: on a shared machine one run
can take three times another, the fastest is the one least disturbed.

Usage: python bench/join_speed.py [--n 10000000 20000000] [--files 10] [--memory 1GiB] [--repeat 3] [--dir DIR]
The last line is JSON: the worst ratio, and the fastest seconds of each job at each size (``bench/checkouts.py``).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
sys.path.insert(0, HERE)


def job_duckdb(a: str, b: str, memory: str) -> dict:
    import duckdb

    from clfeval.scores._external import parse_memory

    tmp = tempfile.mkdtemp(prefix="join-speed-duckdb-")
    try:
        t0 = time.perf_counter()
        con = duckdb.connect(config={"memory_limit": f"{parse_memory(memory) // (1 << 20)}MiB",
                                     "temp_directory": tmp})
        rows = con.sql(f"SELECT a.gold, a.pred, b.pred, count(*) FROM read_parquet('{a}/*.parquet') AS a "
                       f"JOIN read_parquet('{b}/*.parquet') AS b USING (id) GROUP BY ALL").fetchall()
        seconds = time.perf_counter() - t0
        con.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"time": seconds, "cells": sorted([[int(g), int(x), int(y), int(c)] for g, x, y, c in rows])}


def job_local(a: str, b: str, memory: str) -> dict:
    from clfeval.core._counting import JointCounter
    from clfeval.io._join import Matching, aligned
    from clfeval.io._predictions import iter_predictions
    from clfeval.scores._external import parse_memory

    t0 = time.perf_counter()
    matching = Matching()
    counter = JointCounter(["a", "b"], [(0, 1)])
    for batch in aligned([iter_predictions(a), iter_predictions(b)], ["a", "b"], budget=parse_memory(memory),
                         matching=matching, weighted=True):
        counter.update(batch.gold, batch.preds, text=batch.text, weights=batch.counts)
    tables = counter.tables()
    seconds = time.perf_counter() - t0
    joint = tables.pair("a", "b")
    labels = list(tables.labels)
    cells = []
    counts = joint.counts
    for idx in zip(*counts.nonzero(), strict=True):
        cells.append([int(labels[i]) for i in idx] + [int(counts[idx])])
    return {"time": seconds, "cells": sorted(cells), "how": matching.describe(), "spilled": matching.spilled}


def job_read(a: str, b: str) -> dict:
    import pyarrow.parquet as pq

    t0 = time.perf_counter()
    n = 0
    for d in (a, b):
        for p in sorted(glob.glob(os.path.join(d, "*.parquet"))):
            n += pq.read_table(p, columns=["id", "gold", "pred"]).num_rows
    return {"time": time.perf_counter() - t0, "n": n}


JOBS = {"duckdb": job_duckdb, "local": job_local, "read": job_read}


def main() -> None:
    import _child
    import scale_speed

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=float, nargs="+", default=[1e7, 2e7])
    ap.add_argument("--files", type=int, default=10)
    ap.add_argument("--memory", default="1GiB")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()
    root = args.dir or tempfile.mkdtemp(prefix="join-speed-")
    worst = 0.0
    seconds: dict[str, float] = {}
    try:
        for n in (int(x) for x in args.n):
            a, b = os.path.join(root, f"a-{n}"), os.path.join(root, f"b-{n}")
            if not os.path.isdir(a):
                scale_speed.write_parquet(a, n, args.files, score=False, ids=True)
                scale_speed.write_other_system(a, b, args.files)
            runs: dict[str, list[dict]] = {"read": [], "duckdb": [], "local": []}
            for _ in range(max(args.repeat, 1)):
                runs["read"].append(_child.run("join_speed", "read", (a, b)))
                runs["duckdb"].append(_child.run("join_speed", "duckdb", (a, b, args.memory)))
                runs["local"].append(_child.run("join_speed", "local", (a, b, args.memory)))
            read, duck, local = (min(runs[k], key=lambda r: r["time"]) for k in ("read", "duckdb", "local"))
            if any(r["cells"] != duck["cells"] for r in runs["duckdb"] + runs["local"]):
                raise SystemExit(f"n = {n:,}: the joint tables differ between runs or between clfeval and DuckDB")
            if local["cells"] != duck["cells"]:
                raise SystemExit(f"n = {n:,}: the joint tables differ between clfeval and DuckDB")
            ratio = local["time"] / duck["time"]
            seconds.update({f"{k}_{n}": r["time"] for k, r in (("read", read), ("duckdb", duck), ("local", local))})
            worst = max(worst, ratio)
            print(f"n = {n:,} ({args.files} + {args.files} Parquet files, --memory {args.memory}); identical joint "
                  f"tables ({len(local['cells'])} cells, {sum(c[-1] for c in local['cells']):,} items)")
            for name, r in (("pyarrow reads the columns", read), ("DuckDB join + count", duck),
                            ("clfeval Local join (checked)", local)):
                print(f"  {name:30s} {r['time']:7.2f} s  {r['time'] / n * 1e6:6.3f} µs/item  "
                      f"peak RSS {r['rss'] / 2**20:7.0f} MiB  (fastest of {args.repeat})")
            print(f"  ratio clfeval / DuckDB: {ratio:.2f}x (goal <= 2); {local['how']}")
        print(json.dumps({"worst_ratio": round(worst, 3), "goal_met": worst <= 2.0, "seconds": seconds}))
    finally:
        if args.dir is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
