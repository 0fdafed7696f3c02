"""The optional parts of a report, one typed, frozen block each (None on the report when not asked for).

``ci`` (:class:`Intervals`), ``ranking`` (:class:`RankingPart`), ``ranking_ci`` (:class:`RankingIntervals`),
``inputs`` (:class:`InputsPart`), ``slices`` (:class:`SlicesPart`), ``requirements`` (:class:`RequirementsPart`)
and ``errors_share`` (:class:`ErrorsSharePart`); ``find_slices`` is :class:`~clfeval.ops.report._found.FoundSlices`
and ``engine`` the core's :class:`~clfeval.core.EngineInfo`. Each is built from the JSON object it lays out
(:meth:`~clfeval.ops.report._block.Block.of`) and gives it back (``to_dict()``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clfeval.core import FrozenDict
from clfeval.ops.report._block import Block, Bound, Json, block_map, blocks

if TYPE_CHECKING:
    import pandas

__all__ = ["Intervals", "RankingPart", "RankingClass", "RankingIntervals", "MeasureInterval", "InputsPart",
           "Alias", "SlicesPart", "SliceRow", "SliceTest", "RequirementsPart", "Condition", "ErrorsSharePart"]


@dataclass(frozen=True)
class Intervals(Block):
    """Bootstrap (or Wilson, BCa) intervals of the count metrics, at the report's own keys
    (``r.ci.macro["f1"]`` is ``[low, high]``, ``r.ci.per_class["spam"]["recall"]`` too).

    Attributes
    ----------
    level : float
        The confidence level.
    samples : int or None
        Bootstrap replicates.
    seed : int or None
        Their seed.
    method : str
        How the intervals were made, in words.
    resampling : str or None
        What was resampled.
    zero_division : str or None
        The 0/0 policy of the replicates.
    accuracy, error_rate, balanced_accuracy, mcc, kappa, subset_accuracy, hamming_loss, jaccard : Bound or None
        The overall numbers' intervals.
    macro, micro, weighted, ordinal, binary : mapping of str to Bound, or None
        Each block's intervals by metric.
    per_class : mapping of str to mapping of str to Bound, or None
        By label, then by metric.
    methods : mapping of str to str, or None
        The method of each interval by dotted path (``macro.f1``: ``bca``).
    values : mapping of str to float, or None
        The observed value at each dotted path.
    note : str or None
        Undefined or infinite replicates.
    """

    level: float = math.nan
    samples: int | None = None
    seed: int | None = None
    method: str | None = None
    resampling: str | None = None
    zero_division: str | None = None
    accuracy: Bound | None = None
    error_rate: Bound | None = None
    balanced_accuracy: Bound | None = None
    mcc: Bound | None = None
    kappa: Bound | None = None
    subset_accuracy: Bound | None = None
    hamming_loss: Bound | None = None
    jaccard: Bound | None = None
    macro: Mapping[str, Bound] | None = None
    micro: Mapping[str, Bound] | None = None
    weighted: Mapping[str, Bound] | None = None
    ordinal: Mapping[str, Bound] | None = None
    per_class: Mapping[str, Mapping[str, Bound]] | None = None
    binary: Mapping[str, Bound] | None = None
    methods: Mapping[str, str] | None = None
    values: Mapping[str, float | None] | None = None
    note: str | None = None


@dataclass(frozen=True)
class RankingClass(Block):
    """One class of a one-vs-rest ranking.

    Attributes
    ----------
    roc_auc, average_precision : float
        Of the class's scores against the rest.
    support : int
        Its items.
    prevalence : float
        Its share.
    """

    roc_auc: float = math.nan
    average_precision: float = math.nan
    support: int = 0
    prevalence: float = math.nan


@dataclass(frozen=True)
class RankingPart(Block):
    """What the scores say: ROC-AUC and average precision of one positive class (with partial ROC-AUC), or the
    one-vs-rest ``macro`` / ``micro`` / ``weighted`` means and ``per_class`` values.

    Every ranking measure of the metric catalogue reads as an attribute (``r.ranking.roc_auc``,
    ``r.ranking.partial_roc_auc``; one-vs-rest: the macro mean), and so does each measure's parameter
    (``r.ranking.max_fpr``); NaN where the part does not hold it. Measures the fields below do not name (added
    to the catalogue) are kept in ``more``.

    Attributes
    ----------
    kind : str or None
        One-vs-rest: the kind of ranking.
    positive : str or None
        The positive class (one column of scores).
    n, n_positive, n_negative : int or None
        Items; positives and negatives.
    labels : sequence of str or None
        One-vs-rest: the classes.
    per_class : mapping of str to RankingClass, or None
        One-vs-rest: each class's values.
    prevalence : float or None
        The positives' share.
    roc_auc, average_precision : float
        ROC-AUC and average precision (one-vs-rest: the macro mean); NaN when not held.
    partial_roc_auc : float
        The partial ROC-AUC up to ``max_fpr`` (one positive class; NaN otherwise).
    max_fpr : float
        Its false-positive-rate limit (NaN when not held).
    pairs : int or None
        Positive–negative pairs.
    pairs_in_order : float or None
        Those ranked in order (ties count one half).
    random : mapping of str to float, or None
        What random scores would give.
    macro, weighted, micro : mapping of str to float, or None
        One-vs-rest means.
    threshold : mapping of str to Json, or None
        The counts at the cut ``threshold=``.
    undefined : sequence of mapping of str to Json, or None
        Undefined measures, each with its reason.
    notes : sequence of str or None
    signature : mapping of str to object, or None
        The ranking's signature.
    curves : mapping of str to Json, or None
        The ROC and precision–recall curves' points, simplified for drawing (one-vs-rest: by class).
    external : mapping of str to Json, or None
        Scores sorted outside memory: the budget, whether runs were spilled, how many.
    binned : mapping of str to Json, or None
        Scores binned (``score_bins=``): how.
    more : mapping of str to Json
        Other catalogue measures and their parameters, by name.
    """

    kind: str | None = None
    positive: str | None = None
    n: int | None = None
    n_positive: int | None = None
    n_negative: int | None = None
    labels: Sequence[str] | None = None
    per_class: Mapping[str, RankingClass] | None = None
    prevalence: float | None = None
    roc_auc: float = math.nan
    average_precision: float = math.nan
    partial_roc_auc: float = math.nan
    max_fpr: float = math.nan
    pairs: int | None = None
    pairs_in_order: float | None = None
    random: Mapping[str, float] | None = None
    macro: Mapping[str, float] | None = None
    weighted: Mapping[str, float] | None = None
    micro: Mapping[str, float] | None = None
    threshold: Mapping[str, Json] | None = None
    undefined: Sequence[Mapping[str, Json]] | None = None
    notes: Sequence[str] | None = None
    signature: Mapping[str, object] | None = None
    curves: Mapping[str, Json] | None = None
    external: Mapping[str, Json] | None = None
    binned: Mapping[str, Json] | None = None
    more: Mapping[str, Json] = field(default_factory=FrozenDict)

    _nested = {"per_class": block_map(RankingClass)}
    _open = True

    def __getattr__(self, name: str) -> float:
        """A ranking measure of the catalogue (or its parameter) that has no field: NaN when not held."""
        from clfeval.core import catalog

        ranked = catalog.entries(input="ranking")
        if name.startswith("_") or name not in {m.name for m in ranked} | {p for m in ranked for p in m.params}:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        v = self.more.get(name)
        if v is None and self.macro is not None:
            v = self.macro.get(name)
        return math.nan if not isinstance(v, (int, float)) else float(v)


@dataclass(frozen=True)
class MeasureInterval(Block):
    """The intervals of one ranking measure.

    Attributes
    ----------
    value : float or None
        The measure.
    delong : mapping of str to Json, or None
        ROC-AUC: DeLong's interval (``ci``, ``se``, ``truncated``).
    interval : mapping of str to Json, or None
        The interval of the method chosen (``method``, ``name``, ``ci``, ...).
    bootstrap : mapping of str to Json, or None
        The bootstrap interval.
    """

    value: float | None = None
    delong: Mapping[str, Json] | None = None
    interval: Mapping[str, Json] | None = None
    bootstrap: Mapping[str, Json] | None = None


@dataclass(frozen=True)
class RankingIntervals(Block):
    """Intervals of the ranking measures (DeLong's and the bootstrap's), per measure (one-vs-rest: per class).

    Attributes
    ----------
    level : float
        The confidence level.
    samples, seed : int or None
        Bootstrap replicates and their seed.
    method : mapping of str to str, or None
        Each measure's method, in words.
    positive : str or None
    n_positive, n_negative : int or None
    roc_auc, average_precision : MeasureInterval or None
        One positive class: each measure's intervals.
    labels : sequence of str or None
        One-vs-rest: the classes.
    per_class : mapping of str to RankingIntervals, or None
        One-vs-rest: each class's intervals.
    bands : mapping of str to Json, or None
        Bands of the curves.
    bootstrap_left_out : str or None
        What the bootstrap leaves out.
    samples_used : int or None
        Replicates used.
    notes : sequence of str or None
    """

    level: float = math.nan
    samples: int | None = None
    seed: int | None = None
    method: Mapping[str, str] | None = None
    positive: str | None = None
    n_positive: int | None = None
    n_negative: int | None = None
    roc_auc: MeasureInterval | None = None
    average_precision: MeasureInterval | None = None
    labels: Sequence[str] | None = None
    per_class: Mapping[str, RankingIntervals] | None = None
    bands: Mapping[str, Json] | None = None
    bootstrap_left_out: str | None = None
    samples_used: int | None = None
    notes: Sequence[str] | None = None


RankingIntervals._nested = {"roc_auc": MeasureInterval.of, "average_precision": MeasureInterval.of,
                            "per_class": block_map(RankingIntervals)}


@dataclass(frozen=True)
class Alias(Block):
    """An input column skipped as an alias of another.

    Attributes
    ----------
    skipped, same_as : str
    """

    skipped: str = ""
    same_as: str = ""


@dataclass(frozen=True)
class InputsPart(Block):
    """What reading the input noticed.

    Attributes
    ----------
    aliases : tuple of Alias
        Columns skipped as aliases of others.
    """

    aliases: tuple[Alias, ...] = ()

    _nested = {"aliases": blocks(Alias)}


@dataclass(frozen=True)
class SliceTest(Block):
    """One slice against the rest, on one metric.

    Attributes
    ----------
    p, p_holm, p_by : float or None
        The p-value, Holm-adjusted and Benjamini–Yekutieli-adjusted.
    flagged, flagged_by : bool or None
        Holm (resp. BY) flags it.
    direction : str or None
        ``worse`` or ``better``.
    test : str or None
        The test, in words.
    """

    p: float | None = None
    p_holm: float | None = None
    p_by: float | None = None
    flagged: bool | None = None
    flagged_by: bool | None = None
    direction: str | None = None
    test: str | None = None


@dataclass(frozen=True)
class SliceRow(Block):
    """One slice of ``by=``: its metrics, gaps, tests against the rest.

    Attributes
    ----------
    slice : str
        Its name (``grp=n``).
    key : mapping of str to Json
        Its value of each column.
    n : int or float
        Its items.
    share : float
        Their share.
    small : bool
        Below ``min_slice`` items.
    gold_classes : int or None
        Gold classes in it.
    metrics : mapping of str to float or None
        Every slice metric by catalogue name.
    gap_to_overall, gap_to_rest : mapping of str to float or None
        Per tested metric.
    undefined : sequence of str or None
        Metrics undefined in it.
    baselines : mapping of str to float, or None
    tests : mapping of str to SliceTest
        Per tested metric.
    counts : mapping of str to sequence of int, or None
        Successes and trials (slice, rest) per tested metric.
    ci : mapping of str to Bound, or None
        Per tested metric: its interval (``ci=``): the overall ``ci_method`` run on the slice's own table.
    ranking : mapping of str to Json, or None
        Its ranking counts (with a score column): positives, negatives, pairs, pairs in order.
    """

    slice: str = ""
    key: Mapping[str, Json] | None = None
    n: int | float = 0
    share: float = math.nan
    small: bool = False
    gold_classes: int | None = None
    metrics: Mapping[str, float | None] | None = None
    gap_to_overall: Mapping[str, float | None] | None = None
    gap_to_rest: Mapping[str, float | None] | None = None
    undefined: Sequence[str] | None = None
    baselines: Mapping[str, float] | None = None
    tests: Mapping[str, SliceTest] | None = None
    counts: Mapping[str, Sequence[int | float]] | None = None
    ci: Mapping[str, Bound] | None = None
    ranking: Mapping[str, Json] | None = None

    _nested = {"tests": block_map(SliceTest)}


@dataclass(frozen=True)
class SlicesPart(Block):
    """The report per slice (``by=``): each slice's metrics, intervals and tests against the rest.

    Attributes
    ----------
    by : sequence of str
        The slice columns.
    n_slices : int
        Slices.
    min_slice : int
        Slices below it are small (shown, never flagged).
    labels : sequence of str or None
    positive : str or None
    metrics, tested : sequence of str or None
        The metrics shown; those tested.
    overall : mapping of str to float or None
        The metrics on all items.
    slices : tuple of SliceRow
        One row per slice (bins in numeric order, ``(missing)`` last).
    heterogeneity : mapping of str to mapping of str to Json, or None
        Per tested metric: the test across all slices.
    binning : sequence of mapping of str to Json, or None
        How numeric columns were binned, one per binned column.
    ranking : mapping of str to Json, or None
        The ranking measures over all items (with scores).
    notes : sequence of str or None
    method : mapping of str to Json, or None
        The tests, in words.
    worst : mapping of str to str, or None
        Per tested metric: the slice where it is worst.
    alpha : float or None
        The level of the tests.
    adjustment : mapping of str to Json, or None
        How the p-values are adjusted for the many slices.
    samples, seed : int or None
        Bootstrap replicates of the slice intervals and their seed.
    fairness : mapping of str to Json, or None
        Group fairness measures (``positive=``): differences and ratios between slices.
    ci : mapping of str to Json, or None
        How the slices' intervals were made (``ci=``): level, method, samples.
    """

    by: Sequence[str] = ()
    n_slices: int = 0
    min_slice: int = 0
    labels: Sequence[str] | None = None
    positive: str | None = None
    metrics: Sequence[str] | None = None
    tested: Sequence[str] | None = None
    overall: Mapping[str, float | None] | None = None
    slices: tuple[SliceRow, ...] = ()
    heterogeneity: Mapping[str, Mapping[str, Json]] | None = None
    binning: Sequence[Mapping[str, Json]] | None = None
    ranking: Mapping[str, Json] | None = None
    notes: Sequence[str] | None = None
    method: Mapping[str, Json] | None = None
    worst: Mapping[str, str] | None = None
    alpha: float | None = None
    adjustment: Mapping[str, Json] | None = None
    samples: int | None = None
    seed: int | None = None
    fairness: Mapping[str, Json] | None = None
    ci: Mapping[str, Json] | None = None

    _nested = {"slices": blocks(SliceRow)}

    def to_frame(self) -> pandas.DataFrame:
        """One row per slice × shown metric (tidy), slices in the part's order (bins in numeric order, ``(missing)``
        last), metrics in ``metrics`` order; intervals, gaps and tests NaN/None for untested metrics. Columns
        (``FRAME_COLUMNS['SlicesPart']`` of :mod:`clfeval.render._frames`): ``slice``, ``<by>``, ``n``, ``share``,
        ``small``, ``metric``, ``value``, ``ci_low``, ``ci_high``, ``gap_to_overall``, ``gap_to_rest``, ``p``,
        ``p_holm``, ``p_by``, ``flagged``, ``direction`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)

@dataclass(frozen=True)
class Condition(Block):
    """One ``require=`` condition.

    Attributes
    ----------
    condition : str
        As given (``macro_f1>=0.7``).
    metric : str
        The metric it reads.
    op : str
        The comparison.
    target : float or str
        A number, or a baseline's name.
    target_value : float or None
        The number compared with.
    value : float or None
        The metric's value.
    met : bool or None
        Whether it holds (None: undefined).
    undefined : str or None
        Why the value is undefined.
    interval : Bound or None
        The value's interval (``ci=``).
    interval_clears : bool or None
        The whole interval meets the condition.
    summary : str
        One line for the reader.
    note : str or None
    """

    condition: str = ""
    metric: str = ""
    op: str = ""
    target: float | str = math.nan
    target_value: float | None = None
    value: float | None = None
    met: bool | None = None
    undefined: str | None = None
    interval: Bound | None = None
    interval_clears: bool | None = None
    summary: str = ""
    note: str | None = None


@dataclass(frozen=True)
class RequirementsPart(Block):
    """The ``require=`` conditions, each met or not.

    Attributes
    ----------
    met : bool
        Every condition holds.
    conditions : tuple of Condition
    unmet : sequence of str
        The conditions that do not hold.
    notes : sequence of str
    """

    met: bool = False
    conditions: tuple[Condition, ...] = ()
    unmet: Sequence[str] = ()
    notes: Sequence[str] = ()

    _nested = {"conditions": blocks(Condition)}


@dataclass(frozen=True)
class ErrorsSharePart(Block):
    """The three largest confused cells of ``clfeval errors`` (the command line's ``report --text``), as that
    command's JSON gives them.

    Attributes
    ----------
    cells : sequence of mapping of str to Json
    prior, settings : mapping of str to Json
    notes : sequence of str
    """

    cells: Sequence[Mapping[str, Json]] = ()
    prior: Mapping[str, Json] | None = None
    settings: Mapping[str, Json] | None = None
    notes: Sequence[str] = ()
