"""Typed results, part two (issue 22): a report's optional parts are typed fields (r.ci, r.ranking, ...) laid out
by the report's one to_dict, and clfeval.compare returns one type whatever its inputs."""

from __future__ import annotations

import json
import math

import numpy as np
import pyarrow as pa
import pytest
from sklearn.metrics import accuracy_score, roc_auc_score

import clfeval
from clfeval.core import EngineInfo
from clfeval.ops import report as S
from clfeval.ops.report import PART_KEYS
from clfeval.render import render, to_json

RNG = np.random.default_rng(7)
N = 300
GOLD = (RNG.random(N) < 0.4).astype(int)
SCORE = GOLD + RNG.normal(0, 1.0, N)
PRED = (SCORE > 0.5).astype(int)


def _unstandardized_partial_auc(y, s, max_fpr):
    """The area under the ROC step curve from FPR 0 to max_fpr, by hand from scikit-learn's roc_curve."""
    from sklearn.metrics import roc_curve

    fpr, tpr, _ = roc_curve(y, s)
    stop = np.searchsorted(fpr, max_fpr, "right")
    x = np.r_[fpr[:stop], max_fpr]
    y_ = np.r_[tpr[:stop], np.interp(max_fpr, fpr, tpr)]
    return float(np.trapezoid(y_, x))


def test_every_optional_part_is_a_typed_field_and_none_when_not_asked_for():
    plain = clfeval.report(GOLD, PRED)
    assert all(getattr(plain, key) is None for key in PART_KEYS if key != "engine")
    assert plain.parts() == {"engine": plain.engine}
    t = pa.table({"gold": GOLD, "pred": PRED, "score": SCORE})  # (a table: ranking intervals too)
    r = clfeval.report(t, score="score", positive=1, ci=0.9, samples=200, require=["accuracy>=0.5", "roc_auc>=0.6"])
    assert type(r.ci) is S.Intervals and r.ci.level == 0.9
    assert type(r.ranking) is S.RankingPart and type(r.ranking_ci) is S.RankingIntervals
    assert type(r.requirements) is S.RequirementsPart and r.requirements.met
    assert type(r.engine) is EngineInfo and (r.engine.name, r.engine.mode) == ("local", "memory")
    assert r.ranking.roc_auc == pytest.approx(roc_auc_score(GOLD, SCORE), abs=1e-12)
    assert r.ranking.partial_roc_auc == pytest.approx(_unstandardized_partial_auc(GOLD, SCORE, r.ranking.max_fpr),
                                                      abs=1e-12)
    lo, hi = r.ci.accuracy
    assert lo <= accuracy_score(GOLD, PRED) <= hi
    with pytest.raises(TypeError):
        r.ranking["roc_auc"] = 0.5  # read-only
    with pytest.raises(AttributeError):
        r.ranking.roc_auc = 0.5  # frozen


def test_the_report_lays_out_each_part_under_its_key_in_one_order():
    t = pa.table({"gold": GOLD, "pred": PRED, "score": SCORE, "reg": np.where(np.arange(N) % 3, "n", "s")})
    r = clfeval.report(t, score="score", positive=1, ci=0.9, samples=100, require=["accuracy>=0.5"])
    d = r.to_dict()
    for key, part in r.parts().items():
        assert d[key] == part.to_dict(), key
    keys = [k for k in d if k in PART_KEYS]
    assert keys == ["ci", "ranking", "ranking_ci", "requirements", "engine"]  # PART_KEYS' order
    assert list(d)[-3:] == ["undefined", "notes", "signature"]
    with pytest.warns(DeprecationWarning, match="sections"):
        assert r.sections == {k: d[k] for k in keys}  # the deprecated view holds the same data
    sliced = clfeval.report(t, by="reg", find_slices=["reg"])
    assert type(sliced.slices) is S.SlicesPart and sliced.slices.n_slices == 2
    assert type(sliced.find_slices) is S.FoundSlices and sliced.find_slices.signature is None
    assert [k for k in sliced.to_dict() if k in ("slices", "find_slices", "engine")] == ["slices", "find_slices",
                                                                                         "engine"]


def test_a_part_is_built_from_its_json_object_and_a_key_without_a_field_is_refused():
    import dataclasses

    r = dataclasses.replace(clfeval.report(GOLD, PRED), inputs=S.InputsPart.of({"aliases": []}))
    assert type(r.inputs) is S.InputsPart and r.to_dict()["inputs"] == {"aliases": []}
    with pytest.raises(TypeError, match="InputsPart has no field for the key.*'nothing'"):
        S.InputsPart.of({"aliases": [], "nothing": 1})
    with pytest.raises(TypeError, match="made of a JSON object"):
        S.RankingPart.of(0.9)


