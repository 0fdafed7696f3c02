"""The slice search's descendant rule: a found slice explained by the found slices inside it.

After the parent rule (:mod:`clfeval.slicing._slicefind`, 6) a planted cross ``c0=0 ∧ c1=0`` is found
beside its parents ``c0=0`` and ``c1=0``: each parent is worse than the rest of the data *because* it holds the
cross. So each kept slice S that contains kept slices (its *descendants*, at any depth: conjunctions of more
columns holding S's values) is tested again **on its items outside those descendants**, against the items
outside S, by the same two-proportion test (:func:`clfeval.stats.two_by_two`),
one-sided (S ∖ ∪D worse than the rest), unadjusted, at ``alpha``. p ≥ alpha -- or nothing left outside the
descendants -- means S is *explained* by them: it is listed with them (largest first) and not found.

The counts of S ∖ (D₁ ∪ … ∪ D_k) are exact. Descendants inside another descendant add nothing to the union
and are set aside; the rest (the outermost) are usually disjoint -- at depth 2 the crosses of one column value
with one other column's values are -- and their counts are subtracted from S's (the lattice holds them all).
When the outermost descendants overlap (S ∧ B=b and S ∧ C=c share S ∧ B=b ∧ C=c, which the lattice may not
hold), the counts are read from the items: ``recount`` counts every such slice in one more pass
(:class:`clfeval.core._outsidecount.OutsideCounter`), only for those few slices.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from clfeval.core import disjoint_slices
from clfeval.stats import two_by_two

__all__ = ["descendant_rule", "descendants"]

#: A slice as (columns, values): ``(("src", "lang"), ("fax", "de"))``.
Key = tuple[tuple[str, ...], tuple[Any, ...]]


def _inside(child: Key, parent: Key) -> bool:
    """``child`` is a descendant of ``parent``: more columns, the same values on the parent's."""
    mine = dict(zip(*child, strict=True))
    return len(child[0]) > len(parent[0]) and all(c in mine and mine[c] == v for c, v in zip(*parent, strict=True))


def descendants(keys: Sequence[Key]) -> list[list[int]]:
    """For each slice of ``keys``, the indices of its descendants among them.

    >>> descendants([(("a",), (0,)), (("a", "b"), (0, 1)), (("b",), (1,))])
    [[1], [], [1]]
    """
    return [[j for j, other in enumerate(keys) if _inside(other, k)] for k in keys]


def _outermost(keys: Sequence[Key], mine: list[int]) -> list[int]:
    """The descendants that lie inside no other one of ``mine`` (the union is theirs)."""
    return [j for j in mine if not any(i != j and _inside(keys[j], keys[i]) for i in mine)]


def descendant_rule(kept: Sequence[tuple[int, dict[str, Any]]], key: Callable[[int], Key], *, alpha: float,
                    higher: bool, overall: tuple[float, float, float],
                    recount: Callable[[list[Any]], np.ndarray] | None = None
                    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(found, explained): the kept slices (``kept``: index and row, the row with ``items``, ``trials``,
    ``successes`` and ``slice``) without and with an explanation by their kept descendants (see the module
    docstring). ``key(j)``: the conjunction of slice j; ``overall``: all items' (items, trials, successes);
    ``recount(queries)``: rows (items, trials, successes) of each query (S, [D…]) counted from the items."""
    keys = [key(j) for j, _ in kept]
    rows = [r for _, r in kept]
    inner = descendants(keys)
    tested = [i for i, mine in enumerate(inner) if mine]
    if not tested:
        return list(rows), []
    outside: dict[int, tuple[float, float, float]] = {}
    queries: list[tuple[int, Any]] = []
    for i in tested:
        outer = _outermost(keys, inner[i])
        if all(disjoint_slices(keys[a], keys[b]) for a in outer for b in outer if a < b):
            r = rows[i]
            outside[i] = tuple(float(r[x] - sum(rows[j][x] for j in outer))  # type: ignore[assignment]
                               for x in ("items", "trials", "successes"))
        else:
            queries.append((i, (keys[i], [keys[j] for j in outer])))
    if queries:
        if recount is None:
            raise ValueError("overlapping descendants need the items: give recount")
        counted = np.asarray(recount([q for _, q in queries]), dtype=np.float64).reshape(len(queries), 3)
        outside.update({i: (float(c[0]), float(c[1]), float(c[2])) for (i, _), c in zip(queries, counted,
                                                                                         strict=True)})
    items_all, n_all, s_all = overall
    s1 = np.array([outside[i][2] for i in tested])
    n1 = np.array([outside[i][1] for i in tested])
    s2 = np.array([s_all - rows[i]["successes"] for i in tested], dtype=np.float64)
    n2 = np.array([n_all - rows[i]["trials"] for i in tested], dtype=np.float64)
    p, how = two_by_two(s1, n1, s2, n2, "less" if higher else "greater")
    explained_at = {}
    for k, i in enumerate(tested):
        if not (math.isfinite(p[k]) and p[k] < alpha):
            by = sorted(inner[i], key=lambda j: (-rows[j]["items"], rows[j]["slice"]))
            explained_at[i] = {"explained_by": [rows[j]["slice"] for j in by], "without_descendants": {
                "items": int(outside[i][0]), "successes": int(s1[k]), "trials": int(n1[k]),
                "value": _f(s1[k] / n1[k]) if n1[k] else None, "rest_value": _f(s2[k] / n2[k]) if n2[k] else None,
                "p_value": _f(p[k]), "test": how[k], "alternative": "less" if higher else "greater"}}
    found = [r for i, r in enumerate(rows) if i not in explained_at]
    explained = [{**rows[i], **explained_at[i]} for i in sorted(explained_at)]
    return found, explained


def _f(x: Any) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None
