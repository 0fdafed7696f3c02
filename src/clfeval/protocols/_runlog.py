"""The run log: every experiment recorded, so the one submitted is the one that won.

A SQLite database (standard library, WAL mode; the command line's default is
``./clfeval-runs.sqlite``) with one row per run of ``clfeval cv``,
``clfeval holdout`` (and ``clfeval reuters``): its settings, seed, protocol,
library versions, timestamp, the content hash of its data file, per-fold and
summary metrics, and the path of its out-of-fold predictions, kept as Parquet
in a directory beside the database.

Queries follow the experiment loop (baseline → iterate → ablate one factor
at a time → submit the best row):

* :meth:`RunLog.runs` — every run, newest last;
* :meth:`RunLog.get` — one run in full;
* :meth:`RunLog.best` — the best run on each data set for a metric;
* :meth:`RunLog.ablation` — the runs on the same data that differ from a base
  run (by default the best) in exactly one setting, side by side, worse runs
  included;
* :meth:`RunLog.check` — is the submitted run the best row among the runs on
  its data?

Runs on "the same data" share the SHA-256 of the data file's bytes and the
task — the label column (and whether it holds label sets): two label
columns of one file are two problems whose scores do not compete. Every
other column choice (for example title or body as the text) is a setting
like any other.

Safety
------
* Two processes writing at once lose nothing: every write is one
  ``BEGIN IMMEDIATE`` transaction (the writer takes the lock up front, so
  two writers never deadlock), with a busy timeout and retries.
* A run killed mid-way leaves no half record: a run is written at its end,
  in one transaction. Its predictions file (and the command's own outputs,
  see :meth:`RunLog.record`) are first written to temporary files that have
  no name (``O_TMPFILE`` where the system has it), and put in place just
  before the transaction commits, with SIGINT and SIGTERM held back for
  those few system calls: a record never points to a missing or partial
  file, and a run is recorded only once its outputs are written.
* An existing file that is not a clfeval run log (another SQLite database,
  any other file) is refused without being touched: it is looked at through
  a read-only connection before anything is written. A log opened with
  ``readonly=True`` is never written (queries work in a read-only directory).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import math
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clfeval.core import Display
from clfeval.errors import DataError, InputFileError, UsageError
from clfeval.io import OutputFiles, outputs as _outputs
from clfeval.protocols._runstore import RunStore

__all__ = [
    "DEFAULT_PATH",
    "RunLog",
    "Run",
    "RunList",
    "BestRuns",
    "Ablation",
    "AblationRow",
    "CheckResult",
    "file_hash",
    "flatten_settings",
    "predictions_dir",
    "higher_is_better",
]

DEFAULT_PATH = "clfeval-runs.sqlite"


def file_hash(path: str | os.PathLike[str]) -> str:
    """``sha256:<hex>`` of a file's bytes: what makes two runs "on the same data".

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile(delete=False) as fh:
    ...     _ = fh.write(b"abc")
    >>> file_hash(fh.name)
    'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    >>> os.unlink(fh.name)
    """
    p = Path(path)
    if not p.is_file():
        raise InputFileError(f"file {str(p)!r} does not exist or is not a file.")
    h = hashlib.sha256()
    with open(p, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return "sha256:" + h.hexdigest()


def predictions_dir(path: str | os.PathLike[str]) -> Path:
    """The folder a run log keeps its predictions files in: ``<db stem>-predictions/`` beside it.

    >>> predictions_dir("logs/runs.sqlite").as_posix()
    'logs/runs-predictions'
    """
    p = Path(path)
    return p.parent / f"{p.stem}-predictions"


def higher_is_better(metric: str) -> bool:
    """Whether larger values of a named metric are better, read from the metric catalogue.

    Run-log metric names are catalogue names (``macro_f1``, ``f1:LABEL``, …),
    optionally qualified by a prefix naming the part of a study that measured
    them (the Reuters study records ``cv_macro_f1``, ``multiclass_accuracy``,
    ``keyword_rule_f1:grain``). An unknown name, or a metric without a better
    direction (prevalence, φ), is refused with the valid ones.

    >>> higher_is_better("macro_f1"), higher_is_better("error_rate"), higher_is_better("cv_hamming_loss")
    (True, False, False)
    """
    from clfeval.core import catalog

    candidates = [metric] + [metric[i + 1:] for i, ch in enumerate(metric) if ch == "_"]  # without a prefix
    for name in candidates:
        if catalog.find(name) is not None:
            return bool(catalog.check_name(name, directed=True).higher_is_better)
    raise UsageError(f"unknown metric {metric!r}; valid metrics are: {catalog.valid_names_text()} (in the run log "
                     f"optionally after a prefix such as cv_).")


def flatten_settings(settings: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested settings as one level of dotted keys (what ablation compares).

    >>> flatten_settings({"model": {"name": "nb", "ngrams": 2}, "seed": 1})
    {'model.name': 'nb', 'model.ngrams': 2, 'seed': 1}
    """
    out: dict[str, Any] = {}
    for k, v in settings.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(flatten_settings(v, key + "."))
        else:
            out[key] = v
    return out


