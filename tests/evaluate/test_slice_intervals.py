"""Issue 39: a slice's intervals are the overall report's intervals (the same ``ci_method``, level, samples and seed)
run on the slice's own table. Oracles: statsmodels' Wilson interval on counts taken from the rows by hand; the report
of the slice's rows alone (its overall intervals, an independent path through the front door)."""

from __future__ import annotations

import numpy as np
import pytest

import clfeval
from tests._helpers.slicedata import planted


def _rows(n: int = 1_200):
    t = planted(n)
    return t, np.array(t.column("gold").to_pylist()), np.array(t.column("pred").to_pylist()), \
        np.array(t.column("source").to_pylist())


def test_wilson_per_slice_equals_statsmodels_on_the_slice_counts():
    from statsmodels.stats.proportion import proportion_confint

    t, gold, pred, src = _rows()
    rep = clfeval.report(t, by="source", positive="pos", ci=0.9, samples=50, slice_samples=10,
                         ci_method="wilson").to_dict()["slices"]
    assert rep["ci"]["methods"]["accuracy"] == {"wilson": 20}
    for row in rep["slices"]:
        m = src == row["slice"].split("=")[-1]
        g, p = gold[m], pred[m]
        want = {"accuracy": ((g == p).sum(), m.sum()),
                "recall:pos": (((g == "pos") & (p == "pos")).sum(), (g == "pos").sum()),
                "precision:pos": (((g == "pos") & (p == "pos")).sum(), (p == "pos").sum()),
                "fpr:pos": (((g == "neg") & (p == "pos")).sum(), (g == "neg").sum())}
        for metric, (x, n) in want.items():
            assert row["ci"][metric] == pytest.approx(list(proportion_confint(x, n, alpha=0.1, method="wilson")),
                                                      abs=1e-12), (row["slice"], metric)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_bootstrap_per_slice_equals_the_report_of_the_slice_rows_alone(method):
    t, gold, pred, src = _rows(600)
    kw = dict(positive="pos", ci=0.95, samples=400, seed=7, ci_method=method)
    sec = clfeval.report(t, by="source", slice_samples=10, **kw).to_dict()["slices"]
    paths = {"accuracy": ("accuracy",), "recall:pos": ("per_class", "pos", "recall"),
             "precision:pos": ("per_class", "pos", "precision"), "fpr:pos": ("per_class", "pos", "fpr")}
    for row in sec["slices"][:4]:
        m = src == row["slice"].split("=")[-1]
        alone = clfeval.report(gold[m], pred[m], **kw).to_dict()["ci"]
        for metric, path in paths.items():
            node = alone
            for key in path:
                node = node[key]
            assert row["ci"][metric] == pytest.approx(node, abs=1e-12), (row["slice"], metric)
            assert alone.get("methods", {}).get(".".join(path), "percentile") == method
    assert sec["ci"]["methods"]["accuracy"] == {method: 20}


def test_the_default_method_is_the_overall_default():
    t, _, _, _ = _rows(600)
    sec = clfeval.report(t, by="source", positive="pos", ci=0.9, samples=200, slice_samples=10
                         ).to_dict()["slices"]
    assert sec["ci"]["methods"]["recall:pos"] == {"wilson": 20}
    assert sec["ci"]["methods"]["accuracy"] == {"bca": 20}


def test_the_text_names_each_slice_metric_method():
    from clfeval.render import render

    t, _, _, _ = _rows(600)
    text = render(clfeval.report(t, by="source", positive="pos", ci=0.9, samples=100, slice_samples=10), width=200)
    assert "Slice intervals (90%)" in text
    assert "recall:pos Wilson" in text and "accuracy BCa" in text
    assert "100 bootstrap samples where resampled" in text


def test_the_text_speaks_of_no_bootstrap_when_no_slice_interval_resamples():
    """All Wilson: the caption names no bootstrap samples (none were drawn for the slices)."""
    from clfeval.render import render

    t, _, _, _ = _rows(600)
    text = render(clfeval.report(t, by="source", positive="pos", ci=0.9, samples=100, slice_samples=10,
                                 ci_method="wilson"), width=200)
    caption = text[text.index("Slice intervals (90%)"):]
    caption = caption[:caption.index("\n\n")] if "\n\n" in caption else caption
    assert "Wilson" in caption and "bootstrap" not in caption
