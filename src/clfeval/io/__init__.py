"""Reading and writing prediction files: sources (files and standard input), PATHs (files, directories, globs),
readers (CSV, TSV, JSONL, Parquet; whole or in record batches), exact JSONL labels, the CSV formula-injection
policy, alignment of several inputs by id (in memory, or through hash partitions on disk), and the one output
mechanism (outputs checked before the work, written whole or not at all).

The readers' public names are re-exported here (``from clfeval.io import read_predictions``, ``iter_batches``).
"""

from __future__ import annotations

from clfeval.io.batches import iter_batches
from clfeval.io.predictions import Predictions, iter_predictions, read_predictions
from clfeval.io.readers import (
    FORMATS,
    detect_format,
    read_frame,
    column_names,
    Source,
    write_frame,
    atomic_write_text,
)

__all__ = [
    "FORMATS",
    "detect_format",
    "read_frame",
    "read_predictions",
    "iter_predictions",
    "iter_batches",
    "column_names",
    "Predictions",
    "Source",
    "write_frame",
    "atomic_write_text",
]
