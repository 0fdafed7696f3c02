"""Slicing (issue 39): every operation's accumulator wrapped per slice, the slices' statistics, and the slice search,
in one folder. The map:

The wrapper (``_wrapper``): :class:`BySlice` — any operation's accumulator per slice of the ``by`` columns, itself an
accumulator; it owns each row's slice (coded by :class:`clfeval.core.SliceCounter`), ``max_slices``, the sorted
order and the null-column refusal, and hands each slice its rows (:class:`RowsOf`: ``error_analysis(by=)``), or,
to an accumulator with ``update_sliced``, the slice codes of one vectorised pass (compare's :class:`JointCells`).

Counting (one pass over the items, any engine)
    ``_slicedcounts`` — :class:`SlicedCounts`, the wrapper over the report's accumulator: the overall table, the
    slice tables of each ``by`` column set, the slice search's lattice counts and the per-slice rankings (with a
    score column) or calibration (:class:`SliceCalibrator`, ``_slicecalibration``); :class:`OutsideCounts`, the
    search's second look (the items outside a found slice). ``_slicecounting`` — the in-memory paths of the same
    counts (``count_sliced``), the cut of a threshold (``at_cut``, ``fold_cut_tables``), numeric columns' bins
    (``slice_binning``). ``_slicejoint`` — :class:`SlicedJointCounts`, the wrapper over compare's joint
    accumulator (two systems' joint table per slice). The counters themselves (``SliceCounter``, the lattice and
    outside counters, the bins, the per-slice rankings) stay in ``clfeval.core`` (``_slicecount``, ``_slicebins``,
    ``_sliceranks``, ``_latticecount``, ``_outsidecount``): the engines and the Dask side below this stage run
    them, and ``clfeval.ops.threshold._slices`` (the typed sliced threshold result) stays with the typed results.

Statistics of the slices (from the count tables)
    ``_slices`` — the ``slices`` section of report and threshold (``slice_section``): metrics, gaps, intervals per
    ``ci_method`` (each slice's table through :func:`clfeval.evaluate.table_ci`, the overall method), tests and
    fairness. ``_slicetests`` — the tests across slices and slice-vs-rest (proportions: χ² and the one 2 × 2 test,
    :func:`clfeval.stats.two_by_two`; other metrics: permutation tests over :func:`clfeval.stats.split_tables`
    redraws), Holm / BY. ``_fairness`` — the group fairness block; each measure is one entry of the registry
    :data:`clfeval.core.FAIRNESS` (``core/_fairmeasures.py``; re-exported here). ``_slicecompare`` — compare by
    slice (Simpson's paradox named). ``_slicereq`` — the ``require=`` functions of a report by slice.

The slice search (``find_slices``)
    ``_slicefind`` (the lattice of column crosses, the tests, the Benjamini–Yekutieli selection), ``_slicedescend``
    (a child explained by its parent is dropped), ``_slicesearch`` (the ``find_slices`` section).

Where the front door, renderers and figures are: ``clfeval.front._slicing``, ``_slicecompare``, ``_slicescores``
(the per-operation wiring, above this stage); ``clfeval.render._slices``, ``_slicefind``, ``_slicedresults``;
``clfeval.plots._slices``; ``clfeval.cli._slices``. Tests: ``tests/evaluate/test_slice*.py``,
``tests/evaluate/test_find_slices.py``, ``tests/significance/test_slice*.py``, ``test_fairness_registry.py``,
``test_twobytwo.py``, ``tests/cli/test_cli_slices.py``, ``tests/engines/test_slices_engines.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.slicing._slices": ("slice_section",),
    "clfeval.core._fairmeasures": ("FAIRNESS", "FairnessMeasure"),
}
__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.slicing._slicecalibration": ("SliceCalibrator", "slice_rows"),
    "clfeval.slicing._slicecompare": ("check_min_slice", "compare_by", "compare_tables", "slice_name"),
    "clfeval.slicing._slicecounting": ("RankedSlices", "at_cut", "count_sliced", "fold_cut_tables", "slice_binning"),
    "clfeval.slicing._slicedcounts": ("OutsideCounts", "Sliced", "SlicedCounts"),
    "clfeval.slicing._slicefind": ("FoundSlices", "lattice"),
    "clfeval.slicing._slicejoint": ("JointCells", "SliceJointCounter", "SlicedCells", "SlicedJointCounts"),
    "clfeval.slicing._wrapper": ("BySlice", "RowsOf"),
    "clfeval.slicing._slices": ("with_rankings",),
    "clfeval.slicing._slicesearch": ("check_find", "found_section"),
}
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL)

if TYPE_CHECKING:
    from clfeval.core._fairmeasures import FAIRNESS as FAIRNESS, FairnessMeasure as FairnessMeasure
    from clfeval.slicing._slicecalibration import SliceCalibrator as SliceCalibrator, slice_rows as slice_rows
    from clfeval.slicing._slicecompare import (
        check_min_slice as check_min_slice,
        compare_by as compare_by,
        compare_tables as compare_tables,
        slice_name as slice_name,
    )
    from clfeval.slicing._slicecounting import (
        RankedSlices as RankedSlices,
        at_cut as at_cut,
        count_sliced as count_sliced,
        fold_cut_tables as fold_cut_tables,
        slice_binning as slice_binning,
    )
    from clfeval.slicing._slicedcounts import (
        OutsideCounts as OutsideCounts,
        Sliced as Sliced,
        SlicedCounts as SlicedCounts,
    )
    from clfeval.slicing._slicefind import FoundSlices as FoundSlices, lattice as lattice
    from clfeval.slicing._slicejoint import (
        JointCells as JointCells,
        SlicedCells as SlicedCells,
        SlicedJointCounts as SlicedJointCounts,
        SliceJointCounter as SliceJointCounter,
    )
    from clfeval.slicing._slices import slice_section as slice_section, with_rankings as with_rankings
    from clfeval.slicing._slicesearch import check_find as check_find, found_section as found_section
    from clfeval.slicing._wrapper import BySlice as BySlice, RowsOf as RowsOf
