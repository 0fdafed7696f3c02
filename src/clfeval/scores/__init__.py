"""Scores: score columns, rankings (ROC/PR, AP), threshold objectives and choices, calibration."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.scores.curves": ("Ranking", "RankingOvR", "ranking_ovr"),
    "clfeval.scores.thresholds": ("ThresholdChoice", "LabelThresholds", "choose_threshold", "choose_label_thresholds"),
    "clfeval.scores.calibration": ("Calibration", "reliability"),
    "clfeval.scores.external": ("RankingStore",),
    "clfeval.scores.streamovr": ("stream_binary", "stream_ovr"),
    "clfeval.scores.binned": ("ScoreHistogram", "BinnedJoint", "RowSample", "uniform_binning", "quantile_binning"),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.scores.binned import (
        BinnedJoint as BinnedJoint,
        RowSample as RowSample,
        ScoreHistogram as ScoreHistogram,
        quantile_binning as quantile_binning,
        uniform_binning as uniform_binning,
    )
    from clfeval.scores.calibration import Calibration as Calibration, reliability as reliability
    from clfeval.scores.curves import Ranking as Ranking, RankingOvR as RankingOvR, ranking_ovr as ranking_ovr
    from clfeval.scores.external import RankingStore as RankingStore
    from clfeval.scores.streamovr import stream_binary as stream_binary, stream_ovr as stream_ovr
    from clfeval.scores.thresholds import (
        LabelThresholds as LabelThresholds,
        ThresholdChoice as ThresholdChoice,
        choose_label_thresholds as choose_label_thresholds,
        choose_threshold as choose_threshold,
    )

