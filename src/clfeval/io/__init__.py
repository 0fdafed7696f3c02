"""Reading and writing prediction files: sources (files and standard input), readers (CSV, TSV, JSONL, Parquet),
exact JSONL labels, the CSV formula-injection policy, alignment of several files by id, and the one output
mechanism (outputs checked before the work, written whole or not at all).

The readers' public names are re-exported here (``from clfeval.io import read_predictions``).
"""

from __future__ import annotations

from clfeval.io.readers import (
    FORMATS,
    detect_format,
    read_frame,
    read_predictions,
    column_names,
    Predictions,
    Source,
    write_frame,
    atomic_write_text,
)

__all__ = [
    "FORMATS",
    "detect_format",
    "read_frame",
    "read_predictions",
    "column_names",
    "Predictions",
    "Source",
    "write_frame",
    "atomic_write_text",
]
