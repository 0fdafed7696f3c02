"""The protocol runner: fold metrics that can be recomputed, no leakage, the spread, the train–test gap."""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import pyarrow.compute as pc
import pytest
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.metrics import accuracy_score, f1_score
from sklearn.pipeline import Pipeline
from sklearn.tree import DecisionTreeClassifier

from clfeval import report
from clfeval.errors import DataError, UsageError
from clfeval.io._readers import read_frame
from clfeval.protocols._api import (
    Protocol,
    ThresholdStep,
    cross_validate,
    holdout,
    run_protocol,
    split,
    spread,
    write_predictions,
)
from clfeval.text._models import LogOddsMultinomialNB, make_model, make_vectorizer
from tests._helpers.planned import Planned

WORDS = {"grain": ["wheat", "corn", "grain", "harvest", "crop"], "oil": ["crude", "oil", "barrel", "opec", "well"],
         "fx": ["dollar", "yen", "currency", "rate", "bank"]}
FILLER = ["the", "said", "market", "prices", "trade", "year", "new", "week"]


def corpus(n: int = 300, seed: int = 0, shares=(0.5, 0.3, 0.2)):
    rng = np.random.default_rng(seed)
    names = list(WORDS)
    docs, y = [], []
    for _ in range(n):
        c = names[rng.choice(3, p=shares)]
        other = names[rng.integers(3)]
        w = list(rng.choice(WORDS[c], 2)) + list(rng.choice(WORDS[other], 2)) + list(rng.choice(FILLER, 4))
        rng.shuffle(w)
        docs.append(" ".join(w))
        y.append(c)
    return docs, y


# --- per-fold metrics recomputed from the out-of-fold file ----------------------------------------

@pytest.mark.parametrize("ext", [".csv", ".tsv", ".jsonl", ".parquet"])
def test_per_fold_metrics_recomputed_from_the_file_equal_the_reported_ones(tmp_path, ext):
    docs, y = corpus(240, seed=1)
    res = cross_validate(make_model("nb"), docs, y, folds=4, stratified=True, repeats=2, seed=3)
    path = write_predictions(res, tmp_path / f"oof{ext}")
    table = read_frame(path)
    assert table.column_names[:5] == ["repeat", "id", "fold", "gold", "pred"]
    assert {f"score:{c}" for c in ("fx", "grain", "oil")} <= set(table.column_names)
    assert table.num_rows == 2 * 240
    rows = table.to_pylist()
    groups = defaultdict(list)
    for r in rows:
        groups[(int(r["repeat"]), int(r["fold"]))].append(r)
    assert len(groups) == 8
    for f in res.folds:
        part = groups[(f.repeat, f.fold)]
        gold = [r["gold"] for r in part]
        pred = [r["pred"] for r in part]
        assert len(part) == f.n_test
        # scikit-learn as the oracle (macro over the labels of this fold, as the fold's own table)
        assert f.metrics["accuracy"] == pytest.approx(accuracy_score(gold, pred), abs=1e-12)
        assert f.metrics["macro_f1"] == pytest.approx(f1_score(gold, pred, average="macro"), abs=1e-12)
        assert f.metrics["weighted_f1"] == pytest.approx(f1_score(gold, pred, average="weighted"), abs=1e-12)
        rep = report(gold, pred)
        for m in ("balanced_accuracy", "mcc", "kappa"):
            assert f.metrics[m] == pytest.approx(getattr(rep, m), abs=1e-12)
    # each repeat: every item once; the pooled table is the sum of the folds
    for r in (1, 2):
        ids = sorted(int(x["id"]) for x in rows if int(x["repeat"]) == r)
        assert ids == list(range(240))
    all_gold = [r["gold"] for r in rows]
    all_pred = [r["pred"] for r in rows]
    assert res.pooled.accuracy == pytest.approx(accuracy_score(all_gold, all_pred), abs=1e-12)


def test_predictions_follow_the_scores():
    docs, y = corpus(200, seed=2)
    res = cross_validate(make_model("svm"), docs, y, folds=5, seed=0)
    t = res.predictions
    labels = ["fx", "grain", "oil"]
    s = np.column_stack([t.column(f"score:{c}").to_numpy() for c in labels])
    assert [labels[i] for i in s.argmax(axis=1)] == t.column("pred").to_pylist()
    assert "repeat" not in t.column_names


