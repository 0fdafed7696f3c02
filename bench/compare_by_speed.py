"""``compare --by`` at scale (issue 26): A vs B within every slice, streamed, against the plain streamed compare.

One run; the ratios are measured in that run, each measurement in a fresh child process (its own peak RSS).
Data: N items in FILES Parquet files per system (gold and predictions binary 0/1, A right 80 % of the time, B
75 %; A's files hold one slice column ``seg`` of SLICES integer values), B's rows in another order, matched by
``id``. Measured, interleaved (``--repeat`` times, the best of each kept):

1. ``clfeval compare A B --memory MEMORY -b 200`` — the plain streamed comparison (one joint table);
2. ``clfeval compare A B --memory MEMORY -b 200 --by seg`` — the same with one joint table per slice, each slice
   tested with its own 200 bootstrap samples, adjusted, Simpson's sentence checked.

No target in the issue for ``compare --by``; the ratio and the peak RSS are stated. ``--memory 16MB`` (below
DuckDB's minimum) makes the id join go through hash partitions on disk; the default lets DuckDB join.

Usage: python bench/compare_by_speed.py [--n 2000000] [--slices 1000] [--files 8] [--memory 512MB] [--repeat 1]
       [--dir DIR] [--json]
(``--json``: a last line of JSON with the measured seconds, read by ``bench/checkouts.py``.)
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


def write_data(directory: str, n: int, slices: int, files: int, seed: int = 26) -> tuple[str, str]:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    gold = (rng.random(n) < 0.4).astype(np.int64)
    a = np.where(rng.random(n) < 0.8, gold, 1 - gold)
    b = np.where(rng.random(n) < 0.75, gold, 1 - gold)
    seg = rng.integers(0, slices, n, dtype=np.int64)
    order = rng.permutation(n)
    out = []
    for name, table in (("a", pa.table({"id": np.arange(n), "gold": gold, "pred": a, "seg": seg})),
                        ("b", pa.table({"id": order, "gold": gold[order], "pred": b[order]}))):
        d = os.path.join(directory, name)
        os.makedirs(d, exist_ok=True)
        per = -(-n // files)
        for i in range(files):
            pq.write_table(table.slice(i * per, per), os.path.join(d, f"part-{i:03d}.parquet"))
        out.append(d)
    return out[0], out[1]


def _clfeval(*args: str) -> tuple[float, dict]:
    """``clfeval ARGS`` in this process, its text output timed; then its JSON, untimed."""
    from clfeval.cli import main

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


def job_plain(a: str, b: str, memory: str) -> dict:
    seconds, d = _clfeval("compare", a, b, "--memory", memory, "-b", "200")
    return {"time": seconds, "mode": d["engine"]["mode"], "delta": d["delta"]}


def job_sliced(a: str, b: str, memory: str) -> dict:
    seconds, d = _clfeval("compare", a, b, "--memory", memory, "-b", "200", "--by", "seg")
    return {"time": seconds, "mode": d["engine"]["mode"], "slices": len(d["slices"]),
            "delta": d["overall"]["delta"], "n": sum(r["n"] for r in d["slices"])}


JOBS = {"plain": job_plain, "sliced": job_sliced}


def main() -> None:
    import _child

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=float, default=2e6)
    ap.add_argument("--slices", type=int, default=1000)
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--memory", default="512MB")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--json", action="store_true", help="a last line of JSON with the measured seconds")
    o = ap.parse_args()
    root = o.dir or tempfile.mkdtemp(prefix="clfeval-compare-by-")
    try:
        t0 = time.perf_counter()
        a, b = write_data(root, int(o.n), o.slices, o.files)
        print(f"data: {int(o.n):,} items, {o.slices:,} slices, {o.files} Parquet files per system "
              f"({time.perf_counter() - t0:.1f} s to write)")
        plain, sliced = [], []
        for _ in range(o.repeat):  # interleaved: the load of the machine hits both alike
            plain.append(_child.run("compare_by_speed", "plain", (a, b, o.memory)))
            sliced.append(_child.run("compare_by_speed", "sliced", (a, b, o.memory)))
        p = min(plain, key=lambda r: r["time"])
        s = min(sliced, key=lambda r: r["time"])
        assert s["n"] == int(o.n) and abs(s["delta"] - p["delta"]) < 1e-12, (p, s)
        print(f"plain streamed compare : {p['time']:8.2f} s  peak RSS {p['rss'] / 2**20:7.0f} MB  ({p['mode']})")
        print(f"compare --by seg       : {s['time']:8.2f} s  peak RSS {s['rss'] / 2**20:7.0f} MB  ({s['mode']}, "
              f"{s['slices']:,} slices)")
        print(f"speed ratio (sliced / plain): {p['time'] / s['time']:.2f}x  (--memory {o.memory})")
        if o.json:
            print(json.dumps({"plain": p["time"], "sliced": s["time"]}))
    finally:
        if o.dir is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
