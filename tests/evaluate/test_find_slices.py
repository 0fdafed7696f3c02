"""Issue 27: the slice search (SliceFinder-style) under Benjamini–Yekutieli control."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency, fisher_exact
from statsmodels.stats.multitest import multipletests

import clfeval
from clfeval.errors import DataError, UsageError
from clfeval.significance._classic import benjamini_yekutieli
from tests._helpers.slicedata import grid_tables


def find_slices(gold, pred, columns, *, metric=None, bins=None, **kw):
    """The search through the front door: the report's find_slices section."""
    rep = clfeval.report(gold, pred, find_slices=columns, find_metric=metric, by_bins=bins, **kw)
    return rep.find_slices.to_dict()


def planted(seed: int = 1, n: int = 20_000):
    """Four columns of 5 values; the cross a=a0 ∧ b=b0 (5% of the rows) has recall 20 points lower."""
    rng = np.random.default_rng(seed)
    cols = {c: rng.choice([f"{c}{i}" for i in range(5)], n) for c in "abcd"}
    # make the planted cross exactly 5% of the rows
    idx = rng.permutation(n)
    inside = idx[: n // 20]
    cols["a"][inside], cols["b"][inside] = "a0", "b0"
    outside = idx[n // 20:]
    clash = (cols["a"][outside] == "a0") & (cols["b"][outside] == "b0")
    cols["b"][outside[clash]] = "b1"
    gold = rng.integers(0, 2, n)
    in_slice = (cols["a"] == "a0") & (cols["b"] == "b0")
    recall = np.where(in_slice, 0.70, 0.90)
    hit = rng.random(n) < recall
    pred = np.where(gold == 1, np.where(hit, 1, 0), np.where(rng.random(n) < 0.1, 1, 0))
    return gold, pred, cols


def test_planted_cross_is_ranked_first():
    gold, pred, cols = planted()
    r = find_slices(gold, pred, cols, positive=1)
    assert r["metric"] == "recall:1"
    assert r["found"] and r["found"][0]["slice"] == "a=a0 ∧ b=b0", [f["slice"] for f in r["found"][:5]]
    top = r["found"][0]
    assert top["items"] == 1000 and top["p_adjusted"] <= 0.05 and top["gap"] < -0.1
    assert r["examined"] == 20 + 6 * 25      # every single value and every cross is non-empty here
    d = r
    assert d["survived"] == len(d["found"]) + len(d["dropped"]) + len(d["explained"]) and d["examined"] == 170


def test_values_against_independent_oracles():
    gold, pred, cols = planted(seed=3, n=4000)
    r = find_slices(gold, pred, {"a": cols["a"], "b": cols["b"]}, positive=1, min_slice=1, find_alpha=0.999999)
    rows = r["found"] + r["dropped"]
    assert rows
    p_all = []
    for row in rows:
        mask = np.ones(len(gold), bool)
        for c, v in zip(row["columns"], row["values"], strict=True):
            mask &= cols[c] == v
        pos = gold == 1
        s, n = int(((pred == 1) & pos & mask).sum()), int((pos & mask).sum())
        s2, n2 = int(((pred == 1) & pos & ~mask).sum()), int((pos & ~mask).sum())
        assert (row["successes"], row["trials"]) == (s, n)
        assert row["value"] == pytest.approx(s / n) and row["rest_value"] == pytest.approx(s2 / n2)
        table = [[s, n - s], [s2, n2 - s2]]
        if row["test"] == "chi2":
            want = chi2_contingency(table, correction=False).pvalue
        else:
            want = fisher_exact(table).pvalue
        assert row["p_value"] == pytest.approx(want, rel=1e-9)
        h = 2 * np.arcsin(np.sqrt(s2 / n2)) - 2 * np.arcsin(np.sqrt(s / n))
        assert row["effect_h"] == pytest.approx(h)
        p_all.append(row["p_value"])


def test_by_adjustment_equals_statsmodels():
    rng = np.random.default_rng(5)
    p = rng.random(200) ** 3
    np.testing.assert_allclose(benjamini_yekutieli(p), multipletests(p, method="fdr_by")[1], rtol=1e-12)
    # by hand: m = 3, c(3) = 11/6; sorted 0.01, 0.03, 0.04 -> 3·c·p/i = 0.055, 0.0825, 0.0733; step-up minimum
    np.testing.assert_allclose(benjamini_yekutieli([0.01, 0.04, 0.03]), [0.055, 0.07333333, 0.07333333], rtol=1e-6)
    assert np.isnan(benjamini_yekutieli([np.nan, 0.5])[0])


def test_no_effect_false_discoveries_bounded():
    """200 seeded runs without any slice effect: runs with a discovery ≤ 17 (0.99 quantile of Bin(200, 0.05))."""
    runs_with_discovery = 0
    for seed in range(200):
        rng = np.random.default_rng(10_000 + seed)
        n = 10_000
        cols = {c: rng.integers(0, 5, n) for c in "abcd"}
        gold = rng.integers(0, 2, n)
        pred = np.where(rng.random(n) < 0.8, gold, 1 - gold)
        r = find_slices(gold, pred, cols, positive=1)
        runs_with_discovery += bool(r["found"] or r["dropped"] or r["explained"])
    assert runs_with_discovery <= 17


def test_parent_explains_child():
    """Every cross inside a bad single value is worse than the rest, but no worse than the rest of its parent."""
    rng = np.random.default_rng(7)
    n = 20_000
    a = rng.choice(["x", "y", "z", "w"], n)
    b = rng.choice(["p", "q"], n)
    gold = np.ones(n, dtype=int)
    pred = np.where(rng.random(n) < np.where(a == "x", 0.6, 0.9), 1, 0)
    r = find_slices(gold, pred, {"a": a, "b": b}, positive=1)
    assert r["found"][0]["slice"] == "a=x"
    assert {d["slice"] for d in r["dropped"]} == {"a=x ∧ b=p", "a=x ∧ b=q"}
    assert all(d["explained_by"] == "a=x" for d in r["dropped"])
    assert all(len(f["columns"]) == 1 for f in r["found"])


def test_small_slices_never_called_worst():
    rng = np.random.default_rng(2)
    n = 5000
    a = np.where(np.arange(n) < 20, "tiny", "big")
    gold = np.ones(n, dtype=int)
    pred = np.where(a == "tiny", 0, (rng.random(n) < 0.9).astype(int))
    r = find_slices(gold, pred, {"a": a}, positive=1, max_depth=1)
    assert all(f["slice"] != "a=tiny" for f in r["found"])
    assert any("below 30 items" in note for note in r["notes"])


def test_numeric_columns_are_binned_and_stated():
    rng = np.random.default_rng(4)
    n = 6000
    length = rng.integers(1, 1000, n)
    gold = rng.integers(0, 2, n)
    pred = np.where((length < 100) & (rng.random(n) < 0.4), 1 - gold, gold)
    r = find_slices(gold, pred, {"length": length}, bins=10, max_depth=1)
    assert r["bins"]["length"] and len(r["bins"]["length"]) == 11
    assert r["found"][0]["slice"].startswith("length=[1, ")
    assert any("10 quantile bins" in note for note in r["notes"])


def test_refusals():
    gold = np.array([0, 1] * 50)
    cols = {f"c{i}": np.arange(100) % 50 for i in range(4)}
    with pytest.raises(UsageError, match="examines 500 slices in its first 100 rows, more than option max_search"):
        find_slices(gold, gold, cols, max_search=400)   # 4 columns × 50 values + 6 crosses × 50 combinations
    with pytest.raises(UsageError, match="not one"):
        find_slices(gold, gold, {"a": gold}, metric="f1:1")
    with pytest.raises(UsageError, match="no class '7'"):
        find_slices(gold, gold, {"a": gold}, metric="recall:7")
    with pytest.raises(DataError, match="null in every row"):
        find_slices(gold, gold, {"a": np.array([None] * 100, dtype=object)})
    with pytest.raises(UsageError, match="≤ 3"):
        find_slices(gold, gold, {"a": gold}, max_depth=4)


def test_rendered_in_text_markdown_json_with_user_strings_escaped():
    import json

    from clfeval.render import render

    rng = np.random.default_rng(8)
    n = 4000
    src = rng.choice(["<b>wire|x</b>", "web", "fax"], n)
    gold = rng.integers(0, 2, n)
    pred = np.where((src == "<b>wire|x</b>") & (rng.random(n) < 0.5), 1 - gold, gold)
    rep = clfeval.report(gold, pred, find_slices={"source": src}, max_depth=1)
    text = render(rep, "text")
    assert "source=<b>wire|x</b>" in text and "3 slices examined" in text
    md = render(rep, "markdown")
    assert "source=<b>wire|x</b>" not in md           # the pipe and the tag are escaped in Markdown
    d = json.loads(render(rep, "json"))["find_slices"]
    assert d["found"][0]["values"] == ["<b>wire|x</b>"] and d["examined"] == 3
    page = render(rep, "html")
    assert "<b>wire|x</b>" not in page and "&lt;b&gt;wire|x&lt;/b&gt;" in page


# --- the command line: report --find-slices ---------------------------------------------------------------


@pytest.fixture(scope="module")
def planted_csv(tmp_path_factory):
    gold, pred, cols = planted(seed=11)
    path = tmp_path_factory.mktemp("find") / "preds.csv"
    lines = ["gold,pred,a,b,c,d"] + [f"{g},{p},{a},{b},{c},{d}" for g, p, a, b, c, d in
                                     zip(gold, pred, cols["a"], cols["b"], cols["c"], cols["d"], strict=True)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_cli_finds_the_planted_cross_in_every_format(planted_csv, tmp_path):
    import json

    from tests._helpers.clihelp import run

    r = run("report", planted_csv, "--find-slices", "a,b,c,d", "--positive", "1", "--format", "json")
    assert r.code == 0, r.err
    d = json.loads(r.out)["find_slices"]
    assert d["found"][0]["slice"] == "a=a0 ∧ b=b0" and d["examined"] == 170 and d["metric"] == "recall:1"
    streamed = run("report", planted_csv, "--find-slices", "a,b,c,d", "--positive", "1", "--format", "json",
                   "--memory", "64KiB")
    assert streamed.code == 0, streamed.err
    assert json.loads(streamed.out)["find_slices"] == d
    text = run("report", planted_csv, "--find-slices", "a,b,c,d", "--positive", "1")
    assert "Slices where recall of class '1' is worst" in text.out and "a=a0 ∧ b=b0" in text.out
    page = tmp_path / "r.html"
    h = run("report", planted_csv, "--find-slices", "a,b", "--positive", "1", "--output", page)
    assert h.code == 0, h.err
    html = page.read_text()
    assert "Forest plot of the slices found" in html and "<svg" in html


@pytest.mark.parametrize("args, code, words", [
    (["--find-slices", "a,nosuch"], 1, "nosuch"),
    (["--find-slices", "a", "--find-metric", "f1:1"], 2, "not one"),
    (["--find-slices", "a,a"], 2, "names a column twice"),
    (["--find-slices", "a,b,c,d", "--max-search", "100"], 2, "more than option --max-search"),
    (["--find-slices", "a", "--max-depth", "4"], 2, "--max-depth"),
])
def test_cli_refusals_are_one_sentence(planted_csv, tmp_path, args, code, words):
    from tests._helpers.clihelp import run

    out = tmp_path / "never.json"
    r = run("report", planted_csv, "--positive", "1", "--output", out, *args)
    assert r.code == code, (r.code, r.err)
    assert words in r.err and "Traceback" not in r.err
    assert not out.exists()


# --- the parent rule, on hand-built count tables ------------------------------------------------------------




def _z_test(s1, n1, s2, n2):
    """Two-sided p of the 2×2 table by SciPy's χ² test (no continuity correction)."""
    return chi2_contingency([[s1, n1 - s1], [s2, n2 - s2]], correction=False).pvalue


def test_parent_rule_keeps_a_planted_cross_whose_columns_alone_show_nothing():
    """5 × 5 cells of 300 trials. The cross a0 ∧ b0 has 150 successes (0.5); the rest of row a0 and column b0 has
    262 or 263 (0.875), the inner cells 234 or 235 (0.78): every single value a_i and b_j has 1,200 of 1,500 =
    0.8, the overall rate, so no single value differs from its rest (p = 1). By hand: a0 ∧ b0 against the rest of
    its parent a0 is 150/300 against 1,050/1,200 = 0.875 (z = −14.5), the same for b0: kept."""
    from clfeval.slicing._slicefind import search_tables

    edge = [263, 262, 263, 262]
    inner = [[235, 234, 234, 234], [234, 235, 234, 235], [234, 234, 235, 234], [234, 235, 234, 235]]
    cells = {("a0", "b0"): (300, 150)}
    for i in range(4):
        cells[(f"a{i + 1}", "b0")] = (300, edge[i])
        cells[("a0", f"b{i + 1}")] = (300, edge[i])
        for j in range(4):
            cells[(f"a{i + 1}", f"b{j + 1}")] = (300, inner[i][j])
    tables = grid_tables(cells)
    assert set(tables[0].successes.tolist()) == {1200} and set(tables[1].successes.tolist()) == {1200}
    r = search_tables(tables, "recall:1").to_dict()
    assert [f["slice"] for f in r["found"]] == ["a=a0 ∧ b=b0"] and r["dropped"] == []
    vs = r["found"][0]["vs_parents"]
    assert [v["parent"] for v in vs] == ["b=b0", "a=a0"] or [v["parent"] for v in vs] == ["a=a0", "b=b0"]
    for v in vs:
        assert v["parent_rest_value"] == pytest.approx(1050 / 1200) and v["kept"]
        assert v["p_value"] == pytest.approx(_z_test(150, 300, 1050, 1200), rel=1e-9)
        # BY over the 2 comparisons (equal p): c(2) = 1.5, adjusted = p · 2 · 1.5 / 2
        assert v["p_adjusted"] == pytest.approx(1.5 * v["p_value"], rel=1e-9)


def test_parent_rule_drops_the_crosses_of_a_bad_single_value_with_an_unrelated_column():
    """a ∈ {a0, a1, a2}, b ∈ {b0, b1}, 200 trials per cell; a0 has 120 successes in each b (0.6), the other
    cells 180 (0.9). a0 is worse than its rest (240/400 against 720/800); each cross a0 ∧ b is worse than the
    overall rest too (120/200 against 840/1,000) but not than the rest of its parent a0 (120/200 against 120/200:
    z = 0, p = 1): both crosses are dropped, explained by a=a0. Against the rest of b (360/400 = 0.9) they are
    worse; BY over the 4 comparisons (p_b, p_b, 1, 1; c(4) = 25/12) adjusts p_b to 4 · 25/12 · p_b / 2."""
    from clfeval.slicing._slicefind import search_tables

    cells = {("a0", "b0"): (200, 120), ("a0", "b1"): (200, 120)}
    for a in ("a1", "a2"):
        for b in ("b0", "b1"):
            cells[(a, b)] = (200, 180)
    r = search_tables(grid_tables(cells), "recall:1").to_dict()
    assert [f["slice"] for f in r["found"]] == ["a=a0"]
    assert r["found"][0]["p_value"] == pytest.approx(_z_test(240, 400, 720, 800), rel=1e-9)
    assert sorted(d["slice"] for d in r["dropped"]) == ["a=a0 ∧ b=b0", "a=a0 ∧ b=b1"]
    p_b = _z_test(120, 200, 360, 400)
    for d in r["dropped"]:
        assert d["explained_by"] == "a=a0"
        by_parent = {v["parent"]: v for v in d["vs_parents"]}
        assert by_parent["a=a0"]["p_value"] == 1.0 and not by_parent["a=a0"]["kept"]
        other = by_parent["b=" + d["values"][1]]
        assert other["p_value"] == pytest.approx(p_b, rel=1e-9)
        assert other["p_adjusted"] == pytest.approx(min(1.0, 4 * 25 / 12 * p_b / 2), rel=1e-9) and other["kept"]


def test_parent_rule_adjusts_the_comparisons_with_the_parents():
    """As above, but a0 ∧ b0 (110/200) is a little worse than its sibling a0 ∧ b1 (130/200): unadjusted
    p = 0.041 ≤ 0.05 (the rule before kept it), adjusted over the 4 comparisons (tiny, tiny, p, p; the largest
    rank gives p · 4 · (25/12) / 4) 0.085 > 0.05: dropped, explained by a=a0."""
    from clfeval.slicing._slicefind import search_tables

    cells = {("a0", "b0"): (200, 110), ("a0", "b1"): (200, 130)}
    for a in ("a1", "a2"):
        for b in ("b0", "b1"):
            cells[(a, b)] = (200, 180)
    r = search_tables(grid_tables(cells), "recall:1").to_dict()
    p = _z_test(110, 200, 130, 200)
    assert 0.04 < p < 0.05
    d = {x["slice"]: x for x in r["dropped"]}["a=a0 ∧ b=b0"]
    v = {x["parent"]: x for x in d["vs_parents"]}["a=a0"]
    assert v["p_value"] == pytest.approx(p, rel=1e-9) and v["p_adjusted"] == pytest.approx(25 / 12 * p, rel=1e-9)
    assert d["explained_by"] == "a=a0" and [f["slice"] for f in r["found"]] == ["a=a0"]
