"""Result → :class:`~clfeval.render.html.document.Page`: the text layout's tables, plus a summary and figures.

Each layout reuses the blocks of the text renderer (so the HTML report shows
the same tables and sentences as the text report), places the figures after
the tables they illustrate, and writes a summary first. Results without a
layout of their own get the generic one (their blocks, no figures).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from clfeval.errors import MissingExtra, UsageError
from clfeval.render._util import Block, TableBlock, TextBlock, num
from clfeval.render.html.document import Figure, Page, Para, Section, Summary, sections_from_blocks, signature_rows

if TYPE_CHECKING:
    from clfeval.ops.calibration import Calibration
    from clfeval.ops.compare import Compared
    from clfeval.ops.threshold import ThresholdResult

__all__ = ["layout", "register_layout", "Figures", "attach", "base_page", "card", "shown", "p_card", "report_card"]

_LAYOUTS: dict[type, Callable[..., Page]] = {}


def register_layout(result_type: type, fn: Callable[..., Page]) -> None:
    """Register the HTML layout of a result type: ``fn(result, figs)`` returns its :class:`Page`, drawing its
    figures with ``figs`` (which numbers their SVG ids, so that the figures of several results share a page)."""
    _LAYOUTS[result_type] = fn


class Figures:
    """Draws figures for one page, numbering their SVG ids (fig1, fig2, ...) in order."""

    def __init__(self, prefix: str = "fig") -> None:
        self.n = 0
        self.prefix = prefix

    def __call__(self, fn: Callable[..., Any], data: Any, caption: str = "", **kw: Any) -> Figure | None:
        from clfeval.plots import mpl as _mpl

        try:
            fig = fn(data, **kw)
        except MissingExtra:
            raise
        except UsageError:
            return None  # the result lacks what this figure needs
        self.n += 1
        svg = _mpl.figure_svg(fig, f"{self.prefix}{self.n}", title=caption or None)
        return Figure(svg, caption)


def attach(sections: list[Section], starts: str, figures: Sequence[Figure | None], *, new: str | None = None,
            at: int | None = None) -> None:
    """Append figures to the first section whose title starts with ``starts`` (or open section ``new``)."""
    figs = [f for f in figures if f is not None]
    if not figs:
        return
    for s in sections:
        if s.title.startswith(starts):
            s.items.extend(figs)
            return
    if new is not None:
        sec = Section(new, list(figs))
        sections.insert(len(sections) if at is None else at, sec)


def _dropper(notes: Sequence[str], extra: Sequence[str] = ()) -> Callable[[TextBlock], bool]:
    """Leave out of the sections the paragraphs the page shows in its notes and signature."""
    skip = set(notes) | set(extra)

    def drop(b: TextBlock) -> bool:
        return b.text in skip or (b.style == "dim" and b.text.startswith("clfeval ") and " · " in b.text)

    return drop


def base_page(result: Any, blocks: list[Block], *, notes: Sequence[str] = (), summary: Summary | None = None,
          extra_notes: Sequence[str] = ()) -> tuple[Page, list[Section]]:
    notes = [n for n in list(extra_notes) + list(notes) if n]
    shown = summary.verdicts if summary is not None else []
    title, sections = sections_from_blocks(blocks, drop=_dropper(notes, shown))
    sig, run = signature_rows(getattr(result, "signature", None) or {})
    run_id = getattr(result, "run_id", None)
    if run_id is not None:
        run.insert(0, ("run id", str(run_id)))
    page = Page(title or type(result).__name__, summary or Summary(), sections, notes, sig, run)
    return page, sections


def shown(value: Any) -> str:
    """A number as the text output prints it; a string (already written as the tables write it) as it is."""
    return value if isinstance(value, str) else num(value)


def _pct(level: float) -> str:
    return f"{level * 100:g}%"


def interval_text(ci: Any) -> str:
    """[low, high] as the tables write the numbers."""
    if not ci or any(x is None or x != x for x in ci):  # absent, or undefined (NaN)
        return "—"
    return f"[{num(ci[0])}, {num(ci[1])}]"


def card(name: str, value: Any, baselines: Sequence[tuple[str, Any]] = ()) -> dict[str, Any]:
    return {"name": name, "value": shown(value), "baselines": [(b, shown(v)) for b, v in baselines]}


# --- the report ------------------------------------------------------------------------------------

def report_page(rep: Any, figs: Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render._reports import report_blocks, undefined_text

    d = rep.to_dict()
    und = undefined_text(rep)
    page, sections = base_page(rep, report_blocks(rep), notes=rep.notes, extra_notes=[und] if und else [],
                           summary=_report_summary(rep))
    figs = figs or Figures()
    if rep.confusion_matrix is not None:
        attach(sections, "Confusion matrix", [figs(plots.confusion_matrix, d, "Confusion matrix")],
                new="Confusion matrix", at=0)
    elif rep.kind == "multilabel":
        sections.insert(0, Section("No confusion matrix", [Para(
            "Multi-label data have no confusion matrix: an item may carry several labels, so an error is not one "
            "gold class predicted as another. Each label has its own binary table instead (TP, FP, FN, TN in the "
            "per-label table below, its precision, recall and F1 in the figure under that table).", "note")]))
    attach(sections, "Per class", [figs(plots.per_class, d, "Precision, recall and F1 per class"),
                                    figs(plots.phi_delta, d, "The classes in the φ–δ diagram")])
    if rep.ranking is not None:
        attach(sections, "Ranking", [figs(plots.roc, d, "ROC curve"), figs(plots.pr, d, "Precision–recall curve")])
    if rep.slices is not None:
        attach(sections, "By slice", [figs(plots.forest, d, "Forest plot of the slices")])
    if rep.find_slices is not None and rep.find_slices.found:
        attach(sections, "Slices where", [figs(plots.found_forest, d, "Forest plot of the slices found")])
    return page


def report_card(rep: Any) -> Page:
    """The notebook card of a report (``_repr_html_``): the summary, the confusion matrix and the per-class table,
    no figures, glossary or signature (``rep.to_html()`` is the whole page).

    Classes follow :mod:`clfeval.core._manyclasses`: the per-class table shows the table's classes, the matrix
    the figure's (at most :data:`~clfeval.core._manyclasses.FIGURE_ALL`, the largest by support), each with the
    sentence saying what is left out.
    """
    from clfeval.render._reports import shown_of

    rows_of = shown_of(rep)
    cols = ["class", "support", "precision", "recall", "F1"]
    per_class = TableBlock(None, cols, [[lab,
                                         *(getattr(rep.per_class[lab], k) for k in ("support", "precision", "recall",
                                                                                  "f1"))]
                                        for lab in rows_of.labels], caption=rows_of.sentence())
    sections = []
    if rep.confusion_matrix is not None:
        shown_m = shown_of(rep, figure=True)
        index = {str(lab): i for i, lab in enumerate(rep.labels)}
        pick = [index[lab] for lab in shown_m.labels]
        m = rep.confusion_matrix
        rows = [[str(rep.labels[i]), *(m[i][j] for j in pick), sum(m[i])] for i in pick]
        if not shown_m.partial:
            rows.append(["(predicted total)", *(sum(r[j] for r in m) for j in pick), rep.n])
        matrix = TableBlock(None, ["gold \\ pred", *(str(rep.labels[j]) for j in pick), "total"], rows,
                            caption=shown_m.sentence())
        sections.append(Section("Confusion matrix (rows = gold, columns = predicted)", [matrix]))
    sections.append(Section("Per class (each class against all others)", [per_class]))
    title = f"clfeval report — {rep.n:,} items, {len(rep.labels)} classes ({rep.kind})"
    sig, run = signature_rows(rep.signature)
    return Page(title, _report_summary(rep), sections, signature=sig, run=run)


_METHOD_SHORT = {"percentile": "percentile", "bca": "BCa", "wilson": "Wilson"}


def _ci_of(rep: Any, *path: str) -> list[tuple[str, Any]]:
    """The card line of a metric's --ci interval ("95% BCa interval", "[low, high]"), or nothing."""
    ci = rep.ci.to_dict() if rep.ci is not None else None
    node: Any = ci
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    if not ci or not isinstance(node, list):
        return []
    method = _METHOD_SHORT.get((ci.get("methods") or {}).get(".".join(path), "percentile"), "percentile")
    return [(f"{_pct(ci['level'])} {method} interval", interval_text(node))]