def _clean(value: Any) -> Any:
    """JSON-safe plain data (NaN/inf → None, numpy → Python, tuples → lists)."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and callable(value.item) and not isinstance(value, (str, bytes)):
        try:
            value = value.item()
        except (TypeError, ValueError):
            pass
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return _clean(value.to_dict())
    return value


def _dumps(value: Any) -> str:
    return json.dumps(_clean(value), allow_nan=False, ensure_ascii=False, sort_keys=True)


def _num(x: Any) -> float:
    return math.nan if x is None else float(x)


# ----------------------------------------------------------------------------
# Result objects
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Run(Display):
    """One recorded run."""

    id: int
    created: str
    command: str
    data_path: str | None
    data_hash: str | None
    seed: int | None
    settings: dict[str, Any]
    protocol: dict[str, Any]
    versions: dict[str, Any]
    metrics: dict[str, dict[str, float]]
    predictions: str | None = None
    per_fold: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = field(default=None, repr=False)
    task: str | None = None

    @property
    def data_key(self) -> tuple[str | None, str | None]:
        """What "the same data" means: (content hash, task)."""
        return (self.data_hash, self.task)

    def value(self, metric: str) -> float:
        """The metric's mean over folds (NaN when the run did not record it)."""
        m = self.metrics.get(metric)
        return math.nan if m is None else _num(m.get("mean"))

    def to_dict(self, *, full: bool = True) -> dict[str, Any]:
        out = {"id": self.id, "created": self.created, "command": self.command, "data_path": self.data_path,
               "data_hash": self.data_hash, "task": self.task, "seed": self.seed, "settings": self.settings,
               "protocol": self.protocol,
               "metrics": self.metrics, "predictions": self.predictions, "versions": self.versions}
        if full:
            out["per_fold"] = self.per_fold
        return out


@dataclass(frozen=True)
class RunList(Display):
    """Runs, oldest first."""

    runs: tuple[Run, ...]
    db: str
    metrics: tuple[str, ...] = ("accuracy", "macro_f1", "micro_f1")

    def to_dict(self) -> dict[str, Any]:
        return {"db": self.db, "runs": [r.to_dict(full=False) for r in self.runs]}


@dataclass(frozen=True)
class BestRuns(Display):
    """The best run on each data set for one metric (ties: the earliest run)."""

    metric: str
    higher_is_better: bool
    best: tuple[Run, ...]
    counts: tuple[int, ...]
    db: str

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "higher_is_better": self.higher_is_better, "db": self.db,
                "best": [dict(r.to_dict(full=False), value=r.value(self.metric), runs_on_data=c)
                         for r, c in zip(self.best, self.counts, strict=False)]}


@dataclass(frozen=True)
class AblationRow:
    """A run that differs from the base run in exactly one setting."""

    run: Run
    setting: str
    base_value: Any
    value_setting: Any
    value: float
    std: float
    delta: float
    better: bool

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.run.id, "setting": self.setting, "base_setting": self.base_value,
                "setting_value": self.value_setting, "value": self.value, "std": self.std, "delta": self.delta,
                "better": self.better, "created": self.run.created}


