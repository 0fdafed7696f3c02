"""The error analysis counted from arrays in memory (:func:`count_arrays`) or from the batches of a PATH
(:class:`ErrorBatches`, the accumulator any engine runs).

Both fill one :class:`~clfeval.evaluate._errorcount.ErrorCounter` batch by batch and hand it to
:func:`~clfeval.evaluate._erroranalysis.analyse`; memory holds one batch, the term × cell table and the
examples. The texts of a second file are joined to the predictions by id first, as a data step
(:func:`joined_texts`: compare's id join, :mod:`clfeval.io._textjoin`, hash partitions on disk beyond the
budget); its rows are then counted like any PATH.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from clfeval.errors import DataError, UsageError
from clfeval.evaluate._errorcount import ErrorCounter

__all__ = ["ErrorBatches", "error_batches", "joined_texts", "JOINED", "count_arrays", "check_settings", "counter_of",
           "texts_of", "item_scores", "check_unique_ids"]


def check_settings(*, min_count: int, examples: int, terms: int, chars: int, prior_strength: float,
                   z_min: float) -> None:
    """Every number checked before any work, naming the parameter."""
    for name, value, low in (("min_count", min_count, 1), ("examples", examples, 0), ("terms", terms, 1),
                             ("chars", chars, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise UsageError(lambda n, v=value, lo=low: f"option {n} must be a whole number ≥ {lo}; got {v!r}.",
                             params=[name])
    if not (isinstance(prior_strength, (int, float)) and np.isfinite(prior_strength) and prior_strength > 0):
        raise UsageError(lambda n: f"option {n} (α0, the prior's pseudo-count) must be a positive number; got "
                                   f"{prior_strength!r}.", params=["prior_strength"])
    if not (isinstance(z_min, (int, float)) and np.isfinite(z_min)):
        raise UsageError(lambda n: f"option {n} must be a number; got {z_min!r}.", params=["z_min"])


def item_scores(values: Any, name: str, where: Callable[[int], str] | None = None) -> list[float]:
    """Each item's score of its predicted class, checked as every score column of clfeval is
    (:func:`clfeval.scores._columns.as_scores`: a number, finite, present), naming the column and the item.

    >>> item_scores(["0.5", 2], "score")
    [0.5, 2.0]
    >>> item_scores([float("nan")], "score")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clfeval.errors.DataError: score column 'score' holds nan at item 0 (0-based); scores must be finite real numbers ...
    """
    from clfeval.scores import as_scores

    if where is None:
        return as_scores(values, name=name).tolist()
    return as_scores(values, name=name, where=where).tolist()


def counter_of(analyzer: Any, examples: int, seed: Any, chars: int, *, multilabel: bool = False,
               sep: str = "|") -> ErrorCounter:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise UsageError(lambda n: f"option {n} must be a whole number (the key of the examples' hash); got "
                                   f"{seed!r}.", params=["seed"])
    if multilabel and (not isinstance(sep, str) or not sep):
        raise UsageError(lambda n: f"option {n} (the separator of labels within a set) must be a non-empty "
                                   f"string; got {sep!r}.", params=["sep"])
    return ErrorCounter(analyzer, examples=examples, seed=int(seed), chars=chars, multilabel=multilabel, sep=sep)


def texts_of(values: Sequence[Any], name: str, where: Callable[[int], str]) -> list[str]:
    out = []
    for i, t in enumerate(values):
        if t is None:
            out.append("")
        elif isinstance(t, str):
            out.append(t)
        elif isinstance(t, bytes):
            try:
                out.append(t.decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise DataError(f"{where(i)}: the text in {name} is not UTF-8 (byte {exc.start}: "
                                f"{t[exc.start:exc.start + 1]!r}); give the texts as UTF-8.") from None
        else:
            raise DataError(f"{where(i)}: the text in {name} must be text; got {type(t).__name__} {t!r:.40}.")
    return out


def count_arrays(counter: ErrorCounter, gold: Sequence[Any], pred: Sequence[Any], texts: Sequence[Any],
                 ids: Sequence[Any] | None = None, scores: Sequence[float] | None = None,
                 batch: int = 100_000, keyed_by: str | None = None) -> ErrorCounter:
    """Arrays in memory (one item each), counted in batches of ``batch`` items."""
    gold, pred, texts = list(gold), list(pred), list(texts)
    n = len(gold)
    if len(pred) != n or len(texts) != n or (ids is not None and len(ids) != n) or \
            (scores is not None and len(scores) != n):
        sizes = ", ".join(f"{k} {len(v)}" for k, v in (("gold", gold), ("pred", pred), ("texts", texts),
                                                       ("ids", ids), ("scores", scores)) if v is not None)
        raise DataError(f"gold, pred and texts (and ids, scores when given) must have one value per item; got {sizes}.")
    texts = texts_of(texts, "texts", lambda i: f"item {i + 1}")
    ids = list(ids) if ids is not None else None
    if ids is not None:
        check_unique_ids(ids, lambda i: f"item {i + 1}", "ids")
    else:
        keyed_by = keyed_by or "row"
    for start in range(0, n, batch):
        sl = slice(start, start + batch)
        keys = [str(x) for x in ids[sl]] if ids is not None else [str(i) for i in range(start, min(n, start + batch))]
        counter.add(gold[sl], pred[sl], texts[sl], keys, None if scores is None else list(scores)[sl],
                    keyed_by=keyed_by or ("id" if ids is not None else "row"))
    return counter


def check_unique_ids(ids: Sequence[Any], where: Callable[[int], str], name: str) -> None:
    """Every id once (``where(i)`` names item i; ``name`` the ids): the first repeated one refused."""
    seen: dict[str, int] = {}
    for i, x in enumerate(ids):
        k = str(x)
        if k in seen:
            raise DataError(f"{where(i)}: id {k!r} in {name} is repeated (first at {where(seen[k])}); every item "
                            f"needs its own id.")
        seen[k] = i


def _labels_text(values: list[Any], sep: str) -> list[Any]:
    """Labels as text for the join's files (label sets joined by ``sep``; the counter splits them again)."""
    return [None if v is None else sep.join(str(x) for x in v if x is not None) if isinstance(v, list) else str(v)
            for v in values]


