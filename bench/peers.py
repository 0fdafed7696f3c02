"""clfeval raced against its peers (issue 40): the slice search against SliceLine, the by-group report against
fairlearn's ``MetricFrame`` and a pandas groupby.

One run, in one process; every input is built in memory before the clock starts (reading is not timed), each
tool is warmed up once on a small input (imports, caches), then the rounds alternate clfeval and its peer
(``--repeat`` rounds; in each, clfeval's call five times, each timed, then the peer's once) so that the load of
the machine hits both alike. The ratio is the peer's time over clfeval's, of the minima and of the medians.

Data: N rows, six categorical columns ``c0`` … ``c5`` of five values each (0…4, uniform), binary gold labels
(40 % positive) and predictions wrong at an error rate of 0.5 % except in the planted cross ``c0=1 ∧ c1=2``
(1/25 of the rows), where half of them are wrong. The contrast is this large because of SliceLine's score
alpha·(ē_S/ē − 1) − (1 − alpha)·(N/|S| − 1) with its default alpha 0.6: a slice of 1/25 of the rows starts at
−0.4·24 = −9.6, so only a slice about 17 times worse than average scores above zero at all (here about 20).

1. **The slice search**: ``clfeval.report(gold, pred, positive=1, find_slices={c0…c5}, find_metric="error_rate")``
   (the whole report: its tables, the 6 + 15 column sets = 405 slices tested against their rest, the
   Benjamini–Yekutieli adjustment, the parent and descendant rules) against
   ``sliceline.Slicefinder(k=5, max_l=2).fit(X, errors)`` (X: the six columns, errors: 1 where wrong).
   Checked: the planted cross is the FIRST slice clfeval finds, and is within SliceLine's top 5. SliceLine's
   optional numba (``sliceline[optimized]``; the header says whether it is there) speeds its scoring only: in a
   profile at 3e5 rows 90 % of its time was the scipy.sparse evaluation of the candidate slices (``_eval_slice``:
   the one-hot rows times the slices, compared with the level), which runs without numba either way.
2. **The by-group report**: ``clfeval.report(gold, pred, positive=1, by={"g": c5})`` (the whole report by slice:
   each group's table, metrics, tests and the fairness block) against fairlearn's
   ``MetricFrame(metrics={accuracy, precision, recall, F1, selection rate}, sensitive_features=c5)`` (the
   scikit-learn metrics and fairlearn's ``selection_rate``) and a pandas groupby summing TP, FP, FN, TN per
   group and computing the same five. Checked: MetricFrame's and pandas' per-group values equal clfeval's
   within 1e-12.

Goals at 1e6 rows (issue 40): the slice search ≥ 50× faster than SliceLine, the by-group report ≥ 100× faster
than MetricFrame. A goal unmet is printed (a loaded machine can miss it); a failed check exits 1.

Usage: python bench/peers.py [--quick] [--repeat 3] [--json FILE]
(``--quick``: 1e5 rows only; ``--json FILE``: every time measured, the ratios and the checks.)
Needs the ``bench`` extra: ``pip install -e ".[bench]"`` (sliceline, fairlearn, pandas).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import clfeval  # noqa: E402

COLUMNS = tuple(f"c{j}" for j in range(6))
CROSS = {"c0": 1, "c1": 2}
CROSS_NAME = "c0=1 ∧ c1=2"
GROUP = "c5"
#: The five per-group numbers, as clfeval's slice rows name them (selection rate: the fairness block's groups).
METRICS = {"accuracy": "accuracy", "precision": "precision:1", "recall": "recall:1", "f1": "f1:1",
           "selection_rate": "selection_rate"}
TOLERANCE = 1e-12
#: clfeval's calls per round (each timed).
INNER = 5
GOALS = {"slice search vs SliceLine": 50.0, "by-group vs MetricFrame": 100.0}
QUIET_RERUN = "PYTHONPATH=src python bench/peers.py --repeat 5 --json peers.json"


def make_data(n: int, seed: int = 40) -> dict[str, Any]:
    """The columns, gold labels and predictions of the module docstring (NumPy int64 arrays)."""
    rng = np.random.default_rng(seed)
    cols = {c: rng.integers(0, 5, n, dtype=np.int64) for c in COLUMNS}
    gold = (rng.random(n) < 0.4).astype(np.int64)
    cross = (cols["c0"] == CROSS["c0"]) & (cols["c1"] == CROSS["c1"])
    wrong = rng.random(n) < np.where(cross, 0.5, 0.005)
    pred = np.where(wrong, 1 - gold, gold)
    return {"cols": cols, "gold": gold, "pred": pred}


# --- clfeval ---------------------------------------------------------------------------------------------------

def clfeval_search(d: dict[str, Any]) -> list[str]:
    """The slices clfeval's search finds, in its order."""
    r = clfeval.report(d["gold"], d["pred"], positive=1, find_slices=d["cols"], find_metric="error_rate")
    assert r.find_slices is not None
    return [f.slice for f in r.find_slices.found]


