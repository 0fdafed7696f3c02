"""The counts of a slice outside some of its sub-slices: what the slice search's descendant rule tests when the
sub-slices overlap (:mod:`clfeval.slicing._slicedescend`).

A slice S (a conjunction of column values, ``src=fax``) with found descendants D₁ … D_k (conjunctions of more
columns containing S's values) is tested on its items outside D₁ ∪ … ∪ D_k. Descendants that do not overlap --
two of them share a column with different values, as ``src=fax ∧ lang=de`` and ``src=fax ∧ lang=fr`` -- are
subtracted from S's counts in the lattice; descendants that overlap (``src=fax ∧ lang=de`` and
``src=fax ∧ topic=ship`` share the items of ``src=fax ∧ lang=de ∧ topic=ship``, a slice the lattice may not
hold) need the items: :class:`OutsideCounter` counts, batch by batch, the items, trials and successes of each
query S ∖ (D₁ ∪ … ∪ D_k) from the rows themselves -- one mask per conjunction, each column coded as the lattice
codes it (:class:`~clfeval.core._slicecount.ColumnVocab`: the same values, nulls, bins). Counts add, so Dask
partitions counted apart sum to the counts of the whole input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from clfeval.core._latticecount import outcome_of, outcomes
from clfeval.core._slicebins import SliceBinning
from clfeval.core._slicecount import ColumnVocab

__all__ = ["OutsideCounter", "Conjunction", "disjoint_slices"]

#: A slice as (columns, values): ``(("src", "lang"), ("fax", "de"))``.
Conjunction = tuple[tuple[str, ...], tuple[Any, ...]]


def disjoint_slices(a: Conjunction, b: Conjunction) -> bool:
    """Whether two conjunctions hold no item in common: they give one column different values.

    >>> disjoint_slices((("a", "b"), (1, 2)), (("a", "b"), (1, 3))), disjoint_slices((("a", "b"), (1, 2)),
    ...                                                                   (("a", "c"), (1, 3)))
    (True, False)
    """
    mine = dict(zip(*a, strict=True))
    return any(c in mine and mine[c] != v for c, v in zip(*b, strict=True))


def _conj(c: Any) -> Conjunction:
    return tuple(c[0]), tuple(c[1])


class OutsideCounter:
    """Items, trials and successes of ``metric`` in each query S ∖ (D₁ ∪ … ∪ D_k), batch by batch.

    Parameters
    ----------
    queries : sequence of (Conjunction, sequence of Conjunction)
        Each slice S and the sub-slices whose items are left out.
    metric : str
        A proportion metric of the slice search (``recall:1``).
    binning : mapping column → :class:`~clfeval.core._slicecount.SliceBinning`
        The bins of numeric columns, as the search cut them.

    >>> import pyarrow as pa
    >>> c = OutsideCounter([((("a",), ("x",)), [(("a", "b"), ("x", 1)), (("a", "c"), ("x", 1))])], "accuracy")
    >>> cols = {"a": pa.array(["x", "x", "x", "y"]), "b": pa.array([1, 0, 0, 1]), "c": pa.array([0, 1, 0, 0])}
    >>> c.update(cols, np.array([0, 0, 1, 0]), np.array([0, 0, 0, 0]), [0, 1])
    >>> c.result().tolist()   # only the third row is in a=x outside both sub-slices: one item, one trial, failed
    [[1, 1, 0]]
    """

    def __init__(self, queries: Sequence[tuple[Conjunction, Sequence[Conjunction]]], metric: str, *,
                 binning: Mapping[str, SliceBinning] | None = None) -> None:
        self.queries: list[tuple[Conjunction, list[Conjunction]]] = [(_conj(s), [_conj(d) for d in ds])
                                                                      for s, ds in queries]
        self.name, self.label = outcome_of(metric)
        self.outcomes = 2 if self.name in ("accuracy", "error_rate") else 3
        cols = [c for s, ds in self.queries for conj in (s, *ds) for c in conj[0]]
        self.columns = list(dict.fromkeys(cols))
        self.vocabs = {c: ColumnVocab(c, (binning or {}).get(c)) for c in self.columns}
        self.counts = np.zeros((len(self.queries), self.outcomes), dtype=np.int64)

    def update(self, columns: Mapping[str, Any], gold_codes: np.ndarray, pred_codes: np.ndarray,
               labels: Sequence[Any]) -> None:
        """Count one batch: its columns (name → values), the label codes of its rows and the label of each code."""
        code = next((i for i, v in enumerate(labels) if self.label is not None and str(v) == self.label), None)
        out = outcomes(self.name, code, np.asarray(gold_codes), np.asarray(pred_codes), whole=self.label is None)
        codes = {c: self.vocabs[c].codes(columns[c]) for c in self.columns}

        def mask(conj: Conjunction) -> np.ndarray:
            m = np.ones(out.size, dtype=bool)
            for c, v in zip(*conj, strict=True):
                at = self.vocabs[c].index.get(v)
                if at is None:
                    return np.zeros(out.size, dtype=bool)
                m &= codes[c] == at
            return m

        for i, (s, ds) in enumerate(self.queries):
            keep = mask(s)
            for d in ds:
                keep &= ~mask(d)
            self.counts[i] += np.bincount(out[keep], minlength=self.outcomes)[:self.outcomes]

    def result(self) -> np.ndarray:
        """(queries × 3): the items, trials and successes of each query."""
        items = self.counts.sum(axis=1)
        if self.outcomes == 2:
            trials, successes = items, self.counts[:, 1]
        else:
            trials, successes = self.counts[:, 1] + self.counts[:, 2], self.counts[:, 2]
        return np.stack([items, trials, successes], axis=1)

    def __add__(self, other: OutsideCounter) -> OutsideCounter:
        if not isinstance(other, OutsideCounter):
            return NotImplemented
        out = OutsideCounter.__new__(OutsideCounter)
        out.__dict__.update(self.__dict__)
        out.counts = self.counts + other.counts
        return out
