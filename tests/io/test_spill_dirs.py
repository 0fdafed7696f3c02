"""Spill directories (io/_spill.py): a live run's directory is never removed by another run's sweep."""

from __future__ import annotations

import os
from pathlib import Path


def test_a_sweep_between_making_and_locking_never_removes_a_live_directory(tmp_path, monkeypatch):
    """Another run's sweep may look at a spill directory while it is being made: after the lock file exists and
    before its lock is held it would take the lock and remove the directory (seen once under load: 'cannot write a
    sorted run to ...: No such file or directory'). The sweep runs at that very moment here."""
    from clfeval.io import _spill

    real, swept = _spill._try_lock, []

    def lock_after_a_sweep(fd):
        if not swept:
            swept.append(True)
            held, _spill._held = _spill._held, {}  # the sweep of another process: it holds none of ours
            try:
                _spill.sweep_stale(str(tmp_path))
            finally:
                _spill._held = held
        return real(fd)

    monkeypatch.setattr(_spill, "_try_lock", lock_after_a_sweep)
    path = _spill.make_spill_directory(str(tmp_path))
    try:
        assert swept and os.path.isdir(path)
        (Path(path) / "run-0").write_bytes(b"x")  # the run can write its sorted runs
        assert sorted(os.listdir(tmp_path)) == [os.path.basename(path)]  # nothing else left behind
    finally:
        _spill.remove_spill_directory(path)
