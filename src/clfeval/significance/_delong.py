"""DeLong's test: two correlated ROC-AUCs on the same items, and the DeLong interval of one AUC.

Let m positives have scores X_1..X_m and n negatives Y_1..Y_n under one
system. With ψ(x, y) = 1 if x > y, ½ if x = y, 0 otherwise, the AUC (the
Mann–Whitney statistic) is θ = (1/mn) Σ_i Σ_j ψ(X_i, Y_j). Its *structural
components* (placement values) are

* V10_i = (1/n) Σ_j ψ(X_i, Y_j) — the share of negatives below positive i;
* V01_j = (1/m) Σ_i ψ(X_i, Y_j) — the share of positives above negative j;

so that θ = mean(V10) = mean(V01). For k systems scored on the same items,
DeLong, DeLong & Clarke-Pearson (1988) estimate the covariance matrix of the
AUCs as

    S = S10 / m + S01 / n,

where S10 (k × k) is the sample covariance (divisor m − 1) of the V10 over
positives and S01 that of the V01 over negatives. For two systems A and B,
var(θ_A − θ_B) = S_AA + S_BB − 2 S_AB (computed here directly from the
differences of the placement values, which is the same number without
cancellation), and z = (θ_A − θ_B) / √var(θ_A − θ_B) is compared with the
standard normal: one-sided p = 1 − Φ(z) for H1 "A's AUC is higher",
two-sided p = 2·(1 − Φ(|z|)).

Intervals are Wald intervals θ ± z_{(1+level)/2}·√S_AA, **truncated to
[0, 1]** for an AUC and to [−1, 1] for a difference (as pROC does); the
result says when a bound was truncated.

**Computation (Sun & Xu 2014).** The placement values are midrank counts:
one sort of the n + m scores of each system gives every item's number of
items of the other class below it (ties counting one half), in O(N log N)
instead of the O(mn) of the double sum (:mod:`clfeval.significance._midranks`:
a plain sort of int64 keys with the item index packed into their low bits,
several times faster than ``np.argsort``; with heavy ties no sort of the
items at all, only of their distinct values).

Undefined cases: without positives or without negatives there is no AUC
(a :class:`~clfeval.errors.DataError`); with fewer than two positives or two
negatives the variance (divisor m − 1 or n − 1) is undefined; with a zero
variance of the difference (e.g. two systems that order every
positive–negative pair alike) z and the p-values are undefined. Each is
``None`` in ``to_dict()`` with its reason.

References
----------
* DeLong, DeLong & Clarke-Pearson (1988), "Comparing the areas under two or
  more correlated receiver operating characteristic curves: a nonparametric
  approach", *Biometrics* 44:837–845.
* Sun & Xu (2014), "Fast implementation of DeLong's algorithm for comparing
  the areas under correlated receiver operating characteristic curves",
  *IEEE Signal Processing Letters* 21(11):1389–1393.
* Robin et al. (2011), pROC (truncation of the interval to [0, 1]).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import Display, RankingSummary, check_probability, number, signature
from clfeval.errors import DataError, UsageError
from clfeval.ops.compare import Compared, DeLongOvRPart, DeLongPart, Undefined
from clfeval.scores import as_scores, binary_gold, indicator_gold, score_matrix, summary_of
from clfeval.significance._midranks import below_counts, positives_first
from clfeval.significance._results import check_alternative, verdict as _verdict, verdict_two_sided
from clfeval.stats import holm

__all__ = ["AUCInterval", "placements", "delong_auc", "delong_test", "delong_ovr",
           "delong_compare", "check_delong"]

_ALGORITHM = "DeLong et al. (1988) structural components, computed by midrank counts (Sun & Xu 2014)"
_CI_METHOD = "Wald (estimate ± z·SE), truncated to [0, 1] for an AUC and to [-1, 1] for a difference"

def _centred(counts: list[tuple[np.ndarray, int]], part: slice) -> list[np.ndarray]:
    """For each system's counts (c, h): c[part] / h (other-class items below, ties ½), minus its mean."""
    out = []
    for c, h in counts:
        u = c[part] / float(h)
        u -= u.mean()
        out.append(u)
    return out


