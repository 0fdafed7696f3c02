"""The results of paired comparisons: :class:`Comparison`, :class:`MultiComparison`, and their sentences.

A comparison's numbers come from :mod:`clfeval.significance._paired`; this module
holds the result types (frozen dataclasses with ``to_dict``), the one-sided
hypotheses and p-value definitions they state, and the plain sentence of
each verdict.
"""

from __future__ import annotations

import math
from dataclasses import InitVar, dataclass, field
from typing import Any

from clfeval.core import Display, catalog, freeze_fields, thaw
from clfeval.errors import UsageError

__all__ = ["Comparison", "MultiComparison", "format_p", "verdict", "verdict_two_sided", "ESTIMATES", "check_estimate",
           "with_estimate", "hypothesis", "P_DEFINITION",
           "fmt_value", "ALTERNATIVES", "check_alternative", "gate", "systems_phi_delta"]

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


def with_estimate(result: Any, method: str) -> Any:
    """A comparison (or each of several) with ``ci["estimate"]``: the two-sided interval of δ shown as the estimate."""
    import dataclasses

    if isinstance(result, MultiComparison):
        return dataclasses.replace(result, comparisons=[with_estimate(c, method) for c in result.comparisons])
    if isinstance(result, Comparison):
        return dataclasses.replace(result, ci={**result.ci, "estimate": method})
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


