"""Speed of `clfeval.ranking` (ROC-AUC and average precision) against the sort floor and scikit-learn (issues 12, 40).

One run, on the same data (1e7 scores, 10 % positives, float64 scores), twice: once as is and once
in a child process with numpy's SIMD sort turned off (``NPY_DISABLE_CPU_FEATURES``, set for the child
only; it stands for a CPU whose sort is scalar). Each run prints numpy's CPU features, the sorting
strategy clfeval chose (:mod:`clfeval.scores._sorting`), and:

* the floor: ``np.sort`` of the scores — no exact ROC-AUC is possible without ordering them;
* ``clfeval.ranking(gold, scores, positive=True)``, reading ``.roc_auc`` and ``.average_precision``;
* scikit-learn's ``roc_auc_score`` + ``average_precision_score``;

then a breakdown of where clfeval's time goes, and a check that the values agree with scikit-learn to 1e-9.
The floor and clfeval are timed alternately (``--repeat`` times each, in one process): their best and median.

Goal (issue 40, SIMD sort): clfeval ≤ 1.5× the floor (best against best) and ≥ 30× faster than scikit-learn, on
three quiet runs in a row; a run is quiet when every timing of its floor is within 10 % of their median.
``--runs 3`` measures that: three runs in a row (SIMD sort only), a line per run (ratios, quiet or not, goal held or
not), and a last line saying whether the goal held on three quiet runs in a row. The quiet re-run:

    python bench/ranking_speed.py --runs 3

Usage: python bench/ranking_speed.py [--n 10000000] [--prevalence 0.1] [--repeat 7] [--sklearn-repeat 1]
                                     [--runs R] [--skip-sklearn] [--no-scalar] [--json]
(``--json``: a last line of JSON with the measured seconds of the run as is, read by ``bench/checkouts.py``.)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
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
GOAL_FLOOR = 1.5  # clfeval / np.sort at most
GOAL_SKLEARN = 30.0  # scikit-learn / clfeval at least
QUIET = 0.10  # every floor timing within 10 % of their median


def best_of(fn, repeat):
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def alternating(fns: dict, repeat: int) -> tuple[dict, dict, dict]:
    """Each function timed ``repeat`` times, in turn (load falls on all alike): the wall times of each, their CPU
    times (the process's, every thread), the last output."""
    times: dict = {k: [] for k in fns}
    cpu: dict = {k: [] for k in fns}
    outs: dict = {}
    for _ in range(repeat):
        for k, fn in fns.items():
            c0, t0 = time.process_time(), time.perf_counter()
            outs[k] = fn()
            times[k].append(time.perf_counter() - t0)
            cpu[k].append(time.process_time() - c0)
    return times, cpu, outs


def quiet_spread(times: list[float]) -> float:
    """The largest distance of a timing from their median, as a fraction of the median."""
    med = statistics.median(times)
    return max(abs(t - med) for t in times) / med


def data(n: int, prevalence: float) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    gold = rng.random(n) < prevalence
    scores = rng.normal(size=n) + 1.5 * gold  # informative, no ties (ties only make searchsorted cheaper)
    return gold, scores


def stages(gold, scores, repeat) -> dict:
    """Where clfeval's time goes (each stage alone, best of ``repeat``)."""
    plan = sorting.strategy(scores.shape[0])
    k = sorting.threads()
    out = {}
    out["gold: is-positive mask"], (y, _, _) = best_of(lambda: binary_gold(gold, True), repeat)
    try:  # a tree of issue 40: the finiteness is read off the sorted ends, no pass of its own
        out["scores: float64 (finiteness: the sorted ends)"], s = best_of(lambda: as_scores(scores, finite=False),
                                                                          repeat)
    except TypeError:  # an older tree (bench/checkouts.py)
        out["scores: finite check"], s = best_of(lambda: as_scores(scores), repeat)
    if plan == "parts" and hasattr(sorting, "ranked_parts"):  # a tree of issue 40: the counts on the same threads
        out[f"ranked_parts: mask + sort + search on {k} threads, AP"], _ = best_of(
            lambda: sorting.ranked_parts(y, s, n_threads=k), repeat)
    t_split, (pp, parts) = best_of(lambda: sorting.split_sorted(y, s, plan=plan, n_threads=k), repeat)
    out[f"  apart: mask + sort ({plan}: {len(parts)} part(s) of negatives)"] = t_split
    out["  apart: AUC + AP (positives searched into negatives)"], _ = best_of(
        lambda: sorting.pairs_and_ap(pp, parts, n_threads=k if plan != "single" else 1), repeat)
    return out


def run(args, gold, scores, *, label: str = "") -> dict:
    """One run: floor and clfeval alternately, the stages, scikit-learn; returns the measured numbers."""
    def run_clfeval():
        r = clfeval.ranking(gold, scores, positive=True)
        return r.roc_auc, r.average_precision

    times, cpu, outs = alternating({"sort": lambda: np.sort(scores), "ranking": run_clfeval}, args.repeat)
    auc, avp = outs["ranking"]
    t_sort, t_clf = min(times["sort"]), min(times["ranking"])
    m_sort, m_clf = statistics.median(times["sort"]), statistics.median(times["ranking"])
    spread = quiet_spread(times["sort"])
    quiet = spread <= QUIET
    print(f"{label}{'':<62}{'best':>9}   {'median':>9}")
    print(f"{'np.sort(scores) — the floor':<62}{t_sort * 1000:9.1f} ms{m_sort * 1000:9.1f} ms   1.00×")
    print(f"{'clfeval.ranking(...).roc_auc, .average_precision':<62}{t_clf * 1000:9.1f} ms{m_clf * 1000:9.1f} ms   "
          f"{t_clf / t_sort:.2f}× the floor (medians: {m_clf / m_sort:.2f}×)")
    c_sort, c_clf = min(cpu["sort"]), min(cpu["ranking"])
    print(f"{'CPU time, every thread (best): floor':<62}{c_sort * 1000:9.1f} ms   clfeval {c_clf * 1000:.1f} ms, "
          f"{c_clf / c_sort:.2f}× (the work done; wall time is the goal)")
    if not args.runs:
        for name, t in stages(gold, scores, args.repeat).items():
            print(f"    {name:<58}{t * 1000:9.1f} ms   {t / t_clf:6.1%} of clfeval")
    print(f"the floor's timings within {spread:.1%} of their median: {'quiet' if quiet else 'NOT quiet'} "
          f"(quiet: within {QUIET:.0%})")
    ok = t_clf / t_sort <= GOAL_FLOOR
    measured = {"sort": t_sort, "ranking": t_clf, "sort_median": m_sort, "ranking_median": m_clf,
                "floor_ratio": t_clf / t_sort, "quiet": quiet, "floor_spread": spread, "cpu_ratio": c_clf / c_sort}
    if not args.skip_sklearn:
        from sklearn.metrics import average_precision_score, roc_auc_score

        t_sk, (sk_auc, sk_ap) = best_of(lambda: (roc_auc_score(gold, scores), average_precision_score(gold, scores)),
                                        args.sklearn_repeat)
        measured["sklearn"] = t_sk
        measured["sklearn_ratio"] = t_sk / t_clf
        print(f"{'scikit-learn roc_auc_score + average_precision_score':<62}{t_sk * 1000:9.1f} ms   "
              f"{t_sk / t_sort:.2f}× the floor (best of {args.sklearn_repeat})")
        print(f"clfeval vs scikit-learn: {t_sk / t_clf:.1f}× faster (goal ≥ {GOAL_SKLEARN:.0f}×)")
        d_auc, d_ap = abs(auc - sk_auc), abs(avp - sk_ap)
        print(f"ROC-AUC {auc:.12f} vs {sk_auc:.12f} (|diff| {d_auc:.1e}); "
              f"AP {avp:.12f} vs {sk_ap:.12f} (|diff| {d_ap:.1e})")
        agree = d_auc <= 1e-9 and d_ap <= 1e-9
        print("values agree to 1e-9" if agree else "VALUES DISAGREE")
        if not agree:
            sys.exit(1)
        ok = ok and t_sk / t_clf >= GOAL_SKLEARN
    print(f"clfeval vs the floor: {t_clf / t_sort:.2f}× (goal ≤ {GOAL_FLOOR}×)")
    return {**measured, "ok": ok}


def header(args) -> None:
    on = sorted(k for k, v in sorting.cpu_features().items() if v)
    plan = sorting.strategy(args.n)
    print(f"numpy {np.__version__}; CPU features enabled: {' '.join(on)}")
    print(f"numpy's float64 sort is SIMD: {sorting.simd_sort()}; clfeval's strategy for {args.n:,} items: {plan!r} "
          f"({sorting.threads()} threads); load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"n = {args.n:,} scores, {args.prevalence:.1%} positive, float64; floor and clfeval alternately, "
          f"{args.repeat} times each\n")


def runs(args, gold, scores) -> bool:
    """``--runs R``: R runs in a row; whether the goal held on each and each was quiet."""
    rows = []
    for i in range(args.runs):
        rows.append(run(args, gold, scores, label=f"--- run {i + 1} of {args.runs}"))
        print()
    print(f"{'run':<5}{'floor':>10}{'clfeval':>10}{'ratio':>8}{'CPU ratio':>11}{'sklearn×':>10}{'floor spread':>14}"
          "  quiet  goal")
    for i, r in enumerate(rows, 1):
        sk = f"{r['sklearn_ratio']:.1f}" if "sklearn_ratio" in r else "-"
        print(f"{i:<5}{r['sort'] * 1000:8.1f}ms{r['ranking'] * 1000:8.1f}ms{r['floor_ratio']:7.2f}×"
              f"{r['cpu_ratio']:10.2f}×{sk:>10}{r['floor_spread']:13.1%}  {'yes' if r['quiet'] else 'NO ':<5}  "
              f"{'held' if r['ok'] else 'MISSED'}")
    held = all(r["ok"] for r in rows)
    quiet = all(r["quiet"] for r in rows)
    what = f"≤ {GOAL_FLOOR}× np.sort" + ("" if args.skip_sklearn else f" and ≥ {GOAL_SKLEARN:.0f}× scikit-learn")
    print(f"goal ({what}) held on {sum(r['ok'] for r in rows)} of {len(rows)} runs in a row; "
          f"{sum(r['quiet'] for r in rows)} of {len(rows)} quiet: "
          + ("MET on quiet runs" if held and quiet else "met, but NOT every run was quiet: measure again" if held
             else "NOT met"))
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; re-run on a quiet machine: "
          f"python bench/ranking_speed.py --runs {args.runs}")
    return held and quiet


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--prevalence", type=float, default=0.1)
    ap.add_argument("--repeat", type=int, default=7, help="floor and clfeval timed alternately this many times each")
    ap.add_argument("--runs", type=int, default=0,
                    help="this many runs in a row (SIMD sort only), each said quiet or not and goal held or not")
    ap.add_argument("--skip-sklearn", action="store_true")
    ap.add_argument("--sklearn-repeat", type=int, default=1,
                    help="best of this many scikit-learn runs (about 10 s each)")
    ap.add_argument("--no-scalar", action="store_true", help="do not run again with numpy's SIMD sort disabled")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help="a last line of JSON with the measured seconds")
    args = ap.parse_args()
    disabled = os.environ.get("NPY_DISABLE_CPU_FEATURES")
    print("=== numpy as is" if not args.child else f"=== NPY_DISABLE_CPU_FEATURES={disabled!r}")
    header(args)
    gold, scores = data(args.n, args.prevalence)
    if args.runs:
        ok = runs(args, gold, scores)
        if args.json:
            print(json.dumps({"ok": ok}), flush=True)
        return
    measured = run(args, gold, scores)
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
