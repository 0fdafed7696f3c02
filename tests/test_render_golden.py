"""Golden text of the renderers.

The golden files were read and checked by hand when first written (every number
of report_small was recomputed on paper: e.g. kappa 13/34 = 0.3824, MCC
13/sqrt(28·32) = 0.4343, stratified baseline accuracy 17/49 = 0.3469). If a
change alters them, read the diff; never regenerate them blindly.
"""

from __future__ import annotations

import json
from pathlib import Path

import clfeval
from clfeval.demo import run_demo
from clfeval.render import render

GOLDEN = Path(__file__).parent / "golden"


def small_report():
    return clfeval.report(["a", "a", "b", "b", "c", "c", "c"], ["a", "b", "b", "b", "c", "a", "b"],
                          ids=[f"d{i}" for i in range(7)], positive="c", show_errors=3)


def test_report_text_golden():
    assert render(small_report(), "text", width=100) == (GOLDEN / "report_small.txt").read_text()


def test_report_markdown_golden():
    assert render(small_report(), "markdown") == (GOLDEN / "report_small.md").read_text()


def test_demo_matrix_golden():
    assert render(run_demo("matrix"), "text", width=100) == (GOLDEN / "demo_matrix.txt").read_text()


def test_json_is_strict_and_nan_is_null():
    r = clfeval.report(["a", "b"], ["a", "a"], zero_division="nan")
    text = render(r, "json")
    def refuse(token):
        raise AssertionError(f"non-standard JSON constant {token}")

    d = json.loads(text, parse_constant=refuse)  # strict JSON: no NaN / Infinity tokens
    assert d["per_class"]["b"]["precision"] is None


def test_wide_tables_are_never_cut():
    labels = [f"class-{i:02d}" for i in range(12)]
    r = clfeval.report(labels * 3, labels[1:] + labels[:1] + labels * 2, beta=2)
    text = render(r, "text", width=40)
    for lab in labels:
        row = next(line for line in text.splitlines() if line.startswith(lab + " ") and "0." in line)
        # every per-class row carries all its numbers, untruncated
        assert len([tok for tok in row.split() if tok.count(".") == 1]) == 8, row  # P R F1 F2 spec FPR δ φ
