"""``clfeval.ranking``, ``clfeval.threshold`` and ``clfeval.calibration``: the score operations on any input
and engine.

Each takes arrays (gold labels and scores), a table with column names, or a PATH, and ``engine=``, which
they reach only through its runner (:mod:`clfeval.engines._runner`). Arrays and tables the runner holds are
evaluated in memory (:func:`clfeval.scores._curves.ranking`, :func:`clfeval.scores._thresholds.choose_threshold`,
:func:`clfeval.scores._calibration.reliability`); larger ones are spooled to Parquet and run like a PATH:
the ranking and the threshold streamed on this machine (:func:`clfeval.scores._external.stream_ranking`,
``choose_threshold_batches``) or on a cluster (:mod:`clfeval.engines.dask`); the calibration as its one
accumulator (:class:`clfeval.ops.calibration.CalibrationSums`), which the runner runs on either
(:meth:`~clfeval.engines.Runner.accumulate`). The result carries the runner's engine block.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from clfeval.core import EngineInfo
from clfeval.engines import Dask, Local, Runner, runner
from clfeval.errors import UsageError
from clfeval.front._block import spilled_in, with_engine as _with_engine
from clfeval.front._reportsteps import named_by
from clfeval.io import inputs
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
def _as_path(run: Runner, data: Any, columns: dict[str, Any], fmt: Any,
             encoding: str) -> Iterator[tuple[Any, bool]]:
    """A table or arrays spooled to Parquet (yields the resolved PATH and True), or a PATH resolved (False)."""
    if inputs.is_path(data):
        yield inputs.resolve(data, input_format=fmt, encoding=encoding), False
        return
    with run.spooled(inputs.columns_of(data, columns)) as inp:
        yield inp, True


def _fits(run: Runner, data: Any, columns: dict[str, Any]) -> Any:
    """The table of a table input when the runner holds it in memory (else None)."""
    if inputs.is_path(data):
        return None
    table = inputs.columns_of(data, columns)  # a pyarrow Table already (checked by check_input): no copy
    return table if run.holds(table) else None


def _arrays_as_table(gold: Any, scores: Any, score: str) -> Any:
    import pyarrow as pa

    return pa.table({"gold": _column(gold, "gold"), score: _column(scores, "scores")})


def _column(values: Any, name: str) -> Any:
    """``inputs.as_column``; a 1-D NumPy boolean array packed by NumPy (the same array, 100× ``pa.array``'s speed)."""
    import numpy as np
    import pyarrow as pa

    if not (isinstance(values, np.ndarray) and values.dtype == np.bool_ and values.ndim == 1):
        return inputs.as_column(values, name)
    return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(np.packbits(values, bitorder="little"))])


def _matrix_as_table(gold: Any, probs: Any, labels: Any) -> Any:
    """Gold labels and one probability column per class (a mapping, or a matrix whose classes are ``labels``) as
    a table of ``gold`` and ``p:<class>`` (the values checked as numbers first, naming the classes)."""
    import pyarrow as pa

    from clfeval.core import label_str
    from clfeval.scores import score_matrix

    p, classes = score_matrix(probs, labels=labels)
    return pa.table({"gold": inputs.as_column(gold, "gold"),
                     **{f"p:{label_str(c)}": p[:, j] for j, c in enumerate(classes)}})


def _arrays_fit(run: Runner, gold: Any, scores: Any) -> bool:
    """Whether arrays stay in memory: the runner holds their table, or they are values that are no plain columns
    (label sets, one column per class), which need every item in memory where the runner can (the in-memory
    functions check them themselves; elsewhere building their table says what is wrong)."""
    import pyarrow as pa

    try:
        table = _arrays_as_table(gold, scores, "score")
    except (ValueError, TypeError, pa.ArrowException):
        return run.holds(None, needed=True)
    return run.holds(table)


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


def _block(run: Runner, mode: str, result: Any, spooled: bool, inp: Any = None) -> EngineInfo:
    """The runner's engine block of ``result`` (``inp``: the PATH it read, whose files a cluster counts)."""
    return run.block(mode, spilled=spilled_of(result), spooled=spooled, parts=None if inp is None else len(inp.sources))


