"""The counting half of the error analysis: per confusion cell, the documents, their terms and examples.

An :class:`ErrorCounter` takes batches of (gold, predicted, text, key, score) and keeps what adds:

- the number of documents in every cell gold g → predicted p;
- a :class:`~clfeval.text._termcounts.TermTable` of token counts, term × cell;
- for every off-diagonal cell, its ``k`` examples: the items with the smallest keyed hash of
  ``(seed, key)`` (BLAKE2b, whose value is the same in every process — Python's ``hash()`` is not), which
  is *bottom-k sampling*: the k smallest of a union are the k smallest of the parts' k smallest, so the
  examples are the same however the input is split into batches, files or partitions;
- with scores, the ``k`` most confident mistakes of each cell (highest score; ties by the hash);
- with ``flags`` (the ids label-issues flagged as likely gold errors, id → suggested label): every cell's
  flagged items counted, and the ``k`` flagged items of each off-diagonal cell with the smallest hash (the
  same bottom-k, so the same however the input is split), and the flagged ids met (the others are named).

Label sets (``multilabel=True``: lists, or strings separated by ``sep``): every category c has the cells of
its binary table, keyed ``("tp", c)``, ``("fp", c)``, ``("fn", c)``, and one more, ``("all", "")``, holds
every document (the true negatives of c are all documents less the other three cells). A document counts
in the cells of every category it carries or is given; the errors are the ``fp`` and ``fn`` cells.

Counters add (``+``); the sum is the counter of the concatenated input whatever the split.

>>> c = ErrorCounter(examples=1, seed=0)
>>> c.add(["a", "a", "b"], ["b", "a", "b"], ["zebra x", "y", "z"], ["1", "2", "3"])
>>> c.cell_counts()[("a", "b")], c.examples_of("a", "b")[0]["id"]
(1, '1')
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.text import Analyzer, TermTable

__all__ = ["ErrorCounter", "example_hash", "label_sets", "ALL", "FEW_TOKENS_PER_CHAR", "LONG_TERMS", "MAX_SKIPPED"]

ALL = ("all", "")
"""The cell of every document (label sets)."""

FEW_TOKENS_PER_CHAR = 0.05
"""Below this many terms per character of text (English gives about 0.15–0.2), the documents yield almost
no tokens: text without spaces (Chinese, Thai) has to be tokenised before it is given."""
LONG_TERMS = 12.0
"""From this mean length of a term (in characters; English: about 5 to 7) the terms are whole phrases of
text without spaces between words."""
MAX_SKIPPED = 20
"""Documents a token pattern may take too long on (each is skipped and named); one more stops the run."""


def example_hash(seed: int, key: str) -> int:
    """The sampling hash of one item: the first 8 bytes of BLAKE2b of ``key`` keyed by ``seed``, as an integer.

    >>> example_hash(0, "id:7") == example_hash(0, "id:7") != example_hash(1, "id:7")
    True
    """
    digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8,
                             key=str(int(seed)).encode("ascii")).digest()
    return int.from_bytes(digest, "big")


@dataclass
class _Stats:
    docs: int = 0
    chars: int = 0
    tokens: int = 0
    empty: int = 0
    truncated: int = 0
    wrong: int = 0  # misclassified documents (label sets: with a false negative or a false positive)

    def __add__(self, o: _Stats) -> _Stats:
        return _Stats(self.docs + o.docs, self.chars + o.chars, self.tokens + o.tokens, self.empty + o.empty,
                      self.truncated + o.truncated, self.wrong + o.wrong)


class ErrorCounter:
    """Cells, term counts and examples of a stream of classified documents (see the module notes).

    Parameters
    ----------
    analyzer : Analyzer
        Text → terms.
    examples : int
        Examples kept per off-diagonal cell (and most confident mistakes, with scores).
    seed : int
        Key of the sampling hash.
    chars : int
        Characters of each example's text kept.
    """

    def __init__(self, analyzer: Analyzer | None = None, *, examples: int = 5, seed: int = 0, chars: int = 300,
                 multilabel: bool = False, sep: str = "|") -> None:
        self.analyzer = analyzer if analyzer is not None else Analyzer()
        self.multilabel, self.sep = bool(multilabel), sep
        self.k, self.seed, self.chars = int(examples), int(seed), int(chars)
        self.cells: dict[tuple[str, str], int] = {}
        self.docs: dict[int, int] = {}
        self.terms = TermTable()
        self.sample: dict[int, list[tuple[int, str, str]]] = {}   # cell → max-heap of (-hash, id, text)
        self.confident: dict[int, list[tuple[float, int, str, str]]] = {}  # cell → min-heap (score, -hash, ...)
        self.stats = _Stats()
        self.keyed_by = "id"
        self.scored = False
        self.skipped: list[str] = []  # keys of the documents the token pattern took too long on
        self.flags: dict[str, str] | None = None  # id → suggested label of the likely gold errors (label-issues)
        self.flag_counts: dict[int, int] = {}  # cell → its flagged items
        self.flag_sample: dict[int, list[tuple[int, str, str]]] = {}  # cell → max-heap of (-hash, id, text)
        self.flags_found: set[str] = set()

    def _skipper(self, keys: Sequence[str], at: list[int]) -> Any:
        """``on_skip`` of the term counting: the document's key noted, and the run stopped past
        :data:`MAX_SKIPPED` documents."""
        def skip(i: int) -> None:
            at.append(i)
            self.skipped.append(str(keys[i]))
            self._check_skipped()
        return skip

    def _in_order(self, keys: Sequence[str], at: list[int]) -> None:
        """The batch's skipped documents in the order of the input (they were met group by group)."""
        if at:
            self.skipped[-len(at):] = [str(keys[i]) for i in sorted(at)]

    def _check_skipped(self) -> None:
        if len(self.skipped) > MAX_SKIPPED:
            from clfeval.errors import DataError
            from clfeval.text import MATCH_SECONDS

            named = self.named(self.skipped[: MAX_SKIPPED + 1])
            raise DataError(lambda n: f"the token pattern {self.analyzer.pattern!r} (option {n}) took longer than "
                                      f"{MATCH_SECONDS:g} s on each of more than {MAX_SKIPPED} documents "
                                      f"({named}), so the run stopped: a pattern whose repetitions can split a "
                                      f"text in many ways (such as (?:a|a)+b) backtracks exponentially; "
                                      f"simplify it.", params=["token_pattern"])

    def named(self, keys: Sequence[str]) -> str:
        """Documents by their keys, in words: ``ids 'r0', 'r1'`` or ``rows 'a.csv:0' (...)``."""
        listed = ", ".join(repr(k) for k in keys)
        if self.keyed_by == "id":
            return f"id{'s' if len(keys) > 1 else ''} {listed}"
        return f"row{'s' if len(keys) > 1 else ''} {listed} (file:row, or the position in the arrays, from 0)"

    def _cell(self, g: str, p: str) -> int:
        key = (g, p)
        c = self.cells.get(key)
        if c is None:
            c = self.cells[key] = len(self.cells)
        return c

    def add(self, gold: Sequence[Any], pred: Sequence[Any], texts: Sequence[Any], keys: Sequence[str],
            scores: Sequence[float | None] | None = None, *, keyed_by: str = "id") -> None:
        """One batch: labels (shown as text), texts (None or "" for an empty text), each item's id (or its
        place, when the input has no ids: ``keyed_by="row"``) and, optionally, each item's score."""
        self.keyed_by = keyed_by
        if self.multilabel:
            self._add_sets(gold, pred, texts, keys, scores, keyed_by)
            return
        if any(isinstance(x, (list, tuple, set, frozenset)) for x in (*gold[:1], *pred[:1])):
            from clfeval.errors import UsageError

            raise UsageError(lambda m: f"the labels are label sets (multi-label): name them so with {m} (the "
                                       f"false positives and false negatives of every category are then the "
                                       f"cells).", params=["multilabel"])
        cell = self._cell
        codes = [cell(str(g), str(p)) for g, p in zip(gold, pred, strict=False)]
        texts = ["" if t is None else t for t in texts]
        a = self.analyzer
        skipped: list[int] = []
        tokens = self.terms.add_texts(a, texts, codes, self._skipper(keys, skipped))
        self._in_order(keys, skipped)
        n = len(codes)
        counts: np.ndarray | list[int] = (np.bincount(np.asarray(codes, dtype=np.int64), minlength=len(self.cells))
                                          if n else [])
        for c, m in enumerate(counts):
            if m:
                self.docs[c] = self.docs.get(c, 0) + int(m)
        diagonal = {c for (g, p), c in self.cells.items() if g == p}
        self.stats = self.stats + _text_stats(texts, skipped, tokens, a.max_chars) + _Stats(
            wrong=sum(1 for c in codes if c not in diagonal))
        if scores is not None:
            self.scored = True
        flags = self.flags if keyed_by == "id" else None
        for i, c in enumerate(codes):
            flagged = flags is not None and str(keys[i]) in flags
            if flagged:
                self.flags_found.add(str(keys[i]))
                self.flag_counts[c] = self.flag_counts.get(c, 0) + 1
            if c in diagonal:
                continue
            h = example_hash(self.seed, f"{keyed_by}:{keys[i]}")
            self._offer(c, h, str(keys[i]), texts[i])
            if flagged:
                self._offer(c, h, str(keys[i]), texts[i], self.flag_sample)
            score = None if scores is None else scores[i]
            if score is not None and score == score:
                self._offer_confident(c, float(score), h, str(keys[i]), texts[i])

    def _add_sets(self, gold: Sequence[Any], pred: Sequence[Any], texts: Sequence[Any], keys: Sequence[str],
                  scores: Any, keyed_by: str) -> None:
        """One batch of label sets (see the module notes)."""
        if scores is not None:
            from clfeval.errors import UsageError

            raise UsageError(lambda s: f"option {s} (the most confident mistakes) reads one score per item, of its "
                                       f"predicted class; with label sets leave it out.", params=["score"])
        cell, texts = self._cell, ["" if t is None else t for t in texts]
        every = cell(*ALL)
        groups: list[tuple[int, ...]] = []
        errors: list[tuple[int, ...]] = []
        for g, p in zip(label_sets(gold, self.sep), label_sets(pred, self.sep), strict=False):
            wrong = tuple(cell("fn", c) for c in sorted(g - p)) + tuple(cell("fp", c) for c in sorted(p - g))
            groups.append((every,) + tuple(cell("tp", c) for c in sorted(g & p)) + wrong)
            errors.append(wrong)
        a = self.analyzer
        skipped: list[int] = []
        tokens = self.terms.add_texts_in(a, texts, groups, self._skipper(keys, skipped))
        self._in_order(keys, skipped)
        for gs in groups:
            for c in gs:
                self.docs[c] = self.docs.get(c, 0) + 1
        self.stats = self.stats + _text_stats(texts, skipped, tokens, a.max_chars) + _Stats(
            wrong=sum(1 for w in errors if w))
        for i, wrong in enumerate(errors):
            if wrong:
                h = example_hash(self.seed, f"{keyed_by}:{keys[i]}")
                for c in wrong:
                    self._offer(c, h, str(keys[i]), texts[i])

    def _offer(self, c: int, h: int, key: str, text: str,
               into: dict[int, list[tuple[int, str, str]]] | None = None) -> None:
        if not self.k:
            return
        heap = (self.sample if into is None else into).setdefault(c, [])
        item = (-h, key, text[: self.chars])
        if len(heap) < self.k:
            heapq.heappush(heap, item)
        elif item > heap[0]:
            heapq.heapreplace(heap, item)

    def _offer_confident(self, c: int, score: float, h: int, key: str, text: str) -> None:
        if not self.k:
            return
        heap = self.confident.setdefault(c, [])
        item = (score, -h, key, text[: self.chars])
        if len(heap) < self.k:
            heapq.heappush(heap, item)
        elif item > heap[0]:
            heapq.heapreplace(heap, item)

    def empty(self) -> ErrorCounter:
        """A counter with this one's settings (analyzer, examples, seed, characters, label sets) and no counts."""
        out = ErrorCounter(self.analyzer, examples=self.k, seed=self.seed, chars=self.chars,
                           multilabel=self.multilabel, sep=self.sep)
        out.flags = self.flags
        return out

    def __add__(self, other: ErrorCounter) -> ErrorCounter:
        out = self.empty()
        tables = []
        for side in (self, other):
            remap = {c: out._cell(g, p) for (g, p), c in side.cells.items()}
            tables.append(_regroup(side.terms, remap))
            for c, m in side.docs.items():
                out.docs[remap[c]] = out.docs.get(remap[c], 0) + m
            for c, heap in side.sample.items():
                for nh, key, text in heap:
                    out._offer(remap[c], -nh, key, text)
            for c, scored in side.confident.items():
                for score, nh, key, text in scored:
                    out._offer_confident(remap[c], score, -nh, key, text)
            for c, m in side.flag_counts.items():
                out.flag_counts[remap[c]] = out.flag_counts.get(remap[c], 0) + m
            for c, heap in side.flag_sample.items():
                for nh, key, text in heap:
                    out._offer(remap[c], -nh, key, text, out.flag_sample)
            out.flags_found |= side.flags_found
        out.terms = tables[0] + tables[1]
        out.flags = self.flags if self.flags is not None else other.flags
        out.stats = self.stats + other.stats
        out.keyed_by = "row" if "row" in (self.keyed_by, other.keyed_by) else "id"
        out.scored = self.scored or other.scored
        out.skipped = self.skipped + other.skipped
        out._check_skipped()
        return out

    def __radd__(self, other: Any) -> ErrorCounter:
        return self if other == 0 else NotImplemented  # sum() of counters

    # --- what the analysis reads -----------------------------------------------------------------------

    def cell_counts(self) -> dict[tuple[str, str], int]:
        return {key: self.docs.get(c, 0) for key, c in self.cells.items()}

    def examples_of(self, g: str, p: str) -> list[dict[str, Any]]:
        """The cell's examples, smallest hash first: ``id``, ``text`` (its first ``chars`` characters), ``hash``."""
        c = self.cells.get((g, p))
        heap = self.sample.get(c, []) if c is not None else []
        return [{"id": key, "text": text, "hash": f"{-nh:016x}"} for nh, key, text in sorted(heap, reverse=True)]

    def flagged_of(self, g: str, p: str) -> tuple[int, list[dict[str, Any]]]:
        """The cell's flagged items (likely gold errors): how many, and the ``k`` of them with the smallest hash
        (``id``, ``text``, ``suggested``, ``hash``), smallest first."""
        c = self.cells.get((g, p))
        if c is None:
            return 0, []
        flags = self.flags or {}
        heap = self.flag_sample.get(c, [])
        return self.flag_counts.get(c, 0), [{"id": key, "text": text, "suggested": flags.get(key, ""),
                                             "hash": f"{-nh:016x}"} for nh, key, text in sorted(heap, reverse=True)]

    def confident_of(self, g: str, p: str) -> list[dict[str, Any]]:
        """The cell's most confident mistakes, highest score first (ties: smallest hash first)."""
        c = self.cells.get((g, p))
        heap = self.confident.get(c, []) if c is not None else []
        return [{"id": key, "text": text, "score": score} for score, nh, key, text in sorted(heap, reverse=True)]


