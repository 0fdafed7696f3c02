"""clfeval's label issues (confident learning, prune by noise rate) raced against cleanlab (issue 41).

1. **Quality on R8**: the eight-class single-label Reuters-21578 subset, training and test stories together
   (``clfeval.text.reuters_subset(ARCHIVE, split="all")``). 3 % of the labels are flipped before
   cross-validation (seed 0): round(0.03 · n) flips, of which round(0.6 · flips) go in equal shares along the
   six confusable directions of ``DIRECTIONS`` and the rest to a uniformly drawn other class. A share that is
   not a whole number is floored, and the remainder goes one flip each to the first directions in the order of
   ``DIRECTIONS`` (round: half up). The items of each direction are drawn uniformly, without replacement, from
   the items given its source class and not flipped yet; then the uniform flips from all items not flipped yet.
   Out-of-fold probabilities from ``clfeval.cv(..., folds=5, probabilities=True)`` (what ``clfeval cv --folds 5
   --probabilities`` writes) with ``nb`` and with ``logreg``; on the same probabilities, clfeval's flagged set
   (``clfeval.label_issues``) and cleanlab's ``cleanlab.filter.find_label_issues(labels, pred_probs)`` with its
   defaults, each scored by precision, recall and F1 against the planted flips. Goal: clfeval's F1 ≥
   cleanlab's − 0.02 for each model.
2. **Speed at 1e6 items × 10 classes** (synthetic, seed 0: true labels uniform; logits N(0, 1.2) plus 3.5 on
   the true class, softmax; 3 % of the labels flipped, round(0.7 · flips) to the next class (mod 10), the rest
   to a uniformly drawn other class). The same arrays in memory for both; cleanlab with its default ``n_jobs``.
   Warmed up once on 2e4 items, then ``--repeat`` alternating rounds (clfeval, then cleanlab); min and median.
   Goal: clfeval's time ≤ 1/10 of cleanlab's. Checks: clfeval streamed (the arrays as a Parquet file,
   ``Local(memory="8MB")``) and on Dask (a LocalCluster, 2 worker processes on 127.0.0.1) flag the same rows
   as in memory. Also printed, not a check: how far the two flagged sets agree (Jaccard).

A goal unmet is printed (a loaded machine can miss the speed goal); a failed check exits 1.

Usage: python bench/label_issues.py [ARCHIVE] [--quick] [--repeat 3] [--json FILE]
(ARCHIVE defaults to shared/data/reuters21578.tar.gz in the nearest folder above the checkout; ``--quick``: 1e5
synthetic items, R8 with ``nb`` only.) Needs the ``bench`` extra (cleanlab; AGPL: raced here, never imported by
the package) and the ``dask`` and ``text`` extras.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import clfeval  # noqa: E402

#: The directed flips of R8 (source → target), in the order a remainder is shared out.
DIRECTIONS = (("interest", "money-fx"), ("money-fx", "interest"), ("grain", "trade"), ("acq", "earn"),
              ("earn", "acq"), ("crude", "ship"))
FLIP_RATE = 0.03
DIRECTED_SHARE = 0.6
NEXT_SHARE = 0.7
F1_MARGIN = 0.02
SPEED_GOAL = 10.0
MODELS = ("nb", "logreg")


def default_archive() -> str:
    """``shared/data/reuters21578.tar.gz`` beside the nearest folder above the checkout that holds one (a
    checkout in ``/work/main`` or a worktree in ``/work/wt/NAME`` alike); else the first of them."""
    here = os.path.dirname(os.path.abspath(__file__))
    ups = [os.path.join(here, *[".."] * k, "shared", "data", "reuters21578.tar.gz") for k in (2, 3, 4)]
    return os.path.normpath(next((p for p in ups if os.path.exists(p)), ups[0]))


QUIET_RERUN = "PYTHONPATH=src python bench/label_issues.py --repeat 5 --json label_issues.json"


def half_up(x: float) -> int:
    return int(np.floor(x + 0.5))


# --- planting flips --------------------------------------------------------------------------------------------

def direction_counts(n: int, directions: int = len(DIRECTIONS)) -> tuple[list[int], int]:
    """The flips per direction and the uniform flips, for ``n`` items (the rounding of the module docstring;
    no directions: every flip uniform)."""
    flips = half_up(FLIP_RATE * n)
    if not directions:
        return [], flips
    directed = half_up(DIRECTED_SHARE * flips)
    base, rest = divmod(directed, directions)
    return [base + (1 if d < rest else 0) for d in range(directions)], flips - directed


def plant_flips(labels: Sequence[str], classes: Sequence[str], seed: int = 0,
                directions: Sequence[tuple[str, str]] = DIRECTIONS
                ) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The labels with flips planted, the rows flipped (sorted) and, for each of them, the index of its
    direction (−1: a uniform flip). A direction whose source class has fewer unflipped items than its share
    raises ValueError."""
    rng = np.random.default_rng(seed)
    given = np.asarray(labels, dtype=object)
    out = given.copy()
    per, uniform = direction_counts(len(given), len(directions))
    taken = np.zeros(len(given), dtype=bool)
    kind = np.full(len(given), -1, dtype=np.int64)
    for d, ((src, dst), count) in enumerate(zip(directions, per, strict=True)):
        pool = np.flatnonzero((given == src) & ~taken)
        if len(pool) < count:
            raise ValueError(f"{count} flips {src}→{dst} asked, {len(pool)} items given {src!r}")
        rows = rng.choice(pool, size=count, replace=False)
        out[rows] = dst
        taken[rows] = True
        kind[rows] = d
    rows = rng.choice(np.flatnonzero(~taken), size=uniform, replace=False)
    for r in rows:
        others = [c for c in classes if c != given[r]]
        out[r] = others[int(rng.integers(len(others)))]
    taken[rows] = True
    flipped = np.flatnonzero(taken)
    return [str(v) for v in out], flipped, kind[flipped]


