"""Reading input files exactly (issue 9): hostile and unusual files given to the command line.

Every case checks the exit code, that the message names the fault, that no
traceback is printed, and that the input files are byte-identical afterwards
(no file added, none changed). Expected numbers come from the standard
library's readers (csv, json) and scikit-learn on the same bytes, or by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sklearn.metrics import accuracy_score, f1_score

from clfeval.cli import cli
from tests._helpers.clihelp import run

SRC = str(Path(__file__).resolve().parents[2] / "src")


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def cli_run(root: Path, *args, code: int, needles: tuple[str, ...] = ()):
    """Run clfeval in-process; check the exit code, the message, no traceback, and the inputs untouched."""
    before = snapshot(root)
    res = run(*args)
    assert res.code == code, (res.code, res.out, res.err)
    assert "Traceback" not in res.err and "Traceback" not in res.out
    for n in needles:
        assert n in res.err, (n, res.err)
    if code != 0:
        assert res.out == ""
    assert snapshot(root) == before
    return res


def process(*args, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """A real clfeval process (stdin a real pipe)."""
    env = dict(os.environ, PYTHONPATH=SRC)
    return subprocess.run([sys.executable, "-m", "clfeval", *map(str, args)], input=stdin if stdin is not None else b"",
                          capture_output=True, env=env, timeout=120)


def report_json(root: Path, *args) -> dict:
    res = cli_run(root, "report", *args, "--format", "json", code=0)
    return json.loads(res.out)


def write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


# --- wrong numbers: labels that must not merge --------------------------------------------


def test_jsonl_integers_beyond_2_53_beside_floats_stay_distinct(tmp_path):
    # the case: pyarrow types the column float64, and the two integers became one value
    f = write(tmp_path / "p.jsonl",
              '{"gold": 9007199254740993, "pred": 9007199254740992}\n{"gold": 1.5, "pred": 1.5}\n')
    rows = [json.loads(line) for line in f.read_text().splitlines()]
    expected = accuracy_score([str(r["gold"]) for r in rows], [str(r["pred"]) for r in rows])
    rep = report_json(tmp_path, f)
    assert expected == 0.5 and rep["accuracy"] == expected
    assert set(rep["labels"]) == {"9007199254740993", "9007199254740992", "1.5"}


def test_jsonl_integers_beyond_uint64_stay_exact(tmp_path):
    f = write(tmp_path / "p.jsonl", '{"gold": 18446744073709551617, "pred": 18446744073709551616}\n'
                                    '{"gold": 18446744073709551617, "pred": 18446744073709551617}\n')
    rep = report_json(tmp_path, f)
    assert rep["accuracy"] == 0.5
    assert rep["labels"] == ["18446744073709551616", "18446744073709551617"]


def test_jsonl_decimals_finer_than_float64_stay_distinct(tmp_path):
    f = write(tmp_path / "p.jsonl", '{"gold": 0.1000000000000000000001, "pred": 0.1}\n{"gold": 0.1, "pred": 0.1}\n')
    rep = report_json(tmp_path, f)
    assert rep["accuracy"] == 0.5 and rep["labels"] == ["0.1", "0.1000000000000000000001"]


def test_jsonl_one_and_one_point_zero_are_one_class_printed_as_1(tmp_path):
    f = write(tmp_path / "p.jsonl", '{"gold": 1, "pred": 1.0}\n{"gold": 2.0, "pred": 2}\n{"gold": 1.0, "pred": 2}\n')
    rep = report_json(tmp_path, f)
    assert rep["labels"] == ["1", "2"] and rep["accuracy"] == pytest.approx(2 / 3)
    assert rep["confusion_matrix"] == [[1, 1], [0, 1]]


def test_jsonl_date_strings_are_text_not_timestamps(tmp_path):
    # pyarrow infers a timestamp column and "2020-01-01" equals "2020-01-01T00:00:00" there
    f = write(tmp_path / "p.jsonl", '{"gold": "2020-01-01", "pred": "2020-01-01T00:00:00"}\n'
                                    '{"gold": "2020-01-02", "pred": "2020-01-02"}\n')
    rep = report_json(tmp_path, f)
    assert rep["accuracy"] == 0.5 and "2020-01-01T00:00:00" in rep["labels"]


def test_jsonl_huge_integer_in_gold_small_integers_in_pred(tmp_path):
    # gold must become text (beyond 64 bits); pred, plain int64, must then compare as text too
    f = write(tmp_path / "p.jsonl", '{"gold": 100000000000000000000000, "pred": 1}\n{"gold": 1, "pred": 1}\n')
    rep = report_json(tmp_path, f)
    assert rep["accuracy"] == 0.5 and set(rep["labels"]) == {"1", "100000000000000000000000"}


def test_jsonl_label_sets_with_mixed_numbers_stay_exact(tmp_path):
    f = write(tmp_path / "p.jsonl", '{"gold": [9007199254740993, 1.5], "pred": [9007199254740992, 1.5]}\n'
                                    '{"gold": [], "pred": [1.5]}\n')
    rep = report_json(tmp_path, f, "--multilabel")
    assert set(rep["labels"]) == {"1.5", "9007199254740992", "9007199254740993"}
    assert rep["subset_accuracy"] == 0.0 and rep["per_class"]["9007199254740993"]["tp"] == 0


def test_jsonl_too_large_for_float_is_refused_saying_how_to_fix(tmp_path):
    f = write(tmp_path / "p.jsonl", '{"gold": "a", "pred": "a"}\n{"gold": 1e400, "pred": 1}\n')
    cli_run(tmp_path, "report", f, code=1, needles=("p.jsonl", "row 2 (line 2)", "'gold'", "quote labels as strings"))


def test_parquet_uint64_labels_beyond_int64_stay_exact(tmp_path):
    f = tmp_path / "p.parquet"
    big = 2**64 - 1
    pq.write_table(pa.table({"gold": pa.array([big, big - 1, big - 2], pa.uint64()),
                             "pred": pa.array([big, big, big - 2], pa.uint64())}), f)
    rep = report_json(tmp_path, f)
    assert rep["labels"] == [str(big - 2), str(big - 1), str(big)] and rep["accuracy"] == pytest.approx(2 / 3)
    f2 = tmp_path / "q.parquet"  # a range too wide to count directly: hashed
    pq.write_table(pa.table({"gold": pa.array([big, 5], pa.uint64()), "pred": pa.array([big, big], pa.uint64())}), f2)
    assert report_json(tmp_path, f2)["labels"] == ["5", str(big)]


def test_parquet_uint64_beside_signed_integers_stay_exact(tmp_path):
    f = tmp_path / "p.parquet"
    pq.write_table(pa.table({"gold": pa.array([2**63 + 1, 2**63], pa.uint64()),
                             "pred": pa.array([-(2**62), 2**62], pa.int64())}), f)
    rep = report_json(tmp_path, f)
    assert rep["accuracy"] == 0.0 and len(rep["labels"]) == 4


def test_parquet_integer_gold_and_float_pred_are_one_class_per_number(tmp_path):
    f = tmp_path / "p.parquet"
    pq.write_table(pa.table({"gold": pa.array([1, 2, 2], pa.int64()), "pred": pa.array([1.0, 2.0, 1.0])}), f)
    rep = report_json(tmp_path, f)
    assert rep["labels"] == ["1", "2"] and rep["accuracy"] == pytest.approx(2 / 3)


def test_csv_values_stay_text(tmp_path):
    f = write(tmp_path / "p.csv", "gold,pred\n1,1.0\n1,1\n007,7\n")
    rep = report_json(tmp_path, f)
    assert rep["labels"] == ["007", "1", "1.0", "7"] and rep["accuracy"] == pytest.approx(1 / 3)


# --- duplicate column names ------------------------------------------------------------------


@pytest.mark.parametrize("name,data", [("p.csv", "gold,pred,gold\na,a,b\nb,b,a\n"),
                                       ("p.tsv", "gold\tpred\tgold\na\ta\tb\n")])
def test_duplicate_header_is_refused_naming_column_and_positions(tmp_path, name, data):
    f = write(tmp_path / name, data)
    cli_run(tmp_path, "report", f, code=1, needles=(name, "'gold'", "columns 1 and 3"))


def test_duplicate_parquet_column_is_refused(tmp_path):
    f = tmp_path / "p.parquet"
    pq.write_table(pa.Table.from_arrays([pa.array(["a", "b"]), pa.array(["a", "a"]), pa.array(["b", "b"])],
                                        names=["gold", "pred", "gold"]), f)
    cli_run(tmp_path, "report", f, code=1, needles=("p.parquet", "'gold'", "columns 1 and 3", "schema"))


def test_duplicate_jsonl_key_is_refused_naming_row(tmp_path):
    f = write(tmp_path / "p.jsonl", '{"gold": "a", "pred": "a"}\n{"gold": "a", "pred": "b", "gold": "b"}\n')
    cli_run(tmp_path, "report", f, code=1, needles=("p.jsonl", "row 2 (line 2)", "'gold' twice"))


# --- byte-order marks ---------------------------------------------------------------------------


@pytest.mark.parametrize("name,data", [("p.csv", "gold,pred\na,a\nb,a\n"), ("p.tsv", "gold\tpred\na\ta\nb\ta\n"),
                                       ("p.jsonl", '{"gold": "a", "pred": "a"}\n{"gold": "b", "pred": "a"}\n')])
def test_utf8_bom_is_stripped(tmp_path, name, data):
    f = write(tmp_path / name, b"\xef\xbb\xbf" + data.encode())
    rep = report_json(tmp_path, f)
    assert rep["labels"] == ["a", "b"] and rep["accuracy"] == 0.5


def test_bom_in_the_gold_option_is_explained(tmp_path):
    f = write(tmp_path / "p.csv", b"\xef\xbb\xbfgold,pred\na,a\n")
    cli_run(tmp_path, "report", f, "--gold", "\ufeffgold", code=1, needles=("--gold", "U+FEFF", "--gold gold"))


# --- bytes that are not UTF-8 -------------------------------------------------------------------------


def test_latin1_bytes_are_refused_with_row_line_and_offset(tmp_path):
    data = "gold,pred\na,a\ncafé,a\n".encode("latin-1")
    f = write(tmp_path / "p.csv", data)
    offset = data.index(b"\xe9")
    cli_run(tmp_path, "report", f, code=1,
            needles=("p.csv", "row 2 (line 3)", f"byte offset {offset}", "--encoding latin-1"))


def test_latin1_bytes_in_the_header_are_refused(tmp_path):
    data = "gold,préd\na,a\n".encode("latin-1")
    f = write(tmp_path / "p.csv", data)
    assert data.index(b"\xe9") == 7  # g o l d , p r
    cli_run(tmp_path, "report", f, code=1, needles=("the header (line 1)", "byte offset 7"))


def test_latin1_bytes_in_jsonl_are_refused_with_row(tmp_path):
    data = '{"gold": "a", "pred": "a"}\n\n{"gold": "café", "pred": "a"}\n'.encode("latin-1")
    f = write(tmp_path / "p.jsonl", data)
    offset = data.index("é".encode("latin-1"))
    cli_run(tmp_path, "report", f, code=1,
            needles=("p.jsonl", "row 2 (line 3)", f"byte offset {offset}", "--encoding latin-1"))


@pytest.mark.parametrize("name,data", [("p.csv", "gold,pred\ncafé,café\nthé,café\n"),
                                       ("p.jsonl",
                                        '{"gold": "café", "pred": "café"}\n{"gold": "thé", "pred": "café"}\n')])
def test_encoding_latin1_reads_the_file(tmp_path, name, data):
    f = write(tmp_path / name, data.encode("latin-1"))
    rep = report_json(tmp_path, f, "--encoding", "latin-1")
    assert rep["labels"] == ["café", "thé"] and rep["accuracy"] == 0.5


def commands_reading_files():
    yield from ("report", "compare", "threshold", "calibration", "cv", "holdout")


@pytest.mark.parametrize("name", list(commands_reading_files()))
def test_every_reading_command_has_the_input_options(name):
    opts = {o for p in cli.commands[name].params for o in getattr(p, "opts", [])}
    assert {"--encoding", "--normalize-labels"} <= opts, name


def test_encoding_reaches_compare_and_threshold(tmp_path):
    a = write(tmp_path / "a.csv",
              "id,gold,pred,score\n1,thé,thé,0.9\n2,café,thé,0.8\n3,café,café,0.1\n".encode("latin-1"))
    b = write(tmp_path / "b.csv",
              "id,gold,pred,score\n1,thé,café,0.3\n2,café,café,0.2\n3,café,café,0.4\n".encode("latin-1"))
    cli_run(tmp_path, "compare", a, b, "--samples", "100", code=1, needles=("--encoding latin-1",))
    cli_run(tmp_path, "compare", a, b, "--samples", "100", "--encoding", "latin-1", code=0)
    res = cli_run(tmp_path, "threshold", a, "--dev", b, "--score", "score", "--positive", "thé", "--encoding",
                  "latin-1", "-f", "json", code=0)
    assert json.loads(res.out)["positive"] == "thé"


# --- quoted newlines in large files ----------------------------------------------------------------------


def test_quoted_newlines_in_a_large_csv_are_read(tmp_path):
    rows = [("a" if i % 3 else "b", "a", f"line one {i}\nline two" * (1 + i % 7)) for i in range(200_000)]
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["gold", "pred", "text"])
    w.writerows(rows)
    f = write(tmp_path / "big.csv", buf.getvalue())
    assert f.stat().st_size > 1 << 24  # beyond one 16 MiB block of the reader
    with open(f, newline="", encoding="utf-8") as fh:
        got = list(csv.reader(fh))[1:]
    gold, pred = [r[0] for r in got], [r[1] for r in got]
    rep = report_json(tmp_path, f)
    assert rep["n"] == len(rows) and rep["accuracy"] == pytest.approx(accuracy_score(gold, pred))


# --- Unicode normalisation ---------------------------------------------------------------------------------


def test_labels_differing_only_in_normalisation_get_a_note_and_merge_on_request(tmp_path):
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    f = write(tmp_path / "p.csv", f"gold,pred\n{nfc},{nfd}\n{nfc},{nfc}\ntea,tea\n")
    rep = report_json(tmp_path, f)
    assert len(rep["labels"]) == 3 and rep["accuracy"] == pytest.approx(2 / 3)
    note = next(n for n in rep["notes"] if "normalisation" in n)
    assert ascii(nfc) in note and ascii(nfd) in note and "--normalize-labels nfc" in note
    merged = report_json(tmp_path, f, "--normalize-labels", "nfc")
    assert merged["labels"] == [nfc, "tea"] and merged["accuracy"] == 1.0
    assert not any("normalisation" in n for n in merged["notes"])


def test_normalisation_splits_label_sets_first(tmp_path):
    f = write(tmp_path / "p.csv", "gold,pred\ncafe\u0301|tea,caf\u00e9|tea\n")
    rep = report_json(tmp_path, f, "--multilabel", "--normalize-labels", "nfc")
    assert rep["labels"] == ["caf\u00e9", "tea"] and rep["subset_accuracy"] == 1.0


# --- standard input and pipes ----------------------------------------------------------------------------------


def test_dash_reads_standard_input_as_csv(tmp_path):
    data = b"gold,pred\na,a\nb,a\nb,b\n"
    p = process("report", "-", "-f", "json", stdin=data)
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)
    assert rep["n"] == 3 and rep["accuracy"] == pytest.approx(accuracy_score(["a", "b", "b"], ["a", "a", "b"]))


def test_dash_with_input_format_jsonl_and_parquet(tmp_path):
    p = process("report", "-", "--input-format", "jsonl", "-f", "json",
                stdin=b'{"gold": 1, "pred": 1}\n{"gold": 2, "pred": 1}\n')
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["labels"] == ["1", "2"]
    f = tmp_path / "p.parquet"
    pq.write_table(pa.table({"gold": ["x", "y"], "pred": ["x", "x"]}), f)
    p = process("report", "-", "--input-format", "parquet", "-f", "json", stdin=f.read_bytes())
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["accuracy"] == 0.5


def test_dash_errors_name_standard_input_and_the_row(tmp_path):
    p = process("report", "-", stdin=b"gold,pred\na,a\nb,\n")
    err = p.stderr.decode()
    assert p.returncode == 1 and "Traceback" not in err and "<stdin>" in err and "row 2 (line 3)" in err


def test_empty_standard_input_says_empty(tmp_path):
    p = process("report", "-", stdin=b"")
    assert p.returncode == 1 and b"empty" in p.stderr and b"Traceback" not in p.stderr


def test_a_pipe_named_by_path_is_read(tmp_path):
    f = write(tmp_path / "p.csv", "gold,pred\na,a\nb,a\n")
    env = dict(os.environ, PYTHONPATH=SRC)
    p = subprocess.run(["bash", "-c", f'"{sys.executable}" -m clfeval report <(cat "{f}") --input-format csv -f json'],
                       capture_output=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["accuracy"] == 0.5
    p = process("report", "/dev/stdin", "--input-format", "csv", "-f", "json", stdin=f.read_bytes())
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["n"] == 2


def test_standard_input_is_read_once(tmp_path):
    p = process("compare", "-", "-", stdin=b"gold,pred\na,a\n")
    err = p.stderr.decode()
    assert p.returncode == 2 and "only once" in err and "Traceback" not in err


def test_dash_for_train_labels_and_dev(tmp_path):
    f = write(tmp_path / "p.csv", "gold,pred,score\na,a,0.9\nb,a,0.8\nb,b,0.1\n")
    p = process("report", f, "--train-labels", "-", "-f", "json", stdin=b"label\nb\nb\na\n")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["baselines"]["majority"]["label"] == "b"
    p = process("threshold", f, "--dev", "-", "--score", "score", "--positive", "a", "-f", "json",
                stdin=b"gold,score\na,0.7\nb,0.2\n")
    assert p.returncode == 0, p.stderr


def test_a_device_is_refused(tmp_path):
    cli_run(tmp_path, "report", "/dev/zero", "--input-format", "csv", code=2, needles=("/dev/zero", "device"))


# --- options that used to give tracebacks --------------------------------------------------------------


def test_empty_sep_is_a_usage_error(tmp_path):
    f = write(tmp_path / "p.csv", "gold,pred\na,a\n")
    cli_run(tmp_path, "report", f, "--sep", "", "--multilabel", code=2, needles=("--sep", "empty"))
    cli_run(tmp_path, "threshold", f, "--sep", "", code=2, needles=("--sep",))


@pytest.mark.parametrize("args,options", [(("--id", "gold"), ("--gold", "--id")),
                                          (("--pred", "gold"), ("--gold", "--pred")),
                                          (("--id", "pred"), ("--pred", "--id"))])
def test_one_column_two_roles_is_refused_naming_both_options(tmp_path, args, options):
    f = write(tmp_path / "p.csv", "gold,pred\na,a\nb,a\n")
    cli_run(tmp_path, "report", f, *args, code=2, needles=options + ("'gold'" if "gold" in args else "'pred'",))


def test_score_column_that_is_the_gold_column_is_refused(tmp_path):
    f = write(tmp_path / "p.csv", "gold,pred\n0.1,0.2\n")
    cli_run(tmp_path, "report", f, "--score", "gold", "--positive", "0.1", code=2, needles=("--gold", "--score"))


def test_text_and_label_the_same_column_is_refused(tmp_path):
    pytest.importorskip("sklearn")
    f = write(tmp_path / "d.csv", "text,label\nsome words,a\nother words,b\n")
    cli_run(tmp_path, "cv", f, "--text", "text", "--label", "text", "--no-log", code=2,
            needles=("--text", "--label", "'text'"))


def test_gold_column_named_id_is_not_also_the_id(tmp_path):
    f = write(tmp_path / "p.csv", "id,pred\na,a\na,b\n")
    rep = report_json(tmp_path, f, "--gold", "id")
    assert rep["accuracy"] == 0.5


# --- rows are counted from 1 in every format -------------------------------------------------------------------


@pytest.mark.parametrize("name,data,where", [
    ("p.csv", "gold,pred\na,a\n\nb,b\nc,\n", "row 3 (line 5)"),
    ("p.jsonl", '{"gold": "a", "pred": "a"}\n\n{"gold": "b", "pred": "b"}\n{"gold": "c", "pred": null}\n',
     "row 3 (line 4)"),
    ("p.csv", 'gold,pred\n"a\nb",a\nb,b\nc,\n', "row 3 (line 5)"),
])
def test_empty_label_names_row_and_line(tmp_path, name, data, where):
    f = write(tmp_path / name, data)
    cli_run(tmp_path, "report", f, code=1, needles=(name, where, "'pred'"))


def test_jsonl_kind_change_names_both_rows_from_1(tmp_path):
    f = write(tmp_path / "p.jsonl", '{"gold": 1, "pred": 1}\n{"gold": "x", "pred": 1}\n')
    res = cli_run(tmp_path, "report", f, code=1, needles=("row 2 (line 2)", "row 1 (line 1)", "'gold'", '"1"'))
    assert "row 0" not in res.err


def test_parquet_rows_are_counted_from_1(tmp_path):
    f = tmp_path / "p.parquet"
    pq.write_table(pa.table({"gold": ["a", "b", None], "pred": ["a", "b", "c"]}), f)
    cli_run(tmp_path, "report", f, code=1, needles=("row 3", "'gold'"))


def test_ragged_row_names_row_and_line(tmp_path):
    f = write(tmp_path / "p.csv", 'gold,pred\n"a\nx",a\nb,b,c\n')
    cli_run(tmp_path, "report", f, code=1, needles=("row 2 (line 4)", "expected 2 fields"))


def test_bad_score_in_jsonl_names_row_from_1(tmp_path):
    f = write(tmp_path / "p.jsonl", '{"gold": "a", "score": 0.5}\n{"gold": "b", "score": "high"}\n')
    cli_run(tmp_path, "report", f, "--score", "score", "--positive", "a", "--threshold", "0.5", code=1,
            needles=("row 2 (line 2)",))


# --- training labels and development files ------------------------------------------------------------------


def test_train_labels_disjoint_from_the_data_are_refused(tmp_path):
    f = write(tmp_path / "p.csv", "gold,pred\na,a\nb,a\n")
    t = write(tmp_path / "train.csv", "label\nx\ny\ny\n")
    cli_run(tmp_path, "report", f, "--train-labels", t, code=1,
            needles=("train.csv", "p.csv", "--train-labels", "'x'", "'y'", "'a'", "'b'"))


def test_train_labels_overlapping_the_data_are_used(tmp_path):
    f = write(tmp_path / "p.csv", "gold,pred\na,a\nb,a\nb,b\n")
    t = write(tmp_path / "train.csv", "label\nb\nc\nb\n")
    rep = report_json(tmp_path, f, "--train-labels", t)
    majority = rep["baselines"]["majority"]
    # always "b": 2 of the 3 items are b
    assert majority["label"] == "b" and majority["accuracy"] == pytest.approx(2 / 3)


def test_train_labels_with_an_empty_label_name_the_row(tmp_path):
    f = write(tmp_path / "p.csv", "gold,pred\na,a\n")
    t = write(tmp_path / "train.jsonl", '{"label": "a"}\n{"label": null}\n')
    cli_run(tmp_path, "report", f, "--train-labels", t, code=1, needles=("train.jsonl", "row 2 (line 2)"))


def test_threshold_dev_with_one_class_names_the_dev_file(tmp_path):
    t = write(tmp_path / "test.csv", "gold,score\nspam,0.9\nham,0.1\nspam,0.4\n")
    d = write(tmp_path / "dev.csv", "gold,score\nham,0.9\nham,0.1\n")
    cli_run(tmp_path, "threshold", t, "--dev", d, "--score", "score", "--positive", "spam", code=1,
            needles=("dev.csv", "--dev"))
    d2 = write(tmp_path / "dev2.csv", "gold,score\nham,0.9\nspam,0.1\n")
    d3 = write(tmp_path / "dev3.csv", "gold,score\nspam,0.9\nspam,0.1\n")
    cli_run(tmp_path, "threshold", t, "--dev", d3, "--score", "score", "--positive", "spam", code=1,
            needles=("dev3.csv", "one class"))
    cli_run(tmp_path, "threshold", t, "--dev", d2, "--score", "score", "--positive", "spam", code=0)


def test_macro_f1_of_an_exact_jsonl_file_matches_scikit_learn(tmp_path):
    lines = [{"gold": 2**60 + (i % 3), "pred": 2**60 + ((i * 2) % 3)} for i in range(30)] + [{"gold": 0.5, "pred": 0.5}]
    f = write(tmp_path / "p.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    gold = [str(x["gold"]) for x in lines]
    pred = [str(x["pred"]) for x in lines]
    rep = report_json(tmp_path, f)
    assert rep["accuracy"] == pytest.approx(accuracy_score(gold, pred))
    assert rep["macro"]["f1"] == pytest.approx(f1_score(gold, pred, average="macro", zero_division=0))


def test_cv_reads_standard_input_and_logs_the_hash_of_its_bytes(tmp_path):
    pytest.importorskip("sklearn")
    import csv
    import hashlib
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["body", "topic"])
    for i in range(40):
        w.writerow([("wheat corn grain" if i % 2 else "crude oil barrel") + f" word{i}", "grain" if i % 2 else "oil"])
    data = buf.getvalue().encode()
    db = tmp_path / "runs.sqlite"
    p = process("cv", "-", "--text", "body", "--label", "topic", "--folds", "2", "--runs-db", db, "-f", "json",
                stdin=data)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["pooled"]["n"] == 40
    shown = process("runs", "show", "1", "--runs-db", db, "-f", "json")
    assert json.loads(shown.stdout)["data_hash"] == "sha256:" + hashlib.sha256(data).hexdigest()
