"""clfeval: how good is a classifier really, and does it really beat another one?

Count once, derive everything: labels are encoded once, counted into tables
that add up, and every metric, baseline, diagnostic and resampling test is
computed from those tables.
"""

from __future__ import annotations

from clfeval._version import __version__
from clfeval.errors import ClfevalError, DataError, UsageError
from clfeval.scores.calibration import Calibration, reliability
from clfeval.scores.curves import Ranking, RankingOvR, ranking_ovr
from clfeval.evaluate.reports import Report, report_from_table
from clfeval.significance.paired import Comparison, MultiComparison, compare_many, holm
from clfeval.significance.delong import DeLongComparison, DeLongOvR, delong_compare, delong_ovr
from clfeval.significance.noninferiority import NonInferiority, noninferiority
# the front door: five operations, any input (arrays, a table with column names, a PATH), engine= a parameter
from clfeval.engines.spec import Dask, Local
from clfeval.engines.reporting import report
from clfeval.engines.comparing import compare
from clfeval.engines.scoreops import calibration, ranking, threshold
from clfeval.engines.errorops import error_analysis
from clfeval.evaluate.erroranalysis import ErrorAnalysis
from clfeval.protocols.rankinput import rank
from clfeval.significance.multirank import RankResult
from clfeval.scores.thresholds import LabelThresholds, ThresholdChoice, choose_label_thresholds, choose_threshold
import clfeval.render  # noqa: F401  (fills the display registry: str() and _repr_html_ of results)
from clfeval.core.tables import (
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
    "Local",
    "Dask",
    "report",
    "compare",
    "threshold",
    "calibration",
    "ranking",
    "error_analysis",
    "rank",
    "RankResult",
    "ErrorAnalysis",
    "Report",
    "report_from_table",
    "Comparison",
    "MultiComparison",
    "compare_many",
    "holm",
    "delong_compare",
    "delong_ovr",
    "noninferiority",
    "DeLongComparison",
    "DeLongOvR",
    "NonInferiority",
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
    "ranking_ovr",
    "ThresholdChoice",
    "LabelThresholds",
    "choose_threshold",
    "choose_label_thresholds",
    "Calibration",
    "reliability",
]
