"""What :func:`clfeval.compare` returns: :class:`Compared`, one type whatever the test, its variants as typed
parts (two systems, several, DeLong's test and its one-vs-rest form, non-inferiority, slices)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.ops.compare._result": ("Compared",),
    "clfeval.ops.compare._kinds": ("PairPart", "ManyPart", "DeLongPart", "DeLongOvRPart", "NonInferiorityPart",
                                   "SlicedPart", "SliceRow"),
    "clfeval.ops.compare._parts": ("PairIntervals", "BcaIntervals", "TestBound", "ResampledCounts", "McNemarCounts",
                                   "Distribution", "PhiDelta", "PhiDeltaPoint", "Undefined"),
    "clfeval.ops.compare._robust": ("Robustness", "RobustVariant"),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules: resolved lazily like _EXPORTS, but neither
# in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.ops.compare._parts": ("Interval", "TestCounts", "as_float", "interval", "interval_or_none"),
    "clfeval.ops.compare._result": ("KINDS",),
    "clfeval.ops.compare._robust": ("survival_sentence",),
}
if TYPE_CHECKING:  # _INTERNAL, for type checkers
    from clfeval.ops.compare._parts import (
        Interval as Interval,
        TestCounts as TestCounts,
        as_float as as_float,
        interval as interval,
        interval_or_none as interval_or_none,
    )
    from clfeval.ops.compare._result import KINDS as KINDS
    from clfeval.ops.compare._robust import survival_sentence as survival_sentence
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL)

if TYPE_CHECKING:
    from clfeval.ops.compare._kinds import (
        DeLongOvRPart as DeLongOvRPart,
        DeLongPart as DeLongPart,
        ManyPart as ManyPart,
        NonInferiorityPart as NonInferiorityPart,
        PairPart as PairPart,
        SlicedPart as SlicedPart,
        SliceRow as SliceRow,
    )
    from clfeval.ops.compare._parts import (
        BcaIntervals as BcaIntervals,
        Distribution as Distribution,
        McNemarCounts as McNemarCounts,
        PairIntervals as PairIntervals,
        PhiDelta as PhiDelta,
        PhiDeltaPoint as PhiDeltaPoint,
        ResampledCounts as ResampledCounts,
        TestBound as TestBound,
        Undefined as Undefined,
    )
    from clfeval.ops.compare._result import Compared as Compared
    from clfeval.ops.compare._robust import Robustness as Robustness, RobustVariant as RobustVariant
