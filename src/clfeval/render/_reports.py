"""Text and Markdown rendering of :class:`clfeval.evaluate._reports.Report`."""

from __future__ import annotations

import math
from typing import Any

from clfeval.core import catalog, manyclasses
from clfeval.ops.report import Report, UndefinedValue
from clfeval.render import register, section_renderers
from clfeval.render._util import Block, TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich, num

__all__ = ["report_blocks"]

# Largest K for which the confusion matrix is drawn in text (JSON always has it).
MAX_MATRIX = 25


def _pct(x: float) -> str:
    return num(x)


def undefined_text(rep: Report) -> str | None:
    if not rep.undefined:
        return None
    policy = rep.signature.get("zero_division", "0")
    parts, infinite = [], []

    def labels(u: UndefinedValue) -> str:
        """The first ten labels, and how many more there are (never cut silently)."""
        labs = list(u.labels or ())
        return ", ".join(labs[:10]) + (f" (+{len(labs) - 10} more)" if len(labs) > 10 else "")

    for u in rep.undefined:
        if u.infinite:
            infinite.append(f"{u.metric} for {labels(u)}" if u.labels is not None else u.metric)
        elif u.labels is not None:
            parts.append(f"{u.metric} for {labels(u)}")
        elif u.items is not None:
            parts.append(f"{u.metric} for {u.items} items ({u.reason or '0/0'})")
        else:
            parts.append(u.metric)
    if policy == "nan":
        how = "shown as undef and left out of macro/weighted averages"
    else:
        how = f"counted as {policy} (--zero-division to change)"
    text = [f"Undefined (0/0), {how}: " + "; ".join(parts) + "."] if parts else []
    if infinite:
        text.append("Infinite (x/0 with x > 0), shown as undef: " + "; ".join(infinite) + ".")
    return " ".join(text)


# The binary block's first rows, in this order; every other metric of the block follows in catalogue order.
_BINARY_ROWS = (("accuracy", "accuracy"), ("error_rate", "error rate"), ("precision", "precision"),
                ("recall", "recall (sensitivity)"), ("specificity", "specificity"), ("fpr", "false-positive rate"),
                ("f1", "F1"), ("fbeta", "F{beta:g}"), ("balanced_accuracy", "balanced accuracy"),
                ("mcc", "Matthews correlation"), ("kappa", "Cohen's kappa"), ("delta", "δ = TPR − FPR"),
                ("phi", "bias φ (Armano) = TPR + FPR − 1"))


#: How many tied hardest classes a sentence names.
HARDEST_SHOWN = 10


def shown_classes(rep: Report) -> Any:
    """The classes the per-class table shows (:func:`clfeval.core._manyclasses.for_table`)."""
    return shown_of(rep)


def shown_of(rep: Report, figure: bool = False) -> Any:
    """The classes a table (or, ``figure``, a figure) shows, by support and F1 read from the per-class rows."""
    labels = [str(x) for x in rep.labels]
    rows = {str(k): v for k, v in rep.per_class.items()}
    sup = {lab: rows[lab].support or 0 if lab in rows else 0 for lab in labels}
    f1 = {lab: math.nan if lab not in rows or rows[lab].f1 is None else float(rows[lab].f1 or 0.0) for lab in labels}
    return manyclasses.for_figure(labels, sup, f1) if figure else manyclasses.for_table(labels, sup, f1)


def engine_text(external: Any) -> str | None:
    """Where a ranking was computed, for the signature line (always there; the body says it only when it
    matters: spilled runs, Dask)."""
    if not isinstance(external, dict):
        return None
    if external.get("engine") == "dask":
        return "ranking: on Dask"
    if "memory" not in external:
        return None
    from clfeval.render._scores import size_text

    budget = size_text(int(external["memory"]))
    if external.get("spilled"):
        return f"ranking: {int(external.get('runs', 0))} sorted runs spilled to disk (memory budget {budget})"
    return f"ranking: in memory (budget {budget})"


