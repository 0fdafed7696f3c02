"""Where a result was computed: the one engine-information type of every result (issue 36).

Every operation's result carries an :class:`EngineInfo` in its ``engine`` field (None for a result computed
outside the front door); its JSON is the ``engine`` block of ``to_dict()``, the only part of the JSON that may
differ between engines. It lives in the core so that renderers and plots read it without importing the engines.

>>> e = EngineInfo.of({"name": "local", "mode": "streamed", "spilled": False, "memory": 1 << 30})
>>> e.name, e.mode, e.spilled, e.memory, e.to_dict()["mode"]
('local', 'streamed', False, 1073741824, 'streamed')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from clfeval.core._results import FrozenDict, freeze, thaw

__all__ = ["EngineInfo", "MODES"]

#: How an operation ran: in memory, streamed in batches (within a memory budget), or on a cluster.
MODES = ("memory", "streamed", "cluster")

_FIELDS = ("name", "mode", "spilled", "memory")


@dataclass(frozen=True, eq=False)  # equality is the mapping's: an EngineInfo equals its JSON block
class EngineInfo(Mapping[str, object]):
    """Where a result was computed.

    Attributes
    ----------
    name : str
        The engine: ``local`` or ``dask``.
    mode : str
        ``memory`` (the input held in memory), ``streamed`` (read in batches within the memory budget) or
        ``cluster`` (partitions counted on a Dask cluster).
    spilled : bool
        Whether anything went to disk (a table beyond the budget spooled, sorted runs of a ranking).
    memory : int or None
        The memory budget in bytes (None where the engine has none, a cluster).
    more : Mapping[str, object]
        Further facts an operation records (``input``: how two inputs were matched; ``external``: the sorted
        runs of a streamed ranking), read-only, in the JSON after the four above.

    Read-only mapping access (``info["mode"]``) reaches the same values as the JSON gives them.
    """

    name: str
    mode: str
    spilled: bool = False
    memory: int | None = None
    more: Mapping[str, object] = field(default_factory=FrozenDict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "more", freeze(dict(self.more)))

    @classmethod
    def of(cls, block: Mapping[str, object]) -> EngineInfo:
        """The engine information of a JSON engine block (or an EngineInfo, returned as it is)."""
        if isinstance(block, EngineInfo):
            return block
        memory = block.get("memory")
        return cls(name=str(block["name"]), mode=str(block["mode"]), spilled=bool(block.get("spilled", False)),
                   memory=None if memory is None else int(memory),  # type: ignore[call-overload]
                   more={k: v for k, v in block.items() if k not in _FIELDS})

    def to_dict(self) -> dict[str, object]:
        """The JSON engine block: ``name``, ``mode``, ``spilled``, ``memory`` (when set), then the rest."""
        out: dict[str, object] = {"name": self.name, "mode": self.mode, "spilled": self.spilled}
        if self.memory is not None:
            out["memory"] = self.memory
        out.update(thaw(dict(self.more)))
        return out

    def __getitem__(self, key: str) -> object:
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())
