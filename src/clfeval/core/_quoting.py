"""Names written inside option text: ``--pairs '"lr, l2":svm'``, ``in_best_group("lr, l2")``.

One rule wherever names are written as text: separators (``,`` between items, ``:`` between the two systems of a
pair) split the text outside parentheses, and a name that holds a separator, or begins or ends with a space, is
written in double or single quotes. A quote opens only at the start of a name (after spaces), so an apostrophe
inside a name (``bob's model``) needs none; inside quotes every character is the name's, up to the same quote
character (a name holding both quote characters cannot be written as text: pass it from Python as a tuple).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from clfeval.errors import ClfevalError

__all__ = ["Name", "split_names", "quote_name"]

_QUOTES = "\"'"


@dataclass(frozen=True)
class Name:
    """One name of a text: the name (quotes removed, outer spaces stripped unless quoted), whether it was
    quoted, and the separator that ends it (``""`` after the last)."""

    text: str
    quoted: bool
    sep: str


def split_names(text: str, separators: str, refuse: Callable[[str], ClfevalError]) -> list[Name]:
    """The names of ``text``, split at ``separators`` outside quotes and parentheses.

    ``refuse(why)`` builds the error raised for an unclosed quote or text after a closing quote.

    >>> [(n.text, n.sep) for n in split_names('svm:"lr, l2", nb:knn(a,b)', ",:", ValueError)]
    [('svm', ':'), ('lr, l2', ','), ('nb', ':'), ('knn(a,b)', '')]
    >>> [n.text for n in split_names("bob's model, 'a:b'", ",", ValueError)]
    ["bob's model", 'a:b']
    """
    out: list[Name] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i < n and text[i] in _QUOTES:
            q = text[i]
            end = text.find(q, i + 1)
            if end < 0:
                raise refuse(f"the quote {q} that opens {text[i:i + 24]!r} is never closed.")
            name, quoted, i = text[i + 1:end], True, end + 1
            while i < n and text[i].isspace():
                i += 1
            if i < n and text[i] not in separators:
                raise refuse(f"{text[i:]!r} follows the quoted name {name!r}; a quoted name ends at a separator "
                             f"({' or '.join(repr(s) for s in separators)}).")
        else:
            start, depth = i, 0
            while i < n and (depth or text[i] not in separators):
                depth = max(0, depth + (text[i] == "(") - (text[i] == ")"))
                i += 1
            name, quoted = text[start:i].strip(), False
        sep = text[i] if i < n else ""
        out.append(Name(name, quoted, sep))
        if not sep:
            return out
        i += 1


def quote_name(name: str, separators: str) -> str:
    """A name as :func:`split_names` reads it back: in quotes when it holds a separator, starts with a quote or has
    outer spaces.

    >>> quote_name("C4.5", ",:"), quote_name("lr, l2", ",:"), quote_name('say "hi", then', ",")
    ('C4.5', '"lr, l2"', '\\'say "hi", then\\'')
    """
    plain = name == name.strip() and name[:1] not in _QUOTES and not any(s in name for s in separators) \
        and _balanced(name)
    if plain and name:
        return name
    return f"'{name}'" if '"' in name else f'"{name}"'


def _balanced(name: str) -> bool:
    """Every ``)`` closes an earlier ``(`` and every ``(`` is closed: the splitter's depth returns to 0."""
    depth = 0
    for ch in name:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0
