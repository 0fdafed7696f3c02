"""Training labels for the honest baselines: read from a file, and checked against the data they are used for."""

from __future__ import annotations

from typing import Any

from clfeval.errors import DataError, InputFileError

__all__ = ["read_train_labels", "check_train_overlap", "label_texts"]


def read_train_labels(path: Any, column: str | None, gold: str, input_format: str | None, *, encoding: str = "utf-8",
                      normalize: str | None = None, multilabel: bool = False, sep: str = "|") -> Any:
    """The training-label column of a file, every label present (single-label data).

    The column is ``column`` if given, else the ``gold`` column name, else ``label``, else the file's only
    column.
    """
    from pathlib import Path

    from clfeval.core import normalize_labels
    from clfeval.io import Source, check_labels_present, detect_format, read_frame

    if not isinstance(path, Source):
        p = Path(path)
        if not p.exists():
            raise InputFileError(lambda name: f"file {str(p)!r} (option {name}) does not exist.",
                                 params=["train_labels"])
        if p.is_dir():
            raise InputFileError(lambda name: f"{str(p)!r} (option {name}) is a directory; expected a file.",
                                 params=["train_labels"])
    src = Source.of(path, encoding=encoding)
    fmt = detect_format(src, input_format if input_format and src.suffix == "" else None)
    table = read_frame(src, input_format=fmt, encoding=encoding, exact=True)
    names = table.column_names
    chosen = None
    for candidate in ([column] if column else [gold, "label"]):
        if candidate in names:
            chosen = candidate
            break
    if chosen is None and column is None and len(names) == 1:
        chosen = names[0]
    if chosen is None:
        wanted = repr(column) if column else f"{gold!r} or 'label'"
        raise DataError(lambda t, c: f"file {src.name!r} (option {t}) has no column {wanted}; its columns are: "
                                     f"{', '.join(repr(c) for c in names)}. Name the column with {c}.",
                        params=["train_labels", "train_column"])
    col = table.column(chosen)
    if normalize:
        col = normalize_labels(col, normalize, multilabel=multilabel, sep=sep)
    if not multilabel:
        check_labels_present(src, fmt, col, chosen)
    return col


def label_texts(col: Any, multilabel: bool, sep: str) -> set[str]:
    """The distinct labels of a column, as text (label sets flattened)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from clfeval.core import flatten_sets, label_str, plain, split_sets

    if not isinstance(col, (pa.Array, pa.ChunkedArray)):
        col = pa.array(list(col))
    values = flatten_sets(split_sets(col, "labels", sep))[1] if multilabel else plain(col)
    return {label_str(v) for v in pc.unique(values).to_pylist() if v is not None}


def check_train_overlap(train: Any, train_name: Any, data_name: str, ours: set[str], multilabel: bool,
                        sep: str) -> None:
    """Refuse training labels that share no label with the data (``ours``: its labels as text): almost surely
    the wrong file or column."""
    theirs = label_texts(train, multilabel, sep)
    if not theirs or not ours or theirs & ours:
        return

    def few(labels: set[str]) -> str:
        shown = sorted(labels)[:5]
        return ", ".join(repr(x) for x in shown) + (f" and {len(labels) - 5} more" if len(labels) > 5 else "")

    raise DataError(lambda t, c: f"the training labels of {str(train_name)!r} (option {t}) share no label with "
                                 f"{data_name!r}: the training labels are {few(theirs)}; the labels of {data_name!r} "
                                 f"are {few(ours)}. Baselines that follow these training labels would predict classes "
                                 f"the data never holds; check that {t} names the training file of this data and {c} "
                                 f"its label column.", params=["train_labels", "train_column"])
