"""``report(find_slices=...)``: the options of the slice search checked before any data is read, and the
search's section from the counts the engines counted (items, trials and successes per slice of every column set
of the lattice, in the same pass as the report: :mod:`clfeval.front._slicing`,
:class:`clfeval.core._latticecount.LatticeCounter`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from clfeval.errors import UsageError

if TYPE_CHECKING:
    from clfeval.ops.report import FoundSlices

__all__ = ["check_find", "found_section", "MAX_SEARCH"]

#: Slices examined in all (every column set of the lattice together) at most, unless ``max_search`` says more.
MAX_SEARCH = 10_000


def _names(find_slices: Any) -> list[str]:
    if isinstance(find_slices, Mapping):
        names = [str(k) for k in find_slices]
    elif isinstance(find_slices, str):
        names = [x.strip() for x in find_slices.split(",")]
    else:
        names = [str(x) for x in find_slices]
    if not names or any(not x for x in names):
        raise UsageError(lambda o: f"option {o} takes the columns to search, separated by commas "
                                   f"(COLUMN[,COLUMN...]); got {find_slices!r}.", params=["find_slices"])
    if len(set(names)) != len(names):
        raise UsageError(lambda o: f"option {o} names a column twice: {', '.join(names)}.", params=["find_slices"])
    return names


def _whole(value: Any, option: str, low: int, high: float = math.inf) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        top = "" if high == math.inf else f" and ≤ {int(high)}"
        raise UsageError(lambda o: f"option {o} must be a whole number ≥ {low}{top}; got {value!r}.", params=[option])
    return value


def check_find(find_slices: Any, *, max_depth: Any, max_search: Any, metric: Any, alpha: Any, positive: Any,
               multilabel: bool, scored: bool, threshold: Any, show_errors: int, by_bins: Any = None) -> dict[str, Any]:
    """The search's settings: columns, lattice (column sets), metric, alpha and bounds, checked up front
    (``by_bins``: at most ``max_search`` bins)."""
    from clfeval.core import catalog, check_by_bins, check_probability, check_slicing
    from clfeval.slicing._slicefind import PROPORTION_METRICS, lattice

    names = _names(find_slices)
    depth = _whole(max_depth, "max_depth", 1, 3)
    bound = _whole(max_search, "max_search", 1)
    check_by_bins(by_bins, bound, "max_search")
    alpha = check_probability(alpha, option="find_alpha")
    check_slicing("find_slices", "searches", multilabel=multilabel, scored=scored, threshold=threshold,
                  show_errors=show_errors)
    if metric is None:
        metric = f"recall:{positive}" if positive is not None else "accuracy"
    entry, _ = catalog.parse(metric, extra="")
    if entry.key not in PROPORTION_METRICS:
        raise UsageError(lambda o: f"option {o} {metric!r}: the slice search tests proportions of items "
                                   f"({', '.join(PROPORTION_METRICS)}); {metric!r} is not one (F1, MCC and the "
                                   f"averages have no slice-against-rest proportion test here: name the slices with "
                                   f"--by, whose permutation test covers them).", params=["find_metric"])
    sets = lattice(names, min(depth, len(names)))
    return {"columns": names, "sets": sets, "max_depth": depth, "max_search": bound, "metric": str(metric),
            "alpha": alpha, "given": find_slices}


def found_section(found: Sequence[Any], table: Any, find: dict[str, Any], *, min_slice: int,
                  recount: Any = None) -> FoundSlices:
    """The ``find_slices`` section of a report from the counts of the lattice's column sets
    (:class:`~clfeval.core._latticecount.SliceProportions`, in the order of ``find["sets"]``) and the overall
    confusion table ``table``; ``recount``: counts slices outside overlapping sub-slices from the items (the
    descendant rule, :mod:`clfeval.slicing._slicedescend`)."""
    from clfeval.core import SliceBinning
    from clfeval.slicing._slicefind import proportions, search_tables

    proportions(find["metric"], table.labels, "find_metric")  # a class the data does not have is refused here
    for t in found:
        t.check_values()
    examined = sum(len(t.keys) for t in found)
    if examined > find["max_search"]:
        raise UsageError(lambda o: f"the slice search of {', '.join(find['columns'])} to depth {find['max_depth']} "
                                   f"examines {examined:,} slices, more than option {o} ({find['max_search']:,}): "
                                   f"search fewer columns, lower --max-depth, bin numeric columns (--by-bins N), "
                                   f"or raise {o}.", params=["max_search"])
    bins = {c: b for t in found for c, b in (t.binning or {}).items()}
    notes = [SliceBinning.of(b).describe() for _, b in sorted(bins.items())]
    r = search_tables(found, find["metric"], alpha=find["alpha"], min_slice=min_slice, max_depth=find["max_depth"],
                      notes=notes, overall=table, recount=recount)
    return r.without_signature()
