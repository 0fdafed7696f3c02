"""Start-up latency of the command line (issue 23): each command in a fresh interpreter, the median of 7 runs,
every ratio against floors measured in the same run (the rounds interleave every command, so that load from
other processes falls on all of them alike).

Floors: ``python -c "import click"`` (what any click program pays) and ``python -c "import numpy,
pyarrow.csv"`` (what reading a CSV into arrays pays). Goals:

* ``clfeval --version`` and ``clfeval --help`` ≤ 1.5× the click floor;
* ``clfeval report`` of a 1,000-row CSV (text) ≤ 1.5× the NumPy + pyarrow floor;
* every ``clfeval demo MODE`` and ``clfeval power A B`` (1,000 rows) ≤ 3× that floor;
* ``clfeval report --format html`` of the 1,000-row CSV ≤ 6× that floor (issue 40; 10× before), with every figure
  the page had: the confusion matrix, precision/recall/F1 per class and the φ–δ diagram.

Each row shows the median and the min of its runs and their ratios to the floor's median and min; a goal holds
when the ratio of the medians does. The run is *quiet* when every run of the NumPy + pyarrow floor is within 10 %
of that floor's median (said on the last lines, with the command that re-measures on a quiet machine). CPU
seconds (user + system of the child) are shown beside wall seconds: on a loaded machine they move less.

Profile a slow one with ``python -X importtime -m clfeval ...``.

Usage: python bench/latency.py [--runs 7] [--only NAME ...] [--report-rows] [--quick] [--module] [--json]
``--report-rows``: the floors and the two rows of issue 40 only (``report`` of 1,000 rows as text and as HTML);
``--quick``: 3 runs; ``--module`` runs ``python -m clfeval`` (the clfeval of PYTHONPATH) instead of the venv's
console script; ``--json``: a last line of JSON with the median seconds of each command, read by
``bench/checkouts.py``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

DEMO_MODES = ("report", "trap", "matrix", "read", "averages", "threshold", "calibration", "bootstrap", "cv")


def write_csv(path: Path, gold: list[str], pred: list[str]) -> None:
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "gold", "pred"])
        w.writerows((i, g, p) for i, (g, p) in enumerate(zip(gold, pred, strict=False)))


def inputs(tmp: Path, n: int = 1000, k: int = 10, seed: int = 0) -> tuple[Path, Path]:
    rng = random.Random(seed)
    gold = [f"class{rng.randrange(k)}" for _ in range(n)]
    a = [g if rng.random() < 0.8 else f"class{rng.randrange(k)}" for g in gold]
    b = [g if rng.random() < 0.75 else f"class{rng.randrange(k)}" for g in gold]
    write_csv(tmp / "a.csv", gold, a)
    write_csv(tmp / "b.csv", gold, b)
    return tmp / "a.csv", tmp / "b.csv"


def commands(tmp: Path, module: bool = False) -> dict[str, tuple[list[str], str, float]]:
    """name → (argv, floor, goal as a multiple of the floor)."""
    a, b = inputs(tmp)
    py = sys.executable
    script = Path(sys.executable).with_name("clfeval")  # the console script, as a user runs it
    cli = [str(script)] if script.exists() and not module else [py, "-m", "clfeval"]
    out: dict[str, tuple[list[str], str, float]] = {
        "floor: import click": ([py, "-c", "import click"], "", 0),
        "floor: import numpy, pyarrow.csv": ([py, "-c", "import numpy, pyarrow.csv"], "", 0),
        "clfeval --version": ([*cli, "--version"], "click", 1.5),
        "clfeval --help": ([*cli, "--help"], "click", 1.5),
        "report 1,000 rows": ([*cli, "report", str(a)], "numpy", 1.5),
        "power A B (1,000 rows)": ([*cli, "power", str(a), str(b)], "numpy", 3),
        "report 1,000 rows --format html": ([*cli, "report", str(a), "--format", "html"], "numpy", 6),
    }
    for mode in DEMO_MODES:
        out[f"demo {mode}"] = ([*cli, "demo", mode], "numpy", 3)
    return out


#: The children write and use bytecode caches, as an installed package does (PYTHONDONTWRITEBYTECODE dropped).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


#: The rows of issue 40 (``--report-rows``): the floors and the report as text and as HTML.
REPORT_ROWS = ("floor: import click", "floor: import numpy, pyarrow.csv", "report 1,000 rows",
               "report 1,000 rows --format html")
#: A run is quiet when every run of this floor is within this fraction of the floor's median.
QUIET = 0.10


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(argv: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one fresh process."""
    cpu, t = _cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, cwd=ROOT, env=ENV)
    wall = time.perf_counter() - t
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
    return wall, _cpu() - cpu


