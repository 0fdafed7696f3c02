"""Report by slice at scale (issue 26): ``clfeval report DIR --by seg`` against the plain streamed report.

One run; the ratios are measured in that run, each measurement in a fresh child process (its own peak RSS).
Data: N rows (gold, pred: binary 0/1 with recall 0.8; one slice column ``seg`` of SLICES integer values, one of
them 20 points worse) in FILES Parquet files. Measured (no --ci, as the issue asks):

1. ``clfeval report DIR --positive 1 --memory 512MB`` — the plain streamed report;
2. ``clfeval report DIR --positive 1 --memory 512MB --by seg`` — the same with 1,000 slices: the slice tables,
   the tests across slices (chi-square, Fisher, the permutation test of F1 with --slice-samples redraws),
   the adjustments and the fairness measures.

Target: (2) at >= 0.8x the speed of (1), peak RSS <= 1 GB. The issue's case is N = 1e8; ``--n`` scales it.

With ``--search`` (issue 27): data with ten columns ``c0`` … ``c9`` of ten values each (and one planted cross,
``c0=0 ∧ c1=0``, recall 20 points lower), measured:

3. ``clfeval report DIR --positive 1 --memory 512MB`` — the plain streamed report on those files;
4. ``clfeval report DIR --positive 1 --memory 512MB --find-slices c0,…,c9`` — the search: 10 single columns and
   45 crosses (55 column sets, 4,600 slices) counted in the same pass (each row one outcome of the metric --
   no trial, failed, succeeded -- and the 55 column sets covered by 6 blocks of at most five columns, one
   bincount per block and batch: :mod:`clfeval.core._latticecount`), tested and adjusted.

Target: (4) in <= 3x the time of (3) at N = 1e7. ``--max-depth 3`` adds the 120 triples (124,600 slices,
``--max-search 200000``): no target, its ratio stated.

Usage: python bench/slices_speed.py [--n 10000000] [--slices 1000] [--files 20] [--dir DIR] [--repeat 1]
       [--search [--max-depth 3]]
With ``--repeat 5 --search`` the medians of the five interleaved runs are printed too (issue 35's acceptance).
``--json``: a last line of JSON with the fastest seconds of each job, read by ``bench/checkouts.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
sys.path.insert(0, HERE)


def write_data(directory: str, n: int, slices: int, files: int, seed: int = 26) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(seed)
    per = n // files
    for i in range(files):
        m = per if i < files - 1 else n - per * (files - 1)
        seg = rng.integers(0, slices, m, dtype=np.int64)
        gold = (rng.random(m) < 0.4).astype(np.int64)
        recall = np.where(seg == 0, 0.6, 0.8)
        pred = np.where(gold == 1, rng.random(m) < recall, rng.random(m) < 0.1).astype(np.int64)
        pq.write_table(pa.table({"gold": gold, "pred": pred, "seg": seg}),
                       os.path.join(directory, f"part-{i:03d}.parquet"))


def write_search_data(directory: str, n: int, files: int, seed: int = 27) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(seed)
    per = n // files
    for i in range(files):
        m = per if i < files - 1 else n - per * (files - 1)
        cols = {f"c{j}": rng.integers(0, 10, m, dtype=np.int64) for j in range(10)}
        gold = (rng.random(m) < 0.4).astype(np.int64)
        recall = np.where((cols["c0"] == 0) & (cols["c1"] == 0), 0.6, 0.8)
        pred = np.where(gold == 1, rng.random(m) < recall, rng.random(m) < 0.1).astype(np.int64)
        pq.write_table(pa.table({"gold": gold, "pred": pred, **cols}), os.path.join(directory, f"part-{i:03d}.parquet"))


def _clfeval(*args: str) -> tuple[float, str]:
    """``clfeval ARGS`` in this process, its text output (what a user reads) timed; then its JSON, untimed. As the
    ``clfeval`` command does, pyarrow is kept from importing pandas behind its back (``clfeval.core._nopandas``):
    otherwise whichever path first hands pyarrow NumPy values pays pandas' import (~0.4 s) and the other does not."""
    from clfeval.cli import main
    try:
        from clfeval.core._nopandas import install
    except ImportError:  # a checkout before issue 39 (bench/checkouts.py runs this script on both trees)
        from clfeval.cli._nopandas import install  # type: ignore[no-redef]

    install()

    text = tempfile.mktemp(suffix=".txt")
    t0 = time.perf_counter()
    try:
        main([*args, "-f", "text", "-o", text])
    except SystemExit as exc:
        if exc.code:
            raise RuntimeError(f"clfeval {' '.join(args)} exited {exc.code}") from None
    seconds = time.perf_counter() - t0
    os.unlink(text)
    out = tempfile.mktemp(suffix=".json")
    try:
        main([*args, "-f", "json", "-o", out])
    except SystemExit as exc:
        if exc.code:
            raise RuntimeError(f"clfeval {' '.join(args)} exited {exc.code}") from None
    with open(out, encoding="utf-8") as f:
        result = json.load(f)
    os.unlink(out)
    return seconds, result


def job_plain(path: str) -> dict:
    seconds, d = _clfeval("report", path, "--positive", "1", "--memory", "512MB")
    return {"time": seconds, "n": d["n"], "mode": d["engine"]["mode"]}


