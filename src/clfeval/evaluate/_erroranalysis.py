"""Read the errors: every confused pair of classes, its documents, and the vocabulary they share.

For every off-diagonal cell gold g → predicted p with at least ``min_count`` documents, largest first:
the count, its share of g, the opposite cell p → g; examples (bottom-k by a keyed hash, see
:mod:`clfeval.evaluate._errorcount`) and the most confident mistakes; and the distinctive terms on two
sides — the g → p mistakes against the correctly classified g documents (what pulled them away) and
against the correctly classified p documents (what they share with p).

The score of a term w is the weighted log-odds ratio with an informative Dirichlet prior of Monroe,
Colaresi & Quinn (2008), eqs. 16 and 18, on token counts (y_w^i of w in group i, n^i all tokens of i):

    α_w = α0 · y_w / n            (y_w, n: counts over all evaluated documents)
    δ̂_w = log[(y_w^i + α_w) / (n^i + α0 − y_w^i − α_w)] − log[(y_w^j + α_w) / (n^j + α0 − y_w^j − α_w)]
    σ̂²_w = 1/(y_w^i + α_w) + 1/(y_w^j + α_w),      z_w = δ̂_w / √σ̂²_w

Terms listed: those of the mistakes (y_w^i ≥ 1) with z ≥ ``z_min`` (1.96), the ``terms`` largest. The
z-scores are not corrected for the many terms tested.

Label sets (multi-label): every category c has two cells, its false negatives (c in gold, not predicted)
and its false positives (c predicted, not in gold), each compared, by the same formula, with the two
groups of c's binary table that were right: the false negatives against the true positives of c (what made
the model miss c) and against the true negatives of c (the documents rightly left without c: what the
missed ones share with them); the false positives against the true negatives of c (what drew c to them)
and against the true positives of c (what they share with c). α_w comes from every document once.

Reference: B. L. Monroe, M. P. Colaresi, K. M. Quinn (2008), "Fightin' Words: Lexical Feature Selection
and Evaluation for Identifying the Content of Political Conflict", Political Analysis 16(4), 372–403.

>>> import numpy as np
>>> d, z = log_odds_z(np.array([5.0, 0.0]), np.array([0.0, 5.0]), np.array([1.0, 1.0]), 2.0)
>>> bool(z[0] > 0 > z[1])
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from clfeval.core import Display
from clfeval.evaluate._errorcount import FEW_TOKENS_PER_CHAR, LONG_TERMS, MAX_SKIPPED, ErrorCounter

__all__ = ["ErrorAnalysis", "ErrorCell", "log_odds_z", "analyse", "listed_terms", "with_spans", "corpus_notes",
           "label_order", "assemble", "prior_note", "PRIOR_STRENGTH", "Z_MIN", "FN", "FP"]

PRIOR_STRENGTH = 1000.0
"""α0, the prior's total pseudo-count."""
Z_MIN = 1.96
"""Terms are listed from this z-score on (uncorrected; two-sided 5 % for one term)."""


