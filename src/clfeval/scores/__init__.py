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
    from clfeval.scores.curves import Ranking, RankingOvR, ranking_ovr
    from clfeval.scores.thresholds import LabelThresholds, ThresholdChoice, choose_label_thresholds, choose_threshold
    from clfeval.scores.calibration import Calibration, reliability
    from clfeval.scores.external import RankingStore
    from clfeval.scores.streamovr import stream_binary, stream_ovr
    from clfeval.scores.binned import BinnedJoint, RowSample, ScoreHistogram, quantile_binning, uniform_binning