def job_sliced(path: str) -> dict:
    seconds, d = _clfeval("report", path, "--positive", "1", "--memory", "512MB", "--by", "seg")
    sec = d["slices"]
    flagged = [r["slice"] for r in sec["slices"] if (r["tests"].get("recall:1") or {}).get("flagged")]
    return {"time": seconds, "n": d["n"], "mode": d["engine"]["mode"], "slices": sec["n_slices"],
            "flagged_recall": flagged[:5], "worst_recall": sec["worst"].get("recall:1")}


def job_search(path: str, depth: str = "2") -> dict:
    cols = ",".join(f"c{j}" for j in range(10))
    deeper = ["--max-depth", depth, "--max-search", "200000"] if depth != "2" else []
    seconds, d = _clfeval("report", path, "--positive", "1", "--memory", "512MB", "--find-slices", cols, *deeper)
    sec = d["find_slices"]
    return {"time": seconds, "n": d["n"], "mode": d["engine"]["mode"], "examined": sec["examined"],
            "found": [f["slice"] for f in sec["found"][:3]], "survived": sec["survived"], "kept": len(sec["found"]),
            "explained": [(x["slice"], x["explained_by"]) for x in sec.get("explained", [])[:3]]}


JOBS = {"plain": job_plain, "sliced": job_sliced, "search": job_search}


def main() -> None:
    import _child

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=float, default=1e7)
    ap.add_argument("--slices", type=int, default=1000)
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--search", action="store_true", help="the search of issue 27 instead of --by")
    ap.add_argument("--max-depth", type=int, default=2, help="with --search: 3 searches the 120 triples too")
    ap.add_argument("--json", action="store_true", help="a last line of JSON with the measured seconds")
    a = ap.parse_args()
    root = a.dir or tempfile.mkdtemp(prefix="clfeval-slices-")
    data = os.path.join(root, "data")
    if a.search:
        try:
            _search(data, a)
        finally:
            if a.dir is None:
                shutil.rmtree(root, ignore_errors=True)
        return
    try:
        t0 = time.perf_counter()
        write_data(data, int(a.n), a.slices, a.files)
        print(f"data: {int(a.n):,} rows, {a.slices:,} slices, {a.files} Parquet files "
              f"({time.perf_counter() - t0:.1f} s to write)")
        plain, sliced = [], []
        for _ in range(a.repeat):  # interleaved: the load of the machine hits both alike
            plain.append(_child.run("slices_speed", "plain", (data,)))
            sliced.append(_child.run("slices_speed", "sliced", (data,)))
        p = min(plain, key=lambda r: r["time"])
        s = min(sliced, key=lambda r: r["time"])
        print(f"plain streamed report : {p['time']:8.2f} s  peak RSS {p['rss'] / 2**20:7.0f} MB  ({p['mode']})")
        print(f"report --by seg       : {s['time']:8.2f} s  peak RSS {s['rss'] / 2**20:7.0f} MB  ({s['mode']}, "
              f"{s['slices']:,} slices; worst recall: {s['worst_recall']}, flagged: {s['flagged_recall']})")
        ratio = p["time"] / s["time"]
        print(f"speed ratio (sliced / plain): {ratio:.2f}x  (target >= 0.8x); peak RSS "
              f"{'<=' if s['rss'] <= 2**30 else '>'} 1 GB")
        if a.json:
            print(json.dumps({"plain": p["time"], "sliced": s["time"]}))
    finally:
        if a.dir is None:
            shutil.rmtree(root, ignore_errors=True)


def _search(data: str, a: argparse.Namespace) -> None:
    import _child

    t0 = time.perf_counter()
    write_search_data(data, int(a.n), a.files)
    print(f"data: {int(a.n):,} rows, 10 columns of 10 values, {a.files} Parquet files "
          f"({time.perf_counter() - t0:.1f} s to write)")
    plain, search = [], []
    for _ in range(a.repeat):  # interleaved: the load of the machine hits both alike
        plain.append(_child.run("slices_speed", "plain", (data,)))
        search.append(_child.run("slices_speed", "search", (data, str(a.max_depth))))
    p = min(plain, key=lambda r: r["time"])
    s = min(search, key=lambda r: r["time"])
    print(f"plain streamed report      : {p['time']:8.2f} s  peak RSS {p['rss'] / 2**20:7.0f} MB  ({p['mode']})")
    print(f"report --find-slices c0..c9 (depth {a.max_depth}): {s['time']:8.2f} s  peak RSS "
          f"{s['rss'] / 2**20:7.0f} MB  ({s['mode']}, {s['examined']:,} slices examined, {s['survived']} survived, "
          f"{s['kept']} kept; first found: {s['found']})")
    print(f"time ratio (search / plain): {s['time'] / p['time']:.2f}x  (target <= 3x)")
    measured = {"plain": p["time"], "search": s["time"]}
    if a.repeat > 1:  # the acceptance of issue 35: the medians of the interleaved runs
        import statistics

        mp = statistics.median(r["time"] for r in plain)
        ms = statistics.median(r["time"] for r in search)
        times = {name: ", ".join(f"{r['time']:.2f}" for r in runs) for name, runs in (("plain", plain),
                                                                                         ("search", search))}
        print(f"plain runs  (s): {times['plain']}; median {mp:.2f}")
        print(f"search runs (s): {times['search']}; median {ms:.2f}; explained: {search[0].get('explained')}")
        print(f"median ratio (search / plain): {ms / mp:.2f}x  (target <= 3x)")
    if a.json:
        print(json.dumps(measured))


if __name__ == "__main__":
    main()