def _report_summary(rep: Any) -> Summary:
    b = rep.baselines  # its JSON keys (in order) without writing its per-class rows to JSON
    bl = {k: getattr(b, k) for k in (b.json_keys or ("majority", "uniform", "stratified")) if getattr(b, k, None)
          is not None}
    ml = rep.kind == "multilabel"
    s = Summary()
    first = "subset accuracy" if ml else "accuracy"
    s.headline.append(card(first, rep.accuracy, _ci_of(rep, "accuracy") +
                           ([] if ml else [(f"{k} baseline", v.accuracy) for k, v in bl.items()])))
    s.headline.append(card("macro-F1", rep.macro.f1, _ci_of(rep, "macro", "f1") +
                           [(f"{k} baseline", v.macro_f1) for k, v in bl.items()]))
    s.headline.append(card("micro-F1", rep.micro.f1, _ci_of(rep, "micro", "f1") +
                           [(f"{k} baseline", v.micro_f1) for k, v in bl.items()]))
    if ml:
        s.headline.append(card("Hamming loss", rep.hamming_loss, _ci_of(rep, "hamming_loss") +
                               [(f"{k} baseline", v.hamming_loss) for k, v in bl.items()]))
    else:
        s.headline.append(card("balanced accuracy", rep.balanced_accuracy, _ci_of(rep, "balanced_accuracy")))
        s.headline.append(card("MCC", rep.mcc, _ci_of(rep, "mcc")))
    rk = rep.ranking.to_dict() if rep.ranking is not None else None
    if rk:
        binned = rk.get("binned")  # --score-bins: approximate, with the exact bound of the AUC's error
        rci = rep.ranking_ci.to_dict() if rep.ranking_ci is not None else {}
        chosen = (rci.get("roc_auc") or {}).get("interval")
        s.headline.append(card("ROC-AUC (binned)" if binned else "ROC-AUC", rk["roc_auc"],
                               ([("|error| at most", binned["auc_error_bound"])] if binned else [])
                               + ([(f"{_pct(rci['level'])} interval ({chosen['name']})",
                                    interval_text(chosen["ci"]))] if chosen else [])
                               + [("random ranking", 0.5)]))
        random_ap = rk["random"]["average_precision"] if "random" in rk else None
        s.headline.append(card("PR-AUC (average precision, at the bin edges)" if binned else
                               "PR-AUC (average precision)", rk["average_precision"],
                               [("random ranking", random_ap)] if random_ap is not None else []))
    d = rep.diagnostics
    if d.hardest_class is not None:
        hc = d.hardest_class
        s.verdicts.append(f"Hardest class: {hc} (lowest F1, {num(rep.per_class[hc].f1)}).")
    mcp = d.most_confused_pair
    if mcp:
        a, b = mcp.classes
        s.verdicts.append(f"Most confused pair: {{{a}, {b}}} with {mcp.errors} errors — {a} predicted as {b}: "
                          f"{mcp.a_as_b}, {b} predicted as {a}: {mcp.b_as_a}.")
    maj = rep.baselines.majority
    if maj is not None and not ml:
        gain = rep.accuracy - maj.accuracy
        s.verdicts.append(f"Accuracy {num(rep.accuracy)} against {num(maj.accuracy)} for always predicting "
                          f"{maj.label or 'the majority class'!r}: {'+' if gain >= 0 else '−'}{num(abs(gain))}.")
    s.facts.append(("items", f"{rep.n:,}"))
    s.facts.append(("labels", f"{len(rep.labels)} ({rep.kind})"))
    s.facts.append(("positive class", rep.binary.positive if rep.binary else "none (every class against the rest)"))
    thr = (rk or {}).get("threshold")
    s.facts.append(("threshold", f"{thr['value']:g}: {thr['rule']}" if thr else "none (predicted labels given)"))
    s.facts.append(("undefined 0/0", rep.signature.get("undefined_policy", "")))
    return s


