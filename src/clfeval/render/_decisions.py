"""Text and Markdown of the decision results: DeLong's test, AUC intervals, curve bands, non-inferiority,
and the report's ``ranking_ci`` and ``requirements`` sections."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import clfeval.render._scores  # noqa: F401  (its "ranking" section is registered first: ranking_ci follows it)
import clfeval.render._significance  # noqa: F401  (and "ci" too: requirements come last)
from clfeval.core import manyclasses
from clfeval.ops.compare import Compared
from clfeval.render import register_section
from clfeval.render._significance import p_text, register_kind
from clfeval.render._util import Block, TableBlock, TextBlock, closing, num, register_blocks
from clfeval.significance import AUCInterval, CurveBands, metric_label

__all__ = ["delong_blocks", "delong_ovr_blocks", "auc_interval_blocks", "bands_blocks", "noninferiority_blocks",
           "ranking_ci_blocks", "requirements_blocks", "band_rows", "closing", "register_blocks"]


def _pct(level: float) -> str:
    return f"{level * 100:g}%"


def _lohi(ci: Sequence[Any] | None) -> list[str]:
    if not ci:
        return ["—", "—"]
    return [num(ci[0]), num(ci[1])]


# --- DeLong ---------------------------------------------------------------------------------------------

def _hyp(alternative: str) -> str:
    return ("H1: AUC(A) > AUC(B), one-sided" if alternative == "greater"
            else "H1: AUC(A) ≠ AUC(B), two-sided")


def delong_blocks(c: Compared) -> list[Block]:
    """DeLong's test of two ROC-AUCs: both AUCs with variance and interval, the difference, z and p."""
    na, nb = c.names
    lv = _pct(c.level)
    blocks: list[Block] = [TextBlock(f"clfeval compare — ROC-AUC, DeLong's test, positive class {c.positive!r}: "
                                     f"{c.n_positive:,} positive and {c.n_negative:,} negative items", heading=True)]
    rows = [[f"A: {na}", c.auc_a, c.var_a, math.sqrt(c.var_a) if c.var_a >= 0 else math.nan, *_lohi(c.ci_a)],
            [f"B: {nb}", c.auc_b, c.var_b, math.sqrt(c.var_b) if c.var_b >= 0 else math.nan, *_lohi(c.ci_b)],
            ["δ = A − B", c.delta, c.var_delta, c.se_delta, *_lohi(c.ci_delta)]]
    cut = [k for k, v in c.truncated.items() if v]
    blocks.append(TableBlock(None, ["", "ROC-AUC", "variance", "SE", f"{lv} low", f"{lv} high"], rows,
                             caption="DeLong's variances (S = S10/m + S01/n); Wald intervals, truncated to [0, 1] "
                                     "(δ to [−1, 1])" + (f"; truncated: {', '.join(cut)}" if cut else "")))
    test_rows = [["covariance S_AB", num(c.covariance, 6)], ["correlation", num(c.correlation)],
                 ["z = δ / SE(δ)", num(c.z, 3)],
                 ["p, one-sided (H1: A higher)" + (" ◀" if c.alternative == "greater" else ""),
                  p_text(c.p_value_one_sided, None)],
                 ["p, two-sided" + (" ◀" if c.alternative == "two-sided" else ""), p_text(c.p_value_two_sided, None)]]
    blocks.append(TableBlock(f"DeLong's test — {_hyp(c.alternative)}; α = {c.alpha:g}", ["", "value"], test_rows))
    blocks.append(TextBlock(c.verdict, style="bold"))
    return closing(blocks, [f"Undefined: {u.reason}." for u in c.undefined[:1]], c.notes, c.signature,
                   "algorithm")


