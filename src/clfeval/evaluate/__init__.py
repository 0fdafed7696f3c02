"""One classifier on one test set: the report, its baselines, diagnostics and bootstrap intervals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.ops.report._result": ("Report",),
    "clfeval.evaluate._reports": ("report_from_table",),
    "clfeval.ops.report._parts": ("Intervals", "RankingPart", "RankingIntervals", "InputsPart", "SlicesPart",
                                  "RequirementsPart", "ErrorsSharePart"),
    "clfeval.evaluate._requirements": ("Requirement", "Requirements", "parse_requirement", "check_requirements"),
    "clfeval.evaluate._diagnostics": ("hardest_classes", "most_confused_pair", "top_confusions", "misclassified"),
    "clfeval.evaluate._baselines": ("majority_table", "uniform_table", "stratified_table"),
    "clfeval.ops.errors._result": ("ErrorAnalysis", "ErrorCell"),
}

# Kept importable for one release (issue 36): each access warns and gives the type it merged into.
_MOVED = {"EnginePart": ("clfeval.core._engineinfo", "EngineInfo", "clfeval.core.EngineInfo"),
          "Part": ("clfeval.ops.report._block", "Block", "clfeval.ops.report.Block"),
          "FoundSlicesPart": ("clfeval.ops.report._found", "FoundSlices", "clfeval.ops.report.FoundSlices")}
__all__ = _names(_EXPORTS) + list(_MOVED)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.evaluate._baselines": ("TrainFrequencies", "multilabel_baselines", "single_label_baselines"),
    "clfeval.evaluate._cimethods": ("DEFAULT_RANKING", "METHOD_NAMES", "check_ci_methods", "check_method_labels",
                                    "parse_ci_methods", "ranking_method"),
    "clfeval.evaluate._erroranalysis": ("FN", "FP", "analyse"),
    "clfeval.evaluate._errorcount": ("ErrorCounter", "label_sets"),
    "clfeval.evaluate._errorstream": ("JOINED", "ErrorBatches", "check_settings", "check_unique_ids", "count_arrays",
                                      "counter_of",
                                      "error_batches", "item_scores", "joined_texts", "texts_of"),
    "clfeval.evaluate._intervals": ("table_ci", "wilson"),
    "clfeval.evaluate._reports": ("check_ids", "check_predictions", "report"),
    "clfeval.evaluate._requirements": ("with_requirements",),
    "clfeval.evaluate._scoredstream": ("gold_and_scores", "report_scored_batches", "score_binning"),
    "clfeval.evaluate._streaming": ("ReportCounts", "count_batches", "finish_report"),
}
_INTERNAL_MODULES: dict[str, str] = {
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.evaluate._baselines import (
        TrainFrequencies as TrainFrequencies,
        multilabel_baselines as multilabel_baselines,
        single_label_baselines as single_label_baselines,
    )
    from clfeval.evaluate._cimethods import (
        DEFAULT_RANKING as DEFAULT_RANKING,
        METHOD_NAMES as METHOD_NAMES,
        check_ci_methods as check_ci_methods,
        check_method_labels as check_method_labels,
        parse_ci_methods as parse_ci_methods,
        ranking_method as ranking_method,
    )
    from clfeval.evaluate._erroranalysis import FN as FN, FP as FP, analyse as analyse
    from clfeval.evaluate._errorcount import ErrorCounter as ErrorCounter, label_sets as label_sets
    from clfeval.evaluate._errorstream import (
        JOINED as JOINED,
        ErrorBatches as ErrorBatches,
        check_settings as check_settings,
        check_unique_ids as check_unique_ids,
        count_arrays as count_arrays,
        counter_of as counter_of,
        error_batches as error_batches,
        item_scores as item_scores,
        joined_texts as joined_texts,
        texts_of as texts_of,
    )
    from clfeval.evaluate._intervals import table_ci as table_ci, wilson as wilson
    from clfeval.evaluate._reports import (
        check_ids as check_ids,
        check_predictions as check_predictions,
        report as report,
    )
    from clfeval.evaluate._requirements import with_requirements as with_requirements
    from clfeval.evaluate._scoredstream import (
        gold_and_scores as gold_and_scores,
        report_scored_batches as report_scored_batches,
        score_binning as score_binning,
    )
    from clfeval.evaluate._streaming import (
        ReportCounts as ReportCounts,
        count_batches as count_batches,
        finish_report as finish_report,
    )
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES,
                               moved=_MOVED)

if TYPE_CHECKING:
    from clfeval.evaluate._baselines import (
        majority_table as majority_table,
        stratified_table as stratified_table,
        uniform_table as uniform_table,
    )
    from clfeval.evaluate._diagnostics import (
        hardest_classes as hardest_classes,
        misclassified as misclassified,
        most_confused_pair as most_confused_pair,
        top_confusions as top_confusions,
    )
    from clfeval.evaluate._reports import report_from_table as report_from_table
    from clfeval.evaluate._requirements import (
        Requirement as Requirement,
        Requirements as Requirements,
        check_requirements as check_requirements,
        parse_requirement as parse_requirement,
    )
    from clfeval.ops.errors._result import ErrorAnalysis as ErrorAnalysis, ErrorCell as ErrorCell
    from clfeval.ops.report._parts import (
        ErrorsSharePart as ErrorsSharePart,
        InputsPart as InputsPart,
        Intervals as Intervals,
        RankingIntervals as RankingIntervals,
        RankingPart as RankingPart,
        RequirementsPart as RequirementsPart,
        SlicesPart as SlicesPart,
    )
    from clfeval.ops.report._result import Report as Report
