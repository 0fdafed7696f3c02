"""Comparing two models under cross-validation: per-fold differences and the tests that respect them.

Two models A and B evaluated on the same folds give per-fold metric values
a_j and b_j, j = 1..J (J = repeats × folds), and differences d_j = a_j − b_j
with mean d̄ and sample variance σ̂² = Σ (d_j − d̄)² / (J − 1). The folds are
not independent test sets — every pair of training sets overlaps — so the
plain paired t-test over folds underestimates the variance of d̄:

* **plain paired t-test** (shown for contrast): t = d̄ / √(σ̂²/J), J − 1 df;
* **corrected resampled t-test** (Nadeau & Bengio 2003): the variance is
  inflated to (1/J + n_test/n_train)·σ̂², t = d̄ / √((1/J + n_test/n_train)·σ̂²)
  with J − 1 df; n_test/n_train is the ratio of the mean test size to the
  mean training size of the folds (constant up to rounding in k-fold CV,
  where it is 1/(k − 1));
* **5×2cv paired t-test** (Dietterich 1998), for 5 repeats of 2-fold CV:
  with p_i^(1), p_i^(2) the differences on the two folds of repeat i,
  p̄_i their mean and s_i² = (p_i^(1) − p̄_i)² + (p_i^(2) − p̄_i)²,
  t = p_1^(1) / √(Σ_i s_i² / 5) with 5 df; beside it Alpaydin's (1999)
  combined 5×2cv F test, F = Σ_i Σ_j (p_i^(j))² / (2 Σ_i s_i²) with (10, 5)
  df, which does not depend on which fold comes first;
* the **paired bootstrap on the pooled out-of-fold predictions** (an already
  computed :class:`clfeval.ops.compare.Compared`): it resamples test
  items only, so it ignores the variance that comes from the training set.

Each t-test is one-sided, H1 "A is better than B" (for a lower-is-better
metric, d̄ < 0), with the two-sided p beside it and a t interval for the mean
difference. Undefined cases: a zero variance of the differences (t is 0/0 or
x/0) leaves t, p and the interval undefined, with the reason.

References
----------
* Nadeau & Bengio (2003), "Inference for the generalization error",
  *Machine Learning* 52:239–281.
* Dietterich (1998), "Approximate statistical tests for comparing supervised
  classification learning algorithms", *Neural Computation* 10:1895–1923.
* Alpaydin (1999), "Combined 5×2 cv F test for comparing supervised
  classification learning algorithms", *Neural Computation* 11:1885–1892.
* Bouckaert & Frank (2004), "Evaluating the replicability of significance
  tests for comparing learning algorithms".
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import Display, catalog, check_probability, number, signature
from clfeval.errors import DataError, UsageError
from clfeval.significance._results import format_p

__all__ = ["FoldDifference", "TTest", "CVComparison", "cv_compare", "five_by_two_cv"]


@dataclass(frozen=True)
class FoldDifference:
    """One fold: its sizes, both models' metric values and d = a − b."""

    repeat: int
    fold: int
    n_train: int
    n_test: int
    a: float
    b: float

    @property
    def delta(self) -> float:
        return self.a - self.b

    def to_dict(self) -> dict[str, Any]:
        return {"repeat": self.repeat, "fold": self.fold, "n_train": self.n_train, "n_test": self.n_test,
                "a": self.a, "b": self.b, "delta": self.delta}


@dataclass(frozen=True)
class TTest:
    """A t statistic over fold differences with its degrees of freedom, p-values and interval.

    ``estimate`` is the quantity tested (d̄, or p_1^(1) for 5×2cv), ``se`` its
    standard error as the test defines it; ``p_value`` is one-sided (H1: A
    better), ``p_value_two_sided`` two-sided; ``ci`` = estimate ± t·se.
    """

    name: str
    definition: str
    estimate: float
    se: float
    statistic: float
    df: float
    p_value: float
    p_value_two_sided: float
    ci: list[float]
    undefined: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "definition": self.definition, "estimate": number(self.estimate),
                "se": number(self.se), "t": number(self.statistic), "df": self.df,
                "p_value": number(self.p_value), "p_value_two_sided": number(self.p_value_two_sided),
                "ci": [number(x) for x in self.ci], "undefined": self.undefined}


