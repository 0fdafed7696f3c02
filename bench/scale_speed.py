"""Streaming at scale (issue 12): count reports, comparisons and many classes, in bounded memory.

One run; every ratio is measured in that run, and every measurement runs in a fresh child process so that
its peak RSS (``ru_maxrss``) is its own. clfeval runs through its command line (``clfeval.cli.main``, in the
child), exactly as a user runs it; the floors are what pyarrow and numpy alone need for the same work.

1. 1e8 rows (gold, pred: 10 classes; one float score column) in 20 Parquet files: ``clfeval report DIR``
   (streamed count report) against the floor "pyarrow reads the two label columns of the same files and numpy
   bincounts them" (target: >= 0.8x the floor's speed, peak RSS <= 1 GB).
2. The same rows as 20 CSV files: ``clfeval report DIR`` against pyarrow's streaming CSV read of the same files.
3. 1e9 rows generated into 100 Parquet files (deleted afterwards): the streamed count report's time, rows per
   second and peak RSS.
4. ``clfeval compare A_DIR B_DIR`` of two 1e8-row directories with ids (B's items in another order, spread over
   other files, so that the id join partitions them): time and peak RSS.
5. 100,000 labels over 1e7 items (CSV): ``clfeval report`` time and peak RSS (target <= 2 GB, <= 60 s), and
   ``clfeval compare`` of two such files.

``bench/ranking_speed.py`` measures the in-memory ranking (as is and with the SIMD sort disabled).

Usage: python bench/scale_speed.py [--n 100000000] [--big 1000000000] [--classes-n 10000000]
                                   [--skip-big] [--skip-compare] [--dir DIR] [--json]
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
SRC = os.path.join(HERE, "..", "src")
sys.path.insert(0, SRC)

K = 10


# --- data ----------------------------------------------------------------------------------------

def _labels(rng, m: int, k: int):
    import numpy as np

    gold = rng.integers(0, k, m, dtype=np.int64)
    pred = np.where(rng.random(m) < 0.8, gold, rng.integers(0, k, m, dtype=np.int64))
    return gold, pred


def write_parquet(directory: str, n: int, files: int, *, score: bool = True, ids: bool = False,
                  seed: int = 12) -> None:
    """``files`` Parquet files of n rows in all: gold, pred (K classes), optionally score and id."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(seed)
    per = n // files
    for i in range(files):
        m = per if i < files - 1 else n - per * (files - 1)
        gold, pred = _labels(rng, m, K)
        cols = {"gold": gold, "pred": pred}
        if score:
            cols["score"] = np.round(np.clip(rng.normal(0.35 + 0.3 * (gold == 1), 0.2), 0, 1), 6)
        if ids:
            cols = {"id": np.arange(i * per, i * per + m, dtype=np.int64), **cols}
        pq.write_table(pa.table(cols), os.path.join(directory, f"part-{i:03d}.parquet"))


def write_other_system(src_dir: str, directory: str, files: int, seed: int = 99) -> None:
    """System B of the same items: the same gold labels, other predictions, the ids shuffled over ``files`` files."""
    import glob

    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    os.makedirs(directory, exist_ok=True)
    t = pa.concat_tables(pq.read_table(p,
                                       columns=["id",
                                                "gold"]) for p in sorted(glob.glob(os.path.join(src_dir, "*.parquet"))))
    rng = np.random.default_rng(seed)
    order = rng.permutation(t.num_rows)
    ids = t.column("id").to_numpy()[order]
    gold = t.column("gold").to_numpy()[order]
    del t
    pred = np.where(rng.random(gold.shape[0]) < 0.78, gold, rng.integers(0, K, gold.shape[0], dtype=np.int64))
    for i, part in enumerate(np.array_split(np.arange(gold.shape[0]), files)):
        pq.write_table(pa.table({"id": ids[part], "gold": gold[part], "pred": pred[part]}),
                       os.path.join(directory, f"b-{i:03d}.parquet"))


def parquet_to_csv(src_dir: str, directory: str) -> None:
    import glob

    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    os.makedirs(directory, exist_ok=True)
    for p in sorted(glob.glob(os.path.join(src_dir, "*.parquet"))):
        out = os.path.join(directory, os.path.basename(p).replace(".parquet", ".csv"))
        pcsv.write_csv(pq.read_table(p), out)


