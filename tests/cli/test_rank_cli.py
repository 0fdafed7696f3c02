"""``clfeval rank`` on the command line: formats, gates (exit 3), bad input (one sentence, no traceback)."""

from __future__ import annotations

import csv
import json
import warnings

import pytest
import scipy

from tests._helpers.clihelp import run
from tests._helpers.demsar import DATASETS, SYSTEMS, TABLE6


@pytest.fixture
def wide(tmp_path):
    path = tmp_path / "auc.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["dataset"] + SYSTEMS)
        w.writerows([[d] + row for d, row in zip(DATASETS, TABLE6, strict=True)])
    return path


def _long(tmp_path, rows, name="long.csv"):
    path = tmp_path / name
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["system", "dataset", "score"])
        w.writerows(rows)
    return path


def test_text_json_markdown(wide):
    text = run("rank", wide, "--metric", "roc_auc", "--samples", "5000")
    assert text.code == 0, text.err
    assert "clfeval rank — roc_auc (higher is better): 4 systems over 14 data sets" in text.out
    assert f"SciPy {scipy.__version__}" in text.out and "zero_method='pratt', method='auto'" in text.out
    assert "5,000 posterior samples, seed 0" in " ".join(text.out.split())
    d = json.loads(run("rank", wide, "--metric", "roc_auc", "--samples", "5000", "-f", "json").out)
    assert d["average_ranks"]["C4.5"] == pytest.approx(44 / 14)
    assert d["signature"]["samples"] == 5000 and d["signature"]["seed"] == 0
    assert d["verdict"] in " ".join(text.out.split())
    md = run("rank", wide, "--metric", "roc_auc", "--samples", "5000", "-f", "markdown")
    assert md.code == 0 and "| C4.5+m+cf |" in md.out


def test_gates_exit_3_when_unmet(wide, tmp_path):
    ok = run("rank", wide, "--metric", "roc_auc", "--samples", "5000", "--require", "in_best_group(C4.5+m)",
             "--require", "p_better(C4.5+m+cf,C4.5)>=0.9")
    assert ok.code == 0, ok.err
    out = tmp_path / "r.json"
    bad = run("rank", wide, "--metric", "roc_auc", "--samples", "5000", "--require", "p_better(C4.5,C4.5+m)>=0.95",
              "-o", out)
    assert bad.code == 3 and "gate not met" in bad.err and "p_better(C4.5, C4.5+m)" in bad.err
    assert json.loads(out.read_text())["requirements"]["met"] is False  # written, then exit 3
    wrong = run("rank", wide, "--metric", "roc_auc", "--require", "in_best_group(nobody)")
    assert wrong.code == 2 and "system 'nobody'" in wrong.err and "Traceback" not in wrong.err
    syntax = run("rank", wide, "--metric", "roc_auc", "--require", "in_best_group(C4.5)>=1")
    assert syntax.code == 2 and "--require" in syntax.err


@pytest.mark.parametrize("rows,code,words", [
    ([("A", "x", 0.8), ("B", "x", 0.7)], 1, "only one data set"),
    ([("A", "x", 0.8), ("A", "y", 0.7)], 1, "only one system"),
    ([("A", "x", "nan"), ("B", "x", 0.7), ("A", "y", 0.6), ("B", "y", 0.5)], 1, "'A' on 'x'"),
    ([("A", "x", 0.8), ("B", "x", 0.7), ("A", "x", 0.9), ("B", "y", 0.5), ("A", "y", 0.5)], 1, "appears twice"),
    ([("A", "x", "0.8"), ("B", "x", "n/a"), ("A", "y", 0.6), ("B", "y", 0.5)], 1, "row 2, column 'score'"),
])
def test_bad_input_one_sentence_no_traceback(tmp_path, rows, code, words):
    path = _long(tmp_path, rows)
    res = run("rank", path, "--metric", "accuracy", "-o", tmp_path / "out.json")
    assert res.code == code and words in res.err and "Traceback" not in res.err, res.err
    assert res.err.count("\n") <= 1
    assert not (tmp_path / "out.json").exists()  # nothing half-written


def test_options_are_checked(wide, tmp_path):
    assert "direction of the score" in run("rank", wide).err
    assert "unknown metric 'bleu'" in run("rank", wide, "--metric", "bleu").err
    res = run("rank", wide, "--higher-is-better", "--pairs", "C4.5+m")
    assert res.code == 2 and "A:B pairs" in res.err
    res = run("rank", wide, "--higher-is-better", "--pairs", "C4.5:zzz")
    assert res.code == 2 and "--pairs names system 'zzz'" in res.err
    res = run("rank", wide, "--higher-is-better", "--control", "zzz")
    assert res.code == 2 and "--control 'zzz'" in res.err
    res = run("rank", wide, "--higher-is-better", "-f", "text", "-o", wide)
    assert res.code == 2 and wide.read_text().startswith("dataset,")  # never over an input
    assert run("rank").code == 2
    assert run("rank", tmp_path / "missing.csv", "--higher-is-better").code == 2


def test_missing_drop_and_control(tmp_path):
    rows = [("A", "x", 0.8), ("B", "x", 0.7), ("A", "y", 0.6), ("A", "z", 0.9), ("B", "z", 0.8), ("A", "w", 0.7),
            ("B", "w", 0.6)]
    path = _long(tmp_path, rows)
    assert run("rank", path, "--metric", "accuracy").code == 1
    res = run("rank", path, "--metric", "accuracy", "--missing", "drop", "--control", "B", "--samples", "2000")
    assert res.code == 0 and "Dropped 1 data set(s) where a system has no finite score: y." in res.out
    assert "Against the control B" in res.out
    assert "Only 3 data sets" in res.out


