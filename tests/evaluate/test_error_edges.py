"""Issue 35: the edges of ``clfeval.error_analysis`` — no examples, score columns, a slow token pattern.

``examples=0`` gives the analysis without examples on every engine (E09, P26); scores are checked as every
score column of the front door (P27, P28, E24); a token pattern that backtracks is bounded per document:
a document that takes too long is skipped and named, the others counted, and past 20 the run stops (E26).
Expected values are hand counts of the small corpora built here.
"""

from __future__ import annotations

import json
import re

import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

import clfeval
import clfeval.text._termcounts as termcounts
from clfeval.engines import Dask, Local
from clfeval.errors import DataError, UsageError

# 8 a-documents (6 predicted b) and 6 b-documents, all right; the mistakes carry "zebra"
GOLD = ["a"] * 8 + ["b"] * 6
PRED = ["b"] * 6 + ["a"] * 2 + ["b"] * 6
TEXT = ["zebra zebra run"] * 6 + ["walk run"] * 2 + ["swim walk"] * 6
IDS = [f"d{i}" for i in range(14)]


def _plain(r):
    d = json.loads(json.dumps(r.to_dict(), default=str))
    d.pop("engine")
    d["settings"].pop("examples"), d["settings"].pop("scored")
    d["signature"].pop("examples")
    for c in d["cells"]:
        c.pop("examples"), c.pop("confident")
    return d


def _files(tmp_path, gold=GOLD, pred=PRED, text=TEXT, ids=IDS, **extra):
    root = tmp_path / "parts"
    root.mkdir()
    t = pa.table({"id": ids, "gold": gold, "pred": pred, "text": text, **extra})
    pq.write_table(t.slice(0, 5), root / "p0.parquet")
    pq.write_table(t.slice(5), root / "p1.parquet")
    return str(root), t


# --- examples=0 (E09, P26) -----------------------------------------------------------------------------------


def test_no_examples_on_every_engine_leaves_the_rest_of_the_analysis(tmp_path, dask_client):
    gold, pred, text, ids = GOLD * 20, PRED * 20, TEXT * 20, [f"d{i}" for i in range(280)]  # 20 KB: beyond 4096 B
    path, table = _files(tmp_path, gold, pred, text, ids)
    score = [0.9] * 280
    five = clfeval.error_analysis(gold, pred, text=text, ids=ids, score=score, min_count=2, z_min=0)
    assert len(five.cell("a", "b").examples) == 5 and len(five.cell("a", "b").confident) == 5
    runs = [clfeval.error_analysis(gold, pred, text=text, ids=ids, score=score, min_count=2, z_min=0, examples=0),
            clfeval.error_analysis(path, id="id", min_count=2, z_min=0, examples=0),
            clfeval.error_analysis(table.to_pandas(), id="id", min_count=2, z_min=0, examples=0,
                                   engine=Local(memory=4096)),  # beyond the budget: spooled to Parquet, streamed
            clfeval.error_analysis(path, id="id", min_count=2, z_min=0, examples=0, engine=Dask(dask_client))]
    assert [r.engine["mode"] for r in runs] == ["memory", "streamed", "streamed", "cluster"]
    for r in runs:
        assert r.settings.examples == 0
        assert all(c.examples == () and c.confident == () for c in r.cells)
        assert _plain(r) == _plain(five)
    assert [(c.gold, c.pred, c.count) for c in runs[0].cells] == [("a", "b", 120)]
    assert runs[0].cell("a", "b").terms_vs_gold[0].term == "zebra"


def test_no_examples_with_label_sets():
    gold = [["a"]] * 6 + [["a", "b"]] * 4
    pred = [["a"]] * 6 + [["a"]] * 4  # b missed four times
    r = clfeval.error_analysis(gold, pred, text=["x"] * 6 + ["y z"] * 4, min_count=1, examples=0)
    assert [(c.category, c.kind, c.count, c.examples) for c in r.cells] == [("b", "false negatives", 4, ())]


