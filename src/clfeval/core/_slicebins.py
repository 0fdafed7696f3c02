"""The bins of a numeric slice column and the order slices are shown in (one rule for every result by slice).

:class:`SliceBinning` cuts a numeric ``by`` column into bins from its finite values (equal width or quantiles,
:func:`bin_edges`; ``-inf`` and ``inf`` bins of their own), bounded by :data:`MAX_BY_BINS`
(:func:`check_by_bins`); :func:`slice_order` orders slices by value, bins in numeric order, :data:`MISSING`
last.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core._labels import label_str
from clfeval.errors import UsageError

__all__ = ["SliceBinning", "MAX_BY_BINS", "MISSING", "check_by_bins", "bin_edges", "slice_order"]

#: How a missing value of a slice column (null, float NaN, empty text) is shown as a slice value.
MISSING = "(missing)"


@dataclass(frozen=True)
class SliceBinning:
    """The bins of a numeric ``by`` column: ``edges`` (finite, increasing), bins ``[e_i, e_i+1)``, the last closed;
    ``infinite``: the infinities the column holds (``-inf``, ``inf``), each a bin of its own below and above the
    bins of the finite values (a width or a quantile of an infinity is undefined). Bins are in numeric order:
    ``-inf``, the finite bins, ``inf``.

    Examples
    --------
    >>> b = SliceBinning("x", "uniform", (0.0, 1.0, 2.0), ("-inf", "inf"))
    >>> b.labels(), b.codes(np.array([-np.inf, 0.0, 1.0, 2.0, np.inf, np.nan])).tolist()
    (['-inf', '[0, 1)', '[1, 2]', 'inf'], [0, 1, 2, 2, 3, -1])
    """

    column: str
    kind: str
    edges: tuple[float, ...]
    infinite: tuple[str, ...] = ()

    @classmethod
    def of(cls, d: Mapping[str, Any] | SliceBinning) -> SliceBinning:
        """A binning from its :meth:`to_dict` (or itself)."""
        if isinstance(d, SliceBinning):
            return d
        return cls(str(d["column"]), str(d["binning"]), tuple(float(x) for x in d["edges"]),
                   tuple(d.get("infinite", ())))

    @property
    def n_finite(self) -> int:
        """Bins of the finite values."""
        return max(len(self.edges) - 1, 0)

    def labels(self) -> list[str]:
        e = self.edges
        bins = [f"[{e[i]:.6g}, {e[i + 1]:.6g}{']' if i == len(e) - 2 else ')'}" for i in range(len(e) - 1)]
        return [x for x in ("-inf",) if x in self.infinite] + bins + [x for x in ("inf",) if x in self.infinite]

    def codes(self, values: np.ndarray) -> np.ndarray:
        """Bin index of each value in the order of :meth:`labels` (NaN → -1)."""
        low = int("-inf" in self.infinite)
        n = self.n_finite
        if n:
            idx = np.searchsorted(np.asarray(self.edges, dtype=np.float64), values, side="right") - 1
            idx = np.clip(idx, 0, n - 1) + low
        else:
            idx = np.zeros(np.shape(values), dtype=np.int64)
        if self.infinite:  # an infinity the first pass did not see stays in the outer bin of its side
            idx[values == -np.inf] = 0
            idx[values == np.inf] = low + n - (0 if "inf" in self.infinite else 1)
        idx[np.isnan(values)] = -1
        return idx

    def describe(self, shown: int = 12) -> str:
        """The binning in a sentence; more than ``shown`` edges are shown as the first and last few.

        Examples
        --------
        >>> SliceBinning("x", "quantile", (1.0, 1.0), ("-inf", "inf")).describe()
        'Column x cut into 3 bins: -inf, 1 quantile bin of its finite values (edges: 1, 1), inf.'
        """
        e = [f"{x:.6g}" for x in self.edges]
        if len(e) > shown:
            e = e[:shown // 2] + [f"… ({len(e) - 2 * (shown // 2):,} more) …"] + e[-(shown // 2):]
        n = self.n_finite
        bins = f"{n} {self.kind} bin{'s' if n != 1 else ''}"
        if not self.infinite:
            return f"Column {self.column} cut into {bins}; edges: {', '.join(e)}."
        parts = [x for x in ("-inf",) if x in self.infinite]
        parts += [f"{bins} of its finite values (edges: {', '.join(e)})"] if n else []
        parts += [x for x in ("inf",) if x in self.infinite]
        return f"Column {self.column} cut into {n + len(self.infinite)} bins: {', '.join(parts)}."

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"column": self.column, "binning": self.kind, "edges": list(self.edges)}
        if self.infinite:
            out["infinite"] = list(self.infinite)
        return out


#: Bins of one ``by_bins`` column at most (beyond, slice by value); also at most ``max_slices`` / ``max_search``.
MAX_BY_BINS = 10_000


def check_by_bins(by_bins: Any, limit: int, option: str) -> None:
    """``by_bins``: None, or a whole number of bins from 1 to :data:`MAX_BY_BINS` and at most ``limit``, the
    slices ``option`` (``max_slices``, ``max_search``) allows: each bin is a slice."""
    if by_bins is None:
        return
    if isinstance(by_bins, bool) or not isinstance(by_bins, (int, np.integer)) or not 1 <= by_bins <= MAX_BY_BINS:
        raise UsageError(lambda o: f"option {o} must be a whole number of bins from 1 to {MAX_BY_BINS:,}; got "
                                   f"{by_bins!r}.", params=["by_bins"])
    if by_bins > limit:
        raise UsageError(lambda o, m: f"option {o} asks for {int(by_bins):,} bins, more than option {m} allows "
                                      f"({limit:,}): each bin is a slice. Ask for fewer bins or raise {m}.",
                         params=["by_bins", option])


def bin_edges(values: np.ndarray, bins: int, kind: str) -> tuple[float, ...]:
    """Edges of ``bins`` bins over the finite (sampled) values: equal width between min and max, or quantiles
    (repeated quantiles merged); ``()`` without a finite value (infinities and NaN are not binned here)."""
    v = values[np.isfinite(values)]
    if v.size == 0:
        return ()
    if kind == "uniform":
        lo, hi = float(v.min()), float(v.max())
        return tuple(float(x) for x in np.linspace(lo, hi, bins + 1)) if hi > lo else (lo, hi)
    q = np.unique(np.quantile(v, np.linspace(0.0, 1.0, bins + 1)))
    return tuple(float(x) for x in q) if q.size > 1 else (float(q[0]), float(q[0]))


def slice_order(keys: Sequence[tuple[Any, ...]], columns: Sequence[str] = (),
                binning: Mapping[str, Any] | None = None) -> list[int]:
    """The indices of the slices ``keys`` (value tuples of ``columns``) in THE order slices are shown: by value
    (numbers before text, each in its own order), the bins of a binned column (``binning``: column →
    :class:`SliceBinning` or its ``to_dict()``) in numeric order, :data:`MISSING` last. Values that do not
    compare (mixed types in one column) are ordered by their text.

    >>> b = {"n": SliceBinning("n", "quantile", (9.0, 40.0, 109.0, 837.0))}
    >>> keys = [("[109, 837]",), ("[40, 109)",), (MISSING,), ("[9, 40)",)]
    >>> [keys[i][0] for i in slice_order(keys, ["n"], b)]
    ['[9, 40)', '[40, 109)', '[109, 837]', '(missing)']
    """
    ranks = {c: {v: i for i, v in enumerate(SliceBinning.of(b).labels())} for c, b in (binning or {}).items()}
    where = [ranks.get(c) for c in columns]

    def key(k: tuple[Any, ...]) -> tuple[Any, ...]:
        out = []
        for j, v in enumerate(k):
            r = where[j] if j < len(where) else None
            if v == MISSING:
                out.append((True, 0, 0))
            elif r is not None and v in r:
                out.append((False, 0, r[v]))
            else:
                out.append((False, label_kind_rank(v), v if not isinstance(v, float) or not math.isnan(v) else 0))
        return tuple(out)

    try:
        return sorted(range(len(keys)), key=lambda i: key(keys[i]))
    except TypeError:
        return sorted(range(len(keys)), key=lambda i: tuple(label_str(v) for v in keys[i]))


def label_kind_rank(v: Any) -> int:
    return 0 if isinstance(v, (bool, int, float)) else 1
