"""Issue 39: one 2 × 2 slice-vs-rest test (``clfeval.stats.two_by_two``) for the report's slice tests and the slice
search. Oracles: SciPy's ``chi2_contingency`` (no continuity correction) and ``fisher_exact``, statsmodels'
``proportions_ztest``."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from clfeval.stats import two_by_two

SRC = Path(__file__).resolve().parents[2] / "src" / "clfeval"


def test_two_sided_is_pearsons_chi_square_or_fisher():
    from scipy.stats import chi2_contingency, fisher_exact

    s1, n1 = np.array([40, 3, 0, 7]), np.array([100, 9, 20, 0])
    s2, n2 = np.array([60, 30, 0, 5]), np.array([100, 40, 30, 9])
    p, how = two_by_two(s1, n1, s2, n2)
    assert how == ["chi2", "fisher", "chi2", "untestable"]
    assert p[0] == pytest.approx(chi2_contingency([[40, 60], [60, 40]], correction=False)[1], rel=1e-12)
    assert p[1] == pytest.approx(fisher_exact([[3, 6], [30, 10]])[1], rel=1e-12)
    assert p[2] == 1.0 and np.isnan(p[3])


@pytest.mark.parametrize("alternative", ["less", "greater"])
def test_one_sided_is_the_pooled_z_test(alternative):
    from statsmodels.stats.proportion import proportions_ztest

    p, _ = two_by_two(np.array([45]), np.array([120]), np.array([300]), np.array([600]), alternative)
    want = proportions_ztest([45, 300], [120, 600], alternative="smaller" if alternative == "less" else "larger")[1]
    assert p[0] == pytest.approx(want, rel=1e-10)


def test_the_slice_modules_call_the_one_test():
    """No slice module computes a 2 × 2 test of its own: none imports fisher_exact, and the report's tests, the
    search and its parent rule call two_by_two."""
    callers = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        if "fisher_exact" in names:
            assert rel == "stats/_twobytwo.py", rel
        if "two_by_two" in names:
            callers.append(rel.rsplit("/", 1)[-1])
    assert {"_slices.py", "_slicefind.py", "_slicedescend.py"} <= set(callers)