def test_no_examples_in_every_format():
    from clfeval.render import render

    r = clfeval.error_analysis(GOLD, PRED, text=TEXT, ids=IDS, min_count=2, examples=0)
    text, md = render(r, "text"), render(r, "markdown")
    assert "a → b" in text and "Examples" not in text and "Examples" not in md
    pytest.importorskip("matplotlib")
    page = render(r, "html")
    assert "No examples (examples 0)." in page and "<h3>Examples</h3>" not in page


# --- scores: as every score column (P27, P28, E24) -----------------------------------------------------------


@pytest.mark.parametrize("bad, needle", [
    (["x"] * 14, "holds 'x' at item 0 (0-based), which is not a number"),
    ([0.5] * 13 + [float("nan")], "holds nan at item 13 (0-based); scores must be finite real numbers"),
    ([float("inf")] + [0.5] * 13, "holds inf at item 0 (0-based); scores must be finite real numbers"),
    ([0.5] * 3 + [None] + [0.5] * 10, "missing value at item 3 (0-based)"),
])
def test_bad_scores_of_arrays_are_refused_naming_the_value_and_the_argument(bad, needle):
    with pytest.raises(DataError, match="score column 'score'") as e:
        clfeval.error_analysis(GOLD, PRED, text=TEXT, score=bad, min_count=1)
    assert needle in str(e.value)


def test_a_nan_score_in_a_file_is_refused_naming_the_row_on_every_engine(tmp_path, dask_client):
    scores = [0.5] * 9 + [float("nan")] + [0.5] * 4  # row 9: in the second file, its row 4
    path, table = _files(tmp_path, score=scores)
    with pytest.raises(DataError, match=r"score column 'score' holds nan at file '.*p1.parquet', row 5"):
        clfeval.error_analysis(path, id="id", score="score")
    # Dask reads the batches as the local stream does: the same message (it named the item's id before issue 38)
    with pytest.raises(DataError, match=r"score column 'score' holds nan at file '.*p1.parquet', row 5"):
        clfeval.error_analysis(path, id="id", score="score", engine=Dask(dask_client))
    with pytest.raises(DataError, match="score column 'score' has a missing value at item 9"):  # pandas: NaN is null
        clfeval.error_analysis(table.to_pandas(), id="id", score="score")
    texts = tmp_path / "texts.csv"
    pcsv.write_csv(pa.table({"id": IDS, "text": TEXT}), texts)
    preds = tmp_path / "preds.csv"
    pcsv.write_csv(table.drop_columns(["text"]), preds)
    with pytest.raises(DataError, match=r"score column 'score' holds nan at file '.*preds.csv', row 10 \(line 11\)"):
        clfeval.error_analysis(str(preds), id="id", score="score", texts=str(texts))


def test_scores_and_texts_of_the_wrong_kind_are_refused_by_name():
    with pytest.raises(UsageError, match="give score as an array of numbers"):
        clfeval.error_analysis(GOLD, PRED, text=TEXT, score="score")
    with pytest.raises(UsageError, match=r"^option text names a column by its name \(text\); got a list\.$"):
        clfeval.error_analysis(pa.table({"gold": GOLD, "pred": PRED, "text": TEXT}), text=TEXT)
    with pytest.raises(UsageError, match="multilabel must be True, False or None"):
        clfeval.error_analysis(GOLD, PRED, text=TEXT, multilabel="yes")


# --- a slow token pattern, bounded per document (E26) --------------------------------------------------------

SLOW = "(?:a|a)+b"  # on 'a' * 26 + '!' the regex package backtracks through 2**26 ways (seconds); on 'ab': at once
STUCK = "a" * 26 + "!"


@pytest.fixture
def short_bound(monkeypatch):
    monkeypatch.setattr(termcounts, "MATCH_SECONDS", 0.02)


