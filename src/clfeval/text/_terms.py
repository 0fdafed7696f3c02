"""Terms as one-line classifiers: Armano's φ–δ analysis of binary features.

"Term t occurs in the document" is a classifier for category c: its TPR is
the share of c's documents that contain t, its FPR the share of the other
documents that do. From them, δ = TPR − FPR (discriminant capability) and
φ = TPR + FPR − 1 (characteristic capability, or bias). In the φ–δ rhombus,
discriminative terms sit near the top (δ → +1: occur in c, rarely elsewhere)
and bottom corners (δ → −1: occur everywhere but in c), stop words near the
right corner (φ → +1: occur in almost every document), rare terms near the
left corner (φ → −1: occur almost nowhere).

Each term's 2×2 table is counted once from the binary document–term matrix
and δ, φ come from :mod:`clfeval.core._metrics` over the stack of tables.

Reference: G. Armano (2015), "A direct measure of discriminant and
characteristic capability for classifier building and assessment",
Information Sciences 325.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import binary_class_counts, delta, phi

__all__ = ["TermAnalysis", "term_phi_delta"]


@dataclass(frozen=True)
class TermAnalysis:
    """φ and δ of every term of a vocabulary for one category.

    Attributes
    ----------
    category : str
    terms : list of str
    counts : ndarray, shape (V, 2, 2)
        Per term [[TN, FP], [FN, TP]]: documents of the category (rows: gold
        absent/present) that do (columns: predicted = term occurs) or do not
        contain the term.
    delta, phi : ndarray, shape (V,)
    """

    category: str
    terms: list[str]
    counts: np.ndarray
    delta: np.ndarray
    phi: np.ndarray

    @property
    def n_positive(self) -> int:
        c = self.counts[0]
        return int(c[1].sum()) if len(self.counts) else 0

    @property
    def n_documents(self) -> int:
        return int(self.counts[0].sum()) if len(self.counts) else 0

    def _rows(self, idx: np.ndarray) -> list[dict[str, Any]]:
        out = []
        for i in idx.tolist():
            (tn, fp), (fn, tp) = self.counts[i].tolist()
            out.append({"term": self.terms[i], "delta": float(self.delta[i]), "phi": float(self.phi[i]),
                        "in_category": tp, "elsewhere": fp})
        return out

    def most_discriminative(self, n: int = 10) -> list[dict[str, Any]]:
        """Terms with the highest δ (the top corner): occur in the category, rarely elsewhere."""
        order = np.lexsort((np.arange(len(self.terms)), -self.delta))
        return self._rows(order[:n])

    def most_negative(self, n: int = 10) -> list[dict[str, Any]]:
        """Terms with the lowest δ (the bottom corner): occur elsewhere, rarely in the category."""
        order = np.lexsort((np.arange(len(self.terms)), self.delta))
        return self._rows(order[:n])

    def stop_word_corner(self, n: int = 10) -> list[dict[str, Any]]:
        """Terms with the highest φ (the right corner): occur in nearly every document."""
        order = np.lexsort((np.arange(len(self.terms)), -self.phi))
        return self._rows(order[:n])

    def rare_corner(self, n: int = 10) -> list[dict[str, Any]]:
        """Terms with the lowest φ (the left corner): occur in almost no document."""
        order = np.lexsort((np.arange(len(self.terms)), self.phi))
        return self._rows(order[:n])

    def to_dict(self, n: int = 10) -> dict[str, Any]:
        return {"category": self.category, "vocabulary_size": len(self.terms), "documents": self.n_documents,
                "positives": self.n_positive, "most_discriminative": self.most_discriminative(n),
                "most_negative": self.most_negative(n), "stop_word_corner": self.stop_word_corner(n),
                "rare_corner": self.rare_corner(n)}


def term_phi_delta(documents: Any, in_category: Sequence[bool] | np.ndarray, *, category: str = "positive",
                   analyzer: Callable[[str], list[str]] | None = None,
                   vocabulary: Sequence[str] | None = None) -> TermAnalysis:
    """φ and δ of every term as a binary feature ("the term occurs") for one category.

    Parameters
    ----------
    documents : sequence of str, or a (documents × terms) sparse/dense matrix
        Texts (tokenised with ``analyzer``, default lowercase alphabetic
        tokens), or a ready document–term count matrix with ``vocabulary``.
    in_category : sequence of bool
        Whether each document belongs to the category.

    Examples
    --------
    >>> docs = ["wheat grain the", "grain the", "the oil", "oil the"]
    >>> a = term_phi_delta(docs, [True, True, False, False], category="grain")
    >>> [(r["term"], r["delta"], r["phi"]) for r in a.most_discriminative(1)]
    [('grain', 1.0, 0.0)]
    >>> a.stop_word_corner(1)[0]["term"], a.stop_word_corner(1)[0]["phi"]
    ('the', 1.0)
    """
    import scipy.sparse as sp

    y = np.asarray(in_category, dtype=bool)
    if isinstance(documents, (list, tuple)) or (
            isinstance(documents, np.ndarray) and documents.ndim == 1 and documents.dtype.kind in "OU"):
        from sklearn.feature_extraction.text import CountVectorizer

        vec = CountVectorizer(binary=True, lowercase=True,
                              token_pattern=r"(?u)\b[a-zA-Z]+\b" if analyzer is None else None,
                              analyzer=analyzer if analyzer is not None else "word", dtype=np.int64)
        x = vec.fit_transform(list(documents))
        terms = vec.get_feature_names_out().tolist()
    else:
        if vocabulary is None:
            raise ValueError("a document–term matrix needs its vocabulary")
        x = documents
        terms = list(vocabulary)
    x = sp.csr_matrix(x)
    x.data = np.ones_like(x.data)  # occurrence, not frequency
    if x.shape[0] != y.size:
        raise ValueError(f"{x.shape[0]} documents but {y.size} category flags")
    tp = np.asarray(x[y].sum(axis=0)).ravel().astype(np.int64)
    fp = np.asarray(x[~y].sum(axis=0)).ravel().astype(np.int64)
    n_pos = int(y.sum())
    n_neg = int(y.size - n_pos)
    fn = n_pos - tp
    tn = n_neg - fp
    counts = np.stack([np.stack([tn, fp], -1), np.stack([fn, tp], -1)], 1)
    c = binary_class_counts(counts)
    d, _ = delta(c, np.nan)
    f, _ = phi(c, np.nan)
    return TermAnalysis(category, terms, counts, d, f)
