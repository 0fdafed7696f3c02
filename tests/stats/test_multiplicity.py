"""Holm and Benjamini–Yekutieli, defined once in clfeval.stats._multiplicity (issue 39), against statsmodels'
``multipletests`` (an independent implementation), and the callers that must use them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from clfeval.stats import benjamini_yekutieli, holm

FAMILIES = [
    [0.01, 0.04, 0.03],
    [0.2, 0.001, 0.05, 0.05, 0.9, 0.011],
    [1.0, 1.0],
    [0.5],
    list(np.random.default_rng(7).uniform(0, 0.2, size=25)),
]


@pytest.mark.parametrize("p", FAMILIES)
def test_holm_equals_statsmodels(p):
    ref = multipletests(p, method="holm")[1]
    assert holm(p) == pytest.approx(ref, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("p", FAMILIES)
def test_by_equals_statsmodels(p):
    ref = multipletests(p, method="fdr_by")[1]
    assert benjamini_yekutieli(p) == pytest.approx(ref, rel=1e-12, abs=1e-15)


def test_nan_stays_nan_and_does_not_count():
    p = [0.01, math.nan, 0.04, 0.03]
    got_h, got_b = holm(p), benjamini_yekutieli(p)
    assert math.isnan(got_h[1]) and math.isnan(got_b[1])
    keep = [0, 2, 3]
    assert got_h[keep] == pytest.approx(multipletests([0.01, 0.04, 0.03], method="holm")[1])
    assert got_b[keep] == pytest.approx(multipletests([0.01, 0.04, 0.03], method="fdr_by")[1])


def test_by_hand():
    """Holm: sorted 0.01, 0.03, 0.04 → 3·0.01, max(0.03, 2·0.03), max(0.06, 0.04); BY with c(3) = 11/6."""
    assert holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])
    c = 11 / 6
    third = 3 * c * 0.04 / 3
    assert benjamini_yekutieli([0.01, 0.04, 0.03]).tolist() == pytest.approx(
        [min(3 * c * 0.01, third), third, min(3 * c * 0.03 / 2, third)])


def test_public_names_are_the_one_function():
    """clfeval.holm, clfeval.significance.holm and the modules that adjust import the same object."""
    import clfeval
    import clfeval.significance
    from clfeval.significance import _classic, _delong, _multirank, _paired

    for f in (clfeval.holm, clfeval.significance.holm, _classic.holm, _delong.holm, _multirank.holm, _paired.holm):
        assert f is holm
    assert _classic.benjamini_yekutieli is benjamini_yekutieli


def test_no_other_definition_in_the_package():
    """No module outside clfeval/stats defines a Holm or BY adjustment of its own (accessors of a result's
    ``p_holm`` field excepted)."""
    import ast
    from pathlib import Path

    src = Path(__file__).resolve().parents[2] / "src" / "clfeval"
    defined = [(p.relative_to(src).as_posix(), n.name) for p in src.rglob("*.py")
               for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
               if isinstance(n, ast.FunctionDef) and not n.name.lstrip("_").startswith("p_")
               and any(w in n.name.lower() for w in ("holm", "yekutieli", "bonferroni"))]
    assert all(m.startswith("stats/") for m, _ in defined), defined
