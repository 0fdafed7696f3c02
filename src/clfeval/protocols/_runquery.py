"""The run log opened for a query (``clfeval runs``): read-only, so that queries work in a directory clfeval may
not write, with the query's output checked against the log and its inputs first."""

from __future__ import annotations

import os
from typing import Any

from clfeval.errors import InputFileError
from clfeval.protocols._runlog import RunLog, predictions_dir

__all__ = ["query_run_log"]


def query_run_log(runs_db: str | os.PathLike[str], *, output: Any = None, data: Any = None) -> RunLog:
    """The run log ``runs_db``, read-only; refused when it does not exist, and when ``output`` would replace it,
    its predictions folder or the ``data`` file (:func:`clfeval.io._outputs.check_paths`)."""
    from clfeval.io import check_paths

    if not os.path.exists(runs_db):
        raise InputFileError(f"the run log {str(runs_db)!r} does not exist yet (option --runs-db); `clfeval cv` and "
                             f"`clfeval holdout` create it when they record their first run.")
    check_paths([("--runs-db", runs_db), ("the run log's predictions folder", predictions_dir(runs_db)),
                 ("--data", data)], [("--output", output)])
    return RunLog(runs_db, readonly=True)
