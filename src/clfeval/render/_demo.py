"""Rendering of demo results and of the list of demo modes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clfeval.render import register
from clfeval.render._util import Block, TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich, num
from clfeval.studies import DemoReport, DemoResult


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


def part_blocks(result: Any) -> list[Block]:
    """The blocks of one part of ``demo report``: its own layout, its title a plain line, its signature line left
    out (the demo signs once, at its end)."""
    from clfeval.evaluate import Report
    from clfeval.ops.calibration import Calibration
    from clfeval.ops.threshold import ThresholdResult
    from clfeval.render._reports import report_blocks
    from clfeval.render._scores import calibration_blocks, threshold_blocks
    from clfeval.render._significance import comparison_blocks

    layout: dict[type, Callable[[Any], list[Block]]] = {Report: report_blocks, ThresholdResult: threshold_blocks,
                                                        Calibration: calibration_blocks}
    fn = next((f for cls, f in layout.items() if isinstance(result, cls)), comparison_blocks)
    out: list[Block] = []
    for i, b in enumerate(fn(result)):
        if isinstance(b, TextBlock) and b.style == "dim" and b.text.startswith("clfeval ") and " · " in b.text:
            continue
        out.append(TextBlock(b.text, style="dim") if i == 0 and isinstance(b, TextBlock) and b.heading else b)
    return out


def side_by_side(d: DemoReport) -> TableBlock:
    """A and B on the same test tickets: the headline numbers of their reports."""
    a, b = d.report, d.report_b
    rows: list[list[Any]] = [["accuracy", a.accuracy, b.accuracy], ["macro-F1", a.macro.f1, b.macro.f1],
            ["micro-F1", a.micro.f1, b.micro.f1], ["balanced accuracy", a.balanced_accuracy, b.balanced_accuracy]]
    if a.ranking is not None and b.ranking is not None and a.ranking.macro is not None and \
            b.ranking.macro is not None:
        ra, rb = a.ranking.macro, b.ranking.macro
        rows += [["ROC-AUC (macro)", ra["roc_auc"], rb["roc_auc"]],
                 ["average precision (macro)", ra["average_precision"], rb["average_precision"]]]
    return TableBlock("A and B on the same test tickets", ["measure", "A", "B"],
                      [[r[0], num(r[1]), num(r[2])] for r in rows])


def demo_report_blocks(d: DemoReport) -> list[Block]:
    """The whole example: what it is (synthetic), each part with its tables, the conclusion, one signature line."""
    data = d.data
    sizes = data["sizes"]
    blocks: list[Block] = [TextBlock(d.title, heading=True), TextBlock(d.intro, style="bold"),
                           TextBlock(f"{sizes['train']:,} training tickets (their queue frequencies are what the "
                                     f"baselines predict), {sizes['dev']:,} development tickets scored by A (where the "
                                     f"threshold is chosen) and {sizes['test']:,} test tickets scored by A and B; "
                                     f"every part below is the output of the clfeval command named in its heading.")]
    commands = {"report": "clfeval report --train-labels --scores-prefix", "threshold": "clfeval threshold --dev",
                "calibration": "clfeval calibration --probs-prefix", "comparison": "clfeval compare --metric macro_f1"}
    for i, (key, title, result) in enumerate(d.parts, 1):
        blocks.append(TextBlock(f"{i}. {title} ({commands[key]})", heading=True))
        if key == "comparison":
            blocks.append(side_by_side(d))
        blocks.extend(part_blocks(result))
    blocks.append(TextBlock("What the example shows", heading=True))
    blocks.append(TextBlock(d.conclusion, style="bold"))
    sig = d.signature
    blocks.append(TextBlock(f"clfeval {sig['version']} · demo report · synthetic data, seed {sig['seed']} · "
                            f"{sig['samples']:,} bootstrap samples", style="dim"))
    return blocks


register(DemoReport, text=lambda d: blocks_to_rich(demo_report_blocks(d)),
         markdown=lambda d: blocks_to_markdown(demo_report_blocks(d)))
register(DemoResult, text=lambda d: blocks_to_rich(demo_blocks(d)),
         markdown=lambda d: blocks_to_markdown(demo_blocks(d)))
register(DemoList, text=lambda d: blocks_to_rich(list_blocks(d)), markdown=lambda d: blocks_to_markdown(list_blocks(d)))