def quiet(floor: list[float]) -> tuple[bool, float]:
    """(quiet, largest deviation): every run of the floor within ``QUIET`` of its median."""
    med = statistics.median(floor)
    worst = max(abs(t / med - 1) for t in floor)
    return worst <= QUIET, worst


def rerun_command() -> str:
    """The command that re-measures the two rows of issue 40 on a quiet machine (the clfeval of this tree)."""
    return f"cd {ROOT} && PYTHONPATH={ROOT / 'src'} {sys.executable} bench/latency.py --report-rows --runs 15"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--only", nargs="*", default=None, help="names (substrings) of the commands to time")
    ap.add_argument("--report-rows", action="store_true", help="the floors and the report as text and HTML only")
    ap.add_argument("--quick", action="store_true", help="3 runs")
    ap.add_argument("--module", action="store_true", help="python -m clfeval instead of the console script")
    ap.add_argument("--json", action="store_true", help="a last line of JSON with the median seconds")
    args = ap.parse_args()
    runs = 3 if args.quick else args.runs
    with tempfile.TemporaryDirectory() as d:
        cmds = commands(Path(d), module=args.module)
        if args.report_rows:
            cmds = {k: v for k, v in cmds.items() if k in REPORT_ROWS}
        if args.only:
            cmds = {k: v for k, v in cmds.items() if k.startswith("floor") or any(o in k for o in args.only)}
        walls: dict[str, list[float]] = {name: [] for name in cmds}
        cpus: dict[str, list[float]] = {name: [] for name in cmds}
        for argv, _, _ in cmds.values():  # one warm-up run each (file caches, .pyc)
            run_once(argv)
        for _ in range(runs):  # the rounds alternate every command
            for name, (argv, _, _) in cmds.items():
                wall, cpu = run_once(argv)
                walls[name].append(wall)
                cpus[name].append(cpu)
    med = {name: statistics.median(t) for name, t in walls.items()}
    low = {name: min(t) for name, t in walls.items()}
    cmed = {name: statistics.median(t) for name, t in cpus.items()}
    floor_of = {"click": "floor: import click", "numpy": "floor: import numpy, pyarrow.csv"}
    print(f"{runs} rounds of fresh interpreters, alternating ({sys.executable}, Python {sys.version.split()[0]})")
    print(f"{'command':38} {'median s':>9} {'min s':>7} {'cpu s':>7} {'ratio med':>9} {'ratio min':>9} "
          f"{'ratio cpu':>9} {'goal':>6}  holds")
    failed = 0
    for name, (_, floor, goal) in cmds.items():
        if not floor:
            print(f"{name:38} {med[name]:9.3f} {low[name]:7.3f} {cmed[name]:7.3f}")
            continue
        f = floor_of[floor]
        ratio = med[name] / med[f]
        ok = ratio <= goal
        failed += not ok
        print(f"{name:38} {med[name]:9.3f} {low[name]:7.3f} {cmed[name]:7.3f} {ratio:8.2f}x "
              f"{low[name] / low[f]:8.2f}x {cmed[name] / cmed[f]:8.2f}x {goal:5.1f}x  {'yes' if ok else 'NO'}")
    print(f"{failed} goal(s) missed" if failed else "every goal holds")
    is_quiet, worst = quiet(walls["floor: import numpy, pyarrow.csv"])
    print(f"quiet run: {'yes' if is_quiet else 'NO'} (the NumPy + pyarrow floor's runs within {worst:.0%} of their "
          f"median; quiet: within {QUIET:.0%}; load average {os.getloadavg()[0]:.2f} at the end)")
    print(f"re-measure on a quiet machine: {rerun_command()}")
    if args.json:
        print(json.dumps(med))


if __name__ == "__main__":
    main()