@dataclass(frozen=True)
class Ablation(Display):
    """One factor at a time: the base run beside every run that changes exactly one setting."""

    metric: str
    higher_is_better: bool
    base: Run
    base_reason: str
    rows: tuple[AblationRow, ...]
    others: int
    db: str

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "higher_is_better": self.higher_is_better,
                "base": dict(self.base.to_dict(full=False), value=self.base.value(self.metric),
                             std=_num(self.base.metrics.get(self.metric, {}).get("std"))),
                "base_reason": self.base_reason, "rows": [r.to_dict() for r in self.rows],
                "runs_differing_in_more_than_one_setting": self.others, "db": self.db}


@dataclass(frozen=True)
class CheckResult(Display):
    """Whether the submitted run is the best row among the runs on its data."""

    metric: str
    submitted: Run
    best: Run
    passed: bool
    message: str
    better: tuple[Run, ...]
    runs_on_data: int

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "passed": self.passed, "message": self.message,
                "submitted": {"id": self.submitted.id, "value": self.submitted.value(self.metric)},
                "best": {"id": self.best.id, "value": self.best.value(self.metric)},
                "better_runs": [{"id": r.id, "value": r.value(self.metric)} for r in self.better],
                "runs_on_data": self.runs_on_data}


# ----------------------------------------------------------------------------
# The log
# ----------------------------------------------------------------------------


