"""A data file of texts and labels (for the protocols' runs): read once, every column and cell checked."""

from __future__ import annotations

from typing import Any

from clfeval.errors import DataError

__all__ = ["read_text_data", "text_data_of"]


def read_text_data(src: Any, text_col: str, label_col: str, id_col: str | None, multilabel: bool,
                   input_format: str | None, *, encoding: str = "utf-8", normalize: str | None = None,
                   sep: str = "|") -> tuple[list[str], list[Any], list[Any]]:
    """Texts, labels and ids of a data file (or standard input), each checked; errors name the file, row and column."""
    from clfeval.io import check_roles, read_frame

    check_roles([("--text", text_col), ("--label", label_col), ("--id", id_col)])
    table = read_frame(src, input_format=input_format, encoding=encoding,
                       exact=[c for c in (label_col, id_col or "id") if c])
    where = f"file {getattr(src, 'name', str(src))!r}" if not hasattr(src, "is_file") else f"file {str(src)!r}"
    return text_data_of(table, text_col, label_col, id_col, multilabel, where=where, normalize=normalize, sep=sep)


def text_data_of(table: Any, text_col: str, label_col: str, id_col: str | None, multilabel: bool, *, where: str,
                 normalize: str | None = None, sep: str = "|") -> tuple[list[str], list[Any], list[Any]]:
    """Texts, labels and ids of a ``pyarrow.Table`` (a data file's, or a DataFrame's), each checked; errors name
    ``where`` (the file or the table), the row and the column."""
    import pyarrow as pa

    from clfeval.core import normalize_labels
    from clfeval.text import check_texts

    names = table.column_names
    for col, opt in ((text_col, "--text"), (label_col, "--label"), (id_col, "--id")):
        if col is not None and col not in names:
            raise DataError(f"{where} has no column {col!r} (option {opt}); its columns are: "
                            f"{', '.join(repr(c) for c in names)}.")
    tcol = table.column(text_col)
    if not (pa.types.is_string(tcol.type) or pa.types.is_large_string(tcol.type) or pa.types.is_null(tcol.type)):
        tcol = tcol.cast(pa.string())
    texts = check_texts(tcol.to_pylist(), column=text_col, source=where)
    label_column = table.column(label_col)
    if normalize:
        label_column = normalize_labels(label_column, normalize, multilabel=multilabel, sep=sep)
    labels = label_column.to_pylist()
    if not multilabel:
        for i, v in enumerate(labels):
            if v is None or (isinstance(v, str) and not v.strip()):
                raise DataError(f"{where}, row {i + 1}: the label in column {label_col!r} is empty; every item needs "
                                f"a label (for label sets, where an empty cell is an empty set, use --multilabel).")
    else:
        labels = [[] if v is None else v for v in labels]
    ids: list[Any] = list(range(1, len(texts) + 1))  # row numbers, as in every error message
    id_name = id_col or ("id" if "id" in names and "id" not in (text_col, label_col) else None)
    if id_name is not None:
        ids = table.column(id_name).to_pylist()
        if any(v is None for v in ids):
            i = next(i for i, v in enumerate(ids) if v is None)
            raise DataError(f"{where}, row {i + 1}: the id in column {id_name!r} is empty; every item needs an id.")
        if len(set(ids)) != len(ids):
            seen: set[Any] = set()
            dup = next(v for v in ids if v in seen or seen.add(v))  # type: ignore[func-returns-value]
            raise DataError(f"{where}, column {id_name!r}: ids must be unique, but {dup!r} occurs more than once.")
    return texts, labels, ids
