"""clfeval: how good is a classifier really, and does it really beat another one?

Count once, derive everything: labels are encoded once, counted into tables
that add up, and every metric, baseline, diagnostic and resampling test is
computed from those tables.
"""

from __future__ import annotations

__version__ = "0.1.0"

from clfeval.errors import ClfevalError, DataError, UsageError  # noqa: E402
from clfeval.calibration import Calibration, reliability  # noqa: E402
from clfeval.curves import Ranking, RankingOvR, ranking, ranking_ovr  # noqa: E402
from clfeval.reports import Report, report, report_from_table  # noqa: E402
from clfeval.significance import Comparison, MultiComparison, compare, compare_many, holm  # noqa: E402
from clfeval.thresholds import LabelThresholds, ThresholdChoice, choose_label_thresholds, choose_threshold  # noqa: E402
import clfeval.render  # noqa: E402,F401  (fills the display registry: str() and _repr_html_ of results)
from clfeval.tables import (  # noqa: E402
    ConfusionAccumulator,
    ConfusionTable,
    JointTable,
    MultilabelAccumulator,
    MultilabelTable,
    confusion_table,
    joint_table,
    multilabel_table,
)

__all__ = [
    "__version__",
    "ClfevalError",
    "DataError",
    "UsageError",
    "Report",
    "report",
    "report_from_table",
    "Comparison",
    "MultiComparison",
    "compare",
    "compare_many",
    "holm",
    "ConfusionTable",
    "MultilabelTable",
    "JointTable",
    "ConfusionAccumulator",
    "MultilabelAccumulator",
    "confusion_table",
    "multilabel_table",
    "joint_table",
    "Ranking",
    "RankingOvR",
    "ranking",
    "ranking_ovr",
    "ThresholdChoice",
    "LabelThresholds",
    "choose_threshold",
    "choose_label_thresholds",
    "Calibration",
    "reliability",
]
