"""Issue 26: compare --by (Simpson's paradox), the command line, the outputs (text, JSON, Markdown, HTML forest
plot), the requirement functions and to_frame."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import clfeval
from clfeval.errors import MissingExtra, UsageError
from clfeval.render import render, to_json
from tests._helpers.clihelp import run as _run_cli
from tests._helpers.slicedata import planted


def simpson():
    """Precision of 'pos', hand-built: in site x A 90/100 = 0.90, B 10/10 = 1.00; in site y A 1/10 = 0.10,
    B 20/100 = 0.20; overall A 91/110 = 0.827, B 30/110 = 0.273. B better in both sites, A overall."""
    g, a, b, s = [], [], [], []
    for i in range(100):
        g.append("pos"); a.append("pos" if i < 90 else "neg"); b.append("pos" if i < 10 else "neg"); s.append("x")  # noqa: E702
    for i in range(100):
        g.append("neg"); a.append("pos" if i < 10 else "neg"); b.append("neg"); s.append("x")  # noqa: E702
    for i in range(30):
        g.append("pos"); a.append("pos" if i < 1 else "neg"); b.append("pos" if i < 20 else "neg"); s.append("y")  # noqa: E702
    for i in range(170):
        g.append("neg"); a.append("pos" if i < 9 else "neg"); b.append("pos" if i < 80 else "neg"); s.append("y")  # noqa: E702
    return g, a, b, s


def test_compare_by_names_simpsons_paradox_and_matches_compare_per_slice():
    g, a, b, s = simpson()
    r = clfeval.compare(g, a, b, metric="precision:pos", samples=300, by={"site": s})
    assert r.overall.a == pytest.approx(91 / 110) and r.overall.b == pytest.approx(30 / 110)
    x, y = r.slices
    assert (x.a, x.b, y.a, y.b) == pytest.approx((0.9, 1.0, 0.1, 0.2))
    assert r.simpson.startswith("Simpson's paradox: A is better than B overall")
    idx = [i for i in range(len(g)) if s[i] == "y"]
    alone = clfeval.compare([g[i] for i in idx], [a[i] for i in idx], [b[i] for i in idx], metric="precision:pos",
                            samples=300)
    assert y.delta == pytest.approx(alone.delta)
    from statsmodels.stats.multitest import multipletests
    assert [x.p_holm, y.p_holm] == pytest.approx(list(multipletests([x.p, y.p], method="holm")[1]))
    frame = r.to_frame()
    assert list(frame["slice"]) == ["x", "y"] and list(frame["n"]) == [200, 200]
    no = clfeval.compare(g, a, b, metric="accuracy", samples=200, by={"site": s})
    assert no.simpson is None  # accuracy is a mean over the same items: no paradox possible


def test_compare_by_on_files_joined_by_id(tmp_path):
    g, a, b, s = simpson()
    ids = list(range(len(g)))
    pq.write_table(pa.table({"id": ids, "gold": g, "pred": a, "site": s}), tmp_path / "a.parquet")
    pq.write_table(pa.table({"id": ids[::-1], "gold": g[::-1], "pred": b[::-1]}), tmp_path / "b.parquet")
    out = subprocess.run([sys.executable, "-m", "clfeval", "compare", str(tmp_path / "a.parquet"),
                          str(tmp_path / "b.parquet"), "--by", "site", "-m", "precision:pos", "-b", "200",
                          "--format", "json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["simpson"] and [r["b"] for r in d["slices"]] == pytest.approx([1.0, 0.2])


def test_command_line_outputs_and_bad_input(tmp_path):
    """In-process (tests/_helpers/clihelp.py): the exit code, stdout and stderr of each run, without eight
    interpreter start-ups."""
    p = tmp_path / "p.parquet"
    pq.write_table(planted(4_000), p)
    def run(*args: str) -> subprocess.CompletedProcess:
        res = _run_cli("report", str(p), *args)
        return subprocess.CompletedProcess(args, res.code, res.out, res.err)

    out = run("--by", "source", "--positive", "pos", "--slice-samples", "50")
    assert out.returncode == 0 and "By slice: source (20 slices)" in out.stdout and "Group fairness" in out.stdout
    md = run("--by", "source", "--positive", "pos", "--slice-samples", "50", "--format", "markdown").stdout
    assert "| slice | n | recall:pos |" in md
    js = json.loads(run("--by", "source", "--format", "json", "--slice-samples", "50").stdout)
    assert js["slices"]["n_slices"] == 20
    for args, needle, code in [(("--by", "nope"), "no column 'nope' (option --by)", 1),
                               (("--by", "source", "--max-slices", "3"), "more than 3 slices (option --max-slices)", 2),
                               (("--by", "length"), "more than 1,000 slices", 2),
                               (("--by", "source", "--multilabel"), "single-label", 2)]:
        bad = run(*args)
        assert bad.returncode == code and needle in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
    req = run("--by", "source", "--positive", "pos", "--slice-samples", "50",
              "--require", "min_slice(recall:pos)>=0.9", "--require", "equalized_odds_difference<=0.5")
    assert req.returncode == 3 and "min_slice(recall:pos)>=0.9" in req.stdout


def test_requirement_functions_read_the_slices():
    from clfeval.evaluate._requirements import check_requirements

    t = planted(4_000)
    rep = clfeval.report(t, by="source", positive="pos", slice_samples=50)
    sec = rep.slices.to_dict()
    big = [r for r in sec["slices"] if not r["small"]]
    worst = min(r["metrics"]["recall:pos"] for r in big)
    gap = max(abs(r["metrics"]["accuracy"] - sec["overall"]["accuracy"]) for r in big)
    eo = sec["fairness"]["measures"]["equalized_odds_difference"]
    got = check_requirements(rep, [f"min_slice(recall:pos)>={worst - 1e-9}", "max_slice_gap(accuracy)<=1",
                                   "equalized_odds_difference<=0.01"]).conditions
    assert [c["value"] for c in got] == pytest.approx([worst, gap, eo])
    assert [c["met"] for c in got] == [True, True, eo <= 0.01]
    plain = clfeval.report(t, positive="pos")
    with pytest.raises(UsageError, match="--by|by="):
        check_requirements(plain, ["min_slice(recall:pos)>=0.5"])


def test_slices_frame_and_missing_pandas(monkeypatch):
    from clfeval.slicing._slices import slices_frame

    rep = clfeval.report(planted(2_000), by="source", positive="pos", slice_samples=20)
    f = slices_frame(rep)
    rec = f[f["metric"] == "recall:pos"]  # tidy: one row per slice × metric
    assert len(rec) == 20 and rec["n"].sum() == 2_000 and rec["p_holm"].notna().all()
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingExtra, match="pandas"):
        slices_frame(rep)


def test_html_page_has_the_forest_plot_and_escapes_slice_names():
    from clfeval.render.html import page

    t = planted(3_000)
    src = np.array(t.column("source").to_pylist(), dtype=object)
    src[src == "s01"] = "<b>x</b>"
    t = t.set_column(t.column_names.index("source"), "source", pa.array(src))
    html = page(clfeval.report(t, by="source", positive="pos", slice_samples=20))
    assert "Forest plot of the slices" in html and "<b>x</b>" not in html
    text = render(clfeval.report(t, by="source", positive="pos", slice_samples=20), "text")
    assert "<b>x</b>" in text  # shown as text, inert


def test_threshold_by_reports_the_one_dev_cut_per_slice(tmp_path):
    from sklearn.metrics import precision_score, recall_score

    rng = np.random.default_rng(0)
    n = 3_000
    g = rng.random(n) < 0.4
    s = np.round(np.clip(g * 0.3 + rng.random(n) * 0.7, 0, 1), 4)
    grp = np.array(["a", "b", "c"])[np.arange(n) % 3]
    dg = rng.random(n) < 0.4
    ds = np.round(np.clip(dg * 0.3 + rng.random(n) * 0.7, 0, 1), 4)
    gold, dev = np.where(g, "y", "n"), (np.where(dg, "y", "n"), ds)
    # 50 redraws of the slice tests (the default 1,000 took 8 s each run): the cut and the slices' point values
    # checked here do not depend on them
    r = clfeval.threshold(gold, s, dev=dev, positive="y", by={"grp": grp}, slice_samples=50)
    plain = clfeval.threshold(gold, s, dev=dev, positive="y")
    assert r.choice.threshold == plain.threshold and r.slices.threshold == plain.threshold
    pred = np.where(s >= plain.threshold, "y", "n")
    for row in r.slices.rows:
        m = grp == row.slice
        assert row.metrics["recall:y"] == pytest.approx(recall_score(gold[m], pred[m], pos_label="y"))
        assert row.metrics["precision:y"] == pytest.approx(precision_score(gold[m], pred[m], pos_label="y"))
    pq.write_table(pa.table({"gold": gold, "score": s, "grp": grp}), tmp_path / "t.parquet")
    pq.write_table(pa.table({"gold": dev[0], "score": dev[1]}), tmp_path / "d.parquet")
    out = subprocess.run([sys.executable, "-m", "clfeval", "threshold", str(tmp_path / "t.parquet"), "--dev",
                          str(tmp_path / "d.parquet"), "--score", "score", "--positive", "y", "--by", "grp",
                          "--slice-samples", "50", "--format", "json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert [x["metrics"]["recall:y"] for x in d["slices"]["slices"]] == \
        pytest.approx([x.metrics["recall:y"] for x in r.slices.rows])


def test_calibration_by_slice_equals_scikit_learn_on_each_slice():
    from sklearn.metrics import brier_score_loss, log_loss

    rng = np.random.default_rng(0)
    n = 3_000
    p = rng.random(n)
    g = rng.random(n) < np.where(np.arange(n) % 3 == 0, p ** 2, p)
    grp = np.array(["a", "b", "c"])[np.arange(n) % 3]
    gold = np.where(g, "y", "n")
    r = clfeval.calibration(gold, p, positive="y", by={"grp": grp}, bins=10)
    for row in r.slices.rows:
        m = grp == row.slice
        assert row.brier == pytest.approx(brier_score_loss(g[m], p[m]))
        assert row.log_loss == pytest.approx(log_loss(g[m], p[m]))
        one = clfeval.calibration(gold[m], p[m], positive="y", bins=10)
        assert row.ece == pytest.approx(one.ece)
    assert max(r.slices.rows, key=lambda x: x.ece).slice == "a"  # the miscalibrated third


def test_threshold_by_streamed_equals_in_memory_equals_dask(tmp_path, dask_client):
    """One cut chosen on DEV overall; the test data's slice tables at that cut counted in memory, streamed within
    --memory and on Dask: the same slices section; the slices' recall against scikit-learn."""
    from sklearn.metrics import recall_score

    rng = np.random.default_rng(7)
    n = 3_000
    g = rng.random(n) < 0.4
    s = np.round(np.clip(g * 0.3 + rng.random(n) * 0.7, 0, 1), 3)
    grp = rng.choice(["a", "b", "c", "d"], n)
    dg = rng.random(n) < 0.4
    ds = np.round(np.clip(dg * 0.3 + rng.random(n) * 0.7, 0, 1), 3)
    gold = np.where(g, "y", "n")
    t = tmp_path / "test"
    t.mkdir()
    for i in range(3):
        pq.write_table(pa.table({"gold": gold, "score": s, "grp": grp}).slice(i * 1000, 1000),
                       t / f"part-{i}.parquet", row_group_size=250)
    pq.write_table(pa.table({"gold": np.where(dg, "y", "n"), "score": ds}), tmp_path / "dev.parquet")
    kw = dict(positive="y", slice_samples=30)
    mem = clfeval.threshold(gold, s, dev=(np.where(dg, "y", "n"), ds), by={"grp": grp}, **kw)
    streamed = clfeval.threshold(str(t), dev=str(tmp_path / "dev.parquet"), score="score", by="grp",
                                 engine=clfeval.Local(memory="1MB"), **kw)
    on_dask = clfeval.threshold(str(t), dev=str(tmp_path / "dev.parquet"), score="score", by="grp",
                                engine=clfeval.Dask(dask_client), **kw)
    assert streamed.engine["mode"] == "streamed" and on_dask.engine["mode"] == "cluster"
    sections = [json.loads(to_json(r))["slices"] for r in (mem, streamed, on_dask)]
    assert sections[0] == sections[1] == sections[2]
    pred = np.where(s >= mem.slices.threshold, "y", "n")
    for row in sections[1]["slices"]:
        m = grp == row["slice"]
        assert row["metrics"]["recall:y"] == pytest.approx(recall_score(gold[m], pred[m], pos_label="y"))
