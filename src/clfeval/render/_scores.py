"""Rendering of score results: the report's ranking section, threshold choices, calibration."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clfeval.core import RankingSummary, manyclasses
from clfeval.ops.calibration import Calibration, CalibrationBin
from clfeval.ops.ranking import RankingResult
from clfeval.ops.threshold import CutRow, SortedRuns, ThresholdResult
from clfeval.render import register, register_section
from clfeval.render._util import Block, TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich, num
from clfeval.scores import RULE, SortedRanking

PR_AUC = "PR-AUC (average precision)"



def cut_text(t: Any) -> str:
    """A cut as text: an integer (a cut on integer scores) in full, a float as ``:g``."""
    return str(t) if isinstance(t, int) and not isinstance(t, bool) else f"{t:g}"


def _ranking_rows(d: dict[str, Any]) -> list[list[str]]:
    """A row per ranking measure of the catalogue that the summary holds: its label (with its parameters, and
    "binned" for binned scores), its value, a random ranking's value."""
    from clfeval.core import catalog

    binned = d.get("binned")
    rows = []
    for entry in catalog.entries(input="ranking", task="binary"):
        if entry.name not in d:
            continue
        label = entry.title if entry.shown is None else entry.shown.format(**{k: d.get(k, v) for k, v in
                                                                             entry.params.items()})
        if binned and entry.name != "average_precision":  # AP is read at the bin edges, as the curves are
            label = f"{label[:-1]}, binned)" if label.endswith(")") else f"{label} (binned)"
        value = num(d[entry.name])
        if binned and entry.name == "roc_auc":  # the exact AUC lies within the bound of the binned one
            value += f" ± {num(binned['auc_error_bound'])}"
        rows.append([label, value, num(d["random"].get(entry.name))])
    return rows


def ranking_blocks(d: dict[str, Any]) -> list[Block]:
    """Blocks of a ranking summary (``RankingResult.to_dict()``, binary or one-vs-rest)."""
    blocks: list[Block] = [TextBlock("Ranking (scores)", heading=True)]
    if "per_class" in d:
        pc = d["per_class"]
        picked = manyclasses.from_per_class(list(pc), pc, f1_key="average_precision")
        rows = [[lab, num(pc[lab]["roc_auc"]), num(pc[lab]["average_precision"]), pc[lab]["support"]]
                for lab in picked.labels]
        for how in ("macro", "weighted", "micro"):
            rows.append([f"{how} average", num(d[how]["roc_auc"]), num(d[how]["average_precision"]), ""])
        blocks.append(TableBlock(f"One label against the rest ({d['kind']}, {d['n']} items)",
                                 ["label", "ROC-AUC", PR_AUC, "positives"], rows,
                                 caption=(s := picked.sentence()) and s.replace("F1", "average precision")))
    else:
        rows = _ranking_rows(d)
        blocks.append(TableBlock(f"Positive class {d['positive']!r}: {d['n_positive']} of {d['n']} items "
                                 f"(prevalence {num(d['prevalence'])})", ["measure", "value", "random ranking"], rows))
        blocks.append(TextBlock(f"{num(d['pairs_in_order'], 1)} of {d['pairs']} positive–negative pairs are in order "
                                f"(ties count one half): ROC-AUC = {num(d['roc_auc'])}."))
    if d.get("binned"):
        b = d["binned"]
        blocks.append(TextBlock(f"Binned scores ({b['binning']['bins']} {b['binning']['kind']} bins): the exact "
                                f"ROC-AUC lies within ±{num(b['auc_error_bound'])} of {num(d['roc_auc'])} "
                                f"({b['pairs_in_common_bin']} of {d['pairs']} positive–negative pairs share a bin); "
                                f"average precision and the curves are at the bin edges."))
    if d.get("external"):
        line = _external_line(d["external"])
        if line:
            blocks.append(TextBlock(line))
    if "threshold" in d:
        blocks.append(TextBlock(f"Predictions come from the cut {d['threshold']['value']:g}: {RULE}."))
    for note in d.get("notes", []):
        blocks.append(TextBlock(note, style="dim"))
    return blocks


