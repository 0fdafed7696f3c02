"""Issue 41, item 4: ``error_analysis(label_issues=...)`` marks, in every confusion cell, the documents that
label-issues flagged as likely gold errors (``ErrorCell.flagged``, ``ErrorCell.likely_gold_errors``).

The expectations are written here: which ids of which cell are flagged (by hand), and which of them are shown
(the bottom-k of BLAKE2b keyed by the seed, as the module notes of ``clfeval/evaluate/_errorcount.py`` define
the examples, computed here with hashlib).
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import clfeval
from clfeval.engines import Dask, Local
from clfeval.errors import DataError, UsageError
from tests._helpers.clihelp import assert_clean_error, run

SEED = 0
#: gold a × 6 (i0–i5), b × 6 (i6–i11); i0–i3 predicted b, i6–i8 predicted a
GOLD = ["a"] * 6 + ["b"] * 6
PRED = ["b"] * 4 + ["a"] * 2 + ["a"] * 3 + ["b"] * 3
IDS = [f"i{k}" for k in range(12)]
TEXT = ["zebra run"] * 4 + ["walk run"] * 2 + ["yak swim"] * 3 + ["swim run"] * 3
#: flagged: two of the a → b cell, one of b → a, one on the diagonal (b → b), one id not in the predictions
FLAGS = {"i0": "b", "i2": "b", "i6": "a", "i10": "a", "zz": "a"}


def _hash(key: str, seed: int = SEED) -> int:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8, key=str(seed).encode()).digest(), "big")


def _flagged_csv(path, flags=FLAGS):
    path.write_text("rank,row,id,given,suggested\n" + "".join(
        f"{r},{r},{i},x,{s}\n" for r, (i, s) in enumerate(flags.items(), 1)))
    return path


def _plain(r):
    d = json.loads(json.dumps(r.to_dict(), default=str))
    d.pop("engine")
    return d


def test_the_flagged_items_of_each_cell_are_counted_and_shown_by_the_keyed_hash(tmp_path):
    r = clfeval.error_analysis(GOLD, PRED, text=TEXT, ids=IDS, min_count=1,
                               label_issues=_flagged_csv(tmp_path / "f.csv"))
    ab, ba = r.cell("a", "b"), r.cell("b", "a")
    assert (ab.flagged, ba.flagged) == (2, 1)
    assert [e.id for e in ab.likely_gold_errors] == sorted(["i0", "i2"], key=lambda i: _hash(f"id:{i}"))
    assert [(e.id, e.suggested, e.text) for e in ba.likely_gold_errors] == [("i6", "a", "yak swim")]
    assert [e.id for e in ab.examples] == sorted(["i0", "i1", "i2", "i3"], key=lambda i: _hash(f"id:{i}"))
    assert r.label_issues is not None
    assert (r.label_issues.flagged, r.label_issues.found, r.label_issues.not_found) == (5, 4, 1)
    assert any("1 of the 5 ids label-issues flagged are not among the predictions' ids ('zz')" in n for n in r.notes)
    # examples=1: only the flagged item of the smallest hash is shown; the count stays
    one = clfeval.error_analysis(GOLD, PRED, text=TEXT, ids=IDS, min_count=1, examples=1,
                                 label_issues=_flagged_csv(tmp_path / "f.csv"))
    assert one.cell("a", "b").flagged == 2
    assert [e.id for e in one.cell("a", "b").likely_gold_errors] == [min(["i0", "i2"], key=lambda i: _hash(f"id:{i}"))]


def test_without_the_option_the_json_is_the_analysis_without_the_marks(tmp_path):
    plain = clfeval.error_analysis(GOLD, PRED, text=TEXT, ids=IDS, min_count=1)
    d = plain.to_dict()
    assert "label_issues" not in d and all("flagged" not in c and "likely_gold_errors" not in c for c in d["cells"])
    marked = clfeval.error_analysis(GOLD, PRED, text=TEXT, ids=IDS, min_count=1,
                                    label_issues=_flagged_csv(tmp_path / "f.csv")).to_dict()
    assert marked.pop("label_issues") == {"source": "f.csv", "flagged": 5, "found": 4, "not_found": 1}
    for c in marked["cells"]:
        c.pop("flagged"), c.pop("likely_gold_errors")
    assert marked.pop("notes")[:-1] == d.pop("notes")
    marked.pop("engine"), d.pop("engine")
    assert marked == d


def _corpus(n: int = 900, seed: int = 4) -> tuple[dict[str, list], dict[str, str]]:
    rng = np.random.default_rng(seed)
    gold = rng.choice(["a", "b", "c"], n).tolist()
    pred = [g if rng.random() < 0.5 else str(rng.choice(["a", "b", "c"])) for g in gold]
    d = {"id": [f"d{i}" for i in range(n)], "gold": gold, "pred": pred,
         "text": [" ".join(rng.choice(["zebra", "yak", "walk", "run"], 4)) for _ in range(n)]}
    flagged = sorted(rng.choice(n, 120, replace=False).tolist())
    return d, {**{f"d{i}": "c" for i in flagged}, "nope1": "a", "nope2": "b"}


def test_the_marks_are_the_same_in_memory_streamed_and_on_dask_and_match_the_oracle(tmp_path, dask_client):
    d, flags = _corpus()
    frame = pa.table(d).to_pandas()
    k = 3
    f = _flagged_csv(tmp_path / "flags.csv", flags)
    runs = [clfeval.error_analysis(frame, id="id", min_count=1, examples=k, engine=e, label_issues=f)
            for e in (None, Local(memory=1 << 14), Dask(dask_client))]
    assert [r.engine.mode for r in runs] == ["memory", "streamed", "cluster"]
    assert _plain(runs[1]) == _plain(runs[0]) and _plain(runs[2]) == _plain(runs[0])
    assert runs[0].label_issues.not_found == 2
    for cell in runs[0].cells:
        items = [i for i in range(900) if (d["gold"][i], d["pred"][i]) == (cell.gold, cell.pred)
                 and d["id"][i] in flags]
        assert cell.flagged == len(items) > 0
        shown = sorted(items, key=lambda i: _hash(f"id:{d['id'][i]}"))[:k]
        assert [e.id for e in cell.likely_gold_errors] == [d["id"][i] for i in shown]


def _stories(tmp_path):
    """docs/examples/stories.csv's label issues (s12 grain → trade, s30 trade → money), and predictions: the most
    probable class of every story (so s12 falls in grain → trade, s30 in trade → money)."""
    import pyarrow.csv as pcsv

    src = pcsv.read_csv("docs/examples/stories.csv")
    labels = ["grain", "money", "trade"]
    probs = np.column_stack([src.column(f"p:{x}").to_numpy() for x in labels])
    preds = tmp_path / "preds.csv"
    pcsv.write_csv(pa.table({"id": src.column("id"), "gold": src.column("gold"),
                             "pred": [labels[j] for j in probs.argmax(axis=1)], "text": src.column("text")}), preds)
    return clfeval.label_issues("docs/examples/stories.csv", id="id"), preds


def test_a_result_its_json_and_its_flagged_csv_and_parquet_give_the_same_marks(tmp_path):
    li, preds = _stories(tmp_path)
    (tmp_path / "li.json").write_text(json.dumps(li.to_dict()))
    res = run("label-issues", "docs/examples/stories.csv", "--id", "id", "--flagged", tmp_path / "flagged.csv")
    assert res.code == 0, res.err
    pq.write_table(pa.table({"id": ["s30", "s12"], "suggested": ["money", "trade"]}), tmp_path / "flagged.parquet")
    runs = [_plain(clfeval.error_analysis(str(preds), id="id", min_count=1, label_issues=x))
            for x in (li, tmp_path / "li.json", tmp_path / "flagged.csv", str(tmp_path / "flagged.parquet"))]
    for r in runs:
        r.pop("label_issues")
    assert runs[1:] == runs[:1] * 3
    cells = {(c["gold"], c["pred"]): c for c in runs[0]["cells"]}
    assert set(cells) == {("grain", "trade"), ("trade", "money")}
    assert [(e["id"], e["suggested"]) for e in cells[("grain", "trade")]["likely_gold_errors"]] == [("s12", "trade")]
    assert [(e["id"], e["suggested"]) for e in cells[("trade", "money")]["likely_gold_errors"]] == [("s30", "money")]


def test_refusals_name_the_option(tmp_path):
    f = _flagged_csv(tmp_path / "f.csv")
    with pytest.raises(UsageError, match="option label_issues marks the likely gold errors by id: give the items' "
                                         "ids with ids."):
        clfeval.error_analysis(GOLD, PRED, text=TEXT, min_count=1, label_issues=f)
    with pytest.raises(UsageError, match="label_issues is not available with by"):
        clfeval.error_analysis(GOLD, PRED, text=TEXT, ids=IDS, by={"g": GOLD}, label_issues=f)
    with pytest.raises(UsageError, match="label sets"):
        clfeval.error_analysis([["a"]] * 2, [["b"]] * 2, text=["x", "y"], ids=["1", "2"], label_issues=f)
    with pytest.raises(UsageError, match=r"\(.csv or .parquet\); got 'f.txt'"):
        clfeval.error_analysis(GOLD, PRED, text=TEXT, ids=IDS, label_issues=tmp_path / "f.txt" if
                               (tmp_path / "f.txt").write_text("x") else None)
    (tmp_path / "g.csv").write_text("id,label\ni0,b\n")
    with pytest.raises(DataError, match="has no column 'suggested'"):
        clfeval.error_analysis(GOLD, PRED, text=TEXT, ids=IDS, label_issues=tmp_path / "g.csv")
    (tmp_path / "h.json").write_text('{"n": 3}')
    with pytest.raises(DataError, match="has no 'flagged' list"):
        clfeval.error_analysis(GOLD, PRED, text=TEXT, ids=IDS, label_issues=tmp_path / "h.json")
    with pytest.raises(UsageError, match="does not exist"):
        clfeval.error_analysis(GOLD, PRED, text=TEXT, ids=IDS, label_issues=tmp_path / "none.csv")


def test_the_command_line_shows_them_first_in_text_markdown_and_html(tmp_path):
    _, preds = _stories(tmp_path)
    flagged = _flagged_csv(tmp_path / "flagged.csv", {"s12": "trade", "s30": "<b>money</b>", "s99": "grain"})
    base = ["errors", preds, "--id", "id", "--min-count", "1", "--label-issues", flagged]
    text = run(*base)
    assert text.code == 0, text.err
    head = "Likely gold errors (flagged by label-issues: 1 of the cell's 1)"
    assert text.out.count(head) == 2
    assert text.out.index(head) < text.out.index("Examples (the 1 smallest")
    words = " ".join(text.out.split())
    assert "1 of the 3 ids label-issues flagged are not among the predictions' ids ('s99')" in words
    md = run(*base, "--format", "markdown")
    assert md.code == 0 and "| s12 | trade | machinery exports rise |" in md.out
    page = run(*base, "--format", "html", "-o", tmp_path / "e.html")
    assert page.code == 0, page.err
    html = (tmp_path / "e.html").read_text()
    assert "&lt;b&gt;money&lt;/b&gt;" in html and "<b>money</b>" not in html
    assert html.index("Likely gold errors") < html.index("<h3>Examples")
    as_json = run(*base, "--format", "json")
    assert json.loads(as_json.out)["label_issues"] == {"source": "flagged.csv", "flagged": 3, "found": 2,
                                                       "not_found": 1}
    assert_clean_error(run("errors", preds, "--label-issues", flagged), 2,
                       "option --label-issues marks the likely gold errors by id: name the id column with --id.")
    assert_clean_error(run("errors", preds, "--id", "id", "--label-issues", tmp_path / "none.json"), 2,
                       "--label-issues")


def test_texts_joined_from_a_second_file_are_marked_as_a_text_column_is(tmp_path):
    import pyarrow.csv as pcsv

    li, preds = _stories(tmp_path)
    t = pcsv.read_csv(preds)
    pcsv.write_csv(t.drop_columns(["text"]), tmp_path / "notext.csv")
    pcsv.write_csv(t.select(["id", "text"]), tmp_path / "texts.csv")
    joined = clfeval.error_analysis(str(tmp_path / "notext.csv"), id="id", texts=tmp_path / "texts.csv", min_count=1,
                                    label_issues=li)
    column = clfeval.error_analysis(str(preds), id="id", min_count=1, label_issues=li)
    assert [(c.flagged, c.likely_gold_errors) for c in joined.cells] == \
        [(c.flagged, c.likely_gold_errors) for c in column.cells] == \
        [(1, column.cells[0].likely_gold_errors), (1, column.cells[1].likely_gold_errors)]
    assert [e.text for c in joined.cells for e in c.likely_gold_errors] == ["machinery exports rise",
                                                                             "central bank cuts rates"]


@pytest.mark.parametrize("cut", range(1, 12))
def test_counters_of_any_two_parts_add_to_the_marks_of_the_whole(cut):
    from clfeval.evaluate import ErrorCounter

    def counter(lo: int, hi: int) -> ErrorCounter:
        c = ErrorCounter(examples=1, seed=SEED)
        c.flags = FLAGS
        c.add(GOLD[lo:hi], PRED[lo:hi], TEXT[lo:hi], IDS[lo:hi])
        return c

    whole, total = counter(0, 12), counter(cut, 12) + counter(0, cut)
    for cell in (("a", "b"), ("b", "a"), ("b", "b")):
        assert total.flagged_of(*cell) == whole.flagged_of(*cell)
    assert whole.flagged_of("a", "b")[0] == 2 and whole.flagged_of("b", "b")[0] == 1
    assert total.flags_found == {"i0", "i2", "i6", "i10"}
