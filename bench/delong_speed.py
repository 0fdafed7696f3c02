"""Speed of DeLong's test (two systems, the same items) against one np.argsort (issue 14).

One run, on the same data: n = 1e7 items, 30 % positive, two correlated float64
score columns without ties (and, with ``--ties``, scores rounded to 3 decimals):

* the baseline: one ``np.argsort`` of 1e7 float64;
* ``clfeval.significance._delong.delong_test(gold, a, b, positive=True)`` end to end (gold
  mask, finite checks of both columns, both systems' placement values, the
  2×2 covariance, z, p, intervals);
* its stages: one system's sort order (``midranks.sort_order``, the packed-key
  sort), and one system's placement values (``midranks.below_counts``, which
  includes the sort — or, with heavy ties, replaces it by hashing the scores
  into their distinct values and counting per value).

Times are the best of ``--repeat`` runs, interleaved (baseline, DeLong,
baseline, ...) so that a busy machine slows both alike. Target: DeLong ≤ 3×
the argsort.

Usage: python bench/delong_speed.py [--n 10000000] [--repeat 3] [--ties]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from clfeval.significance import _delong as delong, _midranks as midranks  # noqa: E402


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ties", action="store_true", help="round the scores to 3 decimals (many ties)")
    args = ap.parse_args()

    rng = np.random.default_rng(0)
    gold = rng.random(args.n) < 0.3
    latent = rng.normal(size=args.n)
    a = latent + 1.0 * gold + rng.normal(scale=0.7, size=args.n)
    b = latent + 0.9 * gold + rng.normal(scale=0.7, size=args.n)
    if args.ties:
        a, b = np.round(a, 3), np.round(b, 3)
    print(f"n = {args.n:,} items, {gold.mean():.1%} positive, two float64 score columns"
          f"{' rounded to 3 decimals' if args.ties else ''}; best of {args.repeat} interleaved runs\n")

    best = {"argsort": np.inf, "delong": np.inf, "sort order (one system)": np.inf,
            "placement values (one system)": np.inf}
    result = None
    lay = midranks.positives_first(gold)  # the positives-first labels, shared by both systems (not timed in the stages)
    for _ in range(args.repeat):
        t, _ = timed(lambda: np.argsort(a))
        best["argsort"] = min(best["argsort"], t)
        t, result = timed(lambda: delong.delong_test(gold, a, b, positive=True))
        best["delong"] = min(best["delong"], t)
        t, _ = timed(lambda: midranks.sort_order(a, lay[0], lay[1]))
        best["sort order (one system)"] = min(best["sort order (one system)"], t)
        t, _ = timed(lambda: midranks.below_counts(a, lay))
        best["placement values (one system)"] = min(best["placement values (one system)"], t)

    base = best["argsort"]
    print(f"{'':40s} {'seconds':>8s} {'× argsort':>10s}")
    for name in ("argsort", "delong", "sort order (one system)", "placement values (one system)"):
        label = "np.argsort (1e7 float64)" if name == "argsort" else (
            "delong_test (two systems)" if name == "delong" else f"  stage: {name}")
        print(f"{label:40s} {best[name]:8.3f} {best[name] / base:10.2f}")
    ratio = best["delong"] / base
    tied = midranks.tie_groups(a) is not None
    print("\npath of the placement values: " + ("heavy ties — the scores hashed into their distinct values and "
                                                "counted per value, no sort of the items (the sort-order stage is "
                                                "not used)" if tied else "the packed-key sort"))
    print(f"\nAUC A = {result.auc_a:.6f}, AUC B = {result.auc_b:.6f}, z = {result.z:.3f}, "
          f"p (one-sided) = {result.p_value:.3g}")
    print(f"target: DeLong <= 3x argsort -> {ratio:.2f}x {'OK' if ratio <= 3 else 'MISSED'}")


if __name__ == "__main__":
    main()