#: The columns of the predictions joined to their texts (:func:`joined_texts`), as the accumulator reads them.
JOINED = {"gold": "gold", "pred": "pred", "id": "id", "text": "text", "score": "score"}


def joined_texts(counter: ErrorCounter, path: Any, texts: Any, *, gold: str, pred: str, id: str, text: str,
                 score: str | None, encoding: str = "utf-8", progress: Any = None, budget: int | None = None,
                 tmpdir: str | None = None) -> Iterator[Any]:
    """The predictions of ``path`` joined to the texts of a second PATH by id, within ``budget`` bytes
    (:func:`clfeval.io.join_texts`: hash partitions on disk beyond it, in ``tmpdir``): tables of the columns of
    :data:`JOINED` (labels as text, label sets joined by the counter's separator), one partition at a time.

    A data step before the count: its tables, written to Parquet (:func:`clfeval.io.inputs.spooled`), are
    counted by :class:`ErrorBatches` like any PATH, on any engine. Checked as they are read, each named by its
    file and row: the predictions' labels and scores, ids repeated in either file, ids without a text, texts
    that are not UTF-8. ``progress``: the display of the predictions' read, as the operations take it."""
    from clfeval.core import MEMORY_BUDGET

    budget = budget or MEMORY_BUDGET
    with progress(path) if progress is not None else contextlib.nullcontext(None) as update:
        yield from _joined(counter, path, texts, gold=gold, pred=pred, id=id, text=text, score=score,
                           encoding=encoding, progress=update, budget=budget, tmpdir=tmpdir)


