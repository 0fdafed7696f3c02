"""Rankings: ROC-AUC, average precision, curves and sweep against scikit-learn and hand counts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve
from sklearn.preprocessing import label_binarize

import clfeval
from clfeval.errors import DataError, UsageError
from clfeval.scores._columns import ScoreSource
from clfeval.scores._curves import parse_objective, ranking, ranking_ovr


def ranked(positive_ranks, n):
    gold = [0] * n
    for r in positive_ranks:
        gold[r - 1] = 1
    return gold, list(range(n, 0, -1))


# --- worked examples 8 and 9 ------------------------------------------------------

def test_worked_example_8_ten_documents():
    r = clfeval.ranking(*ranked([1, 2, 4], 10), positive=1)
    assert r.pairs == 21 and r.pairs_in_order == 20
    assert r.roc_auc == pytest.approx(20 / 21, abs=1e-15)
    assert round(r.roc_auc, 4) == 0.9524
    assert r.average_precision == pytest.approx((1 / 1 + 2 / 2 + 3 / 4) / 3, abs=1e-15)
    assert round(r.average_precision, 4) == 0.9167
    assert r.pr_auc == r.average_precision


def test_worked_example_9_rare_class():
    r = ranking(*ranked([3, 10], 100), positive=1)
    # 96 negatives below the first positive, 90 below the second, of 2 * 98 pairs
    assert r.pairs_in_order == 186 and r.pairs == 196
    assert round(r.roc_auc, 3) == 0.949
    assert r.average_precision == pytest.approx((1 / 3 + 2 / 10) / 2, abs=1e-15)
    assert round(r.average_precision, 3) == 0.267
    notes = " ".join(r.to_dict()["notes"])
    assert "flatters" in notes


# --- scikit-learn as the oracle: heavy ties, prevalence 50 % down to 0.1 % ---------------

@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 3000),
       prevalence=st.sampled_from([0.5, 0.3, 0.1, 0.01, 0.001]), distinct=st.sampled_from([2, 3, 5, 20, 10**9]))
def test_against_sklearn(seed, n, prevalence, distinct):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    y[rng.integers(n)] = True
    if y.all():
        y[0] = False
    s = rng.integers(0, distinct, n) / max(distinct - 1, 1) + 0.3 * y * rng.random()  # ties, informative
    r = ranking(y, s, positive=True)
    assert r.roc_auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert r.average_precision == pytest.approx(average_precision_score(y, s), abs=1e-12)
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    f2, t2, th2 = r.roc_curve()
    np.testing.assert_allclose(f2, fpr, atol=1e-15)
    np.testing.assert_allclose(t2, tpr, atol=1e-15)
    np.testing.assert_array_equal(th2, thr)
    p, rec, pthr = precision_recall_curve(y, s)
    p2, r2, pth2 = r.pr_curve()
    np.testing.assert_allclose(p2, p[:-1][::-1], atol=1e-15)
    np.testing.assert_allclose(r2, rec[:-1][::-1], atol=1e-15)
    np.testing.assert_array_equal(pth2, pthr[::-1])


def test_sweep_rows_are_direct_counts():
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.2
    s = np.round(rng.normal(size=300) + y, 1)
    sw = ranking(y, s, positive=True).sweep(beta=2.0, cost_fp=1.0, cost_fn=5.0)
    assert list(sw.thresholds) == sorted(set(s.tolist()), reverse=True)
    for k, t in enumerate(sw.thresholds):
        hit = s >= t
        tp, fp = int((hit & y).sum()), int((hit & ~y).sum())
        fn, tn = int(y.sum()) - tp, int((~y).sum()) - fp
        row = sw.row(k)
        assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (tp, fp, fn, tn)
        assert row["precision"] == pytest.approx(tp / (tp + fp))
        assert row["recall"] == pytest.approx(tp / (tp + fn)) == pytest.approx(row["tpr"])
        assert row["fpr"] == pytest.approx(fp / (fp + tn))
        assert row["fbeta"] == pytest.approx(5 * tp / (5 * tp + 4 * fn + fp))
        assert row["cost"] == pytest.approx((fp + 5 * fn) / 300)


def test_invariances():
    rng = np.random.default_rng(5)
    y = rng.random(500) < 0.1
    s = np.round(rng.normal(size=500) + y, 1)
    base = ranking(y, s, positive=True)
    perm = rng.permutation(500)
    assert ranking(y[perm], s[perm], positive=True).roc_auc == pytest.approx(base.roc_auc, abs=1e-15)
    labels = np.where(y, "spam", "ham")
    r = ranking(labels.tolist(), (3 * s - 7).tolist(), positive="spam")  # monotone transform, string labels
    assert (r.roc_auc, r.average_precision) == pytest.approx((base.roc_auc, base.average_precision), abs=1e-15)
    assert ranking(y.astype(int), s, positive="1").roc_auc == pytest.approx(base.roc_auc, abs=1e-15)


def test_no_negatives_is_undefined_not_zero():
    r = ranking(["a", "a"], [0.2, 0.4], positive="a")
    assert math.isnan(r.roc_auc) and r.average_precision == 1.0
    assert r.to_dict()["undefined"][0]["metric"] == "roc_auc"


# --- bad input ----------------------------------------------------------------------

@pytest.mark.parametrize("scores,needle", [([0.1, float("nan"), 0.3], "nan"), ([0.1, float("inf"), 0.3], "inf"),
                                           (["0.1", "abc", "0.3"], "'abc'"), ([0.1, None, 0.3], "missing")])
def test_bad_scores_name_the_item(scores, needle):
    with pytest.raises(DataError, match="item 1") as exc:
        ranking([1, 0, 1], scores, positive=1)
    assert needle in str(exc.value)


def test_positive_must_occur_and_lengths_match():
    with pytest.raises(DataError, match="'spam'"):
        ranking(["a", "b"], [0.1, 0.2], positive="spam")
    with pytest.raises(DataError, match="3 values for 2 items"):
        ranking(["a", "b"], [0.1, 0.2, 0.3], positive="a")


@pytest.mark.parametrize("spec", ["f", "accuracy", "precision>=1.5", "recall>0.5", "precision>=0"])
def test_unknown_objectives_are_usage_errors(spec):
    with pytest.raises(UsageError):
        parse_objective(spec)


# --- one-vs-rest: multiclass and multi-label ---------------------------------------------

def test_multiclass_ovr_against_sklearn():
    rng = np.random.default_rng(11)
    classes = ["a", "b", "c", "d"]
    y = rng.choice(classes, size=400, p=[0.5, 0.3, 0.15, 0.05])
    s = np.round(rng.random((400, 4)) + 0.5 * label_binarize(y, classes=classes), 2)
    r = ranking_ovr(y.tolist(), {c: s[:, j] for j, c in enumerate(classes)})
    yb = label_binarize(y, classes=classes)
    for how in ("macro", "weighted", "micro"):
        assert getattr(r, how).roc_auc == pytest.approx(roc_auc_score(yb, s, average=how), abs=1e-12)
        assert getattr(r, how).average_precision == pytest.approx(average_precision_score(yb, s, average=how),
                                                                     abs=1e-12)
    for j, c in enumerate(classes):
        assert r.per_class[c].roc_auc == pytest.approx(roc_auc_score(yb[:, j], s[:, j]), abs=1e-12)
    # the same through an array with labels
    r2 = ranking_ovr(y, s, labels=classes)
    assert r2.macro == r.macro


def test_multilabel_ovr_and_undefined_labels():
    gold = ["a|b", "b", "", "a", "b|c"]
    scores = {"a": [0.9, 0.2, 0.1, 0.8, 0.3], "b": [0.7, 0.9, 0.2, 0.1, 0.6], "c": [0.1, 0.2, 0.3, 0.4, 0.9],
              "z": [0.1, 0.1, 0.1, 0.1, 0.1]}
    r = ranking_ovr(gold, scores, multilabel=True)
    assert r.per_class["a"].roc_auc == 1.0 and r.per_class["c"].roc_auc == 1.0
    assert math.isnan(r.per_class["z"].roc_auc) and math.isnan(r.per_class["z"].average_precision)
    assert {u.metric for u in r.undefined} == {"roc_auc", "average_precision"}
    defined = [r.per_class[k].roc_auc for k in "abc"]
    assert r.macro.roc_auc == pytest.approx(np.mean(defined))


def test_gold_label_without_score_column_is_refused():
    with pytest.raises(DataError, match="score:c"):
        ranking_ovr(["a", "b", "c"], {"a": [1, 0, 0], "b": [0, 1, 0]}, source=ScoreSource(prefix="score:"))


# --- report integration ----------------------------------------------------------------

def test_report_gets_a_ranking_section():
    gold, scores = ranked([1, 2, 4], 10)
    pred = [1 if s >= 7 else 0 for s in scores]
    rep = clfeval.report(gold, pred, positive=1, scores=scores)
    sec = rep.to_dict()["ranking"]
    assert sec["roc_auc"] == pytest.approx(20 / 21) and sec["average_precision"] == pytest.approx(0.9166666666666666)


def test_report_predictions_from_a_cut():
    gold, scores = ranked([1, 2, 4], 10)
    rep = clfeval.report(gold, positive=1, scores=scores, threshold=7)
    assert (rep.binary.tp, rep.binary.fp, rep.binary.fn) == (3, 1, 0)
    assert rep.ranking.threshold["value"] == 7
    with pytest.raises(UsageError):
        clfeval.report(gold, positive=1, scores=scores)
    with pytest.raises(DataError, match="exactly two gold labels"):
        clfeval.report(["a", "b", "c"], positive="a", scores=[0.1, 0.2, 0.3], threshold=0.5)


def test_parallel_sorted_parts_give_the_same_numbers(monkeypatch):
    """Large inputs sort the negatives in parts on threads; the numbers must not change."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    import clfeval.scores._curves as curves

    rng = np.random.default_rng(11)
    n = 5000
    y = rng.random(n) < 0.2
    s = np.round(rng.normal(size=n) + y, 1)  # heavy ties across the parts
    single = curves.ranking(y.astype(int), s, positive=1)
    monkeypatch.setattr(curves, "_PARALLEL_MIN", 10)
    monkeypatch.setattr(curves, "_n_threads", lambda: 3)
    monkeypatch.setattr(curves, "_simd_sort", lambda: False)  # the scalar-sort strategy: parts on threads (issue 12)
    multi = curves.ranking(y.astype(int), s, positive=1)
    assert len(multi.neg_parts) == 3 and len(single.neg_parts) == 1
    assert multi.roc_auc == single.roc_auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert multi.average_precision == single.average_precision == pytest.approx(average_precision_score(y, s),
                                                                                abs=1e-12)
    assert np.array_equal(multi.neg_scores, np.sort(s[~y]))
    assert np.array_equal(multi.cuts.tp, single.cuts.tp) and np.array_equal(multi.cuts.fp, single.cuts.fp)


