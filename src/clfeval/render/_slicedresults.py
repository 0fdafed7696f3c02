"""The results of ``threshold`` and ``calibration`` with ``by``: their text and Markdown (apart from the report's
``slices`` section, :mod:`clfeval.render._slices`, so that a report by slice imports none of these; ``compare``
with ``by`` is laid out with the other comparisons, :mod:`clfeval.render._significance`)."""

from __future__ import annotations

from typing import Any

from clfeval.render._slices import SHOWN, slice_blocks
from clfeval.render._util import TableBlock, TextBlock, num

__all__: list[str] = []


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
