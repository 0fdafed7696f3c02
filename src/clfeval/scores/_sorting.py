"""The two sorted arrays under every ranking, made the fastest way this CPU allows.

Sorting is the floor of an exact ranking (ROC-AUC, average precision): the
positives' scores and the negatives' scores are sorted separately and the
positives are searched into the negatives. How to spend the cores depends on
numpy's sort:

* ``"parts"`` — on several cores: the negatives are cut into one contiguous
  slice per thread, each masked and sorted on its own thread (np.sort releases
  the GIL); the parts are searched separately (counts below a positive add up
  over parts) and merged only when cuts or curves are asked for. This holds
  with numpy's SIMD sort too (x86-simd-sort on AVX2 / AVX-512, Highway's
  VQSort on ARM: about 0.1 s for 10^7 values): 1e7 scores on two cores,
  0.17 s against 0.21 s for ``"simd"``.
* ``"simd"`` — the positives and the negatives each masked and sorted whole,
  side by side on two threads, the positives searched into the one sorted
  array of negatives: what SIMD sorts used while masking went through
  pyarrow's memory pool; kept for ``split_sorted(..., plan="simd")``.
* ``"single"`` — small inputs (below ``PARALLEL_MIN`` items) or one core: no threads.

The strategy comes from what numpy reports about the CPU
(:func:`simd_sort`, its runtime-enabled dispatch targets in ``__cpu_features__``;
``NPY_DISABLE_CPU_FEATURES`` turns them off) and from the data size.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence

import numpy as np

from clfeval.core import ExactSum

__all__ = ["PARALLEL_MIN", "cpu_features", "simd_sort", "strategy", "split_sorted", "ranked_parts", "pairs_and_ap",
           "threads", "precision_mean"]

PARALLEL_MIN = 1 << 20
"""Items from which a ranking uses threads."""

# numpy's sort dispatch targets: x86 levels (numpy ≥ 2.4), the AVX groups of older numpy, and ARM's SIMD.
_SIMD_SORT_FEATURES = ("X86_V4", "X86_V3", "AVX512_SKX", "AVX2", "ASIMD", "SVE", "NEON")


def cpu_features() -> dict[str, bool]:
    """numpy's view of this CPU's SIMD features, as enabled at run time (``__cpu_features__``)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:  # numpy < 2
        from numpy.core._multiarray_umath import __cpu_features__ as features  # type: ignore[no-redef]
    return dict(features)


def simd_sort() -> bool:
    """Whether numpy's float64 sort runs on SIMD instructions here (one of its sort targets is enabled).

    numpy ≥ 2.4 dispatches by x86 levels (``X86_V3``: AVX2, ``X86_V4``: AVX-512),
    older numpy by feature groups (``AVX512_SKX``, ``AVX2``); ARM sorts with ASIMD / SVE.
    """
    features = cpu_features()
    names = ("X86_V4", "X86_V3") if "X86_V3" in features else _SIMD_SORT_FEATURES
    return any(features.get(name) for name in names)


def threads() -> int:
    """Threads a large ranking may use (the cores, at most four)."""
    return max(1, min(4, os.cpu_count() or 1))


def strategy(n: int, *, n_threads: int | None = None, simd: bool | None = None,
             parallel_min: int = PARALLEL_MIN) -> str:
    """``"single"``, ``"simd"`` or ``"parts"`` for a ranking of ``n`` items (see the module docstring).

    >>> strategy(100), strategy(10**7, n_threads=2, simd=True), strategy(10**7, n_threads=2, simd=False)
    ('single', 'parts', 'parts')
    """
    k = threads() if n_threads is None else n_threads
    if n < parallel_min or k == 1:
        return "single"
    return "parts"  # with a SIMD sort too (``simd`` is what the CPU offers, said by the benchmark)


def _sorted(x: np.ndarray) -> np.ndarray:
    x.sort()
    return x