def ndtr(x):  # the standard normal CDF (scipy.special), imported on first use: not when clfeval starts
    from scipy.special import ndtr as f

    return f(x)


def ndtri(x):  # its quantile function
    from scipy.special import ndtri as f

    return f(x)


def _moments(u: list[np.ndarray]) -> np.ndarray:
    """Sample covariance matrix (divisor len − 1) of centred rows; for two rows also, as entry [2, 2],
    var(u0 − u1) computed from the differences (exactly 0 for identical rows)."""
    k, size = len(u), u[0].shape[0]
    out = np.full((k + 1, k + 1), math.nan) if k == 2 else np.empty((k, k))
    for i in range(k):
        for j in range(i, k):
            out[i, j] = out[j, i] = float(np.einsum("i,i->", u[i], u[j])) / (size - 1)
    if k == 2:
        d = np.subtract(u[0], u[1], out=u[0])
        out[k, k] = float(np.einsum("i,i->", d, d)) / (size - 1)
    return out


def _covariance(counts: list[tuple[np.ndarray, int]], m: int) -> np.ndarray:
    """DeLong's S = S10/m + S01/n from each system's counts (V10 = below / n, V01 = 1 − below / m)."""
    n = counts[0][0].shape[0] - m
    s10 = _moments(_centred(counts, slice(0, m))) / float(n) ** 2
    s01 = _moments(_centred(counts, slice(m, None))) / float(m) ** 2
    return s10 / m + s01 / n


def _auc(c: np.ndarray, h: int, m: int) -> float:
    return float(c[:m].sum(dtype=np.int64)) / (h * m * (c.shape[0] - m))


def _binary_inputs(gold: Any, scores: Sequence[Any], positive: Any,
                   names: Sequence[str]) -> tuple[np.ndarray, str, list[np.ndarray]]:
    if positive is None:
        raise UsageError("DeLong's test ranks the items for one class: give the positive class (positive=..., "
                         "--positive on the command line).")
    y, pos, _ = binary_gold(gold, positive)
    xs = [as_scores(x, name=nm, n=y.shape[0], order_only=True) for x, nm in zip(scores, names, strict=True)]
    m = int(np.count_nonzero(y))
    if m == y.shape[0]:
        raise DataError(f"every item of gold is of the positive class {pos!r}; ROC-AUC (and DeLong's test) needs "
                        f"positive and negative items.")
    return y, pos, xs


def placements(gold: Any, scores: Any, *, positive: Any) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's structural components (placement values) of one system, in item order.

    Returns ``(v10, v01)``: for each positive item (in input order) the share
    of negatives scored below it, ties counting ½; for each negative item the
    share of positives scored above it. ``v10.mean() == v01.mean() == AUC``.

    >>> v10, v01 = placements([1, 0, 1, 0], [0.9, 0.2, 0.2, 0.1], positive=1)
    >>> v10.tolist(), v01.tolist()
    ([1.0, 0.75], [0.75, 1.0])
    """
    y, _, (s,) = _binary_inputs(gold, (scores,), positive, ("scores",))
    lay = positives_first(y)
    c, h = below_counts(s, lay)
    m = lay[2]
    return c[:m] / (h * (y.shape[0] - m)), 1.0 - c[m:] / (h * m)


# --- results ---------------------------------------------------------------------------

def _wald(est: float, var: float, level: float, lo: float, hi: float) -> tuple[list[float], bool]:
    half = float(ndtri((1 + level) / 2)) * math.sqrt(var)
    raw = (est - half, est + half)
    out = [max(lo, raw[0]), min(hi, raw[1])]
    return out, (out[0] != raw[0] or out[1] != raw[1])


def _var_reason(m: int, n: int) -> str | None:
    if m < 2 or n < 2:
        return (f"DeLong's variance needs at least two positive and two negative items (sample covariances with "
                f"divisors m - 1 and n - 1); there are {m} positive and {n} negative items.")
    return None


def _json_numbers(d: dict[str, Any]) -> dict[str, Any]:
    return {k: (number(v) if isinstance(v, float) else v) for k, v in d.items()}


@dataclass(frozen=True)
class AUCInterval(Display):
    """One ROC-AUC with DeLong's variance and interval.

    Attributes
    ----------
    auc : float
        θ = mean of the V10 placement values (the Mann–Whitney statistic).
    variance, se : float
        S10/m + S01/n and its square root (NaN when undefined, see ``undefined``).
    ci : list of float
        [low, high], Wald, truncated to [0, 1] (``truncated`` says whether a bound was cut).
    """

    positive: str
    n_positive: int
    n_negative: int
    auc: float
    variance: float
    se: float
    level: float
    ci: list[float]
    truncated: bool
    undefined: list[dict[str, str]]
    notes: list[str]
    signature: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"positive": self.positive, "n_positive": self.n_positive, "n_negative": self.n_negative,
                "auc": number(self.auc), "variance": number(self.variance), "se": number(self.se),
                "ci": {"level": self.level, "low": number(self.ci[0]), "high": number(self.ci[1]),
                       "method": _CI_METHOD, "truncated": self.truncated},
                "undefined": [dict(u) for u in self.undefined], "notes": list(self.notes),
                "signature": self.signature}


def _interval(positive: str, y: np.ndarray, s: np.ndarray, level: float) -> AUCInterval:
    lay = positives_first(y)
    counts = [below_counts(s, lay)]
    m = lay[2]
    return _auc_interval(positive, m, y.shape[0] - m, _auc(*counts[0], m),
                         lambda: float(_covariance(counts, m)[0, 0]), level)


def _summary_interval(s: RankingSummary, level: float) -> AUCInterval:
    """DeLong's interval of a ranking summary: the variance from its per-distinct-score counts."""
    from clfeval.significance._aucintervals import summary_delong_variance

    return _auc_interval(s.positive, s.n_positive, s.n_negative, s.roc_auc, lambda: summary_delong_variance(s),
                         level)