R = TypeVar("R")


def with_engine(result: R, block: EngineInfo) -> R:
    """``result`` with its engine block (:func:`clfeval.front._block.with_engine`, typed)."""
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
        return RankingResult(r, engine=_block(run, mode, r, spooled, inp))

    run, data, g, score = _ranking_args(engine, data, scores, gold, score)
    if scores is not None:
        if _arrays_fit(run, data, scores):
            return result(in_memory(data, scores, positive=positive, source=source).summary, "memory", False)
        data, g = _arrays_as_table(data, scores, score), "gold"
    cols = {"gold": g, "score": score}
    table = _fits(run, data, cols)
    if table is not None:
        return result(in_memory(table.column(g), as_scores(table.column(score), name=score),
                                positive=positive).summary, "memory", False)
    with _as_path(run, data, cols, input_format, encoding) as (inp, spooled):
        from clfeval.scores import RankingSpec

        def local(budget: int, tmpdir: str | None) -> Any:
            return _stream_ranking(inp, g, score, positive, budget, tmpdir, normalize, progress)

        spec = RankingSpec.of_column(g, score, positive, normalize=normalize)
        r, mode = named_by(inp.name, lambda: run.ranked(inp, spec, local=local))
        return result(r, mode, spooled, inp)


def _ranking_args(engine: Any, data: Any, scores: Any, gold: Any, score: Any) -> tuple[Runner, Any, str, str]:
    """Every argument of :func:`ranking` checked before any work: (runner, data, gold column, score column)."""
    run = runner(engine)
    arrays = {"gold": data, "scores": scores} if scores is not None else {"data": data}
    data, cols = inputs.check_input(data, arrays, {"gold": (gold, "gold"), "score": (score, "score")})
    run.admit("ranking", stdin={"data": inputs.is_stdin(data)})
    return run, data, cols["gold"], cols["score"]


def _stream_ranking(inp: Any, gold: str, score: str, positive: Any, budget: int, tmpdir: str | None, normalize: Any,
                    progress: Any) -> Any:
    from clfeval.core import label_str
    from clfeval.evaluate import gold_and_scores
    from clfeval.front._scorecols import score_columns
    from clfeval.io import iter_predictions
    from clfeval.scores import batch_is_positive, stream_ranking

    score_columns(inp, score, None)
    with _progress(progress, inp) as update:
        reader = iter_predictions(inp, gold=gold, pred=None, require_pred=False, extra=[score],
                                  extra_options=["--score"], normalize=normalize, progress=update)
        pairs = ((batch_is_positive(gl, positive), s) for gl, s in gold_and_scores(reader, score))
        return stream_ranking(pairs, positive=label_str(positive), memory=budget, tmpdir=tmpdir)


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
    (:func:`clfeval.front._slicescores.threshold_by`; the test data counted in one pass, streamed or on Dask).

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
    run, data, dev, gold, score = _threshold_args(engine, data, scores, dev, gold=gold, score=score,
                                                  scores_prefix=scores_prefix, positive=positive, objective=objective,
                                                  cost_fp=cost_fp, cost_fn=cost_fn, multilabel=multilabel)
    if by is not None:
        from clfeval.front._slicescores import threshold_by
        from clfeval.front._slicing import check_by

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
    if scores is not None and multilabel and isinstance(scores, Mapping):  # one cut per label, in memory
        from clfeval.scores import choose_label_thresholds

        dev_gold, dev_scores = cast(tuple[Any, Any], dev) if dev is not None else (None, None)
        r = choose_label_thresholds(data, scores, dev_gold=dev_gold, dev_scores=dev_scores, sep=sep,
                                    **cast(dict[str, Any], common))
        return with_engine(r, _block(run, "memory", r, False))
    if scores is not None:
        return _threshold_arrays(run, engine, data, scores, dev, positive, common)
    score_name = "score" if score is None else score
    table, dev_table = _fits(run, data, {"gold": gold, "score": score}), None
    if table is not None and scores_prefix is None and (dev is None or not inputs.is_path(dev)):
        dev_table = None if dev is None else _fits(run, dev, {"gold": gold, "score": score})
        if dev is None or dev_table is not None:
            dev_pair = None if dev_table is None else (dev_table.column(gold), dev_table.column(score_name))
            return _threshold_arrays(run, engine, table.column(gold), table.column(score_name), dev_pair, positive,
                                     common)
    cols = {"gold": gold, "score": score}
    with _as_path(run, data, cols, input_format, encoding) as (t, spooled), \
            _as_dev(run, dev, cols, input_format, encoding) as (d, dev_spooled):
        spooled = spooled or dev_spooled
        reading = dict(encoding=encoding, normalize=normalize, sep=sep)

        def local(budget: int, tmpdir: str | None) -> ThresholdResult:
            from clfeval.front import _thresholdsteps as steps

            if scores_prefix is None:
                r: ThresholdResult = steps.streamed(t, d, gold, score_name, positive, reading, budget, common,
                                                    progress, tmpdir)
                return r
            r = steps.streamed_labels(t, d, gold, scores_prefix, reading, budget, common, progress, tmpdir)
            return r

        r, mode = run.ranked(t, _threshold_spec(t, d, gold, score_name, positive, normalize, common), local=local)
        return with_engine(r, _block(run, mode, r, spooled, t))


