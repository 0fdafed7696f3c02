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
    "clfeval.dask.parts": ("connect", "parts_of", "run"),
    "clfeval.dask.counting": ("report", "compare", "table"),
    "clfeval.dask.rankings": ("ranking", "histogram", "binning"),
    "clfeval.dask.calibrate": ("calibration",),
    "clfeval.dask.thresholds": ("threshold",),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.dask.calibrate import calibration as calibration
    from clfeval.dask.counting import compare as compare, report as report, table as table
    from clfeval.dask.parts import connect as connect, parts_of as parts_of, run as run
    from clfeval.dask.rankings import binning as binning, histogram as histogram, ranking as ranking
    from clfeval.dask.thresholds import threshold as threshold

