"""Two checkouts measured interleaved (issue 38's speed acceptance): the old and the new tree, the median of 3 runs
of each bench, and the ratio new / old of each headline number in a Markdown table.

Each bench runs as a subprocess of this venv's Python, with ``PYTHONPATH`` set to the tree's ``src``, from the NEW
checkout's ``bench/`` (a bench missing there from the OLD one's). The benches put ``<their folder>/../src`` first on
``sys.path`` themselves, which would measure whichever tree the script sits in: so each tree gets a folder of its
own, ``T/bench`` (a copy of the bench scripts) beside ``T/src`` (a link to the tree's ``src``), and the benches run
from there — the same scripts, each importing its own tree's clfeval (checked before the first run).

The runs interleave in ABBA order (old, new; new, old; old, new; ...), so that load from other processes falls on
both trees alike. The sizes are reduced (the whole run takes about 17 minutes on 2 cores, of which rank, cv and
delong about 7) and the same for both; where a bench repeats its jobs inside one run (``--repeat``), its own best
(or median) is what one run gives.
Every headline number is a time (lower is better); "within 15 %" means new / old <= 1.15. On a shared 2-core
machine the same tree measured against itself gave a few "NO"s (up to 1.6x on numbers below a second, with the load
average at 1-4): read the value of each run (written with ``--out``), and measure again, before calling one a
regression.

Usage: python bench/checkouts.py --old DIR --new DIR [--only NAME[,NAME]] [--repeats 3] [--out FILE.md]
       python bench/checkouts.py --list
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

#: new / old at most this: the acceptance's "within 15 % of before or better"
TOLERANCE = 1.15


@dataclass(frozen=True)
class Bench:
    """One bench run: its script, its (reduced) arguments, and the headline numbers read from its last JSON line
    (``key`` a dotted path into it, ``what`` its description in the table)."""

    name: str
    script: str
    args: tuple[str, ...]
    headlines: tuple[tuple[str, str], ...]
    #: how its numbers are read from its output: ``"json"`` (its last line of JSON) or the name of a ``TEXT`` entry
    #: (the benches that print a table only: a regular expression per headline over their text)
    reads: str = "json"


#: the benches that print text only (rank, cv, delong: their scripts are not changed): headline -> the pattern whose
#: group 1 is the number of seconds, over the script's output
TEXT: dict[str, dict[str, str]] = {
    "rank": {"frequentist": r"clfeval rank_scores \(bayes=False\):\s+([0-9.]+) s",
             "bayes": r"clfeval bayesrank:\s+([0-9.]+) s"},
    "cv": {"clfeval": r"clfeval cross_validate \(test and train metrics per fold\)\s+([0-9.]+)",
           "sklearn": r"scikit-learn cross_validate\(return_train_score=True, 3 scorers\)\s+([0-9.]+)"},
    "delong": {"delong": r"delong_test \(two systems\)\s+([0-9.]+)",
               "argsort": r"np\.argsort \(1e7 float64\)\s+([0-9.]+)"},
}


BENCHES = (
    Bench("report", "report_speed.py", ("--n", "5000000", "--repeat", "5", "--skip-sklearn", "--json"),
          (("report", "report(gold, pred).to_dict(), 5e6 int labels, best of 5, s"),
           ("read_report", "read Parquet + report, 5e6 string labels, best of 5, s"))),
    Bench("scale", "scale_speed.py", ("--n", "10000000", "--files", "10", "--skip-big", "--skip-compare",
                                      "--classes", "10000", "--classes-n", "500000", "--json"),
          (("report_parquet", "clfeval report DIR, 1e7 rows, 10 Parquet files, s"),
           ("report_csv", "clfeval report DIR, the same rows as CSV, s"),
           ("report_classes", "clfeval report, 10,000 labels over 5e5 items (CSV), s"),
           ("compare_classes", "clfeval compare of two such files, s"))),
    Bench("ranking", "ranking_speed.py", ("--n", "10000000", "--repeat", "3", "--skip-sklearn", "--no-scalar",
                                          "--json"),
          (("ranking", "ranking(...).roc_auc, .average_precision, 1e7 scores, best of 3, s"),)),
    Bench("cluster", "cluster_speed.py", ("--n", "3000000", "--files", "5", "--repeat", "3", "--json"),
          (("external", "exact AUC + AP streamed (RankingStore), 3e6 scores, s"),
           ("binned", "binned AUC + AP, 1,000 quantile bins, s"),
           ("dask_report", "Dask LocalCluster count report, median of 3, s"),
           ("dask_ranking", "Dask LocalCluster exact AUC + AP, median of 3, s"))),
    Bench("join", "join_speed.py", ("--n", "3000000", "--files", "5", "--repeat", "1"),
          (("seconds.local_3000000", "Local id join + joint counts, 3e6 items, s"),)),
    Bench("slices", "slices_speed.py", ("--n", "5000000", "--files", "10", "--repeat", "3", "--json"),
          (("plain", "clfeval report DIR, 5e6 rows, best of 3, s"),
           ("sliced", "clfeval report DIR --by seg, 5e6 rows, 1,000 slices, best of 3, s"),)),
    Bench("slices-search", "slices_speed.py", ("--search", "--n", "2000000", "--files", "10", "--repeat", "3",
                                               "--json"),
          (("search", "clfeval report DIR --find-slices c0..c9, 2e6 rows, best of 3, s"),)),
    Bench("errors", "errors_speed.py", ("--n", "20000", "--files", "4", "--json"),
          (("clfeval_errors.seconds", "error_analysis of 2e4 documents (Parquet, streamed), s"),)),
    Bench("significance", "significance_speed.py", ("--n", "1000000", "--samples", "10000", "--index-samples", "1",
                                                    "--repeat", "3", "--json"),
          (("compare_macro_f1", "compare(metric=macro_f1, samples=10000), 1e6 items, best of 3, s"),
           ("compare_accuracy", "compare(metric=accuracy, samples=10000), 1e6 items, best of 3, s"))),
    Bench("compare-by", "compare_by_speed.py", ("--n", "500000", "--slices", "1000", "--files", "4", "--repeat", "2",
                                                "--json"),
          (("plain", "clfeval compare A B (ids), 5e5 items, best of 2, s"),
           ("sliced", "clfeval compare A B --by seg, 5e5 items, 1,000 slices, best of 2, s"))),
    Bench("latency", "latency.py", ("--runs", "5", "--module", "--json", "--only", "version", "report 1,000 rows"),
          (("clfeval --version", "python -m clfeval --version, median of 5, s"),
           ("report 1,000 rows", "python -m clfeval report (1,000-row CSV), median of 5, s"),
           ("report 1,000 rows --format html", "the same --format html, median of 5, s"))),
    # issue 39: the three benches of the operations it makes (text output, read by TEXT's patterns)
    Bench("rank", "rank_speed.py", ("--systems", "50", "--datasets", "200", "--pairs", "4", "--samples", "20000",
                                    "--repeat", "3"),
          (("frequentist", "rank_scores(bayes=False), 50 systems x 200 data sets (1,225 pairs), best of 3, s"),
           ("bayes", "Bayesian signed-rank, 4 pairs x 200 data sets, 20,000 samples, best of 3, s")), "rank"),
    Bench("cv", "cv_speed.py", ("--n", "8000", "--folds", "10", "--repeats", "2"),
          (("clfeval", "cross_validate, NB, 8,000 documents, 10 folds, best of 2, s"),
           ("sklearn", "scikit-learn's cross_validate on the same folds (the reference, not clfeval), s")), "cv"),
    Bench("delong", "delong_speed.py", ("--n", "5000000", "--repeat", "3"),
          (("delong", "delong_test, two systems, 5e6 scores, best of 3, s"),
           ("argsort", "np.argsort of 5e6 float64 (the reference, not clfeval), s")), "delong"),
)


# --- the table: pure functions (tested in tests/project/test_bench_checkouts.py) -------------------------------------

def headline(measured: dict, key: str) -> float:
    """The number at the dotted path ``key`` of a bench's JSON (``"seconds.local_2000000"``)."""
    value: object = measured
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise KeyError(f"{key!r}: no {part!r} in the bench's JSON")
        value = value[part]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{key!r}: expected a number, got {value!r}")
    return float(value)


