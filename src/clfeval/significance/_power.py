"""Is my test set big enough? Power, the smallest detectable difference, and the test-set size needed.

Three questions, each answered from what was observed on the test set:

**(a) McNemar, paired accuracy — exact.** Of n items, a share p10 is right
for A and wrong for B and p01 the reverse; δ = p10 − p01 is the difference in
accuracy and p_d = p10 + p01 the discordant share. The number of discordant
items is D ~ Bin(n, p_d); given D = d, the number X won by A is
Bin(d, π) with π = p10 / p_d. The exact conditional test (as
:func:`clfeval.significance._paired.mcnemar`) rejects H0 "A not better" when
P(Bin(d, ½) ≥ X) < α, i.e. when X ≥ c_d, the smallest c with
P(Bin(d, ½) ≥ c) < α (two-sided: 2·min tail < α). Its power is the exact sum

    power(n) = Σ_d P(D = d) · P(Bin(d, π) ≥ c_d),

summed over the d that carry all but 2·10⁻¹⁴ of the mass of D. The
smallest detectable δ keeps the observed p_d and solves power(δ) = target
(power grows with δ); the n needed for a δ is the **smallest n whose exact
power ≥ target**. Exact-test power is not monotone in n (the critical value
c_d jumps), so beyond that n power can dip below the target again; the
result also gives the n from which it stays ≥ target (checked up to a
stated n). The search is rigorous: U(n) = E[max_{d' ≤ D} g(d')] ≥ power(n)
is monotone, so no n below the first n with U(n) ≥ target can reach the
target; from there n is scanned exactly (the distribution of D for n + 1 is
that of n convolved with a Bernoulli(p_d)). The lower envelope
E[min_{d' ≥ D} g(d')] gives the point from which power stays above.

**(b) Any count metric — bootstrap.** The standard error SE of δ = M(A) −
M(B) is the standard deviation of the paired bootstrap replicates of δ
(:func:`clfeval.significance._paired.bootstrap_distribution`: multinomial draws of
the joint (gold, A, B) table). A one-sided z-test at level α with power 1 − β
detects δ ≥ (z_{1−α} + z_{1−β})·SE; since SE shrinks as 1/√n, the n needed
for δ is n_obs·((z_{1−α} + z_{1−β})·SE / δ)². A normal approximation, said so.

**(c) One system — interval width.** The width w of the percentile bootstrap
interval of a metric at the current n (multinomial draws of the confusion
table), and the n for a target width W: n_obs·(w / W)², scaling by √n.

References
----------
* McNemar (1947); Fleiss, Levin & Paik (2003), *Statistical Methods for
  Rates and Proportions*, §13 (power of the test for paired proportions).
* Chernick & Liu (2002), "The saw-toothed behavior of power versus sample
  size and software solutions: single binomial proportion using exact
  methods", *The American Statistician* 56:149–155.
* Efron & Tibshirani (1993), *An Introduction to the Bootstrap*.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from clfeval.core import (
    check_beta,
    check_positive_int,
    check_range,
    check_rng,
    check_zero_division,
    confusion_table,
    joint_table,
    scalar_metric,
    signature,
)
from clfeval.errors import DataError, UsageError
from clfeval.ops.power._result import BootstrapPower, IntervalWidth, McNemarPower
from clfeval.significance import _binomial as binomial
from clfeval.significance._comparable import SCORE_METRICS, TRACE_METRICS, check_metric, metric_label
from clfeval.significance._critical import critical_values
from clfeval.significance._paired import bootstrap_distribution
from clfeval.significance._results import check_alternative
from clfeval.stats import resample as rs

__all__ = ["McNemarPower", "BootstrapPower", "IntervalWidth", "mcnemar_exact_power", "mcnemar_power",
           "bootstrap_power", "interval_width", "power_compare", "check_count_metric", "check_alpha",
           "check_power", "check_level", "check_delta"]

_EPS = 1e-14  # mass of D left out on each side of the summed window
_SCAN_LIMIT = 2_000_000  # most values of n scanned one by one
_NOT_MONOTONE = ("Exact-test power is not monotone in n (it saw-tooths as the critical value jumps): the n reported "
                 "is the smallest n whose exact power reaches the target; a larger n can fall short again, so the n "
                 "from which power stays at or above the target is given beside it.")


def ndtri(x):  # the standard normal quantile (scipy.special.ndtri), imported on first use
    from scipy.special import ndtri as f

    return f(x)


def check_count_metric(metric: Any) -> str:
    """A metric of count tables (what power and widths are computed for), refused otherwise before any data is read.

    >>> check_count_metric("roc_auc")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: metric 'roc_auc' is a metric of scores; power and interval widths are computed for count
    metrics of predicted labels (accuracy, macro_f1, f1:LABEL, ...: `clfeval metrics --input counts`).
    """
    check_metric(metric)
    if not isinstance(metric, str) or metric in SCORE_METRICS:
        shown = metric if isinstance(metric, str) else getattr(metric, "__name__", "a callable")
        raise UsageError(f"metric {shown!r} is a metric of scores; power and interval widths are computed for count "
                         f"metrics of predicted labels (accuracy, macro_f1, f1:LABEL, ...: `clfeval metrics --input "
                         f"counts`)." if isinstance(metric, str) else
                         f"metric {shown!r} is a callable; power and interval widths take a count metric's name.")
    return metric


def _fmt_n(n: int | float) -> str:
    return f"{n:,}"


# --- the exact McNemar power ------------------------------------------------------------------

class _Exact:
    """Critical values and conditional rejection probabilities g(d) of the exact test, grown on demand."""

    def __init__(self, p_disc: float, pi: float, alpha: float, alternative: str) -> None:
        self.p, self.pi, self.alternative = p_disc, pi, alternative
        self.a = alpha if alternative == "greater" else alpha / 2
        self.c = np.empty(0, dtype=np.int64)
        self.g = np.empty(0)

    def critical(self, d: np.ndarray) -> np.ndarray:
        """c_d = min{c : P(Bin(d, ½) ≥ c) < a} (:func:`clfeval.significance._critical.critical_values`)."""
        return critical_values(d, self.a)

    def reject(self, d: np.ndarray, c: np.ndarray, pi: float) -> np.ndarray:
        """g(d) = P(reject | D = d) for X ~ Bin(d, π)."""
        g = binomial.sf(c - 1, d, pi)
        if self.alternative == "two-sided":
            g = g + binomial.cdf(d - c, d, pi)
        return g

    def extend(self, top: int) -> None:
        """Tables for d = 0..top."""
        have = self.c.shape[0]
        if top < have:
            return
        top = max(top, have + have // 4)
        d = np.arange(have, top + 1)
        c = self.critical(d)
        self.c = np.concatenate([self.c, c])
        self.g = np.concatenate([self.g, self.reject(d, c, self.pi)])

    def window(self, n: int) -> tuple[int, int]:
        lo = int(binomial.ppf(_EPS, n, self.p)) if self.p < 1 else n
        hi = int(binomial.isf(_EPS, n, self.p)) if self.p < 1 else n
        return max(0, lo - 1), min(n, hi + 1)

    def expect(self, n: int, table: np.ndarray | None = None) -> float:
        """E[table(D)], D ~ Bin(n, p_d), over the window of D (default table: the running maximum of g)."""
        lo, hi = self.window(n)
        self.extend(hi)
        if table is None:
            table = np.maximum.accumulate(self.g[:hi + 1])
        d = np.arange(lo, hi + 1)
        return float(np.dot(binomial.pmf(d, n, self.p), table[lo:hi + 1]))

    def power_at(self, n: int, pi: float) -> float:
        """Exact power at n for another π (critical values from the tables)."""
        lo, hi = self.window(n)
        self.extend(hi)
        d = np.arange(lo, hi + 1)
        return float(np.dot(binomial.pmf(d, n, self.p), self.reject(d, self.c[lo:hi + 1], pi)))

    def scan(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """(n, exact power) for n = start..stop, D's distribution stepped n → n + 1 by a Bernoulli(p_d)."""
        lo, hi = self.window(start)
        d = np.arange(lo, hi + 1)
        pmf = binomial.pmf(d, start, self.p)
        ns = np.arange(start, stop + 1)
        out = np.empty(ns.size)
        for i in range(ns.size):
            if i:
                nxt = np.empty(pmf.size + 1)
                nxt[:-1] = (1 - self.p) * pmf
                nxt[-1] = 0.0
                nxt[1:] += self.p * pmf
                pmf = nxt
                if i % 512 == 0:  # drop negligible ends
                    keep = np.flatnonzero(pmf > 1e-22)
                    pmf, lo = pmf[keep[0]:keep[-1] + 1], lo + int(keep[0])
            self.extend(lo + pmf.size)
            out[i] = float(np.dot(pmf, self.g[lo:lo + pmf.size]))
        return ns, out


