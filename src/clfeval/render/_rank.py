"""Text, Markdown and HTML of a ranking over data sets (:class:`~clfeval.ops.rank.RankResult`)."""

from __future__ import annotations

from typing import Any

from clfeval.ops.rank import RankResult
from clfeval.render._decisions import closing, register_blocks, requirements_blocks
from clfeval.render._significance import p_text
from clfeval.render._util import Block, TableBlock, TextBlock, num

__all__ = ["rank_blocks", "rank_page"]

#: Pairs shown in text (JSON has every pair).
MAX_PAIRS = 60
#: Data sets shown in the score table of the text output.
MAX_DATASETS = 40


def _yes(b: bool) -> str:
    return "yes" if b else "no"


def rank_blocks(r: RankResult) -> list[Block]:
    """Average ranks, Friedman / Iman–Davenport, Nemenyi, Holm-adjusted Wilcoxon pairs, control, Bayesian pairs."""
    n, k = len(r.datasets), len(r.systems)
    direction = "higher is better" if r.higher_is_better else "lower is better"
    blocks: list[Block] = [TextBlock(f"clfeval rank — {r.score} ({direction}): {k} systems over {n} data sets",
                                     heading=True)]
    blocks.append(TextBlock(r.verdict, style="bold"))
    for w in r.warnings:
        blocks.append(TextBlock(f"Warning: {w}", style="bold"))
    idx = {s: i for i, s in enumerate(r.systems)}
    group_of = {s: ", ".join(str(g + 1) for g, members in enumerate(r.holm_groups) if s in members) or "—"
                for s in r.systems}
    rows = [[i + 1, s, num(r.average_ranks[s], 3), num(r.mean_scores[s]), group_of[s], _yes(s in r.best_group)]
            for i, s in enumerate(r.order)]
    blocks.append(TableBlock("Average ranks (1 = best; ties share mid-ranks)",
                             ["#", "system", "average rank", f"mean {r.score}", "Holm group", "best group"], rows,
                             caption="Holm groups: runs of systems (in rank order) no two of which the Holm-adjusted "
                                     "Wilcoxon tests separate; best group: the first-ranked system and those not "
                                     "separated from it.", numeric_from=2, key=2))
    f = r.friedman
    blocks.append(TableBlock(f"Friedman test — H0: all systems perform alike; α = {r.alpha:g}",
                             ["statistic", "value", "df", "p"],
                             [["χ²_F (Demšar, no tie correction)", num(f.chi2, 3), f.df, p_text(f.chi2_p_value, None)],
                              ["χ²_F tie-corrected (as scipy.stats.friedmanchisquare)", num(f.chi2_tie_corrected, 3),
                               f.df, p_text(f.chi2_tie_corrected_p_value, None)],
                              ["Iman–Davenport F_F", num(f.iman_davenport_f, 3), f"{f.df_f[0]}, {f.df_f[1]}",
                               p_text(f.iman_davenport_p_value, None)]], numeric_from=1))
    nem = r.nemenyi
    gtext = "; ".join("{" + ", ".join(g) + "}" for g in nem.groups) or "none: every pair is separated"
    blocks.append(TextBlock(f"Nemenyi: q_α = {nem.q_alpha:.3f}, critical difference CD = "
                            f"{nem.critical_difference:.3f} ranks ({nem.explanation}). Not separated: {gtext}."))
    prow = []
    for p in r.pairs[:MAX_PAIRS]:
        prow.append([p.a, p.b, num(p.rank_difference, 3), num(p.mean_difference), num(p.median_difference),
                     num(p.hodges_lehmann), f"{p.wins}/{p.ties}/{p.losses}", p_text(p.p_value, None),
                     p_text(p.p_holm, None), _yes(p.separated), p_text(p.nemenyi_p, None), _yes(p.nemenyi_separated)])
    more = len(r.pairs) - MAX_PAIRS
    blocks.append(TableBlock("Pairs — A ranked better than B; d = A − B on each data set (positive: A better)",
                             ["A", "B", "Δ rank", "mean d", "median d", "Hodges–Lehmann", "wins/ties/losses",
                              "Wilcoxon p", "Holm p", "separated", "Nemenyi p", "Nemenyi separated"], prow,
                             caption=(f"{more} more pairs in the JSON output; " if more > 0 else "")
                             + "Wilcoxon signed-rank tests, two-sided, Holm-adjusted over all "
                               f"{len(r.pairs)} pairs (the recommended post-hoc test).", numeric_from=2, key=2))
    if r.control is not None:
        c = r.control
        crow = [[x.system, num(x.mean_difference), num(x.median_difference), num(x.hodges_lehmann),
                 f"{x.wins}/{x.ties}/{x.losses}", p_text(x.p_value, None), p_text(x.p_holm, None), _yes(x.separated)]
                for x in c.comparisons]
        blocks.append(TableBlock(f"Against the control {c.name}", ["system", "mean d", "median d",
                                                                    "Hodges–Lehmann", "wins/ties/losses",
                                                                    "Wilcoxon p", "Holm p", "separated"], crow,
                                 caption=c.explanation + ".", numeric_from=1))
    if r.bayes:
        brow = [[b.a, b.b, num(b.p_a_better, 3), num(b.p_equivalent, 3), num(b.p_b_better, 3)] for b in r.bayes]
        blocks.append(TableBlock(f"Bayesian signed-rank test — ROPE ±{r.rope:g}, {r.samples:,} samples, seed {r.seed}",
                                 ["A", "B", "P(A better)", "P(equivalent)", "P(B better)"], brow, numeric_from=2,
                                 key=2))
        for b in r.bayes:
            blocks.append(TextBlock(b.verdict))
    if n <= MAX_DATASETS:
        srow = [[d] + [num(r.scores[i][idx[s]]) for s in r.order] for i, d in enumerate(r.datasets)]
        blocks.append(TableBlock(f"Scores ({r.score}) per data set", ["data set"] + list(r.order), srow))
    else:
        blocks.append(TextBlock(f"The {n} data sets' scores and ranks are in the JSON output.", style="dim"))
    for check in r.checked:
        blocks.append(TextBlock(f"Checked: {check}.", style="dim"))
    if r.requirements is not None:
        blocks.extend(requirements_blocks(r.requirements.to_dict()))  # the layout a report's requirements share
    return closing(blocks, [], list(r.notes), dict(r.signature), "wilcoxon", "seed=")


register_blocks(RankResult, rank_blocks)


def rank_page(r: RankResult, figs: Any = None) -> Any:
    """The HTML page: the verdict and headline numbers, the CD diagram, the tables, the Bayesian bars."""
    from clfeval import plots
    from clfeval.render.html.document import Summary
    from clfeval.render.html.layouts import Figures, attach, base_page, card

    s = Summary([card(f"average rank of {name}", r.average_ranks[name]) for name in r.order[:4]]
                + [card("Iman–Davenport p", p_text(r.friedman.iman_davenport_p_value, None)),
                   card("Nemenyi CD", r.nemenyi.critical_difference)],
                verdicts=[r.verdict] + list(r.warnings))
    page, sections = base_page(r, rank_blocks(r), notes=list(r.notes), summary=s)
    figs = figs or Figures()
    attach(sections, "Average ranks", [figs(plots.cd_diagram, r, "Critical-difference diagram: bars join the "
                                                                  "systems the Nemenyi test does not separate")],
           new="Critical-difference diagram", at=0)
    if r.bayes:
        attach(sections, "Bayesian", [figs(plots.bayes_bars, r, "The three probabilities of each Bayesian pair")],
               new="Bayesian pairs")
    return page