def last_json(stdout: str) -> dict:
    """The last line of ``stdout`` that is a JSON object (the benches print it last; earlier lines are text)."""
    for line in reversed(stdout.splitlines()):
        line = line.strip()
        if line.startswith("{") and line.endswith("}"):
            try:
                out = json.loads(line)
            except ValueError:
                continue
            if isinstance(out, dict):
                return out
    raise ValueError("no line of JSON in the bench's output")


def text_numbers(stdout: str, patterns: dict[str, str]) -> dict:
    """The headlines of a bench that prints text: ``{key: seconds}`` for each pattern found in ``stdout`` (a pattern
    not found is left out, so its headline reads as a failed run)."""
    out = {}
    for key, pattern in patterns.items():
        m = re.search(pattern, stdout)
        if m:
            out[key] = float(m.group(1))
    if not out:
        raise ValueError("none of the bench's numbers in its output")
    return out


def order(repeat: int) -> tuple[str, str]:
    """ABBA: old first in even rounds, new first in odd ones."""
    return ("old", "new") if repeat % 2 == 0 else ("new", "old")


@dataclass(frozen=True)
class Row:
    bench: str
    what: str
    old: list[float]
    new: list[float]

    @property
    def old_median(self) -> float | None:
        return statistics.median(self.old) if self.old else None

    @property
    def new_median(self) -> float | None:
        return statistics.median(self.new) if self.new else None

    @property
    def ratio(self) -> float | None:
        o, n = self.old_median, self.new_median
        return None if o is None or n is None or o <= 0 else n / o


