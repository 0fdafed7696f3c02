"""Moved: the Dask engine's library is :mod:`clfeval.engines.dask` (issue 38: the engine package holds the
runners). ``import clfeval.dask`` keeps working for one release: it warns and gives that module."""

from __future__ import annotations

import importlib
import sys
import warnings

warnings.warn("clfeval.dask moved to clfeval.engines.dask and will be removed in the next release; import "
              "clfeval.engines.dask", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = importlib.import_module("clfeval.engines.dask")
