"""What :func:`clfeval.calibration` returns: :class:`Calibration`, one type whatever the variant (the reliability
table and measures of every item; with ``by=``, per slice in its typed ``slices``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.ops.calibration._result": ("Calibration", "CalibrationBin", "CalibrationSlice", "CalibrationSlices"),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.ops.calibration._result import (
        Calibration as Calibration,
        CalibrationBin as CalibrationBin,
        CalibrationSlice as CalibrationSlice,
        CalibrationSlices as CalibrationSlices,
    )
