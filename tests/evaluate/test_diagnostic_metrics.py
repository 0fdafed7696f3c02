"""The diagnostic-test metrics added through the catalogue: NPV, FNR, prevalence, markedness, LR+, LR−, DOR.

Each is checked against a hand computation and against scikit-learn's ``class_likelihood_ratios`` where it has
one; the infinite cases (x/0 with x > 0) are undefined (``null``, listed with the reason), never 0 and never a
JSON infinity; and the metrics show up in report, intervals, compare, cv and the run log without any code of
their own outside the catalogue and its functions.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import class_likelihood_ratios

import clfeval
from clfeval.core import _catalog as catalog
from clfeval.render import render
from tests._helpers.clihelp import run

NEW = ("npv", "fnr", "prevalence", "markedness", "lr_plus", "lr_minus", "dor")


def screening(tp=8, fp=2, fn=4, tn=6):
    """A screening test: 12 ill (8 found), 8 healthy (2 false alarms)."""
    gold = ["ill"] * (tp + fn) + ["healthy"] * (fp + tn)
    pred = ["ill"] * tp + ["healthy"] * fn + ["ill"] * fp + ["healthy"] * tn
    return gold, pred


def test_worked_example_by_hand():
    b = clfeval.report(*screening(), positive="ill").binary
    # TPR = 8/12, FPR = 2/8, PPV = 8/10, NPV = 6/10
    assert b.npv == pytest.approx(6 / 10)
    assert b.fnr == pytest.approx(4 / 12)
    assert b.prevalence == pytest.approx(12 / 20)
    assert b.markedness == pytest.approx(8 / 10 + 6 / 10 - 1)
    assert b.lr_plus == pytest.approx((8 / 12) / (2 / 8))  # 8/3
    assert b.lr_minus == pytest.approx((4 / 12) / (6 / 8))  # 4/9
    assert b.dor == pytest.approx(8 * 6 / (2 * 4))  # 6 = LR+ / LR−
    assert b.dor == pytest.approx(b.lr_plus / b.lr_minus)


@pytest.mark.parametrize("seed", range(20))
def test_likelihood_ratios_match_scikit_learn(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 200))
    y = rng.random(n) < rng.uniform(0.1, 0.9)
    p = np.where(rng.random(n) < rng.uniform(0.5, 0.95), y, ~y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lr_p, lr_m = class_likelihood_ratios(y, p, labels=[False, True])
    b = clfeval.report(y, p, positive=True).binary
    for ours, theirs in ((b.lr_plus, lr_p), (b.lr_minus, lr_m)):
        if math.isfinite(theirs):
            assert ours == pytest.approx(theirs, rel=1e-12)
    if math.isfinite(lr_p) and math.isfinite(lr_m) and lr_m > 0:
        assert b.dor == pytest.approx(lr_p / lr_m, rel=1e-12)


@pytest.mark.parametrize("zd", [0, 1, "nan"])
def test_infinite_ratios_are_undefined_never_zero_and_never_a_json_infinity(zd):
    gold, pred = screening(tp=5, fp=0, fn=3, tn=7)  # no false alarm: specificity 1, LR+ and DOR infinite
    r = clfeval.report(gold, pred, positive="ill", zero_division=zd)
    assert math.isnan(r.binary.lr_plus) and math.isnan(r.binary.dor)
    assert r.binary.lr_minus == pytest.approx((3 / 8) / 1)
    text = render(r, "json")
    d = json.loads(text, parse_constant=lambda t: pytest.fail(f"non-standard JSON constant {t}"))
    assert d["binary"]["lr_plus"] is None and d["per_class"]["ill"]["dor"] is None
    listed = {(u["metric"], tuple(u.get("labels", ()))): u for u in d["undefined"]}
    lr = listed[("lr_plus", ("ill",))]
    assert lr["infinite"] is True and "x/0" in lr["reason"] and "whatever zero_division" in lr["reason"]
    assert ("dor", ("healthy", "ill")) in listed  # the DOR of either class: FP·FN = 0
    assert "Infinite (x/0 with x > 0), shown as undef: lr_plus for ill" in render(r, "text")


@pytest.mark.parametrize("zd,value", [(0, 0.0), (1, 1.0)])
def test_zero_over_zero_follows_zero_division(zd, value):
    # "ill" is never predicted and nothing healthy is called ill: TP = FP = 0, so LR+ = 0/0
    gold, pred = screening(tp=0, fp=0, fn=4, tn=6)
    r = clfeval.report(gold, pred, positive="ill", zero_division=zd)
    assert r.binary.lr_plus == value
    entry = next(u for u in r.undefined if u.metric == "lr_plus")
    assert entry.labels == ["ill"] and entry.infinite is None


def test_not_macro_averaged_and_listed_in_the_catalogue():
    r = clfeval.report(*screening())
    for block in (r.macro, r.micro, r.weighted):
        assert not set(block.to_dict()) & set(NEW)
    keys = set(catalog.names())
    assert {f"{m}:LABEL" for m in NEW} <= keys
    assert not {f"{how}_{m}" for how in ("macro", "micro", "weighted") for m in ("lr_plus", "lr_minus", "dor")} & keys
    assert catalog.get("lr_minus:x").direction == "lower" and catalog.get("prevalence:x").direction == "none"


def test_they_appear_in_the_report_and_its_intervals():
    gold, pred = screening()
    r = clfeval.report(gold, pred, positive="ill", ci=0.9, samples=2000, seed=1)
    ci = r.ci.to_dict()
    for m in NEW:
        assert all(getattr(row, m) is not None for row in r.per_class.values()) and getattr(r.binary, m) is not None
        assert m in ci["binary"] and all(m in row for row in ci["per_class"].values())
    lo, hi = ci["binary"]["npv"]
    assert lo <= r.binary.npv <= hi
    assert ci["binary"]["prevalence"][0] < 0.6 < ci["binary"]["prevalence"][1]  # the prevalence is resampled too


def test_an_interval_reaching_an_infinite_ratio_is_open_ended():
    gold, pred = screening(tp=9, fp=1, fn=3, tn=27)  # some replicates draw no false positive at all
    ci = clfeval.report(gold, pred, positive="ill", ci=0.95, samples=4000, seed=0).ci.to_dict()
    lo, hi = ci["binary"]["lr_plus"]
    assert math.isfinite(lo) and hi == math.inf
    assert "infinite value" in ci["note"]
    assert json.loads(render(clfeval.report(gold, pred, positive="ill", ci=0.95, samples=500),
                             "json"))["ci"]["binary"]["lr_plus"][1] is None


def test_they_are_compared_by_name():
    rng = np.random.default_rng(4)
    y = rng.random(300) < 0.3
    a = np.where(rng.random(300) < 0.9, y, ~y)
    b = np.where(rng.random(300) < 0.7, y, ~y)
    gold = np.where(y, "ill", "healthy")
    pa, pb = (np.where(x, "ill", "healthy") for x in (a, b))
    for m in ("npv:ill", "markedness:ill", "lr_minus:ill", "dor:ill"):
        c = clfeval.compare(gold, pa, pb, metric=m, samples=500, seed=0)
        assert c.a == pytest.approx(getattr(clfeval.report(gold, pa, positive="ill").binary, m.split(":")[0]))
        assert c.higher_is_better == (m != "lr_minus:ill")
    with pytest.raises(clfeval.UsageError, match="no better direction"):
        clfeval.compare(gold, pa, pb, metric="prevalence:ill")


def test_they_are_reported_by_cv_and_ranked_by_the_run_log(tmp_path):
    from sklearn.neighbors import KNeighborsClassifier

    from clfeval.evaluate._reports import report_from_table
    from clfeval.protocols._api import cross_validate
    from clfeval.protocols._runlog import RunLog

    rng = np.random.default_rng(2)
    y = np.where(rng.random(120) < 0.4, "ill", "healthy")
    X = (y == "ill")[:, None] + rng.normal(0, 0.8, (120, 1))
    names = tuple(f"{m}:ill" for m in NEW)
    log = RunLog(tmp_path / "runs.sqlite")
    ids = []
    for k in (1, 7):
        res = cross_validate(KNeighborsClassifier(k), X, y.tolist(), folds=4, seed=0, metrics=names)
        for f in res.folds:
            rep = report_from_table(f.table)
            for name in names:
                ours, ref = f.metrics[name], rep.metric(name)
                assert ours == ref or (math.isnan(ours) and math.isnan(ref)), name
        ids.append(log.record_result("cv", res, settings={"k": k}, data_hash="sha256:d", task="y"))
    best = log.best("dor:ill").best[0]
    assert best.value("dor:ill") == max(log.get(i).value("dor:ill") for i in ids)
    low = log.best("lr_minus:ill")
    assert not low.higher_is_better
    assert low.best[0].value("lr_minus:ill") == min(log.get(i).value("lr_minus:ill") for i in ids)
    assert log.check(best.id, "dor:ill").passed
    with pytest.raises(clfeval.UsageError, match="no better direction"):
        log.best("prevalence:ill")


def test_clfeval_metrics_lists_every_entry(tmp_path):
    res = run("metrics", "--format", "json")
    assert res.code == 0 and res.err == ""
    listed = json.loads(res.out)["metrics"]
    assert [m["name"] for m in listed] == catalog.names()
    for m in listed:
        assert {"name", "tasks", "higher_is_better", "formula", "undefined", "definition", "range"} <= set(m)
    by_name = {m["name"]: m for m in listed}
    assert by_name["lr_plus:LABEL"]["higher_is_better"] is True and by_name["lr_plus:LABEL"]["range"] == [0.0, None]
    assert by_name["error_rate"]["higher_is_better"] is False
    assert by_name["prevalence:LABEL"]["higher_is_better"] is None
    text = run("metrics")
    assert text.code == 0 and "dor:LABEL" in text.out and "DOR = (TP·TN) / (FP·FN)" in text.out
    md = run("metrics", "--format", "markdown", "--input", "ranking")
    assert md.code == 0 and "| roc_auc |" in md.out and "accuracy" not in md.out.split("Definitions")[0]
    assert run("metrics", "--task", "nonsense").code == 2


def test_an_unknown_cv_metric_is_refused_before_the_data_is_read(tmp_path):
    res = run("cv", tmp_path / "missing.csv", "--text", "t", "--label", "l", "--metric", "f2_score", "--no-log")
    assert res.code == 2 and "unknown metric 'f2_score'" in res.err and "valid metrics are: accuracy" in res.err
    assert "Traceback" not in res.err
