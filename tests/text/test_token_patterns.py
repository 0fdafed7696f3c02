"""Issue 35: the token pattern and ``--processing`` of the error analysis (``clfeval.text._termcounts``).

A pattern whose shortest match is empty is refused, whatever makes it so (E04, P29); a pattern other than the
default is matched by the ``regex`` package within a time bound per document, giving ``re``'s tokens; a
``--processing`` key left out takes the command's own default, and the Reuters-only keys are refused.
"""

from __future__ import annotations

import re

import pytest

import clfeval.text._termcounts as termcounts
from clfeval.errors import DataError, UsageError
from clfeval.text._processing import PRESETS, parse_processing
from clfeval.text._termcounts import TOKEN_PATTERN, Analyzer, TermTable, analyzer_of, check_token_pattern

# each can match zero characters somewhere: shown by a text on which re finds an empty match
ZERO_WIDTH = [r"\b", "(?=a)", "$", "x*", "(?i)x*", "", "a|", "(?:)", "a?", "[a-z]{0,3}", r"\Z", "(?!x)", "a{0}",
              r"(?<=a)", "(?:a|b*)", r"\B"]
# each needs one character or more
POSITIVE = [r"\S+", r"(?<=a)b", r"\w+(?=x)", "x", "[a-z]{2}", "(?:a|bc)+", r"(?i)[^\W\d_]+", r"\b\w+\b", "a$"]


@pytest.mark.parametrize("pattern", ZERO_WIDTH)
def test_a_pattern_that_can_match_zero_characters_is_refused(pattern):
    assert any(m.group(0) == "" for text in ("", "a", "ab x") for m in re.finditer(pattern, text))  # the oracle
    with pytest.raises(UsageError, match="option token_pattern can match zero characters") as e:
        analyzer_of(None, pattern)
    assert repr(pattern) in str(e.value)


@pytest.mark.parametrize("pattern", POSITIVE)
def test_a_pattern_of_one_character_or_more_is_taken(pattern):
    check_token_pattern(pattern)
    a = analyzer_of(None, pattern)
    assert all(t for t in a("ab x abx AB_12 bcbc"))


@pytest.mark.parametrize("pattern, needle", [("(", "not a regular expression"), ("(a)", "capturing groups"),
                                             (r"\p{L}+", "not a regular expression"), (5, "must be a regular")])
def test_other_bad_patterns_are_refused_by_name(pattern, needle):
    with pytest.raises(UsageError, match=needle):
        analyzer_of(None, pattern)


CORPORA = ["The runners were running quickly, 3 times: café, naïve, Zürich!",
           "zebra <script>alert(1)</script> \u202eevil\u202c \x1b[31mred \x00 & 'q\" zebra",
           "WHEAT UP\nWHEAT UP\nPrices rose 4.5 pct in the U.S.-Japan talks.",
           "a" * 26 + "!", "déjà vu, ÆSIR, Zoë"]


@pytest.mark.parametrize("pattern", [r"\S+", "[a-z]+", r"\w+", r"[^\W\d_]+(?:'[^\W\d_]+)?", "(?i)[A-Z]+"])
def test_the_regex_package_gives_res_tokens(pattern):
    a = analyzer_of(None, pattern)
    for text in CORPORA:
        assert a(text) == re.findall(pattern, text.lower())


def test_where_the_regex_package_reads_unicode_otherwise_than_re():
    # \w is Unicode's word class there: a combining mark ('İ'.lower() is 'i' + U+0307) stays in its word
    assert analyzer_of(None, r"\w+")("İstanbul") == ["i\u0307stanbul"]
    assert re.findall(r"\w+", "İstanbul".lower()) == ["i", "stanbul"]
    assert Analyzer()("İstanbul") == ["i", "stanbul"]  # the default pattern is re's


def test_the_default_pattern_is_res_and_joins_a_batch():
    a = Analyzer()
    assert a.pattern == TOKEN_PATTERN
    assert a.many(CORPORA) == [t for text in CORPORA for t in re.findall(TOKEN_PATTERN, text.lower())]


SLOW, STUCK = "(?:a|a)+b", "a" * 26 + "!"


def test_a_slow_text_is_named_to_the_caller_and_its_neighbours_counted(monkeypatch):
    monkeypatch.setattr(termcounts, "MATCH_SECONDS", 0.02)
    a = Analyzer(pattern=SLOW)
    skipped: list[int] = []
    assert a.many(["ab", STUCK, "aab ab", STUCK], skipped.append) == ["ab", "aab", "ab"]
    assert skipped == [1, 3]
    with pytest.raises(DataError, match=r"took longer than 0.02 s on text 2"):
        a.many(["ab", STUCK])
    # a table groups the texts: each skipped text is reported at its own place
    t, at = TermTable(), []
    assert t.add_texts(a, ["ab", STUCK, "ab", STUCK, "ab"], [0, 1, 1, 0, 0], at.append) == 3
    assert sorted(at) == [1, 3] and t.count("ab", 0) == 2 and t.count("ab", 1) == 1
    assert a.spans(STUCK, {"ab"}) == []  # highlighting a slow text: nothing marked


def test_spans_are_matched_as_the_terms_are_counted():
    a = analyzer_of(None, "[a-z]+")
    assert a("Wheat") == ["wheat"]
    assert a.spans("Wheat PRICES", {"wheat", "prices"}) == [(0, 5, "wheat"), (6, 12, "prices")]


@pytest.mark.parametrize("spec, stop, stem", [
    (None, "none", "none"), ("stop=english179", "english179", "none"), ("stem=porter", "none", "porter"),
    ("multiclass", "english179", "porter"), ("binary", "none", "snowball"), ("multiclass,stem=snowball",
                                                                              "english179", "snowball"),
    ("stop=sklearn,stem=none", "sklearn", "none"),
])
def test_a_key_left_out_takes_the_error_analysis_default(spec, stop, stem):
    a = analyzer_of(spec)
    assert (a.stop, a.stem) == (stop, stem)


@pytest.mark.parametrize("spec, key", [("title=2", "title"), ("brief=title", "brief"),
                                       ("multiclass,title=1", "title"), ("stop=none,brief=text", "brief")])
def test_the_reuters_keys_are_refused_by_the_error_analysis(spec, key):
    with pytest.raises(UsageError, match=rf"the key {key} \(.*\) is the Reuters study's; the error analysis "
                                         r"\(clfeval errors, error_analysis\) reads only the keys stop and stem"):
        analyzer_of(spec)


def test_the_reuters_study_keeps_the_binary_preset_for_a_key_left_out():
    assert parse_processing("stop=english179") == PRESETS["binary"].__class__(title=2, brief="text",
                                                                              stop="english179", stem="snowball")
    assert parse_processing("title=1").spec == "title=1,brief=text,stop=none,stem=snowball"
