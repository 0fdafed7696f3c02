"""Paired significance tests: definitions against naive references, the count-based fast path
against plain index resampling, McNemar against SciPy, BCa against SciPy, Holm by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score

import clfeval
from clfeval.core._scoring import scalar_metric
from clfeval.core._tables import confusion_table
from clfeval.errors import DataError, UsageError
from clfeval.significance._paired import _compare, compare, compare_many, holm, mcnemar
from clfeval.stats import _resample as rs
from tests._helpers import mc


def make_case(seed: int, n: int, k: int, acc_a: float, acc_b: float):
    """Gold labels and two systems; an error is a uniformly chosen wrong class."""
    rng = np.random.default_rng(seed)
    g = rng.integers(0, k, n)
    a = np.where(rng.random(n) < acc_a, g, (g + rng.integers(1, k, n)) % k)
    b = np.where(rng.random(n) < acc_b, g, (g + rng.integers(1, k, n)) % k)
    return g, a, b


BINARY = make_case(1, 100, 2, 0.80, 0.72)
MULTI = make_case(2, 120, 4, 0.70, 0.62)
MULTI3 = make_case(3, 150, 3, 0.75, 0.70)
SPARSE = make_case(4, 200, 12, 0.80, 0.70)  # few of the 12³ joint cells occupied: the sparse (gather) path


def run(gold, a, b, *, engine="auto", **kw):
    args = dict(metric="accuracy", test="bootstrap", samples=10_000, seed=0, alpha=0.05, ci=0.95, labels=None,
                positive=None, zero_division=0, beta=1.0, names=("A", "B"), progress=None)
    args.update(kw)
    return _compare(gold, a, b, engine=engine, **args)


# --- naive references: the definitions, item by item, with scikit-learn's metrics --------

def hand_macro_f1(labels):
    """Mean over labels of 2TP / (2TP + FP + FN), 0 when a label has no TP, FP or FN."""
    k = len(labels)

    def fn(g, p):
        tp = np.bincount(g[g == p], minlength=k)
        fp = np.bincount(p, minlength=k) - tp
        fn_ = np.bincount(g, minlength=k) - tp
        den = 2 * tp + fp + fn_
        return float(np.mean(np.where(den > 0, 2 * tp / np.maximum(den, 1), 0.0)))

    return fn


def hand_accuracy(g, p):
    return float(np.mean(g == p))


def sk_metric(name, labels):
    return hand_accuracy if name == "accuracy" else hand_macro_f1(labels)


def naive_bootstrap_p(gold, a, b, fn, samples, seed):
    rng = np.random.default_rng(seed)
    n = len(gold)
    d = fn(gold, a) - fn(gold, b)
    count = 0
    for _ in range(samples):
        idx = rng.integers(0, n, n)
        di = fn(gold[idx], a[idx]) - fn(gold[idx], b[idx])
        count += di >= 2 * d - 1e-12
    return count / samples


def naive_randomization_p(gold, a, b, fn, samples, seed):
    rng = np.random.default_rng(seed)
    n = len(gold)
    d = fn(gold, a) - fn(gold, b)
    count = 0
    for _ in range(samples):
        swap = rng.random(n) < 0.5
        a2 = np.where(swap, b, a)
        b2 = np.where(swap, a, b)
        count += fn(gold, a2) - fn(gold, b2) >= d - 1e-12
    return (1 + count) / (samples + 1)


def within_mc(p1, b1, p2, b2, z=4.5):
    p = (p1 * b1 + p2 * b2) / (b1 + b2)
    se = math.sqrt(max(p * (1 - p), 1e-4) * (1 / b1 + 1 / b2))
    return abs(p1 - p2) <= z * se


@pytest.mark.parametrize("case", [BINARY, MULTI], ids=["binary", "multiclass"])
@pytest.mark.parametrize("metric", ["accuracy", "macro_f1"])
@pytest.mark.parametrize("test", ["bootstrap", "randomization"])
def test_p_value_matches_naive_reference(case, metric, test):
    gold, a, b = case
    labels = sorted(set(gold) | set(a) | set(b))
    fn = sk_metric(metric, labels)
    for x in (a, b):  # the hand-written metrics are scikit-learn's
        assert hand_macro_f1(labels)(gold, x) == pytest.approx(f1_score(gold, x, average="macro"))
        assert hand_accuracy(gold, x) == pytest.approx(accuracy_score(gold, x))
    naive = naive_bootstrap_p if test == "bootstrap" else naive_randomization_p
    b_naive = 2000
    p_ref = naive(gold, a, b, fn, b_naive, seed=123)
    r = compare(gold, a, b, metric=metric, test=test, samples=40_000, seed=7)
    assert r.a == pytest.approx(fn(gold, a), abs=1e-12)
    assert r.b == pytest.approx(fn(gold, b), abs=1e-12)
    assert 0.01 < r.p_value < 0.5  # an informative case, not a p pinned at 0 or 1
    assert within_mc(r.p_value, 40_000, p_ref, b_naive), (r.p_value, p_ref)


# --- the fast path and plain index resampling draw the same distribution ------------------

@pytest.mark.parametrize("case", [BINARY, MULTI, MULTI3, SPARSE], ids=["binary", "multiclass", "three", "sparse"])
@pytest.mark.parametrize("metric", ["accuracy", "macro_f1", "mcc"])
@pytest.mark.parametrize("test", ["bootstrap", "randomization"])
def test_fast_path_and_index_resampling_agree_on_fixed_cases(case, metric, test):
    gold, a, b = case
    fast = run(gold, a, b, metric=metric, test=test, samples=20_000, seed=1)
    index = run(gold, a, b, metric=metric, test=test, samples=20_000, seed=2, engine="index")
    assert fast.a == index.a and fast.b == index.b
    assert within_mc(fast.p_value, 20_000, index.p_value, 20_000), (fast.p_value, index.p_value)
    for key in ("delta", "a", "b"):  # issue 39: each end within the stated Monte-Carlo tolerance of the other's
        lo, hi = getattr(index.ci, key)
        tol = mc.end_tolerance(lo, hi, 0.95, 20_000, grid=1 / len(gold))
        assert getattr(fast.ci, key) == pytest.approx([lo, hi], abs=tol), key


@pytest.mark.parametrize("metric", ["accuracy", "macro_f1"])
@pytest.mark.parametrize("test", ["bootstrap", "randomization"])
def test_p_value_distribution_over_seeds_kolmogorov_smirnov(metric, test):
    gold, a, b = MULTI
    fast = [run(gold, a, b, metric=metric, test=test, samples=200, seed=s).p_value for s in range(300)]
    index = [run(gold, a, b, metric=metric, test=test, samples=200, seed=1000 + s, engine="index").p_value
             for s in range(300)]
    assert stats.ks_2samp(fast, index).pvalue > 1e-3


@pytest.mark.parametrize("kind", ["bootstrap", "permute"])
@pytest.mark.parametrize("metric", ["accuracy", "macro_f1"])
def test_replicate_distribution_kolmogorov_smirnov(kind, metric):
    """The δ replicates themselves (not only p) follow one distribution on both paths."""
    gold, a, b = MULTI3
    fn = scalar_metric(metric, [0, 1, 2]).fn
    jt = clfeval.joint_table(gold, a, b)
    fast = rs.CountEngine.from_joint(jt.counts, lambda cm: fn(cm, 0.0), trace_only=False)
    k = 3
    index = rs.IndexEngine(rs.CodedItems(gold * k + a, gold * k + b, k * k,
                                         lambda t: fn(t.reshape(t.shape[0], k, k), 0.0)))
    fa, fb = rs.draw(fast, kind, 4000, np.random.default_rng(0))
    ia, ib = rs.draw(index, kind, 4000, np.random.default_rng(1))
    assert stats.ks_2samp(fa - fb, ia - ib).pvalue > 1e-3
    assert stats.ks_2samp(fa, ia).pvalue > 1e-3


def test_sparse_case_uses_the_gather_path():
    gold, a, b = SPARSE
    jt = clfeval.joint_table(gold, a, b)
    eng = rs.CountEngine.from_joint(jt.counts, lambda cm: scalar_metric("macro_f1").fn(cm, 0.0))
    assert eng.grid is None and eng.groups < 12 ** 3 / 4
    dense = rs.CountEngine.from_joint(clfeval.joint_table(*MULTI).counts,
                                      lambda cm: scalar_metric("macro_f1").fn(cm, 0.0))
    assert dense.grid is not None


def test_trace_collapse_equals_full_table():
    gold, a, b = MULTI
    jt = clfeval.joint_table(gold, a, b)
    for name in ("accuracy", "error_rate", "micro_f1", "micro_precision", "micro_recall"):
        fn = scalar_metric(name).fn
        full = rs.CountEngine.from_joint(jt.counts, lambda cm, fn=fn: fn(cm, 0.0))
        four = rs.CountEngine.from_joint(jt.counts, lambda cm, fn=fn: fn(cm, 0.0), trace_only=True)
        assert four.groups <= 4
        assert four.observed() == pytest.approx(full.observed(), abs=1e-15)
        # the same count tables drawn both ways give the same values: check via the 2×2 tables
        fa, fb = rs.draw(four, "bootstrap", 500, np.random.default_rng(3))
        assert np.all((fa >= 0) & (fa <= 1))


# --- McNemar --------------------------------------------------------------------------

@pytest.mark.parametrize("case", [BINARY, MULTI, make_case(9, 40, 3, 0.6, 0.55)])
def test_mcnemar_equals_scipy_binomtest_exactly(case):
    gold, a, b = case
    n_ab = int(np.sum((a == gold) & (b != gold)))
    n_ba = int(np.sum((a != gold) & (b == gold)))
    r = compare(gold, a, b, test="mcnemar", samples=200)
    assert r.p_value == stats.binomtest(n_ab, n_ab + n_ba, 0.5, alternative="greater").pvalue
    assert r.details.p_value_two_sided == stats.binomtest(n_ab, n_ab + n_ba, 0.5).pvalue
    assert (r.details.n_ab, r.details.n_ba) == (n_ab, n_ba)
    chi2 = max(0, abs(n_ab - n_ba) - 1) ** 2 / (n_ab + n_ba)
    assert r.details.chi2 == pytest.approx(chi2)
    assert r.details.chi2_p_value == pytest.approx(stats.chi2.sf(chi2, 1))


def test_mcnemar_by_hand_and_edge_cases():
    r = mcnemar(9, 2)
    # P(X >= 9), X ~ Bin(11, 1/2) = (C(11,9) + C(11,10) + C(11,11)) / 2^11 = 67/2048
    assert r["p_value"] == pytest.approx(67 / 2048, rel=1e-12)
    assert r["chi2"] == pytest.approx(36 / 11)
    none = mcnemar(0, 0)
    assert none["p_value"] == 1.0 and math.isnan(none["chi2"])
    # lower-is-better error rate: the same test on the same discordant items
    gold, a, b = MULTI
    assert compare(gold, a, b, metric="error_rate", test="mcnemar").p_value == compare(gold, a, b,
                                                                                       test="mcnemar").p_value


def test_mcnemar_refuses_non_accuracy_metrics():
    gold, a, b = BINARY
    with pytest.raises(UsageError, match="McNemar"):
        compare(gold, a, b, metric="macro_f1", test="mcnemar")


# --- worked example 11 and the 2δ rule ----------------------------------------------------

def test_worked_example_11_numbers():
    gold = np.array(["yes"] * 10)
    a = np.array(["yes"] * 7 + ["no"] * 3)
    b = np.array(["yes"] * 5 + ["no"] * 5)
    r = compare(gold, a, b, samples=10_000, seed=0)
    assert (r.a, r.b) == (0.7, 0.5)
    assert r.delta == pytest.approx(0.2)
    assert r.details.threshold == pytest.approx(0.4)
    assert r.p_value == r.details.count / 10_000
    # A and B differ on items 5 and 6 only (A right, B wrong): δ(x^(i)) = (# of those drawn) / 10;
    # δ ≥ 0.4 ⇔ at least 4 of the 10 draws hit those 2 items: P = P(Bin(10, 0.2) ≥ 4).
    exact = stats.binom.sf(3, 10, 0.2)
    assert abs(r.p_value - exact) < 4.5 * math.sqrt(exact * (1 - exact) / 10_000)


def test_lower_is_better_metric_mirrors_accuracy():
    gold, a, b = MULTI
    for test in ("bootstrap", "randomization"):
        acc = compare(gold, a, b, metric="accuracy", test=test, samples=5000, seed=4)
        err = compare(gold, a, b, metric="error_rate", test=test, samples=5000, seed=4)
        assert err.delta == pytest.approx(-acc.delta)
        assert err.p_value == acc.p_value
        assert not err.higher_is_better
        assert "lower" in err.verdict and "lower is better" in " ".join(err.notes)


def test_a_worse_than_b_gives_large_p_and_says_so():
    gold, a, b = MULTI
    r = compare(gold, b, a, metric="macro_f1", samples=2000)
    assert r.delta < 0 and r.p_value > 0.5
    assert "no evidence" in r.verdict


def test_verdict_sentence_shape():
    gold, a, b = make_case(11, 2000, 3, 0.80, 0.74)
    r = compare(gold, a, b, metric="macro_f1", samples=2000)
    assert r.verdict.startswith("A's macro-F1 is ")
    assert "higher than B's; p" in r.verdict and r.verdict.endswith("unlikely to be luck on this test set.")


# --- determinism, chunking, bounded memory ------------------------------------------------

def test_same_seed_same_output_different_seed_different_replicates(monkeypatch):
    gold, a, b = MULTI
    one = compare(gold, a, b, metric="macro_f1", samples=3000, seed=5).to_dict()
    two = compare(gold, a, b, metric="macro_f1", samples=3000, seed=5).to_dict()
    other = compare(gold, a, b, metric="macro_f1", samples=3000, seed=6).to_dict()
    assert one == two
    assert one["ci"] != other["ci"] or one["p_value"] != other["p_value"]
    jt = clfeval.joint_table(gold, a, b)
    eng = rs.CountEngine.from_joint(jt.counts, lambda cm: scalar_metric("macro_f1").fn(cm, 0.0))
    x = rs.draw(eng, "bootstrap", 100, np.random.default_rng(5))[0]
    y = rs.draw(eng, "bootstrap", 100, np.random.default_rng(6))[0]
    assert not np.array_equal(x, y)


@pytest.mark.parametrize("test", ["bootstrap", "randomization"])
@pytest.mark.parametrize("engine", ["auto", "index"])
def test_chunk_size_does_not_change_the_numbers(monkeypatch, test, engine):
    gold, a, b = MULTI
    whole = run(gold, a, b, metric="macro_f1", test=test, samples=1000, engine=engine).to_dict()
    monkeypatch.setattr(rs, "BUDGET", 1500)  # a few replicates per chunk
    chunked = run(gold, a, b, metric="macro_f1", test=test, samples=1000, engine=engine).to_dict()
    assert whole == chunked


def test_progress_reports_every_replicate():
    gold, a, b = BINARY
    seen = []
    compare(gold, a, b, test="randomization", samples=300, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (600, 600)
    assert all(x[0] <= y[0] for x, y in zip(seen, seen[1:], strict=False))


# --- every count metric, callables and scores -------------------------------------------

@pytest.mark.parametrize("metric", ["accuracy", "error_rate", "balanced_accuracy", "mcc", "kappa", "macro_f1",
                                    "macro_precision", "macro_recall", "macro_f1_of_means", "micro_f1",
                                    "weighted_f1", "weighted_precision", "f1:2", "recall:0"])
def test_every_count_metric_observed_value_matches_single_table(metric):
    gold, a, b = MULTI
    r = compare(gold, a, b, metric=metric, samples=50)
    labels = [0, 1, 2, 3]
    m = scalar_metric(metric, labels)
    assert r.a == pytest.approx(float(m.fn(confusion_table(gold, a, labels=labels).counts, 0.0)))
    assert r.b == pytest.approx(float(m.fn(confusion_table(gold, b, labels=labels).counts, 0.0)))
    assert math.isfinite(r.p_value) and r.ci.delta[0] <= r.delta <= r.ci.delta[1] + 1e-12


def test_sklearn_oracles_for_observed_values():
    from sklearn.metrics import balanced_accuracy_score, cohen_kappa_score, matthews_corrcoef

    gold, a, b = MULTI
    for name, fn in (("mcc", matthews_corrcoef), ("kappa", cohen_kappa_score),
                     ("balanced_accuracy", balanced_accuracy_score),
                     ("weighted_f1", lambda g, p: f1_score(g, p, average="weighted"))):
        r = compare(gold, a, b, metric=name, samples=20)
        assert r.a == pytest.approx(fn(gold, a)) and r.b == pytest.approx(fn(gold, b))


def test_callable_metric_matches_count_path():
    gold, a, b = MULTI3

    def acc(g, p):
        return float(np.mean(g == p))

    fast = compare(gold, a, b, metric="accuracy", samples=20_000, seed=1)
    slow = compare(gold, a, b, metric=acc, samples=4000, seed=2)
    assert slow.metric == "acc" and slow.a == fast.a
    assert within_mc(fast.p_value, 20_000, slow.p_value, 4000)
    assert slow.ci.bca is not None  # few distinct items: the jackknife is cheap


def test_callable_lower_is_better_attribute():
    gold, a, b = BINARY

    def err(g, p):
        return float(np.mean(g != p))

    err.higher_is_better = False
    r = compare(gold, a, b, metric=err, samples=500)
    assert not r.higher_is_better and r.delta < 0 and r.p_value < 0.5


def test_scores_with_sklearn_roc_auc_as_the_metric():
    rng = np.random.default_rng(8)
    n = 150
    gold = rng.integers(0, 2, n)
    sa = gold * 0.9 + rng.normal(0, 0.6, n)
    sb = gold * 0.85 + rng.normal(0, 0.6, n)
    r = compare(gold, sa, sb, metric=roc_auc_score, samples=600, seed=0)
    assert r.a == pytest.approx(roc_auc_score(gold, sa)) and r.delta > 0
    assert 0.005 < r.p_value < 0.5
    # the naive reference with ROC-AUC by hand (Mann–Whitney from mid-ranks; 800 scikit-learn calls took seconds),
    # the hand AUC checked against scikit-learn first
    def auc(g, s):
        ranks, pos = stats.rankdata(s), g == 1
        n1 = int(pos.sum())
        return (ranks[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * (len(g) - n1))

    some = np.random.default_rng(1).integers(0, n, n)
    for g, s in ((gold, sa), (gold, sb), (gold[some], np.round(sa[some], 1))):  # ties too
        assert auc(g, s) == pytest.approx(roc_auc_score(g, s), abs=1e-12)
    p_ref = naive_bootstrap_p(gold, sa, sb, auc, 400, seed=9)
    assert within_mc(r.p_value, 600, p_ref, 400)
    assert r.ci.bca is not None  # 150 distinct items ≤ the jackknife limit of 1000


@pytest.mark.parametrize("name,ref", [("roc_auc", roc_auc_score), ("average_precision", None)])
def test_named_score_metrics_through_curves(name, ref):
    from sklearn.metrics import average_precision_score

    ref = ref or average_precision_score
    rng = np.random.default_rng(8)
    gold = np.where(rng.random(120) < 0.3, "spam", "ham")
    sa = (gold == "spam") + rng.normal(0, 1, 120)
    sb = (gold == "spam") * 0.4 + rng.normal(0, 1, 120)
    named = compare(gold, sa, sb, metric=name, positive="spam", samples=300, seed=3)
    assert named.a == pytest.approx(ref(gold == "spam", sa)) and named.b == pytest.approx(ref(gold == "spam", sb))
    # the same replicates as scikit-learn's function used as a callable
    via_sklearn = compare(gold == "spam", sa, sb, metric=ref, samples=300, seed=3)
    assert named.p_value == via_sklearn.p_value
    assert named.ci.delta == pytest.approx(via_sklearn.ci.delta)


def test_score_metric_needs_the_positive_class_and_survives_replicates_without_positives():
    with pytest.raises(UsageError, match="positive"):
        compare([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8], [0.3, 0.4, 0.5, 0.6], metric="roc_auc")
    with pytest.raises(DataError, match="'7'"):
        compare([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8], [0.3, 0.4, 0.5, 0.6], metric="roc_auc", positive=7)
    gold = [1] + [0] * 9  # one positive: many virtual test sets miss it
    r = compare(gold, np.linspace(1, 0, 10), np.linspace(0, 1, 10), metric="roc_auc", positive=1, samples=500)
    assert r.a == 1.0 and r.b == 0.0 and "undefined" in " ".join(r.notes)


# --- confidence intervals -----------------------------------------------------------------

def test_jackknife_over_groups_equals_item_jackknife():
    gold, a, b = MULTI3
    fn = scalar_metric("macro_f1").fn
    jt = clfeval.joint_table(gold, a, b)
    eng = rs.CountEngine.from_joint(jt.counts, lambda cm: fn(cm, 0.0))
    ja, jb, w = rs.jackknife_values(eng)
    naive_a = []
    for i in range(len(gold)):
        keep = np.ones(len(gold), bool)
        keep[i] = False
        naive_a.append(fn(confusion_table(gold[keep], a[keep], labels=[0, 1, 2]).counts, 0.0))
    naive_a = np.array(naive_a)
    assert w.sum() == len(gold)
    assert np.average(ja, weights=w) == pytest.approx(naive_a.mean())
    assert np.average(ja ** 3, weights=w) == pytest.approx(np.mean(naive_a ** 3))
    assert sorted(np.repeat(ja, w).round(12)) == sorted(naive_a.round(12))


def test_bca_and_percentile_agree_with_scipy_bootstrap():
    gold, a, b = make_case(21, 200, 3, 0.75, 0.68)
    r = compare(gold, a, b, metric="accuracy", samples=40_000, seed=3)

    def stat(g, x, y):
        return np.mean(g == x) - np.mean(g == y)

    # issue 39: distribution pins against SciPy's paired replicates (formerly within 0.011 of SciPy's ends): the
    # percentile ends in the band of their quantiles, the BCa ends in the band at BCa's levels (tests/_helpers/mc.py)
    res = stats.bootstrap((gold, a, b), stat, paired=True, vectorized=False, n_resamples=20_000,
                          method="percentile", rng=np.random.default_rng(4))
    ref = mc.Reference.of_replicates(res.bootstrap_distribution)
    mc.assert_interval(r.ci.delta, ref, 0.95, 40_000, "percentile δ")
    accel = mc.jackknife_acceleration(stat, (gold, a, b))
    for end, q in zip(r.ci.bca.delta, (0.025, 0.975), strict=True):
        mc.assert_bca(end, ref, r.delta, accel, q, 40_000, "BCa δ")


def test_intervals_contain_the_estimate_and_have_the_level():
    gold, a, b = MULTI
    r = compare(gold, a, b, metric="macro_f1", samples=4000, ci=0.9)
    assert r.ci.level == 0.9 and r.ci.method == "percentile"
    for key, value in (("a", r.a), ("b", r.b), ("delta", r.delta)):
        lo, hi = getattr(r.ci, key)
        assert lo <= value <= hi
    wide = compare(gold, a, b, metric="macro_f1", samples=4000, ci=0.99)
    assert wide.ci.delta[0] <= r.ci.delta[0] and wide.ci.delta[1] >= r.ci.delta[1]


# --- several systems, Holm ------------------------------------------------------------------

def test_holm_by_hand():
    # sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → running max 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]).tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]).tolist() == [1.0, 1.0]
    assert holm([]).size == 0
    out = holm([0.01, float("nan"), 0.02])
    assert out[0] == pytest.approx(0.02) and math.isnan(out[1]) and out[2] == pytest.approx(0.02)


def test_compare_many_against_baseline_and_all_pairs():
    gold, a, b = MULTI
    c = make_case(2, 120, 4, 0.5, 0.5)[1]
    r = compare_many(gold, {"a": a, "b": b, "c": c}, baseline="c", metric="macro_f1", samples=2000, seed=3)
    assert [x.names for x in r.comparisons] == [("a", "c"), ("b", "c")]
    assert r.p_adjusted == pytest.approx(holm([x.p_value for x in r.comparisons]).tolist())
    single = compare(gold, a, c, metric="macro_f1", samples=2000, seed=3, labels=[0, 1, 2, 3], names=("a", "c"))
    assert single.p_value == r.comparisons[0].p_value
    every = compare_many(gold, [c, a, b], metric="accuracy", samples=1000)
    assert len(every.comparisons) == 3
    for x in every.comparisons:
        assert x.delta >= 0  # oriented so that A has the better observed score
    d = every.to_dict()
    assert {"a", "b", "p_value", "p_adjusted", "significant"} <= set(d["comparisons"][0])


def test_compare_many_needs_two_systems_and_a_known_baseline():
    gold, a, _ = BINARY
    with pytest.raises(UsageError, match="at least two"):
        compare_many(gold, {"a": a})
    with pytest.raises(UsageError, match="baseline"):
        compare_many(gold, {"a": a, "b": a}, baseline="z")


# --- bad input ------------------------------------------------------------------------------

def test_bad_arguments_are_refused_with_the_valid_choices():
    gold, a, b = BINARY
    with pytest.raises(UsageError, match="valid metrics are: accuracy, error_rate"):
        compare(gold, a, b, metric="acuracy")
    with pytest.raises(UsageError, match="valid tests are: bootstrap, randomization, mcnemar"):
        compare(gold, a, b, test="t-test")
    with pytest.raises(UsageError, match="samples"):
        compare(gold, a, b, samples=0)
    with pytest.raises(UsageError, match="alpha"):
        compare(gold, a, b, alpha=1.5)
    with pytest.raises(DataError):
        compare(gold, a[:-1], b)
    with pytest.raises(DataError, match="no items"):
        compare([], [], [])
    with pytest.raises(DataError):
        compare(gold, a, b, metric="f1:7")


def test_to_dict_has_the_documented_keys():
    gold, a, b = BINARY
    d = compare(gold, a, b, test="mcnemar", samples=100).to_dict()
    for key in ("metric", "a", "b", "delta", "test", "samples", "seed", "p_value", "ci", "verdict", "signature"):
        assert key in d
    assert {"n_ab", "n_ba", "p_value_two_sided", "chi2", "chi2_p_value"} <= set(d["mcnemar"])
    assert d["signature"]["seed"] == 0 and d["signature"]["samples"] == 100 and "versions" in d["signature"]


# --- properties ---------------------------------------------------------------------------

from hypothesis import (  # noqa: E402
    given,
    settings,
    strategies as st,  # noqa: E402
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_holm_equals_its_definition(ps):
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    expected = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        expected[i] = running
    assert holm(ps).tolist() == pytest.approx(expected)
    adj = holm(ps)
    assert all(a >= p - 1e-15 for a, p in zip(adj, ps, strict=True))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 300), st.integers(0, 300))
def test_mcnemar_is_binomtest_for_any_counts(n_ab, n_ba):
    r = mcnemar(n_ab, n_ba)
    if n_ab + n_ba == 0:
        assert r["p_value"] == 1.0
    else:
        assert r["p_value"] == stats.binomtest(n_ab, n_ab + n_ba, 0.5, alternative="greater").pvalue
        assert r["p_value_two_sided"] == stats.binomtest(n_ab, n_ab + n_ba, 0.5).pvalue


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["accuracy", "macro_f1", "kappa"]))
def test_swapping_a_and_b_negates_delta_and_mirrors_the_interval(seed, metric):
    gold, a, b = make_case(seed, 60, 3, 0.7, 0.6)
    ab = compare(gold, a, b, metric=metric, samples=2000, seed=1)
    ba = compare(gold, b, a, metric=metric, samples=2000, seed=2)
    assert ab.delta == pytest.approx(-ba.delta)
    assert (ab.a, ab.b) == (ba.b, ba.a)
    # the bootstrap distribution of δ is mirrored (within the stated Monte-Carlo tolerance of an end of 2,000
    # replicates and one step of the grid: tests/_helpers/mc.py; formerly 0.045)
    tol = mc.end_tolerance(-ba.ci.delta[1], -ba.ci.delta[0], 0.95, 2000, grid=1 / len(gold))
    assert ab.ci.delta == pytest.approx([-ba.ci.delta[1], -ba.ci.delta[0]], abs=tol)
