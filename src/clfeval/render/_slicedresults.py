"""The slices of ``threshold`` and ``calibration`` with ``by``: their text and Markdown blocks, placed after the
whole by :mod:`clfeval.render._scores` (apart from the report's ``slices`` section, :mod:`clfeval.render._slices`,
so that a report by slice imports none of these; ``compare`` with ``by`` is laid out with the other comparisons,
:mod:`clfeval.render._significance`). They read the typed results of :mod:`clfeval.ops.threshold` and
:mod:`clfeval.ops.calibration`."""

from __future__ import annotations

from clfeval.ops.calibration import Calibration
from clfeval.ops.threshold import ThresholdSlices
from clfeval.render._slices import SHOWN, slice_blocks
from clfeval.render._util import Block, TableBlock, TextBlock, num

__all__ = ["threshold_slice_blocks", "calibration_slice_blocks"]


def threshold_slice_blocks(s: ThresholdSlices) -> list[Block]:
    """The test data per slice at the cut chosen once overall (the report's slice layout)."""
    return [TextBlock(f"The cut {s.threshold:g}, chosen once overall, on every slice of the test data."),
            *slice_blocks(s.to_dict())]


def calibration_slice_blocks(c: Calibration) -> list[Block]:
    """The calibration measures of every slice, and of every item for comparison."""
    if c.slices is None:
        return []
    rows = [[s.slice + (" (small)" if s.small else ""), f"{s.n:,}", num(s.ece), num(s.mce), num(s.brier),
             num(s.log_loss)] for s in c.slices.rows[:SHOWN]]
    rows.append(["overall", f"{c.n:,}", num(c.ece), num(c.mce), num(c.brier), num(c.log_loss)])
    return [TextBlock(f"By slice: {', '.join(c.slices.by)} ({len(c.slices.rows):,} slices)", heading=True),
            TableBlock("Calibration per slice (the same bins)", ["slice", "n", "ECE", "MCE", "Brier", "log loss"],
                       rows, numeric_from=1)]
