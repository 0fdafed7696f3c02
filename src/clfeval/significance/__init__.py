"""Is the difference real? Paired tests (bootstrap, randomization, McNemar, Holm), DeLong's test, model comparison
under cross-validation, power and sample size, bootstrap bands of curves."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.significance._paired": ("compare_many", "holm", "mcnemar"),
    "clfeval.ops.compare._result": ("Compared",),
    "clfeval.significance._delong": ("AUCInterval", "delong_auc", "delong_test", "delong_ovr", "delong_compare"),
    "clfeval.significance._cvcompare": ("CVComparison", "cv_compare", "five_by_two_cv"),
    "clfeval.ops.power._result": ("McNemarPower", "BootstrapPower", "IntervalWidth"),
    "clfeval.significance._power": ("power_compare", "mcnemar_exact_power", "mcnemar_power", "bootstrap_power",
                                   "interval_width"),
    "clfeval.significance._curvebands": ("CurveBands", "curve_bands"),
    "clfeval.significance._binnedcompare": ("compare_binned",),
    "clfeval.significance._streamed": ("compare_stream",),
}

# Kept importable for one release (issue 36): each merged into Compared, what every comparison returns now
# (its variant a typed part: pair, many, delong, delong_ovr, noninferiority, sliced); each access warns.
_MOVED = {name: ("clfeval.ops.compare._result", "Compared", "clfeval.ops.compare.Compared")
          for name in ("Comparison", "MultiComparison", "DeLongComparison", "DeLongOvR", "NonInferiority",
                       "SlicedComparison")}
__all__ = _names(_EXPORTS) + list(_MOVED)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.significance._binnedcompare": ("compare_binned_batches",),
    "clfeval.significance._comparable": ("metric_label",),
    "clfeval.significance._cvcompare": ("TTest",),
    "clfeval.significance._delong": ("check_delong",),
    "clfeval.significance._multirank": ("check_condition_names", "check_settings", "pairs_of_text", "rank_scores"),
    # rank's result moved to clfeval.ops.rank (issue 36): the same type, still found here
    "clfeval.ops.rank._result": ("RankResult",),
    "clfeval.significance._noninferiority": ("check_margin",),
    "clfeval.significance._paired": ("SCORE_METRICS", "bootstrap_distribution", "check_metric", "compare",
                                     "compare_counts", "one_sided"),
    "clfeval.significance._power": ("check_alpha", "check_count_metric", "check_delta", "check_level", "check_power"),
    "clfeval.significance._rankingci": ("with_ranking_ci",),
    "clfeval.significance._results": ("check_alternative", "check_estimate", "gate", "with_estimate"),
    "clfeval.significance._streamed": ("JointCounts",),
}
_INTERNAL_MODULES: dict[str, str] = {
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.ops.rank._result import RankResult as RankResult
    from clfeval.significance._binnedcompare import compare_binned_batches as compare_binned_batches
    from clfeval.significance._comparable import metric_label as metric_label
    from clfeval.significance._cvcompare import TTest as TTest
    from clfeval.significance._delong import check_delong as check_delong
    from clfeval.significance._multirank import (
        check_condition_names as check_condition_names,
        check_settings as check_settings,
        pairs_of_text as pairs_of_text,
        rank_scores as rank_scores,
    )
    from clfeval.significance._noninferiority import check_margin as check_margin
    from clfeval.significance._paired import (
        SCORE_METRICS as SCORE_METRICS,
        bootstrap_distribution as bootstrap_distribution,
        check_metric as check_metric,
        compare as compare,
        compare_counts as compare_counts,
        one_sided as one_sided,
    )
    from clfeval.significance._power import (
        check_alpha as check_alpha,
        check_count_metric as check_count_metric,
        check_delta as check_delta,
        check_level as check_level,
        check_power as check_power,
    )
    from clfeval.significance._rankingci import with_ranking_ci as with_ranking_ci
    from clfeval.significance._results import (
        check_alternative as check_alternative,
        check_estimate as check_estimate,
        gate as gate,
        with_estimate as with_estimate,
    )
    from clfeval.significance._streamed import JointCounts as JointCounts
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES,
                               moved=_MOVED)

if TYPE_CHECKING:
    from clfeval.ops.compare._result import Compared as Compared
    from clfeval.ops.power._result import (
        BootstrapPower as BootstrapPower,
        IntervalWidth as IntervalWidth,
        McNemarPower as McNemarPower,
    )
    from clfeval.significance._binnedcompare import compare_binned as compare_binned
    from clfeval.significance._curvebands import CurveBands as CurveBands, curve_bands as curve_bands
    from clfeval.significance._cvcompare import (
        CVComparison as CVComparison,
        cv_compare as cv_compare,
        five_by_two_cv as five_by_two_cv,
    )
    from clfeval.significance._delong import (
        AUCInterval as AUCInterval,
        delong_auc as delong_auc,
        delong_compare as delong_compare,
        delong_ovr as delong_ovr,
        delong_test as delong_test,
    )
    from clfeval.significance._paired import (
        compare_many as compare_many,
        holm as holm,
        mcnemar as mcnemar,
    )
    from clfeval.significance._power import (
        bootstrap_power as bootstrap_power,
        interval_width as interval_width,
        mcnemar_exact_power as mcnemar_exact_power,
        mcnemar_power as mcnemar_power,
        power_compare as power_compare,
    )
    from clfeval.significance._streamed import compare_stream as compare_stream