def test_the_ranking_part_of_one_vs_rest_scores_reads_the_macro_mean():
    g = ["a", "b", "c", "a", "b", "c", "a"]
    cols = {"a": [.9, .1, .2, .8, .3, .1, .4], "b": [.1, .7, .3, .1, .6, .2, .3], "c": [.0, .2, .5, .1, .1, .7, .3]}
    r = clfeval.report(g, ["a", "b", "c", "a", "b", "c", "b"], scores=cols)
    want = np.mean([roc_auc_score([x == k for x in g], cols[k]) for k in cols])
    assert r.ranking.roc_auc == pytest.approx(want, abs=1e-12)
    assert math.isnan(r.ranking.partial_roc_auc)  # partial ROC-AUC is a one-positive-class measure


def test_text_markdown_and_html_show_the_partial_roc_auc():
    r = clfeval.report(GOLD, PRED, scores=SCORE, positive=1)
    want = f"{_unstandardized_partial_auc(GOLD, SCORE, r.ranking.max_fpr):.4f}"
    row = f"partial ROC-AUC (FPR ≤ {r.ranking.max_fpr:g})"
    random = f"{r.ranking.max_fpr ** 2 / 2:.4f}"  # a random ranking's area under the diagonal up to max_fpr
    for fmt in ("text", "markdown", "html"):
        out = render(r, fmt)
        line = next((x for x in out.splitlines() if row in x), None)
        assert line is not None and want in line and random in line, fmt
    assert row not in render(clfeval.report(GOLD, PRED), "text")


# --- compare: one return type -------------------------------------------------------------------

def _compare_cases():
    y = GOLD.astype(bool)
    a, b = SCORE, SCORE + RNG.normal(0, 1.0, N)
    pa_, pb = PRED, (b > 0.5).astype(int)
    yield "pair", clfeval.compare(GOLD, pa_, pb, samples=100), "PairPart"
    yield "many", clfeval.compare(GOLD, pa_, pb, 1 - pb, samples=100), "ManyPart"
    yield "delong", clfeval.compare(y, a, b, test="delong", positive=True, metric="roc_auc"), "DeLongPart"
    yield "noninferiority", clfeval.compare(GOLD, pa_, pb, margin=0.05, samples=100), "NonInferiorityPart"
    t = lambda p: pa.table({"id": np.arange(N), "gold": GOLD, "pred": p,  # noqa: E731
                            "reg": np.where(np.arange(N) % 2, "n", "s")})
    yield "sliced", clfeval.compare(t(pa_), t(pb), by="reg", samples=50), "SlicedPart"


@pytest.mark.parametrize("kind, result, part", list(_compare_cases()), ids=lambda x: x if isinstance(x, str) else "")
def test_compare_returns_one_type_with_one_typed_part_set(kind, result, part):
    assert type(result) is clfeval.Compared and result.kind == kind
    held = getattr(result, kind)
    assert type(held).__name__ == part
    assert [k for k in ("pair", "many", "delong", "delong_ovr", "noninferiority", "sliced")
            if getattr(result, k) is not None] == [kind]
    assert not hasattr(type(result), "__getattr__")  # no forwarding: fields and properties only
    assert render(result, "text")


def test_compare_reads_its_part_through_properties():
    r = clfeval.compare(GOLD, PRED, 1 - PRED, samples=100)
    assert r.a == accuracy_score(GOLD, PRED) == r.pair.a and r.engine.mode == "memory"
    assert json.loads(to_json(r))["a"] == r.a
    with pytest.raises(AttributeError):
        r.no_such_field  # noqa: B018
    with pytest.raises(AttributeError, match="kind 'pair'.*several systems"):
        r.comparisons  # noqa: B018
    with pytest.raises(ValueError, match="exactly one part"):
        clfeval.Compared(("A", "B"), "accuracy", "bootstrap", 0.05, {})
    with pytest.raises(ValueError, match="exactly one part"):
        clfeval.Compared(("A", "B"), "accuracy", "bootstrap", 0.05, {}, pair=r.pair, many=r.many or r.pair)


def test_the_tests_called_directly_return_the_one_type_too():
    y = GOLD.astype(bool)
    assert clfeval.delong_compare(y, SCORE, -SCORE, positive=True).kind == "delong"
    assert clfeval.noninferiority(GOLD, PRED, PRED, margin=0.05, samples=50).kind == "noninferiority"
    from clfeval.significance._paired import compare

    assert type(compare(GOLD, PRED, 1 - PRED, samples=50)) is clfeval.Compared


# --- ranking intervals as functions of the ranking summary --------------------------------------------

