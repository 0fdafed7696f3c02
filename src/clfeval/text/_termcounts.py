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

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import islice
from typing import Any

import numpy as np

from clfeval.errors import UsageError

__all__ = ["TOKEN_PATTERN", "Analyzer", "analyzer_of", "TermTable", "MAX_CHARS"]

TOKEN_PATTERN = r"[^\W\d_]+"
"""Unicode letters: maximal runs of word characters that are neither digits nor the underscore."""

MAX_CHARS = 1_000_000
"""Characters of one document that are tokenised (a longer document is counted on its first ones)."""


@cache
def _regex(pattern: str) -> Any:
    try:
        rx = re.compile(pattern)
    except re.error as exc:
        why = str(exc)  # bound here: the message is formatted after the except block has deleted ``exc``
        raise UsageError(lambda n: f"option {n} is not a regular expression: {why} (got {pattern!r}).",
                         params=["token_pattern"]) from None
    if rx.groups:
        raise UsageError(lambda n: f"option {n} must not hold capturing groups (use (?:...)); got {pattern!r}.",
                         params=["token_pattern"])
    if rx.search("") is not None and rx.fullmatch("") is not None:
        raise UsageError(lambda n: f"option {n} matches the empty string, so it would make empty terms; "
                                   f"got {pattern!r}.", params=["token_pattern"])
    return rx


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
        if len(text) > self.max_chars:
            text = text[: self.max_chars]
        tokens = _regex(self.pattern).findall(text.lower() if self.lowercase else text)
        return self.terms(tokens)

    def many(self, texts: Sequence[str]) -> list[str]:
        """The terms of several texts, one list (their order kept): with the default pattern, which never
        matches a line break, the texts are joined by line breaks and matched at once."""
        cut = [t[: self.max_chars] if len(t) > self.max_chars else t for t in texts]
        if self.pattern != TOKEN_PATTERN:
            return [w for t in cut for w in self(t)]
        joined = "\n".join(cut)
        return self.terms(_regex(self.pattern).findall(joined.lower() if self.lowercase else joined))

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
        """``(start, end, term)`` of every token of ``text`` whose term is in ``wanted`` (for highlighting)."""
        wanted = set(wanted)
        if not wanted:
            return []
        found = list(_regex(self.pattern).finditer(text))
        out = []
        for m in found:
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
    """The analyzer of a ``--processing`` spec (its ``stop`` and ``stem`` keys; None: neither) and a token
    pattern (None: Unicode letters)."""
    from clfeval.text._processing import parse_processing

    p = parse_processing(processing)
    return Analyzer(pattern=token_pattern or TOKEN_PATTERN, lowercase=lowercase,
                    stop=p.stop if p is not None else "none", stem=p.stem if p is not None else "none",
                    max_chars=max_chars)


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

    def add_texts(self, analyzer: Analyzer, texts: Sequence[str], groups: Sequence[int]) -> int:
        """Counts the terms of every text in its group; returns the number of terms counted."""
        by: dict[int, list[str]] = defaultdict(list)
        for text, g in zip(texts, groups, strict=False):
            if text:
                by[g].append(text)
        index, total = self.index, 0
        for g in sorted(by):
            counts = Counter(analyzer.many(by[g]))
            if not counts:
                continue
            ids = np.fromiter(map(index.__getitem__, counts), dtype=np.int64, count=len(counts))
            n = np.fromiter(counts.values(), dtype=np.int64, count=len(counts))
            total += int(n.sum())
            self._push(g * (1 << 32) + ids, n)
        self._sync()
        return total

    def add_texts_in(self, analyzer: Analyzer, texts: Sequence[str], group_sets: Sequence[tuple[int, ...]]) -> int:
        """Counts the terms of every text in each of its groups (a document of several label-set cells):
        texts with the same groups are tokenised once; returns the number of terms counted (once a text)."""
        by: dict[tuple[int, ...], list[str]] = defaultdict(list)
        for text, gs in zip(texts, group_sets, strict=False):
            if text:
                by[tuple(gs)].append(text)
        index, total = self.index, 0
        for gs in sorted(by):
            counts = Counter(analyzer.many(by[gs]))
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
