"""What :func:`clfeval.calibration` returns: :class:`Calibration`, one type whatever the variant (the reliability
table and measures of every item; with ``by=``, per slice in its typed ``slices``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.ops.calibration._result": ("Calibration", "CalibrationBin", "CalibrationSlice", "CalibrationSlices"),
}

__all__ = _names(_EXPORTS)
# What the code that counts a calibration imports (the front door on every engine, the in-memory and sliced
# calibrations): the one accumulator of its sums and its wording; resolved lazily, kept out of __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.ops.calibration._sums": ("CalibrationSums", "Read", "Reliability", "binary_losses", "quantile_bins",
                                      "reliability_rows"),
    "clfeval.ops.calibration._words": ("EPS", "calibration_words"),
}
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL)

if TYPE_CHECKING:  # _EXPORTS and _INTERNAL, for type checkers
    from clfeval.ops.calibration._result import (
        Calibration as Calibration,
        CalibrationBin as CalibrationBin,
        CalibrationSlice as CalibrationSlice,
        CalibrationSlices as CalibrationSlices,
    )
    from clfeval.ops.calibration._sums import (
        CalibrationSums as CalibrationSums,
        Read as Read,
        Reliability as Reliability,
        binary_losses as binary_losses,
        quantile_bins as quantile_bins,
        reliability_rows as reliability_rows,
    )
    from clfeval.ops.calibration._words import EPS as EPS, calibration_words as calibration_words
