"""The result of ``clfeval.ranking`` and ``clfeval.ranking_ovr``: :class:`RankingResult` and its parts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.ops.ranking._result": ("RankingResult",),
    "clfeval.ops.ranking._parts": ("OneVsRest", "LabelRanking", "RankingAverages", "UndefinedRanking"),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.ops.ranking._parts import (
        LabelRanking as LabelRanking,
        OneVsRest as OneVsRest,
        RankingAverages as RankingAverages,
        UndefinedRanking as UndefinedRanking,
    )
    from clfeval.ops.ranking._result import RankingResult as RankingResult
