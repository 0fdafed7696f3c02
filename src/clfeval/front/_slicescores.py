"""``threshold(..., by=...)`` and ``calibration(..., by=...)``: slices of the score operations, on every engine.

``threshold --by``: the cut chosen once on DEV overall, then the test data's count table at that cut per slice
(the ``slices`` section of a report, :func:`clfeval.significance._slices.slice_section`), counted in one pass: arrays
or a table in memory as one batch, a PATH batch by batch within the memory budget, or on Dask.

``calibration --by``: the reliability of every slice from per-slice bin counts and exact sums
(:mod:`clfeval.scores._slicecalibration`): in memory within the budget, streamed batch by batch, or on Dask
partition by partition; the same numbers, to the bit, on all three.
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
    from clfeval.evaluate import at_cut, count_sliced, fold_cut_tables
    from clfeval.front._slicing import binning_of
    from clfeval.significance import slice_section

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

        def cluster(client: Any, memory: Any) -> tuple[Any, Any]:
            from clfeval.engines.dask import sliced_tables

            binning = binning_of(_reader(inp, g_name, [s_name, *cols], opts, encoding, normalize), slicing, cols)
            table, tables, _, _ = sliced_tables(inp, gold=g_name, pred=s_name, sets=slicing["sets"],
                                                max_slices=slicing["max_slices"], binning=binning,
                                                normalize=normalize, client=client, cut=(float(cut), pos))
            return table, tables

        def local(budget: int, tmpdir: str | None) -> tuple[Any, Any]:  # one batch in memory at a time
            binning = binning_of(_reader(inp, g_name, [s_name, *cols], opts, encoding, normalize), slicing, cols)

            def batches() -> Any:
                for b in _reader(inp, g_name, [s_name, *cols], opts, encoding, normalize):
                    g, p = at_cut(b.gold, b.extra[s_name], cut, pos, s_name)
                    yield SimpleNamespace(gold=g, pred=p, text=False, extra=b.extra, n=b.n, part=b.part)

            return count_sliced(batches(), slicing["sets"], max_slices=slicing["max_slices"], binning=binning)

        table, tables = eng.over_path(local, cluster)
    else:
        g, s, extra = _columns(data, scores, g_name, s_name, by, cols, input_format, encoding)
        gt, pred = at_cut(g, s, cut, pos, s_name)
        batch = SimpleNamespace(gold=gt, pred=pred, text=False, extra=extra, n=len(gt))
        table, tables = count_sliced([batch], slicing["sets"], max_slices=slicing["max_slices"],
                                     binning=binning_of([batch], slicing, list(extra)))
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


def calibration_by(overall: Callable[[], Calibration], data: Any, probs: Any, *, gold: str | None, prob: str | None,
                   by: Any, slicing: dict[str, Any], positive: Any, bins: int, strategy: str, edges: str,
                   input_format: Any = None, encoding: str = "utf-8", engine: Any = None,
                   normalize: Any = None, progress: Any = None) -> Calibration:
    """The calibration of every item (``overall()``, a :class:`~clfeval.scores._calibration.Calibration`) with the
    reliability of every slice, the same bins strategy, from per-slice sums
    (:class:`~clfeval.scores._slicecalibration.SliceCalibrator`): arrays or a table within the Local engine's budget
    as one batch in memory, a PATH (or data beyond the budget, spooled) batch by batch within the budget, the
    whole and the slices in one pass, or on Dask partition by partition."""
    import pyarrow as pa

    from clfeval.front._scores import spilled_of
    from clfeval.front._slicing import binning_of
    from clfeval.scores import slice_rows

    eng = runner(engine)
    cols = list(dict.fromkeys(c for s in slicing["sets"] for c in s))
    g_name, p_name = ("gold" if gold is None else gold), ("prob" if prob is None else prob)
    settings = dict(positive=positive, bins=bins, strategy=strategy, edges=edges, max_slices=slicing["max_slices"])
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
    if table is not None and eng.holds(table):
        batch = SimpleNamespace(gold=table.column(g_name), extra={c: table.column(c) for c in cols})
        sums = _calibrate_slices([batch], cols, binning_of([batch], slicing, cols), p_name, table, settings)
        mode, whole = "memory", overall()
    else:
        with _path_of(eng, data, table, input_format, encoding) as (inp, spooled):
            binning = binning_of(_reader(inp, g_name, cols, ["--by"] * len(cols), encoding, normalize), slicing,
                                  cols)

            def cluster(client: Any, memory: Any) -> tuple[Any, Any, str]:
                from clfeval.engines.dask import sliced_calibration

                whole = overall()
                return whole, sliced_calibration(inp, gold=g_name, prob=p_name, columns=cols, binning=binning,
                                                 normalize=normalize, client=client, **settings), "cluster"

            def local(budget: int, tmpdir: str | None) -> tuple[Any, Any, str]:
                # one pass: every batch counted for the whole and for its slices
                with progress(inp) if progress is not None else contextlib.nullcontext(None) as update:
                    return (*_calibrate_whole_and_slices(inp, g_name, p_name, cols, binning, settings, budget, tmpdir,
                                                         encoding, normalize, update), "streamed")

            whole, sums, mode = eng.over_path(local, cluster)
    rows = slice_rows(sums, bins=bins, strategy=strategy, edges=edges, min_slice=slicing["min_slice"])
    block = eng.block(mode, spilled=spilled_of(whole) or spooled, spooled=spooled)
    slices = CalibrationSlices.of(list(sums.columns), slicing["min_slice"], rows)
    return dataclasses.replace(whole, slices=slices, engine=block)


def _calibrate_whole_and_slices(inp: Any, gold: str, prob: str, cols: list[str], binning: dict,
                                settings: dict[str, Any], budget: int, tmpdir: str | None, encoding: str,
                                normalize: Any, update: Any = None) -> tuple[Any, Any]:
    """The calibration of every item and the per-slice sums, from one read of a PATH within the budget."""
    from clfeval.scores import Calibrator, ScoreSource, SliceCalibrator

    slices = SliceCalibrator(cols, binning=binning, prob=prob, **settings)
    with Calibrator(positive=settings["positive"], bins=settings["bins"], strategy=settings["strategy"],
                    source=ScoreSource(name=prob, prefix="", data=f"file {inp.name!r}"), memory=budget,
                    tmpdir=tmpdir, edges=settings["edges"]) as whole:
        for b in _reader(inp, gold, [prob, *cols], ["--prob", *["--by"] * len(cols)], encoding, normalize, update):
            whole.update(b.gold, b.extra[prob], where=b.where)
            slices.update(b.gold, b.extra[prob], b.extra, where=getattr(b, "where", None))
        return whole.result(), slices.sums()


def _calibrate_slices(batches: Any, cols: list[str], binning: dict, prob: str, table: Any,
                      settings: dict[str, Any]) -> Any:
    from clfeval.scores import SliceCalibrator

    cal = SliceCalibrator(cols, binning=binning, prob=prob, **settings)
    for b in batches:
        probs = table.column(prob) if table is not None else b.extra[prob]
        cal.update(b.gold, probs, b.extra, where=getattr(b, "where", None))
    return cal.sums()


@contextlib.contextmanager
def _path_of(eng: Runner, data: Any, table: Any, fmt: Any, encoding: str) -> Iterator[tuple[Any, bool]]:
    """A PATH resolved (False), or the table spooled to Parquet (True)."""
    if table is None:
        yield inputs.resolve(data, input_format=fmt, encoding=encoding), False
        return
    with eng.spooled(table) as inp:
        yield inp, True