def _threshold_args(engine: Any, data: Any, scores: Any, dev: Any, *, gold: Any, score: Any, scores_prefix: Any,
                    positive: Any, objective: Any, cost_fp: Any, cost_fn: Any,
                    multilabel: bool) -> tuple[Runner, Any, Any, str, Any]:
    """Every argument of :func:`threshold` checked before any work: (runner, data, dev, gold column, score column;
    the score column None with ``scores_prefix``)."""
    from clfeval.scores import parse_objective

    run = runner(engine)
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
    _check_threshold(run, data, dev, scores, cols["score"], scores_prefix, positive, multilabel)
    return run, data, dev, cols["gold"], cols["score"]


@contextlib.contextmanager
def _as_dev(run: Runner, dev: Any, cols: dict[str, Any], fmt: Any, encoding: str) -> Iterator[tuple[Any, bool]]:
    if dev is None:
        yield None, False
        return
    with _as_path(run, dev, cols, fmt, encoding) as got:
        yield got


def _check_threshold(run: Runner, data: Any, dev: Any, scores: Any, score: Any, prefix: Any, positive: Any,
                     multilabel: bool) -> None:
    from clfeval.front._scorecols import check_score_options

    if scores is None:
        check_score_options(score, prefix)
    per_label = multilabel and isinstance(scores, Mapping)  # arrays: label → scores, one cut per label
    if (score is not None or (scores is not None and not per_label)) and positive is None:
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
    run.admit("threshold", {"scores_prefix": prefix is not None or per_label},
              stdin={"data": inputs.is_stdin(data), "dev": inputs.is_stdin(dev)})


def _same_file(a: Any, b: Any) -> bool:
    from pathlib import Path

    try:
        return Path(a).exists() and Path(b).exists() and Path(a).resolve() == Path(b).resolve()
    except TypeError:
        return False


def _threshold_arrays(run: Runner, engine: Any, gold: Any, scores: Any, dev: Any, positive: Any,
                      common: dict[str, Any]) -> ThresholdResult:
    """Arrays in memory when the runner holds them; else their table, through :func:`threshold` again with the
    same ``engine=``."""
    from clfeval.scores import choose_threshold

    dev_gold, dev_scores = dev if dev is not None else (None, None)
    if _arrays_fit(run, gold, scores):
        r = choose_threshold(gold, scores, positive=positive, dev_gold=dev_gold, dev_scores=dev_scores, **common)
        return with_engine(r, _block(run, "memory", r, False))
    dev_table = None if dev is None else _arrays_as_table(dev_gold, dev_scores, "score")
    return threshold(_arrays_as_table(gold, scores, "score"), dev=dev_table, score="score", positive=positive,
                     engine=engine, **common)


