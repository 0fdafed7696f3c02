"""Coverage of every interval clfeval offers, on a stated grid (issue 18).

Three parts, each simulated with ``--reps`` test sets per cell (default 1,000)
and ``--boot`` bootstrap replicates per interval (default 1,000):

* ``auc`` — ROC-AUC of binormal equal-variance scores (negatives N(0, 1),
  positives N(d′, 1), d′ = √2·Φ⁻¹(AUC)) for (positives, negatives) ∈
  {(20, 20), (50, 50), (200, 200), (20, 200)} and AUC ∈ {0.6, 0.75, 0.9,
  0.97}; intervals DeLong, logit DeLong, Hanley–McNeil, stratified bootstrap
  percentile and BCa (:mod:`clfeval.significance._aucintervals`, the functions
  ``report --ci`` uses, called on all simulated rankings of a chunk at once).
* ``counts`` — ``report --ci`` of accuracy, precision, recall and F1 of the
  positive (smallest) class and macro-F1: multinomial draws of n ∈ {40, 100,
  400} items from a fixed 3-class confusion matrix; percentile, BCa and, for
  the binomial proportions, Wilson (:mod:`clfeval.evaluate._intervals`).
* ``compare`` — the interval of δ (``compare``'s one-sided basic bound that
  matches the test, the two-sided percentile and BCa intervals) for two systems
  drawn from fixed confusion matrices (conditionally independent given the gold
  class) at n ∈ {100, 400}: coverage of the true δ (the metrics of the
  population tables), and the rejection rate under a true null (both systems
  drawn from the same matrix).

The truth of every cell is known exactly (the AUC of the binormal model, the
metric of the population table), so coverage = share of simulated test sets
whose interval contains it (ends included; for a one-sided bound, the share on
the right side of it). With 1,000 test sets a coverage of 0.95 is measured to
±0.014 (two standard errors).

The replications are vectorised: a chunk of simulated test sets is drawn at
once, its bootstrap replicates are count-based (multinomial draws of table
cells; for rankings, index draws counted per sorted position) and every
interval is computed for the whole chunk.

Usage::

    python bench/ci_coverage.py [--part auc|counts|compare|all] [--reps 1000] [--boot 1000]
                                [--seed 18] [--json out.json] [--cells 20x20,50x50]

Run the parts as separate processes to use both cores; ``--json`` keeps the
numbers (a part's JSON files are merged by ``--merge a.json b.json ...``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from statistics import NormalDist

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from clfeval.core._scoring import scalar_metric  # noqa: E402
from clfeval.evaluate._intervals import wilson  # noqa: E402
from clfeval.significance import _aucintervals as ai  # noqa: E402
from clfeval.stats import _resample as rs  # noqa: E402

LEVEL = 0.95
ALPHA = 0.05
PHI = NormalDist()

AUC_SIZES = [(20, 20), (50, 50), (200, 200), (20, 200)]
AUC_VALUES = [0.6, 0.75, 0.9, 0.97]

# rows = gold (classes 0, 1, 2; class 2, the smallest, is "the positive class"), cells = probabilities
GOLD = np.array([0.5, 0.3, 0.2])
RATES = np.array([[0.85, 0.10, 0.05],
                  [0.15, 0.75, 0.10],
                  [0.10, 0.20, 0.70]])
POPULATION = GOLD[:, None] * RATES
COUNT_METRICS = ["accuracy", "precision:2", "recall:2", "f1:2", "macro_f1"]
PROPORTIONS = {"accuracy", "precision:2", "recall:2"}
RATES_B = np.array([[0.80, 0.12, 0.08],
                    [0.20, 0.65, 0.15],
                    [0.15, 0.25, 0.60]])
COMPARE_METRICS = ["accuracy", "f1:2", "macro_f1"]
LABELS = [0, 1, 2]


def covered(ends: np.ndarray, truth: float) -> np.ndarray:
    return (ends[:, 0] <= truth) & (truth <= ends[:, 1])


# --- ROC-AUC ---------------------------------------------------------------------------------------------------

def _placements(pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Continuous scores (no ties): negatives below each positive (R, m), V10, V01."""
    r, m = pos.shape
    n = neg.shape[1]
    both = np.concatenate([pos, neg], axis=1)
    order = np.argsort(both, axis=1, kind="stable")
    is_pos = order < m
    cumneg = np.cumsum(~is_pos, axis=1)
    cumpos = np.cumsum(is_pos, axis=1)
    below = cumneg[is_pos].reshape(r, m)
    pos_below_neg = cumpos[~is_pos].reshape(r, n)
    return below, below / n, 1.0 - pos_below_neg / m


