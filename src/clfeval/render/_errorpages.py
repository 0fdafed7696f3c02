"""An :class:`~clfeval.ops.errors.ErrorAnalysis` as text, Markdown and HTML.

Text and Markdown come from one list of blocks. The HTML page is self-contained and has no JavaScript:
the confusion heatmap and the table of cells link every listed off-diagonal cell to its section (plain
``#cell-i-j`` anchors); each section has a bar chart of the terms' z-scores (both sides) and the examples
with the listed terms highlighted. Every document string is escaped — HTML, control characters and
bidirectional controls (:func:`clfeval.core._inert.shown`) — before it is placed.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from clfeval.core import shown
from clfeval.ops.errors import FN, FP, ErrorAnalysis, ErrorCell, ErrorTerm
from clfeval.render import register, register_section
from clfeval.render._util import TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich

__all__ = ["blocks", "html_page", "errors_share_section"]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _terms_row(terms: tuple[ErrorTerm, ...]) -> str:
    return ", ".join(f"{t.term} ({t.z:.1f})" for t in terms) or "—"


def _snippet(text: str) -> str:
    """An example on one line of a table: runs of white space (line breaks too) one space, then inert."""
    return shown(" ".join(str(text).split()))


def _name(c: ErrorCell) -> str:
    """A cell in a table: ``g → p``, or ``c: false negatives`` (label sets)."""
    return f"{c.category}: {c.kind}" if c.category is not None else f"{c.gold} → {c.pred}"


def _heading(c: ErrorCell) -> str:
    """A cell's section heading (plain text: escape it for HTML)."""
    k = c.category
    if c.kind == FN:
        return (f"false negatives of {k}: {c.count:,} documents carry {k} and were not given it ({_pct(c.share)} "
                f"of the {k} documents); its false positives: {c.opposite:,}")
    if c.kind == FP:
        return (f"false positives of {k}: {c.count:,} documents were given {k} without carrying it "
                f"({_pct(c.share)} of the documents without {k}); its false negatives: {c.opposite:,}")
    return (f"{c.gold} → {c.pred}: {c.count:,} documents ({_pct(c.share)} of {c.gold}); "
            f"{c.pred} → {c.gold}: {c.opposite:,}")


def _against(c: ErrorCell) -> tuple[str, str]:
    """What each side is compared with, in words (results of older versions: the single-label words)."""
    if c.against[0]:
        return c.against
    return (f"the correctly classified {c.gold} documents (what pulled them away)",
            f"the correctly classified {c.pred} documents (what they share with {c.pred})")


def _columns(r: ErrorAnalysis) -> list[str]:
    if r.task == "multi-label":
        return ["category: error", "documents", "share", "opposite", "FN vs TP, FP vs TN (z)",
                "FN vs TN, FP vs TP (z)"]
    return ["gold → predicted", "documents", "share of gold", "opposite", "vs correct gold (z)",
            "vs correct predicted (z)"]


def _what(r: ErrorAnalysis) -> str:
    if r.task == "multi-label":
        return f"{len(r.labels)} categories (label sets: each category's false negatives and false positives)"
    return f"{len(r.labels)} classes"


