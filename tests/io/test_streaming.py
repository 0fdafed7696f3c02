"""Streamed count tables equal the in-memory ones: every format, every PATH kind, every batch size.

Oracle: scikit-learn's ``confusion_matrix`` of the items, gathered independently of clfeval's readers,
and clfeval's in-memory path (``read_predictions`` + ``report``). The two files of every input hold
different label sets (a, b in the first; b, c in the second), so the vocabularies must align.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sklearn.metrics import confusion_matrix

from clfeval.evaluate._reports import report
from clfeval.evaluate._streaming import count_batches
from clfeval.io._batches import iter_batches
from clfeval.io._predictions import iter_predictions, read_predictions
from tests._helpers.clihelp import run

FORMATS = ["csv", "tsv", "jsonl", "parquet"]
BATCHES = [1, 7, 1 << 20]


def _items(seed: int = 3) -> list[tuple[list[str], list[str], list[str]]]:
    """Two files' (ids, gold, pred): file 1 over labels a, b; file 2 over b, c."""
    rng = np.random.default_rng(seed)
    out = []
    for k, (labels, n) in enumerate(((["a", "b"], 19), (["b", "c"], 24))):
        gold = rng.choice(labels, n).tolist()
        pred = [g if rng.random() < 0.7 else rng.choice(labels) for g in gold]
        out.append(([f"f{k}-{i}" for i in range(n)], gold, [str(p) for p in pred]))
    return out


def _write(path: Path, fmt: str, ids: list[str], gold: list[str], pred: list[str]) -> None:
    if fmt in ("csv", "tsv"):
        sep = "," if fmt == "csv" else "\t"
        path.write_text(sep.join(["id", "gold", "pred"]) + "\n"
                        + "".join(sep.join(row) + "\n" for row in zip(ids, gold, pred, strict=True)), encoding="utf-8")
    elif fmt == "jsonl":
        path.write_text("".join(json.dumps({"id": i, "gold": g, "pred": p}) + "\n" for i, g, p in zip(ids, gold, pred,
                                                                                                      strict=True)),
                        encoding="utf-8")
    else:
        pq.write_table(pa.table({"id": ids, "gold": gold, "pred": pred}), path)


def _oracle(parts) -> tuple[list[str], np.ndarray]:
    gold = [g for _, gs, _ in parts for g in gs]
    pred = [p for _, _, ps in parts for p in ps]
    labels = sorted(set(gold) | set(pred))
    return labels, confusion_matrix(gold, pred, labels=labels)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[tuple[str, str], str]:
    """For every format: a single file (the two files concatenated), a directory and a glob of two files."""
    root = tmp_path_factory.mktemp("inputs")
    parts = _items()
    out = {}
    for fmt in FORMATS:
        whole = root / f"all.{fmt}"
        _write(whole, fmt, *[sum((p[i] for p in parts), []) for i in range(3)])
        d = root / f"dir-{fmt}"
        d.mkdir()
        for k, p in enumerate(parts):
            _write(d / f"part-{k}.{fmt}", fmt, *p)
        (d / "_SUCCESS").write_text("")  # skipped: a name starting with '_'
        out[(fmt, "file")] = str(whole)
        out[(fmt, "directory")] = str(d)
        out[(fmt, "glob")] = str(d / f"part-*.{fmt}")
    hive = root / "hive"
    for k, p in enumerate(parts):
        sub = hive / "model=m1" / f"day={k + 1}"
        sub.mkdir(parents=True)
        _write(sub / "part-0.parquet", "parquet", *p)
    out[("parquet", "hive")] = str(hive)
    return out


KINDS = [(fmt, kind) for fmt in FORMATS for kind in ("file", "directory", "glob")] + [("parquet", "hive")]


@pytest.mark.parametrize("batch_rows", BATCHES)
@pytest.mark.parametrize("fmt,kind", KINDS)
def test_streamed_table_equals_sklearn_and_in_memory(inputs, fmt, kind, batch_rows):
    labels, expected = _oracle(_items())
    path = inputs[(fmt, kind)]
    reader = iter_predictions(path, batch_rows=batch_rows)
    sizes = []

    def batches():
        for b in reader:
            sizes.append(b.n)
            yield b

    table, _ = count_batches(batches())
    assert list(table.labels) == labels
    np.testing.assert_array_equal(table.counts, expected)
    assert sum(sizes) == expected.sum()
    assert max(sizes) <= batch_rows
    if batch_rows == 1:
        assert len(sizes) == expected.sum()
    # the in-memory path on the same PATH
    preds = read_predictions(path)
    rep = report(preds.gold, preds.pred)
    assert list(rep.labels) == labels
    np.testing.assert_array_equal(np.asarray(rep.confusion_matrix), expected)


def test_hive_partition_columns_are_read_as_text(inputs):
    batches = list(iter_batches(inputs[("parquet", "hive")], columns=["gold", "day", "model"], batch_rows=7))
    days = [v for b in batches for v in b.column("day").to_pylist()]
    assert sorted(set(days)) == ["1", "2"]
    assert days.count("1") == 19 and days.count("2") == 24
    assert {v for b in batches for v in b.column("model").to_pylist()} == {"m1"}


