"""Each statistic once (issue 39): no module outside ``clfeval/stats/`` draws a resample.

Walks every call ``<anything>.<draw>(...)`` of the package (statically, with ast), where ``<draw>`` is one of
NumPy's generator methods that resample items or cells. A module that draws for another reason is listed in
``NOT_A_RESAMPLE`` with the reason; ``TO_CONVERT`` lists the modules that still draw their own (issue 39's work
in progress: it must end empty).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "clfeval"

DRAWS = {"multinomial", "binomial", "hypergeometric", "multivariate_hypergeometric", "dirichlet", "choice",
         "integers", "permutation", "shuffle", "random", "permuted"}

NOT_A_RESAMPLE = {
    "protocols/_splits.py": "assigns items to folds and splits (a protocol, not a resample of a statistic)",
    "studies/_demo_report.py": "draws the demo's synthetic data set",
    "core/_latticecount.py": "tries a few random orders of the slice planner's greedy blocks (random.Random(0))",
    "plots/_resampling.py": "jitters the dots of a figure",
    "core/_ranksummary.py": "calls a catalogue entry's `random` (the chance baseline's value), no generator",
}

TO_CONVERT = {
    "significance/_slices.py": "slicing",
    "significance/_fairness.py": "slicing",
    "significance/_slicetests.py": "slicing",
}


def drawing_calls(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, method) of every ``x.<draw>(...)`` call."""
    return [(n.lineno, n.func.attr) for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in DRAWS]


def modules_drawing() -> dict[str, list[tuple[int, str]]]:
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("stats/"):
            continue
        calls = drawing_calls(ast.parse(path.read_text(encoding="utf-8")))
        if calls:
            out[rel] = calls
    return out


def test_no_module_outside_stats_draws_a_resample() -> None:
    found = modules_drawing()
    unexplained = {m: c for m, c in found.items() if m not in NOT_A_RESAMPLE and m not in TO_CONVERT}
    assert not unexplained, ("these modules draw resamples outside clfeval/stats/ (move the draw into a statistic "
                             f"there and call it): {unexplained}")


def test_the_lists_name_only_modules_that_still_draw() -> None:
    found = modules_drawing()
    stale = sorted(m for m in {**NOT_A_RESAMPLE, **TO_CONVERT} if m not in found)
    assert not stale, f"listed but no longer drawing (remove them from the lists): {stale}"


def test_the_walk_sees_a_draw() -> None:
    """The rule can fail: a probe module's draws are found, a docstring's are not."""
    probe = ast.parse('"""rng.multinomial(3, p) in a docstring"""\n'
                      "def f(rng, n):\n    return rng.integers(0, n, size=n), g.choice(3)\n")
    assert drawing_calls(probe) == [(3, "integers"), (3, "choice")]


def test_stats_draws() -> None:
    """The stats folder is where the draws are."""
    assert drawing_calls(ast.parse((SRC / "stats" / "_tables.py").read_text(encoding="utf-8")))
