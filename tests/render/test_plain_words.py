"""Sentences that say what they mean (issue 19, items 11 and 12)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tests._helpers.clihelp import run


@pytest.fixture
def pair(tmp_path):
    rng = np.random.default_rng(3)
    n = 300
    gold = rng.choice(["x", "y"], n)
    a = np.where(rng.random(n) < 0.8, gold, "x")
    b = np.where(rng.random(n) < 0.7, gold, "y")
    s = np.round(rng.random(n), 4)
    fa, fb = tmp_path / "a.csv", tmp_path / "b.csv"
    fa.write_text("id,gold,pred,score\n" + "".join(f"d{i},{g},{p},{v}\n" for i, (g, p,
                                                                                 v) in enumerate(zip(gold, a, s,
                                                                                                     strict=True))))
    fb.write_text("id,gold,pred\n" + "".join(f"d{i},{g},{p}\n" for i, (g, p) in enumerate(zip(gold, b, strict=True))))
    return fa, fb, gold, s


def test_power_explains_no_n_it_did_not_report(pair):
    fa, fb, *_ = pair
    plain = run("power", fa, fb)
    assert plain.code == 0 and "smallest n" not in plain.out and "not monotone" not in plain.out
    with_n = run("power", fa, fb, "--delta", "0.1")
    assert "smallest n with power" in with_n.out and "not monotone" in with_n.out


def test_threshold_overrides_the_pred_column_with_a_note(pair):
    fa, _, gold, s = pair
    res = run("report", fa, "--score", "score", "--positive", "y", "--threshold", "0.5", "--format", "json")
    assert res.code == 0, res.err
    import json

    d = json.loads(res.out)
    tp = int(np.sum((gold == "y") & (s >= 0.5)))  # predictions from the cut, counted here: not the pred column
    assert d["per_class"]["y"]["tp"] == tp
    assert any("'pred' was not used" in n for n in d["notes"])


def test_metrics_say_undefined_when():
    res = run("metrics")
    assert res.code == 0
    assert "Undefined when the class is never predicted (TP + FP = 0)" in res.out
    assert "Undefined: When" not in res.out and "Undefined: " not in res.out.replace("\n", " ")


def test_gate_line_says_what_was_required(tmp_path):
    f = tmp_path / "p.csv"
    f.write_text("gold,pred\na,a\nb,a\na,b\nb,b\n")
    res = run("report", f, "--require", "macro_f1>=0.9")
    assert res.code == 3
    assert "macro_f1 = 0.5000, required ≥ 0.9: unmet" in res.err  # (0.5 + 0.5) / 2


def _news(tmp_path: Path) -> Path:
    rng = np.random.default_rng(1)
    words = {"x": ["apple", "pear", "plum"], "y": ["car", "bus", "train"]}
    rows = [" ".join(rng.choice(words[t], 5)) + f",{t}" for t in rng.choice(["x", "y"], 120)]
    f = tmp_path / "news.csv"
    f.write_text("text,topic\n" + "\n".join(rows) + "\n")
    return f


def test_runs_list_names_the_label_column_and_one_repeat_is_singular(tmp_path):
    pytest.importorskip("sklearn")
    f = _news(tmp_path)
    db = tmp_path / "r.sqlite"
    res = run("holdout", f, "--text", "text", "--label", "topic", "--repeats", "1", "--runs-db", db)
    assert res.code == 0, res.err
    assert "over 1 repeat\n" in res.out and "1 repeats" not in res.out
    listed = run("runs", "list", "--runs-db", db)
    assert "label column" in listed.out and re.search(r"\btask\b", listed.out) is None


def test_cv_compare_model_prints_each_models_summary_first(tmp_path):
    pytest.importorskip("sklearn")
    f = _news(tmp_path)
    res = run("cv", f, "--text", "text", "--label", "topic", "--folds", "3", "--compare-model", "logreg", "--no-log")
    assert res.code == 0, res.err
    summary = res.out.index("Each model over the 3 folds")
    assert summary < res.out.index("Per fold") < res.out.index("Tests")
    assert re.search(r"A: nb\s+\d\.\d{4} ± \d\.\d{4}", res.out) and re.search(r"B: logreg\s+\d\.\d{4} ± ", res.out)


def test_default_run_log_is_named_once_on_stderr(tmp_path, monkeypatch):
    pytest.importorskip("sklearn")
    f = _news(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    first = run("cv", f, "--text", "text", "--label", "topic", "--folds", "3")
    assert first.code == 0, first.err
    full = str(work / "clfeval-runs.sqlite")
    assert first.err.count(full) == 1 and "a new run log" in first.err and "--no-log" in first.err
    second = run("cv", f, "--text", "text", "--label", "topic", "--folds", "3")
    assert second.err.count(full) == 1 and "a new run log" not in second.err
    named = run("cv", f, "--text", "text", "--label", "topic", "--folds", "3", "--runs-db", tmp_path / "x.sqlite")
    assert named.err.strip().endswith("x.sqlite") and "the default run log" not in named.err