def _t_test(name: str, definition: str, estimate: float, se: float, df: float, higher: bool, level: float) -> TTest:
    from scipy.stats import t as student

    if not (se > 0 and math.isfinite(se)):
        why = ("the fold differences have zero variance (every fold gives the same difference), so t is "
               "undefined" if se == 0 else "the standard error is undefined")
        return TTest(name, definition, estimate, se, math.nan, df, math.nan, math.nan, [math.nan, math.nan], why)
    t = estimate / se
    p1 = float(student.sf(t if higher else -t, df))
    p2 = float(2 * student.sf(abs(t), df))
    q = float(student.ppf((1 + level) / 2, df))
    return TTest(name, definition, estimate, se, t, df, p1, p2, [estimate - q * se, estimate + q * se])


@dataclass(frozen=True)
class CVComparison(Display):
    """Two models compared over the same cross-validation folds.

    Attributes
    ----------
    folds : list of FoldDifference
        Sorted by (repeat, fold).
    mean_delta : float
        d̄, the mean of the fold differences a − b.
    plain, corrected : TTest
        The plain paired t-test over folds and Nadeau & Bengio's corrected
        resampled t-test.
    five_by_two : dict or None
        With 5 repeats of 2 folds: ``{"t": TTest, "f": {...}}`` (Dietterich's
        t and Alpaydin's F); otherwise None and ``five_by_two_reason`` says why.
    pooled : dict or None
        The paired bootstrap (or other test) on the pooled out-of-fold
        predictions, as given.
    verdict : str
        Which test to believe and why, in one sentence.
    """

    metric: str
    higher_is_better: bool
    names: tuple[str, str]
    folds: list[FoldDifference]
    repeats: int
    folds_per_repeat: int
    test_train_ratio: float
    mean_delta: float
    sd_delta: float
    plain: TTest
    corrected: TTest
    five_by_two: dict[str, Any] | None
    five_by_two_reason: str | None
    pooled: dict[str, Any] | None
    alpha: float
    level: float
    verdict: str
    notes: list[str]
    signature: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        fbt = None
        if self.five_by_two is not None:
            fbt = {"t": self.five_by_two["t"].to_dict(), "f": {k: (number(v) if isinstance(v, float) else v)
                                                               for k, v in self.five_by_two["f"].items()}}
        return {"metric": self.metric, "higher_is_better": self.higher_is_better,
                "names": {"a": self.names[0], "b": self.names[1]}, "n_folds": len(self.folds),
                "repeats": self.repeats, "folds_per_repeat": self.folds_per_repeat,
                "test_train_ratio": self.test_train_ratio, "per_fold": [f.to_dict() for f in self.folds],
                "mean_delta": number(self.mean_delta), "sd_delta": number(self.sd_delta),
                "hypothesis": ("H1: A better than B (mean difference > 0)" if self.higher_is_better
                               else "H1: A better than B (mean difference < 0: lower is better)") + ", one-sided",
                "alpha": self.alpha, "level": self.level, "plain_t": self.plain.to_dict(),
                "corrected_t": self.corrected.to_dict(), "five_by_two": fbt,
                "five_by_two_reason": self.five_by_two_reason, "pooled_bootstrap": self.pooled,
                "verdict": self.verdict, "notes": list(self.notes), "signature": self.signature}


# --- reading the fold records ---------------------------------------------------------

def _field(rec: Any, key: str, metric: str) -> Any:
    if isinstance(rec, Mapping):
        if key == "value":
            if metric in rec:
                return rec[metric]
            if "metrics" in rec and isinstance(rec["metrics"], Mapping) and metric in rec["metrics"]:
                return rec["metrics"][metric]
            return rec.get("value")
        return rec.get(key, 1 if key == "repeat" else None)
    if key == "value":
        metrics = getattr(rec, "metrics", None)
        if isinstance(metrics, Mapping) and metric in metrics:
            return metrics[metric]
        return getattr(rec, "value", None)
    return getattr(rec, key, 1 if key == "repeat" else None)


