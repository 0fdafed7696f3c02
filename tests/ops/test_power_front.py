"""``clfeval.power`` (issue 39): the front door of "is my test set big enough?".

- the library call gives the command's JSON (one call of the library behind the command), the engine block apart;
- Local (in memory, and spilled: the tables counted by the runner) and Dask (the session's LocalCluster on
  127.0.0.1) give the same JSON;
- an independent check: the exact McNemar power of the counted table against brute-force enumeration with
  scipy.stats.binom (the counts n_AB and n_BA counted by hand from the arrays), the width's n by hand;
- the result is one frozen type whatever the question, with its table and its refusals.
"""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
from scipy.stats import binom

import clfeval
from clfeval.engines import Dask, Local
from clfeval.errors import UsageError
from tests._helpers.clihelp import run


def _plain(r) -> dict:
    d = json.loads(json.dumps(r.to_dict(), default=str))
    d.pop("engine", None)
    return d


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    rng = np.random.default_rng(39)
    n = 240
    gold = rng.choice(["x", "y", "z"], n)
    a = np.where(rng.random(n) < 0.8, gold, rng.choice(["x", "y", "z"], n))
    b = np.where(rng.random(n) < 0.7, gold, rng.choice(["x", "y", "z"], n))
    root = tmp_path_factory.mktemp("power")
    order = rng.permutation(n)  # B's file in another order: matched by id
    (root / "a.csv").write_text("id,gold,pred\n" + "".join(f"i{i},{gold[i]},{a[i]}\n" for i in range(n)))
    (root / "b.csv").write_text("id,gold,pred\n" + "".join(f"i{i},{gold[i]},{b[i]}\n" for i in order))
    return {"gold": gold, "a": a, "b": b, "fa": str(root / "a.csv"), "fb": str(root / "b.csv")}


@pytest.mark.parametrize("args, kw", [
    (("--delta", "0.05"), dict(delta=0.05)),
    (("--metric", "macro_f1", "--samples", "300", "--delta", "0.04"), dict(metric="macro_f1", samples=300,
                                                                             delta=0.04)),
    (("--alternative", "two-sided", "--alpha", "0.01"), dict(alternative="two-sided", alpha=0.01)),
])
def test_the_library_call_is_the_commands_json_two_files(pair, args, kw):
    res = run("power", pair["fa"], pair["fb"], *args, "--format", "json")
    assert res.code == 0, res.err
    cli = json.loads(res.out)
    lib = clfeval.power(pair["fa"], pair["fb"], **kw)
    assert cli["engine"]["mode"] == lib.engine.mode == "streamed"
    assert {k: v for k, v in cli.items() if k != "engine"} == _plain(lib)


def test_the_library_call_is_the_commands_json_one_file(pair):
    res = run("power", pair["fa"], "--metric", "macro_f1", "--width", "0.02", "--samples", "400", "--format", "json")
    assert res.code == 0, res.err
    lib = clfeval.power(pair["fa"], metric="macro_f1", width=0.02, samples=400)
    assert {k: v for k, v in json.loads(res.out).items() if k != "engine"} == _plain(lib)
    assert lib.kind == "width" and lib.required_n == math.ceil(240 * (lib.width.width / 0.02) ** 2)  # n·(w/W)²


def _brute_power(n: int, n_ab: int, n_ba: int, delta: float, alpha: float) -> float:
    """Exact power of the one-sided exact McNemar test at n for δ, the discordant share kept at (n_ab + n_ba)/n:
    Σ_d P(D = d) P(X ≥ c_d), c_d the smallest c with P(Bin(d, ½) ≥ c) < α (scipy.stats.binom only)."""
    p_d = (n_ab + n_ba) / n
    pi = (1 + delta / p_d) / 2
    total = 0.0
    for d in range(n + 1):
        c = next((c for c in range(d + 2) if binom.sf(c - 1, d, 0.5) < alpha), d + 1)
        total += binom.pmf(d, n, p_d) * binom.sf(c - 1, d, pi)
    return total


