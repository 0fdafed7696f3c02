"""The one engine-information type of every result (issue 36): its JSON is the engine block, read-only."""

from __future__ import annotations

import dataclasses

import pytest

import clfeval
from clfeval.core import EngineInfo


def test_the_json_block_round_trips_and_keeps_its_order():
    block = {"name": "dask", "mode": "cluster", "spilled": True, "memory": 512, "input": "joined by id"}
    info = EngineInfo.of(block)
    assert (info.name, info.mode, info.spilled, info.memory, dict(info.more)) == ("dask", "cluster", True, 512,
                                                                                  {"input": "joined by id"})
    assert list(info.to_dict()) == ["name", "mode", "spilled", "memory", "input"]
    assert info == block and dict(info) == block and info["input"] == "joined by id"
    assert EngineInfo.of(info) is info
    assert "memory" not in EngineInfo(name="dask", mode="cluster").to_dict()


def test_it_is_read_only():
    info = EngineInfo(name="local", mode="memory", more={"external": {"runs": 2}})
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.mode = "streamed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        info.more["external"]["runs"] = 3  # type: ignore[index]


@pytest.mark.parametrize("call", [
    lambda: clfeval.report(["a", "b"], ["a", "a"]),
    lambda: clfeval.ranking(["a", "b"], [0.9, 0.1], positive="a"),
    lambda: clfeval.calibration(["a", "b"], [0.9, 0.1], positive="a"),
    lambda: clfeval.error_analysis(["a", "b"] * 5, ["b", "b"] * 5, text=["x y"] * 10, min_count=1),
])
def test_the_front_door_gives_every_result_one(call):
    r = call()
    assert isinstance(r.engine, EngineInfo) and (r.engine.name, r.engine.mode) == ("local", "memory")
    assert r.to_dict()["engine"] == {"name": "local", "mode": "memory", "spilled": False, "memory": 1 << 30}


def test_the_report_part_it_replaced_stays_importable_for_one_release_with_a_warning():
    import clfeval.evaluate

    with pytest.warns(DeprecationWarning, match=r"clfeval\.evaluate\.EnginePart is deprecated .* clfeval\.core\.Engi"):
        assert clfeval.evaluate.EnginePart is EngineInfo