def _records(folds: Any, metric: str, who: str) -> dict[tuple[int, int], tuple[float, int, int]]:
    """{(repeat, fold): (value, n_train, n_test)} of one model's folds, checked."""
    if hasattr(folds, "folds") and not isinstance(folds, (Mapping, str)):
        folds = folds.folds  # a ProtocolResult
    if isinstance(folds, (str, bytes, Mapping)) or not isinstance(folds, Sequence):
        raise UsageError(f"{who}'s folds must be a sequence of per-fold records (FoldResult objects, or mappings "
                         f"with repeat, fold, n_train, n_test and {metric!r}); got {type(folds).__name__}.")
    out: dict[tuple[int, int], tuple[float, int, int]] = {}
    for i, rec in enumerate(folds):
        where = f"{who}'s fold record {i}"
        rep, fold = _field(rec, "repeat", metric), _field(rec, "fold", metric)
        n_train, n_test = _field(rec, "n_train", metric), _field(rec, "n_test", metric)
        for name, v, low in (("repeat", rep, 0), ("fold", fold, 0), ("n_train", n_train, 1), ("n_test", n_test, 1)):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low:
                raise DataError(f"{where}: {name} must be an integer >= {low}; got {v!r}.")
        value = _field(rec, "value", metric)
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise DataError(f"{where} (repeat {rep}, fold {fold}) has no number for metric {metric!r}; got "
                            f"{value!r}.") from None
        if not math.isfinite(value):
            raise DataError(f"{where} (repeat {rep}, fold {fold}): {metric} is undefined ({value}); a fold "
                            f"difference cannot be formed, so no test over folds is possible.")
        key = (int(rep), int(fold))
        if key in out:
            raise DataError(f"{who} has two records for repeat {rep}, fold {fold}; each fold must appear once.")
        out[key] = (value, int(n_train), int(n_test))
    return out


def _show(keys: Sequence[tuple[int, int]]) -> str:
    shown = ", ".join(f"(repeat {r}, fold {f})" for r, f in list(keys)[:5])
    return shown + (f" and {len(keys) - 5} more" if len(keys) > 5 else "")


def _pair_folds(folds_a: Any, folds_b: Any, metric: str, names: tuple[str, str]) -> list[FoldDifference]:
    ra, rb = _records(folds_a, metric, names[0]), _records(folds_b, metric, names[1])
    if len(ra) != len(rb):
        raise DataError(f"{names[0]} has {len(ra)} folds and {names[1]} has {len(rb)}: the models must be "
                        f"evaluated on the same folds to be compared fold by fold.")
    only_a = sorted(set(ra) - set(rb))
    only_b = sorted(set(rb) - set(ra))
    if only_a or only_b:
        raise DataError(f"the fold ids differ: only {names[0]} has {_show(only_a) or 'none'}; only {names[1]} has "
                        f"{_show(only_b) or 'none'}. The models must be evaluated on the same folds.")
    out = []
    for key in sorted(ra):
        (va, tr_a, te_a), (vb, tr_b, te_b) = ra[key], rb[key]
        if (tr_a, te_a) != (tr_b, te_b):
            raise DataError(f"repeat {key[0]}, fold {key[1]}: {names[0]} was trained on {tr_a} and tested on {te_a} "
                            f"items, {names[1]} on {tr_b} and {te_b}; these are not the same folds (same data, same "
                            f"split and seed are needed).")
        out.append(FoldDifference(key[0], key[1], tr_a, te_a, va, vb))
    if len(out) < 2:
        raise DataError(f"a test over folds needs at least 2 folds; got {len(out)}.")
    return out


def _design(folds: list[FoldDifference]) -> tuple[int, int]:
    """(repeats, folds per repeat), or folds per repeat 0 when repeats have different numbers of folds."""
    per: dict[int, int] = {}
    for f in folds:
        per[f.repeat] = per.get(f.repeat, 0) + 1
    sizes = set(per.values())
    return len(per), (sizes.pop() if len(sizes) == 1 else 0)


# --- the tests ------------------------------------------------------------------------

