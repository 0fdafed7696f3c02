"""Issue 26: report by slice. Oracles: scikit-learn on each slice's rows, fairlearn's MetricFrame measures,
statsmodels' multipletests (Holm, BY), SciPy's chi-square and Fisher tests, hand computations."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import clfeval
from clfeval.errors import DataError, UsageError
from clfeval.render import to_json
from tests._helpers.slicedata import planted


def multiclass(n: int = 3_000, seed: int = 2) -> pa.Table:
    rng = np.random.default_rng(seed)
    gold = rng.choice(["a", "b", "c"], size=n, p=[0.5, 0.3, 0.2])
    noise = rng.choice(["a", "b", "c"], size=n)
    grp = rng.choice(["x", "y", "z"], size=n)
    lang = rng.choice(["en", "de"], size=n)
    keep = rng.random(n) < np.where(grp == "z", 0.5, 0.8)
    return pa.table({"gold": gold, "pred": np.where(keep, gold, noise), "grp": grp, "lang": lang})


def _slices(rep):
    return rep.to_dict()["slices"]


def test_per_slice_metrics_equal_scikit_learn_and_tables_add_up():
    from sklearn import metrics as skm

    t = multiclass()
    rep = clfeval.report(t, by="grp,lang")
    sec = _slices(rep)
    gold, pred = np.array(t.column("gold").to_pylist()), np.array(t.column("pred").to_pylist())
    grp, lang = np.array(t.column("grp").to_pylist()), np.array(t.column("lang").to_pylist())
    assert sec["n_slices"] == 6 and sum(r["n"] for r in sec["slices"]) == len(gold)
    for row in sec["slices"]:
        m = (grp == row["key"]["grp"]) & (lang == row["key"]["lang"])
        g, p = gold[m], pred[m]
        assert row["n"] == int(m.sum())
        assert row["metrics"]["accuracy"] == pytest.approx(skm.accuracy_score(g, p))
        assert row["metrics"]["macro_f1"] == pytest.approx(skm.f1_score(g, p, average="macro"))
        assert row["metrics"]["weighted_f1"] == pytest.approx(skm.f1_score(g, p, average="weighted"))
        assert row["metrics"]["mcc"] == pytest.approx(skm.matthews_corrcoef(g, p))
        assert row["metrics"]["kappa"] == pytest.approx(skm.cohen_kappa_score(g, p))
        assert row["metrics"]["balanced_accuracy"] == pytest.approx(skm.balanced_accuracy_score(g, p))
        r = skm.recall_score(g, p, average=None, labels=["a", "b", "c"])
        assert [row["metrics"][f"recall:{x}"] for x in "abc"] == pytest.approx(list(r))
        rest = ~m
        assert row["gap_to_rest"]["accuracy"] == pytest.approx(
            skm.accuracy_score(g, p) - skm.accuracy_score(gold[rest], pred[rest]))
        assert row["gap_to_overall"]["accuracy"] == pytest.approx(skm.accuracy_score(g, p) - (gold == pred).mean())


def test_slice_tables_add_up_to_the_overall_table():
    from clfeval.slicing._slicecounting import count_sliced

    t = multiclass()
    batches = [t.slice(i, 500) for i in range(0, t.num_rows, 500)]
    table, (one, cross) = count_sliced(batches, [("grp",), ("grp", "lang")])
    assert one.counts.sum(axis=0).tolist() == table.counts.tolist() == cross.counts.sum(axis=0).tolist()
    halves = count_sliced(batches[:3], [("grp",)])[1][0] + count_sliced(batches[3:], [("grp",)])[1][0]
    assert halves.counts.tolist() == one.counts.tolist() and halves.keys == one.keys
    with pytest.raises(AssertionError):
        one.check_adds_up(clfeval.report(["a"], ["a"]).table)


def test_planted_slice_is_flagged_after_adjustment():
    rep = clfeval.report(planted(), by="source", positive="pos", seed=3, slice_samples=2_000,
                         slice_metrics=["recall:pos", "accuracy", "f1:pos"])
    sec = _slices(rep)
    rows = {r["slice"]: r for r in sec["slices"]}
    t = rows["s00"]["tests"]["recall:pos"]
    assert t["flagged"] and t["p_holm"] < 0.05 and t["p_by"] < 0.05 and t["direction"] == "worse"
    assert sec["worst"]["recall:pos"] == "s00"
    others = [r["tests"]["recall:pos"]["flagged"] for k, r in rows.items() if k != "s00"]
    assert sum(others) <= 1  # the others differ by noise only
    het = sec["heterogeneity"]["recall:pos"]
    assert het["test"] == "chi-square" and het["p"] < 0.01
    # F1 is no proportion: the permutation test; with 2,000 redraws over 20 slices it can flag the slice too
    assert sec["heterogeneity"]["f1:pos"]["test"] == "permutation"
    assert sec["heterogeneity"]["f1:pos"]["p"] < 0.01 and rows["s00"]["tests"]["f1:pos"]["flagged"]
    assert not any("cannot pass Holm" in n for n in sec["notes"])
    few = clfeval.report(planted(), by="source", positive="pos", slice_samples=100, slice_metrics=["f1:pos"])
    assert any("cannot pass Holm's threshold over 20 slices" in n for n in few.slices.to_dict()["notes"])


def test_tests_against_scipy_and_statsmodels():
    from scipy.stats import chi2_contingency
    from statsmodels.stats.multitest import multipletests

    t = planted(4_000, seed=5)
    rep = clfeval.report(t, by="source", positive="pos", slice_samples=50)
    sec = _slices(rep)
    gold = np.array(t.column("gold").to_pylist())
    pred = np.array(t.column("pred").to_pylist())
    src = np.array(t.column("source").to_pylist())
    keys = [r["slice"] for r in sec["slices"]]
    pos = gold == "pos"
    tp = np.array([np.sum(pos & (pred == "pos") & (src == k)) for k in keys])
    fn = np.array([np.sum(pos & (pred == "neg") & (src == k)) for k in keys])
    stat, p, _, _ = chi2_contingency(np.stack([tp, fn], axis=1), correction=False)
    assert sec["heterogeneity"]["recall:pos"]["p"] == pytest.approx(p)
    raw = []
    for i in range(len(keys)):
        # every expected count is far above 5 here: Pearson's chi-square on the 2×2 table, no correction
        _, pf, _, _ = chi2_contingency([[tp[i], fn[i]], [tp.sum() - tp[i], fn.sum() - fn[i]]], correction=False)
        raw.append(pf)
        assert sec["slices"][i]["tests"]["recall:pos"]["p"] == pytest.approx(pf)
    holm = multipletests(raw, method="holm")[1]
    by = multipletests(raw, method="fdr_by")[1]
    assert [r["tests"]["recall:pos"]["p_holm"] for r in sec["slices"]] == pytest.approx(list(holm))
    assert [r["tests"]["recall:pos"]["p_by"] for r in sec["slices"]] == pytest.approx(list(by))


def test_small_expected_counts_use_fishers_exact_test():
    from scipy.stats import fisher_exact

    from clfeval.stats import two_by_two

    p, how = two_by_two(np.array([1, 40]), np.array([6, 50]), np.array([45, 10]), np.array([50, 12]))
    assert how == ["fisher", "fisher"]
    assert p[0] == pytest.approx(fisher_exact([[1, 5], [45, 5]])[1])
    assert p[1] == pytest.approx(fisher_exact([[40, 10], [10, 2]])[1])  # an expected count of 2 − ... below 5


def test_permutation_redraws_keep_the_overall_table():
    from clfeval.stats import draw_slice, split_tables

    rng = np.random.default_rng(0)
    cells = np.array([30, 0, 12, 7, 51])
    parts = split_tables(cells, np.array([40, 35, 25]), 200, rng)
    assert (parts.sum(axis=1) == cells).all() and (parts.sum(axis=2) == [40, 35, 25]).all()
    one = draw_slice(cells, 33, 500, rng)
    assert (one.sum(axis=1) == 33).all() and (one <= cells).all()
    # the mean of a hypergeometric draw: size × cell / N (hand computation)
    assert one.mean(axis=0) == pytest.approx(33 * cells / cells.sum(), abs=0.6)


def test_fairness_measures_equal_fairlearn():
    fl = pytest.importorskip("fairlearn.metrics")
    t = planted(6_000, seed=7)
    rep = clfeval.report(t, by="source", positive="pos", slice_samples=20)
    got = _slices(rep)["fairness"]["measures"]
    y = (np.array(t.column("gold").to_pylist()) == "pos").astype(int)
    p = (np.array(t.column("pred").to_pylist()) == "pos").astype(int)
    s = np.array(t.column("source").to_pylist())
    assert got["demographic_parity_difference"] == pytest.approx(fl.demographic_parity_difference(y, p,
                                                                                                  sensitive_features=s))
    assert got["demographic_parity_ratio"] == pytest.approx(fl.demographic_parity_ratio(y, p, sensitive_features=s))
    assert got["equalized_odds_difference"] == pytest.approx(fl.equalized_odds_difference(y, p, sensitive_features=s))
    assert got["equalized_odds_ratio"] == pytest.approx(fl.equalized_odds_ratio(y, p, sensitive_features=s))
    assert got["equal_opportunity_difference"] == pytest.approx(
        fl.equal_opportunity_difference(y, p, sensitive_features=s))
    frame = fl.MetricFrame(metrics={"sr": fl.selection_rate, "tpr": fl.true_positive_rate,
                                    "fpr": fl.false_positive_rate}, y_true=y, y_pred=p, sensitive_features=s)
    groups = _slices(rep)["fairness"]["groups"]
    assert groups["selection_rate"] == pytest.approx(list(frame.by_group["sr"]))
    assert groups["tpr"] == pytest.approx(list(frame.by_group["tpr"]))
    assert groups["fpr"] == pytest.approx(list(frame.by_group["fpr"]))


def test_fairness_intervals_with_ci():
    rep = clfeval.report(planted(3_000), by="source", positive="pos", ci=0.9, samples=300, slice_samples=20)
    sec = _slices(rep)
    lo, hi = sec["fairness"]["ci"]["demographic_parity_difference"]
    assert lo <= hi
    row = sec["slices"][0]
    lo, hi = row["ci"]["recall:pos"]
    assert lo <= row["metrics"]["recall:pos"] <= hi


def test_numeric_by_is_binned_with_stated_edges():
    t = planted(5_000)
    x = np.array(t.column("length").to_pylist())
    rep = clfeval.report(t, by="length", by_bins=4, by_binning="quantile", positive="pos", slice_samples=20)
    sec = _slices(rep)
    edges = sec["binning"][0]["edges"]
    assert edges == pytest.approx(list(np.quantile(x, [0, 0.25, 0.5, 0.75, 1.0])))
    sizes = [r["n"] for r in sec["slices"]]
    assert sizes == [1250, 1250, 1250, 1250]
    uni = _slices(clfeval.report(t, by="length", by_bins=3, by_binning="uniform", slice_samples=20))
    e = uni["binning"][0]["edges"]
    assert e == pytest.approx([x.min(), x.min() + (x.max() - x.min()) / 3, x.min() + 2 * (x.max() - x.min()) / 3,
                               x.max()])
    assert [r["n"] for r in uni["slices"]] == [int(np.sum((x >= e[0]) & (x < e[1]))),
                                               int(np.sum((x >= e[1]) & (x < e[2]))),
                                               int(np.sum((x >= e[2]) & (x <= e[3])))]


def _without_engine(rep):
    d = json.loads(to_json(rep))
    d.pop("engine", None)
    return d


def test_streamed_equals_in_memory_equals_dask(tmp_path):
    t = planted(6_000)
    d = tmp_path / "data"
    d.mkdir()
    for i in range(3):
        pq.write_table(t.slice(i * 2000, 2000), d / f"part-{i}.parquet", row_group_size=500)
    kw = dict(by="source", positive="pos", slice_samples=50, seed=4)
    mem = clfeval.report(t, **kw)
    streamed = clfeval.report(str(d), engine=clfeval.Local(memory="1MB"), **kw)
    assert streamed.engine.to_dict()["mode"] == "streamed"
    assert _without_engine(streamed) == _without_engine(mem)
    kw2 = dict(by="length", by_bins=5, positive="pos", slice_samples=20)
    assert _without_engine(clfeval.report(str(d), engine=clfeval.Local(memory="1MB"), **kw2)) == \
        _without_engine(clfeval.report(t, **kw2))


def test_bad_by_columns(tmp_path):
    t = planted(400)
    with pytest.raises(DataError, match="no column 'nope'"):
        clfeval.report(t, by="nope")
    nulls = t.append_column("empty", pa.array([None] * t.num_rows, type=pa.string()))
    with pytest.raises(DataError, match="null in every row"):
        clfeval.report(nulls, by="empty")
    nested = t.append_column("tags", pa.array([["a"]] * t.num_rows))
    with pytest.raises(DataError, match="nested"):
        clfeval.report(nested, by="tags")
    with pytest.raises(UsageError, match="more than 5 slices"):
        clfeval.report(t, by="source", max_slices=5)
    with pytest.raises(UsageError, match="more than 1,000 slices"):
        clfeval.report(planted(2_000), by="length")  # a float column without by_bins: every value a slice
    p = tmp_path / "x.parquet"
    pq.write_table(t, p)
    with pytest.raises(DataError, match="nope"):
        clfeval.report(str(p), by="nope", engine=clfeval.Local(memory="1MB"))


def test_partly_null_and_one_class_slices():
    rep = clfeval.report(["a", "a", "b", "b", "a", "a"], ["a", "b", "b", "a", "a", "a"],
                         by={"g": ["x", "x", "y", None, "z", "z"]}, min_slice=1, slice_samples=20)
    sec = _slices(rep)
    names = [r["slice"] for r in sec["slices"]]
    assert names == ["x", "y", "z", "(missing)"]
    z = sec["slices"][2]
    assert z["gold_classes"] == 1 and "recall:b" in z["undefined"]
    assert any("one gold class only" in n for n in sec["notes"])


def test_the_integer_path_counts_what_the_general_path_counts():
    from clfeval.slicing._slicecounting import count_sliced

    rng = np.random.default_rng(3)
    g = rng.integers(-2, 3, 5_000)
    p = np.where(rng.random(5_000) < 0.7, g, rng.integers(-2, 3, 5_000))
    s = rng.integers(10, 40, 5_000)
    ints = pa.table({"gold": g, "pred": p, "seg": s})
    text = pa.table({"gold": g, "pred": p, "seg": pa.array(s).cast(pa.string())})
    parts = lambda t: [t.slice(i, 700) for i in range(0, 5_000, 700)]  # noqa: E731
    t1, (a,) = count_sliced(parts(ints), [("seg",)])
    t2, (b,) = count_sliced(parts(text), [("seg",)])
    assert t1.counts.tolist() == t2.counts.tolist() and t1.labels == t2.labels == (-2, -1, 0, 1, 2)
    assert [k[0] for k in a.keys] == [int(k[0]) for k in b.keys] == list(range(10, 40))
    assert a.counts.tolist() == b.counts.tolist()
    for i, v in enumerate(range(10, 40)):  # each slice against a hand count of its rows
        m = s == v
        assert a.counts[i].sum() == m.sum() and a.counts[i][2, 2] == np.sum((g[m] == 0) & (p[m] == 0))


def test_the_integer_path_survives_ranges_that_change_between_batches():
    from clfeval.slicing._slicecounting import count_sliced

    rng = np.random.default_rng(4)
    parts, text = [], []
    for lo_g, hi_g, lo_s, hi_s in [(0, 2, 0, 5), (0, 4, 0, 50), (-3, 1, 0, 5), (0, 2, 7, 9), (0, 1, 0, 3)]:
        g = rng.integers(lo_g, hi_g + 1, 400)
        p = rng.integers(lo_g, hi_g + 1, 400)
        s = rng.integers(lo_s, hi_s + 1, 400)
        parts.append(pa.table({"gold": g, "pred": p, "seg": s}))
        text.append(pa.table({"gold": g, "pred": p, "seg": pa.array(s).cast(pa.string())}))
    t1, (a,) = count_sliced(parts, [("seg",)])
    t2, (b,) = count_sliced(text, [("seg",)])
    assert t1.labels == t2.labels and t1.counts.tolist() == t2.counts.tolist()
    by_int = {k[0]: c.tolist() for k, c in zip(a.keys, a.counts, strict=True)}
    by_text = {int(k[0]): c.tolist() for k, c in zip(b.keys, b.counts, strict=True)}
    assert by_int == by_text and [k[0] for k in a.keys] == sorted(by_int)  # numbers in numeric order


def test_a_csv_column_of_numbers_as_text_is_binned(tmp_path):
    import pyarrow.csv as pcsv

    t = planted(3_000)
    pcsv.write_csv(t, tmp_path / "p.csv")
    kw = dict(by="length", by_bins=4, positive="pos", slice_samples=20)
    from_csv = clfeval.report(str(tmp_path / "p.csv"), engine=clfeval.Local(memory="1MB"), **kw)
    assert _without_engine(from_csv)["slices"] == _without_engine(clfeval.report(t, **kw))["slices"]


def test_chi_square_tail_equals_scipy():
    """The closed-form χ² tail of the report path (no SciPy import there) against SciPy's, over df and x."""
    from scipy.stats import chi2

    from clfeval.slicing._slicetests import chi2_sf

    for df in (1, 2, 3, 7, 10, 51, 200, 999, 1000):
        for x in (1e-9, 0.3, 1.0, df / 2, df, 1.5 * df, 3.0 * df + 40, 2000.0):
            want = chi2.sf(x, df)
            assert chi2_sf(df, x) == pytest.approx(want, rel=1e-10, abs=1e-300), (df, x)
    assert chi2_sf(4, 0.0) == 1.0 and np.isnan(chi2_sf(2, float("nan")))


