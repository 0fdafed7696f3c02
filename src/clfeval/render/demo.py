"""Rendering of demo results and of the list of demo modes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clfeval.studies.demo import DemoResult
from clfeval.render import register
from clfeval.render._util import Block, TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich


@dataclass(frozen=True)
class DemoList:
    """The list of demo modes (what `clfeval demo` alone prints)."""

    modes: list[tuple[str, str]]

    def to_dict(self) -> dict[str, Any]:
        return {"modes": [{"name": n, "summary": s} for n, s in self.modes]}


def demo_blocks(d: DemoResult) -> list[Block]:
    blocks: list[Block] = [TextBlock(d.title, heading=True), TextBlock(d.intro)]
    for t in d.tables:
        blocks.append(TableBlock(t.title, t.columns, t.rows, caption=t.caption))
    blocks.append(TextBlock(d.conclusion, style="bold"))
    return blocks


def list_blocks(d: DemoList) -> list[Block]:
    return [TableBlock("clfeval demo MODE — worked examples, no download needed", ["mode", "what it shows"],
                       [[n, s] for n, s in d.modes], numeric_from=99)]


register(DemoResult, text=lambda d: blocks_to_rich(demo_blocks(d)), markdown=lambda d: blocks_to_markdown(demo_blocks(d)))
register(DemoList, text=lambda d: blocks_to_rich(list_blocks(d)), markdown=lambda d: blocks_to_markdown(list_blocks(d)))
