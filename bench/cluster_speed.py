"""Rankings beyond memory, binned scores and Dask, on 1e8 scores in 20 Parquet files (issue 13).

One run, every ratio measured in that run (each measurement in a child process, so that its peak RSS is its own):

1. Exact ROC-AUC + average precision, streamed (``scores.external.RankingStore``) with a 1 GB memory budget:
   time, peak RSS, spilled or not, and the ratio to the in-memory ``SortedRanking`` of the same scores (which fits
   on this machine), with both results compared bit for bit.
2. The binned mode, 1,000 quantile bins (first pass: the row sample; second pass: the histogram): time, the
   printed bound, the actual error against the exact AUC.
3. Dask ``LocalCluster`` (2 worker processes, 127.0.0.1) on the same files: the count report and the exact
   AUC, their times, and the overhead against the local stream (pyarrow batches into a confusion accumulator;
   the external ranking above).

Parquet batches are read with ``pyarrow.dataset`` directly (the streaming reader of issue 12 replaces it).
The files are written to a temporary directory and deleted afterwards.

Usage: python bench/cluster_speed.py [--n 100000000] [--files 20] [--memory 1GB] [--dir DIR] [--repeat R] [--json]
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

POSITIVE = 1
K = 10


def write_files(directory: str, n: int, files: int, seed: int = 13) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    per = n // files
    for i in range(files):
        m = per if i < files - 1 else n - per * (files - 1)
        gold = rng.integers(0, K, m, dtype=np.int64)
        pred = np.where(rng.random(m) < 0.8, gold, rng.integers(0, K, m))
        # scores rounded to 1e-6: ties, as real classifiers' probabilities have
        score = np.round(np.clip(rng.normal(0.35 + 0.3 * (gold == POSITIVE), 0.2), 0, 1), 6)
        pq.write_table(pa.table({"id": np.arange(i * per, i * per + m), "gold": gold, "pred": pred,
                                 "score": score}), os.path.join(directory, f"part-{i:03d}.parquet"))


def batches(directory: str, columns: list[str]):
    """Record batches of the files, one file after the other, read synchronously.

    ``pyarrow.dataset``'s scanner reads ahead of a slow consumer without bound in practice (with
    ``batch_readahead=1`` it still held ~1.2 GB here while the consumer binned each batch), which would
    measure pyarrow's prefetching instead of the ranking's memory.
    """
    import glob

    import pyarrow.parquet as pq

    for path in sorted(glob.glob(os.path.join(directory, "*.parquet"))):
        with pq.ParquetFile(path) as f:
            yield from f.iter_batches(batch_size=1 << 20, columns=columns)


# --- the measurements, each run in a child process ------------------------------------------

def job_external(directory: str, memory: str) -> dict:
    import numpy as np

    from clfeval.scores._external import RankingStore

    t0 = time.perf_counter()
    with RankingStore(str(POSITIVE), memory=memory) as st:
        for b in batches(directory, ["gold", "score"]):
            st.add(b.column(0).to_numpy() == POSITIVE, b.column(1).to_numpy())
        r = st.summary()
    dt = time.perf_counter() - t0
    return {"time": dt, "roc_auc": r.roc_auc, "ap": r.average_precision, "spilled": r.spilled, "runs": r.runs,
            "n": r.n, "curves": json.dumps(r.curves()), "np": np.__version__}


def job_memory(directory: str) -> dict:
    import pyarrow.dataset as ds

    from clfeval.scores._curves import SortedRanking

    t0 = time.perf_counter()
    t = ds.dataset(directory, format="parquet").to_table(columns=["gold", "score"])
    y = t.column("gold").to_numpy() == POSITIVE
    s = t.column("score").to_numpy()
    del t
    t1 = time.perf_counter()
    rk = SortedRanking.from_indicator(y, s, str(POSITIVE))
    auc, ap = rk.roc_auc, rk.average_precision
    curves = json.dumps(rk.curves())
    dt = time.perf_counter() - t0
    return {"time": dt, "read": t1 - t0, "rank": time.perf_counter() - t1, "roc_auc": auc, "ap": ap, "curves": curves}


def job_binned(directory: str, bins: str) -> dict:
    from clfeval.scores._binned import RowSample, ScoreHistogram, quantile_binning

    t0 = time.perf_counter()
    sample, row = RowSample(), 0
    for b in batches(directory, ["score"]):
        sample.add(row, b.column(0).to_numpy())
        row += b.num_rows
    binning = quantile_binning(sample.values(), int(bins))
    t1 = time.perf_counter()
    h = ScoreHistogram.empty(binning, positive=str(POSITIVE))
    for b in batches(directory, ["gold", "score"]):
        h = h + ScoreHistogram.of(binning, b.column(0).to_numpy() == POSITIVE, b.column(1).to_numpy())
    return {"time": time.perf_counter() - t0, "first_pass": t1 - t0, "roc_auc": h.roc_auc,
            "bound": h.auc_error_bound, "ap": h.average_precision, "bins": binning.bins}


def job_local_counts(directory: str) -> dict:
    from clfeval.core._tables import ConfusionAccumulator
    from clfeval.evaluate._reports import report_from_table

    t0 = time.perf_counter()
    acc = ConfusionAccumulator()
    for b in batches(directory, ["gold", "pred"]):
        acc.update(b.column(0), b.column(1))
    rep = report_from_table(acc.table)
    return {"time": time.perf_counter() - t0, "accuracy": rep.accuracy, "macro_f1": rep.macro["f1"]}


def job_dask(directory: str) -> dict:
    try:
        from clfeval.engines import dask as cd
    except ImportError:  # a checkout from before issue 38 (bench/checkouts.py measures old and new trees)
        from clfeval import dask as cd  # type: ignore[no-redef]

    t0 = time.perf_counter()
    with cd.connect(workers=2) as client:
        t1 = time.perf_counter()
        rep = cd.report(directory, client=client)
        t2 = time.perf_counter()
        rk = cd.ranking(directory, positive=POSITIVE, client=client)
        t3 = time.perf_counter()
    return {"startup": t1 - t0, "report": t2 - t1, "ranking": t3 - t2, "accuracy": rep.accuracy,
            "macro_f1": rep.macro["f1"], "roc_auc": rk.roc_auc, "ap": rk.average_precision,
            "curves": json.dumps(rk.curves())}


JOBS = {"external": job_external, "memory": job_memory, "binned": job_binned, "local_counts": job_local_counts,
        "dask": job_dask}


def child(name: str, *args: str) -> dict:
    """Run one job in a fresh interpreter; its result and its own peak RSS (``bench/_child.py``)."""
    import _child

    return _child.run('cluster_speed', name, args, rss_key="rss_self", children_key="rss_children")


def gb(x: float) -> str:
    return f"{x / 1e9:.2f} GB"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000_000)
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--memory", default="1GB")
    ap.add_argument("--bins", type=int, default=1000)
    ap.add_argument("--dir", default=None, help="where to write the files (default: a temporary directory)")
    ap.add_argument("--skip-dask", action="store_true")
    ap.add_argument("--repeat", type=int, default=1, help="measure section 3 (local streams, then Dask) this often")
    ap.add_argument("--dask-only", action="store_true", help="section 3 only")
    ap.add_argument("--json", action="store_true", help="a last line of JSON with the measured seconds")
    args = ap.parse_args()

    import numpy as np

    base = tempfile.mkdtemp(prefix="clfeval-cluster-", dir=args.dir)
    directory = os.path.join(base, "preds")
    os.makedirs(directory)
    measured: dict[str, float] = {}
    try:
        t0 = time.perf_counter()
        write_files(directory, args.n, args.files)
        size = sum(os.path.getsize(os.path.join(directory, f)) for f in os.listdir(directory))
        print(f"{args.n:.3g} rows in {args.files} Parquet files ({gb(size)}) written in {time.perf_counter() - t0:.1f} "
              f"s; numpy {np.__version__}, {os.cpu_count()} cores")

        if not args.dask_only:
            ext = child("external", directory, args.memory)
            mem = child("memory", directory)
            measured.update(external=ext["time"], memory=mem["time"])
            same = (ext["roc_auc"] == mem["roc_auc"] and ext["ap"] == mem["ap"] and ext["curves"] == mem["curves"])
            print(f"\n1. exact ROC-AUC + AP, streamed, memory budget {args.memory}:")
            print(f"   streamed : {ext['time']:.1f} s, peak RSS {gb(ext['rss_self'])}, spilled: {ext['spilled']} "
                  f"({ext['runs']} runs on disk); ROC-AUC {ext['roc_auc']!r}, AP {ext['ap']!r}")
            print(f"   in memory: {mem['time']:.1f} s (read {mem['read']:.1f} s + Ranking {mem['rank']:.1f} s), peak "
                  f"RSS {gb(mem['rss_self'])}; ROC-AUC {mem['roc_auc']!r}, AP {mem['ap']!r}")
            print(f"   streamed / in memory: time {ext['time'] / mem['time']:.2f}x, peak RSS "
                  f"{ext['rss_self'] / mem['rss_self']:.2f}x; identical AUC, AP and curves: {same}")

            bn = child("binned", directory, str(args.bins))
            measured["binned"] = bn["time"]
            err = abs(bn["roc_auc"] - ext["roc_auc"])
            print(f"\n2. binned, {args.bins} quantile bins ({bn['bins']} formed): {bn['time']:.1f} s (first pass "
                  f"{bn['first_pass']:.1f} s), peak RSS {gb(bn['rss_self'])}; ROC-AUC {bn['roc_auc']:.9f}, printed "
                  f"bound ±{bn['bound']:.3g}, actual error {err:.3g} ({err / bn['bound']:.3f} of the bound); AP "
                  f"{bn['ap']:.6f} (exact {ext['ap']:.6f}); time vs exact stream {bn['time'] / ext['time']:.2f}x")

        if not args.skip_dask:
            # The machine may be shared: each repeat measures the local streams and Dask back to back, and the
            # ratios are taken within a repeat.
            rows, times = [], []
            for rep in range(args.repeat):
                loc = child("local_counts", directory)
                ext_r = child("external", directory, args.memory)
                dk = child("dask", directory)
                same_counts = dk["accuracy"] == loc["accuracy"] and dk["macro_f1"] == loc["macro_f1"]
                same_rank = (dk["roc_auc"] == ext_r["roc_auc"] and dk["ap"] == ext_r["ap"]
                             and dk["curves"] == ext_r["curves"])
                rows.append((dk["report"] / loc["time"], dk["ranking"] / ext_r["time"]))
                times.append((loc["time"], ext_r["time"], dk["startup"], dk["report"], dk["ranking"]))
                print(f"\n3. Dask LocalCluster, 2 worker processes on 127.0.0.1 (start-up {dk['startup']:.1f} s)"
                      + (f", repeat {rep + 1} of {args.repeat}:" if args.repeat > 1 else ":"))
                print(f"   count report: {dk['report']:.1f} s vs local stream {loc['time']:.1f} s "
                      f"({rows[-1][0]:.2f}x); identical: {same_counts}")
                print(f"   exact AUC + AP: {dk['ranking']:.1f} s vs local stream {ext_r['time']:.1f} s "
                      f"({rows[-1][1]:.2f}x); identical AUC, AP and curves: {same_rank}")
                print(f"   client peak RSS {gb(dk['rss_self'])} (workers: {gb(dk['rss_children'])} the largest)")
            if args.repeat > 1:
                med = np.median(np.array(rows), axis=0)
                print(f"\n   median over {args.repeat} repeats: count report {med[0]:.2f}x, exact AUC + AP "
                      f"{med[1]:.2f}x")
            keys = ("local_counts", "local_external", "dask_startup", "dask_report", "dask_ranking")
            measured.update(zip(keys, (float(x) for x in np.median(np.array(times), axis=0)), strict=True))
        if args.json:
            print(json.dumps(measured))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
