"""Result → :class:`~clfeval.render.html.document.Page`: the text layout's tables, plus a summary and figures.

Each layout reuses the blocks of the text renderer (so the HTML report shows
the same tables and sentences as the text report), places the figures after
the tables they illustrate, and writes a summary first. Results without a
layout of their own get the generic one (their blocks, no figures).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from clfeval.errors import MissingExtra, UsageError
from clfeval.render._util import Block, TextBlock, num
from clfeval.render.html.document import Figure, Page, Para, Section, Summary, sections_from_blocks, signature_rows

__all__ = ["layout", "register_layout"]

_LAYOUTS: dict[type, Callable[..., Page]] = {}


def register_layout(result_type: type, fn: Callable[..., Page]) -> None:
    """Register the HTML layout of a result type: ``fn(result, figs)`` returns its :class:`Page`, drawing its
    figures with ``figs`` (which numbers their SVG ids, so that the figures of several results share a page)."""
    _LAYOUTS[result_type] = fn


class _Figures:
    """Draws figures for one page, numbering their SVG ids (fig1, fig2, ...) in order."""

    def __init__(self, prefix: str = "fig") -> None:
        self.n = 0
        self.prefix = prefix

    def __call__(self, fn: Callable[..., Any], data: Any, caption: str = "", **kw: Any) -> Figure | None:
        from clfeval.plots import _mpl

        try:
            fig = fn(data, **kw)
        except MissingExtra:
            raise
        except UsageError:
            return None  # the result lacks what this figure needs
        self.n += 1
        svg = _mpl.figure_svg(fig, f"{self.prefix}{self.n}", title=caption or None)
        return Figure(svg, caption)


def _attach(sections: list[Section], starts: str, figures: Sequence[Figure | None], *, new: str | None = None,
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


def _page(result: Any, blocks: list[Block], *, notes: Sequence[str] = (), summary: Summary | None = None,
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


def _card(name: str, value: Any, baselines: Sequence[tuple[str, Any]] = ()) -> dict[str, Any]:
    return {"name": name, "value": num(value), "baselines": [(b, num(v)) for b, v in baselines]}


# --- the report ------------------------------------------------------------------------------------

def report_page(rep: Any, figs: _Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render.reports import undefined_text, report_blocks

    d = rep.to_dict()
    und = undefined_text(rep)
    page, sections = _page(rep, report_blocks(rep), notes=rep.notes, extra_notes=[und] if und else [],
                           summary=_report_summary(rep))
    figs = figs or _Figures()
    if rep.confusion_matrix is not None:
        _attach(sections, "Confusion matrix", [figs(plots.confusion_matrix, d, "Confusion matrix")],
                new="Confusion matrix", at=0)
    elif rep.kind == "multilabel":
        sections.insert(0, Section("No confusion matrix", [Para(
            "Multi-label data have no confusion matrix: an item may carry several labels, so an error is not one "
            "gold class predicted as another. Each label has its own binary table instead (TP, FP, FN, TN in the "
            "per-label table below, its precision, recall and F1 in the figure beside it).", "note")]))
    _attach(sections, "Per class", [figs(plots.per_class, d, "Precision, recall and F1 per class"),
                                    figs(plots.phi_delta, d, "The classes in the φ–δ diagram")])
    if "ranking" in rep.sections:
        _attach(sections, "Ranking", [figs(plots.roc, d, "ROC curve"), figs(plots.pr, d, "Precision–recall curve")])
    return page


def _report_summary(rep: Any) -> Summary:
    bl = rep.baselines
    ml = rep.kind == "multilabel"
    s = Summary()
    first = "subset accuracy" if ml else "accuracy"
    s.headline.append(_card(first, rep.accuracy, [] if ml else [(f"{k} baseline", v["accuracy"]) for k, v in bl.items()]))
    s.headline.append(_card("macro-F1", rep.macro["f1"], [(f"{k} baseline", v["macro_f1"]) for k, v in bl.items()]))
    s.headline.append(_card("micro-F1", rep.micro["f1"], [(f"{k} baseline", v["micro_f1"]) for k, v in bl.items()]))
    if ml:
        s.headline.append(_card("Hamming loss", rep.hamming_loss, [(f"{k} baseline", v["hamming_loss"]) for k, v in bl.items()]))
    else:
        s.headline.append(_card("balanced accuracy", rep.balanced_accuracy))
        s.headline.append(_card("MCC", rep.mcc))
    rk = rep.sections.get("ranking")
    if rk:
        s.headline.append(_card("ROC-AUC", rk["roc_auc"], [("random ranking", 0.5)]))
        random_ap = rk["random"]["average_precision"] if "random" in rk else None
        s.headline.append(_card("PR-AUC (average precision)", rk["average_precision"],
                                [("random ranking", random_ap)] if random_ap is not None else []))
    d = rep.diagnostics
    if d.get("hardest_class") is not None:
        hc = d["hardest_class"]
        s.verdicts.append(f"Hardest class: {hc} (lowest F1, {num(rep.per_class[hc]['f1'])}).")
    mcp = d.get("most_confused_pair")
    if mcp:
        a, b = mcp["classes"]
        s.verdicts.append(f"Most confused pair: {{{a}, {b}}} with {mcp['errors']} errors — {a} predicted as {b}: "
                          f"{mcp['a_as_b']}, {b} predicted as {a}: {mcp['b_as_a']}.")
    maj = bl.get("majority")
    if maj is not None and not ml:
        gain = rep.accuracy - maj["accuracy"]
        s.verdicts.append(f"Accuracy {num(rep.accuracy)} against {num(maj['accuracy'])} for always predicting "
                          f"{maj.get('label', 'the majority class')!r}: {'+' if gain >= 0 else '−'}{num(abs(gain))}.")
    s.facts.append(("items", f"{rep.n:,}"))
    s.facts.append(("labels", f"{len(rep.labels)} ({rep.kind})"))
    s.facts.append(("positive class", rep.binary["positive"] if rep.binary else "none (every class against the rest)"))
    thr = (rk or {}).get("threshold")
    s.facts.append(("threshold", f"{thr['value']:g}: {thr['rule']}" if thr else "none (predicted labels given)"))
    s.facts.append(("undefined 0/0", rep.signature.get("undefined_policy", "")))
    return s


# --- scores -------------------------------------------------------------------------------------------

def ranking_page(r: Any, figs: _Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render.scores import ranking_blocks

    d = r.to_dict()
    s = Summary([_card("ROC-AUC", d["roc_auc"], [("random ranking", 0.5)]),
                 _card("PR-AUC (average precision)", d["average_precision"])])
    blocks = [TextBlock("clfeval ranking", heading=True), *ranking_blocks(d)]
    page, sections = _page(r, blocks, notes=d.get("notes", []), summary=s)
    figs = figs or _Figures()
    _attach(sections, "Ranking", [figs(plots.roc, d, "ROC curve"), figs(plots.pr, d, "Precision–recall curve")])
    return page


def threshold_page(c: Any, figs: _Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render.scores import threshold_blocks

    d = c.to_dict()
    s = Summary()
    for key, name in (("default", "F1 at the default cut"), ("test", "F1 at the dev-chosen cut"),
                      ("hindsight", "F1 in hindsight (optimistic)")):
        if d.get(key):
            t = d[key]["threshold"] if key != "test" else d["threshold"]
            s.headline.append(_card(name, d[key]["f1"], [("threshold", f"{t:g}")]))
    s.facts = [("positive class", c.positive), ("objective", c.objective_description), ("rule", d["rule"]),
               ("test items", f"{c.n_test:,}"), ("development items", f"{c.n_dev:,}" if c.n_dev else "none")]
    page, sections = _page(c, threshold_blocks(c), notes=c.notes, summary=s)
    figs = figs or _Figures()
    _attach(sections, "", [figs(plots.threshold, d, "Threshold sweep on the test data")])
    return page


def label_thresholds_page(r: Any, figs: _Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render.scores import label_threshold_blocks

    s = Summary()
    names = {"default": "default cuts", "tuned": "cuts chosen on dev", "hindsight": "best in hindsight, optimistic"}
    for key, avg in r.averages.items():
        s.headline.append(_card(f"micro-F1 ({names.get(key, key)})", avg["micro"]["f1"],
                                [("macro-F1", avg["macro"]["f1"])]))
    s.facts = [("labels", str(len(r.labels))), ("objective", r.objective_description), ("test items", f"{r.n_test:,}"),
               ("development items", f"{r.n_dev:,}" if r.n_dev else "none")]
    page, sections = _page(r, label_threshold_blocks(r), notes=r.notes, summary=s)
    figs = figs or _Figures()
    _attach(sections, "", [figs(plots.label_thresholds, r.to_dict(), "Test F1 per label at the three cuts")])
    return page


def calibration_page(c: Any, figs: _Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render.scores import calibration_blocks

    d = c.to_dict()
    s = Summary([_card("ECE", c.ece), _card("MCE", c.mce), _card("Brier score", c.brier), _card("log loss", c.log_loss)])
    s.facts = [("items", f"{c.n:,}"), ("bins", f"{c.n_bins} ({c.strategy})"), ("kind", c.kind)]
    if c.positive is not None:
        s.facts.append(("positive class", str(c.positive)))
    page, sections = _page(c, calibration_blocks(c), notes=c.notes, summary=s)
    figs = figs or _Figures()
    _attach(sections, "Reliability", [figs(plots.reliability, d, "Reliability diagram")])
    return page


# --- significance --------------------------------------------------------------------------------------

def comparison_page(c: Any, figs: _Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render.significance import comparison_blocks

    d = c.to_dict()
    na, nb = c.names
    s = Summary([_card(f"A: {na}", c.a), _card(f"B: {nb}", c.b), _card("δ = A − B", c.delta), _p_card(c)],
                verdicts=[c.verdict])
    s.facts = [("metric", c.metric_description), ("test", c.test), ("samples", f"{c.samples:,}"), ("seed", str(c.seed)),
               ("items", f"{c.n:,}")]
    page, sections = _page(c, comparison_blocks(c), notes=c.notes, summary=s)
    figs = figs or _Figures()
    cap = "Paired bootstrap distribution of δ" if c.test != "randomization" else "Randomization null distribution"
    _attach(sections, "", [figs(plots.bootstrap, d, cap)])
    if c.phi_delta:
        _attach(sections, "", [figs(plots.phi_delta, d, f"The classes of {na} and {nb} in the φ–δ diagram")])
    return page


def _p_card(c: Any) -> dict[str, Any]:
    """The p-value of a comparison as a summary card, written as its table writes it."""
    from clfeval.render.significance import p_text

    return {"name": "p", "value": p_text(c.p_value, c.samples if c.test != "mcnemar" else None),
            "baselines": [("α", num(c.alpha)), ("test", c.test)]}


def multi_page(m: Any, figs: _Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render.significance import multi_blocks

    d = m.to_dict()
    s = Summary([_card(name, v) for name, v in m.scores.items()], verdicts=list(m.verdicts))
    page, sections = _page(m, multi_blocks(m), notes=m.notes, summary=s)
    figs = figs or _Figures()
    shown = [figs(plots.bootstrap, d, f"{c.names[0]} against {c.names[1]}", pair=i)
             for i, c in enumerate(m.comparisons[:6])]
    _attach(sections, "\0", shown, new="Distributions of δ" + (" (first 6 pairs)" if len(m.comparisons) > 6 else ""))
    if "phi_delta" in d:
        _attach(sections, "\0", [figs(plots.phi_delta, d, "The classes of the systems in the φ–δ diagram")],
                new="The systems in the φ–δ diagram")
    return page


# --- protocols, the study, the rest ------------------------------------------------------------------------

def protocol_page(r: Any, figs: _Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render.protocols import protocol_blocks

    d = r.to_dict()
    s = Summary([{"name": m, "value": num(r.spread[m].mean), "baselines": [("std", num(r.spread[m].std)),
                                                                          ("min–max", f"{num(r.spread[m].min)}–{num(r.spread[m].max)}")]}
                 for m in r.metric_names[:6]])
    s.facts = [("protocol", r.protocol.describe()), ("items", f"{r.n:,}"), ("labels", str(len(r.labels)))]
    page, sections = _page(r, protocol_blocks(r), notes=r.notes, summary=s)
    figs = figs or _Figures()
    _attach(sections, "Test metrics", [figs(plots.cv_spread, d, "Spread over folds"),
                                       figs(plots.phi_delta, d, "The folds in the φ–δ diagram")],
            new="Spread over folds", at=0)
    _attach(sections, "Pooled out-of-fold", [figs(plots.confusion_matrix, d["pooled"], "Pooled out-of-fold confusion matrix"),
                             figs(plots.phi_delta, d["pooled"], "Pooled classes in the φ–δ diagram")],
            new="Pooled out-of-fold table")
    return page


def study_page(st: Any, figs: _Figures | None = None) -> Page:
    from clfeval import plots
    from clfeval.render.study import study_blocks
    from clfeval.studies.reuters import PART_TITLES, PARTS

    d = st.to_dict()
    s = Summary()
    if st.binary is not None:
        pub = (st.published or {})
        s.headline.append(_card("micro-F1", st.binary["micro"]["f1"], [("published", (pub.get("micro") or {}).get("f1"))]))
        s.headline.append(_card("macro-F1", st.binary["macro"]["f1"], [("published", (pub.get("macro") or {}).get("f1"))]))
    if st.multiclass is not None:
        s.headline.append(_card("multiclass accuracy", st.multiclass["accuracy"]))
    if st.significance is not None and st.significance.get("answer"):
        s.verdicts.append(st.significance["answer"])
    s.facts = [("split", f"{st.split.get('train', '?')} training, {st.split.get('test', '?')} test stories"),
               ("vocabulary", f"{st.vocabulary_size:,} terms"), ("categories", ", ".join(st.categories))]
    page, sections = _page(st, study_blocks(st), notes=st.notes, summary=s)
    figs = figs or _Figures()

    def title(part: str) -> str:
        return f"{PARTS.index(part) + 1}. {PART_TITLES[part]}"

    if st.binary is not None:
        _attach(sections, title("binary"), [figs(plots.reuters, d, "Per-category F1 and tuned thresholds")])
    if st.cross_validation is not None:
        _attach(sections, title("cross_validation"), [figs(plots.cv_spread, d, "Spread over the ten folds")])
    if st.significance is not None and isinstance(st.significance.get("bootstrap"), dict):
        _attach(sections, title("significance"), [figs(plots.bootstrap, st.significance["bootstrap"],
                                                       "Paired bootstrap: NB against the keyword rule")])
    if st.terms is not None:
        _attach(sections, title("terms"), [figs(plots.phi_delta, d, "Terms in the φ–δ diagram")])
    return page


#: How the demo report names its parts in section titles.
_PART_NAMES = {"report": "Report", "threshold": "Threshold", "calibration": "Calibration", "comparison": "A against B"}


def demo_report_page(d: Any, figs: _Figures | None = None) -> Page:
    """``clfeval demo report``: one page joining the pages of its parts (report, threshold, calibration,
    comparison), their figures numbered in one sequence, one summary, glossary and signature."""
    from clfeval.render.demo import side_by_side

    figs = figs or _Figures()
    rep, thr, cal, cmp = d.report, d.threshold, d.calibration, d.comparison
    rk = rep.sections.get("ranking") or {}
    s = Summary([_card("accuracy", rep.accuracy, [("majority baseline", rep.baselines["majority"]["accuracy"])]),
                 _card("macro-F1", rep.macro["f1"], [("B", d.report_b.macro["f1"]),
                                                     ("majority baseline", rep.baselines["majority"]["macro_f1"])]),
                 _card("ROC-AUC (macro, one queue against the rest)", (rk.get("macro") or {}).get("roc_auc"),
                       [("B", (d.report_b.sections.get("ranking") or {}).get("macro", {}).get("roc_auc")),
                        ("random ranking", 0.5)]),
                 _card(f"F1 of {thr.positive} (cut chosen on dev)", thr.test["f1"],
                       [("at the default cut", thr.default["f1"]), ("cut", thr.threshold)]),
                 _card("ECE", cal.ece), _p_card(cmp)],
                verdicts=[d.conclusion],
                facts=[("data", d.intro), ("tickets", ", ".join(f"{v:,} {k}" for k, v in d.data["sizes"].items())),
                       ("queues", ", ".join(d.data["labels"])), ("systems", "A and B, one probability per queue"),
                       ("seed", str(d.data["seed"]))])
    sig, run = signature_rows(d.signature)
    page = Page(d.title, s, [], [], sig, run, subtitle=d.intro)
    for i, (key, title, part) in enumerate(d.parts, 1):
        sub = layout(part, figs)
        intro = Para(f"{i}. {title}: {sub.title}.", "note")
        sections = list(sub.sections)
        if key == "comparison":
            sections.insert(0, Section("Side by side", [side_by_side(d)]))
        sections[0].items.insert(0, intro)
        for sec in sections:
            sec.title = f"{_PART_NAMES[key]} · {sec.title}"
            sec.items = [x for x in sec.items if x is not None]
        page.sections.extend(sections)
        page.notes.extend(n for n in sub.notes if n not in page.notes)
    return page


def blocks_page(result: Any, blocks: list[Block]) -> Page:
    """The generic layout: the text blocks, no figures."""
    d = result.to_dict() if hasattr(result, "to_dict") else {}
    notes = d.get("notes") if isinstance(d.get("notes"), list) else []
    page, sections = _page(result, blocks, notes=notes)
    sig = d.get("signature")
    if isinstance(sig, dict) and not page.signature:
        page.signature, page.run = signature_rows(sig)
    return page


def _generic() -> dict[type, Callable[[Any], list[Block]]]:
    from clfeval.core.catalog import MetricCatalogue
    from clfeval.studies.demo import DemoResult
    from clfeval.render import demo as rdemo
    from clfeval.render.catalog import catalogue_blocks
    from clfeval.render import runlog as rrun
    from clfeval.render.study import fetched_blocks
    from clfeval.protocols.runlog import Ablation, BestRuns, CheckResult, Run, RunList
    from clfeval.text.fetch import FetchedDataset

    return {DemoResult: rdemo.demo_blocks, rdemo.DemoList: rdemo.list_blocks, Run: rrun.show_blocks,
            RunList: rrun.list_blocks, BestRuns: rrun.best_blocks, Ablation: rrun.ablation_blocks,
            CheckResult: rrun.check_blocks, FetchedDataset: fetched_blocks, MetricCatalogue: catalogue_blocks}


def _builtin() -> None:
    if _LAYOUTS:
        return
    from clfeval.scores.calibration import Calibration
    from clfeval.scores.curves import Ranking, RankingOvR
    from clfeval.protocols.api import ProtocolResult
    from clfeval.evaluate.reports import Report
    from clfeval.significance.paired import Comparison, MultiComparison
    from clfeval.studies.demo_report import DemoReport
    from clfeval.studies.reuters import ReutersStudy
    from clfeval.scores.thresholds import LabelThresholds, ThresholdChoice

    for cls, fn in ((DemoReport, demo_report_page), (Report, report_page), (Ranking, ranking_page), (RankingOvR, ranking_page),
                    (ThresholdChoice, threshold_page), (LabelThresholds, label_thresholds_page),
                    (Calibration, calibration_page), (Comparison, comparison_page), (MultiComparison, multi_page),
                    (ProtocolResult, protocol_page), (ReutersStudy, study_page)):
        register_layout(cls, fn)
    for cls, bfn in _generic().items():
        register_layout(cls, lambda r, _f=None, _b=bfn: _demo_page(r, _b(r)) if hasattr(r, "conclusion") else
                        blocks_page(r, _b(r)))


def _demo_page(d: Any, blocks: list[Block]) -> Page:
    page = blocks_page(d, blocks)
    page.summary.verdicts.append(d.conclusion)
    page.subtitle = "A worked example on data built into clfeval (synthetic or from the mission's examples)."
    return page


def layout(result: Any, figs: _Figures | None = None) -> Page:
    """The page of a result (its registered layout, by type); ``figs`` numbers the figures (default: fig1, ...)."""
    _builtin()
    for cls in type(result).__mro__:
        if cls in _LAYOUTS:
            return _LAYOUTS[cls](result, figs or _Figures())
    raise TypeError(f"no HTML layout registered for {type(result).__name__}")
