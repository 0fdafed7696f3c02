"""What reading files exactly costs (issue 9): ratios against pyarrow's plain read in the same run.

1. CSV, 5e6 rows, no quote anywhere: clfeval's read_predictions vs pyarrow.csv.read_csv (the floor).
2. The same rows with every label quoted: clfeval then splits rows quote-aware (newlines_in_values),
   which a quoted newline beyond the first 16 MiB block needs.
3. JSONL, 1e6 rows, integer labels: read_predictions vs pyarrow.json.read_json (types kept, no re-read).
4. JSONL, 1e6 rows, labels mixing integers and a float (pyarrow types them float64), every number short
   (at most 15 digits): float64 keeps each exactly, nothing is re-read.
5. The same with one integer beyond 2**53: the label columns are re-read exactly with the standard
   library's json.

Usage: python bench/read_speed.py [--n 5000000] [--n-json 1000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

import pyarrow as pa  # noqa: E402
import pyarrow.csv as pacsv  # noqa: E402
import pyarrow.json as pajson  # noqa: E402

from clfeval.io._predictions import read_predictions  # noqa: E402


def best_of(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=5_000_000)
    ap.add_argument("--n-json", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as d:
        g = rng.integers(0, 20, args.n)
        p = rng.integers(0, 20, args.n)
        plain = os.path.join(d, "plain.csv")
        quoted = os.path.join(d, "quoted.csv")
        with open(plain, "w") as f:
            f.write("gold,pred\n" + "".join(f"c{a},c{b}\n" for a, b in zip(g, p, strict=False)))
        with open(quoted, "w") as f:
            f.write("gold,pred\n" + "".join(f'"c{a}","c{b}"\n' for a, b in zip(g, p, strict=False)))
        types = {"gold": pa.string(), "pred": pa.string()}
        floor = best_of(lambda: pacsv.read_csv(plain, convert_options=pacsv.ConvertOptions(column_types=types)),
                        args.repeat)
        ours = best_of(lambda: read_predictions(plain), args.repeat)
        ours_q = best_of(lambda: read_predictions(quoted), args.repeat)
        print(f"CSV {args.n:,} rows: pyarrow read_csv {floor:.3f} s")
        print(f"  clfeval, no quotes      {ours:.3f} s  ({ours / floor:.2f}x)")
        print(f"  clfeval, quoted labels  {ours_q:.3f} s  ({ours_q / floor:.2f}x; quote-aware row splitting)")

        n = args.n_json
        gj = rng.integers(0, 20, n)
        pj = rng.integers(0, 20, n)
        ints = os.path.join(d, "ints.jsonl")
        mixed = os.path.join(d, "mixed.jsonl")
        with open(ints, "w") as f:
            f.write("".join(f'{{"gold": {a}, "pred": {b}}}\n' for a, b in zip(gj, pj, strict=False)))
        long = os.path.join(d, "long.jsonl")
        body = "".join(f'{{"gold": {a}, "pred": {b}}}\n' for a, b in zip(gj, pj, strict=False))
        with open(mixed, "w") as f:  # one float makes pyarrow type both columns float64
            f.write('{"gold": 0.5, "pred": 0.5}\n' + body)
        with open(long, "w") as f:
            f.write('{"gold": 0.5, "pred": 9007199254740993}\n' + body)
        floor_j = best_of(lambda: pajson.read_json(ints), args.repeat)
        ours_j = best_of(lambda: read_predictions(ints), args.repeat)
        ours_m = best_of(lambda: read_predictions(mixed), args.repeat)
        ours_l = best_of(lambda: read_predictions(long), args.repeat)
        print(f"JSONL {n:,} rows: pyarrow read_json {floor_j:.3f} s")
        print(f"  clfeval, integer labels                 {ours_j:.3f} s  ({ours_j / floor_j:.2f}x)")
        print(f"  clfeval, integers and a short float     {ours_m:.3f} s  ({ours_m / floor_j:.2f}x; no re-read)")
        print(f"  clfeval, and one integer beyond 2**53   {ours_l:.3f} s  ({ours_l / floor_j:.2f}x; labels re-read "
              f"exactly by the standard library's json)")


if __name__ == "__main__":
    main()