def _classes(y: np.ndarray, scores: np.ndarray, which: tuple[bool, ...] = (True, False)) -> list[np.ndarray]:
    """The scores of the positives and/or negatives, each a fresh writable array, by NumPy (the GIL released).

    A sparse class (at most a quarter of the items; the positives, usually) is gathered by its indices
    (``take(flatnonzero)``), a dense one by boolean indexing. Measured at 1e7 scores, 10 % positive (issue 40,
    best of 12, a loaded machine): half of the negatives 27 ms by boolean indexing against 75 ms by pyarrow's
    filter kernel (what this used before), the positives 22 ms by ``take`` against 33 ms (61 ms by boolean
    indexing).
    """
    x = np.ascontiguousarray(scores, dtype=np.float64)
    y = np.asarray(y, dtype=bool)  # an indicator of 0/1 too (numpy's view of it: no copy for booleans)
    n = x.shape[0]
    n_pos = int(np.count_nonzero(y)) if n else 0
    out = []
    for positive in which:
        mask = y if positive else ~y
        count = n_pos if positive else n - n_pos
        out.append(x.take(np.flatnonzero(mask)) if 4 * count <= n else x[mask])
    return out


def split_sorted(y: np.ndarray, scores: np.ndarray, *, plan: str = "single",
                 n_threads: int = 1) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """(sorted scores of the positives, sorted parts of the negatives' scores) by the ``plan`` of :func:`strategy`."""
    from concurrent.futures import ThreadPoolExecutor

    if plan == "single":
        pos, neg = _classes(y, scores)
        return _sorted(pos), (_sorted(neg),)
    with ThreadPoolExecutor(2 if plan == "simd" else n_threads) as ex:
        if plan == "simd":  # filtering and sorting release the GIL: the two classes side by side
            neg_job = ex.submit(lambda: _sorted(_classes(y, scores, (False,))[0]))
            return _sorted(_classes(y, scores, (True,))[0]), (neg_job.result(),)
        bounds = np.linspace(0, scores.shape[0], n_threads + 1).astype(np.intp)

        def negatives(i: int) -> np.ndarray:
            lo, hi = bounds[i], bounds[i + 1]
            return _sorted(_classes(y[lo:hi], scores[lo:hi], (False,))[0])

        futures = [ex.submit(negatives, i) for i in range(n_threads)]
        pos = _sorted(_classes(y, scores, (True,))[0])
        return pos, tuple(f.result() for f in futures)


def ranked_parts(y: np.ndarray, scores: np.ndarray, *,
                 n_threads: int) -> tuple[np.ndarray, tuple[np.ndarray, ...], tuple[int, int, float]]:
    """The ``"parts"`` plan with its counts made on the same threads: (sorted positives, sorted parts of the
    negatives, :func:`pairs_and_ap` of them).

    Each thread masks and sorts its slice of the negatives, then searches the positives into it as soon as the
    calling thread has sorted them: a part sorted early is searched while the others still sort, and no second
    set of threads is started (issue 40).
    """
    from concurrent.futures import Future, ThreadPoolExecutor

    bounds = np.linspace(0, scores.shape[0], n_threads + 1).astype(np.intp)
    ready: Future[np.ndarray] = Future()

    def part(i: int) -> tuple[np.ndarray, np.ndarray, int]:
        lo, hi = bounds[i], bounds[i + 1]
        neg = _sorted(_classes(y[lo:hi], scores[lo:hi], (False,))[0])
        return (neg, *_below_and_tied(ready.result(), neg))

    with ThreadPoolExecutor(n_threads) as ex:
        futures = [ex.submit(part, i) for i in range(n_threads)]
        try:
            pos = _sorted(_classes(y, scores, (True,))[0])
        except BaseException as exc:  # the threads waiting for the positives end too
            ready.set_exception(exc)
            raise
        ready.set_result(pos)
        done = [f.result() for f in futures]
    parts = tuple(d[0] for d in done)
    return pos, parts, _counted(pos, parts, [(d[1], d[2]) for d in done])


_WINDOW = 4096  # positives searched together, in the window of negatives between the first and the next


