"""Rankings beyond memory equal the in-memory Ranking bit for bit, with spilling forced by a tiny budget."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score

from clfeval.errors import DataError, UsageError
from clfeval.scores._curves import SortedRanking, parse_objective, ranking, ranking_ovr
from clfeval.scores._external import MIN_MEMORY, RankingStore, parse_memory, stream_ranking
from clfeval.scores._streamovr import OvRStore, stream_binary, stream_ovr
from tests._helpers.outhelp import interruptible

SWEEP_FIELDS = ("thresholds", "tp", "fp", "fn", "tn", "precision", "recall", "fbeta", "tpr", "fpr", "cost")


def _data(rng, n, decimals):
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    s = np.round(rng.standard_normal(n) + y * rng.uniform(0, 2), decimals)  # heavy ties at few decimals
    return y, s


def _fill(store, y, s, rng):
    i = 0
    while i < y.size:
        k = int(rng.integers(1, 700))
        store.add(y[i:i + k], s[i:i + k])
        i += k


def _dump(d):
    return json.dumps(d, sort_keys=True)


@pytest.mark.parametrize("seed", range(6))
def test_equals_ranking_bit_for_bit_with_spilling_forced(seed, tmp_path):
    rng = np.random.default_rng(seed)
    y, s = _data(rng, int(rng.integers(3000, 9000)), decimals=seed % 3)
    rk = SortedRanking.from_indicator(y, s, "1")
    with RankingStore("1", memory=MIN_MEMORY, tmpdir=str(tmp_path)) as st_:
        _fill(st_, y, s, rng)
        r = st_.summary()
        assert r.spilled and r.runs > 2 and len(os.listdir(tmp_path)) == 1  # runs on disk, in one directory
        d = r.to_dict()
        assert d.pop("external")["spilled"] is True
        assert _dump(d) == _dump(rk.to_dict())  # AUC, AP, pair counts, curves, notes, signature
        assert r.roc_auc == rk.roc_auc and r.average_precision == rk.average_precision
        # independent oracles: scikit-learn, to rounding
        assert r.roc_auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
        assert r.average_precision == pytest.approx(average_precision_score(y, s), abs=1e-12)
        chunks = list(st_.sweep_chunks(beta=2.0, cost_fn=5.0))
        assert len(chunks) > 1
        full = rk.sweep(beta=2.0, cost_fn=5.0)
        for f in SWEEP_FIELDS:
            assert np.array_equal(np.concatenate([getattr(c, f) for c in chunks]), getattr(full, f), equal_nan=True)
        for objective in ("f1", "f2", "cost", "precision>=0.7", "recall>=0.6", "precision>=0.9999"):
            choice = st_.best_cut(objective)
            k = rk.best_cut(objective)
            assert choice.index == k
            obj = parse_objective(objective)
            sw = rk.sweep(beta=obj.beta, cost_fp=obj.cost_fp, cost_fn=obj.cost_fn)
            assert choice.row == (None if k is None else sw.row(k))
            p, _, thr = rk.pr_curve()
            assert choice.top_precision == (float(p[np.argmax(p)]), float(thr[np.argmax(p)]))
        assert st_.sweep_rows(9, beta=1.0) == rk.sweep().rows(9)
        for t in (float(s.min()), float(np.median(s)), float(s.max()), 1e9):
            assert st_.counts_at(t) == rk.counts_at(t)
        assert r.sweep_curves(beta=2.0) is not None
    assert os.listdir(tmp_path) == []  # closed: the runs and their directory are gone


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(-3, 3)), min_size=1, max_size=300), st.integers(1, 40))
def test_any_items_any_batches(items, batch):
    y = np.array([a for a, _ in items])
    s = np.array([float(b) for _, b in items])
    r = stream_ranking([(y[i:i + batch], s[i:i + batch]) for i in range(0, y.size, batch)], memory=MIN_MEMORY)
    rk = SortedRanking.from_indicator(y, s, "1")
    d = r.to_dict()
    d.pop("external")
    assert _dump(d) == _dump(rk.to_dict())


def test_fits_in_memory_then_nothing_is_written(tmp_path):
    rng = np.random.default_rng(1)
    y, s = _data(rng, 2000, 2)
    with RankingStore("1", memory="64MB", tmpdir=str(tmp_path)) as st_:
        _fill(st_, y, s, rng)
        r = st_.summary()
        assert not r.spilled and r.runs == 0 and os.listdir(tmp_path) == []
    assert r.roc_auc == SortedRanking.from_indicator(y, s, "1").roc_auc


def test_labelled_batches_and_one_vs_rest_equal_the_in_memory_results():
    rng = np.random.default_rng(2)
    labels = ["a", "b", "c"]
    gold = rng.choice(labels, 4000)
    scores = np.round(rng.random((4000, 3)), 2)
    batches = [(gold[i:i + 333], scores[i:i + 333]) for i in range(0, 4000, 333)]
    ovr = stream_ovr(batches, labels, memory=MIN_MEMORY)
    assert _dump(ovr.to_dict()) == _dump(ranking_ovr(gold, {x: scores[:, j] for j, x in enumerate(labels)}).to_dict())
    r = stream_binary([(g, s[:, 1]) for g, s in batches], positive="b", memory=MIN_MEMORY)
    d = r.to_dict()
    d.pop("external")
    assert _dump(d) == _dump(ranking(gold, scores[:, 1], positive="b").to_dict())
    with OvRStore(labels, memory=MIN_MEMORY) as store:
        for g, s in batches:
            store.add_gold(g, s)
        assert store.spilled  # one budget for the three labels and the micro ranking


def test_refusals():
    with pytest.raises(DataError, match="'z', which does not occur"):
        stream_binary([(["a", "b"], [0.1, 0.2])], positive="z")
    with pytest.raises(DataError, match="no items"):
        stream_binary([], positive="a")
    with pytest.raises(UsageError, match="memory must be a size"):
        parse_memory("lots")
    with pytest.raises(UsageError, match="at least"):
        parse_memory(10)
    assert parse_memory("1.5GiB") == 3 << 29
    with RankingStore("1", memory=MIN_MEMORY) as st_:
        st_.add(np.array([True, False]), np.array([0.3, 0.2]))
        st_.summary()
        with pytest.raises(UsageError, match="after the ranking was read"):
            st_.add(np.array([True]), np.array([0.1]))
        with pytest.raises(DataError, match="one score per item"):
            RankingStore("1").add(np.array([True, False]), np.array([0.1]))
    with RankingStore("1", memory=MIN_MEMORY) as st_:
        st_.add(np.arange(200) % 2 == 0, np.arange(200.0))
        with pytest.raises(UsageError, match="more than memory allows"):
            st_.sweep()


def test_an_error_mid_way_leaves_no_run_behind(tmp_path):
    def batches():
        rng = np.random.default_rng(3)
        for _ in range(20):
            yield rng.random(500) < 0.5, rng.random(500)
        raise RuntimeError("the reader broke")

    with pytest.raises(RuntimeError, match="reader broke"):
        stream_ranking(batches(), memory=MIN_MEMORY, tmpdir=str(tmp_path))
    assert os.listdir(tmp_path) == []


def test_sigterm_while_spilling_removes_the_runs(tmp_path):
    """The command line turns SIGTERM into Interrupted; the store's directory goes with the unwinding."""
    code = textwrap.dedent(f"""
        import os, signal, sys
        import numpy as np
        import clfeval.io._outputs as outputs
        from clfeval.errors import Interrupted
        from clfeval.scores._external import stream_ranking

        def on_term(signum, frame):
            raise Interrupted(signum)

        signal.signal(signal.SIGTERM, on_term)
        seen = []
        def checkpoint(step):
            if step == "spilled":
                seen.append(step)
                if len(seen) == 3:
                    os.kill(os.getpid(), signal.SIGTERM)
        outputs.checkpoint = checkpoint
        import clfeval.scores._external as ext
        ext.checkpoint = checkpoint
        rng = np.random.default_rng(0)
        try:
            stream_ranking(((rng.random(500) < 0.5, rng.random(500)) for _ in range(40)), memory=4096,
                           tmpdir={str(tmp_path)!r})
        except Interrupted as exc:
            sys.exit(exc.exit_code)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, preexec_fn=interruptible,
                         env={**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(__file__), "..", "..", "src")})
    assert out.returncode == 128 + signal.SIGTERM, out.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("typ", ["int8", "uint8", "int64", "uint64"])
def test_integer_gold_matches_positive_by_value_or_string_form(typ):
    """Integer gold columns take a fast path; the answer is the rule's: the label equal to the positive, or whose
    string form is the positive's (so "1" names 1, and "01", "-0", " 1", 1.5 and True name nothing)."""
    import pyarrow as pa

    from clfeval.scores._streamovr import batch_is_positive

    values = {"int8": [1, -1, 0, 2, 1, 127], "uint8": [1, 0, 255, 1], "int64": [1, -(2 ** 63), 2 ** 63 - 1, 0, 1],
              "uint64": [1, 2 ** 64 - 1, 0]}[typ]
    arr = pa.array(values, type=getattr(pa, typ)())
    for gold in (arr, pa.chunked_array([arr[:2], arr[2:]]), pa.chunked_array([arr])):
        for positive in (1, "1", 0, "0", -1, "-1", 255, "255", 2 ** 64 - 1, str(2 ** 64 - 1), 2 ** 63 - 1,
                         np.int64(1), np.uint8(0), 300, "01", "-0", " 1", "+1", True, 1.5):
            if isinstance(positive, str):
                want = [str(v) == positive for v in values]
            elif isinstance(positive, (bool, float)):
                want = [False] * len(values)  # a boolean never names an integer; 1.5 is no integer's string form
            else:
                want = [v == int(positive) for v in values]
            assert batch_is_positive(gold, positive).tolist() == want, (typ, positive)
    assert batch_is_positive(pa.chunked_array([], type=pa.int64()), 1).tolist() == []
