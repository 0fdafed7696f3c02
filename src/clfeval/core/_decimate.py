"""Curves as few points as keep them within a pixel of the exact curve (numpy only, no plotting).

A ranking of ten million scores has up to ten million ROC points; a figure
600 pixels wide can show a few hundred of them apart. Two steps, both with a
bound on the error in pixels at a reference figure size:

1. :func:`ranking_points` samples the cuts of a ranking straight from its
   sorted score arrays (no merge of the arrays, so it costs a few thousand
   binary searches, not a sort): thresholds at evenly spaced ranks of every
   sorted array and at geometrically spaced ranks from the top. Between two
   sampled cuts at most 1/``GRID`` of the positives and of the negatives
   change side, and at most a fraction ``GEOMETRIC − 1`` of the items
   predicted positive, so recall, FPR and precision move by at most
   ~1/``GRID``: the exact curve between two samples stays in a box of that
   size around the straight line drawn between them.
2. :func:`simplify` (Ramer–Douglas–Peucker in pixel coordinates) drops every
   point that lies within ``tolerance`` pixels of the polyline through the
   points it keeps.

:func:`curve_to_pixels` states the reference size: a curve drawn in a unit
square (ROC, PR, a sweep scaled to its ranges) at :data:`REFERENCE_PX`.
Figures of clfeval are drawn at most that large, so their curves are within
one pixel of the exact ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["REFERENCE_PX", "GRID", "GEOMETRIC", "simplify", "sample_ranks", "ranking_points", "ranking_curves",
           "curves_of_points", "sweep_curves", "sweep_of_points", "rounded"]

#: Width and height in pixels of the largest plot area a curve is drawn in.
REFERENCE_PX = (1000, 1000)
#: Evenly spaced ranks sampled per sorted array.
GRID = 4096
#: Ratio of the geometrically spaced ranks from the top of each sorted array.
GEOMETRIC = 1.0005
#: Pixels allowed between the simplified and the sampled polyline (sampling keeps below 0.3 px).
TOLERANCE = 0.6


def simplify(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray, *, tolerance: float = TOLERANCE,
             xlim: tuple[float, float] = (0.0, 1.0), ylim: tuple[float, float] = (0.0, 1.0),
             px: tuple[int, int] = REFERENCE_PX) -> np.ndarray:
    """Indices of the points to keep so that the polyline stays within ``tolerance`` pixels.

    Ramer–Douglas–Peucker (iterative) on the points mapped to a ``px`` plot
    area spanning ``xlim`` × ``ylim``; distances are to segments, so every
    dropped point lies within ``tolerance`` pixels of the kept polyline. Points
    with a non-finite coordinate are dropped. The first and last points are
    always kept.

    >>> simplify([0, 0.5, 1], [0, 0.5, 1]).tolist()  # collinear: the middle point goes
    [0, 2]
    >>> simplify([0, 0.5, 1], [0, 0.9, 1]).tolist()
    [0, 1, 2]
    """
    xa = np.asarray(x, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
    ok = np.flatnonzero(np.isfinite(xa) & np.isfinite(ya))
    if ok.size <= 2:
        return ok
    sx = px[0] / ((xlim[1] - xlim[0]) or 1.0)
    sy = px[1] / ((ylim[1] - ylim[0]) or 1.0)
    X = (xa[ok] - xlim[0]) * sx
    Y = (ya[ok] - ylim[0]) * sy
    keep = np.zeros(ok.size, dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, ok.size - 1)]
    # Short segments in plain floats (the same IEEE operations in the same order, a first maximum as argmax's):
    # NumPy's dozen calls per segment cost more than the loop below for a few dozen points. Huge coordinates stay
    # in NumPy, where an overflow gives the NaN that argmax picks.
    small = _SMALL if float(max(np.abs(X).max(), np.abs(Y).max())) < 1e100 else 0
    xs, ys = X.tolist(), Y.tolist()
    tol2 = tolerance * tolerance
    while stack:
        i, j = stack.pop()
        if j - i < 2:
            continue
        if j - i <= small:
            k, best = _farthest(xs, ys, i, j)
            if best > tol2:
                keep[k] = True
                stack.append((i, k))
                stack.append((k, j))
            continue
        px_, py_ = X[i + 1:j], Y[i + 1:j]
        dx, dy = X[j] - X[i], Y[j] - Y[i]
        L2 = dx * dx + dy * dy
        if L2 == 0.0:
            d2 = (px_ - X[i]) ** 2 + (py_ - Y[i]) ** 2
        else:
            t = np.clip(((px_ - X[i]) * dx + (py_ - Y[i]) * dy) / L2, 0.0, 1.0)
            d2 = (px_ - X[i] - t * dx) ** 2 + (py_ - Y[i] - t * dy) ** 2
        k = int(np.argmax(d2))
        if d2[k] > tolerance * tolerance:
            m = i + 1 + k
            keep[m] = True
            stack.append((i, m))
            stack.append((m, j))
    return ok[keep]


#: Segments of at most this many points are searched in plain floats (:func:`_farthest`).
_SMALL = 64


def _farthest(xs: list[float], ys: list[float], i: int, j: int) -> tuple[int, float]:
    """(index, squared distance) of the point of ``i+1 .. j-1`` farthest from the segment ``i``–``j``: the
    computation of :func:`simplify`'s NumPy branch, value for value."""
    xi, yi = xs[i], ys[i]
    dx, dy = xs[j] - xi, ys[j] - yi
    l2 = dx * dx + dy * dy
    best, k = -1.0, i + 1
    for m in range(i + 1, j):
        ax, ay = xs[m] - xi, ys[m] - yi
        if l2 == 0.0:
            d = ax * ax + ay * ay
        else:
            t = (ax * dx + ay * dy) / l2
            t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
            ex, ey = ax - t * dx, ay - t * dy
            d = ex * ex + ey * ey
        if d > best:
            best, k = d, m
    return k, best


