"""Speed of the Reuters study's single-label part under both text presets (issue 20).

One run, the corpus read once: the single-label 8-class part
(:func:`clfeval.studies._reuters_multiclass.multiclass_part`: assembling the
5,501 + 2,190 texts, tokenizing them with a fresh tokenizer — so every word type
is stemmed once, then looked up — fitting the vocabulary and one multinomial NB,
predicting, the report) under

* the ``binary`` preset: title twice + body, no stop list, Snowball stems;
* the ``multiclass`` preset: title once + body (BRIEF stories by their title),
  NLTK's 179 English stop words removed, Porter stems.

Times are the best of ``--repeat`` runs, interleaved (binary, multiclass,
binary, ...) so that a busy machine slows both alike; nothing is shared between
runs (a new tokenizer each time). Target: multiclass preset ≤ 1.5× the binary
preset's time. Also printed: each run's tokenizing alone, and the word types
stemmed.

Usage: python bench/reuters_speed.py [ARCHIVE] [--repeat 5]
(ARCHIVE defaults to ../shared/data/reuters21578.tar.gz)
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from clfeval.studies._reuters_multiclass import TokenMemo, multiclass_part  # noqa: E402
from clfeval.text._datasets import (  # noqa: E402
    PUBLISHED_MODAPTE_EXCLUDED,
    label_matrix,
    largest_categories,
    modapte,
    read_reuters,
    single_label_subset,
)
from clfeval.text._processing import PRESETS  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("archive", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared",
                                                              "data", "reuters21578.tar.gz"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    t0 = time.perf_counter()
    split = modapte(read_reuters(args.archive), exclude_newids=PUBLISHED_MODAPTE_EXCLUDED)
    ten = largest_categories(split, 10)
    pos = label_matrix(split.test, ten).sum(axis=0)
    cats = tuple(sorted(ten, key=lambda c: (-int(pos[ten.index(c)]), c)))
    sl = single_label_subset(split, cats)
    print(f"corpus read in {time.perf_counter() - t0:.2f} s; single-label part: {len(sl.train):,} training and "
          f"{len(sl.test):,} test stories; best of {args.repeat} interleaved runs\n")

    best = {name: float("inf") for name in ("binary", "multiclass")}
    tok_best = dict(best)
    outcome: dict[str, dict] = {}
    for _ in range(args.repeat):
        for name in ("binary", "multiclass"):
            proc = PRESETS[name]
            t = time.perf_counter()
            memo = TokenMemo(proc.tokenizer())
            block = multiclass_part(split, cats, proc, memo)
            best[name] = min(best[name], time.perf_counter() - t)
            # tokenizing alone, with a fresh tokenizer (assembly included)
            t = time.perf_counter()
            fresh = proc.tokenizer()
            for s in sl.train + sl.test:
                fresh(proc.story_text(s).lower())
            tok_best[name] = min(tok_best[name], time.perf_counter() - t)
            outcome[name] = {"types": len(fresh._cache), "acc": block["accuracy"], "vocab": block["vocabulary_size"]}

    print("| preset | spec | part 7 (s) | tokenizing (s) | word types stemmed | vocabulary | accuracy |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name in ("binary", "multiclass"):
        o = outcome[name]
        print(f"| {name} | {PRESETS[name].spec} | {best[name]:.3f} | {tok_best[name]:.3f} | {o['types']:,} | "
              f"{o['vocab']:,} | {o['acc']:.4f} |")
    ratio = best["multiclass"] / best["binary"]
    print(f"\nmulticlass / binary preset: {ratio:.2f}× (target ≤ 1.5×) — {'met' if ratio <= 1.5 else 'NOT met'}")


if __name__ == "__main__":
    main()
