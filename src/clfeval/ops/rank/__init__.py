"""The result of ``clfeval.rank``: :class:`RankResult`, systems ranked over data sets, and its parts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.ops.rank._result": ("RankResult",),
    "clfeval.ops.rank._parts": ("FriedmanTest", "NemenyiTest", "RankPair", "ControlPair", "ControlComparisons",
                                "BayesPair", "RankCondition", "RankRequirements"),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.ops.rank._parts import (
        BayesPair as BayesPair,
        ControlComparisons as ControlComparisons,
        ControlPair as ControlPair,
        FriedmanTest as FriedmanTest,
        NemenyiTest as NemenyiTest,
        RankCondition as RankCondition,
        RankPair as RankPair,
        RankRequirements as RankRequirements,
    )
    from clfeval.ops.rank._result import RankResult as RankResult
