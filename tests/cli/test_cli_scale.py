"""The command line of large inputs: --memory, --score-bins / --score-binning, --engine dask / --scheduler."""

from __future__ import annotations

import json
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import clfeval
from tests._helpers.clihelp import assert_clean_error, run

LABELS = np.array(["cat", "dog", "eel"])


def _cols(n: int = 1200, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    gold = rng.choice(LABELS, n, p=[0.5, 0.3, 0.2])
    pred = np.where(rng.random(n) < 0.7, gold, rng.choice(LABELS, n))
    scores = np.round(rng.random((n, 3)) * 0.7 + 0.3 * (gold[:, None] == LABELS[None, :]), 2)  # heavy ties
    return {"id": np.arange(n), "gold": gold, "pred": pred, "score": scores[:, 1],
            **{f"score:{lab}": scores[:, j] for j, lab in enumerate(LABELS)}}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """The same items as one CSV file and as a directory of Parquet files (row groups of 100 rows)."""
    d = tmp_path_factory.mktemp("scale")
    cols = _cols()
    t = pa.table(cols)
    csv = d / "p.csv"
    names = list(cols)
    lines = [",".join(names)] + [",".join(str(cols[c][i]) for c in names) for i in range(len(cols["id"]))]
    csv.write_text("\n".join(lines) + "\n")
    parts = d / "parts"
    parts.mkdir()
    for i, (lo, hi) in enumerate([(0, 1), (1, 1), (1, 500), (500, 1200)]):
        pq.write_table(t.slice(lo, hi - lo), parts / f"part-{i}.parquet", row_group_size=100)
    return {"csv": csv, "dir": parts, "cols": cols}


def _json(*args) -> dict:
    res = run(*args, "--format", "json")
    assert res.code == 0, res.err
    return json.loads(res.out)


def _dump(d) -> str:
    return json.dumps(d, sort_keys=True)


# --- exact rankings streamed within --memory ------------------------------------------------

def test_report_score_streams_the_in_memory_numbers_bit_for_bit_when_spilled(data):
    c = data["cols"]
    local = clfeval.report(list(c["gold"]), list(c["pred"]), scores=c["score"], positive="dog").to_dict()
    for path in (data["csv"], data["dir"]):
        out = _json("report", path, "--score", "score", "--positive", "dog", "--memory", "4096")
        ext = out["ranking"].pop("external")
        assert ext["spilled"] is True and ext["runs"] >= 2 and ext["memory"] == 4096
        assert _dump(out["ranking"]) == _dump(local["ranking"])
        for key in ("per_class", "macro", "binary", "confusion_matrix"):
            assert _dump(out[key]) == _dump(local[key])
    roomy = _json("report", data["csv"], "--score", "score", "--positive", "dog")
    assert roomy["ranking"]["external"]["spilled"] is False and roomy["ranking"]["external"]["memory"] == 1 << 30
    text = run("report", data["csv"], "--score", "score", "--positive", "dog", "--memory", "4KiB").out
    assert "spilled to disk" in text and "every number is exact" in text
    # issue 19: nothing said when nothing spilled (the JSON's external says so)
    assert "spill" not in run("report", data["csv"], "--score", "score", "--positive", "dog").out


def test_report_scores_prefix_streams_one_vs_rest_bit_for_bit(data):
    c = data["cols"]
    scores = {lab: c[f"score:{lab}"] for lab in LABELS}
    local = clfeval.report(list(c["gold"]), list(c["pred"]), scores=scores).to_dict()
    out = _json("report", data["dir"], "--scores-prefix", "score:", "--memory", "4096", "--show-errors", "3")
    assert out["ranking"].pop("external")["spilled"] is True
    assert _dump(out["ranking"]) == _dump(local["ranking"])
    assert out["errors"]["shown"] == 3  # --show-errors streams too


def test_report_ci_keeps_the_exact_in_memory_ranking(data):
    out = _json("report", data["csv"], "--score", "score", "--positive", "dog", "--ci", "0.9", "--samples", "200")
    assert "external" not in out["ranking"] and "ranking_ci" in out


# --- binned scores --------------------------------------------------------------------------

def _binned_auc(y: np.ndarray, s: np.ndarray, cuts: np.ndarray) -> tuple[float, float]:
    """Hand computation: scores replaced by their bins, pairs in a common bin counted ½; the bound ½·tied/pairs."""
    b = np.searchsorted(cuts, s, side="right")
    bp, bn = b[y], b[~y]
    above = (bp[:, None] > bn[None, :]).sum()
    tied = (bp[:, None] == bn[None, :]).sum()
    pairs = bp.size * bn.size
    return (above + tied / 2) / pairs, tied / (2 * pairs)


def _exact_auc(y: np.ndarray, s: np.ndarray) -> float:
    sp, sn = s[y], s[~y]
    return ((sp[:, None] > sn[None, :]).sum() + (sp[:, None] == sn[None, :]).sum() / 2) / (sp.size * sn.size)


@pytest.mark.parametrize("kind", ["uniform", "quantile"])
def test_report_score_bins_within_the_printed_bound(data, kind):
    c = data["cols"]
    y, s = c["gold"] == "dog", c["score"]
    out = _json("report", data["csv"], "--score", "score", "--positive", "dog", "--score-bins", "8",
                "--score-binning", kind)
    rk = out["ranking"]
    bound = rk["binned"]["auc_error_bound"]
    assert abs(rk["roc_auc"] - _exact_auc(y, s)) <= bound
    assert rk["binned"]["binning"]["kind"] == kind and rk["binned"]["exact"] is False
    if kind == "uniform":  # edges known independently: equal widths over [min, max]
        cuts = s.min() + (s.max() - s.min()) * np.arange(1, 8) / 8
        auc, hand_bound = _binned_auc(y, s, cuts)
        assert rk["roc_auc"] == pytest.approx(auc, abs=1e-15) and bound == pytest.approx(hand_bound, rel=1e-12)
    assert _dump(_json("report", data["dir"], "--score", "score", "--positive", "dog", "--score-bins", "8",
                       "--score-binning", kind)["ranking"]) == _dump(rk)  # the same bins from any split
    text = run("report", data["csv"], "--score", "score", "--positive", "dog", "--score-bins", "8").out
    assert "ROC-AUC (binned)" in text and "±" in text and "at the bin edges" in text
    md = run("report", data["csv"], "--score", "score", "--positive", "dog", "--score-bins", "8", "-f", "markdown").out
    assert "±" in md and "bin edges" in md


def test_report_score_bins_in_html(data, tmp_path):
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    out = tmp_path / "r.html"
    res = run("report", data["csv"], "--score", "score", "--positive", "dog", "--score-bins", "8", "-f", "html",
              "-o", out)
    assert res.code == 0, res.err
    page = out.read_text()
    assert "±" in page and "bin edges" in page
    summary = page.split('id="summary"', 1)[1].split("</section>", 1)[0]  # the headline cards say it too
    assert "ROC-AUC (binned)" in summary and "|error| at most" in summary and "at the bin edges" in summary


def test_compare_score_bins_runs_the_count_based_bootstrap(tmp_path):
    rng = np.random.default_rng(3)
    n = 600
    y = rng.random(n) < 0.4
    gold = np.where(y, "pos", "neg")
    sa = np.round(rng.random(n) * 0.6 + 0.4 * y, 3)
    sb = np.round(rng.random(n) * 0.9 + 0.1 * y, 3)
    for name, s in (("a", sa), ("b", sb)):
        perm = rng.permutation(n)  # the files list the items in different orders: matched by id
        (tmp_path / f"{name}.csv").write_text("id,gold,score\n" + "".join(f"{i},{gold[i]},{s[i]}\n" for i in perm))
    args = ["compare", tmp_path / "a.csv", tmp_path / "b.csv", "--metric", "roc_auc", "--score", "score",
            "--positive", "pos", "--score-bins", "10", "--score-binning", "uniform", "--samples", "300"]
    d = _json(*args)
    for value, s in ((d["a"], sa), (d["b"], sb)):
        cuts = s.min() + (s.max() - s.min()) * np.arange(1, 10) / 10
        assert value == pytest.approx(_binned_auc(y, s, cuts)[0], abs=1e-12)
    assert d["p_value"] < 0.05 and any("Error bounds" in note for note in d["notes"])
    assert _dump(_json(*args)) == _dump(d)  # seeded
    rnd = _json(*args[:-2], "--samples", "200", "--test", "randomization")  # one binning for both systems
    assert 0 <= rnd["p_value"] <= 1
    accuracy = ["compare", tmp_path / "a.csv", tmp_path / "b.csv", "--score", "score", "--positive", "pos"]
    assert_clean_error(run(*accuracy, "--score-bins", "10"), 2, "--score-bins", "roc_auc")
    assert_clean_error(run(*args, "--margin", "0.01"), 2, "--score-bins")


# --- --memory elsewhere -----------------------------------------------------------------------

def test_compare_memory_spills_the_id_join(data, tmp_path):
    c = data["cols"]
    other = tmp_path / "other.csv"
    rng = np.random.default_rng(1)
    pred = np.where(rng.random(len(c["id"])) < 0.6, c["gold"], "cat")
    other.write_text("id,gold,pred\n" + "".join(f"{i},{g},{p}\n" for i, g, p in zip(c["id"], c["gold"], pred,
                                                                                    strict=True)))
    small = _json("compare", data["csv"], other, "--samples", "100", "--memory", "4096")
    roomy = _json("compare", data["csv"], other, "--samples", "100")
    assert "hash partitions on disk" in _dump(small) and "hash partitions on disk" not in _dump(roomy)
    for key in ("a", "b", "delta", "p_value"):
        assert small[key] == roomy[key]


def test_calibration_ranks_beyond_memory_exactly(data):
    from sklearn.metrics import average_precision_score, roc_auc_score

    full = _json("calibration", data["csv"], "--prob", "score", "--positive", "dog")
    small = _json("calibration", data["csv"], "--prob", "score", "--positive", "dog", "--memory", "4096")
    assert small["ranking"] == full["ranking"]  # the spilled ranking gives the in-memory numbers, bit for bit
    assert any("spilled to disk" in n for n in small["notes"]) and not any("spilled" in n for n in full["notes"])
    assert small["ece"] == full["ece"] and small["brier"] == full["brier"]
    import pyarrow.csv as pcsv

    t = pcsv.read_csv(data["csv"])
    y = [g == "dog" for g in t.column("gold").cast("string").to_pylist()]
    sc = t.column("score").to_pylist()
    assert small["ranking"]["roc_auc"] == pytest.approx(roc_auc_score(y, sc), abs=1e-12)
    assert small["ranking"]["average_precision"] == pytest.approx(average_precision_score(y, sc), abs=1e-12)


# --- threshold: the streamed choice equals the in-memory one ---------------------------------

def _batches(g, s, k=97):
    return [(g[i:i + k], s[i:i + k]) for i in range(0, len(g), k)]


def test_threshold_batches_equal_choose_threshold_bit_for_bit_when_spilled():
    """The streamed choice (sorted runs spilled, the cut chosen range by range) against the in-memory one on
    heavy ties, logit scores (default cut 0), an all-positive test set, a given default and every objective,
    refusals included (an unreachable precision target says the same thing)."""
    from clfeval.errors import DataError
    from clfeval.scores._thresholds import choose_threshold, choose_threshold_batches

    rng = np.random.default_rng(5)
    spilled = 0
    for trial in range(6):
        n, m = int(rng.integers(1, 1500)), int(rng.integers(2, 1500))
        g, d = rng.choice(LABELS, n), rng.choice(LABELS, m)
        d[:2] = ["dog", "cat"]
        if trial == 3:
            g[:] = "dog"  # no negative in the test data
        s = np.round(rng.random(n) + 0.3 * (g == "dog"), 2)
        ds = np.round(rng.random(m) + 0.3 * (d == "dog"), 2)
        if trial % 3 == 1:
            s, ds = s * 4 - 2, ds * 4 - 2
        for obj in ("f1", "f0.5", "f2", "cost", "precision>=0.6", "recall>=0.8", "precision>=0.9999"):
            kw = dict(positive="dog", objective=obj, cost_fp=2.0, cost_fn=0.5,
                      default_threshold=0.3 if trial == 5 else None)
            try:
                want = _dump(choose_threshold(list(g), s, dev_gold=list(d), dev_scores=ds, **kw).to_dict())
            except DataError as exc:
                want = f"refused: {exc}"
            try:
                got = choose_threshold_batches(_batches(g, s), _batches(d, ds), memory=4096, **kw).to_dict()
                spilled += got.pop("external")["spilled"]
                got = _dump(got)
            except DataError as exc:
                got = f"refused: {exc}"
            assert got == want, (trial, obj)
        alone = choose_threshold_batches(_batches(g, s), memory=4096, positive="dog").to_dict()
        alone.pop("external")
        assert _dump(alone) == _dump(choose_threshold(list(g), s, positive="dog").to_dict())
    assert spilled > 20  # most choices really spilled


@pytest.fixture(scope="module")
def dev_csv(tmp_path_factory):
    c = _cols(700, seed=3)
    path = tmp_path_factory.mktemp("dev") / "dev.csv"
    path.write_text("gold,score\n" + "".join(f"{g},{s}\n" for g, s in zip(c["gold"], c["score"], strict=True)))
    return path, c


@pytest.mark.parametrize("obj", ["f1", "f2", "cost", "precision>=0.5", "recall>=0.9"])
def test_threshold_command_streams_the_in_memory_numbers(data, dev_csv, obj):
    from clfeval.scores._thresholds import choose_threshold

    dev, dc = dev_csv
    c = data["cols"]
    local = choose_threshold(list(c["gold"]), c["score"], positive="dog", dev_gold=list(dc["gold"]),
                             dev_scores=dc["score"], objective=obj, cost_fp=3.0).to_dict()
    out = _json("threshold", data["dir"], "--dev", dev, "--score", "score", "--positive", "dog", "--objective", obj,
                "--cost-fp", "3", "--memory", "4096")
    ext = out.pop("external")
    out.pop("engine")  # the front door's engine block (issue 21): where it ran, not what it computed
    assert ext["spilled"] is True and ext["runs"] >= 2 and ext["memory"] == 4096
    assert _dump(out) == _dump(local)


def test_threshold_command_says_whether_it_spilled_and_keeps_the_default_rule(data, tmp_path):
    dev = tmp_path / "dev.csv"
    dev.write_text("gold,score\ndog,1.5\ncat,0.2\ndog,0.7\ncat,0.4\n")  # one dev score outside [0, 1]
    args = ["threshold", data["csv"], "--dev", dev, "--score", "score", "--positive", "dog"]
    out = _json(*args)
    assert out["default"]["threshold"] == 0.0 and "outside [0, 1]" in out["default"]["source"]
    assert out["external"] == {"memory": 1 << 30, "spilled": False, "runs": 0}
    assert "spill" not in run(*args).out  # issue 19: said only when it spilled
    assert "spilled to disk" in run(*args, "--memory", "4KiB").out
    dev.write_text("gold,score\ndog,0.5\ndog,0.2\n")
    assert_clean_error(run(*args), 1, "only one class", "dev.csv")
    dev.write_text("gold,score\ncat,0.5\neel,0.2\n")
    assert_clean_error(run(*args), 1, "cannot be used to choose a threshold", "'dog'", "does not occur")
    assert_clean_error(run(*args, "--memory", "12XB"), 2, "--memory")


# --- bad values: one paragraph naming the option, exit 2 --------------------------------------

@pytest.mark.parametrize("args, needle", [
    (["--memory", "12XB"], "--memory"),
    (["--memory", "10"], "--memory"),
    (["--score", "score", "--positive", "dog", "--score-bins", "0"], "--score-bins"),
    (["--score-bins", "5"], "--score-bins"),
    (["--score", "score", "--positive", "dog", "--score-bins", "5", "--score-binning", "log"], "--score-binning"),
    (["--engine", "spark"], "--engine"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
    (["--engine", "dask", "--score", "score", "--positive", "dog", "--threshold", "0.5"], "--threshold"),
])
def test_report_refuses_bad_scale_options(data, args, needle):
    assert_clean_error(run("report", data["csv"], *args), 2, needle)


@pytest.mark.parametrize("cmd", [["compare", "A", "B"], ["calibration", "A", "--prob", "score", "--positive", "dog"]])
def test_other_commands_refuse_bad_scale_options(data, cmd):
    argv = [data["csv"] if a in ("A", "B") else a for a in cmd]
    assert_clean_error(run(*argv, "--memory", "12XB"), 2, "--memory")
    assert_clean_error(run(*argv, "--engine", "spark"), 2, "--engine")
    assert_clean_error(run(*argv, "--scheduler", "tcp://127.0.0.1:1"), 2, "--scheduler", "--engine dask")


def test_engine_dask_without_the_extra_is_a_missing_extra_error(data, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed → ImportError
    res = run("report", data["csv"], "--engine", "dask")
    assert_clean_error(res, 2, "--engine dask", "clfeval[dask]")


# --- --engine dask on the session's LocalCluster -------------------------------------------------

@pytest.fixture(scope="module")
def scheduler(dask_client):
    return dask_client.scheduler.address


def test_report_engine_dask_equals_local(data, scheduler):
    local = _json("report", data["dir"], "--score", "score", "--positive", "dog")
    local["ranking"].pop("external")
    remote = _json("report", data["dir"], "--score", "score", "--positive", "dog", "--engine", "dask",
                   "--scheduler", scheduler)
    for key in ("per_class", "macro", "micro", "binary", "confusion_matrix", "ranking", "accuracy"):
        assert _dump(remote[key]) == _dump(local[key]), key
    binned_local = _json("report", data["dir"], "--score", "score", "--positive", "dog", "--score-bins", "16")
    binned = _json("report", data["dir"], "--score", "score", "--positive", "dog", "--score-bins", "16",
                   "--engine", "dask", "--scheduler", scheduler)
    assert _dump(binned["ranking"]) == _dump(binned_local["ranking"])


def test_compare_and_calibration_engine_dask_equal_local(data, scheduler, tmp_path):
    c = data["cols"]
    other = tmp_path / "other.csv"
    pred = np.where(np.arange(len(c["id"])) % 3 == 0, "cat", c["gold"])
    other.write_text("id,gold,pred\n" + "".join(f"{i},{g},{p}\n" for i, g, p in zip(c["id"], c["gold"], pred,
                                                                                    strict=True)))
    args = ["compare", data["csv"], other, "--metric", "macro_f1", "--samples", "300"]
    local, remote = _json(*args), _json(*args, "--engine", "dask", "--scheduler", scheduler)
    for key in ("a", "b", "delta", "p_value", "ci"):
        assert remote[key] == local[key], key
    cal = ["calibration", data["dir"], "--prob", "score", "--positive", "dog"]
    lc, rc = _json(*cal), _json(*cal, "--engine", "dask", "--scheduler", scheduler)
    for key in ("n", "ece", "mce", "brier", "log_loss", "bins", "ranking"):
        assert _dump(rc[key]) == _dump(lc[key]), key
    assert_clean_error(run(*args, "--engine", "dask", "--margin", "0.01"), 2, "--margin")
