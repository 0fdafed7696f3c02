"""``by=``: the report of one classifier with one count table per slice, on any input and engine.

The overall table and the slice tables come from one pass (:func:`clfeval.evaluate.slicecounting.count_sliced`):
a table or arrays in memory as one batch, a PATH (or a table beyond the budget, spooled) batch by batch within the
memory budget, a PATH on Dask partition by partition (each task counting its partitions, the pairs of tables
added in a tree). Numeric ``by`` columns with ``by_bins`` get their edges from a first pass. The report is then
``report_from_table`` of the overall table, with the ``slices`` section
(:func:`clfeval.significance.slices.slice_section`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from clfeval.engines import data as inputs
from clfeval.engines.block import engine_block
from clfeval.engines.spec import Dask, Local
from clfeval.errors import DataError, UsageError

__all__ = ["report_by", "check_by"]


def check_by(by: Any, *, multilabel: bool, scored: bool, threshold: Any, show_errors: int, max_slices: Any) -> Any:
    """The ``by`` column sets, checked against the other options before any data is read."""
    from clfeval.core.slicecount import check_slicing, column_sets

    sets = column_sets(by)
    check_slicing("by", "slices", multilabel=multilabel, scored=scored, threshold=threshold, show_errors=show_errors)
    if not isinstance(max_slices, int) or isinstance(max_slices, bool) or max_slices < 1:
        raise UsageError(lambda o: f"option {o} must be a whole number ≥ 1; got {max_slices!r}.",
                         params=["max_slices"])
    return sets


def _by_arrays(by: Any, n: int) -> dict[str, Any]:
    """With arrays, ``by`` is a mapping column name → values (or one array, named ``by``)."""
    cols = dict(by) if isinstance(by, dict) else {"by": by}
    out = {}
    for name, values in cols.items():
        col = inputs.as_column(values, "by")
        if len(col) != n:
            raise DataError(lambda o, _n=name, _c=col: f"column {_n!r} of {o} has {len(_c):,} values for {n:,} items.",
                            params=["by"])
        out[name] = col
    return out


def report_by(eng: Any, data: Any, pred: Any, gold: Any, id: Any, by: Any, settings: dict[str, Any],
              slicing: dict[str, Any],
              *, input_format: Any, encoding: str, normalize: Any, progress: Any, top_n: int) -> tuple[Any, dict]:
    """The report of ``data`` with its ``slices`` section, and the engine block."""
    import pyarrow as pa

    if not inputs.is_path(data) and not inputs.is_table(data):
        g = data if data is not None else gold
        if pred is None:
            raise UsageError(lambda p: f"option by slices predictions: give {p}.", params=["pred"])
        cols = {"gold": inputs.as_column(g, "gold"), "pred": inputs.as_column(pred, "pred")}
        if len(cols["gold"]) != len(cols["pred"]):
            raise DataError(f"gold has {len(cols['gold']):,} labels and pred {len(cols['pred']):,}: one each per item.")
        extra = _by_arrays(by, len(cols["gold"])) if by is not None else {}
        by_sets = [tuple(extra)] if by is not None else []
        find = slicing.get("find")
        if find is not None:
            from clfeval.significance.slicefind import lattice

            found = _by_arrays(find["given"], len(cols["gold"]))
            extra.update(found)
            find = {**find, "sets": lattice(list(found), min(find["max_depth"], len(found)))}
        if set(extra) & {"gold", "pred"}:
            raise UsageError(lambda o: f"option {o}: name the slice columns other than 'gold' and 'pred'.",
                             params=["by" if by is not None else "find_slices"])
        table = pa.table({**cols, **extra})
        names = dict(gold="gold", pred="pred", id=None)
        sets = by_sets + [s for s in (find["sets"] if find else []) if s not in by_sets]
        slicing = {**slicing, "sets": sets, "n_by": len(by_sets), "find": find}
        return _tabular(eng, table, names, settings, slicing, "utf-8", None, progress, top_n)
    names = dict(gold=gold or "gold", pred=pred or "pred", id=id)
    if inputs.is_table(data):
        table = inputs.columns_of(data, {"gold": names["gold"], "pred": names["pred"]})
        _check_by_columns(table.column_names, slicing["sets"])
        keep = [names["gold"], names["pred"], *dict.fromkeys(c for s in slicing["sets"] for c in s)]
        table = table.select(keep)
        return _tabular(eng, table, names, settings, slicing, encoding, normalize, progress, top_n)
    inp = inputs.resolve(data, input_format=input_format, encoding=encoding)
    rep, block = _on_path(eng, inp, names, settings, slicing, encoding, normalize, progress, top_n)
    return rep, block


def _check_by_columns(names: Sequence[str], sets: Sequence[tuple[str, ...]]) -> None:
    for s in sets:
        for c in s:
            if c not in names:
                raise DataError(lambda o, _c=c: f"the table has no column {_c!r} (option {o}); its columns are: "
                                                f"{', '.join(repr(x) for x in names)}.", params=["by"])


def _tabular(eng: Any, table: Any, names: dict[str, str], settings: dict[str, Any], slicing: dict[str, Any],
             encoding: str, normalize: Any, progress: Any, top_n: int) -> tuple[Any, dict]:
    if isinstance(eng, Local) and inputs.table_bytes(table) <= eng.budget:
        cols = [c for s in slicing["sets"] for c in s]
        batch = SimpleNamespace(gold=table.column(names["gold"]), pred=table.column(names["pred"]), text=False,
                                extra={c: table.column(c) for c in cols}, n=table.num_rows)
        binning = binning_of([batch], slicing, cols)
        rep = _finish([batch], slicing, settings, binning, top_n)
        return rep, engine_block(eng, "memory", memory=eng.budget)
    with inputs.spooled(table, eng.budget if isinstance(eng, Local) else 1 << 30,
                        eng.tmpdir if isinstance(eng, Local) else None) as inp:
        rep, block = _on_path(eng, inp, names, settings, slicing, "utf-8", None, progress, top_n)
    return rep, {**block, "spilled": True if isinstance(eng, Local) else block["spilled"],
                 "input": "spooled to temporary Parquet files"}


def binning_of(batches: Any, slicing: dict[str, Any], cols: Sequence[str]) -> dict:
    if slicing.get("by_bins") is None:
        return {}
    from clfeval.evaluate.slicecounting import slice_binning

    return slice_binning(batches, list(dict.fromkeys(cols)), bins=slicing["by_bins"], kind=slicing["by_binning"])


def count_limit(slicing: dict[str, Any]) -> int:
    """Slices of one column set counted at most: ``max_slices`` (``--by``), or ``max_search`` for the search."""
    find = slicing.get("find")
    return max(slicing["max_slices"], find["max_search"]) if find else slicing["max_slices"]


def _finish(batches: Any, slicing: dict[str, Any], settings: dict[str, Any], binning: dict, top_n: int) -> Any:
    from clfeval.evaluate.slicecounting import count_sliced

    table, tables = count_sliced(batches, slicing["sets"], order=settings["order"],
                                 max_slices=count_limit(slicing), binning=binning)
    return with_slices(table, tables, settings, slicing, top_n)


def with_slices(table: Any, tables: Sequence[Any], settings: dict[str, Any], slicing: dict[str, Any],
                top_n: int) -> Any:
    """The report of the overall table with the ``slices`` section of the first column set."""
    from clfeval.evaluate.reports import report_from_table
    from clfeval.significance.slices import slice_section

    s = settings
    rep = report_from_table(table, positive=s["positive"], beta=s["beta"], zero_division=s["zero_division"],
                            order=s["order"] is not None, train_labels=s.get("train_labels"), sep=s["sep"],
                            top_n=top_n, ci=s["ci"], samples=s["samples"], seed=s["seed"],
                            ci_method=s.get("ci_method", "auto") or "auto")
    sections = dict(rep.sections)
    if slicing.get("n_by", 1):
        first = tables[0]
        if len(first.keys) > slicing["max_slices"]:
            raise UsageError(lambda o, b: f"the values of {', '.join(first.columns)} (option {b}) make more than "
                                          f"{slicing['max_slices']:,} slices (option {o}); slice by fewer columns, "
                                          f"bin a numeric column (--by-bins N), or raise {o}.",
                             params=["max_slices", "by"])
        sections["slices"] = slice_section(first, positive=s["positive"], beta=s["beta"],
                                           zero_division=s["zero_division"], min_slice=slicing["min_slice"],
                                           metrics=slicing.get("metrics"), samples=slicing["slice_samples"],
                                           seed=s["seed"], ci=s["ci"], ci_samples=s["samples"])
    if slicing.get("find"):
        from clfeval.significance.slicesearch import found_section

        sections["find_slices"] = found_section(tables, slicing["find"], min_slice=slicing["min_slice"])
    return dataclasses.replace(rep, sections=sections)


def _on_path(eng: Any, inp: Any, names: dict[str, str], settings: dict[str, Any], slicing: dict[str, Any],
             encoding: str, normalize: Any, progress: Any, top_n: int) -> tuple[Any, dict]:
    from clfeval.engines.reportsteps import named_by

    cols = list(dict.fromkeys(c for s in slicing["sets"] for c in s))
    by_cols = {c for s in slicing["sets"][:slicing.get("n_by", len(slicing["sets"]))] for c in s}
    options = ["--by" if c in by_cols else "--find-slices" for c in cols]
    if isinstance(eng, Dask):
        from clfeval.dask.slices import sliced_tables

        with eng.connected() as client:
            binning = named_by(inp.name, lambda: binning_of(
                _reader(inp, names, cols, encoding, normalize, None, None, options), slicing, cols))
            table, tables = named_by(inp.name, lambda: sliced_tables(
                inp, gold=names["gold"], pred=names["pred"], sets=slicing["sets"], order=settings["order"],
                max_slices=count_limit(slicing), binning=binning, normalize=normalize, client=client))
        rep = named_by(inp.name, lambda: with_slices(table, tables, settings, slicing, top_n))
        return rep, engine_block(eng, "cluster", partitions=len(inp.sources))
    from clfeval.io.join import unique_batches

    binning = named_by(inp.name, lambda: binning_of(
        _reader(inp, names, cols, encoding, normalize, None, None, options), slicing, cols))
    ctx = progress(inp) if progress is not None else _null()
    with ctx as update:
        reader = _reader(inp, names, cols, encoding, normalize, update, settings["sep"], options)
        rep = named_by(inp.name, lambda: _finish(unique_batches(reader, budget=eng.budget), slicing, settings,
                                                 binning, top_n))
    return rep, engine_block(eng, "streamed", memory=eng.budget)


def _null() -> Any:
    import contextlib

    return contextlib.nullcontext(None)


def _reader(inp: Any, names: dict[str, str], cols: Sequence[str], encoding: str, normalize: Any, update: Any,
            sep: Any, options: Sequence[str] | None = None) -> Any:
    from clfeval.io.predictions import iter_predictions

    return iter_predictions(inp, gold=names["gold"], pred=names["pred"], id=names.get("id"), extra=list(cols),
                            extra_options=list(options or ["--by"] * len(cols)), encoding=encoding, normalize=normalize,
                            sep=sep or "|", progress=update)


def compare_by_front(eng: Any, systems: Sequence[Any], gold: Any, pred: str, id_col: Any, by: Any,
                     common: dict[str, Any], slicing: dict[str, Any], names: Any, *, input_format: Any,
                     encoding: str, normalize: Any) -> Any:
    """``compare(..., by=...)``: two systems read into memory (arrays; tables or PATHs aligned by id, else by row,
    the ``by`` columns taken from the first), A vs B overall and within every slice."""
    from clfeval.significance.slicecompare import compare_by

    if isinstance(eng, Dask):
        raise UsageError(lambda o: f"option {o} of compare runs on the Local engine (the two systems in memory); "
                                   f"the Dask engine does not slice comparisons yet.", params=["by"])
    sets = slicing["sets"]
    if len(sets) != 1:
        raise UsageError(lambda o: f"option {o} of compare takes one set of columns.", params=["by"])
    cols = list(sets[0])
    if all(inputs.is_path(s) or inputs.is_table(s) for s in systems) and systems:
        if len(systems) != 2:
            raise UsageError(lambda o: f"option {o} compares two systems; got {len(systems)}.", params=["by"])
        g, a, b, extra = _read_two(eng, systems, gold or "gold", pred, id_col, cols, input_format, encoding, normalize)
    else:
        g, *rest = systems if gold is None else [gold, *systems]
        if len(rest) != 2:
            raise UsageError(lambda o: f"option {o} compares two systems; got {len(rest)}.", params=["by"])
        a, b = rest
        extra = _by_arrays(by, len(inputs.as_column(g, "gold")))
    batch = SimpleNamespace(extra=extra, gold=extra[next(iter(extra))])
    binning = binning_of([batch], slicing, list(extra))
    r = compare_by(g, a, b, extra, names=tuple(names or ("A", "B")), max_slices=slicing["max_slices"],
                   min_slice=slicing["min_slice"], binning=binning, **common)
    return dataclasses.replace(r, engine=engine_block(eng, "memory", memory=eng.budget))


def _read_two(eng: Any, systems: Sequence[Any], gold: str, pred: str, id_col: Any, cols: list[str], fmt: Any,
              encoding: str, normalize: Any) -> tuple[Any, Any, Any, dict[str, Any]]:
    import contextlib

    from clfeval.io.align import align_predictions
    from clfeval.io.predictions import read_predictions

    with contextlib.ExitStack() as stack:
        paths = []
        for i, s in enumerate(systems):
            if inputs.is_table(s):
                table = inputs.columns_of(s, {"gold": gold, "pred": pred})
                if i == 0:
                    _check_by_columns(table.column_names, [tuple(cols)])
                paths.append(stack.enter_context(inputs.spooled(table, eng.budget, eng.tmpdir)))
            else:
                paths.append(inputs.resolve(s, input_format=fmt, encoding=encoding))
        read = [read_predictions(p, gold=gold, pred=pred, id=id_col, normalize=normalize,
                                 extra=cols if i == 0 else (), extra_options=["--by"] * len(cols) if i == 0 else None)
                for i, p in enumerate(paths)]
        g, (a, b), _ = align_predictions(read)
        return g, a, b, {c: read[0].extra[c] for c in cols}
