"""tests/_helpers/once.py: an expensive session fixture is computed by one pytest-xdist worker and loaded by the
others; without xdist, or after the first worker failed, each computes its own."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from tests._helpers.once import once_per_run


def _factory(root, worker):
    base = root / f"popen-{worker}"
    base.mkdir(parents=True, exist_ok=True)
    return SimpleNamespace(getbasetemp=lambda: base)


def test_one_worker_computes_and_the_others_load(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    calls = []

    def compute():
        calls.append(1)
        return {"pages": [1, 2, 3]}

    got = [once_per_run(_factory(tmp_path, w), "pages", compute) for w in ("gw0", "gw1", "gw2")]
    assert calls == [1] and got == [{"pages": [1, 2, 3]}] * 3
    assert got[1] is not got[0]  # loaded from the pickle, not shared in memory


def test_a_waiting_worker_gets_the_value_when_it_is_ready(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    started, release = threading.Event(), threading.Event()

    def slow():
        started.set()
        release.wait(10)
        return 42

    out = {}
    t = threading.Thread(target=lambda: out.setdefault("a", once_per_run(_factory(tmp_path, "gw0"), "v", slow)))
    t.start()
    started.wait(10)
    threading.Timer(0.3, release.set).start()
    assert once_per_run(_factory(tmp_path, "gw1"), "v", lambda: pytest.fail("computed twice")) == 42
    t.join(10)
    assert out["a"] == 42


def test_after_a_failure_the_others_compute_their_own(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")

    def broken():
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        once_per_run(_factory(tmp_path, "gw0"), "x", broken)
    assert once_per_run(_factory(tmp_path, "gw1"), "x", lambda: "own") == "own"


def test_without_xdist_it_computes_every_time(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    calls = []
    for _ in range(2):
        once_per_run(_factory(tmp_path, "gw0"), "y", lambda: calls.append(1))
    assert calls == [1, 1]