def _joined(counter: ErrorCounter, path: Any, texts: Any, *, gold: str, pred: str, id: str, text: str,
            score: str | None, encoding: str, progress: Any, budget: int, tmpdir: str | None) -> Iterator[Any]:
    import pyarrow as pa

    from clfeval.io import PredictionReader, join_texts, resolve_path, row_ref

    rows = max(1000, min(1 << 20, budget // 8192))
    reader = PredictionReader(path, gold=gold, pred=pred, id=id, encoding=encoding, multilabel=counter.multilabel,
                              sep=counter.sep, extra=[score] if score else [],
                              extra_options=["--score"] if score else [], repeat=None, progress=progress,
                              batch_rows=rows)
    tin = resolve_path(texts, encoding=encoding, option="--texts")
    keep = max(counter.analyzer.max_chars, counter.chars) + 1
    schema = pa.schema([("id", pa.string()), ("gold", pa.string()), ("pred", pa.string())]
                       + ([("score", pa.float64())] if score else []) + [("text", pa.large_string())])

    def items() -> Iterator[Any]:
        for b in reader:
            cols = {"key": pa.array([str(x) for x in b.ids.to_pylist()], pa.string()),  # type: ignore[union-attr]
                    "gold": pa.array(_labels_text(b.gold.to_pylist(), counter.sep), pa.string()),
                    "pred": pa.array(_labels_text(b.pred.to_pylist(), counter.sep), pa.string())}  # type: ignore[union-attr]
            if score is not None:
                cols["score"] = pa.array(item_scores(b.extra[score], score, b.where), pa.float64())
            cols["file"] = pa.array([b.part.file_no] * b.n, pa.int32())
            cols["row"] = pa.array(range(b.part.start, b.part.start + b.n), pa.int64())
            yield pa.table(cols)

    def where(inp: Any) -> Callable[[int, int], str]:
        def at(file_no: int, row: int) -> str:
            src = inp.sources[file_no]
            return f"file {src.name!r}, {row_ref(src, inp.fmt, row)}"
        return at

    estimate = _in_memory(reader.input) + _in_memory(tin)
    joined = join_texts(items(), _texts_batches(tin, id, text, keep, rows), estimate=estimate, budget=budget,
                        where_item=where(reader.input), where_text=where(tin), directory=tmpdir)
    given = False
    for t in joined:
        given = True
        yield pa.table([t.column(c if c != "id" else "key").cast(schema.field(c).type) for c in schema.names],
                       schema=schema)
    if not given:  # no predictions: one empty file, so that the joined rows are a PATH all the same
        yield schema.empty_table()


class ErrorBatches:
    """The error analysis as an accumulator: ``update(batch)`` with the checked batches of a PATH
    (:class:`clfeval.io.PredictionBatch`, on every engine), ``+`` (the sum is the accumulator of the
    concatenated input, however split: :class:`~clfeval.evaluate._errorcount.ErrorCounter` adds), and
    :meth:`finish`, the analysis.

    ``text``, ``score``: the names of the batch's extra columns of the texts and of each item's score. Items are
    keyed by their id, or without ids by their place: the ``place`` column (a table's row numbers, spooled with
    it), else ``"<file>:<row>"`` (the file's name, the row from 0), on every engine: the examples, chosen by a
    keyed hash of the key, are the same however the input is read.
    """

    def __init__(self, counter: ErrorCounter, text: str, score: str | None = None, place: str | None = None) -> None:
        self.counter, self.text, self.score, self.place = counter, text, score, place

    def update(self, batch: Any) -> None:
        ids = batch.item_ids
        if ids is not None:
            keys, keyed = [str(x) for x in ids.to_pylist()], "id"
        elif self.place is not None:
            keys, keyed = [str(x) for x in batch.extra[self.place].to_pylist()], "row"
        else:
            src, row = batch.part.source.name, batch.part.file_row
            keys, keyed = [f"{src}:{row(i)}" for i in range(batch.n)], "row"
        t = texts_of(batch.extra[self.text].to_pylist(), f"column {self.text!r}", batch.where)
        s = None if self.score is None else item_scores(batch.extra[self.score], self.score, batch.where)
        self.counter.add(batch.gold.to_pylist(), batch.pred.to_pylist(), t, keys, s, keyed_by=keyed)

    def __add__(self, other: ErrorBatches) -> ErrorBatches:
        return ErrorBatches(self.counter + other.counter, self.text, self.score, self.place)

    def finish(self, **options: Any) -> Any:
        """The :class:`~clfeval.ops.errors.ErrorAnalysis` of the counts (``options``: those of
        :func:`~clfeval.evaluate._erroranalysis.analyse`)."""
        from clfeval.evaluate._erroranalysis import analyse

        return analyse(self.counter, **options)


def error_batches(template: ErrorCounter, text: str, score: str | None = None,
                  place: str | None = None) -> ErrorBatches:
    """An empty :class:`ErrorBatches` with the settings of ``template`` (its analyzer, examples, seed): the
    ``make`` handed to the engine (picklable)."""
    return ErrorBatches(template.empty(), text, score, place)


def _in_memory(inp: Any) -> int:
    """Bytes an input takes in memory, roughly: twice a text file; a Parquet file's uncompressed size (text
    compresses many times over: its size on disk would say far too little)."""
    if inp.fmt != "parquet":
        return 2 * inp.size
    import pyarrow.parquet as pq

    total = 0
    for src in inp.sources:
        try:
            with pq.ParquetFile(src.arrow()) as f:
                meta = f.metadata
                total += sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        except Exception:  # noqa: BLE001 - unreadable here: the reader names it; a rough guess meanwhile
            total += 4 * src.size()
    return total


def _texts_batches(tin: Any, id: str, text: str, keep: int, batch_rows: int | None) -> Iterator[Any]:
    """The texts file's rows as the join reads them: ids present, texts UTF-8 (a defect named by its row)."""
    from clfeval.io import iter_parts, texts_table

    for part in iter_parts(tin, columns=[id, text], exact=[id], batch_rows=batch_rows or (1 << 16)):
        names = part.table.column_names
        for col, opt in ((id, "--id"), (text, "--text")):
            if col not in names:
                raise DataError(f"file {part.source.name!r} (option --texts) has no column {col!r} (option {opt}); "
                                f"its columns are: {', '.join(repr(c) for c in part.columns)}.")
        keys = part.table.column(id).to_pylist()
        empty = next((i for i, k in enumerate(keys) if k is None), None)
        if empty is not None:
            raise DataError(f"{part.where(empty)}: the id in column {id!r} is empty; every text needs an id.")
        values = texts_of(part.table.column(text).to_pylist(), f"column {text!r}", part.where)
        yield texts_table([str(k) for k in keys], values, part.file_no, part.start, keep)
