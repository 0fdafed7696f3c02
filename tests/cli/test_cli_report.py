"""`clfeval report`: formats, options, and every bad input of issue 2 refused cleanly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sklearn.metrics import f1_score

from tests._helpers.clihelp import run

ROWS = [("1", "a", "a"), ("2", "b", "a"), ("3", "b", "b"), ("4", "c", "b"), ("5", "a", "a"), ("6", "c", "c")]


def write_csv(path: Path, rows=ROWS, header=("id", "gold", "pred"), sep=",") -> Path:
    path.write_text(sep.join(header) + "\n" + "".join(sep.join(r) + "\n" for r in rows))
    return path


def assert_clean_error(res, code: int, *needles: str) -> None:
    assert res.code == code, (res.code, res.err)
    assert res.out == ""
    assert "Traceback" not in res.err
    assert res.err.strip(), "an error must say what went wrong"
    for n in needles:
        assert n in res.err, (n, res.err)


# --- formats ------------------------------------------------------------------

def test_json_has_the_stable_keys(tmp_path):
    res = run("report", write_csv(tmp_path / "p.csv"), "--format", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    for key in ("schema_version", "n", "labels", "confusion_matrix", "per_class", "accuracy", "error_rate",
                "balanced_accuracy", "mcc", "kappa", "macro", "micro", "weighted", "diagnostics", "baselines",
                "undefined", "signature"):
        assert key in d, key
    assert d["labels"] == ["a", "b", "c"]
    assert d["confusion_matrix"] == [[2, 0, 0], [1, 1, 0], [0, 1, 1]]
    assert set(d["per_class"]["a"]) >= {"tp", "fp", "fn", "tn", "support", "precision", "recall", "specificity",
                                         "fpr", "f1", "delta", "phi"}
    assert set(d["macro"]) >= {"precision", "recall", "f1", "f1_of_means"}
    assert set(d["diagnostics"]["most_confused_pair"]) == {"classes", "errors", "a_as_b", "b_as_a"}
    assert set(d["baselines"]) == {"majority", "uniform", "stratified"}
    assert d["signature"]["zero_division"] == "0" and d["signature"]["version"]
    gold = [r[1] for r in ROWS]
    pred = [r[2] for r in ROWS]
    assert d["macro"]["f1"] == pytest.approx(f1_score(gold, pred, average="macro"), abs=1e-12)


def test_same_numbers_from_every_format(tmp_path):
    csv = write_csv(tmp_path / "p.csv")
    tsv = write_csv(tmp_path / "p.tsv", sep="\t")
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text("".join(json.dumps({"id": int(i), "gold": g, "pred": p}) + "\n" for i, g, p in ROWS))
    parquet = tmp_path / "p.parquet"
    pq.write_table(pa.table({"id": [r[0] for r in ROWS], "gold": [r[1] for r in ROWS], "pred": [r[2] for r in ROWS]}),
                   parquet)
    outs = []
    for f in (csv, tsv, jsonl, parquet):
        res = run("report", f, "--format", "json")
        assert res.code == 0, (f, res.err)
        d = json.loads(res.out)
        d.pop("signature")
        outs.append(d)
    assert all(o == outs[0] for o in outs[1:])


def test_input_format_override(tmp_path):
    f = write_csv(tmp_path / "predictions.txt")
    assert run("report", f, "--format", "json").code == 2
    res = run("report", f, "--input-format", "csv", "--format", "json")
    assert res.code == 0 and json.loads(res.out)["n"] == 6


def test_csv_labels_are_strings_never_guessed(tmp_path):
    f = write_csv(tmp_path / "p.csv", rows=[("1", "007", "007"), ("2", "7", "007"), ("3", "7", "7")])
    d = json.loads(run("report", f, "--format", "json").out)
    assert d["labels"] == ["007", "7"]  # "007" and "7" are different labels
    assert d["confusion_matrix"] == [[1, 0], [1, 1]]


def test_positive_matches_typed_labels_by_string_form(tmp_path):
    f = tmp_path / "p.parquet"
    pq.write_table(pa.table({"gold": [0, 1, 1, 0, 1], "pred": [0, 1, 0, 0, 1]}), f)
    res = run("report", f, "--positive", "1", "--format", "json")
    assert res.code == 0, res.err
    b = json.loads(res.out)["binary"]
    assert (b["tp"], b["fp"], b["fn"], b["tn"]) == (2, 0, 1, 2)
    j = tmp_path / "p.jsonl"
    j.write_text("".join(json.dumps({"gold": g, "pred": p}) + "\n" for g, p in [(1, 1), (1, 0), (0, 0)]))
    b = json.loads(run("report", j, "--positive", "1", "--format", "json").out)["binary"]
    assert (b["tp"], b["fn"], b["tn"]) == (1, 1, 1)


def test_renamed_columns_and_ids(tmp_path):
    f = write_csv(tmp_path / "p.csv", header=("doc", "truth", "guess"))
    res = run("report", f, "--gold", "truth", "--pred", "guess", "--id", "doc", "--show-errors", "1", "--format",
              "json")
    assert res.code == 0, res.err
    e = json.loads(res.out)["errors"]
    assert e["total"] == 2 and e["items"] == [{"id": "2", "gold": "b", "pred": "a"}]


def test_multilabel_csv_and_jsonl(tmp_path):
    f = tmp_path / "m.csv"
    f.write_text('gold,pred\n"a|b",a\n,b\nc,c\n')
    j = tmp_path / "m.jsonl"
    j.write_text('{"gold": ["a", "b"], "pred": ["a"]}\n{"gold": [], "pred": ["b"]}\n{"gold": ["c"], "pred": ["c"]}\n')
    outs = []
    for path in (f, j):
        res = run("report", path, "--multilabel", "--format", "json")
        assert res.code == 0, res.err
        d = json.loads(res.out)
        assert "confusion_matrix" not in d and "mcc" not in d and "kappa" not in d
        assert "most_confused_pair" not in d["diagnostics"]
        assert d["accuracy"] == pytest.approx(1 / 3)  # subset accuracy
        assert d["hamming_loss"] == pytest.approx(2 / 9)
        d.pop("signature")
        outs.append(d)
    assert outs[0] == outs[1]
    text = run("report", f, "--multilabel").out
    assert "no K×K confusion matrix" in text


def test_ordinal_order_option(tmp_path):
    from sklearn.metrics import cohen_kappa_score

    rows = [(str(i), g, p) for i, (g,
                                   p) in enumerate([("1", "1"), ("2", "3"), ("3", "3"), ("5", "4"), ("4", "1"),
                                                    ("5", "5")])]
    f = write_csv(tmp_path / "o.csv", rows=rows)
    res = run("report", f, "--order", "1,2,3,4,5", "--format", "json")
    assert res.code == 0, res.err
    o = json.loads(res.out)["ordinal"]
    g = [int(r[1]) for r in rows]
    p = [int(r[2]) for r in rows]
    assert o["mae"] == pytest.approx(np.mean(np.abs(np.array(g) - np.array(p))))
    assert o["quadratic_kappa"] == pytest.approx(cohen_kappa_score(g, p, weights="quadratic"))
    res = run("report", f, "--order", "1,2,3")
    assert_clean_error(res, 1, "--order", "'4'")


def test_train_labels_make_the_honest_majority(tmp_path):
    f = write_csv(tmp_path / "p.csv")  # gold majority: a (tie a/b/c → first)
    t = tmp_path / "train.csv"
    t.write_text("label\nc\nc\nc\nb\n")
    d = json.loads(run("report", f, "--train-labels", t, "--format", "json").out)
    assert d["baselines"]["majority"]["label"] == "c"
    assert d["baselines"]["majority"]["source"] == "training labels"
    assert d["baselines"]["majority"]["accuracy"] == pytest.approx(2 / 6)


def test_zero_division_nan_is_null_in_json_and_said(tmp_path):
    f = write_csv(tmp_path / "p.csv", rows=[("1", "a", "a"), ("2", "b", "a")])
    res = run("report", f, "--zero-division", "nan", "--format", "json")
    d = json.loads(res.out)
    assert d["per_class"]["b"]["precision"] is None
    assert d["macro"]["precision"] == pytest.approx(0.5)  # the undefined value is left out
    assert {"metric": "precision", "labels": ["b"]} in d["undefined"]
    text = run("report", f, "--zero-division", "nan").out
    assert "left out of macro/weighted averages" in text
    text0 = run("report", f).out
    assert "counted as 0" in text0 and "precision for b" in text0


def test_markdown_and_output_file(tmp_path):
    f = write_csv(tmp_path / "p.csv")
    out = tmp_path / "r.md"
    res = run("report", f, "--format", "markdown", "--output", out)
    assert res.code == 0 and res.out == ""
    md = out.read_text()
    assert "| class | support | TP |" in md and "**Baselines" in md


def test_beta_adds_fbeta_and_keeps_f1(tmp_path):
    from sklearn.metrics import fbeta_score

    f = write_csv(tmp_path / "p.csv")
    d = json.loads(run("report", f, "--beta", "2", "--format", "json").out)
    gold = [r[1] for r in ROWS]
    pred = [r[2] for r in ROWS]
    assert d["macro"]["fbeta"] == pytest.approx(fbeta_score(gold, pred, beta=2, average="macro"))
    assert d["macro"]["f1"] == pytest.approx(f1_score(gold, pred, average="macro"))
    assert d["per_class"]["b"]["fbeta"] == pytest.approx(fbeta_score(gold, pred, beta=2, average=None, labels=["b"])[0])


# --- bad input ----------------------------------------------------------------

def test_missing_file(tmp_path):
    assert_clean_error(run("report", tmp_path / "nope.csv"), 2, "nope.csv", "does not exist")


def test_empty_file(tmp_path):
    f = tmp_path / "empty.csv"
    f.write_text("")
    assert_clean_error(run("report", f), 1, "empty.csv", "empty")


def test_header_only(tmp_path):
    f = tmp_path / "head.csv"
    f.write_text("gold,pred\n")
    assert_clean_error(run("report", f), 1, "head.csv", "header but no rows")


def test_no_gold_column_lists_columns(tmp_path):
    f = write_csv(tmp_path / "p.csv", header=("id", "truth", "pred"))
    assert_clean_error(run("report", f), 1, "p.csv", "'gold'", "'truth'", "'id'", "--gold")


def test_unknown_pred_option(tmp_path):
    f = write_csv(tmp_path / "p.csv")
    assert_clean_error(run("report", f, "--pred", "guess"), 1, "'guess'", "--pred", "'gold'")


def test_ragged_row_names_the_line(tmp_path):
    f = tmp_path / "r.csv"
    f.write_text("gold,pred\na,a\nb,b,extra\nc,c\n")
    assert_clean_error(run("report", f), 1, "r.csv", "line 3", "expected 2 fields")


def test_empty_label_cell_names_the_row(tmp_path):
    f = tmp_path / "e.csv"
    f.write_text("gold,pred\na,a\nb,\nc,c\n")
    assert_clean_error(run("report", f), 1, "e.csv", "row 2", "line 3", "'pred'", "--multilabel")


def test_empty_label_in_parquet_dictionary_column(tmp_path):
    f = tmp_path / "e.parquet"
    pq.write_table(pa.table({"gold": ["a", "b", None, "a"], "pred": ["a", "b", "a", ""]}), f)
    assert_clean_error(run("report", f), 1, "e.parquet", "row 3", "'gold'")
    pq.write_table(pa.table({"gold": ["a", "b", "b", "a"], "pred": ["a", "b", "a", " "]}), f)
    assert_clean_error(run("report", f), 1, "row 4", "'pred'")


def test_duplicate_ids_name_one(tmp_path):
    f = write_csv(tmp_path / "d.csv", rows=[("1", "a", "a"), ("2", "b", "b"), ("1", "a", "b")])
    assert_clean_error(run("report", f), 1, "d.csv", "'1'", "more than once")


def test_unknown_positive_lists_labels(tmp_path):
    f = write_csv(tmp_path / "p.csv")
    assert_clean_error(run("report", f, "--positive", "zzz"), 1, "'zzz'", "'a', 'b', 'c'")


def test_unknown_format_is_usage_error(tmp_path):
    f = write_csv(tmp_path / "p.csv")
    res = run("report", f, "--format", "xml")
    assert res.code == 2 and "--format" in res.err and "Traceback" not in res.err


def test_unknown_option_is_usage_error(tmp_path):
    res = run("report", write_csv(tmp_path / "p.csv"), "--frobnicate")
    assert res.code == 2 and "--frobnicate" in res.err


def test_bad_beta_is_usage_error(tmp_path):
    res = run("report", write_csv(tmp_path / "p.csv"), "--beta", "-1")
    assert_clean_error(res, 2, "beta")


@pytest.mark.parametrize("ext,content", [(".parquet", b"gold,pred\na,a\n"), (".jsonl", b"gold,pred\na,a\n")])
def test_file_not_what_extension_says(tmp_path, ext, content):
    f = tmp_path / f"x{ext}"
    f.write_bytes(content)
    assert_clean_error(run("report", f), 1, f"x{ext}")


def test_parquet_named_csv(tmp_path):
    f = tmp_path / "x.csv"
    pq.write_table(pa.table({"gold": ["a"], "pred": ["a"]}), f)
    assert_clean_error(run("report", f), 1, "x.csv", "Parquet")


def test_no_output_file_on_error(tmp_path):
    f = tmp_path / "e.csv"
    f.write_text("gold,pred\na,a\nb,\n")
    out = tmp_path / "out.json"
    res = run("report", f, "--format", "json", "--output", out)
    assert res.code == 1
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.json")]


def test_real_process_exit_codes_and_no_traceback(tmp_path):
    f = tmp_path / "e.csv"
    f.write_text("gold,pred\na,a\nb,\n")
    env_src = str(Path(__file__).resolve().parents[2] / "src")
    import os

    env = dict(os.environ, PYTHONPATH=env_src)
    p = subprocess.run([sys.executable, "-m", "clfeval", "report", str(f)], capture_output=True, text=True, env=env)
    assert p.returncode == 1 and "Traceback" not in p.stderr and "row 2" in p.stderr and p.stdout == ""
    p = subprocess.run([sys.executable, "-m", "clfeval", "report", str(tmp_path / "missing.csv")], capture_output=True,
                       text=True, env=env)
    assert p.returncode == 2 and "missing.csv" in p.stderr
