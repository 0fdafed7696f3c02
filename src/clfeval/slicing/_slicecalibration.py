"""``calibration --by``: the reliability of every slice from per-slice sums, batch by batch.

:class:`SliceCalibrator` is fed batches (gold labels, the probability of the positive class, the ``by`` columns)
and keeps, per slice, what :class:`~clfeval.scores._calibration.Calibrator` keeps overall, in the same accumulator
(:class:`~clfeval.ops.calibration._sums.CalibrationSums`): per equal-width bin the count, the positives and the
exact sum of the probabilities, and the exact sums of the squared errors (Brier) and of the log losses
(:mod:`clfeval.core._exactsum`: the same bits in any order); a batch's slices are summed in one vectorised pass
(:meth:`~clfeval.ops.calibration._sums.CalibrationSums.grouped`). Sums add, so a PATH read batch by
batch, a table in memory as one batch and Dask partitions added in a tree (:meth:`SliceSums.__add__`) give the
same numbers, to the bit, as :func:`~clfeval.scores._calibration.reliability` of each slice's items. Equal-mass
(``quantile``) bins are order statistics of each slice: their confidences and outcomes are kept, as the overall
streamed calibration keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clfeval.core import MAX_SLICES, MISSING, slice_order
from clfeval.errors import DataError
from clfeval.ops.calibration import CalibrationSums

__all__ = ["SliceCalibrator", "SliceSums", "slice_rows"]


@dataclass
class SliceSums:
    """The sums of every slice (:class:`~clfeval.ops.calibration._sums.CalibrationSums`), by the slice's value
    tuple; two of them add."""

    columns: tuple[str, ...]
    slices: dict[tuple[Any, ...], CalibrationSums]
    binning: dict[str, Any] = field(default_factory=dict)

    def __add__(self, other: SliceSums) -> SliceSums:
        out = dict(self.slices)
        for k, v in other.slices.items():
            out[k] = out[k] + v if k in out else v
        return SliceSums(self.columns, out, self.binning or other.binning)


class SliceCalibrator:
    """Per-slice reliability sums of binary probabilities, batch by batch (see the module docstring)."""

    def __init__(self, columns: Sequence[str], *, positive: Any, bins: int = 10, strategy: str = "uniform",
                 edges: str = "clfeval", max_slices: int = MAX_SLICES, binning: Mapping[str, Any] | None = None,
                 prob: str = "prob") -> None:
        from clfeval.core import SliceCounter

        self.columns = tuple(columns)
        self.positive, self.bins, self.strategy, self.edges, self.prob = positive, int(bins), strategy, edges, prob
        self.slicer = SliceCounter([self.columns], max_slices=max_slices, binning=binning)
        self.per_slice: list[CalibrationSums] = []  # in the slicer's order

    def update(self, gold: Any, probs: Any, columns: Mapping[str, Any], *, where: Any = None) -> None:
        """One batch: gold labels, the probabilities of ``positive`` and the ``by`` columns (name → values)."""
        from clfeval.scores import as_probabilities, batch_is_positive, item_position

        y = batch_is_positive(gold, self.positive)
        p = as_probabilities(probs, name=self.prob, n=y.shape[0], where=where or item_position)
        s = self.slicer.slice_codes({c: columns[c] for c in self.columns})
        n_s = len(self.slicer.counts[0].key_list)
        grow = n_s - len(self.per_slice)
        self.per_slice += [CalibrationSums.empty(self.bins, self.strategy, self.edges) for _ in range(grow)]
        if not y.size:
            return
        # every slice of the batch in one vectorised pass, each added to its slice's sums
        more = CalibrationSums.grouped(y, p, s, n_s, bins=self.bins, strategy=self.strategy, edges=self.edges)
        for mine, theirs in zip(self.per_slice, more, strict=True):
            mine.merge(theirs)

    def sums(self) -> SliceSums:
        """The sums of every slice counted so far, by value tuple."""
        binning = {c: b for c in self.columns if (b := self.slicer.vocabs[c].binning) is not None}
        return SliceSums(self.columns, dict(zip(self.slicer.keys(), self.per_slice, strict=True)), binning)


def slice_rows(sums: SliceSums, *, bins: int, strategy: str, edges: str, min_slice: int) -> list[dict[str, Any]]:
    """One row per slice (sorted by value): size, ECE, MCE, Brier score and log loss of the slice's items."""
    from clfeval.core import label_str

    keys = list(sums.slices)
    for j, c in enumerate(sums.columns):
        if keys and all(k[j] == MISSING for k in keys):
            raise DataError(lambda o, _c=c: f"column {_c!r} (option {o}) is null in every row: there is nothing to "
                                            f"slice by.", params=["by"])
    rows = []
    for i in slice_order(keys, sums.columns, sums.binning):
        k, one = keys[i], sums.slices[keys[i]]
        n = one.n
        shown = label_str(k[0]) if len(k) == 1 else ", ".join(f"{c}={label_str(v)}" for c, v in zip(sums.columns, k,
                                                                                                     strict=False))
        row: dict[str, Any] = {"slice": shown,
                               "key": {c: label_str(v) for c, v in zip(sums.columns, k, strict=False)},
                               "n": n, "small": bool(n < min_slice)}
        if n:
            rel = one.finish()
            row.update(ece=rel.ece, mce=rel.mce, brier=rel.brier, log_loss=rel.log_loss)
        rows.append(row)
    return rows
