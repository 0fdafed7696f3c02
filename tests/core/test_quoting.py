"""The quoting rule of names written as option text (core/_quoting.py): ``--pairs``, requirement arguments."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from clfeval.core._quoting import quote_name, split_names
from clfeval.errors import UsageError


def refuse(why: str) -> UsageError:
    return UsageError(why)


def test_separators_outside_quotes_and_parentheses_split():
    got = [(n.text, n.quoted, n.sep) for n in split_names(' a : "b, c" ,d(e,f):\'g:h\' ', ",:", refuse)]
    assert got == [("a", False, ":"), ("b, c", True, ","), ("d(e,f)", False, ":"), ("g:h", True, "")]
    assert [n.text for n in split_names("it's, o'clock", ",", refuse)] == ["it's", "o'clock"]  # not at a start
    assert [n.text for n in split_names("", ",", refuse)] == [""]


@pytest.mark.parametrize("text, words", [('"ab', "never closed"), ('"a"b', "follows the quoted name 'a'")])
def test_malformed_quotes_are_refused(text, words):
    with pytest.raises(UsageError, match=words):
        split_names(text, ",", refuse)


@given(st.lists(st.text(alphabet="ab ,:()'\"", min_size=1, max_size=8)
                .filter(lambda s: not ('"' in s and "'" in s)), min_size=1, max_size=4))
def test_a_quoted_name_reads_back_as_itself(names):
    text = ",".join(quote_name(n, ",:") for n in names)
    assert [n.text for n in split_names(text, ",:", refuse)] == names


def test_unbalanced_parentheses_are_quoted():
    assert quote_name(")(", ",") == '")("' and quote_name("svm(rbf)", ",") == "svm(rbf)"
    assert [n.text for n in split_names(f"{quote_name(')(', ',')},a", ",", refuse)] == [")(", "a"]
