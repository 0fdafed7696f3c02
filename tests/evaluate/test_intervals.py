"""Bootstrap confidence intervals in reports: the multinomial over cells (or item patterns)
against naive item resampling with scikit-learn's metrics (or hand formulas checked against them: F1, MCC).

Issue 39: the percentile ends are distribution pins — each within the band of the naive sampler's quantiles that
``tests/_helpers/mc.py`` states (the binomial band of the order statistic's rank at both replicate counts)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import f1_score, hamming_loss, matthews_corrcoef

import clfeval
from clfeval.errors import UsageError
from clfeval.evaluate._intervals import multilabel_ci, table_ci
from tests._helpers import mc


def items(seed=0, n=300, k=3):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.75, g, rng.integers(0, k, n))
    return g, p


def naive_replicates(g, p, fn, samples=3000, seed=11):
    """The independent reference: ``samples`` replicates of ``fn`` over the items drawn with replacement."""
    return mc.item_replicates(fn, (g, p), samples=samples, seed=seed)


def per_class_f1(g, p, k=3):
    tp = np.bincount(g[g == p], minlength=k)
    den = np.bincount(g, minlength=k) + np.bincount(p, minlength=k)
    return np.where(den > 0, 2 * tp / np.maximum(den, 1), 0.0)


def mcc(g, p, k=3):
    """Multi-class MCC by hand (Gorodkin's R_K from the marginals and the diagonal; 0 when undefined, as
    scikit-learn): its 2,000 replicates cost milliseconds, where scikit-learn's took 10–20 s."""
    t, q = np.bincount(g, minlength=k), np.bincount(p, minlength=k)
    c, n = int(np.sum(g == p)), len(g)
    den = float(n * n - q @ q) * float(n * n - t @ t)
    return 0.0 if den == 0 else float(c * n - t @ q) / den ** 0.5


def test_report_ci_matches_naive_item_bootstrap():
    g, p = items()
    assert per_class_f1(g, p) == pytest.approx(f1_score(g, p, average=None))  # the hand F1 is scikit-learn's
    rng = np.random.default_rng(4)
    for i in (np.arange(len(g)), *(rng.integers(0, len(g), len(g)) for _ in range(5)), np.flatnonzero(g == 0)):
        assert mcc(g[i], p[i]) == pytest.approx(matthews_corrcoef(g[i], p[i]), abs=1e-12)  # the hand MCC too
    rep = clfeval.report(g, p, ci=0.9, samples=20_000, seed=1, ci_method="percentile")  # issue 18: default per metric
    ci = rep.ci.to_dict()
    assert (ci["level"], ci["samples"], ci["seed"], ci["method"]) == (0.9, 20_000, 1, "percentile")
    for path, fn in ((("accuracy",), lambda a, b: np.mean(a == b)),
                     (("macro", "f1"), lambda a, b: per_class_f1(a, b).mean()),
                     (("mcc",), mcc),
                     (("per_class", "2", "f1"), lambda a, b: per_class_f1(a, b)[2])):
        node = ci
        for key in path:
            node = node[key]
        mc.assert_interval(node, naive_replicates(g, p, fn, samples=2000), 0.9, 20_000, str(path))


def test_ci_paths_mirror_the_report():
    g, p = items(1)
    rep = clfeval.report(g, p, ci=0.95, samples=500, positive=1, order=[0, 1, 2])
    d = rep.to_dict()
    ci = d["ci"]
    for key in ("accuracy", "error_rate", "balanced_accuracy", "mcc", "kappa"):
        lo, hi = ci[key]
        assert lo <= d[key] <= hi or np.isclose(lo, d[key]) or np.isclose(hi, d[key]), key
    for block in ("macro", "micro", "weighted"):
        assert set(ci[block]) == set(d[block])
    for lab, row in d["per_class"].items():
        metrics = {m for m, v in row.items() if isinstance(v, float)}
        assert metrics <= set(ci["per_class"][lab]), lab
    assert set(ci["ordinal"]) == {"mae", "linear_kappa", "quadratic_kappa"}
    assert {"precision", "recall", "f1", "accuracy", "balanced_accuracy", "mcc", "kappa"} <= set(ci["binary"])


def test_ci_same_seed_same_numbers_and_level_widens():
    g, p = items(2)
    t = clfeval.confusion_table(g, p)
    one = table_ci(t.counts, t.labels, samples=2000, seed=3)
    assert one == table_ci(t.counts, t.labels, samples=2000, seed=3)
    assert one != table_ci(t.counts, t.labels, samples=2000, seed=4)
    wide = table_ci(t.counts, t.labels, level=0.99, samples=2000, seed=3)
    assert wide["accuracy"][0] <= one["accuracy"][0] and wide["accuracy"][1] >= one["accuracy"][1]


def test_multilabel_ci_matches_naive_item_bootstrap():
    rng = np.random.default_rng(5)
    n, L = 200, 3
    gold = rng.random((n, L)) < 0.4
    pred = np.where(rng.random((n, L)) < 0.8, gold, ~gold)
    ci = multilabel_ci(gold, pred, ["x", "y", "z"], level=0.9, samples=20_000, seed=2)
    def hamming(a, b):  # by hand (scikit-learn's 2,000 calls took seconds); checked against it
        return np.mean(a != b)

    assert hamming(gold, pred) == pytest.approx(hamming_loss(gold, pred), abs=1e-15)
    mc.assert_interval(ci["hamming_loss"], naive_replicates(gold, pred, hamming, samples=2000), 0.9, 20_000,
                       "hamming_loss")
    def micro_f1(a, b):
        tp = np.sum(a & b)
        return 2 * tp / (2 * tp + np.sum(a & ~b) + np.sum(~a & b))

    assert micro_f1(gold, pred) == pytest.approx(f1_score(gold, pred, average="micro"))
    mc.assert_interval(ci["micro"]["f1"], naive_replicates(gold, pred, micro_f1, samples=2000), 0.9, 20_000,
                       "micro f1")
    subset = naive_replicates(gold, pred, lambda a, b: np.mean(np.all(a == b, axis=1)), samples=2000)
    mc.assert_interval(ci["subset_accuracy"], subset, 0.9, 20_000, "subset accuracy")


def test_multilabel_report_ci_and_table_refusal():
    rep = clfeval.report(["a|b", "b", "", "c"] * 20, ["a", "b|c", "", "c"] * 20, multilabel=True, ci=0.95, samples=300)
    assert {"hamming_loss", "jaccard", "subset_accuracy", "macro", "per_class"} <= set(rep.ci.to_dict())
    with pytest.raises(UsageError, match="multi-label"):
        clfeval.report_from_table(rep.table, ci=0.95)


def test_bad_ci_arguments():
    g, p = items()
    with pytest.raises(UsageError, match="ci"):
        clfeval.report(g, p, ci=1.5)
    with pytest.raises(UsageError, match="samples"):
        clfeval.report(g, p, ci=0.95, samples=0)
