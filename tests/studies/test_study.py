"""The Reuters-21578 study (`clfeval.studies._reuters`, `clfeval reuters`, `clfeval datasets fetch`).

Reference values: the published table of mission §9, typed in here (never
taken from the study's output), and an independent pipeline written in this
file with scikit-learn and PyStemmer directly (regex tokens, Snowball stems,
one MultinomialNB per category, log-odds from ``predict_joint_log_proba``;
for the single-label part: title once, BRIEF stories by their title, NLTK's
179 English stop words typed in from NLTK's output, Porter stems), with
scikit-learn's and SciPy's metrics as oracles. The whole study runs once
per test session; tests that need the corpus skip cleanly without it.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from clfeval.errors import UsageError
from clfeval.studies._reuters import PARTS, ReutersStudy, parse_parts, study_steps, study_text
from tests._helpers.clihelp import run
from tests._helpers.nltk_stopwords import ENGLISH_179

needs_data = pytest.mark.reuters

# Mission §9: category → (test positives, TP, FP, FN) on the 3,019 test stories.
PUBLISHED = {
    "earn": (1087, 1051, 79, 36), "acq": (719, 700, 50, 19), "crude": (189, 180, 71, 9),
    "money-fx": (179, 176, 146, 3), "grain": (149, 142, 109, 7), "interest": (131, 120, 89, 11),
    "trade": (117, 104, 170, 13), "ship": (89, 75, 32, 14), "wheat": (71, 65, 87, 6), "corn": (56, 48, 90, 8),
}
# Mission §9's stated averages.
MICRO = {"precision": 0.742, "recall": 0.955, "f1": 0.835}
MACRO = {"precision": 0.612, "recall": 0.925, "f1": 0.721, "f1_of_means": 0.737}
F1_BAR, AVERAGE_BAR = 0.04, 0.025


# --------------------------------------------------------------------------- #
# Fixtures: the study once, and an independent pipeline
# --------------------------------------------------------------------------- #


class Oracle:
    """The reference pipeline, written here with scikit-learn and PyStemmer only."""

    def __init__(self, stories: list[Any]) -> None:
        import Stemmer

        from clfeval.text._datasets import PUBLISHED_MODAPTE_EXCLUDED, modapte

        self.split = modapte(stories, exclude_newids=PUBLISHED_MODAPTE_EXCLUDED)
        self._stem = Stemmer.Stemmer("english").stemWord
        self._words: dict[str, str] = {}
        self._docs: dict[str, list[str]] = {}
        self._porter = Stemmer.Stemmer("porter").stemWord
        self._stop = set(ENGLISH_179)

    @staticmethod
    def text(s: Any) -> str:
        return "\n".join(p for p in (s.title, s.title, s.body) if p)

    @staticmethod
    def multiclass_text(s: Any) -> str:
        """The single-label part: the title once, then the body; a BRIEF story by its title alone."""
        return "\n".join(p for p in (s.title, "" if s.text_type == "BRIEF" else s.body) if p)

    def multiclass_tokens(self, text: str) -> list[str]:
        return [self._porter(w) for w in re.findall("[a-z]+", text.lower()) if w not in self._stop]

    def tokens(self, text: str) -> list[str]:
        out = self._docs.get(text)
        if out is None:
            out = []
            for w in re.findall("[a-z]+", text.lower()):
                st = self._words.get(w)
                if st is None:
                    st = self._words[w] = self._stem(w)
                out.append(st)
            self._docs[text] = out
        return out

    def log_odds(self, train_texts: list[str], Y: np.ndarray, test_texts: list[str]) -> np.ndarray:
        """Per column of Y, MultinomialNB(alpha=1) log-odds of the test texts; vocabulary from the training texts."""
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.naive_bayes import MultinomialNB

        vec = CountVectorizer(analyzer=self.tokens)
        X = vec.fit_transform(train_texts)
        Xt = vec.transform(test_texts)
        cols = []
        for j in range(Y.shape[1]):
            jll = MultinomialNB(alpha=1.0).fit(X, Y[:, j]).predict_joint_log_proba(Xt)
            cols.append(jll[:, 1] - jll[:, 0])
        return np.column_stack(cols)


@pytest.fixture(scope="session")
def oracle(reuters_stories: list[Any]) -> Oracle:
    return Oracle(reuters_stories)


@pytest.fixture(scope="session")
def oracle_scores(oracle: Oracle, study: ReutersStudy) -> dict[str, Any]:
    """The reference log-odds of the test stories for the study's ten categories."""
    sp = oracle.split
    cats = list(study.categories)
    Y = np.array([[c in s.topics for c in cats] for s in sp.train])
    Yt = np.array([[c in s.topics for c in cats] for s in sp.test])
    s = oracle.log_odds([oracle.text(x) for x in sp.train], Y, [oracle.text(x) for x in sp.test])
    return {"cats": cats, "Y": Y, "Yt": Yt, "scores": s}