def report_blocks(rep: Report) -> list[Block]:
    """The layout of a report, shared by the text and Markdown renderers."""
    blocks: list[Block] = []
    labels = rep.labels
    k = len(labels)
    kind = {"multilabel": "multi-label", "binary": "single-label, 2 classes",
            "multiclass": f"single-label, {k} classes"}[rep.kind]
    blocks.append(TextBlock(f"clfeval report — {rep.n} items, {kind}", heading=True))
    picked = shown_classes(rep)
    shown_labels = list(picked.labels)
    if rep.confusion_cells is not None:  # many classes, held sparsely: the largest ones and confusions only
        cells = rep.confusion_cells
        blocks.append(TextBlock(f"Confusion table: {k:,} classes, held sparsely ({cells.non_empty:,} non-empty "
                                f"cells, {cells.off_diagonal:,} of them confusions); the largest confusions are "
                                f"listed below, and the JSON output holds them under confusion_cells."))
    if rep.confusion_matrix is not None:
        if k <= MAX_MATRIX:
            rows = [[labels[i], *rep.confusion_matrix[i], sum(rep.confusion_matrix[i])] for i in range(k)]
            col_tot = [sum(r[j] for r in rep.confusion_matrix) for j in range(k)]
            rows.append(["(predicted total)", *col_tot, rep.n])
            blocks.append(TableBlock("Confusion matrix (rows = gold, columns = predicted)",
                                     ["gold \\ pred", *labels, "total"], rows))
        else:
            blocks.append(TextBlock(f"Confusion matrix: {k}×{k}, too wide to print; it is in the JSON output."))
    fb = any(c.fbeta is not None for c in rep.per_class.values())
    beta = rep.signature.get("beta", 1.0)
    fcol = [f"F{beta:g}"] if fb else []
    cols = ["class", "support", "TP", "FP", "FN", "TN", "precision", "recall", "F1", *fcol, "specificity", "FPR", "δ",
            "bias φ (Armano)"]
    if rep.kind == "multilabel":
        cols.append("accuracy")
    rows = []
    for lab in shown_labels:
        c = rep.per_class[lab]
        row = [lab, c.support, c.tp, c.fp, c.fn, c.tn, c.precision, c.recall, c.f1]
        if fb:
            row.append(c.fbeta)
        row += [c.specificity, c.fpr, c.delta, c.phi]
        if rep.kind == "multilabel":
            row.append(c.accuracy)
        rows.append(row)
    caption = ("δ = TPR − FPR (discrimination), bias φ (Armano) = TPR + FPR − 1 (bias towards saying yes; "
               "not the phi coefficient, which is MCC)")
    if picked.partial:
        caption += "; " + picked.sentence()
    blocks.append(TableBlock("Per class (each class against all others)", cols, rows, caption=caption))
    avg_cols = ["average", "precision", "recall", "F1", *fcol]
    avg_rows = []
    for name, avg, desc in (("macro", rep.macro, "mean of per-class values"), ("micro", rep.micro, "pooled counts"),
                            ("weighted", rep.weighted, "weighted by support")):
        row = [f"{name} ({desc})", avg.precision, avg.recall, avg.f1]
        if fb:
            row.append(math.nan if avg.fbeta is None else avg.fbeta)
        avg_rows.append(row)
    cap = (f"macro-F1 two ways: mean of per-class F1 = {num(rep.macro.f1)}; "
           f"F1 of macro-P and macro-R = {num(rep.macro.f1_of_means)}.")
    if rep.kind != "multilabel":
        cap += " On single-label data micro-P = micro-R = micro-F1 = accuracy."
    blocks.append(TableBlock("Averages over classes", avg_cols, avg_rows, caption=cap))
    overall: list[list[Any]] = [
        ["accuracy" if rep.kind != "multilabel" else "subset accuracy (exact set match)", rep.accuracy],
        ["error rate", rep.error_rate]]
    if rep.kind == "multilabel":
        overall += [["Hamming loss", rep.hamming_loss], ["Jaccard (mean per item)", rep.jaccard]]
    else:
        overall += [["balanced accuracy", rep.balanced_accuracy], ["Matthews correlation", rep.mcc],
                    ["Cohen's kappa", rep.kappa]]
    blocks.append(TableBlock("Overall", ["measure", "value"], overall))
    if rep.binary is not None:
        b = rep.binary
        held = b.to_dict()
        brow = [["TP / FP / FN / TN", f"{b.tp} / {b.fp} / {b.fn} / {b.tn}"]]
        for key, name in _BINARY_ROWS:
            name = name.format(beta=beta)
            if key in held:
                brow.append([name, num(getattr(b, key))])
        shown = {row[0] for row in brow}
        for m in catalog.METRICS:  # every other metric of the block, in catalogue order
            if m.per_label and m.name in held and not any(m.name == k for k, _ in _BINARY_ROWS) and \
                    m.title not in shown:
                brow.append([m.title, num(getattr(b, m.name))])
        blocks.append(TableBlock(f"Binary summary: {b.positive!r} against all others", ["measure", "value"], brow))
    if rep.ordinal is not None:
        o = rep.ordinal
        blocks.append(TableBlock(f"Ordered classes: {' < '.join(o.order)}", ["measure", "value"],
                                 [["mean absolute error (class ranks)", o.mae],
                                  ["linear-weighted kappa", o.linear_kappa],
                                  ["quadratic-weighted kappa", o.quadratic_kappa]]))
    # Baselines beside the classifier.
    pos = rep.binary.positive if rep.binary is not None else None
    bcols = ["system", "accuracy" if rep.kind != "multilabel" else "Hamming loss", "macro-F1", "micro-F1"]
    if pos is not None:
        bcols.append(f"F1 of {pos}")
    brows = [["this classifier", rep.accuracy if rep.kind != "multilabel" else rep.hamming_loss, rep.macro.f1,
              rep.micro.f1]
             + ([rep.per_class[pos].f1] if pos is not None else [])]
    for name in rep.baselines.to_dict():
        bl = getattr(rep.baselines, name)
        label = name if name != "majority" or bl.label is None else f"majority ({bl.label})"
        first = bl.accuracy if rep.kind != "multilabel" else bl.hamming_loss
        brows.append([label, first, bl.macro_f1, bl.micro_f1]
                     + ([(bl.per_class or {})[pos].f1] if pos is not None else []))
    source = (rep.baselines.majority.source if rep.baselines.majority is not None else None) or ""
    blocks.append(TableBlock("Baselines (exact expected values, no sampling)", bcols, brows,
                             caption=f"majority/stratified from the {source}" if source else None))
    # Diagnostics.
    d = rep.diagnostics
    lines = []
    if d.hardest_class is not None:
        hc = d.hardest_class
        tied = list(d.hardest_classes) or [hc]
        more = f" and {len(tied) - HARDEST_SHOWN:,} more" if len(tied) > HARDEST_SHOWN else ""
        tie = f" (tied: {', '.join(tied[:HARDEST_SHOWN])}{more})" if len(tied) > 1 else ""
        lines.append(f"Hardest class: {hc} (lowest F1, {num(rep.per_class[hc].f1)}){tie}.")
    mcp = d.most_confused_pair
    if mcp:
        a, b2 = mcp.classes
        lines.append(f"Most confused pair: {{{a}, {b2}}} with {mcp.errors} error{'s' if mcp.errors != 1 else ''} "
                     f"— {a} predicted as {b2}: {mcp.a_as_b}, {b2} predicted as {a}: {mcp.b_as_a}.")
    elif rep.kind != "multilabel":
        lines.append("No confusions: every item is on the diagonal.")
    if lines:
        blocks.append(TextBlock("Reading the errors", heading=True))
        blocks.extend(TextBlock(x) for x in lines)
    if d.top_confusions:
        blocks.append(TableBlock("Largest confusions (directional)", ["gold", "predicted as", "items"],
                                 [[c.gold, c.pred, c.count] for c in d.top_confusions], numeric_from=2))
    if rep.errors is not None:
        e = rep.errors
        rows = [[str(it.id), it.gold if isinstance(it.gold, str) else "|".join(it.gold),
                 it.pred if isinstance(it.pred, str) else "|".join(it.pred)] for it in e.items]
        blocks.append(TableBlock(f"Misclassified items ({e.shown} of {e.total})", ["id", "gold", "predicted"],
                                 rows,
                                 numeric_from=3, caption="The short list of ids; `clfeval errors` shows each confused "
                                                         "cell's documents and the vocabulary they share."))
    parts = rep.parts()
    for name, section_blocks in section_renderers(parts).items():
        blocks.extend(section_blocks(parts[name].to_dict()))
    und = undefined_text(rep)
    if und:
        blocks.append(TextBlock(und))
    for note in rep.notes:
        blocks.append(TextBlock(note, style="dim"))
    sig = rep.signature
    line = f"clfeval {sig['version']} · zero_division={sig['zero_division']} · beta={sig['beta']:g}"
    engine = engine_text(rep.ranking.external if rep.ranking is not None else None)
    blocks.append(TextBlock(line + (f" · {engine}" if engine else ""), style="dim"))
    return blocks


def _text(rep: Report) -> list[Any]:
    return blocks_to_rich(report_blocks(rep))


def _markdown(rep: Report) -> str:
    return blocks_to_markdown(report_blocks(rep))


register(Report, text=_text, markdown=_markdown)
