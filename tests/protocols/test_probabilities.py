"""``probabilities=True`` of ``clfeval.cv`` / ``clfeval.holdout`` / ``run_protocol`` (issue 41, item 2): one
``p:<label>`` column per class in the predictions table, each item's ``predict_proba`` from the model that did not
see it. The oracle: scikit-learn models fitted here, by hand, on the other folds (the folds read off the table's
``fold`` column, which the runner's own tests check), their ``predict_proba`` put in the label order by hand."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sklearn")

from sklearn.base import clone  # noqa: E402
from sklearn.feature_extraction.text import CountVectorizer  # noqa: E402
from sklearn.naive_bayes import MultinomialNB  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402

import clfeval  # noqa: E402
from clfeval.errors import UsageError  # noqa: E402
from clfeval.protocols import cross_validate, holdout  # noqa: E402

VOCAB = {"acq": ["shares", "stake", "merger", "bid"], "crude": ["oil", "barrel", "opec", "crude"],
         "grain": ["wheat", "corn", "grain", "harvest"]}


def synthetic(n: int = 60, seed: int = 0) -> tuple[list[str], list[str]]:
    """Texts of three topics, each mixing its own words with another topic's (so probabilities are not 0/1)."""
    rng = np.random.default_rng(seed)
    names = sorted(VOCAB)
    texts, labels = [], []
    for i in range(n):
        c, o = names[i % 3], names[int(rng.integers(3))]
        words = list(rng.choice(VOCAB[c], 3)) + list(rng.choice(VOCAB[o], 2)) + ["said"]
        texts.append(" ".join(words))
        labels.append(c)
    return texts, labels


def by_hand(estimator, texts, labels, train_ids, test_ids, classes):
    """``predict_proba`` of a clone fitted on ``train_ids`` (row positions), columns in ``classes`` order (0 for a
    class the fitted model never saw)."""
    model = clone(estimator).fit([texts[i] for i in train_ids], [labels[i] for i in train_ids])
    p = model.predict_proba([texts[i] for i in test_ids])
    out = np.zeros((len(test_ids), len(classes)))
    for j, c in enumerate(model.classes_):
        out[:, classes.index(c)] = p[:, j]
    return out


def p_columns(table, classes):
    return np.column_stack([np.asarray(table.column(f"p:{c}").to_pylist(), dtype=float) for c in classes])


def test_out_of_fold_probabilities_are_those_of_the_model_fitted_on_the_other_folds():
    texts, labels = synthetic()
    est = make_pipeline(CountVectorizer(), MultinomialNB())
    r = cross_validate(est, texts, labels, folds=4, stratified=True, seed=3, probabilities=True)
    t = r.predictions
    classes = sorted(VOCAB)
    assert [c for c in t.column_names if c.startswith("p:")] == [f"p:{c}" for c in classes]
    assert t.column_names[:4] == ["id", "fold", "gold", "pred"]
    ids, folds = np.asarray(t.column("id").to_pylist()), np.asarray(t.column("fold").to_pylist())
    assert sorted(ids.tolist()) == list(range(60))  # ids are row positions here: every item once
    got = p_columns(t, classes)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    for f in range(1, 5):
        test = ids[folds == f]
        train = np.setdiff1d(np.arange(60), test)
        want = by_hand(est, texts, labels, train.tolist(), test.tolist(), classes)
        np.testing.assert_allclose(got[folds == f], want, rtol=1e-12, atol=1e-15)
    # the gold column is the item's own label (the rows are where the ids say)
    assert t.column("gold").to_pylist() == [labels[i] for i in ids]


