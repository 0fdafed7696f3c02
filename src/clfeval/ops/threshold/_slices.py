"""The slices of a threshold result (``threshold(..., by=...)``): the cut chosen once on the development data,
then the test data's table at that cut per slice, laid out as a report's ``slices`` section
(:func:`clfeval.slicing._slices.slice_section` computes it; :meth:`ThresholdSlices.of` reads it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clfeval.core import FrozenDict, ItemReads, freeze, thaw
from clfeval.ops.threshold._json import (
    flag,
    real,
    real_or_none,
    table,
    whole,
    whole_or_none,
    word,
    word_or_none,
    words,
)

if TYPE_CHECKING:
    import pandas

__all__ = ["SliceTest", "SliceRow", "SliceHeterogeneity", "SliceAdjustment", "SliceFairness", "ThresholdSlices"]


def _frozen(d: Mapping[str, object]) -> FrozenDict:
    return d if isinstance(d, FrozenDict) else FrozenDict(d)


def _opt_reals(d: object) -> dict[str, float | None]:
    return {k: real_or_none(v) for k, v in table(d).items()}


@dataclass(frozen=True)
class SliceTest(ItemReads):
    """One slice against the rest of the items, for one metric.

    Attributes
    ----------
    p : float
        The p-value of the slice-vs-rest test.
    p_holm, p_by : float
        Holm- and Benjamini–Yekutieli-adjusted over the slices tested.
    flagged, flagged_by : bool
        Whether the Holm- (BY-) adjusted p-value is at most alpha.
    direction : str or None
        ``worse`` or ``better`` than the rest (None: the metric has no direction, or no gap).
    """

    p: float
    p_holm: float
    p_by: float
    flagged: bool
    flagged_by: bool
    direction: str | None

    @classmethod
    def of(cls, d: Mapping[str, object]) -> SliceTest:
        return cls(real(d["p"]), real(d["p_holm"]), real(d["p_by"]), flag(d["flagged"]), flag(d["flagged_by"]),
                   word_or_none(d.get("direction")))

    def to_dict(self) -> dict[str, object]:
        return {"p": self.p, "p_holm": self.p_holm, "p_by": self.p_by, "flagged": self.flagged,
                "flagged_by": self.flagged_by, "direction": self.direction}


@dataclass(frozen=True)
class SliceRow(ItemReads):
    """One slice of the test data at the cut.

    Attributes
    ----------
    slice : str
        Its name (the value, or ``column=value, ...`` over several columns).
    key : Mapping[str, str]
        Its value in each ``by`` column, read-only.
    n : int
        Its items.
    share : float
        Its share of the items.
    small : bool
        Fewer than ``min_slice`` items (not tested).
    gold_classes : int
        The gold classes occurring in it.
    metrics : Mapping[str, float]
        Every metric shown, read-only.
    gap_to_overall : Mapping[str, float]
        Tested metric − its value overall.
    gap_to_rest : Mapping[str, float or None]
        Tested metric − its value on the other items (None: one slice holds every item).
    undefined : tuple of str
        The metrics (and gaps) undefined on it.
    baselines : Mapping[str, float]
        ``majority_accuracy``: the accuracy of always predicting its most frequent gold class.
    tests : Mapping[str, SliceTest]
        Per tested metric, the slice against the rest (untested metrics left out).
    counts : Mapping[str, tuple of int]
        Per tested proportion, (successes, trials) on the slice.
    ci : Mapping[str, tuple of (float or None)] or None
        Per tested metric, its bootstrap interval (None: no intervals asked).
    """

    slice: str
    key: Mapping[str, str]
    n: int
    share: float
    small: bool
    gold_classes: int
    metrics: Mapping[str, float]
    gap_to_overall: Mapping[str, float]
    gap_to_rest: Mapping[str, float | None]
    undefined: tuple[str, ...]
    baselines: Mapping[str, float]
    tests: Mapping[str, SliceTest]
    counts: Mapping[str, tuple[int, ...]]
    ci: Mapping[str, tuple[float | None, ...]] | None = None

    def __post_init__(self) -> None:
        for name in ("key", "metrics", "gap_to_overall", "gap_to_rest", "baselines", "tests", "counts"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        if self.ci is not None:
            object.__setattr__(self, "ci", _frozen(self.ci))

    @classmethod
    def of(cls, d: Mapping[str, object]) -> SliceRow:
        ci = d.get("ci")
        return cls(word(d["slice"]), {k: word(v) for k, v in table(d["key"]).items()}, whole(d["n"]),
                   real(d["share"]), flag(d["small"]), whole(d["gold_classes"]),
                   {k: real(v) for k, v in table(d["metrics"]).items()},
                   {k: real(v) for k, v in table(d["gap_to_overall"]).items()}, _opt_reals(d["gap_to_rest"]),
                   words(d["undefined"]), {k: real(v) for k, v in table(d["baselines"]).items()},
                   {k: SliceTest.of(table(v)) for k, v in table(d["tests"]).items()},
                   {k: tuple(whole(x) for x in _items(v)) for k, v in table(d.get("counts") or {}).items()},
                   None if ci is None else {k: tuple(real_or_none(x) for x in _items(v))
                                            for k, v in table(ci).items()})

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "slice": self.slice, "key": dict(self.key), "n": self.n, "share": self.share, "small": self.small,
            "gold_classes": self.gold_classes, "metrics": dict(self.metrics),
            "gap_to_overall": dict(self.gap_to_overall), "gap_to_rest": dict(self.gap_to_rest),
            "undefined": list(self.undefined), "baselines": dict(self.baselines),
            "tests": {k: t.to_dict() for k, t in self.tests.items()}}
        if self.ci is not None:
            out["ci"] = {k: list(v) for k, v in self.ci.items()}
        out["counts"] = {k: list(v) for k, v in self.counts.items()}
        return out


def _items(x: object) -> tuple[object, ...]:
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"expected a list; got {x!r}")
    return tuple(x)


@dataclass(frozen=True)
class SliceHeterogeneity(ItemReads):
    """Whether a tested metric differs across the slices at all (one test over every testable slice).

    Attributes
    ----------
    test : str
        ``chi-square`` (proportions) or ``permutation``.
    statistic : float or None
        The test statistic (None: not tested, see ``why``).
    p : float or None
        Its p-value.
    across : int
        The slices tested.
    slice_vs_rest : str
        The test of each slice against the rest, in words.
    df : int or None
        Degrees of freedom (chi-square).
    samples : int or None
        Redraws (permutation).
    why : str or None
        Why there is no test.
    """

    test: str
    statistic: float | None
    p: float | None
    across: int
    slice_vs_rest: str
    df: int | None = None
    samples: int | None = None
    why: str | None = None

    @classmethod
    def of(cls, d: Mapping[str, object]) -> SliceHeterogeneity:
        return cls(word(d["test"]), real_or_none(d.get("statistic")), real_or_none(d.get("p")), whole(d["across"]),
                   word(d["slice_vs_rest"]), whole_or_none(d.get("df")), whole_or_none(d.get("samples")),
                   word_or_none(d.get("why")))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"test": self.test, "statistic": self.statistic}
        if self.df is not None:
            out["df"] = self.df
        if self.samples is not None:
            out["samples"] = self.samples
        out["p"] = self.p
        if self.why is not None:
            out["why"] = self.why
        out.update(across=self.across, slice_vs_rest=self.slice_vs_rest)
        return out


@dataclass(frozen=True)
class SliceAdjustment(ItemReads):
    """How the slice-vs-rest p-values are adjusted for multiplicity.

    Attributes
    ----------
    methods : tuple of str
        ``holm`` and ``benjamini-yekutieli``.
    family : str
        What one family of tests is.
    flagged : str
        The rule that flags a slice.
    """

    methods: tuple[str, ...]
    family: str
    flagged: str

    def to_dict(self) -> dict[str, object]:
        return {"methods": list(self.methods), "family": self.family, "flagged": self.flagged}


@dataclass(frozen=True)
class SliceFairness(ItemReads):
    """The between-group fairness measures of the slices (fairlearn's definitions).

    Attributes
    ----------
    groups_in_order : tuple of str
        The slices, in the order of every list of ``groups``.
    definitions : str
        The measures' definitions, in words.
    groups : Mapping[str, tuple of (float or None)]
        Per rate (``selection_rate``, ``tpr``, ``fpr``), its value on each group (None: undefined).
    measures : Mapping[str, float or None]
        Demographic parity, equalized odds and equal opportunity differences and ratios.
    left_out : Mapping[str, int] or None
        Per rate, the groups where it is undefined (None: none).
    ci : Mapping[str, tuple of (float or None)] or None
        Per measure, its bootstrap interval (None: no intervals asked).
    """

    groups_in_order: tuple[str, ...]
    definitions: str
    groups: Mapping[str, tuple[float | None, ...]]
    measures: Mapping[str, float | None]
    left_out: Mapping[str, int] | None = None
    ci: Mapping[str, tuple[float | None, ...]] | None = None

    def __post_init__(self) -> None:
        for name in ("groups", "measures", "left_out", "ci"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, _frozen(getattr(self, name)))

    @classmethod
    def of(cls, d: Mapping[str, object]) -> SliceFairness:
        left, ci = d.get("left_out"), d.get("ci")
        return cls(words(d["groups_in_order"]), word(d["definitions"]),
                   {k: tuple(real_or_none(x) for x in _items(v)) for k, v in table(d["groups"]).items()},
                   _opt_reals(d["measures"]),
                   None if left is None else {k: whole(v) for k, v in table(left).items()},
                   None if ci is None else {k: tuple(real_or_none(x) for x in _items(v))
                                            for k, v in table(ci).items()})

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"groups_in_order": list(self.groups_in_order), "definitions": self.definitions,
                                  "groups": {k: list(v) for k, v in self.groups.items()},
                                  "measures": dict(self.measures)}
        if self.left_out is not None:
            out["left_out"] = dict(self.left_out)
        if self.ci is not None:
            out["ci"] = {k: list(v) for k, v in self.ci.items()}
        return out


@dataclass(frozen=True)
class ThresholdSlices(ItemReads):
    """The test data per slice at the cut chosen once overall (``threshold(..., by=...)``).

    Attributes
    ----------
    threshold : float
        The cut applied to every slice.
    by : tuple of str
        The slice columns.
    n_slices : int
        The slices.
    min_slice : int
        Slices with fewer items are shown but not tested.
    labels : tuple of str
        The classes at the cut (the positive and the rest).
    positive : str or None
        The positive class.
    metrics : tuple of str
        The metrics shown per slice.
    tested : tuple of str
        The metrics tested slice against rest.
    overall : Mapping[str, float]
        Every metric shown on all the test items.
    rows : tuple of SliceRow
        The slices (``slices`` in the JSON), in order.
    heterogeneity : Mapping[str, SliceHeterogeneity]
        Per tested metric, whether it differs across slices at all.
    worst : Mapping[str, str]
        Per tested metric with a direction, the worst slice that is not small.
    alpha : float
        The level of the adjusted tests.
    adjustment : SliceAdjustment
        How the p-values are adjusted.
    samples : int
        Redraws of each permutation test.
    seed : int, str or None
        The seed of the redraws.
    notes : tuple of str
        What the reader should know.
    fairness : SliceFairness or None
        The between-group measures (with a positive class).
    binning : tuple of Mapping[str, object]
        How numeric slice columns were binned, one description per column (empty: no binning), read-only.
    ci : Mapping[str, object] or None
        The settings of the per-slice intervals (level, method, samples; None: none asked), read-only.
    """

    threshold: float
    by: tuple[str, ...]
    n_slices: int
    min_slice: int
    labels: tuple[str, ...]
    positive: str | None
    metrics: tuple[str, ...]
    tested: tuple[str, ...]
    overall: Mapping[str, float]
    rows: tuple[SliceRow, ...]
    heterogeneity: Mapping[str, SliceHeterogeneity]
    worst: Mapping[str, str]
    alpha: float
    adjustment: SliceAdjustment
    samples: int
    seed: int | str | None
    notes: tuple[str, ...] = ()
    fairness: SliceFairness | None = None
    binning: tuple[Mapping[str, object], ...] = ()
    ci: Mapping[str, object] | None = field(default=None)

    def __post_init__(self) -> None:
        for name in ("overall", "heterogeneity", "worst"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        object.__setattr__(self, "binning", tuple(freeze(dict(b)) for b in self.binning))
        if self.ci is not None:
            object.__setattr__(self, "ci", freeze(dict(self.ci)))

    @classmethod
    def of(cls, d: Mapping[str, object]) -> ThresholdSlices:
        """The slices of a ``slices`` section (with its ``threshold``)."""
        adj, fair, seed, ci = table(d["adjustment"]), d.get("fairness"), d.get("seed"), d.get("ci")
        return cls(real(d["threshold"]), words(d["by"]), whole(d["n_slices"]), whole(d["min_slice"]),
                   words(d["labels"]), word_or_none(d.get("positive")), words(d["metrics"]), words(d["tested"]),
                   {k: real(v) for k, v in table(d["overall"]).items()},
                   tuple(SliceRow.of(table(r)) for r in _items(d["slices"])),
                   {k: SliceHeterogeneity.of(table(v)) for k, v in table(d["heterogeneity"]).items()},
                   {k: word(v) for k, v in table(d["worst"]).items()}, real(d["alpha"]),
                   SliceAdjustment(words(adj["methods"]), word(adj["family"]), word(adj["flagged"])),
                   whole(d["samples"]), seed if seed is None or isinstance(seed, (int, str)) else str(seed),
                   words(d["notes"]), None if fair is None else SliceFairness.of(table(fair)),
                   tuple(table(b) for b in _items(d.get("binning") or ())), None if ci is None else table(ci))

    def row(self, name: str) -> SliceRow:
        """The slice named ``name`` (KeyError when there is none)."""
        for r in self.rows:
            if r.slice == name:
                return r
        raise KeyError(name)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "by": list(self.by), "n_slices": self.n_slices, "min_slice": self.min_slice, "labels": list(self.labels),
            "positive": self.positive, "metrics": list(self.metrics), "tested": list(self.tested),
            "overall": dict(self.overall), "slices": [r.to_dict() for r in self.rows],
            "heterogeneity": {k: h.to_dict() for k, h in self.heterogeneity.items()}, "worst": dict(self.worst),
            "alpha": self.alpha, "adjustment": self.adjustment.to_dict(), "samples": self.samples, "seed": self.seed,
            "notes": list(self.notes)}
        if self.binning:
            out["binning"] = [thaw(b) for b in self.binning]
        if self.ci is not None:
            out["ci"] = thaw(self.ci)
        if self.fairness is not None:
            out["fairness"] = self.fairness.to_dict()
        out["threshold"] = self.threshold
        return out

    def to_frame(self) -> pandas.DataFrame:
        """One row per slice × metric at the chosen cut (tidy, as a report's slices). Columns
        (``FRAME_COLUMNS['ThresholdSlices']`` of :mod:`clfeval.render._frames`): ``slice``, ``<by>``, ``n``,
        ``share``, ``small``, ``metric``, ``value``, ``ci_low``, ``ci_high``, ``gap_to_overall``, ``gap_to_rest``,
        ``p``, ``p_holm``, ``p_by``, ``flagged``, ``direction`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)
