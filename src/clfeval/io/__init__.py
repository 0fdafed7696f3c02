"""Reading and writing prediction files: sources (files and standard input), PATHs (files, directories, globs),
readers (CSV, TSV, JSONL, Parquet; whole or in record batches), exact JSONL labels, the CSV formula-injection
policy, alignment of several inputs by id (in memory, or through hash partitions on disk), and the one output
mechanism (outputs checked before the work, written whole or not at all).

The readers' public names are re-exported here (``from clfeval.io import read_predictions``, ``iter_batches``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.io.readers": ("FORMATS", "detect_format", "read_frame", "column_names", "Source", "write_frame",
                           "atomic_write_text"),
    "clfeval.io.predictions": ("Predictions", "read_predictions", "iter_predictions"),
    "clfeval.io.batches": ("iter_batches",),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.io.batches import iter_batches as iter_batches
    from clfeval.io.predictions import (
        Predictions as Predictions,
        iter_predictions as iter_predictions,
        read_predictions as read_predictions,
    )
    from clfeval.io.readers import (
        FORMATS as FORMATS,
        Source as Source,
        atomic_write_text as atomic_write_text,
        column_names as column_names,
        detect_format as detect_format,
        read_frame as read_frame,
        write_frame as write_frame,
    )

