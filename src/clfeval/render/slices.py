"""The ``slices`` section of a report (``--by``): the slice table, the tests across slices, fairness."""

from __future__ import annotations

from typing import Any

from clfeval.render import register_section
from clfeval.render._util import TableBlock, TextBlock, num

__all__ = ["slice_blocks", "SHOWN"]

#: Slices listed in text and Markdown at most (the JSON holds every slice).
SHOWN = 40
_TABLE_METRICS = 2


def _p(x: Any) -> str:
    if x is None:
        return "–"
    return "<0.0001" if x < 1e-4 else f"{x:.4f}"


def _order(sec: dict[str, Any]) -> list[dict[str, Any]]:
    rows = sec["slices"]
    if len(rows) <= SHOWN:
        return rows
    first = sec["tested"][0] if sec["tested"] else None

    def key(r: dict[str, Any]) -> float:
        t = r["tests"].get(first) if first else None
        return t["p_holm"] if t else 2.0

    return sorted(rows, key=key)[:SHOWN]


def slice_blocks(sec: dict[str, Any]) -> list[Any]:
    """Blocks of the section (see :mod:`clfeval.render`)."""
    tested = sec["tested"][:_TABLE_METRICS]
    by = ", ".join(sec["by"])
    blocks: list[Any] = [TextBlock(f"By slice: {by} ({sec['n_slices']:,} slices)", heading=True)]
    for b in sec.get("binning", []):
        blocks.append(TextBlock(f"Column {b['column']} cut into {len(b['edges']) - 1} {b['binning']} bins; edges: "
                                f"{', '.join(f'{e:.6g}' for e in b['edges'])}."))
    columns = ["slice", "n"]
    for m in tested:
        columns += [m, "Δ rest", "p (Holm)"]
    rows = []
    shown = _order(sec)
    for r in shown:
        row = [r["slice"] + (" (small)" if r["small"] else ""), f"{r['n']:,}"]
        for m in tested:
            t = r["tests"].get(m)
            mark = " *" if t and t["flagged"] else ""
            row += [num(r["metrics"].get(m)), num(r["gap_to_rest"].get(m)), _p(t["p_holm"] if t else None) + mark]
        rows.append(row)
    rows.append(["overall", f"{sum(r['n'] for r in sec['slices']):,}"]
                + [x for m in tested for x in (num(sec["overall"][m]), "", "")])
    caption = (f"Δ rest: the slice's value minus the value of all other items. p: slice against the rest "
               f"({sec['adjustment']['flagged']} marked *); slices below {sec['min_slice']} items are shown, not "
               f"tested.")
    if len(shown) < len(sec["slices"]):
        caption += f" The {len(shown)} slices with the smallest p of {tested[0]} of {len(sec['slices']):,}; the JSON " \
                   f"holds every slice."
    blocks.append(TableBlock("Slices", columns, rows, caption=caption, numeric_from=1))
    het_rows = []
    for m in sec["tested"]:
        h = sec["heterogeneity"][m]
        flagged = [r["slice"] for r in sec["slices"] if r["tests"].get(m, {}).get("flagged")]
        het_rows.append([m, h["test"], num(h.get("statistic")), _p(h.get("p")), sec["worst"].get(m, "–"),
                         ", ".join(flagged[:5]) + (" …" if len(flagged) > 5 else "") if flagged else "none"])
    blocks.append(TableBlock("Is the gap real? (across slices; slice vs rest adjusted with Holm and "
                             "Benjamini–Yekutieli)", ["metric", "test", "statistic", "p", "worst slice",
                                                      "flagged (Holm)"], het_rows, numeric_from=2))
    fair = sec.get("fairness")
    if fair:
        ci = fair.get("ci", {})
        frows = [[k.replace("_", " "), num(v)] + ([f"[{num(ci[k][0])}, {num(ci[k][1])}]"] if k in ci else [])
                 for k, v in fair["measures"].items()]
        blocks.append(TableBlock(f"Group fairness (positive class {sec['positive']}; fairlearn's definitions)",
                                 ["measure", "value"] + (["interval"] if ci else []), frows, numeric_from=1))
    for note in sec.get("notes", []):
        blocks.append(TextBlock(note, style="dim"))
    return blocks


register_section("slices", slice_blocks)


def _compare_blocks(r: Any) -> list[Any]:
    from clfeval.render.significance import comparison_blocks

    d = r.to_dict()
    o = d["overall"]
    a, b = o["names"]["a"], o["names"]["b"]
    blocks: list[Any] = [TextBlock(f"Compare by slice: {', '.join(d['by'])}", heading=True)]
    if d["simpson"]:
        blocks.append(TextBlock(d["simpson"], style="bold"))
    rows = [[s["slice"] + (" (small)" if s["small"] else ""), f"{s['n']:,}", num(s.get("a")), num(s.get("b")),
             num(s.get("delta")), _p(s.get("p")), _p(s.get("p_holm")) + (" *" if s.get("significant") else ""),
             _p(s.get("p_by"))] for s in d["slices"][:SHOWN]]
    rows.append(["overall", f"{o['n']:,}", num(o["a"]), num(o["b"]), num(o["delta"]), _p(o["p_value"]), "", ""])
    blocks.append(TableBlock(f"{o['metric']} per slice ({o['test']}, {o['samples']:,} samples per slice)",
                             ["slice", "n", a, b, "δ = A − B", "p", "p (Holm)", "p (BY)"], rows,
                             caption=f"One-sided p for '{a} better than {b}' in each slice; Holm-adjusted p < α "
                                     f"marked *.", numeric_from=1))
    for bn in d.get("binning", []):
        blocks.append(TextBlock(f"Column {bn['column']} cut into {len(bn['edges']) - 1} {bn['binning']} bins; edges: "
                                f"{', '.join(f'{e:.6g}' for e in bn['edges'])}."))
    blocks.append(TextBlock("Overall", heading=True))
    blocks.extend(comparison_blocks(r.overall))
    for note in d["notes"]:
        blocks.append(TextBlock(note, style="dim"))
    return blocks


def _register() -> None:
    from clfeval.render import register
    from clfeval.render._util import blocks_to_markdown, blocks_to_rich
    from clfeval.significance.slicecompare import SlicedComparison

    register(SlicedComparison, text=lambda r: blocks_to_rich(_compare_blocks(r)),
             markdown=lambda r: blocks_to_markdown(_compare_blocks(r)))


_register()


def _register_threshold() -> None:
    from clfeval.engines.slicescores import SlicedThreshold
    from clfeval.render import register
    from clfeval.render._util import blocks_to_markdown, blocks_to_rich
    from clfeval.render.scores import threshold_blocks

    def blocks(r: Any) -> list[Any]:
        return [*threshold_blocks(r.choice),
                TextBlock(f"The cut {r.slices['threshold']:g}, chosen once overall, on every slice of the test data."),
                *slice_blocks(r.slices)]

    register(SlicedThreshold, text=lambda r: blocks_to_rich(blocks(r)),
             markdown=lambda r: blocks_to_markdown(blocks(r)))


_register_threshold()


def _register_calibration() -> None:
    from clfeval.engines.slicescores import SlicedCalibration
    from clfeval.render import register
    from clfeval.render._util import blocks_to_markdown, blocks_to_rich
    from clfeval.render.scores import calibration_blocks

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
