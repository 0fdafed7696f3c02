"""simplify() searches short segments in plain floats: the points it keeps are those of the NumPy search (kept here
as the reference, as the function was written before), on curves of every shape."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.core._decimate import REFERENCE_PX, TOLERANCE, simplify


def simplify_numpy(x, y, *, tolerance=TOLERANCE, xlim=(0.0, 1.0), ylim=(0.0, 1.0), px=REFERENCE_PX):
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
    while stack:
        i, j = stack.pop()
        if j - i < 2:
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


def curves(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 3000))
    kind = seed % 5
    if kind == 0:  # an ROC-like staircase
        x = np.cumsum(rng.random(n) < 0.5) / n
        y = np.cumsum(rng.random(n) < 0.7) / n
    elif kind == 1:  # noise
        x, y = rng.random(n), rng.random(n)
    elif kind == 2:  # collinear with repeats (zero-length segments)
        x = np.repeat(np.linspace(0, 1, max(1, n // 3)), 3)[:n]
        y = x.copy()
    elif kind == 3:  # a closed loop: first and last points equal
        a = np.linspace(0, 2 * np.pi, n)
        x, y = 0.5 + 0.4 * np.cos(a), 0.5 + 0.4 * np.sin(a)
    else:  # a precision curve with NaN points and ties on a grid
        x = np.round(rng.random(n), 3)
        y = np.round(rng.random(n), 2)
        y[rng.random(n) < 0.05] = np.nan
    return x, y


@pytest.mark.parametrize("seed", range(60))
def test_short_segments_keep_the_points_numpy_keeps(seed):
    x, y = curves(seed)
    for tol in (0.1, TOLERANCE, 5.0):
        assert simplify(x, y, tolerance=tol).tolist() == simplify_numpy(x, y, tolerance=tol).tolist()


def test_other_limits_and_sizes():
    x, y = curves(7)
    for xlim, ylim, px in (((0.0, 2.0), (-1.0, 1.0), (300, 200)), ((0.2, 0.4), (0.0, 1.0), (4000, 10))):
        assert simplify(x, y, xlim=xlim, ylim=ylim, px=px).tolist() == \
            simplify_numpy(x, y, xlim=xlim, ylim=ylim, px=px).tolist()


def test_huge_coordinates_take_the_numpy_path():
    x = np.array([0.0, 1e200, 2e200, 3e200, 1.0])
    y = np.array([0.0, -1e200, 5e200, 1e199, 1.0])
    with np.errstate(all="ignore"):  # the squares overflow: NaN distances, as argmax sees them
        assert simplify(x, y).tolist() == simplify_numpy(x, y).tolist()