# --- scores -------------------------------------------------------------------------------------------

def ranking_page(r: Any, figs: Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render._scores import ranking_blocks

    d = r.to_dict()
    s = Summary([card("ROC-AUC", d["roc_auc"], [("random ranking", 0.5)]),
                 card("PR-AUC (average precision)", d["average_precision"])])
    blocks = [TextBlock("clfeval ranking", heading=True), *ranking_blocks(d)]
    page, sections = base_page(r, blocks, notes=d.get("notes", []), summary=s)
    figs = figs or Figures()
    attach(sections, "Ranking", [figs(plots.roc, d, "ROC curve"), figs(plots.pr, d, "Precision–recall curve")])
    return page


def threshold_page(r: ThresholdResult, figs: Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render._scores import threshold_blocks

    if r.labels_cuts is not None:
        return _label_thresholds_page(r, figs)
    c = r.choice
    assert c is not None  # one score column
    s = Summary()
    for name, row, t in (("F1 at the default cut", c.default, c.default.threshold),
                         ("F1 at the dev-chosen cut", c.test, c.threshold),
                         ("F1 in hindsight (optimistic)", c.hindsight, None if c.hindsight is None
                          else c.hindsight.threshold)):
        if row is not None and t is not None:
            s.headline.append(card(name, row.f1, [("threshold", f"{t:g}")]))
    s.facts = [("positive class", c.positive), ("objective", r.objective_description), ("rule", r.rule),
               ("test items", f"{r.n_test:,}"), ("development items", f"{r.n_dev:,}" if r.n_dev else "none")]
    page, sections = base_page(r, threshold_blocks(r), notes=list(r.notes), summary=s)
    figs = figs or Figures()
    attach(sections, "", [figs(plots.threshold, r, "Threshold sweep on the test data")])
    return page


def _label_thresholds_page(r: ThresholdResult, figs: Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render._scores import threshold_blocks

    s = Summary()
    names = {"default": "default cuts", "tuned": "cuts chosen on dev", "hindsight": "best in hindsight, optimistic"}
    for key, avg in r.averages.items():
        s.headline.append(card(f"micro-F1 ({names.get(key, key)})", avg.micro["f1"], [("macro-F1", avg.macro["f1"])]))
    s.facts = [("labels", str(len(r.labels))), ("objective", r.objective_description), ("test items", f"{r.n_test:,}"),
               ("development items", f"{r.n_dev:,}" if r.n_dev else "none")]
    page, sections = base_page(r, threshold_blocks(r), notes=list(r.notes), summary=s)
    figs = figs or Figures()
    attach(sections, "", [figs(plots.label_thresholds, r, "Test F1 per label at the three cuts")])
    return page


def calibration_page(c: Calibration, figs: Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render._scores import calibration_blocks

    s = Summary([card("ECE", c.ece), card("MCE", c.mce), card("Brier score", c.brier), card("log loss", c.log_loss)])
    s.facts = [("items", f"{c.n:,}"), ("bins", f"{c.n_bins} ({c.strategy})"), ("kind", c.kind)]
    if c.positive is not None:
        s.facts.append(("positive class", str(c.positive)))
    page, sections = base_page(c, calibration_blocks(c), notes=list(c.notes), summary=s)
    figs = figs or Figures()
    attach(sections, "Reliability", [figs(plots.reliability, c, "Reliability diagram")])
    return page


# --- significance --------------------------------------------------------------------------------------

def comparison_page(c: Compared, figs: Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render._significance import bound_label, comparison_blocks, estimate_of

    na, nb = c.names
    tb = c.ci.test_bound
    lv = _pct(c.ci.level)
    est = {k: estimate_of(c, k) for k in ("a", "b", "delta")}
    s = Summary([card(f"A: {na}", c.a, [(f"{lv} {est['a'][0]} interval (estimate)", interval_text(est["a"][1]))]),
                 card(f"B: {nb}", c.b, [(f"{lv} {est['b'][0]} interval (estimate)", interval_text(est["b"][1]))]),
                 card("δ = A − B", c.delta, ([(bound_label(tb), tb.value)] if tb else []) +
                      [(f"two-sided {lv} {est['delta'][0]} interval (estimate"
                        + ("" if tb else ", a different procedure from the test") + ")",
                        interval_text(est["delta"][1]))]),
                 p_card(c)],
                verdicts=[c.verdict] + ([c.robustness.sentence] if c.robustness is not None else []))
    s.facts = [("metric", c.metric_description or c.metric), ("test", c.test), ("samples", f"{c.samples or 0:,}"),
               ("seed", str(c.seed)), ("items", f"{c.n:,}")]
    page, sections = base_page(c, comparison_blocks(c), notes=c.notes, summary=s)
    figs = figs or Figures()
    cap = "Paired bootstrap distribution of δ" if c.test != "randomization" else "Randomization null distribution"
    attach(sections, "", [figs(plots.bootstrap, c, cap)])
    if c.phi_delta:
        attach(sections, "", [figs(plots.phi_delta, c, f"The classes of {na} and {nb} in the φ–δ diagram")])
    return page


def p_card(c: Compared) -> dict[str, Any]:
    """The p-value of a comparison as a summary card, written as its table writes it."""
    from clfeval.render._significance import p_text

    return {"name": "p", "value": p_text(c.p_value, c.samples if c.test != "mcnemar" else None),
            "baselines": [("α", num(c.alpha)), ("test", c.test)]}


def multi_page(m: Compared, figs: Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render._significance import multi_blocks

    s = Summary([card(name, v) for name, v in m.scores.items()], verdicts=list(m.verdicts))
    page, sections = base_page(m, multi_blocks(m), notes=m.notes, summary=s)
    figs = figs or Figures()
    shown = [figs(plots.bootstrap, m, f"{c.names[0]} against {c.names[1]}", pair=i)
             for i, c in enumerate(m.comparisons[:6])]
    attach(sections, "\0", shown, new="Distributions of δ" + (" (first 6 pairs)" if len(m.comparisons) > 6 else ""))
    if any(c.phi_delta is not None for c in m.comparisons):
        attach(sections, "\0", [figs(plots.phi_delta, m, "The classes of the systems in the φ–δ diagram")],
                new="The systems in the φ–δ diagram")
    return page


# --- decisions: DeLong, non-inferiority, curve bands, CV comparisons, power ---------------------------------

def decision_page(r: Any, figs: Figures | None = None) -> Page:
    """The page of a decision result: its text blocks, headline numbers, its verdict, and its figures."""
    from clfeval import plots

    blocks, cards, figures = _decision_parts(r)
    verdict = getattr(r, "explanation", None) or getattr(r, "verdict", "")
    page, sections = base_page(r, blocks, notes=getattr(r, "notes", []),
                               summary=Summary(cards, verdicts=[verdict] if verdict else []))
    from clfeval.ops.compare import Compared

    figs = figs or Figures()
    d = r if isinstance(r, Compared) else r.to_dict()  # a comparison's figures read its typed fields
    drawn = [figs(getattr(plots, name), d, caption) for name, caption in figures]
    attach(sections, "\0", drawn, new="Figures")
    return page


def _decision_parts(r: Any) -> tuple[list[Block], list[dict[str, Any]], list[tuple[str, str]]]:
    from clfeval.ops.compare import Compared
    from clfeval.render import _cvcompare as rcv, _decisions as rdec, _power as rpow
    from clfeval.render._significance import p_text

    kind = r.kind if isinstance(r, Compared) else type(r).__name__
    if kind == "delong":
        return rdec.delong_blocks(r), [card(f"A: {r.names[0]}", r.auc_a), card(f"B: {r.names[1]}", r.auc_b),
                                       card("δ = A − B", r.delta), {"name": "p", "value": p_text(r.p_value, None),
                                                                    "baselines": [("α", num(r.alpha))]}], []
    if kind == "delong_ovr":
        return rdec.delong_ovr_blocks(r), [card(f"δ ROC-AUC, {lab}", c.delta) for lab, c in r.per_class.items()
                                           if c is not None][:6], []
    if kind == "AUCInterval":
        return rdec.auc_interval_blocks(r), [card("ROC-AUC", r.auc, [("low", r.ci[0]), ("high", r.ci[1])])], []
    if kind == "CurveBands":
        return rdec.bands_blocks(r), [card("ROC-AUC", r.roc_auc["value"],
                                           list(zip(("low", "high"), r.roc_auc["ci"], strict=False))),
                                      card("PR-AUC (average precision)", r.average_precision["value"],
                                            list(zip(("low", "high"), r.average_precision["ci"], strict=False)))], \
            [("roc", "ROC curve with its bootstrap band"), ("pr", "Precision–recall curve with its bootstrap band")]
    if kind == "noninferiority":
        return rdec.noninferiority_blocks(r), [card(f"A (new): {r.names[0]}", r.a), card(f"B (old): {r.names[1]}", r.b),
                                               card("δ = A − B", r.delta, [("bound", r.bound), ("margin", r.margin)]),
                                               {"name": "p", "value": p_text(r.p_value, r.samples),
                                                "baselines": [("α", num(r.alpha))]}], \
            [("bootstrap", "Paired bootstrap distribution of δ and the shifted threshold")]
    if kind in ("CVComparison", "RunComparison"):
        c = r if kind == "CVComparison" else r.comparison
        blocks = rcv.cv_compare_blocks(r) if kind == "CVComparison" else rcv.run_compare_blocks(r)
        return blocks, [card("mean δ over folds", c.mean_delta, [("sd", c.sd_delta)]),
                        {"name": "p (Nadeau–Bengio)", "value": p_text(c.corrected.p_value, None),
                         "baselines": [("α", num(c.alpha))]}], []
    if kind == "IntervalWidth":
        return rpow.width_blocks(r), [card("width", r.width), card("items needed", r.required_n)], []
    fn = rpow.mcnemar_power_blocks if kind == "McNemarPower" else rpow.bootstrap_power_blocks
    return fn(r), [card("smallest detectable δ", r.detectable_delta), card("items needed", r.required_n)], []


def _decision_layouts() -> dict[type, Callable[[Any], Page]]:
    from clfeval.protocols import RunComparison
    from clfeval.significance import AUCInterval, BootstrapPower, CurveBands, CVComparison, IntervalWidth, McNemarPower

    return {cls: decision_page for cls in (AUCInterval, CurveBands, CVComparison, RunComparison, McNemarPower,
                                           BootstrapPower, IntervalWidth)}


def compared_page(c: Compared, figs: Figures | None = None) -> Page:
    """The page of a comparison, by its kind: two systems, several, a decision (DeLong's test, one-vs-rest,
    non-inferiority), or by slice (its tables)."""
    if c.kind == "pair":
        return comparison_page(c, figs)
    if c.kind == "many":
        return multi_page(c, figs)
    if c.kind == "sliced":
        from clfeval.render._significance import sliced_blocks
        from clfeval.render.html.pages import blocks_page

        return blocks_page(c, sliced_blocks(c))
    return decision_page(c, figs)


# --- protocols, the study, the rest ------------------------------------------------------------------------

#: The metrics a protocol page shows first (those the run has), each with its spread over folds.
_HEADLINE = ("accuracy", "subset_accuracy", "macro_f1", "micro_f1", "balanced_accuracy", "mcc", "hamming_loss")


def protocol_page(r: Any, figs: Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.core import label
    from clfeval.render._protocols import protocol_blocks

    d = r.to_dict()
    first = [m for m in _HEADLINE if m in r.spread] or list(r.spread)
    shown = first[:5] + [m for m in r.metric_names if m not in _HEADLINE and m in r.spread and ":" in m][:1]
    base = {name: b for name, b in (d.get("baselines") or {}).items() if isinstance(b, dict)}
    s = Summary([{"name": label(m), "value": num(r.spread[m].mean),
                  "baselines": [("std", num(r.spread[m].std)),
                                ("min–max", f"{num(r.spread[m].min)}–{num(r.spread[m].max)}")]
                 + [(f"{name} baseline", num(b[m]["mean"])) for name, b in base.items()
                    if name == "majority" and isinstance(b.get(m), dict)]}
                 for m in shown])
    s.facts = [("protocol", r.protocol.describe()), ("items", f"{r.n:,}"), ("labels", str(len(r.labels)))]
    page, sections = base_page(r, protocol_blocks(r), notes=r.notes, summary=s)
    figs = figs or Figures()
    attach(sections, "Test metrics", [figs(plots.cv_spread, d, "Spread over folds"),
                                       figs(plots.phi_delta, d, "The folds in the φ–δ diagram")],
            new="Spread over folds", at=0)
    attach(sections, "Pooled out-of-fold",
           [figs(plots.confusion_matrix, d["pooled"], "Pooled out-of-fold confusion matrix"),
                             figs(plots.phi_delta, d["pooled"], "Pooled classes in the φ–δ diagram")],
            new="Pooled out-of-fold table")
    return page


def study_page(st: Any, figs: Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render._study import study_blocks
    from clfeval.studies import PART_TITLES, PARTS

    d = st.to_dict()
    s = Summary()
    if st.binary is not None:
        pub = (st.published or {})
        s.headline.append(card("micro-F1", st.binary["micro"]["f1"],
                               [("published", (pub.get("micro") or {}).get("f1"))]))
        s.headline.append(card("macro-F1", st.binary["macro"]["f1"],
                               [("published", (pub.get("macro") or {}).get("f1"))]))
    if st.multiclass is not None:
        pub_rows = {r["figure"]: r["published"] for r in (st.multiclass.get("published") or {}).get("rows", [])}
        s.headline.append(card("multiclass accuracy", st.multiclass["accuracy"],
                               [("published", pub_rows["accuracy"])] if "accuracy" in pub_rows else []))
    if st.significance is not None and st.significance.get("answer"):
        s.verdicts.append(st.significance["answer"])
    s.facts = [("split", f"{st.split.get('train', '?')} training, {st.split.get('test', '?')} test stories"),
               ("vocabulary", f"{st.vocabulary_size:,} terms"), ("categories", ", ".join(st.categories))]
    page, sections = base_page(st, study_blocks(st), notes=st.notes, summary=s)
    figs = figs or Figures()

    def title(part: str) -> str:
        return f"{PARTS.index(part) + 1}. {PART_TITLES[part]}"

    if st.binary is not None:
        attach(sections, title("binary"), [figs(plots.reuters, d, "Per-category F1 and tuned thresholds")])
    if st.cross_validation is not None:
        attach(sections, title("cross_validation"), [figs(plots.cv_spread, d, "Spread over the ten folds")])
    if st.significance is not None and isinstance(st.significance.get("bootstrap"), dict):
        attach(sections, title("significance"), [figs(plots.bootstrap, st.significance["bootstrap"],
                                                       "Paired bootstrap: NB against the keyword rule")])
    if st.terms is not None:
        attach(sections, title("terms"), [figs(plots.phi_delta, d, "Terms in the φ–δ diagram")])
    return page


def _builtin() -> None:
    if _LAYOUTS:
        return
    from clfeval.core import RankingSummary
    from clfeval.evaluate import Report
    from clfeval.ops.calibration import Calibration
    from clfeval.ops.compare import Compared
    from clfeval.ops.rank import RankResult
    from clfeval.ops.ranking import RankingResult
    from clfeval.ops.threshold import ThresholdResult
    from clfeval.protocols import ProtocolResult
    from clfeval.render._rank import rank_page
    from clfeval.render.html import pages
    from clfeval.scores import SortedRanking
    from clfeval.studies import DemoReport, ReutersStudy

    for cls, fn in ((DemoReport, pages.demo_report_page), (Report, report_page), (RankingResult, ranking_page),
                    (RankingSummary, ranking_page), (SortedRanking, ranking_page),
                    (ThresholdResult, threshold_page),
                    (Calibration, calibration_page), (Compared, compared_page), (ProtocolResult, protocol_page),
                    (ReutersStudy, study_page), (RankResult, rank_page)):
        register_layout(cls, fn)
    for kind, make in _decision_layouts().items():
        register_layout(kind, make)
    from clfeval.ops.power import PowerResult

    register_layout(PowerResult, lambda r, figs=None: decision_page(r.part, figs))  # clfeval.power: its part's page
    from clfeval.ops.label_issues import LabelIssues
    from clfeval.render._labelissues import label_issues_page

    register_layout(LabelIssues, label_issues_page)
    for kind, make in pages.generic().items():
        register_layout(kind, make)


#: The built-in layouts of the results shown most, by their type's defining module and name: found without
#: :func:`_builtin`, which imports every result type to register the others (about a hundred modules).
_BY_NAME: dict[str, Callable[..., Page]] = {"clfeval.ops.report._result.Report": report_page}


def layout(result: Any, figs: Figures | None = None) -> Page:
    """The page of a result (its registered layout, by type); ``figs`` numbers the figures (default: fig1, ...)."""
    kind = type(result)
    quick = _LAYOUTS.get(kind) or _BY_NAME.get(f"{kind.__module__}.{kind.__qualname__}")
    if quick is not None:  # the type itself (not a subclass): the layout the registry would find for it
        return quick(result, figs or Figures())
    _builtin()
    for cls in type(result).__mro__:
        if cls in _LAYOUTS:
            return _LAYOUTS[cls](result, figs or Figures())
    raise TypeError(f"no HTML layout registered for {type(result).__name__}")
