"""The engine block of a result (written by the runner: :meth:`clfeval.engines.Runner.block`) put on the result.

Every operation's result carries one (``result.to_dict()["engine"]``); it is the only part of the JSON
that may differ between engines (with the ``external`` details of a streamed ranking, which it sums up).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from clfeval.core import EngineInfo

__all__ = ["with_engine", "spilled_in"]


def spilled_in(value: Any) -> bool:
    """Whether any ``external`` block (or ``spilled`` flag) of a result's JSON says that runs went to disk."""
    if isinstance(value, dict):
        if value.get("spilled") is True:
            return True
        return any(spilled_in(v) for v in value.values())
    if isinstance(value, list):
        return any(spilled_in(v) for v in value)
    return False


def with_engine(result: Any, block: Mapping[str, Any]) -> Any:
    """``result`` with its engine block in its ``engine`` field (a report's typed part
    :class:`~clfeval.core.EngineInfo`)."""
    return dataclasses.replace(result, engine=EngineInfo.of(block))
