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
  0.17 s against 0.21 s for ``"simd"``, once the masked buffers come from the
  system allocator (:func:`_classes`).
* ``"simd"`` — the positives and the negatives each masked and sorted whole,
  side by side on two threads, the positives searched into the one sorted
  array of negatives: what SIMD sorts used while masking went through
  pyarrow's default memory pool; kept for ``split_sorted(..., plan="simd")``.
* ``"single"`` — small inputs (below ``PARALLEL_MIN`` items) or one core: no threads.

The strategy comes from what numpy reports about the CPU
(:func:`simd_sort`, its runtime-enabled dispatch targets in ``__cpu_features__``;
``NPY_DISABLE_CPU_FEATURES`` turns them off) and from the data size.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

import numpy as np

from clfeval.core import ExactSum

__all__ = ["PARALLEL_MIN", "cpu_features", "simd_sort", "strategy", "split_sorted", "pairs_and_ap", "threads"]

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
    """The scores of the positives and/or negatives, each a fresh writable array (pyarrow's filter kernel:
    about twice as fast as numpy's boolean indexing, and the GIL is released)."""
    import pyarrow as pa

    from clfeval.core import arrowcompute as pc

    n = scores.shape[0]
    values = pa.Array.from_buffers(pa.float64(), n, [None, pa.py_buffer(np.ascontiguousarray(scores, np.float64))])
    mask = pa.Array.from_buffers(pa.bool_(), n, [None, pa.py_buffer(np.packbits(y, bitorder="little"))])
    # the system allocator, not pyarrow's default pool (mimalloc here): these large buffers are sorted in place
    # and handed to NumPy, and mimalloc gave their pages back to the system on every call (a ranking of 1e7
    # scores took twice as long)
    pool = pa.system_memory_pool()
    out = []
    for positive in which:
        got = pc.filter(values, mask if positive else pc.invert(mask, memory_pool=pool), memory_pool=pool)
        buf = got.buffers()[1]
        arr = np.frombuffer(buf, dtype=np.float64)[got.offset:got.offset + len(got)] if buf is not None else \
            np.empty(0, dtype=np.float64)
        out.append(arr if arr.flags.writeable else arr.copy())
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


_WINDOW = 4096  # positives searched together, in the window of negatives between the first and the next


def _left(neg: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """``np.searchsorted(neg, pos)`` for sorted ``pos``: in windows, so that each binary search stays in a
    cache-sized stretch of ``neg`` (a third faster than one search over the whole array)."""
    if pos.shape[0] <= 4 * _WINDOW:
        return np.searchsorted(neg, pos, side="left")
    starts = np.searchsorted(neg, pos[::_WINDOW], side="left")
    stops = np.append(starts[1:], neg.shape[0])
    out = np.empty(pos.shape[0], dtype=np.intp)
    for k, (lo, hi) in enumerate(zip(starts.tolist(), stops.tolist(), strict=True)):
        chunk = slice(k * _WINDOW, (k + 1) * _WINDOW)
        out[chunk] = np.searchsorted(neg[lo:hi], pos[chunk], side="left") + lo
    return out


def _below_and_tied(pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, int]:
    """For sorted ``pos`` and one sorted part ``neg``: negatives strictly below each positive, and tied pairs."""
    if neg.shape[0] == 0:
        return np.zeros(pos.shape[0], dtype=np.int64), 0
    lp = _left(neg, pos)
    tied = 0
    maybe = neg[np.minimum(lp, neg.shape[0] - 1)] == pos
    if maybe.any():
        tied = int((np.searchsorted(neg, pos[maybe], side="right") - lp[maybe]).sum(dtype=np.int64))
    return lp.astype(np.int64, copy=False), tied


def pairs_and_ap(pos: np.ndarray, neg_parts: Sequence[np.ndarray], *,
                 n_threads: int = 1) -> tuple[int, int, float]:
    """(pairs with positive above negative, tied pairs, average precision) of sorted score arrays.

    ``neg_parts`` are sorted arrays whose union is the negatives: every count
    is a sum over parts, computed on one thread per part (or, with one part,
    on ``n_threads`` slices of the positives) when ``n_threads`` > 1.
    """
    from concurrent.futures import ThreadPoolExecutor

    n_pos = pos.shape[0]
    n_neg = sum(p.shape[0] for p in neg_parts)
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
    left = counted[0][0] if len(counted) == 1 else np.sum([c[0] for c in counted],
                                                          axis=0)  # negatives below each positive
    tied = sum(c[1] for c in counted)
    below = int(left.sum(dtype=np.int64))
    # AP: every positive of a tie group gets the precision of the cut at its score.
    if n_pos > 1 and np.any(pos[1:] == pos[:-1]):
        new = np.empty(n_pos, dtype=bool)
        new[0] = True
        np.not_equal(pos[1:], pos[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        sizes = np.diff(np.append(starts, n_pos))
        tp = n_pos - starts
        fp = n_neg - left[starts]
        ap = ExactSum().add(tp / (tp + fp), sizes).divided(n_pos)
    else:
        tp = np.arange(n_pos, 0, -1, dtype=np.float64)
        fp = n_neg - left
        ap = ExactSum().add(tp / (tp + fp)).divided(n_pos)  # exact: the same bits however the items are split
    return below, tied, ap