def test_a_document_the_pattern_is_too_slow_on_is_skipped_and_named_the_others_counted(short_bound):
    # the slow documents sit among innocent ones of the same cells (one batch, one group): each is attributed
    gold = ["a"] * 8 + ["b"] * 6
    pred = ["b"] * 6 + ["a"] * 2 + ["b"] * 6
    text = ["ab ab", STUCK, "ab", STUCK, "ab ab ab", "ab"] + ["aab"] * 2 + ["b"] * 6
    ids = [f"r{i}" for i in range(14)]
    r = clfeval.error_analysis(gold, pred, text=text, ids=ids, token_pattern=SLOW, min_count=1, z_min=-50)
    assert r.cell("a", "b").tokens == 7  # 'ab' 2 + 1 + 3 + 1: the two stuck documents give none
    assert r.prior.tokens == 7 + 2 and r.prior.documents == 14
    assert r.matrix == ((2, 6), (0, 6))  # the skipped documents stay in their cell
    note = next(n for n in r.notes if "took longer" in n)
    assert "'(?:a|a)+b' took longer than 0.02 s on 2 documents" in note and "ids 'r1', 'r3';" in note
    assert not any("almost no tokens" in n for n in r.notes)  # a skipped document's characters are not counted


def test_past_20_skipped_documents_the_run_stops_naming_the_pattern(short_bound, tmp_path):
    n = 21
    gold, pred = ["a", "b"] * n, ["b", "a"] * n
    with pytest.raises(DataError, match=r"token pattern '\(\?:a\|a\)\+b' \(option token_pattern\) took longer "
                                        r"than 0.02 s on each of more than 20 documents") as e:
        clfeval.error_analysis(gold[:n], pred[:n], text=[STUCK] * n, token_pattern=SLOW, min_count=1)
    assert len(re.findall(r"'\d+'", str(e.value))) == 21  # the 21 documents skipped, by their row
    ok = clfeval.error_analysis(gold[:20], pred[:20], text=[STUCK] * 20, token_pattern=SLOW, min_count=1)
    assert any("on 20 documents" in x for x in ok.notes)
    # streamed: 11 skipped documents in each of two files (batches of 11 rows) are 22 in all
    root = tmp_path / "two"
    root.mkdir()
    for k in range(2):
        pq.write_table(pa.table({"id": [f"f{k}-{i}" for i in range(11)], "gold": gold[:11], "pred": pred[:11],
                                 "text": [STUCK] * 11}), root / f"p{k}.parquet")
    with pytest.raises(DataError, match="more than 20 documents"):
        clfeval.error_analysis(str(root), id="id", token_pattern=SLOW)


def test_counters_that_each_skipped_fewer_than_20_stop_when_added(short_bound):
    from clfeval.evaluate._errorcount import ErrorCounter
    from clfeval.text._termcounts import Analyzer

    parts = []
    for k in range(2):
        c = ErrorCounter(Analyzer(pattern=SLOW))
        c.add(["a"] * 11, ["b"] * 11, [STUCK] * 11, [f"p{k}-{i}" for i in range(11)])
        assert len(c.skipped) == 11
        parts.append(c)
    with pytest.raises(DataError, match="more than 20 documents"):
        parts[0] + parts[1]


def test_label_sets_skip_the_slow_documents_too(short_bound):
    gold = [["a"]] * 4 + [["a", "b"]] * 3
    pred = [["a"]] * 7
    r = clfeval.error_analysis(gold, pred, text=["ab"] * 4 + [STUCK, "ab ab", STUCK], ids=list("ABCDEFG"),
                               token_pattern=SLOW, min_count=1)
    assert r.cells[0].tokens == 2  # the false negatives of b: 'ab ab' only
    assert any("on 2 documents" in n and "ids 'E', 'G'" in n for n in r.notes)


def test_the_bound_holds_on_dask_per_document(tmp_path, dask_client):
    # the workers keep the module's 0.5 s: two slow documents, the others counted
    path, _ = _files(tmp_path, text=["ab"] * 3 + [STUCK] + ["ab"] * 6 + [STUCK] + ["b"] * 3)
    r = clfeval.error_analysis(path, id="id", token_pattern=SLOW, min_count=1, engine=Dask(dask_client))
    assert r.prior.tokens == 9
    assert any("took longer than 0.5 s on 2 documents" in n and "ids 'd3', 'd10'" in n for n in r.notes)


def test_a_fast_pattern_skips_nothing():
    r = clfeval.error_analysis(GOLD, PRED, text=TEXT, ids=IDS, token_pattern="(?:a+)+b|[a-z]+", min_count=1)
    assert not any("took longer" in n for n in r.notes) and r.prior.tokens == 6 * 3 + 2 * 2 + 6 * 2
