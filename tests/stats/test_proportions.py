"""Wilson and Clopper–Pearson, defined once in clfeval.stats._proportions (issue 39), against statsmodels'
``proportion_confint`` and SciPy's Beta quantiles (independent implementations), and the callers that use them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from clfeval.stats import clopper_pearson, wilson
from clfeval.stats._proportions import clopper_pearson_lower, clopper_pearson_upper

CASES = [(0, 7), (7, 7), (1, 1), (8, 10), (7, 10), (123, 457), (1, 1000), (999, 1000)]


@pytest.mark.parametrize(("x", "n"), CASES)
@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_wilson_equals_statsmodels(x, n, level):
    ref = proportion_confint(x, n, alpha=1 - level, method="wilson")
    assert wilson(x, n, level).tolist() == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize(("x", "n"), CASES)
@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_clopper_pearson_equals_statsmodels(x, n, level):
    ref = proportion_confint(x, n, alpha=1 - level, method="beta")
    assert clopper_pearson(x, n, level).tolist() == pytest.approx(ref, abs=1e-12)


def test_vectorised_and_empty():
    x = np.array([[0, 3], [5, 0]])
    n = np.array([[4, 3], [9, 0]])
    for f in (wilson, clopper_pearson):
        got = f(x, n, 0.95)
        assert got.shape == (2, 2, 2)
        assert np.isnan(got[1, 1]).all()
        for i, j in ((0, 0), (0, 1), (1, 0)):
            assert got[i, j].tolist() == pytest.approx(f(int(x[i, j]), int(n[i, j]), 0.95).tolist())


@pytest.mark.parametrize(("x", "n"), [(9, 11), (1, 2), (300, 341), (5, 5)])
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.2])
def test_one_sided_bounds_are_scipys_beta_quantiles(x, n, alpha):
    """The same bits as scipy.stats.beta.ppf (the ufunc it calls)."""
    assert float(clopper_pearson_lower(x, n, alpha)) == stats.beta.ppf(alpha, x, n - x + 1)
    upper = float(clopper_pearson_upper(x, n, alpha))
    assert upper == (1.0 if x == n else stats.beta.ppf(1 - alpha, x + 1, n - x))


def test_one_sided_lower_inverts_the_exact_test():
    """π_L is where the exact one-sided test P(X ≥ x | π) crosses α."""
    x, n, alpha = 9, 11, 0.05
    lo = float(clopper_pearson_lower(x, n, alpha))
    assert stats.binom.sf(x - 1, n, lo) == pytest.approx(alpha, rel=1e-9)
    assert float(clopper_pearson_lower(0, n, alpha)) == 0.0
    assert math.isnan(float(clopper_pearson_lower(0, 0, alpha)))


def test_callers_use_the_one_definition():
    """The report's Wilson, the forest plot's fallback and McNemar's bound call clfeval.stats."""
    import clfeval.evaluate
    from clfeval.plots import _slices
    from clfeval.significance import _bounds
    from clfeval.stats import _proportions

    assert clfeval.evaluate.wilson is wilson
    assert _slices.wilson(8, 10) == tuple(wilson(8, 10, 0.95).tolist())
    assert _bounds.mcnemar_lower(9, 2, 0.05) == float(_proportions.clopper_pearson_lower(9, 11, 0.05))


def test_no_other_proportion_interval_in_the_package():
    """Wilson's half-width formula and a Beta quantile appear only in clfeval/stats."""
    from pathlib import Path

    src = Path(__file__).resolve().parents[2] / "src" / "clfeval"
    found = [p.relative_to(src).as_posix() for p in src.rglob("*.py")
             if ("z * z / (4 * n * n)" in (t := p.read_text(encoding="utf-8")) or "_beta_ppf" in t)]
    assert found and all(m.startswith("stats/") for m in found), found