def _threshold_spec(t: Any, d: Any, gold: str, score: str, positive: Any, normalize: Any,
                    common: dict[str, Any]) -> Any:
    """The threshold choice as an exact order beyond memory (:meth:`Runner.ranked` on a cluster): the score
    columns checked present and named for messages when it runs."""
    from clfeval.front._thresholdsteps import score_sources
    from clfeval.scores import ThresholdSpec

    return ThresholdSpec(gold, score, positive, d, dict(common), normalize,
                         sources=lambda: score_sources(t, d, score))


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

    run, data, gold, prob = _calibration_args(engine, data, probs, gold=gold, prob=prob, probs_prefix=probs_prefix,
                                              positive=positive, labels=labels, bins=bins, strategy=strategy,
                                              edges=edges)
    if by is not None:
        from clfeval.front._slicescores import calibration_by
        from clfeval.front._slicing import check_by

        sets = check_by(by, multilabel=False, scored=False, threshold=None, show_errors=0, max_slices=max_slices,
                        by_bins=by_bins)
        if probs_prefix is not None or (probs is not None and getattr(probs, "ndim", 1) != 1):
            raise UsageError(lambda o: f"option {o} slices the calibration of one probability column.",
                             params=["by"])
        def overall(source: Any) -> Any:  # the calibration of every item (``source``: the resolved PATH, or None)
            return calibration(data if source is None else source,
                               probs, gold=gold, prob=prob, positive=positive, labels=labels, bins=bins,
                               strategy=strategy, edges=edges, input_format=input_format, encoding=encoding,
                               normalize=normalize, engine=engine, progress=progress)

        slicing = dict(sets=sets, by_bins=by_bins, by_binning=by_binning, max_slices=max_slices, min_slice=min_slice)
        return calibration_by(overall, data, probs, gold=gold, prob=prob, by=by, slicing=slicing, positive=positive,
                              bins=bins, strategy=strategy, edges=edges, input_format=input_format, encoding=encoding,
                              engine=engine, normalize=normalize, progress=progress)
    column = "prob" if prob is None else prob
    if probs is not None:
        one = getattr(probs, "ndim", 1) == 1 and not isinstance(probs, dict)
        if run.holds(None, needed=not one) or _arrays_fit(run, data, probs):
            r = reliability(data, probs, positive=positive, labels=labels, bins=bins, strategy=strategy, edges=edges)
            return with_engine(r, _block(run, "memory", r, False))
        if one:
            data, gold, prob = _arrays_as_table(data, probs, column), "gold", column
        else:  # one column per class: a table of columns p:<class>, shipped like any table
            data, gold, probs_prefix = _matrix_as_table(data, probs, labels), "gold", "p:"
    g = gold
    table = _fits(run, data, {"gold": g, "prob": prob}) if probs_prefix is None else None
    if table is not None:
        from clfeval.scores import as_scores

        r = reliability(table.column(g), as_scores(table.column(column), name=column), positive=positive, bins=bins,
                        strategy=strategy, edges=edges)
        return with_engine(r, _block(run, "memory", r, False))
    with _as_path(run, data, {"gold": g, "prob": prob}, input_format, encoding) as (inp, spooled):
        return _calibrate_path(run, inp, spooled, g, prob, probs_prefix, positive, bins, strategy, edges, normalize,
                               progress)


def _calibration_args(engine: Any, data: Any, probs: Any, *, gold: Any, prob: Any, probs_prefix: Any, positive: Any,
                      labels: Any, bins: Any, strategy: Any, edges: Any) -> tuple[Runner, Any, str, Any]:
    """Every argument of :func:`calibration` checked before any work: (runner, data, gold column, probability
    column; None with ``probs_prefix`` or arrays)."""
    run = runner(engine)
    data, cols = inputs.check_input(data, {"gold": data, "probs": probs, "labels": labels},
                                    {"gold": (gold, "gold"), "prob": (prob, None),
                                     "probs_prefix": (probs_prefix, None)}, mappings=("probs",))
    _check_calibration(run, data=data, probs=probs, prob=cols["prob"], probs_prefix=probs_prefix, positive=positive,
                       bins=bins, strategy=strategy, edges=edges)
    return run, data, cols["gold"], cols["prob"]


def check_calibration_options(engine: Any, *, data: Any = None, probs: Any = None, prob: str | None = None,
                              probs_prefix: str | None = None, positive: Any = None, bins: int = 10,
                              strategy: str = "uniform", edges: str = "clfeval", **_: Any) -> None:
    """The options of :func:`calibration` checked against each other and the engine, before any work."""
    _check_calibration(runner(engine), data=data, probs=probs, prob=prob, probs_prefix=probs_prefix, positive=positive,
                       bins=bins, strategy=strategy, edges=edges)


