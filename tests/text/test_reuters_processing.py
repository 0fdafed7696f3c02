"""Text processing per part of the Reuters study: presets, ``--processing``, the stop list, the story assembly.

Reference values: the published figures of the single-label part (typed in from the
source article: interest 48 of 81 correct and 28 → money-fx; grain TP/FP/FN 7/0/3;
ship 21 of 36, 6 → crude, 6 → trade; accuracy 0.952, macro-F1 0.852), the published
binary table (via test_study.py), NLTK's printed English stop list
(tests/_helpers/nltk_stopwords.py), hand-built stories, and scikit-learn's CountVectorizer.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from clfeval.errors import UsageError
from clfeval.text._datasets import Story, story_text, texts
from clfeval.text._processing import PRESETS, Processing, parse_processing, stop_words
from tests._helpers.clihelp import run
from tests._helpers.nltk_stopwords import ENGLISH_179

needs_data = pytest.mark.reuters

BRIEF = Story(1199, 16519, "TRAIN", "TRAINING-SET", "YES", ("trade",), "HOUSE TRADE BILL", "", "Blah blah blah.",
              "BRIEF")
NORM = Story(2, 2, "TRAIN", "TRAINING-SET", "YES", ("grain",), "WHEAT UP", "", "Prices rose.", "NORM")
UNPROC = Story(3, 3, "TEST", "TRAINING-SET", "YES", ("earn",), "", "", "QTLY DIV 5 CTS", "UNPROC")


# --------------------------------------------------------------------------- #
# The stop list, the presets and the spec
# --------------------------------------------------------------------------- #


def test_vendored_stop_list_is_nltks_179_words() -> None:
    assert len(ENGLISH_179) == 179 == len(set(ENGLISH_179))
    assert stop_words("english179") == frozenset(ENGLISH_179)
    from importlib import resources

    lines = resources.files("clfeval.text").joinpath("data/english179.txt").read_text(encoding="utf-8").splitlines()
    assert lines == list(ENGLISH_179)  # NLTK's order too
    readme = resources.files("clfeval.text").joinpath("data/README.md").read_text(encoding="utf-8")
    assert "Public Domain" in readme and "nltk_data" in readme and "Apache" in readme


def test_stop_lists_by_name() -> None:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    assert stop_words("sklearn") == ENGLISH_STOP_WORDS and stop_words("none") == frozenset()
    with pytest.raises(UsageError, match="english179"):
        stop_words("nltk")


def test_presets_are_the_issue_setups() -> None:
    assert PRESETS["binary"] == Processing(title=2, brief="text", stop="none", stem="snowball")
    assert PRESETS["multiclass"] == Processing(title=1, brief="title", stop="english179", stem="porter")
    assert PRESETS["multiclass"].stemmer == "porter" and PRESETS["binary"].stemmer == "english"


@pytest.mark.parametrize("spec, expected", [
    ("binary", PRESETS["binary"]),
    ("multiclass", PRESETS["multiclass"]),
    ("title=1,brief=title,stop=english179,stem=porter", PRESETS["multiclass"]),
    (" stem=porter , title=1 ", Processing(title=1, brief="text", stop="none", stem="porter")),
    ("multiclass,stem=snowball", Processing(title=1, brief="title", stop="english179", stem="snowball")),
    ("stop=sklearn,stem=none", Processing(title=2, brief="text", stop="sklearn", stem="none")),
])
def test_parse_processing(spec: str, expected: Processing) -> None:
    got = parse_processing(spec)
    assert got == expected
    assert parse_processing(got.spec) == got  # the canonical spec reads back


@pytest.mark.parametrize("spec, words", [
    ("title=3", ["title=3", "1 | 2"]),
    ("stem=lancaster", ["lancaster", "porter"]),
    ("stop=nltk", ["nltk", "english179"]),
    ("brief=body", ["body", "text | title"]),
    ("colour=red", ["colour=red", "known key"]),
    ("title=1,title=2", ["title=2", "twice"]),
    ("mixed", ["unknown preset 'mixed'"]),
    ("title", ["'title'", "key=value"]),
    ("", ["preset or key=value"]),
])
def test_parse_processing_refuses_bad_specs(spec: str, words: list[str]) -> None:
    with pytest.raises(UsageError) as e:
        parse_processing(spec)
    for w in words:
        assert w in str(e.value), (w, str(e.value))
    assert "processing" in str(e.value)
    assert "--processing" in str(e.value.with_names({"processing": "--processing"}))


def test_each_part_has_its_preset() -> None:
    from clfeval.studies._reuters import PARTS, part_processing

    procs = part_processing(None)
    assert [p for p, v in procs.items() if v == PRESETS["multiclass"]] == ["multiclass"]
    assert all(v == PRESETS["binary"] for p, v in procs.items() if p != "multiclass") and set(procs) == set(PARTS)
    one = parse_processing("stem=porter")
    assert set(part_processing("1,7,9", one).values()) == {one}


# --------------------------------------------------------------------------- #
# Story assembly and tokens
# --------------------------------------------------------------------------- #


def test_story_text_title_and_brief_options() -> None:
    assert story_text(NORM) == NORM.text == "WHEAT UP\nPrices rose."
    assert story_text(NORM, title=2) == "WHEAT UP\nWHEAT UP\nPrices rose."
    assert story_text(NORM, brief="title") == "WHEAT UP\nPrices rose."  # only BRIEF stories change
    assert story_text(BRIEF) == "HOUSE TRADE BILL\nBlah blah blah."
    assert story_text(BRIEF, brief="title") == "HOUSE TRADE BILL"
    assert story_text(BRIEF, title=2, brief="title") == "HOUSE TRADE BILL\nHOUSE TRADE BILL"
    assert story_text(UNPROC, brief="title") == "QTLY DIV 5 CTS"  # other stories without <BODY> keep their text
    assert texts([NORM, BRIEF], title=1, brief="title") == ["WHEAT UP\nPrices rose.", "HOUSE TRADE BILL"]
    assert texts([NORM]) == [NORM.text]
    assert PRESETS["multiclass"].story_text(BRIEF) == "HOUSE TRADE BILL"
    for bad in ({"title": 3}, {"title": True}, {"brief": "body"}):
        with pytest.raises(UsageError):
            story_text(NORM, **bad)


def test_tokenizer_stop_list_goes_before_porter_stems() -> None:
    from clfeval.text._models import Tokenizer

    tok = PRESETS["multiclass"].tokenizer()
    # 'having' and 'doing' are on NLTK's list (not scikit-learn's); 'rates' → 'rate' (Porter)
    assert tok("Having doing the rates RISING") == ["rate", "rise"]
    assert Tokenizer(stem=True, stop_words=True)("Having doing the rates RISING") == ["have", "do", "rate", "rise"]
    twin = pickle.loads(pickle.dumps(tok))
    assert twin.stop_list == "english179" and twin("just having rates") == ["rate"]
    assert "stop_list='english179'" in repr(tok)
    with pytest.raises(UsageError, match="two stop lists"):
        Tokenizer(stop_words=True, stop_list="english179")
    with pytest.raises(UsageError, match="unknown stop list"):
        Tokenizer(stop_list="klingon")


def test_vectorizer_stop_list_matches_scikit_learn() -> None:
    from sklearn.feature_extraction.text import CountVectorizer

    from clfeval.text._models import ModelConfig, make_vectorizer

    docs = ["It just doesn't rise, having risen", "the tonnes were shipped", "Wheat and corn: don't sell"]
    ours = make_vectorizer(stop_list="english179").fit(docs)
    ref = CountVectorizer(token_pattern=r"[a-z]+", stop_words=list(ENGLISH_179)).fit(docs)
    assert ours.vocabulary_ == ref.vocabulary_
    cfg = ModelConfig("nb", stem=True, stop_list="english179")
    assert cfg.to_dict()["stop_list"] == "english179" and "stop words removed (english179)" in cfg.describe()
    with pytest.raises(UsageError):
        ModelConfig("nb", stop_words=True, stop_list="english179")


# --------------------------------------------------------------------------- #
# The study on the corpus
# --------------------------------------------------------------------------- #

# The single-label part as published (source article), typed in.
PUB = {"accuracy": 0.952, "macro_f1": 0.852, "interest": (48, 81, 28), "grain": (7, 0, 3), "ship": (21, 36, 6, 6)}


def _cell(m: dict[str, Any], gold: str, pred: str) -> int:
    return m["confusion_matrix"][m["labels"].index(gold)][m["labels"].index(pred)]


@pytest.fixture(scope="module")
def partial(reuters_archive: Path) -> Any:
    """Parts 1, 6 and 7 with each part's preset (the whole study is test_study.py's session fixture)."""
    from clfeval.studies._reuters import reuters_study

    return reuters_study(reuters_archive, parts="binary,keyword_rule,multiclass")


@pytest.fixture(scope="module")
def multiclass_binary_preset(reuters_archive: Path) -> Any:
    from clfeval.studies._reuters import reuters_study

    return reuters_study(reuters_archive, parts="multiclass", processing="binary")


@needs_data
def test_multiclass_preset_reproduces_interest_and_grain(partial: Any) -> None:
    study = partial
    m = study.multiclass
    assert study.processing["multiclass"]["spec"] == "title=1,brief=title,stop=english179,stem=porter"
    assert study.processing["multiclass"]["preset"] == "multiclass"
    interest = m["labels"].index("interest")
    assert (_cell(m, "interest", "interest"), sum(m["confusion_matrix"][interest])) == PUB["interest"][:2]
    g = m["per_class"]["grain"]
    assert (g["tp"], g["fp"], g["fn"]) == PUB["grain"]
    assert g["f1"] == pytest.approx(2 * 7 / (2 * 7 + 0 + 3))
    assert round(g["f1"], 3) == 0.824
    # the rest lands close to the published figures (the issue: "slightly high elsewhere")
    assert abs(m["accuracy"] - PUB["accuracy"]) < 0.01 and abs(m["macro_f1"] - PUB["macro_f1"]) < 0.015
    assert abs(_cell(m, "interest", "money-fx") - PUB["interest"][2]) <= 2
    assert abs(_cell(m, "ship", "ship") - PUB["ship"][0]) <= 2
    rows = {r["figure"]: r for r in m["published"]["rows"]}
    assert rows["interest: correct"]["published"] == 48 == rows["interest: correct"]["ours"]
    assert rows["grain: TP / FP / FN"]["ours"] == rows["grain: TP / FP / FN"]["published"] == "7 / 0 / 3"
    assert rows["ship → trade"]["published"] == 6 and rows["accuracy"]["published"] == 0.952


@needs_data
def test_binary_parts_keep_their_preset(partial: Any) -> None:
    study = partial
    for part in study.parts:
        if part != "multiclass":
            assert study.processing[part]["preset"] == "binary", part
            assert study.processing[part]["spec"] == "title=2,brief=text,stop=none,stem=snowball", part
    assert study.signature["processing"]["binary"] == "title=2,brief=text,stop=none,stem=snowball"
    assert study.signature["processing"]["multiclass"] == "title=1,brief=title,stop=english179,stem=porter"
    assert "Snowball" in study.processing["binary"]["line"] and "NLTK" in study.processing["multiclass"]["line"]


@needs_data
def test_binary_preset_on_the_multiclass_part(multiclass_binary_preset: Any, reuters_stories: Any) -> None:
    """The old setup (title twice, Snowball, no stop list) gives the issue's 'clfeval today' column."""
    import re

    import Stemmer
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.metrics import confusion_matrix
    from sklearn.naive_bayes import MultinomialNB

    from clfeval.text._datasets import PUBLISHED_MODAPTE_EXCLUDED, modapte, single_label_subset

    m = multiclass_binary_preset.multiclass
    assert multiclass_binary_preset.processing["multiclass"]["preset"] == "binary"
    sl = single_label_subset(modapte(reuters_stories, exclude_newids=PUBLISHED_MODAPTE_EXCLUDED),
                             list(multiclass_binary_preset.categories))
    stem = Stemmer.Stemmer("english").stemWord

    def text(s: Any) -> str:
        return "\n".join(p for p in (s.title, s.title, s.body) if p)

    vec = CountVectorizer(analyzer=lambda t: [stem(w) for w in re.findall("[a-z]+", t.lower())])
    X = vec.fit_transform([text(s) for s in sl.train])
    pred = MultinomialNB(alpha=1.0).fit(X, list(sl.train_labels)).predict(vec.transform([text(s) for s in sl.test]))
    assert m["confusion_matrix"] == confusion_matrix(list(sl.test_labels), pred, labels=m["labels"]).tolist()
    g = m["per_class"]["grain"]
    assert (g["tp"], g["fp"], g["fn"]) != PUB["grain"]  # this setup does not reproduce grain