def _below_and_tied(pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, int]:
    """For sorted ``pos`` and one sorted part ``neg``: negatives strictly below each positive (a fresh array), and
    the tied pairs.

    ``np.searchsorted(neg, pos)`` in windows of positives, so that each binary search and the tie check (is the
    negative found equal to the positive?) stay in a cache-sized stretch of ``neg`` (a third faster than one
    search over the whole array, and the check no second pass over it).
    """
    n_pos, m = pos.shape[0], neg.shape[0]
    if m == 0:
        return np.zeros(n_pos, dtype=np.intp), 0
    if n_pos <= 4 * _WINDOW:
        bounds = [(0, n_pos, 0, m)]
    else:
        firsts = np.arange(0, n_pos, _WINDOW)
        starts = np.searchsorted(neg, pos[firsts], side="left").tolist()
        stops = [*starts[1:], m]
        bounds = [(i, min(i + _WINDOW, n_pos), lo, hi) for i, lo, hi in zip(firsts.tolist(), starts, stops,
                                                                            strict=True)]
    left = np.empty(n_pos, dtype=np.intp)
    equal = np.empty(n_pos, dtype=bool)
    for i, j, lo, hi in bounds:
        stretch = neg[lo:min(hi + 1, m)]  # one past the window: the negative a positive of the window may equal
        if stretch.shape[0] == 0:  # every negative below the window
            left[i:j], equal[i:j] = lo, False
            continue
        got = np.searchsorted(stretch, pos[i:j], side="left")
        np.equal(stretch[np.minimum(got, stretch.shape[0] - 1)], pos[i:j], out=equal[i:j])
        got += lo
        left[i:j] = got
    tied = 0
    if equal.any():
        tied = int((np.searchsorted(neg, pos[equal], side="right") - left[equal]).sum(dtype=np.int64))
    return left, tied


#: Fixed point of the exact precision sum: q·2^40 = A + R, A an integer ≤ 2^40, R·2^(L+12) an integer < 2^(L+12).
_FIX = 40
#: Weight per chunk of the fixed-point sums: 2^20 · 2^42 < 2^63, so int64 sums of a chunk never overflow.
_FIX_CHUNK = 1 << 20
#: Items per pass: the temporaries of a chunk stay in the cache (a million precisions: 3 ms instead of 12).
_CACHE_CHUNK = 1 << 15


def precision_mean(tp: np.ndarray, fp: np.ndarray, n: int, weights: np.ndarray | None = None, *,
                   bound: int | None = None) -> float:
    """``Σ weights·tp/(tp + fp) / n``, the sum exact and the quotient correctly rounded: the same bits as
    :class:`~clfeval.core.ExactSum` (``ExactSum().add(tp / (tp + fp), weights).divided(n)``), however the items
    are split, in a few passes of int64 arithmetic instead of the general per-binade sums.

    Each precision q = tp/(tp + fp) (tp ≥ 1) is at least 1/(tp + fp) > 2^-L, L the bit length of ``bound`` (at
    least every tp + fp; default their largest), so q is an integer multiple of 2^-(L+52): q·2^40 = A + R,
    A = ⌊q·2^40⌋ and R·2^(L+12) both exact integers, summed in int64 in chunks that cannot overflow, and the two
    sums joined as Python integers. Beyond 2^30 items (or a weight above 2^20) it is ExactSum's.

    >>> precision_mean(np.array([3.0, 2.0, 1.0]), np.array([1, 0, 0]), 3) == (3 / 4 + 1 + 1) / 3
    True
    """
    k = tp.shape[0]
    if n == 0:
        return math.nan
    if k == 0:
        return 0.0
    total = int(np.max(tp + fp)) if bound is None else int(bound)
    big = 1 if weights is None else int(weights.max())
    if (total.bit_length() + 12) > 42 or big > _FIX_CHUNK:
        return ExactSum().add(tp / (tp + fp), weights).divided(n)
    w = None if weights is None else weights.astype(np.int64, copy=False)
    return _fixed_mean(k, lambda a, b: (tp[a:b], fp[a:b], None if w is None else w[a:b]), n, total, big)