def f1(tp: int, fp: int, fn: int) -> float:
    return 2 * tp / (2 * tp + fp + fn)


# --------------------------------------------------------------------------- #
# 1. binary NB against the published table and the reference pipeline
# --------------------------------------------------------------------------- #


@needs_data
def test_split_vocabulary_and_test_positives(study: ReutersStudy) -> None:
    assert (study.split["train"], study.split["test"]) == (7769, 3019)
    assert study.split["excluded_newids"] == [1199] and "1199" in study.split["why"]
    assert abs(study.vocabulary_size - 18135) / 18135 < 0.01
    assert set(study.categories) == set(PUBLISHED)
    for cat, (pos, *_rest) in PUBLISHED.items():
        assert study.binary["per_class"][cat]["support"] == pos


@needs_data
def test_per_category_f1_close_to_published(study: ReutersStudy) -> None:
    rows = study.binary["per_class"]
    for cat, (_, tp, fp, fn) in PUBLISHED.items():
        assert abs(rows[cat]["f1"] - f1(tp, fp, fn)) <= F1_BAR, cat
        assert math.isclose(study.published["per_class"][cat]["f1"], f1(tp, fp, fn))
        assert math.isclose(study.published["differences"]["per_class"][cat]["f1"],
                            rows[cat]["f1"] - f1(tp, fp, fn))
        # the accuracy trap: per-category accuracy (TP + TN) / 3019
        assert math.isclose(rows[cat]["accuracy"], (3019 - rows[cat]["fp"] - rows[cat]["fn"]) / 3019)


@needs_data
def test_micro_and_macro_close_to_published(study: ReutersStudy) -> None:
    for key, value in MICRO.items():
        assert abs(study.binary["micro"][key] - value) <= AVERAGE_BAR, key
    for key, value in MACRO.items():
        assert abs(study.binary["macro"][key] - value) <= AVERAGE_BAR, key
    # the published averages recomputed from the typed counts
    tp, fp, fn = (sum(v[i] for v in PUBLISHED.values()) for i in (1, 2, 3))
    assert math.isclose(study.published["micro"]["f1"], f1(tp, fp, fn))
    assert round(study.published["micro"]["f1"], 3) == MICRO["f1"]
    assert math.isclose(study.published["macro"]["f1"], np.mean([f1(*v[1:]) for v in PUBLISHED.values()]))


@needs_data
def test_binary_counts_equal_the_reference_pipeline(study: ReutersStudy, oracle_scores: dict[str, Any]) -> None:
    Yt, pred = oracle_scores["Yt"], oracle_scores["scores"] >= 0
    for j, cat in enumerate(oracle_scores["cats"]):
        row = study.binary["per_class"][cat]
        y, p = Yt[:, j], pred[:, j]
        assert (row["tp"], row["fp"], row["fn"]) == (int((y & p).sum()), int((~y & p).sum()), int((y & ~p).sum())), cat
        same = study.published["at_published_positives"][cat]
        at = oracle_scores["scores"][:, j] >= same["threshold"] - 1e-9
        assert same["predicted"] == int(at.sum()) == sum(PUBLISHED[cat][1:3]), cat
        assert (same["tp"], same["fp"]) == (int((y & at).sum()), int((~y & at).sum())), cat
    from sklearn.metrics import f1_score

    assert math.isclose(study.binary["micro"]["f1"], f1_score(Yt, pred, average="micro"))
    assert math.isclose(study.binary["macro"]["f1"], f1_score(Yt, pred, average="macro"))


# --------------------------------------------------------------------------- #
# 2–5: train–test gap, cross-validation, thresholds, average precision
# --------------------------------------------------------------------------- #