def blocks(r: ErrorAnalysis) -> list[Any]:
    """The text / Markdown layout."""
    p = r.prior
    out: list[Any] = [TextBlock("What the errors share", heading=True),
                      TextBlock(f"{p.documents:,} documents, {_what(r)}, {p.tokens:,} tokens of "
                                f"{p.terms:,} terms ({r.analyzer.description}). Terms: weighted log-odds ratio "
                                f"with an informative Dirichlet prior, α0 = {p.alpha0:g} ({p.reference}); "
                                f"listed from z ≥ {r.settings.z_min:g}, uncorrected.")]
    rows = [[_name(c), c.count, _pct(c.share), c.opposite, _terms_row(c.terms_vs_gold[:5]),
             _terms_row(c.terms_vs_pred[:5])] for c in r.cells]
    if r.categories:
        out.append(TableBlock("Per category (label sets)", ["category", "TP", "FP", "FN", "TN"],
                              [[x.label, x.tp, x.fp, x.fn, x.tn] for x in r.categories]))
    if rows:
        what = "Error cells" if r.task == "multi-label" else "Confused cells"
        out.append(TableBlock(f"{what} with {r.settings.min_count} or more documents, largest first",
                              _columns(r), rows))
    if r.by:
        out.append(TableBlock(_slices_title(r), _SLICE_HEAD, _slice_rows(r), caption=_slices_caption(r)))
    for c in r.cells:
        out.append(TextBlock(_heading(c), heading=True))
        sides = _against(c)
        for title, terms in ((f"Against {sides[0]}", c.terms_vs_gold), (f"Against {sides[1]}", c.terms_vs_pred)):
            if terms:
                out.append(TableBlock(title, ["term", "z", "δ̂", "in mistakes", "in other"],
                                      [[t.term, f"{t.z:.2f}", f"{t.delta:.3f}", t.count, t.other]
                                       for t in terms]))
            else:
                out.append(TextBlock(f"{title}: no term with z ≥ {r.settings.z_min:g}."))
        if c.flagged is not None:
            out.append(_gold_errors_block(c))
        if c.examples:
            out.append(TableBlock(f"Examples (the {len(c.examples)} smallest hashes of (seed {r.settings.seed}, "
                                  f"{r.settings.sample_key}))", ["id", "text"],
                                  [[e.id, _snippet(e.text)] for e in c.examples], numeric_from=9))
        if c.confident:
            out.append(TableBlock("Most confident mistakes", ["id", "score", "text"],
                                  [[e.id, f"{e.score:.4g}", _snippet(e.text)] for e in c.confident],
                                  numeric_from=9))
        for n in c.notes:
            out.append(TextBlock(n, style="dim"))
    for n in r.notes:
        out.append(TextBlock("Note: " + n, style="dim"))
    return out


def _gold_errors_title(c: ErrorCell) -> str:
    """The title of a cell's likely gold errors (with ``label_issues``)."""
    shown_part = (f"; the {len(c.likely_gold_errors)} smallest hashes shown"
                  if c.flagged and len(c.likely_gold_errors) < (c.flagged or 0) else "")
    return f"Likely gold errors (flagged by label-issues: {c.flagged or 0:,} of the cell's {c.count:,}{shown_part})"


def _gold_errors_block(c: ErrorCell) -> Any:
    if not c.likely_gold_errors:
        return TextBlock(_gold_errors_title(c) + ".", style="dim")
    return TableBlock(_gold_errors_title(c), ["id", "suggested label", "text"],
                      [[e.id, e.suggested, _snippet(e.text)] for e in c.likely_gold_errors], numeric_from=9)


_SLICE_HEAD = ["slice", "documents", "errors", "error rate", "largest error cell", "its documents",
               "vs correct gold (z)"]


def _slices_title(r: ErrorAnalysis) -> str:
    return f"Errors by slice ({', '.join(r.by)}): {len(r.slices)} slices"


def _slices_caption(r: ErrorAnalysis) -> str:
    return (f"Each slice analysed on its own documents (its cells, terms, prior and examples: `error_analysis` of "
            f"that slice's rows); the largest error cell with {r.settings.min_count} or more documents, '—' when "
            f"none has. The JSON has every slice's cells.")


def _slice_rows(r: ErrorAnalysis) -> list[list[Any]]:
    rows = []
    for x in r.slices:
        top = x.analysis.cells[0] if x.analysis.cells else None
        rows.append([x.name, x.documents, x.errors, _pct(x.error_rate), "—" if top is None else _name(top),
                     "—" if top is None else top.count, "—" if top is None else _terms_row(top.terms_vs_gold[:5])])
    return rows


def _slices_table(r: ErrorAnalysis) -> str:
    left = (0, 4, 6)

    def cell(k: int, v: Any, tag: str = "td") -> str:
        shown_value = f"{v:,}" if isinstance(v, int) else v
        return f"<{tag} class='l'>{esc(shown_value)}</{tag}>" if k in left else f"<{tag}>{esc(shown_value)}</{tag}>"

    head = "".join(cell(k, h, "th") for k, h in enumerate(_SLICE_HEAD))
    body = "".join("<tr>" + "".join(cell(k, v) for k, v in enumerate(row)) + "</tr>" for row in _slice_rows(r))
    return (f"<h2 id='by-slice'>{esc(_slices_title(r))}</h2><table><caption>{esc(_slices_caption(r))}</caption>"
            f"<tr>{head}</tr>{body}</table>")


def _text(r: ErrorAnalysis) -> list[Any]:
    return blocks_to_rich(blocks(r))