def _fixed_mean(k: int, chunk: Callable[[int, int], tuple[np.ndarray, np.ndarray, np.ndarray | None]], n: int,
                total: int, big: int = 1) -> float:
    """:func:`precision_mean` of ``k`` items given chunk by chunk (``chunk(a, b)``: tp, fp and weights of items
    a to b; every tp + fp ≤ ``total`` < 2^30, every weight ≤ ``big`` ≤ 2^20)."""
    shift = total.bit_length() + 12
    step = min(_CACHE_CHUNK, max(1, _FIX_CHUNK // big))
    hi = lo = 0
    for start in range(0, k, step):
        tp, fp, w = chunk(start, min(start + step, k))
        t = np.add(tp, fp, dtype=np.float64)
        np.divide(tp, t, out=t)  # the precisions, as tp / (tp + fp) everywhere
        t *= float(1 << _FIX)  # exact: a power of two
        a = np.floor(t)
        t -= a  # exact: the fraction of t
        t *= float(1 << shift)  # an integer below 2^shift, exactly
        whole, rest = a.astype(np.int64), t.astype(np.int64)
        if w is not None:
            whole *= w
            rest *= w
        hi += int(whole.sum())
        lo += int(rest.sum())
    num = (hi << shift) + lo  # Σ w·q · 2^(40 + shift), exactly
    return num / (int(n) << (_FIX + shift))


def pairs_and_ap(pos: np.ndarray, neg_parts: Sequence[np.ndarray], *,
                 n_threads: int = 1) -> tuple[int, int, float]:
    """(pairs with positive above negative, tied pairs, average precision) of sorted score arrays.

    ``neg_parts`` are sorted arrays whose union is the negatives: every count
    is a sum over parts, computed on one thread per part (or, with one part,
    on ``n_threads`` slices of the positives) when ``n_threads`` > 1.
    """
    from concurrent.futures import ThreadPoolExecutor

    n_pos = pos.shape[0]
    if n_pos == 0:
        return 0, 0, math.nan
    if n_threads > 1 and len(neg_parts) > 1:
        with ThreadPoolExecutor(len(neg_parts)) as ex:  # searchsorted releases the GIL
            counted = list(ex.map(lambda part: _below_and_tied(pos, part), neg_parts))
    elif n_threads > 1:  # one sorted array of negatives: the positives in slices, one per thread
        cut = np.linspace(0, n_pos, n_threads + 1).astype(np.intp)
        with ThreadPoolExecutor(n_threads) as ex:
            pieces = list(ex.map(lambda i: _below_and_tied(pos[cut[i]:cut[i + 1]], neg_parts[0]), range(n_threads)))
        counted = [(np.concatenate([p[0] for p in pieces]), sum(p[1] for p in pieces))]
    else:
        counted = [_below_and_tied(pos, part) for part in neg_parts]
    return _counted(pos, neg_parts, counted)


def _counted(pos: np.ndarray, neg_parts: Sequence[np.ndarray],
             counted: Sequence[tuple[np.ndarray, int]]) -> tuple[int, int, float]:
    """:func:`pairs_and_ap` from the counts of each part (negatives below each positive, tied pairs)."""
    n_pos = pos.shape[0]
    n_neg = sum(p.shape[0] for p in neg_parts)
    if n_pos == 0:
        return 0, 0, math.nan
    left = counted[0][0]  # negatives below each positive, summed over the parts in place (fresh arrays)
    for c in counted[1:]:
        left += c[0]
    tied = sum(c[1] for c in counted)
    below = int(left.sum(dtype=np.int64))
    # AP: every positive of a tie group gets the precision of the cut at its score.
    if n_pos > 1 and np.any(pos[1:] == pos[:-1]):
        new = np.empty(n_pos, dtype=bool)
        new[0] = True
        np.not_equal(pos[1:], pos[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        sizes = np.diff(np.append(starts, n_pos))
        tp = (n_pos - starts).astype(np.float64)
        ap = precision_mean(tp, n_neg - left[starts], n_pos, sizes, bound=n_pos + n_neg)
    elif n_pos + n_neg < 1 << 30:  # the i-th positive from the top: tp = P − i, made chunk by chunk in the cache
        ap = _fixed_mean(n_pos, lambda a, b: (np.arange(n_pos - a, n_pos - b, -1, dtype=np.float64),
                                              n_neg - left[a:b], None), n_pos, n_pos + n_neg)
    else:
        ap = precision_mean(np.arange(n_pos, 0, -1, dtype=np.float64), n_neg - left, n_pos)
    return below, tied, ap  # AP exact: the same bits however the items are split
