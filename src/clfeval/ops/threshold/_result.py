"""The one result of ``clfeval.threshold``: :class:`ThresholdResult`, whatever the variant.

One score column gives a cut choice (:class:`~clfeval.ops.threshold.ChosenCut`: default → chosen on the
development data → hindsight); multi-label data one cut per label (:class:`~clfeval.ops.threshold.LabelCuts`);
``by=`` adds the test data per slice at the chosen cut (:class:`~clfeval.ops.threshold.ThresholdSlices`). Each
variant is an optional typed field; the attributes of the earlier types (``r.threshold``, ``r.test``,
``r.thresholds``, ``r.per_label``, ...) are properties reading them. ``to_dict()`` is the JSON of ``clfeval
threshold``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clfeval.core import Display, EngineInfo, FrozenDict, freeze_fields, thaw
from clfeval.ops.threshold._parts import ChosenCut, CutAverages, CutRow, LabelCut, LabelCuts, SortedRuns, Sweep
from clfeval.ops.threshold._slices import ThresholdSlices

if TYPE_CHECKING:
    import pandas

__all__ = ["ThresholdResult"]


@dataclass(frozen=True)
class ThresholdResult(Display):
    """A cut chosen honestly on development data and measured on the test data: the one result of
    ``clfeval.threshold``.

    Exactly one of ``choice`` (one score column) and ``labels_cuts`` (one cut per label) is set.

    Attributes
    ----------
    objective : str
        The objective the cut optimises (``f1``, ``f0.5``, ``cost``, ``precision>=0.9``, ...).
    objective_description : str
        The objective and its tie rule, in words.
    rule : str
        How a cut is applied: an item is predicted positive iff its score ≥ threshold.
    n_test : int
        Test items.
    n_dev : int or None
        Development items (None without development data).
    notes : tuple of str
        What the reader should know (the hindsight cut is optimistic, labels that kept their default, ...).
    signature : Mapping[str, object]
        The signature (version, objective, costs, zero_division, rule), read-only.
    choice : ChosenCut or None
        One score column: the default, chosen and hindsight cuts and the sweep.
    labels_cuts : LabelCuts or None
        Multi-label data: each label's cuts and the averages over labels.
    slices : ThresholdSlices or None
        ``by=``: the test data per slice at the chosen cut.
    external : SortedRuns or None
        How a streamed or distributed ranking was computed (None in memory).
    engine : EngineInfo or None
        Where it ran (None: made outside the front door).
    """

    objective: str
    objective_description: str
    rule: str
    n_test: int
    n_dev: int | None
    notes: tuple[str, ...] = ()
    signature: Mapping[str, object] = field(default_factory=FrozenDict)
    choice: ChosenCut | None = None
    labels_cuts: LabelCuts | None = None
    slices: ThresholdSlices | None = None
    external: SortedRuns | None = None
    engine: EngineInfo | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if (self.choice is None) == (self.labels_cuts is None):
            raise ValueError("a threshold result holds one cut choice or the cuts of every label")
        object.__setattr__(self, "notes", tuple(self.notes))
        freeze_fields(self, ("signature",))

    # --- one score column: a per-label result has none of these (AttributeError, naming what to read) ----------

    def _cut(self, name: str) -> ChosenCut:
        if self.choice is None:
            raise AttributeError(f"a threshold result with one cut per label has no {name}: read r.thresholds, "
                                 f"r.per_label and r.averages (r.labels_cuts)")
        return self.choice

    @property
    def positive(self) -> str:
        """The class whose scores are cut."""
        return self._cut("positive").positive

    @property
    def threshold(self) -> float | None:
        """The cut chosen on the development data (None without development data)."""
        return self._cut("threshold").threshold

    @property
    def default(self) -> CutRow:
        """The default cut on the test data."""
        return self._cut("default").default

    @property
    def test(self) -> CutRow | None:
        """The chosen cut on the test data."""
        return self._cut("test").test

    @property
    def hindsight(self) -> CutRow | None:
        """The best cut in hindsight (chosen on the test labels: optimistic)."""
        return self._cut("hindsight").hindsight

    @property
    def dev(self) -> CutRow | None:
        """The chosen cut on the development data."""
        return self._cut("dev").dev

    @property
    def sweep(self) -> Sweep | None:
        """The threshold sweep of the test data."""
        return self._cut("sweep").sweep

    # --- one cut per label: a result of one score column has none of these --------------------------------

    def _labels(self, name: str) -> LabelCuts:
        if self.labels_cuts is None:
            raise AttributeError(f"a threshold result of one score column has no {name}: read r.threshold, "
                                 f"r.default, r.test and r.hindsight (r.choice)")
        return self.labels_cuts

    @property
    def labels(self) -> tuple[str, ...]:
        """The labels (score columns), in order."""
        return self._labels("labels").labels

    @property
    def thresholds(self) -> Mapping[str, float | None]:
        """Each label's chosen cut (None: it keeps its default)."""
        return self._labels("thresholds").thresholds

    @property
    def per_label(self) -> Mapping[str, LabelCut]:
        """Each label's cuts and rows."""
        return self._labels("per_label").per_label

    @property
    def averages(self) -> Mapping[str, CutAverages]:
        """The averages over labels at the default, tuned and hindsight cuts."""
        return self._labels("averages").averages

    def to_dict(self) -> dict[str, object]:
        """The JSON of ``clfeval threshold`` (a plain, mutable copy; ``engine`` last)."""
        counts: dict[str, object] = {"n_test": self.n_test, "n_dev": self.n_dev, "notes": list(self.notes),
                                     "signature": thaw(self.signature)}
        if self.choice is not None:
            c = self.choice.to_dict()
            sweep = c.pop("sweep", None)
            out: dict[str, object] = {"positive": c.pop("positive"), "objective": self.objective,
                                      "objective_description": self.objective_description, "rule": self.rule,
                                      **c, **counts}
            if sweep is not None:
                out["sweep"] = sweep
        else:
            assert self.labels_cuts is not None  # __post_init__
            lc = self.labels_cuts.to_dict()
            out = {"labels": lc.pop("labels"), "objective": self.objective,
                   "objective_description": self.objective_description, "rule": self.rule, **lc, **counts}
        if self.external is not None:
            out["external"] = self.external.to_dict()
        if self.slices is not None:
            out["slices"] = self.slices.to_dict()
        return out

    def to_frame(self) -> pandas.DataFrame:
        """The cuts: one row per cut (``default``, ``dev``, ``test``, ``hindsight``); per label (``labels_cuts``) one
        row per label × cut; by slice the slices' tidy table (``slices.to_frame()``). The sweep:
        ``sweep.to_frame()``. Columns (``FRAME_COLUMNS['ThresholdResult']`` of :mod:`clfeval.render._frames`):
        ``label``, ``cut``, ``threshold``, ``tp``, ``fp``, ``fn``, ``tn``, ``precision``, ``recall``, ``f1``,
        ``fbeta``, ``fpr``, ``accuracy``, ``cost``, ``source``, ``slice``, ``<by>``, ``n``, ``share``, ``small``,
        ``metric``, ``value``, ``ci_low``, ``ci_high``, ``gap_to_overall``, ``gap_to_rest``, ``p``, ``p_holm``,
        ``p_by``, ``flagged``, ``direction`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)