def prf(flagged: Sequence[int] | np.ndarray, planted: Sequence[int] | np.ndarray) -> tuple[float, float, float]:
    """Precision, recall and F1 of a flagged set of rows against the planted ones (0 where undefined)."""
    f, p = set(int(v) for v in flagged), set(int(v) for v in planted)
    hit = len(f & p)
    precision = hit / len(f) if f else 0.0
    recall = hit / len(p) if p else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


# --- synthetic -------------------------------------------------------------------------------------------------

def make_synthetic(n: int, k: int = 10, seed: int = 0) -> dict[str, np.ndarray]:
    """``probs`` (n, k) float64, ``given`` and ``true`` (n,) int64, ``flipped`` (sorted rows)."""
    rng = np.random.default_rng(seed)
    true = rng.integers(0, k, n, dtype=np.int64)
    logits = rng.normal(0.0, 1.2, (n, k))
    logits[np.arange(n), true] += 3.5
    logits -= logits.max(axis=1, keepdims=True)
    probs = np.exp(logits)
    probs /= probs.sum(axis=1, keepdims=True)
    flips = half_up(FLIP_RATE * n)
    nxt = half_up(NEXT_SHARE * flips)
    rows = rng.choice(n, size=flips, replace=False)
    given = true.copy()
    given[rows[:nxt]] = (true[rows[:nxt]] + 1) % k
    given[rows[nxt:]] = (true[rows[nxt:]] + rng.integers(1, k, flips - nxt)) % k
    return {"probs": probs, "given": given, "true": true, "flipped": np.sort(rows)}


# --- the two tools ---------------------------------------------------------------------------------------------

def clfeval_rows(probs: np.ndarray, given: np.ndarray, labels: Sequence[Any], engine: Any = None) -> np.ndarray:
    r = clfeval.label_issues(probs, given, labels=list(labels), engine=engine)
    return np.sort(np.array([f.row for f in r.flagged], dtype=np.int64))


def cleanlab_rows(probs: np.ndarray, given_codes: np.ndarray) -> np.ndarray:
    from cleanlab.filter import find_label_issues

    return np.flatnonzero(find_label_issues(given_codes, probs))


# --- 1. R8 -----------------------------------------------------------------------------------------------------