def _five_by_two(folds: list[FoldDifference], higher: bool, level: float) -> dict[str, Any]:
    from scipy.stats import f as fisher

    reps: dict[int, list[float]] = {}
    for fold in folds:
        reps.setdefault(fold.repeat, []).append(fold.delta)
    p = np.array([reps[r] for r in sorted(reps)])  # (5, 2), folds in id order
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    den = float(s2.sum())
    t = _t_test("5x2cv paired t-test (Dietterich 1998)",
                "t = p_1^(1) / sqrt(sum_i s_i^2 / 5), 5 df; p_1^(1) = difference on the first fold of the first "
                "repeat, s_i^2 = variance estimate of repeat i", float(p[0, 0]), math.sqrt(den / 5), 5.0, higher,
                level)
    f: dict[str, Any]
    if den > 0:
        stat = float((p ** 2).sum()) / (2 * den)
        f = {"name": "combined 5x2cv F test (Alpaydin 1999)", "statistic": stat, "df": [10, 5],
             "p_value_two_sided": float(fisher.sf(stat, 10, 5)), "undefined": None}
    else:
        f = {"name": "combined 5x2cv F test (Alpaydin 1999)", "statistic": math.nan, "df": [10, 5],
             "p_value_two_sided": math.nan, "undefined": "the within-repeat variances are all 0"}
    f["definition"] = "F = sum_i sum_j (p_i^(j))^2 / (2 sum_i s_i^2), (10, 5) df; H0: no difference (two-sided)"
    return {"t": t, "f": f}


def _five_by_two_reason(repeats: int, per: int) -> str | None:
    if repeats == 5 and per == 2:
        return None
    times = f"{repeats} repeat{'s' if repeats != 1 else ''}"
    shape = f"{times} of {per} folds" if per else f"{times} with different numbers of folds"
    return f"Dietterich's 5x2cv test needs 5 repeats of 2-fold cross-validation; these runs have {shape}."


def _resolve(metric: str, higher_is_better: bool | None, names: Sequence[str], level: float, alpha: float
             ) -> tuple[str, bool, tuple[str, str], float, float]:
    if not isinstance(metric, str) or not metric:
        raise UsageError(f"metric must be the name of the metric compared over folds; got {metric!r}.")
    if higher_is_better is None:  # from the catalogue; a name outside it (a user's own metric) counts higher as better
        found = catalog.find(metric)
        direction = None if found is None else found[0].higher_is_better
        higher = True if direction is None else direction
    else:
        higher = bool(higher_is_better)
    names = tuple(str(x) for x in names)
    if len(names) != 2:
        raise UsageError(f"names must give two display names (A, B); got {names!r}.")
    return (metric, higher, names, check_probability(level, option="level"),
            check_probability(alpha, option="alpha"))


def five_by_two_cv(folds_a: Any, folds_b: Any, *, metric: str, higher_is_better: bool | None = None,
                   level: float = 0.95, names: Sequence[str] = ("A", "B")) -> dict[str, Any]:
    """Dietterich's 5×2cv paired t-test (and Alpaydin's combined F test) on 5 repeats of 2-fold CV.

    Refused (:class:`~clfeval.errors.UsageError`) unless the folds are
    exactly 5 repeats × 2 folds. Returns ``{"t": TTest, "f": dict}``.

    Examples
    --------
    >>> fa = [{"repeat": r, "fold": f, "n_train": 50, "n_test": 50, "accuracy": 0.80 + 0.01 * r + 0.005 * f}
    ...       for r in range(1, 6) for f in (1, 2)]
    >>> fb = [dict(x, accuracy=0.78 + 0.01 * x["repeat"]) for x in fa]
    >>> out = five_by_two_cv(fa, fb, metric="accuracy")
    >>> round(out["t"].estimate, 3), round(out["t"].statistic, 2), out["t"].df
    (0.025, 7.07, 5.0)
    >>> five_by_two_cv(fa[:8], fb[:8], metric="accuracy")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: Dietterich's 5x2cv test needs 5 repeats of 2-fold cross-validation; these runs have 4
    repeats of 2 folds.
    """
    metric, higher, names, level, _ = _resolve(metric, higher_is_better, names, level, 0.05)
    folds = _pair_folds(folds_a, folds_b, metric, names)
    reason = _five_by_two_reason(*_design(folds))
    if reason:
        raise UsageError(reason)
    return _five_by_two(folds, higher, level)


