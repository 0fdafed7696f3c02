"""One cut per label, streamed: choose_label_thresholds_batches and ``clfeval threshold --scores-prefix`` equal the
in-memory choose_label_thresholds bit for bit (spilled within a tiny --memory), plus their ``external`` block."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from clfeval.errors import DataError
from clfeval.scores._thresholds import choose_label_thresholds, choose_label_thresholds_batches
from tests._helpers.clihelp import assert_clean_error, run

LABS = ["a", "b", "c", "d"]


def _data(n: int, rng: np.random.Generator, *, single: bool = False) -> tuple[list[str], np.ndarray]:
    """Label sets (or exactly one label per item) and heavily tied scores; label d is rare."""
    if single:
        y = np.eye(len(LABS), dtype=bool)[rng.choice(len(LABS), n, p=[0.4, 0.3, 0.25, 0.05])]
    else:
        y = rng.random((n, len(LABS))) < np.array([0.4, 0.3, 0.2, 0.02])
    s = np.round(rng.random((n, len(LABS))) * 0.8 + 0.25 * y, 1)
    return ["|".join(lab for lab, on in zip(LABS, row, strict=True) if on) for row in y], s


def _batches(g, s, k=53):
    return [(g[i:i + k], s[i:i + k]) for i in range(0, len(g), k)]


def _dump(d) -> str:
    return json.dumps(d, sort_keys=True)


def _subset_accuracy(gold: list[str], s: np.ndarray, cuts: np.ndarray) -> float:
    """By hand: the share of items whose predicted set (score >= the label's cut) is exactly the gold set."""
    hits = sum(set(g.split("|")) - {""} == {lab for lab, on in zip(LABS, row >= cuts,
                                                                   strict=True) if on} for g, row in zip(gold, s,
                                                                                                         strict=True))
    return hits / len(gold)


def test_label_batches_equal_choose_label_thresholds_bit_for_bit_when_spilled():
    """Multi-label and single-label (one-vs-rest) data, logit scores (default cut 0), a given default, labels
    without dev or test positives, every objective, refusals included; the second pass's subset accuracy
    checked by hand."""
    rng = np.random.default_rng(13)
    spilled = 0
    for trial in range(5):
        n, m = int(rng.integers(1, 700)), int(rng.integers(2, 700))
        (g, s), (d, ds) = _data(n, rng, single=trial == 1), _data(m, rng, single=trial == 1)
        if trial == 2:
            s, ds = s * 4 - 2, ds * 4 - 2
        if trial == 3:
            d = [x.replace("d", "").strip("|").replace("||", "|") for x in d]  # no dev positive for d
        for obj in ("f1", "f2", "cost", "precision>=0.6", "recall>=0.8", "precision>=0.9999"):
            kw = dict(objective=obj, cost_fp=2.0, cost_fn=0.5, default_threshold=0.3 if trial == 4 else None)
            try:
                res = choose_label_thresholds(g, dict(zip(LABS, s.T, strict=True)), dev_gold=d,
                                              dev_scores=dict(zip(LABS, ds.T, strict=True)),
                                              **kw)
                want = _dump(res.to_dict())
                tuned = np.array([e.test.threshold for e in res.per_label.values()])
                assert res.averages["tuned"].subset_accuracy == _subset_accuracy(g, s, tuned)
            except DataError as exc:
                want = f"refused: {exc}"
            try:
                got = choose_label_thresholds_batches(lambda g=g, s=s: _batches(g, s), _batches(d, ds), labels=LABS,
                                                      memory=4096, **kw).to_dict()
                spilled += got.pop("external")["spilled"]
                got = _dump(got)
            except DataError as exc:
                got = f"refused: {exc}"
            assert got == want, (trial, obj)
        alone = choose_label_thresholds_batches(lambda g=g, s=s: _batches(g, s), labels=LABS, memory=4096).to_dict()
        alone.pop("external")
        assert _dump(alone) == _dump(choose_label_thresholds(g, dict(zip(LABS, s.T, strict=True))).to_dict())
    assert spilled > 10  # most choices really spilled


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Test items as a CSV file and as a directory of Parquet files (one of them empty); dev items as CSV."""
    root = tmp_path_factory.mktemp("labthr")
    rng = np.random.default_rng(7)
    (g, s), (d, ds) = _data(900, rng), _data(600, rng)
    out = {"g": g, "s": s, "d": d, "ds": ds}
    for name, gold, sc in (("test", g, s), ("dev", d, ds)):
        lines = ["gold," + ",".join(f"p:{lab}" for lab in LABS)]
        lines += [f"{x}," + ",".join(f"{v:g}" for v in row) for x, row in zip(gold, sc, strict=True)]
        out[name] = root / f"{name}.csv"
        out[name].write_text("\n".join(lines) + "\n")
    parts = root / "parts"
    parts.mkdir()
    t = pa.table({"gold": g, **{f"p:{lab}": s[:, j] for j, lab in enumerate(LABS)}})
    for i, (lo, hi) in enumerate([(0, 0), (0, 1), (1, 400), (400, 900)]):
        pq.write_table(t.slice(lo, hi - lo), parts / f"part-{i}.parquet", row_group_size=100)
    out["parts"] = parts
    return out


def _json(*args) -> dict:
    res = run(*args, "--format", "json")
    assert res.code == 0, res.err
    return json.loads(res.out)


@pytest.mark.parametrize("obj", ["f1", "cost"])
def test_threshold_scores_prefix_streams_the_in_memory_numbers(files, obj, monkeypatch):
    """A directory of Parquet files (an empty one among them), the CSV file, and standard input (read twice: kept
    in memory, and spooled to a temporary file), within --memory 4096: the in-memory JSON bit for bit, and an
    external block saying it spilled."""
    from clfeval.io._source import Source

    f = files
    local = _dump(choose_label_thresholds(f["g"], dict(zip(LABS, f["s"].T, strict=True)), dev_gold=f["d"],
                                          dev_scores=dict(zip(LABS, f["ds"].T, strict=True)), objective=obj).to_dict())
    args = ["--dev", f["dev"], "--scores-prefix", "p:", "--multilabel", "--objective", obj, "--memory", "4096"]
    spool = Source.from_stream.__func__
    for test, spool_at in ((f["parts"], None), (f["test"], None), ("-", None), ("-", 100)):
        if test == "-":
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(f["test"].read_bytes())))
            monkeypatch.setattr(Source, "from_stream", classmethod(
                lambda cls, stream, _m=spool_at, **kw: spool(cls, stream, **{**kw, **({"memory": _m} if _m else {})})))
        out = _json("threshold", test, *args)
        ext = out.pop("external")
        out.pop("engine")  # the front door's engine block (issue 21): where it ran, not what it computed
        assert ext["spilled"] is True and ext["runs"] >= 2 and ext["memory"] == 4096
        assert _dump(out) == local, (test, spool_at)


def test_threshold_scores_prefix_says_whether_it_spilled_and_refuses_clearly(files, tmp_path):
    f = files
    args = ["threshold", f["test"], "--dev", f["dev"], "--scores-prefix", "p:", "--multilabel"]
    assert _json(*args)["external"] == {"memory": 1 << 30, "spilled": False, "runs": 0}
    assert "spill" not in run(*args).out  # issue 19: said only when it spilled
    assert "spilled to disk" in run(*args, "--memory", "4KiB").out
    dev = tmp_path / "dev.csv"
    dev.write_text("gold,p:a,p:b\na,0.9,0.1\n")
    assert_clean_error(run(*args[:2], "--dev", dev, *args[4:]), 1, "no score column for 'p:c', 'p:d'")
    dev.write_text("gold,p:a,p:b,p:c,p:d\na|e,0.9,0.1,0.2,0.3\n")
    assert_clean_error(run(*args[:2], "--dev", dev, *args[4:]), 1, "'e'", "no score column")
    dev.write_text("gold,p:a,p:b,p:c,p:d\na,0.9,x,0.2,0.3\n")
    assert_clean_error(run(*args[:2], "--dev", dev, *args[4:]), 1, "p:b", "dev.csv")