def delong_ovr_blocks(r: Compared) -> list[Block]:
    """DeLong's test per class (one against the rest), Holm-adjusted."""
    na, nb = r.names
    blocks: list[Block] = [TextBlock(f"clfeval compare — ROC-AUC per class (one-vs-rest), DeLong's test, "
                                     f"A: {na}, B: {nb}, Holm-adjusted", heading=True)]
    rows: list[list[Any]] = []
    # the one many-classes rule (core.manyclasses): the largest classes by positives, the weakest AUC of A beside
    picked = manyclasses.for_table([str(x) for x in r.labels],
                                   {str(k): (c.n_positive if c is not None else 0) for k, c in r.per_class.items()},
                                   {str(k): (c.auc_a if c is not None else float("nan"))
                                    for k, c in r.per_class.items()})
    keep = set(picked.labels)
    for lab in r.labels:
        if str(lab) not in keep:
            continue
        c = r.per_class[lab]
        if c is None:
            rows.append([lab, "—", "—", "—", "—", "—", "—", "—", "—", "—", "no test"])
            continue
        rows.append([lab, c.n_positive, c.auc_a, c.auc_b, c.delta, *_lohi(c.ci_delta), num(c.z, 3),
                     p_text(c.p_value, None), p_text(r.p_holm[lab], None), "yes" if r.p_holm[lab] < r.alpha else "no"])
    level = next((c.level for c in r.per_class.values() if c is not None), 0.95)
    side = "one-sided" if r.alternative == "greater" else "two-sided"
    blocks.append(TableBlock(f"{_hyp(r.alternative)}; α = {r.alpha:g}",
                             ["class", "positives", "AUC A", "AUC B", "δ", f"δ {_pct(level)} low",
                              f"δ {_pct(level)} high", "z", f"p ({side})", "p (Holm)", "significant"],
                             rows))
    if picked.partial:
        blocks.append(TextBlock(str(picked.sentence()), style="dim"))
    for lab, v in (r.delong_ovr.verdicts if r.delong_ovr is not None else {}).items():
        if str(lab) in keep:
            blocks.append(TextBlock(f"{lab}: {v}"))
    return closing(blocks, [f"{u.field}: {u.reason}." for u in r.undefined], r.notes, r.signature, "algorithm")


def auc_interval_blocks(r: AUCInterval) -> list[Block]:
    """One ROC-AUC with DeLong's variance and interval."""
    lv = _pct(r.level)
    blocks: list[Block] = [TextBlock(f"ROC-AUC with DeLong's interval — positive class {r.positive!r}: "
                                     f"{r.n_positive:,} positive and {r.n_negative:,} negative items", heading=True),
                           TableBlock(None, ["", "ROC-AUC", "variance", "SE", f"{lv} low", f"{lv} high"],
                                      [["ROC-AUC", r.auc, r.variance, r.se, *_lohi(r.ci)]],
                                      caption="Wald interval, truncated to [0, 1]" + (" (truncated)" if r.truncated
                                                                                      else ""))]
    for u in r.undefined[:1]:
        blocks.append(TextBlock(f"Undefined: {u['reason']}", style="dim"))
    for note in r.notes:
        blocks.append(TextBlock(note, style="dim"))
    return blocks


# --- bands -------------------------------------------------------------------------------------------------

#: Grid values shown in text tables of a band (JSON and the figures have every point).
SHOWN = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0)


def band_rows(grid: Sequence[Any], band: dict[str, Sequence[Any]]) -> list[list[str]]:
    """Rows (grid value, observed, low, high, mean) at the :data:`SHOWN` grid values present in the grid."""
    rows = []
    for i, g in enumerate(grid):
        if g is not None and any(abs(float(g) - s) < 1e-9 for s in SHOWN):
            rows.append([f"{float(g):g}", *(num(band[k][i]) for k in ("observed", "low", "high", "mean"))])
    return rows


def _band_tables(bands: dict[str, Any], level: float) -> list[Block]:
    lv = _pct(level)
    roc, pr = bands["roc"], bands["pr"]
    return [TableBlock("ROC band: TPR at fixed FPR", ["FPR", "TPR", f"{lv} low", f"{lv} high", "mean"],
                       band_rows(roc["fpr"], roc)),
            TableBlock("PR band: precision at fixed recall", ["recall", "precision", f"{lv} low", f"{lv} high", "mean"],
                       band_rows(pr["recall"], pr))]


def bands_blocks(b: CurveBands) -> list[Block]:
    """Bootstrap bands of the ROC and PR curves and intervals of ROC-AUC and AP."""
    d = b.to_dict()
    lv = _pct(b.level)
    blocks: list[Block] = [TextBlock(f"Curves with their uncertainty — positive class {b.positive!r}: {b.n_positive:,} "
                                     f"positive and {b.n_negative:,} negative items; {b.samples:,} {d['resampling']} "
                                     f"bootstrap replicates, seed {d['seed']}", heading=True),
                           TableBlock(None, ["", "value", f"{lv} low", f"{lv} high"],
                                      [["ROC-AUC", b.roc_auc["value"], *_lohi(b.roc_auc["ci"])],
                                       ["PR-AUC (average precision)", b.average_precision["value"],
                                        *_lohi(b.average_precision["ci"])]], caption="bootstrap percentile intervals")]
    blocks += _band_tables({"roc": d["roc"], "pr": d["pr"]}, b.level)
    for note in b.notes:
        blocks.append(TextBlock(note, style="dim"))
    return blocks


