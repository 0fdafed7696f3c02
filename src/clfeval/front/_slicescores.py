"""``threshold(..., by=...)`` and ``calibration(..., by=...)``: slices of the score operations, on every engine.

``threshold --by``: the cut chosen once on DEV overall, then the test data's count table at that cut per slice
(the ``slices`` section of a report, :func:`clfeval.slicing._slices.slice_section`), counted in one pass of
the slices' accumulator (:class:`clfeval.slicing.SlicedCounts` with ``cut``): arrays or a table in memory as one
batch, a PATH run by the engine (batch by batch within the memory budget, or on Dask).

``calibration --by``: the reliability of every slice from per-slice bin counts and exact sums (the same
accumulator with ``calibrate``, :mod:`clfeval.slicing._slicecalibration`): in memory within the budget, streamed
batch by batch, or on Dask partition by partition; the same numbers, to the bit, on all three.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

from clfeval.engines import Runner, runner
from clfeval.errors import UsageError
from clfeval.io import inputs
from clfeval.ops.calibration import Calibration, CalibrationSlices
from clfeval.ops.threshold import ThresholdResult, ThresholdSlices

__all__ = ["threshold_by", "calibration_by"]


def _columns(data: Any, scores: Any, gold: str, score: str, by: Any, cols: list[str], fmt: Any,
             encoding: str) -> tuple[Any, Any, dict[str, Any]]:
    if scores is not None:
        extra = {k: inputs.as_column(v, "by") for k, v in (by.items() if isinstance(by, dict) else {"by": by}.items())}
        return inputs.as_column(data, "gold"), inputs.as_column(scores, "scores"), extra
    if inputs.is_table(data):
        table = inputs.columns_of(data, {"gold": gold, "score": score})
        for c in cols:  # each by column checked (one dict of them kept only the last)
            inputs.columns_of(table, {"by": c})
        return table.column(gold), table.column(score), {c: table.column(c) for c in cols}
    from clfeval.io import read_predictions

    read = read_predictions(inputs.resolve(data, input_format=fmt, encoding=encoding), gold=gold, pred=score,
                            pred_option="--score", extra=cols, extra_options=["--by"] * len(cols))
    return read.gold, read.pred, {c: read.extra[c] for c in cols}


def threshold_by(choice: ThresholdResult, data: Any, scores: Any, *, gold: str | None, score: str | None, by: Any,
                 slicing: dict[str, Any], zero_division: Any, input_format: Any = None,
                 encoding: str = "utf-8", engine: Any = None, normalize: Any = None) -> ThresholdResult:
    """``choice`` (a :class:`~clfeval.ops.threshold.ThresholdResult` of one score column) with the test data's
    slices at its cut (its ``slices``):
    one pass of counting (arrays or a table in memory as one batch; a PATH batch by batch within the memory
    budget, or on Dask partition by partition)."""
    from functools import partial

    from clfeval.front._slicing import binning_of
    from clfeval.slicing import SlicedCounts, fold_cut_tables, slice_section

    if choice.choice is None:
        raise UsageError(lambda o: f"option {o}: no cut was chosen, so there is nothing to report per slice.",
                         params=["by"])
    cut = choice.choice.cut
    eng = runner(engine)
    cols = [c for s in slicing["sets"] for c in s]
    pos = choice.choice.positive
    g_name, s_name = ("gold" if gold is None else gold), ("score" if score is None else score)
    if scores is None and inputs.is_path(data):
        inp = inputs.resolve(data, input_format=input_format, encoding=encoding)
        opts = ["--score", *["--by"] * len(cols)]
        binning = binning_of(_reader(inp, g_name, [s_name, *cols], opts, encoding, normalize), slicing, cols)
        make = partial(SlicedCounts, slicing["sets"], max_slices=slicing["max_slices"], binning=binning,
                       cut=(float(cut), pos, s_name))
        acc, _, _ = eng.accumulate(inp, make, gold=g_name, pred=None, extra=[s_name, *cols], extra_options=opts,
                                   scores=[s_name], reading=dict(encoding=encoding, normalize=normalize))
    else:
        g, s, extra = _columns(data, scores, g_name, s_name, by, cols, input_format, encoding)
        name = s_name if s_name not in extra else next(n for n in ("score", "scores", "score_") if n not in extra)
        batch = SimpleNamespace(gold=g, text=False, extra={**extra, name: s}, n=len(g))
        acc = SlicedCounts(slicing["sets"], max_slices=slicing["max_slices"],
                           binning=binning_of([batch], slicing, list(extra)), cut=(float(cut), pos, name))
        acc.update(batch)
    got = acc.finish()
    table, tables = got.table, got.tables
    table, tables = fold_cut_tables(table, tables, pos)
    for t in tables:
        t.check_adds_up(table)
    section = slice_section(tables[0], positive=pos, zero_division=zero_division, min_slice=slicing["min_slice"],
                            metrics=slicing.get("metrics"), samples=slicing.get("slice_samples", 1_000))
    section["threshold"] = float(cut)
    return dataclasses.replace(choice, slices=ThresholdSlices.of(section))


def _reader(inp: Any, gold: str, extra: list[str], options: list[str], encoding: str, normalize: Any,
            progress: Any = None) -> Any:
    from clfeval.io import iter_predictions

    return iter_predictions(inp, gold=gold, pred=None, require_pred=False, extra=extra, extra_options=options,
                            encoding=encoding, normalize=normalize, progress=progress)


def calibration_by(overall: Callable[[Any], Calibration], data: Any, probs: Any, *, gold: str | None, prob: str | None,
                   by: Any, slicing: dict[str, Any], positive: Any, bins: int, strategy: str, edges: str,
                   input_format: Any = None, encoding: str = "utf-8", engine: Any = None,
                   normalize: Any = None, progress: Any = None) -> Calibration:
    """The calibration of every item (``overall(inp)`` of a resolved PATH, ``overall(None)`` of the data given:
    a :class:`~clfeval.scores._calibration.Calibration`) with the reliability of every slice, the
    same bins strategy, from per-slice sums (:class:`clfeval.slicing.SlicedCounts` with ``calibrate``, around
    :class:`~clfeval.slicing._slicecalibration.SliceCalibrator`): arrays or a table within the Local engine's budget
    as one batch in memory; a PATH (or data beyond the budget, spooled) run by the engine
    (:meth:`clfeval.engines.Runner.accumulate`: batch by batch within the budget here, partition by partition on
    Dask), after the whole's own read."""
    from functools import partial

    import pyarrow as pa

    from clfeval.front._scores import spilled_of
    from clfeval.front._slicing import binning_of
    from clfeval.slicing import SlicedCounts, slice_rows

    eng = runner(engine)
    cols = list(dict.fromkeys(c for s in slicing["sets"] for c in s))
    g_name, p_name = ("gold" if gold is None else gold), ("prob" if prob is None else prob)
    table = None
    if probs is not None:
        extra = {k: inputs.as_column(v, "by") for k, v in (by.items() if isinstance(by, dict) else {"by": by}.items())}
        if set(extra) & {"gold", "prob"}:
            raise UsageError(lambda o: f"option {o}: name the slice columns other than 'gold' and 'prob'.",
                             params=["by"])
        cols, g_name, p_name = list(extra), "gold", "prob"
        table = pa.table({"gold": inputs.as_column(data, "gold"), "prob": inputs.as_column(probs, "probs"), **extra})
    elif inputs.is_table(data):
        table = inputs.columns_of(data, {"gold": g_name, "prob": p_name})
        for c in cols:
            inputs.columns_of(table, {"by": c})
        table = table.select([g_name, p_name, *cols])
    spooled = False
    make = partial(SlicedCounts, [tuple(cols)], max_slices=slicing["max_slices"],
                   calibrate=dict(prob=p_name, positive=positive, bins=bins, strategy=strategy, edges=edges))
    if table is not None and eng.holds(table):
        batch = SimpleNamespace(gold=table.column(g_name), extra={c: table.column(c) for c in [p_name, *cols]},
                                n=table.num_rows)
        acc = make(binning=binning_of([batch], slicing, cols))
        acc.update(batch)
        sums = acc.finish().calibration
        whole, mode = overall(None), "memory"
    else:
        with _path_of(eng, data, table, input_format, encoding) as (inp, spooled):
            binning = binning_of(_reader(inp, g_name, cols, ["--by"] * len(cols), encoding, normalize), slicing,
                                  cols)
            whole = overall(None if spooled else inp)  # every item (its ranking spills beyond the budget)
            acc, mode, _ = eng.accumulate(inp, partial(make, binning=binning), gold=g_name, pred=None,
                                          extra=[p_name, *cols], extra_options=["--prob", *["--by"] * len(cols)],
                                          scores=[p_name], reading=dict(encoding=encoding, normalize=normalize))
            sums = acc.finish().calibration
    rows = slice_rows(sums, bins=bins, strategy=strategy, edges=edges, min_slice=slicing["min_slice"])
    block = eng.block(mode, spilled=spilled_of(whole) or spooled, spooled=spooled)
    slices = CalibrationSlices.of(list(sums.columns), slicing["min_slice"], rows)
    return dataclasses.replace(whole, slices=slices, engine=block)


@contextlib.contextmanager
def _path_of(eng: Runner, data: Any, table: Any, fmt: Any, encoding: str) -> Iterator[tuple[Any, bool]]:
    """A PATH resolved (False), or the table spooled to Parquet (True)."""
    if table is None:
        yield inputs.resolve(data, input_format=fmt, encoding=encoding), False
        return
    with eng.spooled(table) as inp:
        yield inp, True

