"""``clfeval.compare``: is the difference between systems real? Any input, any engine.

Inputs are arrays (the gold labels first, then each system's predictions or scores), tables or PATHs
(one per system, matched by id, else by row). Count metrics stream their joint tables (the id join within
the memory budget) or run on Dask; score metrics, DeLong's test and the binned mode run locally.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from clfeval.engines import Dask, Local, Runner, runner
from clfeval.errors import UsageError
from clfeval.front._block import with_engine
from clfeval.io import inputs
from clfeval.ops.compare import Compared

if TYPE_CHECKING:  # the input types, named for type checkers only (nothing heavy is imported at run time)
    import os
    from typing import TypeAlias

    import numpy
    import pandas
    import polars
    import pyarrow
    from numpy.typing import ArrayLike

    from clfeval.ops.label_issues import LabelIssues

    #: A label as given: text, a whole number or a flag.
    Label: TypeAlias = str | int | bool
    #: One system's (or the gold labels') values: an array, a table with column names, or a PATH.
    Input: TypeAlias = (ArrayLike | pandas.DataFrame | polars.DataFrame | pyarrow.Table | str | os.PathLike[str]
                        | Mapping[str, ArrayLike])

__all__ = ["compare", "resampling_steps", "check_decision", "check_binned"]


def compare(*systems: Input, gold: ArrayLike | str | None = None, pred: str | Sequence[str] = "pred",
            score: str | None = None, id: str | None = None, metric: str | Callable[..., float] = "accuracy",
            test: str = "bootstrap", samples: int = 10_000, seed: int | numpy.random.Generator = 0,
            alpha: float = 0.05, ci: float = 0.95, ci_method: str | None = None,
            labels: Sequence[Label] | None = None, positive: Label | None = None,
            zero_division: float | str = 0, beta: float = 1.0, names: Sequence[str] | None = None,
            baseline: str | None = None, alternative: str = "greater", margin: float | None = None,
            scores_prefix: str | None = None, repeat: str | None = None, score_bins: int | None = None,
            score_binning: str = "quantile", input_format: str | None = None, encoding: str = "utf-8",
            normalize: str | None = None, engine: Local | Dask | str | None = None,
            progress: Callable[[int, int], None] | None = None,
            by: str | Sequence[str] | Mapping[str, ArrayLike] | None = None, by_bins: int | None = None,
            by_binning: str = "quantile", max_slices: int = 1_000, min_slice: int = 30,
            label_issues: LabelIssues | str | os.PathLike[str] | None = None) -> Compared:
    """Compare systems on the same test items with a paired test.

    ``compare(gold, pred_a, pred_b)`` compares arrays (more arrays: every pair, or each against
    ``baseline``); ``compare(a, b)`` compares two tables or PATHs (columns ``gold``, ``pred`` or ``score``,
    ``id``), matched by id, else by row; ``compare(table, pred=["nb", "lr"])`` compares the prediction columns of
    one table, one system each, named by its column. Every argument is checked before any work (empty inputs, a
    column named twice, sets and mappings as label sequences are refused, naming them); tables are named in
    messages as given ("the first table"), never by a temporary file.

    Returns one type, :class:`~clfeval.ops.compare.Compared`, whatever the inputs: the fields every comparison
    has, and one typed part set (``pair``, ``many``, ``delong``, ``delong_ovr``, ``noninferiority`` or
    ``sliced``; ``kind`` names it) with what the test adds; ``r.p_value``, ``r.ci``, ``r.verdict``, ... read it.

    Parameters
    ----------
    *systems : array-like, table, PATH or mapping
        The inputs: arrays (the gold labels first unless ``gold`` gives them, then each system's predictions or
        scores; a mapping label → scores for DeLong's one-vs-rest test), or one table or PATH per system (pandas,
        polars, pyarrow; a file, directory, glob or ``-``) with the same gold labels, matched by id, else by row.
    gold : array-like or str, optional
        With arrays, the gold labels; with tables or PATHs, the gold column (default ``gold``, the same in each).
    pred : str or sequence of str
        The predictions column of each table or PATH (default ``pred``); a list of two columns or more of one
        table compares them, one system each, named by its column.
    score : str, optional
        The score column of each table or PATH, compared with ``metric`` ``roc_auc`` or ``average_precision``.
    id : str, optional
        The item-id column; items are matched by id (by row when no input has one; a PATH's ``id`` when present).
    metric : str or callable
        A count-table metric (``accuracy``, the default; ``error_rate``, ``balanced_accuracy``, ``mcc``,
        ``kappa``, ``macro_f1``, ``micro_*``, ``weighted_*``, ``f1:LABEL`` …), a score metric (``roc_auc``,
        ``average_precision``; needs ``positive``), or a callable ``metric(gold, pred) -> float``.
    test : "bootstrap", "randomization", "mcnemar" or "delong"
        Paired bootstrap (the default; the 2δ rule), approximate randomization, McNemar (accuracy and the
        metrics equal to it), or DeLong's test (``roc_auc`` of ``score``, or one-vs-rest with ``scores_prefix``).
    samples : int
        Replicates b of the resampling tests (1 to 1,000,000); default 10,000.
    seed : int or numpy.random.Generator
        The random seed: the same seed gives the same numbers; default 0.
    alpha : float
        The significance level of the verdict; default 0.05.
    ci : float
        The level of the bootstrap confidence intervals; default 0.95.
    ci_method : "bca", "percentile" or None
        The two-sided interval of δ shown as the estimate (both are computed): default BCa, the best measured
        coverage. The verdict follows the test and its own one-sided bound.
    labels : sequence of labels, optional
        The label set (default every label in the gold labels or any system; every system scored over it).
    positive : label, optional
        The positive class of a score metric.
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios inside the metric; default 0.
    beta : float
        The beta of the ``*_fbeta`` metrics; default 1.0.
    names : sequence of str, optional
        How the systems are called in the result and the verdict, one each (default ``A``, ``B``, ``C``, … for
        arrays, on every engine; the stems of PATHs).
    baseline : str, optional
        Compare each other system (as A) with this one (its name); default every pair is compared.
    alternative : "greater" or "two-sided"
        H1: A better than B (one-sided; the default), or A and B differ (two-sided: DeLong's test only).
    margin : float, optional
        Non-inferiority by the paired bootstrap: is A not worse than B by more than ``margin`` (in the metric's
        units)? Refused with randomization and McNemar.
    scores_prefix : str, optional
        With ``test="delong"``: score columns PREFIX<label>, one per class (one-vs-rest, Holm-adjusted).
    repeat : str, optional
        For out-of-fold files of a repeated protocol (a ``repeat`` column): use the rows of this repeat.
    score_bins : int, optional
        Approximate ROC-AUC from this many score bins (2 to 1,000,000), with its exact error bound (arrays of
        scores too: compared as score columns). Default exact.
    score_binning : "quantile" or "uniform"
        The edges of ``score_bins``: quantiles of the scores (the default), or equal widths.
    input_format : "csv", "tsv", "jsonl", "parquet" or None
        The format of the PATHs (default from the extension; CSV for standard input, ``-``).
    encoding : "utf-8" or "latin-1"
        The text encoding of CSV, TSV and JSONL input (Parquet text is always UTF-8); default ``"utf-8"``.
    normalize : "nfc" or None
        Unicode-normalise text labels (NFC) so that labels that only print alike are one class; default None.
    engine : Local, Dask, "local", "dask" or None
        Where it runs (default ``Local()``; count metrics stream their joint tables, the id join within the
        memory budget, or run on Dask; score metrics, DeLong's test and ``score_bins`` run locally).
    progress : callable, optional
        ``progress(done, total)`` after each chunk of replicates; default none.
    by : str, sequence of str, or (with arrays) mapping name → values
        Slice columns: A vs B within every slice from its joint table, with the test and ``samples``, p-values
        adjusted with Holm and Benjamini–Yekutieli, Simpson's paradox named when it occurs (``r.sliced``).
    by_bins : int, optional
        Cut numeric ``by`` columns into this many bins (edges stated in the output).
    by_binning : "quantile" or "uniform"
        The bins of ``by_bins``: quantiles of a first-pass sample (the default), or equal widths.
    max_slices : int
        Refuse more slices than this (all ``by`` columns together); default 1,000.
    min_slice : int
        Slices with fewer items are shown, not tested, and never called the worst; default 30.
    label_issues : LabelIssues or PATH, optional
        A :func:`clfeval.label_issues` result (or the PATH of its JSON, or of its ``--flagged`` CSV or Parquet
        file): the same comparison again with its flagged items removed, and with their gold label replaced by the
        suggested one (``r.robustness``: does the verdict survive?). Items matched by ``id``; two tables or PATHs, a
        count metric, not DeLong's test; in memory.

    Returns
    -------
    Compared
        The fields every comparison has and its one typed part; ``r.engine`` where it ran.

    Examples
    --------
    >>> r = compare(["a", "b", "a", "b"], ["a", "b", "a", "a"], ["a", "a", "b", "a"], samples=200)
    >>> r.kind, r.pair.a, r.pair.b, r.engine.mode
    ('pair', 0.75, 0.25, 'memory')
    """
    return _compare(*systems, gold=gold, pred=pred, score=score, id=id, metric=metric, test=test,
                    samples=samples, seed=seed, alpha=alpha, ci=ci, ci_method=ci_method, labels=labels,
                    positive=positive, zero_division=zero_division, beta=beta, names=names,
                    baseline=baseline, alternative=alternative, margin=margin, scores_prefix=scores_prefix,
                    repeat=repeat, score_bins=score_bins, score_binning=score_binning,
                    input_format=input_format, encoding=encoding, normalize=normalize, engine=engine,
                    progress=progress, by=by, by_bins=by_bins, by_binning=by_binning,
                    max_slices=max_slices, min_slice=min_slice, label_issues=label_issues)


def _compare(*systems: Any, gold: Any, pred: Any, score: str | None, id: str | None, metric: Any, test: str,
             samples: int, seed: Any, alpha: float, ci: float, ci_method: str | None, labels: Sequence[Any] | None,
             positive: Any, zero_division: Any, beta: float, names: Sequence[str] | None, baseline: str | None,
             alternative: str, margin: float | None, scores_prefix: str | None, repeat: str | None,
             score_bins: int | None, score_binning: str, input_format: str | None, encoding: str,
             normalize: str | None, engine: Any, progress: Callable[[int, int], None] | None, by: Any,
             by_bins: int | None, by_binning: str, max_slices: int, min_slice: int,
             label_issues: Any = None) -> Compared:
    """The front door's work: the test's result, with its engine block."""
    from clfeval.significance import with_estimate

    eng, estimate, checked, cols, names = _compare_args(systems, engine=engine, gold=gold, pred=pred, score=score,
                                                        id=id, scores_prefix=scores_prefix, names=names,
                                                        ci_method=ci_method, test=test)
    systems = tuple(checked)
    gold, pred, score, id = cols["gold"], cols["pred"], cols["score"], cols["id"]
    flagged = None
    if label_issues is not None:
        flagged = _check_label_issues(label_issues, systems, id, {
            "test delong": test == "delong", "by": by is not None, "score": score is not None,
            "scores_prefix": scores_prefix is not None, "margin": margin is not None,
            "score_bins": score_bins is not None,
            "a metric that is not a count metric": _scored(["x"], metric, test) or not isinstance(metric, str)})
    if by is not None:  # issue 26: A vs B within every slice (engines.slicing)
        from clfeval.front._slicecompare import compare_by_front
        from clfeval.front._slicing import check_by

        sets = check_by(by, multilabel=False, scored=score is not None or scores_prefix is not None, threshold=None,
                        show_errors=0, max_slices=max_slices, by_bins=by_bins)
        slicing = dict(sets=sets, by_bins=by_bins, by_binning=by_binning, max_slices=max_slices, min_slice=min_slice)
        common = dict(metric=metric, test=test, samples=samples, seed=seed, alpha=alpha, ci=ci, labels=labels,
                      zero_division=zero_division, beta=beta)
        return compare_by_front(eng, systems, gold, pred, id, by, common, slicing, names, input_format=input_format,
                                encoding=encoding, normalize=normalize)
    if all(inputs.is_path(s) or inputs.is_table(s) for s in systems) and systems:
        return with_estimate(_tabular(
            eng, list(systems), gold, pred, score, id, metric, test, samples, seed, alpha, ci, zero_division,
            beta, names, baseline, alternative, margin, scores_prefix, repeat, score_bins, score_binning, input_format,
            encoding, normalize, positive, progress, flagged), estimate)
    if gold is None:
        gold, *rest = systems
    else:
        rest = list(systems)
    scored = _scored(rest, metric, test)
    eng.admit("compare", {"score": scored, "score_bins": score_bins is not None,
                          "more than two inputs": len(rest) != 2, "margin": margin is not None,
                          "alternative=two-sided": alternative != "greater", "test=delong": test == "delong"})
    nm = _array_names(len(rest), names)
    if score_bins is not None or not (scored or eng.holds(None, needed=_per_class(rest)) or _fits(eng, gold, rest)):
        # a table per system (the row as id): the binned stream (any size), or the count metrics' joint tables
        score_col = None if score_bins is None else "score"
        if score_col is not None:  # before the tables are built: arrays of scores per class are refused by name
            check_binned(len(rest), metric, test, alternative, margin, score_col, positive)
        r = _tabular(eng, _tables(gold, rest, score_col or "pred"), "gold", "pred", score_col, "id", metric, test,
                     samples, seed, alpha, ci, zero_division, beta, nm, baseline, alternative, margin, None, None,
                     score_bins, score_binning, None, "utf-8", None, positive, progress)
        return with_estimate(r, estimate) if ci_method is not None else r
    from clfeval.significance import compare as compare_two, compare_many

    # in memory: they fit, or an option ranks every item (scores: paired resampling of rankings, DeLong)
    common = dict(metric=metric, test=test, samples=samples, seed=seed, alpha=alpha, ci=ci, labels=labels,
                  positive=positive, zero_division=zero_division, beta=beta, progress=progress)
    if len(rest) == 2:
        r = compare_two(gold, rest[0], rest[1], names=tuple(nm), alternative=alternative, margin=margin,
                        **common)
    else:
        r = compare_many(gold, dict(zip(nm, rest, strict=False)), baseline=baseline, **common)
    r = with_estimate(r, estimate) if ci_method is not None else r  # arrays: as before unless asked
    return cast(Compared, with_engine(r, eng.block("memory")))


def _compare_args(systems: tuple[Any, ...], *, engine: Any, gold: Any, pred: Any, score: Any, id: Any,
                  scores_prefix: Any, names: Any, ci_method: Any, test: str) -> tuple[Any, str, list[Any],
                                                                                     dict[str, Any], Any]:
    """Every input of :func:`compare` checked before any work: (engine, the estimate's method, the systems, their
    column names, the systems' names).

    Tables and PATHs: each table with rows and no column named twice, named in messages as the user gave it
    (``the first table``, ...); ``pred`` a list of columns of one table makes one system of each column, named by
    it. Arrays (the gold labels first, unless ``gold=`` gives them): sequences in a fixed order, with items.
    """
    from clfeval.significance import check_estimate

    eng = runner(engine)
    estimate = check_estimate(ci_method, test)
    if names is not None and (isinstance(names, str) or not all(isinstance(n, str) for n in names)):
        raise UsageError(lambda n: f"option {n} is a list of the systems' names (text); got {names!r}.",
                         params=["names"])
    if isinstance(pred, (list, tuple)):
        return (eng, estimate, *_columns_as_systems(systems, gold, list(pred), score, id, scores_prefix, names))
    columns = {"gold": (gold, "gold"), "pred": (pred, "pred"), "score": (score, None), "id": (id, None)}
    if systems and all(inputs.is_path(s) or inputs.is_table(s) for s in systems):
        checked: list[Any] = []
        cols: dict[str, Any] = {}
        for s, what in zip(systems, _table_names(systems), strict=True):
            data, cols_i = inputs.check_input(s, {}, columns, what=what)
            checked.append(data)
            cols = cols or cols_i  # a pandas label 0 is '0' in every table
        return eng, estimate, checked, cols, names
    given = ([gold] if gold is not None else []) + list(systems)
    arrays = {("gold" if i == 0 else f"system {i}"): v for i, v in enumerate(given)}
    inputs.check_input(None, {k: v for k, v in arrays.items() if getattr(v, "ndim", 1) == 1}, {},
                       mappings=tuple(k for k in arrays if k != "gold"))  # one score column per class: a mapping
    return eng, estimate, list(systems), {"gold": gold, "pred": pred, "score": score, "id": id}, names


def _table_names(systems: Sequence[Any]) -> list[str]:
    """How messages name each input that is a table (as the user gave them, never a temporary file): "the first
    table", "the second table", ...; "the table given as input 3" among PATHs."""
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
    tables = all(inputs.is_table(s) for s in systems)
    return [f"the {words[i]} table" if tables and i < len(words) else f"the table given as input {i + 1}"
            for i in range(len(systems))]


def _columns_as_systems(systems: tuple[Any, ...], gold: Any, preds: list[Any], score: Any, id: Any, prefix: Any,
                        names: Any) -> tuple[list[Any], dict[str, Any], list[str]]:
    """``compare(table, pred=["nb", "lr"])``: one system per prediction column of one table, named by it."""
    if len(systems) != 1 or not inputs.is_table(systems[0]):
        raise UsageError(lambda p: f"option {p} as a list names the prediction columns of one table (pandas, polars "
                                   f"or pyarrow), one system each; got {len(systems)} input(s)"
                                   f"{'' if len(systems) != 1 else ' that is not a table'}. For files give one PATH "
                                   f"per system.", params=["pred"])
    if score is not None or prefix is not None:
        raise UsageError(lambda p, s: f"option {p} as a list compares prediction columns (count metrics); {s} "
                                      f"compares one score column per input.", params=["pred", "score"])
    data = systems[0]
    table, cols = inputs.check_input(data, {}, {"gold": (gold, "gold"), "id": (id, None)})
    pcols = [str(inputs.column_name(data, p, "pred")) for p in preds]
    if len(pcols) < 2:
        raise UsageError(lambda p: f"option {p} as a list names two prediction columns or more (one system each); "
                                   f"got {len(pcols)}.", params=["pred"])
    twice = sorted({c for c in pcols if pcols.count(c) > 1})
    if twice:
        raise UsageError(lambda p: f"option {p} names the column {twice[0]!r} twice; each column is one system.",
                         params=["pred"])
    for c in pcols:
        inputs.columns_of(table, {"gold": cols["gold"], "pred": c, "id": cols["id"]})
    fresh = "pred"
    while fresh in table.column_names and fresh not in pcols:
        fresh = "_" + fresh
    one = [table.drop_columns([c for c in pcols if c != p]) for p in pcols]
    one = [t.rename_columns([fresh if c == p else c for c in t.column_names]) for t, p in zip(one, pcols, strict=True)]
    return one, {"gold": cols["gold"], "pred": fresh, "score": None, "id": cols["id"]}, list(names or pcols)


def resampling_steps(n: int, *, samples: int = 10_000, test: str = "bootstrap", baseline: str | None = None,
                     **_: Any) -> int:
    """The replicates a comparison of ``n`` systems draws (what a progress bar counts)."""
    pairs = (n - 1) if baseline is not None else n * (n - 1) // 2
    return samples * pairs * (2 if test == "randomization" else 1)


def _per_class(rest: list[Any]) -> bool:
    """Systems given as one score column per class (a mapping or a 2-D array): compared in memory."""
    return any(isinstance(p, dict) or getattr(p, "ndim", 1) != 1 for p in rest)


def _fits(eng: Runner, gold: Any, rest: list[Any]) -> bool:
    """Whether the arrays run in memory in this process: their table within the budget, or no plain columns
    (label sets: in memory, checked there) where every item can be in memory. An engine that runs elsewhere never
    holds them (nor builds their table here)."""
    import pyarrow as pa

    if not eng.holds(None, needed=True):
        return False
    try:
        cols = {"gold": inputs.as_column(gold, "gold")}
        cols.update({f"p{i}": inputs.as_column(p, "pred") for i, p in enumerate(rest)})
        table = pa.table(cols)
    except (ValueError, TypeError, pa.ArrowException):  # no plain columns (label sets): in memory, checked there
        return True
    return eng.holds(table)


def _scored(rest: list[Any], metric: Any, test: str) -> bool:
    """Whether the arrays are one score column per system (a score metric, or DeLong's test), not one score column
    per class (a mapping or a 2-D array: ``scores_prefix``'s form)."""
    from clfeval.significance import SCORE_METRICS

    return not _per_class(rest) and (test == "delong" or (isinstance(metric, str) and metric in SCORE_METRICS))


def _array_names(n: int, names: Sequence[str] | None) -> list[str]:
    """The systems' names with arrays, on every route: as given, else A, B, C, … (S27, S28, … beyond Z)."""
    return list(names) if names else [chr(ord("A") + i) if i < 26 else f"S{i + 1}" for i in range(n)]


def _tables(gold: Any, rest: list[Any], col: str = "pred") -> list[Any]:
    """Arrays as one table per system: gold, the system's column (``pred``, or ``score`` for scores) and the row as
    id."""
    import pyarrow as pa

    g = inputs.as_column(gold, "gold")
    ids = pa.array(range(len(g)), pa.int64())
    return [pa.table({"id": ids, "gold": g, col: inputs.as_column(p, "pred")}) for p in rest]


def _tabular(eng: Runner, systems: list[Any], gold: str, pred: str, score: str | None, id_col: str | None, metric: Any,
             test: str, samples: int, seed: Any, alpha: float, ci: float, zero_division: Any, beta: float,
             names: Sequence[str] | None, baseline: str | None, alternative: str, margin: float | None,
             prefix: str | None, repeat: str | None, bins: int | None, binning: str, fmt: str | None, encoding: str,
             normalize: str | None, positive: Any, progress: Any, flagged: Any = None) -> Compared:
    from clfeval.core import check_beta, check_probability, check_samples
    from clfeval.front import _comparesteps as steps
    from clfeval.significance import SCORE_METRICS, check_metric

    if len(systems) < 2:
        raise UsageError(f"compare needs at least two systems (A B ...); got {len(systems)}.")
    samples = check_samples(samples, option="samples")
    check_probability(alpha, option="alpha")
    check_probability(ci, option="ci")
    check_beta(beta, option="beta")
    check_metric(metric)
    check_decision(len(systems), test, metric, alternative, margin, score, prefix)
    if bins is not None:
        check_binned(len(systems), metric, test, alternative, margin, score, positive)
    scored = metric in SCORE_METRICS
    eng.admit("compare", {"score": score is not None, "scores_prefix": prefix is not None,
                          "margin": margin is not None, "alternative=two-sided": alternative != "greater",
                          "repeat": repeat is not None, "more than two inputs": len(systems) != 2,
                          "test=delong": test == "delong", "score_bins": bins is not None,
                          "label_issues": flagged is not None},
              stdin={"data": any(inputs.is_stdin(s) for s in systems)})
    if scored and not score and prefix is None:
        raise UsageError(lambda s: f"metric {metric!r} compares scores: name the score column with {s}.",
                         params=["score"])
    with _resolved(eng, systems, gold, pred, score, id_col, prefix, fmt, encoding) as (ins, spooled):
        nm = list(names) if names else steps.names_of(ins)
        if baseline is not None:
            matches = [n for n, i in zip(nm, ins, strict=False)
                       if baseline in (n, i.given, i.stem) or _tail(i.given) == baseline]
            if not matches:
                raise UsageError(lambda b: f"option {b} names {baseline!r}, which is none of the systems: "
                                           f"{', '.join(nm)}.", params=["baseline"])
            baseline = matches[0]
        common = dict(metric=metric, test=test, samples=samples, seed=seed, alpha=alpha, ci=ci,
                      zero_division=zero_division, beta=beta)
        if len(ins) == 2:
            common.update(alternative=alternative, margin=margin)

        def local(budget: int, tmpdir: str | None) -> tuple[Any, str]:
            if prefix is not None:
                return _delong_ovr(ins, nm, baseline, gold, prefix, id_col, encoding, normalize, repeat,
                                   common), "memory"
            if bins is not None:
                assert score is not None  # check_binned needs --score
                return steps.binned(ins, nm, baseline, gold, score, positive, id_col, repeat, normalize, progress,
                                    common, budget, bins, binning), "streamed"
            assert score is not None  # refused above without --score (or --scores-prefix, handled before)
            return steps.scores_in_memory(ins, nm, baseline, gold, score, positive, id_col, repeat, normalize,
                                          progress, common), "memory"

        def cluster(client: Any, memory: Any) -> tuple[Any, str]:  # refused by the capability table (admit)
            raise AssertionError("scores, score_bins and scores_prefix run locally")

        if prefix is None and bins is None and not scored:  # count metrics: the joint tables, on any engine
            r, mode = steps.counted(eng, ins, nm, baseline, gold, pred, id_col, repeat, normalize, progress, common)
            if flagged is not None:  # does the verdict survive the likely label errors? (in memory)
                r = dataclasses.replace(r, robustness=steps.robustness(
                    ins, nm, baseline, gold, pred, id_col, repeat, normalize, common, flagged, r))
        else:
            r, mode = eng.over_path(local, cluster)
    said = [*(getattr(r, "notes", None) or []), str((getattr(r, "signature", None) or {}).get("engine", ""))]
    spilled = any("partition" in n and "disk" in n for n in said)  # the id join went to disk
    return cast(Compared, with_engine(r, eng.block(mode, spilled=spilled, spooled=spooled)))


def _check_label_issues(result: Any, systems: tuple[Any, ...], id: Any, refused: dict[str, bool]) -> Any:
    """``label_issues=`` checked before any work: an id column, two tables or PATHs, a count-table comparison; the
    flagged items as (id, suggested label)."""
    from clfeval.front._comparesteps import flagged_of

    if id is None:
        raise UsageError(lambda o, d: f"option {o} matches the flagged items to the compared items by id: give {d} "
                                      f"(the item-id column of the inputs and of the label-issues result), or leave "
                                      f"out {o}.", params=["label_issues", "id"])
    if len(systems) != 2 or not all(inputs.is_path(s) or inputs.is_table(s) for s in systems):
        raise UsageError(lambda o: f"option {o} compares two systems given as tables or PATHs with an id column "
                                   f"(A B); got {len(systems)} input(s){'' if len(systems) != 2 else ' as arrays'}.",
                         params=["label_issues"])
    what = next((w for w, on in refused.items() if on), None)
    if what is not None:
        raise UsageError(lambda o: f"option {o} re-runs the count-table comparison of two systems (bootstrap, "
                                   f"randomization or McNemar of a count metric); {what} is not offered with it "
                                   f"(DeLong's test and score metrics rank scores, not labels).",
                         params=["label_issues"])
    return flagged_of(result)


def _tail(given: str) -> str:
    from pathlib import Path

    return Path(given).name


@contextlib.contextmanager
def _resolved(eng: Runner, systems: list[Any], gold: str, pred: str, score: Any, id_col: Any, prefix: Any, fmt: Any,
              encoding: str) -> Iterator[tuple[list[Any], bool]]:
    """Every system as a resolved PATH (tables spooled to Parquet)."""
    with contextlib.ExitStack() as stack:
        out, spooled = [], False
        for s, what in zip(systems, _table_names(systems), strict=True):
            if inputs.is_path(s):
                out.append(inputs.resolve(s, input_format=fmt, encoding=encoding))
                continue
            table = inputs.as_table(s) if prefix is not None else inputs.columns_of(
                s, {"gold": gold, "pred": None if score else pred, "score": score, "id": id_col})
            out.append(stack.enter_context(eng.spooled(table, what)))
            spooled = True
        yield out, spooled


def _delong_ovr(ins: list[Any], nm: list[str], baseline: Any, gold: str, prefix: str, id_col: Any, encoding: str,
                normalize: Any, repeat: Any, common: dict[str, Any]) -> Any:
    from clfeval.front._comparesteps import ordered, read_score_columns
    from clfeval.significance import compare as compare_two

    two, names = ordered(ins, nm, baseline)
    gold_col, cols = read_score_columns(two, gold=gold, prefix=prefix, id_col=id_col, encoding=encoding,
                                        normalize=normalize, repeat=repeat)
    keep = {k: common[k] for k in ("metric", "test", "alpha", "ci", "alternative")}
    return compare_two(gold_col, cols[0], cols[1], names=(names[0], names[1]), **keep)


def check_decision(n: int, test: str, metric: str, alternative: str, margin: float | None, score: str | None,
                   prefix: str | None) -> None:
    """The options of DeLong's test, the margin and the alternative, checked before any file is read."""
    from clfeval.significance import check_delong, check_margin, one_sided

    if test == "delong":
        check_delong(metric, margin)
        if n != 2:
            raise UsageError(lambda t: f"{t} delong compares two systems (A_FILE B_FILE); got {n} files.",
                             params=["test"])
        if (score is None) == (prefix is None):
            raise UsageError(lambda t, s, p, q: f"{t} delong ranks scores: give {s} COLUMN (with {q}) or {p} PREFIX "
                                                f"(one column PREFIX<label> per class: one-vs-rest), exactly one of "
                                                f"them.", params=["test", "score", "scores_prefix", "positive"])
        return
    if prefix is not None:
        raise UsageError(lambda p, t, s, q: f"option {p} applies to {t} delong (one-vs-rest ROC-AUCs); for other tests "
                                            f"give one {s} column with {q}.",
                         params=["scores_prefix", "test", "score", "positive"])
    one_sided(test, alternative)
    if margin is not None:
        check_margin(margin, test)
        _check_margin_range(margin, metric)
        if n != 2:
            raise UsageError(lambda m: f"option {m} tests one new system against one old one (NEW_FILE OLD_FILE); "
                                       f"got {n} files.", params=["margin"])


def _check_margin_range(margin: float, metric: str) -> None:
    """A margin no wider than the metric's range (a margin of 1e308 is no margin at all)."""
    from clfeval.core import find

    found = find(metric)
    lo, hi = found[0].range if found is not None else (-math.inf, math.inf)
    width = hi - lo if math.isfinite(hi - lo) else 1e6
    if margin > width:
        raise UsageError(lambda m: f"option {m} (how much worse still counts as not worse) must be a number from 0 "
                                   f"to {width:g}, the width of the range of {metric} ({lo:g} to {hi:g}); got "
                                   f"{margin:g}.", params=["margin"])


def check_binned(n: int, metric: str, test: str, alternative: str, margin: float | None, score: str | None,
                 positive: Any) -> None:
    """The options of a binned comparison (``score_bins``), checked before any file is read."""
    def err(text: Callable[..., str], *params: str) -> UsageError:
        return UsageError(text, params=["score_bins", *params])

    if metric != "roc_auc":
        raise err(lambda b, m: f"option {b} compares binned ROC-AUCs: give {m} roc_auc (got {metric!r}); count "
                               f"metrics need no bins.", "metric")
    if score is None or positive is None:
        raise err(lambda b, s, p: f"option {b} bins a score column: name it with {s}, and the class it ranks with "
                                  f"{p}.", "score", "positive")
    if n != 2:
        raise err(lambda b: f"option {b} compares two systems (A_FILE B_FILE); got {n} files.")
    if test not in ("bootstrap", "randomization"):
        raise err(lambda b, t: f"option {b} runs the paired bootstrap or randomization on the binned table; "
                               f"{t} {test} is not offered there.", "test")
    if margin is not None or alternative != "greater":
        raise err(lambda b, m, a: f"option {b} tests 'A better than B' (one-sided, no {m}); leave out {m} and "
                                  f"{a} two-sided.", "margin", "alternative")
