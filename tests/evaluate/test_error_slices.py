"""Issue 39, item 1: ``error_analysis(..., by=...)`` — the error analysis sliced by the one wrapper of sliced
operations (:class:`clfeval.slicing.BySlice`). Oracles: each slice's analysis is ``error_analysis`` run WITHOUT
``by`` on that slice's rows alone (filtered here, by hand); the whole analysis is the one without ``by``; the
error counts are counted here item by item; every engine gives the same slices."""

from __future__ import annotations

import collections
import json
import random
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import clfeval
from clfeval.engines import Dask, Local
from clfeval.errors import DataError, UsageError
from clfeval.render import render, to_json

WORDS = ["rate", "bank", "oil", "wheat", "ship", "crude", "grain", "money", "trade", "yen"]


def _corpus(n: int = 240, seed: int = 7) -> dict[str, list]:
    rng = random.Random(seed)
    gold = [rng.choice("abc") for _ in range(n)]
    src = [rng.choice(["wire", "web", "<b>east</b>"]) for _ in range(n)]
    pred = [g if rng.random() < (0.5 if s == "web" else 0.8) else rng.choice("abc")
            for g, s in zip(gold, src, strict=True)]
    text = [" ".join(rng.choice(WORDS[:5] if g == "a" else WORDS[3:]) for _ in range(rng.randint(3, 9)))
            for g in gold]
    ids = [f"d{i:04d}" for i in range(n)]
    return {"id": ids, "gold": gold, "pred": pred, "text": text, "src": src}


def _strip(d: dict) -> dict:
    """An analysis's JSON without where it ran (and the slices, compared on their own)."""
    return {k: v for k, v in d.items() if k not in ("engine", "by", "slices", "signature")}


def test_each_slice_is_the_analysis_of_its_rows_alone_and_the_whole_is_unchanged():
    c = _corpus()
    opts = dict(min_count=2, examples=3, terms=5)
    r = clfeval.error_analysis(c["gold"], c["pred"], text=c["text"], ids=c["id"], by={"src": c["src"]}, **opts)
    plain = clfeval.error_analysis(c["gold"], c["pred"], text=c["text"], ids=c["id"], **opts)
    assert _strip(r.to_dict()) == _strip(plain.to_dict())
    names = sorted(set(c["src"]))
    assert [s.name for s in r.slices] == names and r.by == ("src",)
    for s in r.slices:
        rows = [i for i, v in enumerate(c["src"]) if v == s.name]
        alone = clfeval.error_analysis([c["gold"][i] for i in rows], [c["pred"][i] for i in rows],
                                       text=[c["text"][i] for i in rows], ids=[c["id"][i] for i in rows], **opts)
        want = alone.to_dict()
        got = s.to_dict()
        for key in ("labels", "matrix", "cells", "prior", "notes"):
            assert got[key] == want[key], (s.name, key)
        assert s.documents == len(rows)
        assert s.errors == sum(1 for i in rows if c["gold"][i] != c["pred"][i])
        assert got["values"] == {"src": s.name} and got["error_rate"] == s.errors / len(rows)


def test_every_engine_gives_the_same_slices(tmp_path, dask_client):
    c = _corpus(300)
    folder = tmp_path / "preds"
    folder.mkdir()
    t = pa.table(c)
    for i, start in enumerate(range(0, 300, 100)):
        pq.write_table(t.slice(start, 100), folder / f"part-{i}.parquet", row_group_size=40)
    opts = dict(id="id", by="src", min_count=2, examples=3, terms=5)
    got = {}
    for name, engine in (("memory", None), ("streamed", Local(memory=1 << 14)), ("dask", Dask(dask_client))):
        r = clfeval.error_analysis(str(folder), engine=engine, **opts)
        got[name] = r
        assert r.engine.name == ("dask" if name == "dask" else "local")
    table = clfeval.error_analysis(t, **opts)  # a table in memory: one batch through the same wrapper
    assert table.engine.mode == "memory"
    base = json.loads(to_json(table))
    for name, r in got.items():
        d = json.loads(to_json(r))
        assert d["slices"] == base["slices"], name
        assert _strip(d) == _strip(base), name


def test_items_without_ids_keep_their_row_keys_in_every_slice():
    c = _corpus(120)
    r = clfeval.error_analysis(c["gold"], c["pred"], text=c["text"], by={"src": c["src"]}, min_count=1, examples=4)
    plain = clfeval.error_analysis(c["gold"], c["pred"], text=c["text"], min_count=1, examples=4)
    assert _strip(r.to_dict()) == _strip(plain.to_dict())
    for s in r.slices:  # an example's id is its row in the whole input, whatever slice it is in
        for cell in s.analysis.cells:
            for e in cell.examples:
                i = int(e.id)
                assert c["src"][i] == s.name and (c["gold"][i], c["pred"][i]) == (cell.gold, cell.pred)


def test_label_sets_count_a_document_with_any_wrong_label_as_an_error():
    gold = [["x"], ["x", "y"], ["y"], ["x"], ["y"], ["x", "y"]]
    pred = [["x"], ["x"], ["x", "y"], ["x"], [], ["x", "y"]]
    src = ["p", "p", "q", "q", "q", "p"]
    text = ["alpha beta"] * 6
    r = clfeval.error_analysis(gold, pred, text=text, by={"src": src}, min_count=1, multilabel=True)
    assert r.task == "multi-label"
    assert [(s.name, s.documents, s.errors) for s in r.slices] == [("p", 3, 1), ("q", 3, 2)]