def _br(ci: Sequence[Any] | None) -> str:
    lo, hi = _lohi(ci)
    return "—" if lo == "—" else f"[{lo}, {hi}]"


def _ci_row(name: str, entry: dict[str, Any]) -> list[Any]:
    """measure, value, the chosen interval and its method, DeLong's and the bootstrap percentile interval."""
    chosen = entry.get("interval") or {}
    dl = (entry.get("delong") or {}).get("ci")
    bs = (entry.get("bootstrap") or {}).get("ci")
    return [name, entry.get("value"), _br(chosen.get("ci") or bs), chosen.get("name", "bootstrap percentile"),
            _br(dl) if "delong" in entry else "", _br(bs)]


def _too_narrow(entries: Sequence[tuple[str, dict[str, Any]]]) -> list[Block]:
    out: list[Block] = []
    for lab, e in entries:
        text = ((e.get("roc_auc") or {}).get("interval") or {}).get("too_narrow")
        if text:
            out.append(TextBlock((f"{lab!r}: " if lab else "") + text))
    return out


def ranking_ci_blocks(s: dict[str, Any]) -> list[Block]:
    """The report's ``ranking_ci`` section: each measure's value and interval (the method named), DeLong's and the
    bootstrap percentile interval beside it, the bands."""
    lv = _pct(s["level"])
    cols = ["measure", "value", f"{lv} interval", "method", f"DeLong {lv}", f"bootstrap {lv}"]
    blocks: list[Block] = [TextBlock(f"Ranking with {lv} intervals (DeLong and bootstrap)", heading=True)]
    if "per_class" in s:
        rows = []
        pc = s["per_class"]
        picked = manyclasses.for_table(
            list(pc), {lab: e.get("n_positive") or 0 for lab, e in pc.items()},
            {lab: (e.get("roc_auc") or {}).get("value") if "undefined" not in e else float("nan")
             for lab, e in pc.items()})
        keep = set(picked.labels)
        for lab, e in pc.items():
            if lab not in keep:
                continue
            if "undefined" in e:
                rows.append([lab, "—", "—", "—", "—", "—", "—"])
                continue
            auc = _ci_row("", e["roc_auc"])[1:]
            ap = _ci_row("", e["average_precision"])
            rows.append([lab, *auc[:3], ap[1], ap[5]])
        blocks.append(TableBlock("One label against the rest",
                                 ["label", "ROC-AUC", f"{lv} interval", "method", "PR-AUC", f"bootstrap {lv}"], rows))
        if picked.partial:
            blocks.append(TextBlock(str(picked.sentence()), style="dim"))
        blocks += _too_narrow(list(s["per_class"].items()))
        used = {e.get("samples_used") for e in s["per_class"].values()}
    else:
        if "undefined" in s:
            blocks.append(TextBlock(f"No intervals: {s['undefined']}."))
            return blocks
        rows = [_ci_row("ROC-AUC", s["roc_auc"]), _ci_row("PR-AUC (average precision)", s["average_precision"])]
        blocks.append(TableBlock(f"Positive class {s['positive']!r}", cols, rows))
        blocks += _too_narrow([("", s)])
        if s.get("bands"):
            blocks += _band_tables(s["bands"], s["level"])
        used = {s.get("samples_used")}
    shown = ", ".join(f"{x:,}" for x in sorted(u for u in used if u is not None)) or "none"
    blocks.append(TextBlock(f"Bootstrap: {shown} replicates (asked: {s['samples']:,}), seed {s['seed']}.", style="dim"))
    left = s.get("bootstrap_left_out")
    if left:
        blocks.append(TextBlock(f"Bootstrap left out: {left}.", style="dim"))
    for note in s.get("notes", []):
        blocks.append(TextBlock(note, style="dim"))
    return blocks


