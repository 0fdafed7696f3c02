"""The variants of a comparison, each an optional typed part of :class:`~clfeval.ops.compare.Compared`: two
systems (:class:`PairPart`), several (:class:`ManyPart`), DeLong's test (:class:`DeLongPart`) and its one-vs-rest
form (:class:`DeLongOvRPart`), non-inferiority (:class:`NonInferiorityPart`) and slices (:class:`SlicedPart`).

A part holds what its variant adds to the fields every comparison has (the systems' names, the metric, the test,
α, the signature, the notes, the engine: on :class:`~clfeval.ops.compare.Compared` itself). Where a variant holds
whole comparisons (the pairs of several systems, the classes of DeLong one-vs-rest, the overall comparison of a
comparison by slice) they are :class:`~clfeval.ops.compare.Compared` too: one type all the way down.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clfeval.core import FrozenDict, FrozenList, freeze
from clfeval.ops.compare._parts import (
    Distribution,
    Interval,
    PairIntervals,
    PhiDelta,
    TestCounts,
    Undefined,
)

if TYPE_CHECKING:
    from clfeval.core import SliceBinning
    from clfeval.ops.compare._result import Compared

__all__ = ["PairPart", "ManyPart", "DeLongPart", "DeLongOvRPart", "NonInferiorityPart", "SliceRow", "SlicedPart"]


def _frozen(obj: object, names: Sequence[str]) -> None:
    """The named list and mapping fields of a frozen part made read-only (lists → FrozenList, dicts → FrozenDict)."""
    for name in names:
        value = getattr(obj, name)
        if isinstance(value, Mapping) and not isinstance(value, FrozenDict):
            object.__setattr__(obj, name, freeze(dict(value)))
        elif isinstance(value, (list, tuple)) and not isinstance(value, FrozenList):
            object.__setattr__(obj, name, freeze(list(value)))


@dataclass(frozen=True)
class PairPart:
    """Two systems A and B compared by a paired test (bootstrap, randomization or McNemar).

    Attributes
    ----------
    n : int
        Test items.
    a, b : float
        M(A) and M(B) on the test set.
    delta : float
        δ = M(A) − M(B).
    p_value : float
        One-sided, H1: A better than B (lower values for a lower-is-better metric).
    hypothesis : str
        The hypotheses in words.
    ci : PairIntervals
        Two-sided bootstrap intervals (estimates) and the test's own one-sided bound.
    details : ResampledCounts or McNemarCounts
        The test's counts (JSON key: the test's name).
    verdict : str
        One plain sentence, judged on ``p_value``.
    distribution : Distribution or None
        The histogram of the replicates (figure data).
    phi_delta : PhiDelta or None
        Count metrics: both systems' classes in the φ–δ diagram.
    """

    n: int
    a: float
    b: float
    delta: float
    p_value: float
    hypothesis: str
    ci: PairIntervals
    details: TestCounts
    verdict: str
    distribution: Distribution | None = field(default=None, repr=False)
    phi_delta: PhiDelta | None = field(default=None, repr=False)


@dataclass(frozen=True)
class ManyPart:
    """Several systems compared pairwise (every pair, or each against a baseline), Holm-adjusted.

    Attributes
    ----------
    baseline : str or None
        The system every other one is compared with (as B); None: every pair, A the better observed score.
    scores : Mapping[str, float]
        Each system's metric on the test set.
    comparisons : Sequence[Compared]
        One two-system comparison (kind ``pair``) per pair; A is the system tested for being better.
    p_adjusted : Sequence[float]
        Holm–Bonferroni adjusted p-values, in the order of ``comparisons``.
    significant : Sequence[bool]
        Adjusted p < α.
    verdicts : Sequence[str]
        One sentence per comparison, judged on the adjusted p.
    adjustment : str
        ``holm``.
    """

    baseline: str | None
    scores: Mapping[str, float]
    comparisons: Sequence[Compared]
    p_adjusted: Sequence[float]
    significant: Sequence[bool]
    verdicts: Sequence[str]
    adjustment: str = "holm"

    def __post_init__(self) -> None:
        _frozen(self, ("scores", "comparisons", "p_adjusted", "significant", "verdicts"))


@dataclass(frozen=True)
class DeLongPart:
    """DeLong's test of two correlated ROC-AUCs (the same items, the same positive class).

    Attributes
    ----------
    positive : str
        The class ranked.
    n_positive, n_negative : int
        m and n.
    auc_a, auc_b : float
        The two ROC-AUCs.
    var_a, var_b, covariance : float
        The entries of S = S10/m + S01/n (NaN when undefined).
    delta, var_delta, se_delta : float
        θ_A − θ_B, its variance S_AA + S_BB − 2 S_AB and standard error.
    z : float
        delta / se_delta.
    p_value : float
        The p-value of ``alternative``.
    p_value_one_sided, p_value_two_sided : float
        1 − Φ(z) and 2(1 − Φ(|z|)).
    alternative : str
        ``greater`` (H1 θ_A > θ_B) or ``two-sided``.
    hypothesis : str
        The hypotheses in words.
    level : float
        Confidence level of the intervals.
    ci_a, ci_b, ci_delta : Interval
        Wald intervals (AUCs truncated to [0, 1], δ to [−1, 1]).
    ci_method : str
        How the intervals are made, in words.
    truncated : Mapping[str, bool]
        ``a``, ``b``, ``delta``: whether a bound was cut.
    verdict : str
        One plain sentence, judged on ``p_value``.
    undefined : Sequence[Undefined]
        The undefined values and why.
    """

    positive: str
    n_positive: int
    n_negative: int
    auc_a: float
    auc_b: float
    var_a: float
    var_b: float
    covariance: float
    delta: float
    var_delta: float
    se_delta: float
    z: float
    p_value: float
    p_value_one_sided: float
    p_value_two_sided: float
    alternative: str
    hypothesis: str
    level: float
    ci_a: Interval
    ci_b: Interval
    ci_delta: Interval
    ci_method: str
    truncated: Mapping[str, bool]
    verdict: str
    undefined: Sequence[Undefined] = ()

    def __post_init__(self) -> None:
        _frozen(self, ("truncated", "undefined"))

    @property
    def correlation(self) -> float:
        """S_AB / √(S_AA·S_BB) (NaN when a variance is 0 or undefined)."""
        den = math.sqrt(self.var_a * self.var_b) if self.var_a > 0 and self.var_b > 0 else math.nan
        return self.covariance / den


@dataclass(frozen=True)
class DeLongOvRPart:
    """DeLong's test per class, one class against the rest, Holm-adjusted over the classes.

    Attributes
    ----------
    labels : Sequence[str]
        The classes, in the order of the score columns.
    per_class : Mapping[str, Compared or None]
        Each class's DeLong comparison (kind ``delong``); None for a class without a test (no positive or no
        negative item).
    p_holm, p_holm_two_sided : Mapping[str, float]
        Holm-adjusted p-values (of ``alternative``, and two-sided) over the classes with a defined p (NaN for the
        others).
    alternative : str
        ``greater`` or ``two-sided``.
    verdicts : Mapping[str, str]
        One sentence per class with a test, judged on ``p_holm``.
    undefined : Sequence[Undefined]
        The classes without a test and why.
    adjustment : str
        ``holm``.
    """

    labels: Sequence[str]
    per_class: Mapping[str, Compared | None]
    p_holm: Mapping[str, float]
    p_holm_two_sided: Mapping[str, float]
    alternative: str
    verdicts: Mapping[str, str]
    undefined: Sequence[Undefined] = ()
    adjustment: str = "holm"

    def __post_init__(self) -> None:
        _frozen(self, ("labels", "per_class", "p_holm", "p_holm_two_sided", "verdicts", "undefined"))

    def rejected(self, alpha: float) -> bool:
        """Every class with a defined test rejects its null after Holm's adjustment (and at least one has one)."""
        defined = [lab for lab in self.labels if self.per_class[lab] is not None and math.isfinite(self.p_holm[lab])]
        return bool(defined) and all(self.p_holm[lab] < alpha for lab in defined)


