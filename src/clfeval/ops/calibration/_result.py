"""The one result of ``clfeval.calibration``: :class:`Calibration`, whatever the variant.

The reliability table and the calibration measures of every item; with ``by=``, the same measures per slice in
``slices`` (:class:`CalibrationSlices`), an optional typed field. ``to_dict()`` is the JSON of ``clfeval
calibration``. The numbers are computed by :mod:`clfeval.scores._calibration` (and per slice by
:mod:`clfeval.slicing._slicecalibration`), which build the result.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clfeval.core import Display, EngineInfo, FrozenDict, ItemReads, freeze_fields, thaw

if TYPE_CHECKING:
    import pandas

__all__ = ["Calibration", "CalibrationBin", "CalibrationSlice", "CalibrationSlices"]


def _number(x: object) -> float:
    if x is None:
        return math.nan
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"expected a number; got {x!r}")
    return x


def _whole(x: object) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError(f"expected a whole number; got {x!r}")
    return x


def _text(x: object) -> str:
    if not isinstance(x, str):
        raise TypeError(f"expected text; got {x!r}")
    return x


@dataclass(frozen=True)
class CalibrationBin(ItemReads):
    """One bin of the reliability table.

    Attributes
    ----------
    lower, upper : float
        The bin's edges.
    count : int
        Its items (0: an empty bin, its confidence, accuracy and gap NaN).
    confidence : float
        The mean predicted probability (binary: of the positive class; multiclass: of the top label).
    accuracy : float
        What was observed: the frequency of the positive class (binary), the accuracy of the top label.
    gap : float
        |accuracy − confidence|.
    """

    lower: float
    upper: float
    count: int
    confidence: float
    accuracy: float
    gap: float

    @classmethod
    def of(cls, d: Mapping[str, object]) -> CalibrationBin:
        """The bin of a row of the table (``reliability_rows``' dict, or the JSON's)."""
        return cls(_number(d["lower"]), _number(d["upper"]), _whole(d["count"]), _number(d["confidence"]),
                   _number(d["accuracy"]), _number(d["gap"]))

    def to_dict(self) -> dict[str, object]:
        return {"lower": self.lower, "upper": self.upper, "count": self.count, "confidence": self.confidence,
                "accuracy": self.accuracy, "gap": self.gap}


@dataclass(frozen=True)
class CalibrationSlice(ItemReads):
    """The calibration of one slice's items (the same bins strategy as overall).

    Attributes
    ----------
    slice : str
        Its name (the value, or ``column=value, ...`` over several columns).
    key : Mapping[str, str]
        Its value in each ``by`` column, read-only.
    n : int
        Its items.
    small : bool
        Fewer than ``min_slice`` items.
    ece, mce, brier, log_loss : float or None
        Its measures (None: the slice has no items).
    """

    slice: str
    key: Mapping[str, str]
    n: int
    small: bool
    ece: float | None = None
    mce: float | None = None
    brier: float | None = None
    log_loss: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.key, FrozenDict):
            object.__setattr__(self, "key", FrozenDict(self.key))

    @classmethod
    def of(cls, d: Mapping[str, object]) -> CalibrationSlice:
        key = d["key"]
        if not isinstance(key, Mapping):
            raise TypeError(f"expected the slice's key as an object; got {key!r}")
        small = d["small"]
        measured = [None if d.get(k) is None else _number(d[k]) for k in ("ece", "mce", "brier", "log_loss")]
        return cls(_text(d["slice"]), {_text(k): _text(v) for k, v in key.items()}, _whole(d["n"]),
                   bool(small), *measured)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"slice": self.slice, "key": dict(self.key), "n": self.n, "small": self.small}
        if self.n:
            out.update(ece=self.ece, mce=self.mce, brier=self.brier, log_loss=self.log_loss)
        return out


@dataclass(frozen=True)
class CalibrationSlices(ItemReads):
    """The calibration per slice (``by=``).

    Attributes
    ----------
    by : tuple of str
        The slice columns.
    min_slice : int
        Slices with fewer items are marked small.
    rows : tuple of CalibrationSlice
        The slices, in order (bins in numeric order, ``(missing)`` last).
    """

    by: tuple[str, ...]
    min_slice: int
    rows: tuple[CalibrationSlice, ...]

    @classmethod
    def of(cls, by: Sequence[str], min_slice: int, rows: Sequence[Mapping[str, object]]) -> CalibrationSlices:
        return cls(tuple(by), int(min_slice), tuple(CalibrationSlice.of(r) for r in rows))

    def to_dict(self) -> dict[str, object]:
        return {"by": list(self.by), "min_slice": self.min_slice, "slices": [r.to_dict() for r in self.rows]}

    def to_frame(self) -> pandas.DataFrame:
        """One row per slice: its calibration summary. Columns (``FRAME_COLUMNS['CalibrationSlices']`` of
        :mod:`clfeval.render._frames`): ``slice``, ``<by>``, ``n``, ``small``, ``ece``, ``mce``, ``brier``,
        ``log_loss`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)


@dataclass(frozen=True)
class Calibration(Display):
    """Reliability table and calibration measures of one set of probabilities: the one result of
    ``clfeval.calibration`` (with ``by=``, per slice too).

    Attributes
    ----------
    kind : str
        ``binary`` (the probability of the positive class) or ``top-label`` (one column per class).
    positive : str or None
        The positive class (binary).
    n : int
        Items.
    strategy : str
        ``uniform`` (equal-width bins) or ``quantile`` (equal-mass bins).
    n_bins : int
        The bins formed (quantile bins may be fewer than asked; scikit-learn's edges drop empty bins).
    bins : tuple of CalibrationBin
        The reliability table.
    ece : float
        Expected calibration error, Σ_b (n_b/N)·|acc_b − conf_b|.
    mce : float
        Maximum calibration error over the non-empty bins.
    brier : float
        The Brier score.
    log_loss : float
        The log loss, probabilities clipped to [eps, 1 − eps].
    eps : float
        The clipping of the log loss (float64 machine epsilon).
    roc_auc, average_precision : float or None
        The ranking measures of the scores (binary; None otherwise).
    notes : tuple of str
        What the reader should know.
    signature : Mapping[str, object]
        The signature (version, binning rule, sums), read-only.
    edges : str
        ``clfeval`` (left-closed bins, empty bins kept) or ``sklearn`` (``calibration_curve``'s rule).
    slices : CalibrationSlices or None
        ``by=``: the calibration of every slice (None without ``by``).
    engine : EngineInfo or None
        Where it ran (None: made outside the front door).
    """

    kind: str
    positive: str | None
    n: int
    strategy: str
    n_bins: int
    bins: tuple[CalibrationBin, ...]
    ece: float
    mce: float
    brier: float
    log_loss: float
    eps: float
    roc_auc: float | None
    average_precision: float | None
    notes: tuple[str, ...]
    signature: Mapping[str, object]
    edges: str = "clfeval"
    slices: CalibrationSlices | None = None
    engine: EngineInfo | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:  # read-only all the way down; to_dict() gives a plain copy
        object.__setattr__(self, "bins", tuple(self.bins))
        object.__setattr__(self, "notes", tuple(self.notes))
        freeze_fields(self, ("signature",))

    @property
    def by(self) -> tuple[str, ...]:
        """The slice columns (empty without ``by``)."""
        return () if self.slices is None else self.slices.by

    def to_dict(self) -> dict[str, object]:
        """The JSON of ``clfeval calibration`` (a plain, mutable copy; ``engine`` last)."""
        out: dict[str, object] = {"kind": self.kind, "positive": self.positive, "n": self.n,
                                  "strategy": self.strategy, "edges": self.edges, "n_bins": self.n_bins,
                                  "ece": self.ece, "mce": self.mce, "brier": self.brier, "log_loss": self.log_loss,
                                  "log_loss_eps": self.eps, "bins": [b.to_dict() for b in self.bins]}
        if self.roc_auc is not None:
            out["ranking"] = {"roc_auc": self.roc_auc, "average_precision": self.average_precision}
        out["notes"] = list(self.notes)
        out["signature"] = thaw(self.signature)
        if self.slices is not None:
            out.update(self.slices.to_dict())
        return out

    def to_frame(self) -> pandas.DataFrame:
        """The bins: one row per bin (by slice, the slices' summaries: ``slices.to_frame()``). Columns
        (``FRAME_COLUMNS['Calibration']`` of :mod:`clfeval.render._frames`): ``lower``, ``upper``, ``count``,
        ``confidence``, ``accuracy``, ``gap`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)
