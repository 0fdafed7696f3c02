"""Figures read the typed results' fields (issue 36): a report, its JSON (through ``Report.from_dict``, NaN written
as null as the command line does) and a ranking result (typed, or its JSON) draw the same figure; a dict that is not
the result a figure needs is refused in a sentence naming what it needs."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import clfeval
from clfeval import plots
from clfeval.plots import _mpl
from tests._helpers.registry import columns, frame


def nulled(x):
    if isinstance(x, dict):
        return {k: nulled(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [nulled(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def svg(fig):
    return _mpl.figure_svg(fig, "f")


@pytest.fixture(scope="module")
def results():
    c, df = columns(), frame()
    probs = {"cat": c["p:cat"], "dog": c["p:dog"], "eel": c["p:eel"]}
    return {
        "plain": clfeval.report(c["gold"], c["pred"]),
        "scored-ci": clfeval.report(df, score="score", positive="dog", ci=0.9, samples=300, seed=1),
        "ovr-ci": clfeval.report(c["gold"], c["pred"], scores=probs, ci=0.9, samples=300, seed=1),
        "by": clfeval.report(df, by="grp", positive="dog", ci=0.9, slice_samples=50, seed=2),
        "find": clfeval.report(df, find_slices=["grp"], positive="dog"),
        "multilabel": clfeval.report(list(c["sets_gold"]), list(c["sets_pred"]), multilabel=True),
        "ranking": clfeval.ranking(c["gold"], c["score"], positive="dog"),
        "ranking-ovr": clfeval.ranking_ovr(c["gold"], probs),
    }


FIGURES = [("plain", plots.confusion_matrix), ("plain", plots.per_class), ("plain", plots.phi_delta),
           ("scored-ci", plots.roc), ("scored-ci", plots.pr), ("ovr-ci", plots.roc), ("ovr-ci", plots.pr),
           ("by", plots.forest), ("multilabel", plots.per_class), ("multilabel", plots.phi_delta),
           ("ranking", plots.roc), ("ranking", plots.pr), ("ranking-ovr", plots.roc), ("ranking-ovr", plots.pr)]


@pytest.mark.parametrize("name, figure", FIGURES, ids=[f"{n}-{f.__name__}" for n, f in FIGURES])
def test_the_typed_result_and_its_json_draw_the_same_figure(results, name, figure):
    r = results[name]
    typed = svg(figure(r))
    assert svg(figure(json.loads(json.dumps(r.to_dict())))) == typed
    assert svg(figure(nulled(r.to_dict()))) == typed


def test_the_bands_of_a_scored_report_are_drawn(results):
    fig = plots.roc(nulled(results["scored-ci"].to_dict()))
    assert any(getattr(a, "get_gid", lambda: None)() == "roc-band-0" for a in fig.axes[0].collections)


def test_found_slices_of_a_report_and_of_the_search_itself(results):
    found = results["find"].find_slices
    assert found is not None
    if not found.found:
        with pytest.raises(clfeval.UsageError, match="nothing to draw"):
            plots.found_forest(results["find"])
        with pytest.raises(clfeval.UsageError, match="nothing to draw"):
            plots.found_forest(found)
    else:
        assert svg(plots.found_forest(found)) == svg(plots.found_forest(results["find"]))


def test_a_planted_slice_draws_the_same_from_the_search_and_its_json():
    rng = np.random.default_rng(27)
    n = 3000
    a = np.array(["x", "y", "z"])[rng.integers(0, 3, n)]
    gold = rng.random(n) < 0.5
    pred = np.where(gold, rng.random(n) < np.where(a == "x", 0.5, 0.9), rng.random(n) < 0.1)
    r = clfeval.report(np.where(gold, "p", "n"), np.where(pred, "p", "n"), positive="p", find_slices={"a": a})
    assert r.find_slices is not None and r.find_slices.found
    one = svg(plots.found_forest(r))
    assert svg(plots.found_forest(r.find_slices)) == one
    assert svg(plots.found_forest(nulled(r.to_dict()))) == one
    standalone = nulled(r.find_slices.to_dict())
    assert standalone["result"] == "find_slices"
    assert svg(plots.found_forest(standalone)) == one


@pytest.mark.parametrize("figure, says", [
    (plots.confusion_matrix, "needs a single-label report; this result has no 'confusion_matrix'"),
    (plots.per_class, "needs a report; this result has no 'per_class'"),
    (plots.forest, "needs a report by slice"),
    (plots.found_forest, "needs a report with --find-slices"),
    (plots.roc, "needs scores"),
    (plots.pr, "needs scores"),
    (plots.phi_delta, "needs φ and δ"),
])
def test_a_dict_that_is_not_the_result_is_refused(figure, says):
    with pytest.raises(clfeval.UsageError, match=says):
        figure({"result": "rank", "score": "accuracy"})


def test_a_report_without_the_part_is_refused(results):
    d = nulled(results["plain"].to_dict())
    with pytest.raises(clfeval.UsageError, match="needs a report by slice"):
        plots.forest(d)
    with pytest.raises(clfeval.UsageError, match="needs scores"):
        plots.roc(d)
    with pytest.raises(clfeval.UsageError, match="this result has no 'confusion_matrix'"):
        plots.confusion_matrix(nulled(results["multilabel"].to_dict()))


@pytest.mark.parametrize(("x", "n"), [(8, 10), (0, 7), (7, 7), (1, 1), (123, 457)])
def test_the_forest_plots_wilson_fallback_is_statsmodels_wilson(x, n):
    """A slice whose JSON holds no interval is drawn with the 95 % Wilson interval: the package's one Wilson
    (clfeval.stats.wilson), equal to statsmodels' proportion_confint(method="wilson")."""
    from statsmodels.stats.proportion import proportion_confint

    from clfeval.plots._slices import wilson

    assert wilson(x, n) == pytest.approx(proportion_confint(x, n, alpha=0.05, method="wilson"), abs=1e-12)


def test_the_forest_plot_computes_no_interval_itself():
    """Issue 39: the Wilson interval is written once (stats/_proportions.py); the plot calls it."""
    import inspect

    from clfeval.plots import _slices

    src = inspect.getsource(_slices)
    assert "sqrt" not in src.replace("math.sqrt(n / max(largest, 1))", "")  # the marker sizes' root only
    assert "from clfeval.stats import wilson" in src
