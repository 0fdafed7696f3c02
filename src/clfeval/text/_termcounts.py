"""Terms counted per group: a sparse term × group table of token counts that adds across batches.

An :class:`Analyzer` turns a text into terms — the maximal runs of a token pattern (Unicode letters,
``[^\\W\\d_]+``, by default), lower-cased, without the words of a stop list, stemmed — with the stop lists
and stemmers of :mod:`clfeval.text._processing` (one vocabulary for every use). A :class:`TermTable`
counts the tokens of each term in each group (the groups are plain integers: the error analysis uses
the cells of a confusion matrix); two tables add (``+``) whatever vocabulary each grew, so a corpus
counted in batches, files or partitions gives the same table as counted at once.

>>> a = Analyzer()
>>> a("Zebras, zebras 2 ZEBRA-crossing!")
['zebras', 'zebras', 'zebra', 'crossing']
>>> t = TermTable.of(a, ["a b b", "b c"], [0, 1]) + TermTable.of(a, ["c"], [1])
>>> t.count("b", 0), t.count("c", 1), t.group_tokens().tolist()
(2, 2, [3, 3])
"""

from __future__ import annotations

import importlib
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import islice
from typing import Any

import numpy as np

from clfeval.errors import DataError, UsageError

__all__ = ["TOKEN_PATTERN", "Analyzer", "analyzer_of", "TermTable", "MAX_CHARS", "MATCH_SECONDS", "check_token_pattern"]

TOKEN_PATTERN = r"[^\W\d_]+"
"""Unicode letters: maximal runs of word characters that are neither digits nor the underscore."""

MAX_CHARS = 1_000_000
"""Characters of one document that are tokenised (a longer document is counted on its first ones)."""


MATCH_SECONDS = 0.5
"""The time one document's tokens may take to match a token pattern other than the default (the ``regex``
package's ``timeout=``); a document that takes longer is skipped and named."""


_PARSER: Any = importlib.import_module("re._parser")  # re's own parser (no stub): a pattern's (min, max) width


@dataclass(frozen=True)
class _Matcher:
    """A compiled token pattern. The default pattern (one character class, repeated: linear time) is matched
    by Python's ``re``; any other by the ``regex`` package in its ``re``-compatible mode (``V0``), whose
    ``timeout=`` bounds each document: :meth:`findall` gives None for a document that takes longer than
    :data:`MATCH_SECONDS`."""

    rx: Any
    bounded: bool

    def findall(self, text: str) -> list[str] | None:
        if not self.bounded:
            return self.rx.findall(text)
        try:
            return self.rx.findall(text, timeout=MATCH_SECONDS)
        except TimeoutError:
            return None

    def finditer(self, text: str) -> list[Any] | None:
        if not self.bounded:
            return list(self.rx.finditer(text))
        try:
            return list(self.rx.finditer(text, timeout=MATCH_SECONDS))
        except TimeoutError:
            return None


def check_token_pattern(pattern: Any) -> None:
    """Refuse a token pattern that is not Python ``re`` syntax, holds capturing groups, or can match zero
    characters (its minimum width, from the parsed pattern, is 0: ``\\b``, ``$``, ``(?=a)``, ``x*``, ``''``):
    a match of zero characters would be an empty term, whatever the text.

    >>> check_token_pattern(r"\\b")
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option token_pattern can match zero characters ...
    """
    if not isinstance(pattern, str):
        raise UsageError(lambda n: f"option {n} must be a regular expression (text); got {type(pattern).__name__} "
                                   f"{pattern!r:.60}.", params=["token_pattern"])
    try:
        rx = re.compile(pattern)
        low = _PARSER.parse(pattern).getwidth()[0]
    except re.error as exc:
        why = str(exc)  # bound here: the message is formatted after the except block has deleted ``exc``
        raise UsageError(lambda n: f"option {n} is not a regular expression: {why} (got {pattern!r}).",
                         params=["token_pattern"]) from None
    if rx.groups:
        raise UsageError(lambda n: f"option {n} must not hold capturing groups (use (?:...)); got {pattern!r}.",
                         params=["token_pattern"])
    if low == 0:
        raise UsageError(lambda n: f"option {n} can match zero characters (its shortest match is empty: an anchor "
                                   f"such as \\b or $, a lookaround, or a repetition that allows none, such as x*), "
                                   f"so it would make empty terms; a token is one character or more, e.g. x+ or "
                                   f"\\w+; got {pattern!r}.", params=["token_pattern"])


