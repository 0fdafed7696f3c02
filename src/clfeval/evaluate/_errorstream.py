"""The error analysis counted from arrays in memory or from the batches of a PATH (within a memory budget).

Both fill one :class:`~clfeval.evaluate._errorcount.ErrorCounter` batch by batch and hand it to
:func:`~clfeval.evaluate._erroranalysis.analyse`; memory holds one batch, the term × cell table and the
examples. The texts of a second file are joined to the predictions by id through compare's id join
(:mod:`clfeval.io._textjoin`: hash partitions on disk beyond the budget); :func:`read_texts` (one dict,
id → text) serves the Dask engine, whose workers look the texts up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from clfeval.errors import DataError, UsageError
from clfeval.evaluate._errorcount import ErrorCounter

__all__ = ["count_arrays", "count_path", "read_texts", "check_settings", "counter_of", "texts_of", "item_scores"]


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
        _check_ids(ids, lambda i: f"item {i + 1}", "ids")
    else:
        keyed_by = keyed_by or "row"
    for start in range(0, n, batch):
        sl = slice(start, start + batch)
        keys = [str(x) for x in ids[sl]] if ids is not None else [str(i) for i in range(start, min(n, start + batch))]
        counter.add(gold[sl], pred[sl], texts[sl], keys, None if scores is None else list(scores)[sl],
                    keyed_by=keyed_by or ("id" if ids is not None else "row"))
    return counter


def _check_ids(ids: Sequence[Any], where: Callable[[int], str], name: str) -> None:
    seen: dict[str, int] = {}
    for i, x in enumerate(ids):
        k = str(x)
        if k in seen:
            raise DataError(f"{where(i)}: id {k!r} in {name} is repeated (first at {where(seen[k])}); every item "
                            f"needs its own id.")
        seen[k] = i


def read_texts(path: Any, *, id: str, text: str, input_format: str | None = None, encoding: str = "utf-8",
               option: str = "--texts") -> dict[str, str]:
    """The texts of a second file, by id (ids repeated or empty are refused, naming the row)."""
    from clfeval.io import iter_parts, resolve_path

    inp = resolve_path(path, input_format=input_format, encoding=encoding, option=option)
    out: dict[str, str] = {}
    where_of: dict[str, str] = {}
    for part in iter_parts(inp, columns=[id, text], exact=[id]):
        names = part.table.column_names
        for col, opt in ((id, "--id"), (text, "--text")):
            if col not in names:
                raise DataError(f"file {part.source.name!r} (option {option}) has no column {col!r} (option {opt}); "
                                f"its columns are: {', '.join(repr(c) for c in part.columns)}.")
        keys = part.table.column(id).to_pylist()
        values = texts_of(part.table.column(text).to_pylist(), f"column {text!r}", part.where)
        for i, (k, v) in enumerate(zip(keys, values, strict=False)):
            if k is None:
                raise DataError(f"{part.where(i)}: the id in column {id!r} is empty; every text needs an id.")
            k = str(k)
            if k in out:
                raise DataError(f"{part.where(i)}: id {k!r} has a second text (the first at {where_of[k]}) in "
                                f"{option}; give each id one text.")
            out[k] = v
            where_of[k] = part.where(i)
    return out


def _reader(path: Any, gold: str, pred: str, id: str | None, extra: list[tuple[str, str]], input_format: Any,
            encoding: str, progress: Any, batch_rows: int | None, multilabel: bool = False, sep: str = "|") -> Any:
    """The predictions' reader; ``extra``: (option, column) of the text and score columns read besides."""
    from clfeval.io import PredictionReader

    return PredictionReader(path, gold=gold, pred=pred, id=id, input_format=input_format, encoding=encoding,
                            multilabel=multilabel, sep=sep, extra=[c for _, c in extra],
                            extra_options=[o for o, _ in extra], repeat=None, progress=progress,
                            batch_rows=batch_rows or (1 << 20))


