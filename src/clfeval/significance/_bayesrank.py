"""The Bayesian signed-rank test (Benavoli, Mangili, Corani, Zaffalon & Ruggeri 2014; Benavoli, Corani,
Demšar & Zaffalon 2017, JMLR 18).

For the differences z_1 … z_N of two systems over N data sets (z > 0: the
second system better), the posterior of the Dirichlet process with prior
strength s puts a pseudo-observation z_0 = 0 of weight s beside the N
observations of weight 1. A posterior sample is a weight vector
w ~ Dirichlet(s, 1, …, 1), and the three masses of the sample are

    θ_right = Σ_i Σ_j w_i w_j H((z_i + z_j) − 2r),
    θ_left  = Σ_i Σ_j w_i w_j H(−(z_i + z_j) − 2r),
    θ_rope  = 1 − θ_left − θ_right,

with H(a) = 1 for a > 0, ½ for a = 0, 0 otherwise and r the half-width of
the region of practical equivalence (ROPE). As the ``baycomp`` package
reports them, the probabilities are the shares of the samples in which each
region has the largest mass (ties go to the first of left, rope, right).
With r = 0 there is no rope: θ_left = 1 − θ_right.

The double sum is not formed per sample: with the z sorted, the j for which
z_i + z_j exceeds 2r form a suffix (floating addition is monotone), so each
mass is Σ_i w_i times a difference of cumulative sums of w — O(N) work per
sample instead of O(N²).

The test depends only on the order of the sums z_i + z_j against ±2r, which an
exact scaling by a power of two keeps: z and r are scaled so that no sum of
finite differences overflows (:func:`clfeval.significance._manysystems.scale_exponent`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from clfeval.significance._manysystems import scale_exponent, scaled
from clfeval.stats import draw_dirichlet

__all__ = ["BayesProbs", "signed_rank"]

#: Posterior samples drawn at once (bounds the memory: CHUNK × (N + 2) floats, a few times).
CHUNK = 4096


@dataclass(frozen=True)
class BayesProbs:
    """P(left), P(rope), P(right): the shares of samples in which each region has the largest mass."""

    left: float
    rope: float
    right: float


def _block_bounds(z: np.ndarray, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    sums = z[:, None] + z[None, :]
    return ((sums > t).sum(axis=1), (sums == t).sum(axis=1), (sums < -t).sum(axis=1), (sums == -t).sum(axis=1))


def signed_rank(z: np.ndarray, *, rope: float, prior: float, samples: int, rng: np.random.Generator) -> BayesProbs:
    """The Bayesian signed-rank test of the differences ``z`` (positive: the second system better).

    >>> p = signed_rank(np.full(20, 0.05), rope=0.01, prior=0.5, samples=2000, rng=np.random.default_rng(0))
    >>> p.right > 0.99
    True
    """
    e = int(scale_exponent(z))  # z and the ROPE times 2^−e, exactly: no sum z_i + z_j of finite z overflows
    zs = np.sort(np.concatenate(([0.0], scaled(z, e))), kind="stable")
    rope = math.ldexp(rope, -e)
    m = zs.size
    alpha = np.ones(m)
    alpha[int(np.searchsorted(zs, 0.0, side="left"))] = prior  # the pseudo-observation (any of equal zeros)
    gt, eq_hi, lt, eq_lo = _block_bounds(zs, 2.0 * rope)
    hi_start = m - gt                     # columns ≥ hi_start: z_i + z_j > 2r
    eq_start = hi_start - eq_hi           # columns in [eq_start, hi_start): equal to 2r
    counts = np.zeros(3, dtype=np.int64)
    done = 0
    while done < samples:
        s = min(CHUNK, samples - done)
        w = draw_dirichlet(alpha, s, rng)
        c = np.zeros((s, m + 1))
        np.cumsum(w, axis=1, out=c[:, 1:])
        right = np.einsum("sm,sm->s", w, c[:, -1:] - c[:, hi_start] + 0.5 * (c[:, hi_start] - c[:, eq_start]))
        if rope > 0:
            left = np.einsum("sm,sm->s", w, c[:, lt] + 0.5 * (c[:, lt + eq_lo] - c[:, lt]))
            mid = 1.0 - left - right
        else:
            left = 1.0 - right
            mid = np.zeros(s)
        win = np.argmax(np.stack([left, mid, right], axis=1), axis=1)
        counts += np.bincount(win, minlength=3)
        done += s
    p = counts / float(samples)
    return BayesProbs(float(p[0]), float(p[1]), float(p[2]))