def clfeval_groups(d: dict[str, Any]) -> dict[str, dict[str, float]]:
    """metric → group (as text) → value, from clfeval's report by group."""
    r = clfeval.report(d["gold"], d["pred"], positive=1, by={"g": d["cols"][GROUP]})
    sl = r.slices
    assert sl is not None and sl.fairness is not None
    out: dict[str, dict[str, float]] = {m: {} for m in METRICS}
    for row in sl.slices:
        for m, key in METRICS.items():
            if key != "selection_rate":
                out[m][str(row.slice)] = float(row.metrics[key])
    groups = sl.fairness["groups"]
    for g, v in zip(sl.fairness["groups_in_order"], groups["selection_rate"], strict=True):
        out["selection_rate"][str(g)] = float(v)
    return out


def search_check(found: list[str]) -> tuple[bool, str]:
    ok = bool(found) and found[0] == CROSS_NAME
    return ok, (f"cross 1st of {len(found)} found" if ok else f"FAILED: clfeval found {found[:3]} first")


# --- peers -----------------------------------------------------------------------------------------------------

def sliceline_inputs(d: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """SliceLine's inputs, built before the clock starts: the six columns side by side, 1 where wrong."""
    return np.column_stack([d["cols"][c] for c in COLUMNS]), (d["gold"] != d["pred"]).astype(np.int64)


def sliceline_top(x: np.ndarray, errors: np.ndarray) -> list[dict[str, Any]]:
    """SliceLine's top slices (at most 5), each as column → value."""
    from sliceline import Slicefinder

    with warnings.catch_warnings():  # "Numba JIT optimization not available": the header says whether it is
        warnings.simplefilter("ignore", UserWarning)
        sf = Slicefinder(k=5, max_l=2).fit(x, errors)
    return [{c: v for c, v in zip(COLUMNS, s, strict=True) if v is not None} for s in sf.top_slices_]


def sliceline_check(top: list[dict[str, Any]]) -> tuple[bool, str]:
    keys = [{c: int(v) for c, v in s.items()} for s in top]
    if CROSS in keys:
        return True, f"cross #{keys.index(CROSS) + 1} of SliceLine's {len(keys)}"
    return False, f"FAILED: not in SliceLine's top {len(keys)}: {keys}"


def frame_inputs(d: dict[str, Any]) -> Any:
    import pandas as pd

    return pd.DataFrame({"gold": d["gold"], "pred": d["pred"], "g": d["cols"][GROUP]})


def metricframe_groups(df: Any) -> dict[str, dict[str, float]]:
    """fairlearn's MetricFrame: the five metrics per group (scikit-learn's and fairlearn's definitions)."""
    from fairlearn.metrics import MetricFrame, selection_rate
    from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score

    mf = MetricFrame(metrics={"accuracy": accuracy_score, "precision": precision_score, "recall": recall_score,
                              "f1": f1_score, "selection_rate": selection_rate},
                     y_true=df["gold"], y_pred=df["pred"], sensitive_features=df["g"])
    by = mf.by_group
    return {m: {str(g): float(v) for g, v in by[m].items()} for m in METRICS}


def pandas_groups(df: Any) -> dict[str, dict[str, float]]:
    """A pandas groupby: TP, FP, FN, TN summed per group, the five metrics from them."""
    gold, pred = df["gold"].to_numpy() == 1, df["pred"].to_numpy() == 1
    c = df[["g"]].assign(tp=gold & pred, fp=~gold & pred, fn=gold & ~pred, tn=~gold & ~pred).groupby("g").sum()
    n = c["tp"] + c["fp"] + c["fn"] + c["tn"]
    out = {"accuracy": (c["tp"] + c["tn"]) / n, "precision": c["tp"] / (c["tp"] + c["fp"]),
           "recall": c["tp"] / (c["tp"] + c["fn"]), "f1": 2 * c["tp"] / (2 * c["tp"] + c["fp"] + c["fn"]),
           "selection_rate": (c["tp"] + c["fp"]) / n}
    return {m: {str(g): float(v) for g, v in s.items()} for m, s in out.items()}


def groups_check(ours: dict[str, dict[str, float]], theirs: dict[str, dict[str, float]]) -> tuple[bool, str]:
    """Every metric of every group equal within TOLERANCE (the same groups on both sides)."""
    worst = 0.0
    for m in METRICS:
        if set(ours[m]) != set(theirs[m]):
            return False, f"FAILED: groups differ for {m}: {sorted(ours[m])} vs {sorted(theirs[m])}"
        worst = max(worst, *(abs(ours[m][g] - theirs[m][g]) for g in ours[m]))
    ok = worst <= TOLERANCE
    return ok, f"{'' if ok else 'FAILED: '}max |Δ| {worst:.1e} over {len(ours['accuracy'])} groups × 5"


# --- the race --------------------------------------------------------------------------------------------------

def race(ours: Callable[[], Any], peer: Callable[[], Any], repeat: int, inner: int = INNER
         ) -> tuple[list[float], list[float], Any, Any]:
    """``repeat`` rounds, in each clfeval ``inner`` times (each call timed: a call of milliseconds is noisy, and
    costs nothing beside the peer's seconds) then the peer once; every time, and the last outputs."""
    a, b, out_a, out_b = [], [], None, None
    for _ in range(repeat):
        for _ in range(inner):
            t0 = time.perf_counter()
            out_a = ours()
            a.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        out_b = peer()
        b.append(time.perf_counter() - t0)
    return a, b, out_a, out_b


def run_size(n: int, repeat: int) -> list[dict[str, Any]]:
    d = make_data(n)
    x, errors = sliceline_inputs(d)
    df = frame_inputs(d)
    rows = []

    def row(what: str, ours: list[float], peer: list[float], check: tuple[bool, str]) -> None:
        rows.append({"rows": n, "what": what, "clfeval": ours, "peer": peer, "ok": check[0], "check": check[1],
                     "ratio_min": min(peer) / min(ours),
                     "ratio_median": statistics.median(peer) / statistics.median(ours)})

    a, b, found, top = race(lambda: clfeval_search(d), lambda: sliceline_top(x, errors), repeat)
    ok1, text1 = search_check(found)
    ok2, text2 = sliceline_check(top)
    row("slice search vs SliceLine", a, b, (ok1 and ok2, f"{text1}; {text2}"))
    a, b, ours, mf = race(lambda: clfeval_groups(d), lambda: metricframe_groups(df), repeat)
    row("by-group vs MetricFrame", a, b, groups_check(ours, mf))
    a, b, ours, pdg = race(lambda: clfeval_groups(d), lambda: pandas_groups(df), repeat)
    row("by-group vs pandas groupby", a, b, groups_check(ours, pdg))
    return rows


def warm_up() -> None:
    """Each tool once on a small input, untimed: imports, first-call caches."""
    d = make_data(20_000, seed=1)
    clfeval_search(d)
    clfeval_groups(d)
    sliceline_top(*sliceline_inputs(d))
    metricframe_groups(frame_inputs(d))
    pandas_groups(frame_inputs(d))


def table(rows: list[dict[str, Any]]) -> str:
    head = (f"{'rows':>9}  {'what':<27} {'clfeval s (min/med)':>20} {'peer s (min/med)':>18} "
            f"{'ratio (min/med)':>16}  check")
    lines = [head, "─" * len(head)]
    for r in rows:
        ours = f"{min(r['clfeval']):.4f}/{statistics.median(r['clfeval']):.4f}"
        peer = f"{min(r['peer']):.3f}/{statistics.median(r['peer']):.3f}"
        ratio = f"{r['ratio_min']:.0f}×/{r['ratio_median']:.0f}×"
        lines.append(f"{r['rows']:>9,}  {r['what']:<27} {ours:>20} {peer:>18} {ratio:>16}  {r['check']}")
    return "\n".join(lines)


def versions() -> dict[str, Any]:
    from importlib.metadata import version

    import fairlearn
    import pandas
    import sklearn
    from sliceline.slicefinder import is_numba_available

    return {"clfeval": clfeval.__version__, "sliceline": version("sliceline"), "fairlearn": fairlearn.__version__,
            "pandas": pandas.__version__, "scikit-learn": sklearn.__version__, "numpy": np.__version__,
            "sliceline_numba": is_numba_available(), "python": platform.python_version(),
            "cpus": os.cpu_count(), "load_average": list(os.getloadavg())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1e5 rows only")
    ap.add_argument("--repeat", type=int, default=3, help="alternating rounds per race (default 3)")
    ap.add_argument("--json", metavar="FILE", help="write every time measured, the ratios and the checks")
    o = ap.parse_args(argv)
    sizes = [100_000] if o.quick else [100_000, 1_000_000]
    info = versions()
    print(f"peers: {', '.join(f'{k} {v}' for k, v in info.items() if k != 'load_average')}; load average "
          f"{info['load_average'][0]:.2f} at the start; {o.repeat} alternating rounds per race")
    warm_up()
    rows = [r for n in sizes for r in run_size(n, o.repeat)]
    print(table(rows))
    for r in rows:
        goal = GOALS.get(r["what"])
        if goal is not None and r["rows"] == 1_000_000:
            met = "met" if r["ratio_min"] >= goal and r["ratio_median"] >= goal else "NOT met"
            print(f"goal at 1e6, {r['what']}: ≥ {goal:.0f}× — {met} ({r['ratio_min']:.0f}× of the minima, "
                  f"{r['ratio_median']:.0f}× of the medians)")
    spread = {who: max(max(r[who]) / statistics.median(r[who]) - 1 for r in rows) for who in ("peer", "clfeval")}
    print(f"quiet? {'yes' if spread['peer'] <= 0.1 else 'NO'}: the peers' slowest round within "
          f"{100 * spread['peer']:.0f} % of their median in the worst race (quiet: within 10 %), clfeval's within "
          f"{100 * spread['clfeval']:.0f} %; load average {os.getloadavg()[0]:.2f} at the end")
    print(f"re-run on a quiet machine: {QUIET_RERUN}")
    failed = [r for r in rows if not r["ok"]]
    if o.json:
        with open(o.json, "w", encoding="utf-8") as f:
            json.dump({"versions": info, "repeat": o.repeat, "rows": rows, "goals": GOALS, "command": QUIET_RERUN},
                      f, indent=1)
    if failed:
        print(f"peers: {len(failed)} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