@needs_data
def test_train_vs_test(study: ReutersStudy) -> None:
    g = study.train_vs_test
    assert g["n_train"] == 7769 and g["n_test"] == 3019
    assert math.isclose(g["test"]["micro_f1"], study.binary["micro"]["f1"])
    assert math.isclose(g["gap"]["macro_f1"], g["train"]["macro_f1"] - g["test"]["macro_f1"])
    assert g["train"]["micro_f1"] > g["test"]["micro_f1"]  # optimism of scoring the training stories
    assert g["per_class"]["grain"]["train_support"] == 433


@needs_data
def test_cross_validation_spread(study: ReutersStudy) -> None:
    cv = study.cross_validation
    assert cv["folds"] == 10 and cv["n"] == 7769 and len(cv["per_fold"]) == 10
    assert sum(f["n_test"] for f in cv["per_fold"]) == 7769
    for key in ("micro_f1", "macro_f1"):
        values = [f[key] for f in cv["per_fold"]]
        s = cv[key]
        assert math.isclose(s["mean"], float(np.mean(values)))
        assert math.isclose(s["std"], float(np.std(values, ddof=1)))
        assert (s["min"], s["max"]) == (min(values), max(values))
        assert abs(s["mean"] - study.binary[key.split("_")[0]]["f1"]) < 0.05


@needs_data
def test_threshold_is_a_dev_score_with_the_best_dev_f1(study: ReutersStudy, oracle: Oracle,
                                                      oracle_scores: dict[str, Any]) -> None:
    from clfeval.protocols._splits import Protocol, split

    tu = study.threshold_tuning
    cats, Y = oracle_scores["cats"], oracle_scores["Y"]
    # the development split as the study documents it
    (fold,) = split(Protocol.holdout(0.2, stratified=True), Y, seed=0, multilabel=True)
    assert (tu["train"], tu["dev"]) == (fold.train.size, fold.test.size) == (6215, 1554)
    train = [oracle.text(s) for s in oracle.split.train]
    dev_scores = oracle.log_odds([train[i] for i in fold.train], Y[fold.train], [train[i] for i in fold.test])
    test_scores = oracle_scores["scores"]
    assert set(study.thresholds) == {"grain", "wheat", "corn", "trade"}
    for cat, row in study.thresholds.items():
        j = cats.index(cat)
        y, s = Y[fold.test, j], dev_scores[:, j]
        cut = row["threshold"]
        assert np.isclose(s, cut, rtol=1e-9, atol=1e-9).any(), cat  # a score of a development story
        best = max(f1(int((y & (s >= t)).sum()), int((~y & (s >= t)).sum()), int((y & (s < t)).sum()))
                   for t in np.unique(s))
        assert math.isclose(row["dev_f1"], best), cat
        yt, st = oracle_scores["Yt"][:, j], test_scores[:, j]
        tuned = f1(int((yt & (st >= cut)).sum()), int((~yt & (st >= cut)).sum()), int((yt & (st < cut)).sum()))
        assert math.isclose(row["tuned_f1"], tuned), cat
        assert math.isclose(row["default_f1"], study.binary["per_class"][cat]["f1"])
        assert row["hindsight_f1"] >= max(row["tuned_f1"], row["default_f1"])


@needs_data
def test_average_precision_against_sklearn(study: ReutersStudy, oracle_scores: dict[str, Any]) -> None:
    from sklearn.metrics import average_precision_score, roc_auc_score

    for j, cat in enumerate(oracle_scores["cats"]):
        y, s = oracle_scores["Yt"][:, j], oracle_scores["scores"][:, j]
        assert math.isclose(study.average_precision[cat], average_precision_score(y, s), rel_tol=1e-9), cat
        assert math.isclose(study.ranking["per_class"][cat]["roc_auc"], roc_auc_score(y, s), rel_tol=1e-9), cat


# --------------------------------------------------------------------------- #
# 6–9: keyword rule, multiclass, significance, terms
# --------------------------------------------------------------------------- #


def _keyword_decisions(stories: Any) -> tuple[np.ndarray, np.ndarray]:
    gold = np.array(["grain" in s.topics for s in stories])
    rule = np.array([bool({"grain", "wheat", "corn"} & set(re.findall("[a-z]+", (s.title + " " + s.body).lower())))
                     for s in stories])
    return gold, rule