def log_odds_z(y_i: np.ndarray, y_j: np.ndarray, alpha: np.ndarray, alpha0: float, n_i: float | None = None,
               n_j: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """δ̂ and z of every term (eqs. 16 and 18 of Monroe et al. 2008); n^i and n^j (default: the sums of the
    counts given) are all tokens of each group."""
    n_i = float(y_i.sum()) if n_i is None else float(n_i)
    n_j = float(y_j.sum()) if n_j is None else float(n_j)
    a_i, a_j = y_i + alpha, y_j + alpha
    with np.errstate(divide="ignore", invalid="ignore"):  # a corpus of one term: its odds are undefined (NaN, ±inf)
        delta = np.log(a_i / (n_i + alpha0 - a_i)) - np.log(a_j / (n_j + alpha0 - a_j))
        return delta, delta / np.sqrt(1.0 / a_i + 1.0 / a_j)


@dataclass(frozen=True)
class ErrorCell:
    """One confused pair gold → predicted: counts, the distinctive terms on both sides, examples.

    ``terms_vs_gold``: the mistakes against the correctly classified ``gold`` documents;
    ``terms_vs_pred``: against the correctly classified ``pred`` documents. Each term: ``term``, ``z``,
    ``delta``, ``count`` (tokens in the mistakes), ``other`` (tokens in the other group).
    ``examples``: ``id``, ``text``, ``spans`` (``[start, end]`` of the listed terms in the text), ``hash``;
    ``confident``: the same with ``score``. ``kind``: ``confusion`` (single-label), ``false negatives`` or
    ``false positives`` (of ``category``, label sets: ``gold`` / ``pred`` then read ``c`` / ``not c``).
    ``against``: what each side is compared with, in words (``vs``: in short).
    """

    gold: str
    pred: str
    count: int
    share: float
    opposite: int
    tokens: int
    terms_vs_gold: tuple[dict[str, Any], ...]
    terms_vs_pred: tuple[dict[str, Any], ...]
    examples: tuple[dict[str, Any], ...]
    confident: tuple[dict[str, Any], ...] = ()
    notes: tuple[str, ...] = ()
    kind: str = "confusion"
    category: str | None = None
    against: tuple[str, str] = ("", "")
    vs: tuple[str, str] = ("", "")

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for k in ("terms_vs_gold", "terms_vs_pred", "examples", "confident", "notes", "against", "vs"):
            out[k] = [dict(x) if isinstance(x, dict) else x for x in out[k]]
        return out


@dataclass(frozen=True)
class ErrorAnalysis(Display):
    """The misclassified documents and their vocabulary (see the module notes).

    Attributes
    ----------
    labels : tuple of str
        The classes, in the order of ``matrix``.
    matrix : tuple of tuple of int
        Confusion counts, rows gold, columns predicted.
    cells : tuple of ErrorCell
        The off-diagonal cells with at least ``min_count`` documents, largest first.
    prior : dict
        ``alpha0``, ``tokens`` (all tokens), ``documents``, and how α_w is set.
    analyzer : dict
        How texts became terms.
    settings : dict
        ``min_count``, ``examples``, ``terms``, ``z_min``, ``chars``, ``seed``, ``sample_key``.
    notes : tuple of str
        What the reader should know (uncorrected z-scores, empty texts, almost no tokens, ...).
    engine : dict
        Where it ran.
    signature : dict
    """

    labels: tuple[str, ...]
    matrix: tuple[tuple[int, ...], ...]
    cells: tuple[ErrorCell, ...]
    prior: dict[str, Any]
    analyzer: dict[str, Any]
    settings: dict[str, Any]
    notes: tuple[str, ...] = ()
    engine: Mapping[str, Any] = field(default_factory=dict)
    signature: dict[str, Any] = field(default_factory=dict)
    task: str = "single-label"
    categories: tuple[dict[str, Any], ...] = ()

    def cell(self, gold: Any, pred: Any) -> ErrorCell:
        """The listed cell gold → pred (KeyError when it is not listed); label sets: ``cell(c, "fn")`` and
        ``cell(c, "fp")``, the false negatives and false positives of category c."""
        for c in self.cells:
            if c.gold == str(gold) and c.pred == str(pred) or \
                    c.category == str(gold) and c.kind == _KINDS.get(str(pred)):
                return c
        raise KeyError(f"cell {gold!r} → {pred!r} is not listed (fewer than min_count documents, or no mistake)")

    def anchor(self, gold: str, pred: str) -> str:
        """The plain HTML anchor of cell gold → pred: ``cell-i-j`` by the classes' positions."""
        return f"cell-{self.labels.index(gold)}-{self.labels.index(pred)}"

    def anchor_of(self, c: ErrorCell) -> str:
        """The anchor of a listed cell: ``cell-i-j``, or ``cell-i-fn`` / ``cell-i-fp`` for category i."""
        if c.category is not None:
            return f"cell-{self.labels.index(c.category)}-{'fn' if c.kind == FN else 'fp'}"
        return self.anchor(c.gold, c.pred)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "error_analysis", "task": self.task, "labels": list(self.labels),
                "categories": [dict(x) for x in self.categories], "matrix": [list(r) for r in self.matrix],
                "cells": [c.to_dict() for c in self.cells], "prior": dict(self.prior),
                "analyzer": dict(self.analyzer), "settings": dict(self.settings), "notes": list(self.notes),
                "engine": dict(self.engine), "signature": dict(self.signature)}

    def to_frame(self) -> Any:
        """One row per listed term: ``gold``, ``pred``, ``count``, ``side`` (``vs_gold`` / ``vs_pred``),
        ``rank``, ``term``, ``z``, ``delta``, ``term_count``, ``other_count`` (needs pandas)."""
        from clfeval.errors import MissingExtra

        MissingExtra.require("ErrorAnalysis.to_frame()", [("pandas", "pandas")], "frame")
        import pandas as pd

        rows = []
        for c in self.cells:
            for side, terms in (("vs_gold", c.terms_vs_gold), ("vs_pred", c.terms_vs_pred)):
                for r, t in enumerate(terms, 1):
                    rows.append({"gold": c.gold, "pred": c.pred, "count": c.count, "side": side, "rank": r,
                                 "term": t["term"], "z": t["z"], "delta": t["delta"], "term_count": t["count"],
                                 "other_count": t["other"]})
        return pd.DataFrame(rows, columns=["gold", "pred", "count", "side", "rank", "term", "z", "delta",
                                           "term_count", "other_count"])


