"""Issue 35: ``clfeval errors`` at its edges — exit codes, messages and outputs (E04, E09, E24, E26, item 3).

``--examples 0`` runs; NaN scores exit 1; a token pattern that can match zero characters (or is empty) exits
2 naming ``--token-pattern``; a slow pattern skips and names its documents (exit 0) and stops past 20 (exit 1);
``--processing`` keeps this command's defaults and refuses the Reuters keys; example texts keep their line
breaks in HTML.
"""

from __future__ import annotations

import json

import pytest

import clfeval.text._termcounts as termcounts
from tests._helpers.clihelp import assert_clean_error, run


def _csv(path, rows, header="id,gold,pred,text,score"):
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def preds(tmp_path):
    rows = [f"i{k},a,b,zebra zebra x,0.9" for k in range(5)] + [f"i{k},a,a,plain y,0.8" for k in range(5, 12)]
    return _csv(tmp_path / "p.csv", rows)


def test_no_examples_runs(preds):
    res = run("errors", preds, "--id", "id", "--score", "score", "--examples", "0", "--min-count", "3", "-f", "json")
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert d["settings"]["examples"] == 0 and d["cells"][0]["count"] == 5
    assert d["cells"][0]["examples"] == [] and d["cells"][0]["confident"] == []


def test_nan_scores_exit_1_as_in_every_command(tmp_path):
    p = _csv(tmp_path / "n.csv", [f"i{k},a,b,x y,nan" for k in range(4)])
    assert_clean_error(run("errors", p, "--id", "id", "--score", "score", "--min-count", "1"), 1,
                       "score column 'score' holds nan", "row 1 (line 2)", "scores must be finite real numbers")
    p = _csv(tmp_path / "t.csv", ["i0,a,b,x y,high"])
    assert_clean_error(run("errors", p, "--score", "score"), 1, "holds 'high'", "which is not a number")


@pytest.mark.parametrize("pattern", [r"\b", "(?=a)", "$", "x*", "(?i)x*", ""])
def test_a_token_pattern_that_can_match_zero_characters_exits_2(preds, pattern):
    assert_clean_error(run("errors", preds, "--token-pattern", pattern), 2,
                       "option --token-pattern can match zero characters", f"got {pattern!r}")


def test_a_slow_token_pattern_skips_and_names_its_documents_then_stops(tmp_path, monkeypatch):
    monkeypatch.setattr(termcounts, "MATCH_SECONDS", 0.02)
    stuck = "a" * 26 + "!"
    six = _csv(tmp_path / "six.csv", [f"r{k},{'ab'[k % 2]},{'ba'[k % 2]},{stuck}" for k in range(6)],
               header="id,gold,pred,text")
    res = run("errors", six, "--id", "id", "--min-count", "1", "--token-pattern", "(?:a|a)+b")
    assert res.code == 0, res.err
    assert "took longer than 0.02 s on 6 documents" in res.out
    assert "'r0', 'r1', 'r2', 'r3', 'r4', 'r5'" in " ".join(res.out.split())
    many = _csv(tmp_path / "many.csv", [f"r{k},{'ab'[k % 2]},{'ba'[k % 2]},{stuck}" for k in range(25)],
                header="id,gold,pred,text")
    assert_clean_error(run("errors", many, "--id", "id", "--token-pattern", "(?:a|a)+b"), 1,
                       "the token pattern '(?:a|a)+b' (option --token-pattern) took longer than 0.02 s on each of "
                       "more than 20 documents")


def test_processing_keys_left_out_take_this_commands_defaults(preds):
    res = run("errors", preds, "--processing", "stop=english179", "-f", "json")
    assert res.code == 0, res.err
    a = json.loads(res.out)["analyzer"]
    assert (a["stop"], a["stem"]) == ("english179", "none")
    assert_clean_error(run("errors", preds, "--processing", "title=2"), 2,
                       "option --processing: the key title", "clfeval errors", "reads only the keys stop and stem")


def test_help_states_each_commands_processing_defaults():
    errors = " ".join(run("errors", "--help").out.split())
    assert "this command's default: stop=none, stem=none" in errors
    assert "0: none" in errors and "within 0.5 s per document" in errors
    reuters = " ".join(run("reuters", "--help").out.split())
    assert "the binary preset's: title=2, brief=text, stop=none, stem=snowball" in reuters
    cv = " ".join(run("cv", "--help").out.split())
    assert "Its terms are the model's: --stop-words and --stem" in cv


def test_example_texts_keep_their_line_breaks_in_html_and_read_on_one_line_in_text(tmp_path):
    pytest.importorskip("matplotlib")
    rows = [f'i{k},a,b,"WHEAT UP\nwheat <b>up</b>\r\nPrices rose"' for k in range(3)] + ["i9,a,a,other"]
    p = _csv(tmp_path / "nl.csv", rows, header="id,gold,pred,text")
    out = tmp_path / "e.html"
    assert run("errors", p, "--id", "id", "--min-count", "1", "-f", "html", "-o", out, "--z-min", "-50").code == 0
    page = out.read_text(encoding="utf-8")
    assert ("<td class='ex'><mark>WHEAT</mark> <mark>UP</mark><br><mark>wheat</mark> &lt;<mark>b</mark>&gt;"
            "<mark>up</mark>&lt;/<mark>b</mark>&gt;<br><mark>Prices</mark> <mark>rose</mark></td>") in page
    assert "\\n" not in page and "\\r" not in page and "<b>up" not in page
    text = run("errors", p, "--id", "id", "--min-count", "1").out
    assert "WHEAT UP wheat <b>up</b> Prices rose" in text and "\\n" not in text
