"""to_frame() on every result of the front door and on every part that is a table (issue 37): the columns are the
documented ones (render/_frames.py FRAME_COLUMNS), the values agree with independent computations."""

from __future__ import annotations

import inspect
import re

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from sklearn.metrics import f1_score, recall_score

import clfeval
from clfeval.render._frames import FRAME_COLUMNS, check_columns, expected_columns, frame_columns_markdown
from tests._helpers.registry import CASES, columns, frame, write_inputs


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("frames")
    write_inputs(root)
    return {name: fn(root) for name, fn in CASES.items()}, root


def _when(name: str, r) -> tuple[set[str], dict[str, list[str]]]:
    """The documented cases that apply to result ``r`` and the families' members."""
    kind = type(r).__name__
    if kind == "Report":
        return ({"multi-label data"} if r.kind == "multilabel" else set()), {}
    if kind == "Compared":
        if r.kind == "sliced":
            return {"by slice"}, {"by": list(r.by)}
        return ({"one-vs-rest DeLong"} if r.kind == "delong_ovr" else set()), {}
    if kind == "ThresholdResult":
        if r.slices is not None:
            return {"by slice"}, {"by": list(r.slices.by)}
        return {"without by="} | ({"per label"} if r.labels_cuts is not None else set()), {}
    if kind == "RankingResult":
        return ({"one-vs-rest"} if r.ovr is not None else {"binary"}), {}
    if kind == "ProtocolResult":  # issue 39 (cv, holdout): the fields of per_fold, nested ones dotted, in order
        return set(), {"field": list(dict.fromkeys(k for row in r.to_dict()["per_fold"] for k in _dotted(row)))}
    return set(), {}


def _dotted(row: dict, prefix: str = "") -> list[str]:
    """The keys of a JSON record, a nested record's as ``outer.inner`` (written here, not the renderer's flat)."""
    return [k for key, v in row.items()
            for k in (_dotted(v, f"{prefix}{key}.") if isinstance(v, dict) else [f"{prefix}{key}"])]


def _tables(r):
    """(table name, frame, families) of every table of ``r``: its main one, its parts', its second tables."""
    kind = type(r).__name__
    when, fill = _when(kind, r)
    out = [(kind, r.to_frame(), when, fill)]
    parts = {"Report": [("slices", "SlicesPart"), ("find_slices", "FoundSlices")],
             "ThresholdResult": [("sweep", "Sweep"), ("labels_cuts", "LabelCuts"), ("slices", "ThresholdSlices")],
             "Calibration": [("slices", "CalibrationSlices")], "RankingResult": [("ovr", "OneVsRest")]}
    for attr, name in parts.get(kind, []):
        try:
            part = getattr(r, attr)
        except AttributeError:
            continue
        if part is not None:
            by = list(getattr(part, "by", ()) or ())
            out.append((name, part.to_frame(), set(), {"by": by}))
    for method in ("systems_frame", "terms_frame", "pairs_frame"):
        if hasattr(r, method) and not (kind == "Compared" and r.kind == "delong_ovr"):
            out.append((f"{kind}.{method[:-6]}", getattr(r, method)(), set(), {}))
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_table_has_exactly_its_documented_columns(results, case):
    r = results[0][case]
    for name, f, when, fill in _tables(r):
        assert isinstance(f, pd.DataFrame), (case, name)
        assert list(f.columns) == expected_columns(name, fill, when=when), (case, name)
        assert check_columns(name, f.columns) == [] or fill, (case, name)
        index = [c.name for c in FRAME_COLUMNS[name] if c.doc.startswith("index:")]
        if f.index.name is not None:
            assert f.index.name in index, (case, name)


def test_the_tables_of_a_registry_run_cover_every_documented_type(results):
    seen = {name for r in results[0].values() for name, *_ in _tables(r)}
    assert set(FRAME_COLUMNS) - seen == {"CVComparison"}  # ProtocolResult: cv and holdout are in it (issue 39)


