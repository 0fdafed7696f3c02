"""``compare(..., by=...)`` on any input and engine: A vs B within every slice, from count tables.

Arrays within the memory budget are compared in memory (:func:`clfeval.significance._slicecompare.compare_by`).
Tables and PATHs (tables spooled to Parquet), and arrays beyond the budget, are streamed: the two inputs are
matched by id (or row) exactly as the plain comparison matches them (:func:`clfeval.io._join.aligned`: the DuckDB
join or hash partitions on disk, within ``--memory``), each item of the first input carrying its slice through the
join inside its prediction (:class:`_SlicedPredictions`), and the (slice, gold, A, B) cells are counted batch by
batch (:class:`~clfeval.significance._slicejoint.SliceJointCounter`). On Dask the join runs on the cluster and each
partition is counted into cells (:func:`clfeval.engines.dask._slicecompare.sliced_cells`). Every mode ends in the same
:func:`~clfeval.significance._slicecompare.compare_tables`: the same tables give the same numbers.
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

_SHIFT = 32
_LOW = (1 << _SHIFT) - 1


class _SlicedPredictions:
    """The first input's reader whose predictions carry each item's slice through the join: the prediction
    becomes the integer ``(slice + 1) << 32 | label code`` (label codes in order of first appearance, slice codes
    of the ``by`` columns), decoded after matching (:meth:`decode`). Everything else is the reader's own."""

    def __init__(self, reader: Any, columns: Sequence[str], max_slices: int, binning: Any) -> None:
        from clfeval.core import SliceCounter

        self._reader = reader
        self.columns = list(columns)
        self.slicer = SliceCounter([tuple(columns)], max_slices=max_slices, binning=binning)
        self.values: list[Any] = []
        self.index: dict[tuple[str, Any], int] = {}
        self._decoded: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._reader, name)

    def __iter__(self) -> Iterator[Any]:
        for b in self._reader:
            yield dataclasses.replace(b, pred=self._encode(b))

    def _code(self, value: Any) -> int:
        from clfeval.core import label_kind

        key = (label_kind(value), value)
        code = self.index.get(key)
        if code is None:
            code = self.index[key] = len(self.values)
            self.values.append(value)
            self._decoded = None
        return code

    def _encode(self, b: Any) -> Any:
        import pyarrow as pa
        import pyarrow.compute as pc

        s = self.slicer.slice_codes({c: b.extra[c] for c in self.columns})
        arr = b.pred.combine_chunks() if isinstance(b.pred, pa.ChunkedArray) else b.pred
        if pa.types.is_dictionary(arr.type):
            arr = arr.dictionary_decode()
        enc = pc.dictionary_encode(arr)
        lut = np.array([self._code(v) for v in enc.dictionary.to_pylist()] + [self._code(None)] * bool(enc.null_count),
                       dtype=np.int64)
        ind = enc.indices.fill_null(len(enc.dictionary)) if enc.null_count else enc.indices
        codes = lut[ind.to_numpy(zero_copy_only=False).astype(np.int64)] if len(lut) else np.zeros(0, np.int64)
        return pa.chunked_array([pa.array(((s + 1) << _SHIFT) | codes, pa.int64())])

    def decode(self, pred: Any) -> tuple[np.ndarray, Any]:
        """(slice code of every item, the first system's predictions) of a matched batch's encoded column."""
        import pyarrow as pa

        x = np.asarray(pred.to_numpy(zero_copy_only=False) if hasattr(pred, "to_numpy") else pred, dtype=np.int64)
        if self._decoded is None:
            try:
                self._decoded = pa.array(self.values)
            except (pa.ArrowInvalid, pa.ArrowTypeError):  # labels of several types (files that differ): as text
                from clfeval.core import label_str

                self._decoded = pa.array([None if v is None else label_str(v) for v in self.values], pa.string())
        return (x >> _SHIFT) - 1, self._decoded.take(pa.array(x & _LOW))