@cache
def _regex(pattern: str) -> _Matcher:
    check_token_pattern(pattern)
    if pattern == TOKEN_PATTERN:
        return _Matcher(re.compile(pattern), bounded=False)
    import regex

    try:
        return _Matcher(regex.compile(pattern, flags=regex.V0), bounded=True)
    except regex.error as exc:  # pragma: no cover - the regex package reads every pattern re reads (V0)
        why = str(exc)
        raise UsageError(lambda n: f"option {n} is not a regular expression the regex package reads: {why} "
                                   f"(got {pattern!r}).", params=["token_pattern"]) from None


@cache
def _stemmer(name: str) -> Any:
    try:
        import Stemmer
    except ImportError:  # pragma: no cover - exercised only without the extra
        raise UsageError("stemming needs PyStemmer (pip install 'clfeval[text]').") from None
    return Stemmer.Stemmer(name)


@dataclass(frozen=True)
class Analyzer:
    """Text → terms: the runs of ``pattern`` (lower-cased first when ``lowercase``), the ``stop`` list's
    words removed, then stemmed by ``stem`` (a token whose stem is empty — Porter's stem of ``s`` — is left
    out); ``stop`` and ``stem`` are names of :data:`clfeval.text._processing.STOP_LISTS` and
    :data:`~clfeval.text._processing.STEMMERS`). Picklable; a document is tokenised on its first
    ``max_chars`` characters.
    """

    pattern: str = TOKEN_PATTERN
    lowercase: bool = True
    stop: str = "none"
    stem: str = "none"
    max_chars: int = MAX_CHARS
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        from clfeval.text._processing import STEMMERS, stop_words

        check_token_pattern(self.pattern)
        _regex(self.pattern)
        stop_words(self.stop)
        if self.stem not in STEMMERS:
            raise UsageError(f"unknown stemmer {self.stem!r}; the stemmers are: {', '.join(STEMMERS)}.")

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("pattern", "lowercase", "stop", "stem", "max_chars")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
        object.__setattr__(self, "_cache", {})

    def __call__(self, text: str) -> list[str]:
        """The terms of one text (:class:`~clfeval.errors.DataError` when the pattern takes longer than
        :data:`MATCH_SECONDS` on it)."""
        return self.many([text])

    def many(self, texts: Sequence[str], on_skip: Callable[[int], None] | None = None) -> list[str]:
        """The terms of several texts, one list (their order kept). With the default pattern, which never
        matches a line break and runs in linear time, the texts are joined by line breaks and matched at
        once; any other pattern is matched text by text, each within :data:`MATCH_SECONDS`: a text that
        takes longer gives no terms and its position goes to ``on_skip`` (without ``on_skip``:
        :class:`~clfeval.errors.DataError`)."""
        cut = [t[: self.max_chars] if len(t) > self.max_chars else t for t in texts]
        rx = _regex(self.pattern)
        if not rx.bounded:
            joined = "\n".join(cut)
            return self.terms(rx.findall(joined.lower() if self.lowercase else joined) or [])
        out: list[str] = []
        for i, t in enumerate(cut):
            tokens = rx.findall(t.lower() if self.lowercase else t)
            if tokens is not None:
                out.extend(self.terms(tokens))
            elif on_skip is not None:
                on_skip(i)
            else:
                raise DataError(lambda n, i=i: f"the token pattern {self.pattern!r} (option {n}) took longer than "
                                               f"{MATCH_SECONDS:g} s on text {i + 1}; simplify it.",
                                params=["token_pattern"])
        return out

    def terms(self, tokens: list[str]) -> list[str]:
        """Tokens (already matched and cased) → terms: stop words out, stems."""
        from clfeval.text._processing import STEMMERS, stop_words

        stop = stop_words(self.stop)
        if stop:
            tokens = [t for t in tokens if t not in stop]
        algo = STEMMERS[self.stem]
        if algo is not None and tokens:
            cache = self._cache
            new = [t for t in set(tokens) if t not in cache]
            if new:
                cache.update(zip(new, _stemmer(algo).stemWords(new), strict=True))
            tokens = [cache[t] for t in tokens]
            if "" in cache.values():  # Porter stems 's' to '': an empty term names nothing, it is left out
                tokens = [t for t in tokens if t]
        return tokens

    def spans(self, text: str, wanted: Iterable[str]) -> list[tuple[int, int, str]]:
        """``(start, end, term)`` of every token of ``text`` whose term is in ``wanted`` (for highlighting;
        none when the pattern takes longer than :data:`MATCH_SECONDS` on the text)."""
        wanted = set(wanted)
        if not wanted:
            return []
        # matched as counted (lower-cased), where lower-casing keeps the positions (it may not: 'İ' → 'i̇')
        low = text.lower() if self.lowercase else text
        found = _regex(self.pattern).finditer(low if len(low) == len(text) else text)
        out: list[tuple[int, int, str]] = []
        for m in found or ():
            tok = m.group(0).lower() if self.lowercase else m.group(0)
            kept = self.terms([tok])
            if kept and kept[0] in wanted:
                out.append((m.start(), m.end(), kept[0]))
        return out

    def describe(self) -> str:
        """One line: tokens, case, stop list, stems."""
        from clfeval.text._processing import STOP_LISTS

        pattern = "Unicode letters ([^\\W\\d_]+)" if self.pattern == TOKEN_PATTERN else f"runs of {self.pattern!r}"
        stems = {"none": "unstemmed", "porter": "Porter stems", "snowball": "Snowball (Porter2) stems"}[self.stem]
        return "; ".join([pattern + (", lower-cased" if self.lowercase else ""), STOP_LISTS[self.stop], stems])

    def to_dict(self) -> dict[str, Any]:
        return {"token_pattern": self.pattern, "lowercase": self.lowercase, "stop": self.stop, "stem": self.stem,
                "max_chars": self.max_chars, "description": self.describe()}