def _delong_by_hand(y, s):
    """DeLong's AUC and variance from the O(m·n) pair comparisons (placements by broadcasting), ties ½."""
    pos, neg = s[y], s[~y]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    return psi.mean(), v10.var(ddof=1) / pos.size + v01.var(ddof=1) / neg.size


@pytest.mark.parametrize("ties", [False, True])
def test_delong_of_a_summary_equals_the_pairwise_variance(ties):
    from clfeval.significance._aucintervals import auc_interval, summary_delong_variance
    from clfeval.significance._delong import delong_auc

    y = GOLD.astype(bool)
    s = np.round(SCORE, 1) if ties else SCORE
    auc, var = _delong_by_hand(y, s)
    summary = clfeval.ranking(y, s, positive=True)
    assert summary_delong_variance(summary) == pytest.approx(var, rel=1e-12)
    d = delong_auc(summary, level=0.9)
    assert d.auc == pytest.approx(auc, abs=1e-15) and d.variance == pytest.approx(var, rel=1e-12)
    half = 1.6448536269514722 * math.sqrt(var)
    assert auc_interval(summary, "delong", level=0.9, samples=10, rng=np.random.default_rng(0)) == \
        pytest.approx([auc - half, auc + half], rel=1e-12)


def test_intervals_of_a_streamed_summary_need_no_scores_in_memory():
    from clfeval.significance._curvebands import curve_bands
    from clfeval.significance._delong import delong_auc

    rng = np.random.default_rng(11)
    y = rng.random(3000) < 0.3
    s = np.round(y + rng.normal(0, 1, 3000), 1)  # few distinct scores: the streamed summary keeps their counts
    streamed = clfeval.ranking(y, s, positive=True, engine=clfeval.Local(memory=16384))
    assert streamed.engine["mode"] == "streamed" and streamed.summary.has_cuts
    auc, var = _delong_by_hand(y, s)
    assert delong_auc(streamed).variance == pytest.approx(var, rel=1e-12)
    in_memory = clfeval.ranking(y, s, positive=True)
    a = curve_bands(streamed, samples=200, seed=3).to_dict()
    b = curve_bands(in_memory, samples=200, seed=3).to_dict()
    assert a["roc_auc"] == b["roc_auc"] and a["roc"] == b["roc"]  # the same draws from the same counts


def test_a_new_ranking_measure_is_its_catalogue_entry_and_one_function(monkeypatch):
    """Issue 22's proof: a ranking measure added to the catalogue alone (entry + compute function) is computed,
    baselined, listed when undefined, shown in every format and read as r.ranking.NAME; nothing else changes."""
    from clfeval.core import _catalog as catalog

    def top_precision(s, top=10):  # the share of positives among the `top` highest scores
        c = s.top_cuts(s.n)
        k = int(np.searchsorted(np.asarray(c.tp) + np.asarray(c.fp), top, side="left"))
        return float(c.tp[k]) / float(c.tp[k] + c.fp[k])

    entry = catalog.Metric(
        "top_precision", "precision at the top", "ranking", ("binary",), "higher", (0.0, 1.0), "definition",
        "formula", "undefined", (catalog.Place("ranking.top_precision", ("binary",)),), top_precision,
        params={"top": 10}, random=lambda s, top: s.prevalence, shown="precision of the top {top}",
        needs=lambda s, top: f"needs at least {top} items" if s.n < top else None)
    monkeypatch.setattr(catalog, "METRICS", (*catalog.METRICS, entry))
    scores = np.linspace(1, 0, N)  # distinct scores, so the top 10 are the first 10 items
    r = clfeval.report(GOLD, PRED, scores=scores, positive=1)
    want = GOLD[:10].mean()
    assert r.ranking.top_precision == pytest.approx(want) and r.ranking.top == 10
    d = json.loads(to_json(r))["ranking"]
    assert d["top_precision"] == pytest.approx(want) and d["random"]["top_precision"] == pytest.approx(GOLD.mean())
    for fmt in ("text", "markdown", "html"):
        line = next((x for x in render(r, fmt).splitlines() if "precision of the top 10" in x), None)
        assert line is not None and f"{want:.4f}" in line and f"{GOLD.mean():.4f}" in line, fmt
    few = clfeval.report([1, 0, 1, 0, 1], [1, 0, 0, 0, 1], scores=[.9, .8, .7, .2, .1], positive=1)
    reasons = {u["metric"]: u["reason"] for u in few.ranking.undefined or ()}
    assert math.isnan(few.ranking.top_precision) and reasons["top_precision"] == "needs at least 10 items"
    assert few.ranking.roc_auc == pytest.approx(roc_auc_score([1, 0, 1, 0, 1], [.9, .8, .7, .2, .1]))
