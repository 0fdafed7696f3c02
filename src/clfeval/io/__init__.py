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
    "clfeval.io._readers": ("FORMATS", "detect_format", "read_frame", "column_names", "Source", "write_frame",
                           "atomic_write_text"),
    "clfeval.io._predictions": ("Predictions", "read_predictions", "iter_predictions"),
    "clfeval.io._batches": ("iter_batches",),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.io._align": ("align_predictions", "as_text", "one_repeat"),
    "clfeval.io._batches": ("file_parts", "iter_parts", "read_part", "read_pieces"),
    "clfeval.io._idjoin": ("canonical_labels", "duplicate_error", "earliest", "first_duplicate", "gold_error",
                           "hash_ids", "id_keys", "item_with_id", "missing_error", "partition_of"),
    "clfeval.io._join": ("Aligned", "Matching", "aligned", "unique_batches"),
    "clfeval.io._outputs": ("OutputFiles", "Target", "check_paths", "checkpoint", "deferred_signals", "os_reason",
                            "resolve_output"),
    "clfeval.io._paths": ("InputPath", "resolve_path"),
    "clfeval.io._readahead": ("read_ahead",),
    "clfeval.io._predictions": ("PredictionBatch", "PredictionReader", "check_labels_present"),
    "clfeval.io._readers": ("atomic_path", "decoding_alongside"),
    "clfeval.io._source": ("SPOOL_AT", "STDIN", "block_cap_for", "check_roles", "check_unique_names", "existing_file",
                           "row_ref", "stdin_source"),
    "clfeval.io._spill": ("make_spill_directory", "remove_spill_directory", "spill_directory"),
    "clfeval.io._textjoin": ("join_texts", "texts_table"),
}
_INTERNAL_MODULES: dict[str, str] = {
    "batches": "clfeval.io._batches",
    "inputs": "clfeval.io._inputs",
    "outputs": "clfeval.io._outputs",
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.io import _batches, _inputs, _outputs
    from clfeval.io._align import align_predictions as align_predictions, as_text as as_text, one_repeat as one_repeat
    from clfeval.io._batches import (
        file_parts as file_parts,
        iter_parts as iter_parts,
        read_part as read_part,
        read_pieces as read_pieces,
    )
    from clfeval.io._idjoin import (
        canonical_labels as canonical_labels,
        duplicate_error as duplicate_error,
        earliest as earliest,
        first_duplicate as first_duplicate,
        gold_error as gold_error,
        hash_ids as hash_ids,
        id_keys as id_keys,
        item_with_id as item_with_id,
        missing_error as missing_error,
        partition_of as partition_of,
    )
    from clfeval.io._join import (
        Aligned as Aligned,
        Matching as Matching,
        aligned as aligned,
        unique_batches as unique_batches,
    )
    from clfeval.io._outputs import (
        OutputFiles as OutputFiles,
        Target as Target,
        check_paths as check_paths,
        checkpoint as checkpoint,
        deferred_signals as deferred_signals,
        os_reason as os_reason,
        resolve_output as resolve_output,
    )
    from clfeval.io._paths import InputPath as InputPath, resolve_path as resolve_path
    from clfeval.io._predictions import (
        PredictionBatch as PredictionBatch,
        PredictionReader as PredictionReader,
        check_labels_present as check_labels_present,
    )
    from clfeval.io._readahead import read_ahead as read_ahead
    from clfeval.io._readers import atomic_path as atomic_path, decoding_alongside as decoding_alongside
    from clfeval.io._source import (
        SPOOL_AT as SPOOL_AT,
        STDIN as STDIN,
        block_cap_for as block_cap_for,
        check_roles as check_roles,
        check_unique_names as check_unique_names,
        existing_file as existing_file,
        row_ref as row_ref,
        stdin_source as stdin_source,
    )
    from clfeval.io._spill import (
        make_spill_directory as make_spill_directory,
        remove_spill_directory as remove_spill_directory,
        spill_directory as spill_directory,
    )
    from clfeval.io._textjoin import join_texts as join_texts, texts_table as texts_table
    batches = _batches
    inputs = _inputs
    outputs = _outputs
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)

if TYPE_CHECKING:
    from clfeval.io._batches import iter_batches as iter_batches
    from clfeval.io._predictions import (
        Predictions as Predictions,
        iter_predictions as iter_predictions,
        read_predictions as read_predictions,
    )
    from clfeval.io._readers import (
        FORMATS as FORMATS,
        Source as Source,
        atomic_write_text as atomic_write_text,
        column_names as column_names,
        detect_format as detect_format,
        read_frame as read_frame,
        write_frame as write_frame,
    )

