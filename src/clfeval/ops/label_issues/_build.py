"""The rule's arrays (:class:`~clfeval.ops.label_issues._rule.ConfidentLearning`) as the typed result
:class:`~clfeval.ops.label_issues._result.LabelIssues`: labels as text, ids as given, undefined values named."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from clfeval.core import build_signature
from clfeval.ops.label_issues._result import FlaggedItem, LabelIssues
from clfeval.ops.label_issues._rule import ConfidentLearning

__all__ = ["label_issues_result"]


def _id(v: Any) -> str | int | None:
    if v is None:
        return None
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return int(v)
    return str(v)


def _cell(v: float) -> float | None:
    return None if np.isnan(v) else float(v)


def label_issues_result(cl: ConfidentLearning, labels: Sequence[str], *, ids: Sequence[Any] | None, rank_by: str,
                        settings: dict[str, Any]) -> LabelIssues:
    """The typed result of the rule's arrays (``labels``: the classes as text, in column order; ``ids``: each
    row's id, None for none; ``settings``: what the signature states)."""
    k = len(labels)
    undefined = [{"field": f"thresholds.{labels[j]}", "reason": "no item is given this label"}
                 for j in range(k) if np.isnan(cl.thresholds[j])]
    undefined += [{"field": f"noise_matrix[*][{labels[j]}]",
                   "reason": "no item is confidently in this class (its column of the joint sums to 0)"}
                  for j in range(k) if np.isnan(cl.noise[0, j])] if k else []
    cells: list[dict[str, str | int]] = [
        {"given": labels[i], "suggested": labels[j], "count": int(cl.cell_counts[i, j]),
         "flagged": int(cl.cell_flagged[i, j])}
        for i in range(k) for j in range(k) if i != j and cl.cell_counts[i, j] > 0]
    flagged = [FlaggedItem(int(r), _id(None if ids is None else ids[int(r)]), labels[int(g)], labels[int(s)],
                           float(sc), float(m))
               for r, g, s, sc, m in zip(cl.flagged_rows, cl.given_of_flagged, cl.suggested, cl.self_confidence,
                                         cl.margin, strict=True)]
    notes = ["The probabilities must be out-of-sample (cross-validated or held out): a model's probabilities on the "
             "items it was trained on agree with their given labels, errors included."]
    if int(cl.cell_counts.sum()) > len(flagged):
        notes.append(f"{int(cl.cell_counts.sum()) - len(flagged)} of the cells' counts fall on items another cell "
                     f"flagged too: each such item is flagged once.")
    return LabelIssues(
        labels=list(labels), n=int(cl.n_given.sum()), n_given=[int(v) for v in cl.n_given],
        thresholds=[_cell(v) for v in cl.thresholds], confident_joint=cl.confident_joint.tolist(),
        calibrated_joint=cl.calibrated.tolist(), joint=cl.joint.tolist(),
        noise_matrix=[[_cell(v) for v in row] for row in cl.noise], cells=cells,
        estimated_errors=int(cl.cell_counts.sum()), flagged=flagged, rank_by=rank_by, undefined=undefined,
        notes=notes, signature=build_signature({"method": "confident learning, prune by noise rate", **settings}))
