"""Speed of `clfeval.ranking` (ROC-AUC and average precision) against the sort floor and scikit-learn (issues 3, 12).

One run, on the same data (1e7 scores, 10 % positives, float64 scores), twice: once as is and once
in a child process with numpy's SIMD sort turned off (``NPY_DISABLE_CPU_FEATURES``, set for the child
only; it stands for a CPU whose sort is scalar). Each run prints numpy's CPU features, the sorting
strategy clfeval chose (:mod:`clfeval.scores._sorting`), and:

* the floor: ``np.sort`` of the scores — no exact ROC-AUC is possible without ordering them;
* ``clfeval.ranking(gold, scores, positive=True)``, reading ``.roc_auc`` and ``.average_precision``;
* scikit-learn's ``roc_auc_score`` + ``average_precision_score``;

then a breakdown of where clfeval's time goes, and a check that the values agree with scikit-learn to 1e-9.

Targets (issue 12): clfeval ≤ 2× the sort floor and ≥ 20× faster than scikit-learn, on both CPUs.
Every time is the best of several runs (``--repeat``; ``--sklearn-repeat`` for scikit-learn).

Usage: python bench/ranking_speed.py [--n 10000000] [--prevalence 0.1] [--repeat 3] [--sklearn-repeat 2]
                                     [--skip-sklearn] [--no-scalar] [--json]
(``--json``: a last line of JSON with the measured seconds of the run as is, read by ``bench/checkouts.py``.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

import clfeval  # noqa: E402
from clfeval.scores import _sorting as sorting  # noqa: E402
from clfeval.scores._columns import as_scores  # noqa: E402
from clfeval.scores._curves import binary_gold  # noqa: E402

# numpy's sort dispatch targets: the x86 levels of numpy >= 2.4 and the AVX groups of older numpy
SCALAR_ENV = "X86_V4 X86_V3 AVX512_ICL AVX512_SPR AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX2"


def best_of(fn, repeat):
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def run(args) -> dict:
    rng = np.random.default_rng(0)
    gold = rng.random(args.n) < args.prevalence
    scores = rng.normal(size=args.n) + 1.5 * gold  # informative, no ties (ties only make searchsorted cheaper)
    on = sorted(k for k, v in sorting.cpu_features().items() if v)
    plan = sorting.strategy(args.n)
    print(f"numpy {np.__version__}; CPU features enabled: {' '.join(on)}")
    print(f"numpy's float64 sort is SIMD: {sorting.simd_sort()}; clfeval's strategy for {args.n:,} items: {plan!r} "
          f"({sorting.threads()} threads)")
    print(f"n = {args.n:,} scores, {gold.mean():.1%} positive, float64; best of {args.repeat} runs\n")

    t_sort, _ = best_of(lambda: np.sort(scores), args.repeat)

    def run_clfeval():
        r = clfeval.ranking(gold, scores, positive=True)
        return r.roc_auc, r.average_precision

    t_clf, (auc, avp) = best_of(run_clfeval, args.repeat)

    stages = {}
    stages["gold: is-positive mask"], (y, _, _) = best_of(lambda: binary_gold(gold, True), args.repeat)
    stages["scores: finite check"], s = best_of(lambda: as_scores(scores), args.repeat)
    k = sorting.threads()
    t_split, (pp, parts) = best_of(lambda: sorting.split_sorted(y, s, plan=plan, n_threads=k), args.repeat)
    stages[f"mask + sort ({plan}: {len(parts)} part(s) of negatives)"] = t_split
    stages["AUC + AP: searchsorted of the positives into the negatives"], _ = best_of(
        lambda: sorting.pairs_and_ap(pp, parts, n_threads=k if plan != "single" else 1), args.repeat)

    print(f"{'np.sort(scores) — the floor':<62}{t_sort * 1000:9.1f} ms   1.00×")
    print(f"{'clfeval.ranking(...).roc_auc, .average_precision':<62}{t_clf * 1000:9.1f} ms   {t_clf / t_sort:.2f}× the "
          "floor")
    for name, t in stages.items():
        print(f"    {name:<58}{t * 1000:9.1f} ms   {t / t_clf:6.1%} of clfeval")
    ok = t_clf / t_sort <= 2.0
    measured = {"sort": t_sort, "ranking": t_clf}
    if not args.skip_sklearn:
        from sklearn.metrics import average_precision_score, roc_auc_score

        t_sk, (sk_auc, sk_ap) = best_of(lambda: (roc_auc_score(gold, scores), average_precision_score(gold, scores)),
                                        args.sklearn_repeat)
        measured["sklearn"] = t_sk
        print(f"{'scikit-learn roc_auc_score + average_precision_score':<62}{t_sk * 1000:9.1f} ms   "
              f"{t_sk / t_sort:.2f}× the floor (best of {args.sklearn_repeat})")
        print()
        print(f"clfeval vs scikit-learn: {t_sk / t_clf:.1f}× faster (target ≥ 20×)")
        d_auc, d_ap = abs(auc - sk_auc), abs(avp - sk_ap)
        print(f"ROC-AUC {auc:.12f} vs {sk_auc:.12f} (|diff| {d_auc:.1e}); "
              f"AP {avp:.12f} vs {sk_ap:.12f} (|diff| {d_ap:.1e})")
        agree = d_auc <= 1e-9 and d_ap <= 1e-9
        print("values agree to 1e-9" if agree else "VALUES DISAGREE")
        if not agree:
            sys.exit(1)
        ok = ok and t_sk / t_clf >= 20
    print(f"clfeval vs the floor: {t_clf / t_sort:.2f}× (target ≤ 2×)")
    return {**measured, "ok": ok}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--prevalence", type=float, default=0.1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-sklearn", action="store_true")
    ap.add_argument("--sklearn-repeat", type=int, default=2,
                    help="best of this many scikit-learn runs (about 10 s each)")
    ap.add_argument("--no-scalar", action="store_true", help="do not run again with numpy's SIMD sort disabled")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help="a last line of JSON with the measured seconds")
    args = ap.parse_args()
    disabled = os.environ.get("NPY_DISABLE_CPU_FEATURES")
    print("=== numpy as is" if not args.child else f"=== NPY_DISABLE_CPU_FEATURES={disabled!r}")
    measured = run(args)
    if not args.child and not args.no_scalar:
        print()
        env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": SCALAR_ENV}
        cmd = [sys.executable, __file__, "--child", "--n", str(args.n), "--prevalence", str(args.prevalence),
               "--repeat", str(args.repeat), "--sklearn-repeat", str(args.sklearn_repeat)]
        if args.skip_sklearn:
            cmd.append("--skip-sklearn")
        subprocess.run(cmd, env=env, check=True)
    if args.json:
        print(json.dumps(measured), flush=True)


if __name__ == "__main__":
    main()