def sample_ranks(n: int, *, grid: int = GRID, geometric: float = GEOMETRIC) -> np.ndarray:
    """The ranks (0-based, ascending order) a sorted array of ``n`` scores is sampled at: evenly spaced
    ranks and geometrically spaced ranks from the top (with repeats; empty for ``n = 0``).

    >>> sample_ranks(5, grid=2).tolist()
    [0, 2, 4, 4, 3, 2, 1, 0]
    """
    if n == 0:
        return np.empty(0, dtype=np.int64)
    even = np.linspace(0, n - 1, min(n, grid + 1)).round().astype(np.int64)
    steps = int(math.ceil(math.log(n) / math.log(geometric))) + 1 if n > 1 else 1
    top = np.unique(np.floor(geometric ** np.arange(steps)).astype(np.int64))
    top = n - np.minimum(top, n)  # ranks from the top: n-1, n-2, ... spaced geometrically
    return np.concatenate([even, top])


def _merged(parts: Sequence[np.ndarray]) -> np.ndarray:
    if len(parts) == 1:
        return parts[0]
    merged = np.concatenate(parts)
    merged.sort(kind="stable")  # timsort: a merge of sorted runs
    return merged


def ranking_points(pos: np.ndarray, neg_parts: Sequence[np.ndarray], *, grid: int = GRID,
                   geometric: float = GEOMETRIC) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(thresholds, tp, fp) at sampled cuts of a ranking, decreasing threshold (see the module notes).

    ``pos`` and each of ``neg_parts`` are sorted ascending. Each sampled cut is
    an exact cut (a score of the data; positive iff score ≥ threshold). The
    thresholds are the scores at :func:`sample_ranks` of the positives and of
    the negatives (all parts as one sorted array), so they depend on the scores
    only, not on how the negatives were split into parts.
    """
    neg = _merged(neg_parts)
    picks = [a[sample_ranks(a.shape[0], grid=grid, geometric=geometric)] for a in (pos, neg)]
    thr = np.unique(np.concatenate(picks))[::-1]
    tp = pos.shape[0] - np.searchsorted(pos, thr, side="left")
    fp = neg.shape[0] - np.searchsorted(neg, thr, side="left")
    return thr, tp.astype(np.int64), fp.astype(np.int64)


def rounded(values: np.ndarray, digits: int = 6) -> list[float | None]:
    """Plain floats rounded to ``digits`` decimals (far below a pixel); NaN as None."""
    return [None if not math.isfinite(v) else round(v, digits) for v in np.asarray(values, dtype=np.float64).tolist()]


def ranking_curves(pos: np.ndarray, neg_parts: Sequence[np.ndarray]) -> dict[str, Any]:
    """Decimated ROC and PR curves of a ranking, as plain data for JSON.

    ``roc``: ``fpr``, ``tpr`` from (0, 0) to (1, 1) (straight lines between the
    cuts, as ROC points are joined); ``pr``: ``recall``, ``precision`` at the
    cuts. Both within one pixel of the exact curve at :data:`REFERENCE_PX`.
    """
    n_pos = pos.shape[0]
    n_neg = int(sum(p.shape[0] for p in neg_parts))
    points = ranking_points(pos, neg_parts) if n_pos and n_neg else None
    return curves_of_points(points, n_pos, n_neg)


def curves_of_points(points: tuple[np.ndarray, np.ndarray, np.ndarray] | None, n_pos: int,
                     n_neg: int) -> dict[str, Any]:
    """:func:`ranking_curves` from the sampled cuts ``(thresholds, tp, fp)`` of :func:`ranking_points`
    (or the same points found another way: a ranking beyond memory samples the same ranks)."""
    out: dict[str, Any] = {"reference_px": list(REFERENCE_PX),
                           "how": "cuts sampled at even and geometric ranks, then simplified within "
                                  f"{TOLERANCE:g} px (Ramer-Douglas-Peucker) at {REFERENCE_PX[0]}x{REFERENCE_PX[1]} px"}
    if n_pos == 0 or n_neg == 0 or points is None:
        out["roc"] = None
        out["pr"] = None
        return out
    thr, tp, fp = points
    fpr = np.concatenate([[0.0], fp / n_neg])
    tpr = np.concatenate([[0.0], tp / n_pos])
    keep = simplify(fpr, tpr)
    out["roc"] = {"fpr": rounded(fpr[keep]), "tpr": rounded(tpr[keep])}
    prec = tp / (tp + fp)
    rec = tp / n_pos
    keep = simplify(rec, prec)
    out["pr"] = {"recall": rounded(rec[keep]), "precision": rounded(prec[keep])}
    return out


def sweep_curves(pos: np.ndarray, neg_parts: Sequence[np.ndarray], *, beta: float = 1.0) -> dict[str, Any] | None:
    """Precision, recall and F-beta against the threshold (decimated), as plain data for JSON.

    The threshold axis is scaled to the range of the sampled thresholds; the
    measures to [0, 1]. Precision of a cut is always defined (each cut
    predicts at least one item); recall and F-beta need a positive.
    """
    n_pos = pos.shape[0]
    if n_pos == 0:
        return None
    return sweep_of_points(ranking_points(pos, neg_parts), n_pos, beta=beta)


def sweep_of_points(points: tuple[np.ndarray, np.ndarray, np.ndarray], n_pos: int, *,
                    beta: float = 1.0) -> dict[str, Any] | None:
    """:func:`sweep_curves` from the sampled cuts ``(thresholds, tp, fp)`` of :func:`ranking_points`."""
    thr, tp, fp = points
    if n_pos == 0 or thr.size == 0:
        return None
    fn = n_pos - tp
    prec = tp / (tp + fp)
    rec = tp / n_pos
    b2 = beta * beta
    den = (1 + b2) * tp + b2 * fn + fp
    f = np.divide((1 + b2) * tp, den, out=np.zeros(thr.shape[0]), where=den > 0)
    lim = (float(thr.min()), float(thr.max()))
    keep = np.unique(np.concatenate([simplify(thr, prec, xlim=lim), simplify(thr, rec, xlim=lim),
                                     simplify(thr, f, xlim=lim)]))
    return {"beta": beta, "threshold": rounded(thr[keep], 9), "precision": rounded(prec[keep]),
            "recall": rounded(rec[keep]), "fbeta": rounded(f[keep]), "reference_px": list(REFERENCE_PX)}


def replicate_histogram(values: np.ndarray, *, delta: float, threshold: float, count_beyond: int, kind: str,
                        max_bins: int = 60) -> dict[str, Any]:
    """The histogram of resampling replicates (bin edges and counts), as plain data for JSON.

    When the replicates take at most ``max_bins`` distinct values (δ of
    accuracy on a small test set moves in steps of 1/n), each value gets its
    own bin, centred on it; otherwise ``max_bins`` equal-width bins over the
    finite replicates. ``count_beyond`` is the exact count of replicates at or
    beyond ``threshold`` that the p-value was computed from (a bin may
    straddle the threshold; this count never does). Non-finite replicates are
    counted in ``undefined``, not binned.

    >>> h = replicate_histogram(np.array([0.1, 0.2, 0.2, 0.3]), delta=0.2, threshold=0.4, count_beyond=0,
    ...                         kind="bootstrap")
    >>> h["counts"], [round(e, 6) for e in h["edges"]]
    ([1, 2, 1], [0.05, 0.15, 0.25, 0.35])
    """
    v = np.asarray(values, dtype=np.float64)
    finite = v[np.isfinite(v)]
    out: dict[str, Any] = {"kind": kind, "delta": float(delta), "threshold": float(threshold),
                           "count_beyond": int(count_beyond), "samples": int(v.shape[0]),
                           "undefined": int(v.shape[0] - finite.shape[0])}
    if finite.size == 0:
        out.update(edges=[], counts=[])
        return out
    u = np.unique(finite)
    if u.size <= max_bins:
        if u.size == 1:
            half = max(abs(float(u[0])) * 0.01, 1e-9)
            edges = np.array([u[0] - half, u[0] + half])
        else:
            mids = (u[1:] + u[:-1]) / 2
            step = float(np.min(np.diff(u)))
            edges = np.concatenate([[u[0] - step / 2], mids, [u[-1] + step / 2]])
        counts = np.bincount(np.searchsorted(u, finite), minlength=u.size)
    else:
        counts, edges = np.histogram(finite, bins=max_bins)
    out["edges"] = [float(e) for e in edges]
    out["counts"] = [int(c) for c in counts]
    return out