def _markdown(r: ErrorAnalysis) -> str:
    return blocks_to_markdown(blocks(r))


register(ErrorAnalysis, text=_text, markdown=_markdown)


def share_blocks(d: dict[str, Any]) -> list[Any]:
    """A report's ``errors_share`` section (``report --text``): the largest confused cells and their terms."""
    out: list[Any] = [TextBlock("What the errors share", heading=True)]
    cells = d.get("cells") or []
    if not cells:
        return out + [TextBlock(f"No confused cell has {d['settings']['min_count']} or more documents.")]

    def terms(ts: list[dict[str, Any]]) -> str:
        return ", ".join(f"{t['term']} ({t['z']:.1f})" for t in ts[:6]) or "—"

    sets = any(c.get("category") is not None for c in cells)
    rows = [[f"{c['category']}: {c['kind']}" if c.get("category") is not None else f"{c['gold']} → {c['pred']}",
             c["count"], c["opposite"], terms(c["terms_vs_gold"]), terms(c["terms_vs_pred"]),
             ", ".join(str(e["id"]) for e in c["examples"][:3])] for c in cells]
    p = d["prior"]
    heads = (["category: error", "documents", "opposite", "FN vs TP, FP vs TN (z)", "FN vs TN, FP vs TP (z)"] if sets
             else ["gold → predicted", "documents", "opposite", "vs correct gold (z)", "vs correct predicted (z)"])
    out.append(TableBlock(f"The {len(cells)} largest {'error' if sets else 'confused'} cells", heads + ["example ids"],
                          rows, numeric_from=9,
                          caption=f"Terms over-represented in the mistakes: weighted log-odds with an informative "
                                  f"Dirichlet prior (α0 = {p['alpha0']:g}; {p['reference']}), z ≥ "
                                  f"{d['settings']['z_min']:g}, uncorrected. Every cell, its examples and figures: "
                                  f"`clfeval errors`."))
    return out


register_section("errors_share", share_blocks)


# --- HTML ------------------------------------------------------------------------------------------------

def esc(text: Any) -> str:
    """A user string for HTML: control characters and bidirectional controls made visible, then escaped."""
    return html.escape(shown(text), quote=True)


_BREAK = re.compile(r"\r\n|\r|\n")


def esc_lines(text: str) -> str:
    """A document's text for HTML: its line breaks (``\\n``, ``\\r\\n``, ``\\r``) as ``<br>``, each line
    escaped by :func:`esc` (other control characters stay visible escapes).

    >>> esc_lines("a<b\\r\\nc\\x1b")
    'a&lt;b<br>c\\\\x1b'
    """
    return "<br>".join(esc(line) for line in _BREAK.split(text))