def _boot_auc(below: np.ndarray, n: int, b: int, rng: np.random.Generator) -> np.ndarray:
    """Stratified bootstrap ROC-AUCs (R, B): positives and negatives redrawn separately, counted per position."""
    r, m = below.shape
    ip = rng.integers(0, m, size=(r, b, m))
    jn = rng.integers(0, n, size=(r, b, n))  # negatives by their rank among the negatives
    off = np.arange(r * b, dtype=np.int64).reshape(r, b, 1)
    cp = np.bincount((ip + off * m).ravel(), minlength=r * b * m).reshape(r, b, m)
    cn = np.bincount((jn + off * n).ravel(), minlength=r * b * n).reshape(r, b, n)
    c = np.concatenate([np.zeros((r, b, 1), dtype=np.int64), np.cumsum(cn, axis=2)], axis=2)
    under = np.take_along_axis(c, np.broadcast_to(below[:, None, :], (r, b, m)), axis=2)
    return (cp * under).sum(axis=2) / (m * n)


def auc_cell(m: int, n: int, auc: float, reps: int, boot: int, rng: np.random.Generator) -> dict[str, float]:
    d = np.sqrt(2) * PHI.inv_cdf(auc)
    chunk = max(1, 4_000_000 // (boot * (m + n)))
    hits = {k: 0 for k in ai.AUC_METHODS}
    width = {k: 0.0 for k in ai.AUC_METHODS}
    done = 0
    while done < reps:
        r = min(chunk, reps - done)
        pos = rng.normal(d, 1.0, size=(r, m))
        neg = rng.normal(0.0, 1.0, size=(r, n))
        below, v10, v01 = _placements(pos, neg)
        theta = v10.mean(axis=1)
        var = ai.delong_variance(v10, v01)
        boots = _boot_auc(below, n, boot, rng)
        ends = {"delong": ai.wald(theta, var, LEVEL), "logit-delong": ai.logit_wald(theta, var, LEVEL),
                "hanley-mcneil": ai.wald(theta, ai.hanley_mcneil_variance(theta, m, n), LEVEL),
                "percentile": ai.bootstrap_ends(boots, theta, None, LEVEL),
                "bca": ai.bootstrap_ends(boots, theta, ai.auc_jackknife(v10, v01), LEVEL)}
        for k, e in ends.items():
            ok = np.isfinite(e).all(axis=1)
            e = np.where(ok[:, None], e, theta[:, None])  # undefined (BCa with every replicate alike): [θ, θ]
            hits[k] += int(covered(e, auc).sum())
            width[k] += float((e[:, 1] - e[:, 0]).sum())
        done += r
    return {**{k: hits[k] / reps for k in hits}, **{f"width:{k}": width[k] / reps for k in width}}


def run_auc(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    rng = np.random.default_rng(args.seed)
    sizes = [tuple(int(x) for x in c.split("x")) for c in args.cells.split(",")] if args.cells else AUC_SIZES
    out = {}
    for m, n in sizes:
        for auc in AUC_VALUES:
            t0 = time.perf_counter()
            out[f"{m}+{n} AUC {auc}"] = auc_cell(m, n, auc, args.reps, args.boot, rng)
            print(f"  auc {m}+{n} {auc}: {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return out


# --- count metrics (report --ci) -------------------------------------------------------------------------------

def _metric(name: str):
    f = scalar_metric(name, LABELS)
    return lambda cm: np.asarray(f.fn(cm, 0.0), dtype=np.float64)


def _jackknife_tables(tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each (R, C) table minus one item in each cell: (R, C, C) tables, weights (R, C) = the cell counts."""
    r, c = tables.shape
    jt = np.repeat(tables[:, None, :], c, axis=1) - np.eye(c, dtype=tables.dtype)[None]
    return np.maximum(jt, 0), tables.astype(np.float64)


def _proportion(name: str, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(successes, trials) of a binomial-proportion metric on (R, 3, 3) tables."""
    if name == "accuracy":
        return np.trace(t, axis1=1, axis2=2), t.sum(axis=(1, 2))
    if name == "recall:2":
        return t[:, 2, 2], t[:, 2, :].sum(axis=1)
    return t[:, 2, 2], t[:, :, 2].sum(axis=1)


def counts_cell(n: int, reps: int, boot: int, rng: np.random.Generator) -> dict[str, dict[str, float]]:
    p = POPULATION.ravel()
    fns = {k: _metric(k) for k in COUNT_METRICS}
    truth = {k: float(f(POPULATION[None] * 1e12)[0]) for k, f in fns.items()}
    hits: dict[str, dict[str, int]] = {k: {"percentile": 0, "bca": 0, **({"wilson": 0} if k in PROPORTIONS else {})}
                                       for k in COUNT_METRICS}
    chunk = max(1, 2_000_000 // (boot * 9))
    done = 0
    while done < reps:
        r = min(chunk, reps - done)
        tables = rng.multinomial(n, p, size=r)                               # (r, 9)
        draws = rng.multinomial(n, tables / n, size=(boot, r)).transpose(1, 0, 2)  # (r, B, 9)
        jt, w = _jackknife_tables(tables)
        for k, f in fns.items():
            theta = f(tables.reshape(r, 3, 3))
            reps_k = f(draws.reshape(r * boot, 3, 3)).reshape(r, boot)
            jack = f(jt.reshape(r * 9, 3, 3)).reshape(r, 9)
            srt = np.sort(reps_k, axis=1)
            q = np.broadcast_to(np.array([(1 - LEVEL) / 2, (1 + LEVEL) / 2]), (r, 2))
            hits[k]["percentile"] += int(covered(rs.row_quantiles(srt, q), truth[k]).sum())
            bca = rs.bca_ends(reps_k, theta, jack, w, LEVEL)
            bca = np.where(np.isfinite(bca), bca, theta[:, None])  # undefined BCa (all replicates alike): [θ, θ]
            hits[k]["bca"] += int(covered(bca, truth[k]).sum())
            if k in PROPORTIONS:
                x, t = _proportion(k, tables.reshape(r, 3, 3))
                hits[k]["wilson"] += int(covered(wilson(x, t, LEVEL), truth[k]).sum())
        done += r
    return {k: {m: v / reps for m, v in d.items()} for k, d in hits.items()}


def run_counts(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    rng = np.random.default_rng(args.seed + 1)
    out = {}
    for n in (40, 100, 400):
        t0 = time.perf_counter()
        for k, d in counts_cell(n, args.reps, args.boot, rng).items():
            out[f"{k} n={n}"] = d
        print(f"  counts n={n}: {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return out


# --- compare: the interval of δ ------------------------------------------------------------------------------

def _joint(rates_a: np.ndarray, rates_b: np.ndarray) -> np.ndarray:
    """P(gold, A, B) = P(gold)·P(A | gold)·P(B | gold): (27,) cell probabilities."""
    return (GOLD[:, None, None] * rates_a[:, :, None] * rates_b[:, None, :]).ravel()


def _systems(j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A's and B's (…, 3, 3) tables of joint (…, 27) counts."""
    t = j.reshape(*j.shape[:-1], 3, 3, 3)
    return t.sum(axis=-1), t.sum(axis=-2)


def compare_cell(n: int, rates_b: np.ndarray, reps: int, boot: int,
                 rng: np.random.Generator) -> dict[str, dict[str, float]]:
    p = _joint(RATES, rates_b)
    fns = {k: _metric(k) for k in COMPARE_METRICS}
    pa, pb = _systems(p[None] * 1e12)
    truth = {k: float(f(pa)[0] - f(pb)[0]) for k, f in fns.items()}
    out = {k: {"basic bound (one-sided)": 0, "percentile": 0, "bca": 0, "rejected": 0} for k in COMPARE_METRICS}
    chunk = max(1, 2_000_000 // (boot * 27))
    done = 0
    while done < reps:
        r = min(chunk, reps - done)
        tables = rng.multinomial(n, p, size=r)
        draws = rng.multinomial(n, tables / n, size=(boot, r)).transpose(1, 0, 2)
        jt, w = _jackknife_tables(tables)
        ta, tb = _systems(tables)
        da, db = _systems(draws.reshape(r * boot, 27))
        ja, jb = _systems(jt.reshape(r * 27, 27))
        for k, f in fns.items():
            delta = f(ta) - f(tb)
            reps_k = (f(da) - f(db)).reshape(r, boot)
            jack = (f(ja) - f(jb)).reshape(r, 27)
            bounds = np.array([rs.basic_bound(reps_k[i], delta[i], ALPHA, 1e-12) for i in range(r)])
            out[k]["basic bound (one-sided)"] += int((bounds <= truth[k]).sum())
            out[k]["rejected"] += int((bounds > 0).sum())
            srt = np.sort(reps_k, axis=1)
            q = np.broadcast_to(np.array([(1 - LEVEL) / 2, (1 + LEVEL) / 2]), (r, 2))
            out[k]["percentile"] += int(covered(rs.row_quantiles(srt, q), truth[k]).sum())
            bca = rs.bca_ends(reps_k, delta, jack, w, LEVEL)
            bca = np.where(np.isfinite(bca), bca, delta[:, None])
            out[k]["bca"] += int(covered(bca, truth[k]).sum())
        done += r
    return {k: {**{m: v / reps for m, v in d.items()}, "true δ": truth[k]} for k, d in out.items()}


def run_compare(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    rng = np.random.default_rng(args.seed + 2)
    out = {}
    for n in (100, 400):
        for name, rb in (("A ≠ B", RATES_B), ("null A = B", RATES)):
            t0 = time.perf_counter()
            for k, d in compare_cell(n, rb, args.reps, args.boot, rng).items():
                out[f"{k} n={n} {name}"] = d
            print(f"  compare n={n} {name}: {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return out


# --- tables ----------------------------------------------------------------------------------------------------

def table(rows: dict[str, dict[str, float]], columns: list[str], title: str) -> str:
    lines = [f"**{title}**", "", "| cell | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for cell, d in rows.items():
        lines.append(f"| {cell} | " + " | ".join("" if c not in d else f"{d[c]:.3f}" for c in columns) + " |")
    worst = {c: min(d[c] for d in rows.values() if c in d) for c in columns
             if any(c in d for d in rows.values()) and not c.startswith(("true", "rejected"))}
    lines.append("| **worst cell** | " + " | ".join(f"**{worst[c]:.3f}**" if c in worst else "" for c in columns)
                 + " |")
    return "\n".join(lines)


def report(results: dict[str, dict[str, dict[str, float]]], args: argparse.Namespace) -> str:
    out = [f"Coverage of nominal {LEVEL:.0%} intervals, {args.reps:,} simulated test sets per cell, "
           f"{args.boot:,} bootstrap replicates per interval (seed {args.seed})."]
    if "auc" in results:
        out.append(table(results["auc"], list(ai.AUC_METHODS), "ROC-AUC (binormal, equal variance)"))
    if "counts" in results:
        by_metric: dict[str, dict[str, dict[str, float]]] = {}
        for cell, d in results["counts"].items():
            by_metric.setdefault(cell.split(" ")[0], {})[cell] = d
        for k, rows in by_metric.items():
            out.append(table(rows, ["percentile", "bca", "wilson"], f"report --ci: {k}"))
    if "compare" in results:
        alt = {c: d for c, d in results["compare"].items() if "null" not in c}
        null = {c: d for c, d in results["compare"].items() if "null" in c}
        out.append(table(alt, ["basic bound (one-sided)", "percentile", "bca", "rejected", "true δ"],
                         "compare: interval of δ (coverage of the true δ; rejected = power of the test)"))
        out.append(table(null, ["basic bound (one-sided)", "percentile", "bca", "rejected"],
                         "compare under a true null (δ = 0): rejected = type I error rate at α = 0.05"))
    return "\n\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=["auc", "counts", "compare", "all"], default="all")
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--boot", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--cells", default=None, help="auc only: sizes such as 20x20,50x50")
    ap.add_argument("--json", default=None, help="write the numbers here")
    ap.add_argument("--merge", nargs="*", default=None, help="print the tables of these JSON files together")
    args = ap.parse_args()
    if args.merge:
        results: dict = {}
        for path in args.merge:
            with open(path) as fh:
                part = json.load(fh)
            for k, v in part["results"].items():
                results.setdefault(k, {}).update(v)
            args.reps, args.boot, args.seed = part["reps"], part["boot"], part["seed"]
        print(report(results, args))
        return
    t0 = time.perf_counter()
    results = {}
    parts = ["auc", "counts", "compare"] if args.part == "all" else [args.part]
    for part in parts:
        t = time.perf_counter()
        results[part] = {"auc": run_auc, "counts": run_counts, "compare": run_compare}[part](args)
        print(f"{part}: {time.perf_counter() - t:.0f} s", file=sys.stderr, flush=True)
    print(report(results, args))
    print(f"\ntotal {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"reps": args.reps, "boot": args.boot, "seed": args.seed, "results": results}, fh, indent=1)


if __name__ == "__main__":
    main()