def test_numeric_columns_are_cut_into_bins_and_nulls_are_a_slice():
    c = _corpus(90)
    length = [float(len(t)) for t in c["text"]]
    r = clfeval.error_analysis(c["gold"], c["pred"], text=c["text"], ids=c["id"], by={"length": length}, by_bins=2,
                               min_count=1)
    assert len(r.slices) == 2 and sum(s.documents for s in r.slices) == 90
    lab = pa.array(["x" if i % 3 else None for i in range(90)])
    r = clfeval.error_analysis(c["gold"], c["pred"], text=c["text"], by={"lab": lab}, min_count=1)
    assert [s.name for s in r.slices] == ["x", "(missing)"] or [s.name for s in r.slices] == ["(missing)", "x"]
    assert {s.name: s.documents for s in r.slices}["(missing)"] == 30


def test_refusals_name_the_option():
    c = _corpus(40)
    t = pa.table(c)
    with pytest.raises(UsageError, match="a column the analysis already reads"):
        clfeval.error_analysis(t, by="gold")
    with pytest.raises(DataError, match="no column 'nope'"):
        clfeval.error_analysis(t, by="nope")
    with pytest.raises(UsageError, match="make more than 2 slices"):
        clfeval.error_analysis(t, by="src", max_slices=2)
    with pytest.raises(DataError, match="null in every row"):
        clfeval.error_analysis(c["gold"], c["pred"], text=c["text"], by={"lab": pa.nulls(40, pa.string())})
    with pytest.raises(UsageError, match="names columns"):
        clfeval.error_analysis(c["gold"], c["pred"], text=c["text"], by="src")


def test_the_outputs_show_every_slice_escaped(tmp_path):
    c = _corpus(150)
    r = clfeval.error_analysis(pa.table(c), id="id", by="src", min_count=2)
    text = render(r, "text")
    assert "Errors by slice (src): 3 slices" in text and "<b>east</b>" in text
    md = render(r, "markdown")
    assert "Errors by slice (src)" in md
    page = render(r, "html")
    assert "&lt;b&gt;east&lt;/b&gt;" in page and "<b>east</b>" not in page and "id='by-slice'" in page
    d = json.loads(to_json(r))
    assert d["by"] == ["src"] and [x["slice"] for x in d["slices"]] == [s.name for s in r.slices]


def test_the_command_line_slices_the_errors(tmp_path):
    from tests._helpers.clihelp import assert_clean_error, run

    c = _corpus(100)
    path = tmp_path / "p.parquet"
    pq.write_table(pa.table(c), path)
    out = run("errors", str(path), "--id", "id", "--by", "src", "--min-count", "2", "--format", "json")
    assert out.code == 0, out.err
    d = json.loads(out.out)
    assert {x["slice"]: x["documents"] for x in d["slices"]} == dict(collections.Counter(c["src"]))
    bad = run("errors", str(path), "--by", "src", "--texts", str(path), "--id", "id")
    assert_clean_error(bad, 2, "not sliced yet", "--texts")


# --- the wrapper itself --------------------------------------------------------------------------------------

class _Keys:
    """An accumulator that records the (slice-free) keys and rows it was given: what any operation sees."""

    def __init__(self) -> None:
        self.seen: collections.Counter = collections.Counter()
        self.where: list[str] = []

    def update(self, batch) -> None:
        self.seen.update(batch.gold)
        self.where += [batch.where(i) for i in range(batch.n)]

    def __add__(self, other):
        out = _Keys()
        out.seen, out.where = self.seen + other.seen, self.where + other.where
        return out


@pytest.mark.parametrize("seed", range(6))
def test_any_split_merged_in_any_order_gives_every_slice_its_own_rows(seed):
    from clfeval.slicing import BySlice

    rng = random.Random(seed)
    n = rng.randint(1, 120)
    src = [rng.choice(["u", "v", "w", None]) for _ in range(n)]
    gold = [f"g{i}" for i in range(n)]
    cuts = sorted(rng.sample(range(1, n), min(3, n - 1))) if n > 1 else []
    parts = []
    for lo, hi in zip([0, *cuts], [*cuts, n], strict=False):
        acc = BySlice(_Keys, ["src"])
        acc.update(SimpleNamespace(gold=gold[lo:hi], extra={"src": pa.array(src[lo:hi], pa.string())}, n=hi - lo,
                                   where=lambda i, lo=lo: f"row {lo + i}"))
        parts.append(acc)
    rng.shuffle(parts)
    total = parts[0]
    for p in parts[1:]:
        total = p + total if rng.random() < 0.5 else total + p
    got = {key[0]: (sorted(acc.seen), sorted(acc.where)) for key, acc in total.finish()}
    want: dict = {}
    for i, s in enumerate(src):
        name = "(missing)" if s is None else s
        want.setdefault(name, ([], []))
        want[name][0].append(gold[i])
        want[name][1].append(f"row {i}")
    assert got == {k: (sorted(a), sorted(b)) for k, (a, b) in want.items()}


def test_rows_of_a_batch_name_their_rows_in_the_file():
    from clfeval.slicing import RowsOf

    batch = SimpleNamespace(gold=pa.chunked_array([pa.array(["a", "b", "c", "d"])]), pred=np.array([1, 2, 3, 4]),
                            extra={"t": ["w", "x", "y", "z"]}, n=4, text=True, where=lambda i: f"row {10 + i}")
    sub = RowsOf(batch, np.array([3, 1]))
    assert sub.n == 2 and sub.gold.to_pylist() == ["d", "b"] and sub.pred.tolist() == [4, 2]
    assert sub.extra["t"] == ["z", "x"] and sub.text is True and sub.where(0) == "row 13"