def _auc_interval(positive: str, m: int, n: int, auc: float, variance: Any, level: float) -> AUCInterval:
    undefined, notes = [], []
    reason = _var_reason(m, n)
    if reason:
        var = math.nan
        undefined += [{"field": f, "reason": reason} for f in ("variance", "se", "ci")]
        ci, cut = [math.nan, math.nan], False
    else:
        var = variance()
        ci, cut = _wald(auc, var, level, 0.0, 1.0)
        if var == 0:
            notes.append("DeLong's variance is 0 (every positive is placed alike, as in a perfect ranking): the "
                         "interval has no width, which understates the uncertainty of a small test set.")
    sig = signature("delong_auc", {"level": level, "algorithm": _ALGORITHM, "ci_method": _CI_METHOD})
    return AUCInterval(positive, m, n, auc, var, math.sqrt(var), level, ci, cut, undefined, notes, sig)


def delong_auc(gold: Any, scores: Any = None, *, positive: Any = None, level: float = 0.95) -> AUCInterval:
    """ROC-AUC of one system with DeLong's variance and Wald interval.

    Parameters
    ----------
    gold : sequence of labels, or a ranking (:class:`clfeval.RankingResult` of ``clfeval.ranking``, or its
        :class:`~clfeval.core._ranksummary.RankingSummary`)
        With a ranking, ``scores`` and ``positive`` are not needed: the variance is a function of its
        per-distinct-score counts.
    scores : sequence of numbers
        One finite score per item; higher means more positive.
    positive : label
        The positive class (it must occur; negatives must occur too).
    level : float
        Confidence level of the interval.

    Returns
    -------
    AUCInterval

    Notes
    -----
    var(θ) = S10/m + S01/n with S10 = Σ (V10_i − θ)² / (m − 1) and
    S01 = Σ (V01_j − θ)² / (n − 1); the interval θ ± z·√var is truncated to [0, 1].

    Examples
    --------
    Worked example 8: three positives at ranks 1, 2 and 4 of ten.

    >>> r = delong_auc([1, 1, 0, 1, 0, 0, 0, 0, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], positive=1)
    >>> round(r.auc, 4), round(r.variance, 6), [round(x, 4) for x in r.ci]
    (0.9524, 0.004535, [0.8204, 1.0])
    >>> r.truncated
    True
    """
    level = check_probability(level, option="level")
    held = summary_of(gold)
    if held is not None:
        if held.n_positive == 0 or held.n_negative == 0:
            raise DataError(f"the ranking has {held.n_positive} positive and {held.n_negative} negative items; "
                            f"ROC-AUC needs both.")
        return _summary_interval(held, level)
    y, pos, (s,) = _binary_inputs(gold, (scores,), positive, ("scores",))
    return _interval(pos, y, s, level)


