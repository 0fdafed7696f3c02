"""Non-inferiority: is the new system not worse than the old one by more than a margin?

With δ = M(NEW) − M(OLD) on the same items and a margin m ≥ 0 (in the
metric's units), the hypotheses are

    H0: δ ≤ −m   (NEW is worse by the margin or more)
    H1: δ > −m   (NEW is not worse by more than m: non-inferior),

for a higher-is-better metric; for a lower-is-better one (the error rate)
H0 is δ ≥ m. The test is the paired bootstrap of
:func:`clfeval.significance._paired.compare` with its null moved from 0 to the
margin: the b replicates δ(x^(i)) are centred on δ(x), so shifting them to
the null boundary −m and asking how often they reach δ(x) is asking how
often the unshifted ones reach 2δ(x) + m:

    p = #{δ(x^(i)) ≥ 2δ(x) + m} / b.

With m = 0 this is exactly ``compare``'s p. Non-inferiority is shown when
p < α, which is the same as the lower bound of the one-sided (1 − α)
bootstrap interval of δ lying above −m: the bound is the basic (reflected)
bootstrap bound L = 2δ(x) − Q, where Q is the ⌈αb⌉-th largest replicate
(the order statistic that makes "L > −m" and "p < α" one statement; a
replicate within float rounding of the threshold counts as reaching it, so
a bound within rounding of −m does not clear it).
Replicates with an undefined metric never reach the threshold.

References
----------
* Efron & Tibshirani (1993), *An Introduction to the Bootstrap*, §13 and §16
  (the basic interval; tests from the bootstrap distribution).
* Wellek (2010), *Testing Statistical Hypotheses of Equivalence and
  Noninferiority*, 2nd ed.
* Berg-Kirkpatrick, Burkett & Klein (2012) (the paired bootstrap, the 2δ rule).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from clfeval.core import (
    check_probability,
    check_zero_division,
    replicate_histogram,
    seed_value,
    signature,
    zero_division_name,
)
from clfeval.errors import UsageError
from clfeval.ops.compare import Compared, Distribution, NonInferiorityPart
from clfeval.significance._comparable import metric_label
from clfeval.significance._paired import bootstrap_replicates
from clfeval.significance._results import fmt_value, format_p

__all__ = ["noninferiority", "check_margin"]

# Float rounding: a replicate within this (relative to max(1, |t|)) of the threshold t reaches it.
_TIE = 1e-12


def check_margin(margin: Any, test: str = "bootstrap") -> float:
    """The margin as a float ≥ 0, refused with a test whose null is "no difference" (before any data is read).

    >>> check_margin(0.01)
    0.01
    >>> check_margin(0.01, "mcnemar")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option margin (non-inferiority) needs test bootstrap: the null of test mcnemar is 'no
    difference', so it cannot test 'not worse by more than the margin'.
    """
    if test != "bootstrap":
        raise UsageError(lambda name, t: f"option {name} (non-inferiority) needs {t} bootstrap: the null of {t} "
                         f"{test} is 'no difference', so it cannot test 'not worse by more than the margin'.",
                         params=["margin", "test"])
    try:
        m = float(margin)
    except (TypeError, ValueError):
        m = math.nan
    if not (math.isfinite(m) and m >= 0):
        raise UsageError(lambda name: f"option {name} must be a number >= 0 (how much worse, in the metric's units, "
                         f"still counts as not worse); got {margin!r}.", params=["margin"])
    return m


_BOUND_METHOD = "basic (reflected) bootstrap: 2δ − Q, Q the ⌈αb⌉-th largest replicate (for a lower bound)"


def _hypothesis(margin: float, higher: bool) -> str:
    m = f"{margin:g}"
    if higher:
        return f"H0: δ = M(A) − M(B) ≤ −{m}; H1: δ > −{m} (A not worse than B by more than {m}), one-sided"
    return (f"H0: δ = M(A) − M(B) ≥ {m}; H1: δ < {m} (A not worse than B by more than {m}: lower is better), "
            f"one-sided")


def _needed(alpha: float, b: int) -> int:
    """The smallest count k with k / b ≥ α: p = count / b < α iff count < k (as floats compare)."""
    k = max(0, math.ceil(alpha * b) - 1)
    while k / b < alpha:
        k += 1
    return k


def _verdict(label: str, names: tuple[str, str], delta: float, margin: float, bound: float, p: float, alpha: float,
             higher: bool, samples: int) -> str:
    na, nb = names
    if not math.isfinite(delta):
        return f"{na}'s or {nb}'s {label} is undefined on this test set; no test is possible."
    word = "higher" if delta > 0 else "lower"
    head = (f"{na}'s {label} is {fmt_value(abs(delta))} {word} than {nb}'s" if delta != 0
            else f"{na} and {nb} have the same {label}")
    side, limit = ("lower", -margin) if higher else ("upper", margin)
    shown = p < alpha  # the bound clears the margin exactly when p < α (ties within float rounding included)
    rel = (">" if shown else "≤") if higher else ("<" if shown else "≥")
    btext = f"the {1 - alpha:.0%} {side} bound of δ is {fmt_value(bound)} {rel} {fmt_value(limit)}"
    ptext = format_p(p, samples)
    if p < alpha:
        return (f"{head}; {btext}, {ptext} < {alpha:g}: {na} is not worse than {nb} by more than {margin:g} "
                f"(non-inferior).")
    return (f"{head}; {btext}, {ptext} ≥ {alpha:g}: non-inferiority is not shown ({na} may be worse than {nb} "
            f"by more than {margin:g}).")


def noninferiority(gold: Any, pred_a: Any, pred_b: Any, *, margin: float,
                   metric: str | Callable[[Any, Any], float] = "accuracy", test: str = "bootstrap",
                   samples: int = 10_000, seed: int | np.random.Generator = 0, alpha: float = 0.05,
                   labels: Sequence[Any] | None = None, positive: Any = None, zero_division: Any = 0,
                   beta: float = 1.0, names: Sequence[str] = ("A", "B")) -> Compared:
    """Is A (new) not worse than B (old) by more than ``margin``? The paired bootstrap with a shifted null.

    Parameters
    ----------
    gold, pred_a, pred_b : sequence
        As in :func:`clfeval.significance._paired.compare` (A is the new system).
    margin : float
        m ≥ 0, in the metric's units (0.01 = one point of accuracy).
    metric : str or callable
        The metric, as in :func:`clfeval.significance._paired.compare`; default ``accuracy``.
    samples : int
        b, the number of bootstrap replicates (≥ 1); default 10,000.
    seed : int or numpy.random.Generator
        The same seed gives the same result; default 0.
    labels : sequence, optional
        The label set (default: every label in gold, A or B).
    positive : label, optional
        The positive class of a score metric.
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios inside the metric; default 0.
    beta : float
        For the ``*_fbeta`` metrics; default 1.0.
    names : (str, str)
        How A and B are called in the verdict; default ("A", "B").
    test : {"bootstrap"}
        Randomization and McNemar are refused: their null is "no difference".
    alpha : float
        Level of the test; the bound is one-sided at 1 − α.

    Returns
    -------
    Compared
        Of kind ``noninferiority`` (:class:`clfeval.ops.compare.NonInferiorityPart`): ``a``, ``b``, ``delta``,
        ``margin``, ``bound`` (the one-sided (1 − α) basic bootstrap bound of δ: a lower bound for a
        higher-is-better metric, non-inferior iff bound > −m; an upper bound otherwise), ``threshold`` (2δ + m),
        ``count`` (replicates at or beyond it), ``p_value`` (count / b) and ``rejected`` (p < α: non-inferior).

    Notes
    -----
    p = #{δ(x^(i)) ≥ 2δ(x) + m} / b (see the module docstring); with m = 0
    it is :func:`~clfeval.significance._paired.compare`'s bootstrap p.

    Examples
    --------
    A is right on 80 of 100 items, B on 81: one point worse; within a margin of ten points, or of two?

    >>> gold = ["y"] * 100
    >>> a = ["y"] * 80 + ["n"] * 20
    >>> b = ["n"] * 4 + ["y"] * 81 + ["n"] * 15
    >>> r = noninferiority(gold, a, b, margin=0.10, samples=4000, seed=1)
    >>> round(r.delta, 2), r.rejected, r.bound > -0.10
    (-0.01, True, True)
    >>> noninferiority(gold, a, b, margin=0.02, samples=4000, seed=1).rejected
    False
    >>> noninferiority(gold, a, b, margin=0.0, samples=4000, seed=1).rejected
    False
    """
    margin = check_margin(margin, test)
    alpha = check_probability(alpha, option="alpha")
    names = tuple(str(x) for x in names)
    if len(names) != 2:
        raise UsageError(f"names must give two display names (A, B); got {names!r}.")
    zd = check_zero_division(zero_division)
    r = bootstrap_replicates(gold, pred_a, pred_b, metric=metric, samples=samples, seed=seed, labels=labels,
                             positive=positive, zero_division=zero_division, beta=beta)
    a, b = r.observed
    delta = a - b
    sign = 1.0 if r.higher_is_better else -1.0
    gains = sign * (r.a - r.b)
    gain = sign * delta
    b_total = gains.shape[0]
    t = 2 * gain + margin
    count = int(np.count_nonzero(gains >= t - _TIE * max(1.0, abs(t)))) if math.isfinite(gain) else 0
    p = count / b_total if math.isfinite(gain) else math.nan
    k = _needed(alpha, b_total)
    ordered = np.sort(np.where(np.isfinite(gains), gains, -np.inf))
    q = float(ordered[b_total - k]) if k <= b_total else -math.inf  # the k-th largest
    bound_gain = 2 * gain - q if math.isfinite(q) and math.isfinite(gain) else math.nan
    bound = float(sign * bound_gain)
    label = metric_label(r.metric)
    notes = []
    undefined = int(np.count_nonzero(~np.isfinite(gains)))
    if undefined:
        notes.append(f"{undefined} of {b_total} bootstrap replicates had an undefined {label}; they never reach "
                     f"the threshold.")
    if not r.higher_is_better:
        notes.append(f"{label}: lower is better, so 'not worse by more than {margin:g}' means δ < {margin:g}.")
    hist = replicate_histogram(r.a - r.b, delta=delta, threshold=sign * t, count_beyond=count, kind="bootstrap")
    hist["tail"] = "above" if r.higher_is_better else "below"
    hist["threshold_label"] = "2δ(x) + margin" if r.higher_is_better else "2δ(x) − margin"
    sig = signature("noninferiority", {
        "test": "bootstrap", "metric": r.metric, "metric_definition": r.description,
        "higher_is_better": r.higher_is_better, "margin": margin, "alpha": alpha,
        "p_value_definition": ("p = #{δ(x^(i)) ≥ 2δ(x) + margin} / b (the 2δ rule with the null at −margin)"
                               if r.higher_is_better else
                               "p = #{δ(x^(i)) ≤ 2δ(x) − margin} / b (the 2δ rule with the null at +margin)"),
        "bound_method": "basic bootstrap, one-sided at 1 − alpha", "engine": r.engine,
        "zero_division": zero_division_name(zd)}, seed=seed, samples=b_total, random=True)
    part = NonInferiorityPart(n=r.n, a=a, b=b, delta=delta, margin=margin, bound=bound, bound_method=_BOUND_METHOD,
                              threshold=sign * t, count=count, p_value=p,
                              hypothesis=_hypothesis(margin, r.higher_is_better),
                              verdict=_verdict(label, names, delta, margin, bound, p, alpha, r.higher_is_better,
                                               b_total),
                              distribution=Distribution.of(hist))
    return Compared(names=names, metric=r.metric, test="bootstrap", alpha=alpha, signature=sig, notes=notes,
                    higher_is_better=r.higher_is_better, metric_description=r.description, samples=b_total,
                    seed=seed_value(seed), noninferiority=part)
