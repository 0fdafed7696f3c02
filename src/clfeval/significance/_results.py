"""The words of paired comparisons: hypotheses, p-value definitions, the plain sentence of each verdict, the
estimate of δ, the gate.

A comparison's numbers come from :mod:`clfeval.significance._paired`; its result is
:class:`clfeval.ops.compare.Compared` (issue 36: one type whatever the test), whose sentences are computed here
and stored in its fields.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from clfeval.errors import UsageError
from clfeval.ops.compare import (
    BcaIntervals,
    Compared,
    PairIntervals,
    PhiDelta,
    PhiDeltaPoint,
    TestBound,
    interval,
    interval_or_none,
)

__all__ = ["format_p", "verdict", "verdict_two_sided", "ESTIMATES", "check_estimate",
           "with_estimate", "hypothesis", "P_DEFINITION",
           "fmt_value", "ALTERNATIVES", "check_alternative", "gate", "systems_phi_delta", "pair_intervals"]

#: The alternative hypotheses: "A is better than B" (one-sided), or "A and B differ" (two-sided).
ALTERNATIVES = ("greater", "two-sided")


def check_alternative(alternative: Any) -> str:
    """``greater`` or ``two-sided``, or a usage error naming the option.

    >>> check_alternative("less")
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option alternative must be one of greater, two-sided; got 'less'.
    """
    if alternative not in ALTERNATIVES:
        raise UsageError(lambda name: f"option {name} must be one of {', '.join(ALTERNATIVES)}; got {alternative!r}.",
                         params=["alternative"])
    return str(alternative)


#: compare's two-sided estimates of δ (``--ci-method``); the default is the one whose worst cell covered best in
#: ``bench/ci_coverage.py`` (BCa; the table in docs/guide/significance.md).
ESTIMATES = ("bca", "percentile")


def check_estimate(method: Any, test: str = "bootstrap") -> str:
    """``bca`` or ``percentile`` (compare's two-sided interval of δ), or a usage error naming the option.

    >>> check_estimate("wilson")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option ci_method wilson: compare's two-sided interval of δ is a bootstrap interval, bca
    (the default) or percentile; wilson is the interval of one binomial proportion, not of a difference.
    """
    if test == "delong":
        if method not in (None, "delong"):
            raise UsageError(lambda name: f"option {name} {method}: --test delong gives DeLong's interval of δ; "
                             f"leave out the option (or give delong).", params=["ci_method"])
        return "delong"
    if method is None:
        return ESTIMATES[0]
    if method not in ESTIMATES:
        why = ("is the interval of one binomial proportion, not of a difference" if method == "wilson" else
               "is an interval of one ROC-AUC: compare ROC-AUCs with --test delong" if method in
               ("delong", "logit-delong", "hanley-mcneil") else "is not an interval method")
        raise UsageError(lambda name: f"option {name} {method}: compare's two-sided interval of δ is a bootstrap "
                         f"interval, bca (the default) or percentile; {method} {why}.", params=["ci_method"])
    return str(method)


def with_estimate(result: Compared, method: str) -> Compared:
    """A comparison (or each of several) with ``ci.estimate``: the two-sided interval of δ shown as the estimate."""
    if result.many is not None:
        many = dataclasses.replace(result.many, comparisons=[with_estimate(c, method) for c in result.many.comparisons])
        return dataclasses.replace(result, many=many)
    if result.pair is not None:
        pair = dataclasses.replace(result.pair, ci=dataclasses.replace(result.pair.ci, estimate=method))
        return dataclasses.replace(result, pair=pair)
    return result


def gate(result: Any) -> tuple[bool, str]:
    """(passed, why) of a decision used as a gate (``clfeval compare --gate``): does its test reject its null?

    ``result`` is any result with a ``rejected`` flag and a ``verdict`` (or
    ``verdicts``): a comparison, several comparisons (every one must reject,
    Holm-adjusted), DeLong's test (one-vs-rest: every class with a defined
    test), a non-inferiority test.
    """
    passed = bool(result.rejected)
    why = getattr(result, "verdict", None)
    if not why:
        why = " ".join(getattr(result, "verdicts", []) or [])
    return passed, why


def fmt_value(x: float) -> str:
    """A score or difference in a sentence: three decimals, two significant digits below 0.001."""
    if not math.isfinite(x):
        return "undefined"
    if x != 0 and abs(x) < 0.001:
        return f"{x:.2g}"
    return f"{x:.3f}"


def format_p(p: float, samples: float | None = None, *, name: str = "p") -> str:
    """``p = 0.004``, ``p = 0.0047``, ``p = 0.213``; a resampled p of 0 is shown as below 1/b.

    >>> format_p(0.0047), format_p(0.21345), format_p(0.0, 10_000)
    ('p = 0.0047', 'p = 0.213', 'p < 0.0001')
    """
    if not math.isfinite(p):
        return f"{name} undefined"
    if p == 0 and samples:
        return f"{name} < {1 / samples:.2g}"
    if p < 0.01:
        return f"{name} = {p:.2g}"
    return f"{name} = {p:.3f}"


def verdict_two_sided(label: str, names: tuple[str, str], a: float, b: float, delta: float, p: float,
                      alpha: float, samples: int | None = None, p_name: str = "two-sided p") -> str:
    """The plain sentence of a two-sided comparison (H1: the two differ).

    >>> verdict_two_sided("ROC-AUC", ("a", "b"), 0.91, 0.88, 0.03, 0.012, 0.05)  # doctest: +NORMALIZE_WHITESPACE
    "a's ROC-AUC is 0.030 higher than b's; two-sided p = 0.012 < 0.05: a difference this large is unlikely to be luck on
    this test set."
    """
    na, nb = names
    ptext = format_p(p, samples, name=p_name)
    if not (math.isfinite(a) and math.isfinite(b)):
        return f"{na}'s or {nb}'s {label} is undefined on this test set; no test is possible."
    if delta == 0:
        head = f"{na} and {nb} have the same {label} ({fmt_value(a)}) on this test set"
    else:
        head = f"{na}'s {label} is {fmt_value(abs(delta))} {'higher' if delta > 0 else 'lower'} than {nb}'s"
    if p < alpha:
        return f"{head}; {ptext} < {alpha:g}: a difference this large is unlikely to be luck on this test set."
    return (f"{head}; {ptext} ≥ {alpha:g}: could well be luck on this test set (no difference shown at "
            f"α = {alpha:g}).")


def verdict(label: str, names: tuple[str, str], a: float, b: float, delta: float, p: float, alpha: float,
            higher: bool, samples: float | None, p_name: str = "p") -> str:
    """The plain sentence of a one-sided comparison: the difference, the p-value, and what it means."""
    na, nb = names
    ptext = format_p(p, samples, name=p_name)
    if not (math.isfinite(a) and math.isfinite(b)):
        return f"{na}'s or {nb}'s {label} is undefined on this test set; no test is possible."
    gain = delta if higher else -delta
    if delta == 0:
        head = f"{na} and {nb} have the same {label} ({fmt_value(a)}) on this test set"
    else:
        word = "higher" if delta > 0 else "lower"
        head = f"{na}'s {label} is {fmt_value(abs(delta))} {word} than {nb}'s"
        if not higher:
            head += " (lower is better)"
    if gain <= 0:
        return f"{head}; {ptext} for '{na} better than {nb}': no evidence that {na} is better."
    if p < alpha:
        level = min(x for x in {0.001, 0.01, alpha} if p < x and x <= alpha)
        cmp = ptext if " < " in ptext else f"{ptext} < {level:g}"
        return f"{head}; {cmp}: unlikely to be luck on this test set."
    return f"{head}; {ptext} ≥ {alpha:g}: could well be luck on this test set (not significant at α = {alpha:g})."


def pair_intervals(va: Any, vb: Any, obs: tuple[float, float], level: float, jack: Any,
                   bound: dict[str, Any] | None) -> PairIntervals:
    """The two-sided percentile and BCa intervals of δ, M(A) and M(B) from the bootstrap replicates ``va``, ``vb``
    (BCa from the jackknife values ``jack`` = (A's, B's, weights), None when too costly), and the test's own
    ``bound``; the default estimate of δ is BCa (docs/guide/significance.md, coverage)."""
    from clfeval.stats import resample as rs  # NumPy: imported by the comparison that runs, not by this module

    a, b = obs
    bca = None
    if jack is not None:
        ja, jb, w = jack
        bca = BcaIntervals(interval_or_none(rs.bca_interval(va - vb, a - b, ja - jb, w, level)),
                           interval_or_none(rs.bca_interval(va, a, ja, w, level)),
                           interval_or_none(rs.bca_interval(vb, b, jb, w, level)))
    two_sided = ("two-sided bootstrap intervals (percentile, BCa): estimates of where δ lies; the verdict follows the "
                 "test and its one-sided bound" if bound else
                 "two-sided bootstrap intervals (percentile, BCa): estimates of where δ lies, a different procedure "
                 "from the test")
    return PairIntervals(level=level, method="percentile", delta=interval(rs.percentile_interval(va - vb, level)),
                         a=interval(rs.percentile_interval(va, level)), b=interval(rs.percentile_interval(vb, level)),
                         bca=bca, estimate="bca", test_bound=None if bound is None else TestBound(**bound),
                         two_sided=two_sided)


def systems_phi_delta(joint: Any, labels: Any, names: tuple[str, str]) -> PhiDelta | None:
    """The classes of both systems in the φ–δ diagram, from the joint (gold, A, B) counts (K, K, K); None without
    a joint table (score metrics, callables).

    >>> import numpy as np
    >>> j = np.zeros((2, 2, 2), dtype=int); j[0, 0, 0] = 3; j[1, 1, 0] = 2; j[1, 1, 1] = 1; j[0, 1, 1] = 1
    >>> systems_phi_delta(j, ("n", "y"), ("A", "B")).systems["A"]["y"]
    PhiDeltaPoint(phi=0.25, delta=0.75)
    """
    if joint is None or labels is None:
        return None
    from clfeval.core import class_counts, phi_delta_of_counts

    shown = [str(x) for x in labels]
    tables = {names[0]: joint.sum(axis=2), names[1]: joint.sum(axis=1)}
    systems = {n: {k: PhiDeltaPoint(p["phi"], p["delta"])
                   for k, p in phi_delta_of_counts(class_counts(t), shown).items()} for n, t in tables.items()}
    return PhiDelta(tuple(shown), systems)


def hypothesis(higher: bool) -> str:
    if higher:
        return "H0: δ = M(A) − M(B) ≤ 0; H1: δ > 0 (A better than B), one-sided"
    return "H0: δ = M(A) − M(B) ≥ 0; H1: δ < 0 (A better than B: lower is better), one-sided"


P_DEFINITION = {
    "bootstrap": "p = #{δ(x^(i)) ≥ 2δ(x)} / b over b bootstrap test sets (the same items for A and B)",
    "randomization": "p = (1 + #{δ_perm ≥ δ(x)}) / (b + 1), swapping A's and B's outputs per item with probability 1/2",
    "mcnemar": "p = P(X ≥ n_AB), X ~ Bin(n_AB + n_BA, 1/2) (exact, one-sided)",
}
