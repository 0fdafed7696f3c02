"""Binned scores: per-class score histograms that add like tables, ROC-AUC with its exact error bound.

Opt-in and approximate, said so in every result. Scores are cut into ``B``
bins (:class:`Binning`: ``uniform`` — equal width over a range — or
``quantile`` — edges at quantiles of the scores); a ranking becomes a 2×B
count table, positives and negatives per bin (:class:`ScoreHistogram`), which
adds across batches, files and partitions exactly like a confusion table.

From the table:

* **ROC-AUC** with ties inside a bin counted one half: the Mann–Whitney
  statistic of the items with their scores replaced by their bins. Its error
  against the exact AUC is at most **half the share of positive–negative
  pairs that fall in a common bin**, ``Σ_b P_b·N_b / (2·P·N)``: a pair in
  different bins is ordered exactly, a pair in one bin is counted ½ where the
  exact AUC counts 0, ½ or 1. The bound is exact (rounded up), computed from
  the same table, and printed beside the AUC.
* **Average precision, the curves and the sweep at the bin edges**: every cut
  is a bin's lower edge (the lowest score observed for the first bin), so
  they are those of the binned ranking, not of the scores — said so in the output.
* **A bootstrap that costs O(B), not O(n)**: a replicate of the items is a
  multinomial draw of the 2×B table (for a paired comparison, of the occupied
  cells of the joint (gold, bin of A, bin of B) table, :class:`BinnedJoint`).

Quantile edges need a first pass: :class:`RowSample` keeps the scores of the
rows whose hashed row number falls below a level that halves whenever the
sample outgrows its cap. The sample depends only on the row numbers, not on
how rows were split into batches or partitions (samples merge exactly), so
local and Dask runs cut the same edges. Uniform edges need the score range:
given (probabilities: [0, 1]) or from a first pass (:class:`ScoreRange`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from clfeval.core import Display, ExactSum, RankingSummary, roc_auc_of
from clfeval.errors import DataError, UsageError
from clfeval.scores._curves import PairCounts, ranking_signature
from clfeval.scores._sweep import Cuts, Sweep, sweep_of
from clfeval.stats import draw_cells

__all__ = ["BINNINGS", "MAX_BINS", "Binning", "uniform_binning", "quantile_binning", "RowSample", "ScoreRange",
           "ScoreHistogram", "histogram_auc", "BinnedJoint", "BINNED_NOTE", "binning_of"]

BINNINGS = ("uniform", "quantile")
#: Most bins a histogram may have (the joint table of a comparison has up to 2·B² cells).
MAX_BINS = 1_000_000
BINNED_NOTE = ("Binned scores (approximate, asked for): ROC-AUC counts the pairs inside a bin one half, and differs "
               "from the exact AUC by at most the bound shown; average precision, the curves and the sweep are "
               "those of the bins (cuts at the bin edges), not of the scores.")


def _check_bins(bins: Any) -> int:
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or not 2 <= int(bins) <= MAX_BINS:
        raise UsageError(lambda name: f"option {name} must be an integer from 2 to {MAX_BINS}; got {bins!r}.",
                         params=["score_bins"])
    return int(bins)


@dataclass(frozen=True)
class Binning:
    """How scores are binned: interior edges ``cuts`` (strictly increasing); bin b holds
    ``cuts[b-1] ≤ score < cuts[b]`` (bin 0 everything below ``cuts[0]``, the last bin everything from ``cuts[-1]``).

    >>> b = uniform_binning(4, 0.0, 1.0)
    >>> b.cuts.tolist(), b.assign(np.array([0.0, 0.25, 0.99, 1.0])).tolist()
    ([0.25, 0.5, 0.75], [0, 1, 3, 3])
    """

    kind: str
    cuts: np.ndarray = field(repr=False)
    requested: int = 0

    @property
    def bins(self) -> int:
        return int(self.cuts.shape[0]) + 1

    def assign(self, scores: np.ndarray) -> np.ndarray:
        """The bin of each score."""
        return np.searchsorted(self.cuts, np.asarray(scores, dtype=np.float64), side="right")

    def same(self, other: Binning) -> bool:
        return self.kind == other.kind and np.array_equal(self.cuts, other.cuts)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "bins": self.bins, "requested": self.requested,
                "edges": [float(x) for x in self.cuts]}


def uniform_binning(bins: int, lo: float, hi: float) -> Binning:
    """``bins`` bins of equal width over [lo, hi] (scores outside fall in the first or last bin)."""
    b = _check_bins(bins)
    lo, hi = float(lo), float(hi)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise DataError("uniform score bins need a finite score range; no finite score was seen.")
    if hi <= lo:
        hi = lo + 1.0  # one distinct score: any width puts it in one bin
    cuts = np.unique(lo + (hi - lo) * (np.arange(1, b) / b))
    return Binning("uniform", cuts, b)


def quantile_binning(sample: np.ndarray, bins: int) -> Binning:
    """Edges at the ``i/bins`` quantiles of a score sample (repeated edges merge: fewer bins under ties).

    Examples
    --------
    >>> quantile_binning(np.arange(100.0), 4).cuts.tolist()
    [25.0, 50.0, 75.0]
    """
    b = _check_bins(bins)
    s = np.sort(np.asarray(sample, dtype=np.float64))
    if s.size == 0:
        return Binning("quantile", np.empty(0), b)
    at = (np.arange(1, b) * s.size) // b
    cuts = np.unique(s[at])
    cuts = cuts[cuts > s[0]]  # a cut at the minimum would leave the first bin empty
    return Binning("quantile", cuts, b)


# --- first passes: a sample that merges exactly, the range --------------------------------

def _mix(rows: np.ndarray, seed: int) -> np.ndarray:
    """splitmix64 of the row numbers (uint64 arithmetic wraps): a fixed pseudo-random key per row."""
    z = rows.astype(np.uint64) + np.uint64((0x9E3779B97F4A7C15 + seed) % (1 << 64))
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


class RowSample:
    """A sample of scores by hashed row number, of at most ``cap`` items, that merges exactly.

    Row r is kept iff ``hash(r) < 2^64 / 2^level``; the level rises by one
    whenever the sample outgrows ``cap``. The kept set depends only on which
    row numbers were seen, so batches, files and partitions (each given its
    first global row number) give the same sample in any split and order.

    Examples
    --------
    >>> a, b = RowSample(cap=50), RowSample(cap=50)
    >>> a.add(0, np.arange(100.0)); b.add(0, np.arange(60.0)); c = RowSample(cap=50); c.add(60, np.arange(60.0, 100.0))
    >>> np.array_equal(a.values(), b.merge(c).values())
    True
    """

    def __init__(self, cap: int = 1 << 18, *, seed: int = 0) -> None:
        self.cap = int(cap)
        self.seed = int(seed)
        self.level = 0
        self._keys = np.empty(0, dtype=np.uint64)
        self._vals = np.empty(0)

    def _limit(self) -> np.uint64:
        return np.uint64(0xFFFFFFFFFFFFFFFF >> self.level)

    def _shrink(self) -> None:
        while self._keys.shape[0] > self.cap:
            self.level += 1
            keep = self._keys <= self._limit()
            self._keys, self._vals = self._keys[keep], self._vals[keep]

    def add(self, first_row: int, scores: np.ndarray) -> None:
        """Scores of the rows ``first_row, first_row + 1, ...``."""
        s = np.asarray(scores, dtype=np.float64).ravel()
        if s.size == 0:
            return
        keys = _mix(np.arange(first_row, first_row + s.size, dtype=np.uint64), self.seed)
        keep = keys <= self._limit()
        self._keys = np.concatenate([self._keys, keys[keep]])
        self._vals = np.concatenate([self._vals, s[keep]])
        self._shrink()

    def merge(self, other: RowSample) -> RowSample:
        """The sample of both (of disjoint rows), as if one had seen every row."""
        out = RowSample(self.cap, seed=self.seed)
        out.level = max(self.level, other.level)
        keys = np.concatenate([self._keys, other._keys])
        vals = np.concatenate([self._vals, other._vals])
        keep = keys <= out._limit()
        out._keys, out._vals = keys[keep], vals[keep]
        out._shrink()
        return out

    def values(self) -> np.ndarray:
        """The sampled scores, sorted."""
        return np.sort(self._vals)


@dataclass(frozen=True)
class ScoreRange:
    """The lowest and highest score seen (adds: min and max); empty is (+inf, −inf)."""

    lo: float = math.inf
    hi: float = -math.inf

    @classmethod
    def of(cls, scores: np.ndarray) -> ScoreRange:
        s = np.asarray(scores, dtype=np.float64)
        return cls(float(s.min()), float(s.max())) if s.size else cls()

    def __add__(self, other: ScoreRange) -> ScoreRange:
        return ScoreRange(min(self.lo, other.lo), max(self.hi, other.hi))


def binning_of(scores: Any, *, bins: int, kind: str = "quantile", cap: int = 1 << 18) -> Binning:
    """The first pass of the binned mode: the bins of checked score arrays given batch by batch, in row order.

    ``quantile`` cuts at the quantiles of the :class:`RowSample` of every
    score (the rows numbered in order, so any split into batches gives the
    same edges, as :func:`clfeval.engines.dask.binning` does); ``uniform`` cuts the
    range from the lowest to the highest score into equal widths.

    >>> binning_of([np.array([0.1, 0.2]), np.array([0.9])], bins=2, kind="uniform").cuts.tolist()
    [0.5]
    """
    if kind not in BINNINGS:
        raise UsageError(lambda name: f"option {name} must be one of {', '.join(BINNINGS)}; got {kind!r}.",
                         params=["score_binning"])
    _check_bins(bins)
    if kind == "uniform":
        rng = ScoreRange()
        for s in scores:
            rng = rng + ScoreRange.of(s)
        return uniform_binning(bins, rng.lo, rng.hi)
    sample = RowSample(cap)
    row = 0
    for s in scores:
        sample.add(row, s)
        row += int(np.asarray(s).size)
    return quantile_binning(sample.values(), bins)


# --- the histogram -------------------------------------------------------------------------

def histogram_auc(pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """ROC-AUC of stacks of per-bin counts ``(..., B)``, ties inside a bin counted ½ (NaN without pairs).

    Integer arithmetic while the pair counts fit (then each value is correctly
    rounded, as :func:`~clfeval.scores._curves.roc_auc_of`), float64 beyond.

    >>> histogram_auc(np.array([0, 1, 2]), np.array([2, 1, 0])).item()  # of 9 pairs: 8 above, 1 tied → 8.5/9
    0.9444444444444444
    """
    pos = np.asarray(pos)
    neg = np.asarray(neg)
    n = int(pos.sum(axis=-1).max(initial=0)) + int(neg.sum(axis=-1).max(initial=0))
    dt = np.int64 if n < (1 << 26) else np.float64  # 2·P·N < 2^53: exact in float64 too
    p = pos.astype(dt)
    q = neg.astype(dt)
    below = np.sum(p * (np.cumsum(q, axis=-1) - q), axis=-1)
    tied = np.sum(p * q, axis=-1)
    pairs = p.sum(axis=-1) * q.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (2 * below + tied) / (2 * pairs).astype(np.float64)
    return np.where(pairs > 0, out, np.nan)


@dataclass(frozen=True, eq=False)
class ScoreHistogram(PairCounts, Display):
    """Positives and negatives per score bin (a 2×B table), with the lowest and highest score seen.

    Histograms over the same binning add (``+``). Build one with
    :meth:`of` per batch and add them up.

    Examples
    --------
    >>> b = uniform_binning(2, 0.0, 1.0)
    >>> h = ScoreHistogram.of(b, np.array([True, True, False, False]), np.array([0.9, 0.4, 0.3, 0.6]))
    >>> h.pos.tolist(), h.neg.tolist(), h.roc_auc, h.auc_error_bound
    ([1, 1], [1, 1], 0.5, 0.25)
    """

    binning: Binning
    pos: np.ndarray = field(repr=False)
    neg: np.ndarray = field(repr=False)
    score_range: ScoreRange = ScoreRange()
    positive: str = "1"

    @classmethod
    def of(cls, binning: Binning, is_positive: Any, scores: Any, *, positive: str = "1") -> ScoreHistogram:
        y = np.asarray(is_positive, dtype=bool)
        s = np.asarray(scores, dtype=np.float64)
        b = binning.assign(s)
        return cls(binning, np.bincount(b[y], minlength=binning.bins).astype(np.int64),
                   np.bincount(b[~y], minlength=binning.bins).astype(np.int64), ScoreRange.of(s), str(positive))

    @classmethod
    def empty(cls, binning: Binning, *, positive: str = "1") -> ScoreHistogram:
        z = np.zeros(binning.bins, dtype=np.int64)
        return cls(binning, z, z.copy(), ScoreRange(), str(positive))

    def __add__(self, other: ScoreHistogram) -> ScoreHistogram:
        if not self.binning.same(other.binning):
            raise DataError("score histograms over different bin edges do not add; bin every part with one binning.")
        return ScoreHistogram(self.binning, self.pos + other.pos, self.neg + other.neg,
                              self.score_range + other.score_range, self.positive)

    @property
    def n_positive(self) -> int:
        return int(self.pos.sum())

    @property
    def n_negative(self) -> int:
        return int(self.neg.sum())

    def _pairs(self) -> tuple[int, int]:
        """(pairs with the positive in a higher bin, pairs in a common bin), exact Python integers."""
        lower = np.cumsum(self.neg) - self.neg
        if self.n < (1 << 31):  # every product and sum below 2^62
            return int(np.dot(self.pos, lower)), int(np.dot(self.pos, self.neg))
        below = sum(int(p) * int(c) for p, c in zip(self.pos.tolist(), lower.tolist(), strict=True) if p)
        tied = sum(int(p) * int(q) for p, q in zip(self.pos.tolist(), self.neg.tolist(), strict=True) if p and q)
        return below, tied

    @property
    def roc_auc(self) -> float:
        """ROC-AUC of the binned ranking (ties inside a bin count ½); NaN without pairs."""
        below, tied = self._pairs()
        return roc_auc_of(below, tied, self.pairs)

    @property
    def auc_error_bound(self) -> float:
        """Half the share of positive–negative pairs in a common bin, rounded up: |binned − exact AUC| ≤ this."""
        pairs = self.pairs
        if pairs == 0:
            return math.nan
        _, tied = self._pairs()
        q = tied / (2 * pairs)
        return math.nextafter(q, math.inf) if Fraction(q) < Fraction(tied, 2 * pairs) else q

    @property
    def average_precision(self) -> float:
        """Average precision of the binned ranking (cuts at the bin edges); NaN without positives."""
        P = self.n_positive
        if P == 0:
            return math.nan
        m = self.pos > 0
        tp = np.cumsum(self.pos[::-1])[::-1][m]  # positives at or above each bin
        fp = np.cumsum(self.neg[::-1])[::-1][m]
        return ExactSum().add(tp / (tp + fp), self.pos[m]).divided(P)

    @property
    def cuts(self) -> Cuts:
        """A cut at every non-empty bin's lower edge (the lowest score seen for the first bin), decreasing."""
        occupied = np.flatnonzero((self.pos + self.neg) > 0)[::-1]
        lower = np.concatenate([[self.score_range.lo], self.binning.cuts])
        tp = np.cumsum(self.pos[::-1])[::-1]
        fp = np.cumsum(self.neg[::-1])[::-1]
        return Cuts(lower[occupied], tp[occupied].astype(np.int64), fp[occupied].astype(np.int64))

    def sweep(self, **kwargs: Any) -> Sweep:
        """The threshold sweep at the bin edges."""
        return sweep_of(self.cuts, self.n_positive, self.n_negative, **kwargs)

    @property
    def summary(self) -> RankingSummary:
        """The ranking summary of the binned ranking (its cuts at the bin edges), with the ``binned`` block."""
        below, tied = self._pairs()
        sig = ranking_signature(self.positive, {"score_bins": self.binning.bins, "score_binning": self.binning.kind})
        binned = {"binning": self.binning.to_dict(), "auc_error_bound": self.auc_error_bound,
                  "pairs_in_common_bin": tied, "exact": False, "note": BINNED_NOTE,
                  "counts": {"positive": self.pos.tolist(), "negative": self.neg.tolist()}}
        how = (f"one point per non-empty bin edge ({self.binning.bins} {self.binning.kind} bins), "
               f"simplified within a pixel")
        return RankingSummary(self.positive, self.n_positive, self.n_negative, below, tied, self.average_precision,
                              n_cuts=int(np.count_nonzero(self.pos + self.neg)), signature=sig, binned=binned,
                              curves_how=how, exact=self)

    def curves(self) -> dict[str, Any]:
        """ROC and PR curves through the cuts at the bin edges, simplified within a pixel."""
        return self.summary.curves()

    def sweep_curves(self, *, beta: float = 1.0) -> dict[str, Any] | None:
        return self.summary.sweep_curves(beta=beta)

    def to_dict(self) -> dict[str, Any]:
        return self.summary.to_dict()

    def bootstrap_auc(self, samples: int, rng: np.random.Generator, *, chunk: int = 1 << 22) -> np.ndarray:
        """ROC-AUC of ``samples`` bootstrap replicates: the 2×B table drawn from a multinomial (cost O(B) each)."""
        cells = np.concatenate([self.neg, self.pos]).astype(np.float64)
        n = self.n
        if n == 0:
            return np.full(samples, np.nan)
        p = cells / n
        out = np.empty(samples)
        step = max(1, chunk // cells.shape[0])
        B = self.binning.bins
        for start in range(0, samples, step):
            c = min(step, samples - start)
            draws = draw_cells(n, p, c, rng)  # every bin, empty ones too: the stream of the dense draw
            out[start:start + c] = histogram_auc(draws[:, B:], draws[:, :B])
        return out


# --- two systems on the same items: the joint table ------------------------------------------

@dataclass(frozen=True, eq=False)
class BinnedJoint:
    """Items counted by (gold positive?, bin of A's score, bin of B's score): the occupied cells only.

    ``keys`` are ``(y·B_A + a)·B_B + b``, sorted and distinct; ``counts`` their
    items. Joint tables over the same binnings add. :meth:`engine` gives the
    count-based resampling engine (:class:`clfeval.stats._resample.CountEngine`)
    whose replicates are multinomial draws of the occupied cells.
    """

    binning_a: Binning
    binning_b: Binning
    keys: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)

    @classmethod
    def of(cls, a: Binning, b: Binning, is_positive: Any, scores_a: Any, scores_b: Any) -> BinnedJoint:
        y = np.asarray(is_positive, dtype=bool).astype(np.int64)
        key = (y * a.bins + a.assign(scores_a)) * b.bins + b.assign(scores_b)
        keys, counts = np.unique(key, return_counts=True)
        return cls(a, b, keys.astype(np.int64), counts.astype(np.int64))

    def __add__(self, other: BinnedJoint) -> BinnedJoint:
        if not (self.binning_a.same(other.binning_a) and self.binning_b.same(other.binning_b)):
            raise DataError("joint score tables over different bin edges do not add.")
        keys = np.concatenate([self.keys, other.keys])
        counts = np.concatenate([self.counts, other.counts])
        u, inv = np.unique(keys, return_inverse=True)
        return BinnedJoint(self.binning_a, self.binning_b, u, np.bincount(inv, weights=counts).astype(np.int64))

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def cells(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(positive?, bin of A, bin of B) of each occupied cell."""
        ba, bb = self.binning_a.bins, self.binning_b.bins
        rest, b = np.divmod(self.keys, bb)
        y, a = np.divmod(rest, ba)
        return y, a, b

    def histograms(self, positive: str = "1") -> tuple[ScoreHistogram, ScoreHistogram]:
        """A's and B's histograms (their marginals; score ranges unknown here)."""
        y, a, b = self.cells()
        out = []
        for binning, idx in ((self.binning_a, a), (self.binning_b, b)):
            pos = np.bincount(idx[y == 1], weights=self.counts[y == 1], minlength=binning.bins).astype(np.int64)
            neg = np.bincount(idx[y == 0], weights=self.counts[y == 0], minlength=binning.bins).astype(np.int64)
            out.append(ScoreHistogram(binning, pos, neg, ScoreRange(), positive))
        return out[0], out[1]

    def engine(self) -> Any:
        """The count-based engine: each system's table is (negatives per bin, positives per bin), 2·B cells."""
        from clfeval.stats import CountEngine

        y, a, b = self.cells()
        size = 2 * max(self.binning_a.bins, self.binning_b.bins)
        half = size // 2

        def value(t: np.ndarray) -> np.ndarray:
            return histogram_auc(t[:, half:], t[:, :half])

        return CountEngine(y * half + a, y * half + b, self.counts, size, value)
