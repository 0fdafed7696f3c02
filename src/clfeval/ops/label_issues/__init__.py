"""What ``clfeval.label_issues`` returns and computes: :class:`LabelIssues` (its flagged items
:class:`FlaggedItem`), and the confident-learning rule on class codes and probabilities (``confident_learning``,
internal: the front door calls it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.ops.label_issues._result": ("LabelIssues", "FlaggedItem"),
}

__all__ = _names(_EXPORTS)
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.ops.label_issues._rule": ("ConfidentLearning", "RANK_BY", "cell_counts", "confident_learning",
                                       "id_order", "matrices"),
    "clfeval.ops.label_issues._passes": ("ThresholdSums", "Thresholds", "JointCounts", "CellCuts", "flagged_of"),
    "clfeval.ops.label_issues._build": ("label_issues_result",),
    "clfeval.ops.label_issues._result": ("RULE", "REFERENCE", "TIES", "ROUNDING", "ZERO_DIVISION"),
}
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL)

if TYPE_CHECKING:  # _EXPORTS and _INTERNAL, for type checkers
    from clfeval.ops.label_issues._build import label_issues_result as label_issues_result
    from clfeval.ops.label_issues._passes import (
        CellCuts as CellCuts,
        JointCounts as JointCounts,
        Thresholds as Thresholds,
        ThresholdSums as ThresholdSums,
        flagged_of as flagged_of,
    )
    from clfeval.ops.label_issues._result import (
        REFERENCE as REFERENCE,
        ROUNDING as ROUNDING,
        RULE as RULE,
        TIES as TIES,
        ZERO_DIVISION as ZERO_DIVISION,
        FlaggedItem as FlaggedItem,
        LabelIssues as LabelIssues,
    )
    from clfeval.ops.label_issues._rule import (
        RANK_BY as RANK_BY,
        ConfidentLearning as ConfidentLearning,
        cell_counts as cell_counts,
        confident_learning as confident_learning,
        id_order as id_order,
        matrices as matrices,
    )
