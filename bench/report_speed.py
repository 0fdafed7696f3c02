"""Speed of `clfeval.report` against the numpy floor and scikit-learn (issue 2).

One run measures, on the same data:

1. 1e7 items, K = 10, int64 labels:
   * the numpy floor: ``np.bincount(gold*K + pred)`` plus deriving P/R/F1;
   * ``clfeval.report(gold, pred).to_dict()``;
   * scikit-learn's ``classification_report(output_dict=True)`` + ``confusion_matrix``.
2. 1e7 string labels in a Parquet file written by pyarrow with default settings:
   * ``pyarrow.parquet.read_table(path, columns=[gold, pred])``;
   * clfeval's read-and-report path in-process (``read_predictions`` + ``report``).

Targets: clfeval ≤ 1.5× the numpy floor and ≥ 50× faster than scikit-learn;
Parquet read-and-report ≤ 2× the plain read.

Usage: python bench/report_speed.py [--n 10000000] [--repeat 5] [--skip-sklearn] [--json]
(``--json``: a last line of JSON with the measured seconds, read by ``bench/checkouts.py``.)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

import clfeval  # noqa: E402
from clfeval.io._predictions import read_predictions  # noqa: E402


def best_of(fn, repeat):
    times = []
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def numpy_floor(gold, pred, k):
    cm = np.bincount(gold * k + pred, minlength=k * k).reshape(k, k)
    tp = np.diag(cm).astype(float)
    p = tp / np.maximum(cm.sum(0), 1)
    r = tp / np.maximum(cm.sum(1), 1)
    f = 2 * p * r / np.maximum(p + r, 1e-300)
    return cm, p, r, f


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--skip-sklearn", action="store_true")
    ap.add_argument("--json", action="store_true", help="a last line of JSON with the measured seconds")
    args = ap.parse_args()
    n, k = args.n, args.k
    rng = np.random.default_rng(0)
    gold = rng.integers(0, k, n, dtype=np.int64)
    pred = np.where(rng.random(n) < 0.8, gold, rng.integers(0, k, n, dtype=np.int64))

    print(f"clfeval {clfeval.__version__}, numpy {np.__version__}; n = {n:,}, K = {k}; best of {args.repeat}")
    t_floor, (cm_floor, *_rest) = best_of(lambda: numpy_floor(gold, pred, k), args.repeat)
    t_cf, d = best_of(lambda: clfeval.report(gold, pred).to_dict(), args.repeat)
    assert np.array_equal(np.array(d["confusion_matrix"]), cm_floor)
    print(f"numpy floor (bincount + P/R/F1)      {t_floor * 1e3:9.1f} ms")
    measured = {"floor": t_floor, "report": t_cf}
    print(f"clfeval.report(...).to_dict()        {t_cf * 1e3:9.1f} ms   {t_cf / t_floor:6.2f}x the floor (target <= "
          "1.5x)")
    if not args.skip_sklearn:
        from sklearn import __version__ as skv
        from sklearn.metrics import classification_report, confusion_matrix

        def sk():
            rep = classification_report(gold, pred, output_dict=True, zero_division=0)
            return rep, confusion_matrix(gold, pred)

        t_sk, (skrep, skcm) = best_of(sk, 1)
        measured["sklearn"] = t_sk
        assert np.array_equal(skcm, cm_floor)
        assert abs(skrep["macro avg"]["f1-score"] - d["macro"]["f1"]) < 1e-12
        print(f"scikit-learn {skv} report + matrix   {t_sk * 1e3:9.1f} ms   {t_sk / t_floor:6.1f}x the floor; clfeval "
              f"is {t_sk / t_cf:6.1f}x faster (target >= 50x)")

    import pyarrow as pa
    import pyarrow.parquet as pq

    names = np.array([f"class_{i:02d}" for i in range(k)], dtype=object)
    table = pa.table({"gold": pa.array(names[gold]), "pred": pa.array(names[pred])})
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "preds.parquet")
        pq.write_table(table, path)  # default settings
        del table
        t_read, _ = best_of(lambda: pq.read_table(path, columns=["gold", "pred"]), args.repeat)
        t_read_dict, _ = best_of(lambda: pq.read_table(path, columns=["gold", "pred"],
                                                       read_dictionary=["gold", "pred"]), args.repeat)

        def ours():
            p = read_predictions(path)
            return clfeval.report(p.gold, p.pred).to_dict()

        t_ours, d2 = best_of(ours, args.repeat)
        assert np.array_equal(np.array(d2["confusion_matrix"]), cm_floor)
        print(f"pyarrow read_table (2 string cols)   {t_read * 1e3:9.1f} ms")
        print(f"  (same, read_dictionary=[gold,pred]) {t_read_dict * 1e3:9.1f} ms   <- the stored dictionaries clfeval "
              "uses as its label encoding")
        print(f"clfeval read + report (Parquet)      {t_ours * 1e3:9.1f} ms   {t_ours / t_read:6.2f}x the plain read "
              f"(target <= 2x); {t_ours / t_read_dict:4.2f}x the dictionary read")
        measured.update(read=t_read, read_dictionary=t_read_dict, read_report=t_ours)
    if args.json:
        print(json.dumps(measured))


if __name__ == "__main__":
    main()
