"""Distribution pins (issue 39): a seeded resample's output checked against an INDEPENDENT reference within a stated
Monte-Carlo tolerance, never against the digits one sampler happened to draw; a later change of sampler (another
draw order, a multinomial over cells instead of item indices, another generator) re-pins nothing.

The reference is written here, not taken from clfeval: plain NumPy item resampling (``rng.integers(0, n, (B, n))``
over the items, :func:`item_replicates`) or the exact bootstrap distribution by enumeration of a tiny case
(:func:`exact_bootstrap`), or an exact value where one exists (a binomial, the exact permutation distribution).

The tolerances (``Z`` = 4 standard errors throughout; the code's ``B`` replicates and the reference's ``R``, an exact
reference having ``R = ∞``):

* a replicate quantile at level q (a percentile interval's end, a basic bound's order statistic): its value lies
  between the reference's quantiles at the levels q ± (Z·√(q(1−q)·(1/B + 1/R)) + 1/B) — the binomial band of the
  order statistic's rank (F(X_(k)) has standard deviation √(q(1−q)/B)), the reference's own error, and one rank for
  the interpolation and rank conventions. No density is needed, and discrete distributions are handled exactly;
* a p-value from B replicates: |p − p_ref| ≤ Z·√(p*(1−p*)·(1/B + 1/R)) + 2/B, p* = p_ref clipped to [1/B, 1 − 1/B]
  (2/B: the (count + 1)/(B + 1) and ≥ / > conventions);
* the mean of B replicates: |m − μ_ref| ≤ Z·σ_ref·√(1/B + 1/R);
* a standard error from B replicates: |se − se_ref| ≤ Z·se_ref·√((κ − 1)/4·(1/B + 1/R)), κ the replicates' kurtosis
  (the delta method for the standard deviation of a sample standard deviation);
* a stored (golden) interval end, with no replicates to hand: the distribution's scale read from the interval itself,
  σ = (high − low)/(2·z_{(1+L)/2}), and the normal quantile's Monte-Carlo standard error
  σ·√(q(1−q)/B)/φ(z_q) for both the stored and the new run (×√2), times Z, plus ``grid`` (one step of a metric on n
  items, 1/n; a ratio's end moves by whole steps). BCa's levels depend on z₀, itself estimated from the replicates:
  its ends get twice that tolerance.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations_with_replacement

import numpy as np
from scipy import stats

#: standard errors a pin allows (a false alarm about once in 16,000 comparisons)
Z = 4.0


@dataclass(frozen=True)
class Reference:
    """A distribution: its support (sorted) with probabilities, and ``size`` the replicates it came from (None when
    exact)."""

    values: np.ndarray
    probs: np.ndarray
    size: int | None

    @classmethod
    def of_replicates(cls, reps: np.ndarray) -> Reference:
        v = np.sort(np.asarray(reps, dtype=float))
        return cls(v, np.full(v.size, 1.0 / v.size), v.size)

    @classmethod
    def exact(cls, values: np.ndarray, probs: np.ndarray) -> Reference:
        v, inv = np.unique(np.round(np.asarray(values, dtype=float), 12), return_inverse=True)
        p = np.bincount(inv, weights=np.asarray(probs, dtype=float), minlength=v.size)
        return cls(v, p / p.sum(), None)

    def ppf(self, level: float) -> float:
        """The smallest support value with cumulative probability ≥ ``level`` (the inverse CDF)."""
        cdf = np.cumsum(self.probs)
        i = int(np.searchsorted(cdf, min(max(level, 0.0), 1.0) - 1e-12, side="left"))
        return float(self.values[min(i, self.values.size - 1)])

    def cdf(self, x: float, strict: bool = False) -> float:
        """P(X ≤ x) (P(X < x) when ``strict``)."""
        mask = self.values < x - 1e-12 if strict else self.values <= x + 1e-12
        return float(self.probs[mask].sum())

    def moments(self) -> tuple[float, float, float]:
        """Mean, standard deviation and kurtosis (κ = 3 for a normal)."""
        m = float(np.dot(self.probs, self.values))
        d = self.values - m
        var = float(np.dot(self.probs, d**2))
        kurt = float(np.dot(self.probs, d**4)) / var**2 if var > 0 else 3.0
        return m, math.sqrt(var), kurt


def _inv(size: int | None) -> float:
    return 0.0 if size is None else 1.0 / size


# --- the independent references --------------------------------------------------------------------------------

def item_replicates(stat: Callable[..., float], arrays: tuple[np.ndarray, ...], samples: int, seed: int,
                    items: int | None = None) -> Reference:
    """``samples`` replicates of ``stat`` over the items resampled with replacement: ``rng.integers(0, n, (B, n))``
    (the same rows of every array: a paired bootstrap). ``items`` draws that many instead of n (only to show a wrong
    sampler fails)."""
    arrays = tuple(np.asarray(a) for a in arrays)
    n = arrays[0].shape[0]
    idx = np.random.default_rng(seed).integers(0, n, (samples, n if items is None else items))
    return Reference.of_replicates(np.array([stat(*(a[i] for a in arrays)) for i in idx], dtype=float))


def exact_bootstrap(stat: Callable[..., float], arrays: tuple[np.ndarray, ...]) -> Reference:
    """The exact bootstrap distribution of ``stat`` over n items (n ≤ 8): every multiset of n draws, weighted by its
    multinomial probability n! / (Π c_i! · nⁿ)."""
    arrays = tuple(np.asarray(a) for a in arrays)
    n = arrays[0].shape[0]
    if n > 8:
        raise ValueError(f"exact_bootstrap enumerates C(2n−1, n) multisets: n ≤ 8 expected, got {n}")
    values, probs = [], []
    log_nn = n * math.log(n)
    for draw in combinations_with_replacement(range(n), n):
        idx = np.array(draw)
        counts = np.bincount(idx, minlength=n)
        logp = math.lgamma(n + 1) - sum(math.lgamma(c + 1) for c in counts) - log_nn
        values.append(stat(*(a[idx] for a in arrays)))
        probs.append(math.exp(logp))
    return Reference.exact(np.array(values, dtype=float), np.array(probs))


def binomial_proportion(n: int, p: float) -> Reference:
    """Bin(n, p)/n exactly: the bootstrap distribution of a proportion (accuracy) of n items, p observed."""
    k = np.arange(n + 1)
    return Reference.exact(k / n, stats.binom.pmf(k, n, p))


# --- the checks ------------------------------------------------------------------------------------------------

def quantile_band(ref: Reference, q: float, samples: int) -> tuple[float, float]:
    """Where the q-quantile of ``samples`` replicates of the reference's distribution lies (see the module)."""
    h = Z * math.sqrt(q * (1 - q) * (1.0 / samples + _inv(ref.size))) + 1.0 / samples
    return ref.ppf(q - h), ref.ppf(q + h)