def _pooled(pooled: Any, metric: str, names: tuple[str, str]) -> dict[str, Any] | None:
    if pooled is None:
        return None
    d = pooled.to_dict() if hasattr(pooled, "to_dict") else pooled
    if not isinstance(d, Mapping) or "p_value" not in d or "delta" not in d:
        raise UsageError("pooled must be a clfeval comparison of two systems (a Compared, or its to_dict()) of the "
                         "two models' pooled out-of-fold predictions.")
    if d.get("metric") not in (None, metric):
        raise UsageError(f"the pooled comparison is on metric {d.get('metric')!r}, the folds on {metric!r}; "
                         f"compare the same metric.")
    pn = d.get("names") or {}
    pnames = (pn.get("a"), pn.get("b")) if isinstance(pn, Mapping) else tuple(pn)
    if pnames and None not in pnames and tuple(pnames) != names and names != ("A", "B"):
        raise UsageError(f"the pooled comparison compares {pnames[0]} with {pnames[1]}, the folds {names[0]} with "
                         f"{names[1]}; give the comparison of the same two models in the same order.")
    ci = d.get("ci") or {}
    return {"test": d.get("test"), "delta": number(d.get("delta")), "p_value": number(d.get("p_value")),
            "ci_delta": [number(x) for x in ci.get("delta", [None, None])], "ci_level": ci.get("level"),
            "samples": d.get("samples"), "seed": d.get("seed"), "n": d.get("n"),
            "names": {"a": pnames[0], "b": pnames[1]} if pnames and None not in pnames else None}


def _verdict(res: dict[str, Any], label: str, names: tuple[str, str], higher: bool, alpha: float) -> str:
    a, b = names
    nb: TTest = res["corrected"]
    d = nb.estimate
    word = "higher" if d > 0 else "lower"
    head = (f"{a}'s {label} is {abs(d):.3g} {word} than {b}'s on average over {res['n']} folds"
            if d != 0 else f"{a} and {b} have the same mean {label} over {res['n']} folds")
    better = d > 0 if higher else d < 0
    if nb.undefined:
        first = f"{head}, but the corrected resampled t-test is undefined ({nb.undefined})"
    else:
        p = format_p(nb.p_value)
        if not better:
            first = f"{head}; corrected resampled t-test {p}: no evidence that {a} is better"
        elif nb.p_value < alpha:
            first = (f"{head}; believe the corrected resampled t-test (Nadeau-Bengio), {p} < {alpha:g}: "
                     f"unlikely to be luck")
        else:
            first = (f"{head}; believe the corrected resampled t-test (Nadeau-Bengio), {p} >= {alpha:g}: could well "
                     f"be luck")
    parts = [first]
    if res["plain"].undefined is None:
        parts.append(f"the plain t-test over folds ({format_p(res['plain'].p_value)}) is too optimistic because the "
                     f"training sets overlap, which Nadeau-Bengio's n_test/n_train term corrects")
    fbt = res["five_by_two"]
    if fbt is not None and fbt["t"].undefined is None:
        t5 = fbt["t"]
        agree = (t5.p_value < alpha) == (nb.p_value < alpha)
        parts.append(f"Dietterich's 5x2cv test ({format_p(t5.p_value)}) "
                     + ("agrees" if agree else "disagrees, so treat the difference as not established"))
    pooled = res["pooled"]
    if pooled is not None and pooled["p_value"] is not None:
        resamples = pooled.get("samples") if pooled["test"] == "bootstrap" else None
        parts.append(f"the pooled {pooled['test'] or 'paired'} test on the out-of-fold predictions "
                     f"({format_p(pooled['p_value'], resamples)})"
                     f" resamples test items only and ignores the variance due to the training set")
    return "; ".join(parts) + "."


