"""The one result of ``clfeval.rank``: :class:`RankResult`, systems ranked over data sets.

Frozen all the way down: its parts (:mod:`clfeval.ops.rank._parts`) are frozen dataclasses, its collections
tuples and read-only mappings. ``to_dict()`` is the JSON of ``clfeval rank``; :meth:`RankResult.from_dict` reads
that JSON back (what ``clfeval plot cd RESULT.json`` draws). The numbers are computed by
:mod:`clfeval.significance._multirank`, which builds the result.

>>> r = RankResult.from_dict({"result": "rank", "score": "accuracy", "higher_is_better": True,
...     "systems": ["A", "B"], "datasets": ["d1", "d2"], "scores": [[0.9, 0.8], [0.7, 0.6]],
...     "ranks": [[1.0, 2.0], [1.0, 2.0]], "average_ranks": {"A": 1.0, "B": 2.0}, "order": ["A", "B"],
...     "friedman": {"chi2": 2.0, "chi2_p_value": 0.16, "df": 1, "chi2_tie_corrected": 2.0,
...                  "chi2_tie_corrected_p_value": 0.16, "iman_davenport_f": None, "iman_davenport_p_value": 0.0,
...                  "df_f": [1, 1], "rejected": True},
...     "nemenyi": {"q_alpha": 1.96, "critical_difference": 1.96, "groups": [["A", "B"]]}})
>>> r.nemenyi.critical_difference, r.friedman.iman_davenport_f, r.average_ranks["B"]
(1.96, nan, 2.0)
>>> r.average_ranks["B"] = 1.0
Traceback (most recent call last):
...
TypeError: a result's dict is read-only: results are frozen (to_dict() gives a copy to change)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from clfeval.core import Display, EngineInfo, FrozenDict, freeze_fields, thaw
from clfeval.ops.rank._json import (
    as_json,
    flag,
    integer,
    items,
    mapping,
    name_groups,
    names,
    number,
    optional_text,
    text,
)
from clfeval.ops.rank._parts import (
    BayesPair,
    ControlComparisons,
    FriedmanTest,
    NemenyiTest,
    RankPair,
    RankRequirements,
)

if TYPE_CHECKING:
    import pandas

__all__ = ["RankResult"]


@dataclass(frozen=True)
class RankResult(Display):
    """Systems ranked over data sets, with the frequentist and Bayesian tests: the one result of ``clfeval.rank``.

    Attributes
    ----------
    score : str
        What was ranked by (a metric, or the score column's name).
    metric : str or None
        The catalogue metric, when the score is one.
    higher_is_better : bool
        The score's direction.
    systems : tuple of str
        The systems, in the order of the columns of ``scores``.
    datasets : tuple of str
        The data sets, in the order of its rows.
    scores : tuple of tuple of float
        The score of each system (columns) on each data set (rows).
    ranks : tuple of tuple of float
        Their ranks on each data set (1 = best; ties share mid-ranks).
    average_ranks : Mapping[str, float]
        Each system's average rank, read-only.
    mean_scores : Mapping[str, float]
        Each system's mean score (never infinite for finite scores), read-only.
    order : tuple of str
        The systems by average rank, best first.
    alpha : float
        The level of the Friedman test, Nemenyi's critical difference and the Holm-adjusted tests.
    friedman : FriedmanTest
        The Friedman test and the Iman–Davenport F.
    nemenyi : NemenyiTest
        Nemenyi's critical difference and the groups it does not separate.
    pairs : tuple of RankPair
        Every pair (a, b), a ranked better: Wilcoxon signed-rank test, Holm, Nemenyi, effect sizes.
    control : ControlComparisons or None
        Each system against the control (``control=``); None without one.
    holm_groups : tuple of tuple of str
        Maximal runs of systems (in rank order) no two of which the Holm-adjusted Wilcoxon tests separate.
    best_group : tuple of str
        The first-ranked system and those not separated from it.
    bayes : tuple of BayesPair
        The Bayesian pairs: P(a better), P(equivalent), P(b better).
    rope : float
        The half-width of the region of practical equivalence, on the score's scale.
    prior : float
        The prior weight of the pseudo-observation at 0.
    samples : int
        Posterior samples of each Bayesian pair.
    seed : int or None
        The seed of the Bayesian pairs (pair n draws from ``default_rng([seed, n])``).
    warnings : tuple of str
        What limits the tests (few data sets, more systems than data sets).
    notes : tuple of str
        How the tests were computed, what was dropped or undefined.
    checked : tuple of str
        What was checked of a run log's runs (same data, protocol and seed).
    dropped : tuple of str
        Data sets left out (``missing="drop"``).
    verdict : str
        The result in words.
    signature : Mapping[str, object]
        The signature (version, settings, seed and samples), read-only.
    requirements : RankRequirements or None
        The conditions checked (``require=``); None without any.
    engine : EngineInfo or None
        Where it ran (``clfeval.rank``: the local engine, in memory; a table of systems × data sets is small);
        None when built outside the front door.
    """

    score: str
    metric: str | None
    higher_is_better: bool
    systems: tuple[str, ...]
    datasets: tuple[str, ...]
    scores: tuple[tuple[float, ...], ...]
    ranks: tuple[tuple[float, ...], ...]
    average_ranks: Mapping[str, float]
    mean_scores: Mapping[str, float]
    order: tuple[str, ...]
    alpha: float
    friedman: FriedmanTest
    nemenyi: NemenyiTest
    pairs: tuple[RankPair, ...]
    control: ControlComparisons | None
    holm_groups: tuple[tuple[str, ...], ...]
    best_group: tuple[str, ...]
    bayes: tuple[BayesPair, ...]
    rope: float
    prior: float
    samples: int
    seed: int | None
    warnings: tuple[str, ...]
    notes: tuple[str, ...]
    checked: tuple[str, ...]
    dropped: tuple[str, ...]
    verdict: str
    signature: Mapping[str, object] = field(default_factory=FrozenDict)
    requirements: RankRequirements | None = None
    engine: EngineInfo | None = None

    def __post_init__(self) -> None:
        freeze_fields(self, ("average_ranks", "mean_scores", "signature"))

    def pair(self, a: str, b: str) -> RankPair:
        """The pairwise row of systems a and b (either order); KeyError when there is none."""
        for p in self.pairs:
            if {p.a, p.b} == {a, b}:
                return p
        raise KeyError((a, b))

    def p_better(self, a: str, b: str) -> float | None:
        """P(a better than b by more than the ROPE) from the Bayesian pair {a, b}; None when not computed."""
        for p in self.bayes:
            if (p.a, p.b) == (a, b):
                return p.p_a_better
            if (p.a, p.b) == (b, a):
                return p.p_b_better
        return None

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``clfeval rank`` (a plain, mutable copy)."""
        return {"result": "rank", "score": self.score, "metric": self.metric, "higher_is_better": self.higher_is_better,
                "systems": list(self.systems), "datasets": list(self.datasets), "scores": as_json(self.scores),
                "ranks": as_json(self.ranks), "average_ranks": dict(self.average_ranks),
                "mean_scores": dict(self.mean_scores), "order": list(self.order), "alpha": self.alpha,
                "friedman": self.friedman.to_dict(), "nemenyi": self.nemenyi.to_dict(),
                "pairs": [p.to_dict() for p in self.pairs],
                "control": None if self.control is None else self.control.to_dict(),
                "holm_groups": as_json(self.holm_groups), "best_group": list(self.best_group),
                "bayes": [b.to_dict() for b in self.bayes], "rope": self.rope, "prior": self.prior,
                "samples": self.samples, "seed": self.seed, "warnings": list(self.warnings),
                "notes": list(self.notes), "checked": list(self.checked), "dropped": list(self.dropped),
                "verdict": self.verdict,
                "requirements": None if self.requirements is None else self.requirements.to_dict(),
                "signature": thaw(self.signature)}

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> RankResult:
        """The result of its JSON: ``to_dict()``, or ``clfeval rank --format json`` parsed (an undefined number,
        ``null`` there, is NaN). A value of the wrong type raises TypeError, a missing part KeyError."""
        def floats(x: object) -> tuple[tuple[float, ...], ...]:
            return tuple(tuple(number(v) for v in items(row)) for row in items(x))

        def by_system(x: object) -> dict[str, float]:
            return {text(k): number(v) for k, v in mapping(x if x is not None else {}).items()}

        control, req, seed = d.get("control"), d.get("requirements"), d.get("seed")
        systems = names(d["systems"])
        avg = by_system(d["average_ranks"])
        return cls(
            text(d["score"]), optional_text(d.get("metric")), flag(d["higher_is_better"]), systems,
            names(d["datasets"]), floats(d.get("scores")), floats(d.get("ranks")), avg, by_system(d.get("mean_scores")),
            names(d["order"]) if d.get("order") is not None else tuple(sorted(avg, key=avg.__getitem__)),
            number(d.get("alpha", 0.05)), FriedmanTest.of(mapping(d["friedman"])),
            NemenyiTest.of(mapping(d["nemenyi"])),
            tuple(RankPair.of(mapping(p)) for p in items(d.get("pairs"))),
            None if control is None else ControlComparisons.of(mapping(control)), name_groups(d.get("holm_groups")),
            names(d.get("best_group")), tuple(BayesPair.of(mapping(b)) for b in items(d.get("bayes"))),
            number(d.get("rope", 0.0)), number(d.get("prior", 0.5)), integer(d.get("samples", 0)),
            None if seed is None else integer(seed), names(d.get("warnings")), names(d.get("notes")),
            names(d.get("checked")), names(d.get("dropped")), text(d.get("verdict", "")),
            dict(mapping(d.get("signature") or {})), None if req is None else RankRequirements.of(mapping(req)),
            None if d.get("engine") is None else EngineInfo.of(mapping(d["engine"])))

    def pairs_frame(self) -> pandas.DataFrame:
        """One row per pair of systems: the Wilcoxon and Nemenyi tests and, with ``bayes``, the Bayesian signed-rank
        probabilities (``to_frame()`` gives the systems' average ranks). Columns
        (``FRAME_COLUMNS['RankResult.pairs']`` of :mod:`clfeval.render._frames`): ``a``, ``b``, ``rank_a``,
        ``rank_b``, ``rank_difference``, ``wilcoxon_statistic``, ``p_value``, ``wilcoxon_method``, ``p_holm``,
        ``separated``, ``nemenyi_p``, ``nemenyi_separated``, ``mean_difference``, ``median_difference``,
        ``hodges_lehmann``, ``undefined``, ``wins``, ``ties``, ``losses``, ``p_a_better``, ``p_equivalent``,
        ``p_b_better``, ``bayes_verdict`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self, 'pairs')

    def to_frame(self) -> pandas.DataFrame:
        """The systems: one row per system, best first (the pairs: ``pairs_frame()``). Columns
        (``FRAME_COLUMNS['RankResult']`` of :mod:`clfeval.render._frames`): ``system``, ``position``,
        ``average_rank``, ``mean_score``, ``in_best_group`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)