@needs_data
def test_keyword_rule_counts(study: ReutersStudy, oracle: Oracle) -> None:
    gold, rule = _keyword_decisions(oracle.split.test)
    k = study.keyword_rule["grain"]
    assert (k["tp"], k["fp"], k["fn"], k["tn"]) == (int((gold & rule).sum()), int((~gold & rule).sum()),
                                                    int((gold & ~rule).sum()), int((~gold & ~rule).sum()))
    assert math.isclose(k["f1"], f1(k["tp"], k["fp"], k["fn"]))
    nb = study.keyword_rule["nb"]["grain"]
    assert (nb["tp"], nb["fp"], nb["fn"]) == tuple(study.binary["per_class"]["grain"][x] for x in ("tp", "fp", "fn"))


@needs_data
def test_multiclass_against_sklearn(study: ReutersStudy, oracle: Oracle) -> None:
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.metrics import accuracy_score, confusion_matrix, f1_score
    from sklearn.naive_bayes import MultinomialNB

    ten = set(PUBLISHED)
    allowed = set(oracle.split.categories)

    def single(stories: Any) -> list[tuple[Any, str]]:
        out = []
        for s in stories:
            labels = {t for t in s.topics if t in allowed}
            if len(labels) == 1 and labels <= ten:
                out.append((s, labels.pop()))
        return out

    train, test = single(oracle.split.train), single(oracle.split.test)
    m = study.multiclass
    assert (m["split"]["train"], m["split"]["test"]) == (len(train), len(test)) == (5501, 2190)
    assert set(m["labels"]) == {lab for _, lab in train} and len(m["labels"]) == 8
    assert set(m["dropped"]) == {"wheat", "corn"}
    vec = CountVectorizer(analyzer=oracle.multiclass_tokens)
    X = vec.fit_transform([oracle.multiclass_text(s) for s, _ in train])
    nb = MultinomialNB(alpha=1.0).fit(X, [lab for _, lab in train])
    pred = nb.predict(vec.transform([oracle.multiclass_text(s) for s, _ in test]))
    gold = [lab for _, lab in test]
    assert m["confusion_matrix"] == confusion_matrix(gold, pred, labels=m["labels"]).tolist()
    assert math.isclose(m["accuracy"], accuracy_score(gold, pred))
    assert math.isclose(m["macro_f1"], f1_score(gold, pred, labels=m["labels"], average="macro"))
    majority, _ = Counter(lab for _, lab in train).most_common(1)[0]
    assert m["majority_class"] == majority == "earn"
    assert math.isclose(m["majority_accuracy"], gold.count(majority) / len(gold))
    per_f1 = f1_score(gold, pred, labels=m["labels"], average=None)
    assert m["hardest_class"] == m["labels"][int(np.argmin(per_f1))]
    cm = np.array(m["confusion_matrix"])
    off = cm + cm.T
    np.fill_diagonal(off, 0)
    assert m["most_confused_pair"]["errors"] == off.max()
    assert m["vocabulary_size"] == len(vec.vocabulary_)


@needs_data
def test_significance_nb_against_keyword_rule(study: ReutersStudy, oracle: Oracle,
                                             oracle_scores: dict[str, Any]) -> None:
    from scipy.stats import binomtest

    gold, rule = _keyword_decisions(oracle.split.test)
    nb = oracle_scores["scores"][:, oracle_scores["cats"].index("grain")] >= 0
    n_ab = int(((nb == gold) & (rule != gold)).sum())
    n_ba = int(((nb != gold) & (rule == gold)).sum())
    mc = study.significance["mcnemar"]
    assert (mc["mcnemar"]["n_ab"], mc["mcnemar"]["n_ba"]) == (n_ab, n_ba)
    assert math.isclose(mc["p_value"], binomtest(n_ab, n_ab + n_ba, 0.5, alternative="greater").pvalue)
    rev = study.significance["reverse"]["mcnemar"]
    assert math.isclose(rev["p_value"], binomtest(n_ba, n_ab + n_ba, 0.5, alternative="greater").pvalue)
    boot = study.significance["bootstrap"]
    assert boot["metric"] == "f1:grain" and boot["samples"] == 10_000 and 0 <= boot["p_value"] <= 1
    assert math.isclose(boot["a"], study.binary["per_class"]["grain"]["f1"])
    assert math.isclose(boot["b"], study.keyword_rule["grain"]["f1"])
    assert math.isclose(boot["delta"], boot["a"] - boot["b"])
    assert study.significance["answer"]