def analyzer_of(processing: Any = None, token_pattern: str | None = None, *, lowercase: bool = True,
                max_chars: int = MAX_CHARS) -> Analyzer:
    """The analyzer of a ``--processing`` spec (its ``stop`` and ``stem`` keys, the only ones read: a key left
    out is none, as is the whole spec when None; a preset gives its own) and a token pattern (None: Unicode
    letters; any other text, even empty, is checked as a pattern).

    >>> analyzer_of("stop=english179").stem, analyzer_of("multiclass").stem
    ('none', 'porter')
    """
    from clfeval.text._processing import NO_TERM_PROCESSING, TERM_KEYS, parse_processing

    p = parse_processing(processing, base=NO_TERM_PROCESSING, keys=TERM_KEYS,
                         command="the error analysis (clfeval errors, error_analysis)") or NO_TERM_PROCESSING
    pattern = TOKEN_PATTERN if token_pattern is None else token_pattern
    check_token_pattern(pattern)
    return Analyzer(pattern=pattern, lowercase=lowercase, stop=p.stop, stem=p.stem, max_chars=max_chars)


class TermTable:
    """Token counts of terms in groups (sparse): ``terms`` (the vocabulary, in the order first seen),
    ``keys`` (``group * 2**32 + term index``, sorted, unique) and ``counts``; tables add.

    The table is the same whatever order or split its texts were counted in: :meth:`canonical` sorts
    the vocabulary, and equality compares canonical tables.
    """

    __slots__ = ("terms", "index", "keys", "counts", "_pending", "_pending_n")

    def __init__(self) -> None:
        self.terms: list[str] = []
        self.index: dict[str, int] = defaultdict(self._new_id)
        self.keys = np.zeros(0, dtype=np.int64)
        self.counts = np.zeros(0, dtype=np.int64)
        self._pending: list[np.ndarray] = []
        self._pending_n = 0

    def _new_id(self) -> int:
        # called by the defaultdict for an unseen term: the term is appended by add_texts
        return len(self.index)

    @classmethod
    def of(cls, analyzer: Analyzer, texts: Sequence[str], groups: Sequence[int]) -> TermTable:
        t = cls()
        t.add_texts(analyzer, texts, groups)
        return t

    def add_texts(self, analyzer: Analyzer, texts: Sequence[str], groups: Sequence[int],
                  on_skip: Callable[[int], None] | None = None) -> int:
        """Counts the terms of every text in its group; returns the number of terms counted. A text the
        pattern takes too long on (:meth:`Analyzer.many`) is left out, its position in ``texts`` given to
        ``on_skip``."""
        return self._add(analyzer, texts, [(g,) for g in groups], on_skip)

    def add_texts_in(self, analyzer: Analyzer, texts: Sequence[str], group_sets: Sequence[tuple[int, ...]],
                     on_skip: Callable[[int], None] | None = None) -> int:
        """Counts the terms of every text in each of its groups (a document of several label-set cells):
        texts with the same groups are tokenised once; returns the number of terms counted (once a text)."""
        return self._add(analyzer, texts, group_sets, on_skip)

    def _add(self, analyzer: Analyzer, texts: Sequence[str], group_sets: Sequence[tuple[int, ...]],
             on_skip: Callable[[int], None] | None) -> int:
        by: dict[tuple[int, ...], list[int]] = defaultdict(list)  # groups → positions of their texts
        for i, (text, gs) in enumerate(zip(texts, group_sets, strict=False)):
            if text:
                by[tuple(gs)].append(i)
        index, total = self.index, 0
        for gs in sorted(by):
            at = by[gs]
            skip = None if on_skip is None else (lambda j, at=at: on_skip(at[j]))
            counts = Counter(analyzer.many([texts[i] for i in at], skip))
            if not counts:
                continue
            ids = np.fromiter(map(index.__getitem__, counts), dtype=np.int64, count=len(counts))
            n = np.fromiter(counts.values(), dtype=np.int64, count=len(counts))
            total += int(n.sum())
            for g in gs:
                self._push(g * (1 << 32) + ids, n)
        self._sync()
        return total

    def _sync(self) -> None:
        """``terms`` follows the index (ids are the order of insertion)."""
        if len(self.index) > len(self.terms):
            self.terms.extend(islice(self.index, len(self.terms), None))

    def _push(self, keys: np.ndarray, counts: np.ndarray | None) -> None:
        if counts is None:
            keys, counts = np.unique(keys, return_counts=True)
        self._pending.append(np.stack([keys, counts.astype(np.int64)]))
        self._pending_n += len(keys)
        if self._pending_n > 4 * max(len(self.keys), 1 << 20):
            self._compact()

    def _compact(self) -> None:
        if not self._pending:
            return
        allk = np.concatenate([self.keys] + [p[0] for p in self._pending])
        allc = np.concatenate([self.counts] + [p[1] for p in self._pending])
        self._pending, self._pending_n = [], 0
        keys, inv = np.unique(allk, return_inverse=True)
        self.keys, self.counts = keys, np.bincount(inv.ravel(), weights=allc, minlength=len(keys)).astype(np.int64)

    def __add__(self, other: TermTable) -> TermTable:
        out = TermTable()
        for t in (self, other):
            t._compact()
            remap = np.fromiter((out.index[w] for w in t.terms), dtype=np.int64, count=len(t.terms))
            out._sync()
            if len(t.keys):
                out._push((t.keys >> 32) * (1 << 32) + remap[t.keys & 0xFFFFFFFF], t.counts)
        out._compact()
        return out

    def __getstate__(self) -> dict[str, Any]:
        self._compact()
        return {"terms": self.terms, "keys": self.keys, "counts": self.counts}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]
        self.terms = list(state["terms"])
        self.index.update((w, i) for i, w in enumerate(self.terms))
        self.keys, self.counts = state["keys"], state["counts"]

    def count(self, term: str, group: int) -> int:
        self._compact()
        if term not in self.index:
            return 0
        k = group * (1 << 32) + self.index[term]
        i = np.searchsorted(self.keys, k)
        return int(self.counts[i]) if i < len(self.keys) and self.keys[i] == k else 0

    def matrix(self, groups: int) -> tuple[list[str], Any]:
        """The vocabulary (sorted) and a sparse ``(terms, groups)`` CSR matrix of counts."""
        import scipy.sparse as sp

        self._compact()
        order = np.argsort(np.array(self.terms, dtype=object), kind="stable") if self.terms else np.zeros(0, int)
        rank = np.empty(len(self.terms), dtype=np.int64)
        rank[order] = np.arange(len(self.terms))
        g = (self.keys >> 32).astype(np.int64)
        w = rank[self.keys & 0xFFFFFFFF] if len(self.keys) else np.zeros(0, np.int64)
        m = sp.csr_matrix((self.counts, (w, g)),
                          shape=(len(self.terms), max(groups, int(g.max()) + 1 if len(g) else 0)))
        return [self.terms[i] for i in order], m

    def group_tokens(self) -> np.ndarray:
        """Tokens counted in each group (0 .. largest group)."""
        self._compact()
        g = self.keys >> 32
        return np.bincount(g, weights=self.counts, minlength=int(g.max()) + 1 if len(g) else 0).astype(np.int64)

    def __len__(self) -> int:
        return len(self.terms)
