"""The core: labels, count tables that add, every count metric over stacks of tables, the metric catalogue,
the signature. (The resampling engines are in ``clfeval.stats``.) Nothing here imports scipy or scikit-learn.

Modules: ``validation`` (argument checks), ``labels`` (label encoding), ``labelforms`` (Unicode and number forms
of labels), ``gold`` (gold labels encoded once), ``tables`` (ConfusionTable, MultilabelTable, JointTable,
accumulators), ``metrics`` (count-metric functions), ``catalog`` (the one list of named metrics), ``scoring`` (the
catalogue evaluated on tables), ``signature`` (the
signature of every result), ``results`` (JSON-safe numbers), ``decimate`` (figure data), ``display`` (notebook
display of results).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.core._tables": ("ConfusionTable", "MultilabelTable", "JointTable", "ConfusionAccumulator",
                            "MultilabelAccumulator", "confusion_table", "multilabel_table", "joint_table"),
    "clfeval.core._catalog": ("Metric", "MetricCatalogue", "catalogue"),
    "clfeval.core._metrics": ("safe_divide", "class_counts"),
    "clfeval.core._signature": ("build_signature",),
    "clfeval.core._engineinfo": ("EngineInfo",),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.core._rangeplan": ("Offsets", "choose_cuts", "exact_candidates", "range_offsets", "run_bounds",
                                "sampled_candidates"),
    "clfeval.core._catalog": ("TASKS", "find", "label"),
    "clfeval.core._counting": ("Counter", "JointCounter", "JointTables", "Vocabulary", "encode_batch", "label_kind"),
    "clfeval.core._decimate": ("ranking_curves", "ranking_points", "replicate_histogram", "sample_ranks", "simplify",
                               "sweep_curves", "sweep_of_points"),
    "clfeval.core._display": ("Display", "set_renderers", "frame_of"),
    "clfeval.core._engineinfo": ("MODES",),
    "clfeval.core._exactsum": ("ExactSum", "ExactSums", "grouped_sums"),
    "clfeval.core._gold": ("EncodedGold", "binary_gold", "indicator_gold"),
    "clfeval.core._inert": ("shown",),
    "clfeval.core._itemreads": ("ItemReads",),
    "clfeval.core._labelforms": ("normalization_notes", "normalize_labels", "plain", "shown_id", "unify_numbers"),
    "clfeval.core._labelmap": ("LabelMap",),
    "clfeval.core._labels": ("EncodedPair", "MAX_DENSE", "check_class_count", "encode_labels", "encode_multilabel",
                             "encode_pair", "flatten_sets", "label_str", "resolve_label", "resolve_requested",
                             "sort_labels", "split_sets"),
    "clfeval.core._latticecount": ("LatticeCounter", "SliceProportions"),
    "clfeval.core._manyclasses": ("label_threshold_classes",),
    "clfeval.core._outsidecount": ("OutsideCounter", "disjoint_slices"),
    "clfeval.core._metrics": ("ClassCounts", "TableStats", "binary_class_counts", "cut_counts", "delta", "fbeta", "fpr",
                              "phi", "phi_delta_of_counts", "precision", "recall"),
    "clfeval.core._named": ("NamedValues", "named_values"),
    "clfeval.core._quoting": ("Name", "quote_name", "split_names"),
    "clfeval.core._ranksummary": ("DEFINITIONS", "EXACT_CUTS_MAX", "MAX_FPR", "RankingSummary", "exact_dot",
                                  "ranking_notes", "roc_auc_of", "score_counts"),
    "clfeval.core._reqfunctions": ("FUNCTIONS", "Function", "RESULT_KINDS", "function_names_text"),
    "clfeval.core._results": ("FrozenDict", "FrozenList", "freeze", "freeze_fields", "number", "numbers_list",
                              "seed_value", "signature", "thaw"),
    "clfeval.core._scoring": ("Evaluation", "leaves", "metric_values", "scalar_metric", "score", "score_multilabel",
                              "stats_of"),
    "clfeval.core._slicebins": ("MAX_BY_BINS", "MISSING", "SliceBinning", "bin_edges", "check_by_bins", "slice_order"),
    "clfeval.core._slicecount": ("MAX_SLICES", "SliceCounter", "SliceTables", "check_slicing", "column_sets",
                                 "sample_keys", "slice_column", "small_ints"),
    "clfeval.core._sliceranks": ("SliceScores", "finite_scores", "slice_rankings"),
    "clfeval.core._sparse": ("joint_from_cells",),
    "clfeval.core._tables": ("count_joint", "count_pair", "embed", "table_of"),
    "clfeval.core._validation": ("MEMORY_BUDGET", "MIN_MEMORY", "check_beta", "check_finite", "check_positive",
                                 "check_positive_int", "check_probability", "check_range", "check_rng", "check_samples",
                                 "check_sequence",
                                 "check_zero_division", "parse_memory", "zero_division_name"),
}
_INTERNAL_MODULES: dict[str, str] = {
    "arrowcompute": "clfeval.core._arrowcompute",
    "catalog": "clfeval.core._catalog",
    "manyclasses": "clfeval.core._manyclasses",
    "nopandas": "clfeval.core._nopandas",
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.core import _arrowcompute, _catalog, _manyclasses, _nopandas
    from clfeval.core._catalog import TASKS as TASKS, find as find, label as label
    from clfeval.core._counting import (
        Counter as Counter,
        JointCounter as JointCounter,
        JointTables as JointTables,
        Vocabulary as Vocabulary,
        encode_batch as encode_batch,
        label_kind as label_kind,
    )
    from clfeval.core._decimate import (
        ranking_curves as ranking_curves,
        ranking_points as ranking_points,
        replicate_histogram as replicate_histogram,
        sample_ranks as sample_ranks,
        simplify as simplify,
        sweep_curves as sweep_curves,
        sweep_of_points as sweep_of_points,
    )
    from clfeval.core._display import Display as Display, frame_of as frame_of, set_renderers as set_renderers
    from clfeval.core._engineinfo import MODES as MODES
    from clfeval.core._exactsum import ExactSum as ExactSum, ExactSums as ExactSums, grouped_sums as grouped_sums
    from clfeval.core._gold import (
        EncodedGold as EncodedGold,
        binary_gold as binary_gold,
        indicator_gold as indicator_gold,
    )
    from clfeval.core._inert import shown as shown
    from clfeval.core._itemreads import ItemReads as ItemReads
    from clfeval.core._labelforms import (
        normalization_notes as normalization_notes,
        normalize_labels as normalize_labels,
        plain as plain,
        shown_id as shown_id,
        unify_numbers as unify_numbers,
    )
    from clfeval.core._labelmap import LabelMap as LabelMap
    from clfeval.core._labels import (
        MAX_DENSE as MAX_DENSE,
        EncodedPair as EncodedPair,
        check_class_count as check_class_count,
        encode_labels as encode_labels,
        encode_multilabel as encode_multilabel,
        encode_pair as encode_pair,
        flatten_sets as flatten_sets,
        label_str as label_str,
        resolve_label as resolve_label,
        resolve_requested as resolve_requested,
        sort_labels as sort_labels,
        split_sets as split_sets,
    )
    from clfeval.core._latticecount import LatticeCounter as LatticeCounter, SliceProportions as SliceProportions
    from clfeval.core._manyclasses import label_threshold_classes as label_threshold_classes
    from clfeval.core._metrics import (
        ClassCounts as ClassCounts,
        TableStats as TableStats,
        binary_class_counts as binary_class_counts,
        cut_counts as cut_counts,
        delta as delta,
        fbeta as fbeta,
        fpr as fpr,
        phi as phi,
        phi_delta_of_counts as phi_delta_of_counts,
        precision as precision,
        recall as recall,
    )
    from clfeval.core._named import NamedValues as NamedValues, named_values as named_values
    from clfeval.core._outsidecount import OutsideCounter as OutsideCounter, disjoint_slices as disjoint_slices
    from clfeval.core._quoting import Name as Name, quote_name as quote_name, split_names as split_names
    from clfeval.core._rangeplan import (
        Offsets as Offsets,
        choose_cuts as choose_cuts,
        exact_candidates as exact_candidates,
        range_offsets as range_offsets,
        run_bounds as run_bounds,
        sampled_candidates as sampled_candidates,
    )
    from clfeval.core._ranksummary import (
        DEFINITIONS as DEFINITIONS,
        EXACT_CUTS_MAX as EXACT_CUTS_MAX,
        MAX_FPR as MAX_FPR,
        RankingSummary as RankingSummary,
        exact_dot as exact_dot,
        ranking_notes as ranking_notes,
        roc_auc_of as roc_auc_of,
        score_counts as score_counts,
    )
    from clfeval.core._reqfunctions import (
        FUNCTIONS as FUNCTIONS,
        RESULT_KINDS as RESULT_KINDS,
        Function as Function,
        function_names_text as function_names_text,
    )
    from clfeval.core._results import (
        FrozenDict as FrozenDict,
        FrozenList as FrozenList,
        freeze as freeze,
        freeze_fields as freeze_fields,
        number as number,
        numbers_list as numbers_list,
        seed_value as seed_value,
        signature as signature,
        thaw as thaw,
    )
    from clfeval.core._scoring import (
        Evaluation as Evaluation,
        leaves as leaves,
        metric_values as metric_values,
        scalar_metric as scalar_metric,
        score as score,
        score_multilabel as score_multilabel,
        stats_of as stats_of,
    )
    from clfeval.core._slicebins import (
        MAX_BY_BINS as MAX_BY_BINS,
        MISSING as MISSING,
        SliceBinning as SliceBinning,
        bin_edges as bin_edges,
        check_by_bins as check_by_bins,
        slice_order as slice_order,
    )
    from clfeval.core._slicecount import (
        MAX_SLICES as MAX_SLICES,
        SliceCounter as SliceCounter,
        SliceTables as SliceTables,
        check_slicing as check_slicing,
        column_sets as column_sets,
        sample_keys as sample_keys,
        slice_column as slice_column,
        small_ints as small_ints,
    )
    from clfeval.core._sliceranks import (
        SliceScores as SliceScores,
        finite_scores as finite_scores,
        slice_rankings as slice_rankings,
    )
    from clfeval.core._sparse import joint_from_cells as joint_from_cells
    from clfeval.core._tables import (
        count_joint as count_joint,
        count_pair as count_pair,
        embed as embed,
        table_of as table_of,
    )
    from clfeval.core._validation import (
        MEMORY_BUDGET as MEMORY_BUDGET,
        MIN_MEMORY as MIN_MEMORY,
        check_beta as check_beta,
        check_finite as check_finite,
        check_positive as check_positive,
        check_positive_int as check_positive_int,
        check_probability as check_probability,
        check_range as check_range,
        check_rng as check_rng,
        check_samples as check_samples,
        check_sequence as check_sequence,
        check_zero_division as check_zero_division,
        parse_memory as parse_memory,
        zero_division_name as zero_division_name,
    )
    arrowcompute = _arrowcompute
    catalog = _catalog
    manyclasses = _manyclasses
    nopandas = _nopandas
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)

if TYPE_CHECKING:
    from clfeval.core._catalog import Metric as Metric, MetricCatalogue as MetricCatalogue, catalogue as catalogue
    from clfeval.core._engineinfo import EngineInfo as EngineInfo
    from clfeval.core._metrics import class_counts as class_counts, safe_divide as safe_divide
    from clfeval.core._signature import build_signature as build_signature
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