def test_front_door_cv_with_a_builtin_model_equals_the_model_fitted_by_hand():
    texts, labels = synthetic(45, seed=1)
    r = clfeval.cv(texts, labels, model="logreg", folds=3, seed=2, probabilities=True)
    t = r.predictions
    classes = sorted(VOCAB)
    ids = np.asarray(t.column("id").to_pylist()) - 1  # row numbers from 1
    folds = np.asarray(t.column("fold").to_pylist())
    got = p_columns(t, classes)
    est = clfeval.text.make_model("logreg", seed=2)
    for f in range(1, 4):
        test = ids[folds == f]
        train = np.setdiff1d(np.arange(45), test)
        np.testing.assert_allclose(got[folds == f], by_hand(est, texts, labels, train.tolist(), test.tolist(),
                                                            classes), rtol=1e-9, atol=1e-12)
    assert r.signature["probabilities"].startswith("p:<label>")


def test_holdout_probabilities_are_those_of_the_test_items():
    texts, labels = synthetic(40, seed=2)
    r = clfeval.holdout(texts, labels, test_size=0.25, seed=5, probabilities=True)
    t = r.predictions
    classes = sorted(VOCAB)
    test = (np.asarray(t.column("id").to_pylist()) - 1).tolist()
    assert len(test) == 10
    train = np.setdiff1d(np.arange(40), test).tolist()
    want = by_hand(clfeval.text.make_model("nb"), texts, labels, train, test, classes)
    np.testing.assert_allclose(p_columns(t, classes), want, rtol=1e-9, atol=1e-12)


def test_a_class_the_fold_model_never_saw_gets_probability_zero_and_rows_still_sum_to_one():
    texts, labels = synthetic(30, seed=3)
    texts.append("rare rare rare")
    labels.append("zzz")  # one item: the fold that tests it has a model that never saw the class
    est = make_pipeline(CountVectorizer(), MultinomialNB())
    r = cross_validate(est, texts, labels, folds=3, seed=0, probabilities=True)
    t = r.predictions
    classes = sorted(set(labels))
    got = p_columns(t, classes)
    ids = np.asarray(t.column("id").to_pylist())
    assert got[ids == 30, classes.index("zzz")].tolist() == [0.0]
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=0, atol=1e-12)


class NoProba:
    """An estimator without predict_proba whose fit must never be called."""

    def fit(self, X, y):
        raise AssertionError("fitted although the option was refused")

    def predict(self, X):
        raise AssertionError("predicted")

    def get_params(self, deep=True):
        return {}


def test_a_model_without_predict_proba_is_refused_by_name_before_any_fitting():
    texts, labels = synthetic(30)
    with pytest.raises(UsageError, match=r"the model svm \(tf-idf \+ linear SVM\) has no predict_proba.*probabilities"):
        clfeval.cv(texts, labels, model="svm", folds=3, probabilities=True)
    with pytest.raises(UsageError, match="the model NoProba has no predict_proba"):
        cross_validate(NoProba(), texts, labels, folds=3, seed=0, probabilities=True)
    with pytest.raises(UsageError, match="the model LinearSVC has no predict_proba"):
        holdout(make_pipeline(CountVectorizer(), LinearSVC()), texts, labels, seed=0, probabilities=True)


def test_label_sets_are_refused():
    texts, _ = synthetic(30)
    sets = ["acq|grain", "crude", "grain"] * 10
    with pytest.raises(UsageError, match="single-label data; label sets"):
        clfeval.cv(texts, sets, multilabel=True, folds=3, probabilities=True)


def test_without_the_option_the_table_is_unchanged():
    texts, labels = synthetic(45)
    plain = clfeval.cv(texts, labels, folds=3, seed=4)
    withp = clfeval.cv(texts, labels, folds=3, seed=4, probabilities=True)
    assert not any(c.startswith("p:") for c in plain.predictions.column_names)
    assert "probabilities" not in plain.signature
    kept = withp.predictions.select([c for c in withp.predictions.column_names if not c.startswith("p:")])
    assert kept.equals(plain.predictions)
    same = {k: v for k, v in withp.to_dict().items() if k != "signature"}  # NaN != NaN: compare the JSON text
    assert json.dumps(same, sort_keys=True) == json.dumps({k: v for k, v in plain.to_dict().items()
                                                           if k != "signature"}, sort_keys=True)
