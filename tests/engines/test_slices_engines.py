"""Issue 26 item 1: ``compare --by`` and ``calibration --by`` on every engine — in memory, streamed within a small
``--memory`` (the id join through hash partitions on disk, or DuckDB, or row by row) and on Dask — give the same
slices, and each slice's numbers are scikit-learn's / statsmodels' on that slice's rows."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import clfeval
from clfeval.errors import UsageError
from clfeval.render import to_json
from tests.evaluate.test_slices_outputs import simpson


def _systems(n: int = 4_000, seed: int = 3) -> dict[str, np.ndarray]:
    """Three classes, five sources of different sizes; A better than B on source 's0' and worse on 's3'."""
    rng = np.random.default_rng(seed)
    src = rng.choice(np.array(["s0", "s1", "s2", "s3", "s4"]), n, p=[0.4, 0.25, 0.15, 0.15, 0.05])
    gold = rng.choice(np.array(["ham", "spam", "tech"]), n, p=[0.5, 0.3, 0.2])
    right_a = rng.random(n) < np.where(src == "s0", 0.9, np.where(src == "s3", 0.6, 0.8))
    right_b = rng.random(n) < np.where(src == "s0", 0.7, np.where(src == "s3", 0.85, 0.8))
    other = np.array(["spam", "tech", "ham"])[rng.integers(0, 3, n)]
    wrong = np.where(other == gold, np.where(gold == "ham", "spam", "ham"), other)
    return {"gold": gold, "a": np.where(right_a, gold, wrong), "b": np.where(right_b, gold, wrong), "source": src,
            "length": np.round(rng.gamma(2.0, 100.0, n), 1)}


def _files(tmp_path, d: dict[str, np.ndarray], ids: bool = True, shuffle: bool = True) -> tuple[str, str]:
    """A and B as directories of three Parquet files each (B's rows in another order when matched by id)."""
    n = len(d["gold"])
    order = np.random.default_rng(0).permutation(n) if ids and shuffle else np.arange(n)
    a = {"gold": d["gold"], "pred": d["a"], "source": d["source"], "length": d["length"]}
    b = {"gold": d["gold"][order], "pred": d["b"][order]}
    if ids:
        a, b = {"id": np.arange(n), **a}, {"id": order, **b}
    out = []
    for name, cols in (("a", a), ("b", b)):
        folder = tmp_path / name
        folder.mkdir()
        t = pa.table(cols)
        for i, start in enumerate(range(0, n, -(-n // 3))):
            pq.write_table(t.slice(start, -(-n // 3)), folder / f"part-{i}.parquet", row_group_size=500)
        out.append(str(folder))
    return out[0], out[1]


def _sliced(r) -> dict:
    d = json.loads(to_json(r))
    return {k: d[k] for k in ("slices", "simpson", "overall", "min_slice", "notes")}


@pytest.mark.parametrize("test", ["bootstrap", "randomization", "mcnemar"])
def test_compare_by_streamed_equals_in_memory_and_scikit_learn(tmp_path, test):
    from sklearn.metrics import accuracy_score
    from statsmodels.stats.multitest import multipletests

    d = _systems()
    fa, fb = _files(tmp_path, d)
    kw = dict(metric="accuracy", test=test, samples=200, seed=5)
    mem = clfeval.compare(d["gold"], d["a"], d["b"], by={"source": d["source"]}, **kw)
    small = clfeval.compare(fa, fb, by="source", engine=clfeval.Local(memory="1MB"), **kw)  # hash partitions
    duck = clfeval.compare(fa, fb, by="source", engine=clfeval.Local(memory="256MB"), **kw)  # the DuckDB join
    assert mem.engine["mode"] == "memory" and small.engine["mode"] == duck.engine["mode"] == "streamed"
    assert _sliced(mem) == _sliced(small) == _sliced(duck)
    rows = small.slices
    assert [r.slice for r in rows] == ["s0", "s1", "s2", "s3", "s4"]
    for r in rows:
        m = d["source"] == r.slice
        assert r.n == int(m.sum())
        assert r.a == pytest.approx(accuracy_score(d["gold"][m], d["a"][m]))
        assert r.b == pytest.approx(accuracy_score(d["gold"][m], d["b"][m]))
        assert r.delta == pytest.approx(r.a - r.b)
    p = [r.p for r in rows]
    assert [r.p_holm for r in rows] == pytest.approx(list(multipletests(p, method="holm")[1]))
    assert [r.p_by for r in rows] == pytest.approx(list(multipletests(p, method="fdr_by")[1]))
    assert sum(r.n for r in rows) == len(d["gold"])


def test_compare_by_streamed_row_by_row_binned_and_beyond_the_budget(tmp_path):
    """Files without ids are matched row by row; a numeric column cut into bins; arrays beyond the budget are
    spooled and streamed: all as in memory."""
    d = _systems(2_000, seed=9)
    fa, fb = _files(tmp_path, d, ids=False)
    kw = dict(metric="f1:spam", samples=150, by_bins=4, by_binning="quantile")
    mem = clfeval.compare(d["gold"], d["a"], d["b"], by={"length": d["length"]}, **kw)
    rows = clfeval.compare(fa, fb, by="length", engine=clfeval.Local(memory="1MB"), **kw)
    assert rows.engine["mode"] == "streamed" and _sliced(rows) == _sliced(mem)
    assert len(mem.slices) == 4 and mem.to_dict()["binning"][0]["column"] == "length"
    spooled = clfeval.compare(d["gold"], d["a"], d["b"], by={"source": d["source"]}, samples=150,
                              engine=clfeval.Local(memory="20KB"))
    assert spooled.engine["mode"] == "streamed" and spooled.engine["input"].startswith("spooled")
    assert _sliced(spooled) == _sliced(clfeval.compare(d["gold"], d["a"], d["b"], by={"source": d["source"]},
                                                       samples=150))


def test_compare_by_simpson_streamed_and_on_dask(tmp_path, dask_client):
    g, a, b, s = simpson()
    n = len(g)
    ids = np.arange(n)
    back = ids[::-1]
    pq.write_table(pa.table({"id": ids, "gold": g, "pred": a, "site": s}), tmp_path / "a.parquet", row_group_size=90)
    pq.write_table(pa.table({"id": back, "gold": [g[i] for i in back], "pred": [b[i] for i in back]}),
                   tmp_path / "b.parquet", row_group_size=90)
    kw = dict(metric="precision:pos", samples=300)
    mem = clfeval.compare(g, a, b, by={"site": s}, **kw)
    streamed = clfeval.compare(str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet"), by="site",
                               engine=clfeval.Local(memory="1MB"), **kw)
    on_dask = clfeval.compare(str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet"), by="site",
                              engine=clfeval.Dask(dask_client), **kw)
    assert on_dask.engine["mode"] == "cluster" and streamed.engine["mode"] == "streamed"
    assert _sliced(mem) == _sliced(streamed) == _sliced(on_dask)
    assert streamed.simpson.startswith("Simpson's paradox: A is better than B overall")
    assert [v for r in on_dask.slices for v in (r.a, r.b)] == pytest.approx([0.9, 1.0, 0.1, 0.2])


def test_compare_by_on_dask_equals_in_memory(tmp_path, dask_client):
    d = _systems(3_000, seed=4)
    fa, fb = _files(tmp_path, d)
    kw = dict(metric="macro_f1", samples=200, seed=2)
    mem = clfeval.compare(d["gold"], d["a"], d["b"], by={"source": d["source"]}, **kw)
    on_dask = clfeval.compare(fa, fb, by="source", engine=clfeval.Dask(dask_client), **kw)
    assert on_dask.engine["mode"] == "cluster" and on_dask.engine["partitions"] == 6
    assert _sliced(on_dask) == _sliced(mem)


def test_compare_by_refuses_delong_with_a_sentence(tmp_path):
    d = _systems(200)
    with pytest.raises(UsageError, match="count tables of the slices.*delong ranks"):
        clfeval.compare(d["gold"], d["a"], d["b"], by={"source": d["source"]}, test="delong")


def _calibration_data(n: int = 3_000) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(11)
    p = rng.random(n)
    grp = np.array(["a", "b", "c", "d"])[rng.integers(0, 4, n)]
    y = rng.random(n) < np.where(grp == "a", p ** 2, np.where(grp == "d", np.sqrt(p), p))
    return {"gold": np.where(y, "y", "n"), "prob": p, "grp": grp, "y": y}


def _parquet_dir(tmp_path, d: dict[str, np.ndarray]) -> str:
    folder = tmp_path / "cal"
    folder.mkdir()
    t = pa.table({k: d[k] for k in ("gold", "prob", "grp")})
    for i in range(3):
        pq.write_table(t.slice(i * 1_000, 1_000), folder / f"part-{i}.parquet", row_group_size=200)
    return str(folder)


def test_calibration_by_streamed_equals_in_memory_equals_dask_and_scikit_learn(tmp_path, dask_client):
    from sklearn.calibration import calibration_curve
    from sklearn.metrics import brier_score_loss, log_loss

    d = _calibration_data()
    path = _parquet_dir(tmp_path, d)
    kw = dict(positive="y", by="grp", bins=10)
    mem = clfeval.calibration(d["gold"], d["prob"], positive="y", by={"grp": d["grp"]}, bins=10)
    streamed = clfeval.calibration(path, prob="prob", engine=clfeval.Local(memory="100KB"), **kw)
    on_dask = clfeval.calibration(path, prob="prob", engine=clfeval.Dask(dask_client), **kw)
    assert (mem.engine["mode"], streamed.engine["mode"], on_dask.engine["mode"]) == ("memory", "streamed", "cluster")
    assert mem.slices == streamed.slices == on_dask.slices
    plain = clfeval.calibration(d["gold"], d["prob"], positive="y", bins=10)  # the whole, counted in the same pass
    keys = ("n", "ece", "mce", "brier", "log_loss", "roc_auc", "average_precision")
    for res in (mem, streamed, on_dask):
        assert [getattr(res, k) for k in keys] == [getattr(plain, k) for k in keys]
    for row in streamed.slices.rows:
        m = d["grp"] == row.slice
        y, p = d["y"][m], d["prob"][m]
        assert row.n == int(m.sum())
        assert row.brier == pytest.approx(brier_score_loss(y, p), abs=1e-15)
        assert row.log_loss == pytest.approx(log_loss(y, p), abs=1e-12)
        frac, conf = calibration_curve(y, p, n_bins=10)  # ECE from scikit-learn's bins (no value on an edge)
        counts = np.bincount(np.minimum((p * 10).astype(int), 9), minlength=10)
        assert row.ece == pytest.approx(float(np.sum(counts[counts > 0] * np.abs(frac - conf)) / m.sum()))
    assert max(streamed.slices.rows, key=lambda r: r.ece).slice in ("a", "d")


def test_calibration_by_quantile_bins_streamed_equals_in_memory(tmp_path):
    d = _calibration_data()
    path = _parquet_dir(tmp_path, d)
    kw = dict(positive="y", bins=5, strategy="quantile")
    mem = clfeval.calibration(d["gold"], d["prob"], by={"grp": d["grp"]}, **kw)
    streamed = clfeval.calibration(path, prob="prob", by="grp", engine=clfeval.Local(memory="100KB"), **kw)
    assert streamed.engine["mode"] == "streamed" and streamed.slices == mem.slices
    for row in mem.slices.rows:  # each slice's equal-mass bins are its own
        m = d["grp"] == row.slice
        one = clfeval.calibration(d["gold"][m], d["prob"][m], **kw)
        assert (row.ece, row.mce) == (one.ece, one.mce)