def test_the_simd_plan_sorts_each_class_whole_and_gives_the_same_numbers(monkeypatch):
    """The "simd" plan (each class sorted whole, on two threads; the positives searched in slices) gives the same
    counts as one thread; strategy() picks the parts on several cores, with a SIMD sort too."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    from clfeval.scores._sorting import pairs_and_ap, split_sorted, strategy

    rng = np.random.default_rng(12)
    y = rng.random(4000) < 0.3
    s = np.round(rng.normal(size=4000) + y, 1)
    pos, neg = split_sorted(y, s, plan="simd", n_threads=3)
    assert len(neg) == 1 and np.array_equal(neg[0], np.sort(s[~y])) and np.array_equal(pos, np.sort(s[y]))
    below, tied, ap = pairs_and_ap(pos, neg, n_threads=3)
    n_pairs = int(y.sum()) * int((~y).sum())
    assert (2 * below + tied) / (2 * n_pairs) == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert ap == pytest.approx(average_precision_score(y, s), abs=1e-12)
    assert strategy(10**7, n_threads=2, simd=True) == strategy(10**7, n_threads=2, simd=False) == "parts"
    assert strategy(10, n_threads=4, simd=True, parallel_min=100) == "single"
    assert strategy(10**6, n_threads=1, simd=True) == "single"
