"""``compare(..., by=...)`` on any input and engine: A vs B within every slice, from count tables.

Arrays within the memory budget are compared in memory (:func:`clfeval.slicing._slicecompare.compare_by`).
Tables and PATHs (tables spooled to Parquet), and arrays beyond the budget, are counted by the engine
(:meth:`clfeval.engines.Runner.accumulate_joined`) with ``compare --by``'s accumulator
(:class:`~clfeval.slicing._slicejoint.SlicedJointCounts`): the two inputs matched by id (or row) exactly as the
plain comparison matches them (locally the DuckDB join or hash partitions on disk, within ``--memory``; on Dask a
merge on the cluster), each item of the first input tagged with its slice (carried through the join), the
(slice, gold, A, B) cells counted batch by batch and added. Every mode ends in the same
:func:`~clfeval.slicing._slicecompare.compare_tables`: the same tables give the same numbers.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from clfeval.core import EngineInfo
from clfeval.engines import Runner
from clfeval.errors import UsageError
from clfeval.io import inputs
from clfeval.ops.compare import Compared

__all__ = ["compare_by_front"]

def compare_by_front(eng: Runner, systems: Sequence[Any], gold: Any, pred: str, id_col: Any, by: Any,
                     common: dict[str, Any], slicing: dict[str, Any], names: Any, *, input_format: Any,
                     encoding: str, normalize: Any) -> Compared:
    """``compare(..., by=...)``: arrays (the gold labels, A, B; ``by`` a mapping column → values) in memory when
    they fit the Local engine's budget; tables and PATHs (aligned by id, else by row, the ``by`` columns taken from
    the first) streamed within the budget, or on Dask."""
    from clfeval.slicing import check_min_slice, compare_by

    check_min_slice(slicing["min_slice"])
    if common.get("test") == "delong":
        raise UsageError(lambda o, t: f"option {o} compares the count tables of the slices (tests bootstrap, "
                                      f"randomization, mcnemar); {t} delong ranks every item's scores.",
                         params=["by", "test"])
    sets = slicing["sets"]
    if len(sets) != 1:
        raise UsageError(lambda o: f"option {o} of compare takes one set of columns.", params=["by"])
    cols = list(sets[0])
    nm = tuple(names or ("A", "B"))
    if all(inputs.is_path(s) or inputs.is_table(s) for s in systems) and systems:
        if len(systems) != 2:
            raise UsageError(lambda o: f"option {o} compares two systems; got {len(systems)}.", params=["by"])
        g_col = "gold" if gold is None else gold
        return _two_inputs(eng, list(systems), g_col, pred, id_col, cols, common, slicing, nm, input_format,
                           encoding, normalize)
    from clfeval.front._slicing import binning_of, by_arrays

    g, *rest = systems if gold is None else [gold, *systems]
    if len(rest) != 2:
        raise UsageError(lambda o: f"option {o} compares two systems; got {len(rest)}.", params=["by"])
    a, b = rest
    extra = by_arrays(by, len(inputs.as_column(g, "gold")))
    if _fits(eng, g, a, b, extra):
        batch = SimpleNamespace(extra=extra, gold=extra[next(iter(extra))])
        binning = binning_of([batch], slicing, list(extra))
        r = compare_by(g, a, b, extra, names=nm, max_slices=slicing["max_slices"], min_slice=slicing["min_slice"],
                       binning=binning, **common)
        return dataclasses.replace(r, engine=eng.block("memory"))
    import pyarrow as pa

    if set(extra) & {"id", "gold", "pred"}:
        raise UsageError(lambda o: f"option {o}: name the slice columns other than 'id', 'gold' and 'pred'.",
                         params=["by"])
    ids = pa.array(np.arange(len(extra[next(iter(extra))])), pa.int64())
    gc = inputs.as_column(g, "gold")
    tables = [pa.table({"id": ids, "gold": gc, "pred": inputs.as_column(a, "pred"), **extra}),
              pa.table({"id": ids, "gold": gc, "pred": inputs.as_column(b, "pred")})]
    return _two_inputs(eng, tables, "gold", "pred", "id", list(extra), common, {**slicing, "sets": [tuple(extra)]},
                       nm, None, "utf-8", None)


def _fits(eng: Runner, g: Any, a: Any, b: Any, extra: dict[str, Any]) -> bool:
    """Whether the arrays run in memory in this process: their table within the budget, or no plain columns (in
    memory, checked there) where every item can be in memory. An engine that runs elsewhere never holds them (nor
    builds their table here)."""
    import pyarrow as pa

    if not eng.holds(None, needed=True):
        return False
    try:
        cols = {"gold": inputs.as_column(g, "gold"), "a": inputs.as_column(a, "pred"),
                "b": inputs.as_column(b, "pred"), **{f"by {k}": v for k, v in extra.items()}}
        table = pa.table(cols)
    except (ValueError, TypeError, pa.ArrowException):  # no plain columns: in memory, checked there
        return True
    return eng.holds(table)


@contextlib.contextmanager
def _paths(eng: Runner, systems: list[Any], gold: str, pred: str, cols: list[str], fmt: Any,
           encoding: str) -> Iterator[tuple[list[Any], bool]]:
    """Both inputs as resolved PATHs (tables spooled to Parquet; the first one's ``by`` columns checked)."""
    from clfeval.front._slicing import check_by_columns

    with contextlib.ExitStack() as stack:
        out, spooled = [], False
        for i, s in enumerate(systems):
            if inputs.is_table(s):
                table = inputs.columns_of(s, {"gold": gold, "pred": pred})
                if i == 0:
                    check_by_columns(table.column_names, [tuple(cols)])
                out.append(stack.enter_context(eng.spooled(table)))
                spooled = True
            else:
                out.append(inputs.resolve(s, input_format=fmt, encoding=encoding))
        yield out, spooled


def _two_inputs(eng: Runner, systems: list[Any], gold: str, pred: str, id_col: Any, cols: list[str],
                common: dict[str, Any], slicing: dict[str, Any], names: tuple[str, ...], fmt: Any, encoding: str,
                normalize: Any) -> Compared:
    from functools import partial

    from clfeval.front._reportsteps import named_by
    from clfeval.front._slicing import binning_of
    from clfeval.slicing import SlicedJointCounts

    eng.admit("compare", stdin={"data": any(inputs.is_stdin(s) for s in systems)})
    labels = common.get("labels")
    settings = {k: v for k, v in common.items() if k != "labels"}
    with _paths(eng, systems, gold, pred, cols, fmt, encoding) as (ins, spooled):
        first = ins[0]
        binning = named_by(first.name, lambda: binning_of(_reader(first, gold, pred, id_col, cols, normalize), slicing,
                                                          cols))
        make = partial(SlicedJointCounts, cols, max_slices=slicing["max_slices"], binning=binning)
        acc, mode, matching = eng.accumulate_joined(ins, make, names=names, gold=gold, pred=pred, id=id_col,
                                                    extra=cols, extra_options=["--by"] * len(cols),
                                                    normalize=normalize)
    r = acc.compared(names=names, min_slice=slicing["min_slice"], labels=labels, **settings)
    block = eng.block(mode, spilled=matching is not None and matching.spilled, spooled=spooled,
                      parts=sum(len(i.sources) for i in ins))
    return dataclasses.replace(r, engine=_partitions_last(block))


def _partitions_last(block: EngineInfo) -> EngineInfo:
    """The engine block with the number of input parts (on a cluster) after how the input was made, as
    ``compare --by`` has always written it (the runner writes ``partitions`` first, as ``report`` does)."""
    more = dict(block.more)
    if "partitions" in more:
        more["partitions"] = more.pop("partitions")
    return dataclasses.replace(block, more=more)


def _reader(inp: Any, gold: str, pred: str, id_col: Any, cols: Sequence[str], normalize: Any) -> Any:
    from clfeval.io import iter_predictions

    return iter_predictions(inp, gold=gold, pred=pred, id=id_col, extra=list(cols),
                            extra_options=["--by"] * len(cols), normalize=normalize)