def test_multilabel_fold_metrics_from_the_file(tmp_path):
    rng = np.random.default_rng(4)
    docs, sets = [], []
    for _ in range(240):
        labs = [c for c in WORDS if rng.random() < 0.35]
        w = sum((list(rng.choice(WORDS[c], 2)) for c in labs), []) + list(rng.choice(FILLER, 5))
        docs.append(" ".join(w))
        sets.append("|".join(labs))
    res = cross_validate(make_model("nb", multilabel=True), docs, sets, folds=4, stratified=True, seed=1,
                         multilabel=True)
    path = write_predictions(res, tmp_path / "oof.jsonl")
    rows = read_frame(path).to_pylist()
    for f in res.folds:
        part = [r for r in rows if int(r["fold"]) == f.fold]
        rep = report([r["gold"] for r in part], [r["pred"] for r in part], multilabel=True)
        for m, v in (("accuracy", rep.accuracy), ("hamming_loss", rep.hamming_loss), ("macro_f1", rep.macro.f1),
                     ("micro_f1", rep.micro.f1), ("jaccard", rep.jaccard)):
            assert f.metrics[m] == pytest.approx(v, abs=1e-12), m
    # a label is predicted iff its score is >= 0 (the default cut)
    for r in rows[:50]:
        pred = set(filter(None, r["pred"].split("|")))
        assert pred == {c for c in WORDS if r[f"score:{c}"] >= 0}


# --- the leakage detector ----------------------------------------------------------------------------

FITS: dict[str, list] = defaultdict(list)


class Spy(BaseEstimator, TransformerMixin):
    """Records the item ids (the leading number of each document) of every fit, with the labels it saw."""

    def __init__(self, token: str = "spy") -> None:
        self.token = token

    def fit(self, X, y=None):
        FITS[self.token].append(("fit", frozenset(int(d.split(" ", 1)[0]) for d in X), y is not None))
        return self

    def transform(self, X):
        return X  # the ids are digits, which the tokenizer drops


class IdScorer(LogOddsMultinomialNB):
    """NB whose decision_function is the item id, so a threshold chooser sees which items it scores."""

    def fit(self, X, y):
        super().fit(X[:, :-1], y)
        return self

    def decision_function(self, X):
        return np.asarray(X[:, -1].toarray()).ravel().astype(float)

    def predict(self, X):
        return super().predict(X[:, :-1])


class AppendId(BaseEstimator, TransformerMixin):
    def fit(self, X, y=None):
        self.vec_ = make_vectorizer().fit(X)
        return self

    def transform(self, X):
        import scipy.sparse as sp

        ids = np.array([[int(d.split(" ", 1)[0])] for d in X], dtype=float)
        return sp.hstack([self.vec_.transform(X), sp.csr_matrix(ids)]).tocsr()


def leaked(records: list, folds: list) -> list[str]:
    """Every fit recorded between two fold boundaries must use only that fold's training items."""
    problems = []
    fold_i = 0
    for rec in records:
        if rec == "fold-done":
            fold_i += 1
            continue
        _, ids, _ = rec
        f = folds[fold_i]
        if ids & set(f.test.tolist()):
            problems.append(f"fold {fold_i + 1}: a fit saw {len(ids & set(f.test.tolist()))} test items")
        if not ids <= set(f.train.tolist()):
            problems.append(f"fold {fold_i + 1}: a fit saw items outside the training fold")
    return problems