def _text_stats(texts: Sequence[str], skipped: Sequence[int], tokens: int, max_chars: int) -> _Stats:
    """A batch's documents, characters (those tokenised: a skipped document's are not), tokens, empty and
    truncated texts."""
    chars = [len(t) for t in texts]
    out = set(skipped)
    return _Stats(len(texts), int(sum(min(x, max_chars) for i, x in enumerate(chars) if i not in out)), tokens,
                  sum(1 for x in chars if x == 0), sum(1 for x in chars if x > max_chars))


def label_sets(values: Sequence[Any], sep: str) -> list[frozenset[str]]:
    """Each item's labels as a set of strings: a list, tuple or set, or a string separated by ``sep``; labels
    trimmed, empty ones and missing values dropped (as :func:`clfeval.core._labels.encode_multilabel`).

    >>> [sorted(s) for s in label_sets(["a|b", None, ["c", " d "], ""], "|")]
    [['a', 'b'], [], ['c', 'd'], []]
    """
    out = []
    for v in values:
        if v is None:
            items: Any = ()
        elif isinstance(v, str):
            items = v.split(sep)
        elif isinstance(v, (list, tuple, set, frozenset)) or hasattr(v, "tolist"):
            items = v.tolist() if hasattr(v, "tolist") else v
        else:
            items = (v,)
        out.append(frozenset(s for s in (str(x).strip() for x in items if x is not None) if s))
    return out


def _regroup(table: TermTable, remap: dict[int, int]) -> TermTable:
    """A copy of ``table`` with its groups renumbered."""
    out = TermTable()
    out.__setstate__(table.__getstate__())
    if len(out.keys):
        lut = np.zeros(max(remap) + 1, dtype=np.int64)
        for a, b in remap.items():
            lut[a] = b
        keys = lut[out.keys >> 32] * (1 << 32) + (out.keys & 0xFFFFFFFF)
        order = np.argsort(keys, kind="stable")
        out.keys, out.counts = keys[order], out.counts[order]
    return out
