"""Issue 25: ``--texts FILE`` joined to the predictions by id through compare's id join, within ``--memory``.

The same analysis as with a text column, in memory and through hash partitions on disk; ids missing,
repeated in either file, non-UTF-8 bytes and a 50 MB document named in one sentence; and a texts file
larger than the budget read with the peak memory of the process bounded (a child process, its RSS).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

import clfeval
from clfeval.engines import Dask, Local
from clfeval.errors import ClfevalError, DataError

WORDS = [f"w{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}" for i in range(200)]


def corpus(n=1500, seed=11):
    rng = np.random.default_rng(seed)
    gold, pred, text = [], [], []
    for _ in range(n):
        g = "ABC"[rng.integers(0, 3)]
        words = list(rng.choice(WORDS, 15))
        p = g
        if g == "A" and rng.random() < 0.15:
            p, words = "C", words + ["zebra"]
        elif rng.random() < 0.05:
            p = "ABC"[rng.integers(0, 3)]
        gold.append(g), pred.append(p), text.append(" ".join(words))
    return {"id": [f"d{i * 5}" for i in range(n)], "gold": gold, "pred": pred, "text": text}


def _plain(r):
    d = json.loads(json.dumps(r.to_dict(), default=str))
    d.pop("engine")
    d["settings"].pop("text")
    return d


def test_texts_file_gives_the_analysis_of_the_text_column_in_memory_on_disk_and_on_dask(tmp_path, dask_client):
    d = corpus()
    preds = tmp_path / "preds"
    preds.mkdir()
    t = pa.table({"id": d["id"], "gold": d["gold"], "pred": d["pred"]})
    for k, (lo, hi) in enumerate([(0, 500), (500, 501), (501, 1500)]):
        pq.write_table(t.slice(lo, hi - lo), preds / f"p{k}.parquet")
    # the texts in another order, split differently, with documents that were never classified
    order = np.random.default_rng(1).permutation(len(d["id"]))
    docs = pa.table({"id": [d["id"][i] for i in order] + ["extra1", "extra2"],
                     "text": [d["text"][i] for i in order] + ["never classified", "zebra zebra"]})
    texts = tmp_path / "texts.csv"
    pcsv.write_csv(docs, texts)
    base = clfeval.error_analysis(d["gold"], d["pred"], text=d["text"], ids=d["id"], seed=3)
    assert base.cells[0].terms_vs_gold[0].term == "zebra"
    runs = [clfeval.error_analysis(str(preds), id="id", texts=str(texts), seed=3),
            clfeval.error_analysis(str(preds), id="id", texts=str(texts), seed=3, engine=Local(memory=64 << 10)),
            clfeval.error_analysis(t.to_pandas(), id="id", texts=str(texts), seed=3, engine=Local(memory=8192)),
            clfeval.error_analysis(str(preds), id="id", texts=str(texts), seed=3, engine=Dask(dask_client))]
    for r in runs:
        assert _plain(r) == _plain(base)
    assert runs[0].settings.text == "a --texts file joined by id"


def _csv(path, text):
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("memory", [1 << 30, 4096])  # one partition in memory; many on disk
def test_defects_are_named_at_their_first_place_whatever_the_partitions(tmp_path, memory):
    eng = Local(memory=memory)
    preds = _csv(tmp_path / "p.csv", "id,gold,pred\n" + "".join(f"{i},a,{'b' if i % 2 else 'a'}\n"
                                                                 for i in range(1, 60)))
    good = "id,text\n" + "".join(f"{i},zebra {i}\n" for i in range(1, 60))
    missing = _csv(tmp_path / "m.csv", good.replace("17,zebra 17\n", "").replace("40,zebra 40\n", ""))
    with pytest.raises(DataError, match=r"p\.csv', row 17 \(line 18\): id '17' has no text in the --texts "
                                        r"file \(2 items of the predictions have none\)"):
        clfeval.error_analysis(preds, id="id", texts=missing, engine=eng)
    twice = _csv(tmp_path / "t.csv", good + "33,again\n12,and again\n")
    with pytest.raises(DataError, match=r"t\.csv', row 60 \(line 61\): id '33' has a second text \(the first "
                                        r"at file '[^']*t\.csv', row 33 \(line 34\)\) in --texts"):
        clfeval.error_analysis(preds, id="id", texts=twice, engine=eng)
    dup = _csv(tmp_path / "d.csv", "id,gold,pred\n1,a,b\n2,a,b\n1,a,a\n")
    with pytest.raises(DataError, match=r"d\.csv', row 3 \(line 4\): id '1' is repeated \(first at file "
                                        r"'[^']*d\.csv', row 1 \(line 2\)\)"):
        clfeval.error_analysis(dup, id="id", texts=_csv(tmp_path / "g.csv", good), engine=eng)
    bad = tmp_path / "b.csv"
    bad.write_bytes(b"id,text\n1,fine\n2,caf\xe9\n")
    with pytest.raises(ClfevalError, match="UTF-8") as e:
        clfeval.error_analysis(preds, id="id", texts=str(bad), engine=eng)
    assert "b.csv" in str(e.value)


def test_non_utf8_bytes_in_a_parquet_texts_file_name_the_row(tmp_path):
    preds = _csv(tmp_path / "p.csv", "id,gold,pred\n1,a,b\n2,a,a\n")
    pq.write_table(pa.table({"id": ["1", "2"], "text": pa.array([b"ok", b"caf\xe9"], pa.binary())}),
                   tmp_path / "t.parquet")
    with pytest.raises(DataError, match=r"row 2.*not UTF-8"):
        clfeval.error_analysis(preds, id="id", texts=str(tmp_path / "t.parquet"))


def test_a_50_mb_document_in_the_texts_file_is_counted_on_its_first_million_characters(tmp_path):
    big = "zebra " * (50 * 1024 * 1024 // 6)
    pq.write_table(pa.table({"id": ["1", "2", "3"], "text": [big, "x", "y"]}), tmp_path / "t.parquet")
    preds = _csv(tmp_path / "p.csv", "id,gold,pred\n1,a,b\n2,a,b\n3,a,a\n")
    r = clfeval.error_analysis(preds, id="id", texts=str(tmp_path / "t.parquet"), min_count=1,
                               engine=Local(memory=64 << 20))
    assert r.prior.tokens == 1_000_000 // 6 + 1 + 2  # 'zebra ' × 166,666, then 'zebr' of the cut one, x, y
    assert any("1 documents are longer than 1,000,000 characters" in x for x in r.notes)
    assert r.cell("a", "b").count == 2


# the child's own peak (VmHWM): not getrusage's ru_maxrss, which Linux carries over fork and exec from the
# parent (this test process)
_CHILD = """
import sys
import clfeval
from clfeval.engines import Local
r = clfeval.error_analysis(sys.argv[1], id="id", texts=sys.argv[2], engine=Local(memory="64MiB"), min_count=1)
assert r.prior["documents"] == 2000, r.prior
print(next(int(x.split()[1]) for x in open("/proc/self/status") if x.startswith("VmHWM:")))
"""


def _peak_kib(preds, texts):
    env = {**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(__file__), "..", "..", "src")}
    out = subprocess.run([sys.executable, "-c", _CHILD, str(preds), str(texts)], capture_output=True, text=True,
                         env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.split()[-1])


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="peak RSS read from /proc (Linux)")
def test_a_texts_file_larger_than_the_budget_keeps_the_peak_memory_bounded(tmp_path):
    rng = np.random.default_rng(0)
    n_docs, n_pred = 160_000, 2000
    ids = [f"doc{i}" for i in range(n_docs)]
    preds = tmp_path / "p.csv"
    pick = rng.choice(n_docs, n_pred, replace=False)
    pcsv.write_csv(pa.table({"id": [ids[i] for i in pick], "gold": rng.choice(["a", "b"], n_pred),
                             "pred": rng.choice(["a", "b"], n_pred)}), preds)
    chunk = " ".join(WORDS) * 2  # ~2 KB a document
    big, small = tmp_path / "big.parquet", tmp_path / "small.parquet"
    with pq.ParquetWriter(big, pa.schema([("id", pa.string()), ("text", pa.string())])) as w:
        for lo in range(0, n_docs, 4000):  # row groups of ~6 MiB (pyarrow reads a row group's pages at once)
            w.write_table(pa.table({"id": ids[lo:lo + 4000], "text": [f"{i} {chunk}" for i in range(lo, lo + 4000)]}))
    pq.write_table(pa.table({"id": [ids[i] for i in pick], "text": [chunk] * n_pred}), small)
    text_bytes = n_docs * len(chunk)  # ~245 MiB of text, the budget 64 MiB
    assert text_bytes > 3 * (64 << 20)
    base, peak = _peak_kib(preds, small), _peak_kib(preds, big)
    # held in memory (one dict, id → text) the texts alone would add more than text_bytes
    assert (peak - base) * 1024 < text_bytes / 3, (base, peak)
