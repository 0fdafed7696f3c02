"""Part 7 of the Reuters-21578 study: the single-label 8-class subset, one multinomial Naive Bayes.

Its own module so that the part can be run (and timed, ``bench/reuters_speed.py``)
on its own, under any :class:`~clfeval.text._processing.Processing`. The study's
default for this part is the ``multiclass`` preset (title once, TYPE="BRIEF"
stories by their title, NLTK's 179 English stop words, Porter stems), the one
that reproduces the published figures for interest and grain exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from clfeval.studies._reuters_result import PUBLISHED_MULTICLASS, PUBLISHED_MULTICLASS_SOURCE, PUBLISHED_SIZES

__all__ = ["TokenMemo", "nb_config", "nb_pipeline", "multiclass_part", "published_comparison", "multiclass_errors"]


class TokenMemo:
    """A tokenizer that remembers each text's tokens (a pure function of the text).

    scikit-learn's ``clone`` deep-copies a vectorizer's tokenizer; copies of a
    memo are the memo itself, so every fold's pipeline shares the tokens.
    Nothing fitted is cached: only the token list of each document.
    """

    def __init__(self, tokenizer: Callable[[str], list[str]]) -> None:
        self.tokenizer = tokenizer
        self.memo: dict[str, list[str]] = {}

    def __call__(self, text: str) -> list[str]:
        out = self.memo.get(text)
        if out is None:
            out = self.memo[text] = self.tokenizer(text)
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> TokenMemo:
        return self

    def __repr__(self) -> str:
        return f"memo({self.tokenizer!r})"


def nb_config(processing: Any, multilabel: bool) -> Any:
    """The :class:`~clfeval.text._models.ModelConfig` of the study's NB under ``processing``."""
    from clfeval.text import ModelConfig

    return ModelConfig("nb", stem=processing.stem != "none", stemmer=processing.stemmer or "porter",
                       stop_list=None if processing.stop == "none" else processing.stop, multilabel=multilabel)


def nb_pipeline(processing: Any, memo: TokenMemo, multilabel: bool, seed: int = 0) -> Any:
    """The study's NB pipeline, its vectorizer tokenizing through ``memo`` (stop words and stems included)."""
    pipe = nb_config(processing, multilabel).build(seed)
    pipe.set_params(vectorizer__tokenizer=memo, vectorizer__token_pattern=None, vectorizer__stop_words=None)
    return pipe


def multiclass_part(split: Any, categories: Sequence[str], processing: Any, memo: TokenMemo | None = None,
                    seed: int = 0) -> dict[str, Any]:
    """The single-label part's block: confusion matrix, per-class table, baseline, the published figures beside ours.

    Parameters
    ----------
    split : ModApte
    categories : sequence of str
        The ten largest categories (those that never occur alone drop out).
    processing : Processing
        How the stories become text and terms.
    memo : TokenMemo, optional
        Tokens already computed for ``processing`` (a fresh one by default).
    seed : int
    """
    from clfeval.evaluate import report
    from clfeval.text import single_label_subset

    memo = TokenMemo(processing.tokenizer()) if memo is None else memo
    sl = single_label_subset(split, categories)
    train = [processing.story_text(s) for s in sl.train]
    test = [processing.story_text(s) for s in sl.test]
    model = nb_pipeline(processing, memo, False, seed).fit(train, list(sl.train_labels))
    pred = model.predict(test)
    rep = report(list(sl.test_labels), pred.tolist(), labels=list(sl.categories), train_labels=list(sl.train_labels))
    keys = ("support", "tp", "fp", "fn", "precision", "recall", "f1")
    maj = rep.baselines.majority
    assert maj is not None
    block = {
        "split": {"train": len(sl.train), "test": len(sl.test), "published": dict(PUBLISHED_SIZES["single_label"])},
        "labels": list(sl.categories), "dropped": [c for c in categories if c not in sl.categories],
        "accuracy": rep.accuracy, "majority_accuracy": maj.accuracy, "majority_class": maj.label,
        "macro_f1": rep.macro.f1, "macro_f1_of_means": rep.macro.f1_of_means, "micro_f1": rep.micro.f1,
        "per_class": {c: {k: getattr(rep.per_class[c], k) for k in keys} for c in sl.categories},
        "confusion_matrix": [list(r) for r in rep.confusion_matrix or ()], "hardest_class": rep.hardest_class,
        "most_confused_pair": None if rep.most_confused_pair is None else rep.most_confused_pair.to_dict(),
        "top_confusions": [c.to_dict() for c in rep.diagnostics.top_confusions],
        "vocabulary_size": len(model.named_steps["vectorizer"].vocabulary_),
        "how": "stories whose only label among the 90 ModApte categories is one of the ten largest (wheat and "
               "corn never occur alone); one multinomial NB over the classes, the class with the highest "
               "score wins; rows of the confusion matrix = gold, columns = predicted; the majority class "
               "is the most frequent of the training labels"}
    block["published"] = published_comparison(block)
    block["errors"] = multiclass_errors(list(sl.test_labels), pred.tolist(), test,
                                        [s.newid for s in sl.test], processing, seed)
    return block


