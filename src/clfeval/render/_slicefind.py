"""Text and Markdown of the slice search (``report --find-slices``): the found slices, the dropped ones, the method."""

from __future__ import annotations

from typing import Any

from clfeval.core import catalog
from clfeval.ops.report import FoundSlices
from clfeval.render import register, register_section
from clfeval.render._util import Block, TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich, num

__all__ = ["find_slices_blocks"]

#: The most found slices shown in text, Markdown and HTML (all of them in JSON).
SHOWN = 20


def _p(x: Any) -> str:
    if x is None:
        return "—"
    return "< 0.0001" if x < 1e-4 else f"{x:.4f}"


def _ci(ci: Any) -> str:
    return "—" if not ci else f"[{num(ci[0])}, {num(ci[1])}]"


def _vs(x: dict[str, Any]) -> dict[str, Any]:
    """The comparison of a dropped cross with the parent that explains it."""
    return next((v for v in x.get("vs_parents", []) if v["parent"] == x["explained_by"]),
                {"parent_rest_value": None, "p_adjusted": None})


def find_slices_blocks(d: dict[str, Any]) -> list[Block]:
    """The layout of a slice search, from its ``to_dict()`` (also the report's ``find_slices`` section)."""
    label = catalog.label(d["metric"])
    overall = d["overall"]
    blocks: list[Block] = [TextBlock(f"Slices where {label} is worst (searched, not named)", heading=True),
                           TextBlock(f"Searched {', '.join(d['columns'])} to depth {d['max_depth']}: "
                                     f"{d['examined']:,} slices examined, {d['testable']:,} testable, "
                                     f"{d['survived']:,} significantly worse after the Benjamini–Yekutieli "
                                     f"adjustment at alpha {d['alpha']:g}, {len(d['found']):,} reported "
                                     f"({len(d['dropped']):,} dropped because their parent explains them"
                                     f"{_explained_count(d)}). "
                                     f"Overall {label} = "
                                     f"{num(overall['value'])} ({overall['successes']:,} of {overall['trials']:,}).")]
    cols = ["slice", "items", "successes / trials", label, "95% interval", "rest", "gap", "Cohen's h", "p",
            "adjusted p"]
    rows = [[f["slice"], f"{f['items']:,}", f"{f['successes']:,} / {f['trials']:,}", num(f["value"]),
             _ci(f["interval"]), num(f["rest_value"]), num(f["gap"]), num(f["effect_h"]), _p(f["p_value"]),
             _p(f["p_adjusted"])] for f in d["found"][:SHOWN]]
    if rows:
        more = len(d["found"]) - SHOWN
        blocks.append(TableBlock(None, cols, rows, numeric_from=1,
                                 caption=f"{more:,} more in --format json" if more > 0 else None))
    if d["dropped"]:
        drows = [[x["slice"], f"{x['items']:,}", num(x["value"]), _p(x["p_adjusted"]), x["explained_by"],
                  num(_vs(x)["parent_rest_value"]), _p(_vs(x)["p_adjusted"])] for x in d["dropped"][:SHOWN]]
        more = len(d["dropped"]) - SHOWN
        blocks.append(TableBlock(f"{len(d['dropped']):,} dropped because their parent explains them",
                                 ["slice", "items", label, "adjusted p", "explained by", "parent's rest",
                                  "adj. p vs parent's rest"], drows, numeric_from=1,
                                 caption=f"{more:,} more in --format json" if more > 0 else None))
    blocks.extend(_explained_blocks(d, label))
    m = d["method"]
    rule = f" Descendant rule: {m['descendant_rule']}." if "descendant_rule" in m else ""
    blocks.append(TextBlock(f"Test: {m['test']}. Adjustment: {m['adjustment']}. Found: {m['found']} "
                            f"({d['min_slice']}). Ranked {m['ranking']}. Parent rule: {m['parent_rule']}.{rule}",
                            style="dim"))
    for note in d.get("notes", []):
        blocks.append(TextBlock(note, style="dim"))
    return blocks


def _explained_count(d: dict[str, Any]) -> str:
    n = len(d.get("explained") or [])
    return f", {n:,} explained by the slices found inside them" if n else ""


def _explained_blocks(d: dict[str, Any], label: str) -> list[Block]:
    """The slices explained by their descendants: each with what explains it and its test without them."""
    rows = []
    for x in (d.get("explained") or [])[:SHOWN]:
        w = x["without_descendants"]
        by = x["explained_by"]
        rows.append([x["slice"], f"{x['items']:,}", num(x["value"]), _p(x["p_adjusted"]),
                     ", ".join(by[:3]) + (f" (+{len(by) - 3:,} more)" if len(by) > 3 else ""), f"{w['items']:,}",
                     num(w["value"]), num(w["rest_value"]), _p(w["p_value"])])
    if not rows:
        return []
    more = len(d["explained"]) - SHOWN
    return [TableBlock(f"{len(d['explained']):,} explained by the slices found inside them",
                       ["slice", "items", label, "adjusted p", "explained by", "items outside them",
                        f"{label} outside them", "rest", "one-sided p"], rows, numeric_from=1,
                       caption=("Each tested on its items outside the slices that explain it, against the items "
                                "outside it: not worse at alpha" + (f"; {more:,} more in --format json" if more > 0
                                                                    else "") + "."))]


def _standalone(r: FoundSlices) -> list[Block]:
    blocks = find_slices_blocks(r.to_dict())
    blocks.append(TextBlock(f"clfeval {(r.signature or {}).get('version', '')} · metric {r.metric}", style="dim"))
    return blocks


register(FoundSlices, text=lambda r: blocks_to_rich(_standalone(r)),
         markdown=lambda r: blocks_to_markdown(_standalone(r)))
register_section("find_slices", find_slices_blocks)
