"""Text and Markdown of two models compared under cross-validation (:class:`CVComparison`) and of two recorded
runs compared fold by fold (:class:`RunComparison`)."""

from __future__ import annotations

from typing import Any

from clfeval.protocols import RunComparison
from clfeval.render._decisions import closing, register_blocks
from clfeval.render._significance import p_text
from clfeval.render._util import Block, TableBlock, TextBlock, num
from clfeval.significance import CVComparison, TTest, metric_label

__all__ = ["cv_compare_blocks", "run_compare_blocks"]

#: Per-fold rows shown in text (JSON has every fold).
MAX_FOLD_ROWS = 60


def _t_row(name: str, t: TTest) -> list[Any]:
    return [name, num(t.estimate), num(t.se), num(t.statistic, 3), f"{t.df:g}", p_text(t.p_value, None),
            p_text(t.p_value_two_sided, None), num(t.ci[0]), num(t.ci[1])]


def cv_compare_blocks(c: CVComparison, *, heading: str | None = None) -> list[Block]:
    """Per-fold differences, the plain and corrected t-tests, 5×2cv, the pooled bootstrap, the verdict."""
    label = metric_label(c.metric)
    na, nb = c.names
    design = f"{c.repeats} repeat{'s' if c.repeats != 1 else ''} of {c.folds_per_repeat} folds" if c.folds_per_repeat \
        else f"{len(c.folds)} folds"
    blocks: list[Block] = [TextBlock(heading or f"clfeval cv comparison — {label}: A: {na}, B: {nb}, {design}",
                                     heading=True)]
    rows = [[f.repeat, f.fold, f.n_train, f.n_test, num(f.a), num(f.b), num(f.delta)] for f in c.folds[:MAX_FOLD_ROWS]]
    blocks.append(TableBlock(f"Per fold ({label})", ["repeat", "fold", "train", "test", f"A: {na}", f"B: {nb}",
                                                     "δ = A − B"], rows,
                             caption=(f"{len(c.folds) - MAX_FOLD_ROWS} more folds in the JSON output; "
                                      if len(c.folds) > MAX_FOLD_ROWS else "")
                             + f"mean δ {num(c.mean_delta)}, standard deviation {num(c.sd_delta)}; "
                               f"n_test/n_train = {c.test_train_ratio:.4g}", numeric_from=0))
    lv = f"{c.level * 100:g}%"
    trows = [_t_row("paired t over folds (too optimistic)", c.plain),
             _t_row("corrected resampled t (Nadeau–Bengio)", c.corrected)]
    if c.five_by_two is not None:
        trows.append(_t_row("5×2cv paired t (Dietterich)", c.five_by_two["t"]))
        f = c.five_by_two["f"]
        trows.append(["5×2cv combined F (Alpaydin)", "—", "—", num(f["statistic"], 3), "10, 5", "—",
                      p_text(f["p_value_two_sided"], None), "—", "—"])
    p = c.pooled
    if p is not None:
        lo, hi = (p.get("ci_delta") or [None, None])[:2]
        trows.append([f"pooled {p.get('test') or 'paired'} ({p.get('samples') or 0:,} samples)", num(p["delta"]), "—",
                      "—", "—", p_text(p["p_value"] if p["p_value"] is not None else float("nan"),
                                       p.get("samples") if p.get("test") == "bootstrap" else None),
                      "—", num(lo), num(hi)])
    side = "H1: A better" + ("" if c.higher_is_better else " (lower is better)")
    blocks.append(TableBlock(f"Tests — {side}; α = {c.alpha:g}",
                             ["test", "estimate", "SE", "t", "df", "p (one-sided)", "p (two-sided)", f"{lv} low",
                              f"{lv} high"], trows))
    if c.five_by_two_reason:
        blocks.append(TextBlock(c.five_by_two_reason, style="dim"))
    for t in (c.plain, c.corrected):
        if t.undefined:
            blocks.append(TextBlock(f"{t.name}: {t.undefined}.", style="dim"))
    blocks.append(TextBlock(c.verdict, style="bold"))
    for note in c.notes:
        blocks.append(TextBlock(note, style="dim"))
    return blocks


def run_compare_blocks(r: RunComparison) -> list[Block]:
    """Two runs of the run log: what was checked, then the fold-by-fold comparison."""
    c = r.comparison
    head = (f"clfeval runs compare — {metric_label(c.metric)}: A: {r.a.name} against B: {r.b.name}, "
            f"{len(c.folds)} folds")
    blocks = cv_compare_blocks(c, heading=head)
    checked: list[Block] = [TextBlock("Comparable: " + "; ".join(r.checked) + ".", style="dim")]
    if r.a.summary and r.b.summary:  # each model on its own first, then the comparison
        names = [m for m in r.a.summary if m in r.b.summary]
        rows = [[f"{side}: {run.name}", *[f"{num(run.summary[m]['mean'])} ± "
                                          f"{num(run.summary[m]['std'])}" for m in names]]
                for side, run in (("A", r.a), ("B", r.b))]
        checked.append(TableBlock(f"Each model over the {len(c.folds)} folds (mean ± standard deviation)",
                                  ["model", *[metric_label(m) for m in names]], rows))
    blocks[1:1] = checked
    return closing(blocks, [], r.notes, r.signature, "metric=", "alpha=")


register_blocks(CVComparison, cv_compare_blocks)
register_blocks(RunComparison, run_compare_blocks)
