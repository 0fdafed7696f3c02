"""The error analysis counted from arrays in memory or from the batches of a PATH (within a memory budget).

Both fill one :class:`~clfeval.evaluate.errorcount.ErrorCounter` batch by batch and hand it to
:func:`~clfeval.evaluate.erroranalysis.analyse`; memory holds one batch, the term × cell table and the
examples (the texts of a ``texts`` file joined by id are held in memory: one dict, id → text).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

import numpy as np

from clfeval.errors import DataError, UsageError
from clfeval.evaluate.errorcount import ErrorCounter

__all__ = ["count_arrays", "count_path", "read_texts", "check_settings", "counter_of", "texts_of"]


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
    from clfeval.io.batches import iter_parts
    from clfeval.io.paths import resolve_path

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
        for i, (k, v) in enumerate(zip(keys, values)):
            if k is None:
                raise DataError(f"{part.where(i)}: the id in column {id!r} is empty; every text needs an id.")
            k = str(k)
            if k in out:
                raise DataError(f"{part.where(i)}: id {k!r} has a second text (the first at {where_of[k]}) in "
                                f"{option}; give each id one text.")
            out[k] = v
            where_of[k] = part.where(i)
    return out


def _batches(path: Any, gold: str, pred: str, id: str | None, extra: list[str], input_format: Any, encoding: str,
             progress: Any, batch_rows: int | None, multilabel: bool = False, sep: str = "|") -> Iterator[Any]:
    from clfeval.io.predictions import PredictionReader

    reader = PredictionReader(path, gold=gold, pred=pred, id=id, input_format=input_format, encoding=encoding,
                              multilabel=multilabel, sep=sep,
                              extra=extra, extra_options=["--text" if i == 0 else "--score" for i in range(len(extra))],
                              repeat=None, progress=progress, batch_rows=batch_rows or (1 << 20))
    yield from reader


def count_path(counter: ErrorCounter, path: Any, *, gold: str = "gold", pred: str = "pred", id: str | None = None,
               text: str | None = None, texts: dict[str, str] | None = None, score: str | None = None,
               input_format: str | None = None, encoding: str = "utf-8", progress: Any = None,
               batch_rows: int | None = None) -> ErrorCounter:
    """A PATH counted batch by batch: texts from its ``text`` column, or from ``texts`` (id → text) by id."""
    extra = [text] if texts is None else []
    extra += [score] if score is not None else []
    seen: set[str] = set()
    for b in _batches(path, gold, pred, id, [e for e in extra if e], input_format, encoding, progress,
                      batch_rows, counter.multilabel, counter.sep):
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
            if texts is not None:
                raise UsageError("option --texts joins texts by id, but the predictions have no id column; name it "
                                 "with --id.")
            src = b.part.source.name
            keys, keyed = [f"{src}:{b.part.start + i}" for i in range(b.n)], "row"
        if texts is None:
            t = texts_of(b.extra[text].to_pylist(), f"column {text!r}", b.where)
        else:
            missing = next((i for i, k in enumerate(keys) if k not in texts), None)
            if missing is not None:
                raise DataError(f"{b.where(missing)}: id {keys[missing]!r} has no text in the --texts file; every "
                                f"item of the predictions needs its text.")
            t = [texts[k] for k in keys]
        s = None
        if score is not None:
            s = [None if v is None else float(v) for v in b.extra[score].to_pylist()]
        counter.add(g, p, t, keys, s, keyed_by=keyed)
    return counter
