"""The optional parts of a :class:`~clfeval.evaluate._reports.Report`, one small frozen type each.

A report always has its counts, averages, diagnostics and baselines; these parts it has only when asked for
(``ci=``, ``scores=``, ``require=``, ``by=``, ``find_slices=``, ...). Each is a typed field of the report
(``r.ci``, ``r.ranking``, ``r.ranking_ci``, ``r.requirements``, ``r.slices``, ``r.find_slices``, ``r.engine``,
``r.inputs``, ``r.errors_share``; None when absent; ``r.engine`` is the core's
:class:`~clfeval.core.EngineInfo`) holding its data as the JSON gives it, with accessors for
what is read most; :meth:`Part.to_dict` is its JSON, which the report's one ``to_dict`` lays out under
:attr:`Part.key`, in the order of :data:`PARTS`.

>>> import clfeval
>>> r = clfeval.report(["a", "b", "b"], ["a", "b", "a"], ci=0.9, samples=200)
>>> type(r.ci).__name__, r.ci.level, r.ranking is None
('Intervals', 0.9, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from clfeval.core import freeze, thaw

__all__ = ["Part", "Intervals", "RankingPart", "RankingIntervals", "InputsPart", "SlicesPart", "FoundSlicesPart",
           "RequirementsPart", "ErrorsSharePart", "PARTS", "part_of"]


@dataclass(frozen=True)
class Part(Mapping[str, Any]):
    """One optional part of a report: its data exactly as the JSON gives it (undefined values NaN here, null
    in JSON). Read-only mapping access (``part["key"]``) reaches that data."""

    data: Mapping[str, Any]
    key: ClassVar[str] = ""

    def __post_init__(self) -> None:  # read-only all the way down, as the report holding it
        object.__setattr__(self, "data", freeze(dict(self.data) if type(self.data) is not dict else self.data))

    def to_dict(self) -> dict[str, Any]:
        """The part's JSON (the value under :attr:`key` in the report's ``to_dict``): a plain, mutable copy."""
        return thaw(dict(self.data))

    def __getitem__(self, name: str) -> Any:
        return self.data[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


@dataclass(frozen=True)
class Intervals(Part):
    """Bootstrap (or Wilson, BCa) intervals of the count metrics, at the paths of the report's own keys
    (``r.ci["macro"]["f1"]`` is ``[low, high]``)."""

    key: ClassVar[str] = "ci"

    @property
    def level(self) -> float:
        return float(self.data.get("level", math.nan))


@dataclass(frozen=True)
class RankingPart(Part):
    """What the scores say: ROC-AUC, average precision (and partial ROC-AUC for one positive class), or the
    one-vs-rest ``macro`` / ``micro`` / ``per_class`` blocks.

    Every ranking measure of the catalogue is an attribute (``r.ranking.roc_auc``,
    ``r.ranking.average_precision``, ``r.ranking.partial_roc_auc``; one-vs-rest: the macro mean), and so is each
    measure's parameter (``r.ranking.max_fpr``); NaN where the part does not hold it."""

    key: ClassVar[str] = "ranking"

    def _value(self, name: str) -> float:
        v = self.data.get(name)
        if v is None and isinstance(self.data.get("macro"), Mapping):
            v = self.data["macro"].get(name)
        return math.nan if v is None else float(v)

    def __getattr__(self, name: str) -> float:
        from clfeval.core import catalog

        ranked = catalog.entries(input="ranking")
        if name.startswith("_") or name not in {m.name for m in ranked} | {p for m in ranked for p in m.params}:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return self._value(name)


@dataclass(frozen=True)
class RankingIntervals(Part):
    """Intervals of the ranking measures (DeLong's and the bootstrap's), per measure."""

    key: ClassVar[str] = "ranking_ci"

    @property
    def level(self) -> float:
        return float(self.data.get("level", math.nan))


@dataclass(frozen=True)
class InputsPart(Part):
    """What reading the input noticed (columns skipped as aliases of others)."""

    key: ClassVar[str] = "inputs"


