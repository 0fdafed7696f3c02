"""The engine block of a result: where it ran, in memory or streamed, whether anything spilled to disk.

Every operation's result carries one (``result.to_dict()["engine"]``); it is the only part of the JSON
that may differ between engines (with the ``external`` details of a streamed ranking, which it sums up).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from clfeval.core import EngineInfo

__all__ = ["engine_block", "with_engine", "spilled_in"]


def engine_block(engine: Any, mode: str, *, spilled: bool = False, memory: int | None = None,
                 **more: Any) -> EngineInfo:
    """The :class:`~clfeval.core.EngineInfo` of a result (its JSON ``{"name", "mode", "spilled", "memory",
    ...}``); ``mode`` is ``memory``, ``streamed`` or ``cluster``."""
    return EngineInfo(name=engine.name, mode=mode, spilled=bool(spilled),
                      memory=None if memory is None else int(memory), more=more)


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
