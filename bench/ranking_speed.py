"""Speed of `clfeval.ranking` (ROC-AUC and average precision) against the sort floor and scikit-learn (issue 3).

One run, on the same data (1e7 scores, 10 % positives, float64 scores):

* the floor: ``np.sort`` of the scores — no exact ROC-AUC is possible without ordering them;
* ``clfeval.ranking(gold, scores, positive=True)``, reading ``.roc_auc`` and ``.average_precision``;
* scikit-learn's ``roc_auc_score`` + ``average_precision_score``.

Then a breakdown of where clfeval's time goes (the stages of ``ranking``), and a
check that the values agree with scikit-learn to 1e-9.

Targets: clfeval ≤ 2.5× the sort floor and ≥ 20× faster than scikit-learn.

Every time is the best of several runs (``--repeat``; ``--sklearn-repeat`` for scikit-learn).
clfeval sorts the negatives in one slice per thread (np.sort releases the GIL): on
this 2-core machine its time can fall below the single-thread sort floor.

Usage: python bench/ranking_speed.py [--n 10000000] [--prevalence 0.1] [--repeat 3] [--sklearn-repeat 2] [--skip-sklearn]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

import clfeval  # noqa: E402
from clfeval.scores.columns import as_scores  # noqa: E402
from clfeval.scores.curves import _pairs_and_ap, _split_sorted, binary_gold  # noqa: E402


def best_of(fn, repeat):
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--prevalence", type=float, default=0.1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-sklearn", action="store_true")
    ap.add_argument("--sklearn-repeat", type=int, default=2, help="best of this many scikit-learn runs (about 10 s each)")
    args = ap.parse_args()

    rng = np.random.default_rng(0)
    gold = rng.random(args.n) < args.prevalence
    scores = rng.normal(size=args.n) + 1.5 * gold  # informative, no ties (ties only make searchsorted cheaper)
    print(f"n = {args.n:,} scores, {gold.mean():.1%} positive, float64; best of {args.repeat} runs\n")

    t_sort, _ = best_of(lambda: np.sort(scores), args.repeat)

    def run_clfeval():
        r = clfeval.ranking(gold, scores, positive=True)
        return r.roc_auc, r.average_precision

    t_clf, (auc, avp) = best_of(run_clfeval, args.repeat)

    # where the time goes: the stages of clfeval.ranking, timed one by one
    stages = {}
    stages["gold: is-positive mask"], (y, _, _) = best_of(lambda: binary_gold(gold, True), args.repeat)
    stages["scores: finite check"], s = best_of(lambda: as_scores(scores), args.repeat)
    t_split, (pos, neg) = best_of(lambda: (s[y], s[~y]), args.repeat)
    stages["(for reference: the split scores[y], scores[~y] on one thread)"] = t_split

    def sorts():
        p, q = pos.copy(), neg.copy()
        p.sort()
        q.sort()
        return p, q

    t_sorts, (ps, ns) = best_of(sorts, args.repeat)
    t_copy, _ = best_of(lambda: (pos.copy(), neg.copy()), args.repeat)
    t_par, (pp, parts) = best_of(lambda: _split_sorted(y, s), args.repeat)
    stages["(for reference: the two sorts on one thread)"] = t_sorts - t_copy
    stages[f"split + sort: negatives in {len(parts)} slices on threads"] = t_par
    stages["AUC + AP: searchsorted of the positives into each part (threads)"], _ = best_of(lambda: _pairs_and_ap(pp, parts), args.repeat)

    print(f"{'np.sort(scores) — the floor':<58}{t_sort * 1000:9.1f} ms   1.00×")
    print(f"{'clfeval.ranking(...).roc_auc, .average_precision':<58}{t_clf * 1000:9.1f} ms   {t_clf / t_sort:.2f}× the floor")
    for name, t in stages.items():
        print(f"    {name:<54}{t * 1000:9.1f} ms   {t / t_clf:6.1%} of clfeval")

    if not args.skip_sklearn:
        from sklearn.metrics import average_precision_score, roc_auc_score

        t_sk, (sk_auc, sk_ap) = best_of(lambda: (roc_auc_score(gold, scores), average_precision_score(gold, scores)),
                                        args.sklearn_repeat)
        print(f"{'scikit-learn roc_auc_score + average_precision_score':<58}{t_sk * 1000:9.1f} ms   "
              f"{t_sk / t_sort:.2f}× the floor (best of {args.sklearn_repeat})")
        print()
        print(f"clfeval vs scikit-learn: {t_sk / t_clf:.1f}× faster (target ≥ 20×)")
        print(f"scikit-learn vs the single-thread sort floor: {t_sk / t_sort:.1f}× — what one-thread sorting could gain at most")
        d_auc, d_ap = abs(auc - sk_auc), abs(avp - sk_ap)
        print(f"ROC-AUC {auc:.12f} vs {sk_auc:.12f} (|diff| {d_auc:.1e}); "
              f"AP {avp:.12f} vs {sk_ap:.12f} (|diff| {d_ap:.1e})")
        ok = d_auc <= 1e-9 and d_ap <= 1e-9
        print("values agree to 1e-9" if ok else "VALUES DISAGREE")
        if not ok:
            sys.exit(1)
    print(f"clfeval vs the floor: {t_clf / t_sort:.2f}× (target ≤ 2.5×)")


if __name__ == "__main__":
    main()
