"""The results of ``compare``, ``threshold`` and ``calibration`` with ``by``: their text and Markdown (apart from the
report's ``slices`` section, :mod:`clfeval.render._slices`, so that a report by slice imports none of these)."""

from __future__ import annotations

from typing import Any

from clfeval.core import SliceBinning
from clfeval.render._slices import SHOWN, p_text, slice_blocks
from clfeval.render._util import TableBlock, TextBlock, num

__all__: list[str] = []


def _compare_blocks(r: Any) -> list[Any]:
    from clfeval.render._significance import comparison_blocks

    d = r.to_dict()
    o = d["overall"]
    a, b = o["names"]["a"], o["names"]["b"]
    blocks: list[Any] = [TextBlock(f"Compare by slice: {', '.join(d['by'])}", heading=True)]
    if d["simpson"]:
        blocks.append(TextBlock(d["simpson"], style="bold"))
    rows = [[s["slice"] + (" (small)" if s["small"] else ""), f"{s['n']:,}", num(s.get("a")), num(s.get("b")),
             num(s.get("delta")), p_text(s.get("p")), p_text(s.get("p_holm")) + (" *" if s.get("significant") else ""),
             p_text(s.get("p_by"))] for s in d["slices"][:SHOWN]]
    rows.append(["overall", f"{o['n']:,}", num(o["a"]), num(o["b"]), num(o["delta"]), p_text(o["p_value"]), "", ""])
    blocks.append(TableBlock(f"{o['metric']} per slice ({o['test']}, {o['samples']:,} samples per slice)",
                             ["slice", "n", a, b, "δ = A − B", "p", "p (Holm)", "p (BY)"], rows,
                             caption=f"One-sided p for '{a} better than {b}' in each slice; Holm-adjusted p < α "
                                     f"marked *.", numeric_from=1))
    for bn in d.get("binning", []):
        blocks.append(TextBlock(SliceBinning.of(bn).describe()))
    blocks.append(TextBlock("Overall", heading=True))
    blocks.extend(comparison_blocks(r.overall))
    for note in d["notes"]:
        blocks.append(TextBlock(note, style="dim"))
    return blocks


def _register() -> None:
    from clfeval.render import register
    from clfeval.render._util import blocks_to_markdown, blocks_to_rich
    from clfeval.significance import SlicedComparison

    register(SlicedComparison, text=lambda r: blocks_to_rich(_compare_blocks(r)),
             markdown=lambda r: blocks_to_markdown(_compare_blocks(r)))


_register()


def _register_threshold() -> None:
    from clfeval.engines import SlicedThreshold
    from clfeval.render import register
    from clfeval.render._scores import threshold_blocks
    from clfeval.render._util import blocks_to_markdown, blocks_to_rich

    def blocks(r: Any) -> list[Any]:
        return [*threshold_blocks(r.choice),
                TextBlock(f"The cut {r.slices['threshold']:g}, chosen once overall, on every slice of the test data."),
                *slice_blocks(r.slices)]

    register(SlicedThreshold, text=lambda r: blocks_to_rich(blocks(r)),
             markdown=lambda r: blocks_to_markdown(blocks(r)))


_register_threshold()


def _register_calibration() -> None:
    from clfeval.engines import SlicedCalibration
    from clfeval.render import register
    from clfeval.render._scores import calibration_blocks
    from clfeval.render._util import blocks_to_markdown, blocks_to_rich

    def blocks(r: Any) -> list[Any]:
        rows = [[s["slice"] + (" (small)" if s["small"] else ""), f"{s['n']:,}", num(s.get("ece")),
                 num(s.get("mce")), num(s.get("brier")), num(s.get("log_loss"))] for s in r.slices[:SHOWN]]
        o = r.overall
        rows.append(["overall", f"{o.n:,}", num(o.ece), num(o.mce), num(o.brier), num(o.log_loss)])
        return [*calibration_blocks(o), TextBlock(f"By slice: {', '.join(r.by)} ({len(r.slices):,} slices)",
                                                  heading=True),
                TableBlock("Calibration per slice (the same bins)", ["slice", "n", "ECE", "MCE", "Brier", "log loss"],
                           rows, numeric_from=1)]

    register(SlicedCalibration, text=lambda r: blocks_to_rich(blocks(r)),
             markdown=lambda r: blocks_to_markdown(blocks(r)))


_register_calibration()