@needs_data
def test_terms_phi_delta(study: ReutersStudy, oracle: Oracle) -> None:
    t = study.terms
    assert t["category"] == "grain" and t["documents"] == 7769 and t["positives"] == 433
    grain = [s for s in oracle.split.train if "grain" in s.topics]
    other = [s for s in oracle.split.train if "grain" not in s.topics]

    def has(s: Any, w: str) -> bool:
        return w in set(re.findall("[a-z]+", (s.title + " " + s.body).lower()))

    for w in ("wheat", "the", "tonnes"):
        tp, fp = sum(has(s, w) for s in grain), sum(has(s, w) for s in other)
        tpr, fpr = tp / len(grain), fp / len(other)
        row = t["selected"][w]
        assert (row["in_category"], row["elsewhere"]) == (tp, fp)
        assert math.isclose(row["delta"], tpr - fpr) and math.isclose(row["phi"], tpr + fpr - 1)
    top = [r["delta"] for r in t["most_discriminative"]]
    assert top == sorted(top, reverse=True) and top[0] >= max(r["delta"] for r in t["selected"].values())
    corner = [r["term"] for r in t["stop_word_corner"]]
    assert {"the", "of"} <= set(corner[:5])


@needs_data
def test_definition_split_keeps_newid_1199(reuters_archive: Path) -> None:
    from clfeval.studies._reuters import reuters_study

    s = reuters_study(reuters_archive, parts="multiclass", published_split=False)
    assert (s.split["train"], s.split["test"], s.split["choice"]) == (7770, 3019, "definition")
    assert (s.multiclass["split"]["train"], s.multiclass["split"]["test"]) == (5502, 2190)
    assert s.parts == ("multiclass",) and s.binary is None and "binary" not in s.to_dict()


# --------------------------------------------------------------------------- #
# Without the corpus: parts, text, the token memo
# --------------------------------------------------------------------------- #


def test_parse_parts() -> None:
    assert parse_parts("all") == parse_parts(None) == parse_parts("") == PARTS
    assert parse_parts("9, 1,keyword-rule,cv") == ("binary", "cross_validation", "keyword_rule", "terms")
    assert parse_parts([2, "terms"]) == ("train_vs_test", "terms")
    for bad in ("0", "ten", "1,x"):
        with pytest.raises(UsageError, match="option --parts"):
            parse_parts(bad)
    assert study_steps("cv") == 13


def test_study_text_counts_the_title_twice() -> None:
    from clfeval.text._datasets import Story

    s = Story(1, 1, "TRAIN", "TRAINING-SET", "YES", ("grain",), "WHEAT", "", "Body.", "NORM")
    assert study_text(s) == "WHEAT\nWHEAT\nBody."
    assert study_text(dataclasses.replace(s, title="")) == "Body."


def test_token_memo_is_shared_by_clones() -> None:
    from sklearn.base import clone

    from clfeval.studies._reuters import _Memo
    from clfeval.text._models import Tokenizer, make_model

    memo = _Memo(Tokenizer(stem=True, stemmer="english"))
    pipe = make_model("nb", stem=True, stemmer="english").set_params(vectorizer__tokenizer=memo)
    twin = clone(pipe)
    assert twin.named_steps["vectorizer"].tokenizer is memo
    twin.fit(["wheat prices rose", "shares fell"], ["grain", "acq"])
    assert memo.memo["wheat prices rose"] == ["wheat", "price", "rose"]
    assert pipe.named_steps["vectorizer"].tokenizer.memo is memo.memo
    fresh = make_model("nb", stem=True, stemmer="english").fit(["wheat prices rose", "shares fell"], ["grain", "acq"])
    assert twin.decision_function(["wheat up"]).tolist() == fresh.decision_function(["wheat up"]).tolist()


# --------------------------------------------------------------------------- #
# The command line
# --------------------------------------------------------------------------- #

JSON_KEYS = {
    "split": {"train", "test"}, "binary": {"per_class", "micro", "macro"},
    "train_vs_test": {"train", "test"}, "cross_validation": {"folds", "micro_f1", "macro_f1"},
    "multiclass": {"split", "accuracy", "majority_accuracy", "macro_f1", "per_class", "labels", "confusion_matrix"},
}


