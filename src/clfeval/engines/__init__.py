"""Where an operation runs: :class:`Local` (this machine, within a memory budget) or :class:`Dask` (a cluster).

The engine is a runner that knows no operation (:mod:`clfeval.engines._runner`): an operation of the front door
(:mod:`clfeval.front`) hands it what it does in each place, and the runner picks one and writes the result's
engine block. What an engine cannot do is declared once, in the capability table
(:mod:`clfeval.engines._capabilities`), the only place that refuses. The Dask side is
:mod:`clfeval.engines.dask`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.engines._spec": ("Local", "Dask"),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.engines._capabilities": ("help_note",),
    "clfeval.engines._runner": ("Runner", "runner"),
    "clfeval.engines._spec": ("from_options",),
}
# Kept importable for one release: merged into the one result of their operation (issue 36), or moved to the
# front door (issue 38: the operations are clfeval.report, ...; the engine package holds the runners only);
# each access warns.
_MOVED = {"SlicedThreshold": ("clfeval.ops.threshold._result", "ThresholdResult", "clfeval.ThresholdResult"),
          "SlicedCalibration": ("clfeval.ops.calibration._result", "Calibration", "clfeval.Calibration")}
_MOVED.update({name: (f"clfeval.front.{module}", name, f"clfeval.{name}")
               for module, names_ in (("_report", ("report",)), ("_compare", ("compare",)),
                                      ("_scores", ("ranking", "threshold", "calibration")),
                                      ("_errors", ("error_analysis",)))
               for name in names_})
_INTERNAL_MODULES: dict[str, str] = {
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.engines._capabilities import help_note as help_note
    from clfeval.engines._runner import Runner as Runner, runner as runner
    from clfeval.engines._spec import from_options as from_options
__getattr__, __dir__ = _attach(__name__, _EXPORTS, ("dask",), internal=_INTERNAL,
                               internal_modules=_INTERNAL_MODULES, moved=_MOVED)

if TYPE_CHECKING:
    from clfeval.engines._spec import Dask as Dask, Local as Local
