"""Time and size of the notebook cards (issue 37): ``result._repr_html_()`` of every result of the front door.

1. The card of a report of 2,000 classes (the hostile case P25: 20,000 items, half of them right, the other half a
   class drawn at random), in a fresh interpreter: the report is made once and its card rendered once (Jinja2
   imported, the template compiled), then ``--repeats`` (default 5) cards and as many baselines in turn, the
   median of each. The baseline, measured in the same run, is writing the report's JSON (``r.to_dict()`` then
   ``json.dumps``). Target: the card ≤ 0.5 s (the report's own time is not counted).
2. The size of the card of one instance of each kind of result (``clfeval.report`` plain, with scores, ``by=``,
   ``find_slices=``, multi-label; ``clfeval.compare`` of each kind; ``clfeval.threshold`` of one column, one cut
   per label, by slice; ``clfeval.calibration`` plain and by slice; ``clfeval.ranking``, ``ranking_ovr``,
   ``error_analysis``, ``rank``), from the small files of docs/examples/ (the calls of docs/guide/), and of the
   2,000-class report. Target: every card ≤ 20 KB.

Exits non-zero when a target is missed.

Usage: python bench/card_speed.py [--classes 2000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import _child
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
BUDGET = 0.5
MAX_BYTES = 20_000


def hostile(k: int) -> tuple[np.ndarray, np.ndarray]:
    """P25: 20,000 items over ``k`` classes, half right, the other half a class at random."""
    rng = np.random.default_rng(0)
    g = rng.integers(0, k, 20000)
    p = np.where(rng.random(20000) < .5, g, rng.integers(0, k, 20000))
    return g, p


def card_time(k: int, repeats: int) -> dict[str, Any]:
    """(job) The report of ``k`` classes made once; its card and its JSON timed in turn, ``repeats`` times each."""
    import clfeval

    g, p = hostile(k)
    t = time.perf_counter()
    rep = clfeval.report(g, p)
    made = time.perf_counter() - t
    t = time.perf_counter()
    card = rep._repr_html_()  # first render: Jinja2 imported, the template compiled
    first = time.perf_counter() - t
    times: dict[str, list[float]] = {"card": [], "json": []}
    for _ in range(repeats):
        for name, fn in (("card", rep._repr_html_), ("json", lambda: json.dumps(rep.to_dict()))):
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    return {"report": made, "first": first, "card": statistics.median(times["card"]),
            "json": statistics.median(times["json"]),
            "bytes": len(card.encode("utf-8"))}


def instances() -> Iterator[tuple[str, Callable[[], Any]]]:
    """One result of each kind, from docs/examples (and small arrays where the examples have no such column)."""
    import clfeval

    e = str(EXAMPLES) + os.sep
    rng = np.random.default_rng(1)
    n = 300
    g = rng.integers(0, 3, n)
    s = rng.random((n, 3))
    s[np.arange(n), g] += .5
    s /= s.sum(1, keepdims=True)
    labs = np.array(["a", "b", "c"])
    sets = ["|".join(lab for i, lab in enumerate(labs) if s[j, i] + rng.random() * .3 > .45) for j in range(n)]
    tmp = tempfile.mkdtemp()
    with open(os.path.join(tmp, "sets.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["gold", *(f"s:{lab}" for lab in labs)])
        w.writerows([sets[j], *s[j].round(4)] for j in range(n))
    ovr = {lab: s[:, i] for i, lab in enumerate(labs)}
    noisy = {lab: s[:, i] + rng.normal(0, .2, n) for i, lab in enumerate(labs)}
    yield "report", lambda: clfeval.report(e + "mails.csv", positive="spam")
    yield "report, scores", lambda: clfeval.report(e + "mails.csv", score="score", positive="spam")
    yield "report, by=", lambda: clfeval.report(e + "sources.csv", by="source", positive="spam")
    yield "report, find_slices=", lambda: clfeval.report(e + "sources.csv", find_slices=["source", "lang"],
                                                         positive="spam")
    yield "report, multi-label", lambda: clfeval.report(e + "topics.csv", multilabel=True)
    yield "compare pair", lambda: clfeval.compare(e + "mails.csv", e + "old.csv", samples=1000)
    yield "compare many", lambda: clfeval.compare(e + "mails.csv", e + "old.csv", e + "mails.csv", samples=500,
                                                  names=["new", "old", "copy"])
    yield "compare sliced", lambda: clfeval.compare(e + "sources.csv", e + "sources.csv", by="source", samples=200,
                                                    min_slice=5)
    yield "compare delong", lambda: clfeval.compare(g == 0, s[:, 0], noisy["a"], metric="roc_auc", test="delong",
                                                    positive=True)
    yield "compare delong_ovr", lambda: clfeval.compare(labs[g], ovr, noisy, metric="roc_auc", test="delong")
    yield "compare noninferiority", lambda: clfeval.compare(e + "mails.csv", e + "old.csv", margin=0.05,
                                                            samples=1000)
    yield "threshold", lambda: clfeval.threshold(e + "mails.csv", dev=e + "dev.csv", score="score", positive="spam")
    yield "threshold, labels_cuts", lambda: clfeval.threshold(os.path.join(tmp, "sets.csv"), scores_prefix="s:",
                                                              multilabel=True)
    yield "threshold, by=", lambda: clfeval.threshold(np.where(g == 0, "y", "n"), s[:, 0],
                                                      dev=(np.where(g[::-1] == 0, "y", "n"), s[::-1, 0]),
                                                      positive="y", by={"src": rng.choice(["x", "y", "z"], n)},
                                                      min_slice=10)
    yield "calibration", lambda: clfeval.calibration(e + "mails.csv", prob="score", positive="spam", bins=5)
    yield "calibration, by=", lambda: clfeval.calibration(labs[g], s[:, 0], positive="a", bins=5, min_slice=10,
                                                          by={"src": rng.choice(["x", "y"], n)})
    yield "ranking", lambda: clfeval.ranking(e + "mails.csv", score="score", positive="spam")
    yield "ranking_ovr", lambda: clfeval.ranking_ovr(labs[g], ovr)
    yield "error_analysis", lambda: clfeval.error_analysis(e + "genres.csv", id="id", text="text", min_count=3)
    yield "rank", lambda: clfeval.rank(e + "demsar.csv", metric="roc_auc", bayes=False)


def card_sizes() -> dict[str, Any]:
    """(job) The size in bytes of the card of each instance."""
    import warnings

    warnings.simplefilter("ignore")
    return {"sizes": {name: len(make()._repr_html_().encode("utf-8")) for name, make in instances()}}


JOBS = {"time": card_time, "sizes": card_sizes}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--classes", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    ok = True
    t = _child.run("card_speed", "time", (a.classes, a.repeats))
    print(f"notebook card of a report of {a.classes:,} classes (P25: 20,000 items), median of {a.repeats}, "
          f"one fresh process (report made in {t['report']:.2f} s, not counted)")
    met = t["card"] <= BUDGET
    ok &= met
    print(f"  card {t['card'] * 1000:.1f} ms (budget {BUDGET * 1000:.0f} ms): {'met' if met else 'NOT met'}; "
          f"JSON (to_dict + json.dumps) {t['json'] * 1000:.1f} ms: card/JSON {t['card'] / t['json']:.2f}×")
    print(f"  the first card of the process (Jinja2 imported, the template compiled): {t['first'] * 1000:.0f} ms")
    sizes = dict(_child.run("card_speed", "sizes", ())["sizes"])
    sizes[f"report, {a.classes:,} classes"] = t["bytes"]
    print(f"card sizes (target ≤ {MAX_BYTES:,} bytes each)")
    for name, size in sizes.items():
        met = size <= MAX_BYTES
        ok &= met
        print(f"  {name:28s} {size:7,} bytes{'' if met else '  NOT met'}")
    print("all targets met" if ok else "a target is NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