class RunLog(RunStore):
    """A SQLite run log (WAL mode), safe for several processes at once.

    Parameters
    ----------
    path : path
        The database file (created on first use, with its directory's
        ``<stem>-predictions/`` beside it for the predictions files).
    timeout : float
        Seconds to wait for another writer's lock before retrying.
    retries : int
        Attempts of a write transaction before giving up.
    readonly : bool
        Never write: queries only, which work in a directory clfeval may not
        write (see :class:`clfeval.protocols._runstore.RunStore`).

    Notes
    -----
    An existing file that is not a clfeval run log is refused at once,
    without being touched; a new log is created at its first record.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> log = RunLog(d / "runs.sqlite")
    >>> a = log.record("cv", settings={"model": "nb", "seed": 0}, seed=0, protocol={"kind": "kfold"},
    ...                summary={"macro_f1": {"mean": 0.80}}, data_hash="sha256:x")
    >>> b = log.record("cv", settings={"model": "svm", "seed": 0}, seed=0, protocol={"kind": "kfold"},
    ...                summary={"macro_f1": {"mean": 0.84}}, data_hash="sha256:x")
    >>> log.best("macro_f1").best[0].id == b
    True
    >>> log.check(a, "macro_f1").passed
    False
    """

    def __init__(self, path: str | os.PathLike[str] = DEFAULT_PATH, *, timeout: float = 30.0, retries: int = 20,
                 readonly: bool = False) -> None:
        super().__init__(path, timeout=timeout, retries=retries, readonly=readonly)

    @property
    def predictions_dir(self) -> Path:
        """Where predictions files are kept: ``<db stem>-predictions/`` beside the database."""
        return predictions_dir(self.path)

    # -- writing ------------------------------------------------------------------------------
    def _stage_predictions(self, files: OutputFiles, table: Any) -> str:
        """Write the predictions into a temporary file of the predictions folder; published with the record."""
        import pyarrow.parquet as pq

        d = self.predictions_dir
        d.mkdir(exist_ok=True)
        stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S")
        name = f"run-{stamp}-{uuid.uuid4().hex[:12]}.parquet"
        files.stage(d / name, lambda tmp: pq.write_table(table, tmp), option="--runs-db")
        return f"{d.name}/{name}"

    def _insert_rows(self, con: sqlite3.Connection, row: dict[str, Any], summary: dict[str, Any],
                     per_fold: Sequence[dict[str, Any]]) -> int:
        cur = con.execute(
            "INSERT INTO runs (created, command, data_path, data_hash, task, seed, settings, protocol, versions, "
            "predictions, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row["created"], row["command"], row["data_path"], row["data_hash"], row["task"], row["seed"],
             row["settings"],
             row["protocol"], row["versions"], row["predictions"], row["result"]))
        assert cur.lastrowid is not None  # an INSERT sets it
        run_id = int(cur.lastrowid)
        for name, s in summary.items():
            if isinstance(s, dict):
                vals = [_clean(s.get(k)) for k in ("mean", "std", "min", "max", "n")]
            else:
                vals = [_clean(float(s)), None, None, None, 1]
            con.execute("INSERT INTO metrics (run_id, name, mean, std, min, max, n) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (run_id, name, *vals))
        for i, f in enumerate(per_fold):
            con.execute("INSERT INTO folds (run_id, repeat, fold, metrics) VALUES (?, ?, ?, ?)",
                        (run_id, int(f.get("repeat", 1)), int(f.get("fold", i + 1)), _dumps(f)))
        return run_id

    def record(self, command: str, *, settings: dict[str, Any], seed: int | None, protocol: dict[str, Any],
               summary: dict[str, Any], per_fold: Sequence[dict[str, Any]] = (), data_path: str | None = None,
               data_hash: str | None = None, task: str | None = None, versions: dict[str, Any] | None = None,
               predictions: Any = None, result: dict[str, Any] | None = None, outputs: OutputFiles | None = None,
               on_id: Callable[[int], None] | None = None) -> int:
        """Record one finished run in one transaction; returns its id.

        Parameters
        ----------
        command : str
            ``cv``, ``holdout``, ``reuters``, ...
        settings : dict
            Everything that defines the run (model and its options, protocol
            options, seed, columns); ablation compares these, flattened.
        seed : int or None
        protocol : dict
        summary : dict
            Metric name → ``{"mean", "std", "min", "max", "n"}`` (or a number).
        per_fold : sequence of dict
            One dict per fold, with ``repeat`` and ``fold``.
        data_path, data_hash : str, optional
            The data file and :func:`file_hash` of it.
        task : str, optional
            What is predicted (e.g. the label column); runs compete only with
            runs of the same data hash and task.
        versions : dict, optional
            Library versions.
        predictions : pyarrow.Table, optional
            Out-of-fold predictions, stored as Parquet beside the database.
        result : dict, optional
            The full JSON result, kept for ``show``.
        outputs : OutputFiles, optional
            The run's own output files, staged by the caller: they are put in
            place together with the predictions file, just before the
            transaction commits, so that a run is recorded only once its
            outputs are written (a signal in between is held back until the
            record is complete).
        on_id : callable, optional
            ``on_id(run_id)`` is called inside the transaction, before that, to
            stage outputs that show the run's id.
        """
        if not isinstance(command, str) or not command:
            raise UsageError("a run needs a command name (cv, holdout, reuters, ...).")
        fresh_dir = predictions is not None and not self.predictions_dir.exists()
        with contextlib.ExitStack() as stack:
            if fresh_dir:  # an error or a signal before the record leaves no empty folder either
                def remove_if_empty() -> None:
                    if self.predictions_dir.exists() and not any(self.predictions_dir.iterdir()):
                        self.predictions_dir.rmdir()

                stack.callback(remove_if_empty)
            files = outputs if outputs is not None else stack.enter_context(OutputFiles())
            pred_path = self._stage_predictions(files, predictions) if predictions is not None else None
            row = {"created": _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds"),
                   "command": command, "data_path": None if data_path is None else str(data_path),
                   "data_hash": data_hash, "task": task, "seed": None if seed is None else int(seed),
                   "settings": _dumps(settings), "protocol": _dumps(protocol), "versions": _dumps(versions or {}),
                   "predictions": pred_path, "result": None if result is None else _dumps(result)}

            def insert(con: sqlite3.Connection) -> int:
                run_id = self._insert_rows(con, row, summary, per_fold)
                if on_id is not None:
                    on_id(run_id)
                _outputs.checkpoint("inserted")
                return run_id

            return int(self._write(insert, publish=files.publish))

    def record_result(self, command: str, result: Any, *, settings: dict[str, Any], data_path: str | None = None,
                      data_hash: str | None = None, task: str | None = None, keep_predictions: bool = True,
                      outputs: OutputFiles | None = None, on_id: Callable[[int], None] | None = None) -> int:
        """Record a :class:`~clfeval.protocols._api.ProtocolResult` (or any result with the same JSON keys);
        ``outputs`` and ``on_id`` as in :meth:`record`."""
        d = result.to_dict()
        sig = d.get("signature", {})
        summary = {m: d[m] for m in d.get("metrics", []) if isinstance(d.get(m), dict)}
        return self.record(command, settings=settings, seed=sig.get("seed"), protocol=d.get("protocol", {}),
                           summary=summary, per_fold=d.get("per_fold", []), data_path=data_path, data_hash=data_hash,
                           task=task, versions=sig.get("versions"),
                           predictions=getattr(result, "predictions", None) if keep_predictions else None, result=d,
                           outputs=outputs, on_id=on_id)

    # -- reading ------------------------------------------------------------------------------
    def _runs(self, where: str = "", args: Sequence[Any] = (), *, full: bool = False) -> list[Run]:
        rows = self._read(f"SELECT * FROM runs {where} ORDER BY id", args)
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        marks = ",".join("?" * len(ids))
        metrics: dict[int, dict[str, dict[str, float]]] = {i: {} for i in ids}
        for m in self._read(f"SELECT * FROM metrics WHERE run_id IN ({marks})", ids):
            metrics[m["run_id"]][m["name"]] = {"mean": _num(m["mean"]), "std": _num(m["std"]), "min": _num(m["min"]),
                                               "max": _num(m["max"]), "n": m["n"]}
        folds: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
        if full:
            for f in self._read(f"SELECT * FROM folds WHERE run_id IN ({marks}) ORDER BY run_id, repeat, fold", ids):
                folds[f["run_id"]].append(json.loads(f["metrics"]))
        out = []
        for r in rows:
            pred = r["predictions"]
            out.append(Run(id=r["id"], created=r["created"], command=r["command"], data_path=r["data_path"],
                           data_hash=r["data_hash"], seed=r["seed"], settings=json.loads(r["settings"]),
                           protocol=json.loads(r["protocol"]), versions=json.loads(r["versions"]),
                           metrics=metrics[r["id"]],
                           predictions=None if pred is None else str(self.path.parent / pred),
                           per_fold=folds[r["id"]],
                           result=json.loads(r["result"]) if full and r["result"] else None, task=r["task"]))
        return out

    def runs(self, *, data_hash: str | None = None) -> RunList:
        """Every run (on one data file when ``data_hash`` is given), oldest first."""
        if data_hash is None:
            return RunList(tuple(self._runs()), str(self.path))
        return RunList(tuple(self._runs("WHERE data_hash = ?", (data_hash,))), str(self.path))

    def _same_data(self, run: Run) -> list[Run]:
        return [r for r in self.runs(data_hash=run.data_hash).runs if r.data_key == run.data_key]

    def get(self, run_id: int) -> Run:
        """One run in full (per-fold metrics and the stored result)."""
        runs = self._runs("WHERE id = ?", (int(run_id),), full=True)
        if not runs:
            raise DataError(f"the run log {str(self.path)!r} has no run {run_id}; `clfeval runs list` shows the runs.")
        return runs[0]

    def _ranked(self, runs: Iterable[Run], metric: str) -> list[Run]:
        hib = higher_is_better(metric)
        scored = [r for r in runs if not math.isnan(r.value(metric))]
        return sorted(scored, key=lambda r: (-r.value(metric) if hib else r.value(metric), r.id))

    def _require_metric(self, metric: str, runs: Sequence[Run]) -> None:
        if not any(metric in r.metrics for r in runs):
            names = sorted({m for r in runs for m in r.metrics})
            shown = ", ".join(names) if names else "(no runs yet)"
            raise UsageError(f"no run in {str(self.path)!r} recorded the metric {metric!r}; recorded metrics: {shown}.")

    def best(self, metric: str, *, data_hash: str | None = None) -> BestRuns:
        """The best run per data set by the mean of ``metric`` (ties: the earliest)."""
        hib = higher_is_better(metric)  # a known metric with a direction, before anything is read
        runs = self.runs(data_hash=data_hash).runs
        self._require_metric(metric, runs)
        groups: dict[tuple[str | None, str | None], list[Run]] = {}
        for r in runs:
            groups.setdefault(r.data_key, []).append(r)
        best, counts = [], []
        for rs in groups.values():
            ranked = self._ranked(rs, metric)
            if ranked:
                best.append(ranked[0])
                counts.append(len(rs))
        return BestRuns(metric, hib, tuple(best), tuple(counts), str(self.path))

    def ablation(self, metric: str, *, base: int | None = None, data_hash: str | None = None) -> Ablation:
        """Runs on the base run's data that differ from it in exactly one setting.

        The base is ``base`` or, by default, the best run (on ``data_hash``,
        or on the data of the most recent run). Every such run is listed —
        worse ones included, since an ablation that only keeps improvements
        hides what was tried.
        """
        hib = higher_is_better(metric)
        if base is not None:
            base_run = self.get(base)
            reason = f"run {base_run.id}, as asked"
        else:
            everything = self.runs().runs
            if not everything:
                raise DataError(f"the run log {str(self.path)!r} holds no runs yet.")
            latest: Sequence[Run]
            if data_hash is not None:
                latest = [r for r in everything if r.data_hash == data_hash]
                if not latest:
                    raise DataError(f"the run log {str(self.path)!r} holds no run on that data file.")
            else:
                latest = everything
            key = latest[-1].data_key
            on_data = [r for r in everything if r.data_key == key]
            self._require_metric(metric, on_data)
            ranked = self._ranked(on_data, metric)
            if not ranked:
                raise DataError(f"no run on that data recorded a value of {metric!r}.")
            base_run = ranked[0]
            which = "the given data" if data_hash is not None else "the data of the most recent run"
            reason = f"the best run by {metric} on {which}"
        peers = [r for r in self._same_data(base_run) if r.id != base_run.id]
        self._require_metric(metric, [base_run] + peers)
        flat_base = flatten_settings(base_run.settings)
        rows, others = [], 0
        for r in peers:
            flat = flatten_settings(r.settings)
            diff = [k for k in sorted(set(flat) | set(flat_base)) if flat.get(k) != flat_base.get(k)]
            if len(diff) != 1:
                others += 1
                continue
            k = diff[0]
            v, bv = r.value(metric), base_run.value(metric)
            delta = v - bv
            rows.append(AblationRow(r, k, flat_base.get(k), flat.get(k), v, _num(r.metrics.get(metric, {}).get("std")),
                                    delta, bool(delta > 0 if hib else delta < 0)))
        rows.sort(key=lambda x: (x.setting, -x.delta if hib else x.delta, x.run.id))
        return Ablation(metric, hib, base_run, reason, tuple(rows), others, str(self.path))

    def check(self, submitted: int, metric: str) -> CheckResult:
        """Is run ``submitted`` the best row (by ``metric``) among the runs on its data?

        Passes when no run on the same data has a strictly better value; the
        message says which runs beat it and by how much otherwise.
        """
        hib = higher_is_better(metric)
        sub = self.get(submitted)
        if metric not in sub.metrics or math.isnan(sub.value(metric)):
            raise DataError(f"run {sub.id} did not record the metric {metric!r}; it recorded: "
                            f"{', '.join(sorted(sub.metrics)) or '(none)'}.")
        peers = self._same_data(sub)
        ranked = self._ranked(peers, metric)
        best = ranked[0]
        v = sub.value(metric)
        better = tuple(r for r in ranked if (r.value(metric) > v if hib else r.value(metric) < v))
        data = (sub.data_path or sub.data_hash or "(unnamed data)") + (f" ({sub.task})" if sub.task else "")
        if not better:
            msg = (f"run {sub.id} is the best row by {metric} ({v:.4f}) among the {len(peers)} run(s) on {data}.")
            return CheckResult(metric, sub, sub, True, msg, (), len(peers))
        b = better[0]
        gap = abs(b.value(metric) - v)
        std = _num(b.metrics.get(metric, {}).get("std"))
        spread_note = ""
        if not math.isnan(std) and gap < std:
            spread_note = (f" (the gap is smaller than the fold-to-fold standard deviation {std:.4f}: compare the two "
                           f"runs' predictions with `clfeval compare` before trusting it)")
        flat_b, flat_s = flatten_settings(b.settings), flatten_settings(sub.settings)
        diff = [k for k in sorted(set(flat_b) | set(flat_s)) if flat_b.get(k) != flat_s.get(k)]
        differs = ", ".join(f"{k}={flat_b.get(k)!r}" for k in diff[:6]) or "the same settings"
        msg = (f"run {sub.id} is not the best row by {metric} on {data}: {len(better)} run(s) did better, the best "
               f"being run {b.id} with {b.value(metric):.4f} against {v:.4f}{spread_note}; run {b.id} differs in "
               f"{differs}. Submit run {b.id}, or record why not.")
        return CheckResult(metric, sub, best, False, msg, better, len(peers))