def rows_of(benches: tuple[Bench, ...] | list[Bench], results: dict[tuple[str, str], list[dict]]) -> list[Row]:
    """A row per headline of each bench, from ``results[(bench, tree)]``: the JSON of each successful run."""
    rows = []
    for b in benches:
        for key, what in b.headlines:
            vals = {tree: [headline(m, key) for m in results.get((b.name, tree), []) if _has(m, key)]
                    for tree in ("old", "new")}
            rows.append(Row(b.name, what, vals["old"], vals["new"]))
    return rows


def _has(measured: dict, key: str) -> bool:
    try:
        headline(measured, key)
    except KeyError:
        return False
    return True


def _seconds(x: float | None) -> str:
    return "failed" if x is None else f"{x:.3f}"


def markdown(rows: list[Row], tolerance: float = TOLERANCE) -> str:
    """The table: bench | what | old median | new median | new/old | within 15 %?"""
    pct = round((tolerance - 1) * 100)
    lines = [f"| bench | what | old median | new median | new/old | within {pct} %? |",
             "|---|---|---:|---:|---:|---|"]
    for r in rows:
        ratio = r.ratio
        ok = "—" if ratio is None else ("yes" if ratio <= tolerance else "**NO**")
        lines.append(f"| {r.bench} | {r.what} | {_seconds(r.old_median)} | {_seconds(r.new_median)} | "
                     f"{'—' if ratio is None else f'{ratio:.2f}'} | {ok} |")
    return "\n".join(lines) + "\n"


def select(names: str | None) -> list[Bench]:
    if not names:
        return list(BENCHES)
    wanted = [x.strip() for x in names.split(",") if x.strip()]
    known = {b.name: b for b in BENCHES}
    unknown = [x for x in wanted if x not in known]
    if unknown:
        raise SystemExit(f"--only: unknown bench(es) {', '.join(unknown)}; expected some of {', '.join(known)}")
    return [known[x] for x in wanted]


# --- running ---------------------------------------------------------------------------------------------------

def stage(root: str, label: str, tree: str, new_bench: str, old_bench: str) -> str:
    """``root/label`` with ``bench/`` (the NEW checkout's scripts, the OLD one's where the new lacks one) and
    ``src`` linked to the tree's ``src``; its path."""
    home = os.path.join(root, label)
    os.makedirs(os.path.join(home, "bench"))
    for folder in (old_bench, new_bench):  # the new tree's copies overwrite the old's
        for f in os.listdir(folder):
            if f.endswith(".py"):
                shutil.copy2(os.path.join(folder, f), os.path.join(home, "bench", f))
    os.symlink(os.path.join(tree, "src"), os.path.join(home, "src"))
    return home


