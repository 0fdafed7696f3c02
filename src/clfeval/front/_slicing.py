"""``by=``: the report of one classifier with one count table per slice, on any input and engine.

The overall table and the slice tables come from one pass of one accumulator (:class:`clfeval.slicing.SlicedCounts`,
built by :func:`sliced_counts`): a table or arrays in memory as one batch, a PATH (or a table beyond the budget,
spooled) run by the engine (:meth:`clfeval.engines.Runner.accumulate`: batch by batch within the memory budget
here, one accumulator per group of partitions added in a tree on Dask). Numeric ``by`` columns with ``by_bins`` get
their edges from a first pass. The report is then
``report_from_table`` of the overall table, with the ``slices`` section
(:func:`clfeval.slicing._slices.slice_section`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any, TypedDict

from clfeval.engines import Runner
from clfeval.errors import DataError, UsageError
from clfeval.io import inputs

__all__ = ["report_by", "check_by", "by_arrays", "check_by_columns"]


class _Columns(TypedDict):
    """The columns of gold labels, predictions and (when given) item ids."""

    gold: str
    pred: str
    id: str | None

def check_by(by: Any, *, multilabel: bool, scored: bool, threshold: Any, show_errors: int, max_slices: Any,
             by_bins: Any = None) -> Any:
    """The ``by`` column sets, checked against the other options before any data is read (``by_bins``: at most
    ``max_slices`` bins)."""
    from clfeval.core import check_by_bins, check_slicing, column_sets

    sets = column_sets(by)
    check_slicing("by", "slices", multilabel=multilabel, scored=scored, threshold=threshold, show_errors=show_errors)
    if not isinstance(max_slices, int) or isinstance(max_slices, bool) or max_slices < 1:
        raise UsageError(lambda o: f"option {o} must be a whole number ≥ 1; got {max_slices!r}.",
                         params=["max_slices"])
    check_by_bins(by_bins, max_slices, "max_slices")
    return sets


def by_arrays(by: Any, n: int, param: str = "by") -> dict[str, Any]:
    """With arrays, ``by`` (the parameter ``param``) is a mapping column name → values (or one array, named
    ``by``); a column name alone names nothing without a table."""
    if isinstance(by, str) or (isinstance(by, (list, tuple)) and by and all(isinstance(x, str) for x in by)
                               and len(by) != n):
        raise UsageError(lambda o: f"option {o} names columns ({by!r}), but the data are arrays, not a table: give "
                                   f"the slice columns themselves, as a mapping of column name → values, one per "
                                   f"item ({o}={{'source': [...]}}).", params=[param])
    cols = dict(by) if isinstance(by, dict) else {"by": by}
    out = {}
    for name, values in cols.items():
        col = inputs.as_column(values, param)
        if len(col) != n:
            raise DataError(lambda o, _n=name, _c=col: f"column {_n!r} of {o} has {len(_c):,} values for {n:,} items.",
                            params=[param])
        out[name] = col
    return out


def report_by(eng: Any, data: Any, pred: Any, gold: Any, id: Any, by: Any, settings: dict[str, Any],
              slicing: dict[str, Any], *, input_format: Any, encoding: str, normalize: Any, progress: Any,
              top_n: int) -> tuple[Any, Mapping[str, Any]]:
    """The report of ``data`` with its ``slices`` section, and the engine block."""
    import pyarrow as pa

    if not inputs.is_path(data) and not inputs.is_table(data):
        g = data if data is not None else gold
        if pred is None:
            raise UsageError(lambda p: f"option by slices predictions: give {p}.", params=["pred"])
        cols = {"gold": inputs.as_column(g, "gold"), "pred": inputs.as_column(pred, "pred")}
        if len(cols["gold"]) != len(cols["pred"]):
            raise DataError(f"gold has {len(cols['gold']):,} labels and pred {len(cols['pred']):,}: one each per item.")
        extra = by_arrays(by, len(cols["gold"])) if by is not None else {}
        by_sets = [tuple(extra)] if by is not None else []
        if slicing.get("scores") is not None:
            name = next(n for n in ("score", "scores", "score_") if n not in extra)
            extra[name] = by_arrays({name: slicing["scores"]}, len(cols["gold"]))[name]
            slicing = {**slicing, "score": name}
        find = slicing.get("find")
        if find is not None:
            from clfeval.slicing import lattice

            found = by_arrays(find["given"], len(cols["gold"]), "find_slices")
            extra.update(found)
            find = {**find, "sets": lattice(list(found), min(find["max_depth"], len(found)))}
        if set(extra) & {"gold", "pred"}:
            raise UsageError(lambda o: f"option {o}: name the slice columns other than 'gold' and 'pred'.",
                             params=["by" if by is not None else "find_slices"])
        table = pa.table({**cols, **extra})
        names: _Columns = dict(gold="gold", pred="pred", id=None)
        sets = by_sets + [s for s in (find["sets"] if find else []) if s not in by_sets]
        slicing = {**slicing, "sets": sets, "n_by": len(by_sets), "find": find}
        return _tabular(eng, table, names, settings, slicing, "utf-8", None, progress, top_n)
    names = dict(gold="gold" if gold is None else gold, pred="pred" if pred is None else pred, id=id)
    if inputs.is_table(data):
        table = inputs.columns_of(data, {"gold": names["gold"], "pred": names["pred"]})
        check_by_columns(table.column_names, slicing["sets"])
        score = slicing.get("score")
        if score is not None and score not in table.column_names:
            raise DataError(lambda o: f"the table has no score column {score!r} (option {o}); its columns are: "
                                      f"{', '.join(repr(x) for x in table.column_names)}.", params=["score"])
        keep = [names["gold"], names["pred"], *dict.fromkeys(c for s in slicing["sets"] for c in s)]
        keep += [score] if score is not None and score not in keep else []
        table = table.select(keep)
        return _tabular(eng, table, names, settings, slicing, encoding, normalize, progress, top_n)
    inp = inputs.resolve(data, input_format=input_format, encoding=encoding)
    rep, block = _on_path(eng, inp, names, settings, slicing, encoding, normalize, progress, top_n)
    return rep, block


def check_by_columns(names: Sequence[str], sets: Sequence[tuple[str, ...]]) -> None:
    for s in sets:
        for c in s:
            if c not in names:
                raise DataError(lambda o, _c=c: f"the table has no column {_c!r} (option {o}); its columns are: "
                                                f"{', '.join(repr(x) for x in names)}.", params=["by"])


def _tabular(eng: Runner, table: Any, names: _Columns, settings: dict[str, Any], slicing: dict[str, Any],
             encoding: str, normalize: Any, progress: Any, top_n: int) -> tuple[Any, Mapping[str, Any]]:
    if eng.holds(table):
        from clfeval.slicing import OutsideCounts

        cols = [c for s in slicing["sets"] for c in s]
        score = slicing.get("score")
        batch = SimpleNamespace(gold=table.column(names["gold"]), pred=table.column(names["pred"]), text=False,
                                extra={c: table.column(c) for c in [*cols, *([score] if score else [])]},
                                n=table.num_rows)
        acc = sliced_counts(slicing, settings, binning_of([batch], slicing, cols))()
        acc.update(batch)

        def recount(queries: Any) -> Any:
            outside = OutsideCounts(queries, slicing["find"]["metric"], acc.binning)
            outside.update(batch)
            return outside.finish()

        return with_counts(acc.finish(), settings, slicing, top_n, recount), eng.block("memory")
    with eng.spooled(table) as inp:
        return _on_path(eng, inp, names, settings, slicing, "utf-8", None, progress, top_n, spooled=True)


def binning_of(batches: Any, slicing: dict[str, Any], cols: Sequence[str]) -> dict:
    if slicing.get("by_bins") is None:
        return {}
    from clfeval.slicing import slice_binning

    return slice_binning(batches, list(dict.fromkeys(cols)), bins=slicing["by_bins"], kind=slicing["by_binning"])


def count_limit(slicing: dict[str, Any]) -> int:
    """Slices of one column set counted at most: ``max_slices`` (``--by``), or ``max_search`` for the search."""
    find = slicing.get("find")
    return max(slicing["max_slices"], find["max_search"]) if find else slicing["max_slices"]


def sliced_counts(slicing: dict[str, Any], settings: dict[str, Any], binning: Any, budget: int | None = None
                  ) -> Callable[[], Any]:
    """The empty accumulator of a sliced report (:class:`clfeval.slicing.SlicedCounts`: the overall table, the
    ``by`` sets' slice tables, the slice search's counts, the per-slice rankings' scores within ``budget``)."""
    from functools import partial

    from clfeval.slicing import SlicedCounts

    return partial(SlicedCounts, slicing["sets"][:slicing.get("n_by", len(slicing["sets"]))],
                   max_slices=count_limit(slicing), binning=binning, order=settings["order"],
                   find=slicing.get("find"), score=slicing.get("score"), positive=settings["positive"],
                   budget=budget)


def with_counts(got: Any, settings: dict[str, Any], slicing: dict[str, Any], top_n: int,
                recount: Callable[[Any], Any] | None = None) -> Any:
    """The report of a finished :class:`~clfeval.slicing.SlicedCounts` (``recount(queries)``: the slice search's
    second look at the items, when it needs one)."""
    return with_slices(got.table, got.tables, settings, slicing, top_n, got.found if slicing.get("find") else None,
                       ranks=got.ranks, recount=recount if slicing.get("find") else None)


def with_slices(table: Any, tables: Sequence[Any], settings: dict[str, Any], slicing: dict[str, Any],
                top_n: int, found: Sequence[Any] | None = None, ranks: Any = None, recount: Any = None) -> Any:
    """The report of the overall table with the ``slices`` section of the first column set (``recount``: the
    slice search's second look at the items, when it needs one)."""
    from clfeval.evaluate import report_from_table
    from clfeval.ops.report import FoundSlices, SlicesPart
    from clfeval.slicing import slice_section

    s = settings
    rep = report_from_table(table, positive=s["positive"], beta=s["beta"], zero_division=s["zero_division"],
                            order=s["order"] is not None, train_labels=s.get("train_labels"), sep=s["sep"],
                            top_n=top_n, ci=s["ci"], samples=s["samples"], seed=s["seed"],
                            ci_method=s.get("ci_method", "auto") or "auto")
    slices: SlicesPart | None = None
    found_part: FoundSlices | None = None
    if slicing.get("n_by", 1):
        first = tables[0]
        if len(first.keys) > slicing["max_slices"]:
            raise UsageError(lambda o, b: f"the values of {', '.join(first.columns)} (option {b}) make more than "
                                          f"{slicing['max_slices']:,} slices (option {o}); slice by fewer columns, "
                                          f"bin a numeric column (--by-bins N), or raise {o}.",
                             params=["max_slices", "by"])
        sliced = slice_section(first, positive=s["positive"], beta=s["beta"],
                               zero_division=s["zero_division"], min_slice=slicing["min_slice"],
                               metrics=slicing.get("metrics"), samples=slicing["slice_samples"],
                               seed=s["seed"], ci=s["ci"], ci_samples=s["samples"],
                               ci_method=s.get("ci_method", "auto") or "auto")
        if ranks is not None:
            from clfeval.slicing import with_rankings

            per, overall = ranks.rankings(len(first.keys), sliced["positive"])
            sliced = with_rankings(sliced, per, overall, ranks.score)
        slices = SlicesPart.of(sliced)
    if slicing.get("find"):
        from clfeval.slicing import found_section

        found_part = found_section(found or [], table, slicing["find"], min_slice=slicing["min_slice"],
                                   recount=recount)
    return dataclasses.replace(rep, slices=slices, find_slices=found_part)


def _on_path(eng: Runner, inp: Any, names: _Columns, settings: dict[str, Any], slicing: dict[str, Any],
             encoding: str, normalize: Any, progress: Any, top_n: int,
             spooled: bool = False) -> tuple[Any, Mapping[str, Any]]:
    """A PATH: the bins of numeric slice columns from a first read, then the engine runs the accumulator
    (:func:`sliced_counts`) over every item (streamed here within the budget, mapped over partitions on a
    cluster)."""
    from functools import partial

    from clfeval.front._reportsteps import named_by
    from clfeval.slicing import OutsideCounts

    cols = list(dict.fromkeys(c for s in slicing["sets"] for c in s))
    by_cols = {c for s in slicing["sets"][:slicing.get("n_by", len(slicing["sets"]))] for c in s}
    options = ["--by" if c in by_cols else "--find-slices" for c in cols]
    score = slicing.get("score")
    read_cols, read_options = cols, options
    if score and score not in cols:
        read_cols, read_options = [*cols, score], [*options, "--score"]
    binning = named_by(inp.name, lambda: binning_of(
        _reader(inp, names, cols, encoding, normalize, None, None, options), slicing, cols))
    reading = dict(encoding=encoding, normalize=normalize, sep=settings["sep"] or "|")
    run = partial(eng.accumulate, inp, gold=names["gold"], pred=names["pred"], id=names.get("id"), reading=reading)
    budget = eng.memory  # the budget of the per-slice rankings' scores (none on a cluster)
    acc, mode, _ = named_by(inp.name, lambda: run(sliced_counts(slicing, settings, binning, budget),
                                                  extra=read_cols, extra_options=read_options,
                                                  scores=[score] if score else [], progress=progress,
                                                  read_ahead=True))

    def recount(queries: Any) -> Any:
        make = partial(OutsideCounts, queries, slicing["find"]["metric"], binning)
        return named_by(inp.name, lambda: run(make, extra=cols, extra_options=options)[0].finish())

    rep = named_by(inp.name, lambda: with_counts(acc.finish(), settings, slicing, top_n, recount))
    return rep, eng.block(mode, spooled=spooled, parts=len(inp.sources))


def _reader(inp: Any, names: _Columns, cols: Sequence[str], encoding: str, normalize: Any, update: Any,
            sep: Any, options: Sequence[str] | None = None) -> Any:
    from clfeval.io import iter_predictions

    return iter_predictions(inp, gold=names["gold"], pred=names["pred"], id=names.get("id"), extra=list(cols),
                            extra_options=list(options or ["--by"] * len(cols)), encoding=encoding, normalize=normalize,
                            sep=sep or "|", progress=update)