def test_docstrings_and_markdown_name_every_documented_column():
    from clfeval.ops.calibration._result import CalibrationSlices
    from clfeval.ops.compare import Compared
    from clfeval.ops.errors._result import ErrorAnalysis
    from clfeval.ops.rank._result import RankResult
    from clfeval.ops.ranking._parts import OneVsRest
    from clfeval.ops.report import SlicesPart
    from clfeval.ops.report._found import FoundSlices
    from clfeval.ops.threshold._parts import LabelCuts, Sweep
    from clfeval.ops.threshold._slices import ThresholdSlices

    methods = {"SlicesPart": SlicesPart.to_frame, "FoundSlices": FoundSlices.to_frame, "Compared": Compared.to_frame,
               "Compared.systems": Compared.systems_frame, "ErrorAnalysis.terms": ErrorAnalysis.terms_frame,
               "RankResult.pairs": RankResult.pairs_frame, "LabelCuts": LabelCuts.to_frame, "Sweep": Sweep.to_frame,
               "ThresholdSlices": ThresholdSlices.to_frame, "CalibrationSlices": CalibrationSlices.to_frame,
               "OneVsRest": OneVsRest.to_frame, "Report": clfeval.Report.to_frame,
               "ThresholdResult": clfeval.ThresholdResult.to_frame, "Calibration": clfeval.Calibration.to_frame,
               "RankingResult": clfeval.RankingResult.to_frame, "ErrorAnalysis": ErrorAnalysis.to_frame,
               "RankResult": RankResult.to_frame, "PowerResult": clfeval.PowerResult.to_frame,
               "LabelIssues": clfeval.LabelIssues.to_frame}
    assert set(FRAME_COLUMNS) - set(methods) == {"ProtocolResult", "CVComparison"}  # these two: flattened JSON
    for name, fn in methods.items():
        doc = inspect.getdoc(fn) or ""
        named = re.findall(r"``([^`]+)``", doc[doc.index("Columns"):])
        assert [c for c in named if c in {x.name for x in FRAME_COLUMNS[name]}] == \
            list(dict.fromkeys(c.name for c in FRAME_COLUMNS[name])), name
    md = frame_columns_markdown()
    for name, cols in FRAME_COLUMNS.items():
        assert f"**{name}**" in md and all(f"| `{c.name}` |" in md for c in cols), name


# --- values against independent computations --------------------------------------------------------------------


def test_report_per_class_recall_equals_sklearn():
    c = columns()
    f = clfeval.report(c["gold"], c["pred"]).to_frame()
    labels = sorted(set(c["gold"]))
    assert list(f.index) == labels and f.index.name == "class"
    assert f["recall"].to_numpy() == pytest.approx(recall_score(c["gold"], c["pred"], labels=labels, average=None))
    assert list(f["support"]) == [int((c["gold"] == k).sum()) for k in labels]
    spec = [((c["gold"] != k) & (c["pred"] != k)).sum() / (c["gold"] != k).sum() for k in labels]
    assert f["specificity"].to_numpy() == pytest.approx(spec)
    assert f["phi"].to_numpy() == pytest.approx(f["recall"] - f["specificity"])
    assert f["delta"].to_numpy() == pytest.approx(f["recall"] + f["specificity"] - 1)


def test_slices_tidy_rows_equal_a_groupby_accuracy_per_slice():
    d = frame(("gold", "pred", "grp"))
    r = clfeval.report(d, by="grp", positive="dog", slice_samples=50, seed=2)
    f = r.slices.to_frame()
    acc = f[f["metric"] == "accuracy"].set_index("slice")
    want = d.assign(ok=d["gold"] == d["pred"]).groupby("grp")["ok"].agg(["mean", "size"])
    for g, row in want.iterrows():
        assert acc.loc[f"grp={g}" if f"grp={g}" in acc.index else g, "value"] == pytest.approx(row["mean"])
        assert acc.loc[f"grp={g}" if f"grp={g}" in acc.index else g, "n"] == row["size"]
    assert len(f) == len(r.slices.slices) * len(r.slices.metrics)
    untested = f[~f["metric"].isin(r.slices.tested)]
    assert untested["p"].isna().all() and untested["flagged"].isna().all() and untested["ci_low"].isna().all()
    tested = f[f["metric"].isin(r.slices.tested)]
    assert tested["p"].notna().all() and set(tested["direction"]) <= {"worse", "better"}
    rest = d[d["grp"] != "e"]
    gap = (d[d["grp"] == "e"]["gold"] == d[d["grp"] == "e"]["pred"]).mean() - (rest["gold"] == rest["pred"]).mean()
    assert acc.loc[acc["grp"] == "e", "gap_to_rest"].iloc[0] == pytest.approx(gap)


