"""Choosing a threshold: the chosen cut equals a brute-force search over every cut."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import precision_recall_fscore_support

from clfeval.errors import DataError
from clfeval.scores._thresholds import HINDSIGHT_NOTE, NO_DEV_NOTE, choose_label_thresholds, choose_threshold

OBJECTIVES = ["f1", "f0.5", "f2", "cost", "precision>=0.6", "recall>=0.8", "recall>=1", "precision>=0.35"]


def brute_force(y, s, objective, cost_fp=1.0, cost_fn=1.0):
    """The threshold an objective picks, by counting every cut directly (scores that occur, high to low)."""
    cands = []
    for t in sorted(set(s.tolist()), reverse=True):
        hit = s >= t
        tp, fp = int((hit & y).sum()), int((hit & ~y).sum())
        fn = int(y.sum()) - tp
        p, r = tp / (tp + fp), tp / (tp + fn)
        cands.append((t, tp, fp, fn, p, r))
    if objective.startswith("f"):
        b2 = float(objective[1:]) ** 2
        vals = [(1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp) for _, tp, fp, fn, _, _ in cands]
        best = max(vals)
        return next(c[0] for c, v in zip(cands, vals, strict=True) if v == best)  # highest threshold among ties
    if objective == "cost":
        vals = [(cost_fp * fp + cost_fn * fn) / len(y) for _, _, fp, fn, _, _ in cands]
        best = min(vals)
        return next(c[0] for c, v in zip(cands, vals, strict=True) if v == best)
    kind, target = objective.split(">=")
    target = float(target)
    if kind == "precision":
        ok = [c[0] for c in cands if c[4] >= target]
        return ok[-1] if ok else None  # the lowest such cut
    return next(c[0] for c in cands if c[5] >= target)  # the highest such cut


def data(rng, n, prevalence, distinct):
    y = rng.random(n) < prevalence
    y[0], y[1] = True, False
    s = np.round(rng.random(n) * distinct) / distinct + 0.4 * y * rng.random(n)
    return y, s


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 200), prevalence=st.sampled_from([0.5, 0.2, 0.05]),
       distinct=st.sampled_from([3, 10, 1000]), objective=st.sampled_from(OBJECTIVES),
       costs=st.sampled_from([(1.0, 1.0), (1.0, 10.0), (5.0, 1.0)]))
def test_chosen_threshold_equals_brute_force(seed, n, prevalence, distinct, objective, costs):
    rng = np.random.default_rng(seed)
    dy, ds = data(rng, n, prevalence, distinct)
    ty, ts = data(rng, n, prevalence, distinct)
    expected = brute_force(dy, ds, objective, *costs)
    if expected is None:
        with pytest.raises(DataError, match="no cut on the development data reaches precision"):
            choose_threshold(ty, ts, positive=True, dev_gold=dy, dev_scores=ds, objective=objective,
                             cost_fp=costs[0], cost_fn=costs[1])
        return
    c = choose_threshold(ty, ts, positive=True, dev_gold=dy, dev_scores=ds, objective=objective,
                         cost_fp=costs[0], cost_fn=costs[1])
    assert c.threshold == expected
    assert c.threshold in set(ds.tolist())  # a score of the dev data
    hit = ts >= expected
    assert (c.test.tp, c.test.fp) == (int((hit & ty).sum()), int((hit & ~ty).sum()))
    hind = brute_force(ty, ts, objective, *costs)
    assert (c.hindsight.threshold if c.hindsight else None) == hind


def test_three_rows_and_default_cuts():
    c = choose_threshold([1, 0, 1, 0], [0.9, 0.6, 0.7, 0.2], positive=1, dev_gold=[1, 1, 0, 0],
                         dev_scores=[0.8, 0.4, 0.3, 0.1])
    d = c.to_dict()
    assert d["threshold"] == 0.4 and d["default"]["threshold"] == 0.5 and d["hindsight"]["threshold"] == 0.7
    assert set(d["test"]) >= {"precision", "recall", "f1", "tp", "fp", "fn", "tn"}
    assert HINDSIGHT_NOTE in d["notes"]
    logodds = choose_threshold([1, 0], [2.5, -1.0], positive=1)
    assert logodds.default.threshold == 0.0 and logodds.threshold is None and logodds.test is None
    assert NO_DEV_NOTE in logodds.notes
    given_t = choose_threshold([1, 0], [2.5, -1.0], positive=1, default_threshold=3)
    assert given_t.default.tp == 0


def test_dev_with_one_class_is_refused():
    with pytest.raises(DataError, match="only one class"):
        choose_threshold([1, 0], [0.9, 0.1], positive=1, dev_gold=[1, 1], dev_scores=[0.3, 0.4])
    with pytest.raises(DataError, match="development data"):
        choose_threshold([1, 0], [0.9, 0.1], positive=1, dev_gold=[0, 0], dev_scores=[0.3, 0.4])


# --- multi-label: one cut per label -------------------------------------------------------

def test_multilabel_per_label_cuts_against_brute_force_and_sklearn():
    rng = np.random.default_rng(21)
    labels = ["grain", "wheat", "corn"]
    prev = [0.3, 0.15, 0.05]

    def make(n):
        y = np.stack([rng.random(n) < p for p in prev], axis=1)
        y[0] = True
        y[1] = False
        s = np.round(rng.normal(size=(n, 3)) * 3 + 4 * y, 1)  # log-odds-like: default cut 0
        gold = ["|".join(lab for lab, v in zip(labels, row, strict=True) if v) for row in y]
        return y, s, gold

    ty, ts, tgold = make(400)
    dy, ds, dgold = make(300)
    r = choose_label_thresholds(tgold, {lab: ts[:, j] for j, lab in enumerate(labels)}, dev_gold=dgold,
                                dev_scores={lab: ds[:, j] for j, lab in enumerate(labels)})
    for j, lab in enumerate(labels):
        assert r.thresholds[lab] == brute_force(dy[:, j], ds[:, j], "f1")
        assert r.per_label[lab].hindsight.threshold == brute_force(ty[:, j], ts[:, j], "f1")
        assert r.per_label[lab].default.threshold == 0.0
    for setting, cuts in (("default", np.zeros(3)), ("tuned", np.array([r.thresholds[lab] for lab in labels]))):
        pred = ts >= cuts[None, :]
        for how in ("micro", "macro"):
            p, rec, f, _ = precision_recall_fscore_support(ty, pred, average=how, zero_division=0)
            got = getattr(r.averages[setting], how)
            assert (got["precision"], got["recall"], got["f1"]) == pytest.approx((p, rec, f), abs=1e-12)


def test_multilabel_label_without_dev_positives_keeps_default():
    r = choose_label_thresholds(["a", "b", ""], {"a": [0.9, 0.1, 0.2], "b": [0.1, 0.8, 0.3]},
                                dev_gold=["a", "", "a"], dev_scores={"a": [0.7, 0.2, 0.6], "b": [0.4, 0.3, 0.2]})
    assert r.thresholds["b"] is None and r.per_label["b"].test.threshold == 0.5
    assert any("keep the default cut" in n and "b" in n for n in r.notes)


def test_ties_between_cuts_go_to_the_highest_threshold():
    # F1 is 2/3 at the cut 4 (TP 1, FN 1) and at the cut 1 (TP 2, FP 2): the highest threshold wins.
    c = choose_threshold([1, 0], [1, 0], positive=1, dev_gold=[1, 0, 0, 1], dev_scores=[4, 3, 2, 1])
    assert c.threshold == 4 and c.dev.f1 == pytest.approx(2 / 3)
    # one error at the cut 4 (FN) and at the cut 2 (FP): the highest threshold wins.
    c = choose_threshold([1, 0], [1, 0], positive=1, dev_gold=[1, 0, 1, 0], dev_scores=[4, 3, 2, 1], objective="cost")
    assert c.threshold == 4 and c.dev.cost == 0.25
    # precision >= 0.5 holds at the cuts 4, 3 and 2 (P 1, 1/2, 2/3): the lowest of them, the most recall.
    c = choose_threshold([1, 0], [1, 0], positive=1, dev_gold=[1, 0, 1, 0], dev_scores=[4, 3, 2, 1],
                         objective="precision>=0.5")
    assert c.threshold == 1  # P at the cut 1 is 2/4 = 0.5 exactly
    # recall >= 0.5: the highest cut that reaches it.
    c = choose_threshold([1, 0], [1, 0], positive=1, dev_gold=[1, 0, 1, 0], dev_scores=[4, 3, 2, 1],
                         objective="recall>=0.5")
    assert c.threshold == 4
