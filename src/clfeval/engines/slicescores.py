"""``threshold(..., by=...)``: the cut chosen once on DEV overall, then the test data's count table at that cut
per slice (the ``slices`` section of a report, :func:`clfeval.significance.slices.slice_section`).

The test scores and the ``by`` columns are read into memory (arrays, a table, or a PATH read whole); the cut is
the one :func:`clfeval.engines.scoreops.threshold` chose, and the predictions are ``positive iff score ≥ cut``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

from clfeval.core.display import Display
from clfeval.engines import data as inputs
from clfeval.errors import DataError, UsageError

__all__ = ["SlicedThreshold", "threshold_by"]


@dataclass(frozen=True)
class SlicedThreshold(Display):
    """A threshold choice and the test data's slices at the chosen cut."""

    choice: Any
    slices: dict[str, Any]
    engine: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def signature(self) -> dict[str, Any]:
        return self.choice.signature

    def to_dict(self) -> dict[str, Any]:
        out = {**self.choice.to_dict(), "slices": self.slices}
        if self.engine is not None:
            out["engine"] = self.engine
        return out


def _columns(data: Any, scores: Any, gold: str, score: str, by: Any, cols: list[str], fmt: Any,
             encoding: str) -> tuple[Any, Any, dict[str, Any]]:
    if scores is not None:
        extra = {k: inputs.as_column(v, "by") for k, v in (by.items() if isinstance(by, dict) else {"by": by}.items())}
        return inputs.as_column(data, "gold"), inputs.as_column(scores, "scores"), extra
    if inputs.is_table(data):
        table = inputs.columns_of(data, {"gold": gold, "score": score})
        for c in cols:  # each by column checked (one dict of them kept only the last)
            inputs.columns_of(table, {"by": c})
        return table.column(gold), table.column(score), {c: table.column(c) for c in cols}
    from clfeval.io.predictions import read_predictions

    read = read_predictions(inputs.resolve(data, input_format=fmt, encoding=encoding), gold=gold, pred=score,
                            pred_option="--score", extra=cols, extra_options=["--by"] * len(cols))
    return read.gold, read.pred, {c: read.extra[c] for c in cols}


def threshold_by(choice: Any, data: Any, scores: Any, *, gold: str | None, score: str | None, by: Any,
                 slicing: dict[str, Any], zero_division: Any, input_format: Any = None,
                 encoding: str = "utf-8") -> SlicedThreshold:
    """``choice`` (a :class:`~clfeval.scores.thresholds.ThresholdChoice`) with the test data's slices at its cut."""
    import pyarrow as pa

    from clfeval.core.labels import label_str
    from clfeval.engines.slicing import binning_of
    from clfeval.evaluate.slicecounting import count_sliced
    from clfeval.scores.columns import as_scores
    from clfeval.significance.slices import slice_section

    cut = choice.threshold if choice.threshold is not None else (choice.default or {}).get("threshold")
    if cut is None:
        raise UsageError(lambda o: f"option {o}: no cut was chosen, so there is nothing to report per slice.",
                         params=["by"])
    cols = [c for s in slicing["sets"] for c in s]
    g, s, extra = _columns(data, scores, gold or "gold", score or "score", by, cols, input_format, encoding)
    gl = [label_str(x) for x in (g.to_pylist() if hasattr(g, "to_pylist") else list(g))]
    pos = choice.positive
    others = sorted({x for x in gl if x != pos})
    if len(others) > 1:
        raise DataError(f"threshold --by needs binary gold labels: {pos!r} and one other; got {len(others) + 1}.")
    neg = others[0] if others else f"not {pos}"
    sc = np.asarray(as_scores(s, name=score or "scores"), dtype=np.float64)
    pred = np.where(sc >= float(cut), pos, neg)
    batch = SimpleNamespace(gold=pa.chunked_array([pa.array(gl)]), pred=pa.chunked_array([pa.array(pred.tolist())]),
                            text=False, extra=extra, n=len(gl))
    table, tables = count_sliced([batch], slicing["sets"], max_slices=slicing["max_slices"],
                                 binning=binning_of([batch], slicing, list(extra)))
    section = slice_section(tables[0], positive=pos, zero_division=zero_division, min_slice=slicing["min_slice"],
                            metrics=slicing.get("metrics"), samples=slicing.get("slice_samples", 1_000))
    section["threshold"] = float(cut)
    return SlicedThreshold(dataclasses.replace(choice, engine=None), section, choice.engine)


@dataclass(frozen=True)
class SlicedCalibration(Display):
    """A calibration result overall and per slice (ECE, MCE, Brier score, log loss of each slice's items)."""

    overall: Any
    by: list[str]
    slices: list[dict[str, Any]]
    min_slice: int
    engine: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def signature(self) -> dict[str, Any]:
        return self.overall.signature

    def to_dict(self) -> dict[str, Any]:
        out = {**self.overall.to_dict(), "by": list(self.by), "min_slice": self.min_slice, "slices": self.slices}
        if self.engine is not None:
            out["engine"] = self.engine
        return out


def calibration_by(overall: Any, data: Any, probs: Any, *, gold: str | None, prob: str | None, by: Any,
                   slicing: dict[str, Any], positive: Any, bins: int, strategy: str, edges: str,
                   input_format: Any = None, encoding: str = "utf-8") -> SlicedCalibration:
    """``overall`` (a :class:`~clfeval.scores.calibration.Calibration`) with the reliability of every slice, the
    same bins strategy, in memory."""
    from clfeval.engines.slicing import binning_of
    from clfeval.scores.calibration import reliability
    from clfeval.significance.slicecompare import slice_groups

    cols = [c for s in slicing["sets"] for c in s]
    g, p, extra = _columns(data, probs, gold or "gold", prob or "prob", by, cols, input_format, encoding)
    batch = SimpleNamespace(extra=extra, gold=g)
    names, keys, slot = slice_groups(extra, max_slices=slicing["max_slices"],
                                     binning=binning_of([batch], slicing, list(extra)))
    gl = np.asarray(g.to_pylist() if hasattr(g, "to_pylist") else list(g), dtype=object)
    pl = np.asarray(p.to_pylist() if hasattr(p, "to_pylist") else list(p), dtype=np.float64)
    rows = []
    for i, name in enumerate(names):
        idx = np.flatnonzero(slot == i)
        row: dict[str, Any] = {"slice": name, "key": {c: str(v) for c, v in zip(extra, keys[i], strict=False)},
                               "n": int(idx.size),
                               "small": bool(idx.size < slicing["min_slice"])}
        if idx.size:
            r = reliability(gl[idx].tolist(), pl[idx], positive=positive, bins=bins, strategy=strategy, edges=edges)
            row.update(ece=r.ece, mce=r.mce, brier=r.brier, log_loss=r.log_loss)
        rows.append(row)
    return SlicedCalibration(dataclasses.replace(overall, engine=None), list(extra), rows, slicing["min_slice"],
                             overall.engine)
