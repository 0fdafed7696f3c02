"""Model comparison under cross-validation: the t statistics and p-values against an independent
implementation of the formulas (SciPy's t and F distributions), hand-computed cases, refusals."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats

from clfeval import compare
from clfeval.errors import DataError, UsageError
from clfeval.render import to_json
from clfeval.significance._cvcompare import cv_compare, five_by_two_cv


def records(values, n_train, n_test, repeats=1, metric="macro_f1"):
    k = len(values) // repeats
    return [{"repeat": 1 + i // k, "fold": 1 + i % k, "n_train": n_train, "n_test": n_test, metric: float(v)}
            for i, v in enumerate(values)]


# --- the formulas, written again from the papers -----------------------------------------

def nadeau_bengio(d, n_train, n_test):
    d = np.asarray(d, dtype=float)
    J = len(d)
    t = d.mean() / math.sqrt((1 / J + n_test / n_train) * d.var(ddof=1))
    return t, stats.t.sf(t, J - 1), 2 * stats.t.sf(abs(t), J - 1)


def plain_t(d):
    res = stats.ttest_1samp(d, 0.0)  # SciPy's own one-sample t-test on the differences
    one = stats.ttest_1samp(d, 0.0, alternative="greater")
    return res.statistic, one.pvalue, res.pvalue


def dietterich(p):  # p: (5, 2) differences
    p = np.asarray(p, dtype=float)
    s2 = [((row - row.mean()) ** 2).sum() for row in p]
    t = p[0, 0] / math.sqrt(sum(s2) / 5)
    f = (p ** 2).sum() / (2 * sum(s2))
    return t, stats.t.sf(t, 5), 2 * stats.t.sf(abs(t), 5), f, stats.f.sf(f, 10, 5)


@pytest.mark.parametrize("seed", range(8))
def test_t_statistics_and_p_values_equal_the_formulas(seed):
    rng = np.random.default_rng(seed)
    k, r = [(10, 1), (5, 2), (3, 4), (2, 5)][seed % 4]
    a = 0.7 + rng.normal(0, 0.02, k * r)
    b = a - 0.01 + rng.normal(0, 0.02, k * r)
    n_train, n_test = 900 - 7 * seed, 100 + 7 * seed
    res = cv_compare(records(a, n_train, n_test, r), records(b, n_train, n_test, r), metric="macro_f1")
    t, p1, p2 = nadeau_bengio(a - b, n_train, n_test)
    assert res.corrected.statistic == pytest.approx(t, rel=1e-12)
    assert res.corrected.p_value == pytest.approx(p1, rel=1e-10, abs=1e-15)
    assert res.corrected.p_value_two_sided == pytest.approx(p2, rel=1e-10, abs=1e-15)
    assert res.corrected.df == k * r - 1
    t, p1, p2 = plain_t(a - b)
    assert res.plain.statistic == pytest.approx(t, rel=1e-12)
    assert res.plain.p_value == pytest.approx(p1, rel=1e-10, abs=1e-15)
    assert res.plain.p_value_two_sided == pytest.approx(p2, rel=1e-10, abs=1e-15)
    q = stats.t.ppf(0.975, k * r - 1)
    se = res.corrected.se
    assert res.corrected.ci == pytest.approx([res.mean_delta - q * se, res.mean_delta + q * se])
    if (k, r) == (2, 5):
        t, p1, p2, f, pf = dietterich((a - b).reshape(5, 2))
        fbt = res.five_by_two
        assert fbt["t"].statistic == pytest.approx(t, rel=1e-12)
        assert fbt["t"].p_value == pytest.approx(p1, rel=1e-10)
        assert fbt["t"].p_value_two_sided == pytest.approx(p2, rel=1e-10)
        assert fbt["f"]["statistic"] == pytest.approx(f, rel=1e-12)
        assert fbt["f"]["p_value_two_sided"] == pytest.approx(pf, rel=1e-10)
    else:
        assert res.five_by_two is None and "5 repeats of 2-fold" in res.five_by_two_reason
    json.dumps(res.to_dict(), allow_nan=False)


def test_hand_computed_ten_folds():
    # d = 0.02, 0.01, 0.03, 0, 0.02, 0.01, 0.02, 0.03, 0.01, 0.02: mean 0.017, Σ(d - mean)² = 810e-6, var = 90e-6.
    d = [0.02, 0.01, 0.03, 0.00, 0.02, 0.01, 0.02, 0.03, 0.01, 0.02]
    res = cv_compare(records([0.8 + x for x in d], 900, 100), records([0.8] * 10, 900, 100), metric="macro_f1")
    assert res.mean_delta == pytest.approx(0.017)
    assert res.plain.statistic == pytest.approx(0.017 / math.sqrt(90e-6 / 10))          # 5.667
    assert res.corrected.statistic == pytest.approx(0.017 / math.sqrt((0.1 + 1 / 9) * 90e-6))  # 3.900
    assert res.test_train_ratio == pytest.approx(1 / 9)
    assert "believe the corrected resampled t-test" in res.verdict
    assert "too optimistic because the training sets overlap" in res.verdict


def test_hand_computed_five_by_two():
    # differences 0.025 (fold 1) and 0.03 (fold 2) in every repeat: s_i² = 2·0.0025², t = 0.025 / √(5·s_i²/5)
    fa = [{"repeat": r, "fold": f, "n_train": 50, "n_test": 50, "accuracy": 0.80 + 0.01 * r + 0.005 * f}
          for r in range(1, 6) for f in (1, 2)]
    fb = [dict(x, accuracy=0.78 + 0.01 * x["repeat"]) for x in fa]
    out = five_by_two_cv(fa, fb, metric="accuracy")
    assert out["t"].statistic == pytest.approx(0.025 / math.sqrt(2 * 0.0025 ** 2), rel=1e-9)
    assert out["f"]["statistic"] == pytest.approx(5 * (0.025 ** 2 + 0.03 ** 2) / (2 * 5 * 2 * 0.0025 ** 2), rel=1e-9)
    res = cv_compare(fa, fb, metric="accuracy")
    assert res.five_by_two["t"].statistic == pytest.approx(out["t"].statistic)
    assert "5x2cv" in res.verdict


def test_lower_is_better_metric_tests_a_negative_difference():
    a = [0.10, 0.12, 0.09, 0.11, 0.10]
    b = [0.13, 0.14, 0.12, 0.15, 0.12]
    res = cv_compare(records(a, 400, 100, metric="error_rate"), records(b, 400, 100, metric="error_rate"),
                     metric="error_rate")
    assert not res.higher_is_better and res.mean_delta < 0
    t = res.corrected.statistic
    assert res.corrected.p_value == pytest.approx(stats.t.cdf(t, 4))
    assert res.corrected.p_value < 0.05 and "unlikely to be luck" in res.verdict
    flipped = cv_compare(records(a, 400, 100, metric="x"), records(b, 400, 100, metric="x"), metric="x",
                         higher_is_better=True)
    assert flipped.corrected.p_value == pytest.approx(1 - res.corrected.p_value)
    assert "no evidence" in flipped.verdict


def test_five_by_two_is_refused_for_other_designs():
    fa = records(np.linspace(0.7, 0.8, 10), 900, 100)
    with pytest.raises(UsageError, match="5 repeats of 2-fold cross-validation; these runs have 1 repeat of 10 folds"):
        five_by_two_cv(fa, fa, metric="macro_f1")


# --- refusals ------------------------------------------------------------------------------

def test_different_folds_are_refused_clearly():
    fa = records([0.8, 0.81, 0.79, 0.8], 300, 100)
    with pytest.raises(DataError, match="A has 4 folds and B has 3"):
        cv_compare(fa, fa[:3], metric="macro_f1")
    other = [dict(r, fold=r["fold"] + 1) for r in fa]
    with pytest.raises(DataError, match=r"fold ids differ: only A has \(repeat 1, fold 1\)"):
        cv_compare(fa, other, metric="macro_f1")
    sizes = [dict(r, n_test=101, n_train=299) if r["fold"] == 3 else r for r in fa]
    with pytest.raises(DataError,
                       match="repeat 1, fold 3: A was trained on 300 and tested on 100 items, B on 299 and 101"):
        cv_compare(fa, sizes, metric="macro_f1")
    with pytest.raises(DataError, match="two records for repeat 1, fold 2"):
        cv_compare(fa + [fa[1]], fa + [fa[2]], metric="macro_f1")
    nan = [dict(r, macro_f1=float("nan")) if r["fold"] == 2 else r for r in fa]
    with pytest.raises(DataError, match="fold 2.*undefined"):
        cv_compare(fa, nan, metric="macro_f1")
    with pytest.raises(DataError, match="no number for metric 'macro_f1'"):
        cv_compare(fa, [{k: v for k, v in r.items() if k != "macro_f1"} for r in fa], metric="macro_f1")
    with pytest.raises(DataError, match="at least 2 folds"):
        cv_compare(fa[:1], fa[:1], metric="macro_f1")
    with pytest.raises(DataError, match="n_test must be an integer >= 1"):
        cv_compare([dict(r, n_test=0) for r in fa], fa, metric="macro_f1")


def test_zero_variance_of_the_differences_is_undefined_and_json_safe():
    fa = records([0.8, 0.81, 0.79], 200, 100)
    fb = records([0.78, 0.79, 0.77], 200, 100)  # the same difference in every fold
    res = cv_compare(fa, fb, metric="macro_f1")
    d = res.to_dict()
    assert math.isnan(d["corrected_t"]["t"]) and math.isnan(d["corrected_t"]["p_value"])  # NaN (issue 22)
    assert "zero variance" in d["corrected_t"]["undefined"]
    assert "undefined" in res.verdict
    assert json.loads(to_json(res))["corrected_t"]["p_value"] is None  # null in JSON


# --- the pooled bootstrap hook and real protocol results --------------------------------------

def test_pooled_comparison_and_protocol_results():
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier

    from clfeval.protocols._api import cross_validate

    X, y = make_classification(n_samples=300, n_features=8, random_state=0)
    y = np.where(y == 1, "pos", "neg")
    ra = cross_validate(LogisticRegression(max_iter=500), X, y, folds=2, repeats=5, seed=4)
    rb = cross_validate(DecisionTreeClassifier(max_depth=2, random_state=0), X, y, folds=2, repeats=5, seed=4)
    pa, pb = ra.predictions, rb.predictions
    first = np.asarray(pa.column("repeat")) == 1
    gold = np.asarray(pa.column("gold"))[first]
    pooled = compare(gold, np.asarray(pa.column("pred"))[first], np.asarray(pb.column("pred"))[first],
                     samples=2000, seed=1, names=("logreg", "tree"))
    res = cv_compare(ra, rb, metric="accuracy", pooled=pooled)
    assert res.names == ("logreg", "tree")
    assert len(res.folds) == 10 and res.repeats == 5 and res.folds_per_repeat == 2
    assert [f.a for f in res.folds] == [f.metrics["accuracy"] for f in ra.folds]
    assert res.test_train_ratio == pytest.approx(1.0)
    assert res.pooled["p_value"] == pooled.p_value and res.pooled["test"] == "bootstrap"
    assert "ignores the variance due to the training set" in res.verdict
    assert res.five_by_two is not None
    via_dicts = cv_compare(ra.to_dict()["per_fold"], rb.to_dict()["per_fold"], metric="accuracy",
                           pooled=pooled.to_dict())
    assert via_dicts.corrected.statistic == res.corrected.statistic
    json.dumps(res.to_dict(), allow_nan=False)
    with pytest.raises(UsageError, match="pooled comparison is on metric 'accuracy'"):
        cv_compare(ra, rb, metric="macro_f1", pooled=pooled)
    with pytest.raises(UsageError, match="compares logreg with tree"):
        cv_compare(ra, rb, metric="accuracy", pooled=pooled, names=("tree", "logreg"))
    other = cross_validate(LogisticRegression(max_iter=500), X, y, folds=3, seed=4)
    with pytest.raises(DataError, match="10 folds and .* has 3"):
        cv_compare(ra, other, metric="accuracy")