def test_read_ahead_yields_every_batch_and_raises_the_readers_error():
    from clfeval.io import read_ahead

    assert list(read_ahead(iter(range(7)))) == list(range(7))

    def broken():
        yield 1
        raise DataError("file 'x.parquet': row 2 is bad.")

    got = []
    with pytest.raises(DataError, match="row 2 is bad"):
        for b in read_ahead(broken()):
            got.append(b)
    assert got == [1]
    closed = []

    def endless():
        try:
            i = 0
            while True:
                yield i
                i += 1
        finally:
            closed.append(True)

    for b in read_ahead(endless()):
        if b == 3:
            break
    assert closed == [True]  # a caller that stops early closes the reader


def scored(n: int = 3_000, seed: int = 3) -> pa.Table:
    """Binary data with a score column of many ties over four sources; source 'd' has no positives."""
    rng = np.random.default_rng(seed)
    src = rng.choice(["a", "b", "c", "d"], n, p=[0.3, 0.3, 0.3, 0.1])
    gold = (rng.random(n) < np.where(src == "c", 0.2, 0.45)) & (src != "d")
    score = np.round(np.clip(0.3 * gold + 0.8 * rng.random(n) - 0.1 * (src == "b"), 0, 1), 2)
    return pa.table({"gold": np.where(gold, "pos", "neg"), "pred": np.where(score >= 0.5, "pos", "neg"),
                     "source": src, "s": score})


