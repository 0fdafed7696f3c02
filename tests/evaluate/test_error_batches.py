"""Issue 38: the error analysis as one accumulator (:class:`clfeval.evaluate.ErrorBatches`) run by every engine.

Split any way and added in any order, the accumulators of a PATH's batches equal one accumulator over all of
them; its cells, examples and most confident mistakes are checked against an oracle written here (a count of
the (gold, pred) pairs; the bottom-k of BLAKE2b keyed by the seed, as the module notes of
``clfeval/evaluate/_errorcount.py`` define the examples; the top-k scores). Items without ids are keyed by
their place alike on every engine: a file's row (also in a Parquet row group past the first, on Dask), a
table's row (also when the table is spooled to temporary files).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import numpy as np
import pyarrow as pa
import pyarrow.csv  # noqa: F401 (pa.csv)
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings, strategies as st

import clfeval
from clfeval.engines import Dask, Local
from clfeval.errors import DataError
from clfeval.evaluate import ErrorCounter, error_batches
from clfeval.io import iter_predictions

N, K, SEED = 60, 3, 7
WORDS = ["zebra", "yak", "walk", "run", "swim"]


def _corpus(n: int = N, seed: int = 0) -> dict[str, list]:
    rng = np.random.default_rng(seed)
    gold = rng.choice(["a", "b", "c"], n).tolist()
    pred = [g if rng.random() < 0.5 else str(rng.choice(["a", "b", "c"])) for g in gold]
    return {"id": [f"d{i}" for i in range(n)], "gold": gold, "pred": pred,
            "text": [" ".join(rng.choice(WORDS, 4)) for _ in range(n)],
            "score": np.round(rng.random(n), 3).tolist()}


def _hash(key: str) -> int:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8, key=str(SEED).encode()).digest(), "big")


def _plain(r):
    d = json.loads(json.dumps(r.to_dict(), default=str))
    d.pop("engine")
    return d


@pytest.fixture(scope="module")
def batches(tmp_path_factory):
    d = _corpus()
    path = tmp_path_factory.mktemp("errbatches") / "p.parquet"
    pq.write_table(pa.table(d), path)
    read = list(iter_predictions(str(path), gold="gold", pred="pred", extra=["text", "score"], batch_rows=7))
    assert len(read) == 9
    return d, read


def _filled(read, template):
    acc = error_batches(template, "text", "score")
    for b in read:
        acc.update(b)
    return acc


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_accumulators_split_any_way_and_added_in_any_order_equal_the_whole_and_the_oracle(batches, data):
    d, read = batches
    template = ErrorCounter(examples=K, seed=SEED)
    cuts = sorted(data.draw(st.sets(st.integers(1, len(read) - 1), max_size=len(read) - 1)))
    groups = [read[a:b] for a, b in zip([0, *cuts], [*cuts, len(read)], strict=True)]
    parts = [_filled(g, template) for g in groups]
    order = data.draw(st.permutations(range(len(parts))))
    total = parts[order[0]]
    for i in order[1:]:
        total = total + parts[i] if data.draw(st.booleans()) else parts[i] + total
    whole = _filled(read, template)
    assert _plain(total.finish(min_count=1, z_min=0)) == _plain(whole.finish(min_count=1, z_min=0))
    # the oracle: the cells' counts, each cell's examples (bottom-k hash) and most confident mistakes (top-k)
    c = total.counter
    assert c.cell_counts() == dict(Counter(zip(d["gold"], d["pred"], strict=True)))
    for g, p in {(g, p) for g, p in zip(d["gold"], d["pred"], strict=True) if g != p}:
        items = [i for i in range(N) if (d["gold"][i], d["pred"][i]) == (g, p)]
        bottom = sorted(items, key=lambda i: _hash(f"id:{d['id'][i]}"))[:K]
        assert [e["id"] for e in c.examples_of(g, p)] == [d["id"][i] for i in bottom]
        top = sorted(items, key=lambda i: (-d["score"][i], _hash(f"id:{d['id'][i]}")))[:K]
        assert [e["id"] for e in c.confident_of(g, p)] == [d["id"][i] for i in top]


def test_items_without_ids_are_keyed_by_their_file_row_on_every_engine(tmp_path, dask_client):
    d = _corpus(300, seed=3)
    t = pa.table({k: d[k] for k in ("gold", "pred", "text")})
    root = tmp_path / "pq"
    root.mkdir()
    pq.write_table(t.slice(0, 170), root / "a.parquet", row_group_size=50)  # row groups: rows past the first
    pq.write_table(t.slice(170), root / "b.parquet", row_group_size=60)
    runs = [clfeval.error_analysis(str(root), min_count=1, examples=K, seed=SEED, engine=e)
            for e in (None, Local(memory=1 << 14), Dask(dask_client))]
    assert runs[2].engine.more["partitions"] > 2
    assert _plain(runs[1]) == _plain(runs[0]) and _plain(runs[2]) == _plain(runs[0])
    # the oracle: each item's key is its file's name and its row in the file, from 0
    keys = [f"{root / 'a.parquet'}:{i}" for i in range(170)] + [f"{root / 'b.parquet'}:{i}" for i in range(130)]
    for cell in runs[0].cells:
        items = [i for i in range(300) if (d["gold"][i], d["pred"][i]) == (cell.gold, cell.pred)]
        bottom = sorted(items, key=lambda i: _hash(f"row:{keys[i]}"))[:K]
        assert [e.id for e in cell.examples] == [keys[i] for i in bottom]


def test_a_table_without_ids_is_keyed_by_its_rows_in_memory_spooled_and_on_dask(dask_client):
    d = _corpus(900, seed=4)
    frame = pa.table({k: d[k] for k in ("gold", "pred", "text")}).to_pandas()
    runs = [clfeval.error_analysis(frame, min_count=1, examples=K, seed=SEED, engine=e)
            for e in (None, Local(memory=1 << 14), Dask(dask_client))]
    assert [r.engine.mode for r in runs] == ["memory", "streamed", "cluster"]
    assert _plain(runs[1]) == _plain(runs[0]) and _plain(runs[2]) == _plain(runs[0])
    cell = runs[0].cells[0]
    items = [i for i in range(900) if (d["gold"][i], d["pred"][i]) == (cell.gold, cell.pred)]
    assert [e.id for e in cell.examples] == [str(i) for i in sorted(items, key=lambda i: _hash(f"row:{i}"))[:K]]


def test_a_defect_in_a_later_row_group_is_named_by_its_file_row_on_dask_as_locally(tmp_path, dask_client):
    d = _corpus(40, seed=5)
    d["score"][33] = float("nan")
    path = tmp_path / "s.parquet"
    pq.write_table(pa.table(d), path, row_group_size=10)
    said = []
    for e in (None, Dask(dask_client)):
        with pytest.raises(DataError, match=r"score column 'score' holds nan at file '.*s\.parquet', row 34\b") as x:
            clfeval.error_analysis(str(path), id="id", score="score", engine=e)
        said.append(str(x.value))
    assert said[0] == said[1]


def test_a_repeated_id_is_refused_by_the_runner_in_the_same_words_on_every_engine(tmp_path, dask_client):
    path = tmp_path / "dup.csv"
    path.write_text("id,gold,pred,text\n1,a,b,x y\n2,a,b,y z\n1,a,a,z\n", encoding="utf-8")
    said = []
    for e in (None, Dask(dask_client)):  # the local stream said "row 3 (line 4): id '1' is repeated" before issue 38
        with pytest.raises(DataError, match=r"dup\.csv', column 'id': ids must be unique, but the id '1' occurs "
                                            r"more than once \(rows 1 and 3\)") as x:
            clfeval.error_analysis(str(path), id="id", engine=e)
        said.append(str(x.value))
    assert said[0] == said[1]


def test_label_sets_with_texts_joined_by_id_give_the_text_column_s_analysis_on_every_engine(tmp_path, dask_client):
    gold = ["a|b", "a", "b", ""] * 6
    pred = ["a", "a|b", "", "b"] * 6
    text = ["zebra run", "yak walk", "swim run", "walk"] * 6
    ids = [f"t{i}" for i in range(24)]
    one = tmp_path / "one.csv"
    pa.csv.write_csv(pa.table({"id": ids, "gold": gold, "pred": pred, "text": text}), one)
    preds, texts = tmp_path / "p.csv", tmp_path / "t.csv"
    pa.csv.write_csv(pa.table({"id": ids, "gold": gold, "pred": pred}), preds)
    pa.csv.write_csv(pa.table({"id": ids[::-1], "text": text[::-1]}), texts)
    base = clfeval.error_analysis(str(one), id="id", multilabel=True, min_count=1)
    # by hand: a|b → a misses b, a → a|b adds b, b → {} misses b, {} → b adds b; six times each
    assert {(c.category, c.kind): c.count for c in base.cells} == {("b", "false negatives"): 12,
                                                                  ("b", "false positives"): 12}
    for e in (None, Local(memory=4096), Dask(dask_client)):
        r = clfeval.error_analysis(str(preds), id="id", texts=str(texts), multilabel=True, min_count=1, engine=e)
        d, b = _plain(r), _plain(base)
        d["settings"].pop("text"), b["settings"].pop("text")
        assert d == b
