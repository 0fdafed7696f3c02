"""The slice search's result (``find_slices=``, ``clfeval slices find``): :class:`FoundSlices` and its rows.

The same type is the report's ``find_slices`` part (without a signature: the report has its own) and the
standalone result of the search (with one). Built with keyword arguments by
:func:`clfeval.slicing._slicefind.search_tables`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clfeval.core import Display, FrozenDict, ItemReads, freeze_fields
from clfeval.ops.report._block import Block, Bound, Json, blocks, plain

if TYPE_CHECKING:
    import pandas

__all__ = ["FoundSlices", "FoundSlice", "ParentCheck", "SliceProportion"]


def json_number(x: object) -> float:
    """A number of the JSON (null: undefined, NaN)."""
    if x is None:
        return math.nan
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"a number, not {type(x).__name__}")
    return x


def json_mapping(x: object) -> Mapping[str, object]:
    """A JSON object of the JSON."""
    if not isinstance(x, Mapping):
        raise TypeError(f"a JSON object, not {type(x).__name__}")
    return x


@dataclass(frozen=True)
class ParentCheck(Block):
    """A significant cross against the rest of one parent (the parent rule).

    Attributes
    ----------
    parent : str
        The parent slice.
    parent_rest_value : float or None
        The metric on the parent's items outside the cross.
    p_value, p_adjusted : float or None
        The two-proportion test, raw and Benjamini–Yekutieli-adjusted.
    kept : bool
        The cross is significantly worse than that rest.
    """

    parent: str = ""
    parent_rest_value: float | None = None
    p_value: float | None = None
    p_adjusted: float | None = None
    kept: bool = False


@dataclass(frozen=True)
class FoundSlice(Block):
    """One significant slice (found, dropped or explained).

    Attributes
    ----------
    columns : sequence of str
        Its columns.
    values : sequence of Json
        Its value of each.
    slice : str
        Its name (``a=x ∧ b=y``).
    items : int
        Its items.
    successes, trials : int
        The metric's proportion in it.
    value, rest_value, gap, effect_h : float or None
        The metric in it, in the rest, their difference, Cohen's h (positive: worse).
    p_value, p_adjusted : float or None
        Against the rest: raw and Benjamini–Yekutieli-adjusted.
    test : str
        The test used.
    interval : Bound or None
        Wilson interval of its proportion.
    vs_parents : tuple of ParentCheck
        A cross: its test against each parent's rest.
    explained_by : str or sequence of str or None
        Dropped: the parent that explains it; explained: the slices found inside it.
    without_descendants : mapping of str to Json, or None
        Explained: its test on its items outside those slices.
    """

    columns: Sequence[str] = ()
    values: Sequence[Json] = ()
    slice: str = ""
    items: int = 0
    successes: int = 0
    trials: int = 0
    value: float | None = None
    rest_value: float | None = None
    gap: float | None = None
    effect_h: float | None = None
    p_value: float | None = None
    p_adjusted: float | None = None
    test: str = ""
    interval: Bound | None = None
    vs_parents: tuple[ParentCheck, ...] = ()
    explained_by: str | Sequence[str] | None = None
    without_descendants: Mapping[str, Json] | None = None

    _nested = {"vs_parents": blocks(ParentCheck)}


@dataclass(frozen=True)
class SliceProportion(Block):
    """The metric as a proportion over all items.

    Attributes
    ----------
    value : float or None
        successes / trials.
    successes, trials, items : int
    """

    value: float | None = None
    successes: int = 0
    trials: int = 0
    items: int = 0


@dataclass(frozen=True)
class FoundSlices(ItemReads, Display):
    """The slices where the metric is worst, found by searching the lattice under false-discovery control.

    Attributes
    ----------
    metric : str
        The metric searched (a proportion: ``recall:spam``, ``accuracy``, ...).
    higher_is_better : bool
        Its direction.
    overall : SliceProportion
        On all items.
    columns : sequence of str
        The columns searched.
    max_depth : int
        Columns per slice, at most.
    examined, testable : int
        Slices examined; those that could be tested.
    found, dropped, explained : tuple of FoundSlice
        Reported; dropped because a parent explains them; explained by the slices found inside them.
    alpha : float
        The false-discovery rate.
    min_slice : int
        A slice is reported from this many items.
    method : mapping of str to str
        Each rule, in words.
    notes : sequence of str
    bins : mapping of str to sequence of float
        The bin edges of binned numeric columns.
    signature : mapping of str to object, or None
        The standalone search's signature (None: the report's part, which has the report's).
    """

    metric: str
    higher_is_better: bool
    overall: SliceProportion
    columns: Sequence[str]
    max_depth: int
    examined: int
    testable: int
    found: tuple[FoundSlice, ...]
    dropped: tuple[FoundSlice, ...]
    alpha: float
    min_slice: int
    method: Mapping[str, str]
    notes: Sequence[str] = ()
    bins: Mapping[str, Sequence[float]] = field(default_factory=FrozenDict)
    explained: tuple[FoundSlice, ...] = ()
    signature: Mapping[str, object] | None = None

    def __post_init__(self) -> None:
        freeze_fields(self, ("columns", "method", "notes", "bins", "signature"))

    @property
    def survived(self) -> int:
        """Significant slices: found, dropped and explained."""
        return len(self.found) + len(self.dropped) + len(self.explained)

    def without_signature(self) -> FoundSlices:
        """The same search as a report's part."""
        import dataclasses

        return dataclasses.replace(self, signature=None)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "result": "find_slices", "metric": self.metric, "higher_is_better": self.higher_is_better,
            "overall": self.overall.to_dict(), "columns": list(self.columns), "max_depth": self.max_depth,
            "examined": self.examined, "testable": self.testable, "survived": self.survived,
            "found": [f.to_dict() for f in self.found], "dropped": [d.to_dict() for d in self.dropped],
            "explained": [x.to_dict() for x in self.explained], "alpha": self.alpha, "min_slice": self.min_slice,
            "method": dict(self.method), "bins": {k: list(v) for k, v in self.bins.items()},
            "notes": list(self.notes)}
        if self.signature is not None:
            out["signature"] = plain(self.signature)
        return out

    @classmethod
    def from_dict(cls, data: object) -> FoundSlices:
        """The search of its JSON (a report's ``find_slices`` part, or ``clfeval slices find --format json``
        parsed; ``result`` and ``survived`` are derived). A value of the wrong type raises TypeError, a missing
        key KeyError."""
        d = json_mapping(data)

        def rows(key: str) -> tuple[FoundSlice, ...]:
            v = d.get(key) or ()
            if not isinstance(v, (list, tuple)):
                raise TypeError(f"find_slices.{key}: a JSON array, not {type(v).__name__}")
            return tuple(FoundSlice.of(x) for x in v)

        sig = d.get("signature")
        columns, notes = d.get("columns") or (), d.get("notes") or ()
        assert isinstance(columns, (list, tuple)) and isinstance(notes, (list, tuple))
        return cls(metric=str(d["metric"]), higher_is_better=bool(d["higher_is_better"]),
                   overall=SliceProportion.of(d["overall"]), columns=tuple(str(c) for c in columns),
                   max_depth=int(json_number(d["max_depth"])), examined=int(json_number(d["examined"])),
                   testable=int(json_number(d["testable"])), found=rows("found"), dropped=rows("dropped"),
                   alpha=json_number(d["alpha"]), min_slice=int(json_number(d["min_slice"])),
                   method={str(k): str(v) for k, v in json_mapping(d.get("method") or {}).items()},
                   notes=tuple(str(n) for n in notes),
                   bins={str(k): tuple(json_number(e) for e in v)  # type: ignore[attr-defined]
                         for k, v in json_mapping(d.get("bins") or {}).items()},
                   explained=rows("explained"), signature=None if sig is None else json_mapping(sig))

    def to_frame(self) -> pandas.DataFrame:
        """One row per significant slice: ``status`` found, then dropped (a parent explains it) and explained (the
        slices found inside it explain it). Columns (``FRAME_COLUMNS['FoundSlices']`` of
        :mod:`clfeval.render._frames`): ``status``, ``slice``, ``items``, ``successes``, ``trials``, ``value``,
        ``rest_value``, ``gap``, ``effect_h``, ``p_value``, ``p_adjusted``, ``explained_by`` (pandas: the ``frame``
        extra)."""
        from clfeval.core import frame_of

        return frame_of(self)
