"""The typed parts of a ranking over data sets (:class:`~clfeval.ops.rank._result.RankResult`).

Each part is a frozen dataclass whose fields are, in order, the keys of its JSON (``to_dict()``); ``of(d)`` reads
it back from that JSON. The numbers are computed by :mod:`clfeval.significance._multirank` (Demšar 2006; García &
Herrera 2008; Benavoli et al. 2017), which builds these parts.

>>> p = BayesPair("A", "B", 0.9, 0.08, 0.02, "A against B: undecided at 0.95")
>>> BayesPair.of(p.to_dict()) == p
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from clfeval.core import ItemReads
from clfeval.ops.rank._json import (
    fields_json,
    flag,
    integer,
    items,
    mapping,
    name_groups,
    number,
    optional_text,
    text,
)

__all__ = ["FriedmanTest", "NemenyiTest", "RankPair", "ControlPair", "ControlComparisons", "BayesPair",
           "RankCondition", "RankRequirements"]


class _Part(ItemReads):
    """``to_dict()``: the fields in order, as JSON."""

    __slots__ = ()

    def to_dict(self) -> dict[str, object]:
        return fields_json(self)  # type: ignore[arg-type]  # every subclass is a dataclass


@dataclass(frozen=True)
class FriedmanTest(_Part):
    """The Friedman test and the Iman–Davenport F (Demšar 2006, §3.2.2): H0, every system performs alike.

    Attributes
    ----------
    chi2 : float
        χ²_F = 12N / (k(k+1)) · (Σ_j R_j² − k(k+1)²/4), without a tie correction (Demšar's formula).
    chi2_p_value : float
        Its p-value (χ² with k − 1 df).
    df : int
        k − 1.
    chi2_tie_corrected : float
        χ²_F with the tie correction (as ``scipy.stats.friedmanchisquare``); NaN when undefined.
    chi2_tie_corrected_p_value : float
        Its p-value; NaN when undefined.
    iman_davenport_f : float
        F_F = (N − 1)χ²_F / (N(k − 1) − χ²_F); NaN (undefined: infinite) when every data set ranks the systems
        alike.
    iman_davenport_p_value : float
        Its p-value (0 when F_F is infinite).
    df_f : tuple of (int, int)
        k − 1 and (k − 1)(N − 1).
    rejected : bool
        Whether the Iman–Davenport test rejects H0 at ``alpha``.
    """

    chi2: float
    chi2_p_value: float
    df: int
    chi2_tie_corrected: float
    chi2_tie_corrected_p_value: float
    iman_davenport_f: float
    iman_davenport_p_value: float
    df_f: tuple[int, int]
    rejected: bool

    @classmethod
    def of(cls, d: Mapping[str, object]) -> FriedmanTest:
        """The part of its JSON."""
        a, b = (integer(x) for x in items(d["df_f"]))
        return cls(number(d["chi2"]), number(d["chi2_p_value"]), integer(d["df"]), number(d["chi2_tie_corrected"]),
                   number(d["chi2_tie_corrected_p_value"]), number(d["iman_davenport_f"]),
                   number(d["iman_davenport_p_value"]), (a, b), flag(d["rejected"]))


@dataclass(frozen=True)
class NemenyiTest(_Part):
    """Nemenyi's critical difference: two systems differ when their average ranks differ by at least CD.

    Attributes
    ----------
    q_alpha : float
        q_α, the studentized range quantile of k means (df = ∞) over √2.
    critical_difference : float
        CD = q_α √(k(k+1) / (6N)).
    groups : tuple of tuple of str
        Maximal runs of systems (in rank order) no two of which differ by CD or more (the CD diagram's bars).
    explanation : str
        The rule with its numbers, in words.
    """

    q_alpha: float
    critical_difference: float
    groups: tuple[tuple[str, ...], ...]
    explanation: str

    @classmethod
    def of(cls, d: Mapping[str, object]) -> NemenyiTest:
        """The part of its JSON."""
        return cls(number(d["q_alpha"]), number(d["critical_difference"]), name_groups(d.get("groups")),
                   text(d.get("explanation", "")))


@dataclass(frozen=True)
class RankPair(_Part):
    """A pair of systems, ``a`` ranked better on average than ``b``: the Wilcoxon signed-rank test, its Holm
    adjustment over all pairs, Nemenyi's test and the effect sizes of d = a − b (positive: a better; for a
    lower-is-better score d = b − a).

    Attributes
    ----------
    a, b : str
        The systems, ``a`` the better ranked.
    rank_a, rank_b : float
        Their average ranks.
    rank_difference : float
        rank_b − rank_a (≥ 0).
    wilcoxon_statistic : float
        The signed-rank statistic.
    p_value : float
        Its two-sided p-value (1 when every difference is 0).
    wilcoxon_method : str
        How p was computed: ``exact``, ``permutation``, ``normal``, or ``equal`` (every difference 0).
    p_holm : float
        p Holm-adjusted over all pairs.
    separated : bool
        Whether ``p_holm`` < alpha.
    nemenyi_p : float
        Nemenyi's p-value of the pair.
    nemenyi_separated : bool
        Whether the average ranks differ by at least the critical difference.
    mean_difference, median_difference, hodges_lehmann : float
        The mean and median of d and the Hodges–Lehmann estimate (NaN beyond the float range).
    undefined : str or None
        Why an effect size is undefined, if one is.
    wins, ties, losses : int
        The data sets on which a is better than, equal to, worse than b.
    """

    a: str
    b: str
    rank_a: float
    rank_b: float
    rank_difference: float
    wilcoxon_statistic: float
    p_value: float
    wilcoxon_method: str
    p_holm: float
    separated: bool
    nemenyi_p: float
    nemenyi_separated: bool
    mean_difference: float
    median_difference: float
    hodges_lehmann: float
    undefined: str | None
    wins: int
    ties: int
    losses: int

    @classmethod
    def of(cls, d: Mapping[str, object]) -> RankPair:
        """The part of its JSON."""
        return cls(text(d["a"]), text(d["b"]), number(d["rank_a"]), number(d["rank_b"]),
                   number(d["rank_difference"]), number(d["wilcoxon_statistic"]), number(d["p_value"]),
                   text(d["wilcoxon_method"]), number(d["p_holm"]), flag(d["separated"]), number(d["nemenyi_p"]),
                   flag(d["nemenyi_separated"]), number(d["mean_difference"]), number(d["median_difference"]),
                   number(d["hodges_lehmann"]), optional_text(d.get("undefined")), integer(d["wins"]),
                   integer(d["ties"]), integer(d["losses"]))


@dataclass(frozen=True)
class ControlPair(_Part):
    """One system against the control: Wilcoxon signed-rank test, Holm-adjusted over the k − 1 comparisons,
    and the effect sizes of d = system − control (positive: the system better).

    Attributes
    ----------
    system : str
        The system.
    p_value : float
        The two-sided p-value.
    wilcoxon_method : str
        ``exact``, ``permutation``, ``normal`` or ``equal``.
    p_holm : float
        p Holm-adjusted over the comparisons with the control.
    separated : bool
        Whether ``p_holm`` < alpha.
    mean_difference, median_difference, hodges_lehmann : float
        The effect sizes (NaN beyond the float range).
    undefined : str or None
        Why an effect size is undefined, if one is.
    wins, ties, losses : int
        The data sets on which the system is better than, equal to, worse than the control.
    """

    system: str
    p_value: float
    wilcoxon_method: str
    p_holm: float
    separated: bool
    mean_difference: float
    median_difference: float
    hodges_lehmann: float
    undefined: str | None
    wins: int
    ties: int
    losses: int

    @classmethod
    def of(cls, d: Mapping[str, object]) -> ControlPair:
        """The part of its JSON."""
        return cls(text(d["system"]), number(d["p_value"]), text(d["wilcoxon_method"]), number(d["p_holm"]),
                   flag(d["separated"]), number(d["mean_difference"]), number(d["median_difference"]),
                   number(d["hodges_lehmann"]), optional_text(d.get("undefined")), integer(d["wins"]),
                   integer(d["ties"]), integer(d["losses"]))


@dataclass(frozen=True)
class ControlComparisons(_Part):
    """Every system against a control system (``control=``).

    Attributes
    ----------
    name : str
        The control.
    comparisons : tuple of ControlPair
        Each other system against it.
    explanation : str
        The tests, in words.
    """

    name: str
    comparisons: tuple[ControlPair, ...]
    explanation: str

    @classmethod
    def of(cls, d: Mapping[str, object]) -> ControlComparisons:
        """The part of its JSON."""
        return cls(text(d["name"]), tuple(ControlPair.of(mapping(c)) for c in items(d["comparisons"])),
                   text(d.get("explanation", "")))


@dataclass(frozen=True)
class BayesPair(_Part):
    """The Bayesian signed-rank test of a pair (Benavoli et al. 2017), with a region of practical equivalence.

    Attributes
    ----------
    a, b : str
        The systems.
    p_a_better : float
        P(a better than b by more than the ROPE): the share of posterior samples in which that region has the
        largest mass.
    p_equivalent : float
        P(within the ROPE).
    p_b_better : float
        P(b better than a by more than the ROPE).
    verdict : str
        The pair in words.
    """

    a: str
    b: str
    p_a_better: float
    p_equivalent: float
    p_b_better: float
    verdict: str

    @classmethod
    def of(cls, d: Mapping[str, object]) -> BayesPair:
        """The part of its JSON."""
        return cls(text(d["a"]), text(d["b"]), number(d["p_a_better"]), number(d["p_equivalent"]),
                   number(d["p_b_better"]), text(d.get("verdict", "")))


def _value(x: object) -> float | bool | None:
    return x if x is None or isinstance(x, bool) else number(x)


def _target(x: object) -> float | str | None:
    return x if x is None or isinstance(x, str) else number(x)


@dataclass(frozen=True)
class RankCondition(_Part):
    """One condition checked on the ranking (``require=``).

    Attributes
    ----------
    condition : str
        The condition as written (``p_better(B,A)>=0.95``).
    metric : str
        What it reads (``p_better(B, A)``).
    op : str or None
        The operator (``>=``, ``>``, ``<=``, ``<``); None for a condition by itself (``in_best_group(B)``).
    target : float, str or None
        The target as written (None with no operator).
    target_value : float or None
        The target as a number.
    value : float, bool or None
        The value read: a number, or true/false for a condition by itself; NaN or None when undefined.
    met : bool
        Whether the condition is met (an undefined value never meets it).
    undefined : str or None
        Why the value is undefined, if it is.
    interval : tuple of (float, float) or None
        An interval of the value, where the result holds one.
    interval_clears : bool or None
        Whether the whole interval meets the condition.
    summary : str
        The verdict in words.
    note : str or None
        A remark (a condition that asks for a worse value than the function's direction).
    """

    condition: str
    metric: str
    op: str | None
    target: float | str | None
    target_value: float | None
    value: float | bool | None
    met: bool
    undefined: str | None
    interval: tuple[float, float] | None
    interval_clears: bool | None
    summary: str
    note: str | None

    @classmethod
    def of(cls, d: Mapping[str, object]) -> RankCondition:
        """The part of its JSON (or of a checked condition of :func:`clfeval.evaluate.check_requirements`)."""
        ci = d.get("interval")
        interval = None if ci is None else (number(items(ci)[0]), number(items(ci)[1]))
        clears = d.get("interval_clears")
        target_value = d.get("target_value")
        return cls(text(d["condition"]), text(d["metric"]), optional_text(d.get("op")), _target(d.get("target")),
                   None if target_value is None else number(target_value), _value(d.get("value")), flag(d["met"]),
                   optional_text(d.get("undefined")), interval, None if clears is None else flag(clears),
                   text(d["summary"]), optional_text(d.get("note")))


@dataclass(frozen=True)
class RankRequirements(ItemReads):
    """The conditions checked on a ranking (``require=``; ``clfeval rank --require`` exits 3 when one is unmet).

    Attributes
    ----------
    conditions : tuple of RankCondition
        Each condition with its value and verdict, in the order given.
    notes : tuple of str
        What the reader should know.
    """

    conditions: tuple[RankCondition, ...]
    notes: tuple[str, ...] = ()

    @property
    def met(self) -> bool:
        """Whether every condition is met."""
        return all(c.met for c in self.conditions)

    @property
    def unmet(self) -> tuple[str, ...]:
        """The conditions not met, as written."""
        return tuple(c.condition for c in self.conditions if not c.met)

    @classmethod
    def of(cls, d: Mapping[str, object]) -> RankRequirements:
        """The part of its JSON."""
        return cls(tuple(RankCondition.of(mapping(c)) for c in items(d["conditions"])),
                   tuple(text(n) for n in items(d.get("notes"))))

    def to_dict(self) -> dict[str, object]:
        return {"met": self.met, "conditions": [c.to_dict() for c in self.conditions], "unmet": list(self.unmet),
                "notes": list(self.notes)}
