"""What :func:`clfeval.threshold` returns: :class:`ThresholdResult`, one type whatever the variant, its variants as
typed parts (one score column's cut choice, one cut per label, the slices at the chosen cut)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.ops.threshold._result": ("ThresholdResult",),
    "clfeval.ops.threshold._parts": ("ChosenCut", "CutRow", "Sweep", "SortedRuns", "LabelCuts", "LabelCut",
                                     "CutAverages"),
    "clfeval.ops.threshold._slices": ("ThresholdSlices", "SliceRow", "SliceTest", "SliceHeterogeneity",
                                      "SliceAdjustment", "SliceFairness"),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.ops.threshold._parts import (
        ChosenCut as ChosenCut,
        CutAverages as CutAverages,
        CutRow as CutRow,
        LabelCut as LabelCut,
        LabelCuts as LabelCuts,
        SortedRuns as SortedRuns,
        Sweep as Sweep,
    )
    from clfeval.ops.threshold._result import ThresholdResult as ThresholdResult
    from clfeval.ops.threshold._slices import (
        SliceAdjustment as SliceAdjustment,
        SliceFairness as SliceFairness,
        SliceHeterogeneity as SliceHeterogeneity,
        SliceRow as SliceRow,
        SliceTest as SliceTest,
        ThresholdSlices as ThresholdSlices,
    )