def requirements_blocks(s: dict[str, Any]) -> list[Block]:
    """The report's ``requirements`` section: each condition with its value, target and verdict."""
    with_ci = any(c.get("interval") is not None for c in s["conditions"])
    rows = []
    for c in s["conditions"]:
        verdict = "met" if c["met"] else ("unmet: undefined" if c["undefined"] else "unmet")
        if c["op"] is None:  # a condition by itself (in_best_group(B)): true or false
            value = "—" if c["value"] is None else ("true" if c["value"] else "false")
            row = [c["condition"], value, "true", verdict]
        else:
            target = c["target"] if isinstance(c["target"], str) else f"{c['target']:g}"
            if isinstance(c["target"], str):
                target += f" ({num(c['target_value'])})"
            row = [c["condition"], num(c["value"]), f"{c['op']} {target}", verdict]
        if with_ci:
            ci = c.get("interval")
            row += [f"[{num(ci[0])}, {num(ci[1])}]" if ci else "—",
                    "—" if c.get("interval_clears") is None else ("yes" if c["interval_clears"] else "no")]
        rows.append(row)
    cols = ["condition", "value", "required", "verdict"] + (["interval", "whole interval clears"] if with_ci else [])
    n, bad = len(s["conditions"]), len(s["unmet"])
    blocks: list[Block] = [TextBlock("Requirements", heading=True),
                           TableBlock(None, cols, rows, numeric_from=1)]
    if bad:
        blocks.append(TextBlock(f"{bad} of {n} condition{'s' if n != 1 else ''} not met: {', '.join(s['unmet'])} "
                                f"(exit code 3).", style="bold"))
    else:
        blocks.append(TextBlock(f"All {n} condition{'s' if n != 1 else ''} met.", style="bold"))
    for c in s["conditions"]:
        if c["undefined"]:
            blocks.append(TextBlock(f"{c['condition']}: {c['undefined']}."))
    for note in s.get("notes", []):
        blocks.append(TextBlock(note, style="dim"))
    return blocks


# --- non-inferiority ---------------------------------------------------------------------------------------

def noninferiority_blocks(r: Compared) -> list[Block]:
    """Non-inferiority with a margin: the scores, the one-sided bound, the shifted 2δ rule, the verdict."""
    label = metric_label(r.metric)
    na, nb = r.names
    blocks: list[Block] = [TextBlock(f"clfeval compare — non-inferiority of {na} against {nb}, {label}, margin "
                                     f"{r.margin:g}; paired bootstrap, {r.samples or 0:,} samples, seed {r.seed}, "
                                     f"{r.n:,} items", heading=True),
                           TableBlock(None, ["", label], [[f"A (new): {na}", r.a], [f"B (old): {nb}", r.b],
                                                          ["δ = A − B", r.delta]],
                                      caption=None if r.higher_is_better else "lower is better")]
    side = "lower" if r.higher_is_better else "upper"
    limit = -r.margin if r.higher_is_better else r.margin
    thr = "2δ + margin" if r.higher_is_better else "2δ − margin"
    rows = [["margin", f"{r.margin:g}"], [f"{_pct(1 - r.alpha)} {side} bound of δ (basic bootstrap)", num(r.bound)],
            [f"non-inferior if the bound is {'above' if r.higher_is_better else 'below'}", num(limit)],
            [f"threshold {thr}", num(r.threshold)],
            [f"virtual test sets with δ {'≥' if r.higher_is_better else '≤'} threshold",
             f"{r.count:,} of {r.samples or 0:,}"],
            ["p = count / b (one-sided)", p_text(r.p_value, r.samples)]]
    blocks.append(TableBlock(f"{r.hypothesis}; α = {r.alpha:g}", ["", "value"], rows))
    blocks.append(TextBlock(r.verdict, style="bold"))
    return closing(blocks, [], r.notes, r.signature, "p_value_definition", "engine")


for _cls, _fn in ((AUCInterval, auc_interval_blocks), (CurveBands, bands_blocks)):
    register_blocks(_cls, _fn)
for _kind, _blocks in (("delong", delong_blocks), ("delong_ovr", delong_ovr_blocks),
                       ("noninferiority", noninferiority_blocks)):
    register_kind(_kind, _blocks)
register_section("ranking_ci", ranking_ci_blocks)
register_section("requirements", requirements_blocks)
