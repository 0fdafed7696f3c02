"""``clfeval errors`` at scale (issue 25): 1e6 documents of about 100 tokens, 20 classes.

One run, each measurement in a child process (its own peak RSS):

1. scikit-learn's ``CountVectorizer(analyzer=A).fit_transform(texts)`` on the texts in memory, with ``A`` the
   very analyzer clfeval uses (the same tokens, stop list and stems) — the reference time.
2. ``clfeval.error_analysis`` of the Parquet files (gold, pred, id, text) with ``Local(memory=--memory)``:
   read, tokenised, counted per cell, examples sampled, z-scores; its time, its ratio to (1), its peak RSS.

3. with ``--texts``: the same analysis with the texts read from a second input joined by id (the same
   files, read as (id, text) — a texts input as large as the documents, beyond ``--memory``): its time and
   peak RSS beside (2); the join goes through hash partitions on disk, so its peak stays bounded.

The goal: ratio ≤ 1.5 and peak RSS ≤ 1 GB with --memory 512MiB. Timings on a shared machine: the ratio is
what counts (both measured in the same run). The files are written to a temporary directory and deleted.

Usage: python bench/errors_speed.py [--n 1000000] [--files 8] [--memory 512MiB] [--processing SPEC] [--texts] [--json]
(``--json``: the same JSON on one last line, read by ``bench/checkouts.py``.)
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

CLASSES = 20
VOCAB = 30_000


def write_files(directory: str, n: int, files: int, seed: int = 25) -> None:
    """Zipf-distributed pseudo-words, ~100 a document; each class over-uses its own 200 words; 20 % errors."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = np.array(["".join(rng.choice(letters, rng.integers(3, 10))) for _ in range(VOCAB)], dtype=object)
    per = -(-n // files)
    for f in range(files):
        m = min(per, n - f * per)
        gold = rng.integers(0, CLASSES, m)
        pred = np.where(rng.random(m) < 0.8, gold, rng.integers(0, CLASSES, m))
        lengths = rng.integers(80, 121, m)
        idx = np.minimum(rng.zipf(1.3, int(lengths.sum())) - 1, VOCAB - 1)
        own = rng.random(len(idx)) < 0.1
        cls = np.repeat(gold, lengths)
        idx[own] = (cls[own] * 200 + rng.integers(0, 200, int(own.sum()))) % VOCAB
        toks = words[idx]
        ends = np.cumsum(lengths)
        texts = [" ".join(toks[e - k:e]) for e, k in zip(ends, lengths, strict=False)]
        ids = np.arange(f * per, f * per + m)
        pq.write_table(pa.table({"id": ids, "gold": gold.astype(str), "pred": pred.astype(str), "text": texts}),
                       os.path.join(directory, f"part-{f:03d}.parquet"), row_group_size=50_000)


def sklearn_job(directory: str, processing: str) -> dict:
    import pyarrow.dataset as ds
    from sklearn.feature_extraction.text import CountVectorizer

    from clfeval.text._termcounts import analyzer_of

    texts = ds.dataset(directory).to_table(columns=["text"]).column("text").to_pylist()
    a = analyzer_of(processing or None)
    t0 = time.perf_counter()
    x = CountVectorizer(analyzer=a).fit_transform(texts)
    return {"seconds": time.perf_counter() - t0, "terms": x.shape[1], "tokens": int(x.sum())}


def clfeval_job(directory: str, processing: str, memory: str) -> dict:
    import clfeval
    from clfeval.engines import Local

    t0 = time.perf_counter()
    r = clfeval.error_analysis(directory, id="id", processing=processing or None, engine=Local(memory=memory))
    return {"seconds": time.perf_counter() - t0, "terms": r.prior["terms"], "tokens": r.prior["tokens"],
            "cells": len(r.cells), "mode": r.engine["mode"],
            "first": [r.cells[0].gold, r.cells[0].pred, [t["term"] for t in r.cells[0].terms_vs_gold[:3]]]}


def texts_job(directory: str, processing: str, memory: str) -> dict:
    import clfeval
    from clfeval.engines import Local

    t0 = time.perf_counter()
    r = clfeval.error_analysis(directory, id="id", texts=directory, processing=processing or None,
                               engine=Local(memory=memory))
    return {"seconds": time.perf_counter() - t0, "terms": r.prior["terms"], "tokens": r.prior["tokens"],
            "cells": len(r.cells), "mode": r.engine["mode"]}


JOBS = {"sklearn": sklearn_job, "clfeval": clfeval_job, "texts": texts_job}


def main() -> None:
    import _child

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--memory", default="512MiB")
    ap.add_argument("--processing", default="")
    ap.add_argument("--dir", default=None)
    ap.add_argument("--texts", action="store_true", help="also the texts joined by id from a second input")
    ap.add_argument("--json", action="store_true", help="the JSON again on one last line")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="errors-bench-", dir=a.dir)
    try:
        t0 = time.perf_counter()
        write_files(tmp, a.n, a.files)
        print(f"wrote {a.n:,} documents in {a.files} Parquet files ({time.perf_counter() - t0:.1f} s)", flush=True)
        sk = _child.run("errors_speed", "sklearn", (tmp, a.processing))
        cf = _child.run("errors_speed", "clfeval", (tmp, a.processing, a.memory))
        out = {"n": a.n, "classes": CLASSES, "processing": a.processing or "none", "memory": a.memory,
               "sklearn_countvectorizer": sk, "clfeval_errors": cf, "ratio": cf["seconds"] / sk["seconds"],
               "goal": {"ratio": 1.5, "rss": 1 << 30}}
        if a.texts:
            tx = _child.run("errors_speed", "texts", (tmp, a.processing, a.memory))
            size = sum(os.path.getsize(os.path.join(tmp, f)) for f in os.listdir(tmp))
            out["clfeval_errors_texts_joined"] = tx
            out["texts_ratio_to_column"] = tx["seconds"] / cf["seconds"]
            out["files_bytes"] = size
        print(json.dumps(out, indent=2))
        print(f"ratio {out['ratio']:.2f} (goal ≤ 1.5); clfeval peak RSS {cf['rss'] / 2**20:.0f} MiB (goal ≤ 1024)")
        if a.texts:
            print(f"--texts joined by id: {tx['seconds']:.1f} s ({out['texts_ratio_to_column']:.2f}× the text "
                  f"column), peak RSS {tx['rss'] / 2**20:.0f} MiB (text column: {cf['rss'] / 2**20:.0f} MiB)")
        if a.json:
            print(json.dumps(out))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
