"""Several prediction files on the same items: aligned by id (or by row), one repeat at a time.

``clfeval compare`` with score metrics reads one input per system into memory
(:func:`clfeval.io._predictions.read_predictions`; count metrics stream, :mod:`clfeval.io._join`);
:func:`align_predictions` puts their predictions in one item order and checks
that they carry the same gold labels, and :func:`one_repeat` keeps the rows
of one repeat of a repeated out-of-fold file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import arrowcompute as pc
from clfeval.errors import DataError, UsageError
from clfeval.io._idjoin import gold_error, item_with_id, missing_error
from clfeval.io._predictions import Predictions

__all__ = ["align_predictions", "one_repeat", "as_text"]


def as_text(col: Any) -> Any:
    """A label or id column as strings (dictionary columns decoded first), as a chunked array."""
    if isinstance(col, pa.Array):
        col = pa.chunked_array([col])
    if pa.types.is_dictionary(col.type):
        col = pa.chunked_array([pc.take(c.dictionary, c.indices) for c in col.chunks],  # dictionary_decode()
                               type=col.type.value_type)
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        return col
    if pa.types.is_floating(col.type):  # labels' text: 1.0 is "1", as the label prints
        from clfeval.io._jsonl import as_text_labels

        return pa.chunked_array([as_text_labels(col)])
    return pc.cast(col, pa.string())


def _first(mask: Any) -> int:
    return int(np.flatnonzero(np.asarray(mask))[0])


def align_predictions(files: Sequence[Predictions], *, scores: bool = False) -> tuple[Any, list[Any], list[Any] | None]:
    """Gold labels and every file's predictions (or scores) in the first file's item order.

    Items are matched by id when every file has an id column, by row when
    none has, as :mod:`clfeval.io._idjoin` specifies (ids compared as text;
    the ids of each file were checked unique when it was read). Refuses:
    ids on one side only, ids missing from either side (naming one from each
    side), different row counts without ids, and gold
    labels that differ (naming the first item). Labels of files whose column
    types differ (a CSV read as text beside a typed Parquet file) are compared
    as text.

    Returns
    -------
    (gold, predictions, ids)
        The first file's gold column, one column per file aligned to it, and
        the ids in that order (None when matched by row).
    """
    first = files[0]
    with_ids = [f for f in files if f.ids is not None]
    if with_ids and len(with_ids) != len(files):
        without = next(f for f in files if f.ids is None)
        raise DataError(f"file {with_ids[0].path!r} has an id column but {without.path!r} has none; items are matched "
                        f"by id when the files have ids and by row when none has. Give every file an id column "
                        f"(option --id) or none.")
    golds: list[Any] = [first.gold]
    preds: list[Any] = [first.pred]
    ref_ids = as_text(first.ids) if with_ids else None
    for f in files[1:]:
        if ref_ids is None:
            if f.n != first.n:
                raise DataError(f"files {first.path!r} ({first.n} rows) and {f.path!r} ({f.n} rows) have no id column, "
                                f"so items are matched by row, and the numbers of rows differ. Compare predictions on "
                                f"the same test set, or add an id column to match items by id.")
            golds.append(f.gold)
            preds.append(f.pred)
            continue
        ids = as_text(f.ids)
        gaps = []
        for a, b, mine, theirs in ((first, f, ref_ids, ids), (f, first, ids, ref_ids)):
            lost = np.flatnonzero(~np.asarray(pc.is_in(mine, value_set=theirs)))
            count = int(lost.size)
            if count:
                i = int(lost[0])
                gaps.append((a.path, b.path, count, mine[i].as_py(), a.where(i)))
        if gaps:
            raise missing_error(gaps)
        take = pc.index_in(ref_ids, value_set=ids)
        golds.append(pc.take(f.gold, take))
        assert f.pred is not None, "compared files are read with their predictions required"
        preds.append(pc.take(f.pred, take))
    ref_gold = as_text(golds[0])
    for f, g in zip(files[1:], golds[1:], strict=False):
        diff = pc.not_equal(ref_gold, as_text(g))
        if pc.any(diff).as_py():
            i = _first(diff)
            where = item_with_id(ref_ids[i].as_py()) if ref_ids is not None else f"row {i + 1}"
            raise gold_error(first.path, f.path, where, ref_gold[i].as_py(), as_text(g)[i].as_py(),
                             pc.sum(diff).as_py())
    types = {str(p.type) for p in preds} | {str(first.gold.type)}
    gold = first.gold
    if len(types) > 1 and not scores:  # e.g. a CSV (text) beside a Parquet file (integers): compare labels as text
        gold = as_text(gold)
        preds = [as_text(p) for p in preds]
    return gold, preds, (ref_ids.to_pylist() if ref_ids is not None else None)


def one_repeat(preds: Predictions, repeat: str | None) -> Predictions:
    """The rows of one repeat of a repeated out-of-fold file (or the file itself).

    Rows of different repeats are the same items predicted again, not new
    items: resampling them as independent items would understate the
    variance, so a file with several repeats needs ``--repeat``.
    """
    if preds.repeats is None:
        if repeat is not None:
            raise UsageError(f"option --repeat {repeat} was given, but {preds.path!r} has no 'repeat' column.")
        return preds
    values = sorted({str(v) for v in pc.unique(preds.repeats).to_pylist()}, key=lambda v: (len(v), v))
    if repeat is None:
        if len(values) == 1:
            return preds
        raise DataError(f"file {preds.path!r} holds {len(values)} repeats of the same items (column 'repeat': "
                        f"{', '.join(values[:10])}); rows of different repeats are not independent test items, so a "
                        f"paired test on all of them would be overconfident. Choose one with --repeat "
                        f"(for example --repeat {values[0]}).")
    if repeat not in values:
        raise DataError(f"option --repeat {repeat}: file {preds.path!r} has repeats {', '.join(values[:20])}.")
    mask = pc.equal(pc.cast(preds.repeats, pa.string()), repeat)
    keep = {k: v.filter(mask) for k, v in preds.extra.items()}
    return dataclasses.replace(
        preds, gold=preds.gold.filter(mask), pred=None if preds.pred is None else preds.pred.filter(mask),
        ids=None if preds.item_ids is None else preds.item_ids.filter(mask), extra=keep,
        repeats=None, item_ids=None)
