"""`clfeval report --score`, `clfeval threshold`, `clfeval calibration`, and their demos: output and refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._helpers.clihelp import assert_clean_error, run

TEST = [("1", "spam", "0.9"), ("2", "ham", "0.6"), ("3", "spam", "0.7"), ("4", "ham", "0.2")]
DEV = [("a", "spam", "0.8"), ("b", "spam", "0.4"), ("c", "ham", "0.3"), ("d", "ham", "0.1")]


def write(path: Path, rows, header=("id", "gold", "score")) -> Path:
    path.write_text(",".join(header) + "\n" + "".join(",".join(r) + "\n" for r in rows))
    return path


# --- report with scores --------------------------------------------------------------

def test_report_with_score_adds_ranking(tmp_path):
    rows = [(i, g, p, s) for (i, g, s), p in zip(TEST, ["spam", "spam", "spam", "ham"], strict=True)]
    f = write(tmp_path / "p.csv", rows, ("id", "gold", "pred", "score"))
    res = run("report", f, "--score", "score", "--positive", "spam", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert d["ranking"]["roc_auc"] == 1.0 and d["ranking"]["average_precision"] == 1.0
    assert d["binary"]["fp"] == 1
    text = run("report", f, "--score", "score", "--positive", "spam")
    assert "PR-AUC (average precision)" in text.out and "ROC-AUC" in text.out


def test_report_predictions_from_threshold_without_pred_column(tmp_path):
    f = write(tmp_path / "p.csv", TEST)
    res = run("report", f, "--score", "score", "--positive", "spam", "--threshold", "0.65", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert (d["binary"]["tp"], d["binary"]["fp"]) == (2, 0)
    assert d["ranking"]["threshold"]["value"] == 0.65


def test_report_threshold_overrides_the_pred_column_with_a_note(tmp_path):
    # issue 19: --threshold decides the predictions from the scores and says the pred column was not used
    # (formerly refused with exit 2)
    f = write(tmp_path / "p.csv", [(i, g, g, s) for i, g, s in TEST], ("id", "gold", "pred", "score"))
    res = run("report", f, "--score", "score", "--positive", "spam", "--threshold", "0.5")
    assert res.code == 0, res.err
    assert "--threshold 0.5 decided the predictions" in res.out and "'pred' was not used" in res.out


def test_report_multiclass_scores_prefix(tmp_path):
    rows = [("a", "a", "0.8", "0.1", "0.1"), ("b", "b", "0.2", "0.7", "0.1"), ("c", "b", "0.1", "0.3", "0.6"),
            ("c", "c", "0.2", "0.2", "0.6")]
    f = write(tmp_path / "m.csv", rows, ("gold", "pred", "score:a", "score:b", "score:c"))
    res = run("report", f, "--scores-prefix", "score:", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)["ranking"]
    assert set(d["per_class"]) == {"a", "b", "c"} and set(d["macro"]) == {"roc_auc", "average_precision"}


# --- threshold -------------------------------------------------------------------------

def test_threshold_json(tmp_path):
    t, dv = write(tmp_path / "test.csv", TEST), write(tmp_path / "dev.csv", DEV)
    res = run("threshold", t, "--score", "score", "--positive", "spam", "--dev", dv, "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert d["threshold"] == 0.4
    assert d["default"]["threshold"] == 0.5
    assert {"precision", "recall", "f1"} <= set(d["test"])
    assert d["hindsight"]["threshold"] == 0.7 and "f1" in d["hindsight"]
    res = run("threshold", t, "--score", "score", "--positive", "spam", "--dev", dv, "--objective", "cost",
              "--cost-fp", "1", "--cost-fn", "10", "--format", "json")
    assert res.code == 0 and json.loads(res.out)["objective"] == "cost"


def test_threshold_without_dev_says_why(tmp_path):
    res = run("threshold", write(tmp_path / "t.csv", TEST), "--score", "score", "--positive", "spam")
    assert res.code == 0, res.err
    assert "No development data was given" in res.out and "optimistic" in res.out
    assert "chosen on dev" not in res.out and "hindsight" in res.out


def test_threshold_multilabel_per_label(tmp_path):
    rows = [("a|b", "0.9", "0.8"), ("a", "0.7", "0.2"), ("", "0.2", "0.3"), ("b", "0.1", "0.9")]
    t = write(tmp_path / "t.csv", rows, ("gold", "score:a", "score:b"))
    dv = write(tmp_path / "d.csv", rows[::-1], ("gold", "score:a", "score:b"))
    res = run("threshold", t, "--dev", dv, "--scores-prefix", "score:", "--multilabel", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert set(d["thresholds"]) == {"a", "b"} and {"default", "tuned", "hindsight"} <= set(d["averages"])
    res = run("threshold", t, "--dev", dv, "--scores-prefix", "score:", "--multilabel")
    assert "micro F1" in res.out


@pytest.mark.parametrize("bad,needles", [
    ("nan", ["'score'", "line 3", "nan"]),
    ("inf", ["'score'", "line 3", "inf"]),
    ("high", ["'score'", "line 3", "'high'", "not a number"]),
])
def test_threshold_bad_scores(tmp_path, bad, needles):
    rows = [TEST[0], (TEST[1][0], TEST[1][1], bad), *TEST[2:]]
    out = tmp_path / "out.json"
    res = run("threshold", write(tmp_path / "t.csv", rows), "--score", "score", "--positive", "spam", "--output", out)
    assert_clean_error(res, 1, *needles)
    assert not out.exists()


def test_threshold_refusals(tmp_path):
    t = write(tmp_path / "t.csv", TEST)
    one = write(tmp_path / "one.csv", [("a", "spam", "0.1"), ("b", "spam", "0.2")])
    assert_clean_error(run("threshold", t, "--score", "score", "--positive", "spam", "--dev", one), 1, "one class")
    assert_clean_error(run("threshold", t, "--score", "score", "--positive", "eggs"), 1, "'eggs'")
    assert_clean_error(run("threshold", t, "--score", "prob", "--positive", "spam"), 1, "'prob'", "--score", "'score'")
    assert_clean_error(run("threshold", t, "--score", "score", "--positive", "spam", "--objective", "auc"), 2, "auc")
    assert_clean_error(run("threshold", t, "--positive", "spam"), 2, "--score")
    assert_clean_error(run("threshold", t, "--score", "score"), 2, "--positive")
    assert_clean_error(run("threshold", t, "--score", "score", "--positive", "spam", "--dev", tmp_path / "nope.csv"),
                       2, "nope.csv")
    assert_clean_error(run("threshold", t, "--score", "score", "--positive", "spam", "--dev", t,
                           "--objective", "precision>=1", "--cost-fp", "-1"), 2, "option --cost-fp")


# --- calibration -------------------------------------------------------------------------

def test_calibration_json(tmp_path):
    res = run("calibration", write(tmp_path / "c.csv", TEST), "--prob", "score", "--positive", "spam", "--bins", "5",
              "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert {"ece", "mce", "brier", "log_loss", "bins"} <= set(d)
    assert len(d["bins"]) == 5 and set(d["bins"][0]) >= {"lower", "upper", "count", "confidence", "accuracy"}
    assert d["bins"][0]["confidence"] is None  # empty bin: null, not NaN
    assert d["ece"] == pytest.approx(0.15)
    res = run("calibration", tmp_path / "c.csv", "--prob", "score", "--positive", "spam", "--strategy", "quantile",
              "--format", "markdown")
    assert res.code == 0 and "| bin |" in res.out


def test_calibration_refuses_non_probabilities(tmp_path):
    rows = [("1", "spam", "2.5"), ("2", "ham", "-1")]
    out = tmp_path / "o.json"
    res = run("calibration", write(tmp_path / "c.csv", rows), "--prob", "score", "--positive", "spam", "--output", out)
    assert_clean_error(res, 1, "'score'", "line 2", "2.5", "not probabilities")
    assert not out.exists()
    # ranking accepts the same scores
    res = run("threshold", tmp_path / "c.csv", "--score", "score", "--positive", "spam")
    assert res.code == 0, res.err


def test_calibration_multiclass_prefix(tmp_path):
    rows = [("a", "0.8", "0.2"), ("b", "0.3", "0.7"), ("a", "0.4", "0.6")]
    f = write(tmp_path / "m.csv", rows, ("gold", "p:a", "p:b"))
    res = run("calibration", f, "--probs-prefix", "p:", "--format", "json")
    assert res.code == 0, res.err
    assert json.loads(res.out)["kind"] == "top-label"


def test_calibration_prefix_names_a_missing_class_column(tmp_path):
    # issue 35 (L07): class b has no p:b column, so row 1's probabilities sum to 0.7; the cause is the missing column
    f = write(tmp_path / "miss.csv", [("a", "a", "0.7"), ("b", "b", "0.4")], ("gold", "pred", "p:a"))
    res = run("calibration", f, "--probs-prefix", "p:")
    assert_clean_error(res, 1, "'p:b'")
    assert "sum to" not in res.err


# --- demos -------------------------------------------------------------------------------------

def test_demo_threshold_and_calibration():
    res = run("demo", "threshold", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)["data"]
    assert round(d["ten"]["roc_auc"], 4) == 0.9524 and round(d["ten"]["average_precision"], 4) == 0.9167
    assert round(d["hundred"]["roc_auc"], 3) == 0.949 and round(d["hundred"]["average_precision"], 3) == 0.267
    res = run("demo", "calibration", "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)["data"]
    assert d["a"]["roc_auc"] == 1.0 and d["a"]["ece"] > 0.3 and d["b"]["ece"] == pytest.approx(0.0, abs=1e-12)
    assert "calibration" in run("demo").out


def test_threshold_refuses_the_test_file_as_dev(tmp_path):
    t = write(tmp_path / "t.csv", TEST)
    assert_clean_error(run("threshold", t, "--dev", t, "--score", "score", "--positive", "spam"), 2, "hindsight")