_HYPOTHESIS = {"greater": "H0: AUC(A) <= AUC(B); H1: AUC(A) > AUC(B) (one-sided; the two-sided p is beside it)",
               "two-sided": "H0: AUC(A) = AUC(B); H1: AUC(A) != AUC(B) (two-sided; the one-sided p is beside it)"}


def _pair(y: np.ndarray, sa: np.ndarray, sb: np.ndarray, *, positive: str, names: tuple[str, str], level: float,
          alpha: float, alternative: str = "greater") -> Compared:
    lay = positives_first(y)
    counts = [below_counts(sa, lay), below_counts(sb, lay)]
    m = lay[2]
    n = y.shape[0] - m
    auc_a, auc_b = (_auc(c, h, m) for c, h in counts)
    delta = auc_a - auc_b
    undefined: list[dict[str, str]] = []
    notes: list[str] = []
    nan2 = [math.nan, math.nan]
    cuts: dict[str, bool] = {}
    reason = _var_reason(m, n)
    if reason:
        var_a = var_b = cov = var_d = z = p1 = p2 = math.nan
        ci_a = ci_b = ci_d = nan2
        undefined += [{"field": f, "reason": reason} for f in ("var_a", "var_b", "covariance", "var_delta", "z",
                                                               "p_value", "p_value_one_sided", "p_value_two_sided",
                                                               "ci")]
    else:
        s = _covariance(counts, m)
        var_a, var_b, cov, var_d = float(s[0, 0]), float(s[1, 1]), float(s[0, 1]), float(s[2, 2])
        ci_a, cuts["a"] = _wald(auc_a, var_a, level, 0.0, 1.0)
        ci_b, cuts["b"] = _wald(auc_b, var_b, level, 0.0, 1.0)
        ci_d, cuts["delta"] = _wald(delta, var_d, level, -1.0, 1.0)
        if var_d > 0:
            z = delta / math.sqrt(var_d)
            p1, p2 = float(ndtr(-z)), float(2 * ndtr(-abs(z)))
        else:
            z = p1 = p2 = math.nan
            reason = ("the variance of the AUC difference is 0 (the two systems place every positive and every "
                      "negative alike relative to each other)")
            undefined += [{"field": f, "reason": reason + ": z and the p-values are undefined"}
                          for f in ("z", "p_value", "p_value_one_sided", "p_value_two_sided")]
    p = p1 if alternative == "greater" else p2
    if reason is None and alternative == "greater":
        verdict = _verdict("ROC-AUC", names, auc_a, auc_b, delta, p1, alpha, True, None)
    elif reason is None:
        verdict = verdict_two_sided("ROC-AUC", names, auc_a, auc_b, delta, p2, alpha)
    else:
        verdict = (f"{names[0]}'s ROC-AUC is {auc_a:.3f} and {names[1]}'s {auc_b:.3f}; DeLong's test is undefined "
                   f"here: {reason}.")
    sig = signature("delong_test", {"test": "delong", "alternative": alternative, "level": level, "alpha": alpha,
                                    "algorithm": _ALGORITHM, "ci_method": _CI_METHOD, "positive": positive})
    part = DeLongPart(positive=positive, n_positive=m, n_negative=n, auc_a=auc_a, auc_b=auc_b, var_a=var_a,
                      var_b=var_b, covariance=cov, delta=delta, var_delta=var_d, se_delta=math.sqrt(var_d), z=z,
                      p_value=p, p_value_one_sided=p1, p_value_two_sided=p2, alternative=alternative,
                      hypothesis=_HYPOTHESIS[alternative], level=level, ci_a=_pair_of(ci_a), ci_b=_pair_of(ci_b),
                      ci_delta=_pair_of(ci_d), ci_method=_CI_METHOD, truncated=cuts, verdict=verdict,
                      undefined=[Undefined(**u) for u in undefined])
    return Compared(names=names, metric="roc_auc", test="delong", alpha=alpha, signature=sig, notes=notes,
                    delong=part)


