"""Scores: score columns, rankings (ROC/PR, AP), threshold objectives and choices, calibration."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.scores._curves": ("ranking_ovr",),
    "clfeval.scores._thresholds": ("choose_threshold", "choose_label_thresholds"),
    "clfeval.ops.calibration._result": ("Calibration",),
    "clfeval.scores._calibration": ("reliability",),
    "clfeval.scores._external": ("RankingStore",),
    "clfeval.scores._streamovr": ("stream_binary", "stream_ovr"),
    "clfeval.scores._binned": ("ScoreHistogram", "BinnedJoint", "RowSample", "uniform_binning", "quantile_binning"),
}

# Kept importable for one release (issue 36): each merged into RankingResult, what ranking and ranking_ovr
# return now (a binary summary or a one-vs-rest part); each access warns.
_MOVED = {name: ("clfeval.ops.ranking._result", "RankingResult", "clfeval.ops.ranking.RankingResult")
          for name in ("Ranking", "RankingOvR")}
# ... and both merged into ThresholdResult, what every threshold choice returns now (one score column's cut in
# ``choice``, one cut per label in ``labels_cuts``).
_MOVED.update({name: ("clfeval.ops.threshold._result", "ThresholdResult", "clfeval.ThresholdResult")
               for name in ("ThresholdChoice", "LabelThresholds")})
__all__ = _names(_EXPORTS) + list(_MOVED)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.scores._binned": ("BINNED_NOTE", "Binning", "ScoreRange", "binning_of"),
    "clfeval.scores._calibration": ("Calibrator", "EPS", "ProbabilityColumns", "ROW_SUM_TOLERANCE",
                                    "calibration_words", "check_bins", "check_rows_sum_to_one", "reliability_rows"),
    "clfeval.scores._columns": ("ScoreSource", "as_probabilities", "as_scores", "check_probabilities",
                                "is_integer_column", "item_position", "score_matrix"),
    "clfeval.scores._curves": ("RULE", "SortedRanking", "binary_cut", "binary_gold", "cut_labels", "cut_sets",
                               "indicator_gold", "predictions_from_cut", "ranking", "ranking_section", "summary_of"),
    "clfeval.scores._external": ("BUFFER_BYTES_PER_ITEM", "CutChoice", "DEFAULT_MEMORY", "RANGE_BYTES_PER_ITEM",
                                 "parse_memory", "stream_ranking"),
    "clfeval.scores._intcuts": ("check_kinds", "integer_keys", "value_of_key"),
    "clfeval.scores._objectives": ("Objective", "parse_objective"),
    "clfeval.scores._rankthreshold": ("RangeRanking", "ThresholdSpec", "column_spec"),
    "clfeval.scores._rankruns": ("RankingSpec", "Runs", "RunsBuilder", "at_least", "facts_of", "labels_and_extent",
                                 "merge_samples", "merged_range", "offsets_of", "part_histogram", "part_range",
                                 "part_sample", "range_cuts", "range_stats_of", "ranking_of", "row_count",
                                 "score_kind"),
    "clfeval.scores._rangestats": ("RangeStats", "merge_range", "range_stats", "rle", "rle_merge", "sample_ranks_of"),
    "clfeval.scores._streamovr": ("OvRStore", "batch_is_positive", "binary_summary"),
    "clfeval.scores._sweep": ("CutChooser", "Cuts", "sweep_of"),
    "clfeval.scores._thresholds": ("check_dev_columns", "check_positive", "choose_label_thresholds_batches",
                                   "choose_threshold_batches", "choose_threshold_filled", "cut_row"),
}
_INTERNAL_MODULES: dict[str, str] = {
    "curves": "clfeval.scores._curves",
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.scores import _curves
    from clfeval.scores._binned import (
        BINNED_NOTE as BINNED_NOTE,
        Binning as Binning,
        ScoreRange as ScoreRange,
        binning_of as binning_of,
    )
    from clfeval.scores._calibration import (
        EPS as EPS,
        ROW_SUM_TOLERANCE as ROW_SUM_TOLERANCE,
        Calibrator as Calibrator,
        ProbabilityColumns as ProbabilityColumns,
        calibration_words as calibration_words,
        check_bins as check_bins,
        check_rows_sum_to_one as check_rows_sum_to_one,
        reliability_rows as reliability_rows,
    )
    from clfeval.scores._columns import (
        ScoreSource as ScoreSource,
        as_probabilities as as_probabilities,
        as_scores as as_scores,
        check_probabilities as check_probabilities,
        is_integer_column as is_integer_column,
        item_position as item_position,
        score_matrix as score_matrix,
    )
    from clfeval.scores._curves import (
        RULE as RULE,
        SortedRanking as SortedRanking,
        binary_cut as binary_cut,
        binary_gold as binary_gold,
        cut_labels as cut_labels,
        cut_sets as cut_sets,
        indicator_gold as indicator_gold,
        predictions_from_cut as predictions_from_cut,
        ranking as ranking,
        ranking_section as ranking_section,
        summary_of as summary_of,
    )
    from clfeval.scores._external import (
        BUFFER_BYTES_PER_ITEM as BUFFER_BYTES_PER_ITEM,
        DEFAULT_MEMORY as DEFAULT_MEMORY,
        RANGE_BYTES_PER_ITEM as RANGE_BYTES_PER_ITEM,
        CutChoice as CutChoice,
        parse_memory as parse_memory,
        stream_ranking as stream_ranking,
    )
    from clfeval.scores._intcuts import (
        check_kinds as check_kinds,
        integer_keys as integer_keys,
        value_of_key as value_of_key,
    )
    from clfeval.scores._objectives import Objective as Objective, parse_objective as parse_objective
    from clfeval.scores._rangestats import (
        RangeStats as RangeStats,
        merge_range as merge_range,
        range_stats as range_stats,
        rle as rle,
        rle_merge as rle_merge,
        sample_ranks_of as sample_ranks_of,
    )
    from clfeval.scores._rankruns import (
        RankingSpec as RankingSpec,
        Runs as Runs,
        RunsBuilder as RunsBuilder,
        at_least as at_least,
        facts_of as facts_of,
        labels_and_extent as labels_and_extent,
        merge_samples as merge_samples,
        merged_range as merged_range,
        offsets_of as offsets_of,
        part_histogram as part_histogram,
        part_range as part_range,
        part_sample as part_sample,
        range_cuts as range_cuts,
        range_stats_of as range_stats_of,
        ranking_of as ranking_of,
        row_count as row_count,
        score_kind as score_kind,
    )
    from clfeval.scores._rankthreshold import (
        RangeRanking as RangeRanking,
        ThresholdSpec as ThresholdSpec,
        column_spec as column_spec,
    )
    from clfeval.scores._streamovr import (
        OvRStore as OvRStore,
        batch_is_positive as batch_is_positive,
        binary_summary as binary_summary,
    )
    from clfeval.scores._sweep import CutChooser as CutChooser, Cuts as Cuts, sweep_of as sweep_of
    from clfeval.scores._thresholds import (
        check_dev_columns as check_dev_columns,
        check_positive as check_positive,
        choose_label_thresholds_batches as choose_label_thresholds_batches,
        choose_threshold_batches as choose_threshold_batches,
        choose_threshold_filled as choose_threshold_filled,
        cut_row as cut_row,
    )
    curves = _curves
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES,
                               moved=_MOVED)

if TYPE_CHECKING:
    from clfeval.ops.calibration._result import Calibration as Calibration
    from clfeval.scores._binned import (
        BinnedJoint as BinnedJoint,
        RowSample as RowSample,
        ScoreHistogram as ScoreHistogram,
        quantile_binning as quantile_binning,
        uniform_binning as uniform_binning,
    )
    from clfeval.scores._calibration import reliability as reliability
    from clfeval.scores._curves import ranking_ovr as ranking_ovr
    from clfeval.scores._external import RankingStore as RankingStore
    from clfeval.scores._streamovr import stream_binary as stream_binary, stream_ovr as stream_ovr
    from clfeval.scores._thresholds import (
        choose_label_thresholds as choose_label_thresholds,
        choose_threshold as choose_threshold,
    )

