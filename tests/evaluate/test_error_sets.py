"""Issue 25, item 2: the error analysis of label sets — per category, its false negatives and false positives.

A planted case (documents of A carrying "zebra" are missed for A; documents without B carrying "okapi"
are given B), the z-scores of both sides of both cells against a direct implementation of Monroe,
Colaresi & Quinn (2008) eqs. 16 and 18 over the four cells of each category's binary table, and the same
terms, z-scores and examples in memory, streamed, spooled and on Dask, however the input is split.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

import clfeval
from clfeval.engines import Dask, Local
from clfeval.errors import UsageError

WORDS = [f"w{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}" for i in range(300)]


def corpus(n=2000, seed=5):
    """Label sets over A, B, C. An A document with 'zebra' (1 in 6) is not given A; a document without B
    with 'okapi' (1 in 10) is given B; a few other labels flip at random."""
    rng = np.random.default_rng(seed)
    gold, pred, text = [], [], []
    for _ in range(n):
        g = {c for c in "ABC" if rng.random() < 0.4}
        words = list(rng.choice(WORDS, 20))
        p = set(g)
        if "A" in g and rng.random() < 1 / 6:
            p.discard("A")
            words += ["zebra", "Zebra"]
        if "B" not in g and rng.random() < 0.1:
            p.add("B")
            words += ["okapi"]
        for c in "ABC":
            if rng.random() < 0.03:
                p ^= {c}
        gold.append(sorted(g)), pred.append(sorted(p)), text.append(" ".join(words))
    return {"id": np.arange(n) * 3 + 2, "gold": gold, "pred": pred, "text": text}


@pytest.fixture(scope="module")
def data():
    return corpus()


def test_planted_terms_lead_their_cells_and_every_example_is_an_error_of_that_cell(data):
    r = clfeval.error_analysis(data["gold"], data["pred"], text=data["text"], ids=data["id"], seed=2)
    assert r.task == "multi-label" and r.labels == ("A", "B", "C") and r.matrix == ()
    fn = r.cell("A", "fn")
    assert fn.kind == "false negatives" and fn.category == "A" and (fn.gold, fn.pred) == ("A", "not A")
    zs = [t.z for t in fn.terms_vs_gold]
    assert fn.terms_vs_gold[0].term == "zebra" and zs[0] == max(zs) and zs[0] > 5  # vs the A documents found
    assert fn.terms_vs_pred[0].term == "zebra"  # vs the documents rightly left without A
    assert fn.vs == ("vs TP of A", "vs TN of A") and "true positives of A" in fn.against[0]
    missed = {str(i) for i, g, p in zip(data["id"], data["gold"], data["pred"],
                                        strict=True) if "A" in g and "A" not in p}
    assert fn.count == len(missed) and len(fn.examples) == 5 and {e.id for e in fn.examples} <= missed
    fp = r.cell("B", "fp")
    assert fp.terms_vs_gold[0].term == "okapi" and fp.vs == ("vs TN of B", "vs TP of B")
    given = {str(i) for i, g, p in zip(data["id"], data["gold"], data["pred"],
                                       strict=True) if "B" not in g and "B" in p}
    assert fp.count == len(given) and {e.id for e in fp.examples} <= given
    # the counts of every category's table, by hand
    for row in r.categories:
        c = row.label
        tp = sum(c in g and c in p for g, p in zip(data["gold"], data["pred"], strict=True))
        fpn = sum(c not in g and c in p for g, p in zip(data["gold"], data["pred"], strict=True))
        fnn = sum(c in g and c not in p for g, p in zip(data["gold"], data["pred"], strict=True))
        assert (row.tp, row.fp, row.fn, row.tn) == (tp, fpn, fnn, len(data["gold"]) - tp - fpn - fnn)
    a = r.categories[0]
    assert fn.share == pytest.approx(a.fn / (a.tp + a.fn)) and fn.opposite == a.fp
    b = r.categories[1]
    assert fp.share == pytest.approx(b.fp / (b.fp + b.tn)) and fp.opposite == b.fn
    assert [c.count for c in r.cells] == sorted((c.count for c in r.cells), reverse=True)


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


def test_z_scores_of_both_cells_are_the_papers_equations_over_each_categorys_table():
    docs = [({"a"}, {"a"}, "apple pear pear"), ({"a", "b"}, {"a"}, "apple fig kiwi"), ({"a"}, set(), "kiwi kiwi"),
            ({"a"}, {"b"}, "kiwi plum"), ({"b"}, {"b"}, "plum plum pear"), (set(), {"a"}, "fig fig"),
            (set(), set(), "pear apple"), ({"b"}, {"a", "b"}, "fig plum")]
    gold, pred, text = (list(x) for x in zip(*docs, strict=True))

    def counts(rows):
        c = {}
        for *_, t in rows:
            for w in t.split():
                c[w] = c.get(w, 0) + 1
        return c

    y_all = counts(docs)
    for alpha0 in (1000.0, 3.0):
        r = clfeval.error_analysis([sorted(g) for g in gold], [sorted(p) for p in pred], text=text, min_count=1,
                                   terms=50, z_min=-100, prior_strength=alpha0)
        for c in ("a", "b"):
            tp = counts([d for d in docs if c in d[0] and c in d[1]])
            tn = counts([d for d in docs if c not in d[0] and c not in d[1]])
            for kind, rows, sides in (("fn", [d for d in docs if c in d[0] and c not in d[1]], (tp, tn)),
                                      ("fp", [d for d in docs if c not in d[0] and c in d[1]], (tn, tp))):
                mistakes = counts(rows)
                cell = r.cell(c, kind)
                for side, other in zip(("terms_vs_gold", "terms_vs_pred"), sides, strict=True):
                    want = _mcq(mistakes, other, y_all, alpha0)
                    got = {t.term: t.z for t in getattr(cell, side)}
                    assert set(got) == set(mistakes)
                    for w, z in got.items():
                        assert z == pytest.approx(want[w], rel=1e-12, abs=1e-12)


def _plain(r):
    d = json.loads(json.dumps(r.to_dict(), default=str))
    d.pop("engine")
    return d


def _tree(root, data, cuts, fmt="parquet"):
    root.mkdir()
    if fmt == "parquet":
        t = pa.table({"id": data["id"], "gold": data["gold"], "pred": data["pred"], "text": data["text"]})
    else:
        t = pa.table({"id": data["id"], "gold": ["|".join(g) for g in data["gold"]],
                      "pred": ["|".join(p) for p in data["pred"]], "text": data["text"]})
    for i, (lo, hi) in enumerate(zip(cuts[:-1], cuts[1:], strict=True)):
        part = t.slice(lo, hi - lo)
        if fmt == "parquet":
            pq.write_table(part, root / f"part-{i}.parquet", row_group_size=250)
        else:
            pcsv.write_csv(part, root / f"part-{i}.csv")
    return root


def test_memory_streamed_spooled_and_dask_agree_and_splits_do_not_matter(data, tmp_path, dask_client):
    n = len(data["gold"])
    one = _tree(tmp_path / "one", data, [0, n])
    many = _tree(tmp_path / "many", data, [0, 1, 600, 601, 1500, n])
    csvs = _tree(tmp_path / "csv", data, [0, 900, n], fmt="csv")
    kw = dict(id="id", seed=9, multilabel=True)
    runs = [clfeval.error_analysis(data["gold"], data["pred"], text=data["text"], ids=data["id"], seed=9),
            clfeval.error_analysis(str(one), **kw),
            clfeval.error_analysis(str(many), engine=Local(memory=8192 * 1000), **kw),
            clfeval.error_analysis(str(csvs), **kw),
            clfeval.error_analysis(data["gold"], data["pred"], text=data["text"], ids=data["id"], seed=9,
                                   engine=Local(memory=4096)),
            clfeval.error_analysis(str(many), engine=Dask(dask_client), **kw)]
    assert [r.engine["mode"] for r in runs] == ["memory", "streamed", "streamed", "streamed", "streamed", "cluster"]
    base = _plain(runs[0])
    assert base["cells"] and base["task"] == "multi-label"
    for r in runs[1:]:
        assert _plain(r) == base
    other = clfeval.error_analysis(str(many), seed=10, id="id", multilabel=True)
    assert [e.id for e in other.cell("A", "fn").examples] != [e.id for e in runs[0].cell("A", "fn").examples]


def test_examples_are_the_bottom_k_of_the_keyed_hash(data):
    import hashlib

    r = clfeval.error_analysis(data["gold"], data["pred"], text=data["text"], ids=data["id"], seed=4, examples=3)
    ids = [str(i) for i, g, p in zip(data["id"], data["gold"], data["pred"], strict=True) if "B" not in g and "B" in p]
    direct = {i: int.from_bytes(hashlib.blake2b(f"id:{i}".encode(), digest_size=8, key=b"4").digest(), "big")
              for i in ids}
    assert [e.id for e in r.cell("B", "fp").examples] == sorted(ids, key=direct.get)[:3]


def test_label_sets_need_naming_in_files_and_refuse_scores(tmp_path):
    p = tmp_path / "p.jsonl"
    p.write_text("".join(json.dumps({"id": i, "gold": ["a", "b"], "pred": ["a"], "text": "x"}) + "\n"
                         for i in range(3)))
    with pytest.raises(UsageError, match="multilabel"):
        clfeval.error_analysis(str(p), id="id")
    r = clfeval.error_analysis(str(p), id="id", multilabel=True, min_count=1)
    assert r.cell("b", "fn").count == 3
    with pytest.raises(UsageError, match="score"):
        clfeval.error_analysis([["a"]], [["b"]], text=["x"], score=[0.5])


def _hostile():
    gold = [["<script>"], ["<script>"], [], [], ["b"], ["b"]] * 2
    pred = [[], ["<script>"], ["<script>"], [], ["b"], []] * 2
    text = ["zebra <b>bold</b> \u202e", "x", "okapi \x00 &", "y", "b", "b zebra"] * 2
    return clfeval.error_analysis(gold, pred, text=text, ids=[f"<i>{k}" for k in range(12)], min_count=1, z_min=0)


def test_html_links_each_categorys_errors_to_their_sections_and_escapes_every_string():
    pytest.importorskip("matplotlib")
    from clfeval.render import render

    r = _hostile()
    page = render(r, "html")
    assert "<script" not in page.lower() and "\u202e" not in page and "\x00" not in page and "<b>bold" not in page
    assert "&lt;script&gt;" in page and "&lt;i&gt;0" in page and "\\u202e" in page
    i = r.labels.index("<script>")
    for kind in ("fn", "fp"):  # linked from the categories' table and from the cells table, to its section
        assert page.count(f"href='#cell-{i}-{kind}'") == 2 and f"<section id='cell-{i}-{kind}'>" in page
    assert "true positives of &lt;script&gt;" in page and "<svg" in page and "javascript" not in page.lower()
    text, md = render(r, "text"), render(r, "markdown")
    assert "false negatives of <script>" in text and "| category | TP | FP | FN | TN |" in md
    card = r._repr_html_()  # the notebook card (issue 37): its links point into itself, every string escaped
    assert set(re.findall(r'href="#([^"]+)"', card)) <= set(re.findall(r'\bid="([^"]+)"', card))
    assert "<script>" not in card and "&lt;script&gt;" in card
    frame = r.to_frame()
    assert set(frame["gold"]) >= {"<script>", "not <script>"}


def test_the_cli_command_with_label_sets(tmp_path):
    from tests._helpers.clihelp import run

    rows = [f"{i},a|b,a,zebra zebra x" for i in range(5)] + [f"{i},a|b,a|b,plain y" for i in range(5, 12)]
    p = tmp_path / "p.csv"
    p.write_text("id,gold,pred,text\n" + "\n".join(rows) + "\n")
    res = run(*["errors", str(p), "--id", "id", "--multilabel", "-f", "json", "--z-min", "0"])
    assert res.code == 0, res.err
    d = json.loads(res.out)
    assert d["task"] == "multi-label" and d["cells"][0]["category"] == "b"
    assert d["cells"][0]["terms_vs_gold"][0]["term"] == "zebra"
    res = run(*["errors", str(p), "--id", "id", "--multilabel", "--score", "id"])
    assert res.code == 2 and "--score" in res.err and "Traceback" not in res.err
    res = run(*["errors", str(p), "--id", "id"])  # 'a|b' read as one class: a single-label analysis
    assert res.code == 0 and "a|b" in res.out
    res = run(*["report", str(p), "--id", "id", "--multilabel", "--text", "text"])  # what the errors share
    assert res.code == 0, res.err
    assert "b: false negatives" in res.out and "FN vs TP, FP vs TN" in res.out


def test_cv_errors_with_label_sets(tmp_path):
    pytest.importorskip("sklearn")
    from tests._helpers.clihelp import run

    d = corpus(300, seed=8)
    data = tmp_path / "d.csv"
    pcsv.write_csv(pa.table({"id": d["id"], "label": ["|".join(g) for g in d["gold"]], "text": d["text"]}), data)
    out = tmp_path / "errors.json"
    res = run(*["cv", str(data), "--text", "text", "--label", "label", "--multilabel", "--folds", "3", "--no-log",
                "--errors", str(out), "-f", "json"])
    assert res.code == 0, res.err
    e = json.loads(out.read_text())
    assert e["task"] == "multi-label" and e["prior"]["documents"] == 300
    gold = {"|".join(g) for g in d["gold"]}
    for row in e["categories"]:  # every category's table holds every document once
        assert row["tp"] + row["fp"] + row["fn"] + row["tn"] == 300
    assert {row["label"] for row in e["categories"]} == {c for g in gold for c in g.split("|") if c}
    res = run(*["holdout", str(data), "--text", "text", "--label", "label", "--multilabel", "--no-log",
                "--errors", str(tmp_path / "h.md")])
    assert res.code == 0, res.err
    md = (tmp_path / "h.md").read_text()
    assert "| category | TP | FP | FN | TN |" in md and "false negatives of" in md
