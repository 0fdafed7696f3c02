"""The Dask side of the engine: the runner's pieces on a cluster, knowing no operation.

Needs the ``dask`` extra (``pip install 'clfeval[dask]'``); nothing else in clfeval imports Dask. An input — PATHs
(Parquet, CSV, TSV; directories; glob patterns) or a Dask DataFrame — becomes partition tasks, each read on a
worker by the local reader (:func:`parts_of`); :func:`connect` gives a ``distributed.Client`` (a scheduler's
address, or a ``LocalCluster`` on 127.0.0.1) and :func:`run` computes tasks on it, a lost cluster said in one
paragraph. On them the runner (:mod:`clfeval.engines._runner`) runs any accumulator over the partitions added in a
tree (``accumulate``), any accumulator over inputs merged by id (``accumulate_joined``), and an exact order across
partitions with the one range planner (``ranked``, ``open_ranges``: the multi-pass exception).

The documented functions of each operation on a Dask client or DataFrame — :func:`report`, :func:`table`,
:func:`compare`, :func:`ranking`, :func:`histogram`, :func:`binning`, :func:`threshold`, :func:`calibration` —
are thin calls of those pieces with the operation's own accumulator; they live with the front door
(:mod:`clfeval.front._dask`) and are re-exported here under their documented names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.engines.dask._parts": ("connect", "parts_of", "run"),
    # the operations on a Dask client or DataFrame, re-exported from the front door (imported when first used)
    "clfeval.front._dask": ("report", "table", "compare", "ranking", "histogram", "binning", "threshold",
                            "calibration"),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.engines.dask._accumulate": ("accumulate",),
    "clfeval.engines.dask._join": ("accumulate_joined",),
    "clfeval.engines.dask._ranges": ("open_ranges", "ranked"),
    "clfeval.engines.dask._parts": ("Parts", "check_address", "probe", "threads", "tree_sum"),
}
_INTERNAL_MODULES: dict[str, str] = {
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.engines.dask._accumulate import accumulate as accumulate
    from clfeval.engines.dask._join import accumulate_joined as accumulate_joined
    from clfeval.engines.dask._parts import (
        Parts as Parts,
        check_address as check_address,
        probe as probe,
        threads as threads,
        tree_sum as tree_sum,
    )
    from clfeval.engines.dask._ranges import open_ranges as open_ranges, ranked as ranked
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)

if TYPE_CHECKING:
    from clfeval.engines.dask._parts import connect as connect, parts_of as parts_of, run as run

    # for type checkers and the API reference only: at run time resolved lazily (the front door sits above)
    from clfeval.front._dask import (
        binning as binning,
        calibration as calibration,
        compare as compare,
        histogram as histogram,
        ranking as ranking,
        report as report,
        table as table,
        threshold as threshold,
    )