def test_a_partition_column_can_be_the_gold_column(tmp_path):
    """``gold=x/part.parquet``: the gold label comes from the directory name, as text."""
    for g, preds in (("a", ["a", "b", "a"]), ("b", ["b", "b"])):
        sub = tmp_path / f"gold={g}"
        sub.mkdir()
        pq.write_table(pa.table({"pred": preds}), sub / "part-0.parquet")
    table, _ = count_batches(iter_predictions(str(tmp_path), batch_rows=1))
    assert list(table.labels) == ["a", "b"]
    np.testing.assert_array_equal(table.counts, confusion_matrix(["a"] * 3 + ["b"] * 2, ["a", "b", "a", "b", "b"]))


def _json_report(*args: str) -> dict:
    res = run("report", *args, "--format", "json")
    assert res.code == 0, res.err
    return json.loads(res.out)


@pytest.mark.parametrize("fmt,kind", [("csv", "directory"), ("jsonl", "glob"), ("parquet", "hive"), ("tsv", "file")])
def test_cli_report_streams_every_path_kind(inputs, fmt, kind):
    labels, expected = _oracle(_items())
    got = _json_report(inputs[(fmt, kind)])
    assert got["labels"] == labels
    assert got["confusion_matrix"] == expected.tolist()


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_report_reads_stdin(inputs, monkeypatch, fmt):
    labels, expected = _oracle(_items())
    data = Path(inputs[(fmt, "file")]).read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    extra = ["--input-format", fmt] if fmt != "csv" else []
    got = _json_report("-", *extra)
    assert got["labels"] == labels
    assert got["confusion_matrix"] == expected.tolist()


def test_cli_report_stdin_equals_the_file(inputs, monkeypatch):
    path = inputs[("csv", "file")]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(Path(path).read_bytes())))
    piped = _json_report("-")
    direct = _json_report(path)
    for key in ("labels", "confusion_matrix", "accuracy", "mcc", "kappa", "macro", "per_class"):
        assert piped[key] == direct[key]


def test_numeric_labels_align_across_files(tmp_path):
    """JSON Lines numbers: 1 in one file and 1.0 in another are one label, as in a whole-file read."""
    (tmp_path / "a.jsonl").write_text('{"gold": 1, "pred": 1}\n{"gold": 2, "pred": 1}\n')
    (tmp_path / "b.jsonl").write_text('{"gold": 2.0, "pred": 2.0}\n{"gold": 3.0, "pred": 2.0}\n')
    table, _ = count_batches(iter_predictions(str(tmp_path), batch_rows=1))
    assert [float(x) for x in table.labels] == [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(table.counts, [[1, 0, 0], [1, 1, 0], [0, 1, 0]])


def test_progress_is_silent_when_stderr_is_not_a_terminal(inputs):
    res = run("report", inputs[("csv", "directory")])
    assert res.code == 0, res.err
    assert res.err == ""
    assert "rows/s" not in res.out and "\x1b[" not in res.out and "\r" not in res.out
    res = run("compare", inputs[("csv", "directory")], inputs[("csv", "file")], "--samples", "200")
    assert res.code == 0, res.err
    assert res.err == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_on_a_terminal(inputs, monkeypatch):
    """The control of the test above: the same read on a terminal does draw the bar on stderr."""
    import contextlib

    from clfeval.cli import main

    err = _Terminal()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        with pytest.raises(SystemExit) as exc:
            main(["report", inputs[("csv", "directory")]])
    assert exc.value.code in (0, None)
    assert "rows" in err.getvalue()


def test_integer_labels_of_different_widths_across_files(tmp_path):
    """int8 labels in one Parquet file, int64 in another: one label set, in memory as streamed (regression:
    the in-memory read failed with pyarrow's 'Array chunks must all be same type')."""
    pq.write_table(pa.table({"gold": pa.array([5, -3, 5, 7], pa.int8()), "pred": pa.array([5, 5, -3, 7], pa.int8())}),
                   tmp_path / "a.parquet")
    pq.write_table(pa.table({"gold": pa.array([1000, 5, 2**40]), "pred": pa.array([5, 1000, 2**40])}),
                   tmp_path / "b.parquet")
    gold, pred = [5, -3, 5, 7, 1000, 5, 2**40], [5, 5, -3, 7, 5, 1000, 2**40]
    labels = sorted(set(gold) | set(pred))
    expected = confusion_matrix(gold, pred, labels=labels)
    streamed, _ = count_batches(iter_predictions(str(tmp_path), batch_rows=2))
    preds = read_predictions(str(tmp_path))
    in_memory = report(preds.gold, preds.pred).table
    for t in (streamed, in_memory):
        assert list(t.labels) == labels
        np.testing.assert_array_equal(t.counts, expected)


def test_a_row_is_named_with_its_line_even_before_bad_bytes_further_on(tmp_path):
    """Regression (found by tests/hostile's property test): the line of a row was left out of the message when
    bytes that are not UTF-8 came later in the file (the line count stopped at the first undecodable chunk)."""
    path = tmp_path / "p.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"x": 1}\n{"gold": 1, "pred": 1}\n{"gold": 1, "pred": 1, "x": 1, "id": 1}\n'
                     b'{"x": 1, "y": 9007199254740993, "id": 9007199254740993}\n'
                     b'{"gold": 9007199254740993, "pred": 9007199254740993, "x": 9007199254740993}\n{}\n\xe9[1]')
    res = run("report", str(path))
    assert res.code == 1 and "Traceback" not in res.err
    assert "row 1 (line 1): the label in column 'gold' is empty" in res.err
