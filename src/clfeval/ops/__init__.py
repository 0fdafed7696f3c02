"""Per operation of the front door, its one typed result (issue 36): ``clfeval.ops.<operation>``.

Each subpackage holds the result type of one operation and its typed parts: frozen dataclasses over the core's
types only (a module here imports ``clfeval.core``, ``clfeval.errors`` and its own subpackage), built by the code
that computes them and read by the renderers and figures.
"""

from __future__ import annotations

from clfeval.core.lazy import attach as _attach

__all__: list[str] = []
__getattr__, __dir__ = _attach(__name__, {}, subpackages=("calibration", "compare", "errors", "rank", "ranking",
                                                           "report", "threshold"))