def test_no_label_using_step_ever_sees_its_test_fold():
    docs, y = corpus(200, seed=5)
    docs = [f"{i} {d}" for i, d in enumerate(docs)]
    from sklearn.feature_selection import SelectKBest, chi2

    token = "pipeline"
    FITS[token].clear()
    chosen: list = []

    def choose(is_pos, scores):
        chosen.append(frozenset(int(s) for s in scores))
        FITS[token].append(("fit", frozenset(int(s) for s in scores), True))
        return float(np.median(scores))

    model = Pipeline([("spy", Spy(token)), ("features", AppendId()), ("select", SelectKBest(chi2, k="all")),
                      ("classifier", IdScorer())])
    y2 = ["grain" if c == "grain" else "other" for c in y]
    protocol = Protocol.kfold(5, stratified=True, repeats=2)
    res = run_protocol(model, docs, y2, protocol=protocol, seed=11,
                       threshold=ThresholdStep(choose, dev_size=0.25, name="median"),
                       progress=lambda done, total, what: FITS[token].append("fold-done") if done else None)
    folds = split(protocol, y2, seed=11)
    fits = [r for r in FITS[token] if r != "fold-done"]
    # per fold: the inner (development) model, the dev-scored threshold choice, the full-fold model
    assert len(fits) == 3 * len(folds)
    assert all(with_labels for _, _, with_labels in fits)
    assert leaked(FITS[token], folds) == []
    assert len(chosen) == len(folds)
    for ids, f in zip(chosen, folds, strict=True):
        assert len(ids) == math.ceil(0.25 * len(f.train))  # the development split of the training fold
    assert all(f.thresholds is not None for f in res.folds)


def test_the_leakage_detector_catches_a_leak():
    """Fitting the vocabulary on all items before splitting — the classic mistake — is caught."""
    docs, y = corpus(100, seed=6)
    docs = [f"{i} {d}" for i, d in enumerate(docs)]
    token = "leaky"
    FITS[token].clear()
    Spy(token).fit(docs, y)  # a step fitted on everything
    folds = split(Protocol.kfold(5), y, seed=0)
    assert leaked(FITS[token], folds) != []


def test_the_threshold_step_applies_its_cut_to_the_test_scores():
    docs, y = corpus(300, seed=7, shares=(0.2, 0.4, 0.4))
    y2 = ["grain" if c == "grain" else "other" for c in y]

    res = cross_validate(make_model("nb"), docs, y2, folds=5, stratified=True, seed=2,
                         threshold=ThresholdStep(_brute_best_f1, positive="grain", name="f1"))
    t = res.predictions
    fold = np.asarray(t.column("fold"))
    score = t.column("score:grain").to_numpy()
    pred = np.array(t.column("pred").to_pylist())
    for f in res.folds:
        cut = f.thresholds["grain"]
        m = fold == f.fold
        assert np.array_equal(pred[m] == "grain", score[m] >= cut)
    assert res.signature["threshold"]["objective"] == "f1"


def test_threshold_step_is_refused_on_more_than_two_classes():
    docs, y = corpus(60)
    with pytest.raises(UsageError, match="binary or multi-label"):
        cross_validate(make_model("nb"), docs, y, folds=3, seed=0, threshold=ThresholdStep(lambda g, s: 0.0))


# --- mission §10 example 10: the arithmetic of the spread -----------------------------------------

def _planned_run(protocol: Protocol, correct: list[int], seed: int):
    n = 500
    y = ["a" if i % 3 else "b" for i in range(n)]
    X = np.array([[i, 1 if lab == "a" else 0] for i, lab in enumerate(y)])
    folds = split(protocol, y, seed=seed)
    plan = {}
    for f, c in zip(folds, correct, strict=True):
        assert len(f.test) == 100
        plan[tuple(sorted(f.train.tolist()))] = set(f.test[: 100 - c].tolist())
    return run_protocol(Planned(plan), X, y, protocol=protocol, seed=seed)


def test_mission_example_10_five_folds():
    res = _planned_run(Protocol.kfold(5), [82, 80, 84, 81, 83], seed=4)
    assert [f.metrics["accuracy"] for f in res.folds] == [0.82, 0.80, 0.84, 0.81, 0.83]
    s = res.spread["accuracy"]
    assert s.mean == pytest.approx(0.82, abs=1e-12)
    assert s.std == pytest.approx(math.sqrt((0 + 4 + 4 + 1 + 1) / 4) / 100, abs=1e-12)  # ddof = 1
    assert (s.min, s.max, s.n) == (0.80, 0.84, 5)
    assert res.pooled.accuracy == pytest.approx(410 / 500)  # every item tested once


