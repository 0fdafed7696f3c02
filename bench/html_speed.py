"""Speed of the HTML report (issue 11): `clfeval report` on 1e7 items as text and as HTML.

10 classes, one score column per class (one-vs-rest ROC and PR curves), in a
Parquet file. Both commands run in fresh processes on the same file, in turn
(text, html, text, html, ...), and the best of ``--repeats`` wall times of
each is shown, with the difference. The HTML report draws the confusion
matrix, per-class, φ–δ, ROC and PR figures from the decimated curves the
report carries, so its extra cost must not grow with the number of items.

Target: HTML ≤ text time + 2 s.

Usage: python bench/html_speed.py [--n 10000000] [--repeats 2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq


def make_file(path: str, n: int, k: int = 10, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, k, n))
    labels = np.array([f"class{i}" for i in range(k)])
    cols = {"gold": pa.array(labels[gold]), "pred": pa.array(labels[pred])}
    for j in range(k):
        s = rng.random(n, dtype=np.float32).astype(np.float64)
        s[gold == j] += 0.35
        cols[f"score:{labels[j]}"] = pa.array(s)
    pq.write_table(pa.table(cols), path)


# What `clfeval report FILE --scores-prefix score: --format FMT --output OUT` does, step by step, in a
# fresh process (import, read, report, render, atomic write); the command line's --format html is wired
# by the lead, and then `python -m clfeval report ...` gives the same times.
_COMMAND = """
import sys, time
from clfeval.cli._scorefile import read_scored
from clfeval.io.readers import atomic_write_text
from clfeval.render import render
from clfeval.evaluate.reports import report
path, fmt, out = sys.argv[1:]
sf = read_scored(path, gold="gold", score=None, prefix="score:", pred="pred")
rep = report(sf.gold, sf.pred, scores=sf.scores)
cpu, wall = time.process_time(), time.perf_counter()
text = render(rep, fmt)
atomic_write_text(out, text)
print(time.process_time() - cpu, time.perf_counter() - wall)
"""


def run(data: str, fmt: str, out: str) -> tuple[float, float, float]:
    """(wall seconds of the whole command, CPU and wall seconds of its rendering and writing step)."""
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _COMMAND, data, fmt, out], check=True, capture_output=True, text=True)
    cpu, wall = (float(x) for x in done.stdout.split())
    return time.perf_counter() - t, cpu, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--repeats", type=int, default=2)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "preds.parquet")
        t = time.perf_counter()
        make_file(data, a.n)
        print(f"{a.n:,} items, 10 classes, 10 score columns: file written in {time.perf_counter() - t:.1f} s")
        times: dict[str, list[float]] = {"text": [], "html": []}
        render_cpu: dict[str, list[float]] = {"text": [], "html": []}
        render_wall: dict[str, list[float]] = {"text": [], "html": []}
        for _ in range(a.repeats):
            for fmt, out in (("text", "r.txt"), ("html", "r.html")):
                wall, cpu, rwall = run(data, fmt, os.path.join(tmp, out))
                times[fmt].append(wall)
                render_cpu[fmt].append(cpu)
                render_wall[fmt].append(rwall)
        size = os.path.getsize(os.path.join(tmp, "r.html"))
    text, html = min(times["text"]), min(times["html"])
    print(f"text: {text:.2f} s (runs: {', '.join(f'{x:.2f}' for x in times['text'])}); "
          f"rendering {min(render_cpu['text']):.2f} s CPU, {min(render_wall['text']):.2f} s wall")
    print(f"html: {html:.2f} s (runs: {', '.join(f'{x:.2f}' for x in times['html'])}); "
          f"rendering {min(render_cpu['html']):.2f} s CPU, {min(render_wall['html']):.2f} s wall (matplotlib import, "
          f"five figures, the page); "
          f"page {size / 1000:.0f} KB")
    print(f"html − text: {html - text:+.2f} s wall, {min(render_cpu['html']) - min(render_cpu['text']):+.2f} s CPU "
          f"(target ≤ +2 s): {'met' if html - text <= 2 else 'NOT met'}")


if __name__ == "__main__":
    main()
