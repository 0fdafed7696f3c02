"""Baselines: exact expected tables, checked against closed forms, scikit-learn's
DummyClassifier and seeded simulation.

* majority: accuracy = max p_k; its per-class metrics equal scikit-learn's
  metrics of ``DummyClassifier(strategy="most_frequent")`` predictions;
* uniform: accuracy = 1/K; stratified: accuracy = Σ p_k²;
* uniform and stratified expected tables equal the mean of simulated tables
  (DummyClassifier "uniform" / "stratified", seeded) within Monte-Carlo error,
  and so do the linear functions of the table (accuracy, recall);
* training labels: the majority class and the stratified frequencies follow
  them, also when the training majority is not a label of the evaluated data.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from sklearn.dummy import DummyClassifier
from sklearn.metrics import precision_recall_fscore_support

import clfeval
from clfeval.evaluate._baselines import majority_index, majority_table, stratified_table, uniform_table
from tests._helpers._strategies import ZERO_DIVISIONS, assert_same, single_label_cases

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")


def _freqs(gold: list, labels: list[str]) -> list[Fraction]:
    c = Counter(str(x) for x in gold)
    n = len(gold)
    return [Fraction(c[lab], n) for lab in labels]


@SETTINGS
@given(case=single_label_cases(max_k=20), zd=st.sampled_from(ZERO_DIVISIONS))
def test_expected_accuracies_in_closed_form(case, zd) -> None:
    r = clfeval.report(case.gold, case.pred, zero_division=zd)
    p = _freqs(case.gold, r.labels)
    b = r.baselines
    assert_same(b.majority.accuracy, float(max(p)), "majority = max p_k", tol=1e-15)
    assert_same(b.uniform.accuracy, float(Fraction(1, len(r.labels))), "uniform = 1/K", tol=1e-12)
    assert_same(b.stratified.accuracy, float(sum(x * x for x in p)), "stratified = sum p_k^2", tol=1e-12)
    # single-label: micro-F1 = accuracy for every baseline too
    for name in ("majority", "uniform", "stratified"):
        assert_same(getattr(b, name).micro_f1, getattr(b, name).accuracy, f"{name} micro-F1", tol=1e-12)
    # the majority class is the most frequent gold label, ties to the first in label order
    assert b.majority.label == r.labels[p.index(max(p))]
    assert b.majority.source == "gold labels of the evaluated data"
    assert any("most frequent gold label of the evaluated data" in note for note in r.notes)


def test_uniform_is_over_the_reports_labels() -> None:
    r = clfeval.report(["a", "b", "b"], ["a", "b", "a"], labels=["a", "b", "z", "y"])
    assert r.baselines.uniform.accuracy == 0.25
    assert set(r.baselines.uniform.per_class) == {"a", "b", "z", "y"}


@SETTINGS
@given(case=single_label_cases(max_k=15), zd=st.sampled_from(ZERO_DIVISIONS), beta=st.sampled_from([1.0, 2.0]))
def test_majority_per_class_equals_sklearn_dummy_most_frequent(case, zd, beta) -> None:
    # DummyClassifier breaks ties by its sorted classes; clfeval by label order (natural order
    # by default): the same order for labels of one kind
    r = clfeval.report(case.gold, case.pred, zero_division=zd, beta=beta, positive=case.gold[0])
    by_str = {str(v) if not isinstance(v, str) else v: v for v in case.vocab}
    labels = [by_str[s] for s in r.labels]
    # the oracle sees each label's position in the report's (natural) order, which is also the
    # sorted order DummyClassifier breaks ties by (and numpy keeps every string intact)
    pos = {v: i for i, v in enumerate(labels)}
    gold = np.array([pos[v] for v in case.gold])
    dummy = DummyClassifier(strategy="most_frequent").fit(np.zeros((gold.size, 1)), gold)
    pred = dummy.predict(np.zeros((gold.size, 1)))
    assert r.labels[pred[0]] == r.baselines.majority.label
    codes = list(range(len(labels)))
    p, rc, f1, _ = precision_recall_fscore_support(gold, pred, labels=codes, average=None, zero_division=zd)
    entry = r.baselines.majority
    for i, lab in enumerate(r.labels):
        row = entry.per_class[lab]
        assert_same(row.precision, p[i], f"precision of {lab}")
        assert_same(row.recall, rc[i], f"recall of {lab}")
        assert_same(row.f1, f1[i], f"f1 of {lab}")
    macro = precision_recall_fscore_support(gold, pred, labels=codes, average="macro", zero_division=zd)[2]
    assert_same(entry.macro_f1, macro, "macro F1")
    assert_same(entry.positive_f1, f1[pos[case.gold[0]]], "positive F1")


def test_majority_tie_goes_to_the_first_label_in_label_order() -> None:
    gold = ["a"] * 5 + ["b"] * 5
    assert clfeval.report(gold, gold).baselines.majority.label == "a"
    assert clfeval.report(gold, gold, labels=["b", "a"]).baselines.majority.label == "b"
    assert majority_index(np.array([3, 7, 7])) == 1


def test_baseline_table_functions_by_hand() -> None:
    assert majority_table(np.array([90, 10]), 0).tolist() == [[90, 0], [10, 0]]
    assert uniform_table(np.array([4, 2])).tolist() == [[2, 2], [1, 1]]
    assert stratified_table(np.array([3, 1]), np.array([3, 1])).tolist() == [[2.25, 0.75], [0.75, 0.25]]


# --- simulation ----------------------------------------------------------------

def _simulated_tables(gold_codes: np.ndarray, k: int, strategy: str, reps: int, seed: int) -> np.ndarray:
    x = np.zeros((gold_codes.size, 1))
    # a RandomState instance (not an int, which would re-seed every predict call): each
    # call draws new predictions from one seeded stream
    dummy = DummyClassifier(strategy=strategy, random_state=np.random.RandomState(seed)).fit(x, gold_codes)
    tables = np.empty((reps, k, k))
    for r in range(reps):
        pred = dummy.predict(x)
        tables[r] = np.bincount(gold_codes * k + pred, minlength=k * k).reshape(k, k)
    return tables


@pytest.mark.parametrize("strategy", ["uniform", "stratified"])
@pytest.mark.parametrize("support", [[50, 30, 15, 5], [97, 3], [10, 10, 10], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]])
def test_expected_tables_equal_the_mean_of_simulated_tables(strategy, support) -> None:
    k = len(support)
    support = np.array(support)
    gold_codes = np.repeat(np.arange(k), support)
    reps = 600
    sims = _simulated_tables(gold_codes, k, strategy, reps, seed=12345)
    q = np.full(k, 1 / k) if strategy == "uniform" else support / support.sum()
    expected = uniform_table(support) if strategy == "uniform" else stratified_table(support, support / support.sum())
    # each cell of one simulated table is Binomial(t_i, q_j): the mean of `reps` has sd sqrt(t_i q_j (1 - q_j) / reps)
    sd = np.sqrt(support[:, None] * q[None, :] * (1 - q[None, :]) / reps)
    diff = np.abs(sims.mean(axis=0) - expected)
    assert np.all(diff <= 5 * sd + 1e-12), (diff / np.maximum(sd, 1e-12)).max()
    # the report's numbers that are linear in the table are expectations too
    labels = [f"c{i}" for i in range(k)]
    gold = [labels[i] for i in gold_codes]
    r = clfeval.report(gold, gold)
    entry = getattr(r.baselines, strategy)
    acc = np.trace(sims, axis1=1, axis2=2) / support.sum()
    assert abs(entry.accuracy - acc.mean()) <= 5 * acc.std(ddof=1) / math.sqrt(reps)
    rec = np.diagonal(sims, axis1=1, axis2=2) / support
    for i, lab in enumerate(labels):
        bound = 5 * rec[:, i].std(ddof=1) / math.sqrt(reps) + 1e-12
        assert abs(entry.per_class[lab].recall - rec[:, i].mean()) <= bound


# --- training labels ---------------------------------------------------------------

def test_training_majority_differs_from_gold_majority() -> None:
    gold = ["a"] * 6 + ["b"] * 4
    pred = ["a"] * 10
    train = ["b"] * 10 + ["a"] * 5
    r = clfeval.report(gold, pred, train_labels=train)
    m = r.baselines.majority
    assert m.label == "b" and m.source == "training labels"
    assert m.accuracy == 0.4  # always "b": the 4 gold b's
    # stratified with training frequencies q: accuracy = sum p_k q_k
    assert r.baselines.stratified.accuracy == pytest.approx(0.6 * 5 / 15 + 0.4 * 10 / 15, abs=1e-15)
    assert r.baselines.stratified.source == "training labels"
    assert not any("evaluated data" in note for note in r.notes)
    # the same as scikit-learn's DummyClassifier fitted on the training labels
    dummy = DummyClassifier(strategy="most_frequent").fit(np.zeros((15, 1)), train)
    p_sk = dummy.predict(np.zeros((10, 1)))
    p, rc, f1, _ = precision_recall_fscore_support(gold, p_sk, labels=["a", "b"], average=None, zero_division=0)
    for i, lab in enumerate(["a", "b"]):
        assert m.per_class[lab].to_dict() == pytest.approx({"precision": p[i], "recall": rc[i], "f1": f1[i]})
    # without training labels the gold majority ("a") is used, and the report says so
    assert clfeval.report(gold, pred).baselines.majority.label == "a"


def test_training_majority_absent_from_the_evaluated_labels() -> None:
    gold = ["a", "a", "b"]
    pred = ["a", "b", "b"]
    train = ["c"] * 10 + ["a"] * 2
    r = clfeval.report(gold, pred, train_labels=train)
    m = r.baselines.majority
    assert m.label == "c"
    assert m.accuracy == 0.0  # "c" is never right here
    assert set(m.per_class) == {"a", "b"}  # rows for the evaluated labels only
    assert all(row.to_dict() == {"precision": 0.0, "recall": 0.0, "f1": 0.0} for row in m.per_class.values())
    assert m.macro_f1 == 0.0
    # stratified: q = (a 2/12, b 0, c 10/12) over the training labels
    s = r.baselines.stratified
    assert s.accuracy == pytest.approx((2 / 3) * (2 / 12) + (1 / 3) * 0, abs=1e-15)
    assert s.per_class["a"].recall == pytest.approx(2 / 12)
    assert s.per_class["b"].recall == 0.0
    assert r.labels == ["a", "b"]  # the evaluated labels are not extended


def test_training_labels_match_by_string_form() -> None:
    r = clfeval.report(["1", "1", "2"], ["1", "2", "2"], train_labels=[2, 2, 2, 1])
    assert r.baselines.majority.label == "2"
    assert r.baselines.majority.accuracy == pytest.approx(1 / 3)


def test_multilabel_baselines_in_closed_form() -> None:
    # prevalences: a 3/4, b 1/4, c 2/4
    gold = ["a|b", "a", "a|c", "c"]
    pred = ["a", "a", "c", ""]
    r = clfeval.report(gold, pred, multilabel=True)
    prev = {"a": 0.75, "b": 0.25, "c": 0.5}
    b = r.baselines
    # majority predicts a label iff it is in most items (c at exactly 1/2 is not predicted)
    assert b.majority.hamming_loss == pytest.approx(np.mean([min(p, 1 - p) for p in prev.values()]))
    assert b.majority.per_class["a"].recall == 1.0 and b.majority.per_class["c"].recall == 0.0
    assert b.uniform.hamming_loss == 0.5
    assert b.stratified.hamming_loss == pytest.approx(np.mean([2 * p * (1 - p) for p in prev.values()]))
    for lab, p in prev.items():
        assert b.stratified.per_class[lab].recall == pytest.approx(p)
        assert b.stratified.per_class[lab].precision == pytest.approx(p)  # E[TP]/E[TP+FP] = p·q/q
        assert b.stratified.per_class[lab].accuracy == pytest.approx(1 - 2 * p * (1 - p))


def test_multilabel_baselines_follow_training_labels() -> None:
    gold = ["a|b", "b", "b|c", "c"]          # evaluated prevalences: a 1/4, b 3/4, c 2/4
    pred = ["a", "b", "b", ""]
    train = ["a|b", "a", "a|c", "a", "c"]    # training prevalences: a 4/5, b 1/5, c 2/5
    r = clfeval.report(gold, pred, multilabel=True, train_labels=train)
    p = {"a": 0.25, "b": 0.75, "c": 0.5}
    q = {"a": 0.8, "b": 0.2, "c": 0.4}
    b = r.baselines
    assert b.majority.source == "training labels"
    # majority: a is predicted for every item (train prevalence > 1/2), b and c never
    assert b.majority.per_class["a"].recall == 1.0
    assert b.majority.per_class["b"].recall == 0.0
    assert b.majority.hamming_loss == pytest.approx(np.mean([1 - p["a"], p["b"], p["c"]]))
    # stratified: label l predicted with its training prevalence q_l
    exp = np.mean([p[lab] * (1 - q[lab]) + (1 - p[lab]) * q[lab] for lab in p])
    assert b.stratified.hamming_loss == pytest.approx(exp)
    for lab in p:
        assert b.stratified.per_class[lab].recall == pytest.approx(q[lab])
        assert b.stratified.per_class[lab].precision == pytest.approx(p[lab])
