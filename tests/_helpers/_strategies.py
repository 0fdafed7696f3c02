"""Hypothesis strategies and small helpers shared by the core's property tests.

Cases are built from *indices* into a vocabulary, so one case can be turned
into string, integer (small range, large sparse range, negative) or boolean
labels without changing its counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

from clfeval.core._labels import label_str

ZERO_DIVISIONS = (0.0, 1.0, math.nan)
LABEL_KINDS = ("str", "int_small", "int_lookup", "int_sparse", "int_negative")


@dataclass(frozen=True)
class Case:
    """A single-label test case: gold and predicted labels as values of one vocabulary."""

    vocab: tuple          # every label value the case may use (distinct string forms)
    gold: list            # label values
    pred: list
    extra: tuple          # vocabulary labels that occur nowhere (for labels=)

    @property
    def occurring(self) -> list:
        seen = set(self.gold) | set(self.pred)
        return [v for v in self.vocab if v in seen]


def vocabulary(kind: str, k: int, draw: Any) -> tuple:
    """``k`` distinct labels of one kind (their string forms are distinct too)."""
    if kind == "bool":
        return (False, True)
    if kind == "str":
        words = draw(st.lists(st.text(min_size=1, max_size=6).filter(str.strip), min_size=k, max_size=k, unique=True))
        return tuple(words)
    bounds = {"int_small": (0, 80), "int_lookup": (0, 5_000_000), "int_sparse": (-(10 ** 15), 10 ** 15),
              "int_negative": (-60, -1)}[kind]
    lo, hi = bounds
    if kind == "int_negative":
        lo = -60 - k
    return tuple(draw(st.lists(st.integers(lo, hi), min_size=k, max_size=k, unique=True)))


@st.composite
def single_label_cases(draw: Any, max_k: int = 50, max_n: int = 150, kinds: tuple = LABEL_KINDS + ("bool",)) -> Case:
    """Gold and predictions over up to ``max_k`` classes: some classes are never
    predicted, some are absent from gold, binary tasks are frequent."""
    kind = draw(st.sampled_from(kinds))
    if kind == "bool":
        k = 2
    else:
        k = draw(st.one_of(st.just(2), st.integers(1, max_k)))
    vocab = vocabulary(kind, k, draw)
    n = draw(st.integers(1, max_n))
    gold_pool = draw(st.lists(st.integers(0, k - 1), min_size=1, max_size=k, unique=True))
    pred_pool = draw(st.lists(st.integers(0, k - 1), min_size=1, max_size=k, unique=True))
    gold_idx = draw(st.lists(st.sampled_from(gold_pool), min_size=n, max_size=n))
    # None = "predict the gold label" so that tables have a realistic diagonal.
    choice = draw(st.lists(st.one_of(st.none(), st.sampled_from(pred_pool)), min_size=n, max_size=n))
    pred_idx = [g if c is None else c for g, c in zip(gold_idx, choice, strict=True)]
    used = set(gold_idx) | set(pred_idx)
    gold = [vocab[i] for i in gold_idx]
    pred = [vocab[i] for i in pred_idx]
    extra = tuple(vocab[i] for i in range(k) if i not in used)
    return Case(vocab, gold, pred, extra)


@dataclass(frozen=True)
class MultilabelCase:
    vocab: tuple
    gold: list            # list of lists of label values
    pred: list
    gold_ind: np.ndarray  # (n, L) over vocab
    pred_ind: np.ndarray


@st.composite
def multilabel_cases(draw: Any, max_l: int = 20, max_n: int = 80,
                     kinds: tuple = ("str", "int_small", "int_sparse")) -> MultilabelCase:
    """Label sets over up to ``max_l`` labels; empty sets and exact matches are frequent."""
    kind = draw(st.sampled_from(kinds))
    n_lab = draw(st.integers(1, max_l))
    vocab = vocabulary(kind, n_lab, draw)
    if kind == "str":
        # the default set separator must not occur inside a label, and labels of a set
        # are read with surrounding white space trimmed (as in "a | b")
        vocab = tuple(v.replace("|", "¦").strip() for v in vocab)
        if len(set(vocab)) != n_lab or not all(vocab):
            vocab = tuple(f"l{i}" for i in range(n_lab))
    n = draw(st.integers(1, max_n))
    density = draw(st.sampled_from([0.05, 0.2, 0.5]))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    g = rng.random((n, n_lab)) < density
    flip = rng.random((n, n_lab)) < draw(st.sampled_from([0.0, 0.1, 0.3]))
    p = g ^ flip
    # some items predicted exactly, some with nothing predicted
    p[rng.random(n) < 0.1] = False
    g[rng.random(n) < 0.1] = False
    gold = [[vocab[j] for j in np.flatnonzero(row)] for row in g]
    pred = [[vocab[j] for j in np.flatnonzero(row)] for row in p]
    return MultilabelCase(vocab, gold, pred, g, p)


def by_string(values: Any) -> dict[str, Any]:
    """Map each label's string form back to the label value."""
    return {label_str(v): v for v in values}


def same(a: Any, b: Any, tol: float = 1e-9) -> bool:
    """Numbers equal within ``tol``, NaN equal to NaN."""
    a = float(a)
    b = float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def assert_same(a: Any, b: Any, what: str = "", tol: float = 1e-9) -> None:
    assert same(a, b, tol), f"{what}: {a!r} != {b!r}"
