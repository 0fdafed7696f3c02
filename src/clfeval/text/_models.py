"""Standard text classifiers as scikit-learn pipelines.

clfeval does not implement learners: every model here is a scikit-learn
pipeline (term counts or tf-idf → a linear classifier), configured the way
the reference experiments of text categorization describe them:

* ``nb`` — multinomial Naive Bayes on term counts, add-one (Laplace)
  smoothing (``alpha = 1``); the simple standard method;
* ``bnb`` — Bernoulli Naive Bayes on binary term occurrence, add-one smoothing;
* ``logreg`` — tf-idf weighting → logistic regression;
* ``svm`` — tf-idf weighting → linear support vector machine.

Features are lowercase alphabetic tokens (maximal runs of letters; digits and
punctuation split tokens and are dropped), unigrams or unigrams + bigrams,
with optional English stop-word removal (scikit-learn's list of 318 words,
or by name through ``stop_list=``: ``english179``, the 179 words of NLTK's
``stopwords`` corpus, vendored as package data) and Porter stemming
(PyStemmer's ``porter`` algorithm; no data download).
Stop words are removed before stemming, and bigrams are formed after both.

Scores and decisions
--------------------
Every model exposes ``decision_function``: the Naive Bayes models give
log-odds, log P(c|d) − log P(c̄|d) (for two classes, the log-odds of the
second class of ``classes_``; for K > 2 classes, one column per class, that
class against all others); the linear models give their margin. The
decision follows clfeval's one rule, *positive iff score ≥ threshold*, with
threshold 0 (posterior 0.5 for Naive Bayes): scikit-learn's own ``predict``
differs only at a score of exactly 0, which it sends to the negative class.
With several classes the prediction is the class with the highest score.

Multi-label data is handled one-vs-rest: one binary classifier per label
over a shared vectorizer (the vocabulary and idf do not use labels, so
sharing them changes nothing), each label with its own score column.

References
----------
* McCallum & Nigam (1998), "A comparison of event models for Naive Bayes
  text classification" (multinomial vs Bernoulli).
* Manning, Raghavan & Schütze (2008), *Introduction to Information
  Retrieval*, ch. 13 (Naive Bayes, add-one smoothing, Reuters-21578).
* Porter (1980), "An algorithm for suffix stripping".
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from clfeval.core import check_positive, check_positive_int
from clfeval.errors import DataError, UsageError

__all__ = [
    "MODEL_NAMES",
    "TOKEN_PATTERN",
    "ModelConfig",
    "Tokenizer",
    "make_model",
    "make_vectorizer",
    "log_odds",
    "LogOddsMultinomialNB",
    "LogOddsBernoulliNB",
    "ScoreLogisticRegression",
    "ScoreLinearSVC",
    "OneVsRest",
    "check_texts",
    "keyword_rule",
]

MODEL_NAMES: dict[str, str] = {
    "nb": "multinomial Naive Bayes on term counts, add-one smoothing",
    "bnb": "Bernoulli Naive Bayes on binary term occurrence, add-one smoothing",
    "logreg": "tf-idf + logistic regression",
    "svm": "tf-idf + linear SVM",
}

#: Maximal runs of letters (any script); digits, underscores and punctuation split tokens.
TOKEN_PATTERN = r"(?u)[^\W\d_]+"
_TOKEN_RE = re.compile(TOKEN_PATTERN)

_INSTALL_HINT = ("clfeval's text models need scikit-learn and PyStemmer; install them with "
                 "pip install 'clfeval[text]'.")


def _sklearn() -> Any:
    try:
        import sklearn  # noqa: F401
    except ImportError:  # pragma: no cover - exercised only without the extra
        raise UsageError(_INSTALL_HINT) from None
    return sklearn


class Tokenizer:
    """Lowercase alphabetic tokens, optionally without stop words and Porter-stemmed.

    A picklable callable, so pipelines that use it can be cloned, pickled and
    sent to worker processes.

    Parameters
    ----------
    stem : bool
        Reduce every token with the Porter stemmer (PyStemmer, ``porter``).
    stop_words : bool
        Drop scikit-learn's English stop words (before stemming); the same as
        ``stop_list="sklearn"``.
    stemmer : str
        PyStemmer algorithm when ``stem``: ``porter`` (Porter 1980, the
        default) or e.g. ``english`` (Snowball's Porter2).
    stop_list : str, optional
        A stop list by name (:data:`clfeval.text._processing.STOP_LISTS`):
        ``"english179"`` (NLTK's 179 English stop words), ``"sklearn"`` or
        ``"none"``. Its words are dropped before stemming.

    Stems are cached per tokenizer by word type (each distinct word is
    stemmed once, then looked up), which halves the cost of stemming a
    corpus.

    Examples
    --------
    >>> Tokenizer()("Wheat-prices ROSE 3.5% in 1987")
    ['wheat', 'prices', 'rose', 'in']
    >>> Tokenizer(stem=True, stop_words=True)("The runners were running")
    ['runner', 'run']
    >>> Tokenizer(stop_list="english179")("It just doesn't rise")  # 'just', 'doesn' and 't' are on NLTK's list
    ['rise']
    >>> Tokenizer(stop_words=True)("It just doesn't rise")  # scikit-learn's list has 'it' but not those three
    ['just', 'doesn', 't', 'rise']
    """

    def __init__(self, stem: bool = False, stop_words: bool = False, stemmer: str = "porter",
                 stop_list: str | None = None) -> None:
        self.stem = bool(stem)
        self.stop_words = bool(stop_words)
        self.stemmer = stemmer
        self.stop_list = _stop_list_name(stop_words, stop_list)
        self.stop_words = self.stop_list == "sklearn"
        self._setup()

    def _setup(self) -> None:
        from clfeval.text._processing import stop_words

        self._stop: frozenset[str] = stop_words(self.stop_list or "none")
        self._stemmer = None
        self._cache: dict[str, str] = {}
        if self.stem:
            try:
                import Stemmer
            except ImportError:  # pragma: no cover - exercised only without the extra
                raise UsageError("stemming needs PyStemmer; " + _INSTALL_HINT) from None
            if self.stemmer not in Stemmer.algorithms():
                raise UsageError(f"unknown stemmer {self.stemmer!r}; PyStemmer offers: "
                                 f"{', '.join(Stemmer.algorithms())}.")
            self._stemmer = Stemmer.Stemmer(self.stemmer)

    def __getstate__(self) -> dict[str, Any]:
        return {"stem": self.stem, "stop_words": self.stop_words, "stemmer": self.stemmer,
                "stop_list": self.stop_list}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.stem = state["stem"]
        self.stop_words = state["stop_words"]
        self.stemmer = state.get("stemmer", "porter")
        self.stop_list = state.get("stop_list", "sklearn" if self.stop_words else None)
        self._setup()

    def __repr__(self) -> str:
        extra = f", stemmer={self.stemmer!r}" if self.stemmer != "porter" else ""
        if self.stop_list not in (None, "sklearn"):
            extra += f", stop_list={self.stop_list!r}"
        return f"Tokenizer(stem={self.stem}, stop_words={self.stop_words}{extra})"

    def _stem_new(self, word: str) -> str:
        out = self._cache[word] = self._stemmer.stemWord(word)  # type: ignore[union-attr]
        return out

    def __call__(self, text: str) -> list[str]:
        tokens = _TOKEN_RE.findall(text.lower())
        if self._stop:
            tokens = [t for t in tokens if t not in self._stop]
        if self._stemmer is not None:
            cache = self._cache
            tokens = [cache[t] if t in cache else self._stem_new(t) for t in tokens]
        return tokens


def _stop_list_name(stop_words: bool, stop_list: str | None) -> str | None:
    """The one stop list of ``stop_words`` (scikit-learn's) and ``stop_list`` (by name); None for none."""
    from clfeval.text._processing import STOP_LISTS

    if stop_list is not None and stop_list not in STOP_LISTS:
        raise UsageError(f"unknown stop list {stop_list!r} (option stop_list); the stop lists are: "
                         + ", ".join(f"{k} ({v})" for k, v in STOP_LISTS.items()) + ".")
    if stop_words and stop_list not in (None, "sklearn"):
        raise UsageError(f"stop_words=True (scikit-learn's list) and stop_list={stop_list!r} name two stop lists; "
                         f"give one of them.")
    name = "sklearn" if stop_words else stop_list
    return None if name == "none" else name


def check_texts(texts: Any, *, column: str = "text", source: str = "the data") -> list[str]:
    """Validate documents: a list of strings, none missing, not all empty.

    Empty documents are allowed (a story without a body is still a story);
    a missing value (None) is refused, naming its row (1-based), and so is a
    column in which every document is empty or blank.

    >>> check_texts(["a b", ""])
    ['a b', '']
    """
    out = list(texts)
    for i, t in enumerate(out):
        if t is None:
            raise DataError(f"{source}, row {i + 1}: the text in column {column!r} is missing; every item needs a "
                            f"text (an empty string is allowed).")
        if not isinstance(t, str):
            raise DataError(f"{source}, row {i + 1}: column {column!r} must hold texts; got a {type(t).__name__} "
                            f"({t!r}).")
    if not out:
        raise DataError(f"{source}: column {column!r} holds no documents.")
    if not any(t.strip() for t in out):
        raise DataError(f"{source}: the text column {column!r} is empty in every one of its {len(out)} rows; name "
                        f"the column that holds the documents with --text.")
    return out


def keyword_rule(texts: Any, keywords: Any, *, tokenizer: Any = None) -> np.ndarray:
    """The keyword-rule baseline: does each text contain one of ``keywords`` as a whole word?

    A text "contains" a keyword when one of its tokens equals it: tokens are
    the lowercase runs of letters of :class:`Tokenizer` (unstemmed, no stop
    words removed), so ``"Grain"`` and ``"GRAIN"`` match ``grain`` but
    ``"grains"`` and ``"cornerstone"`` do not. Nothing is fitted, so the rule
    can be scored on training and test items alike.

    Parameters
    ----------
    texts : sequence of str
    keywords : iterable of str
        Matched in lowercase.
    tokenizer : callable, optional
        ``text -> list of tokens``; default ``Tokenizer()`` (pass a cached
        tokenizer to reuse tokens computed elsewhere).

    Returns
    -------
    ndarray of bool, shape (n,)

    Examples
    --------
    The mission's baseline for Reuters *grain*, "the story contains grain,
    wheat or corn":

    >>> keyword_rule(["Wheat exports rose", "grains and cornerstones", "CORN"], ["grain", "wheat", "corn"]).tolist()
    [True, False, True]
    """
    words = frozenset(str(k).lower() for k in keywords)
    if not words:
        raise UsageError("a keyword rule needs at least one keyword.")
    tok = Tokenizer() if tokenizer is None else tokenizer
    return np.fromiter((not words.isdisjoint(tok(t)) for t in texts), dtype=bool)


def make_vectorizer(*, ngrams: int = 1, stem: bool = False, stop_words: bool = False, binary: bool = False,
                    tfidf: bool = False, min_df: int = 1, stemmer: str = "porter", stop_list: str | None = None) -> Any:
    """A scikit-learn vectorizer over lowercase alphabetic tokens.

    Without stemming the token pattern is handed to scikit-learn directly
    (its C-level regex path); with stemming a :class:`Tokenizer` does the
    same tokenization and then stems. Both give the same tokens.

    Parameters
    ----------
    ngrams : 1 or 2
        Unigrams, or unigrams + bigrams.
    stem, stop_words : bool
        See :class:`Tokenizer`.
    stemmer : str
        PyStemmer algorithm (``porter``; ``english`` is Snowball's Porter2).
    stop_list : str, optional
        A stop list by name (``english179``, ``sklearn``, ``none``); see :class:`Tokenizer`.
    binary : bool
        Term occurrence (0/1) instead of counts.
    tfidf : bool
        tf-idf weighting (scikit-learn's smoothed idf, l2-normalised rows).
    min_df : int
        Drop terms that occur in fewer training documents.

    >>> v = make_vectorizer(ngrams=2).fit(["not good", "good"])
    >>> sorted(v.vocabulary_)
    ['good', 'not', 'not good']
    """
    _sklearn()
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

    if ngrams not in (1, 2):
        raise UsageError(f"option ngrams must be 1 (unigrams) or 2 (unigrams and bigrams); got {ngrams!r}.")
    min_df = check_positive_int(min_df, option="min_df")
    cls = TfidfVectorizer if tfidf else CountVectorizer
    common: dict[str, Any] = dict(ngram_range=(1, ngrams), binary=binary, min_df=min_df, dtype=np.float64)
    stop_list = _stop_list_name(stop_words, stop_list)
    if stem:
        return cls(tokenizer=Tokenizer(stem=True, stemmer=stemmer, stop_list=stop_list), token_pattern=None,
                   lowercase=True, **common)
    stop = None
    if stop_list is not None:
        from clfeval.text._processing import stop_words as stop_list_words

        stop = sorted(stop_list_words(stop_list))
    return cls(token_pattern=TOKEN_PATTERN, lowercase=True, stop_words=stop, **common)


def log_odds(joint_log_likelihood: np.ndarray) -> np.ndarray:
    """One-vs-rest log-odds of each class from joint log-likelihoods.

    For class c: log P(c|d) − log P(c̄|d) = jll_c − log Σ_{j≠c} exp(jll_j),
    where jll_j = log P(j) + log P(d|j) (the normalising constant P(d)
    cancels). With two classes this is jll_1 − jll_0 and its negative.

    Parameters
    ----------
    joint_log_likelihood : array (n, K), K ≥ 2

    Returns
    -------
    array (n, K)

    >>> jll = np.log(np.array([[0.2, 0.6, 0.2]]))
    >>> np.round(log_odds(jll), 4).tolist()  # P = .2, .6, .2 → log(.2/.8), log(.6/.4), log(.2/.8)
    [[-1.3863, 0.4055, -1.3863]]
    """
    from scipy.special import logsumexp

    jll = np.asarray(joint_log_likelihood, dtype=np.float64)
    k = jll.shape[1]
    if k == 2:
        d = jll[:, 1] - jll[:, 0]
        return np.column_stack([-d, d])
    out = np.empty_like(jll)
    for c in range(k):
        out[:, c] = jll[:, c] - logsumexp(np.delete(jll, c, axis=1), axis=1)
    return out


class _Scorer(Protocol):
    """What :class:`_ScoreRuleMixin` needs of the estimator it is mixed into."""

    classes_: np.ndarray

    def decision_function(self, X: Any) -> np.ndarray: ...


class _JointLogProba(Protocol):
    """What :class:`_LogOddsMixin` needs of the naive Bayes estimator it is mixed into."""

    def predict_joint_log_proba(self, X: Any) -> np.ndarray: ...


class _ScoreRuleMixin:
    """``predict`` by clfeval's rule: positive iff score ≥ 0; with K > 2 classes, the top score."""

    def predict(self: _Scorer, X: Any) -> np.ndarray:
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores >= 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]


class _LogOddsMixin(_ScoreRuleMixin):
    def decision_function(self: _JointLogProba, X: Any) -> np.ndarray:
        """Log-odds log P(c|d) − log P(c̄|d): shape (n,) for two classes (of ``classes_[1]``), else (n, K)."""
        lo = log_odds(self.predict_joint_log_proba(X))
        return lo[:, 1] if lo.shape[1] == 2 else lo


_sklearn()
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.multiclass import OneVsRestClassifier  # noqa: E402
from sklearn.naive_bayes import BernoulliNB, MultinomialNB  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402


class LogOddsMultinomialNB(_LogOddsMixin, MultinomialNB):
    """scikit-learn's MultinomialNB whose ``decision_function`` is the log-odds.

    >>> m = LogOddsMultinomialNB().fit(np.array([[3, 0], [0, 3]]), ["a", "b"])
    >>> round(float(m.decision_function(np.array([[1, 0]]))[0]), 4)  # log-odds of "b"
    -1.3863
    >>> m.predict(np.array([[1, 0]])).tolist()
    ['a']
    """


class LogOddsBernoulliNB(_LogOddsMixin, BernoulliNB):
    """scikit-learn's BernoulliNB whose ``decision_function`` is the log-odds."""


class ScoreLogisticRegression(_ScoreRuleMixin, LogisticRegression):
    """scikit-learn's LogisticRegression predicting by "margin ≥ 0" (ties to the positive class)."""


class ScoreLinearSVC(_ScoreRuleMixin, LinearSVC):
    """scikit-learn's LinearSVC predicting by "margin ≥ 0" (ties to the positive class)."""


class OneVsRest(OneVsRestClassifier):
    """scikit-learn's one-vs-rest for multi-label data, with a score for every label.

    A label that is absent from every training item (or present in every
    one) cannot be learned; scikit-learn then keeps a constant prediction.
    Here its score is −1 (never predicted) or +1 (always predicted), so that
    "score ≥ 0" reproduces that prediction, and ``constant_labels_`` lists
    such label columns. ``predict`` is "score ≥ 0" for every label.
    """

    def fit(self, X: Any, y: Any, **fit_params: Any) -> OneVsRest:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Label .* is present in all training examples")
            super().fit(X, y, **fit_params)
        self.constant_labels_ = np.array([i for i, e in enumerate(self.estimators_) if not hasattr(e, "classes_")],
                                         dtype=np.intp)
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        cols = []
        for e in self.estimators_:
            s = np.asarray(e.decision_function(X), dtype=np.float64).ravel()
            if not hasattr(e, "classes_"):  # scikit-learn's constant predictor returns its 0/1 label
                s = np.where(s > 0, 1.0, -1.0)
            cols.append(s)
        return np.column_stack(cols) if cols else np.zeros((0, 0))

    def predict(self, X: Any) -> np.ndarray:
        return (self.decision_function(X) >= 0).astype(np.int64)


@dataclass(frozen=True)
class ModelConfig:
    """Everything that defines one of clfeval's text models (recorded in the run log).

    Parameters
    ----------
    name : {"nb", "bnb", "logreg", "svm"}
    ngrams : 1 or 2
        Unigrams, or unigrams + bigrams.
    stem, stop_words : bool
        Porter stemming; English stop-word removal.
    multilabel : bool
        One binary classifier per label (one-vs-rest).
    alpha : float
        Naive Bayes additive smoothing (1 = add-one / Laplace).
    C : float
        Inverse regularisation strength of the linear models.
    min_df : int
        Minimum document frequency of a term in the training items.
    select_k : int or None
        Keep the k terms with the highest chi² with the labels (fitted on the
        training items only, like every other step).
    stemmer : str
        PyStemmer algorithm used when ``stem`` (default ``porter``).
    stop_list : str, optional
        A stop list by name (``english179``: NLTK's 179 English words;
        ``sklearn``, the same as ``stop_words=True``).
    """

    name: str
    ngrams: int = 1
    stem: bool = False
    stop_words: bool = False
    multilabel: bool = False
    alpha: float = 1.0
    C: float = 1.0
    min_df: int = 1
    select_k: int | None = None
    stemmer: str = "porter"
    stop_list: str | None = None

    def __post_init__(self) -> None:
        if self.name not in MODEL_NAMES:
            valid = ", ".join(f"{k} ({v})" for k, v in MODEL_NAMES.items())
            raise UsageError(f"unknown model {self.name!r}; the models are: {valid}.")
        if self.ngrams not in (1, 2):
            raise UsageError(f"option ngrams must be 1 (unigrams) or 2 (unigrams and bigrams); got {self.ngrams!r}.")
        check_positive(self.alpha, option="alpha", what="Naive Bayes smoothing")
        check_positive(self.C, option="C", what="inverse regularisation")
        check_positive_int(self.min_df, option="min_df")
        _stop_list_name(self.stop_words, self.stop_list)
        if self.select_k is not None:
            check_positive_int(self.select_k, option="select_k")

    def describe(self) -> str:
        """One line, e.g. ``multinomial Naive Bayes ..., unigrams + bigrams, stemmed``."""
        parts = [MODEL_NAMES[self.name], "unigrams + bigrams" if self.ngrams == 2 else "unigrams"]
        if self.stop_words:
            parts.append("stop words removed")
        elif self.stop_list not in (None, "none"):
            parts.append(f"stop words removed ({self.stop_list})")
        if self.stem:
            parts.append("Porter-stemmed" if self.stemmer == "porter" else f"stemmed ({self.stemmer})")
        if self.select_k:
            parts.append(f"top {self.select_k} terms by chi²")
        if self.multilabel:
            parts.append("one-vs-rest per label")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def build(self, seed: int = 0) -> Any:
        """The scikit-learn pipeline (unfitted). ``seed`` feeds the linear models' solvers."""
        from sklearn.pipeline import Pipeline

        seed = check_positive_int(seed, option="seed", minimum=0)
        tfidf = self.name in ("logreg", "svm")
        steps: list[tuple[str, Any]] = [
            ("vectorizer", make_vectorizer(ngrams=self.ngrams, stem=self.stem, stop_words=self.stop_words,
                                           binary=self.name == "bnb", tfidf=tfidf, min_df=self.min_df,
                                           stemmer=self.stemmer, stop_list=self.stop_list)),
        ]
        if self.select_k is not None:
            from sklearn.feature_selection import SelectKBest, chi2

            steps.append(("select", SelectKBest(chi2, k=self.select_k)))
        if self.name == "nb":
            clf: Any = LogOddsMultinomialNB(alpha=float(self.alpha))
        elif self.name == "bnb":
            clf = LogOddsBernoulliNB(alpha=float(self.alpha))
        elif self.name == "logreg":
            clf = ScoreLogisticRegression(C=float(self.C), max_iter=1000, random_state=seed)
        else:
            clf = ScoreLinearSVC(C=float(self.C), random_state=seed)
        if self.multilabel:
            clf = OneVsRest(clf)
        steps.append(("classifier", clf))
        return Pipeline(steps)


def make_model(name: str, *, ngrams: int = 1, stem: bool = False, stop_words: bool = False,
               multilabel: bool = False, alpha: float = 1.0, C: float = 1.0, min_df: int = 1,
               select_k: int | None = None, stemmer: str = "porter", stop_list: str | None = None,
               seed: int = 0) -> Any:
    """One of clfeval's standard text classifiers, as an unfitted scikit-learn pipeline.

    Parameters
    ----------
    name : {"nb", "bnb", "logreg", "svm"}
        See the module docstring.
    ngrams, stem, stop_words, multilabel, alpha, C, min_df, select_k, stemmer, stop_list
        See :class:`ModelConfig`.
    seed : int
        Random state of the linear models' solvers.

    Returns
    -------
    sklearn.pipeline.Pipeline
        Steps ``vectorizer`` (→ ``select``) → ``classifier``; it takes a list of
        strings and exposes ``decision_function`` (log-odds for Naive Bayes).

    Examples
    --------
    >>> m = make_model("nb").fit(["wheat grain corn", "stocks shares", "grain exports"], ["grain", "acq", "grain"])
    >>> m.predict(["corn and wheat"]).tolist()
    ['grain']
    >>> bool(m.decision_function(["corn and wheat"])[0] > 0)  # log-odds of 'grain' (classes_[1])
    True
    """
    return ModelConfig(name, ngrams=ngrams, stem=stem, stop_words=stop_words, multilabel=multilabel,
                       alpha=alpha, C=C, min_df=min_df, select_k=select_k, stemmer=stemmer,
                       stop_list=stop_list).build(seed)