@dataclass(frozen=True)
class SlicesPart(Part):
    """The report per slice (``by=``): each slice's metrics, intervals and tests against the rest."""

    key: ClassVar[str] = "slices"

    @property
    def n_slices(self) -> int:
        return int(self.data.get("n_slices", 0))

    def to_frame(self) -> Any:
        """One row per slice, in the section's order (bins in numeric order, ``(missing)`` last): its key
        columns, ``n``, ``share``, ``small``, every metric, ``gap_to_rest:METRIC``, and per tested metric
        ``p:METRIC``, ``p_holm:METRIC``, ``p_by:METRIC``, ``flagged:METRIC`` (pandas: the ``frame`` extra)."""
        pd = _pandas()
        rows = []
        for r in self.data["slices"]:
            row: dict[str, Any] = {"slice": r["slice"], **r["key"], "n": r["n"], "share": r["share"],
                                   "small": r["small"], **r["metrics"]}
            row.update({f"gap_to_rest:{m}": math.nan if v is None else v for m, v in r["gap_to_rest"].items()})
            for m, t in r["tests"].items():
                row.update({f"p:{m}": t["p"], f"p_holm:{m}": t["p_holm"], f"p_by:{m}": t["p_by"],
                            f"flagged:{m}": t["flagged"]})
            rows.append(row)
        return pd.DataFrame(rows)


@dataclass(frozen=True)
class FoundSlicesPart(Part):
    """The slices where the classifier does worst (``find_slices=``)."""

    key: ClassVar[str] = "find_slices"

    @property
    def found(self) -> list[Any]:
        return list(self.data.get("found") or [])

    @property
    def explained(self) -> list[Any]:
        """The slices explained by the found slices inside them (the descendant rule), each with ``explained_by``."""
        return list(self.data.get("explained") or [])

    def to_frame(self) -> Any:
        """One row per significant slice: ``status`` found, then dropped (a parent explains it) and explained (the
        slices found inside it explain it), with ``explained_by`` (a list of slice names) beside the numbers
        (pandas: the ``frame`` extra)."""
        pd = _pandas()
        keep = ("slice", "items", "successes", "trials", "value", "rest_value", "gap", "effect_h", "p_value",
                "p_adjusted")
        rows = []
        for status in ("found", "dropped", "explained"):
            for r in self.data.get(status) or []:
                by = r.get("explained_by")
                rows.append({"status": status, **{k: r.get(k) for k in keep},
                             "explained_by": [] if by is None else [by] if isinstance(by, str) else list(by)})
        return pd.DataFrame(rows, columns=["status", *keep, "explained_by"])


@dataclass(frozen=True)
class RequirementsPart(Part):
    """The ``--require`` conditions, each met or not."""

    key: ClassVar[str] = "requirements"

    @property
    def met(self) -> bool:
        return bool(self.data.get("met"))




@dataclass(frozen=True)
class ErrorsSharePart(Part):
    """The three largest confused cells of ``clfeval errors`` (the command line's ``report --text``)."""

    key: ClassVar[str] = "errors_share"


#: Every part, in the order the report's JSON lays them out (after ``errors``, before ``undefined``).
PARTS: tuple[type[Part], ...] = (Intervals, RankingPart, RankingIntervals, InputsPart, SlicesPart, FoundSlicesPart,
                                 RequirementsPart, ErrorsSharePart)
_BY_KEY = {p.key: p for p in PARTS}


def _pandas() -> Any:
    from clfeval.errors import MissingExtra

    MissingExtra.require("to_frame()", [("pandas", "pandas")], "frame")
    import pandas as pd

    return pd


def part_of(key: str, value: Any) -> Part | None:
    """``value`` as the part named ``key`` (None stays None; a part of that type is kept as it is)."""
    if value is None:
        return None
    cls = _BY_KEY[key]
    if isinstance(value, cls):
        return value
    if isinstance(value, Part):
        value = value.data
    if not isinstance(value, Mapping):
        raise TypeError(f"the report part {key!r} takes a mapping, not {type(value).__name__}")
    return cls(value)
