"""Speed of clfeval's paired bootstrap against vectorised index resampling (issue 4).

One run, on the same data — n = 1e6 items, K = 10 classes, two systems with
accuracy ≈ 0.8 and independent errors, so nearly all K³ = 1,000 cells of the
joint (gold, A, B) table are occupied:

1. ``clfeval.compare(gold, a, b, metric=M, samples=b)`` end to end (counting
   the joint table, the b bootstrap replicates, p-value, percentile and BCa
   intervals) for M = macro-F1 and M = accuracy;
2. a good vectorised index-resampling bootstrap on the same data: the joint
   code of every item is precomputed (not timed); per batch of replicates,
   draw item indices, gather the joint codes, one ``bincount`` over
   (replicate, cell), sum A's and B's K×K tables out of the joint tables and
   compute the metric on the stack. It is timed on a fraction of its samples
   and scaled to b.

3. the floor (issue 40): NumPy's ``multinomial`` over the non-empty cells of the same joint table, the same n and
   b — what the bootstrap's draws cost done the plain way. It is raced against ``compare`` in the same run,
   alternating, ``--repeat`` times each; min and median of both and their ratio are printed.

Targets: macro-F1 < 1.0 s and ≤ 2× the floor (issue 40), ≥ 40× faster than index resampling;
accuracy ≥ 1000× faster.

Usage: python bench/significance_speed.py [--n 1000000] [--samples 10000] [--index-samples 100] [--repeat 5] [--json]
(``--json``: a last line of JSON with the measured seconds, read by ``bench/checkouts.py``.)
A quiet re-run of the issue-40 row: ``python bench/significance_speed.py --repeat 7 --index-samples 20``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

import clfeval  # noqa: E402
from clfeval.core._scoring import scalar_metric  # noqa: E402


def best_of(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def race(fns: dict, repeat: int) -> dict:
    """Seconds of each function, ``repeat`` rounds, the functions alternating within a round (ABAB…)."""
    times: dict = {name: [] for name in fns}
    for r in range(repeat):
        for name in (list(fns) if r % 2 == 0 else list(fns)[::-1]):
            t0 = time.perf_counter()
            fns[name]()
            times[name].append(time.perf_counter() - t0)
    return times


def index_bootstrap(codes: np.ndarray, k: int, metric, samples: int, seed: int, batch: int) -> np.ndarray:
    """δ replicates by plain index resampling: gather joint codes, one bincount per batch of replicates."""
    rng = np.random.default_rng(seed)
    n = codes.size
    cells = k ** 3
    out = np.empty(samples)
    for start in range(0, samples, batch):
        r = min(batch, samples - start)
        idx = rng.integers(0, n, size=(r, n), dtype=np.int32)
        jc = codes[idx]
        jc += (np.arange(r, dtype=np.int32) * cells)[:, None]
        joint = np.bincount(jc.ravel(), minlength=r * cells).reshape(r, k, k, k)
        ta = joint.sum(axis=3)
        tb = joint.sum(axis=2)
        out[start:start + r] = metric(ta, 0.0) - metric(tb, 0.0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--samples", type=int, default=10_000)
    ap.add_argument("--index-samples", type=int, default=100, help="replicates actually run by index resampling")
    ap.add_argument("--batch", type=int, default=8, help="replicates per batch of index resampling")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true", help="a last line of JSON with the measured seconds")
    args = ap.parse_args()
    n, k, b = args.n, args.k, args.samples
    rng = np.random.default_rng(0)
    gold = rng.integers(0, k, n).astype(np.int64)
    a = np.where(rng.random(n) < 0.78, gold, rng.integers(0, k, n))
    bb = np.where(rng.random(n) < 0.78, gold, rng.integers(0, k, n))
    codes = ((gold * k + a) * k + bb).astype(np.int32)
    occupied = int(np.count_nonzero(np.bincount(codes, minlength=k ** 3)))
    import scipy

    print(f"clfeval {clfeval.__version__}, numpy {np.__version__}, scipy {scipy.__version__}; "
          f"n = {n:,}, K = {k}, b = {b:,}; joint cells occupied: {occupied} of {k ** 3}; "
          f"accuracy A {np.mean(a == gold):.3f}, B {np.mean(bb == gold):.3f}; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    clfeval.compare(gold[:1000], a[:1000], bb[:1000], samples=10)  # warm up imports (scipy)
    t_count, _ = best_of(lambda: clfeval.joint_table(gold, a, bb), args.repeat)
    print(f"  counting the joint table from the items (included below): {t_count * 1e3:.1f} ms")
    ok = True
    measured = {"joint_table": t_count}
    nz = np.bincount(codes, minlength=k ** 3)
    nz = nz[nz > 0]
    floor_race: dict = {}
    for name, target in (("macro_f1", 40), ("accuracy", 1000)):
        metric = scalar_metric(name).fn
        res = clfeval.compare(gold, a, bb, metric=name, samples=b, seed=0)
        if name == "macro_f1":
            floor_race = race({"compare": lambda: clfeval.compare(gold, a, bb, metric="macro_f1", samples=b, seed=0),
                               "floor": lambda: np.random.default_rng(1).multinomial(n, nz / n, size=b)},
                              args.repeat)
            t_fast = min(floor_race["compare"])
        else:
            t_fast, res = best_of(lambda name=name: clfeval.compare(gold, a, bb, metric=name, samples=b, seed=0),
                                  args.repeat)
        t_idx, deltas = best_of(lambda metric=metric: index_bootstrap(codes, k, metric, args.index_samples, 1,
                                                                      args.batch), 1)
        t_idx_full = t_idx * b / args.index_samples
        measured.update({f"compare_{name}": t_fast, f"index_{name}": t_idx_full})
        ratio = t_idx_full / t_fast
        fast_deltas = clfeval.significance._paired.bootstrap_distribution(gold, a, bb, metric=name, samples=b, seed=0)
        print(f"\n{name}: δ = {res.delta:+.5f}, p = {res.p_value:.4f}, 95% CI of δ {res.ci.delta[0]:+.5f} .. "
              f"{res.ci.delta[1]:+.5f}")
        print(f"  sd of δ replicates: clfeval {fast_deltas.std():.6f} (b = {b:,}), "
              f"index resampling {deltas.std():.6f} (b = {args.index_samples})")
        print(f"  clfeval.compare (counts, end to end)      {t_fast:10.3f} s")
        print(f"  index resampling, {args.index_samples} replicates           {t_idx:10.3f} s "
              f"-> scaled to {b:,}: {t_idx_full:8.1f} s")
        line = f"  speed-up {ratio:,.0f}x (target >= {target:,}x)"
        if name == "macro_f1":
            fc, ff = np.array(floor_race["compare"]), np.array(floor_race["floor"])
            to_floor = fc.min() / ff.min()
            measured.update({"floor_macro_f1": float(ff.min()), "compare_to_floor": float(to_floor)})
            print(f"  floor: numpy multinomial over the {nz.size} non-empty joint cells, n = {n:,}, {b:,} draws "
                  f"(raced with compare, {args.repeat} rounds alternating):")
            print(f"    compare  min {fc.min():.3f} s  median {np.median(fc):.3f} s")
            print(f"    floor    min {ff.min():.3f} s  median {np.median(ff):.3f} s   (floor spread: max/median "
                  f"{ff.max() / np.median(ff):.2f}; quiet when <= 1.10)")
            print(f"    compare / floor: {to_floor:.2f}x of the mins, {np.median(fc / ff):.2f}x median of the rounds "
                  f"(aim <= 2x)")
            line += f"; clfeval time {t_fast:.3f} s (target < 1.0 s)"
            ok &= t_fast < 1.0 and to_floor <= 2.0
        ok &= ratio >= target
        print(line)
    print("\nall targets met" if ok else "\nSOME TARGETS MISSED")
    print("quiet re-run (issue 40): python bench/significance_speed.py --repeat 7 --index-samples 20")
    if args.json:
        print(json.dumps(measured))


if __name__ == "__main__":
    main()
