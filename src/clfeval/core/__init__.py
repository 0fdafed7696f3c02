"""The core: labels, count tables that add, every count metric over stacks of tables, the metric catalogue,
the signature and the resampling engines. Nothing here imports scipy or scikit-learn.

Modules: ``validation`` (argument checks), ``labels`` (label encoding), ``labelforms`` (Unicode and number forms
of labels), ``gold`` (gold labels encoded once), ``tables`` (ConfusionTable, MultilabelTable, JointTable,
accumulators), ``metrics`` (count-metric functions), ``catalog`` (the one list of named metrics), ``scoring`` (the
catalogue evaluated on tables), ``resample`` (count-based and index-based resampling engines), ``signature`` (the
signature of every result), ``results`` (JSON-safe numbers), ``decimate`` (figure data), ``display`` (notebook
display of results).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.core.tables": ("ConfusionTable", "MultilabelTable", "JointTable", "ConfusionAccumulator",
                            "MultilabelAccumulator", "confusion_table", "multilabel_table", "joint_table"),
    "clfeval.core.catalog": ("Metric", "MetricCatalogue", "catalogue"),
    "clfeval.core.metrics": ("safe_divide", "class_counts"),
    "clfeval.core.signature": ("build_signature",),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.core.catalog import Metric as Metric, MetricCatalogue as MetricCatalogue, catalogue as catalogue
    from clfeval.core.metrics import class_counts as class_counts, safe_divide as safe_divide
    from clfeval.core.signature import build_signature as build_signature
    from clfeval.core.tables import (
        ConfusionAccumulator as ConfusionAccumulator,
        ConfusionTable as ConfusionTable,
        JointTable as JointTable,
        MultilabelAccumulator as MultilabelAccumulator,
        MultilabelTable as MultilabelTable,
        confusion_table as confusion_table,
        joint_table as joint_table,
        multilabel_table as multilabel_table,
    )

