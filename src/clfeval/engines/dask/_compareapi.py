"""``clfeval.engines.dask.compare``, the documented Dask function of ``compare``, kept as it was: a thin call of
the generic pieces (the join of :func:`~clfeval.engines.dask._join.accumulate_joined` and ``compare``'s
accumulator, :class:`clfeval.significance.JointCounts`); the front door runs the same pieces through
:meth:`clfeval.engines.Runner.accumulate_joined`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from clfeval.engines.dask._join import accumulate_joined
from clfeval.ops.compare import Compared

__all__ = ["compare"]


def compare(a: Any, b: Any, *, metric: str = "accuracy", gold: str = "gold", pred: str = "pred",
            id: str | None = "id", test: str = "bootstrap", samples: int = 10_000, seed: Any = 0,
            alpha: float = 0.05, ci: float = 0.95, zero_division: Any = 0, beta: float = 1.0,
            names: Sequence[str] = ("a", "b"), client: Any = None, normalize: str | None = None) -> Compared:
    """``clfeval.compare`` of two inputs on Dask: items joined by ``id`` on the cluster, one joint table.

    Without ``id`` (``id=None``) the rows are matched by position, which
    needs both inputs partitioned alike. Duplicate ids, ids in one input
    only and items whose gold labels differ are refused, as locally.
    """
    from clfeval.significance import JointCounts, check_metric

    check_metric(metric)
    make = partial(JointCounts, [str(n) for n in names])
    make()  # the names checked before any work
    acc = accumulate_joined([a, b], make, gold=gold, pred=pred, id=id, names=names, normalize=normalize,
                            client=client)
    return acc.finish("", metric=metric, test=test, samples=samples, seed=seed, alpha=alpha, ci=ci,
                      zero_division=zero_division, beta=beta)
