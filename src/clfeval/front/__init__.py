"""The front door: one public function per operation (``clfeval.report``, ``compare``, ``threshold``,
``calibration``, ``ranking``, ``error_analysis``, ``rank``, ``power``, ``label_issues``), on any input and engine.

Each operation checks and normalises every argument before any work (the input's kind: arrays, a table with
column names, a PATH, through :mod:`clfeval.io._inputs`), asks the engine's runner
(:func:`clfeval.engines.runner`) to admit its options (the capability table refuses there), hands it what it
does in each place — in memory, streamed within the budget, mapped over a cluster's partitions — and returns
its one typed result (:mod:`clfeval.ops`) with the runner's engine block. No module here tests an engine's type
or reads its attributes (``tests/project/test_engine_boundary.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.front._report": ("report",),
    "clfeval.front._compare": ("compare",),
    "clfeval.front._scores": ("ranking", "threshold", "calibration"),
    "clfeval.front._errors": ("error_analysis",),
    "clfeval.front._protocols": ("cv", "holdout"),
    "clfeval.front._rank": ("rank",),
    "clfeval.front._power": ("power",),
    "clfeval.front._labelissues": ("label_issues",),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.front._compare": ("resampling_steps",),
    "clfeval.front._labelissues": ("check_flagged", "write_flagged"),
    "clfeval.front._protocols": ("Experiment", "experiment", "read_data", "read_recorded", "run_experiment"),
    "clfeval.front._scorecols": ("check_score_options", "read_scored"),
    "clfeval.front._scores": ("check_calibration_options", "check_threshold_options"),
}
_INTERNAL_MODULES: dict[str, str] = {
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.front._compare import resampling_steps as resampling_steps
    from clfeval.front._labelissues import check_flagged as check_flagged, write_flagged as write_flagged
    from clfeval.front._protocols import (
        Experiment as Experiment,
        experiment as experiment,
        read_data as read_data,
        read_recorded as read_recorded,
        run_experiment as run_experiment,
    )
    from clfeval.front._scorecols import check_score_options as check_score_options, read_scored as read_scored
    from clfeval.front._scores import (
        check_calibration_options as check_calibration_options,
        check_threshold_options as check_threshold_options,
    )
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)

if TYPE_CHECKING:
    from clfeval.front._compare import compare as compare
    from clfeval.front._errors import error_analysis as error_analysis
    from clfeval.front._labelissues import label_issues as label_issues
    from clfeval.front._power import power as power
    from clfeval.front._protocols import cv as cv, holdout as holdout
    from clfeval.front._rank import rank as rank
    from clfeval.front._report import report as report
    from clfeval.front._scores import calibration as calibration, ranking as ranking, threshold as threshold
