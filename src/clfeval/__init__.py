"""clfeval: how good is a classifier really, and does it really beat another one?

Count once, derive everything: labels are encoded once, counted into tables
that add up, and every metric, baseline, diagnostic and resampling test is
computed from those tables.

The front door is here (``clfeval.report``, ``compare``, ``threshold``, ``calibration``, ``ranking``,
``error_analysis``, ``rank``, ``power``, ``label_issues``; ``engine=Local(...)`` or ``Dask(...)``); each stage
package lists what it offers in its own ``__all__`` (``from clfeval.significance import power_compare``);
docs/reference/api.md lists them all. Every name is imported when it is first used (PEP 562), so ``import clfeval``
imports neither NumPy nor pyarrow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval._version import __version__ as __version__
from clfeval.core._display import set_loader as _set_loader
from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.errors": ("ClfevalError", "DataError", "UsageError"),
    # the front door: six operations, any input (arrays, a table with column names, a PATH), engine= a parameter
    "clfeval.engines": ("Local", "Dask"),
    "clfeval.front._report": ("report",),
    "clfeval.front._compare": ("compare",),
    "clfeval.ops.compare._result": ("Compared",),
    "clfeval.front._scores": ("threshold", "calibration", "ranking"),
    "clfeval.ops.threshold._result": ("ThresholdResult",),
    "clfeval.ops.calibration._result": ("Calibration",),
    "clfeval.ops.ranking._result": ("RankingResult",),
    "clfeval.front._errors": ("error_analysis",),
    "clfeval.ops.errors._result": ("ErrorAnalysis",),
    "clfeval.front._rank": ("rank",),
    "clfeval.ops.rank._result": ("RankResult",),
    # issue 39: cv and holdout, a text model under an honest protocol (Local only: fitting is not distributed)
    "clfeval.front._protocols": ("cv", "holdout"),
    "clfeval.protocols._results": ("ProtocolResult",),
    "clfeval.front._power": ("power",),
    "clfeval.ops.power._result": ("PowerResult",),
    # issue 41: likely label errors by confident learning
    "clfeval.front._labelissues": ("label_issues",),
    "clfeval.ops.label_issues._result": ("LabelIssues",),
    "clfeval.ops.report._result": ("Report",),
    "clfeval.evaluate._reports": ("report_from_table",),
    "clfeval.significance._paired": ("compare_many", "holm"),
    "clfeval.significance._delong": ("delong_compare", "delong_ovr"),
    "clfeval.significance._noninferiority": ("noninferiority",),
    "clfeval.core._tables": ("ConfusionTable", "MultilabelTable", "JointTable", "ConfusionAccumulator",
                            "MultilabelAccumulator", "confusion_table", "multilabel_table", "joint_table"),
    "clfeval.scores._curves": ("ranking_ovr",),
    "clfeval.scores._thresholds": ("choose_threshold", "choose_label_thresholds"),
    "clfeval.scores._calibration": ("reliability",),
}

#: The stage packages (and the exceptions module), reachable as attributes after ``import clfeval``.
SUBPACKAGES = ("core", "ops", "io", "scores", "text", "evaluate", "significance", "protocols", "studies", "engines",
               "front", "plots", "render", "errors")

# Kept importable for one release (issue 36): each merged into Compared, what every comparison returns now
# (its variant a typed part: pair, many, delong, delong_ovr, noninferiority); each access warns.
_MOVED = {name: ("clfeval.ops.compare._result", "Compared", "clfeval.Compared")
          for name in ("Comparison", "MultiComparison", "DeLongComparison", "DeLongOvR", "NonInferiority")}
# ... and each merged into RankingResult, what ranking and ranking_ovr return now.
_MOVED.update({name: ("clfeval.ops.ranking._result", "RankingResult", "clfeval.RankingResult")
               for name in ("Ranking", "RankingOvR")})
# ... and both merged into ThresholdResult, what every threshold choice returns now (issue 36).
_MOVED.update({name: ("clfeval.ops.threshold._result", "ThresholdResult", "clfeval.ThresholdResult")
               for name in ("ThresholdChoice", "LabelThresholds")})
__all__ = ["__version__", *_names(_EXPORTS), *_MOVED]
__getattr__, __dir__ = _attach(__name__, _EXPORTS, SUBPACKAGES, moved=_MOVED)

# Results show themselves (str(), _repr_html_) through the renderers, imported when a result is first shown.
_set_loader("clfeval.render")

if TYPE_CHECKING:
    from clfeval.core._tables import (
        ConfusionAccumulator as ConfusionAccumulator,
        ConfusionTable as ConfusionTable,
        JointTable as JointTable,
        MultilabelAccumulator as MultilabelAccumulator,
        MultilabelTable as MultilabelTable,
        confusion_table as confusion_table,
        joint_table as joint_table,
        multilabel_table as multilabel_table,
    )
    from clfeval.engines import Dask as Dask, Local as Local
    from clfeval.errors import ClfevalError as ClfevalError, DataError as DataError, UsageError as UsageError
    from clfeval.evaluate._reports import report_from_table as report_from_table
    from clfeval.front._compare import compare as compare
    from clfeval.front._errors import error_analysis as error_analysis
    from clfeval.front._labelissues import label_issues as label_issues
    from clfeval.front._power import power as power
    from clfeval.front._protocols import cv as cv, holdout as holdout
    from clfeval.front._rank import rank as rank
    from clfeval.front._report import report as report
    from clfeval.front._scores import calibration as calibration, ranking as ranking, threshold as threshold
    from clfeval.ops.calibration._result import Calibration as Calibration
    from clfeval.ops.compare._result import Compared as Compared
    from clfeval.ops.errors._result import ErrorAnalysis as ErrorAnalysis
    from clfeval.ops.label_issues._result import LabelIssues as LabelIssues
    from clfeval.ops.power._result import PowerResult as PowerResult
    from clfeval.ops.rank._result import RankResult as RankResult
    from clfeval.ops.ranking._result import RankingResult as RankingResult
    from clfeval.ops.report._result import Report as Report
    from clfeval.ops.threshold._result import ThresholdResult as ThresholdResult
    from clfeval.protocols._results import ProtocolResult as ProtocolResult
    from clfeval.scores._calibration import reliability as reliability
    from clfeval.scores._curves import ranking_ovr as ranking_ovr
    from clfeval.scores._thresholds import (
        choose_label_thresholds as choose_label_thresholds,
        choose_threshold as choose_threshold,
    )
    from clfeval.significance._delong import delong_compare as delong_compare, delong_ovr as delong_ovr
    from clfeval.significance._noninferiority import noninferiority as noninferiority
    from clfeval.significance._paired import compare_many as compare_many, holm as holm
