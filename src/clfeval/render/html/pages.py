"""The pages of the results without figures of their own (the run log's queries, the metric catalogue, the demo
list and the worked examples: their text blocks under a summary), and ``demo report``'s page joining several
results.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clfeval.render._util import Block, num
from clfeval.render.html.document import Page, Para, Section, Summary, signature_rows
from clfeval.render.html.layouts import Figures, base_page, card, layout, p_card

__all__ = ["demo_report_page", "blocks_page", "generic"]


#: How the demo report names its parts in section titles.
_PART_NAMES = {"report": "Report", "threshold": "Threshold", "calibration": "Calibration", "comparison": "A against B"}


def demo_report_page(d: Any, figs: Figures | None = None) -> Page:
    """``clfeval demo report``: one page joining the pages of its parts (report, threshold, calibration,
    comparison), their figures numbered in one sequence, one summary, glossary and signature."""
    from clfeval.render._demo import side_by_side

    figs = figs or Figures()
    rep, thr, cal, cmp = d.report, d.threshold, d.calibration, d.comparison
    rk = rep.ranking.to_dict() if rep.ranking is not None else {}
    maj = rep.baselines.majority
    s = Summary([card("accuracy", rep.accuracy, [("majority baseline", maj.accuracy if maj else None)]),
                 card("macro-F1", rep.macro.f1, [("B", d.report_b.macro.f1),
                                                  ("majority baseline", maj.macro_f1 if maj else None)]),
                 card("ROC-AUC (macro, one queue against the rest)", (rk.get("macro") or {}).get("roc_auc"),
                       [("B", d.report_b.ranking.roc_auc if d.report_b.ranking is not None else None),
                        ("random ranking", 0.5)]),
                 card(f"F1 of {thr.positive} (cut chosen on dev)", None if thr.test is None else thr.test.f1,
                       [("at the default cut", thr.default.f1),
                        ("cut", "—" if thr.threshold is None else f"{thr.threshold:g}")]),
                 card("ECE", cal.ece), p_card(cmp)],
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


def _run_cards(metrics: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    from clfeval.core import label

    first: list[str] = [m for m in ("accuracy", "subset_accuracy", "macro_f1", "micro_f1", "balanced_accuracy", "mcc")
             if m in metrics] or list(metrics)
    return [card(label(m), metrics[m].get("mean"), [("std", metrics[m].get("std")),
                                                    ("min–max",
                                                     f"{num(metrics[m].get('min'))}–{num(metrics[m].get('max'))}")])
            for m in first[:5]]


def _summary(result: Any) -> Summary:
    """What a page without a layout of its own shows first."""
    from clfeval.core import MetricCatalogue
    from clfeval.protocols import Ablation, BestRuns, CheckResult, Run, RunList
    from clfeval.render._demo import DemoList

    s = Summary()
    if isinstance(result, Run):
        s.headline = _run_cards(result.metrics)
        s.facts = [("run", f"{result.id}: clfeval {result.command}, {result.created}"),
                   ("data", result.data_path or "—"), ("task", result.task or "—"),
                   ("seed", "—" if result.seed is None else str(result.seed))]
    elif isinstance(result, RunList):
        s.facts = [("runs", str(len(result.runs))), ("run log", result.db)]
    elif isinstance(result, BestRuns):
        s.facts = [("metric", f"{result.metric} ({'higher' if result.higher_is_better else 'lower'} is better)"),
                   ("data sets", str(len(result.best))), ("run log", result.db)]
    elif isinstance(result, Ablation):
        s.facts = [("metric", result.metric), ("base run", f"{result.base.id} ({result.base_reason})"),
                   ("runs that differ in one setting", str(len(result.rows))), ("run log", result.db)]
    elif isinstance(result, CheckResult):
        s.verdicts = [("Passed: " if result.passed else "Failed: ") + result.message]
        s.facts = [("metric", result.metric), ("submitted run", str(result.submitted.id)),
                   ("best run on its data", str(result.best.id)), ("runs on that data", str(result.runs_on_data))]
    elif isinstance(result, MetricCatalogue):
        by_input: dict[str, int] = {}
        for m in result.metrics:
            by_input[m.input] = by_input.get(m.input, 0) + 1
        s.facts = [("metrics", str(len(result.metrics)))] + [(f"from {k}", str(v)) for k, v in by_input.items()]
    elif isinstance(result, DemoList):
        s.facts = [("modes", ", ".join(n for n, _ in result.modes)), ("run one", "clfeval demo MODE")]
    return s


def blocks_page(result: Any, blocks: list[Block]) -> Page:
    """The generic layout: the text blocks, no figures, under a summary of the result."""
    d = result.to_dict() if hasattr(result, "to_dict") else {}
    given = d.get("notes")
    notes: list[str] = given if isinstance(given, list) else []
    s = _summary(result)
    if hasattr(result, "conclusion"):  # a worked example
        s.verdicts.append(result.conclusion)
    page, _ = base_page(result, blocks, notes=notes, summary=s)
    sig = d.get("signature")
    if isinstance(sig, dict) and not page.signature:
        page.signature, page.run = signature_rows(sig)
    if hasattr(result, "conclusion"):
        page.subtitle = ("A worked example on data built into clfeval (synthetic, or a small published textbook "
                         "example).")
    return page


def generic() -> dict[type, Callable[..., Page]]:
    """The layouts of the results shown by their text blocks: result type → ``layout(result, figs)``."""
    from clfeval.core import MetricCatalogue
    from clfeval.protocols import Ablation, BestRuns, CheckResult, Run, RunList
    from clfeval.render import _demo as rdemo, _runlog as rrun
    from clfeval.render._catalog import catalogue_blocks
    from clfeval.render._study import exported_blocks, fetched_blocks
    from clfeval.studies import DemoResult
    from clfeval.text import ExportedDataset, FetchedDataset

    blocks = {DemoResult: rdemo.demo_blocks, rdemo.DemoList: rdemo.list_blocks, Run: rrun.show_blocks,
              RunList: rrun.list_blocks, BestRuns: rrun.best_blocks, Ablation: rrun.ablation_blocks,
              CheckResult: rrun.check_blocks, FetchedDataset: fetched_blocks, MetricCatalogue: catalogue_blocks,
              ExportedDataset: exported_blocks}
    blocks[MetricCatalogue] = _catalogue_tables
    out: dict[type, Callable[..., Page]] = {cls: (lambda r, figs=None, _b=fn: blocks_page(r, _b(r)))
                                            for cls, fn in blocks.items()}
    out[DemoResult] = demo_page
    return out


def demo_page(d: Any, figs: Figures | None = None) -> Page:
    """A worked example: its tables; the bootstrap example also draws its distribution of δ."""
    from clfeval import plots
    from clfeval.render import _demo as rdemo

    page = blocks_page(d, rdemo.demo_blocks(d))
    if d.mode == "bootstrap" and "distribution" in d.data:
        figs = figs or Figures()
        fig = figs(plots.bootstrap, _bootstrap_histogram(d.data),
                   "The bootstrap distribution of δ, with δ(x) and 2δ(x)")
        if fig is not None:
            for sec in page.sections:
                if sec.title.startswith("Bootstrap distribution"):
                    sec.items.append(fig)
    return page


def _bootstrap_histogram(data: dict[str, Any]) -> dict[str, Any]:
    """The bootstrap demo's counts per δ (multiples of 0.1 on ten documents) as a comparison's histogram."""
    dist = data["distribution"]
    steps = sorted(round(float(k) * 10) for k in dist)
    grid = range(steps[0], steps[-1] + 1)
    return {"metric": "accuracy", "names": {"a": "A", "b": "B"}, "distribution": {
        "kind": "bootstrap", "tail": "above", "edges": [s / 10 - 0.05 for s in grid] + [steps[-1] / 10 + 0.05],
        "counts": [dist.get(f"{s / 10:.1f}", 0) for s in grid], "delta": data["delta"], "threshold": data["threshold"],
        "count_beyond": data["count"], "samples": data["samples"]}}


def _catalogue_tables(c: Any) -> list[Block]:
    """The catalogue's tables; its definitions are the page's glossary (every metric a table names)."""
    from clfeval.render._catalog import catalogue_blocks
    from clfeval.render._util import TextBlock

    out: list[Block] = []
    for b in catalogue_blocks(c):
        if isinstance(b, TextBlock) and b.heading and out:
            if b.text.startswith("Definitions"):
                break
        out.append(b)
    return out
