"""The result of ``clfeval.error_analysis``: :class:`ErrorAnalysis`, its cells and their parts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.ops.errors._result": ("ErrorAnalysis", "ErrorCell", "ErrorTerm", "ErrorExample", "ConfidentMistake",
                                   "CategoryCounts", "ErrorPrior", "TextAnalyzer", "ErrorSettings", "ErrorSlice",
                                   "LikelyGoldError", "LabelIssueMarks"),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules: resolved lazily like _EXPORTS, but
# neither in __all__ nor in dir().
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.ops.errors._result": ("ALPHA_W", "FN", "FP", "PRIOR_REFERENCE"),
}
if TYPE_CHECKING:  # _INTERNAL, for type checkers
    from clfeval.ops.errors._result import (
        ALPHA_W as ALPHA_W,
        FN as FN,
        FP as FP,
        PRIOR_REFERENCE as PRIOR_REFERENCE,
    )
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL)

if TYPE_CHECKING:
    from clfeval.ops.errors._result import (
        CategoryCounts as CategoryCounts,
        ConfidentMistake as ConfidentMistake,
        ErrorAnalysis as ErrorAnalysis,
        ErrorCell as ErrorCell,
        ErrorExample as ErrorExample,
        ErrorPrior as ErrorPrior,
        ErrorSettings as ErrorSettings,
        ErrorSlice as ErrorSlice,
        ErrorTerm as ErrorTerm,
        LabelIssueMarks as LabelIssueMarks,
        LikelyGoldError as LikelyGoldError,
        TextAnalyzer as TextAnalyzer,
    )
