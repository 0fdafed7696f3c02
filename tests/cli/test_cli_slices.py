"""Issue 35: the slice options on the command line -- a CSV's empty cells, one slice, infinities and the bound of
--by-bins, bins in numeric order, and the messages of the slice requirement functions and --find-metric (exit code
and stderr, as a user sees them)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests._helpers.clihelp import assert_clean_error, run


@pytest.fixture(scope="module")
def sl(tmp_path_factory) -> Path:
    """300 rows as the hostile cases write them: src of three values, num numbers, const one value, partnull 'x' or
    an empty cell, allnull empty everywhere, infcol one of 1, inf, -inf."""
    rnd = random.Random(3)
    lines = ["id,gold,pred,score,src,num,const,partnull,allnull,infcol"]
    for i in range(300):
        g = rnd.choice(["pos", "neg"])
        p = g if rnd.random() < 0.8 else ("neg" if g == "pos" else "pos")
        lines.append(f"i{i},{g},{p},{rnd.random():.3f},{rnd.choice('abc')},{rnd.gauss(0, 1):.3f},5,"
                     f"{rnd.choice(['x', ''])},,{rnd.choice(['1', 'inf', '-inf'])}")
    path = tmp_path_factory.mktemp("sl") / "sl.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def _slices(r) -> list[str]:
    assert r.code == 0, r.err
    return [s["slice"] for s in json.loads(r.out)["slices"]["slices"]]


def test_an_empty_csv_cell_is_the_missing_slice_and_an_empty_column_is_refused(sl):
    assert _slices(run("report", sl, "--by", "partnull", "-f", "json")) == ["x", "(missing)"]
    assert _slices(run("report", sl, "--by", "partnull", "-f", "json", "--memory", "64KiB")) == ["x", "(missing)"]
    assert_clean_error(run("report", sl, "--by", "allnull"), 1, "column 'allnull' (option --by) is null in every row")
    assert_clean_error(run("report", sl, "--find-slices", "src,allnull"), 1, "'allnull'", "--find-slices")


def test_one_slice_prints_an_undefined_gap(sl):
    r = run("report", sl, "--by", "const")
    assert r.code == 0, r.err
    row = next(x for x in r.out.splitlines() if x.startswith("5 "))
    assert row.split()[2:4] == [row.split()[2], "undef"] and "undefined when no other item is left" in r.out
    d = json.loads(run("report", sl, "--by", "const", "-f", "json").out)["slices"]["slices"][0]
    assert set(d["gap_to_rest"].values()) == {None}


def test_infinities_get_bins_of_their_own_and_the_edges_stay_finite(sl):
    r = run("report", sl, "--by", "infcol", "--by-bins", "3")
    assert r.code == 0, r.err
    (line,) = [x for x in r.out.splitlines() if "cut into" in x]
    assert line == "Column infcol cut into 3 bins: -inf, 1 quantile bin of its finite values (edges: 1, 1), inf."
    assert _slices(run("report", sl, "--by", "infcol", "--by-bins", "3", "-f", "json")) == ["-inf", "[1, 1]", "inf"]


def test_by_bins_is_bounded(sl):
    assert_clean_error(run("report", sl, "--by", "num", "--by-bins", "1000000"), 2,
                       "option --by-bins must be a whole number of bins from 1 to 10,000")
    assert_clean_error(run("report", sl, "--by", "num", "--by-bins", "5000"), 2,
                       "5,000 bins, more than option --max-slices allows (1,000)")
    r = run("report", sl, "--by", "num", "--by-bins", "5000", "--max-slices", "6000")
    assert r.code == 0, r.err
    text = " ".join(r.out.split())
    line = text[text.index("Column num cut into"):]
    line = line[:line.index(". ") + 1]
    assert len(line) < 250 and "more) …" in line and line.startswith("Column num cut into ")


def test_by_bins_in_numeric_order_in_the_text(sl, tmp_path):
    lengths = [9] * 20 + [40] * 20 + [66] * 20 + [109] * 20 + [837]
    rows = ["gold,pred,length"] + [f"{'ab'[i % 2]},{'ab'[i % 3 == 0]},{v}" for i, v in enumerate(lengths)]
    (tmp_path / "len.csv").write_text("\n".join(rows) + "\n")
    r = run("report", tmp_path / "len.csv", "--by", "length", "--by-bins", "4", "--min-slice", "1")
    assert r.code == 0, r.err
    firsts = [x.split()[0] + " " + x.split()[1] for x in r.out.splitlines() if x.startswith("[")]
    assert firsts == ["[9, 40)", "[40, 66)", "[66, 109)", "[109, 837]"]


def test_slice_requirement_hints_lead_somewhere(sl):
    r = run("report", sl, "--by", "src", "--positive", "pos", "--require", "min_slice(roc_auc)>=0.5")
    assert_clean_error(r, 2, "min_slice(roc_auc)", "--score")
    assert "--slice-metric" not in r.err
    r = run("report", sl, "--by", "src", "--require", "min_slice(recall:nope)>=0.5")
    assert_clean_error(r, 2, "class 'nope'", "its classes are: neg, pos")
    assert "--slice-metric" not in r.err
    r = run("report", sl, "--by", "src", "--require", "min_slice(npv:pos)>=0.5")
    assert_clean_error(r, 2, "add --slice-metric npv:pos")
    ok = run("report", sl, "--by", "src", "--require", "min_slice(npv:pos)>=0.1", "--slice-metric", "npv:pos")
    assert ok.code == 0, ok.err


def test_find_metric_of_a_missing_class_names_the_option(sl):
    assert_clean_error(run("report", sl, "--find-slices", "src", "--find-metric", "recall:nope"), 2,
                       "option --find-metric 'recall:nope'", "no class 'nope'")
