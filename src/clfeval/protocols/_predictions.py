"""The out-of-fold predictions of a protocol run: a table (``id, fold, gold, pred, score:<label>``, with
``probabilities`` ``p:<label>``) and its file."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.io import OutputFiles
from clfeval.protocols._data import RunData
from clfeval.protocols._results import ProtocolResult
from clfeval.protocols._splits import Protocol

__all__ = ["predictions_table", "write_predictions", "PREDICTION_FORMATS"]


def predictions_table(preds: list[tuple[Any, Any, Any]], data: RunData, ids: list[Any], protocol: Protocol,
                      probs: Sequence[np.ndarray | None] | None = None) -> pa.Table:
    """The out-of-fold predictions of every fold as one table, in (repeat, item) order; with ``probs`` (one
    (n_test, K) array per fold) a ``p:<label>`` column per class after the scores."""
    rows_repeat, rows_pos, rows_fold, golds, predictions, score_blocks = [], [], [], [], [], []
    for fold, pred, scores in preds:
        idx = fold.test
        rows_repeat.append(np.full(idx.size, fold.repeat, dtype=np.int64))
        rows_pos.append(idx)
        rows_fold.append(np.full(idx.size, fold.fold, dtype=np.int64))
        golds.extend(data.strings(data.gold(idx)))
        predictions.extend(data.strings(pred))
        score_blocks.append(scores if scores is not None else np.full((idx.size, 0), np.nan))
    rep = np.concatenate(rows_repeat)
    pos = np.concatenate(rows_pos)
    order = np.lexsort((pos, rep))
    cols: dict[str, Any] = {}
    if protocol.repeats > 1:
        cols["repeat"] = pa.array(rep[order])
    id_arr = pa.array(ids)
    cols["id"] = id_arr.take(pa.array(pos[order]))
    cols["fold"] = pa.array(np.concatenate(rows_fold)[order])
    cols["gold"] = pa.array(golds, type=pa.string()).take(pa.array(order))
    cols["pred"] = pa.array(predictions, type=pa.string()).take(pa.array(order))
    if score_blocks and all(b.shape[1] == len(data.labels) for b in score_blocks):
        s = np.concatenate(score_blocks)[order]
        for j, lab in enumerate(data.label_strings):
            cols[f"score:{lab}"] = pa.array(s[:, j], from_pandas=True)  # NaN (class unseen by a fold's model) → null
    if probs is not None:
        p = np.concatenate([np.asarray(b, dtype=np.float64) for b in probs if b is not None])[order]
        for j, lab in enumerate(data.label_strings):
            cols[f"p:{lab}"] = pa.array(p[:, j])
    return pa.table(cols)


PREDICTION_FORMATS = (".csv", ".tsv", ".jsonl", ".parquet")


def write_predictions(table: pa.Table | ProtocolResult, path: str | os.PathLike[str], *,
                      files: OutputFiles | None = None) -> Path:
    """Write out-of-fold predictions, the format chosen by the extension.

    ``.csv`` / ``.tsv`` (header row, missing scores empty), ``.jsonl`` (one
    JSON object per line, missing scores ``null``) or ``.parquet``. The file
    appears whole or not at all (:func:`clfeval.io._readers.write_frame`: a temporary
    file in the same directory, then a rename); with ``files`` it is staged
    there and appears when the caller publishes them.
    """
    from clfeval.io import write_frame

    if isinstance(table, ProtocolResult):
        table = table.predictions
    write_frame(table, path, files=files)
    return Path(path)