@needs_data
def test_cli_json_keys_and_run_log(study: ReutersStudy, reuters_archive: Path, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import clfeval.studies._reuters

    seen: dict[str, Any] = {}

    def cached(archive: Any, **kw: Any) -> ReutersStudy:  # the session's study, not a second run
        seen.update(kw, archive=archive)
        return study

    _ = clfeval.studies.reuters_study  # resolved before patching: pytest 9 restores only what is in
    # the package's __dict__, and a lazy export is not there until first asked for
    monkeypatch.setattr(clfeval.studies._reuters, "reuters_study", cached)
    monkeypatch.setattr(clfeval.studies, "reuters_study", cached)  # the package's (cached) export too
    db = tmp_path / "runs.sqlite"
    r = run("reuters", "--archive", reuters_archive, "--format", "json", "--seed", "0", "--runs-db", db)
    assert r.code == 0, r.err
    assert "recorded run 1" in r.err
    assert seen["parts"] == PARTS and seen["seed"] == 0 and seen["published_split"] is True
    d = json.loads(r.out)
    for key, sub in JSON_KEYS.items():
        assert sub <= set(d[key]), key
    assert isinstance(d["vocabulary_size"], int)
    for cat in PUBLISHED:
        assert {"support", "tp", "fp", "fn", "precision", "recall", "f1",
                "accuracy"} <= set(d["binary"]["per_class"][cat])
    assert {"f1", "f1_of_means"} <= set(d["binary"]["macro"])
    assert {"mean", "min", "max", "std"} <= set(d["cross_validation"]["micro_f1"])
    for cat in ("grain", "wheat", "corn", "trade"):
        assert {"default_f1", "threshold", "tuned_f1", "hindsight_f1"} <= set(d["thresholds"][cat])
    assert set(d["average_precision"]) == set(PUBLISHED)
    assert {"precision", "recall", "f1"} <= set(d["keyword_rule"]["grain"])
    assert {"bootstrap", "mcnemar"} <= set(d["significance"]) and d["terms"]["category"] == "grain"
    assert {"seed", "versions", "tokenization", "split", "timings"} <= set(d["signature"])
    assert d["run_id"] == 1
    from clfeval.protocols._runlog import RunLog

    (rec,) = RunLog(db).runs().runs
    assert rec.command == "reuters" and rec.seed == 0 and rec.data_hash.startswith("sha256:")
    assert math.isclose(rec.value("micro_f1"), study.binary["micro"]["f1"])
    assert math.isclose(rec.value("cv_macro_f1"), study.cross_validation["macro_f1"]["mean"])


@needs_data
def test_cli_text_and_markdown_show_published_beside_ours(study: ReutersStudy, reuters_archive: Path,
                                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import clfeval.studies._reuters

    _ = clfeval.studies.reuters_study  # resolved before patching: pytest 9 restores only what is in
    # the package's __dict__, and a lazy export is not there until first asked for
    monkeypatch.setattr(clfeval.studies._reuters, "reuters_study", lambda archive, **kw: study)
    monkeypatch.setattr(clfeval.studies, "reuters_study", lambda archive, **kw: study)  # the package's export too
    r = run("reuters", "--archive", reuters_archive, "--no-log")
    assert r.code == 0, r.err
    for part in range(1, 10):
        assert f"\n{part}. " in r.out
    assert "1051/79/36" in r.out and "0.8350" in r.out and "18,135" in r.out and "7,769" in r.out
    assert "NEWID 1199" in r.out and "Snowball" in r.out and "5,501" in r.out
    out = tmp_path / "study.md"
    r = run("reuters", "--archive", reuters_archive, "--no-log", "--format", "markdown", "--output", out)
    assert r.code == 0 and r.out == "" and f"wrote {out}" in r.err
    md = out.read_text()
    assert "## 1. Binary Naive Bayes" in md and "| earn | 1087 |" in md and "| 1051/79/36 |" in md


@needs_data
def test_cli_real_run_of_some_parts(reuters_archive: Path, tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    r = run("reuters", "--archive", reuters_archive, "--parts", "keyword_rule,9", "--category", "wheat",
            "--format", "json", "--runs-db", db)
    assert r.code == 0, r.err
    d = json.loads(r.out)
    assert d["parts"] == ["keyword_rule", "terms"] and "binary" not in d and "cross_validation" not in d
    assert d["terms"]["category"] == "wheat" and d["keyword_rule"]["grain"]["tp"] > 0
    assert d["split"]["train"] == 7769 and d["vocabulary_size"] > 18000
    assert db.exists()


@needs_data
def test_cli_unknown_category(reuters_archive: Path) -> None:
    r = run("reuters", "--archive", reuters_archive, "--parts", "terms", "--category", "grian", "--no-log")
    assert r.code == 2 and "'grian'" in r.err and "--category" in r.err


def test_cli_missing_archive_names_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "reuters21578.tar.gz"
    r = run("reuters", "--archive", missing, "--no-log")
    assert r.code == 2 and r.out == ""
    assert str(missing) in r.err and "Traceback" not in r.err and r.err.startswith("clfeval: error:")


@pytest.mark.parametrize("content", [b"", b"not a tar archive at all", b"\x1f\x8b\x08\x00" + b"\x00" * 64])
def test_cli_corrupt_archive_is_a_data_error(tmp_path: Path, content: bytes) -> None:
    bad = tmp_path / "reuters21578.tar.gz"
    bad.write_bytes(content)
    r = run("reuters", "--archive", bad, "--no-log")
    assert r.code == 1 and r.out == "" and str(bad) in r.err and "Traceback" not in r.err


@needs_data
def test_cli_truncated_real_archive(reuters_archive: Path, tmp_path: Path) -> None:
    bad = tmp_path / "reuters21578.tar.gz"
    bad.write_bytes(reuters_archive.read_bytes()[: 3 * 1024 * 1024])
    r = run("reuters", "--archive", bad, "--no-log")
    assert r.code == 1 and str(bad) in r.err


def test_cli_bad_parts_and_seed(tmp_path: Path) -> None:
    r = run("reuters", "--archive", tmp_path, "--parts", "1,12", "--no-log")
    assert r.code == 2 and "--parts" in r.err
    r = run("reuters", "--archive", tmp_path, "--seed", "-1", "--no-log")
    assert r.code == 2 and "--seed" in r.err


def test_cli_directory_without_the_files(tmp_path: Path) -> None:
    r = run("reuters", "--archive", tmp_path, "--no-log")
    assert r.code == 1 and "22 SGML files" in r.err


# --- clfeval datasets fetch, against a server on 127.0.0.1 -------------------


@needs_data
def test_cli_fetch_downloads_checks_and_keeps(served: tuple[Path, str], reuters_archive: Path,
                                              tmp_path: Path) -> None:
    root, base = served
    shutil.copyfile(reuters_archive, root / "copy.tar.gz")
    dest = tmp_path / "data"
    r = run("datasets", "fetch", "reuters21578", "--dest", dest, "--url", f"{base}/copy.tar.gz", "--format", "json")
    assert r.code == 0, r.err
    target = dest / "reuters21578.tar.gz"
    d = json.loads(r.out)
    assert d["path"] == str(target) and d["downloaded"] and d["url"] == f"{base}/copy.tar.gz"
    assert "21,578 stories" in d["checks"]
    assert target.read_bytes() == reuters_archive.read_bytes()
    r = run("datasets", "fetch", "reuters21578", "--dest", dest, "--url", "http://127.0.0.1:9/unreachable")
    assert r.code == 0 and "already there" in r.err and str(target) in r.out


def test_cli_fetch_failures_leave_nothing(served: tuple[Path, str], tmp_path: Path) -> None:
    root, base = served
    (root / "garbage.tar.gz").write_bytes(b"\x1f\x8b" + b"x" * 100)
    dest = tmp_path / "data"
    r = run("datasets", "fetch", "reuters21578", "--dest", dest, "--url", f"{base}/garbage.tar.gz")
    assert r.code == 1 and "SHA-256" in r.err and r.out == ""
    r = run("datasets", "fetch", "reuters21578", "--dest", dest, "--url", f"{base}/missing.tar.gz")
    assert r.code == 1 and "404" in r.err
    assert list(dest.iterdir()) == []
    r = run("datasets", "fetch", "mnist")
    assert r.code == 2 and "reuters21578" in r.err
