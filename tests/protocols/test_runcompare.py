"""Two runs compared fold by fold: refused (saying why) unless they share data, protocol, seed and folds; the
corrected t and 5×2cv against the formulas written again here; the pooled bootstrap against compare();
`clfeval runs compare` and `clfeval cv --compare-model` end to end."""

from __future__ import annotations

import json
import math

import numpy as np
import pyarrow as pa
import pytest
from scipy import stats

from clfeval import compare
from clfeval.errors import DataError
from clfeval.protocols._runcompare import compare_results, compare_runs
from clfeval.protocols._runlog import RunLog
from tests._helpers.clihelp import run
from tests._helpers.news import make_data


def folds(values, n_train=80, n_test=20, metric="macro_f1"):
    return [{"repeat": 1, "fold": i + 1, "n_train": n_train, "n_test": n_test, metric: v} for i, v in enumerate(values)]


def predictions(fold_of):
    n = len(fold_of)
    return pa.table({"id": [f"d{i}" for i in range(n)], "fold": list(fold_of), "gold": ["a", "b"] * (n // 2),
                     "pred": ["a"] * n})


def record(log, values, *, seed=1, data="sha256:" + "1" * 64, task="topic", protocol=None, model="nb",
           fold_of=(1, 2, 3, 4, 5) * 20):
    protocol = protocol or {"kind": "kfold", "folds": 5, "repeats": 1, "stratified": True}
    return log.record("cv", settings={"model": {"name": model}, "protocol": protocol, "seed": seed}, seed=seed,
                      protocol=protocol, summary={"macro_f1": {"mean": float(np.mean(values))}},
                      per_fold=folds(values), data_hash=data, task=task, data_path="news.csv",
                      predictions=predictions(fold_of))


@pytest.fixture
def log(tmp_path):
    return RunLog(tmp_path / "runs.sqlite")


def test_two_runs_on_the_same_folds_equal_the_formulas(log):
    a = [0.82, 0.80, 0.84, 0.81, 0.83]
    b = [0.80, 0.79, 0.81, 0.81, 0.80]
    ra, rb = record(log, a, model="svm"), record(log, b, model="nb")
    r = compare_runs(log, ra, rb, metric="macro_f1", samples=500)
    d = np.subtract(a, b)
    t = d.mean() / math.sqrt((1 / 5 + 20 / 80) * d.var(ddof=1))  # Nadeau & Bengio, written again
    assert r.comparison.corrected.statistic == pytest.approx(t)
    assert r.comparison.corrected.p_value == pytest.approx(stats.t.sf(t, 4))
    assert r.a.name == f"run {ra} (svm)" and r.b.name == f"run {rb} (nb)"
    assert any("every item in the same fold" in c for c in r.checked)
    assert r.comparison.pooled is not None and r.rejected == (r.comparison.corrected.p_value < 0.05)
    json.dumps(r.to_dict(), allow_nan=False)


@pytest.mark.parametrize("change,needle", [
    ({"seed": 2}, "the seeds differ (1 and 2)"),
    ({"data": "sha256:" + "2" * 64}, "the data differ"),
    ({"task": "tags"}, "the label columns differ ('topic' and 'tags')"),
    ({"protocol": {"kind": "kfold", "folds": 5, "repeats": 1, "stratified": False}},
     "the protocols differ (stratified: True against False)"),
])
def test_runs_that_differ_are_refused_saying_why(log, change, needle):
    ra = record(log, [0.8] * 5)
    rb = record(log, [0.7] * 5, **change)
    with pytest.raises(DataError) as e:
        compare_runs(log, ra, rb)
    assert needle in str(e.value) and "cannot be compared fold by fold" in str(e.value)


def test_items_in_other_folds_are_refused(log):
    ra = record(log, [0.8, 0.81, 0.79, 0.8, 0.82])
    rb = record(log, [0.7, 0.71, 0.69, 0.7, 0.72], fold_of=(2, 1, 3, 4, 5) * 20)
    with pytest.raises(DataError, match=r"the folds differ: item 'd0' \(repeat 1\) is in fold 1 of run 1 \(nb\) and "
                                        r"fold 2 of run 2 \(nb\) \(40 items differ\)"):
        compare_runs(log, ra, rb)
    with pytest.raises(DataError, match="compared with itself"):
        compare_runs(log, ra, ra)


def test_protocol_results_five_by_two_and_the_pooled_bootstrap():
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier

    from clfeval.protocols._api import cross_validate

    X, y = make_classification(n_samples=200, n_features=6, random_state=1)
    y = np.where(y == 1, "pos", "neg")
    ra = cross_validate(LogisticRegression(max_iter=300), X, y, folds=2, repeats=5, seed=3)
    rb = cross_validate(DecisionTreeClassifier(max_depth=2, random_state=0), X, y, folds=2, repeats=5, seed=3)
    r = compare_results(ra, rb, metric="accuracy", names=("logreg", "tree"), samples=1000, seed=2)
    p = np.array([f.metrics["accuracy"] for f in ra.folds]) - np.array([f.metrics["accuracy"] for f in rb.folds])
    p = p.reshape(5, 2)
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    assert r.comparison.five_by_two["t"].statistic == pytest.approx(p[0, 0] / math.sqrt(s2.sum() / 5))
    first = np.asarray(ra.predictions.column("repeat")) == 1
    gold = np.asarray(ra.predictions.column("gold"))[first]
    pooled = compare(gold, np.asarray(ra.predictions.column("pred"))[first],
                     np.asarray(rb.predictions.column("pred"))[first], metric="accuracy", samples=1000, seed=2)
    assert r.comparison.pooled["p_value"] == pooled.p_value
    assert any("first repeat" in n for n in r.notes)
    other = cross_validate(LogisticRegression(max_iter=300), X, y, folds=2, repeats=5, seed=4)
    with pytest.raises(DataError, match="the seeds differ"):
        compare_results(ra, other, metric="accuracy")


def test_cli_cv_compare_model_records_both_and_runs_compare_agrees(tmp_path):
    data = make_data(tmp_path / "news.csv", n=150)
    db = tmp_path / "runs.sqlite"
    res = run("cv", data, "--text", "body", "--label", "topic", "--model", "nb", "--folds", "3", "--seed", "1",
              "--compare-model", "logreg", "--runs-db", db, "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert (d["runs"]["a"]["run_id"], d["runs"]["b"]["run_id"]) == (1, 2) and "recorded runs 1 (nb) and 2" in res.err
    assert len(d["comparison"]["per_fold"]) == 3 and d["metric"] == "macro_f1"
    again = run("runs", "compare", "1", "2", "--runs-db", db, "--format", "json")
    assert again.code == 0, again.err
    d2 = json.loads(again.out)
    assert d2["comparison"]["corrected_t"] == d["comparison"]["corrected_t"]
    assert d2["comparison"]["per_fold"] == d["comparison"]["per_fold"]
    run("cv", data, "--text", "body", "--label", "topic", "--model", "svm", "--folds", "3", "--seed", "2",
        "--runs-db", db)
    refused = run("runs", "compare", "1", "3", "--runs-db", db)
    assert refused.code == 1 and "the seeds differ (1 and 2)" in refused.err and refused.out == ""
    text = run("runs", "compare", "2", "1", "--runs-db", db)
    assert "clfeval runs compare — macro-F1: A: run 2 (logreg) against B: run 1 (nb)" in text.out
    assert "corrected resampled t (Nadeau–Bengio)" in text.out and "pooled bootstrap" in text.out
    both = run("cv", data, "--text", "body", "--label", "topic", "--compare-model", "nb", "--no-log")
    assert both.code == 2 and "is the model of --model" in both.err
    pred = run("cv", data, "--text", "body", "--label", "topic", "--compare-model", "svm", "--no-log",
               "--predictions", tmp_path / "oof.csv")
    assert pred.code == 2 and "--predictions writes one model's predictions" in pred.err
