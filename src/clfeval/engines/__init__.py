"""Where an operation runs: :class:`Local` (this machine, within a memory budget) or :class:`Dask` (a cluster).

The five operations (``clfeval.report``, ``compare``, ``threshold``, ``calibration``, ``ranking``) take
``engine=`` and give the same numbers on every engine; what an engine cannot do is declared once, in
:mod:`clfeval.engines.capabilities`.
"""

from __future__ import annotations

from clfeval.engines.spec import Dask, Local

__all__ = ["Local", "Dask"]
