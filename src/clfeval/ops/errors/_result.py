"""The one result of ``clfeval.error_analysis``: :class:`ErrorAnalysis` and its typed parts.

Every part is a frozen dataclass; the collections in it are tuples and read-only mappings, so nothing in a
result can be changed after it is made. ``to_dict()`` lays the fields out as the JSON of ``clfeval errors``
(the same keys in the same order as before the parts were typed). The analysis itself (the weighted log-odds
of Monroe, Colaresi & Quinn 2008) is computed by :mod:`clfeval.evaluate._erroranalysis` and
:mod:`clfeval.evaluate._errorsets`, which build these types.

>>> t = ErrorTerm("zebra", 2.5, 0.8, 5, 0)
>>> t.term, t.to_dict()["z"]
('zebra', 2.5)
>>> t.z = 3.0
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'z'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from clfeval.core import Display, EngineInfo, FrozenDict, ItemReads, freeze_fields, thaw

if TYPE_CHECKING:
    import pandas

__all__ = ["ErrorAnalysis", "ErrorSlice", "ErrorCell", "ErrorTerm", "ErrorExample", "ConfidentMistake",
           "LikelyGoldError", "LabelIssueMarks",
           "CategoryCounts", "ErrorPrior", "TextAnalyzer", "ErrorSettings", "FN", "FP", "ALPHA_W", "PRIOR_REFERENCE"]

#: The kind of a label-set cell: the false negatives of a category (in gold, not predicted) ...
FN = "false negatives"
#: ... and its false positives (predicted, not in gold).
FP = "false positives"
_KINDS = {"fn": FN, "fp": FP}

#: How the prior's pseudo-count α_w of a term w is set (the ``prior`` block states it).
ALPHA_W = "alpha0 × (count of w in all evaluated documents) / (all tokens)"
#: Where the scores come from.
PRIOR_REFERENCE = "Monroe, Colaresi & Quinn (2008), eqs. 16 and 18"

Span = tuple[int, int]


def _spans(spans: tuple[Span, ...]) -> list[list[int]]:
    return [[s, e] for s, e in spans]


@dataclass(frozen=True)
class ErrorTerm(ItemReads):
    """One distinctive term of a side of a cell.

    Attributes
    ----------
    term : str
        The term (after lower-casing, the stop list and stemming of the analyzer).
    z : float
        Its z-score, δ̂ / √σ̂² (uncorrected for the many terms tested).
    delta : float
        δ̂, the difference of the log-odds of the term in the mistakes and in the other group.
    count : int
        Its tokens in the mistakes.
    other : int
        Its tokens in the other group.
    """

    term: str
    z: float
    delta: float
    count: int
    other: int

    def to_dict(self) -> dict[str, object]:
        return {"term": self.term, "z": self.z, "delta": self.delta, "count": self.count, "other": self.other}


@dataclass(frozen=True)
class ErrorExample(ItemReads):
    """One sampled document of a cell (the bottom-k of a keyed hash).

    Attributes
    ----------
    id : str
        The document's id (or its file and row, when the input has no id column).
    text : str
        Its first ``chars`` characters.
    hash : str
        The keyed hash it was sampled by (16 hexadecimal digits).
    spans : tuple of (int, int)
        ``(start, end)`` of every occurrence of a listed term in ``text``.
    """

    id: str
    text: str
    hash: str
    spans: tuple[Span, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "text": self.text, "hash": self.hash, "spans": _spans(self.spans)}


@dataclass(frozen=True)
class ConfidentMistake(ItemReads):
    """One of the most confident mistakes of a cell (with ``score=``).

    Attributes
    ----------
    id : str
        The document's id.
    text : str
        Its first ``chars`` characters.
    score : float
        Its score of the predicted class (or of the positive class, binary).
    spans : tuple of (int, int)
        ``(start, end)`` of every occurrence of a listed term in ``text``.
    """

    id: str
    text: str
    score: float
    spans: tuple[Span, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "text": self.text, "score": self.score, "spans": _spans(self.spans)}


@dataclass(frozen=True)
class LikelyGoldError(ItemReads):
    """One item of a cell that label-issues flagged: its gold label is likely wrong (``label_issues=``).

    Attributes
    ----------
    id : str
        The document's id.
    text : str
        Its first ``chars`` characters.
    suggested : str
        The label label-issues suggests (its likely true label).
    hash : str
        The keyed hash it was chosen by (16 hexadecimal digits; the smallest are shown).
    spans : tuple of (int, int)
        ``(start, end)`` of every occurrence of a listed term in ``text``.
    """

    id: str
    text: str
    suggested: str
    hash: str
    spans: tuple[Span, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "text": self.text, "suggested": self.suggested, "hash": self.hash,
                "spans": _spans(self.spans)}


@dataclass(frozen=True)
class LabelIssueMarks(ItemReads):
    """Where the likely gold errors came from and how many were found among the predictions (``label_issues=``).

    Attributes
    ----------
    source : str
        The label-issues result, in words (``a LabelIssues result`` or the file's name).
    flagged : int
        The flagged ids it holds.
    found : int
        Those found among the predictions' ids.
    not_found : int
        Those not found (counted and named in a note, not an error).
    """

    source: str
    flagged: int
    found: int
    not_found: int

    def to_dict(self) -> dict[str, object]:
        return {"source": self.source, "flagged": self.flagged, "found": self.found, "not_found": self.not_found}


@dataclass(frozen=True)
class CategoryCounts(ItemReads):
    """A category's binary table (label sets).

    Attributes
    ----------
    label : str
        The category.
    tp, fp, fn, tn : int
        Documents that carry it and were given it, were given it without carrying it, carry it and were not
        given it, neither carry it nor were given it.
    """

    label: str
    tp: int
    fp: int
    fn: int
    tn: int

    def to_dict(self) -> dict[str, object]:
        return {"label": self.label, "tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn}


@dataclass(frozen=True)
class ErrorPrior(ItemReads):
    """The informative Dirichlet prior of the scores and the corpus it comes from.

    Attributes
    ----------
    alpha0 : float
        α0, the prior's total pseudo-count (``prior_strength``).
    tokens : int
        All tokens of the evaluated documents.
    documents : int
        The evaluated documents.
    terms : int
        The distinct terms.
    alpha_w : str
        How each term's pseudo-count is set, in words.
    reference : str
        Where the scores come from.
    """

    alpha0: float
    tokens: int
    documents: int
    terms: int
    alpha_w: str = ALPHA_W
    reference: str = PRIOR_REFERENCE

    def to_dict(self) -> dict[str, object]:
        return {"alpha0": self.alpha0, "tokens": self.tokens, "documents": self.documents, "terms": self.terms,
                "alpha_w": self.alpha_w, "reference": self.reference}


@dataclass(frozen=True)
class TextAnalyzer(ItemReads):
    """How texts became terms.

    Attributes
    ----------
    token_pattern : str
        The regular expression of a token.
    lowercase : bool
        Whether texts are lower-cased first.
    stop : str
        The stop list (``none``: none).
    stem : str
        The stemmer (``none``: none).
    max_chars : int
        A document is tokenised on its first ``max_chars`` characters.
    description : str
        All of it in words.
    """

    token_pattern: str
    lowercase: bool
    stop: str
    stem: str
    max_chars: int
    description: str

    def to_dict(self) -> dict[str, object]:
        return {"token_pattern": self.token_pattern, "lowercase": self.lowercase, "stop": self.stop,
                "stem": self.stem, "max_chars": self.max_chars, "description": self.description}


@dataclass(frozen=True)
class ErrorSettings(ItemReads):
    """The settings of an analysis.

    Attributes
    ----------
    min_count : int
        Cells are listed from this many documents.
    examples : int
        Examples per cell.
    terms : int
        Terms per side.
    z_min : float
        Terms are listed from this z-score.
    chars : int
        Characters per example.
    seed : int
        Key of the examples' hash.
    sample_key : str
        What the hash reads: ``id``, or ``row`` (file and row) when the input has no id column.
    scored : bool
        Whether scores were given (the most confident mistakes are listed).
    processing : str or None
        The ``--processing`` spec (None: none).
    text : str or None
        Where the texts came from, in words (``a column``, ``a --texts file joined by id``, ...); None, with
        ``processing`` left out of the JSON, for an analysis made outside an operation.
    """

    min_count: int
    examples: int
    terms: int
    z_min: float
    chars: int
    seed: int
    sample_key: str
    scored: bool
    processing: str | None = None
    text: str | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"min_count": self.min_count, "examples": self.examples, "terms": self.terms,
                                  "z_min": self.z_min, "chars": self.chars, "seed": self.seed,
                                  "sample_key": self.sample_key, "scored": self.scored}
        if self.text is not None:
            out.update(processing=self.processing, text=self.text)
        return out


@dataclass(frozen=True)
class ErrorCell(ItemReads):
    """One confused pair gold → predicted: counts, the distinctive terms on both sides, examples.

    Attributes
    ----------
    gold, pred : str
        The cell: gold class → predicted class (label sets: ``c`` → ``not c`` for the false negatives of
        category c, ``not c`` → ``c`` for its false positives).
    count : int
        Its documents.
    share : float
        Their share of the gold class (label sets: of the documents that carry c, or that do not).
    opposite : int
        The documents of the opposite cell (pred → gold; label sets: the category's other error).
    tokens : int
        The tokens of its documents.
    terms_vs_gold : tuple of ErrorTerm
        The mistakes' terms against the correctly classified ``gold`` documents (label sets: the first side of
        ``against``), largest z first.
    terms_vs_pred : tuple of ErrorTerm
        Against the correctly classified ``pred`` documents (label sets: the second side).
    examples : tuple of ErrorExample
        Sampled documents, smallest hash first.
    confident : tuple of ConfidentMistake
        The most confident mistakes, highest score first (with ``score=``).
    notes : tuple of str
        What the reader should know of this cell.
    kind : str
        ``confusion`` (single-label), ``false negatives`` or ``false positives`` (label sets).
    category : str or None
        The category of a label-set cell.
    against : tuple of (str, str)
        What each side is compared with, in words.
    vs : tuple of (str, str)
        The same in short.
    flagged : int or None
        With ``label_issues=``: how many of the cell's documents label-issues flagged as likely gold errors
        (None without it).
    likely_gold_errors : tuple of LikelyGoldError
        With ``label_issues=``: the flagged documents of the cell, up to ``examples``, smallest hash first (the
        same keyed hash as the examples, so the same however the input is split).
    """

    gold: str
    pred: str
    count: int
    share: float
    opposite: int
    tokens: int
    terms_vs_gold: tuple[ErrorTerm, ...]
    terms_vs_pred: tuple[ErrorTerm, ...]
    examples: tuple[ErrorExample, ...]
    confident: tuple[ConfidentMistake, ...] = ()
    notes: tuple[str, ...] = ()
    kind: str = "confusion"
    category: str | None = None
    against: tuple[str, str] = ("", "")
    vs: tuple[str, str] = ("", "")
    flagged: int | None = None
    likely_gold_errors: tuple[LikelyGoldError, ...] = ()

    def to_dict(self) -> dict[str, object]:
        marks: dict[str, object] = {} if self.flagged is None else {
            "flagged": self.flagged, "likely_gold_errors": [e.to_dict() for e in self.likely_gold_errors]}
        return {"gold": self.gold, "pred": self.pred, "count": self.count, "share": self.share,
                "opposite": self.opposite, "tokens": self.tokens,
                "terms_vs_gold": [t.to_dict() for t in self.terms_vs_gold],
                "terms_vs_pred": [t.to_dict() for t in self.terms_vs_pred],
                "examples": [e.to_dict() for e in self.examples], "confident": [e.to_dict() for e in self.confident],
                "notes": list(self.notes), "kind": self.kind, "category": self.category,
                "against": list(self.against), "vs": list(self.vs), **marks}


@dataclass(frozen=True)
class ErrorSlice(ItemReads):
    """The error analysis of one slice of ``by=`` (its documents alone: its own cells, terms, prior and examples,
    as ``error_analysis`` of that slice's rows gives them).

    Attributes
    ----------
    name : str
        The slice: ``value`` (one column) or ``a=x, b=y``.
    values : Mapping[str, str]
        Each ``by`` column's value (a bin's interval for a numeric column cut into bins).
    documents : int
        Its documents.
    errors : int
        Its misclassified documents (label sets: those with a false negative or a false positive).
    analysis : ErrorAnalysis
        The slice's analysis (no engine block, no signature: the whole result's are the run's).
    """

    name: str
    values: Mapping[str, str]
    documents: int
    errors: int
    analysis: ErrorAnalysis

    def __post_init__(self) -> None:
        freeze_fields(self, ("values",))

    @property
    def error_rate(self) -> float:
        """Errors per document (0/0 is not possible: a slice has at least one document)."""
        return self.errors / self.documents

    def to_dict(self) -> dict[str, object]:
        a = self.analysis.to_dict()
        return {"slice": self.name, "values": thaw(self.values), "documents": self.documents, "errors": self.errors,
                "error_rate": self.error_rate, "labels": a["labels"], "categories": a["categories"],
                "matrix": a["matrix"], "cells": a["cells"], "prior": a["prior"], "notes": a["notes"]}


@dataclass(frozen=True)
class ErrorAnalysis(Display):
    """The misclassified documents and their vocabulary: the one result of ``clfeval.error_analysis``.

    Attributes
    ----------
    labels : tuple of str
        The classes, in the order of ``matrix`` (label sets: the categories).
    matrix : tuple of tuple of int
        Confusion counts, rows gold, columns predicted (label sets: empty, see ``categories``).
    cells : tuple of ErrorCell
        The off-diagonal cells (label sets: false-negative and false-positive cells) with at least
        ``min_count`` documents, largest first.
    prior : ErrorPrior
        The prior of the scores and the corpus it comes from.
    analyzer : TextAnalyzer
        How texts became terms.
    settings : ErrorSettings
        The settings.
    notes : tuple of str
        What the reader should know (uncorrected z-scores, empty texts, almost no tokens, ...).
    engine : EngineInfo or None
        Where it ran (None: made outside the front door).
    signature : Mapping[str, object]
        The signature (version, settings, seed), read-only.
    task : str
        ``single-label`` or ``multi-label`` (label sets).
    categories : tuple of CategoryCounts
        Label sets: each category's binary table.
    by : tuple of str
        The ``by`` columns (empty: not sliced).
    slices : tuple of ErrorSlice
        With ``by``: the analysis of every slice, in the slices' sorted order (the whole analysis above is that of
        every document).
    label_issues : LabelIssueMarks or None
        With ``label_issues=``: the source of the likely gold errors marked in the cells and how many were found.
    """

    labels: tuple[str, ...]
    matrix: tuple[tuple[int, ...], ...]
    cells: tuple[ErrorCell, ...]
    prior: ErrorPrior
    analyzer: TextAnalyzer
    settings: ErrorSettings
    notes: tuple[str, ...] = ()
    engine: EngineInfo | None = None
    signature: Mapping[str, object] = field(default_factory=FrozenDict)
    task: str = "single-label"
    categories: tuple[CategoryCounts, ...] = ()
    by: tuple[str, ...] = ()
    slices: tuple[ErrorSlice, ...] = ()
    label_issues: LabelIssueMarks | None = None

    def __post_init__(self) -> None:
        freeze_fields(self, ("signature",))

    def cell(self, gold: object, pred: object) -> ErrorCell:
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
        """The JSON of ``clfeval errors`` (a plain, mutable copy)."""
        return {"kind": "error_analysis", "task": self.task, "labels": list(self.labels),
                "categories": [x.to_dict() for x in self.categories], "matrix": [list(r) for r in self.matrix],
                "cells": [c.to_dict() for c in self.cells], "prior": self.prior.to_dict(),
                "analyzer": self.analyzer.to_dict(), "settings": self.settings.to_dict(), "notes": list(self.notes),
                "engine": {} if self.engine is None else self.engine.to_dict(), "signature": thaw(self.signature),
                **({"by": list(self.by), "slices": [x.to_dict() for x in self.slices]} if self.by else {}),
                **({} if self.label_issues is None else {"label_issues": self.label_issues.to_dict()})}

    def terms_frame(self) -> pandas.DataFrame:
        """One row per listed term of each error cell (``to_frame()`` gives the cells). Columns
        (``FRAME_COLUMNS['ErrorAnalysis.terms']`` of :mod:`clfeval.render._frames`): ``gold``, ``pred``, ``count``,
        ``side``, ``rank``, ``term``, ``z``, ``delta``, ``term_count``, ``other_count`` (pandas: the ``frame``
        extra)."""
        from clfeval.core import frame_of

        return frame_of(self, 'terms')

    def to_frame(self) -> pandas.DataFrame:
        """The error cells: one row per cell (the listed terms: ``terms_frame()``). Columns
        (``FRAME_COLUMNS['ErrorAnalysis']`` of :mod:`clfeval.render._frames`): ``gold``, ``pred``, ``kind``,
        ``category``, ``count``, ``share``, ``opposite``, ``tokens``, ``terms_vs_gold``, ``terms_vs_pred``,
        ``examples``, ``confident`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)
