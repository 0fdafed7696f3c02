"""What ``clfeval.power`` returns: :class:`PowerResult`, one type whatever the question (two systems: the
exact McNemar power or the paired bootstrap standard error; one system: the width of its interval), holding its
one typed part."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.ops.power._result": ("PowerResult", "McNemarPower", "BootstrapPower", "IntervalWidth"),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.ops.power._result import (
        BootstrapPower as BootstrapPower,
        IntervalWidth as IntervalWidth,
        McNemarPower as McNemarPower,
        PowerResult as PowerResult,
    )