def assert_quantile(value: float, ref: Reference, q: float, samples: int, what: str = "quantile") -> None:
    lo, hi = quantile_band(ref, q, samples)
    assert lo - 1e-9 <= value <= hi + 1e-9, (
        f"{what}: {value!r} outside [{lo!r}, {hi!r}], the reference's band for the {q}-quantile of {samples} "
        f"replicates (±{Z} standard errors of its rank)")


def assert_interval(ci: tuple[float, float] | list[float], ref: Reference, level: float, samples: int,
                    what: str = "interval") -> None:
    """A percentile interval's two ends: the (1−L)/2 and (1+L)/2 quantiles."""
    a = (1 - level) / 2
    assert_quantile(float(ci[0]), ref, a, samples, f"{what} low")
    assert_quantile(float(ci[1]), ref, 1 - a, samples, f"{what} high")


def p_value_tolerance(p_ref: float, samples: int, ref_samples: int | None = None) -> float:
    ps = min(max(p_ref, 1.0 / samples), 1 - 1.0 / samples)
    return Z * math.sqrt(ps * (1 - ps) * (1.0 / samples + _inv(ref_samples))) + 2.0 / samples


def assert_p_value(p: float, p_ref: float, samples: int, ref_samples: int | None = None,
                   what: str = "p-value") -> None:
    tol = p_value_tolerance(p_ref, samples, ref_samples)
    assert abs(p - p_ref) <= tol, f"{what}: {p!r} differs from the reference {p_ref!r} by more than {tol:.4g}"


