"""Issue 25: the misclassified documents and the vocabulary they share.

The planted test (documents of A with "zebra" predicted as B), the z-scores against a direct
implementation of Monroe, Colaresi & Quinn (2008) eqs. 16 and 18 written here from the paper, and the
same terms, z-scores and examples in memory, streamed, spooled and on Dask, however the input is split.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import clfeval
from clfeval.engines import Dask, Local
from clfeval.errors import ClfevalError, DataError, UsageError

WORDS = [f"w{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}" for i in range(300)]


def corpus(n=2400, seed=3):
    """Classes A, B, C of random words; 1 in 8 A documents carries 'zebra' twice and is predicted B."""
    rng = np.random.default_rng(seed)
    gold, pred, text = [], [], []
    for _ in range(n):
        g = "ABC"[rng.integers(0, 3)]
        words = list(rng.choice(WORDS, 25))
        p = g
        if g == "A" and rng.random() < 0.125:
            p, words = "B", words + ["zebra", "Zebra"]
        elif rng.random() < 0.06:
            p = "ABC"[rng.integers(0, 3)]
        gold.append(g), pred.append(p), text.append(" ".join(words))
    return {"id": np.arange(n) * 7 + 1, "gold": np.array(gold), "pred": np.array(pred), "text": np.array(text)}


@pytest.fixture(scope="module")
def data():
    return corpus()


def test_planted_zebra_is_the_first_term_and_every_example_is_a_to_b(data):
    r = clfeval.error_analysis(data["gold"], data["pred"], text=data["text"], ids=data["id"], seed=1)
    cell = r.cell("A", "B")
    assert r.cells[0] is cell  # the largest off-diagonal cell
    zs = [t.z for t in cell.terms_vs_gold]
    assert cell.terms_vs_gold[0].term == "zebra" and zs[0] == max(zs) and zs[0] > 5
    assert cell.terms_vs_pred[0].term == "zebra"
    planted = {str(i) for i, g, p in zip(data["id"], data["gold"], data["pred"], strict=True) if g == "A" and p == "B"}
    assert len(cell.examples) == 5 and {e.id for e in cell.examples} <= planted
    assert cell.count == len(planted)
    assert cell.share == pytest.approx(len(planted) / int((data["gold"] == "A").sum()))
    assert cell.opposite == int(((data["gold"] == "B") & (data["pred"] == "A")).sum())
    # the highlighted spans: the planted word in both cases, and only listed terms
    ex = cell.examples[0]
    listed = {t.term for t in cell.terms_vs_gold + cell.terms_vs_pred}
    shown = [ex.text[s:e] for s, e in ex.spans]
    assert {"zebra", "Zebra"} <= set(shown) and {w.lower() for w in shown} <= listed


def _mcq(y_i, y_j, y_all, alpha0):
    """Monroe, Colaresi & Quinn (2008): α_w = α0·y_w/n; eq. 16 δ̂ = log((y_i+α)/(n_i+α0−y_i−α)) −
    log((y_j+α)/(n_j+α0−y_j−α)); eq. 18 σ̂² ≈ 1/(y_i+α) + 1/(y_j+α); z = δ̂/σ̂. Term by term, plain floats."""
    n_i, n_j, n = sum(y_i.values()), sum(y_j.values()), sum(y_all.values())
    out = {}
    for w in y_all:
        a = alpha0 * y_all[w] / n
        yi, yj = y_i.get(w, 0), y_j.get(w, 0)
        d = math.log((yi + a) / (n_i + alpha0 - yi - a)) - math.log((yj + a) / (n_j + alpha0 - yj - a))
        out[w] = d / math.sqrt(1 / (yi + a) + 1 / (yj + a))
    return out


def test_z_scores_are_the_papers_equations():
    docs = [("a", "a", "apple pear pear"), ("a", "a", "apple fig"), ("a", "b", "kiwi kiwi apple"),
            ("a", "b", "kiwi plum"), ("b", "b", "plum plum pear"), ("b", "b", "plum fig fig"), ("b", "a", "fig")]
    gold, pred, text = zip(*docs, strict=True)
    for alpha0 in (1000.0, 10.0, 0.5):
        r = clfeval.error_analysis(list(gold), list(pred), text=list(text), min_count=1, terms=50, z_min=-100,
                                   prior_strength=alpha0)

        def counts(rows):
            c = {}
            for _, _, t in rows:
                for w in t.split():
                    c[w] = c.get(w, 0) + 1
            return c

        y_all = counts(docs)
        mistakes = counts([d for d in docs if d[:2] == ("a", "b")])
        for side, other in (("terms_vs_gold", ("a", "a")), ("terms_vs_pred", ("b", "b"))):
            want = _mcq(mistakes, counts([d for d in docs if d[:2] == other]), y_all, alpha0)
            got = {t.term: t.z for t in getattr(r.cell("a", "b"), side)}
            assert set(got) == set(mistakes)  # terms of the mistakes only
            for w, z in got.items():
                assert z == pytest.approx(want[w], rel=1e-12, abs=1e-12)
    assert r.prior.alpha0 == 0.5 and "Monroe" in r.prior.reference


def _plain(r):
    d = json.loads(json.dumps(r.to_dict(), default=str))
    d.pop("engine")
    return d


def _tree(root, data, cuts, fmt="parquet", with_id=True):
    root.mkdir()
    cols = {k: data[k] for k in ("gold", "pred", "text")}
    if with_id:
        cols = {"id": data["id"], **cols}
    t = pa.table(cols)
    for i, (lo, hi) in enumerate(zip(cuts[:-1], cuts[1:], strict=True)):
        part = t.slice(lo, hi - lo)
        if fmt == "parquet":
            pq.write_table(part, root / f"part-{i}.parquet", row_group_size=300)
        else:
            import pyarrow.csv as pcsv

            pcsv.write_csv(part, root / f"part-{i}.csv")
    return root


def test_memory_streamed_spooled_and_dask_agree_and_splits_do_not_matter(data, tmp_path, dask_client):
    n = len(data["gold"])
    one = _tree(tmp_path / "one", data, [0, n])
    many = _tree(tmp_path / "many", data, [0, 1, 700, 701, 1900, n])
    csvs = _tree(tmp_path / "csv", data, [0, 1000, n], fmt="csv")
    runs = [clfeval.error_analysis(data["gold"], data["pred"], text=data["text"], ids=data["id"], seed=9),
            clfeval.error_analysis(str(one), id="id", seed=9),
            clfeval.error_analysis(str(many), id="id", seed=9, engine=Local(memory=8192 * 1000)),
            clfeval.error_analysis(str(csvs), id="id", seed=9),
            clfeval.error_analysis(data["gold"], data["pred"], text=data["text"], ids=data["id"], seed=9,
                                   engine=Local(memory=4096)),
            clfeval.error_analysis(str(many), id="id", seed=9, engine=Dask(dask_client))]
    modes = [r.engine["mode"] for r in runs]
    assert modes == ["memory", "streamed", "streamed", "streamed", "streamed", "cluster"]
    assert runs[4].engine["spilled"] is True
    base = _plain(runs[0])
    for r in runs[1:]:
        assert _plain(r) == base
    # another seed, other examples (same terms)
    other = clfeval.error_analysis(str(many), id="id", seed=10)
    assert [e.id for e in other.cell("A", "B").examples] != [e.id for e in runs[0].cell("A", "B").examples]
    assert other.cell("A", "B").terms_vs_gold == runs[0].cell("A", "B").terms_vs_gold


def test_examples_are_the_bottom_k_of_the_keyed_hash(data):
    import hashlib

    from clfeval.evaluate._errorcount import example_hash

    r = clfeval.error_analysis(data["gold"], data["pred"], text=data["text"], ids=data["id"], seed=4, examples=3)
    cell = r.cell("A", "B")
    ids = [str(i) for i, g, p in zip(data["id"], data["gold"], data["pred"], strict=True) if g == "A" and p == "B"]
    direct = {i: int.from_bytes(hashlib.blake2b(f"id:{i}".encode(), digest_size=8, key=b"4").digest(), "big")
              for i in ids}
    assert [e.id for e in cell.examples] == sorted(ids, key=direct.get)[:3]
    assert example_hash(4, "id:1") == int.from_bytes(hashlib.blake2b(b"id:1", digest_size=8, key=b"4").digest(), "big")


def test_without_ids_the_sample_depends_on_the_files(data, tmp_path):
    p = _tree(tmp_path / "noid", data, [0, len(data["gold"])], with_id=False)
    r = clfeval.error_analysis(str(p))
    assert r.settings.sample_key == "row" and any("depend on the files" in x for x in r.notes)


def test_most_confident_mistakes_with_scores():
    gold = ["a"] * 6 + ["b"] * 6
    pred = ["b"] * 5 + ["a"] + ["b"] * 6
    score = [0.6, 0.9, 0.7, 0.95, 0.51, 0.8] + [0.7] * 6
    r = clfeval.error_analysis(gold, pred, text=["x y"] * 12, ids=list(range(12)), score=score, examples=2)
    assert [(e.id, e.score) for e in r.cell("a", "b").confident] == [("3", 0.95), ("1", 0.9)]


def test_processing_and_token_pattern_give_one_vocabulary():
    gold, pred = ["a"] * 6, ["b"] * 5 + ["a"]
    text = ["The runners were running quickly"] * 5 + ["other words here"]
    r = clfeval.error_analysis(gold, pred, text=text, processing="multiclass", z_min=-50)
    terms = {t.term for t in r.cell("a", "b").terms_vs_gold}
    assert terms == {"runner", "run", "quickli"}  # the 179-word list drops 'the', 'were'; Porter stems
    r2 = clfeval.error_analysis(gold, pred, text=text, token_pattern=r"\S+", z_min=-50)
    assert "the" in {t.term for t in r2.cell("a", "b").terms_vs_gold}


# --- bad input -------------------------------------------------------------------------------------------


def _csv(path, rows, header="id,gold,pred,text"):
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


def test_no_text_column_is_named(tmp_path):
    p = _csv(tmp_path / "p.csv", ["1,a,b,x"], header="id,gold,pred,body")
    with pytest.raises(DataError, match="'text'"):
        clfeval.error_analysis(p, id="id")


def test_empty_texts_are_counted_and_said(tmp_path):
    p = _csv(tmp_path / "p.csv", ["1,a,b,", "2,a,b,zebra", "3,a,a,x"])
    r = clfeval.error_analysis(p, id="id", min_count=1)
    assert r.cell("a", "b").count == 2 and any("1 of 3 documents have an empty text" in x for x in r.notes)


def test_texts_file_joined_by_id_missing_and_repeated(tmp_path, data):
    preds = _csv(tmp_path / "p.csv", ["1,a,b,", "2,a,b,", "3,a,a,"], header="id,gold,pred,x")
    texts = _csv(tmp_path / "t.csv", ["1,zebra here", "2,zebra there", "3,plain"], header="id,text")
    r = clfeval.error_analysis(preds, id="id", texts=texts, min_count=1, z_min=0)
    assert r.cell("a", "b").terms_vs_gold[0].term == "zebra"
    short = _csv(tmp_path / "t2.csv", ["1,zebra here", "3,plain"], header="id,text")
    with pytest.raises(DataError, match="id '2' has no text"):
        clfeval.error_analysis(preds, id="id", texts=short, min_count=1)
    twice = _csv(tmp_path / "t3.csv", ["1,zebra", "2,x", "2,y", "3,z"], header="id,text")
    with pytest.raises(DataError, match="id '2' has a second text"):
        clfeval.error_analysis(preds, id="id", texts=twice, min_count=1)
    with pytest.raises(UsageError, match="joins the texts by id"):
        clfeval.error_analysis(preds, texts=texts)


def test_repeated_prediction_ids_are_refused(tmp_path):
    p = _csv(tmp_path / "p.csv", ["1,a,b,x", "1,a,b,y"])
    with pytest.raises(DataError, match="repeated"):
        clfeval.error_analysis(p, id="id", min_count=1)


def test_non_utf8_bytes_are_located(tmp_path):
    p = tmp_path / "p.csv"
    p.write_bytes(b"id,gold,pred,text\n1,a,b,caf\xe9\n")
    with pytest.raises(ClfevalError, match="UTF-8"):
        clfeval.error_analysis(str(p), id="id")


def test_a_50_mb_document_is_counted_on_its_first_million_characters():
    big = "zebra " * (50 * 1024 * 1024 // 6)
    r = clfeval.error_analysis(["a", "a", "a"], ["b", "b", "a"], text=[big, "x", "y"], min_count=1, examples=1)
    assert r.prior.tokens == 1_000_000 // 6 + 1 + 2 or r.prior.tokens > 100_000
    assert any("longer than 1,000,000 characters" in x for x in r.notes)
    assert all(len(e.text) <= 300 for e in r.cell("a", "b").examples)


def test_a_cell_with_one_item_and_a_class_never_predicted():
    gold = ["a"] * 5 + ["b"] * 5 + ["c"]
    pred = ["a"] * 4 + ["b"] + ["b"] * 5 + ["a"]
    text = ["x y"] * 4 + ["zebra"] + ["p q"] * 5 + ["c words"]
    r = clfeval.error_analysis(gold, pred, text=text)  # min_count 5: no cell listed
    assert r.cells == () and any("no off-diagonal cell has 5 or more" in x for x in r.notes)
    r1 = clfeval.error_analysis(gold, pred, text=text, min_count=1)
    cell = r1.cell("c", "a")  # 'c' is never predicted: no correct 'c' document
    assert cell.count == 1 and any("no document of 'c' was classified correctly" in x for x in cell.notes)
    assert r1.labels == ("a", "b", "c")


def test_text_without_spaces_is_said():
    text = ["这是一个没有空格的中文句子用于测试分词"] * 6
    r = clfeval.error_analysis(["a"] * 6, ["b"] * 5 + ["a"], text=text)
    assert any("almost no tokens" in x for x in r.notes)


@pytest.mark.parametrize("kwargs, needle", [
    ({"min_count": 0}, "min_count"), ({"examples": -1}, "examples"), ({"prior_strength": 0}, "prior_strength"),
    ({"token_pattern": "("}, "token_pattern"), ({"token_pattern": "a*"}, "zero characters"),
    ({"processing": "stem=lancaster"}, "processing"), ({"seed": 1.5}, "seed"),
])
def test_bad_settings_name_the_parameter(kwargs, needle):
    with pytest.raises(UsageError, match=needle):
        clfeval.error_analysis(["a"], ["b"], text=["x"], **kwargs)


def test_to_frame_and_to_dict(data):
    pd = pytest.importorskip("pandas")
    r = clfeval.error_analysis(data["gold"], data["pred"], text=data["text"], ids=data["id"])
    f = r.terms_frame()
    assert isinstance(f, pd.DataFrame) and f.iloc[0].term == "zebra" and f.iloc[0]["gold"] == "A"
    assert r.to_frame().iloc[0]["gold"] == "A"  # the cells
    d = r.to_dict()
    assert d["kind"] == "error_analysis" and d["cells"][0]["terms_vs_gold"][0]["term"] == "zebra"
    json.dumps(d)


# --- outputs ---------------------------------------------------------------------------------------------


def _hostile():
    gold = ["a"] * 8 + ["b"] * 6
    pred = ["b"] * 6 + ["a"] * 2 + ["b"] * 6
    evil = "zebra <script>alert(1)</script> \u202eevil\u202c \x1b[31mred \x00 & 'q\" zebra"
    text = [evil] * 6 + ["plain text"] * 2 + ["other words"] * 6
    return clfeval.error_analysis(gold, pred, text=text, ids=[f"<i>{k}" for k in range(14)], z_min=0)


def test_html_escapes_every_document_string_and_links_cells_to_sections():
    pytest.importorskip("matplotlib")
    from clfeval.render import render

    page = render(_hostile(), "html")
    assert "<script" not in page.lower() and "\u202e" not in page and "\x1b" not in page and "\x00" not in page
    assert "&lt;<mark>script</mark>&gt;" in page and "\\u202e" in page
    assert "\\x00 &amp; &#x27;<mark>q</mark>&quot;" in page
    assert "\\x1b" in page and "&lt;i&gt;0" in page
    assert "<mark>zebra</mark>" in page
    # every listed cell: a link in the heatmap and in the table, to a section with that id
    assert page.count("href='#cell-0-1'") == 2 and "<section id='cell-0-1'>" in page
    assert "<svg" in page  # the z-score bars of the section
    assert "javascript" not in page.lower() and "onclick" not in page.lower()


def test_text_markdown_json_and_notebook_forms():
    from clfeval.render import render

    r = _hostile()
    text, md, js = render(r, "text"), render(r, "markdown"), json.loads(render(r, "json"))
    assert "a → b" in text and "\\u202e" in text and "\x1b" not in text
    assert "| a → b |" in md and "<script>" not in md
    assert js["cells"][0]["examples"][0]["text"].startswith("zebra <script>")  # JSON carries the string exactly
    frag = r._repr_html_()
    assert frag.startswith('<div class="clfeval">') and len(frag.encode("utf-8")) < 20_000  # the card (issue 37)
    assert "zebra &lt;script&gt;" in frag and "zebra <script>" not in frag


def test_the_cli_command(tmp_path):
    from tests._helpers.clihelp import run

    p = _csv(tmp_path / "p.csv",
             [f"{i},a,b,zebra zebra x" for i in range(5)] + [f"{i},a,a,plain y" for i in range(5, 12)])
    res = run(*["errors", p, "--id", "id", "-f", "json", "--z-min", "0"])
    assert res.code == 0, res.err
    assert json.loads(res.out)["cells"][0]["terms_vs_gold"][0]["term"] == "zebra"
    res = run(*["errors", p, "--text", "body"])
    assert res.code == 1 and "no column 'body' (option --text)" in res.err and "Traceback" not in res.err
    res = run(*["errors", p, "--min-count", "0"])
    assert res.code == 2 and "--min-count" in res.err
    out = tmp_path / "e.html"
    res = run(*["errors", p, "--texts", p, "-o", str(out)])
    assert res.code == 2 and "--id" in res.err and not out.exists()


def test_cv_errors_writes_the_analysis_of_the_out_of_fold_predictions(tmp_path):
    pytest.importorskip("sklearn")
    from tests._helpers.clihelp import run

    d = corpus(300)
    data = tmp_path / "d.csv"
    import pyarrow.csv as pcsv

    pcsv.write_csv(pa.table({"id": d["id"], "label": d["gold"], "text": d["text"]}), data)
    out = tmp_path / "errors.json"
    res = run(*["cv", str(data), "--text", "text", "--label", "label", "--folds", "3",
                                   "--no-log", "--errors", str(out), "-f", "json"])
    assert res.code == 0, res.err
    e = json.loads(out.read_text())
    cv = json.loads(res.out)
    assert sum(map(sum, e["matrix"])) == 300 and e["kind"] == "error_analysis"
    cm = cv.get("pooled", {}).get("confusion_matrix") or cv.get("report", {}).get("confusion_matrix")
    if cm is not None:
        assert e["matrix"] == cm
    res = run(*["holdout", str(data), "--text", "text", "--label", "label", "--no-log",
                                   "--errors", str(tmp_path / "e.xyz")])
    assert res.code == 2 and "--errors" in res.err


def test_a_token_stemmed_to_nothing_is_left_out():
    from clfeval.text._termcounts import analyzer_of

    a = analyzer_of("stop=none,stem=porter")
    assert a("the company's shares") == ["the", "compani", "share"]  # Porter stems 's' to ''


def test_label_sets_are_analysed_per_category():
    # issue 25 item 2 (formerly refused in one sentence): arrays of label sets are read as label sets
    r = clfeval.error_analysis([["a", "b"], ["a"]], [["a"], ["b"]], text=["x", "y"], min_count=1)
    assert r.task == "multi-label" and r.cell("b", "fn").count == 1 and r.cell("b", "fp").count == 1


def test_a_cell_with_fewer_tokens_than_the_prior_says_so():
    gold, pred = ["a"] * 8 + ["b"] * 4, ["b"] * 5 + ["a"] * 3 + ["b"] * 4
    text = ["zebra x y"] * 5 + ["p q"] * 7  # the a → b mistakes: 15 tokens
    r = clfeval.error_analysis(gold, pred, text=text, prior_strength=16)
    assert any("outweighs the 15 tokens" in n for n in r.cell("a", "b").notes)
    r = clfeval.error_analysis(gold, pred, text=text, prior_strength=15)
    assert not any("outweighs" in n for n in r.cell("a", "b").notes)
