"""Text, Markdown and HTML of :class:`~clfeval.ops.label_issues.LabelIssues`: the rule in words, the thresholds,
the noise matrix, the estimated number of label errors and the top flagged items (every user string — labels,
ids — made inert by the blocks' renderers, escaped in Markdown and HTML)."""

from __future__ import annotations

from typing import Any

from clfeval.core import shown
from clfeval.ops.label_issues import LabelIssues
from clfeval.render._util import Block, TableBlock, TextBlock, closing, num, register_blocks

__all__ = ["label_issues_blocks", "label_issues_page", "TOP"]

#: The flagged items a text, Markdown or HTML page lists (the JSON, ``to_frame()`` and ``--flagged`` hold all).
TOP = 20


def _rule(r: LabelIssues) -> str:
    return ("Confident learning (Northcutt, Jiang & Chuang 2021), prune by noise rate: t_j is the mean probability "
            "of class j over the items given j; an item given i counts in C[i][j] for the most probable class j "
            "among those with p(j | x) ≥ t_j; C̃[i][j] = C[i][j] / Σ_j C[i][j] · n_i, Q = C̃ / Σ C̃; in every cell "
            "i ≠ j the round(n · Q[i][j]) items given i with the largest p(j | x) − p(i | x) are flagged, suggested "
            "label j.")


def label_issues_blocks(r: LabelIssues) -> list[Block]:
    """The page of ``clfeval label-issues`` (every label and id made inert here: control characters shown escaped
    in every format, the HTML table's row headers included)."""
    labels = [shown(lab) for lab in r.labels]
    blocks: list[Block] = [
        TextBlock(f"clfeval label-issues — {r.n:,} items, {len(r.labels)} classes: {r.estimated_errors:,} likely "
                  f"label error{'' if r.estimated_errors == 1 else 's'} estimated, {r.n_flagged:,} flagged",
                  heading=True),
        TextBlock(_rule(r))]
    blocks.append(TableBlock("Thresholds", ["given label", "items n_i", "threshold t_j"],
                             [[lab, f"{n:,}", num(t)] for lab, n, t in zip(labels, r.n_given, r.thresholds,
                                                                              strict=True)],
                             caption="t_j: the mean self-confidence of the items given label j (— : no item is "
                                     "given it)"))
    blocks.append(TableBlock("Noise matrix P(given = row | true = column)", ["given \\ true", *labels],
                             [[lab, *[num(v) for v in row]] for lab, row in zip(labels, r.noise_matrix,
                                                                                strict=True)],
                             caption="Q[i][j] / Σ_i Q[i][j] (— : no item is confidently in the column's class)"))
    cells = [[shown(c["given"]), shown(c["suggested"]), f"{c['count']:,}", f"{c['flagged']:,}"] for c in r.cells]
    blocks.append(TableBlock(f"Estimated label errors: {r.estimated_errors:,}", ["given", "likely true",
                                                                                  "round(n · Q)", "flagged"],
                             cells or [["—", "—", "0", "0"]], numeric_from=2,
                             caption="round(n · Q[i][j]) per off-diagonal cell, half up; an item two cells flag is "
                                     "flagged once"))
    ranked = "self-confidence" if r.rank_by == "self_confidence" else "normalised margin"
    top = [[f"{k + 1}", "—" if f.id is None else shown(str(f.id)), f"{f.row:,}", shown(f.given), shown(f.suggested),
            num(f.self_confidence), num(f.normalized_margin)] for k, f in enumerate(r.flagged[:TOP])]
    more = f"; {r.n_flagged - TOP:,} more in the JSON and --flagged" if r.n_flagged > TOP else ""
    blocks.append(TableBlock(f"Flagged items, by {ranked} (lowest first)",
                             ["rank", "id", "row", "given", "suggested", "self-confidence", "normalised margin"],
                             top or [["—", "—", "—", "—", "—", "—", "—"]],
                             caption=f"self-confidence p(given | x); normalised margin p(given | x) − max over the "
                                     f"other classes{more}", numeric_from=5, key=2))
    return closing(blocks, [f"{u['field']}: {u['reason']}." for u in r.undefined], r.notes, r.signature,
                   "rank_by=")


def label_issues_page(r: LabelIssues, figs: Any = None) -> Any:
    """The HTML page (and notebook card): the blocks under the headline numbers, the noise matrix's figure in its
    section."""
    from clfeval import plots
    from clfeval.render.html.layouts import Figures, attach, card
    from clfeval.render.html.pages import blocks_page

    page = blocks_page(r, label_issues_blocks(r))
    page.summary.headline = [card("items", f"{r.n:,}"), card("estimated label errors", f"{r.estimated_errors:,}"),
                             card("flagged", f"{r.n_flagged:,}")]
    if r.labels:
        figs = figs or Figures()
        attach(page.sections, "Noise matrix", [figs(plots.noise_matrix, r, "Estimated noise matrix")])
    return page


register_blocks(LabelIssues, label_issues_blocks)
