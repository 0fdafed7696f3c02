"""``clfeval.error_analysis``: the misclassified documents and the vocabulary they share, on any input and engine.

Arrays and tables that fit the Local engine's budget are counted in memory; larger ones are spooled to
Parquet and counted like a PATH. A PATH is counted by the engine with one accumulator,
:class:`clfeval.evaluate.ErrorBatches` (around :class:`~clfeval.evaluate._errorcount.ErrorCounter`), through
:meth:`~clfeval.engines.Runner.accumulate`: streamed here, one per group of partitions on Dask, added in a
tree; the texts of a ``texts`` file are joined to the predictions by id first, a data step whose rows are
spooled and counted like any PATH. So the terms, z-scores and examples are the same on every engine
(``tests/evaluate/test_error_batches.py``, ``tests/ops/test_typed_results.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clfeval.core import EngineInfo
from clfeval.engines import Runner, runner
from clfeval.errors import DataError, UsageError
from clfeval.io import inputs
from clfeval.ops.errors import ErrorAnalysis

if TYPE_CHECKING:  # the input types, named for type checkers only (nothing heavy is imported at run time)
    import os
    from contextlib import AbstractContextManager
    from typing import TypeAlias

    import numpy.typing as npt
    import pandas
    import polars
    import pyarrow

    from clfeval.engines import Dask, Local
    from clfeval.io import InputPath
    from clfeval.ops.label_issues import LabelIssues

    #: Gold labels as an array, or a table with named columns, or a PATH (file, directory, glob, ``-``).
    Data: TypeAlias = npt.ArrayLike | pandas.DataFrame | polars.DataFrame | pyarrow.Table | str | os.PathLike[str]
    #: A column of a table or PATH by its name, or the values themselves (arrays).
    Column: TypeAlias = str | npt.ArrayLike
    #: Slice columns by name (``"source"``, ``"source,lang"``, a list), or with arrays name → values.
    Slicing: TypeAlias = str | Sequence[str] | Mapping[str, npt.ArrayLike]
    #: A progress display of a read: given the input, a context that yields ``update(rows, bytes)`` or None.
    Progress: TypeAlias = Callable[[InputPath], AbstractContextManager[Callable[[int, int], None] | None]]

__all__ = ["error_analysis"]


def error_analysis(data: Data | None = None, pred: Column | None = None, *, gold: Column | None = None,
                   text: Column = "text", texts: str | os.PathLike[str] | None = None, id: str | None = None,
                   ids: npt.ArrayLike | None = None, score: Column | None = None, processing: str | None = None,
                   token_pattern: str | None = None, min_count: int = 5, examples: int = 5, terms: int = 10,
                   chars: int = 300, prior_strength: float = 1000.0, z_min: float = 1.96, seed: int = 0,
                   multilabel: bool | None = None, sep: str = "|", by: Slicing | None = None,
                   by_bins: int | None = None, by_binning: str = "quantile", max_slices: int = 1_000,
                   input_format: str | None = None, encoding: str = "utf-8", engine: Local | Dask | str | None = None,
                   progress: Progress | None = None, label_issues: LabelIssues | str | os.PathLike[str] | None = None
                   ) -> ErrorAnalysis:
    """Every confused pair of classes: its count, examples, and the terms its documents share.

    Parameters
    ----------
    data : array-like, table or PATH
        Gold labels (arrays, with ``pred`` and ``text`` as arrays too); or a table (pandas / polars
        DataFrame, pyarrow Table) or a PATH (file, directory, glob, ``-``) with columns named by ``gold``,
        ``pred``, ``text``, ``id``, ``score``.
    pred : array-like or str, optional
        Predicted labels, or their column (default ``pred``).
    gold : array-like or str, optional
        The gold column of a table or PATH (default ``gold``); with arrays, the gold labels may be given here.
    text : array-like or str
        The documents' texts (arrays), or their column (default ``text``).
    texts : PATH, optional
        A second file of texts, joined by ``id`` (column ``id`` and ``text`` in it); ids missing or repeated
        are refused.
    id, ids : str / array-like, optional
        The id column (tables, PATHs) or the ids (arrays). Examples are sampled by a keyed hash of the id;
        without ids, of the file and row (the output says so).
    score : str or array-like, optional
        Each item's score of its predicted class (or of the positive class, binary): the most confident
        mistakes are listed besides the sampled examples. Checked as every score column: finite numbers, none
        missing.
    processing : str, optional
        The ``--processing`` spec: a preset and/or the ``stop`` and ``stem`` keys (e.g. ``"multiclass"``,
        ``"stop=english179"``); a key left out keeps the preset's value, or without a preset none (no stop
        list, no stemming, also the default); ``title`` and ``brief`` (Reuters only) are refused.
    token_pattern : str, optional
        Regular expression of a token (default Unicode letters, ``[^\\W\\d_]+``), matched lower-cased: ``re``
        syntax, no capturing group, one character or more (a pattern that can match none is refused). Any
        other than the default is matched by the ``regex`` package within 0.5 s per document: a document that
        takes longer is skipped and named in ``notes``; past 20 such documents a ``DataError``.
    min_count : int
        Cells are listed from this many documents.
    examples : int
        Examples per cell (0: none).
    terms : int
        Terms per side of each cell.
    chars : int
        Characters per example.
    prior_strength : float
        α0 of the informative Dirichlet prior (Monroe, Colaresi & Quinn 2008); default 1000.
    z_min : float
        Terms listed from this z-score (uncorrected); default 1.96.
    seed : int
        Key of the examples' hash; default 0.
    multilabel : bool, optional
        Label sets (lists, or strings separated by ``sep``): every category's false negatives and false
        positives are the cells, each compared with the category's true positives and true negatives.
        Default: label sets when arrays hold lists; a table or PATH needs ``multilabel=True``.
    sep : str
        Separator of the labels within a set given as a string; default ``"|"``.
    by : str, sequence of str, or (with arrays) mapping name → values, optional
        Analyse every slice too: one analysis per value of the column (per combination of several columns), each
        of that slice's documents alone (its cells, terms, prior and examples: what ``error_analysis`` of the
        slice's rows gives), counted in the same pass (``r.slices``). The whole analysis is unchanged. The
        columns come from the predictions (not from a ``texts`` file).
    by_bins : int, optional
        Cut numeric ``by`` columns into this many bins (edges from a first pass).
    by_binning : "quantile" or "uniform"
        The bins of ``by_bins``; default quantiles.
    max_slices : int
        Refuse more slices than this; default 1,000 (each slice keeps its own term counts).
    input_format : "csv", "tsv", "jsonl", "parquet" or None
        The format of the predictions PATH (default from the extension).
    encoding : "utf-8" or "latin-1"
        The text encoding of CSV, TSV and JSONL input (the predictions and ``texts``); default ``"utf-8"``.
    engine : Local, Dask, "local", "dask" or None
        Where it runs (default ``Local()``: in memory when the input fits its budget, else streamed).
    progress : callable, optional
        A progress display of a read: given the input, a context manager yielding ``update(rows, bytes)`` or None.
    label_issues : LabelIssues or PATH, optional
        Likely gold errors (:func:`clfeval.label_issues`): its result, or a PATH of its JSON (``clfeval
        label-issues --format json``) or of its ``--flagged`` file (CSV or Parquet with columns ``id`` and
        ``suggested``). Matched by id (``id`` or ``ids`` needed): in every cell, how many of its documents are
        flagged (``flagged``) and up to ``examples`` of them (``likely_gold_errors``, by the examples' keyed
        hash), besides the sample; flagged ids not among the predictions are counted in a note. Single-label,
        without ``by``.

    Returns
    -------
    ErrorAnalysis
        ``cells`` (largest first), ``prior``, ``notes``, ``engine`` (``name``, ``mode``, ``spilled``); with ``by``,
        ``slices`` (:class:`~clfeval.ops.errors.ErrorSlice`, in the slices' sorted order).

    Examples
    --------
    >>> r = error_analysis(["a"] * 6 + ["b"] * 4, ["b"] * 5 + ["a"] + ["b"] * 4,
    ...                    text=["zebra run"] * 5 + ["run"] * 5, min_count=5)
    >>> r.cells[0].gold, r.cells[0].pred, r.cells[0].count, r.engine.mode
    ('a', 'b', 5, 'memory')
    """

    from clfeval.evaluate import analyse

    a = _checked(data, pred, gold=gold, text=text, texts=texts, id=id, ids=ids, score=score, processing=processing,
                 token_pattern=token_pattern, min_count=min_count, examples=examples, terms=terms, chars=chars,
                 prior_strength=prior_strength, z_min=z_min, seed=seed, multilabel=multilabel, sep=sep,
                 encoding=encoding, engine=engine, by=by, by_bins=by_bins, by_binning=by_binning,
                 max_slices=max_slices)
    eng, counter = a.engine, a.counter
    marks = None
    if label_issues is not None:
        from clfeval.front._errorflags import label_flags

        counter.flags, marks = label_flags(label_issues, keyed=(id if a.tabular else ids) is not None,
                                           tabular=a.tabular, multilabel=counter.multilabel,
                                           sliced=a.slicing is not None)
    if not a.tabular:
        counted, block = _arrays(eng, counter, data if data is not None else gold, pred, text, ids, a.scores,
                                 a.slicing, by)
    else:
        counted, block = _tabular(eng, counter, a.data, a.columns, a.texts, input_format, encoding, progress,
                                  a.slicing)

    def analysed(c: Any) -> ErrorAnalysis:
        return analyse(c, min_count=min_count, terms=terms, prior_strength=prior_strength, z_min=z_min,
                       settings={"processing": None if processing is None else str(processing),
                                 "text": "a --texts file joined by id" if texts is not None else "a column"})

    if a.slicing is None:
        r = dataclasses.replace(analysed(counted), engine=EngineInfo.of(block))
        if marks is not None:
            from clfeval.front._errorflags import marked

            r = marked(r, counted, marks)
        return r
    from clfeval.front._errorslices import sliced_result

    return dataclasses.replace(sliced_result(counted, a.slicing, analysed), engine=EngineInfo.of(block))


@dataclass(frozen=True)
class _Checked:
    """The arguments of :func:`error_analysis`, checked: the engine's runner, an empty counter (its analyzer,
    examples, seed), whether the input is a table or PATH, the scores of arrays and the ``texts`` PATH
    (resolved)."""

    engine: Runner
    counter: Any
    tabular: bool
    scores: list[float] | None
    texts: Any
    data: Any
    columns: dict[str, Any]
    slicing: dict[str, Any] | None = None


def _checked(data: Any, pred: Any, *, gold: Any, text: Any, texts: Any, id: Any, ids: Any, score: Any,
             processing: Any, token_pattern: Any, min_count: Any, examples: Any, terms: Any, chars: Any,
             prior_strength: Any, z_min: Any, seed: Any, multilabel: Any, sep: Any, encoding: str,
             engine: Any, by: Any = None, by_bins: Any = None, by_binning: Any = "quantile",
             max_slices: Any = 1_000) -> _Checked:
    """Every argument of :func:`error_analysis` checked before any work (the command line's too), each refusal
    naming its parameter; the score values of arrays are checked here as every score column is."""
    from clfeval.evaluate import check_settings, counter_of, item_scores
    from clfeval.text import analyzer_of

    eng = runner(engine)
    check_settings(min_count=min_count, examples=examples, terms=terms, chars=chars, prior_strength=prior_strength,
                   z_min=z_min)
    analyzer = analyzer_of(processing, token_pattern)
    tabular = inputs.is_path(data) or inputs.is_table(data)
    if multilabel is not None and not isinstance(multilabel, bool):
        raise UsageError(lambda m: f"option {m} must be True, False or None (from the labels); got {multilabel!r}.",
                         params=["multilabel"])
    if multilabel is None:
        multilabel = not tabular and _holds_sets(data if data is not None else gold, pred)
    if multilabel and score is not None:
        raise UsageError(lambda s, m: f"option {s} (the most confident mistakes) reads one score per item, of its "
                                      f"predicted class; with label sets ({m}) leave it out.",
                         params=["score", "multilabel"])
    cols: dict[str, Any] = {}
    if tabular:  # the table checked (rows, no name twice) and its column names as text (a pandas label 0 is '0')
        data, cols = inputs.check_input(data, {}, {"gold": (gold, "gold"), "pred": (pred, "pred"),
                                                   "text": (text, "text"), "id": (id, None), "score": (score, None)})
    if not tabular and isinstance(score, str):
        raise UsageError(lambda s: f"with arrays of labels, give {s} as an array of numbers too (one per item); "
                                   f"got the text {score!r}.", params=["score"])
    scores = None if tabular or score is None else item_scores(inputs.as_column(score, "score"), "score")
    counter = counter_of(analyzer, examples, seed, chars, multilabel=bool(multilabel), sep=sep)
    eng.admit("error_analysis", stdin={"data": inputs.is_stdin(data),
                                       "texts": texts is not None and inputs.is_stdin(texts)})
    if texts is not None:
        if id is None:
            raise UsageError(lambda t, i: f"option {t} joins the texts by id: name the id column of both files "
                                          f"with {i}.", params=["texts", "id"])
        texts = inputs.resolve(texts, encoding=encoding, option="--texts")
    slicing = None
    if by is not None:
        from clfeval.front._errorslices import check_slicing

        slicing = check_slicing(by, by_bins, by_binning, max_slices, tabular=tabular, texts=texts is not None,
                                columns=cols)
    return _Checked(eng, counter, tabular, scores, texts, data, cols, slicing)


def _arrays(eng: Runner, counter: Any, gold: Any, pred: Any, text: Any, ids: Any,
            score: list[float] | None, slicing: dict[str, Any] | None = None, by: Any = None
            ) -> tuple[Any, Mapping[str, Any]]:
    import pyarrow as pa

    from clfeval.evaluate import count_arrays

    if pred is None or text is None or isinstance(text, str):
        raise UsageError(lambda p, t: f"with arrays of gold labels, give {p} (the predicted labels) and {t} (the "
                                      f"texts, one per item) as arrays too.", params=["pred", "text"])
    if counter.multilabel:
        gold, pred = _set_column(gold, counter.sep), _set_column(pred, counter.sep)
    cols = {"gold": inputs.as_column(gold, "gold"), "pred": inputs.as_column(pred, "pred"),
            "text": _text_column(text)}
    if ids is not None:
        cols["id"] = inputs.as_column(ids, "ids")
    if score is not None:
        cols["score"] = pa.array(score, pa.float64())
    lengths = {k: len(v) for k, v in cols.items()}
    if len(set(lengths.values())) > 1:
        raise DataError("gold, pred and text (and ids, score when given) must have one value per item; got "
                        + ", ".join(f"{k} {n}" for k, n in lengths.items()) + ".")
    names = dict(gold="gold", pred="pred", text="text", id="id" if ids is not None else None,
                 score="score" if score is not None else None)
    if slicing is not None:
        from clfeval.front._errorslices import with_by_arrays

        table, names, slicing = with_by_arrays(pa.table(cols), names, by, slicing)
        return _tabular(eng, counter, table, names, None, None, "utf-8", None, slicing)
    table = pa.table(cols)
    if eng.holds(table):
        count_arrays(counter, cols["gold"].to_pylist(), cols["pred"].to_pylist(), cols["text"].to_pylist(),
                     cols["id"].to_pylist() if ids is not None else None,
                     cols["score"].to_pylist() if score is not None else None)
        return counter, eng.block("memory")
    return _tabular(eng, counter, table, names, None, None, "utf-8", None)


def _holds_sets(gold: Any, pred: Any) -> bool:
    """Whether arrays of labels hold label sets (their first value a list, tuple or set)."""
    for values in (gold, pred):
        if values is None or isinstance(values, str) or not hasattr(values, "__iter__"):
            continue
        if inputs.is_table(values):
            continue
        first = next(iter(values), None)
        if isinstance(first, (list, tuple, set, frozenset)) or getattr(first, "ndim", False):
            return True
    return False


def _set_column(values: Any, sep: str) -> Any:
    """Label sets as a pyarrow list column of text (a set or a separated string each)."""
    import pyarrow as pa

    from clfeval.evaluate import label_sets

    seq = values.to_pylist() if hasattr(values, "to_pylist") else list(values)
    return pa.array([sorted(s) for s in label_sets(seq, sep)], type=pa.list_(pa.string()))


def _text_column(text: Any) -> Any:
    """Texts as a pyarrow column, every character kept (NumPy's fixed-width strings would end at a NUL); bytes
    that are not UTF-8 are refused naming the item."""
    import pyarrow as pa

    from clfeval.evaluate import texts_of

    if isinstance(text, (pa.Array, pa.ChunkedArray)) or type(text).__module__.split(".", 1)[0] in ("pandas", "polars"):
        return inputs.as_column(text, "text")
    values = text.tolist() if hasattr(text, "tolist") else list(text)
    return pa.array(texts_of(values, "text", lambda i: f"item {i + 1}"), type=pa.string())


def _tabular(eng: Runner, counter: Any, data: Any, cols: dict[str, Any], texts: Any, fmt: Any, encoding: str,
             progress: Any, slicing: dict[str, Any] | None = None) -> tuple[Any, Mapping[str, Any]]:
    """A table in memory when the runner holds it and its texts are a column, else spooled; a PATH streamed (or on
    Dask). ``texts``: the resolved PATH of the texts joined by id, or None."""
    from clfeval.evaluate import count_arrays, item_scores

    if inputs.is_table(data):
        wanted = {"gold": cols["gold"], "pred": cols["pred"], "id": cols["id"], "score": cols["score"],
                  "text": None if texts is not None else cols["text"]}
        by_cols = list(slicing["columns"]) if slicing is not None else []
        table = inputs.columns_of(data, wanted)
        if by_cols:
            from clfeval.front._errorslices import by_columns

            table = by_columns(data, table, by_cols)
        if slicing is not None and eng.holds(table):
            from clfeval.front._errorslices import in_memory

            return in_memory(counter, table, cols, slicing), eng.block("memory")
        if texts is None and eng.holds(table):
            keys = table.column(cols["id"]).to_pylist() if cols["id"] else None
            scores = item_scores(table.column(cols["score"]), cols["score"]) if cols["score"] else None
            count_arrays(counter, table.column(cols["gold"]).to_pylist(), table.column(cols["pred"]).to_pylist(),
                         table.column(cols["text"]).to_pylist(), keys, scores)
            return counter, eng.block("memory")
        table, cols = _placed(table.select(list(dict.fromkeys([*(c for c in wanted.values() if c), *by_cols]))),
                              cols)
        with eng.spooled(table) as inp:
            return _on_path(eng, counter, inp, cols, texts, "utf-8", progress, spooled=True, slicing=slicing)
    inp = inputs.resolve(data, input_format=fmt, encoding=encoding)
    return _on_path(eng, counter, inp, cols, texts, encoding, progress, slicing=slicing)


def _placed(table: Any, cols: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """A table to spool, its columns: without ids, its items keyed by their row in the table (a column of row
    numbers, from 0) as in memory, not by their place in the temporary files."""
    if cols["id"] is not None:
        return table, cols
    import numpy as np
    import pyarrow as pa

    place = "__row__"
    while place in table.column_names:
        place = f"_{place}_"
    return table.append_column(place, pa.array(np.arange(table.num_rows, dtype=np.int64))), {**cols, "place": place}


def _on_path(eng: Runner, counter: Any, inp: Any, cols: dict[str, Any], texts: Any, encoding: str, progress: Any,
             spooled: bool = False, slicing: dict[str, Any] | None = None) -> tuple[Any, Mapping[str, Any]]:
    """A resolved PATH counted by the engine with the accumulator :class:`clfeval.evaluate.ErrorBatches`
    (streamed here, one per group of partitions on a cluster, added in a tree). With ``texts``, the predictions
    are joined to them by id first, a data step within the budget (:func:`clfeval.evaluate.joined_texts`,
    spooled to Parquet by the runner), and the joined rows counted like any PATH."""
    from clfeval.evaluate import JOINED, joined_texts

    if texts is None:
        total, mode, parts = _accumulated(eng, counter, inp, cols, progress, slicing, encoding)
        return total, eng.block(mode, spooled=spooled, parts=parts)

    def join(budget: int, tmpdir: str | None) -> Any:
        return joined_texts(counter, inp, texts, gold=cols["gold"], pred=cols["pred"], id=cols["id"],
                            text=cols["text"], score=cols["score"], encoding=encoding, progress=progress,
                            budget=budget, tmpdir=tmpdir)

    with eng.spooled(join, inp.name) as joined:
        total, mode, parts = _accumulated(eng, counter, joined, {**JOINED, "score": cols["score"] and JOINED["score"]},
                                          None)
    return total, eng.block(mode, spooled=spooled, parts=parts)


def _accumulated(eng: Runner, counter: Any, inp: Any, cols: dict[str, Any], progress: Any,
                 slicing: dict[str, Any] | None = None, encoding: str = "utf-8") -> tuple[Any, str, int | None]:
    """``counter`` filled from every item of a resolved PATH by the engine; the mode and the parts read. With
    ``slicing``, the accumulator is wrapped per slice (:class:`clfeval.slicing.BySlice`) and the slices' counters
    are returned (:func:`clfeval.front._errorslices.counters`)."""
    from functools import partial

    from clfeval.evaluate import error_batches

    text, score, place = cols["text"], cols["score"], cols.get("place")
    make: Callable[[], Any] = partial(error_batches, counter, text, score, place)
    by = list(slicing["columns"]) if slicing is not None else []
    if slicing is not None:
        from clfeval.front._errorslices import sliced_make

        make = sliced_make(make, slicing, inp, cols, encoding, counter)
    acc, mode, parts = eng.accumulate(inp, make, gold=cols["gold"], pred=cols["pred"], id=cols["id"],
                                      extra=[text] + ([score] if score else []) + ([place] if place else []) + by,
                                      extra_options=["--text"] + (["--score"] if score else [])
                                      + (["(the row)"] if place else []) + ["--by"] * len(by),
                                      scores=[score] if score else [], multilabel=counter.multilabel,
                                      reading={"sep": counter.sep, "repeat": None}, progress=progress)
    if slicing is not None:
        from clfeval.front._errorslices import counters

        return counters(acc), mode, parts
    return acc.counter, mode, parts