def write_many_classes(path: str, n: int, classes: int, seed: int, ids: bool = True) -> None:
    """One CSV of n items over ``classes`` labels (Zipf-like frequencies), 70 % correct."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pcsv

    rng = np.random.default_rng(12)  # the same gold labels for every system
    weights = 1.0 / np.arange(1, classes + 1) ** 0.6
    gold = rng.choice(classes, n, p=weights / weights.sum())
    rng = np.random.default_rng(seed)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, classes, n))
    cols = {"gold": pa.array([f"c{x}" for x in gold.tolist()]), "pred": pa.array([f"c{x}" for x in pred.tolist()])}
    if ids:
        cols = {"id": np.arange(n), **cols}
    pcsv.write_csv(pa.table(cols), path)


# --- the measurements, each run in a child process ----------------------------------------------------

def _clfeval(*args: str, fmt: str = "json") -> tuple[float, str]:
    """Run ``clfeval ARGS -f FMT -o OUT`` in this process; (seconds, the output)."""
    from clfeval.cli import main

    out = tempfile.mktemp(suffix="." + fmt)
    t0 = time.perf_counter()
    try:
        main([*args, "-f", fmt, "-o", out])
    except SystemExit as exc:
        if exc.code:
            raise RuntimeError(f"clfeval {' '.join(args)} exited {exc.code}") from None
    seconds = time.perf_counter() - t0
    with open(out, encoding="utf-8") as f:
        result = f.read()
    os.unlink(out)
    return seconds, result


def job_report(path: str) -> dict:
    """The text report (what a user reads); its first line says how many items were counted."""
    seconds, text = _clfeval("report", path, fmt="text")
    return {"time": seconds, "first_line": text.splitlines()[0]}


def job_floor_parquet(directory: str) -> dict:
    """pyarrow reads the two label columns of every file; numpy bincounts (gold, pred)."""
    import glob

    import numpy as np
    import pyarrow.parquet as pq

    t0 = time.perf_counter()
    counts = np.zeros(K * K, dtype=np.int64)
    for p in sorted(glob.glob(os.path.join(directory, "*.parquet"))):
        with pq.ParquetFile(p) as f:
            for b in f.iter_batches(batch_size=1 << 20, columns=["gold", "pred"]):
                g = b.column(0).to_numpy()
                y = b.column(1).to_numpy()
                counts += np.bincount(g * K + y, minlength=K * K)
    return {"time": time.perf_counter() - t0, "n": int(counts.sum())}


def job_floor_csv(directory: str) -> dict:
    """pyarrow's streaming CSV reader over every file (the label columns), numpy bincounts them."""
    import glob

    import numpy as np
    import pyarrow.csv as pcsv

    t0 = time.perf_counter()
    counts = np.zeros(K * K, dtype=np.int64)
    for p in sorted(glob.glob(os.path.join(directory, "*.csv"))):
        reader = pcsv.open_csv(p, convert_options=pcsv.ConvertOptions(include_columns=["gold", "pred"]))
        for b in reader:
            counts += np.bincount(b.column(0).to_numpy() * K + b.column(1).to_numpy(), minlength=K * K)
    return {"time": time.perf_counter() - t0, "n": int(counts.sum())}


def job_compare(a: str, b: str, *extra: str) -> dict:
    seconds, out = _clfeval("compare", a, b, *extra)
    r = json.loads(out)
    return {"time": seconds, "p": r.get("p_value"), "delta": r.get("delta"), "notes": r.get("notes", [])[-2:]}


JOBS = {"report": job_report, "floor_parquet": job_floor_parquet, "floor_csv": job_floor_csv, "compare": job_compare}


def child(name: str, *args: str) -> dict:
    """Run one job in a fresh interpreter; its result and its own peak RSS (``bench/_child.py``)."""
    import _child

    return _child.run('scale_speed', name, args, rss_key="rss")


def gb(x: float) -> str:
    return f"{x / 2**30:.2f} GB"


