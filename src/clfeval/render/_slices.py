"""The ``slices`` section of a report (``--by``): the slice table, the tests across slices, fairness."""

from __future__ import annotations

from typing import Any

from clfeval.core import FAIRNESS, SliceBinning
from clfeval.render import register_section
from clfeval.render._util import UNDEF, TableBlock, TextBlock, num

__all__ = ["slice_blocks", "SHOWN", "p_text", "interval_text"]

#: Slices listed in text and Markdown at most (the JSON holds every slice).
SHOWN = 40
_TABLE_METRICS = 2


def p_text(x: Any) -> str:
    if x is None:
        return "–"
    return "<0.0001" if x < 1e-4 else f"{x:.4f}"


_METHOD_SHORT = {"percentile": "percentile", "bca": "BCa", "wilson": "Wilson"}


def interval_text(ci: dict[str, Any]) -> str:
    """How the slices' intervals were made, per metric (as the overall ``ci`` block names its methods): the
    overall method run on each slice's own table."""
    level = f"{100 * ci['level']:g}%"
    per = []
    for m, used in (ci.get("methods") or {}).items():
        ranked = sorted(used.items(), key=lambda kv: -kv[1])
        per.append(f"{m} {_METHOD_SHORT.get(ranked[0][0], ranked[0][0])}" + "".join(
            f" ({_METHOD_SHORT.get(k, k)} in {n:,} slice{'s' if n != 1 else ''})" for k, n in ranked[1:]))
    resampled = not ci.get("methods") or any(k in ("percentile", "bca") for used in ci["methods"].values()
                                              for k in used)
    samples = f" ({ci['samples']:,} bootstrap samples where resampled)" if resampled else ""
    return (f"[{level} interval]: the overall interval method on each slice's own table{samples}"
            + (f"; {', '.join(per)}" if per else "") + ".")


def _interval_table(sec: dict[str, Any], shown: list[dict[str, Any]]) -> TableBlock:
    """Each shown slice's value [interval] of the first tested metrics, the methods named in the caption."""
    tested = sec["tested"][:_TABLE_METRICS + 1]

    def cell(r: dict[str, Any], m: str) -> str:
        lo, hi = (r.get("ci") or {}).get(m) or (None, None)
        return f"{num(r['metrics'].get(m))} [{num(lo)}, {num(hi)}]"

    rows = [[r["slice"] + (" (small)" if r["small"] else ""), *(cell(r, m) for m in tested)] for r in shown]
    return TableBlock(f"Slice intervals ({100 * sec['ci']['level']:g}%)", ["slice", *tested], rows,
                      caption="value " + interval_text(sec["ci"]), numeric_from=1)


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
    ranked = sec.get("ranking")
    tested = sec["tested"][:_TABLE_METRICS - (1 if ranked else 0)]  # room for ROC-AUC and AP
    by = ", ".join(sec["by"])
    blocks: list[Any] = [TextBlock(f"By slice: {by} ({sec['n_slices']:,} slices)", heading=True)]
    for b in sec.get("binning", []):
        blocks.append(TextBlock(SliceBinning.of(b).describe()))
    columns = ["slice", "n"]
    for m in tested:
        columns += [m, "Δ rest", "p (Holm)"]
    if ranked:
        columns += ["ROC-AUC", "AP"]
    rows = []
    shown = _order(sec)
    for r in shown:
        row = [r["slice"] + (" (small)" if r["small"] else ""), f"{r['n']:,}"]
        for m in tested:
            t = r["tests"].get(m)
            mark = " *" if t and t["flagged"] else ""
            gap = r["gap_to_rest"].get(m)
            row += [num(r["metrics"].get(m)), UNDEF if gap is None else num(gap),
                    p_text(t["p_holm"] if t else None) + mark]
        if ranked:
            row += [num(r["metrics"].get("roc_auc")), num(r["metrics"].get("average_precision"))]
        rows.append(row)
    rows.append(["overall", f"{sum(r['n'] for r in sec['slices']):,}"]
                + [x for m in tested for x in (num(sec["overall"][m]), "", "")]
                + ([num(sec["overall"].get("roc_auc")), num(sec["overall"].get("average_precision"))]
                   if ranked else []))
    empty = " (undefined when no other item is left)" if any(None in r["gap_to_rest"].values() for r in shown) else ""
    caption = (f"Δ rest: the slice's value minus the value of all other items{empty}. p: slice against the rest "
               f"({sec['adjustment']['flagged']} marked *); slices below {sec['min_slice']} items are shown, not "
               f"tested.")
    if ranked:
        caption += (f" ROC-AUC and AP (average precision): the ranking of each slice's items by {ranked['score']} "
                    f"for {ranked['positive']}.")
    if len(shown) < len(sec["slices"]):
        caption += f" The {len(shown)} slices with the smallest p of {tested[0]} of {len(sec['slices']):,}; the JSON " \
                   f"holds every slice."
    blocks.append(TableBlock("Slices", columns, rows, caption=caption, numeric_from=1))
    if sec.get("ci"):
        blocks.append(_interval_table(sec, shown))
    het_rows = []
    for m in sec["tested"]:
        h = sec["heterogeneity"][m]
        flagged = [r["slice"] for r in sec["slices"] if r["tests"].get(m, {}).get("flagged")]
        het_rows.append([m, h["test"], num(h.get("statistic")), p_text(h.get("p")), sec["worst"].get(m, "–"),
                         ", ".join(flagged[:5]) + (" …" if len(flagged) > 5 else "") if flagged else "none"])
    blocks.append(TableBlock("Is the gap real? (across slices; slice vs rest adjusted with Holm and "
                             "Benjamini–Yekutieli)", ["metric", "test", "statistic", "p", "worst slice",
                                                      "flagged (Holm)"], het_rows, numeric_from=2))
    fair = sec.get("fairness")
    if fair:
        ci = fair.get("ci", {})
        frows = [[k.replace("_", " "), num(v)] + ([f"[{num(ci[k][0])}, {num(ci[k][1])}]"] if k in ci else [])
                 for k, v in fair["measures"].items()]
        rules = "; ".join(f"{k.replace('_', ' ')}: {FAIRNESS[k].formula}" for k in fair["measures"] if k in FAIRNESS)
        blocks.append(TableBlock(f"Group fairness (positive class {sec['positive']}; fairlearn's definitions)",
                                 ["measure", "value"] + (["interval"] if ci else []), frows, numeric_from=1,
                                 caption=f"Between the groups, {rules}." if rules else None))
    for note in sec.get("notes", []):
        blocks.append(TextBlock(note, style="dim"))
    return blocks


register_section("slices", slice_blocks)
