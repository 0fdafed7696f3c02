"""clfeval.text._models: tokenization, log-odds scores, the decision rule, one-vs-rest."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.base import clone
from sklearn.naive_bayes import MultinomialNB

from clfeval.errors import DataError, UsageError
from clfeval.text._models import (
    MODEL_NAMES,
    LogOddsMultinomialNB,
    ModelConfig,
    Tokenizer,
    check_texts,
    log_odds,
    make_model,
    make_vectorizer,
)

# --- tokens -----------------------------------------------------------------------------------

def test_tokens_are_lowercase_letter_runs():
    assert Tokenizer()("U.S. wheat-exports ROSE 12.5% in 1987; café_au") == ["u", "s", "wheat", "exports", "rose",
                                                                             "in", "café", "au"]


def test_porter_stemmer_on_porters_own_examples():
    # Porter (1980), step 1a/1b/2 examples: caresses → caress, ponies → poni, ties → ti, cats → cat,
    # relational → relat, hopping → hop, agreed → agre
    words = "caresses ponies ties cats relational hopping agreed"
    assert Tokenizer(stem=True)(words) == ["caress", "poni", "ti", "cat", "relat", "hop", "agre"]


def test_stop_words_go_before_stemming():
    # "used" is no stop word, but stems to "us", which is one: removing stop words after
    # stemming would wrongly drop it
    assert Tokenizer(stem=True, stop_words=True)("the tools were used") == ["tool", "us"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abcXYZ é1-_. ", max_size=30), min_size=1, max_size=8))
def test_both_tokenizer_paths_give_the_same_vocabulary(docs):
    """Without stemming scikit-learn's regex path is used; it must equal the Tokenizer."""
    from sklearn.feature_extraction.text import CountVectorizer

    if not any(Tokenizer(stop_words=True)(d) for d in docs):
        return
    fast = make_vectorizer(ngrams=2, stop_words=True).fit(docs)
    slow = CountVectorizer(tokenizer=Tokenizer(stop_words=True), token_pattern=None, ngram_range=(1, 2)).fit(docs)
    assert fast.vocabulary_ == slow.vocabulary_


def test_bigrams_capture_negation():
    v = make_vectorizer(ngrams=2).fit(["not good at all"])
    assert "not good" in v.vocabulary_ and "good" in v.vocabulary_


def test_stemmed_pipeline_clones_and_pickles():
    m = make_model("nb", stem=True, stop_words=True, ngrams=2).fit(["running dogs", "cats sleeping"], ["d", "c"])
    again = pickle.loads(pickle.dumps(m))
    assert again.predict(["the dog runs"]).tolist() == m.predict(["the dog runs"]).tolist() == ["d"]
    clone(m)


# --- Naive Bayes log-odds ------------------------------------------------------------------------

def test_log_odds_on_the_iir_china_example():
    """Manning, Raghavan & Schütze (2008), Example 13.1: add-one multinomial NB."""
    docs = ["Chinese Beijing Chinese", "Chinese Chinese Shanghai", "Chinese Macao", "Tokyo Japan Chinese"]
    y = ["china", "china", "china", "other"]
    m = make_model("nb").fit(docs, y)
    # P(c) = 3/4, P(Chinese|c) = 6/14, P(Tokyo|c) = P(Japan|c) = 1/14; P(c̄) = 1/4, every term 2/9 given c̄
    p_c = 0.75 * (3 / 7) ** 3 * (1 / 14) ** 2
    p_not = 0.25 * (2 / 9) ** 3 * (2 / 9) ** 2
    score = m.decision_function(["Chinese Chinese Chinese Tokyo Japan"])[0]  # of classes_[1] = "other"
    assert m.classes_.tolist() == ["china", "other"]
    assert score == pytest.approx(math.log(p_not / p_c), rel=1e-12)
    assert m.predict(["Chinese Chinese Chinese Tokyo Japan"]).tolist() == ["china"]  # the book's answer


def test_log_odds_match_scikit_learn_posteriors_multiclass():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(40, 12))
    y = rng.choice(["a", "b", "c", "d"], size=40)
    nb = LogOddsMultinomialNB().fit(X, y)
    p = MultinomialNB().fit(X, y).predict_proba(X)
    np.testing.assert_allclose(nb.decision_function(X), np.log(p) - np.log1p(-p), rtol=1e-9, atol=1e-9)
    assert nb.predict(X).tolist() == MultinomialNB().fit(X, y).predict(X).tolist()


