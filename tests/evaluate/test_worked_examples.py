"""Worked examples 1–7 of mission.md §10, through ``clfeval.report``.

Each example's items are rebuilt from the counts it gives (with the
orientation it states) and every number it prints is checked to the
precision it is printed with: ``round(x, 4) == 0.7200`` for four decimals,
``abs(x - 0.83) < 0.005`` for two. Where the mission leaves a count open
(the spam filter's true negatives) any value works, and the test says so.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import clfeval


def printed(x: float, value: str) -> bool:
    """``x`` shows as ``value`` at the number of decimals ``value`` is printed with."""
    decimals = len(value.split(".")[1]) if "." in value else 0
    return abs(x - float(value)) < 0.5 * 10 ** -decimals


def items(matrix: list[list[int]], labels: list, *, rows: str = "gold") -> tuple[np.ndarray, np.ndarray]:
    """Items (gold, pred) with ``matrix[i][j]`` items in cell (i, j); ``rows`` says what the rows are."""
    m = np.asarray(matrix)
    if rows == "pred":
        m = m.T
    k = len(labels)
    gi, pj = np.indices((k, k))
    counts = m.ravel()
    lab = np.asarray(labels)
    return np.repeat(lab[gi.ravel()], counts), np.repeat(lab[pj.ravel()], counts)


def test_printed_helper() -> None:
    assert printed(0.72, "0.7200") and not printed(0.72006, "0.7200")
    assert printed(0.8333, "0.83") and not printed(0.8249, "0.83")


# --- 1. the accuracy trap: 1,000,000 tweets, 100 about pie ---------------------

def test_example_1_pie_tweets() -> None:
    # rows = gold: the 100 pie tweets and the 999,900 others, all predicted "not pie"
    gold, pred = items([[0, 100], [0, 999_900]], ["pie", "not pie"])
    assert gold.size == 1_000_000 and np.all(pred == "not pie")
    r = clfeval.report(gold, pred, positive="pie")
    assert printed(r.accuracy, "0.9999") and r.accuracy == 0.9999
    assert r.per_class["pie"].recall == 0.0
    assert r.per_class["pie"].f1 == 0.0
    assert r.binary.recall == 0.0 and r.binary.f1 == 0.0
    assert r.binary.accuracy == 0.9999
    # the output says that pie's precision was 0/0, filled with 0
    assert {"metric": "precision", "labels": ["pie"]} in [u.to_dict() for u in r.undefined]
    # the majority baseline does exactly as well
    assert r.baselines.majority.accuracy == 0.9999
    assert r.baselines.majority.label == "not pie"


# --- 2. "always news" ---------------------------------------------------------

def test_example_2_always_news() -> None:
    gold, pred = items([[90, 0], [10, 0]], ["news", "other"])
    r = clfeval.report(gold, pred)
    assert printed(r.accuracy, "0.90")
    # macro-F1 exposes it: F1(news) = 2·90/(2·90 + 10) = 18/19, F1(other) = 0
    assert r.macro.f1 == pytest.approx(float(Fraction(18, 19) / 2))
    assert r.macro.f1 < 0.5 < r.accuracy
    assert r.per_class["other"].f1 == 0.0 and r.per_class["other"].recall == 0.0
    assert r.baselines.majority.accuracy == r.accuracy


# --- 3. spam filter -------------------------------------------------------------

@pytest.mark.parametrize("tn", [0, 100, 5000])  # the example gives no TN; P, R, F1 do not depend on it
def test_example_3_spam_filter(tn: int) -> None:
    # flags 40, 30 of them truly spam (TP 30, FP 10), misses 20 spam (FN 20)
    gold, pred = items([[30, 20], [10, tn]], ["spam", "ham"])
    r = clfeval.report(gold, pred, positive="spam")
    b = r.binary
    assert (b.tp, b.fp, b.fn, b.tn) == (30, 10, 20, tn)
    assert printed(b.precision, "0.75") and printed(b.recall, "0.60")
    assert printed((b.precision + b.recall) / 2, "0.675")
    assert printed(b.f1, "0.667")
    assert r.per_class["spam"].f1 == b.f1


def test_example_3_spam_filter_low_recall() -> None:
    # P 0.75 and R 0.20: TP 30, FP 10, FN 120
    gold, pred = items([[30, 120], [10, 50]], ["spam", "ham"])
    b = clfeval.report(gold, pred, positive="spam").binary
    assert printed(b.precision, "0.75") and printed(b.recall, "0.20")
    assert printed((b.precision + b.recall) / 2, "0.475")
    assert printed(b.f1, "0.316")


# --- 4. micro vs macro, two classes --------------------------------------------

def test_example_4_micro_vs_macro() -> None:
    # class 1: TP 10, FP 10; class 2: TP 90, FP 10 — rows = gold, single-label, so
    # class 1's FP are class-2 items predicted as 1 and vice versa
    gold, pred = items([[10, 10], [10, 90]], [1, 2])
    r = clfeval.report(gold, pred)
    assert (r.per_class["1"].tp, r.per_class["1"].fp) == (10, 10)
    assert (r.per_class["2"].tp, r.per_class["2"].fp) == (90, 10)
    assert printed(r.per_class["1"].precision, "0.50") and printed(r.per_class["2"].precision, "0.90")
    assert printed(r.macro.precision, "0.70")
    assert printed(r.micro.precision, "0.83")
    assert r.micro.precision == pytest.approx(100 / 120, abs=1e-15)
    # single-label: micro-P = micro-R = micro-F1 = accuracy, exactly
    assert r.micro.precision == r.micro.recall == r.micro.f1 == r.accuracy


# --- 5. three classes, rows = system output --------------------------------------

EX5_LABELS = ["urgent", "normal", "spam"]
EX5_OUTPUT_ROWS = [[8, 10, 1], [5, 60, 50], [3, 30, 200]]  # rows = output, columns = gold


def test_example_5_orientation_rows_are_output() -> None:
    gold, pred = items(EX5_OUTPUT_ROWS, EX5_LABELS, rows="pred")
    r = clfeval.report(gold, pred, labels=EX5_LABELS)
    assert r.labels == EX5_LABELS
    # clfeval's own matrix is rows = gold: the transpose of the example's
    assert [list(row) for row in r.confusion_matrix] == np.asarray(EX5_OUTPUT_ROWS).T.tolist()
    p = [r.per_class[c].precision for c in EX5_LABELS]
    assert [printed(x, v) for x, v in zip(p, ["0.42", "0.52", "0.86"], strict=True)] == [True] * 3
    assert printed(r.macro.precision, "0.60")
    assert printed(r.micro.precision, "0.73")
    assert r.micro.precision == r.micro.f1 == r.accuracy == pytest.approx(268 / 367, abs=1e-15)


def test_example_5_both_macro_f1_definitions() -> None:
    gold, pred = items(EX5_OUTPUT_ROWS, EX5_LABELS, rows="pred")
    r = clfeval.report(gold, pred, labels=EX5_LABELS)
    out = np.asarray(EX5_OUTPUT_ROWS)  # [output, gold]
    tp = np.diag(out)
    pred_tot = out.sum(axis=1)
    gold_tot = out.sum(axis=0)
    prec = [Fraction(int(t), int(s)) for t, s in zip(tp, pred_tot, strict=True)]
    rec = [Fraction(int(t), int(s)) for t, s in zip(tp, gold_tot, strict=True)]
    f1 = [2 * p * q / (p + q) for p, q in zip(prec, rec, strict=True)]
    mean_of_f1 = sum(f1) / 3
    mp, mr = sum(prec) / 3, sum(rec) / 3
    f1_of_means = 2 * mp * mr / (mp + mr)
    assert r.macro.f1 == pytest.approx(float(mean_of_f1), abs=1e-12)
    assert r.macro.f1_of_means == pytest.approx(float(f1_of_means), abs=1e-12)
    assert abs(r.macro.f1 - r.macro.f1_of_means) > 0.001  # they differ (0.6139 vs 0.6159)
    assert r.macro.recall == pytest.approx(float(mr), abs=1e-12)


# --- 6. genre matrix -------------------------------------------------------------

EX6_LABELS = ["news", "fiction", "government", "learned"]
EX6 = [[9, 1, 2, 0], [1, 9, 1, 1], [3, 2, 7, 0], [0, 1, 0, 11]]  # rows = gold


def test_example_6_genre_matrix() -> None:
    gold, pred = items(EX6, EX6_LABELS)
    r = clfeval.report(gold, pred, labels=EX6_LABELS)
    assert [list(row) for row in r.confusion_matrix] == EX6
    assert printed(r.accuracy, "0.75")
    for label, value in zip(EX6_LABELS, ["0.7200", "0.7200", "0.6364", "0.9167"], strict=True):
        assert printed(r.per_class[label].f1, value), label
    assert printed(r.per_class["government"].precision, "0.7000")
    assert printed(r.per_class["government"].recall, "0.5833")
    assert r.hardest_class == "government"
    assert r.diagnostics.hardest_classes == ["government"]
    pair = r.most_confused_pair
    assert pair is not None
    assert pair.to_dict() == {"classes": ["news", "government"], "errors": 5, "a_as_b": 2, "b_as_a": 3}
    # directional: 3 government documents read as news, 2 news documents as government
    assert [c.to_dict() for c in r.diagnostics.top_confusions][0] == {"gold": "government", "pred": "news", "count": 3}
    assert {"gold": "news", "pred": "government", "count": 2} in [c.to_dict() for c in r.diagnostics.top_confusions]


def test_example_6_pair_in_natural_label_order() -> None:
    """Without labels= the order is alphabetical; the pair and both directions stay the same."""
    gold, pred = items(EX6, EX6_LABELS)
    r = clfeval.report(gold, pred)
    assert r.labels == sorted(EX6_LABELS)
    pair = r.most_confused_pair
    assert pair.classes == ["government", "news"]
    assert (pair.errors, pair.a_as_b, pair.b_as_a) == (5, 3, 2)
    assert r.hardest_class == "government"


# --- 7. binary report ------------------------------------------------------------

def test_example_7_binary_report() -> None:
    # gold/pred confusion [[TN 167, FP 2], [FN 24, TP 7]]: rows gold (0, 1), columns predicted
    gold, pred = items([[167, 2], [24, 7]], [0, 1])
    r = clfeval.report(gold, pred, positive=1)
    b = r.binary
    assert (b.tn, b.fp, b.fn, b.tp) == (167, 2, 24, 7)
    assert printed(r.accuracy, "0.87") and printed(b.accuracy, "0.87")
    assert printed(r.error_rate, "0.13") and printed(b.error_rate, "0.13")
    assert printed(b.precision, "0.7778")
    assert printed(b.recall, "0.2258")
    assert printed(b.specificity, "0.9882")
    assert printed(b.f1, "0.35")
    assert printed(b.balanced_accuracy, "0.6070")
    assert printed(r.balanced_accuracy, "0.6070")
    # the per-class table: macro and weighted averages over both classes
    assert printed(r.macro.precision, "0.83")
    assert printed(r.macro.recall, "0.61")
    assert printed(r.macro.f1, "0.64")
    assert printed(r.weighted.precision, "0.86")
    assert printed(r.weighted.recall, "0.87")
    assert printed(r.weighted.f1, "0.84")
    # per-class rows carry the same numbers for class 1
    assert r.per_class["1"].precision == b.precision and r.per_class["1"].recall == b.recall
    assert r.kind == "binary"