def cv_compare(folds_a: Any, folds_b: Any, *, metric: str, higher_is_better: bool | None = None,
               pooled: Any = None, alpha: float = 0.05, level: float = 0.95,
               names: Sequence[str] = ("A", "B")) -> CVComparison:
    """Compare two models evaluated on the same cross-validation folds.

    Parameters
    ----------
    folds_a, folds_b : sequence of per-fold records, or a ProtocolResult
        Each record is a :class:`clfeval.protocols._api.FoldResult` or a mapping
        with ``repeat`` (default 1), ``fold``, ``n_train``, ``n_test`` and the
        metric's value under the key ``metric`` (or ``metrics[metric]``, or
        ``value``) — as in ``ProtocolResult.to_dict()["per_fold"]``. Both
        models must have the same folds (ids and sizes); anything else is
        refused with the folds named.
    metric : str
        The metric compared (a name such as ``macro_f1``; its direction comes
        from the metric unless ``higher_is_better`` is given).
    pooled : Compared or dict, optional
        An already computed paired comparison (bootstrap) of the two models'
        pooled out-of-fold predictions, shown beside the fold tests.
    alpha, level : float
        Significance level of the verdict; confidence level of the intervals.
    names : (str, str)
        Display names of A and B.

    Returns
    -------
    CVComparison

    Notes
    -----
    Nadeau–Bengio: t = d̄ / √((1/J + n_test/n_train)·σ̂²), J − 1 df; the plain
    t-test uses √(σ̂²/J). See the module docstring for 5×2cv.

    Examples
    --------
    Ten folds of 10-fold CV on 1,000 items (n_test/n_train = 100/900):

    >>> d = [0.02, 0.01, 0.03, 0.00, 0.02, 0.01, 0.02, 0.03, 0.01, 0.02]
    >>> fa = [{"fold": j + 1, "n_train": 900, "n_test": 100, "macro_f1": 0.80 + x} for j, x in enumerate(d)]
    >>> fb = [{"fold": j + 1, "n_train": 900, "n_test": 100, "macro_f1": 0.80} for j in range(10)]
    >>> r = cv_compare(fa, fb, metric="macro_f1")
    >>> round(r.plain.statistic, 2), round(r.corrected.statistic, 2), r.corrected.df
    (5.67, 3.9, 9.0)
    >>> round(r.plain.p_value, 5), round(r.corrected.p_value, 4)
    (0.00015, 0.0018)
    """
    metric, higher, names, level, alpha = _resolve(metric, higher_is_better, names, level, alpha)
    folds = _pair_folds(folds_a, folds_b, metric, names)
    d = np.array([f.delta for f in folds])
    j = d.size
    mean = float(d.mean())
    var = float(d.var(ddof=1))
    ratio = float(np.mean([f.n_test for f in folds]) / np.mean([f.n_train for f in folds]))
    plain = _t_test("paired t-test over folds", "t = mean(d) / sqrt(var(d) / J), J - 1 df (assumes independent folds)",
                    mean, math.sqrt(var / j), j - 1.0, higher, level)
    corrected = _t_test("corrected resampled t-test (Nadeau & Bengio 2003)",
                        "t = mean(d) / sqrt((1/J + n_test/n_train) var(d)), J - 1 df", mean,
                        math.sqrt((1.0 / j + ratio) * var), j - 1.0, higher, level)
    repeats, per = _design(folds)
    reason = _five_by_two_reason(repeats, per)
    fbt = _five_by_two(folds, higher, level) if reason is None else None
    pool = _pooled(pooled, metric, names)
    if pool is not None and names == ("A", "B") and pool["names"] is not None:
        names = (pool["names"]["a"], pool["names"]["b"])
    notes = [f"n_test/n_train = {ratio:.4g}: the mean test size over the mean training size of the {j} folds."]
    if not higher:
        notes.append(f"{catalog.label(metric)}: lower is better, so 'A better than B' means a negative difference.")
    verdict = _verdict({"corrected": corrected, "plain": plain, "five_by_two": fbt, "pooled": pool, "n": j},
                       catalog.label(metric), names, higher, alpha)
    sig = signature("cv_compare", {"metric": metric, "higher_is_better": higher, "alpha": alpha, "level": level,
                                   "test_train_ratio": "mean(n_test) / mean(n_train)"})
    return CVComparison(metric, higher, names, folds, repeats, per, ratio, mean, math.sqrt(var), plain, corrected,
                        fbt, reason, pool, alpha, level, verdict, notes, sig)