def assert_se(se: float, ref: Reference, samples: int, what: str = "standard error") -> None:
    _, sd, kurt = ref.moments()
    tol = Z * sd * math.sqrt(max(kurt - 1, 0.5) / 4 * (1.0 / samples + _inv(ref.size)))
    assert abs(se - sd) <= tol, f"{what}: {se!r} differs from the reference {sd!r} by more than {tol:.4g}"


def assert_mean(value: float, ref: Reference, samples: int, what: str = "mean of the replicates") -> None:
    """The mean of ``samples`` replicates: |m − μ_ref| ≤ Z·σ_ref·√(1/B + 1/R)."""
    mu, sd, _ = ref.moments()
    tol = Z * sd * math.sqrt(1.0 / samples + _inv(ref.size)) + 1e-12
    assert abs(value - mu) <= tol, f"{what}: {value!r} differs from the reference {mu!r} by more than {tol:.4g}"


# --- stored values (golden files): the tolerance read from the values themselves --------------------------------

def end_tolerance(low: float, high: float, level: float, samples: int, grid: float = 0.0, bca: bool = False) -> float:
    """How far a stored interval end of ``samples`` replicates may move under another sampler (see the module)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return 0.0  # no scale to read from an open-ended interval: compared exactly (none in the golden files)
    z = stats.norm.ppf((1 + level) / 2)
    sigma = abs(high - low) / (2 * z)
    q = (1 - level) / 2
    se = sigma * math.sqrt(q * (1 - q) / samples) / stats.norm.pdf(stats.norm.ppf(q))
    return (2.0 if bca else 1.0) * Z * math.sqrt(2) * se + grid + 1e-12


def jackknife_acceleration(stat: Callable[..., float], arrays: tuple[np.ndarray, ...]) -> float:
    """BCa's acceleration a = Σ U³ / (6 (Σ U²)^{3/2}), U_i = mean of the leave-one-out values − the i-th (Efron)."""
    arrays = tuple(np.asarray(a) for a in arrays)
    n = arrays[0].shape[0]
    loo = np.array([stat(*(np.delete(a, i, axis=0) for a in arrays)) for i in range(n)], dtype=float)
    u = loo.mean() - loo
    den = 6 * float(np.sum(u**2)) ** 1.5
    return float(np.sum(u**3)) / den if den > 0 else 0.0


def bca_band(ref: Reference, theta: float, accel: float, q: float, samples: int) -> tuple[float, float]:
    """Where a BCa end at nominal level q lies: the quantile band (as :func:`quantile_band`) at the adjusted levels
    Φ(z₀ + (z₀ + z_q)/(1 − a(z₀ + z_q))), z₀ = Φ⁻¹ of the share of replicates below θ̂, ties counting ½ (Efron's
    convention, the one clfeval documents), taken at that share ± Z Monte-Carlo errors of it, the widest."""
    s0 = (ref.cdf(theta, strict=True) + ref.cdf(theta)) / 2
    h = Z * math.sqrt(max(s0 * (1 - s0), 1.0 / samples) * (1.0 / samples + _inv(ref.size)))
    shares = [s0 - h, s0 + h]
    zq = stats.norm.ppf(q)
    levels = []
    for s in shares:
        s = min(max(s, 0.5 / samples), 1 - 0.5 / samples)
        z0 = stats.norm.ppf(s)
        levels.append(float(stats.norm.cdf(z0 + (z0 + zq) / (1 - accel * (z0 + zq)))))
    return quantile_band(ref, min(levels), samples)[0], quantile_band(ref, max(levels), samples)[1]


def assert_bca(value: float, ref: Reference, theta: float, accel: float, q: float, samples: int,
               what: str = "BCa end") -> None:
    lo, hi = bca_band(ref, theta, accel, q, samples)
    assert lo - 1e-9 <= value <= hi + 1e-9, f"{what}: {value!r} outside [{lo!r}, {hi!r}] (BCa at level {q})"
