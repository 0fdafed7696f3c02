"""Property: any CSV, TSV or JSONL bytes given to ``clfeval report`` end cleanly, and right.

Hypothesis builds files with random headers (duplicates, byte-order marks,
blanks), quoting, control characters, stray bytes and numbers of every shape.
``clfeval report`` must never raise (a traceback), must exit 0, 1 or 2, and
must leave the file as it was. When it exits 0, its numbers must equal
scikit-learn's on the labels an independent reader — the standard library's
``csv`` or ``json`` on the same bytes — finds; cases that reader rejects are
skipped.
"""

from __future__ import annotations

import csv
import io
import json
import re
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st
from sklearn.metrics import accuracy_score, f1_score

from tests._helpers.clihelp import run

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

NUMBER_TEXTS = ["0", "-0", "1", "1.0", "01", "007", "1e3", "1E+3", "1000", "-1", "1.5", "0.1", "0.10",
                "0.1000000000000000000001", "9007199254740992", "9007199254740993", "18446744073709551616",
                "18446744073709551617", "1e-400", "1e400", "2.5e-324", "5e-324", "1.7976931348623157e308",
                "NaN", "Infinity", "-Infinity", "123456789012345678901234567890"]
PIECES = ["a", "b", "c", "é", "e\u0301", " ", ",", "\t", '"', "'", "\n", "\r", "\r\n", "\x00", "\x1b[31m", "|",
          "\ufeff", "\u2028", "\x0b", "\x0c", "\x85", "\x1c", "\x7f", "\\", "=", "null", "true", "#"]
NAMES = ["gold", "pred", "id", "x", "", " gold", "Gold", "\ufeffgold", "p\u00e9d", "a,b", 'q"q', "new\nline"]


def cell() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(NUMBER_TEXTS), st.sampled_from(["a", "b", "c", "é", "e\u0301"]),
                     st.lists(st.sampled_from(PIECES), max_size=4).map("".join),
                     st.integers(-(2**70), 2**70).map(str), st.floats(allow_nan=False).map(repr))


@st.composite
def delimited(draw: st.DrawFn, delimiter: str) -> bytes:
    extra = draw(st.lists(st.sampled_from(NAMES[2:]), max_size=2, unique=True))
    header = draw(st.permutations(["gold", "pred"] + extra))
    if draw(st.integers(0, 9)) == 0:  # anything: duplicates, blanks, no gold
        header = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4))
    n = draw(st.integers(1, 12))
    nice = st.sampled_from(["a", "b", "c", "1", "1.0", "é", "e\u0301", "a,b", 'say "hi"', "two\nlines", " x ", "\x1b"])
    labels = nice if draw(st.integers(0, 3)) else cell()
    rows = [[draw(labels) for _ in header] for _ in range(n)]
    if draw(st.integers(0, 5)) == 0 and rows:
        rows[draw(st.integers(0, len(rows) - 1))].append(draw(cell()))  # a ragged row
    buf = io.StringIO()
    quoting = draw(st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC]))
    writer = csv.writer(buf, delimiter=delimiter, quoting=quoting,
                        lineterminator=draw(st.sampled_from(["\n", "\r\n"])))
    writer.writerow(header)
    writer.writerows(rows)
    text = buf.getvalue()
    if draw(st.integers(0, 4)) == 0:  # blank lines here and there
        lines = text.split("\n")
        at = draw(st.integers(1, len(lines)))
        text = "\n".join(lines[:at] + [""] + lines[at:])
    data = text.encode("utf-8")
    return _mutate(draw, data)


def _mutate(draw: st.DrawFn, data: bytes) -> bytes:
    if draw(st.integers(0, 4)) == 0:
        data = b"\xef\xbb\xbf" + data
    if draw(st.integers(0, 6)) == 0:  # a stray byte: a quote, a delimiter, or not UTF-8 at all
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b'"', b",", b"\t", b"\xe9", b"\xff", b"\x00", b"\n"])) + data[at:]
    if draw(st.integers(0, 19)) == 0:
        data = data[: draw(st.integers(1, max(1, len(data))))]  # cut short
    return data


def json_value() -> st.SearchStrategy[str]:
    """A JSON value as text (numbers written in every shape)."""
    scalar = st.one_of(st.sampled_from([t for t in NUMBER_TEXTS if t[0] not in "0" or t in ("0", "0.1", "0.10",
                                                                                             "0.1000000000000000000001")]),
                       st.integers(-(2**70), 2**70).map(str),
                       st.floats(allow_nan=False, allow_infinity=False).map(repr),
                       st.sampled_from(["true", "false", "null", '""', '" "']),
                       st.lists(st.sampled_from(PIECES), max_size=4).map("".join).map(json.dumps),
                       st.sampled_from(['"a"', '"b"', '"2020-01-01"', '"2020-01-01T00:00:00"', '"\\ud800"']))
    return st.one_of(scalar, st.lists(scalar, max_size=2).map(lambda xs: "[" + ", ".join(xs) + "]"))


