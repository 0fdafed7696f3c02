"""clfeval rank against its baselines, every ratio measured in one run (issue 28).

1. Frequentist, 50 systems × 200 data sets: ``clfeval.significance._multirank.rank_scores`` with ``bayes=False``
   (average ranks, Friedman + Iman–Davenport, Nemenyi with every pair's p, Holm-adjusted Wilcoxon of all
   1,225 pairs with their effect sizes, the groups) against a plain baseline: ``scipy.stats.friedmanchisquare``
   plus ``scipy.stats.wilcoxon(zero_method="pratt", method="auto")`` called once per pair. Target: ≤ 2×.
2. Bayesian, 10 pairs × 200 data sets at 50,000 posterior samples: the Bayesian signed-rank test of
   ``clfeval.significance._bayesrank`` against ``baycomp.SignedRankTest`` (the test extra) on the same pairs and
   samples. Target: ≤ 1×. The probabilities of both are printed side by side (they agree within Monte-Carlo error).

Each timing is the best of ``--repeat`` runs (the machine is shared: ratios within one run are what count).

Usage: python bench/rank_speed.py [--systems 50] [--datasets 200] [--pairs 10] [--samples 50000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))


def best_of(repeat: int, fn):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--systems", type=int, default=50)
    ap.add_argument("--datasets", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--samples", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    if a.pairs + 5 > a.systems:  # the Bayesian part compares system i with system i + 5
        ap.error(f"--pairs {a.pairs} needs at least {a.pairs + 5} systems (--systems {a.systems}): pair i is system i "
                 f"against system i + 5")

    import warnings

    import numpy as np
    from scipy.stats import friedmanchisquare, wilcoxon

    from clfeval.significance._bayesrank import signed_rank
    from clfeval.significance._multirank import rank_scores

    rng = np.random.default_rng(28)
    k, n = a.systems, a.datasets
    # scores with ties (rounded to 3 decimals, as published tables are) and small true differences
    x = np.round(0.75 + 0.002 * np.arange(k)[None, :] + rng.normal(0, 0.03, (n, 1)) + rng.normal(0, 0.01, (n, k)), 3)
    systems, datasets = [f"s{i}" for i in range(k)], [f"d{j}" for j in range(n)]

    def baseline():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f = friedmanchisquare(*x.T)
            ps = [wilcoxon(x[:, i], x[:, j], zero_method="pratt", method="auto").pvalue
                  for i in range(k) for j in range(i + 1, k)]
        return f, ps

    def ours():
        return rank_scores(x, systems, datasets, higher_is_better=True, bayes=False)

    ours()  # imports and SciPy's first-call costs out of the timing
    tb, (_, ps) = best_of(a.repeat, baseline)
    to, r = best_of(a.repeat, ours)
    mine = sorted(p["p_value"] for p in r.pairs)
    agree = np.allclose(sorted(ps), mine, rtol=1e-10, atol=0)
    print(f"1. frequentist, {k} systems × {n} data sets ({len(r.pairs):,} pairs)")
    print(f"   baseline friedmanchisquare + pairwise wilcoxon: {tb:.3f} s")
    print(f"   clfeval rank_scores (bayes=False):              {to:.3f} s   ratio {to / tb:.2f}× (target ≤ 2×); "
          f"Wilcoxon p-values equal SciPy's: {agree}")

    try:
        import baycomp
    except ImportError:
        print("2. baycomp is not installed (pip install baycomp, the test extra): Bayesian part skipped")
        return
    pairs = [(i, i + 5) for i in range(a.pairs)]  # true differences of 0.01, the ROPE: probabilities away from 0 and 1

    def theirs():
        np.random.seed(0)
        return [baycomp.SignedRankTest.probs(x[:, i], x[:, j], rope=0.01, prior=0.5, nsamples=a.samples)
                for i, j in pairs]

    def clf():
        return [signed_rank(x[:, j] - x[:, i], rope=0.01, prior=0.5, samples=a.samples,
                            rng=np.random.default_rng([0, m])) for m, (i, j) in enumerate(pairs)]

    rep = max(1, min(a.repeat, 1))  # baycomp takes seconds per pair: one run of each
    tt, ref = best_of(rep, theirs)
    tc, got = best_of(a.repeat, clf)
    worst = max(abs(g - b) for p, q in zip(got, ref, strict=False) for g,
                b in zip((p.left, p.rope, p.right), q, strict=False))
    print(f"2. Bayesian signed-rank, {len(pairs)} pairs × {n} data sets, {a.samples:,} samples")
    print(f"   baycomp.SignedRankTest:   {tt:.3f} s")
    print(f"   clfeval bayesrank:        {tc:.3f} s   ratio {tc / tt:.3f}× (target ≤ 1×); largest difference of a "
          f"probability: {worst:.4f}")


if __name__ == "__main__":
    main()
