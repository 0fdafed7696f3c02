"""The notebook cards (``result._repr_html_()``): every result of the front door as a compact card.

A card holds the result's summary (headline numbers, verdicts), its main table, its slices (the flagged ones
first, then the worst, each with every tested metric), the slices found, and for an error analysis the cells
with their examples; no figures, glossary or signature, and one line pointing at ``to_html()`` (the page) and
``to_frame()``. Classes follow :mod:`clfeval.core._manyclasses`; tables longer than :data:`TABLE_ROWS` rows show
their first rows and say where the rest is. Every card stays within 20 KB whatever the number of classes or
slices.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from clfeval.render._util import UNDEF, TableBlock, TextBlock, num
from clfeval.render.html.document import Link, Page, Para, Section, Summary
from clfeval.render.html.layouts import Figures

__all__ = ["card_of", "render_card", "slices_section", "TABLE_ROWS", "WORST", "EXAMPLE_CHARS", "ERROR_CELLS",
           "MAX_BYTES"]

#: Rows of a table a card shows at most (the rest: ``to_html()`` or ``to_frame()``): a class table shown whole
#: (:data:`clfeval.core._manyclasses.TABLE_ALL` classes) and its average rows; beyond, the rule picks the classes.
TABLE_ROWS = 60
#: Sentences a card shows at most: verdicts in its summary, paragraphs in a section; and a verdict's characters.
SENTENCES = 6
VERDICT_CHARS = 500
#: Slices a card lists after the flagged ones: the worst by the gap of the first tested metric (and flagged
#: slices at most as many).
WORST = 20
#: Characters of an example's text a card shows.
EXAMPLE_CHARS = 120
#: Confusion cells of an error analysis a card details (their first :data:`EXAMPLES` examples), largest first.
ERROR_CELLS = 5
EXAMPLES = 3
#: The card's limits: 1 as above; a card still over :data:`MAX_BYTES` is made again with each limit halved.
_SCALE: ContextVar[float] = ContextVar("card_scale", default=1.0)
MAX_BYTES = 20_000


def _lim(n: int) -> int:
    """A limit of the card being made (halved when the card must shrink)."""
    return max(1, int(n * _SCALE.get()))


def render_card(result: Any, id_prefix: str) -> str:
    """The card as HTML, within :data:`MAX_BYTES` (long tables shortened again when the first try is larger)."""
    from clfeval.render.html.document import render_page

    html = ""
    for scale in (1.0, 0.5, 0.25, 0.1):
        token = _SCALE.set(scale)
        try:
            page, note = card_of(result)
            html = render_page(page, standalone=False, id_prefix=id_prefix, card=True, card_note=note)
        finally:
            _SCALE.reset(token)
        if len(html.encode("utf-8")) <= MAX_BYTES:
            break
    return html


class _NoFigures(Figures):
    """A card draws no figure: every figure of a layout is left out."""

    def __call__(self, fn: Callable[..., Any], data: Any, caption: str = "", **kw: Any) -> None:
        return None


def card_of(result: Any) -> tuple[Page, str]:
    """The card of ``result`` and its closing line (what ``to_html()`` and ``to_frame()`` give)."""
    from clfeval.evaluate import Report
    from clfeval.ops.calibration import Calibration
    from clfeval.ops.compare import Compared
    from clfeval.ops.threshold import ThresholdResult

    if isinstance(result, Report):
        return _report(result), "The whole report (figures, every table, notes, glossary, signature): to_html(); " \
                                "the per-class table as a DataFrame: to_frame()."
    if type(result).__name__ == "ErrorAnalysis":
        return _errors(result), "Every cell with its terms and examples (and the figures): to_html(); the cells " \
                                "as a DataFrame: to_frame()."
    if isinstance(result, Compared) and result.kind == "sliced":
        return _sliced_comparison(result), "The whole comparison (the overall test's tables and figures): " \
                                           "to_html(); the slices as a DataFrame: to_frame()."
    page = _generic(result, _ranking(result) if type(result).__name__ == "RankingResult" else None)
    if isinstance(result, (ThresholdResult, Calibration)) and result.slices is not None:
        page.sections = [s for s in page.sections if not s.title.startswith(("By slice", "Per slice", "Slices"))]
        page.sections.append(_slices_of(result))
    return page, "The whole result (figures, every table, notes, glossary, signature): to_html(); " \
                 "its table as a DataFrame: to_frame()."


# --- tables ------------------------------------------------------------------------------------------------------

def _cut(t: TableBlock, accessor: str = "to_html()") -> TableBlock:
    """The table, its first :data:`TABLE_ROWS` rows when longer (the caption says where the rest is)."""
    rows = _lim(TABLE_ROWS)
    if len(t.rows) <= rows:
        return t
    more = f"{len(t.rows) - rows:,} more rows: {accessor} has them all."
    caption = f"{t.caption} {more}" if t.caption else more
    return TableBlock(t.title, t.columns, t.rows[:rows], caption=caption, numeric_from=t.numeric_from)


def _short(text: str) -> str:
    """A verdict of at most :data:`VERDICT_CHARS` characters, cut after a sentence (one per class, say)."""
    most = _lim(VERDICT_CHARS)
    if len(text) <= most:
        return text
    end = text.rfind(". ", 0, most)
    return (text[:end + 1] if end > 0 else text[:most - 1]) + " … (all of it: to_html())"


def _paras(items: list[Any]) -> list[Any]:
    """The items of a section with at most :data:`SENTENCES` paragraphs, and a line saying how many are left."""
    most, seen, out = _lim(SENTENCES), 0, []
    for x in items:
        if isinstance(x, Para):
            seen += 1
            if seen > most:
                continue
        out.append(x)
    if seen > most:
        out.append(Para(f"{seen - most:,} more lines: to_html() has them all.", "note"))
    return out


def _ranking(r: Any) -> Page:
    """The page of a ranking without its curves: a one-vs-rest ranking's JSON draws every class's curves, which a
    card does not show (seconds for hundreds of classes)."""
    from clfeval.render._scores import ranking_blocks
    from clfeval.render.html.layouts import base_page, card

    if r.ovr is None:
        d = r.to_dict()
    else:  # to_dict() but its "curves"
        o = r.ovr
        d = {"kind": o.kind, "n": o.n, "labels": list(o.labels),
             "per_class": {str(k): v.to_dict() for k, v in o.per_class.items()}, "roc_auc": o.macro.roc_auc,
             "average_precision": o.macro.average_precision, "macro": o.macro.to_dict(),
             "weighted": o.weighted.to_dict(), "micro": o.micro.to_dict(),
             "undefined": [u.to_dict() for u in o.undefined], "notes": list(o.notes), "signature": o.signature}
    s = Summary([card("ROC-AUC", d["roc_auc"], [("random ranking", 0.5)]),
                 card("PR-AUC (average precision)", d["average_precision"])])
    page, _ = base_page(r, [TextBlock("clfeval ranking", heading=True), *ranking_blocks(d)], notes=d.get("notes", []),
                        summary=s)
    return page


def _generic(result: Any, page: Page | None = None) -> Page:
    """The result's page (``page``, or its layout's) without its figures, notes, glossary and signature, long
    tables and texts cut."""
    from clfeval.render.html.layouts import layout

    page = page or layout(result, _NoFigures())
    for s in page.sections:
        s.items = _paras([_cut(x) if isinstance(x, TableBlock) else x for x in s.items if x is not None])
    page.sections = [s for s in page.sections if s.items]
    page.notes = []
    verdicts, most = page.summary.verdicts, _lim(SENTENCES)
    page.summary.verdicts = [_short(v) for v in verdicts[:most]] + (
        [f"{len(verdicts) - most:,} more verdicts: to_html() has them all."] if len(verdicts) > most else [])
    return page


# --- slices ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SliceLine:
    """One slice as a card shows it: its name, items, and per tested metric (value, flagged)."""

    name: str
    n: int
    small: bool
    values: dict[str, tuple[Any, bool]]
    gap: float | None  # of the first tested metric against the rest (None: undefined)


def _shown(v: Any) -> str:
    return v if isinstance(v, str) else num(v)


def _higher(metric: str) -> bool:
    from clfeval.core import catalog

    found = catalog.find(metric)
    return found is None or found[0].higher_is_better is not False


def slices_section(title: str, tested: Sequence[str], lines: Sequence[SliceLine], accessor: str, *,
                   flag_rule: str, gap_name: str = "Δ rest") -> Section:
    """The slices of a card: the flagged first, then the :data:`WORST` worst by the gap of the first tested
    metric, each with every tested metric (``*``: flagged), and the sentence naming where all of them are."""
    first = tested[0] if tested else None
    sign = 1.0 if first is None or _higher(first) else -1.0

    def badness(x: SliceLine) -> float:
        return math.inf if x.gap is None or x.gap != x.gap else sign * x.gap

    worst = _lim(WORST)
    flagged = sorted((x for x in lines if any(f for _, f in x.values.values())), key=badness)
    rest = sorted((x for x in lines if not any(f for _, f in x.values.values())), key=badness)
    shown = flagged[:worst] + rest[:worst]
    rows = [[x.name + (" (small)" if x.small else ""), f"{x.n:,}", UNDEF if x.gap is None else num(x.gap),
             *(("" if x.values.get(m) is None else _shown(x.values[m][0]) + (" *" if x.values[m][1] else ""))
               for m in tested)] for x in shown]
    words = [f"{len(flagged):,} flagged" + (f" (the {worst} worst shown)" if len(flagged) > worst else "")
             + f" ({flag_rule}, marked *), listed first"]
    if rest:
        words.append(f"then the {min(len(rest), worst)} worst by {gap_name} of {first}" if first else
                     f"then {min(len(rest), worst)} more")
    caption = "; ".join(words) + "."
    left = len(lines) - len(shown)
    items: list[Any] = [TableBlock(None, ["slice", "n", f"{gap_name} ({first})" if first else gap_name, *tested],
                                   rows, caption=caption, numeric_from=1)]
    items.append(Para(f"{left:,} more slices: {accessor} has them all." if left else
                      f"All {len(lines):,} slices shown; {accessor} has them as a table.", "note"))
    return Section(title, items)


def _report_slices(sec: Any) -> Section:
    tested = list(sec.tested or [])
    first = tested[0] if tested else None
    lines = [SliceLine(r.slice, int(r.n), bool(r.small),
                       {m: ((r.metrics or {}).get(m), bool(((r.tests or {}).get(m)) and r.tests[m].flagged))
                        for m in tested},
                       (r.gap_to_rest or {}).get(first) if first else None) for r in sec.slices]
    return slices_section(f"By slice: {', '.join(sec.by)} ({sec.n_slices:,} slices)", tested, lines,
                          "result.slices.to_frame()", flag_rule=f"Holm-adjusted p ≤ {num(sec.alpha)} against "
                                                               f"the rest")


def _slices_of(result: Any) -> Section:
    """The slices of a threshold result (at the chosen cut) or of a calibration."""
    from clfeval.ops.calibration import Calibration

    s = result.slices
    accessor = "result.slices.to_frame()"
    if isinstance(result, Calibration):
        tested = ["ece", "mce", "brier", "log_loss"]
        ece = result.ece
        lines = [SliceLine(r.slice, r.n, r.small, {m: (getattr(r, m), False) for m in tested},
                           None if r.ece is None or ece is None else r.ece - ece) for r in s.rows]
        return slices_section(f"By slice: {', '.join(s.by)} ({len(s.rows):,} slices)", tested, lines, accessor,
                              flag_rule="calibration is measured per slice, not tested", gap_name="Δ overall")
    tested = list(s.tested)
    first = tested[0] if tested else None
    lines = [SliceLine(r.slice, r.n, r.small, {m: (r.metrics.get(m), bool(m in r.tests and r.tests[m].flagged))
                                               for m in tested},
                       r.gap_to_rest.get(first) if first else None) for r in s.rows]
    return slices_section(f"By slice at the cut {s.threshold:g}: {', '.join(s.by)} ({s.n_slices:,} slices)", tested,
                          lines, accessor, flag_rule=f"Holm-adjusted p ≤ {num(s.alpha)} against the rest")


# --- the report --------------------------------------------------------------------------------------------------

def _report(rep: Any) -> Page:
    from clfeval.render.html.layouts import report_card

    page = report_card(rep)
    if rep.slices is not None:
        page.sections.append(_report_slices(rep.slices))
    fs = rep.find_slices
    if fs is not None:
        page.sections.append(_found(fs))
    return page


def _found(fs: Any) -> Section:
    """The slices found (``find_slices=``): each with its items, value against the rest, gap and adjusted p."""
    from clfeval.core import label
    from clfeval.render._slices import p_text

    name = label(fs.metric)
    top = _lim(TABLE_ROWS)
    rows = [[f.slice, f"{f.items:,}", num(f.value), num(f.rest_value), num(f.gap), p_text(f.p_adjusted)]
            for f in fs.found[:top]]
    said = (f"Searched {', '.join(fs.columns)} to depth {fs.max_depth}: {fs.examined:,} slices examined, "
            f"{fs.testable:,} testable; overall {name} = {num(fs.overall.value)}. Found: significantly worse than "
            f"the rest after the Benjamini–Yekutieli adjustment at alpha {fs.alpha:g}.")
    items: list[Any] = [Para(said, "note")]
    if rows:
        more = len(fs.found) - top
        items.append(TableBlock(None, ["slice", "items", name, "rest", "gap", "adjusted p"], rows, numeric_from=1,
                                caption=f"{more:,} more: result.find_slices.to_frame() has them all."
                                if more > 0 else None))
    else:
        items.append(Para("No slice found where the model is significantly worse.", "note"))
    return Section(f"Slices found where {name} is worst ({len(fs.found):,})", items)


# --- the comparison by slice -------------------------------------------------------------------------------------

def _sliced_comparison(r: Any) -> Page:
    from clfeval.render._slices import p_text
    from clfeval.render.html.layouts import comparison_page

    o = r.overall
    pair = comparison_page(o, _NoFigures())
    a, b = o.names
    verdicts = ([r.simpson] if r.simpson else []) + list(pair.summary.verdicts)
    summary = Summary(pair.summary.headline, pair.summary.facts + [("by", ", ".join(r.by))], verdicts)
    metric = o.metric
    lines = [SliceLine(s.slice, s.n, s.small, {"A": (s.a, False), "B": (s.b, False),
                                               "p (Holm)": (p_text(s.p_holm), bool(s.significant))},
                       s.delta) for s in r.slices]
    sec = slices_section(f"{metric} by slice: {', '.join(r.by)} ({len(r.slices):,} slices)",
                         ["A", "B", "p (Holm)"], lines, "result.to_frame()",
                         flag_rule=f"{a} better than {b} in the slice, Holm-adjusted p < {num(o.alpha)}",
                         gap_name="δ = A − B")
    return Page(f"clfeval compare by slice — {a} against {b} on {metric}", summary, [sec])


# --- the error analysis ------------------------------------------------------------------------------------------

def _clip(text: str) -> str:
    one, chars = " ".join(str(text).split()), _lim(EXAMPLE_CHARS)
    return one if len(one) <= chars else one[:chars - 1] + "…"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _name(c: Any) -> str:
    """A cell: ``g → p``, or ``c: false negatives`` (label sets)."""
    return f"{c.category}: {c.kind}" if c.category is not None else f"{c.gold} → {c.pred}"


def _terms_row(terms: Sequence[Any]) -> str:
    return ", ".join(f"{t.term} ({t.z:.1f})" for t in terms) or "—"


def _heading(c: Any) -> str:
    if c.category is not None:
        return f"{_name(c)}: {c.count:,} documents ({_pct(c.share)}); the opposite error: {c.opposite:,}"
    return f"{_name(c)}: {c.count:,} documents ({_pct(c.share)} of {c.gold}); {c.pred} → {c.gold}: {c.opposite:,}"


def _errors(r: Any) -> Page:
    """The cells table (each cell linking to its section in the card), then the largest cells' examples."""
    p = r.prior
    detailed, top, ex = r.cells[:_lim(ERROR_CELLS)], _lim(20), _lim(EXAMPLES)
    target = {id(c): f"cell{k + 1}" for k, c in enumerate(detailed)}

    def name(c: Any) -> Any:
        return Link(_name(c), target[id(c)]) if id(c) in target else _name(c)

    rows = [[name(c), f"{c.count:,}", _pct(c.share), f"{c.opposite:,}",
             Link(_terms_row(c.terms_vs_gold[:3]), left=True), Link(_terms_row(c.terms_vs_pred[:3]), left=True)]
            for c in r.cells[:top]]
    caption = (f"Cells with {r.settings.min_count} or more documents, largest first; "
               + ("the first has its examples below." if len(detailed) == 1 else
                  f"the first {len(detailed)} have their examples below (click a cell)."))
    if len(r.cells) > top:
        caption += f" {len(r.cells) - top:,} more cells: to_frame() has them all."
    sections = []
    if r.categories:
        sections.append(Section("Per category (label sets)", [_cut(TableBlock(
            None, ["category", "TP", "FP", "FN", "TN"], [[x.label, x.tp, x.fp, x.fn, x.tn] for x in r.categories],
            numeric_from=1))]))
    if rows:
        what = "Error cells" if r.task == "multi-label" else "Confused cells"
        sides = ("FN vs TP, FP vs TN (z)", "FN vs TN, FP vs TP (z)") if r.task == "multi-label" else \
            ("vs correct gold (z)", "vs correct predicted (z)")
        columns = ["category: error" if r.task == "multi-label" else "gold → predicted", "documents",
                   "share" if r.task == "multi-label" else "share of gold", "opposite", *sides]
        sections.append(Section(what, [TableBlock(None, columns, rows, caption=caption, numeric_from=1)]))
    else:
        sections.append(Section("Confused cells", [Para(f"No cell with {r.settings.min_count} or more documents.",
                                                        "note")]))
    for k, c in enumerate(detailed):
        items: list[Any] = []
        if c.examples:
            items.append(TableBlock(None, ["id", "text"], [[e.id, _clip(e.text)] for e in c.examples[:ex]],
                                    numeric_from=9))
        if c.confident:
            items.append(TableBlock("Most confident mistakes", ["id", "score", "text"],
                                    [[e.id, f"{e.score:.4g}", _clip(e.text)] for e in c.confident[:ex]],
                                    numeric_from=9))
        if not items:
            items.append(Para("No examples (examples=0).", "note"))
        sections.append(Section(_heading(c), items, id=f"cell{k + 1}"))
    kinds = f"{len(r.labels)} categories (label sets)" if r.task == "multi-label" else f"{len(r.labels)} classes"
    summary = Summary(facts=[("documents", f"{p.documents:,}"), ("labels", kinds),
                             ("terms", f"{p.terms:,} ({r.analyzer.description})"),
                             ("scores", f"weighted log-odds, Dirichlet prior α0 = {p.alpha0:g}, listed from "
                                        f"z ≥ {r.settings.z_min:g} (uncorrected)")])
    return Page("What the errors share", summary, sections)
