"""The error analysis of label sets (multi-label): per category, its false negatives and false positives.

Every category c is its own binary task (c against not c), with the four cells of its table. The errors
are two cells, each compared by the weighted log-odds of :mod:`clfeval.evaluate._erroranalysis` with the
two cells of c's table that were right:

* the **false negatives** of c (c in gold, not predicted) against the **true positives** of c (the c
  documents found: what made the model miss c) and against the **true negatives** of c (the documents
  rightly left without c: what the missed ones share with them);
* the **false positives** of c (c predicted, not in gold) against the **true negatives** of c (what drew
  c to them) and against the **true positives** of c (what they share with the c documents).

The true negatives of c are every document less its other three cells (so no document is counted once
per category it lacks), and α_w comes from every document once.

>>> from clfeval.evaluate._errorcount import ErrorCounter
>>> c = ErrorCounter(multilabel=True, examples=1)
>>> c.add([["a"], ["a"], ["a", "b"], []], [["a"], [], ["a"], ["b"]], ["x y", "zebra", "zebra x", "w"],
...       ["1", "2", "3", "4"])
>>> r = analyse_sets(c, min_count=1)
>>> [(x.kind, x.category, x.count) for x in r.cells]
[('false negatives', 'a', 1), ('false negatives', 'b', 1), ('false positives', 'b', 1)]
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from clfeval.evaluate._erroranalysis import (
    FN,
    FP,
    assemble,
    corpus_notes,
    label_order,
    listed_terms,
    log_odds_z,
    prior_note,
    sampled,
)
from clfeval.evaluate._errorcount import ALL, ErrorCounter
from clfeval.ops.errors import CategoryCounts, ErrorAnalysis, ErrorCell

__all__ = ["analyse_sets", "sides_of"]


def sides_of(kind: str, c: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """What the two sides of an error cell of category ``c`` are compared with: in words, and in short."""
    found = f"the {c} documents found, true positives of {c}"
    rightly = f"the documents rightly left without {c}, true negatives of {c}"
    if kind == FN:
        return ((f"{found} (what made the model miss {c})", f"{rightly} (what the missed ones share with them)"),
                (f"vs TP of {c}", f"vs TN of {c}"))
    return ((f"{rightly} (what drew {c} to them)", f"{found} (what they share with {c})"),
            (f"vs TN of {c}", f"vs TP of {c}"))


def analyse_sets(counter: ErrorCounter, *, min_count: int = 5, terms: int = 10, prior_strength: float = 1000.0,
                 z_min: float = 1.96, settings: Mapping[str, str | None] | None = None) -> ErrorAnalysis:
    """The :class:`ErrorAnalysis` of a counter filled with label sets (see the module notes)."""
    counts = counter.cell_counts()
    labels = label_order({c for (k, c) in counts if k != ALL[0]})
    n_docs = counts.get(ALL, 0)
    vocab, m = counter.terms.matrix(len(counter.cells))
    m = m.tocsc()

    def column(key: tuple[str, str]) -> np.ndarray:
        c = counter.cells.get(key)
        return np.zeros(len(vocab)) if c is None or c >= m.shape[1] else m[:, c].toarray().ravel().astype(float)

    y_all = column(ALL)
    total = float(y_all.sum())
    alpha = prior_strength * y_all / total if total else y_all
    cats: list[CategoryCounts] = []
    for c in labels:
        tp, fp, fn = (counts.get((k, c), 0) for k in ("tp", "fp", "fn"))
        cats.append(CategoryCounts(c, tp, fp, fn, n_docs - tp - fp - fn))
    listed = [(n, i, kind) for i, row in enumerate(cats) for n, kind in ((row.fn, FN), (row.fp, FP))
              if n >= max(min_count, 1)]
    listed.sort(key=lambda t: (-t[0], t[1], t[2]))
    cells = []
    for n, i, kind in listed:
        row, c = cats[i], labels[i]
        key = ("fn" if kind == FN else "fp", c)
        tp_col = column(("tp", c))
        tn_col = y_all - tp_col - column(("fp", c)) - column(("fn", c))
        cell_no = counter.cells[key]
        lo, hi = m.indptr[cell_no], m.indptr[cell_no + 1]
        at, y = m.indices[lo:hi], m.data[lo:hi].astype(float)
        first, second = (tp_col, tn_col) if kind == FN else (tn_col, tp_col)
        sides = []
        for full in (first, second):
            other = full[at]
            d, z = log_odds_z(y, other, alpha[at], prior_strength, n_i=y.sum(), n_j=full.sum())
            sides.append(listed_terms([vocab[w] for w in at], d, z, y, other, terms, z_min))
        wanted = {t.term for side in sides for t in side}
        against, vs = sides_of(kind, c)
        notes = prior_note(y.sum(), prior_strength)
        for side, (name, size) in enumerate(((f"no document of {c!r} was found (no true positive)", row.tp),
                                             (f"every document carries or was given {c!r} (no true negative)",
                                              row.tn))):
            if not size:
                which = ("first", "second")[side if kind == FN else 1 - side]
                notes.append(f"{name}: the {which} side compares the mistakes with the prior alone")
        if kind == FN:
            gold, pred, share, opposite = c, f"not {c}", n / max(row.tp + row.fn, 1), row.fp
        else:
            gold, pred, share, opposite = f"not {c}", c, n / max(row.fp + row.tn, 1), row.fn
        ex = sampled(counter, key, wanted)
        cells.append(ErrorCell(gold, pred, n, float(share), int(opposite), int(y.sum()), sides[0], sides[1], ex, (),
                               tuple(notes), kind=kind, category=c, against=against, vs=vs))
    notes = corpus_notes(counter, vocab, y_all, min_count=min_count, z_min=z_min, listed=bool(cells))
    notes.insert(1, "label sets: every category is its own binary task; its errors are two cells, the false "
                    "negatives (compared with its true positives and its true negatives) and the false positives "
                    "(compared with its true negatives and its true positives); a document counts in the cells of "
                    "every category it carries or is given")
    return assemble(counter, labels, (), cells, notes, len(vocab), total, min_count=min_count, terms=terms,
                    prior_strength=prior_strength, z_min=z_min, settings=settings, task="multi-label",
                    categories=tuple(cats))
