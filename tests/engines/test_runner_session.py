"""The runner's session (one connection for several passes) and accumulate(unique=False) (an operation that uses
no ids reads none and checks none, as in memory)."""

from __future__ import annotations

import contextlib

import pytest

import clfeval
from clfeval.engines import Dask, Local
from clfeval.engines._runner import runner


@pytest.fixture
def counted(monkeypatch):
    """Dask.connected replaced by one that counts its openings and yields a stand-in client."""
    opened = []

    @contextlib.contextmanager
    def connected(self):
        opened.append(1)
        yield f"client {len(opened)}"

    monkeypatch.setattr(Dask, "connected", connected)
    return opened


def test_a_session_opens_one_connection_for_every_pass(counted):
    run = runner(Dask())
    with run.session():
        with run.connected() as a, run.session(), run.connected() as b:
            pass
    assert (a, b) == ("client 1", "client 1")
    assert len(counted) == 1
    with run.connected() as c:  # outside the session: a connection per pass again
        pass
    assert c == "client 2" and len(counted) == 2


def test_the_local_session_is_the_runner_itself():
    run = runner(Local())
    with run.session() as same:
        assert same is run


def test_calibration_on_dask_connects_once_for_its_sums_and_its_ranking(dask_client, monkeypatch, tmp_path):
    opened = []
    real = Dask.connected

    @contextlib.contextmanager
    def connected(self):
        opened.append(1)
        with real(self) as client:
            yield client

    monkeypatch.setattr(Dask, "connected", connected)
    f = tmp_path / "p.csv"
    f.write_text("gold,prob\n1,0.9\n0,0.2\n1,0.6\n0,0.4\n")
    c = clfeval.calibration(str(f), prob="prob", positive=1, bins=2, engine=Dask(client=dask_client))
    assert c.roc_auc == 1.0 and c.n == 4
    assert len(opened) == 1  # two passes (the sums, the ranking), one connection


@pytest.mark.parametrize("engine", ["memory", "streamed", "dask"])
def test_calibration_reads_no_ids_and_so_takes_repeated_ones(engine, dask_client, tmp_path):
    # calibration uses no ids: a file whose id column repeats is calibrated as in memory, not refused
    f = tmp_path / "p.csv"
    f.write_text("id,gold,prob\na,1,0.9\na,0,0.2\nb,1,0.6\nb,0,0.4\n")
    eng = {"memory": None, "streamed": Local(memory=4096), "dask": Dask(client=dask_client)}[engine]
    c = clfeval.calibration(str(f), prob="prob", positive=1, bins=2, engine=eng)
    # by hand: bin [0, .5) holds 0.2, 0.4 (no positive), bin [.5, 1] holds 0.9, 0.6 (both positive)
    assert c.n == 4
    assert [(b.count, b.accuracy) for b in c.bins] == [(2, 0.0), (2, 1.0)]
    assert [b.confidence for b in c.bins] == pytest.approx([0.3, 0.75])
