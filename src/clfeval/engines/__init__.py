"""Where an operation runs: :class:`Local` (this machine, within a memory budget) or :class:`Dask` (a cluster).

The five operations (``clfeval.report``, ``compare``, ``threshold``, ``calibration``, ``ranking``) take
``engine=`` and give the same numbers on every engine; what an engine cannot do is declared once, in
:mod:`clfeval.engines.capabilities`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.engines.spec": ("Local", "Dask"),
    "clfeval.engines.reporting": ("report",),
    "clfeval.engines.comparing": ("compare",),
    "clfeval.engines.scoreops": ("ranking", "threshold", "calibration"),
    "clfeval.engines.errorops": ("error_analysis",),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.engines.comparing import compare as compare
    from clfeval.engines.errorops import error_analysis as error_analysis
    from clfeval.engines.reporting import report as report
    from clfeval.engines.scoreops import calibration as calibration, ranking as ranking, threshold as threshold
    from clfeval.engines.spec import Dask as Dask, Local as Local