def _pair_of(v: Sequence[float]) -> tuple[float, float]:
    return float(v[0]), float(v[1])


def _check_names(names: Sequence[str]) -> tuple[str, str]:
    out = tuple(str(x) for x in names)
    if len(out) != 2:
        raise UsageError(f"names must give two display names (A, B); got {names!r}.")
    return out


def delong_test(gold: Any, scores_a: Any, scores_b: Any, *, positive: Any, level: float = 0.95, alpha: float = 0.05,
                names: Sequence[str] = ("A", "B"), alternative: str = "greater") -> Compared:
    """DeLong's test: is A's ROC-AUC higher than B's on the same items?

    Parameters
    ----------
    gold : sequence of labels
        One per item; every label other than ``positive`` is negative.
    scores_a, scores_b : sequence of numbers
        Each system's scores for the same items, in the same order.
    positive : label
        The class ranked (it must occur, and so must some other label).
    level : float
        Confidence level of the intervals.
    alpha : float
        Significance level of the verdict.
    names : (str, str)
        How A and B are called in the verdict.
    alternative : {"greater", "two-sided"}
        H1 "A's AUC is higher" (one-sided, the default) or "the AUCs differ";
        ``p_value`` and the verdict follow it, both p-values are kept.

    Returns
    -------
    Compared
        Of kind ``delong`` (:class:`clfeval.ops.compare.DeLongPart`).

    Notes
    -----
    z = (θ_A − θ_B) / √(S_AA + S_BB − 2 S_AB), S = S10/m + S01/n (module
    docstring); one-sided p = 1 − Φ(z), two-sided p = 2(1 − Φ(|z|)).

    Examples
    --------
    >>> gold = [1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> a = [0.9, 0.8, 0.7, 0.3, 0.6, 0.2, 0.2, 0.1, 0.1, 0.0]
    >>> b = [0.9, 0.4, 0.3, 0.2, 0.6, 0.5, 0.2, 0.1, 0.1, 0.0]
    >>> r = delong_test(gold, a, b, positive=1)
    >>> round(r.auc_a, 4), round(r.auc_b, 4), round(r.z, 3), round(r.p_value, 3)
    (0.9583, 0.7292, 1.501, 0.067)
    >>> round(delong_test(gold, a, b, positive=1, alternative="two-sided").p_value, 3)
    0.133
    """
    level = check_probability(level, option="level")
    alpha = check_probability(alpha, option="alpha")
    alternative = check_alternative(alternative)
    names = _check_names(names)
    y, pos, (sa, sb) = _binary_inputs(gold, (scores_a, scores_b), positive, names)
    return _pair(y, sa, sb, positive=pos, names=names, level=level, alpha=alpha, alternative=alternative)


# --- one-vs-rest -----------------------------------------------------------------------