def environment(tree: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(tree, "src")
    return env


def check_imports(home: str, tree: str) -> str:
    """The clfeval a bench in ``home`` imports must be the tree's."""
    code = ("import sys; sys.path.insert(0, 'src'); import clfeval, os; "
            "print(os.path.realpath(clfeval.__file__))")
    got = subprocess.run([sys.executable, "-c", code], cwd=home, env=environment(tree), capture_output=True,
                         text=True, check=False).stdout.strip()
    want = os.path.realpath(os.path.join(tree, "src", "clfeval", "__init__.py"))
    if got != want:
        raise SystemExit(f"{home}: imports clfeval from {got or 'nowhere'}, expected {want}")
    mod = subprocess.run([sys.executable, "-c", "import clfeval, os; print(os.path.realpath(clfeval.__file__))"],
                         cwd=home, env=environment(tree), capture_output=True, text=True, check=False).stdout.strip()
    if mod != want:  # what ``python -m clfeval`` (latency.py --module) imports
        raise SystemExit(f"{home}: python imports clfeval from {mod or 'nowhere'} (PYTHONPATH), expected {want}")
    return got


def run_bench(b: Bench, home: str, tree: str, log) -> tuple[dict | None, float]:
    """One run: the bench's JSON (None when it failed) and its wall time."""
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, os.path.join(home, "bench", b.script), *b.args], cwd=home,
                         env=environment(tree), capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        log(f"    FAILED (exit {out.returncode}):\n{out.stderr[-3000:]}")
        return None, wall
    try:
        return (last_json(out.stdout) if b.reads == "json" else text_numbers(out.stdout, TEXT[b.reads])), wall
    except ValueError as exc:
        log(f"    FAILED: {exc}; its output ends:\n{out.stdout[-2000:]}")
        return None, wall


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="the old checkout (its src/ is imported)")
    ap.add_argument("--new", help="the new checkout (its bench/ scripts run)")
    ap.add_argument("--only", default=None, help="NAME[,NAME]: these benches only (--list names them)")
    ap.add_argument("--repeats", type=int, default=3, help="runs of each bench on each tree (the median counts)")
    ap.add_argument("--out", default=None, help="also write the table (and the run's details) to this file")
    ap.add_argument("--list", action="store_true", help="name the benches, their arguments and headlines")
    a = ap.parse_args(argv)
    if a.list:
        for b in BENCHES:
            print(f"{b.name:14} {b.script} {' '.join(b.args)}")
            for key, what in b.headlines:
                print(f"{'':14}   {key}: {what}")
        return
    if not a.old or not a.new:
        ap.error("--old DIR and --new DIR are required")
    if a.repeats < 1:
        ap.error("--repeats must be at least 1")
    trees = {"old": os.path.realpath(a.old), "new": os.path.realpath(a.new)}
    for label, tree in trees.items():
        if not os.path.isdir(os.path.join(tree, "src", "clfeval")):
            ap.error(f"--{label} {a.old if label == 'old' else a.new}: no src/clfeval in it")
    benches = select(a.only)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    start, load = time.perf_counter(), os.getloadavg()[0]
    root = tempfile.mkdtemp(prefix="clfeval-checkouts-")
    results: dict[tuple[str, str], list[dict]] = {}
    walls: dict[tuple[str, str], list[float]] = {}
    try:
        homes = {label: stage(root, label, tree, os.path.join(trees["new"], "bench"),
                              os.path.join(trees["old"], "bench")) for label, tree in trees.items()}
        for label in trees:
            log(f"{label}: {trees[label]} (clfeval from {check_imports(homes[label], trees[label])})")
        for b in benches:
            if not os.path.exists(os.path.join(homes["new"], "bench", b.script)):
                log(f"{b.name}: {b.script} in neither checkout; skipped")
                continue
            for r in range(a.repeats):
                for label in order(r):
                    log(f"{b.name} [{label}] run {r + 1}/{a.repeats} ...")
                    measured, wall = run_bench(b, homes[label], trees[label], log)
                    walls.setdefault((b.name, label), []).append(wall)
                    if measured is not None:
                        results.setdefault((b.name, label), []).append(measured)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    total = time.perf_counter() - start
    rows = rows_of(benches, results)
    table = markdown(rows)
    head = (f"old: {trees['old']}\nnew: {trees['new']}\n"
            f"median of {a.repeats} runs each, interleaved (ABBA); total wall time {total / 60:.1f} min "
            f"on {os.cpu_count()} cores (load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end)\n")
    print(head)
    print(table)
    if a.out:
        per_run = "\n".join(f"- {name} [{label}]: " + ", ".join(f"{w:.1f}" for w in ws) + " s wall"
                            for (name, label), ws in walls.items())
        with open(a.out, "w", encoding="utf-8") as f:
            values = "\n".join(f"- {r.bench}, {r.what}: old " + ", ".join(f"{x:.3f}" for x in r.old) + "; new "
                               + ", ".join(f"{x:.3f}" for x in r.new) for r in rows)
            f.write(head + "\n" + table + "\nthe value of each run (in the order run):\n\n" + values
                    + "\n\nwall time of each run:\n\n" + per_run + "\n")


if __name__ == "__main__":
    main()