def _check_calibration(run: Runner, *, data: Any, probs: Any, prob: str | None, probs_prefix: str | None,
                       positive: Any, bins: int, strategy: str, edges: str) -> None:
    from clfeval.front._scorecols import check_score_options
    from clfeval.scores import check_bins

    check_bins(bins, option="bins")
    if probs is None:
        check_score_options(prob, probs_prefix, names=("prob", "probs_prefix"))
    if prob is not None and positive is None:
        raise UsageError(lambda p, q: f"option {p} needs {q}: the class whose probability the column gives.",
                         params=["prob", "positive"])
    if probs_prefix is not None and positive is not None:
        raise UsageError(lambda q, p: f"option {q} goes with --prob; {p} calibrates the top label of every item.",
                         params=["positive", "probs_prefix"])
    matrix = probs is not None and (isinstance(probs, dict) or getattr(probs, "ndim", 1) != 1)  # every class's
    run.admit("calibration", {"probs_prefix": probs_prefix is not None or matrix,
                              "strategy=quantile": strategy != "uniform", "edges=sklearn": edges != "clfeval"},
              stdin={"data": inputs.is_stdin(data)})


def check_threshold_options(data: Any, dev: Any = None, *, engine: Any = None, score: str | None = None,
                            scores_prefix: str | None = None, positive: Any = None, objective: Any = "f1",
                            cost_fp: float = 1.0, cost_fn: float = 1.0, multilabel: bool = False,
                            **_: Any) -> None:
    """The options of :func:`threshold` checked against each other and the engine, before any file is read."""
    from clfeval.scores import parse_objective

    parse_objective(objective, cost_fp=cost_fp, cost_fn=cost_fn)
    _check_threshold(runner(engine), data, dev, None, score, scores_prefix, positive, multilabel)


def _calibrate_path(run: Runner, inp: Any, spooled: bool, gold: str, prob: Any, prefix: Any, positive: Any,
                    bins: int, strategy: str, edges: str, normalize: Any, progress: Any) -> Calibration:
    """The calibration of a resolved PATH: its accumulator (:class:`~clfeval.ops.calibration.CalibrationSums`)
    run by the engine over every item (streamed here, mapped over partitions on a cluster), then, binary, the
    ROC-AUC and average precision of the same items from the exact ranking (the multi-pass exception: its own
    pass, :func:`ranking`)."""
    from functools import partial

    from clfeval.front._scorecols import score_columns
    from clfeval.ops.calibration import CalibrationSums
    from clfeval.scores import ProbabilityColumns, ScoreSource, check_bins

    extra, _ = score_columns(inp, prob, prefix, names=("prob", "probs_prefix"))
    source = ScoreSource(name=prob, prefix=prefix or "", data=f"file {inp.name!r}")
    read = ProbabilityColumns(positive=positive, prob=prob, prefix=prefix, source=source)
    # equal-mass bins keep every item until finish(): their edges are exact order statistics, the ranking's
    # multi-pass exception (core/_rangeplan.py); the capability table keeps them off Dask
    make = partial(CalibrationSums.empty, check_bins(bins), strategy, edges, read=read)
    with run.session():  # one connection for both passes on a cluster
        sums, mode, _ = run.accumulate(inp, make, gold=gold, pred=None, extra=extra,
                                       extra_options=["--prob"] if prob is not None else [],
                                       scores=[prob] if prob is not None else [], unique=False,
                                       reading={"normalize": normalize}, progress=progress)
        sums.check()  # no items, a positive that never occurs: said before the ranking reads anything
        ranked = None
        if sums.kind == "binary":
            # the runner passed on as it is (runner() returns it): the ranking runs where the sums ran
            ranked = ranking(inp, gold=gold, score=prob, positive=positive, normalize=normalize,
                             engine=cast(Any, run)).summary
    r = sums.finish(ranked, memory=run.memory)
    return with_engine(r, _block(run, mode, r, spooled, inp))
