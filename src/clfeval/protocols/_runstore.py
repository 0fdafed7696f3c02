"""The SQLite storage under the run log: connections, a look at an existing file, transactions.

:class:`RunStore` is what :class:`clfeval.protocols._runlog.RunLog` stands on:

* an existing file is looked at through a read-only connection first, and
  refused untouched when it is not a clfeval run log (another SQLite
  database, or no database at all);
* a new log is created, and switched to WAL mode, at its first write only;
* every write is one ``BEGIN IMMEDIATE`` transaction with a busy timeout and
  retries; the run's output files are put in place just before COMMIT, both
  with SIGINT and SIGTERM held back (:func:`clfeval.io._outputs.deferred_signals`);
* a read-only store never writes the database, its directory or its
  ``-wal``/``-shm`` files, so queries work in a directory clfeval may not write,
  and a look at a log no one has open leaves no ``-wal``/``-shm`` files behind.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from clfeval.errors import DataError, UsageError
from clfeval.io import deferred_signals, outputs as _outputs

__all__ = ["RunStore", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    command TEXT NOT NULL,
    data_path TEXT,
    data_hash TEXT,
    task TEXT,
    seed INTEGER,
    settings TEXT NOT NULL,
    protocol TEXT NOT NULL,
    versions TEXT NOT NULL,
    predictions TEXT,
    result TEXT
);
CREATE TABLE IF NOT EXISTS metrics (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    mean REAL, std REAL, min REAL, max REAL, n INTEGER,
    PRIMARY KEY (run_id, name)
);
CREATE TABLE IF NOT EXISTS folds (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    repeat INTEGER NOT NULL,
    fold INTEGER NOT NULL,
    metrics TEXT NOT NULL,
    PRIMARY KEY (run_id, repeat, fold)
);
CREATE INDEX IF NOT EXISTS runs_data ON runs(data_hash);
CREATE INDEX IF NOT EXISTS metrics_name ON metrics(name);
"""