def delong_ovr(gold: Any, scores_a: Any, scores_b: Any, *, labels: Sequence[Any] | None = None, level: float = 0.95,
               alpha: float = 0.05, names: Sequence[str] = ("A", "B"), alternative: str = "greater") -> Compared:
    """DeLong's test for each class against the rest (multiclass), Holm-adjusted.

    Parameters
    ----------
    gold : sequence of labels
        One label per item.
    scores_a, scores_b : mapping label → column, or (n, K) arrays with ``labels``
        One score column per class for each system; both must have the same classes.
    labels : sequence of labels, optional
        With (n, K) arrays: the class of each column, one per column (unused with mappings, whose keys name the
        columns).
    level : float, default 0.95
        Confidence level of each class's intervals.
    alpha : float, default 0.05
        Significance level of each class's verdict, against its Holm-adjusted p-value.
    names : (str, str), default ("A", "B")
        How A and B are called in the verdicts and in the messages about their score columns.
    alternative : {"greater", "two-sided"}
        As in :func:`delong_test`; the Holm adjustment is of that alternative's p-values.

    Returns
    -------
    Compared
        Of kind ``delong_ovr`` (:class:`clfeval.ops.compare.DeLongOvRPart`); each class's test of kind ``delong``.

    Examples
    --------
    >>> gold = ["x", "y", "z", "x", "y", "z", "x", "y"]
    >>> a = {"x": [.9, .1, .2, .8, .3, .1, .7, .2], "y": [.1, .8, .2, .1, .6, .3, .2, .9],
    ...      "z": [0, .1, .6, .1, .1, .6, .1, 0]}
    >>> b = {"x": [.5, .4, .2, .6, .3, .1, .3, .2], "y": [.1, .5, .2, .1, .6, .3, .2, .4],
    ...      "z": [0, .1, .6, .1, .1, .2, .5, 0]}
    >>> r = delong_ovr(gold, a, b)
    >>> [(k, round(r.per_class[k].delta, 3), round(r.p_holm[k], 3)) for k in ("x", "z")]
    [('x', 0.1, 0.405), ('z', 0.083, 0.405)]
    >>> math.isnan(r.to_dict()["per_class"]["y"]["p_value"])  # both rank class y perfectly: variance 0, no test
    True
    """
    level = check_probability(level, option="level")
    alpha = check_probability(alpha, option="alpha")
    alternative = check_alternative(alternative)
    names = _check_names(names)
    ma, la = score_matrix(scores_a, labels=labels, prefix=f"{names[0]}:")
    mb, lb = score_matrix(scores_b, labels=labels, prefix=f"{names[1]}:")
    if [str(x) for x in la] != [str(x) for x in lb]:
        raise DataError(f"the two systems must have score columns for the same classes in the same order; "
                        f"{names[0]} has {[str(x) for x in la]} and {names[1]} has {[str(x) for x in lb]}.")
    y = indicator_gold(gold, la, multilabel=False)
    if y.shape[0] != ma.shape[0] or ma.shape[0] != mb.shape[0]:
        raise DataError(f"gold has {y.shape[0]} items but the score columns have {ma.shape[0]} ({names[0]}) and "
                        f"{mb.shape[0]} ({names[1]}) values; give one score per item.")
    labs = [str(x) for x in la]
    per: dict[str, Compared | None] = {}
    undefined = []
    for j, lab in enumerate(labs):
        m = int(np.count_nonzero(y[:, j]))
        if m == 0 or m == y.shape[0]:
            per[lab] = None
            undefined.append({"field": f"per_class.{lab}", "reason": f"class {lab!r} has {m} of {y.shape[0]} items: "
                              "a one-vs-rest ROC-AUC needs positive and negative items"})
            continue
        per[lab] = _pair(y[:, j], ma[:, j], mb[:, j], positive=lab, names=names, level=level, alpha=alpha,
                         alternative=alternative)
    defined = [lab for lab in labs if per[lab] is not None]
    adj1 = holm([per[lab].p_value for lab in defined])  # type: ignore[union-attr]
    adj2 = holm([per[lab].p_value_two_sided for lab in defined])  # type: ignore[union-attr]
    p_holm = {lab: math.nan for lab in labs}
    p_holm2 = dict(p_holm)
    verdicts = {}
    for lab, p, q in zip(defined, adj1, adj2, strict=True):
        p_holm[lab], p_holm2[lab] = float(p), float(q)
        c = per[lab]
        if not math.isfinite(c.p_value):  # type: ignore[union-attr]
            verdicts[lab] = c.verdict  # type: ignore[union-attr]
        elif alternative == "greater":
            verdicts[lab] = _verdict("ROC-AUC", names, c.auc_a, c.auc_b, c.delta, float(p), alpha, True, None,  # type: ignore[union-attr]
                                     p_name="Holm-adjusted p")
        else:
            verdicts[lab] = verdict_two_sided("ROC-AUC", names, c.auc_a, c.auc_b, c.delta, float(p), alpha,  # type: ignore[union-attr]
                                              p_name="Holm-adjusted two-sided p")
    notes = ["Each class is ranked against all the others (one-vs-rest); the per-class p-values are adjusted with "
             "Holm-Bonferroni over the classes with a defined test (family-wise error <= alpha)."]
    sig = signature("delong_ovr", {"test": "delong", "alternative": alternative, "level": level, "alpha": alpha,
                                   "algorithm": _ALGORITHM, "ci_method": _CI_METHOD, "adjustment": "holm"})
    part = DeLongOvRPart(labels=labs, per_class=per, p_holm=p_holm, p_holm_two_sided=p_holm2, alternative=alternative,
                         verdicts=verdicts, undefined=[Undefined(**u) for u in undefined])
    return Compared(names=names, metric="roc_auc", test="delong", alpha=alpha, signature=sig, notes=notes,
                    delong_ovr=part)