def test_mission_example_10_repeated_holdout():
    res = _planned_run(Protocol.holdout(0.2, repeats=5), [85, 82, 88, 84, 86], seed=9)
    assert [f.metrics["accuracy"] for f in res.folds] == [0.85, 0.82, 0.88, 0.84, 0.86]
    s = res.spread["accuracy"]
    assert s.mean == pytest.approx(0.85, abs=1e-12)
    assert s.std == pytest.approx(math.sqrt((0 + 9 + 9 + 1 + 1) / 4) / 100, abs=1e-12)
    assert (s.min, s.max) == (0.82, 0.88)


def test_spread_edge_cases():
    one = spread([0.7])
    assert one.mean == 0.7 and math.isnan(one.std) and one.n == 1
    s = spread([0.5, float("nan"), 0.7])
    assert s.n == 2 and s.mean == pytest.approx(0.6)
    assert spread([]).n == 0


# --- train–test gap, baselines, holdout parts ----------------------------------------------------

def test_train_test_gap_of_a_memorising_model():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 5))
    y = list(rng.choice(["a", "b"], size=200))  # labels unrelated to X: nothing to learn
    res = cross_validate(DecisionTreeClassifier(random_state=0), X, y, folds=5, seed=0)
    tvt = res.train_vs_test
    assert tvt["train"]["accuracy"] == 1.0 and tvt["train"]["macro_f1"] == 1.0
    assert tvt["test"]["accuracy"] == pytest.approx(res.spread["accuracy"].mean)
    assert tvt["gap"]["accuracy"] == pytest.approx(1.0 - res.spread["accuracy"].mean)
    assert tvt["gap"]["accuracy"] > 0.3
    assert tvt["gap"]["error_rate"] == pytest.approx(-tvt["gap"]["accuracy"])
    assert set(tvt["train"]) == set(res.metric_names)


def test_baselines_follow_each_training_fold():
    docs, y = corpus(100, seed=8)
    res = cross_validate(make_model("nb"), docs, y, folds=4, seed=1)
    folds = split(Protocol.kfold(4), y, seed=1)
    ya = np.array(y)
    for f, fr in zip(folds, res.folds, strict=True):
        labs, counts = np.unique(ya[f.train], return_counts=True)
        majority = labs[np.argmax(counts)]
        assert fr.baselines["majority"]["accuracy"] == pytest.approx(np.mean(ya[f.test] == majority))


def test_train_validation_test_holdout_reports_the_validation_part():
    docs, y = corpus(300, seed=9)
    res = holdout(make_model("logreg"), docs, y, test_size=0.2, val_size=0.2, stratified=True, repeats=2, seed=0)
    assert res.validation is not None and set(res.validation) == set(res.metric_names)
    assert all(f.n_validation == 60 and f.n_test == 60 and f.n_train == 180 for f in res.folds)
    assert res.predictions.num_rows == 120
    d = res.to_dict()
    assert d["protocol"]["val_size"] == 0.2 and d["folds"] == 1 and d["repeats"] == 2


def test_to_dict_has_the_documented_keys():
    docs, y = corpus(90, seed=10)
    d = cross_validate(make_model("nb"), docs, y, folds=3, seed=0).to_dict()
    for key in ("folds", "per_fold", "accuracy", "micro_f1", "macro_f1", "pooled", "train_vs_test", "run_id"):
        assert key in d
    assert set(d["accuracy"]) == {"mean", "std", "min", "max", "n"}
    assert d["pooled"]["kind"] == "multiclass"
    sig = d["signature"]
    assert sig["seed"] == 0 and "scikit-learn" in sig["versions"] and sig["protocol"]["folds"] == 3


def test_same_seed_same_predictions():
    docs, y = corpus(120, seed=11)
    a = cross_validate(make_model("svm"), docs, y, folds=4, stratified=True, seed=5).predictions
    b = cross_validate(make_model("svm"), docs, y, folds=4, stratified=True, seed=5).predictions
    assert a.equals(b)


def test_progress_is_reported_per_fold():
    docs, y = corpus(60, seed=12)
    calls = []
    cross_validate(make_model("nb"), docs, y, folds=3, repeats=2, seed=0, progress=lambda d, t, w: calls.append((d, t)))
    assert calls == [(i, 6) for i in range(7)]