def compare_by_front(eng: Runner, systems: Sequence[Any], gold: Any, pred: str, id_col: Any, by: Any,
                     common: dict[str, Any], slicing: dict[str, Any], names: Any, *, input_format: Any,
                     encoding: str, normalize: Any) -> Compared:
    """``compare(..., by=...)``: arrays (the gold labels, A, B; ``by`` a mapping column → values) in memory when
    they fit the Local engine's budget; tables and PATHs (aligned by id, else by row, the ``by`` columns taken from
    the first) streamed within the budget, or on Dask."""
    from clfeval.significance import check_min_slice, compare_by

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
    from clfeval.front._reportsteps import named_by
    from clfeval.front._slicing import binning_of
    from clfeval.significance import compare_tables

    eng.admit("compare", stdin={"data": any(inputs.is_stdin(s) for s in systems)})
    labels = common.get("labels")
    settings = {k: v for k, v in common.items() if k != "labels"}
    with _paths(eng, systems, gold, pred, cols, fmt, encoding) as (ins, spooled):
        first = ins[0]
        binning = named_by(first.name, lambda: binning_of(_reader(first, gold, pred, id_col, cols, normalize), slicing,
                                                          cols))

        def local(budget: int, tmpdir: str | None) -> tuple[Any, bool, str]:
            cells, spilled = _streamed(budget, ins, gold, pred, id_col, cols, binning, slicing, names, normalize)
            return cells, spilled, "streamed"

        def cluster(client: Any, memory: Any) -> tuple[Any, bool, str]:
            return _on_dask(client, ins, gold, pred, id_col, cols, binning, slicing, names, normalize), False, "cluster"

        cells, spilled, mode = eng.over_path(local, cluster)
    cells.check_values()
    overall, tables = cells.tables(labels)
    r = compare_tables(overall, cols, cells.sorted_keys(), tables, names=names, min_slice=slicing["min_slice"],
                       binning=binning, **settings)
    block = eng.block(mode, spilled=spilled, spooled=spooled, parts=sum(len(i.sources) for i in ins))
    return dataclasses.replace(r, engine=_partitions_last(block))


def _partitions_last(block: EngineInfo) -> EngineInfo:
    """The engine block with the number of input parts (on a cluster) after how the input was made, as
    ``compare --by`` has always written it (the runner writes ``partitions`` first, as ``report`` does)."""
    more = dict(block.more)
    if "partitions" in more:
        more["partitions"] = more.pop("partitions")
    return dataclasses.replace(block, more=more)


def _plain(col: Any) -> Any:
    """A label column as one plain array (dictionaries decoded, integers int64, large text text), as the join
    hands the other columns on."""
    import pyarrow as pa

    arr = pa.concat_arrays(col.chunks) if isinstance(col, pa.ChunkedArray) else col
    if pa.types.is_dictionary(arr.type):
        arr = arr.dictionary_decode()
    if pa.types.is_integer(arr.type) and arr.type not in (pa.int64(), pa.uint64()):
        return arr.cast(pa.int64())
    if pa.types.is_floating(arr.type) and arr.type != pa.float64():
        return arr.cast(pa.float64())
    return arr.cast(pa.string()) if pa.types.is_large_string(arr.type) else arr


def _reader(inp: Any, gold: str, pred: str, id_col: Any, cols: Sequence[str], normalize: Any) -> Any:
    from clfeval.io import iter_predictions

    return iter_predictions(inp, gold=gold, pred=pred, id=id_col, extra=list(cols),
                            extra_options=["--by"] * len(cols), normalize=normalize)


def _streamed(budget: int, ins: list[Any], gold: str, pred: str, id_col: Any, cols: list[str], binning: Any,
              slicing: dict[str, Any], names: tuple[str, ...], normalize: Any) -> tuple[Any, bool]:
    """The cells of the two PATHs matched batch by batch within the budget (as plain ``compare`` streams them)."""
    from clfeval.io import Matching, aligned, iter_predictions
    from clfeval.significance import SliceJointCounter

    a = _SlicedPredictions(_reader(ins[0], gold, pred, id_col, cols, normalize), cols, slicing["max_slices"],
                           binning)
    b = iter_predictions(ins[1], gold=gold, pred=pred, id=id_col, normalize=normalize)
    matching = Matching()
    counter = SliceJointCounter()
    readers: list[Any] = [a, b]  # the first a reader in all but its predictions
    for batch in aligned(readers, list(names), matching=matching, budget=budget, weighted=True):
        slices, pa_ = a.decode(batch.preds[0])
        g, pb = _plain(batch.gold), _plain(batch.preds[1])
        text = len({str(getattr(x, "type", None)) for x in (g, pa_, pb)}) > 1
        counter.update(g, pa_, pb, slices, text=text, weights=batch.counts)
    return counter.cells(cols, a.slicer.keys(), binning), matching.spilled


def _on_dask(client: Any, ins: list[Any], gold: str, pred: str, id_col: Any, cols: list[str], binning: Any,
             slicing: dict[str, Any], names: tuple[str, ...], normalize: Any) -> Any:
    from clfeval.engines.dask import sliced_cells
    from clfeval.io import column_names

    if id_col is None:
        src = ins[0].sources[0]
        id_col = "id" if "id" in column_names(src, input_format=ins[0].fmt, encoding=src.encoding) else None
    return sliced_cells(ins[0], ins[1], gold=gold, pred=pred, id=id_col, columns=cols, binning=binning,
                        max_slices=slicing["max_slices"], names=names, client=client, normalize=normalize)
