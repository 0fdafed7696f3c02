"""`clfeval cv`, `clfeval holdout` and `clfeval runs`: JSON interface, files, run log, bad input."""

from __future__ import annotations

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, f1_score

from clfeval.io._readers import read_frame
from tests._helpers.clihelp import run
from tests._helpers.news import make_data

SRC = str(Path(__file__).resolve().parents[2] / "src")



def assert_clean_error(res, code: int, *needles: str) -> None:
    assert res.code == code, (res.code, res.out, res.err)
    assert res.out == ""
    assert "Traceback" not in res.err
    for n in needles:
        assert n in res.err, (n, res.err)


@pytest.fixture
def data(tmp_path) -> Path:
    return make_data(tmp_path / "news.csv")


def cv(data: Path, *extra: str, db: Path | None = None):
    db = db or data.parent / "runs.sqlite"
    return run("cv", data, "--text", "body", "--label", "topic", "--runs-db", db, *extra)


def test_cv_json_interface(data):
    res = cv(data, "--folds", "5", "--stratified", "--seed", "3", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert d["folds"] == 5 and len(d["per_fold"]) == 5
    for m in ("accuracy", "micro_f1", "macro_f1"):
        assert set(d[m]) == {"mean", "std", "min", "max", "n"}
        vals = [f[m] for f in d["per_fold"]]
        assert d[m]["mean"] == pytest.approx(np.mean(vals)) and d[m]["std"] == pytest.approx(np.std(vals, ddof=1))
    assert d["pooled"]["kind"] == "multiclass" and d["pooled"]["n"] == 150
    assert set(d["train_vs_test"]) >= {"train", "test", "gap"}
    assert d["run_id"] == 1
    assert d["signature"]["seed"] == 3 and d["signature"]["model"]["name"] == "nb"
    assert "recorded run 1" in res.err


@pytest.mark.parametrize("ext", [".csv", ".tsv", ".jsonl", ".parquet"])
def test_cv_predictions_file_and_report_on_it(data, ext):
    out = data.parent / f"oof{ext}"
    res = cv(data, "--folds", "4", "--repeats", "2", "--seed", "1", "--predictions", out, "--format", "json",
             "--model", "logreg", "--ngrams", "2")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    t = read_frame(out)
    assert t.column_names[:5] == ["repeat", "id", "fold", "gold", "pred"]
    assert t.num_rows == 300 and "score:grain" in t.column_names
    rows = t.to_pylist()
    for f in d["per_fold"]:
        part = [r for r in rows if int(r["repeat"]) == f["repeat"] and int(r["fold"]) == f["fold"]]
        g, p = [r["gold"] for r in part], [r["pred"] for r in part]
        assert f["accuracy"] == pytest.approx(accuracy_score(g, p), abs=1e-12)
        assert f["macro_f1"] == pytest.approx(f1_score(g, p, average="macro"), abs=1e-12)
    # `clfeval report` keys rows by (repeat, id): every item occurs once per repeat
    rep = run("report", out, "--format", "json")
    assert rep.code == 0, rep.err
    assert json.loads(rep.out)["accuracy"] == pytest.approx(d["pooled"]["accuracy"])


def test_cv_text_and_markdown(data):
    res = cv(data, "--folds", "3", "--no-log")
    assert res.code == 0, res.err
    assert "3-fold cross-validation" in res.out and "Test metrics over all 3 folds" in res.out
    assert "gap" in res.out and "Pooled out-of-fold report" in res.out and "majority" in res.out
    md = cv(data, "--folds", "3", "--no-log", "--format", "markdown")
    assert md.code == 0 and "| metric | mean | std | min | max | train | gap |" in md.out
    assert not (data.parent / "runs.sqlite").exists()  # --no-log


def test_cv_multilabel(data):
    out = data.parent / "oof.csv"
    res = cv(data, "--label", "tags", "--multilabel", "--folds", "3", "--stratified", "--predictions", out,
             "--format", "json", "--model", "svm")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert d["kind"] == "multilabel" and d["labels"] == ["fx", "grain", "oil"]
    assert {"hamming_loss", "jaccard"} <= set(d["metrics"])
    rep = run("report", out, "--multilabel", "--format", "json")
    assert json.loads(rep.out)["micro"]["f1"] == pytest.approx(d["pooled"]["micro"]["f1"])


def test_holdout_train_validation_test(data):
    res = run("holdout", data, "--text", "body", "--label", "topic", "--test-size", "0.2", "--val-size", "0.2",
              "--stratified", "--repeats", "3", "--seed", "2", "--runs-db", data.parent / "r.sqlite", "-f", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert d["protocol"]["kind"] == "holdout" and d["repeats"] == 3 and len(d["per_fold"]) == 3
    assert all(f["n_test"] == 30 and f["n_validation"] == 30 and f["n_train"] == 90 for f in d["per_fold"])
    assert set(d["validation"]) == set(d["metrics"])


def test_stemming_and_stop_words_change_the_vocabulary_setting(data):
    a = cv(data, "--folds", "3", "--stem", "--stop-words", "-f", "json")
    assert a.code == 0, a.err
    m = json.loads(a.out)["signature"]["model"]
    assert m["stem"] is True and m["stop_words"] is True


# --- bad input -----------------------------------------------------------------------------------

def test_missing_text_column(data):
    res = run("cv", data, "--text", "content", "--label", "topic", "--no-log")
    assert_clean_error(res, 1, "no column 'content' (option --text)", "'body'")


def test_empty_text_column(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("body,topic\n" + "".join(f",{'a' if i % 2 else 'b'}\n" for i in range(20)))
    assert_clean_error(run("cv", p, "--text", "body", "--label", "topic", "--no-log"), 1,
                       "text column 'body' is empty in every one of its 20 rows")


def test_label_column_with_one_class(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("body,topic\n" + "".join(f"word{i} text,earn\n" for i in range(20)))
    assert_clean_error(run("cv", p, "--text", "body", "--label", "topic", "--no-log"), 1,
                       "only the class 'earn'", "at least two classes")


def test_more_folds_than_the_smallest_class_allows(tmp_path):
    p = tmp_path / "d.csv"
    counts = {"earn": 30, "acq": 12, "wheat": 4}
    p.write_text("body,topic\n" + "".join(f"{c} story {i},{c}\n" for c, k in counts.items() for i in range(k)))
    res = run("cv", p, "--text", "body", "--label", "topic", "--folds", "10", "--stratified", "--no-log")
    assert_clean_error(res, 1, "stratified 10-fold", "class 'wheat' has only 4 items", "--folds 4")


def test_unknown_model(data):
    assert_clean_error(cv(data, "--model", "forest"), 2, "forest")


def test_bad_predictions_path_is_refused_before_the_run(data):
    assert_clean_error(cv(data, "--predictions", data.parent / "oof.xlsx"), 2, "--predictions", ".parquet")
    assert_clean_error(cv(data, "--predictions", data.parent / "nowhere" / "oof.csv"), 2, "does not exist")
    assert not (data.parent / "runs.sqlite").exists() or not RunLogRows(data.parent / "runs.sqlite")


def RunLogRows(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]


def test_missing_data_file_and_empty_label(tmp_path):
    assert_clean_error(run("cv", tmp_path / "none.csv", "--text", "a", "--label", "b", "--no-log"), 2, "does not exist")
    p = tmp_path / "d.csv"
    p.write_text("body,topic\nabc,x\ndef,\nghi,y\n")
    assert_clean_error(run("cv", p, "--text", "body", "--label", "topic", "--folds", "2", "--no-log"), 1,
                       "row 2", "label in column 'topic' is empty")


# --- runs ---------------------------------------------------------------------------------------

def test_runs_list_show_best_ablation_check(data):
    db = data.parent / "runs.sqlite"
    for extra in (["--model", "nb"], ["--model", "svm"], ["--model", "nb", "--ngrams", "2"],
                  ["--model", "nb", "--seed", "9"]):
        assert cv(data, "--folds", "3", "--stratified", *extra).code == 0
    lst = run("runs", "list", "--runs-db", db, "-f", "json")
    assert lst.code == 0 and [r["id"] for r in json.loads(lst.out)["runs"]] == [1, 2, 3, 4]
    show = run("runs", "show", "2", "--runs-db", db, "-f", "json")
    s = json.loads(show.out)
    assert s["settings"]["model"]["name"] == "svm" and len(s["per_fold"]) == 3 and s["data_hash"].startswith("sha256:")
    assert Path(s["predictions"]).exists()
    best = json.loads(run("runs", "best", "--metric", "macro_f1", "--runs-db", db, "-f", "json").out)
    values = {r["id"]: r["metrics"]["macro_f1"]["mean"] for r in json.loads(lst.out)["runs"]}
    top = max(values, key=lambda k: (values[k], -k))
    assert best["best"][0]["id"] == top
    ab = json.loads(run("runs", "ablation", "--metric", "macro_f1", "--base", "1", "--runs-db", db, "-f", "json").out)
    assert {(r["id"], r["setting"]) for r in ab["rows"]} == {(2, "model.name"), (3, "model.ngrams"), (4, "seed")}
    ok = run("runs", "check", "--submitted", str(top), "--metric", "macro_f1", "--runs-db", db)
    assert ok.code == 0 and "PASS" in ok.out
    worst = min(values, key=lambda k: (values[k], k))
    if values[worst] < values[top]:
        bad = run("runs", "check", "--submitted", str(worst), "--metric", "macro_f1", "--runs-db", db)
        assert bad.code == 1 and "FAIL" in bad.out and f"run {worst} is not the best row" in bad.err
    text = run("runs", "list", "--runs-db", db)
    assert text.code == 0 and "svm" in text.out


def test_runs_on_a_missing_database(tmp_path):
    assert_clean_error(run("runs", "list", "--runs-db", tmp_path / "none.sqlite"), 2, "does not exist yet")


# --- a real kill -9 of `clfeval cv` in the middle of a run -----------------------------------------

def test_kill_9_during_cv_leaves_no_record(tmp_path):
    data = make_data(tmp_path / "big.csv", n=20000, seed=3)
    db = tmp_path / "runs.sqlite"
    assert cv(make_data(tmp_path / "small.csv"), "--folds", "3", db=db).code == 0  # one finished run
    env = dict(os.environ, PYTHONPATH=SRC)
    cmd = [sys.executable, "-m", "clfeval", "cv", str(data), "--text", "body", "--label", "topic", "--model", "logreg",
           "--ngrams", "2", "--folds", "10", "--repeats", "3", "--runs-db", str(db), "--predictions",
           str(tmp_path / "oof.parquet")]
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(4.0)
    assert p.poll() is None, "the run finished before it could be killed; make the data bigger"
    os.kill(p.pid, signal.SIGKILL)
    p.wait(timeout=30)
    assert RunLogRows(db) == 1
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert not (tmp_path / "oof.parquet").exists()
    assert len(list((tmp_path / "runs-predictions").glob("*.parquet"))) == 1


def test_cv_with_a_threshold_tuned_inside_each_fold(tmp_path):
    p = tmp_path / "bin.csv"
    rows = list(csv.DictReader(open(make_data(tmp_path / "d.csv", n=200, seed=4))))
    with open(p, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["body", "topic"])
        w.writerows([r["body"], "grain" if r["topic"] == "grain" else "other"] for r in rows)
    res = run("cv", p, "--text", "body", "--label", "topic", "--folds", "4", "--stratified", "--tune-threshold",
              "f1", "--positive", "grain", "--metric", "f1:grain", "--runs-db", tmp_path / "r.sqlite", "-f", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    th = d["thresholds"]["labels"]["grain"]
    assert set(th) >= {"default", "chosen", "hindsight"}
    assert th["chosen"]["f1"] == pytest.approx(d["f1:grain"]["mean"])
    assert all("grain" in f["thresholds"] for f in d["per_fold"])
    assert d["signature"]["threshold"]["objective"] == "f1"
    text = run("runs", "show", "1", "--runs-db", tmp_path / "r.sqlite")
    assert "threshold.objective" in text.out
    assert_clean_error(run("cv", p, "--text", "body", "--label", "topic", "--positive", "grain", "--no-log"), 2,
                       "--tune-threshold")
    three = make_data(tmp_path / "three.csv", n=60)
    assert_clean_error(run("cv", three, "--text", "body", "--label", "topic", "--folds", "3", "--tune-threshold", "f1",
                           "--no-log"), 2, "binary or multi-label")
    assert_clean_error(run("cv", p, "--text", "body", "--label", "topic", "--tune-threshold", "f7x", "--no-log"), 2,
                       "unknown objective")


def test_without_an_id_column_rows_are_numbered_from_1(tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("body,topic\n" + "".join(f"{w} text,{w}\n" for w in ["wheat", "oil"] * 6))
    out = tmp_path / "oof.csv"
    assert run("cv", p, "--text", "body", "--label", "topic", "--folds", "2", "--no-log", "--predictions",
               out).code == 0
    assert sorted(int(r["id"]) for r in read_frame(out).to_pylist()) == list(range(1, 13))


def test_compare_on_repeated_out_of_fold_files_needs_one_repeat(data, tmp_path):
    """Rows of different repeats are the same items again: compare refuses to treat them as new items."""
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    for out, model in ((a, "nb"), (b, "bnb")):
        res = cv(data, "--model", model, "--folds", "3", "--repeats", "2", "--seed", "1", "--predictions", out,
                 "--no-log")
        assert res.code == 0, res.err
    res = run("compare", a, b, "--samples", "200")
    assert_clean_error(res, 1, "2 repeats", "--repeat")
    res = run("compare", a, b, "--samples", "200", "--repeat", "2", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    rows = [r for r in read_frame(a).to_pylist() if r["repeat"] == "2"]
    gold = [r["gold"] for r in rows]
    assert d["a"] == pytest.approx(accuracy_score(gold, [r["pred"] for r in rows]))
    assert_clean_error(run("compare", a, b, "--repeat", "9"), 1, "--repeat 9", "1, 2")
