"""``clfeval.power``: is my test set big enough? Any input, any engine.

Two inputs (A and B on the same items, matched by id, else by row): the smallest difference the test set detects
(exact McNemar power for the metrics of right and wrong items, the paired bootstrap standard error for the other
count metrics) and the items needed for ``delta``. One input: the width of the metric's interval now and the items
needed for ``width``. Both need counts only: the joint (gold, A, B) table (``compare``'s accumulator,
:class:`clfeval.significance.JointCounts`, by :meth:`clfeval.engines.Runner.accumulate_joined`) or the confusion
table (:class:`clfeval.evaluate.ReportCounts` by :meth:`~clfeval.engines.Runner.accumulate`), counted on any
engine; the statistics (:mod:`clfeval.significance._power`) run on the table here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from clfeval.engines import Dask, Local, Runner, runner
from clfeval.errors import UsageError
from clfeval.front._block import with_engine
from clfeval.io import inputs
from clfeval.ops.power import PowerResult

if TYPE_CHECKING:  # the input types, named for type checkers only
    import os
    from typing import TypeAlias

    import numpy
    import pandas
    import polars
    import pyarrow
    from numpy.typing import ArrayLike

    #: One system's predictions: an array (``gold=`` then gives the gold labels), a table with column names, or a
    #: PATH.
    Input: TypeAlias = ArrayLike | pandas.DataFrame | polars.DataFrame | pyarrow.Table | str | os.PathLike[str]

__all__ = ["power"]


def power(a: Input, b: Input | None = None, *, gold: ArrayLike | str | None = None, pred: str = "pred",
          id: str | None = None, metric: str = "accuracy", delta: float | None = None, width: float | None = None,
          alpha: float = 0.05, power: float = 0.8, alternative: str = "greater", level: float = 0.95,
          samples: int = 2000, seed: int | numpy.random.Generator = 0, zero_division: float | str = 0,
          beta: float = 1.0, unit: str = "items", repeat: str | None = None, input_format: str | None = None,
          encoding: str = "utf-8", normalize: str | None = None,
          engine: Local | Dask | str | None = None) -> PowerResult:
    """Is the test set big enough? The smallest detectable difference, the items needed, the interval width.

    ``power(a, b)``: two systems on the same items (tables or PATHs with columns ``gold``, ``pred`` and ``id``,
    matched by id, else by row; or two arrays of predictions with ``gold=`` the gold labels): the smallest
    difference in ``metric`` the test detects at ``alpha`` with ``power`` — exact McNemar power for accuracy, the
    error rate and the micro averages, the paired bootstrap standard error (a normal approximation) for the other
    count metrics — and, with ``delta``, the number of items needed to detect it. ``power(a)``: one system: the
    width of the metric's percentile bootstrap interval now and, with ``width``, the items for that width. Every
    argument is checked before any work.

    Parameters
    ----------
    a : array-like, table or PATH
        The (first) system's predictions.
    b : array-like, table or PATH, optional
        The second system's predictions, on the same items; None (the default): one system.
    gold : array-like or str, optional
        With arrays, the gold labels (required); with tables or PATHs, the gold column (default ``gold``).
    pred : str
        The predictions column of the tables or PATHs; default ``pred``.
    id : str, optional
        The item-id column of the tables or PATHs (``id`` when the files have one; else items are matched by row).
    metric : str
        A count metric (``accuracy``, the default; ``macro_f1``, ``f1:LABEL``, ...; ``clfeval metrics --input
        counts``).
    delta : float, optional
        Two systems: the difference to detect; the result gives the items needed for it.
    width : float, optional
        One system: the interval width wanted; the result gives the items needed for it.
    alpha : float
        The level of the test; default 0.05.
    power : float
        The power wanted; default 0.8.
    alternative : "greater" or "two-sided"
        H1: A better than B (one-sided, the default), or A and B differ.
    level : float
        One system: the level of the interval (default 0.95).
    samples : int
        Bootstrap replicates (the bootstrap standard error, the interval width); default 2,000.
    seed : int or numpy.random.Generator
        The random seed of the bootstrap; default 0.
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios inside the metric; default 0.
    beta : float
        The beta of the ``*_fbeta`` metrics; default 1.0.
    unit : str
        What the items are called in the explanation (``stories``, ``tweets``); default ``items``.
    repeat : str, optional
        Out-of-fold files of a repeated protocol (a ``repeat`` column): use the rows of this repeat.
    input_format : "csv", "tsv", "jsonl", "parquet" or None
        The format of the PATHs (default from the extension).
    encoding : "utf-8" or "latin-1"
        The text encoding of CSV, TSV and JSONL input; default ``"utf-8"``.
    normalize : "nfc" or None
        Unicode-normalise text labels (NFC); default None.
    engine : Local, Dask, "local", "dask" or None
        Where the tables are counted (default ``Local()``); the statistics then run on the table here.

    Returns
    -------
    PowerResult
        Its one part (``mcnemar``, ``bootstrap`` or ``width``: ``r.kind``) and ``r.engine``.

    Examples
    --------
    >>> gold = [0] * 500 + [1] * 500
    >>> a = [0] * 450 + [1] * 50 + [1] * 440 + [0] * 60
    >>> b = [0] * 430 + [1] * 70 + [1] * 430 + [0] * 70

    A is right and B wrong on items 431–450 and 931–940 (30), never the reverse:

    >>> r = power(a, b, gold=gold, delta=0.02)
    >>> r.kind, r.mcnemar.n_ab, r.mcnemar.n_ba, r.engine.mode
    ('mcnemar', 30, 0, 'memory')
    """
    from clfeval.core import check_samples
    from clfeval.significance import (
        check_alpha,
        check_alternative,
        check_count_metric,
        check_delta,
        check_level,
        check_power,
    )

    eng = runner(engine)
    check_count_metric(metric)
    check_alpha(alpha)
    check_power(power)
    check_level(level)
    check_delta(delta)
    check_delta(width, "width")
    check_samples(samples, option="samples")
    check_alternative(alternative)
    two = b is not None
    if not two and delta is not None:
        raise UsageError(lambda d, w: f"option {d} is the difference between two systems: give A and B (one system "
                                      f"answers {w}).", params=["delta", "width"])
    if two and width is not None:
        raise UsageError(lambda w, d: f"option {w} is about one system's interval: give one system (two answer {d}).",
                         params=["width", "delta"])
    systems = [a, b] if two else [a]
    tabular = all(inputs.is_path(s) or inputs.is_table(s) for s in systems)
    eng.admit("power", {"b": two, "repeat": repeat is not None},
              stdin={"data": any(inputs.is_stdin(s) for s in systems)})
    common: dict[str, Any] = dict(metric=metric, samples=samples, seed=seed, zero_division=zero_division, beta=beta,
                                  unit=unit)
    settings = dict(delta=delta, alpha=alpha, power=power, alternative=alternative) if two else \
        dict(level=level, width=width)
    reading = dict(input_format=input_format, encoding=encoding, normalize=normalize)
    if tabular:
        columns = {"gold": (gold, "gold"), "pred": (pred, "pred"), "id": (id, None)}
        checked: list[Any] = []
        cols: dict[str, Any] = {}
        for s, what in zip(systems, ("the first table", "the second table"), strict=False):
            data, cols_i = inputs.check_input(s, {}, columns, what=what)
            checked.append(data)
            cols = cols or cols_i
        table, block = _counted(eng, checked, cols, repeat, reading)
        return _result(table, None, None, two, {**common, **settings}, block)
    if gold is None or isinstance(gold, str):
        raise UsageError(lambda g: f"with arrays of predictions, {g} gives the gold labels (the values); got "
                                   f"{gold!r}.", params=["gold"])
    arrays = {"gold": gold, "system A": a} | ({"system B": b} if two else {})
    inputs.check_input(None, arrays, {"pred": (pred, "pred"), "id": (id, None)})
    if repeat is not None:
        raise UsageError(lambda r: f"option {r} selects the rows of one repeat of a PATH or table; the input here "
                                   f"is arrays.", params=["repeat"])
    tables = _tables(gold, [s for s in systems if s is not None])
    if all(eng.holds(t) for t in tables):
        return _result(gold, a, b, two, {**common, **settings}, eng.block("memory"))
    cols = {"gold": "gold", "pred": "pred", "id": "id"}
    table, block = _counted(eng, tables, cols, None, reading)
    return _result(table, None, None, two, {**common, **settings}, block)


def _tables(gold: Any, systems: list[Any]) -> list[Any]:
    """Arrays as one table per system: gold, pred and the row as id."""
    import pyarrow as pa

    g = inputs.as_column(gold, "gold")
    ids = pa.array(range(len(g)), pa.int64())
    return [pa.table({"id": ids, "gold": g, "pred": inputs.as_column(p, "pred")}) for p in systems]


def _result(gold: Any, a: Any, b: Any, two: bool, settings: dict[str, Any], block: Any) -> PowerResult:
    """The statistics on the counted table (``a`` None) or on the arrays, as the one result with its engine
    block."""
    from clfeval.significance import McNemarPower, interval_width, power_compare

    if two:
        part = power_compare(gold, a, b, **settings)
        r = PowerResult(mcnemar=part) if isinstance(part, McNemarPower) else PowerResult(bootstrap=part)
    else:
        r = PowerResult(width=interval_width(gold, a, **settings))
    out: PowerResult = with_engine(r, block)
    return out


def _counted(eng: Runner, systems: list[Any], cols: Mapping[str, Any], repeat: str | None,
             reading: dict[str, Any]) -> tuple[Any, Any]:
    """The table of the inputs counted by the engine: the joint (gold, A, B) table of two inputs matched by id
    (:class:`clfeval.significance.JointCounts`), the confusion table of one (the input joined with itself, so that
    a file of several repeats is refused without ``repeat`` and cut to that repeat with it); and the engine
    block."""
    from functools import partial

    from clfeval.front._comparesteps import names_of
    from clfeval.significance import JointCounts

    with _resolved(eng, systems, cols, reading) as (ins, spooled):
        # one input is joined with itself too: the join refuses a file of several repeats without ``repeat``
        # (its rows are not independent items) and, with it, keeps that repeat's rows
        joined = ins if len(ins) == 2 else [ins[0], ins[0]]
        names = names_of(joined)
        joint, mode, matching = eng.accumulate_joined(joined, partial(JointCounts, names), names=names,
                                                      gold=cols["gold"], pred=cols["pred"], id=cols["id"],
                                                      repeat=repeat, normalize=reading["normalize"])
        tables = joint.counter.tables(describe=matching.describe() if matching is not None else "")
        if joint.n == 0:
            from clfeval.errors import DataError

            raise DataError("there are no items: power and interval widths need at least one.")
        table = tables.pair(names[0], names[1]) if len(ins) == 2 else tables.table(names[0])
        said = str(getattr(matching, "describe", lambda: "")())
        return table, eng.block(mode, spooled=spooled, spilled="partition" in said and "disk" in said)


@contextlib.contextmanager
def _resolved(eng: Runner, systems: list[Any], cols: Mapping[str, Any],
              reading: dict[str, Any]) -> Iterator[tuple[list[Any], bool]]:
    """Every input as a resolved PATH (tables spooled to Parquet, named as given)."""
    with contextlib.ExitStack() as stack:
        out, spooled = [], False
        for s, what in zip(systems, ("the first table", "the second table"), strict=False):
            if inputs.is_path(s):
                out.append(inputs.resolve(s, input_format=reading["input_format"], encoding=reading["encoding"]))
                continue
            table = inputs.columns_of(s, {"gold": cols["gold"], "pred": cols["pred"], "id": cols["id"]})
            out.append(stack.enter_context(eng.spooled(table, what)))
            spooled = True
        yield out, spooled