def size_text(n: int) -> str:
    """A byte count as people write it: 1 GiB, 512 MB, 4096 bytes."""
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    for unit, size in (("TB", 10 ** 12), ("GB", 10 ** 9), ("MB", 10 ** 6), ("kB", 10 ** 3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"


def _external_line(e: dict[str, Any]) -> str | None:
    """Where the exact ranking was computed when it matters: spilled to disk as sorted runs, or on a Dask cluster;
    None for a ranking in memory (the JSON's ``external`` says so, and nothing about the numbers changes)."""
    if e.get("engine") == "dask":
        parts = sum(e["partitions"].values()) if isinstance(e["partitions"], dict) else int(e["partitions"])
        return (f"Ranked on Dask: {parts} partition{'s' if parts != 1 else ''}, the score axis cut into ranges each "
                f"merged on one worker; every number is exact.")
    budget = size_text(int(e["memory"]))
    if e.get("spilled"):
        runs = int(e.get("runs", 0))
        return (f"Ranked beyond memory: the scores outgrew the memory budget ({budget}, --memory), so {runs} sorted "
                f"run{'s' if runs != 1 else ''} spilled to disk and were merged; every number is exact.")
    return None


register_section("ranking", ranking_blocks)


def _ranking_result_blocks(r: RankingResult | SortedRanking | RankingSummary) -> list[Block]:
    return ranking_blocks(r.to_dict())


for _cls in (RankingResult, SortedRanking, RankingSummary):
    register(_cls, text=lambda r: blocks_to_rich(_ranking_result_blocks(r)),
             markdown=lambda r: blocks_to_markdown(_ranking_result_blocks(r)))


# --- thresholds ---------------------------------------------------------------

_ROW_COLS = ["cut", "threshold", "TP", "FP", "FN", "TN", "precision", "recall", "F1"]


def _row(name: str, r: CutRow | None, extra: list[str]) -> list[Any]:
    if r is None:
        return [name, "—", *(["—"] * (len(_ROW_COLS) - 2 + len(extra)))]
    return [name, cut_text(r.threshold), r.tp, r.fp, r.fn, r.tn, num(r.precision), num(r.recall), num(r.f1),
            *[num(_extra(r, k)) for k in extra]]


def _extra(r: CutRow, key: str) -> float | None:
    return r.fbeta if key == "fbeta" else r.cost


def _extra_cols(obj: str, rows: list[CutRow | None]) -> tuple[list[str], list[str]]:
    keys, names = [], []
    if any(r is not None and r.fbeta is not None for r in rows):
        keys.append("fbeta")
        names.append(obj.upper())
    if obj == "cost":
        keys.append("cost")
        names.append("cost per item")
    return keys, names


def _runs_line(e: SortedRuns | None) -> str | None:
    """Where the exact rankings of a threshold choice were computed, when it matters (as :func:`_external_line`)."""
    if e is None:
        return None
    if e.on_cluster:
        parts = sum(e.partitions.values())
        return (f"Ranked on Dask: {parts} partition{'s' if parts != 1 else ''}, the score axis cut into ranges each "
                f"merged on one worker; every number is exact.")
    if e.spilled:
        budget = size_text(int(e.memory or 0))
        return (f"Ranked beyond memory: the scores outgrew the memory budget ({budget}, --memory), so {e.runs} "
                f"sorted run{'s' if e.runs != 1 else ''} spilled to disk and were merged; every number is exact.")
    return None


def threshold_blocks(r: ThresholdResult) -> list[Block]:
    """The blocks of a threshold result: one score column's cuts, or one cut per label; with ``by``, the slices."""
    blocks = _label_threshold_blocks(r) if r.labels_cuts is not None else _cut_blocks(r)
    if r.slices is not None:
        from clfeval.render._slicedresults import threshold_slice_blocks

        blocks += threshold_slice_blocks(r.slices)
    return blocks


def _cut_blocks(r: ThresholdResult) -> list[Block]:
    c = r.choice
    assert c is not None  # one score column
    blocks: list[Block] = [TextBlock(f"Threshold for {c.positive!r}: {r.objective_description}", heading=True)]
    keys, names = _extra_cols(r.objective, [c.default, c.test, c.hindsight])
    rows = [_row("default", c.default, keys)]
    if c.threshold is not None:
        rows.append(_row("chosen on dev", c.test, keys))
    rows.append(_row("best in hindsight (test)", c.hindsight, keys))
    blocks.append(TableBlock(f"Measured on the test data ({r.n_test} items)", _ROW_COLS + names, rows))
    if c.dev is not None and c.threshold is not None:
        dev = c.dev
        extra = "".join(f", {n} {num(_extra(dev, k))}" for k, n in zip(keys, names, strict=False))
        blocks.append(TextBlock(f"Chosen on the development data ({r.n_dev} items): threshold {cut_text(c.threshold)}, "
                                f"where precision {num(dev.precision)}, recall {num(dev.recall)}, "
                                f"F1 {num(dev.f1)}{extra}. Rule: {r.rule}."))
    blocks.append(TextBlock(f"Default cut: {c.default.source}."))
    line = _runs_line(r.external)
    if line:
        blocks.append(TextBlock(line))
    for note in r.notes:
        blocks.append(TextBlock(note, style="dim"))
    return blocks


def label_threshold_classes_of(r: ThresholdResult, *, figure: bool = False) -> manyclasses.Shown:
    """The labels of a per-label threshold result a table or figure shows (support: the test positives at the
    default cut; hardest: the lowest F1 at the default cut), from its fields."""
    per = r.per_label
    labels = list(r.labels or per)
    sup = {lab: per[lab].default.tp + per[lab].default.fn for lab in labels}
    f1 = {lab: per[lab].default.f1 for lab in labels}
    return manyclasses.for_figure(labels, sup, f1) if figure else manyclasses.for_table(labels, sup, f1)


def _label_threshold_blocks(r: ThresholdResult) -> list[Block]:
    blocks: list[Block] = [TextBlock(f"One threshold per label: {r.objective_description}", heading=True)]
    rows = []
    picked = label_threshold_classes_of(r)
    for lab in picked.labels:
        e = r.per_label[lab]
        t = e.threshold
        rows.append([lab, f"{e.default.threshold:g}", num(e.default.f1),
                     "—" if t is None else f"{t:g}", "—" if e.test is None else num(e.test.f1),
                     "—" if e.hindsight is None else f"{e.hindsight.threshold:g}",
                     "—" if e.hindsight is None else num(e.hindsight.f1)])
    blocks.append(TableBlock(f"Per label, measured on the test data ({r.n_test} items)",
                             ["label", "default cut", "F1", "dev cut", "F1", "hindsight cut", "F1 (hindsight)"], rows,
                             caption=picked.sentence()))
    avg_rows = []
    for setting, title in (("default", "default cuts"), ("tuned", "cuts chosen on dev"),
                           ("hindsight", "best in hindsight (test)")):
        if setting in r.averages:
            a = r.averages[setting]
            avg_rows.append([title, num(a.micro["precision"]), num(a.micro["recall"]), num(a.micro["f1"]),
                             num(a.macro["precision"]), num(a.macro["recall"]), num(a.macro["f1"])])
    blocks.append(TableBlock("Averages before and after tuning", ["cuts", "micro P", "micro R", "micro F1", "macro P",
                                                                  "macro R", "macro F1"], avg_rows))
    blocks.append(TextBlock(f"Rule: {r.rule}."))
    line = _runs_line(r.external)
    if line:
        blocks.append(TextBlock(line))
    for note in r.notes:
        blocks.append(TextBlock(note, style="dim"))
    return blocks


register(ThresholdResult, text=lambda r: blocks_to_rich(threshold_blocks(r)),
         markdown=lambda r: blocks_to_markdown(threshold_blocks(r)))


# --- calibration --------------------------------------------------------------

def _reliability_rows(bins: Sequence[CalibrationBin]) -> list[list[Any]]:
    """One row per non-empty bin; a run of consecutive empty bins is one row, so the table has at most
    2·(non-empty bins) + 1 rows however many bins were asked for."""
    rows: list[list[Any]] = []
    last = len(bins) - 1
    d = max(4, len(str(len(bins))) + 1)  # enough digits to tell the edges of narrow bins apart
    i = 0
    while i <= last:
        j = i
        if bins[i].count == 0:
            while j < last and bins[j + 1].count == 0:
                j += 1
        span = f"[{bins[i].lower:.{d}g}, {bins[j].upper:.{d}g}{']' if j == last else ')'}"
        if bins[i].count:
            b = bins[i]
            rows.append([span, b.count, num(b.confidence), num(b.accuracy), num(b.gap)])
        else:
            rows.append([span + (f" ({j - i + 1} empty bins)" if j > i else ""), 0, "—", "—", "—"])
        i = j + 1
    return rows


def calibration_blocks(c: Calibration) -> list[Block]:
    """The blocks of a calibration result; with ``by``, the slices after the whole."""
    blocks = _calibration_blocks(c)
    if c.slices is not None:
        from clfeval.render._slicedresults import calibration_slice_blocks

        blocks += calibration_slice_blocks(c)
    return blocks


def _calibration_blocks(c: Calibration) -> list[Block]:
    observed = "frequency of positives" if c.kind == "binary" else "accuracy"
    conf = f"P({c.positive})" if c.kind == "binary" else "top-label confidence"
    head = f"Calibration of {conf}: {c.n} items, {c.n_bins} {c.strategy} bins"
    blocks: list[Block] = [TextBlock(head, heading=True)]
    blocks.append(TableBlock("Reliability table", ["bin", "items", "mean confidence", observed, "|gap|"],
                             _reliability_rows(c.bins)))
    summary = [["ECE (expected calibration error)", num(c.ece)], ["MCE (maximum calibration error)", num(c.mce)],
               ["Brier score", num(c.brier)], ["log loss", num(c.log_loss)]]
    if c.roc_auc is not None:
        summary += [["ROC-AUC (order only)", num(c.roc_auc)], [f"{PR_AUC} (order only)", num(c.average_precision)]]
    blocks.append(TableBlock("Calibration measures", ["measure", "value"], summary))
    for note in c.notes:
        blocks.append(TextBlock(note, style="dim"))
    return blocks


register(Calibration, text=lambda c: blocks_to_rich(calibration_blocks(c)),
         markdown=lambda c: blocks_to_markdown(calibration_blocks(c)))