def r8_rows(archive: str, models: Sequence[str]) -> list[dict[str, Any]]:
    from clfeval.text import reuters_subset

    t = reuters_subset(archive, subset="r8", split="all")
    texts, labels = t.column("text").to_pylist(), [str(v) for v in t.column("label").to_pylist()]
    classes = sorted(set(labels))
    noisy, planted, _ = plant_flips(labels, classes, seed=0)
    rows = []
    for model in models:
        t0 = time.perf_counter()
        cv = clfeval.cv(texts, noisy, model=model, folds=5, seed=0, probabilities=True)
        took = time.perf_counter() - t0
        pred = cv.predictions
        order = np.argsort(np.asarray(pred.column("id").to_pylist(), dtype=np.int64), kind="stable")
        gold = np.asarray(pred.column("gold").to_pylist(), dtype=object)[order]
        probs = np.column_stack([np.asarray(pred.column(f"p:{c}").to_numpy(), dtype=np.float64)[order]
                                 for c in classes])
        if list(gold) != noisy:
            raise RuntimeError("the out-of-fold predictions do not line up with the noisy labels")
        code = {c: i for i, c in enumerate(classes)}
        codes = np.array([code[g] for g in gold], dtype=np.int64)
        ours, theirs = clfeval_rows(probs, gold, classes), cleanlab_rows(probs, codes)
        rows.append({"model": model, "n": len(labels), "planted": len(planted), "cv_seconds": took,
                     "clfeval": dict(zip(("precision", "recall", "f1"), prf(ours, planted), strict=True)),
                     "cleanlab": dict(zip(("precision", "recall", "f1"), prf(theirs, planted), strict=True)),
                     "flagged": {"clfeval": len(ours), "cleanlab": len(theirs)}})
    return rows


def r8_table(rows: list[dict[str, Any]]) -> str:
    head = f"{'model':<7} {'n':>6} {'planted':>7}  {'tool':<9} {'flagged':>7} {'precision':>9} {'recall':>7} {'F1':>6}"
    lines = [head, "─" * len(head)]
    for r in rows:
        for tool in ("clfeval", "cleanlab"):
            s = r[tool]
            lines.append(f"{r['model']:<7} {r['n']:>6,} {r['planted']:>7}  {tool:<9} {r['flagged'][tool]:>7} "
                         f"{s['precision']:>9.3f} {s['recall']:>7.3f} {s['f1']:>6.3f}")
    return "\n".join(lines)


# --- 2. speed and engines --------------------------------------------------------------------------------------

def race(d: dict[str, np.ndarray], repeat: int) -> dict[str, Any]:
    labels = list(range(d["probs"].shape[1]))
    a, b, ours, theirs = [], [], np.empty(0), np.empty(0)
    for _ in range(repeat):
        t0 = time.perf_counter()
        ours = clfeval_rows(d["probs"], d["given"], labels)
        a.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        theirs = cleanlab_rows(d["probs"], d["given"])
        b.append(time.perf_counter() - t0)
    union = len(np.union1d(ours, theirs))
    return {"clfeval": a, "cleanlab": b, "ratio_min": min(b) / min(a),
            "ratio_median": statistics.median(b) / statistics.median(a), "rows": ours,
            "jaccard": len(np.intersect1d(ours, theirs)) / union if union else 1.0,
            "flagged": {"clfeval": len(ours), "cleanlab": len(theirs)},
            "f1": {"clfeval": prf(ours, d["flipped"])[2], "cleanlab": prf(theirs, d["flipped"])[2]}}


def engines_check(d: dict[str, np.ndarray], in_memory: np.ndarray) -> dict[str, Any]:
    """The flagged rows streamed (Parquet, a small budget) and on Dask, against those in memory."""
    import distributed
    import pyarrow as pa
    import pyarrow.parquet as pq

    k = d["probs"].shape[1]
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="clfeval_li_") as tmp:
        path = os.path.join(tmp, "probs.parquet")
        cols: dict[str, Any] = {"gold": pa.array(d["given"].astype(str))}
        cols.update({f"p:{j}": pa.array(d["probs"][:, j]) for j in range(k)})
        pq.write_table(pa.table(cols), path, row_group_size=50_000)
        t0 = time.perf_counter()
        r = clfeval.label_issues(path, engine=clfeval.Local(memory="8MB"))
        out["streamed"] = {"seconds": time.perf_counter() - t0, "mode": r.engine.to_dict().get("mode"),
                           "same": bool(np.array_equal(np.sort([f.row for f in r.flagged]), in_memory))}
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=None) as cluster, distributed.Client(cluster) as client:
            t0 = time.perf_counter()
            r = clfeval.label_issues(path, engine=clfeval.Dask(client))
            out["dask"] = {"seconds": time.perf_counter() - t0,
                           "same": bool(np.array_equal(np.sort([f.row for f in r.flagged]), in_memory))}
    return out


