"""``compare --by``: A against B within every slice, adjusted across slices, and Simpson's paradox named.

Each slice's joint (gold, A, B) table is compared with the test and the samples of the overall comparison
(:func:`clfeval.significance._paired.compare_counts`, one seed stream per slice, the slices in their sorted order)
by :func:`compare_tables`, whichever way the tables were counted — from the items in memory (:func:`compare_by`),
streamed or on Dask (:mod:`clfeval.front._slicecompare`) —; the slices' p-values are adjusted
with Holm and Benjamini–Yekutieli, and when A is better overall and B in every slice (or the reverse) a sentence
says so: the overall number is then a property of how the items are spread over the slices, not of the systems.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from clfeval.core import MAX_SLICES, MISSING, SliceBinning, joint_table, label_str
from clfeval.errors import DataError, UsageError
from clfeval.ops.compare import Compared, SlicedPart, SliceRow
from clfeval.significance import compare_counts
from clfeval.stats import benjamini_yekutieli, holm

__all__ = ["compare_by", "compare_tables", "slice_groups", "simpson_sentence", "sorted_slices"]


def slice_groups(columns: Mapping[str, Any], *, max_slices: int = MAX_SLICES,
                 binning: Mapping[str, SliceBinning] | None = None) -> tuple[list[str], list[tuple], np.ndarray]:
    """(slice names, slice keys, slice code of every row) of the ``by`` columns held in memory."""
    from clfeval.core import SliceCounter

    names = list(columns)
    counter = SliceCounter([tuple(names)], max_slices=max_slices, binning=binning)
    slot = counter.slice_codes(columns)
    keys = counter.keys()
    for j, c in enumerate(names):
        if keys and all(k[j] == MISSING for k in keys):
            raise DataError(lambda o, _c=c: f"column {_c!r} (option {o}) is null in every row: there is nothing to "
                                            f"slice by.", params=["by"])
    shown = [label_str(k[0]) if len(names) == 1 else ", ".join(f"{c}={label_str(v)}" for c,
                                                               v in zip(names, k, strict=False))
             for k in keys]
    return shown, keys, slot


def _better(delta: float, higher: bool) -> int:
    if not math.isfinite(delta) or delta == 0:
        return 0
    return 1 if (delta > 0) == higher else -1


def simpson_sentence(overall: Compared, rows: Sequence[SliceRow], by: Sequence[str]) -> str | None:
    """The sentence naming Simpson's paradox, or None: A better overall and B better in every slice (or the
    reverse), over at least two slices."""
    higher = overall.higher_is_better
    sign = _better(overall.delta, higher)
    signs = [_better(r.delta, higher) for r in rows if r.delta is not None]
    if sign == 0 or len(signs) < 2 or any(s != -sign for s in signs):
        return None
    a, b = overall.names
    win, lose = (a, b) if sign > 0 else (b, a)
    return (f"Simpson's paradox: {win} is better than {lose} overall ({overall.label} {overall.a:.4f} vs "
            f"{overall.b:.4f}), but {lose} is better in every one of the {len(signs)} slices of "
            f"{', '.join(by)}: the overall difference comes from how each system's decisions fall across the "
            f"slices, so read the slices before the overall number.")


def compare_by(gold: Any, a: Any, b: Any, by: Mapping[str, Any], *, metric: Any = "accuracy",
               test: str = "bootstrap", samples: int = 10_000, seed: Any = 0, alpha: float = 0.05, ci: float = 0.95,
               zero_division: Any = 0, beta: float = 1.0, names: Sequence[str] = ("A", "B"),
               max_slices: int = MAX_SLICES, min_slice: int = 30, binning: Mapping[str, SliceBinning] | None = None,
               labels: Sequence[Any] | None = None) -> Compared:
    """A vs B overall and within every slice of the ``by`` columns (name → values, one per item), in memory: each
    slice's joint table counted from its items (:func:`~clfeval.core._tables.joint_table`), then
    :func:`compare_tables`."""
    check_min_slice(min_slice)
    overall_table = joint_table(gold, a, b, labels=labels)
    labs = list(overall_table.labels)
    _, keys, slot = slice_groups(by, max_slices=max_slices, binning=binning)
    ga, aa, ba = (np.asarray(_plain(x), dtype=object) for x in (gold, a, b))
    order = sorted_slices(keys, list(by), binning)
    tables = []
    for i in order:
        idx = np.flatnonzero(slot == i)
        tables.append(joint_table(ga[idx].tolist(), aa[idx].tolist(), ba[idx].tolist(), labels=labs))
    return compare_tables(overall_table, list(by), [keys[i] for i in order], tables, metric=metric, test=test,
                          samples=samples, seed=seed, alpha=alpha, ci=ci, zero_division=zero_division, beta=beta,
                          names=names, min_slice=min_slice, binning=binning)


def check_min_slice(min_slice: Any) -> None:
    if int(min_slice) < 1:
        raise UsageError(lambda o: f"option {o} must be a whole number ≥ 1; got {min_slice!r}.", params=["min_slice"])


def sorted_slices(keys: Sequence[tuple], columns: Sequence[str] = (),
                  binning: Mapping[str, Any] | None = None) -> list[int]:
    """Slice indices in the sorted order of their value tuples (whatever order the rows showed them in; bins of
    ``binning`` in numeric order): :func:`clfeval.core._slicecount.slice_order`."""
    from clfeval.core import slice_order

    return slice_order(keys, columns, binning)


def slice_name(by: Sequence[str], key: tuple) -> str:
    """``value`` (one column) or ``a=x, b=y`` (several)."""
    if len(by) == 1:
        return label_str(key[0])
    return ", ".join(f"{c}={label_str(v)}" for c, v in zip(by, key, strict=False))


def compare_tables(overall_table: Any, by: Sequence[str], keys: Sequence[tuple], tables: Sequence[Any], *,
                   metric: Any = "accuracy", test: str = "bootstrap", samples: int = 10_000, seed: Any = 0,
                   alpha: float = 0.05, ci: float = 0.95, zero_division: Any = 0, beta: float = 1.0,
                   names: Sequence[str] = ("A", "B"), min_slice: int = 30,
                   binning: Mapping[str, Any] | None = None) -> Compared:
    """A vs B from count tables: the overall joint table and one per slice (``keys[i]`` the value tuple of
    ``tables[i]``, in their sorted order), each tested with the test and samples of the overall comparison (one seed
    stream per slice, in the order of the slices), the p-values adjusted with Holm and Benjamini–Yekutieli, and
    Simpson's paradox named. In memory, streamed or on Dask, the same tables give the same result."""
    check_min_slice(min_slice)
    if test == "delong":
        raise UsageError(lambda o, t: f"option {o} compares the count tables of the slices (tests bootstrap, "
                                      f"randomization, mcnemar); {t} delong ranks every item's scores.",
                         params=["by", "test"])
    common = dict(metric=metric, test=test, samples=samples, alpha=alpha, ci=ci, zero_division=zero_division,
                  beta=beta, names=tuple(names))
    overall = compare_counts(overall_table, seed=seed, **common)
    for j, c in enumerate(by):
        if keys and all(k[j] == MISSING for k in keys):
            raise DataError(lambda o, _c=c: f"column {_c!r} (option {o}) is null in every row: there is nothing to "
                                            f"slice by.", params=["by"])
    seeds = np.random.SeedSequence(seed if isinstance(seed, int) else 0).spawn(len(keys))
    rows: list[dict[str, Any]] = []
    for i, (key, t) in enumerate(zip(keys, tables, strict=True)):
        n = int(t.n)
        row: dict[str, Any] = {"slice": slice_name(by, key),
                               "key": {c: label_str(v) for c, v in zip(by, key, strict=False)},
                               "n": n, "small": bool(n < min_slice)}
        if n:
            r = compare_counts(t, seed=np.random.default_rng(seeds[i]), **common)
            row.update(a=r.a, b=r.b, delta=r.delta, p=None if row["small"] else r.p_value, ci=r.ci)
        rows.append(row)
    p = np.array([r["p"] if r.get("p") is not None and math.isfinite(r["p"]) else np.nan for r in rows])
    h, y = holm(p), benjamini_yekutieli(p)
    for row, hv, yv in zip(rows, h, y, strict=False):
        if row.get("p") is not None:
            row.update(p_holm=float(hv), p_by=float(yv), significant=bool(hv < alpha))
    slices = [SliceRow(**row) for row in rows]
    notes = []
    small = [r.slice for r in slices if r.small]
    if small:
        notes.append(f"{len(small)} slice(s) below {min_slice} items ({', '.join(small[:5])}): compared, not tested.")
    part = SlicedPart(by=list(by), overall=overall, slices=slices, simpson=simpson_sentence(overall, slices, list(by)),
                      min_slice=int(min_slice), binning=[SliceBinning.of(v) for v in (binning or {}).values()])
    return dataclasses.replace(overall, notes=notes, engine=None, pair=None, sliced=part)


def _plain(x: Any) -> list[Any]:
    if hasattr(x, "to_pylist"):
        return x.to_pylist()
    return list(np.asarray(x).tolist()) if not isinstance(x, list) else x
