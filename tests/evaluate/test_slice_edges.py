"""Issue 35: the edges of slicing. One rule for a missing slice value whatever the format; the gap to an empty rest;
bins with infinities, bounded, in numeric order in every output; and the tests item 5 asks for (each fails when
its bug is planted: ``>`` for ``>=`` at min_slice, the effect's sign of a lower-is-better metric, the side of a
bin edge, trials read for items)."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import clfeval
from clfeval.errors import DataError, UsageError
from clfeval.render import render

GOLD = ["a", "b"] * 20
PRED = ["a", "a"] * 20


def _names(rep):
    return [(s["slice"], s["n"]) for s in rep.to_dict()["slices"]["slices"]]


# --- one rule for a missing value -----------------------------------------------------------------------------------


def _missing_forms():
    """The same column -- 'x' in the first 30 rows, missing in the last 10 -- in every form a user may give it."""
    import pandas as pd
    import polars as pl

    n_x, n_m = 30, 10
    return {
        "None": ["x"] * n_x + [None] * n_m,
        "empty text": ["x"] * n_x + [""] * n_m,
        "pyarrow null": pa.array(["x"] * n_x + [None] * n_m),
        "pandas NA": pd.Series(["x"] * n_x + [pd.NA] * n_m, dtype="string"),
        "categorical NaN": pd.Categorical(["x"] * n_x + [None] * n_m),
        "polars null": pl.Series(["x"] * n_x + [None] * n_m),
        "dictionary with empty text": pa.array(["x"] * n_x + [""] * n_m).dictionary_encode(),
    }


@pytest.mark.parametrize("form", list(_missing_forms()))
def test_a_missing_value_is_the_missing_slice_in_every_form(form):
    col = _missing_forms()[form]
    assert _names(clfeval.report(GOLD, PRED, by={"s": col})) == [("x", 30), ("(missing)", 10)]


def test_a_float_nan_is_missing_beside_numbers():
    col = [1.0] * 30 + [float("nan")] * 10
    assert _names(clfeval.report(GOLD, PRED, by={"s": col})) == [("1", 30), ("(missing)", 10)]
    assert _names(clfeval.report(GOLD, PRED, by={"s": np.array(col)})) == [("1", 30), ("(missing)", 10)]


@pytest.mark.parametrize("values", [[None] * 40, [""] * 40, [float("nan")] * 40], ids=["None", "empty", "nan"])
def test_a_column_missing_in_every_row_is_refused_naming_it(values):
    with pytest.raises(DataError, match="column 'allgone'.*null in every row"):
        clfeval.report(GOLD, PRED, by={"allgone": values})
    with pytest.raises(DataError, match="column 'allgone'.*null in every row"):
        clfeval.report(GOLD, PRED, find_slices={"allgone": values})


def test_csv_empty_cells_and_parquet_nulls_and_nan_give_the_same_slices(tmp_path, dask_client):
    rows = ["gold,pred,s,v"] + [f"{g},{p},{'x' if i < 30 else ''},{i if i < 35 else ''}"
                                for i, (g, p) in enumerate(zip(GOLD, PRED, strict=True))]
    (tmp_path / "d.csv").write_text("\n".join(rows) + "\n")
    pq.write_table(pa.table({"gold": GOLD, "pred": PRED, "s": ["x"] * 30 + [None] * 10,
                             "v": [float(i) for i in range(35)] + [float("nan")] * 5}), tmp_path / "d.parquet")
    want = [("x", 30), ("(missing)", 10)]
    for path in ("d.csv", "d.parquet"):
        p = str(tmp_path / path)
        assert _names(clfeval.report(p, by="s")) == want
        assert _names(clfeval.report(p, by="s", engine=clfeval.Local(memory="64KiB"))) == want
    assert _names(clfeval.report(str(tmp_path / "d.parquet"), by="s", engine=clfeval.Dask(client=dask_client))) == want
    binned = [_names(clfeval.report(str(tmp_path / p), by="v", by_bins=2, by_binning="uniform"))
              for p in ("d.csv", "d.parquet")]
    # 0..34 in two equal-width bins: [0, 17) holds 17 values, [17, 34] 18; the empty cells and NaN are missing
    assert binned[0] == binned[1] == [("[0, 17)", 17), ("[17, 34]", 18), ("(missing)", 5)]


# --- the gap to an empty rest ----------------------------------------------------------------------------------------


def test_one_slice_holding_every_item_has_an_undefined_gap_to_the_rest():
    rep = clfeval.report(["a", "b", "b"] * 20, ["a", "a", "b"] * 20, by={"s": ["k"] * 60}, positive="a")
    (row,) = rep.to_dict()["slices"]["slices"]
    assert row["gap_to_rest"] == {m: None for m in ("recall:a", "precision:a", "fpr:a", "accuracy")}
    assert {"gap_to_rest:recall:a", "gap_to_rest:accuracy"} <= set(row["undefined"])
    assert row["gap_to_overall"]["accuracy"] == 0.0  # the overall value is defined: its gap is 0
    assert json.loads(render(rep, "json"))["slices"]["slices"][0]["gap_to_rest"]["accuracy"] is None
    for fmt in ("text", "markdown"):
        out = render(rep, fmt)
        line = next(x for x in out.splitlines() if x.lstrip("| ").startswith("k "))
        assert "undef" in line and "0.6667" not in line  # not the slice's own accuracy (40 of 60)
    f = rep.slices.to_frame()
    assert np.isnan(f.loc[f["metric"] == "accuracy", "gap_to_rest"].iloc[0])
    two = clfeval.report(["a", "b", "b"] * 20, ["a", "a", "b"] * 20, by={"s": ["k", "m", "k"] * 20}, positive="a")
    assert all(v is not None for r in two.to_dict()["slices"]["slices"] for v in r["gap_to_rest"].values())


# --- bins: infinities, bounds, numeric order ---------------------------------------------------------------------


def test_infinities_are_bins_of_their_own_below_and_above_the_finite_bins():
    v = np.array([-np.inf, 1.0, np.inf] * 10)
    rep = clfeval.report(["a", "b"] * 15, ["a", "a"] * 15, by={"v": v}, by_bins=3, min_slice=1)
    assert _names(rep) == [("-inf", 10), ("[1, 1]", 10), ("inf", 10)]
    (b,) = rep.to_dict()["slices"]["binning"]
    assert b["edges"] == [1.0, 1.0] and b["infinite"] == ["-inf", "inf"]
    line = next(x for x in render(rep, "text").splitlines() if "cut into" in x)
    assert line == "Column v cut into 3 bins: -inf, 1 quantile bin of its finite values (edges: 1, 1), inf."
    rng = np.random.default_rng(5)
    x = rng.normal(size=2_000)
    x[:7], x[7:10] = np.inf, -np.inf
    sec = clfeval.report(["a", "b"] * 1_000, ["a", "a"] * 1_000, by={"v": x}, by_bins=4).to_dict()["slices"]
    finite = x[np.isfinite(x)]
    assert sec["binning"][0]["edges"] == pytest.approx(list(np.quantile(finite, [0, 0.25, 0.5, 0.75, 1])))
    sizes = [(s["slice"], s["n"]) for s in sec["slices"]]
    assert sizes[0] == ("-inf", 3) and sizes[-1] == ("inf", 7) and [n for _, n in sizes[1:-1]] == [498, 497, 497, 498]


def test_by_bins_is_bounded_and_the_edges_shown_are_too():
    from clfeval.core import SliceBinning

    v = np.arange(40.0)
    with pytest.raises(UsageError, match="from 1 to 10,000; got 1000000"):
        clfeval.report(GOLD, PRED, by={"v": v}, by_bins=1_000_000)
    with pytest.raises(UsageError, match="2,000 bins, more than option max_slices allows \\(1,000\\)"):
        clfeval.report(GOLD, PRED, by={"v": v}, by_bins=2_000)
    with pytest.raises(UsageError, match="more than option max_search allows \\(100\\)"):
        clfeval.report(GOLD, PRED, find_slices={"v": v}, by_bins=101, max_search=100)
    many = SliceBinning("v", "uniform", tuple(float(i) for i in range(10_001)))
    text = many.describe()
    assert len(text) < 200 and "… (9,989 more) …" in text and text.endswith("9999, 10000.")


def _numeric_order_data():
    """Lengths whose quartile bins read [9, 40), [40, 66), [66, 109), [109, 837]: text order puts 109 first."""
    length = np.repeat([9, 40, 66, 109, 837], [20, 20, 20, 20, 1]).astype(float)  # quartiles at 40, 66, 109
    gold = np.where(np.arange(81) % 2 == 0, "a", "b")
    pred = np.where(np.arange(81) % 3 == 0, "b", gold)
    return gold, pred, length


def test_bins_come_in_numeric_order_in_every_output_and_result():
    from clfeval.render.html import page

    gold, pred, length = _numeric_order_data()
    want = ["[9, 40)", "[40, 66)", "[66, 109)", "[109, 837]"]
    assert sorted(want) != want  # text order differs
    rep = clfeval.report(gold, pred, by={"length": length}, by_bins=4, min_slice=1)
    assert [s for s, _ in _names(rep)] == want
    assert list(dict.fromkeys(rep.slices.to_frame()["slice"])) == want
    assert [s["slice"] for s in json.loads(render(rep, "json"))["slices"]["slices"]] == want
    for out in (render(rep, "text"), render(rep, "markdown"), page(rep)):
        table = out[out.index("Δ rest"):]  # the slice table (Markdown escapes the brackets)
        at = [table.index(w.strip("[]")) for w in want]
        assert at == sorted(at)
    cmp = clfeval.compare(gold, pred, gold, by={"length": length}, by_bins=4, samples=100)
    assert [s.slice for s in cmp.slices] == want and list(cmp.to_frame()["slice"]) == want
    probs = np.where(pred == "a", 0.8, 0.3)
    cal = clfeval.calibration(gold, probs, positive="a", by={"length": length}, by_bins=4)
    assert [s.slice for s in cal.slices.rows] == want


def test_find_slices_counts_keep_bins_in_numeric_order():
    from clfeval.core import LatticeCounter
    from clfeval.slicing import slice_binning

    gold, pred, length = _numeric_order_data()
    t = pa.table({"gold": gold, "pred": pred, "length": length})
    binning = slice_binning([t], ["length"], bins=4, kind="quantile")
    lc = LatticeCounter([("length",)], "accuracy", binning=binning)
    lc.update({"length": t.column("length")}, (gold == "a").astype(int), (pred == "a").astype(int), ["b", "a"])
    (props,) = lc.result()
    assert [k[0] for k in props.keys] == ["[9, 40)", "[40, 66)", "[66, 109)", "[109, 837]"]


# --- item 5: the tests that catch planted bugs -----------------------------------------------------------------------


def test_a_slice_of_exactly_min_slice_items_is_tested():
    gold = ["a", "b"] * 40
    pred = ["a", "a"] * 40
    by = {"s": ["x"] * 30 + ["y"] * 50}
    rows = {r["slice"]: r for r in clfeval.report(gold, pred, by=by, min_slice=30).to_dict()["slices"]["slices"]}
    assert not rows["x"]["small"] and "accuracy" in rows["x"]["tests"]
    rows = {r["slice"]: r for r in clfeval.report(gold, pred, by=by, min_slice=31).to_dict()["slices"]["slices"]}
    assert rows["x"]["small"] and rows["x"]["tests"] == {}


def test_min_slice_requirement_ignores_slices_below_min_slice():
    from clfeval.evaluate._requirements import check_requirements

    # x: 10 positives, none found (recall 0); y: 50 positives, 30 found (0.6); z: 50 positives, 45 found (0.9)
    gold = ["pos"] * 110 + ["neg"] * 30
    pred = ["neg"] * 10 + ["pos"] * 30 + ["neg"] * 20 + ["pos"] * 45 + ["neg"] * 5 + ["neg"] * 30
    by = ["x"] * 10 + ["y"] * 50 + ["z"] * 50 + ["x"] * 10 + ["y"] * 10 + ["z"] * 10
    rep = clfeval.report(gold, pred, by={"s": by}, positive="pos", min_slice=30)
    (cond,) = check_requirements(rep, ["min_slice(recall:pos)>=0.5"]).conditions
    assert cond["value"] == pytest.approx(0.6) and cond["met"]


def _lower_is_better_data(seed: int = 9):
    """Column a of 5 values; a0 has recall 0.6 (else 0.9) and FPR 0.3 (else 0.1)."""
    rng = np.random.default_rng(seed)
    n = 20_000
    a = rng.choice([f"a{i}" for i in range(5)], n)
    gold = rng.integers(0, 2, n)
    bad = a == "a0"
    hit = rng.random(n) < np.where(bad, 0.6, 0.9)
    false_alarm = rng.random(n) < np.where(bad, 0.3, 0.1)
    pred = np.where(gold == 1, hit, false_alarm).astype(int)
    return gold, pred, {"a": a, "b": rng.choice(["b0", "b1", "b2"], n)}


@pytest.mark.parametrize("lower, higher", [("error_rate", "accuracy"), ("fpr:1", "specificity:1"),
                                           ("fnr:1", "recall:1")])
def test_a_lower_is_better_metric_finds_what_its_complement_finds(lower, higher):
    gold, pred, cols = _lower_is_better_data()
    low = clfeval.report(gold, pred, find_slices=cols, find_metric=lower).find_slices
    high = clfeval.report(gold, pred, find_slices=cols, find_metric=higher).find_slices
    assert low.found and low.found[0].slice == "a=a0"
    assert [f.slice for f in low.found] == [f.slice for f in high.found]
    top, mirror = low.found[0], high.found[0]
    assert top.effect_h > 0 and top.gap > 0 and mirror.gap < 0
    assert top.effect_h == pytest.approx(mirror.effect_h) and top.p_value == pytest.approx(mirror.p_value)


def test_a_value_on_an_inner_bin_edge_goes_to_the_upper_bin():
    v = np.array([0, 1, 2, 3, 4] * 2, dtype=float)
    rep = clfeval.report(["a", "b"] * 5, ["a", "a"] * 5, by={"v": v}, by_bins=4, by_binning="uniform", min_slice=1)
    assert _names(rep) == [("[0, 1)", 2), ("[1, 2)", 2), ("[2, 3)", 2), ("[3, 4]", 4)]


def test_the_found_rule_reads_items_not_trials():
    """recall:1 in a slice of 40 items of which 20 are positive (20 trials), none of them found; min_slice 30: the
    slice has enough items to be found although it has fewer trials than min_slice."""
    n = 2_000
    a = np.array(["s0"] * 40 + ["s1"] * (n - 40))
    gold = np.array([1, 0] * (n // 2))
    rng = np.random.default_rng(1)
    pred = np.where(gold == 1, rng.random(n) < 0.9, 0).astype(int)
    pred[:40] = 0
    fs = clfeval.report(gold, pred, find_slices={"a": a}, find_metric="recall:1", min_slice=30, max_depth=1).find_slices
    top = fs.found[0]
    assert (top.slice, top.items, top.trials, top.successes) == ("a=s0", 40, 20, 0)


def test_column_names_with_arrays_name_the_parameter():
    for kw, name in ((dict(find_slices="s"), "find_slices"), (dict(by="s"), "by"),
                     (dict(find_slices=["s", "t"]), "find_slices")):
        with pytest.raises(UsageError, match=f"option {name} names columns .* arrays, not a table"):
            clfeval.report(GOLD, PRED, **kw)