def test_log_odds_of_two_classes_are_opposite():
    jll = np.log(np.array([[0.3, 0.7], [0.9, 0.1]]))
    lo = log_odds(jll)
    np.testing.assert_allclose(lo[:, 1], np.log([0.7 / 0.3, 0.1 / 0.9]))
    np.testing.assert_allclose(lo[:, 0], -lo[:, 1])


def test_a_score_of_exactly_zero_is_positive():
    """clfeval's one rule: positive iff score >= threshold (scikit-learn's argmax would say the first class)."""
    m = make_model("nb").fit(["alpha", "beta"], ["neg", "pos"])
    assert m.decision_function(["alpha beta"])[0] == 0.0
    assert m.predict(["alpha beta"]).tolist() == ["pos"]


@pytest.mark.parametrize("name", sorted(MODEL_NAMES))
def test_every_model_scores_and_predicts_by_the_rule(name):
    docs = ["wheat corn grain", "grain harvest wheat", "stocks shares profit", "profit shares bought", "corn crop"]
    y = ["grain", "grain", "acq", "acq", "grain"]
    m = make_model(name, ngrams=2).fit(docs, y)
    s = m.decision_function(docs)
    assert s.shape == (5,)
    assert m.predict(docs).tolist() == [m.classes_[int(v >= 0)] for v in s]
    y3 = ["grain", "grain", "acq", "acq", "crop"]
    m3 = make_model(name).fit(docs, y3)
    s3 = m3.decision_function(docs)
    assert s3.shape == (5, 3)
    assert m3.predict(docs).tolist() == m3.classes_[s3.argmax(axis=1)].tolist()


def test_multilabel_one_vs_rest_scores_every_label_and_handles_constant_labels():
    docs = ["wheat corn", "oil crude", "wheat oil", "corn", "crude"]
    Y = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0], [0, 1, 0]])  # third label never present
    m = make_model("nb", multilabel=True).fit(docs, Y)
    s = m.decision_function(docs)
    assert s.shape == (5, 3)
    assert np.all(s[:, 2] == -1.0)
    assert m.named_steps["classifier"].constant_labels_.tolist() == [2]
    np.testing.assert_array_equal(m.predict(docs), (s >= 0).astype(int))
    # each label's score is that of a binary NB trained on that column alone
    single = make_model("nb").fit(docs, Y[:, 0])
    np.testing.assert_allclose(s[:, 0], single.decision_function(docs))


def test_bernoulli_uses_binary_occurrence():
    m = make_model("bnb").fit(["good good good", "bad"], ["p", "n"])
    assert m.named_steps["vectorizer"].binary is True
    assert m.named_steps["classifier"].alpha == 1.0


def test_bad_model_options_are_refused():
    with pytest.raises(UsageError, match="unknown model 'forest'.*nb.*bnb.*logreg.*svm"):
        make_model("forest")
    with pytest.raises(UsageError, match="ngrams"):
        make_model("nb", ngrams=3)
    with pytest.raises(UsageError, match="alpha"):
        ModelConfig("nb", alpha=0)
    for bad in (float("nan"), float("inf"), -1.0, "1", True):  # NaN and infinity passed `x > 0` checks (issue 35)
        with pytest.raises(UsageError, match=r"option alpha \(Naive Bayes smoothing\) must be a finite number > 0"):
            ModelConfig("nb", alpha=bad)
        with pytest.raises(UsageError, match=r"option C \(inverse regularisation\) must be a finite number > 0"):
            ModelConfig("logreg", C=bad)


def test_check_texts():
    assert check_texts(["a", ""]) == ["a", ""]
    with pytest.raises(DataError, match="row 2.*missing"):
        check_texts(["a", None], column="body")
    with pytest.raises(DataError, match="empty in every one of its 2 rows"):
        check_texts([" ", ""], column="body")


def test_snowball_stemmer_can_be_chosen_and_the_cache_changes_nothing():
    import Stemmer

    words = "generously generalization running agreed ponies"
    t = Tokenizer(stem=True, stemmer="english")
    assert t(words) == Stemmer.Stemmer("english").stemWords(words.split())
    assert t(words) == t(words)  # second call from the cache
    with pytest.raises(UsageError, match="unknown stemmer 'klingon'"):
        Tokenizer(stem=True, stemmer="klingon")
    assert "stemmed (english)" in ModelConfig("nb", stem=True, stemmer="english").describe()