def test_bad_input_is_refused():
    docs, y = corpus(30)
    with pytest.raises(DataError, match="only the class 'grain'"):
        cross_validate(make_model("nb"), docs, ["grain"] * 30, folds=3, seed=0)
    with pytest.raises(DataError, match="differ in number"):
        cross_validate(make_model("nb"), docs[:-1], y, folds=3, seed=0)
    with pytest.raises(UsageError, match="unknown metric 'f2_score'"):
        cross_validate(make_model("nb"), docs, y, folds=3, seed=0, metrics=["accuracy", "f2_score"])
    with pytest.raises(DataError, match="empty vocabulary"):
        cross_validate(make_model("nb"), ["123 456"] * 30, y, folds=3, seed=0)


def test_a_per_class_metric_can_be_reported():
    docs, y = corpus(150, seed=13)
    res = cross_validate(make_model("nb"), docs, y, folds=3, seed=0, metrics=["accuracy", "f1:grain"])
    rows = res.predictions.to_pylist()
    for f in res.folds:
        part = [r for r in rows if r["fold"] == f.fold]
        g = [r["gold"] == "grain" for r in part]
        p = [r["pred"] == "grain" for r in part]
        assert f.metrics["f1:grain"] == pytest.approx(f1_score(g, p), abs=1e-12)


def test_a_class_missing_from_a_training_fold_gets_no_score():
    y = ["a"] * 20 + ["b"] * 20 + ["c"]
    docs = ["alpha beta" if lab == "a" else "gamma delta" if lab == "b" else "omega" for lab in y]
    res = cross_validate(make_model("nb"), docs, y, folds=3, seed=0)
    t = res.predictions
    row = t.filter(pc.equal(t.column("gold"), "c")).to_pylist()[0]
    assert row["score:c"] is None  # the model of that fold never saw class c


def _brute_best_f1(is_pos, scores):
    best = (-1.0, 0.0)
    for t in np.unique(scores):
        p = scores >= t
        f1 = 2 * np.sum(p & is_pos) / (p.sum() + is_pos.sum())
        if f1 > best[0] or (f1 == best[0] and t > best[1]):
            best = (f1, t)
    return best[1]


def test_the_curves_objective_step_chooses_the_brute_force_cut_and_shows_hindsight():
    docs, y = corpus(300, seed=14, shares=(0.2, 0.4, 0.4))
    y2 = ["grain" if c == "grain" else "other" for c in y]
    kw = dict(folds=5, stratified=True, seed=4, metrics=["accuracy", "f1:grain"])
    mine = cross_validate(make_model("nb"), docs, y2, threshold=ThresholdStep.for_objective("f1", positive="grain"),
                          **kw)
    brute = cross_validate(make_model("nb"), docs, y2, threshold=ThresholdStep(_brute_best_f1, positive="grain"), **kw)
    assert [f.thresholds for f in mine.folds] == [f.thresholds for f in brute.folds]
    t = mine.predictions
    for f in mine.folds:
        rows = f.cut_rows["grain"]
        part = t.filter(pc.equal(t.column("fold"), f.fold))
        g = np.array(part.column("gold").to_pylist()) == "grain"
        s = part.column("score:grain").to_numpy()
        assert rows["hindsight"]["threshold"] == _brute_best_f1(g, s)  # chosen on the test fold itself
        assert rows["chosen"]["f1"] == pytest.approx(f.metrics["f1:grain"])
        assert rows["hindsight"]["f1"] >= max(rows["chosen"]["f1"], rows["default"]["f1"]) - 1e-12
        assert rows["default"]["threshold"] == 0.0
    summary = mine.thresholds["labels"]["grain"]
    assert summary["chosen"]["f1"] == pytest.approx(mine.spread["f1:grain"].mean)
    assert "optimistic" in mine.thresholds["note"]


def test_an_unreachable_precision_target_keeps_the_default_cut():
    docs, y = corpus(120, seed=15)
    y2 = ["grain" if c == "grain" else "other" for c in y]
    step = ThresholdStep(lambda g, s: None, positive="grain", name="never")
    res = cross_validate(make_model("nb"), docs, y2, folds=3, seed=0, threshold=step)
    assert all(f.thresholds == {"grain": 0.0} for f in res.folds)
    assert any("no cut on the development split meets the objective never" in n for n in res.notes)