FN, FP = "false negatives", "false positives"
_KINDS = {"fn": FN, "fp": FP}


def label_order(labels: set[str]) -> list[str]:
    def key(x: str) -> tuple[int, Any]:
        try:
            return (0, float(x), x)  # type: ignore[return-value]
        except ValueError:
            return (1, x)
    return sorted(labels, key=key)


def listed_terms(vocab: list[str], delta: np.ndarray, z: np.ndarray, y_i: np.ndarray, y_j: np.ndarray, k: int,
           z_min: float) -> tuple[dict[str, Any], ...]:
    ok = np.flatnonzero((y_i > 0) & np.isfinite(z) & (z >= z_min))  # undefined z (one-term corpus): not listed
    # largest z first; ties by the term (a stable, input-independent order)
    order = sorted(ok.tolist(), key=lambda w: (-z[w], vocab[w]))[:k]
    return tuple({"term": vocab[w], "z": float(z[w]), "delta": float(delta[w]), "count": int(y_i[w]),
                  "other": int(y_j[w])} for w in order)


def prior_note(tokens: float, alpha0: float) -> list[str]:
    """A cell with fewer tokens than the prior's pseudo-count: its estimates lean on the prior (the corpus)."""
    if tokens >= alpha0:
        return []
    return [f"the prior (α0 = {alpha0:g}) outweighs the {int(tokens):,} tokens of these mistakes: their estimates "
            f"lean toward the whole corpus, so a word frequent in the corpus but rare in the other group can rank high "
            f"from a few occurrences (see each term's count); a smaller prior strength weighs the documents more"]


def with_spans(items: list[dict[str, Any]], analyzer: Any, wanted: set[str]) -> tuple[dict[str, Any], ...]:
    return tuple({**x, "spans": [[s, e] for s, e, _ in analyzer.spans(x["text"], wanted)]} for x in items)


