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
from typing import Any

import numpy as np

from clfeval.evaluate._errorcount import FEW_TOKENS_PER_CHAR, LONG_TERMS, MAX_SKIPPED, ErrorCounter
from clfeval.ops.errors import (
    FN,
    FP,
    CategoryCounts,
    ConfidentMistake,
    ErrorAnalysis,
    ErrorCell,
    ErrorExample,
    ErrorPrior,
    ErrorSettings,
    ErrorTerm,
    LikelyGoldError,
    TextAnalyzer,
)

__all__ = ["log_odds_z", "analyse", "listed_terms", "sampled", "most_confident", "likely_gold_errors",
           "corpus_notes", "label_order", "assemble", "prior_note", "PRIOR_STRENGTH", "Z_MIN", "FN", "FP"]

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


def label_order(labels: set[str]) -> list[str]:
    def key(x: str) -> tuple[int, Any]:
        try:
            return (0, float(x), x)  # type: ignore[return-value]
        except ValueError:
            return (1, x)
    return sorted(labels, key=key)


def listed_terms(vocab: list[str], delta: np.ndarray, z: np.ndarray, y_i: np.ndarray, y_j: np.ndarray, k: int,
           z_min: float) -> tuple[ErrorTerm, ...]:
    ok = np.flatnonzero((y_i > 0) & np.isfinite(z) & (z >= z_min))  # undefined z (one-term corpus): not listed
    # largest z first; ties by the term (a stable, input-independent order)
    order = sorted(ok.tolist(), key=lambda w: (-z[w], vocab[w]))[:k]
    return tuple(ErrorTerm(vocab[w], float(z[w]), float(delta[w]), int(y_i[w]), int(y_j[w])) for w in order)


def prior_note(tokens: float, alpha0: float) -> list[str]:
    """A cell with fewer tokens than the prior's pseudo-count: its estimates lean on the prior (the corpus)."""
    if tokens >= alpha0:
        return []
    return [f"the prior (α0 = {alpha0:g}) outweighs the {int(tokens):,} tokens of these mistakes: their estimates "
            f"lean toward the whole corpus, so a word frequent in the corpus but rare in the other group can rank high "
            f"from a few occurrences (see each term's count); a smaller prior strength weighs the documents more"]


def _spans(counter: ErrorCounter, text: str, wanted: set[str]) -> tuple[tuple[int, int], ...]:
    return tuple((int(s), int(e)) for s, e, _ in counter.analyzer.spans(text, wanted))


def sampled(counter: ErrorCounter, key: tuple[str, str], wanted: set[str]) -> tuple[ErrorExample, ...]:
    """The examples of cell ``key``, the listed terms ``wanted`` located in their texts."""
    return tuple(ErrorExample(x["id"], x["text"], x["hash"], _spans(counter, x["text"], wanted))
                 for x in counter.examples_of(*key))


def most_confident(counter: ErrorCounter, key: tuple[str, str], wanted: set[str]) -> tuple[ConfidentMistake, ...]:
    """The most confident mistakes of cell ``key``, the listed terms ``wanted`` located in their texts."""
    return tuple(ConfidentMistake(x["id"], x["text"], x["score"], _spans(counter, x["text"], wanted))
                 for x in counter.confident_of(*key))


def likely_gold_errors(counter: ErrorCounter, key: tuple[str, str], wanted: set[str]
                       ) -> dict[str, Any]:
    """With flags (label-issues), the ``ErrorCell`` fields of cell ``key``: ``flagged`` (how many of its documents
    are flagged) and ``likely_gold_errors`` (up to ``examples`` of them, smallest hash first); without, none."""
    if counter.flags is None:
        return {}
    n, items = counter.flagged_of(*key)
    return {"flagged": n, "likely_gold_errors": tuple(
        LikelyGoldError(x["id"], x["text"], x["suggested"], x["hash"], _spans(counter, x["text"], wanted))
        for x in items)}


def analyse(counter: ErrorCounter, *, min_count: int = 5, terms: int = 10, prior_strength: float = PRIOR_STRENGTH,
            z_min: float = Z_MIN, settings: Mapping[str, str | None] | None = None) -> ErrorAnalysis:
    """The :class:`ErrorAnalysis` of a filled counter (see the module notes); ``settings``: ``processing`` and
    ``text`` (where the texts came from, in words), recorded in the result's settings."""
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
        wanted = {t.term for side in sides for t in side}
        notes = prior_note(y.sum(), prior_strength)
        if not mat[j, j]:
            notes.append(f"no document of {p!r} was classified correctly: the second side compares the mistakes "
                         f"with the prior alone")
        if not mat[i, i]:
            notes.append(f"no document of {g!r} was classified correctly: the first side compares the mistakes "
                         f"with the prior alone")
        cells.append(ErrorCell(g, p, n, float(n / rows[i]), int(mat[j, i]), int(y.sum()), sides[0], sides[1],
                               sampled(counter, (g, p), wanted), most_confident(counter, (g, p), wanted), tuple(notes),
                               against=(f"the correctly classified {g} documents (what pulled them away)",
                                        f"the correctly classified {p} documents (what they share with {p})"),
                               vs=(f"vs correct {g}", f"vs correct {p}"),
                               **likely_gold_errors(counter, (g, p), wanted)))
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
             z_min: float, settings: Mapping[str, str | None] | None, task: str = "single-label",
             categories: tuple[CategoryCounts, ...] = ()) -> ErrorAnalysis:
    """The result: settings, the prior, the signature around the cells."""
    from clfeval.core import build_signature

    given = dict(settings or {})
    if settings is not None and (set(given) != {"processing", "text"} or given["text"] is None):
        raise TypeError(f"the settings of an error analysis are 'processing' and 'text' (where the texts came from, "
                        f"in words); got {given!r}")
    sets = ErrorSettings(int(min_count), counter.k, int(terms), float(z_min), counter.chars, counter.seed,
                         counter.keyed_by, bool(counter.scored), given.get("processing"), given.get("text"))
    prior = ErrorPrior(float(prior_strength), int(total), counter.stats.docs, terms_seen)
    a = counter.analyzer.to_dict()
    analyzer = TextAnalyzer(a["token_pattern"], a["lowercase"], a["stop"], a["stem"], a["max_chars"],
                            a["description"])
    sig = build_signature({"min_count": sets.min_count, "examples": sets.examples, "terms": sets.terms,
                           "z_min": sets.z_min, "chars": sets.chars, "prior_strength": float(prior_strength)},
                          seed=counter.seed, random=True)
    return ErrorAnalysis(tuple(labels), matrix, tuple(cells), prior, analyzer, sets, tuple(notes), None, sig, task,
                         categories)
