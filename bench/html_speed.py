"""Speed and size of the HTML report (issue 11): the real command line, as text and as HTML.

1. ``clfeval report FILE --scores-prefix score: --format text|html --output OUT`` on a Parquet file of
   ``--n`` items (default 1e7), 10 classes, one score column per class (one-vs-rest ROC and PR curves),
   each run a fresh ``python -m clfeval`` process; text and HTML in turn (text, html, text, html, ...),
   the best of ``--repeats`` (default 3) wall times of each, and the difference.
   Target: HTML ≤ text time + 2 s.
2. Many classes (issue 19): ``clfeval report`` of ``--many-items`` (default 50,000) predicted labels over
   ``--many-classes`` (default 10,000) classes, as JSON and as HTML (fresh processes, best of ``--repeats``).
   Targets: the page ≤ 2 MB and its time ≤ 5× the JSON time (tables show 30 classes, figures 20: the rule of
   ``clfeval.core._manyclasses``).
0. The notebook card (issue 23): ``_repr_html_()`` of a 10-class report of 1,000 items against its full page
   ``to_html()``, in one process (each rendered once to import what it needs, then ``--card-repeats`` times in
   turn, the median of each). Targets: the card ≤ 20 KB and its time ≤ 0.2× the page's.
3. Sizes of the pages: the 10-class report without scores (target ≤ 300 KB) and with the one-vs-rest
   curves (≤ 800 KB), from the runs above; the Reuters-21578 study (``clfeval reuters --format html``,
   ≤ 1.5 MB) when the corpus is found (``--archive``, default ../shared/data/reuters21578.tar.gz).

The HTML report draws its figures (confusion matrix, per class, φ–δ, ROC, PR) from the aggregated data
the report carries (count tables, decimated curves), so its extra cost does not grow with the number of
items.

Usage: python bench/html_speed.py [--n 10000000] [--repeats 3] [--many-classes 10000] [--many-items 50000]
                                  [--archive PATH | --no-reuters] [--only-many] [--only-card] [--card-repeats 7]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE = ROOT.parent / "shared" / "data" / "reuters21578.tar.gz"


def make_file(path: str, n: int, k: int = 10, seed: int = 0) -> None:
    """gold, pred and score:<label> for k classes; the scores are noisy (many distinct values, long curves)."""
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


def clfeval(*args: str) -> float:
    """Wall seconds of one ``python -m clfeval ...`` process (it must succeed)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "clfeval", *args], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if done.returncode != 0:
        raise SystemExit(f"clfeval {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return wall


# The rendering step alone, in one fresh process: the report is made once, then rendered as text and as HTML (the
# first HTML render imports matplotlib and Jinja2, as a command does). Less sensitive than whole-command wall
# times to other load on the machine: CPU seconds beside wall seconds.
_RENDER = """
import sys, time
from clfeval.io import resolve_path
from clfeval.front import read_scored
from clfeval.evaluate import report
from clfeval.render import render
sf = read_scored(resolve_path(sys.argv[1]), gold="gold", score=None, prefix="score:", pred="pred")
rep = report(sf.gold, sf.pred, scores=sf.scores)
for fmt in ("text", "html"):
    cpu, wall = time.process_time(), time.perf_counter()
    render(rep, fmt)
    print(fmt, time.process_time() - cpu, time.perf_counter() - wall)
"""


def render_step(data: str) -> dict[str, tuple[float, float]]:
    """(CPU, wall) seconds of rendering the 1e7-item report as text and as HTML, in one fresh process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run([sys.executable, "-c", _RENDER, data], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"the render step failed ({done.returncode}): {done.stderr.strip()}")
    return {fmt: (float(cpu), float(wall)) for fmt, cpu, wall in (line.split() for line in done.stdout.splitlines())}


def make_many(path: str, n: int, k: int, seed: int = 0) -> None:
    """gold, pred over k classes (c0 ... c{k-1}), 60 % correct: the hostile-trees test's file."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.6, gold, rng.integers(0, k, n))
    with open(path, "w") as f:
        f.write("gold,pred\n" + "".join(f"c{g},c{p}\n" for g, p in zip(gold.tolist(), pred.tolist(), strict=False)))


def many_classes(tmp: str, n: int, k: int, repeats: int) -> None:
    data = os.path.join(tmp, "many.csv")
    make_many(data, n, k)
    times: dict[str, list[float]] = {"json": [], "html": []}
    for _ in range(repeats):
        for fmt in ("json", "html"):
            times[fmt].append(clfeval("report", data, "--output", os.path.join(tmp, f"many.{fmt}")))
    j, h = min(times["json"]), min(times["html"])
    size = os.path.getsize(os.path.join(tmp, "many.html"))
    print(f"many classes: {n:,} items over {k:,} classes (best of {repeats}, interleaved)")
    print(f"  json: {j:.2f} s, html: {h:.2f} s: html/json {h / j:.2f}× (target ≤ 5×): "
          f"{'met' if h <= 5 * j else 'NOT met'}")
    print(f"  page: {kb(os.path.join(tmp, 'many.html'))} (target ≤ 2,000 KB): "
          f"{'met' if size <= 2_000_000 else 'NOT met'}; JSON {kb(os.path.join(tmp, 'many.json'))}")


def notebook_card(repeats: int) -> None:
    """The card and the page of a 10-class report of 1,000 items, timed in this process (median of ``repeats``)."""
    import statistics

    sys.path.insert(0, str(ROOT / "src"))
    import clfeval as cf

    rng = np.random.default_rng(0)
    gold = rng.integers(0, 10, 1000)
    pred = np.where(rng.random(1000) < 0.7, gold, rng.integers(0, 10, 1000))
    labels = np.array([f"class{i}" for i in range(10)])
    rep = cf.report(labels[gold], labels[pred])
    card, page = rep._repr_html_(), rep.to_html()  # first renders: matplotlib, Jinja2 imported
    times: dict[str, list[float]] = {"card": [], "page": []}
    for _ in range(repeats):
        for name, fn in (("card", rep._repr_html_), ("page", rep.to_html)):
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    c, p = statistics.median(times["card"]), statistics.median(times["page"])
    size = len(card.encode("utf-8"))
    print(f"notebook card of a 10-class report of 1,000 items (median of {repeats}, interleaved, one process)")
    print(f"  card: {size / 1000:.1f} KB (target ≤ 20 KB): {'met' if size <= 20_000 else 'NOT met'}; "
          f"page: {len(page.encode('utf-8')) / 1000:.1f} KB")
    print(f"  card {c * 1000:.1f} ms, page {p * 1000:.1f} ms: card/page {c / p:.3f}× (target ≤ 0.2×): "
          f"{'met' if c <= 0.2 * p else 'NOT met'}")


def kb(path: str | Path) -> str:
    return f"{os.path.getsize(path) / 1000:,.0f} KB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--archive", type=Path, default=ARCHIVE, help="the Reuters-21578 archive (for the study's page)")
    ap.add_argument("--no-reuters", action="store_true", help="skip the Reuters study's page")
    ap.add_argument("--many-classes", type=int, default=10_000)
    ap.add_argument("--many-items", type=int, default=50_000)
    ap.add_argument("--only-many", action="store_true", help="run only the many-classes part")
    ap.add_argument("--only-card", action="store_true", help="run only the notebook card part")
    ap.add_argument("--card-repeats", type=int, default=7)
    a = ap.parse_args()
    notebook_card(a.card_repeats)
    if a.only_card:
        return
    with tempfile.TemporaryDirectory() as tmp:
        many_classes(tmp, a.many_items, a.many_classes, a.repeats)
        if a.only_many:
            return
        data = os.path.join(tmp, "preds.parquet")
        t = time.perf_counter()
        make_file(data, a.n)
        print(f"{a.n:,} items, 10 classes, 10 score columns (Parquet, {kb(data)}): written in "
              f"{time.perf_counter() - t:.1f} s")
        times: dict[str, list[float]] = {"text": [], "html": []}
        for _ in range(a.repeats):
            for fmt in ("text", "html"):
                out = os.path.join(tmp, f"report.{'txt' if fmt == 'text' else 'html'}")
                times[fmt].append(clfeval("report", data, "--scores-prefix", "score:", "--format", fmt, "--output",
                                          out))
        ovr = os.path.join(tmp, "report.html")
        plain = os.path.join(tmp, "plain.html")
        clfeval("report", data, "--format", "html", "--output", plain)
        text, html = min(times["text"]), min(times["html"])
        print(f"clfeval report --scores-prefix score: (best of {a.repeats}, interleaved)")
        print(f"  text: {text:.2f} s (runs: {', '.join(f'{x:.2f}' for x in times['text'])})")
        print(f"  html: {html:.2f} s (runs: {', '.join(f'{x:.2f}' for x in times['html'])})")
        print(f"  html − text: {html - text:+.2f} s (target ≤ +2 s): {'met' if html - text <= 2 else 'NOT met'}")
        step = render_step(data)
        (tc, tw), (hc, hw) = step["text"], step["html"]
        print(f"the rendering step alone (same report, one process): text {tc:.2f} s CPU / {tw:.2f} s wall, html "
              f"{hc:.2f} s CPU / {hw:.2f} s wall (matplotlib and Jinja2 imported, five figures, the page): "
              f"html − text {hc - tc:+.2f} s CPU / {hw - tw:+.2f} s wall")
        print(f"page of the 10-class report: {kb(plain)} without scores (target ≤ 300 KB), {kb(ovr)} with the "
              f"one-vs-rest curves (target ≤ 800 KB)")
        if not a.no_reuters:
            if not a.archive.is_file():
                print(f"Reuters study page: skipped ({a.archive} not found; --archive PATH)")
            else:
                study = os.path.join(tmp, "study.html")
                wall = clfeval("reuters", "--archive", str(a.archive), "--no-log", "--format", "html", "--output",
                               study)
                print(f"page of the Reuters study: {kb(study)} (target ≤ 1,500 KB), written in {wall:.1f} s")


if __name__ == "__main__":
    main()