def analyse(counter: ErrorCounter, *, min_count: int = 5, terms: int = 10, prior_strength: float = PRIOR_STRENGTH,
            z_min: float = Z_MIN, settings: dict[str, Any] | None = None) -> ErrorAnalysis:
    """The :class:`ErrorAnalysis` of a filled counter (see the module notes)."""
    if counter.multilabel:
        from clfeval.evaluate._errorsets import analyse_sets

        return analyse_sets(counter, min_count=min_count, terms=terms, prior_strength=prior_strength, z_min=z_min,
                            settings=settings)
    counts = counter.cell_counts()
    labels = label_order({g for g, _ in counts} | {p for _, p in counts})
    pos = {lab: i for i, lab in enumerate(labels)}
    mat = np.zeros((len(labels), len(labels)), dtype=np.int64)
    for (g, p), n in counts.items():
        mat[pos[g], pos[p]] += n
    vocab, m = counter.terms.matrix(len(counter.cells))
    m = m.tocsc()
    y_all = np.asarray(m.sum(axis=1)).ravel().astype(float)
    total = float(y_all.sum())
    alpha = prior_strength * y_all / total if total else y_all

    dense: dict[tuple[str, str], np.ndarray] = {}

    def column(g: str, p: str) -> np.ndarray:
        """A cell's counts over the vocabulary (the correctly classified cells, kept)."""
        if (g, p) not in dense:
            c = counter.cells.get((g, p))
            dense[(g, p)] = np.zeros(len(vocab)) if c is None or c >= m.shape[1] else \
                m[:, c].toarray().ravel().astype(float)
        return dense[(g, p)]

    def occupied(g: str, p: str) -> tuple[np.ndarray, np.ndarray]:
        """The terms of a cell's documents and their counts (sparse)."""
        c = counter.cells.get((g, p))
        if c is None or c >= m.shape[1]:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        lo, hi = m.indptr[c], m.indptr[c + 1]
        return m.indices[lo:hi], m.data[lo:hi].astype(float)

    rows = mat.sum(axis=1)
    listed = [(int(mat[i, j]), i, j) for i in range(len(labels)) for j in range(len(labels))
              if i != j and mat[i, j] >= max(min_count, 1)]
    listed.sort(key=lambda t: (-t[0], t[1], t[2]))
    cells = []
    for n, i, j in listed:
        g, p = labels[i], labels[j]
        at, y = occupied(g, p)  # only terms of the mistakes are listed: z computed for them
        sides = []
        for full in (column(g, g), column(p, p)):
            other = full[at]
            d, z = log_odds_z(y, other, alpha[at], prior_strength, n_i=y.sum(), n_j=full.sum())
            sides.append(listed_terms([vocab[w] for w in at], d, z, y, other, terms, z_min))
        wanted = {t["term"] for side in sides for t in side}
        notes = prior_note(y.sum(), prior_strength)
        if not mat[j, j]:
            notes.append(f"no document of {p!r} was classified correctly: the second side compares the mistakes "
                         f"with the prior alone")
        if not mat[i, i]:
            notes.append(f"no document of {g!r} was classified correctly: the first side compares the mistakes "
                         f"with the prior alone")
        cells.append(ErrorCell(g, p, n, float(n / rows[i]), int(mat[j, i]), int(y.sum()), sides[0], sides[1],
                               with_spans(counter.examples_of(g, p), counter.analyzer, wanted),
                               with_spans(counter.confident_of(g, p), counter.analyzer, wanted), tuple(notes),
                               against=(f"the correctly classified {g} documents (what pulled them away)",
                                        f"the correctly classified {p} documents (what they share with {p})"),
                               vs=(f"vs correct {g}", f"vs correct {p}")))
    notes = corpus_notes(counter, vocab, y_all, min_count=min_count, z_min=z_min, listed=bool(cells))
    return assemble(counter, labels, tuple(tuple(int(x) for x in r) for r in mat), cells, notes, len(vocab), total,
                    min_count=min_count, terms=terms, prior_strength=prior_strength, z_min=z_min, settings=settings)


