"""Hostile inputs, injection: user strings stay inert wherever clfeval writes them.

* Markdown: labels and file names are escaped; an independent parser
  (markdown-it-py, CommonMark + GFM tables) must find no HTML, link, image,
  code or emphasis in them, and every label as the exact text of a cell.
* Text: control characters are shown escaped (``\\x1b``, ``\\n``), never raw,
  piped or in a terminal (a real pty); rich markup and emoji codes in labels
  print literally.
* CSV/TSV written by clfeval follow OWASP's formula-injection policy, and
  reading them back gives the original labels and the same numbers; a user's
  own file keeps its leading ``'``.
"""

from __future__ import annotations

import csv
import json
import os
import pty
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st
from markdown_it import MarkdownIt

from clfeval.io._csvsafe import MARKER, escape_text, restore_text
from clfeval.io._readers import read_frame, write_frame
from tests._helpers.clihelp import run

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])

HOSTILE_MD = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "a|b", "`tick`", "*star*", "_under_",
              "**bold**", "[link](http://e.x)", "![i](x.png)", "# head", "&lt;b&gt;", "~~gone~~", "$x$", "\\*esc",
              "<!-- c -->", "1. list", "> quote", "<http://e.x>"]

CONTROL = {  # label → how text output shows it (by hand)
    "\x1b[31mred\x1b[0m": "\\x1b[31mred\\x1b[0m",
    "bell\x07": "bell\\x07",
    "cr\rx": "cr\\rx",
    "nl\nx": "nl\\nx",
    "tab\tx": "tab\\tx",
    "\u202eevil": "\\u202eevil",
    "del\x7f": "del\\x7f",
    "c1\x85": "c1\\x85",
    "[bold]b[/bold]": "[bold]b[/bold]",
    "[/x]": "[/x]",
    ":smile:": ":smile:",
}


def snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def write_pairs(path: Path, labels: list[str]) -> Path:
    """Each label once right and once predicted as its neighbour: every label is a row and a column."""
    rows = [(lab, lab) for lab in labels] + [(lab, labels[(i + 1) % len(labels)]) for i, lab in enumerate(labels)]
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps({"id": f"i{i}", "gold": g, "pred": p}) + "\n" for i, (g,
                                                                                                 p) in enumerate(rows)))
    else:
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["id", "gold", "pred"])
            w.writerows((f"i{i}", g, p) for i, (g, p) in enumerate(rows))
    return path


def assert_markdown_inert(markdown: str, cell_texts: list[str]) -> None:
    """No HTML, link, image, code span, emphasis or strikethrough from user strings; each text is a cell's text."""
    html = MD.render(markdown)
    for tag in ("<script", "<img", "<a ", "<!--", "<code", "<del", "<s>", "<h1", "<ol", "<blockquote"):
        assert tag not in html, (tag, html[:3000])
    cells, in_cell = set(), False
    for t in MD.parse(markdown):
        assert t.type != "html_block", t
        if t.type in ("th_open", "td_open"):
            in_cell = True
        elif t.type in ("th_close", "td_close"):
            in_cell = False
        elif t.type == "inline":
            kinds = {c.type for c in t.children or []}
            assert not kinds & {"html_inline", "link_open", "image", "code_inline", "s_open"}, (t.content, kinds)
            if in_cell:
                assert kinds <= {"text"}, (t.content, kinds)
                cells.add("".join(c.content for c in t.children))
    for text in cell_texts:
        assert text in cells, (text, sorted(cells)[:50])


# --- Markdown ----------------------------------------------------------------------------------------

def test_report_markdown_escapes_every_label(tmp_path: Path) -> None:
    f = write_pairs(tmp_path / "p.csv", HOSTILE_MD)
    before = snapshot(tmp_path)
    r = run("report", f, "--positive", HOSTILE_MD[0], "--show-errors", "50", "-f", "markdown")
    assert r.code == 0, r.err
    assert snapshot(tmp_path) == before
    assert_markdown_inert(r.out, HOSTILE_MD)
    # the labels are escaped for display only: JSON carries them exactly
    d = json.loads(run("report", f, "-f", "json").out)
    assert sorted(d["labels"]) == sorted(HOSTILE_MD)


def test_compare_markdown_escapes_file_names(tmp_path: Path) -> None:
    a = write_pairs(tmp_path / "<img src=x onerror=alert(1)>.csv", ["x", "y"])
    b = write_pairs(tmp_path / "*b*_`c`.csv", ["x", "y"])
    r = run("compare", a, b, "--samples", "200", "-f", "markdown")
    assert r.code == 0, r.err
    assert_markdown_inert(r.out, ["A: <img src=x onerror=alert(1)>", "B: *b*_`c`"])


