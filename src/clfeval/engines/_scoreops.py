"""``clfeval.ranking``, ``clfeval.threshold`` and ``clfeval.calibration``: the score operations on any input
and engine.

Each takes arrays (gold labels and scores), a table with column names, or a PATH, and ``engine=``. Arrays
and tables that fit the Local engine's budget are evaluated in memory
(:func:`clfeval.scores._curves.ranking`, :func:`clfeval.scores._thresholds.choose_threshold`,
:func:`clfeval.scores._calibration.reliability`); larger ones are spooled to Parquet and streamed like a
PATH (:func:`clfeval.scores._external.stream_ranking`, ``choose_threshold_batches``,
``calibrate_batches``), or run on Dask (:mod:`clfeval.dask`). The result carries its engine block.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from clfeval.core import EngineInfo
from clfeval.engines import _data as inputs
from clfeval.engines._block import engine_block, spilled_in, with_engine as _with_engine
from clfeval.engines._capabilities import refuse, refuse_stdin
from clfeval.engines._reportsteps import named_by
from clfeval.engines._spec import Dask, Local, as_engine
from clfeval.errors import UsageError
from clfeval.ops.calibration import Calibration
from clfeval.ops.threshold import ThresholdResult

if TYPE_CHECKING:  # the input types, named for type checkers only (nothing heavy is imported at run time)
    import os
    from contextlib import AbstractContextManager
    from typing import TypeAlias

    import numpy.typing as npt
    import pandas
    import polars
    import pyarrow

    from clfeval.core import RankingSummary
    from clfeval.io import InputPath
    from clfeval.ops.ranking import RankingResult
    from clfeval.scores import Objective, ScoreSource

    #: Gold labels as an array, or a table with named columns, or a PATH (file, directory, glob).
    Data: TypeAlias = npt.ArrayLike | pandas.DataFrame | polars.DataFrame | pyarrow.Table | str | os.PathLike[str]
    #: A column of a table or PATH by its name, or the values themselves (arrays).
    Column: TypeAlias = str | npt.ArrayLike
    #: Scores or probabilities: one value per item, an (n, K) matrix, or one column per label (a mapping).
    Scores: TypeAlias = npt.ArrayLike | Mapping[str, npt.ArrayLike]
    #: A label as the data hold it (matched by value or string form).
    Label: TypeAlias = str | int | float | bool
    #: Slice columns: a column name, several, or the values themselves by name (arrays).
    By: TypeAlias = str | Sequence[str] | Mapping[str, npt.ArrayLike] | npt.ArrayLike
    #: A progress display of a read: given the input, a context that yields ``update(rows, bytes)`` or None.
    Progress: TypeAlias = Callable[[InputPath], AbstractContextManager[Callable[[int, int], None] | None]]

__all__ = ["ranking", "threshold", "calibration", "check_threshold_options", "check_calibration_options"]


@contextlib.contextmanager
def _as_path(eng: Any, data: Any, columns: dict[str, Any], fmt: Any, encoding: str) -> Iterator[tuple[Any, bool]]:
    """A table or arrays spooled to Parquet (yields the resolved PATH and True), or a PATH resolved (False)."""
    if inputs.is_path(data):
        yield inputs.resolve(data, input_format=fmt, encoding=encoding), False
        return
    table = inputs.columns_of(data, columns)
    budget = eng.budget if isinstance(eng, Local) else 1 << 30
    with inputs.spooled(table, budget, eng.tmpdir if isinstance(eng, Local) else None) as inp:
        yield inp, True


def _fits(eng: Any, data: Any, columns: dict[str, Any]) -> Any:
    """The table of a table input when the Local engine holds it in memory (else None)."""
    if not isinstance(eng, Local) or inputs.is_path(data):
        return None
    table = inputs.columns_of(data, columns)
    return table if inputs.table_bytes(table) <= eng.budget else None


def _arrays_as_table(gold: Any, scores: Any, score: str) -> Any:
    import pyarrow as pa

    return pa.table({"gold": inputs.as_column(gold, "gold"), score: inputs.as_column(scores, "scores")})


def _arrays_fit(eng: Any, gold: Any, scores: Any) -> bool:
    """Whether arrays stay in memory on ``eng``: Local within its budget, or values that are no plain columns
    (label sets, one column per class), which the in-memory functions check themselves."""
    import pyarrow as pa

    if not isinstance(eng, Local):
        return False
    try:
        return inputs.table_bytes(_arrays_as_table(gold, scores, "score")) <= eng.budget
    except (ValueError, TypeError, pa.ArrowException):
        return True


def _progress(progress: Any, inp: Any) -> Any:
    return progress(inp) if progress is not None else contextlib.nullcontext(None)


def spilled_of(result: Any) -> bool:
    """Whether computing ``result`` spilled to disk (its engine block says so, or its data or notes do)."""
    from clfeval.core import RankingSummary

    if bool((getattr(result, "engine", None) or {}).get("spilled")):
        return True
    notes = getattr(result, "notes", None) or []
    said = result.spilled if isinstance(result, RankingSummary) else spilled_in(result.to_dict())  # no JSON to build
    return bool(said) or any("spilled to disk" in n for n in notes)


def _block(eng: Any, mode: str, result: Any, spooled: bool, inp: Any = None) -> EngineInfo:
    memory = eng.budget if isinstance(eng, Local) else None
    extra: dict[str, Any] = {"partitions": len(inp.sources)} if isinstance(eng, Dask) and inp is not None else {}
    if spooled:
        extra["input"] = "spooled to temporary Parquet files"
    spilled = (spooled and isinstance(eng, Local)) or spilled_of(result)
    return engine_block(eng, mode, spilled=spilled, memory=memory, **extra)


R = TypeVar("R")


def with_engine(result: R, block: EngineInfo) -> R:
    """``result`` with its engine block (:func:`clfeval.engines._block.with_engine`, typed)."""
    return cast(R, _with_engine(result, block))


# --- ranking -------------------------------------------------------------------------------


def ranking(data: Data, scores: Column | None = None, *, gold: str | None = None, score: str = "score",
            positive: Label, input_format: str | None = None, encoding: str = "utf-8", normalize: str | None = None,
            engine: Local | Dask | str | None = None, progress: Progress | None = None,
            source: ScoreSource | None = None) -> RankingResult:
    """The exact ranking of one score column for ``positive``: ROC-AUC, average precision, curves.

    ``data`` is the gold labels (with ``scores``), a table (columns ``gold`` and ``score``) or a PATH.
    The result is one :class:`~clfeval.ops.ranking.RankingResult` on every engine (in memory, streamed, on
    Dask), its ``summary`` the binary :class:`~clfeval.core.RankingSummary`: the same JSON but for the engine
    block (and the ``external`` details of a ranking beyond memory).

    Parameters
    ----------
    data : array-like, table or PATH
        The gold labels (with ``scores``), a table (pandas, polars, pyarrow) or a PATH (file, directory, glob).
    scores : array-like, optional
        With arrays: one finite score per item, higher = more positive (probabilities, log-odds, margins).
    gold : str or None
        The gold column of a table or PATH (None: ``gold``).
    score : str
        The score column of a table or PATH.
    positive : label
        The positive class (matched by value or string form; it must occur); every other label is negative.
    input_format : str or None
        The format of a PATH: ``"csv"``, ``"tsv"``, ``"jsonl"``, ``"parquet"`` (None: from the extension, CSV for
        standard input).
    encoding : str
        The text encoding of CSV, TSV and JSONL: ``"utf-8"`` or ``"latin-1"``.
    normalize : str or None
        ``"nfc"`` to Unicode-normalise text labels (None: as read).
    engine : Local, Dask, "local", "dask" or None
        Where it runs (default ``Local()``: in memory when the input fits its budget, else streamed).
    progress : callable, optional
        A progress display of a read: given the input, a context manager yielding ``update(rows, bytes)`` or None.
    source : ScoreSource, optional
        With arrays: how messages name the score column and its items (the command line names file and row).

    Returns
    -------
    RankingResult
        Its ``summary`` the binary ranking; ``r.engine`` where it ran.

    Examples
    --------
    >>> r = ranking([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], positive=1)
    >>> r.roc_auc, r.engine.mode
    (0.75, 'memory')
    """
    from clfeval.ops.ranking import RankingResult
    from clfeval.scores import as_scores, ranking as in_memory

    def result(r: RankingSummary, mode: str, spooled: bool, inp: object = None) -> RankingResult:
        return RankingResult(r, engine=_block(eng, mode, r, spooled, inp))

    eng, data, g, score = _ranking_args(engine, data, scores, gold, score)
    if scores is not None:
        if _arrays_fit(eng, data, scores):
            return result(in_memory(data, scores, positive=positive, source=source).summary, "memory", False)
        data, g = _arrays_as_table(data, scores, score), "gold"
    cols = {"gold": g, "score": score}
    table = _fits(eng, data, cols)
    if table is not None:
        return result(in_memory(table.column(g), as_scores(table.column(score), name=score),
                                positive=positive).summary, "memory", False)
    with _as_path(eng, data, cols, input_format, encoding) as (inp, spooled):
        if isinstance(eng, Dask):
            from clfeval.dask import ranking as on_dask

            with eng.connected() as client:
                r = named_by(inp.name, lambda: on_dask(inp, gold=g, score=score, positive=positive, client=client,
                                                       memory=eng.memory))
            return result(r, "cluster", spooled, inp)
        return result(named_by(inp.name, lambda: _stream_ranking(inp, g, score, positive, eng, normalize, progress)),
                      "streamed", spooled)


def _ranking_args(engine: Any, data: Any, scores: Any, gold: Any, score: Any) -> tuple[Any, Any, str, str]:
    """Every argument of :func:`ranking` checked before any work: (engine, data, gold column, score column)."""
    eng = as_engine(engine)
    arrays = {"gold": data, "scores": scores} if scores is not None else {"data": data}
    data, cols = inputs.check_input(data, arrays, {"gold": (gold, "gold"), "score": (score, "score")})
    refuse_stdin(eng.name, {"data": inputs.is_stdin(data)})
    if isinstance(eng, Dask):
        eng.check()
    return eng, data, cols["gold"], cols["score"]


def _stream_ranking(inp: Any, gold: str, score: str, positive: Any, eng: Local, normalize: Any, progress: Any) -> Any:
    from clfeval.core import label_str
    from clfeval.engines._scorecols import score_columns
    from clfeval.evaluate import gold_and_scores
    from clfeval.io import iter_predictions
    from clfeval.scores import batch_is_positive, stream_ranking

    score_columns(inp, score, None)
    with _progress(progress, inp) as update:
        reader = iter_predictions(inp, gold=gold, pred=None, require_pred=False, extra=[score],
                                  extra_options=["--score"], normalize=normalize, progress=update)
        pairs = ((batch_is_positive(gl, positive), s) for gl, s in gold_and_scores(reader, score))
        return stream_ranking(pairs, positive=label_str(positive), memory=eng.budget, tmpdir=eng.tmpdir)


# --- threshold -----------------------------------------------------------------------------


def threshold(data: Data, scores: Scores | None = None, *, dev: Data | tuple[npt.ArrayLike, Scores] | None = None,
              gold: str | None = None, score: str | None = None, scores_prefix: str | None = None,
              positive: Label | None = None, objective: str | Objective = "f1", cost_fp: float = 1.0,
              cost_fn: float = 1.0, default_threshold: float | None = None, zero_division: float | str = 0,
              multilabel: bool = False, sep: str = "|", input_format: str | None = None, encoding: str = "utf-8",
              normalize: str | None = None, engine: Local | Dask | str | None = None, progress: Progress | None = None,
              by: By | None = None, by_bins: int | None = None, by_binning: str = "quantile", max_slices: int = 1_000,
              min_slice: int = 30, slice_metrics: Sequence[str] | None = None,
              slice_samples: int = 1_000) -> ThresholdResult:
    """A cut chosen on ``dev`` and applied to the test data, beside the default and the hindsight cut.

    ``by`` (issue 26): the cut chosen once on DEV overall, then reported per slice of the test data
    (:func:`clfeval.engines._slicescores.threshold_by`; the test data counted in one pass, streamed or on Dask).

    ``data`` is the test gold labels (with ``scores``; ``dev`` then a pair (gold, scores)), a table or a PATH
    (``dev`` then a table or PATH too; ``score`` names the score column, ``scores_prefix`` one column per label
    for multi-label data, one cut each).

    Parameters
    ----------
    data : array-like, table or PATH
        The test gold labels (with ``scores``), a table (pandas, polars, pyarrow) or a PATH.
    scores : array-like or mapping, optional
        With arrays: the test scores (one per item, higher = more positive), or label → scores (multi-label).
    dev : table, PATH or (gold, scores), optional
        The development data the cut is chosen on (a held-out slice of the training data, never the test
        data): a table or PATH with a table or PATH, a pair of arrays with arrays. Without it only the default
        and the hindsight cuts are shown.
    gold : str, optional
        The gold column of a table or PATH (default ``gold``; label sets with ``multilabel``).
    score, scores_prefix : str, optional
        The score column (needs ``positive``), or multi-label: score columns PREFIX<label>, one cut per label.
    positive : label, optional
        The positive class of ``score`` (or of ``scores``).
    objective : str or Objective
        What the cut maximises: ``"f1"`` (the default), ``"f0.5"``, ``"f2"`` (any ``f<beta>``), ``"cost"``,
        ``"precision>=X"`` or ``"recall>=X"``.
    cost_fp, cost_fn : float
        The cost of one false positive and of one false negative (objective ``"cost"``); default 1.0 each.
    default_threshold : float, optional
        The default cut shown first (default 0.5 when every score lies in [0, 1], else 0).
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios; default 0.
    multilabel : bool
        Gold cells are label sets (separated by ``sep``); use with ``scores_prefix``. Default False.
    sep : str
        The separator of labels within a multi-label cell; default ``"|"``.
    input_format : str or None
        The format of a PATH: ``"csv"``, ``"tsv"``, ``"jsonl"``, ``"parquet"`` (None: from the extension, CSV for
        standard input).
    encoding : str
        The text encoding of CSV, TSV and JSONL: ``"utf-8"`` or ``"latin-1"``.
    normalize : str or None
        ``"nfc"`` to Unicode-normalise text labels (None: as read).
    engine : Local, Dask, "local", "dask" or None
        Where it runs (default ``Local()``: in memory when the input fits its budget, else streamed).
    progress : callable, optional
        A progress display of a read: given the input, a context manager yielding ``update(rows, bytes)`` or None.
    by : str, sequence of str, or (with arrays) mapping name → values
        Slice columns: the cut chosen once on ``dev`` overall, then reported per slice of the test data (one
        ``score`` column only).
    by_bins : int, optional
        Cut numeric ``by`` columns into this many bins (edges stated in the output).
    by_binning : "quantile" or "uniform"
        The bins of ``by_bins``: quantiles of a first-pass sample (the default), or equal widths.
    max_slices : int
        Refuse more slices than this.
    min_slice : int
        Slices with fewer items are shown, not tested, and never called the worst.
    slice_metrics : sequence of str, optional
        The metrics tested across slices (default the recall, precision, FPR and accuracy of ``positive``).
    slice_samples : int
        Redraws of each permutation test of ``by`` (10 to 1,000,000); default 1,000.

    Returns
    -------
    ThresholdResult
        The default, dev-chosen and hindsight cuts measured on the test data; ``t.engine`` where it ran.

    Examples
    --------
    >>> t = threshold([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], positive=1)
    >>> t.hindsight.threshold, t.engine.mode
    (0.7, 'memory')
    """
    eng, data, dev, gold, score = _threshold_args(engine, data, scores, dev, gold=gold, score=score,
                                                  scores_prefix=scores_prefix, positive=positive, objective=objective,
                                                  cost_fp=cost_fp, cost_fn=cost_fn, multilabel=multilabel)
    if by is not None:
        from clfeval.engines._slicescores import threshold_by
        from clfeval.engines._slicing import check_by

        sets = check_by(by, multilabel=multilabel, scored=False, threshold=None, show_errors=0, max_slices=max_slices,
                        by_bins=by_bins)
        if scores_prefix is not None:
            raise UsageError(lambda o: f"option {o} slices the cut of one score column (--score).", params=["by"])
        choice = threshold(data, scores, dev=dev, gold=gold, score=score, positive=positive, objective=objective,
                           cost_fp=cost_fp, cost_fn=cost_fn, default_threshold=default_threshold,
                           zero_division=zero_division, sep=sep, input_format=input_format, encoding=encoding,
                           normalize=normalize, engine=engine, progress=progress)
        slicing = dict(sets=sets, by_bins=by_bins, by_binning=by_binning, max_slices=max_slices,
                       min_slice=min_slice, metrics=slice_metrics, slice_samples=slice_samples)
        return threshold_by(choice, data, scores, gold=gold, score=score, by=by, slicing=slicing,
                            zero_division=zero_division, input_format=input_format, encoding=encoding,
                            engine=engine, normalize=normalize)
    common = dict(objective=objective, cost_fp=cost_fp, cost_fn=cost_fn, default_threshold=default_threshold,
                  zero_division=zero_division)
    if scores is not None:
        return _threshold_arrays(eng, data, scores, dev, positive, common)
    score_name = "score" if score is None else score
    table, dev_table = _fits(eng, data, {"gold": gold, "score": score}), None
    if table is not None and scores_prefix is None and (dev is None or not inputs.is_path(dev)):
        dev_table = None if dev is None else _fits(eng, dev, {"gold": gold, "score": score})
        if dev is None or dev_table is not None:
            dev_pair = None if dev_table is None else (dev_table.column(gold), dev_table.column(score_name))
            return _threshold_arrays(eng, table.column(gold), table.column(score_name), dev_pair, positive, common)
    cols = {"gold": gold, "score": score}
    with _as_path(eng, data, cols, input_format, encoding) as (t, spooled), \
            _as_dev(eng, dev, cols, input_format, encoding) as (d, dev_spooled):
        spooled = spooled or dev_spooled
        reading = dict(encoding=encoding, normalize=normalize, sep=sep)
        if isinstance(eng, Dask):
            got = _threshold_dask(eng, t, d, gold, score_name, positive, normalize, common)
            return with_engine(got, _block(eng, "cluster", got, spooled, t))
        from clfeval.engines import _thresholdsteps as steps

        r: ThresholdResult
        if scores_prefix is None:
            r = steps.streamed(t, d, gold, score_name, positive, reading, eng.budget, common, progress, eng.tmpdir)
        else:
            r = steps.streamed_labels(t, d, gold, scores_prefix, reading, eng.budget, common, progress, eng.tmpdir)
        return with_engine(r, _block(eng, "streamed", r, spooled))


def _threshold_args(engine: Any, data: Any, scores: Any, dev: Any, *, gold: Any, score: Any, scores_prefix: Any,
                    positive: Any, objective: Any, cost_fp: Any, cost_fn: Any,
                    multilabel: bool) -> tuple[Any, Any, Any, str, Any]:
    """Every argument of :func:`threshold` checked before any work: (engine, data, dev, gold column, score column;
    the score column None with ``scores_prefix``)."""
    from clfeval.scores import parse_objective

    eng = as_engine(engine)
    parse_objective(objective, cost_fp=cost_fp, cost_fn=cost_fn)
    columns = {"gold": (gold, "gold"), "score": (score, None), "scores_prefix": (scores_prefix, None)}
    tabular = inputs.is_path(data) or inputs.is_table(data)
    if scores is not None and tabular:
        raise UsageError(lambda s: f"option {s} gives the scores of arrays of gold labels; with a table or PATH, name "
                                   f"the score column with score.", params=["scores"])
    data, cols = inputs.check_input(data, {"gold": data, "scores": scores}, columns, mappings=("scores",))
    if dev is not None and not tabular:
        if not isinstance(dev, (tuple, list)) or len(dev) != 2:
            raise UsageError(lambda d: f"option {d} with arrays is a pair (dev gold labels, dev scores); got "
                                       f"{type(dev).__name__}.", params=["dev"])
        inputs.check_input(None, {"dev gold": dev[0], "dev scores": dev[1]}, {}, mappings=("dev scores",))
    elif dev is not None:
        if not (inputs.is_path(dev) or inputs.is_table(dev)):
            raise UsageError(lambda d: f"option {d} with a table or PATH is a table or PATH too; got "
                                       f"{type(dev).__name__}.", params=["dev"])
        dev, _ = inputs.check_input(dev, {}, columns, what="the dev table")
    _check_threshold(eng, data, dev, scores, cols["score"], scores_prefix, positive, multilabel)
    return eng, data, dev, cols["gold"], cols["score"]


@contextlib.contextmanager
def _as_dev(eng: Any, dev: Any, cols: dict[str, Any], fmt: Any, encoding: str) -> Iterator[tuple[Any, bool]]:
    if dev is None:
        yield None, False
        return
    with _as_path(eng, dev, cols, fmt, encoding) as got:
        yield got


def _check_threshold(eng: Any, data: Any, dev: Any, scores: Any, score: Any, prefix: Any, positive: Any,
                     multilabel: bool) -> None:
    from clfeval.engines._scorecols import check_score_options

    if scores is None:
        check_score_options(score, prefix)
    if (score is not None or scores is not None) and positive is None:
        raise UsageError(lambda s, p: f"option {s} needs {p}: the class whose scores are thresholded.",
                         params=["score", "positive"])
    if prefix is not None and not multilabel:
        raise UsageError(lambda p, m: f"option {p} chooses one cut per label, which needs {m} (label sets); "
                                      f"multiclass items take the label of the highest score instead of a cut.",
                         params=["scores_prefix", "multilabel"])
    if multilabel and score is not None:
        raise UsageError(lambda p: f"multi-label data needs one score column per label: use {p}, not --score.",
                         params=["scores_prefix"])
    if inputs.is_path(data) and inputs.is_path(dev) and _same_file(data, dev):
        raise UsageError(lambda d: f"option {d} names the test file itself ({str(data)!r}): a cut chosen on the test "
                                   f"labels is the hindsight cut, which this command already shows. Give a "
                                   f"development file (a held-out slice of the training data).", params=["dev"])
    refuse("threshold", eng.name, {"scores_prefix": prefix is not None})
    refuse_stdin(eng.name, {"data": inputs.is_stdin(data), "dev": inputs.is_stdin(dev)})
    if isinstance(eng, Dask):
        eng.check()


def _same_file(a: Any, b: Any) -> bool:
    from pathlib import Path

    try:
        return Path(a).exists() and Path(b).exists() and Path(a).resolve() == Path(b).resolve()
    except TypeError:
        return False


def _threshold_arrays(eng: Any, gold: Any, scores: Any, dev: Any, positive: Any,
                      common: dict[str, Any]) -> ThresholdResult:
    from clfeval.scores import choose_threshold

    dev_gold, dev_scores = dev if dev is not None else (None, None)
    if _arrays_fit(eng, gold, scores):
        r = choose_threshold(gold, scores, positive=positive, dev_gold=dev_gold, dev_scores=dev_scores, **common)
        return with_engine(r, _block(eng, "memory", r, False))
    dev_table = None if dev is None else _arrays_as_table(dev_gold, dev_scores, "score")
    return threshold(_arrays_as_table(gold, scores, "score"), dev=dev_table, score="score", positive=positive,
                     engine=eng, **common)


def _threshold_dask(eng: Dask, t: Any, d: Any, gold: str, score: str, positive: Any, normalize: Any,
                    common: dict[str, Any]) -> ThresholdResult:
    from clfeval.dask import threshold as on_dask
    from clfeval.engines._thresholdsteps import score_sources

    src, dev_src = score_sources(t, d, score)
    with eng.connected() as client:
        r: ThresholdResult = on_dask(t, d, gold=gold, score=score, positive=positive, client=client, source=src,
                                     dev_source=dev_src, normalize=normalize, **common)
    return r


# --- calibration ---------------------------------------------------------------------------


def calibration(data: Data, probs: Scores | None = None, *, gold: str | None = None, prob: str | None = None,
                probs_prefix: str | None = None, positive: Label | None = None, labels: Sequence[Label] | None = None,
                bins: int = 10, strategy: str = "uniform", edges: str = "clfeval", input_format: str | None = None,
                encoding: str = "utf-8", normalize: str | None = None, engine: Local | Dask | str | None = None,
                progress: Progress | None = None, by: By | None = None, by_bins: int | None = None,
                by_binning: str = "quantile", max_slices: int = 1_000, min_slice: int = 30) -> Calibration:
    """Reliability table, ECE, MCE, Brier score and log loss of predicted probabilities.

    ``by`` (issue 26): the same, per slice of the data (binary probabilities of one column), from per-slice sums on
    every engine: in memory, streamed within the budget, or on Dask.

    ``data`` is the gold labels (with ``probs``: the probability of ``positive``, or an (n, K) matrix with
    ``labels``), a table (``prob`` names the column of ``positive``'s probability, ``probs_prefix`` one
    column per class for top-label calibration) or a PATH.

    Parameters
    ----------
    data : array-like, table or PATH
        The gold labels (with ``probs``), a table (pandas, polars, pyarrow) or a PATH.
    probs : array-like or mapping, optional
        With arrays: the probability of ``positive`` per item, or an (n, K) matrix (columns in ``labels``' order).
    gold : str, optional
        The gold column of a table or PATH (default ``gold``).
    prob : str, optional
        The column of the probability of ``positive`` (binary).
    probs_prefix : str, optional
        Multiclass: probability columns PREFIX<class>, one per class (top-label calibration).
    positive : label, optional
        The class whose probability ``prob`` (or a one-column ``probs``) gives.
    labels : sequence of labels, optional
        With an (n, K) matrix ``probs``: the classes of its columns.
    bins : int
        The number of bins (1 to 100,000); default 10.
    strategy : "uniform" or "quantile"
        Equal-width bins (the default), or equal-mass bins.
    edges : "clfeval" or "sklearn"
        ``"clfeval"`` (the default): left-closed bins [k/B, (k+1)/B), empty bins kept; ``"sklearn"``: as
        scikit-learn's ``calibration_curve``, right-closed on ``numpy.linspace(0, 1, B+1)``, empty bins dropped.
    input_format : str or None
        The format of a PATH: ``"csv"``, ``"tsv"``, ``"jsonl"``, ``"parquet"`` (None: from the extension, CSV for
        standard input).
    encoding : str
        The text encoding of CSV, TSV and JSONL: ``"utf-8"`` or ``"latin-1"``.
    normalize : str or None
        ``"nfc"`` to Unicode-normalise text labels (None: as read).
    engine : Local, Dask, "local", "dask" or None
        Where it runs (default ``Local()``: in memory when the input fits its budget, else streamed).
    progress : callable, optional
        A progress display of a read: given the input, a context manager yielding ``update(rows, bytes)`` or None.
    by : str, sequence of str, or (with arrays) mapping name → values
        Slice columns: ECE, MCE, Brier score and log loss per slice (one probability column only).
    by_bins : int, optional
        Cut numeric ``by`` columns into this many bins (edges stated in the output).
    by_binning : "quantile" or "uniform"
        The bins of ``by_bins``: quantiles of a first-pass sample (the default), or equal widths.
    max_slices : int
        Refuse more slices than this.
    min_slice : int
        Slices with fewer items are shown, not tested, and never called the worst.

    Returns
    -------
    Calibration
        The reliability table and measures (per slice with ``by``); ``c.engine`` where it ran.

    Examples
    --------
    >>> c = calibration([1, 0, 1, 0], [0.9, 0.2, 0.6, 0.4], positive=1, bins=2)
    >>> c.n, c.engine.mode
    (4, 'memory')
    """
    from clfeval.scores import reliability

    eng, data, gold, prob = _calibration_args(engine, data, probs, gold=gold, prob=prob, probs_prefix=probs_prefix,
                                              positive=positive, labels=labels, bins=bins, strategy=strategy,
                                              edges=edges)
    if by is not None:
        from clfeval.engines._slicescores import calibration_by
        from clfeval.engines._slicing import check_by

        sets = check_by(by, multilabel=False, scored=False, threshold=None, show_errors=0, max_slices=max_slices,
                        by_bins=by_bins)
        if probs_prefix is not None or (probs is not None and getattr(probs, "ndim", 1) != 1):
            raise UsageError(lambda o: f"option {o} slices the calibration of one probability column.",
                             params=["by"])
        def overall() -> Any:  # the calibration of every item, when it is not counted in the slices' pass
            return calibration(data, probs, gold=gold, prob=prob, positive=positive, labels=labels, bins=bins,
                               strategy=strategy, edges=edges, input_format=input_format, encoding=encoding,
                               normalize=normalize, engine=engine, progress=progress)

        slicing = dict(sets=sets, by_bins=by_bins, by_binning=by_binning, max_slices=max_slices, min_slice=min_slice)
        return calibration_by(overall, data, probs, gold=gold, prob=prob, by=by, slicing=slicing, positive=positive,
                              bins=bins, strategy=strategy, edges=edges, input_format=input_format, encoding=encoding,
                              engine=engine, normalize=normalize, progress=progress)
    column = "prob" if prob is None else prob
    if probs is not None:
        one = getattr(probs, "ndim", 1) == 1 and not isinstance(probs, dict)
        if isinstance(eng, Local) and (not one or _arrays_fit(eng, data, probs)):
            r = reliability(data, probs, positive=positive, labels=labels, bins=bins, strategy=strategy, edges=edges)
            return with_engine(r, _block(eng, "memory", r, False))
        data, gold, prob = _arrays_as_table(data, probs, column), "gold", column
    g = gold
    table = _fits(eng, data, {"gold": g, "prob": prob}) if probs_prefix is None else None
    if table is not None:
        from clfeval.scores import as_scores

        r = reliability(table.column(g), as_scores(table.column(column), name=column), positive=positive, bins=bins,
                        strategy=strategy, edges=edges)
        return with_engine(r, _block(eng, "memory", r, False))
    with _as_path(eng, data, {"gold": g, "prob": prob}, input_format, encoding) as (inp, spooled):
        if isinstance(eng, Dask):
            from clfeval.dask import calibration as on_dask

            with eng.connected() as client:
                got: Calibration = named_by(inp.name, lambda: on_dask(inp, gold=g, prob=column, positive=positive,
                                                                      bins=bins, client=client, normalize=normalize))
            return with_engine(got, _block(eng, "cluster", got, spooled, inp))
        r = _calibrate_stream(inp, g, prob, probs_prefix, positive, bins, strategy, normalize, eng, progress, edges)
        return with_engine(r, _block(eng, "streamed", r, spooled))


def _calibration_args(engine: Any, data: Any, probs: Any, *, gold: Any, prob: Any, probs_prefix: Any, positive: Any,
                      labels: Any, bins: Any, strategy: Any, edges: Any) -> tuple[Any, Any, str, Any]:
    """Every argument of :func:`calibration` checked before any work: (engine, data, gold column, probability
    column; None with ``probs_prefix`` or arrays)."""
    eng = as_engine(engine)
    data, cols = inputs.check_input(data, {"gold": data, "probs": probs, "labels": labels},
                                    {"gold": (gold, "gold"), "prob": (prob, None),
                                     "probs_prefix": (probs_prefix, None)}, mappings=("probs",))
    check_calibration_options(eng, data=data, probs=probs, prob=cols["prob"], probs_prefix=probs_prefix,
                              positive=positive, bins=bins, strategy=strategy, edges=edges)
    return eng, data, cols["gold"], cols["prob"]


def check_calibration_options(engine: Any, *, data: Any = None, probs: Any = None, prob: str | None = None,
                              probs_prefix: str | None = None, positive: Any = None, bins: int = 10,
                              strategy: str = "uniform", edges: str = "clfeval", **_: Any) -> None:
    """The options of :func:`calibration` checked against each other and the engine, before any work."""
    from clfeval.engines._scorecols import check_score_options
    from clfeval.scores import check_bins

    eng = as_engine(engine)
    check_bins(bins, option="bins")
    if probs is None:
        check_score_options(prob, probs_prefix, names=("prob", "probs_prefix"))
    if prob is not None and positive is None:
        raise UsageError(lambda p, q: f"option {p} needs {q}: the class whose probability the column gives.",
                         params=["prob", "positive"])
    if probs_prefix is not None and positive is not None:
        raise UsageError(lambda q, p: f"option {q} goes with --prob; {p} calibrates the top label of every item.",
                         params=["positive", "probs_prefix"])
    refuse("calibration", eng.name, {"probs_prefix": probs_prefix is not None,
                                     "strategy=quantile": strategy != "uniform", "edges=sklearn": edges != "clfeval"})
    refuse_stdin(eng.name, {"data": inputs.is_stdin(data)})
    if isinstance(eng, Dask):
        eng.check()


def check_threshold_options(data: Any, dev: Any = None, *, engine: Any = None, score: str | None = None,
                            scores_prefix: str | None = None, positive: Any = None, objective: Any = "f1",
                            cost_fp: float = 1.0, cost_fn: float = 1.0, multilabel: bool = False,
                            **_: Any) -> None:
    """The options of :func:`threshold` checked against each other and the engine, before any file is read."""
    from clfeval.scores import parse_objective

    parse_objective(objective, cost_fp=cost_fp, cost_fn=cost_fn)
    _check_threshold(as_engine(engine), data, dev, None, score, scores_prefix, positive, multilabel)


def _calibrate_stream(inp: Any, gold: str, prob: Any, prefix: Any, positive: Any, bins: int, strategy: str,
                      normalize: Any, eng: Local, progress: Any, edges: str = "clfeval") -> Calibration:
    from clfeval.engines._scorecols import score_columns
    from clfeval.io import iter_predictions
    from clfeval.scores import ScoreSource, calibrate_batches

    extra, _ = score_columns(inp, prob, prefix, names=("prob", "probs_prefix"))
    with _progress(progress, inp) as update:
        reader = iter_predictions(inp, gold=gold, pred=None, require_pred=False, extra=extra,
                                  extra_options=["--prob"] if prob is not None else None, normalize=normalize,
                                  progress=update)
        source = ScoreSource(name=prob, prefix=prefix or "", data=f"file {inp.name!r}")
        r: Calibration = calibrate_batches(reader, prob=prob, prefix=prefix, positive=positive, bins=bins,
                                           strategy=strategy, source=source, memory=eng.budget, tmpdir=eng.tmpdir,
                                           edges=edges)
        return r
