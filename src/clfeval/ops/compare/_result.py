"""What :func:`clfeval.compare` returns, whatever its inputs: one type, :class:`Compared`.

Every comparison has the systems' names, the metric, the test, α, a signature, notes and where it ran (the
engine). Which test ran depends on the inputs — two systems or more, a margin, DeLong's test, slices — and what
that test adds is one typed part of the result: exactly one of ``pair`` (:class:`PairPart`), ``many``
(:class:`ManyPart`), ``delong`` (:class:`DeLongPart`), ``delong_ovr`` (:class:`DeLongOvRPart`),
``noninferiority`` (:class:`NonInferiorityPart`) and ``sliced`` (:class:`SlicedPart`) is set, and :attr:`kind`
names it. The names the guides read (``r.p_value``, ``r.delta``, ``r.ci``, ``r.verdict``, ``r.comparisons``, ...)
are properties that read the part that is set; on a kind where one has no meaning it raises
:class:`AttributeError` naming the kind. ``to_dict()`` lays the fields out as the JSON of each test.

>>> import clfeval
>>> r = clfeval.compare(["a", "b", "a", "b"], ["a", "b", "a", "a"], ["a", "a", "b", "a"], samples=200)
>>> type(r).__name__, r.kind, r.pair.a, r.a, r.many is None
('Compared', 'pair', 0.75, 0.75, True)
>>> r.comparisons  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
AttributeError: a comparison of two systems (kind 'pair') has no comparisons: they are the pairs of several ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clfeval.core import Display, EngineInfo, FrozenList, freeze, number, thaw
from clfeval.ops.compare._kinds import (
    DeLongOvRPart,
    DeLongPart,
    ManyPart,
    NonInferiorityPart,
    PairPart,
    SlicedPart,
    SliceRow,
)
from clfeval.ops.compare._parts import Distribution, Interval, PairIntervals, PhiDelta, TestCounts, Undefined
from clfeval.ops.compare._robust import Robustness

if TYPE_CHECKING:
    import pandas

    from clfeval.core import SliceBinning

__all__ = ["Compared", "KINDS"]

#: The parts of a :class:`Compared`, in the order they are looked for.
KINDS = ("pair", "many", "delong", "delong_ovr", "noninferiority", "sliced")

_WHAT = {"pair": "a comparison of two systems", "many": "a comparison of several systems",
         "delong": "DeLong's test", "delong_ovr": "DeLong's test per class (one-vs-rest)",
         "noninferiority": "a non-inferiority test", "sliced": "a comparison by slice"}
_ADJUSTMENT = {"methods": ["holm", "benjamini-yekutieli"], "family": "the slices tested"}


@dataclass(frozen=True)
class Compared(Display):
    """The result of :func:`clfeval.compare`: the fields every comparison has, and exactly one typed part set.

    Attributes
    ----------
    names : tuple of str
        The systems' names: A and B (``pair``, ``delong``, ``delong_ovr``, ``noninferiority``, ``sliced``), or
        every system in input order (``many``).
    metric : str
        The metric compared (``roc_auc`` for DeLong's test).
    test : str
        ``bootstrap``, ``randomization``, ``mcnemar`` or ``delong``.
    alpha : float
        Significance level of the verdicts.
    signature : Mapping[str, object]
        Version, settings, seed and samples, library versions (read-only).
    notes : Sequence[str]
        What to know when reading the result.
    higher_is_better : bool
        The metric's direction.
    metric_description : str or None
        The metric's definition (None for DeLong's test and several systems).
    samples : int or None
        Replicates drawn (None for DeLong's test).
    seed : int or None
        The seed (None for DeLong's test, or when a generator was passed).
    engine : EngineInfo or None
        Where it ran (the front door sets it; None for a comparison inside another).
    pair, many, delong, delong_ovr, noninferiority, sliced : part or None
        What the test adds; exactly one is set (:attr:`kind`).
    robustness : Robustness or None
        With ``label_issues=``: the verdict with the likely label errors removed, and relabelled.
    """

    names: tuple[str, ...]
    metric: str
    test: str
    alpha: float
    signature: Mapping[str, object]
    notes: Sequence[str] = field(default_factory=FrozenList)
    higher_is_better: bool = True
    metric_description: str | None = None
    samples: int | None = None
    seed: int | None = None
    engine: EngineInfo | None = field(default=None, repr=False, compare=False)
    pair: PairPart | None = None
    many: ManyPart | None = None
    delong: DeLongPart | None = None
    delong_ovr: DeLongOvRPart | None = None
    noninferiority: NonInferiorityPart | None = None
    sliced: SlicedPart | None = None
    robustness: Robustness | None = None

    def __post_init__(self) -> None:
        held = [k for k in KINDS if getattr(self, k) is not None]
        if len(held) != 1:
            raise ValueError(f"a Compared holds exactly one part; got {', '.join(held) or 'none'}")
        object.__setattr__(self, "names", tuple(str(n) for n in self.names))
        object.__setattr__(self, "signature", freeze(dict(self.signature)))
        object.__setattr__(self, "notes", freeze(list(self.notes)))
        if self.engine is not None and not isinstance(self.engine, EngineInfo):
            object.__setattr__(self, "engine", EngineInfo.of(self.engine))

    # -- what is set ---------------------------------------------------------------------------------------------

    @property
    def kind(self) -> str:
        """Which part is set: ``pair``, ``many``, ``delong``, ``delong_ovr``, ``noninferiority`` or ``sliced``."""
        return next(k for k in KINDS if getattr(self, k) is not None)

    def _absent(self, name: str, where: str) -> AttributeError:
        return AttributeError(f"{_WHAT[self.kind]} (kind {self.kind!r}) has no {name}: {where}.")

    @property
    def systems(self) -> tuple[str, ...]:
        """The systems' names (:attr:`names`)."""
        return self.names

    @property
    def label(self) -> str:
        """The metric's name as a sentence writes it (``accuracy``, ``macro-F1``)."""
        from clfeval.core import catalog  # the catalogue (and pyarrow with it) when a sentence needs it

        return catalog.label(self.metric)

    @property
    def rejected(self) -> bool:
        """The test rejects its null hypothesis at α — what ``--gate`` asks: p < α (two systems, DeLong,
        non-inferiority); every pair after Holm's adjustment (several systems); every class with a defined test
        after Holm's adjustment (one-vs-rest); the overall test (by slice)."""
        if self.many is not None:
            return all(self.many.significant)
        if self.delong_ovr is not None:
            return self.delong_ovr.rejected(self.alpha)
        if self.sliced is not None:
            return self.sliced.overall.rejected
        return bool(self.p_value < self.alpha)

    # -- two systems, non-inferiority, DeLong ------------------------------------------------------------------

    def _scores(self, name: str) -> PairPart | NonInferiorityPart:
        part = self.pair or self.noninferiority
        if part is None:
            hint = {"delong": "DeLong's test has auc_a and auc_b", "sliced": "read r.overall (and r.slices)",
                    "many": "read r.scores and r.comparisons"}.get(self.kind, "read r.per_class")
            raise self._absent(name, hint)
        return part

    @property
    def a(self) -> float:
        """M(A) on the test set (two systems, non-inferiority)."""
        return self._scores("a").a

    @property
    def b(self) -> float:
        """M(B) on the test set (two systems, non-inferiority)."""
        return self._scores("b").b

    @property
    def n(self) -> int:
        """Test items (two systems, non-inferiority)."""
        return self._scores("n").n

    @property
    def delta(self) -> float:
        """δ = M(A) − M(B) (two systems, non-inferiority; θ_A − θ_B for DeLong's test)."""
        if self.delong is not None:
            return self.delong.delta
        return self._scores("delta").delta

    @property
    def p_value(self) -> float:
        """The test's p-value (two systems, DeLong's test, non-inferiority)."""
        part = self.pair or self.noninferiority or self.delong
        if part is None:
            raise self._absent("p_value", {"many": "each pair has one (r.comparisons), adjusted in r.p_adjusted",
                                           "delong_ovr": "each class has one (r.per_class), adjusted in r.p_holm",
                                           }.get(self.kind, "read r.overall.p_value"))
        return part.p_value

    @property
    def verdict(self) -> str:
        """The plain sentence of the test (one-vs-rest: the per-class sentences, one after the other)."""
        if self.delong_ovr is not None:
            return " ".join(f"Class {lab!r}: {v}" for lab, v in self.delong_ovr.verdicts.items())
        part = self.pair or self.noninferiority or self.delong
        if part is None:
            raise self._absent("verdict", "read r.verdicts" if self.many is not None else "read r.overall.verdict")
        return part.verdict

    @property
    def hypothesis(self) -> str:
        """The hypotheses in words (two systems, DeLong's test, non-inferiority)."""
        part = self.pair or self.noninferiority or self.delong
        if part is None:
            raise self._absent("hypothesis", "each comparison it holds has one")
        return part.hypothesis

    @property
    def significant(self) -> bool | Sequence[bool]:
        """p < α (two systems); one flag per pair, Holm-adjusted (several systems)."""
        if self.many is not None:
            return self.many.significant
        if self.pair is None:
            raise self._absent("significant", "read r.rejected")
        return bool(self.pair.p_value < self.alpha)

    def _pair(self, name: str) -> PairPart:
        if self.pair is None:
            raise self._absent(name, "it is read on a comparison of two systems (kind 'pair')")
        return self.pair

    @property
    def ci(self) -> PairIntervals:
        """The intervals of a comparison of two systems (:class:`PairIntervals`)."""
        return self._pair("ci").ci

    @property
    def details(self) -> TestCounts:
        """The counts of the test of two systems (bootstrap, randomization or McNemar)."""
        return self._pair("details").details

    @property
    def phi_delta(self) -> PhiDelta | None:
        """Both systems' classes in the φ–δ diagram (count metrics; two systems)."""
        return self._pair("phi_delta").phi_delta

    @property
    def distribution(self) -> Distribution | None:
        """The histogram of the replicates (two systems, non-inferiority)."""
        return self._scores("distribution").distribution

    # -- several systems -----------------------------------------------------------------------------------------

    def _many(self, name: str) -> ManyPart:
        if self.many is None:
            raise self._absent(name, "they are the pairs of several systems (kind 'many')")
        return self.many

    @property
    def scores(self) -> Mapping[str, float]:
        """Each system's metric on the test set (several systems)."""
        return self._many("scores").scores

    @property
    def baseline(self) -> str | None:
        """The system every other one is compared with (several systems)."""
        return self._many("baseline").baseline

    @property
    def comparisons(self) -> Sequence[Compared]:
        """One two-system comparison per pair (several systems)."""
        return self._many("comparisons").comparisons

    @property
    def p_adjusted(self) -> Sequence[float]:
        """Holm-adjusted p-values, one per pair (several systems)."""
        return self._many("p_adjusted").p_adjusted

    @property
    def verdicts(self) -> Sequence[str] | Mapping[str, str]:
        """One sentence per pair (several systems) or per class (one-vs-rest), judged on the adjusted p."""
        if self.delong_ovr is not None:
            return self.delong_ovr.verdicts
        return self._many("verdicts").verdicts

    @property
    def adjustment(self) -> str:
        """``holm`` (several systems, one-vs-rest)."""
        if self.delong_ovr is not None:
            return self.delong_ovr.adjustment
        return self._many("adjustment").adjustment

    # -- DeLong ----------------------------------------------------------------------------------------------------

    def _delong(self, name: str) -> DeLongPart:
        if self.delong is None:
            hint = "read it per class (r.per_class)" if self.delong_ovr is not None else \
                "it is read on DeLong's test (kind 'delong')"
            raise self._absent(name, hint)
        return self.delong

    @property
    def positive(self) -> str:
        """The class ranked (DeLong's test)."""
        return self._delong("positive").positive

    @property
    def n_positive(self) -> int:
        """Positive items (DeLong's test)."""
        return self._delong("n_positive").n_positive

    @property
    def n_negative(self) -> int:
        """Negative items (DeLong's test)."""
        return self._delong("n_negative").n_negative

    @property
    def auc_a(self) -> float:
        """A's ROC-AUC (DeLong's test)."""
        return self._delong("auc_a").auc_a

    @property
    def auc_b(self) -> float:
        """B's ROC-AUC (DeLong's test)."""
        return self._delong("auc_b").auc_b

    @property
    def var_a(self) -> float:
        """DeLong's variance of A's AUC."""
        return self._delong("var_a").var_a

    @property
    def var_b(self) -> float:
        """DeLong's variance of B's AUC."""
        return self._delong("var_b").var_b

    @property
    def covariance(self) -> float:
        """DeLong's covariance S_AB."""
        return self._delong("covariance").covariance

    @property
    def correlation(self) -> float:
        """S_AB / √(S_AA·S_BB) (DeLong's test)."""
        return self._delong("correlation").correlation

    @property
    def var_delta(self) -> float:
        """The variance of θ_A − θ_B (DeLong's test)."""
        return self._delong("var_delta").var_delta

    @property
    def se_delta(self) -> float:
        """The standard error of θ_A − θ_B (DeLong's test)."""
        return self._delong("se_delta").se_delta

    @property
    def z(self) -> float:
        """δ / SE(δ) (DeLong's test)."""
        return self._delong("z").z

    @property
    def p_value_one_sided(self) -> float:
        """1 − Φ(z) (DeLong's test)."""
        return self._delong("p_value_one_sided").p_value_one_sided

    @property
    def p_value_two_sided(self) -> float:
        """2(1 − Φ(|z|)) (DeLong's test)."""
        return self._delong("p_value_two_sided").p_value_two_sided

    @property
    def level(self) -> float:
        """Confidence level of the intervals (DeLong's test)."""
        return self._delong("level").level

    @property
    def ci_a(self) -> Interval:
        """Wald interval of A's AUC (DeLong's test)."""
        return self._delong("ci_a").ci_a

    @property
    def ci_b(self) -> Interval:
        """Wald interval of B's AUC (DeLong's test)."""
        return self._delong("ci_b").ci_b

    @property
    def ci_delta(self) -> Interval:
        """Wald interval of θ_A − θ_B (DeLong's test)."""
        return self._delong("ci_delta").ci_delta

    @property
    def truncated(self) -> Mapping[str, bool]:
        """Which intervals were cut to their range (DeLong's test)."""
        return self._delong("truncated").truncated

    @property
    def alternative(self) -> str:
        """``greater`` or ``two-sided`` (DeLong's test, one-vs-rest)."""
        part = self.delong or self.delong_ovr
        if part is None:
            raise self._absent("alternative", "the resampling tests are one-sided (H1: A better than B)")
        return part.alternative

    @property
    def undefined(self) -> Sequence[Undefined]:
        """The undefined values and why (DeLong's test, one-vs-rest)."""
        part = self.delong or self.delong_ovr
        if part is None:
            raise self._absent("undefined", "undefined values are NaN, explained in r.notes")
        return part.undefined

    def _ovr(self, name: str) -> DeLongOvRPart:
        if self.delong_ovr is None:
            raise self._absent(name, "it is read on DeLong's test per class (kind 'delong_ovr')")
        return self.delong_ovr

    @property
    def labels(self) -> Sequence[str]:
        """The classes (one-vs-rest)."""
        return self._ovr("labels").labels

    @property
    def per_class(self) -> Mapping[str, Compared | None]:
        """Each class's DeLong comparison, None where undefined (one-vs-rest)."""
        return self._ovr("per_class").per_class

    @property
    def p_holm(self) -> Mapping[str, float]:
        """Holm-adjusted p-values per class (one-vs-rest)."""
        return self._ovr("p_holm").p_holm

    @property
    def p_holm_two_sided(self) -> Mapping[str, float]:
        """Holm-adjusted two-sided p-values per class (one-vs-rest)."""
        return self._ovr("p_holm_two_sided").p_holm_two_sided

    # -- non-inferiority -----------------------------------------------------------------------------------------

    def _ni(self, name: str) -> NonInferiorityPart:
        if self.noninferiority is None:
            raise self._absent(name, "it is read on a non-inferiority test (kind 'noninferiority', margin=)")
        return self.noninferiority

    @property
    def margin(self) -> float:
        """The margin (non-inferiority)."""
        return self._ni("margin").margin

    @property
    def bound(self) -> float:
        """The one-sided basic bootstrap bound of δ (non-inferiority)."""
        return self._ni("bound").bound

    @property
    def threshold(self) -> float:
        """2δ ± margin (non-inferiority)."""
        return self._ni("threshold").threshold

    @property
    def count(self) -> int:
        """Replicates at or beyond the threshold (non-inferiority)."""
        return self._ni("count").count

    # -- by slice --------------------------------------------------------------------------------------------------

    def _sliced(self, name: str) -> SlicedPart:
        if self.sliced is None:
            raise self._absent(name, "it is read on a comparison by slice (kind 'sliced', by=)")
        return self.sliced

    @property
    def overall(self) -> Compared:
        """The comparison over every item (by slice)."""
        return self._sliced("overall").overall

    @property
    def by(self) -> Sequence[str]:
        """The slice columns (by slice)."""
        return self._sliced("by").by

    @property
    def slices(self) -> Sequence[SliceRow]:
        """One row per slice (by slice)."""
        return self._sliced("slices").slices

    @property
    def simpson(self) -> str | None:
        """The sentence naming Simpson's paradox, or None (by slice)."""
        return self._sliced("simpson").simpson

    @property
    def min_slice(self) -> int:
        """Slices with fewer items are not tested (by slice)."""
        return self._sliced("min_slice").min_slice

    @property
    def binning(self) -> Sequence[SliceBinning]:
        """The bins of numeric slice columns (by slice)."""
        return self._sliced("binning").binning

    # -- JSON -----------------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """The JSON of the test (NaN stays NaN here; JSON writers turn it into null), with the engine block."""
        out = _JSON[self.kind](self)
        if self.robustness is not None:  # only with label_issues= (every other JSON unchanged)
            out["robustness"] = self.robustness.to_dict()
        if self.engine is not None:
            out["engine"] = self.engine.to_dict()
        return out

    def to_frame(self) -> pandas.DataFrame:
        """One row per pair of systems: two systems, DeLong, non-inferiority: one row; several systems: one per pair;
        one-vs-rest DeLong: one per class (index ``class``); by slice: one per slice (the slice's name and columns
        first). Columns (``FRAME_COLUMNS['Compared']`` of :mod:`clfeval.render._frames`): ``class``, ``slice``,
        ``<by>``, ``system_a``, ``system_b``, ``n``, ``value_a``, ``value_b``, ``delta``, ``ci_low``, ``ci_high``,
        ``p_value``, ``p_adjusted``, ``significant``, ``margin``, ``bound``, ``verdict``, ``small``, ``p_by``
        (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)

    def systems_frame(self) -> pandas.DataFrame:
        """One row per system: its metric and interval (by slice: overall). Columns
        (``FRAME_COLUMNS['Compared.systems']`` of :mod:`clfeval.render._frames`): ``system``, ``value``, ``ci_low``,
        ``ci_high`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self, 'systems')

def _names_ab(c: Compared) -> dict[str, str]:
    return {"a": c.names[0], "b": c.names[1]}


def _pair_json(c: Compared) -> dict[str, object]:
    p = c.pair
    assert p is not None
    out: dict[str, object] = {
        "metric": c.metric, "metric_description": c.metric_description, "higher_is_better": c.higher_is_better,
        "names": _names_ab(c), "n": p.n, "a": p.a, "b": p.b, "delta": p.delta, "test": c.test,
        "samples": c.samples, "seed": c.seed, "alpha": c.alpha, "p_value": p.p_value,
        "significant": bool(p.p_value < c.alpha), "hypothesis": p.hypothesis, "ci": p.ci.to_dict(),
        c.test: p.details.to_dict(), "verdict": p.verdict, "notes": list(c.notes), "signature": thaw(c.signature)}
    if p.distribution is not None:
        out["distribution"] = p.distribution.to_dict()
    if p.phi_delta is not None:
        out["phi_delta"] = p.phi_delta.to_dict()
    return out


def _many_json(c: Compared) -> dict[str, object]:
    m = c.many
    assert m is not None
    rows: list[dict[str, object]] = []
    labels: list[str] | None = None
    points: dict[str, object] = {}
    for pc, adj, sig, verdict in zip(m.comparisons, m.p_adjusted, m.significant, m.verdicts, strict=True):
        p = pc.pair
        assert p is not None
        row: dict[str, object] = {"a": pc.names[0], "b": pc.names[1], "score_a": p.a, "score_b": p.b,
                                  "delta": p.delta, "p_value": p.p_value, "p_adjusted": adj, "significant": sig,
                                  "ci": p.ci.to_dict(), pc.test: p.details.to_dict(), "verdict": verdict}
        if p.distribution is not None:
            row["distribution"] = p.distribution.to_dict()
        rows.append(row)
        if p.phi_delta is not None:
            labels = labels if labels is not None else list(p.phi_delta.labels)
            for name, pts in p.phi_delta.systems.items():
                points.setdefault(name, {k: v.to_dict() for k, v in pts.items()})
    out: dict[str, object] = {
        "metric": c.metric, "higher_is_better": c.higher_is_better, "test": c.test, "samples": c.samples,
        "seed": c.seed, "alpha": c.alpha, "adjustment": m.adjustment, "baseline": m.baseline,
        "systems": list(c.names), "scores": dict(m.scores), "comparisons": rows, "notes": list(c.notes),
        "signature": thaw(c.signature)}
    if labels is not None:
        out["phi_delta"] = {"labels": labels, "systems": {n: points[n] for n in c.names if n in points}}
    return out


def _delong_numbers(d: DeLongPart) -> dict[str, object]:
    return {k: number(v) for k, v in (
        ("auc_a", d.auc_a), ("auc_b", d.auc_b), ("var_a", d.var_a), ("var_b", d.var_b),
        ("covariance", d.covariance), ("correlation", d.correlation), ("delta", d.delta),
        ("var_delta", d.var_delta), ("se_delta", d.se_delta), ("z", d.z), ("p_value", d.p_value),
        ("p_value_one_sided", d.p_value_one_sided), ("p_value_two_sided", d.p_value_two_sided))}


def _delong_json(c: Compared) -> dict[str, object]:
    d = c.delong
    assert d is not None

    def ci(v: Interval, key: str) -> dict[str, object]:
        return {"low": number(v[0]), "high": number(v[1]), "truncated": d.truncated.get(key, False)}

    return {"names": _names_ab(c), "positive": d.positive, "n_positive": d.n_positive, "n_negative": d.n_negative,
            **_delong_numbers(d), "alternative": d.alternative, "hypothesis": d.hypothesis, "alpha": c.alpha,
            "rejected": c.rejected,
            "ci": {"level": d.level, "method": d.ci_method, "a": ci(d.ci_a, "a"), "b": ci(d.ci_b, "b"),
                   "delta": ci(d.ci_delta, "delta")},
            "verdict": d.verdict, "undefined": [u.to_dict() for u in d.undefined], "notes": list(c.notes),
            "signature": thaw(c.signature)}


def _delong_ovr_json(c: Compared) -> dict[str, object]:
    o = c.delong_ovr
    assert o is not None
    rows: dict[str, object] = {}
    for lab in o.labels:
        pc = o.per_class[lab]
        if pc is None:
            rows[lab] = None
            continue
        d = _delong_json(pc)
        d.pop("signature")
        d["p_holm"] = number(o.p_holm[lab])
        d["p_holm_two_sided"] = number(o.p_holm_two_sided[lab])
        d["significant"] = bool(o.p_holm[lab] < c.alpha)
        d["verdict"] = o.verdicts.get(lab, d["verdict"])
        rows[lab] = d
    return {"names": _names_ab(c), "labels": list(o.labels), "alpha": c.alpha, "alternative": o.alternative,
            "adjustment": o.adjustment, "rejected": c.rejected, "per_class": rows, "verdicts": dict(o.verdicts),
            "undefined": [u.to_dict() for u in o.undefined], "notes": list(c.notes), "signature": thaw(c.signature)}


def _noninferiority_json(c: Compared) -> dict[str, object]:
    r = c.noninferiority
    assert r is not None
    out: dict[str, object] = {
        "metric": c.metric, "metric_description": c.metric_description, "higher_is_better": c.higher_is_better,
        "names": _names_ab(c), "n": r.n, "a": number(r.a), "b": number(r.b), "delta": number(r.delta),
        "test": c.test, "margin": r.margin, "samples": c.samples, "seed": c.seed, "alpha": c.alpha,
        "hypothesis": r.hypothesis,
        "bound": {"side": "lower" if c.higher_is_better else "upper", "level": 1 - c.alpha,
                  "value": number(r.bound), "method": r.bound_method},
        "threshold": number(r.threshold), "count": r.count, "p_value": number(r.p_value), "rejected": c.rejected,
        "non_inferior": c.rejected, "verdict": r.verdict, "notes": list(c.notes), "signature": thaw(c.signature)}
    if r.distribution is not None:
        out["distribution"] = r.distribution.to_dict()
    return out


def _sliced_json(c: Compared) -> dict[str, object]:
    s = c.sliced
    assert s is not None
    out: dict[str, object] = {"kind": "comparison by slice", "by": list(s.by), "overall": s.overall.to_dict(),
                              "slices": [r.to_dict() for r in s.slices], "simpson": s.simpson,
                              "min_slice": s.min_slice, "adjustment": thaw(_ADJUSTMENT), "notes": list(c.notes)}
    if s.binning:
        out["binning"] = [b.to_dict() for b in s.binning]
    return out


_JSON = {"pair": _pair_json, "many": _many_json, "delong": _delong_json, "delong_ovr": _delong_ovr_json,
         "noninferiority": _noninferiority_json, "sliced": _sliced_json}