def test_threshold_sweep_f1_at_a_cut_equals_sklearn():
    c = columns()
    half = len(c["gold"]) // 2
    t = clfeval.threshold(c["gold"][half:], c["score"][half:], dev=(c["gold"][:half], c["score"][:half]),
                          positive="dog")
    sweep = t.sweep.to_frame()
    y = c["gold"][half:] == "dog"
    for _, row in sweep.iloc[[0, len(sweep) // 2, -1]].iterrows():
        pred = c["score"][half:] >= row["threshold"]
        assert row["fbeta"] == pytest.approx(f1_score(y, pred, zero_division=0))
    cuts = t.to_frame().set_index("cut")
    pred = c["score"][half:] >= cuts.loc["test", "threshold"]
    assert cuts.loc["test", "f1"] == pytest.approx(f1_score(y, pred))
    assert cuts.loc["test", "tp"] == int((pred & y).sum())


def test_calibration_bins_count_like_a_histogram():
    c = columns()
    f = clfeval.calibration(c["gold"], c["score"], positive="dog", bins=5).to_frame()
    edges = np.r_[f["lower"].to_numpy(), f["upper"].iloc[-1]]
    assert list(f["count"]) == list(np.histogram(c["score"], bins=edges)[0])


def test_calibration_slices_one_row_per_slice():
    d = frame(("gold", "score", "grp"))
    cal = clfeval.calibration(d, prob="score", positive="dog", by="grp", bins=4, min_slice=10)
    f = cal.slices.to_frame()
    assert sorted(f["grp"]) == sorted(set(d["grp"])) and f["n"].sum() == len(d)
    e = d[d["grp"] == "e"]
    brier = ((e["score"] - (e["gold"] == "dog")) ** 2).mean()
    assert f.loc[f["grp"] == "e", "brier"].iloc[0] == pytest.approx(brier)


def test_rank_average_ranks_equal_rankdata(results):
    r = results[0]["rank/path"]
    wide = pd.read_csv(results[1] / "wide.csv").set_index("dataset")
    ranks = np.array([rankdata(-row) for row in wide.to_numpy()]).mean(axis=0)
    f = r.to_frame().set_index("system")
    assert [f.loc[s, "average_rank"] for s in wide.columns] == pytest.approx(list(ranks))
    assert list(f["position"]) == [1, 2, 3, 4] and f["average_rank"].is_monotonic_increasing
    pairs = r.pairs_frame()
    assert len(pairs) == 6 and np.allclose(pairs["rank_difference"], pairs["rank_b"] - pairs["rank_a"])


def test_compare_pair_row_and_systems():
    c = columns()
    r = clfeval.compare(c["gold"], c["pred"], c["other"], samples=200, seed=1)
    (row,) = r.to_frame().to_dict("records")
    a, b = (c["pred"] == c["gold"]).mean(), (c["other"] == c["gold"]).mean()
    assert (row["value_a"], row["value_b"], row["delta"]) == pytest.approx((a, b, a - b))
    assert row["ci_low"] <= row["delta"] <= row["ci_high"] and row["p_value"] == r.p_value
    s = r.systems_frame().set_index("system")
    assert list(s["value"]) == pytest.approx([a, b]) and (s["ci_low"] <= s["value"]).all()


@pytest.mark.parametrize("test", ["bootstrap", "mcnemar"])
@pytest.mark.parametrize("b_right", [0.60, 0.88])
def test_the_pair_row_carries_the_bound_that_decides_its_verdict(test, b_right):
    """``bound`` is the one-sided bound of δ the test inverts: beyond 0 exactly when the row says significant (a
    verdict never beside a bound that says the opposite); a clearly better A and a close one."""
    rng = np.random.default_rng(7)
    gold = rng.integers(0, 3, 300)
    a = np.where(rng.random(300) < 0.90, gold, (gold + 1) % 3)
    b = np.where(rng.random(300) < b_right, gold, (gold + 2) % 3)
    r = clfeval.compare(gold, a, b, test=test, samples=2000, seed=3)
    (row,) = r.to_frame().to_dict("records")
    assert row["bound"] == r.ci.test_bound.value
    assert row["significant"] == (row["bound"] > 0) == (r.p_value < r.alpha)


def test_error_cells_and_terms(results):
    c = columns()
    e = results[0]["error_analysis/arrays"]
    cells = e.to_frame()
    want = pd.crosstab(pd.Series(c["gold"], name="g"), pd.Series(c["pred"], name="p"))
    assert len(cells) == 6 and (cells["gold"] != cells["pred"]).all()
    for _, row in cells.iterrows():
        assert row["count"] == want.loc[row["gold"], row["pred"]]
    support = cells["gold"].map(lambda g: (c["gold"] == g).sum()).to_numpy()
    assert cells["share"].to_numpy() == pytest.approx(cells["count"].to_numpy() / support)
    terms = e.terms_frame()
    first = e.cells[0]
    got = terms[(terms["gold"] == first.gold) & (terms["pred"] == first.pred) & (terms["side"] == "vs_gold")]
    assert list(got["term"]) == [t.term for t in first.terms_vs_gold] and list(got["rank"]) == list(
        range(1, len(got) + 1))


def test_one_vs_rest_delong_has_one_row_per_class_with_the_holm_p():
    from sklearn.metrics import roc_auc_score

    from tests._helpers.registry import LABELS

    c = columns()
    b = {k: np.roll(c[f"p:{k}"], 7) for k in LABELS}
    r = clfeval.compare(c["gold"], {k: c[f"p:{k}"] for k in LABELS}, b, test="delong", metric="roc_auc")
    f = r.to_frame()
    assert list(f.columns) == expected_columns("Compared", when={"one-vs-rest DeLong"})
    assert list(f.index) == list(LABELS) and f.index.name == "class"
    for k in LABELS:
        assert f.loc[k, "value_a"] == pytest.approx(roc_auc_score(c["gold"] == k, c[f"p:{k}"]))
        assert f.loc[k, "value_b"] == pytest.approx(roc_auc_score(c["gold"] == k, b[k]))
        assert f.loc[k, "p_adjusted"] == r.p_holm[k]
    with pytest.raises(TypeError, match="per class"):
        r.systems_frame()
