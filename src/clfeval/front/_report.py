"""``clfeval.report``: every count-based number about one classifier's predictions, on any input and engine.

The steps: the input becomes columns in memory or a resolved PATH (:mod:`clfeval.io._inputs`); the
capability table refuses what the engine cannot do (:mod:`clfeval.engines._capabilities`); then one of the
private steps runs — in memory (:func:`clfeval.evaluate._reports.report`), streamed from a PATH within the
memory budget (:mod:`clfeval.evaluate._streaming`, :mod:`clfeval.evaluate._scoredstream`) or on Dask
(:mod:`clfeval.engines.dask._ids`) — and the result gets its engine block.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from clfeval.engines import Dask, Local, Runner, runner
from clfeval.errors import DataError, LabelListError, UsageError
from clfeval.front._block import spilled_in, with_engine
from clfeval.io import inputs
from clfeval.ops.report import Report

if TYPE_CHECKING:  # the input types, named for type checkers only (nothing heavy is imported at run time)
    import os
    from contextlib import AbstractContextManager
    from typing import TypeAlias

    import numpy as np
    import numpy.typing as npt
    import pandas
    import polars
    import pyarrow

    from clfeval.evaluate import Requirement
    from clfeval.io import InputPath

    #: Gold labels as an array, or a table with named columns, or a PATH (file, directory, glob, ``-``).
    Data: TypeAlias = npt.ArrayLike | pandas.DataFrame | polars.DataFrame | pyarrow.Table | str | os.PathLike[str]
    #: A column of a table or PATH by its name, or the values themselves (arrays).
    Column: TypeAlias = str | npt.ArrayLike
    #: A class label as the input gives it.
    Label: TypeAlias = str | int | float | bool
    #: Scores: one array (for ``positive``), or one array per label (one-vs-rest).
    Scores: TypeAlias = npt.ArrayLike | Mapping[Label, npt.ArrayLike]
    #: Slice columns by name (``"source"``, ``"source,lang"``, a list), or with arrays name → values.
    Slicing: TypeAlias = str | Sequence[str] | Mapping[str, npt.ArrayLike]
    #: The seed of the random draws (or a generator).
    Seed: TypeAlias = int | np.random.Generator
    #: Interval methods in any form of ``--ci-method``.
    CiMethod: TypeAlias = str | Sequence[str] | Mapping[str, str]
    #: A progress display of a read: given the input, a context that yields ``update(rows, bytes)`` or None.
    Progress: TypeAlias = Callable[[InputPath], AbstractContextManager[Callable[[int, int], None] | None]]

__all__ = ["report"]


def report(data: Data | None = None, pred: Column | None = None, *, gold: Column | None = None,
           score: str | None = None, scores_prefix: str | None = None, id: str | None = None,
           labels: Sequence[Label] | None = None, ids: npt.ArrayLike | None = None, scores: Scores | None = None,
           positive: Label | None = None, beta: float = 1.0, zero_division: float | str = 0,
           order: Sequence[Label] | None = None, multilabel: bool = False, sep: str = "|",
           train_labels: Data | None = None, train_column: str | None = None, show_errors: int = 0,
           threshold: float | None = None, ci: float | None = None, samples: int = 10_000, seed: Seed = 0,
           ci_method: CiMethod = "auto", require: Sequence[str | Requirement] = (),
           score_bins: int | None = None, score_binning: str = "quantile", input_format: str | None = None,
           encoding: str = "utf-8", normalize: str | None = None, engine: Local | Dask | str | None = None,
           top_n: int = 5, progress: Progress | None = None, by: Slicing | None = None, by_bins: int | None = None,
           by_binning: str = "quantile", max_slices: int = 1_000, min_slice: int = 30,
           slice_metrics: Sequence[str] | None = None, slice_samples: int = 1_000, find_slices: Slicing | None = None,
           max_depth: int = 2, max_search: int = 10_000, find_metric: str | None = None,
           find_alpha: float = 0.05) -> Report:
    """The report of one classifier: confusion matrix, per-class table, averages, baselines, diagnostics.

    Parameters
    ----------
    data : array-like, table or PATH
        Gold labels (with ``pred`` the predicted labels: arrays, lists, pandas or polars Series); or a
        table (pandas or polars DataFrame, pyarrow Table) whose columns ``gold``, ``pred``, ``score`` and
        ``id`` are named by those parameters; or a PATH (file, directory, glob, ``-``) of such a table.
    pred : array-like or str, optional
        Predicted labels (arrays), or the predictions column of a table or PATH (default ``pred``).
    gold : str, optional
        The gold column of a table or PATH (default ``gold``); with arrays, the gold labels may be given here.
    score, scores_prefix : str, optional
        Score column (ranked for ``positive``), or the prefix of one score column per class (one-vs-rest).
    id : str, optional
        The item-id column of a table or PATH (a PATH's column ``id`` is read when present); ids list the
        misclassified items (``show_errors``).
    labels : sequence of labels, optional
        The labels and their order; default every label in either column, sorted. Labels that never occur are
        allowed (their counts are 0).
    ids : array-like, optional
        With arrays: the item ids (unique).
    scores : array-like or mapping, optional
        With arrays: the scores (one array, or label → array).
    positive : label, optional
        Adds a binary summary of this class against all others (``r.binary``); needed by ``score``.
    beta : float
        Adds F-beta beside F1 when not 1 (beta > 1 favours recall); default 1.0.
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios (e.g. the precision of a class never predicted); default 0, as scikit-learn;
        the affected metrics and labels are listed in ``r.undefined``; ``"nan"`` leaves them out of averages.
    order : sequence of labels, optional
        Ordered classes, low to high (e.g. star ratings): adds MAE over ranks and weighted kappa.
    multilabel : bool
        Each item carries a set of labels (lists, or text cells separated by ``sep``); default False.
    sep : str
        The separator of labels within a multi-label text cell; default ``"|"``, never empty.
    train_labels : array-like or PATH, optional
        Training labels: the majority and stratified baselines then follow the training class frequencies
        (the honest version).
    train_column : str, optional
        The column of a ``train_labels`` PATH (default the ``gold`` name, ``label``, or the only column).
    show_errors : int
        List up to this many misclassified items (ids, gold, prediction); default 0.
    threshold : float, optional
        With a score and no predictions: the predictions come from the cut, positive iff score ≥ threshold.
    ci : float, optional
        Adds a bootstrap confidence interval at this level (strictly between 0 and 1, e.g. 0.95) to every
        metric (``r.ci``); default none.
    samples : int
        Bootstrap replicates of ``ci`` (at most 1,000,000); default 10,000.
    seed : int or numpy.random.Generator
        The random seed of ``ci``; default 0.
    engine : Local, Dask, "local", "dask" or None
        Where it runs (default ``Local()``: in memory when the input fits its budget, else streamed).
    top_n : int
        The largest confusions (off-diagonal cells) listed in the diagnostics; default 5 (20 at least when the
        table has so many classes that it is held sparsely).
    progress : callable, optional
        A progress display of a read: given the input, a context manager yielding ``update(rows, bytes)`` or
        None (the CLI's bar on a terminal); default none.
    ci_method : str, sequence of str or mapping
        The interval method of ``ci``, in any form of ``--ci-method``
        (:func:`clfeval.evaluate._cimethods.parse_ci_methods`): ``"bca"``, ``"roc_auc=delong"``,
        ``["bca", "recall:spam=wilson"]``, ``{"roc_auc": "delong"}``; the more specific key wins (``recall:spam``
        over ``recall`` over one method for every metric).
    require : sequence of str
        Conditions such as ``"macro_f1>=0.70"``, each shown met or not (``r.requirements``).
    score_bins : int, optional
        Approximate ROC-AUC from this many score bins (2 to 1,000,000), with its exact error bound; AP and the
        curves at the bin edges (one ``score`` column only; not with ``threshold`` or ``ci``). Default exact.
    score_binning : "quantile" or "uniform"
        The edges of ``score_bins``: quantiles of the scores (a first pass; the default), or equal widths.
    input_format : "csv", "tsv", "jsonl", "parquet" or None
        The format of a PATH (default from the extension; CSV for standard input, ``-``).
    encoding : "utf-8" or "latin-1"
        The text encoding of CSV, TSV and JSONL input (Parquet text is always UTF-8); default ``"utf-8"``.
    normalize : "nfc" or None
        Unicode-normalise text labels (NFC) so that labels that only print alike are one class; default None.
    by : str, sequence of str, or (with arrays) mapping name → values
        Slice columns (``"source"``, ``"source,lang"``): one count table per slice, counted in the same pass,
        and the ``slices`` section (:func:`clfeval.slicing._slices.slice_section`). ``by_bins`` /
        ``by_binning`` cut numeric columns into bins; ``max_slices`` refuses more slices; ``min_slice``: slices
        smaller are shown, not tested, never the worst; ``slice_metrics``: the metrics tested;
        ``slice_samples``: redraws of each permutation test.
    by_bins : int, optional
        Cut numeric ``by`` (and ``find_slices``) columns into this many bins (edges stated in the output).
    by_binning : "quantile" or "uniform"
        The bins of ``by_bins``: quantiles of a first-pass sample (the default), or equal widths.
    max_slices : int
        Refuse more slices than this (all ``by`` columns together); default 1,000.
    min_slice : int
        Slices with fewer items are shown, not tested, and never called the worst; default 30.
    slice_metrics : sequence of str, optional
        The metrics tested across slices; default accuracy and each class's recall, or with ``positive`` its
        recall, precision, FPR and accuracy (F1, MCC, kappa and the macro averages get a permutation test).
    slice_samples : int
        Redraws of each permutation test of ``by`` (10 to 1,000,000); default 1,000.
    find_slices : str, sequence of str, or (with arrays) mapping name → values
        Columns to search for the slices where ``find_metric`` (a proportion metric; default the recall of
        ``positive`` when given, else accuracy) is worst: every column and every cross up to ``max_depth``
        columns, at most ``max_search`` slices in all, counted in the same pass; found = worse than the rest
        after the Benjamini–Yekutieli adjustment at ``find_alpha`` (the ``find_slices`` section,
        :mod:`clfeval.slicing._slicefind`).
    max_depth : int
        Columns crossed at most by ``find_slices`` (1: single columns, up to 3: triples); default 2.
    max_search : int
        Slices ``find_slices`` examines in all at most; a larger search is refused. Default 10,000.
    find_metric : str, optional
        The proportion metric ``find_slices`` ranks by: ``accuracy``, ``error_rate``, or ``recall:L``,
        ``precision:L``, ``specificity:L``, ``fpr:L``, ``fnr:L``, ``npv:L``, ``accuracy:L``, ``error_rate:L``
        for a label L; default the recall of ``positive`` when given, else accuracy.
    find_alpha : float
        The false-discovery rate of ``find_slices`` (Benjamini–Yekutieli), strictly between 0 and 1; default 0.05.

    Notes
    -----
    The count-based parameters mean what they mean in :func:`clfeval.evaluate._reports.report`, the in-memory step.

    Returns
    -------
    Report
        With ``r.engine``: ``name``, ``mode`` (memory / streamed / cluster), ``spilled``.

    Examples
    --------
    >>> r = report(["a", "b", "b"], ["a", "b", "a"])
    >>> r.accuracy, r.engine.mode, r.engine.spilled
    (0.6666666666666666, 'memory', False)
    """
    v = _validated(engine, data, pred, gold=gold, score=score, scores_prefix=scores_prefix, id=id, labels=labels,
                   ids=ids, scores=scores, positive=positive, multilabel=multilabel, show_errors=show_errors,
                   threshold=threshold, ci=ci, samples=samples, ci_method=ci_method, require=require,
                   score_bins=score_bins, train_labels=train_labels, by=by, find_slices=find_slices)
    eng, data, scored = v["engine"], v["data"], v["scored"]
    settings = dict(positive=positive, beta=beta, zero_division=zero_division, order=order, multilabel=multilabel,
                    sep=sep, show_errors=show_errors, ci=ci, samples=v["samples"], seed=seed,
                    ci_method=v["ci_method"] or "auto")
    if by is not None or find_slices is not None:
        from clfeval.front._slicing import check_by, report_by

        one_score = scored and scores_prefix is None and not isinstance(scores, dict)
        sets = check_by(by, multilabel=multilabel, scored=scored and not one_score, threshold=threshold,
                        show_errors=show_errors, max_slices=max_slices, by_bins=by_bins) if by is not None else []
        find = None
        if find_slices is not None:
            from clfeval.slicing import check_find

            find = check_find(find_slices, max_depth=max_depth, max_search=max_search, metric=find_metric,
                              alpha=find_alpha, positive=positive, multilabel=multilabel, scored=scored,
                              threshold=threshold, show_errors=show_errors, by_bins=by_bins)
        settings["train_labels"] = train_labels
        slicing = dict(sets=sets + [s for s in (find["sets"] if find else []) if s not in sets], n_by=len(sets),
                       by_bins=by_bins, by_binning=by_binning, max_slices=max_slices, min_slice=min_slice,
                       metrics=slice_metrics, slice_samples=slice_samples, find=find,
                       score=v["score"] if one_score and by is not None else None,
                       scores=scores if one_score and by is not None else None)
        rep, block = report_by(eng, data, v["pred"], v["gold"], v["id"], by, settings, slicing,
                               input_format=input_format, encoding=encoding, normalize=normalize, progress=progress,
                               top_n=top_n)
    elif v["kind"] == "arrays":
        rep, block = _arrays(eng, v["gold"], pred, labels, ids, scores, threshold, train_labels, settings, top_n)
    else:
        cols: dict[str, Any] = dict(gold=v["gold"], pred=v["pred"], score=v["score"], prefix=scores_prefix,
                                    id=v["id"])
        train = None
        if train_labels is not None and inputs.is_path(train_labels):
            train = _read_train(train_labels, train_column, cols["gold"], input_format, multilabel,
                                encoding=encoding, normalize=normalize, sep=sep)
        elif train_labels is not None:
            train = train_labels
        settings["train_labels"] = train
        rep, block = _tabular(eng, data, cols, threshold, settings, score_bins, score_binning, input_format,
                              encoding, normalize, top_n, progress, train_name=train_labels)
    if v["conditions"]:
        from clfeval.evaluate import with_requirements

        rep = with_requirements(rep, v["conditions"])
    out: Report = with_engine(rep, block)
    return out


def _validated(engine: Any, data: Any, pred: Any, *, gold: Any, score: Any, scores_prefix: Any, id: Any, labels: Any,
               ids: Any, scores: Any, positive: Any, multilabel: bool, show_errors: int, threshold: Any, ci: Any,
               samples: Any, ci_method: Any, require: Any, score_bins: Any, train_labels: Any, by: Any,
               find_slices: Any) -> dict[str, Any]:
    """Every argument of :func:`report` checked and normalised before any work (the steps after it trust them):
    the engine; the input's kind (``arrays``, ``table``, ``path``), its items or rows and the columns it names;
    the options against each other and the engine; ``ci_method`` and ``require`` parsed."""
    from clfeval.core import check_probability, check_samples

    eng = runner(engine)
    scored = score is not None or scores_prefix is not None or scores is not None
    out: dict[str, Any] = {"engine": eng, "scored": scored, "data": data}
    gold_values = data if gold is None or data is not None else gold
    out["data"], names = inputs.check_input(
        data, {"gold": gold_values, "pred": pred, "labels": labels, "ids": ids, "scores": scores},
        {"gold": (gold, "gold"), "pred": (pred, "pred"), "score": (score, None), "id": (id, None),
         "scores_prefix": (scores_prefix, None)}, mappings=("scores",))
    out.update(names, kind="path" if inputs.is_path(data) else "table" if inputs.is_table(data) else "arrays")
    if out["kind"] == "arrays":
        from clfeval.evaluate import check_predictions

        check_predictions(pred, scores, threshold)
        out.update(gold=gold_values, pred=pred)
    if ci is not None:
        check_probability(ci, option="ci")
    out["samples"] = check_samples(samples, option="samples") if ci is not None else samples
    out["ci_method"] = _ci_methods(ci_method, ci, scored=scored, multilabel=multilabel)
    out["conditions"] = _conditions(require)
    if score_bins is not None and score is None:
        raise UsageError(lambda n: f"option {n} bins the scores of one score column (with positive); one-vs-rest "
                                   f"rankings are exact only.", params=["score_bins"])
    if score_bins is not None and (threshold is not None or ci is not None):
        raise UsageError(lambda n, t, c: f"option {n} streams a binned ranking; {t} and {c} need every score in "
                                         f"memory (exact): leave {n} out for them.",
                         params=["score_bins", "threshold", "ci"])
    if score is not None and positive is None:
        raise UsageError(lambda s, p: f"option {s} needs {p}: the class whose scores rank the items.",
                         params=["score", "positive"])
    _check_slicing(scored, scores_prefix, scores, positive, threshold, by)
    eng.admit("report", {"scores_prefix": scores_prefix is not None or isinstance(scores, Mapping),
                         "threshold": threshold is not None, "ci with score": ci is not None and scored,
                         "show_errors": bool(show_errors), "multilabel with score": multilabel and scored},
              stdin={"data": inputs.is_stdin(data)})
    return out


def _check_slicing(scored: bool, prefix: Any, scores: Any, positive: Any, threshold: Any, by: Any) -> None:
    """``by`` against the scores and the cut it cannot slice yet."""
    if by is None:
        return
    one_score = scored and prefix is None and not isinstance(scores, dict)
    if one_score and positive is None:
        raise UsageError(lambda b, p: f"option {b} with a score column ranks the items of every slice for {p}; "
                                      f"give {p}.", params=["by", "positive"])
    if scored and not one_score:
        raise UsageError(lambda b, p: f"option {b} ranks one score column per slice (--score with --positive); "
                                      f"one score column per class ({p}) is not sliced yet.",
                         params=["by", "scores_prefix"])
    if threshold is not None:
        raise UsageError(lambda b, t: f"option {b} slices the predictions column; predictions made with {t} are "
                                      f"not sliced yet (clfeval threshold --by reports one chosen cut per slice).",
                         params=["by", "threshold"])


def _ci_methods(values: Any, ci: float | None, *, scored: bool, multilabel: bool) -> dict[str, str]:
    """``ci_method`` in any form (one text, a list of texts, a mapping: :func:`clfeval.evaluate.parse_ci_methods`,
    the parser of ``--ci-method`` too), checked against the metrics it names before any data is read."""
    from clfeval.evaluate import parse_ci_methods

    methods = parse_ci_methods(values)
    if not methods:
        return methods
    from clfeval.core import catalog
    from clfeval.evaluate import check_ci_methods

    if ci is None:
        raise UsageError(lambda m, c: f"option {m} chooses the method of {c}'s intervals: give {c} LEVEL too.",
                         params=["ci_method", "ci"])
    check_ci_methods(methods, count_names=catalog.names(input="counts"), scored=scored, multilabel=multilabel)
    return methods


def _conditions(require: Sequence[Any]) -> list[Any]:
    if isinstance(require, str):
        require = [require]
    if not require:
        return []  # the requirements module (and the catalogue it reads) stays unimported
    from clfeval.evaluate import parse_requirement

    return [parse_requirement(c) if isinstance(c, str) else c for c in require]


def _read_train(path: Any, column: str | None, gold: str, fmt: str | None, multilabel: bool, **reading: Any) -> Any:
    from clfeval.front._trainlabels import read_train_labels

    return read_train_labels(path, column, gold, fmt, multilabel=multilabel, **reading)


def _arrays(eng: Runner, gold: Any, pred: Any, labels: Any, ids: Any, scores: Any, threshold: Any, train: Any,
            settings: dict[str, Any], top_n: int) -> tuple[Any, Mapping[str, Any]]:
    """Arrays: in memory when the runner holds them; else one table of plain columns, spooled to Parquet and
    streamed or run on a cluster (label sets and ragged values are no such table: they stay in memory, where the
    capability table says which engine runs them)."""
    from clfeval.evaluate import report as in_memory

    plain = labels is None and ids is None and threshold is None and not isinstance(scores, dict)
    needed = not plain or settings["multilabel"]  # options that need the arrays themselves: in memory when it can
    table = None if eng.holds(None, needed=needed) else _arrays_table(gold, pred, scores)
    if table is not None and not eng.holds(table):
        cols = dict(gold="gold", pred="pred" if pred is not None else None, score="score" if scores is not None
                    else None, prefix=None, id=None)
        return _tabular(eng, table, cols, None, {**settings, "train_labels": train}, None, "quantile", None,
                        "utf-8", None, top_n, None, train_name="train_labels")
    eng.admit("report", {"arrays of label sets or ragged values": table is None})
    rep = in_memory(gold, pred, labels=labels, ids=ids, scores=scores, threshold=threshold, train_labels=train,
                    **settings)
    rep = _with_ranking_ci(rep, gold, scores, settings)  # as for a table or a PATH: the same parts on every input
    return rep, eng.block("memory")


def _arrays_table(gold: Any, pred: Any, scores: Any) -> Any:
    """The arrays as one table (None when they are no plain columns: label sets, ragged values, no predictions —
    those stay in memory, where the report checks them)."""
    import pyarrow as pa

    if pred is None:
        return None
    try:
        cols = {"gold": inputs.as_column(gold, "gold"), "pred": inputs.as_column(pred, "pred")}
        if scores is not None:
            cols["score"] = inputs.as_column(scores, "scores")
        return pa.table(cols)
    except inputs.MixedLabels:
        raise  # refused alike on every engine, as in memory
    except (DataError, ValueError, TypeError, pa.ArrowException):
        return None


def _tabular(eng: Runner, data: Any, cols: dict[str, Any], threshold: Any, settings: dict[str, Any], bins: Any,
             binning: str, fmt: Any, encoding: str, normalize: Any, top_n: int, progress: Any,
             train_name: Any) -> tuple[Any, Mapping[str, Any]]:
    """A table or PATH: a table in memory when it fits, else spooled; a PATH streamed (or on Dask)."""
    if inputs.is_table(data):
        wanted = {"gold": cols["gold"], "pred": cols["pred"] if threshold is None else None, "score": cols["score"],
                  "id": cols["id"]}
        table = inputs.columns_of(data, wanted)
        if bins is None and eng.holds(table, needed=threshold is not None or _needs_memory(settings, cols)):
            return _table_in_memory(eng, table, cols, threshold, settings, top_n)
        with eng.spooled(table) as inp:
            return _on_path(eng, inp, cols, threshold, settings, bins, binning, "utf-8", None, top_n, progress,
                            train_name, spooled=True)
    inp = inputs.resolve(data, input_format=fmt, encoding=encoding)
    rep, block = _on_path(eng, inp, cols, threshold, settings, bins, binning, encoding, normalize, top_n, progress,
                          train_name)
    if inp.aliases:
        from clfeval.ops.report import InputsPart

        rep = dataclasses.replace(rep, inputs=InputsPart.of({"aliases": [{"skipped": a, "same_as": b}
                                                                      for a, b in inp.aliases]}))
    return rep, block


def _needs_memory(settings: dict[str, Any], cols: dict[str, Any]) -> bool:
    scored = cols["score"] is not None or cols["prefix"] is not None
    return settings["ci"] is not None and (scored or settings["multilabel"])


def _table_in_memory(eng: Runner, table: Any, cols: dict[str, Any], threshold: Any, settings: dict[str, Any],
                     top_n: int) -> tuple[Any, Mapping[str, Any]]:
    from clfeval.evaluate import report as in_memory
    from clfeval.scores import as_scores

    scores: Any = None
    if cols["score"] is not None:
        scores = as_scores(table.column(cols["score"]), name=cols["score"])
    elif cols["prefix"] is not None:
        p = cols["prefix"]
        scores = {c[len(p):]: as_scores(table.column(c), name=c) for c in table.column_names
                  if c.startswith(p) and len(c) > len(p)}
    pred = None if threshold is not None else table.column(cols["pred"])
    ids = table.column(cols["id"]) if cols["id"] is not None else None
    rep = in_memory(table.column(cols["gold"]), pred, ids=ids, scores=scores, threshold=threshold, **settings)
    rep = _with_ranking_ci(rep, table.column(cols["gold"]), scores, settings)
    return rep, eng.block("memory")


def _with_ranking_ci(rep: Any, gold: Any, scores: Any, settings: dict[str, Any]) -> Any:
    """With ``ci`` and scores: DeLong's and the bootstrap intervals of the ranking."""
    if settings["ci"] is None or scores is None:
        return rep
    from clfeval.significance import with_ranking_ci

    methods = settings.get("ci_method")
    return with_ranking_ci(rep, gold, scores, positive=settings["positive"], multilabel=settings["multilabel"],
                           sep=settings["sep"], level=settings["ci"], samples=settings["samples"],
                           seed=settings["seed"], methods=methods if isinstance(methods, dict) else {})


def _on_path(eng: Runner, inp: Any, cols: dict[str, Any], threshold: Any, settings: dict[str, Any], bins: Any,
             binning: str, encoding: str, normalize: Any, top_n: int, progress: Any,
             train_name: Any, spooled: bool = False) -> tuple[Any, Mapping[str, Any]]:
    from clfeval.front import _reportsteps as steps

    reading = dict(encoding=encoding, normalize=normalize, sep=settings["sep"])
    if threshold is None and not _needs_memory(settings, cols) and cols["score"] is None and cols["prefix"] is None:
        rep, mode = _counted(eng, inp, cols, settings, reading, top_n, progress)
        return _checked(rep, inp, settings, train_name), eng.block(mode, spooled=spooled, parts=len(inp.sources))

    def local(budget: int, tmpdir: str | None) -> tuple[Any, str]:
        if threshold is not None or _needs_memory(settings, cols):
            rep, gold, scores = steps.in_memory(inp, cols, threshold, settings, reading)
            return _with_ranking_ci(rep, gold, scores, settings), "memory"
        return steps.streamed_scores(inp, cols, settings, reading, budget, bins, binning, progress,
                                     tmpdir), "streamed"

    def cluster(client: Any, memory: Any) -> tuple[Any, str]:
        return steps.on_dask(client, memory, inp, cols, settings, bins, binning, normalize, top_n), "cluster"

    try:
        rep, mode = eng.over_path(local, cluster)
    except LabelListError as exc:
        text = exc.describe("option order") if exc.parameter == "order" else str(exc)
        raise DataError(lambda o: f"file {inp.name!r}: {text.replace('option order', f'option {o}')}",
                        params=["order"]) from None
    ranked = None if rep.ranking is None else rep.ranking.to_dict()
    return _checked(rep, inp, settings, train_name), eng.block(mode, spilled=spilled_in(ranked), spooled=spooled,
                                                               parts=len(inp.sources))


def _counted(eng: Runner, inp: Any, cols: dict[str, Any], settings: dict[str, Any], reading: dict[str, Any],
             top_n: int, progress: Any) -> tuple[Any, str]:
    """The count report of a PATH: its accumulator (:class:`clfeval.evaluate.ReportCounts`) run by the engine
    over every item (streamed here, mapped over partitions on a cluster), then finished from its table."""
    from functools import partial

    from clfeval.evaluate import ReportCounts
    from clfeval.front._reportsteps import named_by

    s = dict(settings)
    make = partial(ReportCounts, multilabel=s.pop("multilabel"), sep=s["sep"], show_errors=s.pop("show_errors"),
                   order=s.pop("order"))
    make()  # its options checked before any reading
    try:
        acc, mode, _ = eng.accumulate(inp, make, gold=cols["gold"], pred=cols["pred"], id=cols["id"],
                                   multilabel=settings["multilabel"], reading=reading, progress=progress)
        return named_by(inp.name, lambda: acc.finish(top_n=top_n, **s)), mode
    except LabelListError as exc:
        text = exc.describe("option order") if exc.parameter == "order" else str(exc)
        raise DataError(lambda o: f"file {inp.name!r}: {text.replace('option order', f'option {o}')}",
                        params=["order"]) from None


def _checked(rep: Any, inp: Any, settings: dict[str, Any], train_name: Any) -> Any:
    """The report, its training labels checked against the labels it counted."""
    train = settings.get("train_labels")
    if train is not None:
        from clfeval.front._trainlabels import check_train_overlap

        check_train_overlap(train, train_name, inp.name, set(rep.labels), settings["multilabel"], settings["sep"])
    return rep