def multiclass_errors(gold: Sequence[str], pred: Sequence[str], texts: Sequence[str], ids: Sequence[int],
                      processing: Any, seed: int = 0) -> dict[str, Any]:
    """What the misclassified test stories share (``clfeval errors`` on the part's predictions), in the part's own
    terms: its stop list and stems over the ``[a-z]+`` tokens of the model."""
    from clfeval.evaluate import analyse, count_arrays, counter_of
    from clfeval.text import analyzer_of

    counter = counter_of(analyzer_of(processing, "[a-z]+"), 5, seed, 300)
    count_arrays(counter, gold, pred, texts, ids)
    return analyse(counter, settings={"processing": processing.spec, "text": "the story text of the part"}).to_dict()


def published_comparison(block: dict[str, Any]) -> dict[str, Any]:
    """The published figures of the single-label part beside ours (rows: figure, published, ours).

    >>> b = {"labels": ["interest", "money-fx"], "confusion_matrix": [[3, 1], [0, 4]], "accuracy": 0.875,
    ...      "macro_f1": 0.87, "per_class": {}}
    >>> [r["figure"] for r in published_comparison(b)["rows"]][:3]
    ['accuracy', 'macro-F1', 'interest: correct']
    """
    labels, cm = block["labels"], block["confusion_matrix"]

    def cell(gold: str, pred: str) -> int | None:
        if gold not in labels or pred not in labels:
            return None
        return int(cm[labels.index(gold)][labels.index(pred)])

    def support(c: str) -> int | None:
        return int(sum(cm[labels.index(c)])) if c in labels else None

    pub = PUBLISHED_MULTICLASS
    grain = block["per_class"].get("grain", {})
    rows = [
        {"figure": "accuracy", "published": pub["accuracy"], "ours": block["accuracy"]},
        {"figure": "macro-F1", "published": pub["macro_f1"], "ours": block["macro_f1"]},
        {"figure": "interest: correct", "published": pub["interest"]["correct"], "ours": cell("interest", "interest"),
         "of": support("interest")},
        {"figure": "interest → money-fx", "published": pub["interest"]["as_money-fx"],
         "ours": cell("interest", "money-fx")},
        {"figure": "grain: TP / FP / FN", "published": f"{pub['grain']['tp']} / {pub['grain']['fp']} / "
                                                        f"{pub['grain']['fn']}",
         "ours": f"{grain['tp']} / {grain['fp']} / {grain['fn']}" if grain else None},
        {"figure": "grain: F1", "published": pub["grain"]["f1"], "ours": grain.get("f1")},
        {"figure": "ship: correct", "published": pub["ship"]["correct"], "ours": cell("ship", "ship"),
         "of": support("ship")},
        {"figure": "ship → crude", "published": pub["ship"]["as_crude"], "ours": cell("ship", "crude")},
        {"figure": "ship → trade", "published": pub["ship"]["as_trade"], "ours": cell("ship", "trade")},
    ]
    return {"source": PUBLISHED_MULTICLASS_SOURCE, "rows": rows}
