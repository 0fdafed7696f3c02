"""Where an operation runs: :class:`Local` (this machine, within a memory budget) or :class:`Dask` (a cluster).

The five operations (``clfeval.report``, ``compare``, ``threshold``, ``calibration``, ``ranking``) take
``engine=`` and give the same numbers on every engine; what an engine cannot do is declared once, in
:mod:`clfeval.engines._capabilities`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.engines._spec": ("Local", "Dask"),
    "clfeval.engines._reporting": ("report",),
    "clfeval.engines._comparing": ("compare",),
    "clfeval.engines._scoreops": ("ranking", "threshold", "calibration"),
    "clfeval.engines._errorops": ("error_analysis",),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.engines._capabilities": ("help_note",),
    "clfeval.engines._spec": ("from_options",),
    "clfeval.engines._comparing": ("resampling_steps",),
    "clfeval.engines._scorecols": ("check_score_options", "read_scored"),
    "clfeval.engines._scoreops": ("check_calibration_options", "check_threshold_options"),
}
# Kept importable for one release (issue 36): merged into the one result of their operation (the slices a typed
# field of it); each access warns.
_MOVED = {"SlicedThreshold": ("clfeval.ops.threshold._result", "ThresholdResult", "clfeval.ThresholdResult"),
          "SlicedCalibration": ("clfeval.ops.calibration._result", "Calibration", "clfeval.Calibration")}
_INTERNAL_MODULES: dict[str, str] = {
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.engines._capabilities import help_note as help_note
    from clfeval.engines._comparing import resampling_steps as resampling_steps
    from clfeval.engines._scorecols import check_score_options as check_score_options, read_scored as read_scored
    from clfeval.engines._scoreops import (
        check_calibration_options as check_calibration_options,
        check_threshold_options as check_threshold_options,
    )
    from clfeval.engines._spec import from_options as from_options
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES,
                               moved=_MOVED)

if TYPE_CHECKING:
    from clfeval.engines._comparing import compare as compare
    from clfeval.engines._errorops import error_analysis as error_analysis
    from clfeval.engines._reporting import report as report
    from clfeval.engines._scoreops import calibration as calibration, ranking as ranking, threshold as threshold
    from clfeval.engines._spec import Dask as Dask, Local as Local

