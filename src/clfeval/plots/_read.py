"""A saved result read back for the figures: :func:`read_result`.

``clfeval plot KIND RESULT.json`` draws what a command wrote with ``--format json``; the figures take a typed
result (or its JSON). This is the one place that turns the file into what they take, so that the command line
reads no result itself: the typed result where the JSON has a typed reading (a ranking over data sets:
:meth:`RankResult.from_dict`; a report: :meth:`Report.from_dict`), else the JSON data as it is (the figures of
the other results read their JSON, which holds what they draw: decimated curves, bins, replicate histograms).

It sits with the figures (not the front door: drawing is not an operation, issue 39) and below the renderers,
which draw the same figures from the results they are handed.
"""

from __future__ import annotations

import json
import os
from typing import Any

from clfeval.errors import InputFileError
from clfeval.ops.rank import RankResult
from clfeval.ops.report import Report

__all__ = ["read_result"]


def read_result(path: str | os.PathLike[str]) -> Report | RankResult | dict[str, Any]:
    """The result a command saved as JSON (``--format json``), as the figures of `clfeval.plots` take it.

    Parameters
    ----------
    path : str or path-like
        A JSON file written by a clfeval command.

    Returns
    -------
    Report, RankResult or dict
        The typed result for a report (``Report.from_dict``) or a ranking over data sets (``RankResult.from_dict``);
        the JSON data of any other result (each figure reads what it needs from it).

    Raises
    ------
    InputFileError
        When the file is not JSON (exit 2 on the command line), naming the file.

    Examples
    --------
    >>> import json, tempfile, os
    >>> from clfeval import report
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = os.path.join(d, "r.json")
    ...     with open(p, "w", encoding="utf-8") as f:
    ...         _ = f.write(json.dumps(report(["a", "b", "a"], ["a", "b", "b"]).to_dict()))
    ...     r = read_result(p)
    >>> type(r).__name__, r.accuracy
    ('Report', 0.6666666666666666)
    """
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputFileError(f"file {str(path)!r} is not a JSON result ({exc}); give the output of a clfeval command "
                             f"run with --format json, or a predictions file.") from None
    if not isinstance(data, dict):
        return data  # not a result: the figure says what it needs
    if data.get("result") == "rank":
        return RankResult.from_dict(data)
    if isinstance(data.get("per_class"), dict) and "macro" in data and "pooled" not in data:
        return Report.from_dict(data)
    return data