@dataclass(frozen=True)
class NonInferiorityPart:
    """The paired-bootstrap non-inferiority test of A (new) against B (old) with a margin.

    Attributes
    ----------
    n : int
        Test items.
    a, b, delta : float
        M(A), M(B) and δ = M(A) − M(B).
    margin : float
        m ≥ 0, in the metric's units.
    bound : float
        The one-sided (1 − α) basic bootstrap bound of δ (lower for a higher-is-better metric).
    bound_method : str
        How the bound is made, in words.
    threshold : float
        2δ + m (2δ − m when lower is better).
    count : int
        Replicates at or beyond the threshold.
    p_value : float
        count / b, for H0 "A is worse than B by the margin or more".
    hypothesis : str
        The hypotheses in words.
    verdict : str
        One plain sentence.
    distribution : Distribution or None
        The histogram of the replicates (figure data).
    """

    n: int
    a: float
    b: float
    delta: float
    margin: float
    bound: float
    bound_method: str
    threshold: float
    count: int
    p_value: float
    hypothesis: str
    verdict: str
    distribution: Distribution | None = field(default=None, repr=False)


@dataclass(frozen=True)
class SliceRow:
    """A against B within one slice.

    Attributes
    ----------
    slice : str
        The slice's name (``value``, or ``a=x, b=y`` over several columns).
    key : Mapping[str, str]
        Column → the slice's value, as text.
    n : int
        Items in the slice.
    small : bool
        Fewer than ``min_slice`` items: compared, not tested.
    a, b, delta : float or None
        M(A), M(B) and δ in the slice (None for an empty slice).
    p : float or None
        The one-sided p (None for a small or empty slice).
    ci : PairIntervals or None
        The slice's intervals (None for an empty slice).
    p_holm, p_by : float or None
        The p adjusted across the tested slices (Holm, Benjamini–Yekutieli); None where not tested.
    significant : bool or None
        Holm-adjusted p < α; None where not tested.
    """

    slice: str
    key: Mapping[str, str]
    n: int
    small: bool
    a: float | None = None
    b: float | None = None
    delta: float | None = None
    p: float | None = None
    ci: PairIntervals | None = None
    p_holm: float | None = None
    p_by: float | None = None
    significant: bool | None = None

    def __post_init__(self) -> None:
        _frozen(self, ("key",))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"slice": self.slice, "key": dict(self.key), "n": self.n, "small": self.small,
                                  "a": self.a, "b": self.b, "delta": self.delta, "p": self.p}
        if self.ci is not None:
            out["ci"] = self.ci.to_dict()
        if self.p_holm is not None:
            out.update(p_holm=self.p_holm, p_by=self.p_by, significant=self.significant)
        return out


@dataclass(frozen=True)
class SlicedPart:
    """A paired comparison overall and within every slice (``compare(..., by=...)``).

    Attributes
    ----------
    by : Sequence[str]
        The slice columns.
    overall : Compared
        The comparison over every item (kind ``pair``).
    slices : Sequence[SliceRow]
        One row per slice, in sorted order.
    simpson : str or None
        The sentence naming Simpson's paradox (A better overall, B in every slice, or the reverse), else None.
    min_slice : int
        Slices with fewer items are compared, not tested.
    binning : Sequence[SliceBinning]
        The bins of numeric ``by`` columns.
    """

    by: Sequence[str]
    overall: Compared
    slices: Sequence[SliceRow]
    simpson: str | None
    min_slice: int
    binning: Sequence[SliceBinning] = ()

    def __post_init__(self) -> None:
        _frozen(self, ("by", "slices", "binning"))