def test_per_slice_roc_auc_and_average_precision_equal_scikit_learn(dask_client, tmp_path):
    from sklearn.metrics import average_precision_score, roc_auc_score

    t = scored()
    gold = np.array(t.column("gold").to_pylist()) == "pos"
    score = np.array(t.column("s").to_pylist())
    src = np.array(t.column("source").to_pylist())
    d = tmp_path / "data"
    d.mkdir()
    for i in range(3):
        pq.write_table(t.slice(i * 1000, 1000), d / f"part-{i}.parquet", row_group_size=300)
    kw = dict(by="source", score="s", positive="pos", slice_samples=20, seed=1)
    mem = clfeval.report(t, **kw)
    sec = _slices(mem)
    for row in sec["slices"]:
        m = src == row["slice"]
        if row["slice"] == "d":  # no positives: both undefined, said so
            assert row["metrics"]["roc_auc"] != row["metrics"]["roc_auc"]
            assert {"roc_auc", "average_precision"} <= set(row["undefined"])
            continue
        assert row["metrics"]["roc_auc"] == pytest.approx(roc_auc_score(gold[m], score[m]), rel=1e-12)
        assert row["metrics"]["average_precision"] == pytest.approx(average_precision_score(gold[m], score[m]),
                                                                    rel=1e-12)
    assert sec["overall"]["roc_auc"] == pytest.approx(roc_auc_score(gold, score), rel=1e-12)
    assert sec["overall"]["average_precision"] == pytest.approx(average_precision_score(gold, score), rel=1e-12)
    assert sec["ranking"]["score"] == "s" and sec["ranking"]["positive"] == "pos"
    streamed = clfeval.report(str(d), engine=clfeval.Local(memory="1MB"), **kw)
    assert streamed.engine.to_dict()["mode"] == "streamed"
    on_dask = clfeval.report(str(d), engine=clfeval.Dask(dask_client), **kw)
    assert on_dask.engine.to_dict()["mode"] == "cluster"
    assert _without_engine(streamed) == _without_engine(mem) == _without_engine(on_dask)
    arrays = clfeval.report(t.column("gold").to_numpy(), t.column("pred").to_numpy(), by={"source": src},
                            scores=score, positive="pos", slice_samples=20, seed=1)
    assert [r["metrics"]["average_precision"] for r in _without_engine(arrays)["slices"]["slices"]] == \
        [r["metrics"]["average_precision"] for r in _without_engine(mem)["slices"]["slices"]]


def test_per_slice_rankings_beyond_the_memory_budget_are_refused(tmp_path):
    t = scored(20_000)
    d = tmp_path / "data"
    d.mkdir()
    for i in range(4):
        pq.write_table(t.slice(i * 5000, 5000), d / f"part-{i}.parquet", row_group_size=1000)
    with pytest.raises(UsageError, match="per-slice rankings"):
        clfeval.report(str(d), by="source", score="s", positive="pos", engine=clfeval.Local(memory="200KB"))
    with pytest.raises(UsageError, match="positive"):
        clfeval.report(t.column("gold").to_numpy(), t.column("pred").to_numpy(),
                       by={"source": t.column("source").to_numpy()}, scores=t.column("s").to_numpy())
    with pytest.raises(UsageError, match="one score column per class"):
        clfeval.report(t, by="source", scores_prefix="s", positive="pos")
    with pytest.raises(UsageError, match="not sliced yet"):
        clfeval.report(t, by="source", score="s", positive="pos", threshold=0.5)