class RunStore:
    """A SQLite database of runs: safe connections and transactions (see the module docstring)."""

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 30.0, retries: int = 20,
                 readonly: bool = False) -> None:
        self.path = Path(path)
        self.timeout = float(timeout)
        self.retries = int(retries)
        self.readonly = bool(readonly)
        if self.path.exists() and self.path.is_dir():
            raise UsageError(f"the run log {str(self.path)!r} is a directory; give a database file name.")
        parent = self.path.parent if str(self.path.parent) else Path(".")
        if not parent.is_dir():
            raise UsageError(f"the directory of the run log {str(self.path)!r} does not exist.")
        self._ready = False
        if self.path.exists() and self.path.stat().st_size > 0:
            self._inspect()

    # -- connection and transactions ---------------------------------------------------------
    def _connect(self, *, readonly: bool | None = None) -> sqlite3.Connection:
        """A connection; read-only ones never write the database, its directory or its -wal/-shm files."""
        ro = self.readonly if readonly is None else readonly
        try:
            if ro:
                from urllib.parse import quote

                # A WAL database needs its -shm file, which a directory we may not write cannot hold: there the
                # file is read as it is ("immutable"; nobody who may not write the directory can change it).
                # Where no -wal file exists, no connection is open and every write is in the database file: it
                # is read as it is too, so that a look leaves no -wal/-shm files behind (a read-only connection
                # could not remove them at its end).
                directory = self.path.parent if str(self.path.parent) else Path(".")
                quiet = not Path(f"{self.path}-wal").exists() and not Path(f"{self.path}-shm").exists()
                frozen = quiet or (not os.access(directory, os.W_OK) and not Path(f"{self.path}-shm").exists())
                uri = f"file:{quote(str(self.path.absolute()))}?mode=ro" + ("&immutable=1" if frozen else "")
                con = sqlite3.connect(uri, uri=True, timeout=self.timeout, isolation_level=None)
            else:
                con = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            con.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            if not ro:
                con.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as exc:
            raise UsageError(f"cannot open the run log {str(self.path)!r}: {exc}.") from None
        return con

    def _inspect(self) -> None:
        """Refuse, without touching it, an existing file that is not a clfeval run log (read-only look)."""
        con = self._connect(readonly=True)
        try:
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            version = con.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise DataError(f"{str(self.path)!r} is not a clfeval run log (SQLite said: {exc}); give another "
                            f"--runs-db, or move the file away.") from None
        finally:
            con.close()
        if tables and not {"runs", "metrics", "folds"} <= tables:
            shown = ", ".join(sorted(tables)[:10])
            raise DataError(f"{str(self.path)!r} is an SQLite database but not a clfeval run log (its tables: "
                            f"{shown}); it was left as it is. Give another --runs-db.")
        if version > SCHEMA_VERSION:
            raise DataError(f"the run log {str(self.path)!r} was written by a newer clfeval (schema {version}); "
                            f"upgrade clfeval to read it.")

    def _retrying(self, fn: Any, what: str) -> Any:
        """Run ``fn(connection)`` on a fresh connection, retrying with backoff while the database is locked."""
        delay = 0.05
        for attempt in range(self.retries):
            con = self._connect()
            try:
                return fn(con)
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise DataError(f"the run log {str(self.path)!r} cannot {what}: {exc}.") from None
                if attempt == self.retries - 1:
                    raise DataError(f"the run log {str(self.path)!r} stayed locked by another process for "
                                    f"{self.retries} attempts; try again.") from None
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
            except sqlite3.DatabaseError as exc:
                raise DataError(f"{str(self.path)!r} is not a clfeval run log (SQLite said: {exc}).") from None
            finally:
                con.close()
        raise AssertionError("unreachable")  # pragma: no cover

    def _write(self, fn: Any, *, publish: Callable[[], None] | None = None) -> Any:
        """Run ``fn(connection)`` inside one BEGIN IMMEDIATE transaction, retrying when locked.

        ``publish()`` (putting the run's output files in place) runs just before
        COMMIT, both with SIGINT and SIGTERM held back: a signal then lets the
        run and its outputs complete, and takes effect after.
        """
        if self.readonly:
            raise UsageError(f"the run log {str(self.path)!r} was opened read-only.")
        self._ensure_schema()

        def transaction(con: sqlite3.Connection) -> Any:
            con.execute("BEGIN IMMEDIATE")
            try:
                out = fn(con)
                with deferred_signals():
                    if publish is not None:
                        publish()
                        _outputs.checkpoint("published")
                    con.execute("COMMIT")
                return out
            except BaseException:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise

        return self._retrying(transaction, "be written")

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[sqlite3.Row]:
        if not self.path.exists() or self.path.stat().st_size == 0:
            return []  # nothing recorded yet
        con = self._connect()
        try:
            con.row_factory = sqlite3.Row
            return con.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise DataError(f"{str(self.path)!r} is not a readable clfeval run log (SQLite said: {exc}).") from None
        finally:
            con.close()

    def _ensure_schema(self) -> None:
        """Create the tables (first write only) and switch the database to WAL mode."""
        if self._ready:
            return

        def setup(con: sqlite3.Connection) -> None:
            con.execute("BEGIN IMMEDIATE")
            try:
                for stmt in _SCHEMA.split(";"):
                    if stmt.strip():
                        con.execute(stmt)
                version = con.execute("PRAGMA user_version").fetchone()[0]
                if version == 0:
                    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                con.execute("COMMIT")
            except BaseException:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise

        def wal(con: sqlite3.Connection) -> None:
            mode = con.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise DataError(f"the run log {str(self.path)!r} could not be switched to WAL mode (got {mode}).")

        if self.path.exists() and self.path.stat().st_size > 0:
            self._inspect()  # it may have been replaced since it was opened
        self._retrying(wal, "be opened")  # switching to WAL needs a moment without other writers
        self._retrying(setup, "be set up")
        self._ready = True