@needs_data
def test_processing_option_runs_every_part_with_one_setup(reuters_archive: Path, tmp_path: Path) -> None:
    r = run("reuters", "--archive", reuters_archive, "--parts", "multiclass,keyword_rule", "--processing",
            "multiclass", "--format", "json", "--no-log")
    assert r.code == 0, r.err
    d = json.loads(r.out)
    spec = "title=1,brief=title,stop=english179,stem=porter"
    assert {p: v["spec"] for p, v in d["processing"].items()} == {"keyword_rule": spec, "multiclass": spec}
    assert d["signature"]["processing"] == {"keyword_rule": spec, "multiclass": spec}
    assert d["tokenization"]["why"] == f"chosen with --processing {spec}"
    assert "Porter" in d["tokenization"]["stemmer"]
    rows = {r["figure"]: r for r in d["multiclass"]["published"]["rows"]}
    assert rows["interest: correct"]["ours"] == 48
    r = run("reuters", "--archive", reuters_archive, "--parts", "multiclass", "--no-log")
    assert r.code == 0, r.err
    assert "Text processing (preset multiclass)" in r.out and "Published figures beside ours" in r.out
    assert "7 / 0 / 3" in r.out


def test_cli_bad_processing_names_the_option(tmp_path: Path) -> None:
    out = tmp_path / "study.json"
    r = run("reuters", "--archive", tmp_path, "--processing", "stem=lancaster", "--no-log", "--output", out)
    assert r.code == 2 and r.out == "" and not out.exists()
    assert "--processing" in r.err and "lancaster" in r.err and "Traceback" not in r.err
    assert r.err.startswith("clfeval: error:")