def _smallest(fn: Callable[[int], float], target: float, lo: int, hi: int) -> int:
    """Smallest n in (lo, hi] with fn(n) ≥ target, for a non-decreasing fn with fn(hi) ≥ target."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fn(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi


def _required_n(model: _Exact, target: float, n_max: int) -> tuple[int | None, int | None, int | None, str | None]:
    """(smallest n with power ≥ target, n from which power stays ≥ target, checked up to, reason if not found)."""
    def upper(n: int) -> float:  # ≥ power(n), non-decreasing in n
        return model.expect(n)

    n_hi = 8
    while upper(n_hi) < target:
        if n_hi >= n_max:
            return None, None, None, f"even {_fmt_n(n_max)} items do not give power {target:g}"
        n_hi = min(2 * n_hi, n_max)
    n_up = _smallest(upper, target, n_hi // 2, n_hi) if n_hi > 8 else _smallest(upper, target, 0, n_hi)
    first, start = None, n_up
    while first is None:
        stop = min(start + 4096, n_max)
        ns, pw = model.scan(start, stop)
        hit = np.flatnonzero(pw >= target)
        if hit.size:
            first = int(ns[hit[0]])
        elif stop >= n_max or stop - n_up > _SCAN_LIMIT:
            return None, None, None, f"no n up to {_fmt_n(stop)} gives exact power {target:g}"
        start = stop + 1
    top = min(n_max, first + max(64, first // 4))
    lo_d, hi_d = model.window(top)
    model.extend(hi_d)
    lower_env = np.minimum.accumulate(model.g[:hi_d + 1][::-1])[::-1]
    if model.expect(top, lower_env) < target:
        return first, None, top, None
    n_low = _smallest(lambda n: model.expect(n, lower_env), target, first - 1, top)
    if n_low - first > _SCAN_LIMIT:
        return first, None, top, None
    ns, pw = model.scan(first, n_low)
    below = np.flatnonzero(pw < target)
    stays = int(ns[below[-1]]) + 1 if below.size else first
    return first, stays, top, None


def mcnemar_exact_power(n: int, p10: float, p01: float, *, alpha: float = 0.05, alternative: str = "greater") -> float:
    """Exact power of the exact McNemar test on n paired items.

    Parameters
    ----------
    n : int
        Paired items.
    p10, p01 : float
        Probabilities that an item is right for A only, and right for B only.
    alpha : float
        Level of the test; it rejects when its exact p-value is < α.
    alternative : {"greater", "two-sided"}
        "greater": H1 A better (one-sided, as :func:`clfeval.significance._paired.mcnemar`).

    Returns
    -------
    float
        Σ_d P(D = d)·P(Bin(d, π) ≥ c_d) with D ~ Bin(n, p10 + p01), π = p10 / (p10 + p01).

    Examples
    --------
    With 10 items all discordant and won by A the test rejects (2⁻¹⁰ < 0.05):

    >>> mcnemar_exact_power(10, 1.0, 0.0)
    1.0
    >>> round(mcnemar_exact_power(200, 0.15, 0.05), 4)
    0.932
    """
    n = check_positive_int(n, option="n")
    alpha = check_alpha(alpha)
    check_alternative(alternative)
    p10, p01 = _check_shares(p10, p01)
    if p10 + p01 == 0:
        return 0.0
    return _Exact(p10 + p01, p10 / (p10 + p01), alpha, alternative).power_at(n, p10 / (p10 + p01))


def _check_shares(p10: Any, p01: Any) -> tuple[float, float]:
    a, b = float(p10), float(p01)
    if not (0 <= a <= 1 and 0 <= b <= 1 and a + b <= 1):
        raise UsageError(f"p10 and p01 must be probabilities with p10 + p01 <= 1; got {p10!r} and {p01!r}.")
    return a, b


#: The ranges of the numeric settings (checked before any work): beyond them the answers are numbers of items no
#: test set has (hundreds of digits), or quantiles that are not finite.
ALPHA_RANGE = (1e-6, 0.5)
POWER_RANGE = (0.01, 0.9999)
LEVEL_RANGE = (0.5, 0.9999)
DELTA_RANGE = (1e-4, 1.0)


def check_alpha(alpha: Any) -> float:
    """The level of the test, within :data:`ALPHA_RANGE`."""
    return check_range(alpha, *ALPHA_RANGE, option="alpha", what="the level of the test")


def check_power(power: Any) -> float:
    """The power wanted, within :data:`POWER_RANGE`."""
    return check_range(power, *POWER_RANGE, option="power", what="the power wanted")


def check_level(level: Any) -> float:
    """The level of an interval, within :data:`LEVEL_RANGE`."""
    return check_range(level, *LEVEL_RANGE, option="level", what="the level of the interval")


def check_delta(delta: Any, option: str = "delta") -> float | None:
    if delta is None:
        return None
    what = "the difference to detect" if option == "delta" else "the interval width wanted"
    return check_range(delta, *DELTA_RANGE, option=option, what=what, noun="positive number")


def mcnemar_power(n_ab: int, n_ba: int, n: int, *, delta: float | None = None, alpha: float = 0.05,
                  power: float = 0.8, alternative: str = "greater", max_n: int = 10_000_000,
                  metric: str = "accuracy", unit: str = "items") -> McNemarPower:
    """Is the test set big enough for McNemar's test? Detectable δ now, and the n needed for ``delta``.

    Parameters
    ----------
    n_ab, n_ba : int
        Observed items right for A and wrong for B, and the reverse.
    n : int
        Test items.
    delta : float, optional
        An accuracy difference to detect (> 0): the n needed for it, and its power now.
    alpha, power : float
        Level of the test and the power wanted.
    alternative : {"greater", "two-sided"}
    max_n : int
        The largest n searched.
    metric, unit : str
        How the explanation names the metric and the items.

    Returns
    -------
    McNemarPower

    Examples
    --------
    >>> r = mcnemar_power(45, 30, 1000, delta=0.04)
    >>> round(r.detectable_delta, 4), r.required_n, r.stays_from >= r.required_n
    (0.0223, 314, True)
    """
    n_ab = check_positive_int(n_ab, option="n_ab", minimum=0)
    n_ba = check_positive_int(n_ba, option="n_ba", minimum=0)
    n = check_positive_int(n, option="n")
    if n_ab + n_ba > n:
        raise DataError(f"n_ab + n_ba = {n_ab + n_ba} discordant items cannot exceed the n = {n} items.")
    alpha = check_alpha(alpha)
    target = check_power(power)
    check_alternative(alternative)
    delta = check_delta(delta)
    max_n = check_positive_int(max_n, option="max_n")
    p_d = (n_ab + n_ba) / n
    undefined: list[dict[str, str]] = []
    notes = [_NOT_MONOTONE, f"The discordant share is kept at its observed value {p_d:.4g}; δ = p10 − p01 varies "
             f"(p10 = (p_d + δ)/2, p01 = (p_d − δ)/2), so δ can be at most p_d."]
    label = metric_label(metric)
    detectable = math.nan
    power_now = required = stays = checked = None
    why: str | None
    if p_d == 0:
        why = "no item is discordant (A and B are right on the same items), so McNemar's test has nothing to count"
        undefined += [{"field": f, "reason": why} for f in ("detectable_delta", "required_n")]
        explanation = f"With {_fmt_n(n)} {unit} and no discordant item, no difference in {label} can be detected."
    else:
        model = _Exact(p_d, 1.0, alpha, alternative)
        best = model.power_at(n, 1.0)
        if best < target:
            why = (f"even if every discordant item favoured A, the power at n = {_fmt_n(n)} would be {best:.3f} < "
                   f"{target:g}")
            undefined.append({"field": "detectable_delta", "reason": why})
        else:
            root = binomial.brentq(lambda pi: model.power_at(n, pi) - target, 0.5, 1.0, xtol=1e-10)
            detectable = p_d * (2 * root - 1)
        if delta is not None:
            if delta > p_d:
                undefined += [{"field": f, "reason": f"δ = {delta:g} exceeds the discordant share {p_d:.4g}"}
                              for f in ("power_at_n", "required_n")]
            else:
                pi = (1 + delta / p_d) / 2
                exact = _Exact(p_d, pi, alpha, alternative)
                power_now = exact.power_at(n, pi)
                required, stays, checked, why = _required_n(exact, target, max_n)
                if why:
                    undefined.append({"field": "required_n", "reason": why})
        explanation = _mcnemar_sentence(n, unit, label, detectable, delta, required, stays, target, undefined)
    if required is None:  # the note explains a reported n; without one it explains nothing
        notes.remove(_NOT_MONOTONE)
    sig = signature("mcnemar_power", {"alpha": alpha, "power": target, "alternative": alternative, "delta": delta,
                                      "max_n": max_n, "method": "exact sum over D ~ Bin(n, p_d) and the exact "
                                      "conditional test's rejection region"})
    return McNemarPower(metric, n, n_ab, n_ba, p_d, (n_ab - n_ba) / n, alpha, target, alternative, delta, detectable,
                        power_now, required, stays, checked, explanation, undefined, notes, sig)


def _mcnemar_sentence(n: int, unit: str, label: str, detectable: float, delta: float | None, required: int | None,
                      stays: int | None, target: float, undefined: list[dict[str, str]]) -> str:
    if math.isfinite(detectable):
        text = (f"With {_fmt_n(n)} {unit} a difference in {label} smaller than {detectable:.3g} would usually go "
                f"unnoticed (exact McNemar test, power {target:g})")
    else:
        text = f"With {_fmt_n(n)} {unit} no difference in {label} reaches power {target:g}"
    if delta is not None and required is not None:
        text += (f"; detecting {delta:g} needs at least {_fmt_n(required)} {unit}"
                 + (f" (power stays at or above {target:g} from {_fmt_n(stays)} on)" if stays and stays != required
                    else ""))
    elif delta is not None:
        text += f"; for {delta:g} no n is given ({next(u['reason'] for u in undefined if u['field'] == 'required_n')})"
    return text + "."


# --- bootstrap standard error for any count metric ------------------------------------------------

def _joint(gold: Any, pred_a: Any, pred_b: Any, labels: Sequence[Any] | None) -> Any:
    """The joint (gold, A, B) table: given (``gold`` a joint table, the predictions None: counted by the front
    door on any engine), or counted from the items."""
    if pred_a is None and pred_b is None and hasattr(gold, "discordant"):
        return gold
    return joint_table(gold, pred_a, pred_b, labels=labels)


def _z_sum(alpha: float, power: float, alternative: str) -> float:
    za = float(ndtri(1 - (alpha if alternative == "greater" else alpha / 2)))
    return za + float(ndtri(power))


def bootstrap_power(gold: Any, pred_a: Any, pred_b: Any, *, metric: str = "macro_f1", delta: float | None = None,
                    alpha: float = 0.05, power: float = 0.8, alternative: str = "greater", samples: int = 2000,
                    seed: int | np.random.Generator = 0, labels: Sequence[Any] | None = None, positive: Any = None,
                    zero_division: Any = 0, beta: float = 1.0, unit: str = "items") -> BootstrapPower:
    """Smallest detectable δ ≈ (z_{1−α} + z_{power})·SE and the n needed for ``delta``, SE from the paired bootstrap.

    SE is the standard deviation of the b paired bootstrap replicates of δ
    (the same replicates as :func:`clfeval.significance._paired.compare`); the n for
    ``delta`` is n·((z_{1−α} + z_{power})·SE / δ)², rounded up. ``gold`` may be the joint (gold, A, B) table
    (``pred_a`` and ``pred_b`` None), as :func:`clfeval.power` counts it on any engine.

    Examples
    --------
    >>> gold = ["a"] * 50 + ["b"] * 30 + ["c"] * 20
    >>> a = ["a"] * 45 + ["b"] * 5 + ["b"] * 25 + ["c"] * 5 + ["c"] * 15 + ["a"] * 5
    >>> b = ["a"] * 40 + ["b"] * 10 + ["b"] * 22 + ["a"] * 8 + ["c"] * 14 + ["b"] * 6
    >>> r = bootstrap_power(gold, a, b, metric="macro_f1", delta=0.02, samples=2000, seed=0)
    >>> 0 < r.detectable_delta < 0.2 and r.required_n > 100
    True
    """
    check_metric(metric)
    if not isinstance(metric, str):
        raise UsageError("bootstrap_power takes a metric name (a count metric such as macro_f1).")
    alpha = check_alpha(alpha)
    target = check_power(power)
    check_alternative(alternative)
    delta = check_delta(delta)
    samples = check_positive_int(samples, option="samples", minimum=2)
    jt = _joint(gold, pred_a, pred_b, labels)
    reps = bootstrap_distribution(jt, None, None, metric=metric, samples=samples, seed=seed, positive=positive,
                                  zero_division=zero_division, beta=beta)
    fn = scalar_metric(metric, jt.labels, beta=check_beta(beta))
    zd = check_zero_division(zero_division)
    observed = float(fn.fn(jt.table_a.counts[None], zd)[0] - fn.fn(jt.table_b.counts[None], zd)[0])
    finite = reps[np.isfinite(reps)]
    undefined: list[dict[str, str]] = []
    notes = ["A normal approximation: δ̂ ~ N(δ, SE²) with SE from the paired bootstrap, SE ∝ 1/√n. For accuracy "
             "the exact McNemar power (mcnemar_power) is available."]
    if finite.size < samples:
        notes.append(f"{samples - finite.size} of {samples} replicates had an undefined {metric_label(metric)} and "
                     f"were left out of the standard error.")
    se = float(finite.std(ddof=1)) if finite.size >= 2 else math.nan
    k = _z_sum(alpha, target, alternative)
    detectable, required = k * se, None
    if not (se > 0):
        why = ("the bootstrap standard error of δ is 0 (A and B agree on every item that matters to the metric)"
               if se == 0 else "too few defined replicates for a standard error")
        undefined += [{"field": f, "reason": why} for f in ("detectable_delta", "required_n")]
        detectable = math.nan
    elif delta is not None:
        required = max(1, math.ceil(jt.n * (k * se / delta) ** 2))
    n = jt.n
    label = metric_label(metric)
    if math.isfinite(detectable):
        explanation = (f"With {_fmt_n(n)} {unit} a difference in {label} smaller than {detectable:.3g} would usually "
                       f"go unnoticed (bootstrap SE {se:.3g}, power {target:g})")
        if required is not None:
            explanation += f"; detecting {delta:g} needs about {_fmt_n(required)} {unit}"
        explanation += "."
    else:
        explanation = (f"With {_fmt_n(n)} {unit} the detectable difference in {label} is undefined: "
                       f"{undefined[0]['reason']}.")
    sig = signature("bootstrap_power", {"metric": metric, "alpha": alpha, "power": target, "alternative": alternative,
                                        "delta": delta, "zero_division": str(zero_division), "beta": beta},
                    seed=seed, samples=samples, random=True)
    return BootstrapPower(metric, n, observed, se, alpha, target, alternative, delta, detectable, required, samples,
                          explanation, undefined, notes, sig)


def power_compare(gold: Any, pred_a: Any, pred_b: Any, *, metric: str = "accuracy", delta: float | None = None,
                  alpha: float = 0.05, power: float = 0.8, alternative: str = "greater", samples: int = 2000,
                  seed: int | np.random.Generator = 0, labels: Sequence[Any] | None = None, **kwargs: Any
                  ) -> McNemarPower | BootstrapPower:
    """Power for two systems: exact McNemar for accuracy-like metrics, the bootstrap SE otherwise.

    Accuracy, error rate and the micro averages (which equal accuracy on
    single-label data) count right and wrong items, so McNemar applies; every
    other count metric goes through :func:`bootstrap_power`. ``gold`` may be the joint (gold, A, B) table
    (``pred_a`` and ``pred_b`` None).

    Examples
    --------
    >>> gold = [0] * 500 + [1] * 500
    >>> a = [0] * 450 + [1] * 50 + [1] * 440 + [0] * 60
    >>> b = [0] * 430 + [1] * 70 + [1] * 430 + [0] * 70
    >>> power_compare(gold, a, b).explanation.split(" (")[0]
    'With 1,000 items a difference in accuracy smaller than 0.0142 would usually go unnoticed'
    """
    check_metric(metric)
    if isinstance(metric, str) and metric in TRACE_METRICS:
        jt = _joint(gold, pred_a, pred_b, labels)
        c = jt.counts
        diag = np.arange(c.shape[0])
        right_a = c[diag, diag, :].sum()
        right_b = c[diag, :, diag].sum()
        both = c[diag, diag, diag].sum()
        # for the error rate too: A better means fewer errors, i.e. more items right only for A
        n_ab, n_ba = int(right_a - both), int(right_b - both)
        return mcnemar_power(n_ab, n_ba, jt.n, delta=delta, alpha=alpha, power=power, alternative=alternative,
                             metric=metric, unit=kwargs.pop("unit", "items"))
    return bootstrap_power(gold, pred_a, pred_b, metric=metric, delta=delta, alpha=alpha, power=power,
                           alternative=alternative, samples=samples, seed=seed, labels=labels, **kwargs)


# --- one system: the width of the interval --------------------------------------------------------

def interval_width(gold: Any, pred: Any, *, metric: str = "macro_f1", level: float = 0.95,
                   width: float | None = None, samples: int = 2000, seed: int | np.random.Generator = 0,
                   labels: Sequence[Any] | None = None, zero_division: Any = 0, beta: float = 1.0,
                   unit: str = "items") -> IntervalWidth:
    """Width of the bootstrap percentile interval of a count metric now, and the n for a target ``width``.

    Replicates are multinomial draws of the confusion table's cells (as
    :mod:`clfeval.evaluate._intervals`); the width scales as 1/√n, so the n for a
    width W is n·(w / W)², rounded up. ``gold`` may be the confusion table (``pred`` None), as
    :func:`clfeval.power` counts it on any engine.

    Examples
    --------
    >>> gold = ["x"] * 60 + ["y"] * 40
    >>> pred = ["x"] * 50 + ["y"] * 10 + ["y"] * 30 + ["x"] * 10
    >>> r = interval_width(gold, pred, metric="accuracy", width=0.05, seed=0)
    >>> round(r.value, 2), 0.1 < r.width < 0.2, r.required_n > 400
    (0.8, True, True)
    """
    check_metric(metric)
    if not isinstance(metric, str):
        raise UsageError("interval_width takes a metric name (a count metric such as macro_f1).")
    level = check_level(level)
    target = check_delta(width, "width")
    samples = check_positive_int(samples, option="samples", minimum=2)
    zd = check_zero_division(zero_division)
    rng = check_rng(seed)
    table = gold if pred is None and hasattr(gold, "counts") else confusion_table(gold, pred, labels=labels)
    if table.n == 0:
        raise DataError("there are no items: an interval needs at least one.")
    k = len(table.labels)
    m = scalar_metric(metric, table.labels, beta=check_beta(beta))
    flat = table.counts.reshape(-1)
    cells = np.flatnonzero(flat)
    engine = rs.CountEngine(cells, cells, flat[cells], k * k, lambda t: m.fn(t.reshape(t.shape[0], k, k), zd))
    value = engine.observed()[0]
    reps, _ = rs.draw(engine, "bootstrap", samples, rng)
    ci = rs.percentile_interval(reps, level)
    w = ci[1] - ci[0]
    undefined: list[dict[str, str]] = []
    required = None
    label = metric_label(metric)
    if not math.isfinite(w):
        undefined += [{"field": f, "reason": f"every replicate had an undefined {label}"} for f in ("ci", "width")]
        explanation = f"With {_fmt_n(table.n)} {unit} the interval of {label} is undefined."
    else:
        explanation = f"With {_fmt_n(table.n)} {unit} the {level:.0%} interval of {label} is {w:.3g} wide"
        if target is not None and w > 0:
            required = max(1, math.ceil(table.n * (w / target) ** 2))
            explanation += f"; a width of {target:g} needs about {_fmt_n(required)} {unit}"
        elif target is not None:
            undefined.append({"field": "required_n", "reason": "the interval has no width (every replicate agrees)"})
        explanation += "."
    notes = ["The width shrinks as 1/√n: the n for a target width assumes the same class mix and error pattern."]
    sig = signature("interval_width", {"metric": metric, "level": level, "width": target, "method": "percentile",
                                       "resampling": "multinomial over the confusion table's cells",
                                       "zero_division": str(zero_division)}, seed=seed, samples=samples, random=True)
    return IntervalWidth(metric, int(table.n), value, level, ci, w, target, required, samples, explanation, undefined,
                         notes, sig)