def test_markdown_control_characters_are_escaped_like_text(tmp_path: Path) -> None:
    f = write_pairs(tmp_path / "p.jsonl", list(CONTROL))
    r = run("report", f, "-f", "markdown")
    assert r.code == 0, r.err
    assert not any(unicodedata.category(c) == "Cc" and c != "\n" for c in r.out)
    assert_markdown_inert(r.out, list(CONTROL.values()))  # each label reads as its text form


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1 <>&*_`[]()!#|~$\\-+=.:/@'\"{}^%;")), min_size=1, max_size=12))
def test_any_string_of_markdown_characters_is_one_literal_cell(text: str) -> None:
    from clfeval.render._util import md_table

    md = md_table(["label"], [[text]]) + "\n"
    assert_markdown_inert(md, [text.strip()])  # a table cell's surrounding spaces are not part of its text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1 <>&*_`[]()!#|~$\\-+=.:/@'\"{}^%;")), min_size=1, max_size=12)
       .filter(lambda t: t.strip() and not t.startswith(" ")), st.sampled_from(["paragraph", "heading"]))
def test_any_string_of_markdown_characters_is_one_literal_paragraph_or_heading(text: str, context: str) -> None:
    from clfeval.render._util import md_escape

    source = md_escape(text, context=context)
    tokens = MD.parse(("## " if context == "heading" else "") + source + "\n")
    assert [t.type for t in tokens] == ["heading_open" if context == "heading" else "paragraph_open", "inline",
                                        "heading_close" if context == "heading" else "paragraph_close"], source
    assert {c.type for c in tokens[1].children} <= {"text"}, source
    assert "".join(c.content for c in tokens[1].children) == text.strip(), source


# --- text ----------------------------------------------------------------------------------------------

def _no_raw_controls(text: str) -> None:
    bad = sorted({f"U+{ord(c):04X}" for c in text if c != "\n" and (unicodedata.category(c) in ("Cc", "Zl", "Zp")
                                                                       or c in "\u202a\u202b\u202c\u202d\u202e")})
    assert not bad, bad


def test_piped_text_shows_control_characters_escaped_and_markup_literally(tmp_path: Path) -> None:
    f = write_pairs(tmp_path / "p.jsonl", list(CONTROL))
    before = snapshot(tmp_path)
    r = run("report", f, "--show-errors", "50")
    assert r.code == 0, r.err  # "[/x]" used to be a rich MarkupError traceback
    assert snapshot(tmp_path) == before
    _no_raw_controls(r.out)
    for shown in CONTROL.values():
        assert shown in r.out, shown
    d = json.loads(run("report", f, "-f", "json").out)
    assert sorted(d["labels"]) == sorted(CONTROL)  # JSON: the labels exactly


def test_terminal_text_shows_control_characters_escaped(tmp_path: Path) -> None:
    f = write_pairs(tmp_path / "p.jsonl", list(CONTROL))
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "250", "LINES": "100"}
    env.pop("NO_COLOR", None)
    child = subprocess.Popen([sys.executable, "-m", "clfeval", "report", str(f)], stdout=slave, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, env=env, cwd=tmp_path)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 1 << 16)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    err = child.communicate(timeout=120)[1].decode()
    assert child.returncode == 0, err
    raw = b"".join(chunks).decode("utf-8")
    assert "\x1b[1m" in raw  # rich's own styling: this really was the terminal path
    text = re.sub(r"\x1b\[[0-9;]*m", "", raw).replace("\r\n", "\n")
    _no_raw_controls(text)
    for shown in CONTROL.values():
        assert shown in text, shown
    assert "😄" not in text  # :smile: is not an emoji code here


def test_messages_on_stderr_show_control_characters_escaped(tmp_path: Path) -> None:
    f = write_pairs(tmp_path / "p.csv", ["a", "b"])
    out = tmp_path / "o\x1b[31m.json"
    r = run("report", f, "-f", "json", "-o", out)
    assert r.code == 0, r.err
    assert "wrote " in r.err and "o\\x1b[31m.json" in r.err
    _no_raw_controls(r.err)


# --- CSV / TSV formula injection ---------------------------------------------------------------------

FORMULAS = {  # label → the cell clfeval writes (OWASP: a leading = + - @ tab CR, or ', gets a ')
    "=cmd|' /C calc'!A0": "'=cmd|' /C calc'!A0",
    "@SUM(1+1)": "'@SUM(1+1)",
    "+1+1": "'+1+1",
    "-2+3": "'-2+3",
    "\tTAB": "'\tTAB",
    "\rCR": "'\rCR",
    "'quoted": "''quoted",
    "-1": "-1",  # a number stays a number
    "plain": "plain",
}
NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _experiment(path: Path) -> Path:
    labels = list(FORMULAS)
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "body", "topic"])
        for i in range(20 * len(labels)):
            j = i % len(labels)
            words = " ".join(f"w{j}x{(i * k) % 5}" for k in range(1, 7))
            w.writerow([f"=HYPERLINK(\"http://e.x\",\"{i}\")" if i % 3 == 0 else f"d{i}", words, labels[j]])
    return path