@dataclass(frozen=True)
class Comparison(Display):
    """The result of a paired comparison of two systems on the same test items.

    Attributes
    ----------
    metric, metric_description : str
    a, b : float
        M(A) and M(B) on the test set.
    delta : float
        δ = M(A) − M(B).
    test : str
        ``bootstrap``, ``randomization`` or ``mcnemar``.
    samples : int
        Replicates (bootstrap virtual test sets, or random swaps; the
        confidence intervals always use ``samples`` bootstrap replicates).
    seed : int or None
        None when a generator was passed instead of a seed.
    p_value : float
        One-sided, H1: A better than B (lower values for lower-is-better metrics).
    alpha : float
    higher_is_better : bool
    n : int
        Test items.
    names : tuple of str
        Display names of A and B.
    ci : dict
        ``level``, ``method`` ("percentile"), ``delta``, ``a``, ``b`` as
        [low, high], and ``bca`` (the same three as BCa intervals, or None
        where undefined or too costly); ``estimate`` (``bca`` or ``percentile``:
        the two-sided interval shown first, BCa by default); ``test_bound``, the
        test's own one-sided bound of δ (:mod:`clfeval.significance._bounds`:
        ``side``, ``value``, ``level`` = 1 − α, ``method``, ``matches_test``,
        ``definition``; > 0 for a lower bound exactly when p < α), None for
        randomization; ``two_sided``, what the two-sided intervals are.
    details : dict
        Test-specific numbers: bootstrap ``count`` of δ(x^(i)) ≥ ``threshold``
        (= 2δ); randomization ``count`` of δ_perm ≥ δ; McNemar ``n_ab``,
        ``n_ba``, ``p_value_two_sided``, ``chi2``, ``chi2_p_value``.
    verdict : str
        One plain sentence.
    signature : dict
        Version, seed, samples, metric definition, engine, library versions.
    distribution : dict or None
        The histogram of the replicates (figure data; see :func:`clfeval.core._decimate.replicate_histogram`).
    phi_delta : dict or None
        Count metrics: each system's classes in the φ–δ diagram, ``{"labels": [...], "systems": {name:
        {label: {"phi", "delta"}}}}`` (:func:`systems_phi_delta`; figure data, aggregated counts only),
        computed from ``joint``, the (K, K, K) joint counts passed at construction (not kept).
    """

    metric: str
    metric_description: str
    a: float
    b: float
    delta: float
    test: str
    samples: int
    seed: int | None
    p_value: float
    alpha: float
    higher_is_better: bool
    n: int
    names: tuple[str, str]
    ci: dict[str, Any]
    details: dict[str, Any]
    verdict: str
    signature: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    distribution: dict[str, Any] | None = field(default=None, repr=False)
    phi_delta: dict[str, Any] | None = field(default=None, repr=False)
    joint: InitVar[Any] = None
    engine: dict[str, Any] | None = field(default=None, repr=False, compare=False)  # where it ran (the front door)

    def __post_init__(self, joint: Any) -> None:
        if joint is not None:
            points = systems_phi_delta(joint, self.signature.get("labels"), self.names)
            object.__setattr__(self, "phi_delta", points)
        # read-only all the way down; to_dict() gives a plain copy
        freeze_fields(self, ("ci", "details", "signature", "notes", "distribution", "phi_delta", "engine"))

    @property
    def significant(self) -> bool:
        """p < α."""
        return bool(self.p_value < self.alpha)

    @property
    def rejected(self) -> bool:
        """The test rejects its null hypothesis (p < α): what ``--gate`` asks."""
        return self.significant

    @property
    def label(self) -> str:
        return catalog.label(self.metric)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (NaN stays NaN here; JSON writers turn it into null)."""
        return thaw({"metric": self.metric, "metric_description": self.metric_description,
                "higher_is_better": self.higher_is_better, "names": {"a": self.names[0], "b": self.names[1]},
                "n": self.n, "a": self.a, "b": self.b, "delta": self.delta, "test": self.test,
                "samples": self.samples, "seed": self.seed, "alpha": self.alpha, "p_value": self.p_value,
                "significant": self.significant, "hypothesis": hypothesis(self.higher_is_better),
                "ci": self.ci, self.test: self.details, "verdict": self.verdict, "notes": list(self.notes),
                "signature": self.signature, **({"distribution": self.distribution} if self.distribution else {}),
                **({"phi_delta": self.phi_delta} if self.phi_delta else {})})


def systems_phi_delta(joint: Any, labels: Any, names: tuple[str, str]) -> dict[str, Any] | None:
    """The classes of both systems in the φ–δ diagram, from the joint (gold, A, B) counts (K, K, K); None without
    a joint table (score metrics, callables).

    >>> import numpy as np
    >>> j = np.zeros((2, 2, 2), dtype=int); j[0, 0, 0] = 3; j[1, 1, 0] = 2; j[1, 1, 1] = 1; j[0, 1, 1] = 1
    >>> systems_phi_delta(j, ("n", "y"), ("A", "B"))["systems"]["A"]["y"]
    {'phi': 0.25, 'delta': 0.75}
    """
    if joint is None or labels is None:
        return None
    from clfeval.core import class_counts, phi_delta_of_counts

    shown = [str(x) for x in labels]
    tables = {names[0]: joint.sum(axis=2), names[1]: joint.sum(axis=1)}
    return {"labels": shown, "systems": {n: phi_delta_of_counts(class_counts(t), shown) for n, t in tables.items()}}


def hypothesis(higher: bool) -> str:
    if higher:
        return "H0: δ = M(A) − M(B) ≤ 0; H1: δ > 0 (A better than B), one-sided"
    return "H0: δ = M(A) − M(B) ≥ 0; H1: δ < 0 (A better than B: lower is better), one-sided"


P_DEFINITION = {
    "bootstrap": "p = #{δ(x^(i)) ≥ 2δ(x)} / b over b bootstrap test sets (the same items for A and B)",
    "randomization": "p = (1 + #{δ_perm ≥ δ(x)}) / (b + 1), swapping A's and B's outputs per item with probability 1/2",
    "mcnemar": "p = P(X ≥ n_AB), X ~ Bin(n_AB + n_BA, 1/2) (exact, one-sided)",
}


@dataclass(frozen=True)
class MultiComparison(Display):
    """Several systems compared pairwise (every pair, or each against a baseline), Holm-adjusted.

    Attributes
    ----------
    systems : list of str
        System names in input order.
    scores : dict
        Each system's metric on the test set.
    baseline : str or None
    comparisons : list of Comparison
        One per pair; A is the system tested for being better. Against a
        baseline, A is each other system and B the baseline; for every
        pair, A is the one with the better observed score (input order on
        ties).
    p_adjusted : list of float
        Holm–Bonferroni adjusted p-values, in the order of ``comparisons``.
    significant : list of bool
        Adjusted p < α.
    verdicts : list of str
        One plain sentence per comparison, judged on the adjusted p.
    """

    metric: str
    test: str
    samples: int
    seed: int | None
    alpha: float
    higher_is_better: bool
    systems: list[str]
    scores: dict[str, float]
    baseline: str | None
    comparisons: list[Comparison]
    p_adjusted: list[float]
    significant: list[bool]
    verdicts: list[str]
    signature: dict[str, Any]
    adjustment: str = "holm"
    notes: list[str] = field(default_factory=list)
    engine: dict[str, Any] | None = field(default=None, repr=False, compare=False)  # where it ran (the front door)

    def __post_init__(self) -> None:  # read-only all the way down; to_dict() gives a plain copy
        freeze_fields(self, ("systems", "scores", "comparisons", "p_adjusted", "significant", "verdicts", "signature",
                             "notes", "engine"))

    @property
    def rejected(self) -> bool:
        """Every comparison rejects its null after Holm's adjustment: what ``--gate`` asks."""
        return all(self.significant)

    def to_dict(self) -> dict[str, Any]:
        rows = []
        for c, adj, sig, verdict in zip(self.comparisons, self.p_adjusted, self.significant, self.verdicts,
                                        strict=True):
            rows.append({"a": c.names[0], "b": c.names[1], "score_a": c.a, "score_b": c.b, "delta": c.delta,
                         "p_value": c.p_value, "p_adjusted": adj, "significant": sig, "ci": c.ci,
                         c.test: c.details, "verdict": verdict,
                         **({"distribution": c.distribution} if c.distribution else {})})
        points: dict[str, Any] = {}
        for c in self.comparisons:
            if c.phi_delta:
                points.setdefault("labels", c.phi_delta["labels"])
                for name, pc in c.phi_delta["systems"].items():
                    points.setdefault("systems", {}).setdefault(name, pc)
        if points:
            points["systems"] = {n: points["systems"][n] for n in self.systems if n in points["systems"]}
        return thaw({"metric": self.metric, "higher_is_better": self.higher_is_better, "test": self.test,
                     "samples": self.samples, "seed": self.seed, "alpha": self.alpha, "adjustment": self.adjustment,
                     "baseline": self.baseline, "systems": list(self.systems), "scores": dict(self.scores),
                     "comparisons": rows, "notes": list(self.notes), "signature": self.signature,
                     **({"phi_delta": points} if points else {})})
