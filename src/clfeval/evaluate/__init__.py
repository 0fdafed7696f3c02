"""One classifier on one test set: the report, its baselines, diagnostics and bootstrap intervals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.evaluate.reports": ("Report", "report_from_table"),
    "clfeval.evaluate.requirements": ("Requirement", "Requirements", "parse_requirement", "check_requirements"),
    "clfeval.evaluate.diagnostics": ("hardest_classes", "most_confused_pair", "top_confusions", "misclassified"),
    "clfeval.evaluate.baselines": ("majority_table", "uniform_table", "stratified_table"),
    "clfeval.evaluate.erroranalysis": ("ErrorAnalysis", "ErrorCell"),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.evaluate.baselines import (
        majority_table as majority_table,
        stratified_table as stratified_table,
        uniform_table as uniform_table,
    )
    from clfeval.evaluate.diagnostics import (
        hardest_classes as hardest_classes,
        misclassified as misclassified,
        most_confused_pair as most_confused_pair,
        top_confusions as top_confusions,
    )
    from clfeval.evaluate.erroranalysis import ErrorAnalysis as ErrorAnalysis, ErrorCell as ErrorCell
    from clfeval.evaluate.reports import Report as Report, report_from_table as report_from_table
    from clfeval.evaluate.requirements import (
        Requirement as Requirement,
        Requirements as Requirements,
        check_requirements as check_requirements,
        parse_requirement as parse_requirement,
    )