def test_run_log(tmp_path):
    from clfeval.protocols._runlog import RunLog

    db = tmp_path / "runs.sqlite"
    log = RunLog(db)
    for d, base in (("a", 0.7), ("b", 0.8), ("c", 0.75)):
        for m, v in (("nb", 0.0), ("svm", 0.04)):
            log.record("cv", settings={"model": {"name": m}}, seed=0, protocol={"kind": "kfold", "folds": 5},
                       summary={"macro_f1": {"mean": base + v}}, data_hash=f"sha256:{d}", data_path=f"{d}.csv")
    res = run("rank", "--runs-db", db, "--metric", "macro_f1", "--samples", "2000")
    assert res.code == 0, res.err
    assert "2 systems over 3 data sets" in res.out and "Checked: a.csv: runs 1, 2 share the data" in res.out
    assert "needs --metric" in run("rank", "--runs-db", db).err or run("rank", "--runs-db", db).code == 2
    assert run("rank", "--runs-db", tmp_path / "none.sqlite", "--metric", "macro_f1").code == 2


def test_html_page_has_the_cd_diagram(wide, tmp_path):
    out = tmp_path / "rank.html"
    res = run("rank", wide, "--metric", "roc_auc", "--samples", "3000", "-o", out)
    assert res.code == 0, res.err
    html = out.read_text()
    assert html.count("<svg") == 2 and "Critical-difference diagram" in html
    assert "CD = 1.25" in html  # the figure's ruler: 2.569·√(20/84)


def test_plot_draws_the_cd_diagram_from_the_json(wide, tmp_path):
    js = tmp_path / "r.json"
    assert run("rank", wide, "--metric", "roc_auc", "--samples", "2000", "-o", js).code == 0
    for kind in ("cd", "bayes"):
        svg = tmp_path / f"{kind}.svg"
        res = run("plot", kind, js, "-o", svg)
        assert res.code == 0, res.err
        assert svg.read_text().lstrip().startswith(("<?xml", "<svg"))


def test_wide_table_with_folds(tmp_path):
    path = tmp_path / "w.tsv"
    path.write_text("dataset\tfold\tA\tB\nx\t1\t0.8\t0.7\nx\t2\t0.9\t0.7\ny\t1\t0.6\t0.5\ny\t2\t0.6\t0.7\n")
    d = json.loads(run("rank", path, "--fold", "fold", "--higher-is-better", "--samples", "1000", "-f", "json").out)
    assert d["scores"] == [[pytest.approx(0.85), pytest.approx(0.7)], [pytest.approx(0.6), pytest.approx(0.6)]]


def test_p_better_of_a_system_with_itself_is_a_usage_error(wide):
    res = run("rank", wide, "--metric", "roc_auc", "--require", "p_better(C4.5,C4.5)>=0.5")
    assert res.code == 2 and "with itself" in res.err and "--pairs" not in res.err, res.err


def test_names_with_commas_and_colons(tmp_path):
    rows = [(s, f"d{d}", 0.5 + 0.05 * d + (0.2 if s == "lr, l2" else 0.1 if s == "a:b" else 0.0))
            for d in range(8) for s in ["svm(rbf)", "lr, l2", "a:b"]]
    path = _long(tmp_path, rows)
    res = run("rank", path, "--higher-is-better", "--samples", "2000", "--require", "in_best_group(lr, l2)",
              "--require", "p_better(\"lr, l2\",svm(rbf))>=0.9", "--pairs", "'a:b':\"lr, l2\"", "-f", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert d["requirements"]["met"] is True
    assert ("a:b", "lr, l2") in [(b["a"], b["b"]) for b in d["bayes"]]
    res = run("rank", path, "--higher-is-better", "--require", "p_better(lr, l2, nb)>=0.5")
    assert res.code == 2 and 'written in quotes: p_better("lr, l2", B)' in res.err, res.err
    res = run("rank", path, "--higher-is-better", "--pairs", "a:b:svm(rbf)")
    assert res.code == 2 and "written in quotes" in res.err, res.err
    assert "--pairs" in run("rank", path, "--higher-is-better", "--pairs", "").err


def test_every_part_of_the_folded_pairs_table_names_both_systems(wide):
    res = run("rank", wide, "--metric", "roc_auc", "--samples", "2000")
    section = res.out.split("Pairs —", 1)[1].split("Bayesian", 1)[0]
    heads = [line.split()[:2] for line in section.splitlines() if line.startswith("A ")]
    assert len(heads) == 2 and all(h == ["A", "B"] for h in heads), heads  # the table is folded in two at 100


def test_extreme_scores_print_numbers_and_no_warning(tmp_path):
    path = tmp_path / "huge.csv"
    path.write_text("dataset,A,B,C\n" + "".join(f"d{i},1e308,-1e308,{i % 2}\n" for i in range(6)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pytest records warnings instead of printing them: make one fail the run
        res = run("rank", path, "--higher-is-better", "-f", "json")
    assert res.code == 0 and res.err == "", res.err
    ac = next(p for p in json.loads(res.out)["pairs"] if (p["a"], p["b"]) == ("A", "C"))
    assert (ac["mean_difference"], ac["median_difference"], ac["hodges_lehmann"]) == (1e308, 1e308, 1e308)
    text = run("rank", path, "--higher-is-better", "--no-bayes")
    assert text.err == "" and "1.0000e+308" in text.out and "Extreme scores:" in text.out
