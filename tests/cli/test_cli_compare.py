"""`clfeval compare`, `clfeval report --ci` and `clfeval demo bootstrap` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scipy import stats

from tests._helpers import mc
from tests._helpers.clihelp import run

LABELS = np.array(["news", "sport", "tech"])


def systems(n=300, seed=2):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.85, g, (g + 1) % 3)
    b = np.where(rng.random(n) < 0.72, g, (g + 1) % 3)
    c = np.where(rng.random(n) < 0.60, g, (g + 2) % 3)
    return g, a, b, c


def write(path: Path, gold, pred, ids=None, order=None) -> Path:
    order = np.arange(len(gold)) if order is None else order
    head = "id,gold,pred\n" if ids is not None else "gold,pred\n"
    lines = [(f"{ids[i]}," if ids is not None else "") + f"{LABELS[gold[i]]},{LABELS[pred[i]]}\n" for i in order]
    path.write_text(head + "".join(lines))
    return path


@pytest.fixture
def files(tmp_path):
    g, a, b, c = systems()
    ids = [f"d{i}" for i in range(len(g))]
    rng = np.random.default_rng(0)
    return {"a": write(tmp_path / "a.csv", g, a, ids),
            "b": write(tmp_path / "b.csv", g, b, ids, order=rng.permutation(len(g))),
            "c": write(tmp_path / "c.csv", g, c, ids, order=rng.permutation(len(g))),
            "data": (g, a, b, c), "ids": ids, "dir": tmp_path}


def assert_clean_error(res, code, *needles):
    assert res.code == code, (res.code, res.err)
    assert res.out == "" and "Traceback" not in res.err
    for n in needles:
        assert n in res.err, (n, res.err)


def test_text_output_has_scores_delta_p_ci_and_a_sentence(files):
    res = run("compare", files["a"], files["b"], "--metric", "macro_f1", "--samples", "2000")
    assert res.code == 0, res.err
    out = res.out
    assert "macro-F1" in out and "A: a" in out and "B: b" in out and "δ = A − B" in out and "95% low" in out
    assert "a's macro-F1 is " in out and "higher than b's; p " in out and "unlikely to be luck on this test set." in out


def test_json_keys_and_alignment_by_id(files):
    res = run("compare", files["a"], files["b"], "--samples", "1000", "--seed", "3", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    for key in ("metric", "a", "b", "delta", "test", "samples", "seed", "p_value", "ci"):
        assert key in d, key
    g, a, b, _ = files["data"]
    assert d["a"] == pytest.approx(np.mean(a == g)) and d["b"] == pytest.approx(np.mean(b == g))  # b.csv is shuffled
    assert (d["samples"], d["seed"], d["test"], d["metric"]) == (1000, 3, "bootstrap", "accuracy")
    assert set(d["ci"]) >= {"level", "delta", "a", "b"}


def test_same_seed_same_output_different_seed_differs(files):
    args = ("compare", files["a"], files["b"], "--metric", "macro_f1", "--samples", "500", "--format", "json")
    one, two, other = run(*args, "--seed", "1"), run(*args, "--seed", "1"), run(*args, "--seed", "2")
    assert one.out == two.out and one.out != other.out


def test_alignment_by_row_without_ids(tmp_path):
    g, a, b, _ = systems()
    res = run("compare", write(tmp_path / "x.csv", g, a), write(tmp_path / "y.csv", g, b), "--test", "mcnemar",
              "--format", "json", "--samples", "100")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    n_ab = int(np.sum((a == g) & (b != g)))
    n_ba = int(np.sum((a != g) & (b == g)))
    assert d["mcnemar"]["n_ab"] == n_ab and d["mcnemar"]["n_ba"] == n_ba
    assert d["p_value"] == stats.binomtest(n_ab, n_ab + n_ba, 0.5, alternative="greater").pvalue


def test_parquet_with_integer_labels_beside_csv(files, tmp_path):
    g, _, b, _ = files["data"]
    path = tmp_path / "b.parquet"
    pq.write_table(pa.table({"id": files["ids"], "gold": LABELS[g], "pred": LABELS[b]}), path)
    res = run("compare", files["a"], path, "--samples", "200", "--format", "json")
    assert res.code == 0, res.err
    assert json.loads(res.out)["b"] == pytest.approx(np.mean(b == g))


def test_several_files_with_baseline_and_holm(files):
    res = run("compare", files["a"], files["b"], files["c"], "--baseline", "c", "--metric", "macro_f1",
              "--samples", "1000", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert d["baseline"] == "c" and [(r["a"], r["b"]) for r in d["comparisons"]] == [("a", "c"), ("b", "c")]
    ps = sorted(r["p_value"] for r in d["comparisons"])
    assert max(r["p_adjusted"] for r in d["comparisons"]) >= ps[-1]
    text = run("compare", files["a"], files["b"], files["c"], "--samples", "500")
    assert text.code == 0 and "Holm" in text.out and "p (Holm)" in text.out
    md = run("compare", files["a"], files["b"], files["c"], "--samples", "500", "--format", "markdown")
    assert md.code == 0 and md.out.startswith("## clfeval compare")


def test_baseline_as_first_file_is_b(files):
    res = run("compare", files["c"], files["a"], "--baseline", str(files["c"]), "--samples", "200", "--format", "json")
    d = json.loads(res.out)
    assert d["names"] == {"a": "a", "b": "c"}


def test_output_file_written(files):
    out = files["dir"] / "out.json"
    res = run("compare", files["a"], files["b"], "--samples", "200", "--format", "json", "--output", out)
    assert res.code == 0 and res.out == "" and json.loads(out.read_text())["test"] == "bootstrap"


# --- bad input ---------------------------------------------------------------------------

def test_fewer_than_two_files(files):
    assert_clean_error(run("compare", files["a"]), 2, "at least two")
    assert_clean_error(run("compare"), 2, "at least two")


def test_ids_missing_on_each_side_are_named(tmp_path):
    g, a, b, _ = systems(20)
    x = write(tmp_path / "x.csv", g, a, [f"d{i}" for i in range(20)])
    y = write(tmp_path / "y.csv", g, b, [f"d{i}" for i in range(1, 20)] + ["zz"])
    assert_clean_error(run("compare", x, y), 1, "'d0'", "'zz'", "x.csv", "y.csv")


def test_gold_labels_that_differ_name_the_first_id(tmp_path):
    g, a, b, _ = systems(20)
    g2 = g.copy()
    g2[7] = (g2[7] + 1) % 3
    g2[9] = (g2[9] + 1) % 3
    ids = [f"d{i}" for i in range(20)]
    res = run("compare", write(tmp_path / "x.csv", g, a, ids), write(tmp_path / "y.csv", g2, b, ids))
    assert_clean_error(res, 1, "gold labels differ", "'d7'", "2 item(s) differ")


def test_id_column_on_one_side_only(tmp_path):
    g, a, b, _ = systems(20)
    res = run("compare", write(tmp_path / "x.csv", g, a, [f"d{i}" for i in range(20)]), write(tmp_path / "y.csv", g, b))
    assert_clean_error(res, 1, "id column", "y.csv")


def test_rows_differ_without_ids(tmp_path):
    g, a, b, _ = systems(20)
    res = run("compare", write(tmp_path / "x.csv", g, a), write(tmp_path / "y.csv", g[:15], b[:15]))
    assert_clean_error(res, 1, "20 rows", "15 rows")


@pytest.mark.parametrize("args,code,needles", [
    (("--samples", "0"), 2, ("--samples", ">= 1")),
    (("--metric", "acuracy"), 2, ("unknown metric", "accuracy, error_rate", "macro_f1")),
    (("--test", "t-test"), 2, ("bootstrap", "randomization", "mcnemar")),
    (("--test", "mcnemar", "--metric", "macro_f1"), 2, ("McNemar",)),
    (("--alpha", "0"), 2, ("--alpha",)),
    (("--baseline", "nope"), 2, ("--baseline", "nope")),
    (("--metric", "f1:nope"), 1, ("nope", "news")),
])
def test_bad_options_are_refused_cleanly(files, args, code, needles):
    res = run("compare", files["a"], files["b"], *args)
    assert res.code == code, (res.code, res.err)
    assert res.out == "" and "Traceback" not in res.err
    for n in needles:
        assert n in res.err, (n, res.err)


def test_missing_file(files):
    assert_clean_error(run("compare", files["a"], files["dir"] / "nope.csv"), 2, "nope.csv")


# --- report --ci and demo bootstrap -------------------------------------------------------

def test_report_ci(files):
    res = run("report", files["a"], "--ci", "0.9", "--samples", "2000", "--seed", "4", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    ci = d["ci"]
    assert (ci["level"], ci["samples"], ci["seed"]) == (0.9, 2000, 4)
    assert ci["accuracy"][0] < d["accuracy"] < ci["accuracy"][1]
    assert set(ci["per_class"]) == set(d["labels"])
    text = run("report", files["a"], "--ci", "0.95", "--samples", "500")
    assert "95% confidence intervals" in text.out and "Per class, 95% intervals" in text.out
    assert_clean_error(run("report", files["a"], "--ci", "95"), 2, "--ci")
    assert_clean_error(run("report", files["a"], "--ci", "0.95", "--samples", "0"), 2, "--samples")
    assert "ci" not in json.loads(run("report", files["a"], "--format", "json").out)


def test_demo_bootstrap_reproduces_worked_example_11():
    res = run("demo", "bootstrap", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)["data"]
    assert (d["n"], d["a"], d["b"]) == (10, 0.7, 0.5)
    assert d["delta"] == pytest.approx(0.2) and d["threshold"] == pytest.approx(0.4)
    assert sum(d["distribution"].values()) == d["samples"] == 10_000
    assert d["count"] == sum(c for v, c in d["distribution"].items() if float(v) >= 0.4 - 1e-9)
    assert d["p_value"] == d["count"] / 10_000
    # centred on δ(x), not on 0: the mean of 10,000 replicates of Bin(10, 0.2)/10 (issue 39: a distribution pin)
    mc.assert_mean(d["mean_delta"], mc.binomial_proportion(10, 0.2), 10_000)
    # documents 6 and 7 are the only disagreements: δ(x^(i)) = (draws of them) / 10 ~ Bin(10, 0.2) / 10
    exact = stats.binom.sf(3, 10, 0.2)
    assert abs(d["p_value"] - exact) < 4.5 * (exact * (1 - exact) / 10_000) ** 0.5
    assert d["textbook"] == {"count": 47, "p_value": 0.0047}
    text = run("demo", "bootstrap")
    assert "2δ" in text.out and "centred on" in text.out


def test_score_files_compared_with_roc_auc(tmp_path):
    """--metric roc_auc --score COL: scores read as numbers, aligned by id, ranked by clfeval.scores._curves."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    rng = np.random.default_rng(3)
    n = 80
    g = rng.integers(0, 2, n)
    sa, sb = g + rng.normal(0, 0.8, n), g * 0.3 + rng.normal(0, 0.8, n)

    def rows(s, order):
        return "id,gold,score\n" + "".join(f"d{i},{LABELS[g[i]]},{float(s[i])!r}\n" for i in order)

    (tmp_path / "a.csv").write_text(rows(sa, range(n)))
    (tmp_path / "b.csv").write_text(rows(sb, rng.permutation(n)))
    for metric, ref in (("roc_auc", roc_auc_score), ("average_precision", average_precision_score)):
        res = run("compare", tmp_path / "a.csv", tmp_path / "b.csv", "--metric", metric, "--score", "score",
                  "--positive", "sport", "--samples", "300", "--format", "json")
        assert res.code == 0, res.err
        d = json.loads(res.out)
        assert d["a"] == pytest.approx(ref(g == 1, sa)) and d["b"] == pytest.approx(ref(g == 1, sb))
    assert_clean_error(run("compare", tmp_path / "a.csv", tmp_path / "b.csv", "--metric", "roc_auc", "--score",
                           "score"),
                       2, "--positive")
    lines = (tmp_path / "b.csv").read_text().splitlines()
    lines[4] = lines[4].rsplit(",", 1)[0] + ",high"
    (tmp_path / "b.csv").write_text("\n".join(lines) + "\n")
    bad = run("compare", tmp_path / "a.csv", tmp_path / "b.csv", "--metric", "roc_auc", "--score", "score",
              "--positive", "sport")
    assert_clean_error(bad, 1, "'high'", "row 4 of", "b.csv")
