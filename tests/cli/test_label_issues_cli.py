"""``clfeval label-issues`` on the command line: the hand case in every format, ``--flagged`` sorted and never over
an input, bad input in one sentence without a traceback and nothing half-written."""

from __future__ import annotations

import csv
import json

import pyarrow.parquet as pq
import pytest

from tests._helpers.clihelp import assert_clean_error, run

# the hand case of tests/ops/test_label_issues_rule.py: t = (2/3, 3/4); item x12 (row 2) given a, p(b) = 3/4: the
# one label error (round(6 · 1/6) = 1), suggested b
ROWS = [("x10", "a", 1, 0), ("x11", "a", .75, .25), ("x12", "a", .25, .75), ("x13", "b", .25, .75),
        ("x14", "b", 0, 1), ("x15", "b", .5, .5)]


@pytest.fixture
def probs(tmp_path):
    path = tmp_path / "probs.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "gold", "p:a", "p:b"])
        w.writerows(ROWS)
    return path


def test_text_json_markdown_html(probs, tmp_path):
    text = run("label-issues", probs)
    assert text.code == 0, text.err
    assert "6 items, 2 classes: 1 likely label error estimated, 1 flagged" in text.out
    assert "Northcutt, Jiang & Chuang 2021" in text.out
    assert "x12" in text.out and "Noise matrix" in text.out
    d = json.loads(run("label-issues", probs, "-f", "json").out)
    assert d["thresholds"] == {"a": 2 / 3, "b": 0.75}
    assert d["confident_joint"] == [[2, 1], [0, 2]] and d["estimated_errors"] == 1
    assert d["flagged"] == [{"row": 2, "id": "x12", "given": "a", "suggested": "b", "self_confidence": 0.25,
                             "normalized_margin": -0.5}]
    md = run("label-issues", probs, "-f", "markdown")
    assert md.code == 0 and "| 1 | x12 | 2 | a | b | 0.2500 | -0.5000 |" in md.out
    page = tmp_path / "page.html"
    assert run("label-issues", probs, "-o", page).code == 0
    assert "x12" in page.read_text(encoding="utf-8")


def test_flagged_is_written_ranked_as_csv_or_parquet(probs, tmp_path):
    out = tmp_path / "flagged.csv"
    assert run("label-issues", probs, "--flagged", out, "-f", "json").code == 0
    rows = list(csv.DictReader(out.open()))
    assert [(r["rank"], r["id"], r["given"], r["suggested"]) for r in rows] == [("1", "x12", "a", "b")]
    pout = tmp_path / "flagged.parquet"
    assert run("label-issues", probs, "--flagged", pout, "--rank-by", "normalized_margin", "-f", "json").code == 0
    assert pq.read_table(pout).column_names == ["rank", "row", "id", "given", "suggested", "self_confidence",
                                                "normalized_margin"]


def test_flagged_never_over_an_input_nor_of_another_format(probs, tmp_path):
    before = probs.read_text()
    assert_clean_error(run("label-issues", probs, "--flagged", probs), 2, "--flagged", "input")
    assert probs.read_text() == before
    assert_clean_error(run("label-issues", probs, "--flagged", tmp_path / "f.txt"), 2, "--flagged writes")


@pytest.mark.parametrize("edit, code, words", [
    (lambda r: r[:3] + [("x13", "b", "nan", .75)] + r[4:], 1, "'p:a' holds nan"),
    (lambda r: r[:3] + [("x13", "b", .25, .70)] + r[4:], 1, "sum to 0.95, not 1"),
    (lambda r: r[:5] + [("x15", "c", .5, .5)], 1, "have no score column"),
    (lambda r: r[:5] + [("x10", "b", .5, .5)], 1, "ids must be unique"),
])
def test_bad_input_one_sentence_nothing_written(tmp_path, edit, code, words):
    path = tmp_path / "bad.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "gold", "p:a", "p:b"])
        w.writerows(edit(list(ROWS)))
    out, flagged = tmp_path / "out.json", tmp_path / "flagged.csv"
    res = run("label-issues", path, "-o", out, "--flagged", flagged)
    assert_clean_error(res, code, words)
    assert not out.exists() and not flagged.exists()


def test_options_and_engines_are_checked(probs):
    assert_clean_error(run("label-issues", probs, "--probs-prefix", "q:"), 1, "option --probs-prefix")
    big = probs.parent / "big.csv"
    with open(big, "w", newline="") as fh:  # 1,200 stories: beyond a budget of 4,096 bytes
        w = csv.writer(fh)
        w.writerow(["id", "gold", "p:a", "p:b"])
        w.writerows((f"{r[0]}-{k}", *r[1:]) for k in range(200) for r in ROWS)
    same = [json.loads(run("label-issues", big, "-f", "json", *m).out) for m in ([], ["--memory", "4096"])]
    assert same[0].pop("engine")["mode"] == "memory" and same[1].pop("engine")["mode"] == "streamed"
    assert same[0] == same[1]
    assert run("label-issues", probs, "--rank-by", "margin").code == 2
