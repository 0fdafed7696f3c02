"""The engine block of a result: where it ran, in memory or streamed, whether anything spilled to disk.

Every operation's result carries one (``result.to_dict()["engine"]``); it is the only part of the JSON
that may differ between engines (with the ``external`` details of a streamed ranking, which it sums up).
"""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = ["engine_block", "with_engine", "spilled_in"]


def engine_block(engine: Any, mode: str, *, spilled: bool = False, memory: int | None = None,
                 **more: Any) -> dict[str, Any]:
    """``{"name", "mode", "spilled", "memory", ...}``; ``mode`` is ``memory``, ``streamed`` or ``cluster``."""
    out: dict[str, Any] = {"name": engine.name, "mode": mode, "spilled": bool(spilled)}
    if memory is not None:
        out["memory"] = int(memory)
    out.update(more)
    return out


def spilled_in(value: Any) -> bool:
    """Whether any ``external`` block (or ``spilled`` flag) of a result's JSON says that runs went to disk."""
    if isinstance(value, dict):
        if value.get("spilled") is True:
            return True
        return any(spilled_in(v) for v in value.values())
    if isinstance(value, list):
        return any(spilled_in(v) for v in value)
    return False


def with_engine(result: Any, block: dict[str, Any]) -> Any:
    """``result`` with its engine block in its ``engine`` field (a report's typed part
    :class:`~clfeval.evaluate._sections.EnginePart`)."""
    return dataclasses.replace(result, engine=block)
