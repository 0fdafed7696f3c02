"""The typed pieces of a comparison's result (:class:`~clfeval.ops.compare.Compared`): intervals, the test's own
bound, the counts of each test, the histogram of the replicates, the φ–δ points, the reasons of undefined values.

Each is a frozen dataclass of plain fields whose ``to_dict()`` is its JSON, exactly as the comparison's JSON lays
it out. Nothing here computes a statistic: the code that runs the tests (:mod:`clfeval.significance`) builds them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from clfeval.core import FrozenDict, freeze

__all__ = ["Interval", "Distribution", "TestBound", "BcaIntervals", "PairIntervals", "ResampledCounts",
           "McNemarCounts", "TestCounts", "PhiDeltaPoint", "PhiDelta", "Undefined", "interval", "as_float",
           "as_int", "as_str", "interval_or_none"]

#: A two-sided interval ``(low, high)`` (NaN where undefined); ``[low, high]`` in the JSON.
Interval = tuple[float, float]


def as_float(x: object) -> float:
    """A JSON number as a float (None: undefined, NaN)."""
    if x is None:
        return math.nan
    if isinstance(x, (int, float, str)):
        return float(x)
    raise TypeError(f"expected a number; got {type(x).__name__}")


def as_int(x: object) -> int:
    """A JSON whole number as an int."""
    if isinstance(x, (int, float, str)) and not isinstance(x, bool):
        return int(x)
    raise TypeError(f"expected a whole number; got {type(x).__name__}")


def as_str(x: object) -> str:
    """A JSON string as a str."""
    if isinstance(x, str):
        return x
    raise TypeError(f"expected text; got {type(x).__name__}")


def interval(x: object) -> Interval:
    """``[low, high]`` (a list or tuple of two numbers) as an :data:`Interval`."""
    if isinstance(x, (list, tuple)) and len(x) == 2:
        return as_float(x[0]), as_float(x[1])
    raise TypeError(f"expected [low, high]; got {x!r}")


def interval_or_none(x: object) -> Interval | None:
    """An interval, or None where it is undefined (BCa without a jackknife)."""
    return None if x is None else interval(x)


@dataclass(frozen=True)
class Distribution:
    """The histogram of a comparison's resampling replicates (figure data: ``clfeval.plots.bootstrap``).

    Attributes
    ----------
    kind : str
        ``bootstrap`` (replicates of δ on virtual test sets) or ``randomization`` (δ after random swaps).
    delta : float
        The observed δ(x) = M(A) − M(B).
    threshold : float
        Where the p-value's tail starts: 2δ(x) (bootstrap), δ(x) (randomization), 2δ(x) ± margin.
    count_beyond : int
        The exact count of replicates at or beyond the threshold (the p-value's numerator).
    samples : int
        Replicates drawn.
    undefined : int
        Replicates with an undefined metric (not binned).
    edges : tuple of float
        The bin edges (one more than ``counts``; empty when no replicate is finite).
    counts : tuple of int
        Replicates per bin.
    tail : str or None
        ``above`` (higher is better: the tail at or above the threshold) or ``below``; None when not given.
    threshold_label : str or None
        How the threshold is named in a figure (non-inferiority: ``2δ(x) + margin``); None: ``2δ(x)``.
    """

    kind: str
    delta: float
    threshold: float
    count_beyond: int
    samples: int
    undefined: int
    edges: tuple[float, ...]
    counts: tuple[int, ...]
    tail: str | None = None
    threshold_label: str | None = None

    @classmethod
    def of(cls, d: Mapping[str, object]) -> Distribution:
        """The histogram of its JSON (``to_dict()``, or a comparison's ``distribution`` read from a file)."""
        edges = d.get("edges") or ()
        counts = d.get("counts") or ()
        tail, label = d.get("tail"), d.get("threshold_label")
        return cls(as_str(d["kind"]), as_float(d["delta"]), as_float(d["threshold"]), as_int(d["count_beyond"]),
                   as_int(d["samples"]), as_int(d.get("undefined", 0)),
                   tuple(as_float(e) for e in edges) if isinstance(edges, (list, tuple)) else (),
                   tuple(as_int(c) for c in counts) if isinstance(counts, (list, tuple)) else (),
                   None if tail is None else as_str(tail), None if label is None else as_str(label))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "delta": self.delta, "threshold": self.threshold,
                                  "count_beyond": self.count_beyond, "samples": self.samples,
                                  "undefined": self.undefined, "edges": list(self.edges), "counts": list(self.counts)}
        if self.tail is not None:
            out["tail"] = self.tail
        if self.threshold_label is not None:
            out["threshold_label"] = self.threshold_label
        return out


@dataclass(frozen=True)
class TestBound:
    """A paired test's own one-sided bound of δ: the interval the test inverts (> 0 for a lower bound exactly when
    p < α; :mod:`clfeval.significance._bounds`).

    Attributes
    ----------
    side : str
        ``lower`` (higher is better) or ``upper``.
    value : float
        The bound.
    level : float
        1 − α.
    method : str
        ``basic bootstrap`` or ``McNemar's exact test inverted``.
    matches_test : bool
        The bound and the test's verdict agree by construction.
    definition : str
        The formula in words.
    """

    __test__ = False  # not a pytest test class

    side: str
    value: float
    level: float
    method: str
    matches_test: bool
    definition: str

    def to_dict(self) -> dict[str, object]:
        return {"side": self.side, "value": self.value, "level": self.level, "method": self.method,
                "matches_test": self.matches_test, "definition": self.definition}


@dataclass(frozen=True)
class BcaIntervals:
    """The BCa (bias-corrected and accelerated) intervals of δ, M(A) and M(B); each None where undefined.

    Attributes
    ----------
    delta, a, b : Interval or None
        ``(low, high)`` of δ, of A's and of B's metric.
    """

    delta: Interval | None
    a: Interval | None
    b: Interval | None

    def to_dict(self) -> dict[str, object]:
        return {k: None if v is None else list(v) for k, v in (("delta", self.delta), ("a", self.a), ("b", self.b))}


@dataclass(frozen=True)
class PairIntervals:
    """The intervals of a paired comparison: two-sided bootstrap estimates and the test's own one-sided bound.

    Attributes
    ----------
    level : float
        Confidence level of the two-sided intervals.
    method : str
        ``percentile`` (``delta``, ``a``, ``b``); BCa beside them.
    delta, a, b : Interval
        Percentile intervals of δ, M(A) and M(B).
    bca : BcaIntervals or None
        The same three as BCa intervals (None where too costly).
    estimate : str
        ``bca`` or ``percentile``: the two-sided interval of δ shown first.
    test_bound : TestBound or None
        The test's own one-sided bound of δ (None for randomization, which has none).
    two_sided : str
        What the two-sided intervals are, in words.
    """

    level: float
    method: str
    delta: Interval
    a: Interval
    b: Interval
    bca: BcaIntervals | None
    estimate: str
    test_bound: TestBound | None
    two_sided: str

    def to_dict(self) -> dict[str, object]:
        return {"level": self.level, "method": self.method, "delta": list(self.delta), "a": list(self.a),
                "b": list(self.b), "bca": None if self.bca is None else self.bca.to_dict(), "estimate": self.estimate,
                "test_bound": None if self.test_bound is None else self.test_bound.to_dict(),
                "two_sided": self.two_sided}


@dataclass(frozen=True)
class ResampledCounts:
    """The counts of a resampling test (JSON key ``bootstrap`` or ``randomization``).

    Attributes
    ----------
    count : int
        Bootstrap: replicates with δ(x^(i)) ≥ 2δ(x); randomization: random swaps with δ_perm ≥ δ(x).
    threshold : float
        2δ(x) (bootstrap) or δ(x) (randomization).
    """

    count: int
    threshold: float

    def to_dict(self) -> dict[str, object]:
        return {"count": self.count, "threshold": self.threshold}


@dataclass(frozen=True)
class McNemarCounts:
    """McNemar's exact test on the discordant items (JSON key ``mcnemar``).

    Attributes
    ----------
    n_ab, n_ba : int
        Items A got right and B wrong, and the reverse.
    p_value_two_sided : float
        The two-sided exact p.
    chi2 : float
        χ² with continuity correction (NaN without discordant items).
    chi2_p_value : float
        Its two-sided p (1 degree of freedom).
    """

    n_ab: int
    n_ba: int
    p_value_two_sided: float
    chi2: float
    chi2_p_value: float

    def to_dict(self) -> dict[str, object]:
        return {"n_ab": self.n_ab, "n_ba": self.n_ba, "p_value_two_sided": self.p_value_two_sided,
                "chi2": self.chi2, "chi2_p_value": self.chi2_p_value}


#: The counts of a paired test: resampled (bootstrap, randomization) or McNemar's.
TestCounts = ResampledCounts | McNemarCounts


@dataclass(frozen=True)
class PhiDeltaPoint:
    """One class of one system in Armano's φ–δ diagram.

    Attributes
    ----------
    phi, delta : float
        φ and δ of the class (NaN where undefined).
    """

    phi: float
    delta: float

    def to_dict(self) -> dict[str, float]:
        return {"phi": self.phi, "delta": self.delta}


@dataclass(frozen=True)
class PhiDelta:
    """Every class of the compared systems in the φ–δ diagram (figure data, aggregated counts only).

    Attributes
    ----------
    labels : tuple of str
        The classes, in the table's order.
    systems : Mapping[str, Mapping[str, PhiDeltaPoint]]
        System name → class → its point (read-only).
    """

    labels: tuple[str, ...]
    systems: Mapping[str, Mapping[str, PhiDeltaPoint]] = field(default_factory=FrozenDict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "systems", freeze({n: dict(p) for n, p in self.systems.items()}))

    @classmethod
    def of(cls, d: Mapping[str, object]) -> PhiDelta:
        """The points of their JSON (``{"labels": [...], "systems": {name: {label: {"phi", "delta"}}}}``)."""
        labels = d.get("labels") or ()
        systems = d.get("systems") or {}
        if not isinstance(labels, (list, tuple)) or not isinstance(systems, Mapping):
            raise TypeError("phi_delta needs labels (a list) and systems (a mapping)")
        out: dict[str, dict[str, PhiDeltaPoint]] = {}
        for name, points in systems.items():
            if isinstance(points, Mapping):
                out[str(name)] = {str(k): PhiDeltaPoint(as_float(p.get("phi")), as_float(p.get("delta")))
                                  for k, p in points.items() if isinstance(p, Mapping)}
        return cls(tuple(str(x) for x in labels), out)

    def to_dict(self) -> dict[str, object]:
        return {"labels": list(self.labels),
                "systems": {n: {k: p.to_dict() for k, p in pts.items()} for n, pts in self.systems.items()}}


@dataclass(frozen=True)
class Undefined:
    """A value that is undefined, and why.

    Attributes
    ----------
    field : str
        The field (``var_a``, ``p_value``, ``per_class.LABEL``, ...).
    reason : str
        Why, in one sentence.
    """

    field: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "reason": self.reason}


def undefined_list(items: Sequence[Undefined]) -> list[dict[str, str]]:
    return [u.to_dict() for u in items]
