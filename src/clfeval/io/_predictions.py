"""Predictions read from a PATH: gold labels, predictions, ids — in batches, or whole.

:func:`iter_predictions` reads a PATH (:mod:`clfeval.io._paths`: a file, a
directory, a glob pattern, standard input) batch by batch
(:mod:`clfeval.io._batches`) and checks every batch as a whole file is
checked: the columns each option names exist (the message lists the file's
columns), no label is empty (naming the file and row), typed numbers that are
equal are one label (1 and 1.0), labels are Unicode-normalised on request,
ids are single values and present; with a ``repeat`` column rows are keyed by
(repeat, id). Each :class:`PredictionBatch` knows its file and rows, so that a
consumer can name the row of anything it finds. :func:`read_predictions`
gathers every batch into one :class:`Predictions` (for what needs all items in
memory: score columns, thresholds); ids must then be unique across all files.
Counting consumers check ids across all batches with
:class:`clfeval.io._join.UniqueIds`, in bounded memory.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import arrowcompute as pc, label_str, normalize_labels, unify_numbers
from clfeval.errors import DataError
from clfeval.io._batches import DEFAULT_BATCH_ROWS, Part, Progress, iter_parts
from clfeval.io._idjoin import duplicate_error, first_duplicate
from clfeval.io._paths import InputPath, resolve_path
from clfeval.io._source import Source, check_option_column, check_roles, row_ref

__all__ = ["Predictions", "PredictionBatch", "PredictionReader", "iter_predictions", "read_predictions",
           "check_labels_present"]


@dataclass(frozen=True, eq=False)
class Predictions:
    """Gold labels, predictions and optional ids read from one input (one file, or every file of a PATH).

    When the file has a ``repeat`` column (out-of-fold predictions of a
    repeated cross-validation or holdout, where every item occurs once per
    repeat), the key of a row is (repeat, id): ``ids`` then holds that key as
    the text ``"<repeat>:<id>"``, unique per row, so that everything keyed by
    id (listing errors, aligning two files) works unchanged; ``repeats`` and
    ``item_ids`` keep the two parts.
    """

    path: str
    gold: pa.ChunkedArray
    pred: pa.ChunkedArray | None
    ids: pa.ChunkedArray | None
    columns: tuple[str, ...]
    extra: dict[str, pa.ChunkedArray]
    repeats: pa.ChunkedArray | None = None
    item_ids: pa.ChunkedArray | None = None
    source: Source | None = None
    fmt: str = "csv"
    parts: tuple[tuple[int, Part], ...] = field(default=(), repr=False)

    @property
    def n(self) -> int:
        return len(self.gold)

    def _locate(self, index: int) -> tuple[Part | None, int]:
        if not self.parts:
            return None, index
        starts = [s for s, _ in self.parts]
        k = bisect.bisect_right(starts, index) - 1
        start, part = self.parts[max(k, 0)]
        return part, index - start

    def row_ref(self, index: int) -> str:
        """``row N (line L)`` of the item at ``index`` (0-based): rows count from 1 after the header, in its file."""
        part, i = self._locate(index)
        return part.row_ref(i) if part is not None else row_ref(self.source, self.fmt, index)

    def where(self, index: int) -> str:
        """``file 'x.csv', row N (line L)`` of the item at ``index``."""
        part, i = self._locate(index)
        return part.where(i) if part is not None else f"file {self.path!r}, {self.row_ref(index)}"


def _missing_column(path: str, name: str, option: str, columns: Sequence[str]) -> DataError:
    return DataError(
        f"file {path!r} has no column {name!r} (option {option}); its columns are: "
        f"{', '.join(repr(c) for c in columns)}. Name the column with {option}."
    )


def _first_index(mask: pa.ChunkedArray | pa.Array) -> int:
    arr = np.asarray(pc.fill_null(mask, True)) if mask.null_count else np.asarray(mask)
    return int(np.flatnonzero(arr)[0])


def _empty_label_mask(col: pa.ChunkedArray) -> pa.ChunkedArray | None:
    """Mask of missing labels (null, blank string, NaN), or None when there are none.

    Dictionary columns are checked through their (small) dictionary first.
    """
    t = col.type.value_type if pa.types.is_dictionary(col.type) else col.type
    is_text = pa.types.is_string(t) or pa.types.is_large_string(t)
    if pa.types.is_dictionary(col.type):
        if col.num_chunks == 0:
            return None
        col = col.unify_dictionaries()
        dictionary = col.chunk(0).dictionary
        bad_values = pc.is_null(dictionary)
        if is_text:
            bad_values = pc.or_kleene(bad_values, pc.equal(pc.utf8_trim_whitespace(dictionary), ""))
        elif pa.types.is_floating(t):
            bad_values = pc.or_kleene(bad_values, pc.is_nan(dictionary))
        bad = np.flatnonzero(np.asarray(pc.fill_null(bad_values, True)))
        if bad.size == 0 and col.null_count == 0:
            return None
        indices = pa.chunked_array([c.indices for c in col.chunks])
        return pc.or_kleene(pc.is_null(indices), pc.is_in(indices, pa.array(bad, type=indices.type)))
    if col.null_count == 0 and not (is_text or pa.types.is_floating(t)):
        return None
    missing = pc.is_null(col)
    if is_text:
        missing = pc.or_kleene(missing, pc.equal(pc.utf8_trim_whitespace(col), ""))
    elif pa.types.is_floating(t):
        missing = pc.or_kleene(missing, pc.is_nan(col))
    return missing if pc.any(missing).as_py() else None


def check_labels_present(src: Source, fmt: str, col: pa.ChunkedArray, name: str, *, start: int = 0) -> None:
    """Refuse an empty label (null, blank, NaN) in single-label data, naming its row (``start``: the file's
    row index of the column's first value)."""
    missing = _empty_label_mask(col)
    if missing is not None and pc.any(missing).as_py():
        i = _first_index(missing)
        raise DataError(
            f"file {src.name!r}, {row_ref(src, fmt, start + i)}: the label in column {name!r} is empty; every item "
            f"needs a label in single-label data (for label sets, where an empty cell is an empty set, use "
            f"--multilabel).")


def _check_keys(part: Part, repeats: pa.ChunkedArray, ids: pa.ChunkedArray, rname: str, name: str) -> pa.ChunkedArray:
    """The (repeat, id) key of every row as ``"<repeat>:<id>"``; refuses missing repeats."""
    if repeats.null_count:
        i = _first_index(pc.is_null(repeats))
        raise DataError(f"{part.where(i)}: the repeat in column {rname!r} is empty; with a {rname!r} column every "
                        f"row needs one (the key of a row is ({rname}, {name})).")
    r = repeats.cast(pa.string()) if not pa.types.is_string(repeats.type) else repeats
    return pc.binary_join_element_wise(r, ids.cast(pa.string()), ":")


def _same_numbers(gold: pa.ChunkedArray, pred: pa.ChunkedArray) -> tuple[pa.ChunkedArray, pa.ChunkedArray]:
    """Typed gold and predicted labels, one integer and one float column (or label sets of them), as one
    exact type: in a typed file equal numbers are one label (1 and 1.0), see :func:`unify_numbers`."""
    def values(col: pa.ChunkedArray) -> tuple[pa.ChunkedArray, pa.Array | None]:
        if pa.types.is_list(col.type) or pa.types.is_large_list(col.type):
            arr = pa.concat_arrays(col.chunks) if col.num_chunks else pa.array([], type=col.type)
            return pa.chunked_array([arr.flatten()]), arr
        return col, None

    (g, g_lists), (p, p_lists) = values(gold), values(pred)
    numeric = [pa.types.is_integer(c.type) or pa.types.is_floating(c.type) for c in (g, p)]
    if not all(numeric) or pa.types.is_floating(g.type) == pa.types.is_floating(p.type):
        return gold, pred
    g, p = unify_numbers([g, p])

    def rebuild(flat: pa.ChunkedArray, lists: pa.Array | None) -> pa.ChunkedArray:
        if lists is None:
            return flat
        base = pa.concat_arrays(flat.chunks)  # offsets relative to the flattened values
        offsets = pc.subtract(lists.offsets, lists.offsets[0])
        return pa.chunked_array([type(lists).from_arrays(offsets, base,
                                                         mask=pc.is_null(lists) if lists.null_count else None)])

    return rebuild(g, g_lists), rebuild(p, p_lists)


@dataclass(frozen=True, eq=False)
class PredictionBatch:
    """One batch of checked predictions and where its rows are.

    ``text`` — the labels of this batch are compared as text (JSON Lines
    numbers that had to become exact text; a counter then compares every
    label as text, as a whole-file read would). ``ids`` holds the (repeat,
    id) keys when the file has a repeat column.
    """

    gold: pa.ChunkedArray
    pred: pa.ChunkedArray | None
    ids: pa.ChunkedArray | None
    item_ids: pa.ChunkedArray | None
    repeats: pa.ChunkedArray | None
    extra: dict[str, pa.ChunkedArray]
    part: Part
    text: bool = False

    @property
    def n(self) -> int:
        return len(self.gold)

    def row_ref(self, i: int) -> str:
        return self.part.row_ref(i)

    def where(self, i: int) -> str:
        return self.part.where(i)


class PredictionReader:
    """The checked batches of one PATH (see :func:`iter_predictions`); iterate it to read them (once)."""

    def __init__(self, path: Any, *, gold: str = "gold", pred: str | None = "pred", id: str | None = None,
                 multilabel: bool = False, input_format: str | None = None, extra: Sequence[str] = (),
                 gold_option: str = "--gold", pred_option: str = "--pred", id_option: str = "--id",
                 require_pred: bool = True, repeat: str | None = "repeat", extra_options: Sequence[str] | None = None,
                 encoding: str = "utf-8", normalize: str | None = None, sep: str = "|", option: str | None = None,
                 batch_rows: int | None = DEFAULT_BATCH_ROWS, progress: Progress | None = None,
                 ids: bool = True) -> None:
        self.input: InputPath = path if isinstance(path, InputPath) else resolve_path(
            path, input_format=input_format, encoding=encoding, option=option)
        check_roles([(gold_option, gold), (pred_option, pred), (id_option, id)]
                    + list(zip(extra_options, extra, strict=False) if extra_options is not None else []))
        self.gold, self.pred, self.id, self.repeat = gold, pred, id, repeat
        self.multilabel, self.extra, self.require_pred = multilabel, tuple(extra), require_pred
        self.options = [(gold_option, gold), (pred_option, pred),
                        (id_option, id)] + list(zip(extra_options or (), extra, strict=False))
        self.gold_option, self.pred_option, self.id_option = gold_option, pred_option, id_option
        self.normalize, self.sep = normalize, sep
        self.batch_rows, self.progress = batch_rows, progress
        keys = {gold, pred, *extra}
        self.default_id = ids and id is None and "id" not in keys  # ids=False: no id column read
        self.id_name = id or "id"
        self.wanted = [gold] + ([pred] if pred else []) + ([id] if id else ["id"] if self.default_id else []) \
            + [e for e in extra if e] + ([repeat] if repeat else [])
        self.labels_exact = [c for c in (gold, pred, id or "id", repeat) if c]
        fmt = self.input.fmt
        self.dictionary = [gold] + ([pred] if pred else []) \
            if fmt == "parquet" and not multilabel and not normalize else []
        self.has_ids: bool | None = None  # known once the first batch is read
        self.has_pred: bool | None = None
        self.columns: tuple[str, ...] = ()

    @property
    def fmt(self) -> str:
        return self.input.fmt

    def parts(self) -> Iterator[Part]:
        return iter_parts(self.input, columns=self.wanted, dictionary_columns=self.dictionary,
                          exact=self.labels_exact, batch_rows=self.batch_rows, progress=self.progress,
                          on_file=self._check_columns)

    def __iter__(self) -> Iterator[PredictionBatch]:
        checked = -1
        for part in self.parts():
            if part.file_no != checked:
                self._check_columns(part.source, part.columns)
                checked = part.file_no
            yield self.batch(part)

    def _check_columns(self, source: Source, columns: Sequence[str]) -> None:
        """The columns every option names exist in this file, whatever its length (the message lists its
        columns)."""
        names, spath = columns, source.name
        for option, name in self.options:
            check_option_column(option, name, columns)
        if self.gold not in names:
            raise _missing_column(spath, self.gold, self.gold_option, columns)
        has_pred = bool(self.pred) and self.pred in names
        if self.pred and not has_pred and self.require_pred:
            raise _missing_column(spath, self.pred, self.pred_option, columns)
        named = {c: o for o, c in self.options[3:]}
        for e in self.extra:
            if e and e not in names:
                raise _missing_column(spath, e, named.get(e, "naming it"), columns)
        if self.id is not None and self.id not in names:
            raise _missing_column(spath, self.id, self.id_option, columns)
        has_ids = self.id is not None or (self.default_id and "id" in names)
        if self.has_ids is None:
            self.has_ids, self.has_pred, self.columns = has_ids, has_pred, tuple(columns)
        elif has_ids != self.has_ids:
            first = self.input.sources[0].name
            raise DataError(f"the files of {self.input.given!r} differ: {first!r} "
                            f"{'has' if self.has_ids else 'has no'} id column, {spath!r} "
                            f"{'has' if has_ids else 'has none'}; every file of one input needs the same columns.")

    def batch(self, part: Part) -> PredictionBatch:
        """One part's labels, checked (see the module docstring)."""
        table, src, fmt = part.table, part.source, part.fmt
        names = table.column_names
        gold_col = _column(table, self.gold)
        pred_col = _column(table, self.pred) if self.pred and self.has_pred else None
        text = bool(part.numeric_text & {self.gold, self.pred})
        if text:  # a label column had to become text: its partner must compare as text too
            from clfeval.io._jsonl import as_text_labels

            gold_col = pa.chunked_array([as_text_labels(gold_col)])
            pred_col = None if pred_col is None else pa.chunked_array([as_text_labels(pred_col)])
        if pred_col is not None and fmt in ("jsonl", "parquet"):
            gold_col, pred_col = _same_numbers(gold_col, pred_col)
        if self.normalize:
            gold_col = normalize_labels(gold_col, self.normalize, multilabel=self.multilabel, sep=self.sep)
            pred_col = None if pred_col is None else normalize_labels(pred_col, self.normalize,
                                                                      multilabel=self.multilabel, sep=self.sep)
        if fmt in ("csv", "tsv") and not self.multilabel:
            # text labels dictionary-encoded once: the checks below look at the (small) dictionary, and the
            # counter maps dictionary entries instead of hashing every string again (as Parquet's columns)
            gold_col = pc.dictionary_encode(gold_col)
            pred_col = None if pred_col is None else pc.dictionary_encode(pred_col)
        if not self.multilabel:
            check_labels_present(src, fmt, gold_col, self.gold, start=part.start)
            if pred_col is not None:
                check_labels_present(src, fmt, pred_col, self.pred, start=part.start)  # type: ignore[arg-type]
        ids = _column(table, self.id_name) if self.has_ids else None
        repeats = None
        if self.repeat and self.repeat in names and self.repeat not in (self.gold, self.pred, self.id_name):
            repeats = table.column(self.repeat)
        for name, col in ((self.id_name, ids), (self.repeat, repeats)):
            if col is not None and pa.types.is_nested(col.type):
                raise DataError(f"file {src.name!r}, column {name!r}: every "
                                f"{'id' if name == self.id_name else 'repeat'} must be one value (text or a number); "
                                f"the column holds {col.type} values.")
        item_ids = ids
        if ids is not None:
            if ids.null_count:
                i = _first_index(pc.is_null(ids))
                raise DataError(f"{part.where(i)}: the id in column {self.id_name!r} is empty; every item needs an id.")
            if repeats is not None:
                ids = _check_keys(part, repeats, ids, self.repeat, self.id_name)  # type: ignore[arg-type]
        extra = {e: _column(table, e) for e in self.extra if e}
        return PredictionBatch(gold_col, pred_col, ids, item_ids, repeats, extra, part, text)


def _column(table: pa.Table, name: str) -> pa.ChunkedArray:
    """A column of a batch; all empty when the batch lacks it (a JSONL block whose lines omit the key: an
    omitted key is an empty value, which the checks then name by its row)."""
    if name in table.column_names:
        return table.column(name)
    return pa.chunked_array([pa.nulls(table.num_rows)])


def iter_predictions(path: Any, **options: Any) -> PredictionReader:
    """The checked prediction batches of a PATH, in bounded memory (``options`` as :func:`read_predictions`,
    plus ``batch_rows`` and ``progress``)."""
    return PredictionReader(path, **options)


def _gather(cols: list[pa.ChunkedArray], name: str, batches: list[PredictionBatch]) -> pa.ChunkedArray:
    """One column of every batch as one chunked array (types that differ between files made one)."""
    types = {c.type for c in cols}
    if len(types) == 1:
        return pa.chunked_array([ch for c in cols for ch in c.chunks], type=cols[0].type)
    plain = [c.cast(c.type.value_type) if pa.types.is_dictionary(c.type) else c for c in cols]
    if len({c.type for c in plain}) == 1:
        return pa.chunked_array([ch for c in plain for ch in c.chunks], type=plain[0].type)
    if all(pa.types.is_integer(c.type) or pa.types.is_floating(c.type) for c in plain):
        return pa.chunked_array([ch for c in unify_numbers(plain) for ch in c.chunks])
    if any(b.text for b in batches):
        from clfeval.io._jsonl import as_text_labels

        return pa.chunked_array([as_text_labels(c) for c in plain])
    raise DataError(f"column {name!r} holds values of different types in different files ({plain[0].type} in "
                    f"{batches[0].part.source.name!r}, {plain[-1].type} in {batches[-1].part.source.name!r}); the "
                    f"files of one input must hold labels of one kind (convert them to one type, for example text).")


def read_predictions(path: str | os.PathLike | Source | InputPath, *, gold: str = "gold", pred: str | None = "pred",
                     id: str | None = None, multilabel: bool = False, input_format: str | None = None,
                     extra: Sequence[str] = (), gold_option: str = "--gold", pred_option: str = "--pred",
                     id_option: str = "--id", require_pred: bool = True, repeat: str | None = "repeat",
                     extra_options: Sequence[str] | None = None, encoding: str = "utf-8",
                     normalize: str | None = None, sep: str = "|", option: str | None = None) -> Predictions:
    """Read gold labels, predictions and ids from a PATH into memory (every file whole, one after the other).

    Parameters
    ----------
    path : path, Source or InputPath
        A file, a directory, a glob pattern (:mod:`clfeval.io._paths`), or a
        :class:`Source` (standard input).
    gold, pred : str
        Column names (``pred=None`` or ``require_pred=False`` when predictions
        come from a score column and a threshold).
    id : str, optional
        Id column; by default the column ``id`` is used when the file has one.
    multilabel : bool
        Cells are label sets; an empty cell is the empty set (valid).
    extra : sequence of str
        Further columns to read (e.g. score columns); each must exist.
    repeat : str or None
        When the file has this column (default ``repeat``, written by
        ``clfeval cv`` / ``holdout`` with several repeats), rows are keyed by
        (repeat, id); see :class:`Predictions`. ``None`` ignores it.
    extra_options : sequence of str, optional
        The option naming each ``extra`` column: a column given two roles
        (``--gold x --score x``) is then refused naming both options.
    encoding : {"utf-8", "latin-1"}
        Text encoding of CSV, TSV and JSONL files.
    normalize : {"nfc"} or None
        Unicode normalisation of the gold and predicted labels (labels that
        differ only in normalisation become one).
    sep : str
        Separator of labels within a multi-label cell (used with ``normalize``).
    option : str, optional
        The option that names the PATH, for messages.

    Raises
    ------
    UsageError
        One column named by two options (``--gold x --pred x``).
    DataError
        A missing column (the message lists the columns that exist), an empty
        label cell in single-label data (naming the row), duplicate ids.
    """
    reader = PredictionReader(path, gold=gold, pred=pred, id=id, multilabel=multilabel, input_format=input_format,
                              extra=extra, gold_option=gold_option, pred_option=pred_option, id_option=id_option,
                              require_pred=require_pred, repeat=repeat, extra_options=extra_options, encoding=encoding,
                              normalize=normalize, sep=sep, option=option, batch_rows=None)
    batches = list(reader)
    first = batches[0]

    def column(get: Any, name: str) -> pa.ChunkedArray | None:
        cols = [get(b) for b in batches]
        if any(c is None for c in cols):
            return None
        return cols[0] if len(cols) == 1 else _gather(cols, name, batches)

    gold_col = column(lambda b: b.gold, gold)
    pred_col = column(lambda b: b.pred, pred or "pred")
    ids = column(lambda b: b.ids, reader.id_name)
    starts, offset = [], 0
    for b in batches:
        starts.append((offset, b.part))
        offset += b.n
    out = Predictions(reader.input.name, gold_col, pred_col, ids, reader.columns,
                      {e: column(lambda b, _e=e: b.extra[_e], e) for e in extra if e},
                      column(lambda b: b.repeats, repeat or "repeat"), column(lambda b: b.item_ids, reader.id_name),
                      first.part.source, first.part.fmt, tuple(starts))
    if ids is not None:
        _check_unique(out, ids, reader, first)
    return out


def _check_unique(preds: Predictions, ids: pa.ChunkedArray, reader: PredictionReader, first: PredictionBatch) -> None:
    """Refuses a repeated id by the id join's one rule and message (:mod:`clfeval.io._idjoin`)."""
    n = len(ids)
    got = first_duplicate(ids, np.zeros(n, dtype=np.int64), np.arange(n, dtype=np.int64))
    if got is None:
        return
    dup, (_, i), (_, j) = got
    pi, li = preds._locate(i)
    pj, lj = preds._locate(j)
    same = pi is not None and pj is not None and pi.source is pj.source
    name = pi.source.name if same else None  # type: ignore[union-attr]
    at = ((0, pi.start + li), (0, pj.start + lj)) if same else ((0, i), (1, j))  # type: ignore[union-attr]
    repeat = reader.repeat if preds.repeats is not None else None
    raise duplicate_error(dup if repeat is not None else label_str(dup), *at, column=reader.id_name,
                          described=reader.input.described, file_name=lambda _f: name,
                          where=lambda f, _r: preds.where(i if f == 0 else j), repeat=repeat)

