"""The result of ``clfeval.report``: :class:`Report`, its per-class rows, blocks and optional parts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.ops.report._result": ("Report",),
    "clfeval.ops.report._rows": ("ClassRow", "BinaryRow", "Averages", "OrdinalScores", "ConfusedPair", "Confusion",
                                 "Diagnostics", "BaselineClass", "Baseline", "Baselines", "UndefinedValue",
                                 "MisclassifiedItem", "Misclassified", "ConfusionCells"),
    "clfeval.ops.report._parts": ("Intervals", "RankingPart", "RankingClass", "RankingIntervals", "MeasureInterval",
                                  "InputsPart", "Alias", "SlicesPart", "SliceRow", "SliceTest", "RequirementsPart",
                                  "Condition", "ErrorsSharePart"),
    "clfeval.ops.report._found": ("FoundSlices", "FoundSlice", "ParentCheck", "SliceProportion"),
    "clfeval.ops.report._block": ("Block",),
}

__all__ = _names(_EXPORTS)
# Names other stages import from this package's private modules: resolved lazily, not in __all__ nor dir().
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.ops.report._result": ("PART_KEYS", "SCHEMA_VERSION"),
    "clfeval.ops.report._block": ("Json", "Bound", "plain"),
}
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL)

if TYPE_CHECKING:
    from clfeval.ops.report._block import (
        Block as Block,
        Bound as Bound,
        Json as Json,
        plain as plain,
    )
    from clfeval.ops.report._found import (
        FoundSlice as FoundSlice,
        FoundSlices as FoundSlices,
        ParentCheck as ParentCheck,
        SliceProportion as SliceProportion,
    )
    from clfeval.ops.report._parts import (
        Alias as Alias,
        Condition as Condition,
        ErrorsSharePart as ErrorsSharePart,
        InputsPart as InputsPart,
        Intervals as Intervals,
        MeasureInterval as MeasureInterval,
        RankingClass as RankingClass,
        RankingIntervals as RankingIntervals,
        RankingPart as RankingPart,
        RequirementsPart as RequirementsPart,
        SliceRow as SliceRow,
        SlicesPart as SlicesPart,
        SliceTest as SliceTest,
    )
    from clfeval.ops.report._result import (
        PART_KEYS as PART_KEYS,
        SCHEMA_VERSION as SCHEMA_VERSION,
        Report as Report,
    )
    from clfeval.ops.report._rows import (
        Averages as Averages,
        Baseline as Baseline,
        BaselineClass as BaselineClass,
        Baselines as Baselines,
        BinaryRow as BinaryRow,
        ClassRow as ClassRow,
        ConfusedPair as ConfusedPair,
        Confusion as Confusion,
        ConfusionCells as ConfusionCells,
        Diagnostics as Diagnostics,
        Misclassified as Misclassified,
        MisclassifiedItem as MisclassifiedItem,
        OrdinalScores as OrdinalScores,
        UndefinedValue as UndefinedValue,
    )
