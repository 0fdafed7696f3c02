"""Golden text of the renderers.

The golden files were read and checked by hand when first written (every number
of report_small was recomputed on paper: e.g. kappa 13/34 = 0.3824, MCC
13/sqrt(28·32) = 0.4343, stratified baseline accuracy 17/49 = 0.3469). If a
change alters them, read the diff; never regenerate them blindly.

The binary rows added with the metric catalogue (issue 10) were checked by hand
for class c (TP 1, FP 0, FN 2, TN 4): NPV 4/6 = 0.6667, FNR 2/3, prevalence
3/7 = 0.4286, markedness 1 + 4/6 − 1 = 0.6667, LR+ = (1/3)/0 infinite (undef),
LR− = (2/3)/(4/4) = 0.6667, DOR = 1·4/(0·2) infinite (undef); and the
"Infinite" line: DOR of b is 2·3/(2·0), also infinite, LR+ of b = 1/(2/5) finite.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

import clfeval
from clfeval.render import render
from clfeval.studies._demo import run_demo
from tests._helpers import mc
from tests._helpers.goldenpins import text_diff

GOLDEN = Path(__file__).parents[1] / "_helpers" / "golden"


def small_report():
    return clfeval.report(["a", "a", "b", "b", "c", "c", "c"], ["a", "b", "b", "b", "c", "a", "b"],
                          ids=[f"d{i}" for i in range(7)], positive="c", show_errors=3)


def test_report_text_golden():
    assert render(small_report(), "text", width=80) == (GOLDEN / "report_small.txt").read_text()


def test_report_markdown_golden():
    assert render(small_report(), "markdown") == (GOLDEN / "report_small.md").read_text()


def test_demo_matrix_golden():
    assert render(run_demo("matrix"), "text", width=80) == (GOLDEN / "demo_matrix.txt").read_text()


def test_json_is_strict_and_nan_is_null():
    r = clfeval.report(["a", "b"], ["a", "a"], zero_division="nan")
    text = render(r, "json")
    def refuse(token):
        raise AssertionError(f"non-standard JSON constant {token}")

    d = json.loads(text, parse_constant=refuse)  # strict JSON: no NaN / Infinity tokens
    assert d["per_class"]["b"]["precision"] is None


def test_wide_tables_fold_and_are_never_cut():
    # issue 19: a table wider than the width folds into parts of consecutive columns, each with the row names;
    # every number is printed whole (formerly the table was printed whole past the width)
    labels = [f"class-{i:02d}" for i in range(12)]
    r = clfeval.report(labels * 3, labels[1:] + labels[:1] + labels * 2, beta=2)
    for width in (40, 80):
        text = render(r, "text", width=width)
        assert max(len(line) for line in text.splitlines()) <= width
        per_class = text.split("Per class")[1].split("Averages over classes")[0]
        for lab in labels:
            rows = [line for line in per_class.splitlines() if line.startswith(lab + " ")]
            assert len(rows) >= 2  # folded: the row name repeated in every part
            numbers = [tok for row in rows for tok in row.split() if tok.count(".") == 1]
            assert len(numbers) == 8, rows  # P R F1 F2 spec FPR δ φ, each whole
            assert all(re.fullmatch(r"-?\d\.\d{4}", tok) for tok in numbers), numbers


def test_demo_threshold_golden():
    # checked by hand: every sweep row recounted (e.g. top 7: P 3/7, F1 6/10, FPR 4/7); 186 = 96 + 90 pairs in order
    assert render(run_demo("threshold"), "text", width=80) == (GOLDEN / "demo_threshold.txt").read_text()


def example_11():
    gold = ["yes"] * 10
    return gold, ["yes"] * 7 + ["no"] * 3, ["yes"] * 5 + ["no"] * 5


# Issue 39: the bootstrap numbers of the two compare goldens are distribution pins. Each system's accuracy over the
# 10 items resampled is exactly Bin(10, p)/10 (A 7 right: p = 0.7, B 5 right: 0.5), and δ = A − B is Bin(10, 0.2)/10
# (A right and B wrong on 2 items, equal on the others); their percentile ends must lie in the band of the exact
# quantiles at 1,000 replicates, the BCa ends in the band at BCa's adjusted levels (tests/_helpers/mc.py). Every
# other number (accuracies, McNemar's exact test, its bound) and every word is compared exactly.
B = 1000
RIGHT_A, RIGHT_B = np.array([1.0] * 7 + [0.0] * 3), np.array([1.0] * 5 + [0.0] * 5)


def _percentile(right):
    ref = mc.binomial_proportion(right.size, float(right.mean()))
    return {1: lambda v, _: mc.assert_quantile(v, ref, 0.025, B, "95% low"),
            2: lambda v, _: mc.assert_quantile(v, ref, 0.975, B, "95% high")}


def _bca(right, first):
    ref = mc.binomial_proportion(right.size, float(right.mean()))
    a = mc.jackknife_acceleration(np.mean, (right,))
    theta = float(right.mean())
    return {first: lambda v, _: mc.assert_bca(v, ref, theta, a, 0.025, B, "BCa low"),
            first + 1: lambda v, _: mc.assert_bca(v, ref, theta, a, 0.975, B, "BCa high")}


def _checks(label, table):
    return {(label, k): f for k, f in table.items()}


def test_compare_text_golden():
    # Checked by hand: n_AB = 2, n_BA = 0 → one-sided P(X ≥ n_AB | Bin(2, ½)) = 0.25, two-sided 0.5,
    # χ² = (|2 − 0| − 1)² / 2 = 0.5 with p 0.4795; percentile intervals = quantiles of Bin(10, 0.7)/10
    # (0.4, 1.0), Bin(10, 0.5)/10 (0.2, 0.8) and Bin(10, 0.2)/10 for δ (0.0, 0.5).
    # Issue 18: the bound McNemar's test inverts: π_L = Beta⁻¹(0.05; 2, 1) = √0.05 = 0.2236 (Beta(2, 1) has
    # CDF x²), δ ≥ (2·0.2236 − 1)·2/10 = −0.1106; the two-sided intervals are captioned as estimates.
    gold, a, b = example_11()
    r = clfeval.compare(gold, a, b, test="mcnemar", samples=B, seed=0, names=("new", "old"))
    checks = {}
    for label, right in (("A: new", RIGHT_A), ("B: old", RIGHT_B), ("δ = A − B", RIGHT_A - RIGHT_B)):
        checks |= _checks(label, _percentile(right) | _bca(right, 3))
    want = (GOLDEN / "compare_mcnemar.txt").read_text()
    assert text_diff(render(r, "text", width=80), want, checks) == []
    # can fail: a changed exact number, or a resampled one out of its band (A's 95% low 0.4 → 0.5: P(X ≤ 4) = 0.047)
    assert text_diff(want.replace("0.2500", "0.2501"), want, checks)
    assert text_diff(want.replace("A: new        0.7000    0.4000", "A: new        0.7000    0.5000"), want, checks)


def test_compare_many_markdown_golden():
    # Checked by hand: x vs z, 2δ = 1.4 is out of reach → p = 0 shown as < 1/b, Holm < 2/b;
    # y vs z, 2δ = 1.0 needs all ten draws among y's five right documents: P = 1/1024 (3 of 1,000 here).
    # Issue 18: δ's interval is the default estimate, BCa; z is always wrong, so x − z is x's accuracy and its
    # BCa interval [0.4, 0.9] is the one compare_mcnemar.txt shows for A (same data, seed and replicates).
    gold, a, b = example_11()
    m = clfeval.compare_many(gold, {"x": a, "y": b, "z": ["no"] * 10}, baseline="z", samples=B, seed=0)

    def p_of(exact, family=1):
        return lambda v, shown_below: mc.assert_p_value(0.0 if shown_below else v, exact, B // family, what="p")

    checks = (_checks("| x |", _percentile(RIGHT_A)) | _checks("| y |", _percentile(RIGHT_B))
              | _checks("| z |", _percentile(np.zeros(10)))
              | _checks("| x | z |", _bca(RIGHT_A, 1) | {3: p_of(0.0), 4: p_of(0.0, 2)})
              | _checks("| y | z |", _bca(RIGHT_B, 1) | {3: p_of(1 / 1024), 4: p_of(1 / 1024, 2)}))
    want = (GOLDEN / "compare_many.md").read_text()
    verdicts = ("x's accuracy", "y's accuracy")
    assert text_diff(render(m, "markdown"), want, checks, verdicts) == []
    assert text_diff(want.replace("| 0.0030 | 0.0030 |", "| 0.0300 | 0.0300 |"), want, checks, verdicts)
    assert text_diff(want.replace("0.003 < 0.01: unlikely", "0.003 < 0.01: likely"), want, checks, verdicts)
    moved = want.replace("| 0.0030 | 0.0030 |", "| 0.0010 | 0.0010 |").replace(
        "p = 0.003 < 0.01: unlikely", "p < 0.005: unlikely")  # another draw: p = 1/1,000, the clause reworded
    assert text_diff(moved, want, checks, verdicts) == []
