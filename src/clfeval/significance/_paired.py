"""Is the difference real? Paired significance tests and bootstrap confidence intervals.

Two systems A and B are scored on the same n test items with a metric M; the effect size is
δ(x) = M(A, x) − M(B, x). The tests are one-sided, with H0: A is not better than B and H1: A is better (for a
lower-is-better metric such as the error rate, "better" means lower). Each is computed exactly as in the textbook:

* **paired bootstrap** (Efron & Tibshirani 1993; Berg-Kirkpatrick et al. 2012): b virtual test sets x^(i) of n items
  drawn with replacement (the same items for A and B); their δ's are centred on δ(x), not 0, so
  p = (1/b)·#{δ(x^(i)) ≥ 2·δ(x)};
* **approximate randomization** (Noreen 1989): on each item swap A's and B's outputs with probability ½;
  p = (1 + #{δ_perm ≥ δ(x)}) / (b + 1);
* **McNemar** (accuracy): the exact binomial test on the discordant items, p = P(X ≥ n_AB), X ~ Bin(n_AB + n_BA, ½),
  with the two-sided exact p and the chi-square statistic with continuity correction beside it.

Bootstrap percentile intervals (and BCa intervals, Efron & Tibshirani §14.3) are given for δ and for each system's
metric.

**The count-based fast path.** For a metric that is a function of a count table, drawing n items with replacement is
drawing the cell counts of the joint (gold, A, B) table from a multinomial over its non-empty cells, and a
randomization replicate swaps a Bin(count, ½) number of items in each cell where A and B disagree: a replicate costs
O(cells), independent of n. Metrics that depend only on the number of correct items (accuracy, error rate, micro
averages) collapse the joint table further to the four cells (A right?, B right?). Item-level metrics (scores, user
callables) use plain index resampling, in chunks of bounded memory.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import (
    JointTable,
    build_signature,
    catalog,
    check_beta,
    check_probability,
    check_rng,
    check_samples,
    check_zero_division,
    count_joint,
    count_pair,
    encode_labels,
    joint_table,
    label_str,
    replicate_histogram,
    resolve_requested,
    scalar_metric,
    sort_labels,
    stats_of,
    zero_division_name,
)
from clfeval.errors import DataError, UsageError
from clfeval.ops.compare import Compared, Distribution, ManyPart, McNemarCounts, PairPart, ResampledCounts
from clfeval.significance._bounds import test_bound
from clfeval.significance._classic import mcnemar
from clfeval.significance._comparable import SCORE_METRICS, TRACE_METRICS, check_metric, metric_label
from clfeval.significance._results import (
    P_DEFINITION,
    check_alternative,
    check_estimate,
    format_p,
    hypothesis,
    pair_intervals,
    systems_phi_delta,
    verdict,
    with_estimate,
)
from clfeval.stats import holm, resample as rs

__all__ = ["TESTS", "compare", "compare_many", "compare_counts",
           "bootstrap_distribution", "check_metric", "format_p", "holm", "mcnemar", "metric_label", "SCORE_METRICS",
           "Replicates", "bootstrap_replicates", "one_sided", "TRACE_METRICS"]

#: The tests :func:`compare` runs.
TESTS = ("bootstrap", "randomization", "mcnemar")

# Float rounding: replicate values within this (relative to max(1, |t|)) of a threshold t tie with it.
_TIE = 1e-12


# --- metric resolution ---------------------------------------------------------

@dataclass(frozen=True)
class _Metric:
    name: str
    description: str
    higher_is_better: bool
    table_fn: Callable[[np.ndarray], np.ndarray] | None = None  # (c, K, K) -> (c,)
    item_fn: Callable[[Any, Any], float] | None = None
    trace_only: bool = False
    stats_fn: Callable[[Any], np.ndarray] | None = None  # TableStats (c, K) -> (c,): sparse tables


def _score_inputs(name: str, gold: Any, scores: Sequence[Any], positive: Any,
                  names: Sequence[str]) -> tuple[_Metric, np.ndarray, list[np.ndarray]]:
    """A score metric as an item-level metric of (is-positive indicator, scores).

    Gold labels become a boolean "is positive" array once (``curves.binary_gold``: the positive class must occur)
    and scores are checked once (finite numbers); each replicate then ranks its items with
    ``curves.SortedRanking.from_indicator`` and reads the metric off its summary (the catalogue entry's ``compute``). A
    replicate without positives (or, for ROC-AUC, without negatives) has an undefined value (NaN)."""
    from clfeval.scores import (
        as_scores,
        curves,  # imported when a score metric is asked for
    )

    if positive is None:
        raise UsageError(f"metric {name!r} ranks the items for one class: give the positive class "
                         f"(positive=..., --positive on the command line).")
    entry = catalog.get(name)
    y, pos_label, _ = curves.binary_gold(gold, positive)
    xs = [as_scores(x, name=n, n=y.shape[0], order_only=True) for x, n in zip(scores, names, strict=True)]  # rankings

    def fn(yy: np.ndarray, s: np.ndarray) -> float:
        if not yy.any():
            return math.nan
        return float(entry.compute(curves.SortedRanking.from_indicator(yy, s, pos_label).summary))

    fn.__name__ = name
    return _Metric(name, f"{entry.title}: {entry.formula}; positive class {pos_label!r}", True, item_fn=fn), y, xs


def _resolve(metric: Any, labels: Sequence[Any] | None, zd: float, beta: float) -> _Metric:
    if callable(metric):
        name = getattr(metric, "__name__", type(metric).__name__)
        higher = bool(getattr(metric, "higher_is_better", True))
        return _Metric(name, f"user metric {name}(gold, pred)", higher, item_fn=metric)
    m = scalar_metric(metric, labels, beta=beta)
    trace = m.metric is not None and m.metric.trace_only
    return _Metric(m.name, m.description, m.higher_is_better, table_fn=lambda cm: m.fn(cm, zd), trace_only=trace,
                   stats_fn=lambda st: m.of_stats(st, zd))

# --- data → engine -------------------------------------------------------------

def _as_numpy(values: Any, name: str) -> np.ndarray:
    if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):
        try:
            return np.asarray(values.to_numpy(zero_copy_only=False))
        except TypeError:
            return np.asarray(values.to_numpy())
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise DataError(f"{name} must be one-dimensional (one value per item); got shape {arr.shape}.")
    return arr


@dataclass
class _Problem:
    metric: _Metric
    engine: rs.CountEngine | rs.IndexEngine
    n: int
    labels: tuple | None
    discordant: tuple[int, int] | None  # (n_AB, n_BA): A right & B wrong, A wrong & B right
    description: str
    joint: np.ndarray | None = None  # the joint (gold, A, B) counts of a count metric (figure data: φ–δ)


def _item_problem(m: _Metric, g: Any, xa: Any, xb: Any) -> _Problem:
    if not (len(g) == len(xa) == len(xb)):
        raise DataError(f"gold, pred_a and pred_b must have one entry per item; got {len(g)}, {len(xa)} and {len(xb)}.")
    if len(g) == 0:
        raise DataError("there are no items to compare.")
    eng = rs.IndexEngine(rs.CallableItems(g, xa, xb, m.item_fn))  # type: ignore[arg-type]  # an item metric: item_fn
    return _Problem(m, eng, len(g), None, None, "index resampling (the metric is called on each replicate)")


def _count_problem(m: _Metric, jt: Any, streamed: str = "") -> _Problem:
    """The count-based engine over the non-empty cells of a joint (gold, A, B) table (dense or sparse)."""
    eng = rs.CountEngine.of_table(jt, m.table_fn, m.stats_fn, trace_only=m.trace_only)  # type: ignore[arg-type]  # a count metric: table_fn
    what = ("the four cells (A right?, B right?) of the joint table" if m.trace_only
            else f"the {eng.groups} non-empty cells of the joint (gold, A, B) table")
    return _Problem(m, eng, jt.n, jt.labels, jt.discordant(),
                    f"counts: multinomial / binomial draws over {what}" + (f"; {streamed}" if streamed else ""),
                    jt.counts if isinstance(jt, JointTable) else None)


def _problem(gold: Any, pred_a: Any, pred_b: Any, metric: Any, *, labels: Sequence[Any] | None, zd: float,
             beta: float, positive: Any, engine: str) -> _Problem:
    if callable(metric):
        m = _resolve(metric, labels, zd, beta)
        return _item_problem(m, *(_as_numpy(v, n) for v, n in ((gold, "gold"), (pred_a, "pred_a"), (pred_b, "pred_b"))))
    if metric in SCORE_METRICS:
        m, g, (xa, xb) = _score_inputs(metric, gold, (pred_a, pred_b), positive, ("pred_a", "pred_b"))
        return _item_problem(m, g, xa, xb)
    streamed = getattr(gold, "describe", "") if pred_a is None else ""
    jt = next(iter(gold.pairs.values())) if streamed or (pred_a is None and hasattr(gold, "pairs")) else \
        gold if pred_a is None and hasattr(gold, "discordant") else joint_table(gold, pred_a, pred_b, labels=labels)
    if jt.n == 0:
        raise DataError("there are no items to compare.")
    m = _resolve(metric, jt.labels, zd, beta)
    if engine != "index":
        return _count_problem(m, jt, streamed)
    k = len(jt.labels)
    (g, a, b), _, raw = encode_labels([gold, pred_a, pred_b], ("gold", "pred_a", "pred_b"))
    pos = {label_str(x): i for i, x in enumerate(jt.labels)}
    lut = np.array([pos.get(label_str(x), -1) for x in raw], dtype=np.int64)
    g, a, b = lut[g], lut[a], lut[b]
    if m.trace_only:  # a catalogue metric of the counts: table_fn is set (_Metric holds either kind's function)
        items = rs.CodedItems((g == a).astype(np.int64), (g == b).astype(np.int64), 2, rs.trace_value(m.table_fn))  # type: ignore[arg-type]
    else:
        items = rs.CodedItems(g * k + a, g * k + b, k * k, lambda t: m.table_fn(t.reshape(t.shape[0], k, k)))  # type: ignore[misc]
    return _Problem(m, rs.IndexEngine(items), jt.n, jt.labels, jt.discordant(), "index resampling of the items")

# --- tests ---------------------------------------------------------------------

def _at_least(x: np.ndarray, t: float) -> int:
    """#{x ≥ t}, with values within float rounding of t counting as ties (≥)."""
    return int(np.count_nonzero(x >= t - _TIE * max(1.0, abs(t))))


# --- results -------------------------------------------------------------------

def _progress_counter(progress: Callable[[int, int], None] | None, total: int) -> Callable[[int], None] | None:
    if progress is None:
        return None
    done = [0]

    def tick(k: int) -> None:
        done[0] += k
        progress(done[0], total)

    return tick


def compare(gold: Any, pred_a: Any, pred_b: Any, *, metric: str | Callable[[Any, Any], float] = "accuracy",
            test: str = "bootstrap", samples: int = 10_000, seed: int | np.random.Generator = 0,
            alpha: float = 0.05, ci: float = 0.95, labels: Sequence[Any] | None = None, positive: Any = None,
            zero_division: Any = 0, beta: float = 1.0, names: Sequence[str] = ("A", "B"),
            progress: Callable[[int, int], None] | None = None, alternative: str = "greater",
            margin: float | None = None, ci_method: str | None = None) -> Compared:
    """Is A really better than B on this test set? A paired test, δ and confidence intervals.

    Parameters
    ----------
    gold : sequence, or a joint table
        Gold labels, one per item; or, with ``pred_a`` and ``pred_b`` None, the joint (gold, A, B) table counted
        elsewhere (a :class:`~clfeval.core._tables.JointTable` or its sparse form, or the one pair of a streamed
        :class:`~clfeval.core._counting.JointTables`) — a count metric then needs nothing more.
    pred_a, pred_b : sequence
        Predictions of A and of B on the same items in the same order (or, for ``roc_auc`` / ``average_precision`` / a
        callable, any per-item values such as scores).
    metric : str or callable
        A count-table metric — ``accuracy``, ``error_rate``, ``balanced_accuracy``, ``mcc``, ``kappa``, ``macro_f1``,
        ``macro_precision``, ``macro_recall``, ``macro_f1_of_means``, ``micro_*``, ``weighted_*``, ``f1:LABEL`` … (see
        :func:`clfeval.core._metrics.scalar_metric`) — a score metric (``roc_auc``, ``average_precision``; needs
        ``positive``), or a callable ``metric(gold, pred) -> float`` (higher is better unless it has an attribute
        ``higher_is_better = False``).
    test : {"bootstrap", "randomization", "mcnemar", "delong"}
        See the module docstring; ``mcnemar`` applies to accuracy (and the metrics equal to it: error rate, micro
        averages); ``delong`` to ``roc_auc`` of scores (:func:`clfeval.significance._delong.delong_compare` for one
        column per system with ``positive``, :func:`~clfeval.significance._delong.delong_ovr` for mappings label →
        column, one-vs-rest, Holm-adjusted: each its own function with one result type).
    samples : int
        b, the number of replicates (≥ 1).
    seed : int or numpy.random.Generator
        The same seed gives the same result.
    alpha : float
        Significance level of the verdict.
    ci : float
        Confidence level of the bootstrap intervals.
    labels : sequence, optional
        The label set (default: every label in gold, A or B; both systems are scored over the same labels).
    positive : label, optional
        The positive class of a score metric.
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios inside the metric (see :mod:`clfeval.core._metrics`).
    beta : float
        For the ``*_fbeta`` metrics.
    names : (str, str)
        How A and B are called in the verdict.
    progress : callable, optional
        ``progress(done, total)`` after each chunk of replicates.
    alternative : {"greater", "two-sided"}
        H1 "A better than B" (the default). ``two-sided`` (H1 "they differ") applies to ``delong``; the resampling tests
        are one-sided.
    ci_method : {"bca", "percentile"}, optional
        The two-sided interval of δ shown as the estimate (``ci["estimate"]``; both are computed): BCa by default, the
        better worst cell in ``bench/ci_coverage.py``.
    margin : float, optional
        Non-inferiority: H1 M(A) > M(B) − margin by the paired bootstrap
        (:func:`clfeval.significance._noninferiority.noninferiority`); refused with randomization and McNemar, whose
        null is "no difference".

    Returns
    -------
    Compared
        Of kind ``pair``; ``delong`` / ``delong_ovr`` for test ``delong``, ``noninferiority`` with ``margin``
        (:class:`clfeval.ops.compare.Compared`).

    Notes
    -----
    The bootstrap p is (1/b)·#{δ(x^(i)) ≥ 2δ(x)}: the bootstrap distribution
    is centred on δ(x), so shifting it to the null (centre 0) and asking how
    often it reaches δ(x) is the same as asking how often the unshifted one
    reaches 2δ(x). For a lower-is-better metric the comparisons are on −δ.
    A p of 0 means no replicate reached the threshold: p < 1/b.

    References
    ----------
    Efron & Tibshirani (1993), *An Introduction to the Bootstrap*;
    Berg-Kirkpatrick, Burkett & Klein (2012), "An empirical investigation of
    statistical significance in NLP"; Noreen (1989), *Computer-Intensive
    Methods for Testing Hypotheses*; McNemar (1947).

    Examples
    --------
    Worked example 11: ten documents, A right on 7, B on 5.

    >>> gold = ["pos"] * 10
    >>> a = ["pos"] * 7 + ["neg"] * 3
    >>> b = ["pos"] * 5 + ["neg"] * 5
    >>> r = compare(gold, a, b, samples=10_000, seed=0)
    >>> r.a, r.b, round(r.delta, 2)
    (0.7, 0.5, 0.2)
    >>> r.p_value < 0.2
    True
    >>> compare(gold, a, b, test="mcnemar").p_value  # P(X ≥ 2), X ~ Bin(2, 1/2)
    0.25
    """
    estimate = check_estimate(ci_method, test)
    if test == "delong":
        from clfeval.significance._delong import check_delong, delong_either

        check_delong(metric, margin)
        return delong_either(gold, pred_a, pred_b, positive=positive, labels=labels, level=ci, alpha=alpha,
                              names=names, alternative=alternative)
    if margin is not None:
        from clfeval.significance._noninferiority import noninferiority

        return noninferiority(gold, pred_a, pred_b, margin=margin, metric=metric, test=test, samples=samples,
                              seed=seed, alpha=alpha, labels=labels, positive=positive, zero_division=zero_division,
                              beta=beta, names=names)
    one_sided(test, alternative)
    return with_estimate(_compare(gold, pred_a, pred_b, metric=metric, test=test, samples=samples, seed=seed,
                                  alpha=alpha, ci=ci, labels=labels, positive=positive, zero_division=zero_division,
                                  beta=beta, names=names, progress=progress, engine="auto"), estimate)


def one_sided(test: Any, alternative: Any) -> None:
    """Refuse ``two-sided`` for the resampling tests, which test "A better than B" only."""
    if check_alternative(alternative) != "greater":
        raise UsageError(lambda name: f"option {name} two-sided applies to test delong; the {test} test here is "
                         f"one-sided (H1: A better than B; McNemar shows the two-sided exact p beside it).",
                         params=["alternative"])


@dataclass(frozen=True)
class Replicates:
    """Paired bootstrap replicates of both systems' metric beside the observed values (:func:`bootstrap_replicates`)."""

    metric: str
    description: str
    higher_is_better: bool
    n: int
    observed: tuple[float, float]
    a: np.ndarray
    b: np.ndarray
    engine: str


def bootstrap_replicates(gold: Any, pred_a: Any, pred_b: Any, *, metric: str | Callable[[Any, Any], float] = "accuracy",
                         samples: int = 10_000, seed: int | np.random.Generator = 0,
                         labels: Sequence[Any] | None = None, positive: Any = None, zero_division: Any = 0,
                         beta: float = 1.0) -> Replicates:
    """M(A, x^(i)) and M(B, x^(i)) for b paired bootstrap test sets (the replicates of :func:`compare`'s
    bootstrap with the same seed), with M(A, x) and M(B, x)."""
    samples = check_samples(samples)
    zd = check_zero_division(zero_division)
    check_metric(metric)
    prob = _problem(gold, pred_a, pred_b, metric, labels=labels, zd=zd, beta=check_beta(beta), positive=positive,
                    engine="auto")
    a, b = prob.engine.observed()
    va, vb = rs.draw(prob.engine, "bootstrap", samples, check_rng(seed))
    m = prob.metric
    return Replicates(m.name, m.description, m.higher_is_better, prob.n, (float(a), float(b)), va, vb,
                      prob.description)


def bootstrap_distribution(gold: Any, pred_a: Any, pred_b: Any, *,
                           metric: str | Callable[[Any, Any], float] = "accuracy", samples: int = 10_000,
                           seed: int | np.random.Generator = 0, labels: Sequence[Any] | None = None,
                           positive: Any = None, zero_division: Any = 0, beta: float = 1.0) -> np.ndarray:
    """The paired bootstrap distribution of δ: δ(x^(i)) = M(A, x^(i)) − M(B, x^(i)) for i = 1..b.

    The same replicates as :func:`compare` with ``test="bootstrap"`` and the
    same seed, so ``(deltas >= 2·δ(x)).mean()`` is its p-value (for a
    higher-is-better metric). The distribution is centred on δ(x), not on 0.

    >>> d = bootstrap_distribution(["y"] * 10, ["y"] * 7 + ["n"] * 3, ["y"] * 5 + ["n"] * 5, samples=4000)
    >>> d.shape, round(float(d.mean()), 1)
    ((4000,), 0.2)
    """
    r = bootstrap_replicates(gold, pred_a, pred_b, metric=metric, samples=samples, seed=seed, labels=labels,
                             positive=positive, zero_division=zero_division, beta=beta)
    return r.a - r.b


def _check_test(test: Any) -> str:
    if test not in TESTS:
        raise UsageError(f"unknown test {test!r}; valid tests are: {', '.join(TESTS)}.")
    return test


def _check_names(names: Sequence[str]) -> tuple[str, str]:
    names = tuple(str(x) for x in names)
    if len(names) != 2:
        raise UsageError(f"names must give two display names (A, B); got {names!r}.")
    return names


def _compare(gold: Any, pred_a: Any, pred_b: Any, *, metric: Any, test: str, samples: int, seed: Any, alpha: float,
             ci: float, labels: Sequence[Any] | None, positive: Any, zero_division: Any, beta: float,
             names: Sequence[str], progress: Callable[[int, int], None] | None, engine: str) -> Compared:
    test, samples, alpha, level, zd, beta = _check_settings(test, samples, alpha, ci, zero_division, beta, metric)
    names = _check_names(names)
    rng = check_rng(seed)
    prob = _problem(gold, pred_a, pred_b, metric, labels=labels, zd=zd, beta=beta, positive=positive, engine=engine)
    return _run(prob, test=test, samples=samples, rng=rng, seed=seed, alpha=alpha, level=level, zd=zd, names=names,
                progress=progress)


def compare_counts(table: Any, *, metric: str = "accuracy", test: str = "bootstrap", samples: int = 10_000,
                   seed: Any = None, alpha: float = 0.05, ci: float = 0.95, zero_division: Any = 0, beta: float = 1.0,
                   names: Sequence[str] = ("a", "b"), progress: Callable[[int, int], None] | None = None,
                   description: str = "counts") -> Compared:
    """:func:`compare` from counts: a joint (gold, A, B) table added up over batches, files or partitions
    (``JointTable``: the same replicates as :func:`compare` of the items), or a count engine of a metric
    (``CountEngine``: binned ROC-AUC, :mod:`clfeval.significance._binnedcompare`)."""
    test, samples, alpha, level, zd, beta = _check_settings(test, samples, alpha, ci, zero_division, beta, metric)
    rng = check_rng(seed)
    if isinstance(table, rs.CountEngine):
        entry = catalog.get(metric)
        prob = _Problem(_Metric(metric, entry.title, entry.direction != "lower", table_fn=table.value), table,
                        table.n, None, None, description)
    elif table.n == 0:
        raise DataError("there are no items to compare.")
    else:
        prob = _count_problem(_resolve(metric, table.labels, zd, beta), table,
                              description if description != "counts" else "")
    return _run(prob, test=test, samples=samples, rng=rng, seed=seed, alpha=alpha, level=level, zd=zd,
                names=_check_names(names), progress=progress)


def _check_settings(test: Any, samples: Any, alpha: Any, ci: Any, zero_division: Any, beta: Any,
                    metric: Any) -> tuple[str, int, float, float, float, float]:
    """Every option of a comparison checked before any data is read: test, samples, α, CI level, 0/0, β, metric."""
    test = _check_test(test)
    out = (test, check_samples(samples), check_probability(alpha, option="alpha"),
           check_probability(ci, option="ci"), check_zero_division(zero_division), check_beta(beta))
    _check_mcnemar(test, metric)
    return out


def _check_mcnemar(test: str, metric: Any) -> None:
    check_metric(metric)
    if test == "mcnemar" and (callable(metric) or metric not in TRACE_METRICS):
        shown = metric if isinstance(metric, str) else getattr(metric, "__name__", "a callable")
        raise UsageError(f"McNemar's test compares accuracies (items right or wrong); it does not apply to metric "
                         f"{shown!r}. Use it with {', '.join(sorted(TRACE_METRICS))}, or use test bootstrap or "
                         "randomization.")


def _run(prob: _Problem, *, test: str, samples: int, rng: np.random.Generator, seed: Any, alpha: float, level: float,
         zd: float, names: tuple[str, str], progress: Callable[[int, int], None] | None,
         observed: tuple[float, float] | None = None) -> Compared:
    """The test itself on a prepared problem (``observed``: the two scores when the caller has them already)."""
    m = prob.metric
    a, b = observed if observed is not None else prob.engine.observed()
    delta = a - b
    sign = 1.0 if m.higher_is_better else -1.0
    gain = sign * delta
    tick = _progress_counter(progress, samples * (2 if test == "randomization" else 1))
    notes: list[str] = []
    details: dict[str, Any]
    if test == "randomization":
        pa, pb = rs.draw(prob.engine, "permute", samples, rng, tick)
        count = _at_least(sign * (pa - pb), gain)
        p = (1 + count) / (samples + 1) if math.isfinite(gain) else math.nan
        details = {"count": count, "threshold": delta}
    elif test == "mcnemar":
        if prob.discordant is None:  # a callable or score metric: refused by _check_mcnemar before any data
            raise UsageError(f"McNemar's test needs items right or wrong; metric {m.name!r} has none.")
        details = mcnemar(*prob.discordant)
        p = details.pop("p_value")
    va, vb = rs.draw(prob.engine, "bootstrap", samples, rng, tick)
    if test == "bootstrap":
        count = _at_least(sign * (va - vb), 2 * gain)
        p = count / samples if math.isfinite(gain) else math.nan
        details = {"count": count, "threshold": 2 * delta}
    if test == "randomization":
        hist = replicate_histogram(pa - pb, delta=delta, threshold=delta, count_beyond=details["count"],
                                   kind="randomization")
    else:
        beyond = details["count"] if test == "bootstrap" else _at_least(sign * (va - vb), 2 * gain)
        hist = replicate_histogram(va - vb, delta=delta, threshold=2 * delta, count_beyond=beyond, kind="bootstrap")
    hist["tail"] = "above" if m.higher_is_better else "below"
    undefined = int(np.count_nonzero(~np.isfinite(va - vb)))
    if undefined:
        notes.append(f"{undefined:,} of {samples:,} bootstrap replicates had an undefined {metric_label(m.name)}; "
                     f"they never count as reaching the threshold and are left out of the intervals.")
    if not m.higher_is_better:
        notes.append(f"{metric_label(m.name)}: lower is better, so 'A better than B' means δ < 0.")
    bound = test_bound(test, sign * (va - vb), gain, alpha=alpha, tol=_TIE, higher=m.higher_is_better,
                       discordant=prob.discordant, n=prob.n, p_value=float(p))
    signature = build_signature({
        "test": test, "metric": m.name, "metric_definition": m.description, "higher_is_better": m.higher_is_better,
        "alpha": alpha, "ci_level": level, "ci_method": "bootstrap percentile (BCa beside it)",
        "p_value_definition": P_DEFINITION[test], "engine": prob.description, "zero_division": zero_division_name(zd),
        "labels": [label_str(x) for x in prob.labels] if prob.labels is not None else None},
        seed=seed, samples=samples, random=True)
    counts = McNemarCounts(**details) if test == "mcnemar" else ResampledCounts(**details)
    part = PairPart(n=prob.n, a=a, b=b, delta=delta, p_value=float(p), hypothesis=hypothesis(m.higher_is_better),
                    ci=pair_intervals(va, vb, (a, b), level, rs.jackknife_values(prob.engine), bound), details=counts,
                    verdict=verdict(metric_label(m.name), names, a, b, delta, float(p), alpha, m.higher_is_better,
                                    samples if test == "bootstrap" else None),
                    distribution=Distribution.of(hist),
                    phi_delta=systems_phi_delta(prob.joint, signature.get("labels"), names))
    return Compared(names=names, metric=m.name, test=test, alpha=alpha, signature=signature, notes=notes,
                    higher_is_better=m.higher_is_better, metric_description=m.description, samples=samples,
                    seed=signature["seed"], pair=part)


# --- several systems -------------------------------------------------------------

def compare_many(gold: Any, systems: Mapping[str, Any] | Sequence[Any], *, baseline: str | None = None,
                 metric: str | Callable[[Any, Any], float] = "accuracy", test: str = "bootstrap",
                 samples: int = 10_000, seed: int = 0, alpha: float = 0.05, ci: float = 0.95,
                 labels: Sequence[Any] | None = None, positive: Any = None, zero_division: Any = 0,
                 beta: float = 1.0, progress: Callable[[int, int], None] | None = None,
                 ci_method: str | None = None) -> Compared:
    """Compare several systems on the same items: every pair, or each against ``baseline``.

    Each pair is a :func:`compare` with the same ``seed``; the family of p-values
    is adjusted with :func:`holm`, and a comparison is significant when its
    adjusted p < α. Count metrics score every system over one label set (every
    label in gold or in any system). The gold labels are encoded once and each
    system is scored once; every pair's joint table is counted from those codes.

    Parameters
    ----------
    gold : sequence, or JointTables
        Gold labels; or every pair's joint table counted elsewhere (:class:`clfeval.core._counting.JointTables`,
        streamed), ``systems`` then naming the systems only (a count metric).
    systems : mapping, or sequence
        Name → predictions (or scores, for a score metric) of each system; a sequence names them A, B, C, ….
    baseline : str, optional
        Compare each other system (as A) with this one (as B). Without it every
        pair is compared, A being the one with the better observed score.
    metric : str or callable
        The metric of every system and pair, as in :func:`compare`; default ``accuracy``.
    test : {"bootstrap", "randomization", "mcnemar"}
        The paired test of each pair, as in :func:`compare` (``mcnemar``: accuracy and the metrics equal to it).
    samples : int
        b, the replicates of each pair's test (≥ 1); default 10,000.
    seed : int
        The seed of each pair's test (every pair starts from it); default 0.
    alpha : float
        Significance level of the verdicts, against the Holm-adjusted p; default 0.05.
    ci : float
        Confidence level of the bootstrap intervals; default 0.95.
    labels : sequence, optional
        The label set of count metrics; default every label in gold or in any system (an occurring one must be listed).
    positive : label, optional
        The positive class of a score metric.
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios inside the metric; default 0.
    beta : float
        For the ``*_fbeta`` metrics; default 1.0.
    progress : callable, optional
        ``progress(done, total)`` over the replicates of every pair together.
    ci_method : str, optional
        The two-sided interval of each δ shown as the estimate, ``"bca"`` (the default) or ``"percentile"``.

    Examples
    --------
    >>> gold = [0] * 20
    >>> r = compare_many(gold, {"x": [0] * 18 + [1] * 2, "y": [0] * 10 + [1] * 10, "z": [1] * 20},
    ...                  baseline="z", samples=2000)
    >>> [(c.names, round(c.delta, 2)) for c in r.comparisons]
    [(('x', 'z'), 0.9), (('y', 'z'), 0.5)]
    >>> r.significant
    [True, True]
    >>> type(r).__name__, r.kind
    ('Compared', 'many')
    """
    if isinstance(systems, Mapping):
        named = [(str(k), v) for k, v in systems.items()]
    else:
        named = [(chr(ord("A") + i) if i < 26 else f"S{i + 1}", v) for i, v in enumerate(systems)]
    if len(named) < 2:
        raise UsageError(f"comparing needs at least two systems; got {len(named)}.")
    names = [n for n, _ in named]
    if len(set(names)) != len(names):
        raise UsageError(f"system names must be distinct; got {names}.")
    if baseline is not None and str(baseline) not in names:
        raise UsageError(f"the baseline {baseline!r} is not one of the systems: {', '.join(names)}.")
    test, samples, alpha, level, zd, beta = _check_settings(test, samples, alpha, ci, zero_division, beta, metric)
    estimate = check_estimate(ci_method, test)
    shared = _Systems(gold, dict(named), metric, labels, zd, beta, positive)
    scores = shared.scores
    higher = shared.metric.higher_is_better
    if baseline is not None:
        pairs = [(n, str(baseline)) for n in names if n != str(baseline)]
    else:
        rank = sorted(range(len(names)), key=lambda i: (-scores[names[i]] if higher else scores[names[i]], i))
        pairs = [(names[rank[i]], names[rank[j]]) for i in range(len(rank)) for j in range(i + 1, len(rank))]
    per_pair = samples * (2 if test == "randomization" else 1)
    total = per_pair * len(pairs)
    results = []
    for i, (x, y) in enumerate(pairs):
        def sub(k: int, _t: int, _base: int = i * per_pair) -> None:
            if progress is not None:
                progress(_base + k, total)
        results.append(_run(shared.problem(x, y), test=test, samples=samples, rng=check_rng(seed), seed=seed,
                            alpha=alpha, level=level, zd=zd, names=(x, y), progress=sub,
                            observed=(scores[x], scores[y])))
    adj = holm([c.p_value for c in results])
    notes = ["p-values are adjusted for the number of comparisons with Holm–Bonferroni (family-wise error ≤ α)."]
    if baseline is None:
        notes.append("Each pair is oriented so that A is the system with the better observed score; "
                     "the one-sided test asks whether that lead is real.")
    first = results[0]
    resampled = samples / len(pairs) if test == "bootstrap" else None  # a p of 0 is < 1/b; adjusted, < m/b
    verdicts = [verdict(metric_label(c.metric), (c.names[0], c.names[1]), c.a, c.b, c.delta, float(q), c.alpha,
                        c.higher_is_better, resampled, p_name="Holm-adjusted p")
                for c, q in zip(results, adj, strict=True)]
    settings = {k: v for k, v in first.signature.items() if k not in ("version", "seed", "samples", "versions")}
    signature = build_signature({**settings, "adjustment": "holm", "pairs": len(pairs), "baseline": baseline},
                                seed=seed, samples=samples, random=True)
    part = ManyPart(baseline=None if baseline is None else str(baseline), scores=scores, comparisons=results,
                    p_adjusted=[float(x) for x in adj], significant=[bool(x < first.alpha) for x in adj],
                    verdicts=verdicts)
    return with_estimate(Compared(names=tuple(names), metric=first.metric, test=test, alpha=first.alpha,
                                  signature=signature, notes=notes, higher_is_better=first.higher_is_better,
                                  metric_description=first.metric_description, samples=samples, seed=first.seed,
                                  many=part), estimate)


class _Systems:
    """What every pair of :func:`compare_many` shares, computed once: the gold labels encoded (or checked)
    once, each system's predictions (or scores) once, and each system's observed score."""

    def __init__(self, gold: Any, preds: dict[str, Any], metric: Any, labels: Sequence[Any] | None, zd: float,
                 beta: float, positive: Any) -> None:
        self.scores: dict[str, float] = {}
        self.tables = gold if hasattr(gold, "pairs") else None  # counted elsewhere (streamed): core.counting
        if self.tables is not None:
            self.labels, self.codes = self.tables.labels, dict[str, np.ndarray]()
            self.metric = _resolve(metric, self.labels, zd, beta)
            for n in self.tables.names:
                t = self.tables.table(n)
                self.scores[n] = float(self.metric.stats_fn(stats_of(t)))  # type: ignore[misc]
            return
        if callable(metric) or metric in SCORE_METRICS:
            if callable(metric):
                self.metric = _resolve(metric, labels, zd, beta)
                self.gold = _as_numpy(gold, "gold")
                self.items = {n: _as_numpy(p, n) for n, p in preds.items()}
            else:
                self.metric, self.gold, xs = _score_inputs(metric, gold, list(preds.values()), positive, list(preds))
                self.items = dict(zip(preds, xs, strict=True))
            for n, x in self.items.items():
                if len(x) != len(self.gold):
                    raise DataError(f"gold and system {n!r} must have one entry per item; got {len(self.gold)} "
                                    f"and {len(x)}.")
                self.scores[n] = float(self.metric.item_fn(self.gold, x))  # type: ignore[misc]
            self.codes = None  # type: ignore[assignment]  # item metrics hold no codes (no room for a declaration)
            return
        columns = [gold] + list(preds.values())
        codes, r, raw = encode_labels(columns, ["gold"] + [f"system {n!r}" for n in preds])
        present = np.zeros(r, dtype=bool)
        for c in codes:
            if c.size:
                present |= np.bincount(c, minlength=r) > 0
        if labels is None:
            out = sort_labels([raw[j] for j in np.flatnonzero(present)])
            where = {x: j for j, x in enumerate(raw)}
            self.labels, index = tuple(out), np.array([where[x] for x in out], dtype=np.intp)
        else:
            self.labels, index = resolve_requested(list(labels), raw, present)
        if codes[0].size == 0:
            raise DataError("there are no items to compare.")
        lookup = np.full(r + 1, -1, dtype=np.int64)
        lookup[index] = np.arange(len(self.labels))
        self.codes = {n: lookup[c] for n, c in zip(["\0gold"] + list(preds), codes, strict=True)}
        self.metric = _resolve(metric, self.labels, zd, beta)
        g = self.codes["\0gold"]
        for n in preds:
            self.scores[n] = float(self.metric.stats_fn(stats_of(count_pair(g, self.codes[n], self.labels))))  # type: ignore[misc]

    def problem(self, x: str, y: str) -> _Problem:
        if self.tables is not None:
            return _count_problem(self.metric, self.tables.pair(x, y), self.tables.describe)
        if self.codes is None:
            return _item_problem(self.metric, self.gold, self.items[x], self.items[y])
        return _count_problem(self.metric, count_joint(self.codes["\0gold"], self.codes[x], self.codes[y], self.labels))