def versions() -> dict[str, Any]:
    from importlib.metadata import version

    return {"clfeval": clfeval.__version__, "cleanlab": version("cleanlab"), "numpy": np.__version__,
            "scikit-learn": version("scikit-learn"), "python": platform.python_version(), "cpus": os.cpu_count(),
            "load_average": list(os.getloadavg())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("archive", nargs="?", default=default_archive(), help="reuters21578.tar.gz (default: %(default)s)")
    ap.add_argument("--quick", action="store_true", help="1e5 synthetic items; R8 with nb only")
    ap.add_argument("--repeat", type=int, default=3, help="alternating rounds of the speed race (default 3)")
    ap.add_argument("--json", metavar="FILE", help="write every number measured and the checks")
    o = ap.parse_args(argv)
    info = versions()
    print(f"label issues: {', '.join(f'{k} {v}' for k, v in info.items() if k != 'load_average')}; load average "
          f"{info['load_average'][0]:.2f} at the start")
    failed: list[str] = []
    models = MODELS[:1] if o.quick else MODELS
    r8 = r8_rows(o.archive, models)
    print("\n1. R8, train and test together, 3 % of the labels flipped (seed 0), 5-fold out-of-fold probabilities")
    print(r8_table(r8))
    for r in r8:
        ours, theirs = r["clfeval"]["f1"], r["cleanlab"]["f1"]
        met = "met" if ours >= theirs - F1_MARGIN else "NOT met"
        print(f"goal, {r['model']}: F1 ≥ cleanlab's − {F1_MARGIN} — {met} ({ours:.3f} vs {theirs:.3f})")
    n = 100_000 if o.quick else 1_000_000
    d = make_synthetic(n)
    warm = make_synthetic(20_000, seed=1)
    clfeval_rows(warm["probs"], warm["given"], list(range(10)))
    cleanlab_rows(warm["probs"], warm["given"])
    sp = race(d, o.repeat)
    print(f"\n2. {n:,} synthetic items × 10 classes, {len(d['flipped']):,} flipped; {o.repeat} alternating rounds")
    print(f"   clfeval  s (min/med) {min(sp['clfeval']):.3f}/{statistics.median(sp['clfeval']):.3f}; "
          f"F1 {sp['f1']['clfeval']:.3f}; {sp['flagged']['clfeval']:,} flagged")
    print(f"   cleanlab s (min/med) {min(sp['cleanlab']):.3f}/{statistics.median(sp['cleanlab']):.3f}; "
          f"F1 {sp['f1']['cleanlab']:.3f}; {sp['flagged']['cleanlab']:,} flagged; the two sets' Jaccard "
          f"{sp['jaccard']:.4f}")
    met = "met" if min(sp["ratio_min"], sp["ratio_median"]) >= SPEED_GOAL else "NOT met"
    print(f"goal: clfeval's time ≤ 1/{SPEED_GOAL:.0f} of cleanlab's — {met} ({sp['ratio_min']:.1f}× of the minima, "
          f"{sp['ratio_median']:.1f}× of the medians)")
    eng = engines_check(d, sp["rows"])
    for name in ("streamed", "dask"):
        e = eng[name]
        how = f"{e['mode']}, " if "mode" in e else ""
        print(f"check: {name} ({how}{e['seconds']:.1f} s) flags the same rows as in memory — "
              f"{'yes' if e['same'] else 'FAILED'}")
        if not e["same"]:
            failed.append(name)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    print(f"re-run on a quiet machine: {QUIET_RERUN}")
    if o.json:
        sp_out = {k: v for k, v in sp.items() if k != "rows"}
        with open(o.json, "w", encoding="utf-8") as f:
            json.dump({"versions": info, "repeat": o.repeat, "r8": r8, "speed": {"n": n, **sp_out},
                       "engines": eng, "command": QUIET_RERUN}, f, indent=1)
    if failed:
        print(f"label issues: {len(failed)} check(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
