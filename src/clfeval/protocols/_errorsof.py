"""The error analysis of a protocol run: its out-of-fold (or test) predictions with the texts they came from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clfeval.errors import UsageError
from clfeval.ops.errors import ErrorAnalysis

__all__ = ["errors_of_run", "ERROR_FORMATS", "errors_format"]

ERROR_FORMATS = {".html": "html", ".htm": "html", ".json": "json", ".md": "markdown", ".txt": "text"}
"""The file extensions of ``--errors PATH`` and the format each gives."""


def errors_format(path: Any) -> str:
    """The format of ``--errors PATH`` from its extension (refused before the run when unknown)."""
    import os

    ext = os.path.splitext(str(path))[1].lower()
    if ext not in ERROR_FORMATS:
        raise UsageError(f"option --errors: cannot tell the format of {str(path)!r} from its extension; use "
                         + ", ".join(ERROR_FORMATS) + ".")
    return ERROR_FORMATS[ext]


def errors_of_run(result: Any, texts: Sequence[str], ids: Sequence[Any], *, processing: Any = None,
                  seed: int = 0, multilabel: bool = False, sep: str = "|", **settings: Any) -> ErrorAnalysis:
    """:class:`~clfeval.ops.errors.ErrorAnalysis` of a run's pooled predictions (the first repeat
    when the run has several: an item appears once), the texts matched by id.

    ``processing``: the run's stop list and stemmer (a :class:`~clfeval.text._processing.Processing` or spec),
    so that the terms are the model's vocabulary. ``multilabel``: the run predicts label sets (written as
    text joined by ``sep``): every category's false negatives and false positives are the cells.
    """
    from clfeval.evaluate import analyse, check_settings, count_arrays, counter_of
    from clfeval.text import analyzer_of

    table = result.predictions
    if "repeat" in table.column_names:
        import pyarrow.compute as pc

        table = table.filter(pc.equal(table.column("repeat"), table.column("repeat")[0]))
    opts = dict(min_count=5, examples=5, terms=10, chars=300, prior_strength=1000.0, z_min=1.96) | settings
    check_settings(**opts)
    by_id = {str(i): t for i, t in zip(ids, texts, strict=False)}
    keys = [str(i) for i in table.column("id").to_pylist()]
    counter = counter_of(analyzer_of(processing), opts["examples"], seed, opts["chars"], multilabel=multilabel,
                         sep=sep)
    count_arrays(counter, table.column("gold").to_pylist(), table.column("pred").to_pylist(),
                 [by_id[k] for k in keys], keys)
    return analyse(counter, min_count=opts["min_count"], terms=opts["terms"], prior_strength=opts["prior_strength"],
                   z_min=opts["z_min"], settings={"processing": None if processing is None else str(processing),
                                                  "text": "the run's data file"})
