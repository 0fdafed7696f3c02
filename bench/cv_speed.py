"""Speed of `clfeval.protocols.cross_validate` (issue 5).

10-fold stratified cross-validation of multinomial Naive Bayes (add-one) on
8,000 short synthetic documents (20–40 tokens, 5 classes, 2,000-word
vocabulary). One run measures, on the same data and the same folds:

1. the scikit-learn floor: ``sklearn.model_selection.cross_val_predict`` of
   the same pipeline with the same ``StratifiedKFold`` splits (fit + predict
   per fold, nothing else);
2. ``cross_validate(..., train_scores=False)``: clfeval's runner — per-fold
   count tables, every metric, baselines per fold, pooled report, scores and
   the predictions table;
3. ``cross_validate(...)`` with the train–test gap (every fold's model also
   scores its ~7,200 training documents);
4. the same with Porter stemming, and with unigrams + bigrams;
5. the whole command line, ``clfeval cv data.csv ... --predictions oof.parquet``
   in a fresh process (reading the CSV, the run log, rendering), wall time.

Target: 10-fold NB CV of 8,000 documents in < 30 s on 2 cores (item 3).

Usage: python bench/cv_speed.py [--n 8000] [--folds 10] [--skip-cli]
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
sys.path.insert(0, SRC)

from clfeval.protocols import Protocol, cross_validate, split  # noqa: E402
from clfeval.text.models import make_model  # noqa: E402


def documents(n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """Short documents: class-specific words mixed with shared vocabulary (overlapping classes)."""
    rng = np.random.default_rng(seed)
    syll = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "be", "do", "fa", "gu", "pi", "se", "we"]
    vocab = sorted({"".join(rng.choice(syll, rng.integers(2, 4))) for _ in range(4000)})[:2000]
    vocab_arr = np.array(vocab)
    k = 5
    topic = [rng.choice(len(vocab), 80, replace=False) for _ in range(k)]
    prior = np.array([0.35, 0.25, 0.2, 0.12, 0.08])
    docs, labels = [], []
    for _ in range(n):
        c = int(rng.choice(k, p=prior))
        length = int(rng.integers(20, 41))
        own = int(rng.binomial(length, 0.25))
        words = np.concatenate([vocab_arr[rng.choice(topic[c], own)], vocab_arr[rng.integers(0, len(vocab), length - own)]])
        docs.append(" ".join(words))
        labels.append(f"class{c}")
    return docs, labels


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=8000)
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--skip-cli", action="store_true")
    args = ap.parse_args()

    docs, y = documents(args.n)
    print(f"{args.n} documents, {len(set(y))} classes, mean length "
          f"{np.mean([len(d.split()) for d in docs]):.1f} tokens; {args.folds}-fold stratified CV, seed 0; "
          f"{os.cpu_count()} CPUs")

    from sklearn.model_selection import cross_val_predict

    folds = split(Protocol.kfold(args.folds, stratified=True), y, seed=0)
    cv_splits = [(f.train, f.test) for f in folds]
    t_floor, pred = timed(lambda: cross_val_predict(make_model("nb"), docs, np.array(y), cv=cv_splits))
    t_plain, res_plain = timed(lambda: cross_validate(make_model("nb"), docs, y, folds=args.folds, stratified=True,
                                                      seed=0, train_scores=False))
    t_gap, res = timed(lambda: cross_validate(make_model("nb"), docs, y, folds=args.folds, stratified=True, seed=0))
    t_stem, _ = timed(lambda: cross_validate(make_model("nb", stem=True), docs, y, folds=args.folds, stratified=True,
                                             seed=0))
    t_bigram, _ = timed(lambda: cross_validate(make_model("nb", ngrams=2), docs, y, folds=args.folds, stratified=True,
                                               seed=0))
    same = np.array_equal(np.asarray(res.predictions.column("pred").to_pylist()),
                          np.asarray(pred, dtype=object)[np.argsort(np.arange(len(y)))])
    print(f"same predictions as scikit-learn's cross_val_predict: {same}")
    print(f"accuracy {res.spread['accuracy'].mean:.4f} ± {res.spread['accuracy'].std:.4f} (fold std), "
          f"macro-F1 {res.spread['macro_f1'].mean:.4f}; train–test gap in accuracy "
          f"{res.train_vs_test['gap']['accuracy']:+.4f}")
    print()
    print(f"{'what':58s} {'seconds':>8s} {'× floor':>8s}")
    rows = [("scikit-learn cross_val_predict (the floor: fit + predict)", t_floor),
            ("clfeval cross_validate, no train scoring", t_plain),
            ("clfeval cross_validate with the train–test gap (target)", t_gap),
            ("  … with Porter stemming (PyStemmer)", t_stem),
            ("  … with unigrams + bigrams (scikit-learn's n-gram step)", t_bigram)]
    if not args.skip_cli:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "docs.csv")
            with open(path, "w", newline="") as fh:
                w = csv.writer(fh)
                w.writerow(["id", "text", "label"])
                w.writerows([i, t, lab] for i, (t, lab) in enumerate(zip(docs, y)))
            cmd = [sys.executable, "-m", "clfeval", "cv", path, "--text", "text", "--label", "label", "--model", "nb",
                   "--folds", str(args.folds), "--stratified", "--seed", "0", "--runs-db", os.path.join(d, "runs.sqlite"),
                   "--predictions", os.path.join(d, "oof.parquet"), "--format", "json", "--output",
                   os.path.join(d, "out.json")]
            env = dict(os.environ, PYTHONPATH=SRC)
            t_cli, proc = timed(lambda: subprocess.run(cmd, env=env, capture_output=True, text=True))
            if proc.returncode != 0:
                print(proc.stderr)
            rows.append(("clfeval cv command, fresh process, CSV → run log + Parquet", t_cli))
    for name, t in rows:
        print(f"{name:58s} {t:8.2f} {t / t_floor:8.2f}")
    print()
    verdict = "met" if t_gap < 30 else "MISSED"
    print(f"target < 30 s for 10-fold NB CV with the gap: {t_gap:.2f} s — {verdict}")


if __name__ == "__main__":
    main()