def corpus_notes(counter: ErrorCounter, vocab: list[str], y_all: np.ndarray, *, min_count: int, z_min: float,
                 listed: bool) -> list[str]:
    """What the reader should know of the corpus: uncorrected z-scores, the sample's key, empty and long
    texts, documents that yield almost no tokens, no cell listed."""
    s, total = counter.stats, float(y_all.sum())
    chance = 0.5 * math.erfc(z_min / math.sqrt(2))
    notes = [f"z-scores are uncorrected for the {len(vocab):,} terms tested: a term with no real difference reaches "
             f"z ≥ {z_min:g} with probability about {100 * chance:.3g} %, so some listed terms are there by chance"]
    if counter.keyed_by == "row":
        notes.append("the input has no id column: examples are sampled by file and row, so they depend on the "
                     "files (the same rows in other files give other examples)")
    if s.empty:
        notes.append(f"{s.empty:,} of {s.docs:,} documents have an empty text (counted in their cells, no terms)")
    if counter.skipped:
        from clfeval.text import MATCH_SECONDS

        n = len(counter.skipped)
        notes.append(f"the token pattern {counter.analyzer.pattern!r} took longer than {MATCH_SECONDS:g} s on "
                     f"{n:,} document{'s' if n > 1 else ''}, skipped: {'their' if n > 1 else 'its'} terms are not "
                     f"counted ({'they stay' if n > 1 else 'it stays'} in {'their' if n > 1 else 'its'} cell"
                     f"{'s' if n > 1 else ''}): {counter.named(counter.skipped)}; a pattern whose repetitions can "
                     f"split a text in many ways backtracks exponentially: simplify it (a run stops past "
                     f"{MAX_SKIPPED} such documents)")
    if s.truncated:
        notes.append(f"{s.truncated:,} documents are longer than {counter.analyzer.max_chars:,} characters; their "
                     f"terms are counted from their first {counter.analyzer.max_chars:,} characters")
    mean_len = float(np.dot(y_all, [len(w) for w in vocab]) / total) if total else 0.0
    if s.chars and (s.tokens / s.chars < FEW_TOKENS_PER_CHAR or mean_len >= LONG_TERMS):
        notes.append(f"the documents yield almost no tokens ({s.tokens:,} terms from {s.chars:,} characters, "
                     f"{mean_len:.1f} characters a term): "
                     f"text without spaces between words (Chinese, Thai, Japanese) must be tokenised before it is "
                     f"given (words separated by spaces), or --token-pattern changed")
    if not listed:
        what = "false-negative or false-positive cell" if counter.multilabel else "off-diagonal cell"
        notes.append(f"no {what} has {max(min_count, 1)} or more documents (min_count)")
    return notes


def assemble(counter: ErrorCounter, labels: list[str], matrix: tuple[tuple[int, ...], ...], cells: list[ErrorCell],
             notes: list[str], terms_seen: int, total: float, *, min_count: int, terms: int, prior_strength: float,
             z_min: float, settings: dict[str, Any] | None, task: str = "single-label",
             categories: tuple[dict[str, Any], ...] = ()) -> ErrorAnalysis:
    """The result: settings, the prior, the signature around the cells."""
    from clfeval.core import build_signature

    sets = {"min_count": int(min_count), "examples": counter.k, "terms": int(terms), "z_min": float(z_min),
            "chars": counter.chars, "seed": counter.seed, "sample_key": counter.keyed_by,
            "scored": counter.scored, **(settings or {})}
    prior = {"alpha0": float(prior_strength), "tokens": int(total), "documents": counter.stats.docs,
             "terms": terms_seen, "alpha_w": "alpha0 × (count of w in all evaluated documents) / (all tokens)",
             "reference": "Monroe, Colaresi & Quinn (2008), eqs. 16 and 18"}
    sig = build_signature({k: sets[k] for k in ("min_count", "examples", "terms", "z_min", "chars")}
                          | {"prior_strength": float(prior_strength)}, seed=counter.seed, random=True)
    return ErrorAnalysis(tuple(labels), matrix, tuple(cells), prior, counter.analyzer.to_dict(), sets, tuple(notes),
                         {}, sig, task, categories)
