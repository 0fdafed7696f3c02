"""clfeval on Dask: reports, comparisons and exact rankings of inputs that outgrow one machine.

Needs the ``dask`` extra (``pip install 'clfeval[dask]'``); nothing else in
clfeval imports Dask. Every function takes a Dask DataFrame or paths (Parquet,
CSV, TSV; directories; glob patterns) and a ``distributed.Client`` (from
:func:`connect`: a scheduler's address, or a ``LocalCluster`` on 127.0.0.1),
maps partitions to count tables, sorted score ranges or histograms, adds them
in a tree, and gives the numbers of the local engine, bit for bit:

* :func:`report` — ``clfeval.report`` (every count metric; the exact ranking
  section with a score column);
* :func:`compare` — ``clfeval.compare`` of two inputs joined by id on the
  cluster (the joint (gold, A, B) table; the same replicates for the same seed);
* :func:`ranking` — exact ROC-AUC, average precision and curves, the score
  axis cut into ranges sorted on the workers (never an average of per-partition AUCs);
* :func:`histogram` and :func:`binning` — the binned mode;
* :func:`threshold` — ``clfeval threshold``'s choice (a cut chosen on development data, measured on the test
  data) from the range-by-range sweep of each input's ranking;
* :func:`calibration` — the reliability table, ECE, MCE, Brier score and log loss.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.engines.dask._parts": ("connect", "parts_of", "run"),
    "clfeval.engines.dask._counting": ("report", "table"),
    "clfeval.engines.dask._compareapi": ("compare",),
    "clfeval.engines.dask._rankings": ("ranking", "histogram", "binning"),
    "clfeval.engines.dask._calibrate": ("calibration",),
    "clfeval.engines.dask._thresholds": ("threshold",),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.engines.dask._accumulate": ("accumulate",),
    "clfeval.engines.dask._join": ("accumulate_joined",),
    "clfeval.engines.dask._ranges": ("ranked",),
    "clfeval.engines.dask._parts": ("check_address",),
}
_INTERNAL_MODULES: dict[str, str] = {
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.engines.dask._accumulate import accumulate as accumulate
    from clfeval.engines.dask._join import accumulate_joined as accumulate_joined
    from clfeval.engines.dask._parts import check_address as check_address
    from clfeval.engines.dask._ranges import ranked as ranked
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)

if TYPE_CHECKING:
    from clfeval.engines.dask._calibrate import calibration as calibration
    from clfeval.engines.dask._compareapi import compare as compare
    from clfeval.engines.dask._counting import report as report, table as table
    from clfeval.engines.dask._parts import connect as connect, parts_of as parts_of, run as run
    from clfeval.engines.dask._rankings import binning as binning, histogram as histogram, ranking as ranking
    from clfeval.engines.dask._thresholds import threshold as threshold