def size_of(directory: str) -> int:
    return sum(os.path.getsize(os.path.join(directory, f)) for f in os.listdir(directory))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000_000)
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--big", type=int, default=1_000_000_000)
    ap.add_argument("--big-files", type=int, default=100)
    ap.add_argument("--classes", type=int, default=100_000)
    ap.add_argument("--classes-n", type=int, default=10_000_000)
    ap.add_argument("--compare-samples", type=int, default=1000)
    ap.add_argument("--skip-big", action="store_true")
    ap.add_argument("--skip-compare", action="store_true")
    ap.add_argument("--dir", default=None, help="where to write the files (default: a temporary directory)")
    ap.add_argument("--json", action="store_true", help="a last line of JSON with the measured seconds")
    args = ap.parse_args()

    import numpy as np
    import pyarrow as pa

    import clfeval

    base = tempfile.mkdtemp(prefix="clfeval-scale-", dir=args.dir)
    print(f"clfeval {clfeval.__version__}, numpy {np.__version__}, pyarrow {pa.__version__}, {os.cpu_count()} cores")
    try:
        pq_dir, csv_dir = os.path.join(base, "parquet"), os.path.join(base, "csv")
        t0 = time.perf_counter()
        write_parquet(pq_dir, args.n, args.files)
        print(f"\n{args.n:.3g} rows in {args.files} Parquet files ({gb(size_of(pq_dir))}) written in "
              f"{time.perf_counter() - t0:.0f} s")

        floor = child("floor_parquet", pq_dir)
        rep = child("report", pq_dir)
        measured = {"floor_parquet": floor["time"], "report_parquet": rep["time"]}
        assert f"{args.n} items" in rep["first_line"], rep
        print("\n1. count report of the Parquet directory, streamed:")
        print(f"   floor (pyarrow reads gold, pred; numpy bincounts): {floor['time']:.1f} s, peak RSS "
              f"{gb(floor['rss'])}")
        print(f"   clfeval report DIR: {rep['time']:.1f} s, peak RSS {gb(rep['rss'])}, "
              f"{args.n / rep['time'] / 1e6:.1f} M rows/s")
        print(f"   speed vs the floor: {floor['time'] / rep['time']:.2f}x (target >= 0.8x); "
              f"RSS {'<=' if rep['rss'] <= 2**30 else '>'} 1 GB")

        t0 = time.perf_counter()
        parquet_to_csv(pq_dir, csv_dir)
        print(f"\n   (the same rows as {args.files} CSV files, {gb(size_of(csv_dir))}, written in "
              f"{time.perf_counter() - t0:.0f} s)")
        cfloor = child("floor_csv", csv_dir)
        crep = child("report", csv_dir)
        measured.update(floor_csv=cfloor["time"], report_csv=crep["time"])
        print("2. count report of the CSV directory, streamed:")
        print(f"   floor (pyarrow's streaming CSV reader, label columns; numpy bincounts): {cfloor['time']:.1f} s, "
              f"peak RSS {gb(cfloor['rss'])}")
        print(f"   clfeval report DIR: {crep['time']:.1f} s, peak RSS {gb(crep['rss'])}, "
              f"{args.n / crep['time'] / 1e6:.1f} M rows/s")
        print(f"   speed vs the floor: {cfloor['time'] / crep['time']:.2f}x")
        shutil.rmtree(csv_dir, ignore_errors=True)

        shutil.rmtree(pq_dir, ignore_errors=True)
        if not args.skip_compare:
            a_dir, b_dir = os.path.join(base, "parquet-a"), os.path.join(base, "parquet-b")
            t0 = time.perf_counter()
            write_parquet(a_dir, args.n, args.files, score=False, ids=True)
            write_other_system(a_dir, b_dir, args.files)
            print(f"\n   (systems A and B with ids: the same {args.n:.3g} items, B's shuffled over {args.files} other "
                  f"files, written in {time.perf_counter() - t0:.0f} s)")
            cmp = child("compare", a_dir, b_dir, "--samples", str(args.compare_samples))
            measured["compare_parquet"] = cmp["time"]
            print(f"4. clfeval compare A_DIR B_DIR (ids, accuracy, paired bootstrap, b = {args.compare_samples}): "
                  f"{cmp['time']:.1f} s, peak RSS {gb(cmp['rss'])}; δ = {cmp['delta']}, p = {cmp['p']}")
            for note in cmp["notes"]:
                print(f"   note: {note}")
            shutil.rmtree(a_dir, ignore_errors=True)
            shutil.rmtree(b_dir, ignore_errors=True)

        if not args.skip_big:
            big_dir = os.path.join(base, "big")
            t0 = time.perf_counter()
            write_parquet(big_dir, args.big, args.big_files, score=False)
            print(f"\n   ({args.big:.3g} rows in {args.big_files} Parquet files, {gb(size_of(big_dir))}, written in "
                  f"{time.perf_counter() - t0:.0f} s)")
            big = child("report", big_dir)
            measured["report_big"] = big["time"]
            assert f"{args.big} items" in big["first_line"], big
            print(f"3. clfeval report of {args.big:.3g} rows: {big['time']:.1f} s, {args.big / big['time'] / 1e6:.1f} "
                  f"M rows/s, peak RSS {gb(big['rss'])}")
            shutil.rmtree(big_dir, ignore_errors=True)

        a_csv, b_csv = os.path.join(base, "classes-a.csv"), os.path.join(base, "classes-b.csv")
        t0 = time.perf_counter()
        write_many_classes(a_csv, args.classes_n, args.classes, seed=1)
        write_many_classes(b_csv, args.classes_n, args.classes, seed=2)
        print(f"\n   ({args.classes:,} labels over {args.classes_n:.3g} items, two CSV files of "
              f"{gb(os.path.getsize(a_csv))}, written in {time.perf_counter() - t0:.0f} s)")
        many = child("report", a_csv)
        print(f"5. clfeval report, {args.classes:,} labels: {many['time']:.1f} s, peak RSS {gb(many['rss'])} "
              f"(targets <= 60 s, <= 2 GB)")
        mcmp = child("compare", a_csv, b_csv, "--samples", str(args.compare_samples))
        measured.update(report_classes=many["time"], compare_classes=mcmp["time"])
        print(f"   clfeval compare of two such files (b = {args.compare_samples}): {mcmp['time']:.1f} s, peak RSS "
              f"{gb(mcmp['rss'])}; δ = {mcmp['delta']}, p = {mcmp['p']}")
        if args.json:
            print(json.dumps(measured))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