def count_path(counter: ErrorCounter, path: Any, *, gold: str = "gold", pred: str = "pred", id: str | None = None,
               text: str | None = None, texts: Any = None, score: str | None = None,
               input_format: str | None = None, encoding: str = "utf-8", progress: Any = None,
               batch_rows: int | None = None, budget: int | None = None, tmpdir: str | None = None) -> ErrorCounter:
    """A PATH counted batch by batch: texts from its ``text`` column, or from ``texts`` — a second PATH with
    columns ``id`` and ``text`` — joined by id within ``budget`` bytes (:mod:`clfeval.io._textjoin`)."""
    if texts is not None:
        return _count_joined(counter, path, texts, gold=gold, pred=pred, id=id, text=text or "text", score=score,
                             input_format=input_format, encoding=encoding, progress=progress,
                             batch_rows=batch_rows, budget=budget, tmpdir=tmpdir)
    extra = [("--text", text)] + ([("--score", score)] if score is not None else [])
    reader = _reader(path, gold, pred, id, [(o, c) for o, c in extra if c], input_format, encoding, progress,
                     batch_rows, counter.multilabel, counter.sep)
    seen: set[str] = set()
    for b in reader:
        if b.pred is None:
            raise DataError(f"file {b.part.source.name!r} has no predictions column {pred!r}.")
        g, p = b.gold.to_pylist(), b.pred.to_pylist()
        if b.ids is not None:
            keys, keyed = [str(x) for x in b.ids.to_pylist()], "id"
            dup = next((i for i, k in enumerate(keys) if k in seen), None)
            if dup is None and len(set(keys)) != len(keys):
                first: dict[str, int] = {}
                dup = next(i for i, k in enumerate(keys) if first.setdefault(k, i) != i)
            if dup is not None:
                raise DataError(f"{b.where(dup)}: id {keys[dup]!r} is repeated; every item needs its own id.")
            seen.update(keys)
        else:
            src = b.part.source.name
            keys, keyed = [f"{src}:{b.part.start + i}" for i in range(b.n)], "row"
        t = texts_of(b.extra[text].to_pylist(), f"column {text!r}", b.where)
        s = None if score is None else item_scores(b.extra[score], score, b.where)
        counter.add(g, p, t, keys, s, keyed_by=keyed)
    return counter


def _labels_text(values: list[Any], sep: str) -> list[Any]:
    """Labels as text for the join's files (label sets joined by ``sep``; the counter splits them again)."""
    return [None if v is None else sep.join(str(x) for x in v if x is not None) if isinstance(v, list) else str(v)
            for v in values]


def _count_joined(counter: ErrorCounter, path: Any, texts: Any, *, gold: str, pred: str, id: str | None, text: str,
                  score: str | None, input_format: Any, encoding: str, progress: Any, batch_rows: int | None,
                  budget: int | None, tmpdir: str | None) -> ErrorCounter:
    """The predictions joined to the texts of a second PATH by id (:func:`clfeval.io._textjoin.join_texts`)."""
    import pyarrow as pa

    from clfeval.core import MEMORY_BUDGET
    from clfeval.io import join_texts, resolve_path, row_ref

    if id is None:
        raise UsageError("option --texts joins texts by id, but the predictions have no id column; name it with --id.")
    reader = _reader(path, gold, pred, id, [("--score", score)] if score else [], input_format, encoding, progress,
                     batch_rows, counter.multilabel, counter.sep)
    tin = resolve_path(texts, encoding=encoding, option="--texts")
    keep = max(counter.analyzer.max_chars, counter.chars) + 1

    def items() -> Iterator[Any]:
        for b in reader:
            if b.pred is None:
                raise DataError(f"file {b.part.source.name!r} has no predictions column {pred!r}.")
            cols = {"key": pa.array([str(x) for x in b.ids.to_pylist()], pa.string()),
                    "gold": pa.array(_labels_text(b.gold.to_pylist(), counter.sep), pa.string()),
                    "pred": pa.array(_labels_text(b.pred.to_pylist(), counter.sep), pa.string())}
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
    joined = join_texts(items(), _texts_batches(tin, id, text, keep, batch_rows), estimate=estimate,
                        budget=budget or MEMORY_BUDGET, where_item=where(reader.input), where_text=where(tin),
                        directory=tmpdir)
    for t in joined:
        s = t.column("score").to_pylist() if score is not None else None
        counter.add(t.column("gold").to_pylist(), t.column("pred").to_pylist(), t.column("text").to_pylist(),
                    t.column("key").to_pylist(), s, keyed_by="id")
    return counter


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