@st.composite
def jsonl(draw: st.DrawFn) -> bytes:
    n = draw(st.integers(1, 10))
    kind = draw(st.sampled_from(["strings", "ints", "numbers", "strings", "ints", "numbers", "any"]))
    keyless = draw(st.integers(0, 5)) == 0  # some objects may lack gold or pred
    ids = draw(st.sampled_from(["none", "all", "some"]))
    value = {"strings": st.sampled_from(['"a"', '"b"', '"c"']),
             "ints": st.sampled_from(["1", "2", "9007199254740993", "9007199254740992", "18446744073709551617"]),
             "numbers": st.sampled_from(["1", "1.0", "1.5", "2", "0.1", "0.1000000000000000000001", "1e-400"]),
             "any": json_value()}[kind]
    lines = []
    for _ in range(n):
        keys = draw(st.lists(st.sampled_from(["x", "y"]), max_size=2, unique=True))
        if ids == "all" or (ids == "some" and draw(st.booleans())):
            keys.append("id")
        keys = ["gold", "pred"] + keys if not keyless or draw(st.booleans()) else keys
        obj = "{" + ", ".join(f"{json.dumps(k)}: {draw(value)}" for k in keys) + "}"
        if draw(st.integers(0, 40)) == 0:
            obj = draw(st.sampled_from(["[1]", "{", "not json", "", "  ", '{"gold": 1,}']))
        lines.append(obj)
    text = draw(st.sampled_from(["\n", "\r\n"])).join(lines) + draw(st.sampled_from(["", "\n"]))
    return _mutate(draw, text.encode("utf-8"))


def run_report(data: bytes, suffix: str):
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / f"p{suffix}"
        f.write_bytes(data)
        res = run("report", f, "--format", "json")
        assert f.read_bytes() == data and [p.name for p in Path(d).iterdir()] == [f.name]
    assert res.code in (0, 1, 2), (res.code, res.err)
    event(f"exit {res.code}")
    assert "Traceback" not in res.err
    if res.code:
        assert res.out == "" and res.err.startswith(("clfeval: error:", "Usage:", "Error:")), res.err
        for ref in re.finditer(r"\brow (\d+)( \(line (\d+)\))?", res.err):  # rows from 1, with their line
            assert int(ref.group(1)) >= 1 and ref.group(2), res.err
    return res


def check_numbers(rep: dict, gold: list, pred: list) -> None:
    keys = sorted(set(gold) | set(pred), key=repr)
    code = {k: i for i, k in enumerate(keys)}
    g = [code[x] for x in gold]
    p = [code[x] for x in pred]
    assert rep["n"] == len(gold)
    assert len(rep["labels"]) == len(keys)
    assert rep["accuracy"] == pytest.approx(accuracy_score(g, p), abs=1e-12)
    assert rep["macro"]["f1"] == pytest.approx(f1_score(g, p, average="macro", labels=list(range(len(keys))),
                                                        zero_division=0), abs=1e-12)


def csv_oracle(data: bytes, delimiter: str) -> tuple[list, list] | None:
    """Gold and pred by the standard library's csv, or None where it (or the rules) reject the file."""
    try:
        text = data.decode("utf-8-sig")
        rows = [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True) if r]
    except (UnicodeDecodeError, csv.Error):
        return None
    if len(rows) < 2:
        return None
    header = rows[0]
    if len(set(header)) != len(header) or "gold" not in header or "pred" not in header:
        return None
    if any(len(r) != len(header) for r in rows[1:]):
        return None
    gi, pi = header.index("gold"), header.index("pred")
    gold = [r[gi] for r in rows[1:]]
    pred = [r[pi] for r in rows[1:]]
    if any(not x.strip() for x in gold + pred):
        return None
    return gold, pred


def check_delimited(data: bytes, delimiter: str, suffix: str) -> None:
    res = run_report(data, suffix)
    expected = csv_oracle(data, delimiter)
    event("compared" if res.code == 0 and expected is not None else "not compared")
    if res.code == 0 and expected is not None:
        rep = json.loads(res.out)
        check_numbers(rep, *expected)
        assert set(rep["labels"]) == set(expected[0]) | set(expected[1])  # text stays text, exactly


@settings(max_examples=200, **SETTINGS)
@given(delimited(","))
def test_csv_bytes(data):
    check_delimited(data, ",", ".csv")


@settings(max_examples=100, **SETTINGS)
@given(delimited("\t"))
def test_tsv_bytes(data):
    check_delimited(data, "\t", ".tsv")


class _Reject(Exception):
    pass


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise _Reject
    return dict(pairs)


def _key(v):
    """A label as the independent reader sees it: numbers by exact value (1 == 1.0), text, booleans."""
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, (int, Decimal)):
        return ("number", Decimal(v))
    if isinstance(v, str):
        return ("text", v)
    raise _Reject


def jsonl_oracle(data: bytes) -> tuple[list, list] | None:
    try:
        text = data.decode("utf-8-sig")
        objs = [json.loads(line, parse_float=Decimal, parse_constant=lambda c: (_ for _ in ()).throw(_Reject()),
                           object_pairs_hook=_no_duplicates)
                for line in text.split("\n") if line.strip(" \t\r\n")]
        if not objs or not all(isinstance(o, dict) for o in objs):
            return None
        gold = [_key(o.get("gold")) for o in objs]
        pred = [_key(o.get("pred")) for o in objs]
    except (UnicodeDecodeError, ValueError, RecursionError, _Reject):
        return None
    if any(k[0] == "text" and not k[1].strip() for k in gold + pred):
        return None
    return gold, pred


@settings(max_examples=250, **SETTINGS)
@given(jsonl())
def test_jsonl_bytes(data):
    res = run_report(data, ".jsonl")
    expected = jsonl_oracle(data)
    event("compared" if res.code == 0 and expected is not None else "not compared")
    if res.code == 0 and expected is not None:
        rep = json.loads(res.out)
        check_numbers(rep, *expected)
        kinds = {k[0] for k in expected[0] + expected[1]}
        if kinds == {"number"}:  # each label's text is its number: equal numbers one label, no two merged
            assert {Decimal(x) for x in rep["labels"]} == {k[1] for k in expected[0] + expected[1]}
        elif kinds == {"text"}:
            assert set(rep["labels"]) == {k[1] for k in expected[0] + expected[1]}