def test_processing_is_a_frozen_value() -> None:
    p = PRESETS["multiclass"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.title = 2  # type: ignore[misc]
    d = p.to_dict()
    assert d["spec"] == p.spec and d["preset"] == "multiclass" and d["description"] == p.describe()


@needs_data
def test_unstemmed_setup_with_scikit_learns_stop_list(reuters_stories: Any) -> None:
    """stem=none takes the vectorizer's own path: the part equals CountVectorizer with the same stop list."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, CountVectorizer
    from sklearn.metrics import confusion_matrix
    from sklearn.naive_bayes import MultinomialNB

    from clfeval.studies._reuters_multiclass import multiclass_part
    from clfeval.text._datasets import PUBLISHED_MODAPTE_EXCLUDED, largest_categories, modapte, single_label_subset

    split = modapte(reuters_stories, exclude_newids=PUBLISHED_MODAPTE_EXCLUDED)
    cats = largest_categories(split, 10)
    proc = parse_processing("title=1,brief=title,stop=sklearn,stem=none")
    m = multiclass_part(split, cats, proc)
    sl = single_label_subset(split, cats)

    def text(s: Any) -> str:
        return "\n".join(p for p in (s.title, "" if s.text_type == "BRIEF" else s.body) if p)

    vec = CountVectorizer(token_pattern="[a-z]+", stop_words=sorted(ENGLISH_STOP_WORDS))
    X = vec.fit_transform([text(s) for s in sl.train])
    pred = MultinomialNB(alpha=1.0).fit(X, list(sl.train_labels)).predict(vec.transform([text(s) for s in sl.test]))
    assert m["confusion_matrix"] == confusion_matrix(list(sl.test_labels), pred, labels=m["labels"]).tolist()
    assert m["vocabulary_size"] == len(vec.vocabulary_)