def test_the_mcnemar_power_of_the_counted_table_against_enumeration(pair):
    g, a, b = pair["gold"], pair["a"], pair["b"]
    n_ab, n_ba = int(np.sum((a == g) & (b != g))), int(np.sum((a != g) & (b == g)))
    for inp in ((a, b), (pair["fa"], pair["fb"])):
        r = clfeval.power(*inp, gold=g if inp[0] is a else None, delta=0.06)
        assert r.kind == "mcnemar" and (r.mcnemar.n_ab, r.mcnemar.n_ba, r.n) == (n_ab, n_ba, 240)
        assert r.mcnemar.power_at_n == pytest.approx(_brute_power(240, n_ab, n_ba, 0.06, 0.05), abs=1e-9)


def test_local_in_memory_spilled_and_dask_give_the_same_json(pair, dask_client):
    calls = [lambda e: clfeval.power(pair["fa"], pair["fb"], delta=0.05, engine=e),
             lambda e: clfeval.power(pair["fa"], pair["fb"], metric="macro_f1", samples=200, seed=3, engine=e),
             lambda e: clfeval.power(pair["fa"], width=0.05, samples=200, engine=e),
             lambda e: clfeval.power(pair["a"], pair["b"], gold=pair["gold"], metric="f1:x", samples=200, engine=e)]
    for call in calls:
        here = call(Local())
        spilled = call(Local(memory=4096))
        there = call(Dask(dask_client))
        assert there.engine.name == "dask" and there.engine.mode == "cluster"
        assert _plain(here) == _plain(spilled) == _plain(there)


def test_one_frozen_type_its_table_and_its_refusals(pair):
    r = clfeval.power(pair["a"], pair["b"], gold=pair["gold"], metric="macro_f1", samples=200)
    assert type(r) is clfeval.PowerResult and r.kind == "bootstrap" and r.engine.mode == "memory"
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.bootstrap = None  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.bootstrap.notes.append("x")  # type: ignore[union-attr]
    pytest.importorskip("pandas")
    row = r.to_frame().iloc[0]
    assert row["kind"] == "bootstrap" and row["detectable_delta"] == pytest.approx(r.bootstrap.detectable_delta)
    for kw, needle in ((dict(b=pair["b"], width=0.02), "option width is about one system"),
                       (dict(delta=0.02), "option delta is the difference between two systems"),
                       (dict(b=pair["b"], metric="roc_auc"), "is a metric of scores"),
                       (dict(b=pair["b"], gold="gold"), "gives the gold labels")):
        gold = pair["gold"] if "gold" not in kw else kw.pop("gold")
        with pytest.raises(UsageError, match=needle):
            clfeval.power(pair["a"], gold=gold, **kw)
    with pytest.raises(UsageError, match="the Dask join matches ids"):
        clfeval.power(pair["fa"], pair["fb"], repeat="1", engine=Dask("tcp://127.0.0.1:1"))


def test_rank_refuses_dask_with_the_tables_reason():
    with pytest.raises(UsageError, match="a table of systems × data sets fits in memory: nothing to distribute"):
        clfeval.rank({"dataset": ["d1", "d2"], "A": [0.9, 0.8], "B": [0.7, 0.6]}, metric="accuracy",
                     engine=Dask("tcp://127.0.0.1:1"))


def test_one_file_of_several_repeats_is_refused_without_repeat(tmp_path):
    """An out-of-fold file holding each item once per repeat: its rows are not independent items, so the width of
    an interval over all of them would be too narrow; refused (library and command) unless one repeat is chosen,
    and with it the n is that repeat's."""
    from clfeval.errors import DataError

    path = tmp_path / "oof.csv"
    path.write_text("id,repeat,gold,pred\n1,0,a,a\n2,0,b,a\n1,1,a,b\n2,1,b,b\n3,0,a,a\n3,1,a,a\n")
    with pytest.raises(DataError, match=r"holds 2 repeats of the same items .*--repeat"):
        clfeval.power(str(path))
    res = run("power", str(path))
    assert res.code == 1 and "holds 2 repeats" in res.err and not res.out
    got = clfeval.power(str(path), repeat="1").to_dict()
    assert got["n"] == 3
