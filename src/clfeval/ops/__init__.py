"""One typed result per operation of the front door (issue 36): each operation's folder holds its result type and
the typed parts of its variants, frozen dataclasses over the core's types only (``clfeval.ops.compare``: what
:func:`clfeval.compare` returns)."""

from __future__ import annotations

from clfeval.core.lazy import attach as _attach

__all__: list[str] = []
__getattr__, __dir__ = _attach(__name__, {}, subpackages=("compare",))
