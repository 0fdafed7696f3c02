"""``result.to_frame()``: the table of a result as a pandas DataFrame (pandas imported only then).

Each tabular result names the part of its ``to_dict()`` (the JSON interface) that is its table: rows keyed by
class or label (the index), or a list of records (folds, pairs of systems, bins). Nested values are flattened
into dotted column names (``train.accuracy``, ``baselines.majority.accuracy``, ``ci.delta``); the numbers are
those of the JSON output, undefined ones NaN. Without pandas the call names the extra that brings it
(``pip install 'clfeval[frame]'``).

==================  ====================  =======================================
result              rows                  from ``to_dict()``
==================  ====================  =======================================
Report              one per class/label   ``per_class`` (index ``class``)
RankingResult       one per class (OvR)   ``per_class`` (index ``class``)
ThresholdResult     one per label         ``per_label`` (index ``label``; one cut per label only)
ProtocolResult      one per fold          ``per_fold``
CVComparison        one per fold          ``per_fold``
Compared (many)     one per pair          ``comparisons``
Compared (sliced)   one per slice         ``slices`` (the key columns spread out)
Calibration         one per bin           ``bins``
==================  ====================  =======================================
"""

from __future__ import annotations

import math
from typing import Any

from clfeval.errors import MissingExtra

__all__ = ["FRAMES", "to_frame", "flat"]

#: Result type name → (the key of its table in ``to_dict()``, the index name when rows are keyed, else None).
FRAMES: dict[str, tuple[str, str | None]] = {
    "Report": ("per_class", "class"),
    "RankingResult": ("per_class", "class"),  # one-vs-rest (a binary ranking has no table)
    "ThresholdResult": ("per_label", "label"),
    "ProtocolResult": ("per_fold", None),
    "CVComparison": ("per_fold", None),
    "Calibration": ("bins", None),
}


def flat(row: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """One record with nested dicts flattened to dotted keys; None → NaN.

    >>> flat({"a": 1, "train": {"accuracy": 1.0, "f1": None}})
    {'a': 1, 'train.accuracy': 1.0, 'train.f1': nan}
    """
    out: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flat(value, name + "."))
        else:
            out[name] = math.nan if value is None else value
    return out


def to_frame(result: Any) -> Any:
    """The table of ``result`` as a :class:`pandas.DataFrame` (see the module notes for which table)."""
    from clfeval.ops.compare import Compared

    if isinstance(result, Compared):
        return _compared_frame(result)
    if type(result).__name__ == "ThresholdResult" and result.labels_cuts is None:
        raise TypeError("a threshold result of one score column has no table to give as a DataFrame; one cut per "
                        "label (multi-label data) has one row per label (to_dict() holds everything)")
    for cls in type(result).__mro__:
        if cls.__name__ in FRAMES and not (cls.__name__ == "RankingResult" and result.ovr is None):
            key, index = FRAMES[cls.__name__]
            break
    else:
        raise TypeError(f"{type(result).__name__} has no table to give as a DataFrame; tables come from "
                        f"{', '.join(FRAMES)} (to_dict() holds everything)")
    MissingExtra.require("to_frame()", [("pandas", "pandas")], "frame")
    import pandas as pd

    table = result.to_dict()[key]
    if index is None:
        return pd.DataFrame([flat(r) for r in table])
    frame = pd.DataFrame([flat(v) for v in table.values()], index=pd.Index([str(k) for k in table], name=index))
    return frame


def _compared_frame(result: Any) -> Any:
    """A comparison's table: one row per pair (several systems), per slice (by slice: slice, its key columns, n, a,
    b, delta, p, p_holm, p_by, significant)."""
    if result.kind not in ("many", "sliced"):
        raise TypeError(f"a comparison of kind {result.kind!r} has no table to give as a DataFrame; the pairs of "
                        f"several systems (kind 'many') and the slices (kind 'sliced') have one (to_dict() holds "
                        f"everything)")
    MissingExtra.require("to_frame()", [("pandas", "pandas")], "frame")
    import pandas as pd

    if result.kind == "many":
        return pd.DataFrame([flat(r) for r in result.to_dict()["comparisons"]])
    keep = ("n", "small", "a", "b", "delta", "p", "p_holm", "p_by", "significant")
    return pd.DataFrame([{"slice": r.slice, **r.key, **{k: getattr(r, k) for k in keep}} for r in result.slices])