def highlighted(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """The text with ``<mark>`` around each span; every piece escaped, line breaks kept (:func:`esc_lines`)."""
    out, at = [], 0
    for s, e in sorted(spans):
        if s < at:
            continue
        out.append(esc_lines(text[at:s]))
        out.append(f"<mark>{esc_lines(text[s:e])}</mark>")
        at = e
    out.append(esc_lines(text[at:]))
    return "".join(out)


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222;line-height:1.45}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-top:1px solid #ddd;padding-top:.8em}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccc;padding:.25em .5em;text-align:right}
th{background:#f4f4f4}td.l,th.l{text-align:left}.heat td{min-width:2.5em;text-align:center}
.heat td a{color:inherit;font-weight:bold}.note{color:#555;font-size:.92em}
mark{background:#ffe08a;padding:0 .1em}.ex{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em;
white-space:pre-wrap;word-break:break-word;text-align:left;max-width:60em}
a.back{font-size:.85em}caption{text-align:left;color:#555;font-size:.9em}
"""


def _overview(r: ErrorAnalysis, listed: set[str]) -> str:
    """The confusion heatmap (single-label) or the categories' table (label sets), listed cells linked."""
    return _categories(r, listed) if r.task == "multi-label" else _heat(r, listed)


def _heat(r: ErrorAnalysis, listed: set[str]) -> str:
    rows = ["<table class='heat'><caption>Confusion matrix (rows gold, columns predicted); shade: share of the "
            "gold row. Each linked cell opens its section.</caption><tr><th class='l'>gold \\ predicted</th>"
            + "".join(f"<th>{esc(lab)}</th>" for lab in r.labels) + "</tr>"]
    for i, g in enumerate(r.labels):
        total = sum(r.matrix[i]) or 1
        cells = []
        for j, p in enumerate(r.labels):
            n = r.matrix[i][j]
            share = n / total
            color = (f"rgba(0,114,178,{0.1 + 0.8 * share:.2f})" if i == j
                     else f"rgba(213,94,0,{min(1.0, 0.1 + 1.6 * share):.2f})") if n else "#fff"
            anchor = r.anchor(g, p)
            body = f"<a href='#{anchor}'>{n:,}</a>" if anchor in listed else f"{n:,}"
            cells.append(f"<td style='background:{color}' title='{esc(g)} → {esc(p)}: {n:,}'>{body}</td>")
        rows.append(f"<tr><th class='l'>{esc(g)}</th>{''.join(cells)}</tr>")
    rows.append("</table>")
    return "".join(rows)


def _categories(r: ErrorAnalysis, listed: set[str]) -> str:
    """Label sets: one row per category, its false positives and false negatives linked to their sections."""
    rows = ["<table class='heat'><caption>Per category (label sets): true positives, false positives, false "
            "negatives, true negatives; shade: the errors' share (FN of the category's documents, FP of the others). "
            "Each linked count opens its section.</caption><tr><th class='l'>category</th><th>TP</th><th>FP</th>"
            "<th>FN</th><th>TN</th></tr>"]
    for i, x in enumerate(r.categories):
        cells = [f"<td>{x.tp:,}</td>"]
        for key, n, base in (("fp", x.fp, x.fp + x.tn), ("fn", x.fn, x.fn + x.tp)):
            anchor = f"cell-{i}-{key}"
            color = f"rgba(213,94,0,{min(1.0, 0.1 + 1.6 * n / base):.2f})" if n and base else "#fff"
            body = f"<a href='#{anchor}'>{n:,}</a>" if anchor in listed else f"{n:,}"
            cells.append(f"<td style='background:{color}' title='{esc(x.label)}: {key.upper()} {n:,}'>{body}</td>")
        cells.append(f"<td>{x.tn:,}</td>")
        rows.append(f"<tr><th class='l'>{esc(x.label)}</th>{''.join(cells)}</tr>")
    return "".join(rows) + "</table>"


def _cells_table(r: ErrorAnalysis) -> str:
    left = (0, 4, 5)  # the cell and the two term columns: text, left-aligned
    head = "<table><tr>" + "".join((f"<th class='l'>{esc(h)}</th>" if k in left else f"<th>{esc(h)}</th>")
                                   for k, h in enumerate(_columns(r))) + "</tr>"
    rows = [f"<tr><td class='l'><a href='#{r.anchor_of(c)}'>{esc(_name(c))}</a></td>"
            f"<td>{c.count:,}</td><td>{_pct(c.share)}</td><td>{c.opposite:,}</td>"
            f"<td class='l'>{esc(_terms_row(c.terms_vs_gold[:5]))}</td>"
            f"<td class='l'>{esc(_terms_row(c.terms_vs_pred[:5]))}</td></tr>" for c in r.cells]
    return head + "".join(rows) + "</table>"


def _figure(c: ErrorCell, z_min: float, k: int) -> str:
    try:
        from clfeval.plots import cell_terms, figure_svg
    except ImportError:  # pragma: no cover
        return ""
    return figure_svg(cell_terms(c, z_min=z_min), prefix=f"t{k}",
                      title=f"z-scores of the terms of {shown(_name(c))}")


def _section(r: ErrorAnalysis, c: ErrorCell, k: int, figures: bool) -> str:
    zmin = r.settings.z_min
    parts = [f"<section id='{r.anchor_of(c)}'><h2>{esc(_heading(c))}</h2>"]
    if figures and (c.terms_vs_gold or c.terms_vs_pred):
        parts.append(_figure(c, zmin, k))
    sides = _against(c)
    for title, terms in ((f"Against {esc(sides[0])}", c.terms_vs_gold), (f"Against {esc(sides[1])}", c.terms_vs_pred)):
        parts.append(f"<h3>{title}</h3>")
        if not terms:
            parts.append(f"<p class='note'>No term with z ≥ {zmin:g}.</p>")
            continue
        parts.append("<table><tr><th class='l'>term</th><th>z</th><th>δ̂</th><th>tokens in mistakes</th>"
                     "<th>tokens in other</th></tr>" + "".join(
                         f"<tr><td class='l'>{esc(t.term)}</td><td>{t.z:.2f}</td><td>{t.delta:.3f}</td>"
                         f"<td>{t.count:,}</td><td>{t.other:,}</td></tr>" for t in terms) + "</table>")
    if c.flagged is not None:
        parts.append(f"<h3>{esc(_gold_errors_title(c))}</h3>")
        if c.likely_gold_errors:
            parts.append("<table><tr><th class='l'>id</th><th class='l'>suggested label</th>"
                         "<th class='l'>text (the listed terms marked)</th></tr>" + "".join(
                             f"<tr><td class='l'>{esc(e.id)}</td><td class='l'>{esc(e.suggested)}</td>"
                             f"<td class='ex'>{highlighted(e.text, e.spans)}</td></tr>"
                             for e in c.likely_gold_errors) + "</table>")
    rows: Sequence[tuple[str, str | None, str, tuple[tuple[int, int], ...]]]
    for title, rows in (("Examples", [(e.id, None, e.text, e.spans) for e in c.examples]),
                        ("Most confident mistakes", [(e.id, f"{e.score:.4g}", e.text, e.spans) for e in c.confident])):
        if not rows:
            continue
        scored = title != "Examples"
        parts.append(f"<h3>{title}</h3><table><tr><th class='l'>id</th>" + ("<th>score</th>" if scored else "")
                     + "<th class='l'>text (the listed terms marked)</th></tr>")
        for key, score, text, spans in rows:
            shown_score = f"<td>{score}</td>" if score is not None else ""
            parts.append(f"<tr><td class='l'>{esc(key)}</td>{shown_score}<td class='ex'>"
                         f"{highlighted(text, spans)}</td></tr>")
        parts.append("</table>")
    for n in c.notes:
        parts.append(f"<p class='note'>{esc(n)}</p>")
    back = "the categories" if r.task == "multi-label" else "the matrix"
    parts.append(f"<p><a class='back' href='#top'>back to {back}</a></p></section>")
    return "".join(parts)


def _summary(r: ErrorAnalysis) -> str:
    p = r.prior
    return (f"<p>{p.documents:,} documents, {esc(_what(r))}, {p.tokens:,} tokens of {p.terms:,} "
            f"terms ({esc(r.analyzer.description)}). Distinctive terms: the weighted log-odds ratio with an "
            f"informative Dirichlet prior, α0 = {p.alpha0:g}, α_w = α0 × (count of w) / (all tokens) "
            f"({esc(p.reference)}); listed from z ≥ {r.settings.z_min:g}, <strong>uncorrected</strong> for the "
            f"many terms tested. {_examples_line(r)}</p>")


def _examples_line(r: ErrorAnalysis) -> str:
    if not r.settings.examples:
        return "No examples (examples 0)."
    return (f"Examples: the {r.settings.examples} items of each cell with the smallest BLAKE2b hash keyed by seed "
            f"{r.settings.seed} (the same however the input is split).")


def html_body(r: ErrorAnalysis, *, figures: bool = True, limit: int | None = None) -> str:
    """The analysis's sections as HTML (the heatmap, the cells table, one section per cell)."""
    cells = r.cells if limit is None else r.cells[:limit]
    parts = [_summary(r), _overview(r, {r.anchor_of(c) for c in cells})]
    if r.cells:
        parts.append(_cells_table(r) if limit is None else "")
    if r.by and limit is None:
        parts.append(_slices_table(r))
    parts += [_section(r, c, k, figures) for k, c in enumerate(cells)]
    parts += [f"<p class='note'>Note: {esc(n)}</p>" for n in r.notes]
    return "".join(parts)


def html_page(r: ErrorAnalysis) -> str:
    """One self-contained page (no JavaScript, no external resource)."""
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>What the errors share</title>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><style>{_CSS}</style></head>"
            f"<body><h1 id='top'>What the errors share</h1>{html_body(r)}</body></html>\n")


def errors_share_section(r: ErrorAnalysis, top: int = 3) -> str:
    """The report page's "what the errors share": the top ``top`` cells (figures included)."""
    return "<h2 id='errors-share'>What the errors share</h2>" + html_body(r, limit=top)