@pytest.mark.parametrize("ext, delimiter", [(".csv", ","), (".tsv", "\t")])
def test_cv_predictions_follow_the_policy_and_read_back_exactly(tmp_path: Path, ext: str, delimiter: str) -> None:
    data = _experiment(tmp_path / "data.csv")
    oof = tmp_path / f"oof{ext}"
    before = snapshot(tmp_path)
    res = run("cv", data, "--text", "body", "--label", "topic", "--folds", "4", "--no-log", "--predictions", oof,
              "-f", "json")
    assert res.code == 0, res.err
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if k != oof.name} == before
    pooled = json.loads(res.out)["pooled"]

    with open(oof, newline="", encoding="utf-8") as fh:  # the standard library's reader, as a spreadsheet would
        rows = list(csv.reader(fh, delimiter=delimiter))
    header, body = rows[0], rows[1:]
    assert header[-1] == MARKER and header[:4] == ["id", "fold", "gold", "pred"]
    for row in rows:
        for cell in row:
            assert not (cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not NUMBER.fullmatch(cell)), cell
    with open(data, newline="") as fh:
        truth = list(csv.DictReader(fh))
    written = {r["id"]: FORMULAS[r["topic"]] for r in truth}
    for row in body:
        cell = dict(zip(header, row, strict=True))
        assert cell[MARKER] == ""
        original_id = cell["id"][1:] if cell["id"].startswith("'") else cell["id"]
        assert cell["gold"] == written[original_id]
        assert cell["pred"] in FORMULAS.values()
        for name, value in cell.items():
            if name.startswith("score:"):
                assert value == "" or float(value) == float(value)  # numbers, written as numbers

    # clfeval reading its own file: the original labels and ids, the same numbers as the run itself
    rep = run("report", oof, "--show-errors", "1000", "-f", "json")
    assert rep.code == 0, rep.err
    d = json.loads(rep.out)
    assert sorted(d["labels"]) == sorted(FORMULAS)
    for key in ("labels", "confusion_matrix", "accuracy", "per_class", "macro", "micro", "weighted", "mcc", "kappa"):
        assert d[key] == pooled[key], key
    assert {e["id"] for e in d["errors"]["items"]} <= {r["id"] for r in truth}
    assert any(e["id"].startswith("=HYPERLINK") for e in d["errors"]["items"])
    t = read_frame(oof)
    assert MARKER not in t.column_names and set(t.column("gold").to_pylist()) == set(FORMULAS)


def test_jsonl_predictions_are_not_spreadsheet_files_and_stay_raw(tmp_path: Path) -> None:
    data = _experiment(tmp_path / "data.csv")
    oof = tmp_path / "oof.jsonl"
    assert run("cv", data, "--text", "body", "--label", "topic", "--folds", "4", "--no-log", "--predictions",
               oof).code == 0
    golds = {json.loads(line)["gold"] for line in oof.read_text().splitlines()}
    assert golds == set(FORMULAS)


def test_a_users_own_file_keeps_its_leading_quote(tmp_path: Path) -> None:
    f = tmp_path / "mine.csv"
    with open(f, "w", newline="") as fh:
        csv.writer(fh).writerows([["gold", "pred"], ["'=x", "'=x"], ["''y", "'=x"], ["'abc", "'abc"], ["-1", "-1"]])
    before = f.read_bytes()
    r = run("report", f, "-f", "json")
    assert r.code == 0, r.err
    assert sorted(json.loads(r.out)["labels"]) == sorted(["'=x", "''y", "'abc", "-1"])
    assert f.read_bytes() == before


def test_the_policy_by_hand() -> None:
    for label, cell in FORMULAS.items():
        assert escape_text(label) == cell and restore_text(cell) == label
    assert restore_text("'plain") == "'plain" and restore_text("'-1") == "'-1"  # never written by the policy


_CELL = st.text(st.characters(blacklist_categories=("Cs", "Cc"), whitelist_characters="\t'=+-@"), max_size=8)


@settings(max_examples=200, deadline=None)
@given(_CELL)
def test_escape_is_undone_by_restore_and_never_leaves_a_formula(text: str) -> None:
    cell = escape_text(text)
    assert restore_text(cell) == text
    assert not (cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not NUMBER.fullmatch(cell))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(_CELL, _CELL), min_size=1, max_size=6), st.sampled_from([".csv", ".tsv"]))
def test_write_then_read_gives_every_string_back(tmp_path_factory, rows, ext) -> None:
    path = tmp_path_factory.mktemp("rt") / f"t{ext}"
    table = pa.table({"=a": [r[0] for r in rows], "b": [r[1] for r in rows], "n": list(range(len(rows)))})
    write_frame(table, path)
    back = read_frame(path)
    assert back.column_names == ["=a", "b", "n"]
    assert back.column("=a").to_pylist() == table.column("=a").to_pylist()
    assert back.column("b").to_pylist() == table.column("b").to_pylist()
    assert back.column("n").to_pylist() == [str(i) for i in range(len(rows))]  # CSV values are read as text