def check_delong(metric: Any, margin: Any = None) -> None:
    """Refuse what DeLong's test cannot do, before any data is read: a metric other than ROC-AUC, a margin.

    >>> check_delong("macro_f1")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: DeLong's test compares ROC-AUCs of scores; metric 'macro_f1' is not roc_auc. Use test
    bootstrap or randomization for it (and for average_precision).
    """
    if metric != "roc_auc":
        raise UsageError(f"DeLong's test compares ROC-AUCs of scores; metric {metric!r} is not roc_auc. Use test "
                         f"bootstrap or randomization for it (and for average_precision).")
    if margin is not None:
        raise UsageError(lambda name: f"option {name} (non-inferiority) is tested with the paired bootstrap; use test "
                         f"bootstrap with metric roc_auc for a ROC-AUC margin.", params=["margin"])


def delong_compare(gold: Any, scores_a: Any, scores_b: Any, *, positive: Any, level: float = 0.95,
                   alpha: float = 0.05, names: Sequence[str] = ("A", "B"),
                   alternative: str = "greater") -> Compared:
    """DeLong's test of two correlated ROC-AUCs on one score column per system: a
    :class:`~clfeval.ops.compare.Compared` of kind ``delong`` (one column per class, one-vs-rest with Holm:
    :func:`delong_ovr`, kind ``delong_ovr``).

    Parameters
    ----------
    gold : sequence of labels
        One per item; every label other than ``positive`` is negative.
    scores_a, scores_b : sequence of numbers
        Each system's scores for the same items, in the same order (one column each; a mapping or a 2-D array
        is refused: use :func:`delong_ovr`).
    positive : label
        The class ranked (it must occur, and so must some other label).
    level : float, default 0.95
        Confidence level of the intervals.
    alpha : float, default 0.05
        Significance level of the verdict.
    names : (str, str), default ("A", "B")
        How A and B are called in the verdict.
    alternative : {"greater", "two-sided"}
        H1 "A's AUC is higher" (one-sided, the default) or "the AUCs differ"; ``p_value`` and the verdict follow
        it, both p-values are kept.

    Examples
    --------
    >>> r = delong_compare([1, 0, 1, 0, 1, 0], [.9, .1, .8, .3, .4, .5], [.6, .2, .7, .4, .3, .5], positive=1)
    >>> type(r).__name__, r.kind, round(r.auc_a, 4), round(r.auc_b, 4)
    ('Compared', 'delong', 0.8889, 0.7778)
    """
    if isinstance(scores_a, Mapping) or getattr(scores_a, "ndim", 1) == 2:
        raise UsageError("delong_compare compares one score column per system; for one column per class "
                         "(one-vs-rest, Holm-adjusted) use delong_ovr.")
    return delong_test(gold, scores_a, scores_b, positive=positive, level=level, alpha=alpha, names=names,
                       alternative=alternative)


def delong_either(gold: Any, scores_a: Any, scores_b: Any, *, positive: Any = None,
                  labels: Sequence[Any] | None = None, level: float = 0.95, alpha: float = 0.05,
                  names: Sequence[str] = ("A", "B"), alternative: str = "greater") -> Compared:
    """DeLong's test as ``compare(..., test="delong")`` runs it: :func:`delong_compare` for one score column
    per system (needs ``positive``), :func:`delong_ovr` for one column per class (mappings label → column, or
    (n, K) arrays with ``labels``)."""
    if isinstance(scores_a, Mapping) or getattr(scores_a, "ndim", 1) == 2:
        return delong_ovr(gold, scores_a, scores_b, labels=labels, level=level, alpha=alpha, names=names,
                          alternative=alternative)
    return delong_compare(gold, scores_a, scores_b, positive=positive, level=level, alpha=alpha, names=names,
                          alternative=alternative)
