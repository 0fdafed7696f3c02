"""``find_slices``: the slice search on columns in memory -- labels and slice columns coded, numbers binned.

The statistics live in :mod:`clfeval.significance.slicefind` and work on count tables; this module turns
arrays (gold, predictions and the columns to search) into those tables, refusing a lattice larger than
``max_search`` before counting it.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np

from clfeval.errors import UsageError
from clfeval.significance.slicefind import FoundSlices, column_sets, count_column_sets, search_tables

__all__ = ["find_slices", "code_column", "lattice_bound"]

NULL = "null"


def _is_numeric(a: np.ndarray) -> bool:
    return a.dtype.kind in "iuf"


def code_column(name: str, values: Any, *, bins: int = 10, binning: str = "quantile"
                ) -> tuple[np.ndarray, list[Any], list[float] | None]:
    """(value index per row, the values, bin edges or None): a numeric column with more than ``bins`` distinct
    values is cut into ``bins`` bins (``quantile`` or ``uniform`` edges, stated); nulls are a value of their own."""
    a = np.asarray(values)
    if a.ndim != 1:
        raise UsageError(f"slice column {name!r}: expected one value per row (a flat column); got shape {a.shape}.")
    if _is_numeric(a):
        x = a.astype(np.float64)
        finite = np.isfinite(x)
        distinct = np.unique(x[finite])
        if distinct.size > bins:
            if binning == "quantile":
                edges = np.unique(np.quantile(x[finite], np.linspace(0, 1, bins + 1)))
            elif binning == "uniform":
                edges = np.linspace(distinct[0], distinct[-1], bins + 1)
            else:
                raise UsageError(lambda m: f"option {m}: expected uniform or quantile; got {binning!r}.",
                                 params=["by_binning"])
            idx = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, edges.size - 2)
            names: list[Any] = [f"[{edges[i]:.6g}, {edges[i + 1]:.6g}{']' if i == edges.size - 2 else ')'}"
                                for i in range(edges.size - 1)]
            codes = np.where(finite, idx, edges.size - 1)
            if not finite.all():
                names.append(NULL)
            return codes.astype(np.int64), names, [float(e) for e in edges]
        values_list = [v.item() if hasattr(v, "item") else v for v in distinct]
        codes = np.searchsorted(distinct, np.where(finite, x, distinct[0] if distinct.size else 0))
        if not finite.all():
            codes = np.where(finite, codes, distinct.size)
            values_list.append(NULL)
        if a.dtype.kind in "iu":
            values_list = [int(v) for v in values_list]
        return codes.astype(np.int64), values_list, None
    obj = np.array([NULL if v is None or (isinstance(v, float) and math.isnan(v)) else str(v) for v in a.tolist()],
                   dtype=object)
    uniq, inv = np.unique(obj.astype(str), return_inverse=True)
    if uniq.size == 1 and uniq[0] == NULL:
        raise UsageError(f"slice column {name!r} is entirely null: it has no slices to search.")
    return inv.astype(np.int64), uniq.tolist(), None


def lattice_bound(sizes: Mapping[str, int], sets: Sequence[tuple[str, ...]], rows: int) -> int:
    """An upper bound of the slices the search examines: per column set, the product of its columns' value counts
    (capped by the rows)."""
    return int(sum(min(rows, math.prod(sizes[c] for c in cs)) for cs in sets))


def find_slices(gold: Any, pred: Any, columns: Mapping[str, Any], *, metric: str | None = None,
                positive: Any = None, max_depth: int = 2, max_search: int = 10_000, alpha: float = 0.05,
                min_slice: int = 30, bins: int = 10, binning: str = "quantile") -> FoundSlices:
    """Search the slices of ``columns`` (each column, each pair, ... up to ``max_depth``) for the worst.

    Parameters
    ----------
    gold, pred : array-like
        One label per item.
    columns : mapping of name to array-like
        The columns to slice by, one value per item.
    metric : str, optional
        A proportion metric of the catalogue; default recall of ``positive`` when given, else accuracy.
    max_depth : int
        1 (single columns), 2 (and pairwise crosses, the default) or 3.
    max_search : int
        The most slices examined in all; a larger lattice is refused before it is counted.

    Returns
    -------
    FoundSlices
        ``found`` ranked worst first, with counts, value, Wilson interval, gap, Cohen's h, p and adjusted p.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> src = rng.choice(["wire", "web", "fax"], 3000)
    >>> gold = rng.integers(0, 2, 3000)
    >>> pred = np.where((src == "fax") & (rng.random(3000) < 0.5), 1 - gold, gold)
    >>> r = find_slices(gold, pred, {"source": src}, max_depth=1)
    >>> r.found[0]["slice"], r.examined
    ('source=fax', 3)
    """
    from clfeval.core.validation import check_positive_int, check_probability

    max_depth = check_positive_int(max_depth, option="max_depth")
    if max_depth > 3:
        raise UsageError(lambda m: f"option {m}: the search goes to depth 3 at most (crosses of three columns); "
                                   f"got {max_depth}.", params=["max_depth"])
    max_search = check_positive_int(max_search, option="max_search")
    min_slice = check_positive_int(min_slice, option="min_slice")
    alpha = check_probability(alpha, option="alpha")
    g = np.asarray(gold)
    p = np.asarray(pred)
    if g.shape != p.shape or g.ndim != 1:
        raise UsageError(f"gold and predictions must be flat and of one length; got {g.shape} and {p.shape}.")
    if not columns:
        raise UsageError(lambda m: f"option {m}: name at least one column to search.", params=["find_slices"])
    labels = sorted({*g.tolist(), *p.tolist()}, key=lambda x: (str(type(x)), x))
    index = {v: i for i, v in enumerate(labels)}
    gi = np.array([index[v] for v in g.tolist()], dtype=np.int64)
    pi = np.array([index[v] for v in p.tolist()], dtype=np.int64)
    if metric is None:
        metric = f"recall:{positive}" if positive is not None else "accuracy"
    codes, values, sizes, edges = {}, {}, {}, {}
    for name, col in columns.items():
        c = np.asarray(col)
        if c.shape[0] != g.shape[0]:
            raise UsageError(f"slice column {name!r} has {c.shape[0]:,} values for {g.shape[0]:,} items.")
        codes[name], values[name], e = code_column(name, c, bins=bins, binning=binning)
        sizes[name] = len(values[name])
        if e is not None:
            edges[name] = e
    sets = column_sets(list(columns), min(max_depth, len(columns)))
    bound = lattice_bound(sizes, sets, len(g))
    if bound > max_search:
        raise UsageError(lambda m: f"option {m} {max_search:,}: the search would examine up to {bound:,} slices "
                                   f"({len(sets)} column sets of {', '.join(columns)} to depth {max_depth}); lower "
                                   f"--max-depth, search fewer columns, bin numbers coarser, or raise {m}.",
                         params=["max_search"])
    tables = count_column_sets(gi, pi, len(labels), codes, sizes, sets)
    notes = [f"Column {c!r} was cut into {len(e) - 1} {binning} bins." for c, e in edges.items()]
    return search_tables(tables, values, labels, metric, alpha=alpha, min_slice=min_slice, max_depth=max_depth,
                         bins=edges, notes=notes)
