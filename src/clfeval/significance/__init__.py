"""Is the difference real? Paired tests (bootstrap, randomization, McNemar, Holm), DeLong's test, model comparison
under cross-validation, power and sample size, bootstrap bands of curves."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.significance.paired": ("Comparison", "MultiComparison", "compare_many", "holm", "mcnemar"),
    "clfeval.significance.delong": ("AUCInterval", "DeLongComparison", "DeLongOvR", "delong_auc", "delong_test",
                                    "delong_ovr", "delong_compare"),
    "clfeval.significance.cvcompare": ("CVComparison", "cv_compare", "five_by_two_cv"),
    "clfeval.significance.power": ("McNemarPower", "BootstrapPower", "IntervalWidth", "power_compare",
                                   "mcnemar_exact_power", "mcnemar_power", "bootstrap_power", "interval_width"),
    "clfeval.significance.curvebands": ("CurveBands", "curve_bands"),
    "clfeval.significance.noninferiority": ("NonInferiority",),
    "clfeval.significance.binnedcompare": ("compare_binned",),
    "clfeval.significance.streamed": ("compare_stream",),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.significance.binnedcompare import compare_binned as compare_binned
    from clfeval.significance.curvebands import CurveBands as CurveBands, curve_bands as curve_bands
    from clfeval.significance.cvcompare import (
        CVComparison as CVComparison,
        cv_compare as cv_compare,
        five_by_two_cv as five_by_two_cv,
    )
    from clfeval.significance.delong import (
        AUCInterval as AUCInterval,
        DeLongComparison as DeLongComparison,
        DeLongOvR as DeLongOvR,
        delong_auc as delong_auc,
        delong_compare as delong_compare,
        delong_ovr as delong_ovr,
        delong_test as delong_test,
    )
    from clfeval.significance.noninferiority import NonInferiority as NonInferiority
    from clfeval.significance.paired import (
        Comparison as Comparison,
        MultiComparison as MultiComparison,
        compare_many as compare_many,
        holm as holm,
        mcnemar as mcnemar,
    )
    from clfeval.significance.power import (
        BootstrapPower as BootstrapPower,
        IntervalWidth as IntervalWidth,
        McNemarPower as McNemarPower,
        bootstrap_power as bootstrap_power,
        interval_width as interval_width,
        mcnemar_exact_power as mcnemar_exact_power,
        mcnemar_power as mcnemar_power,
        power_compare as power_compare,
    )
    from clfeval.significance.streamed import compare_stream as compare_stream

