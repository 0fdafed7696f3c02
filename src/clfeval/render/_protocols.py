"""Text and Markdown rendering of :class:`clfeval.protocols._api.ProtocolResult` (``clfeval cv`` / ``holdout``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clfeval.protocols import ProtocolResult
from clfeval.render import register
from clfeval.render._reports import report_blocks
from clfeval.render._util import Block, TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich

__all__ = ["protocol_blocks"]

# Per-fold rows shown in text (JSON always has every fold).
MAX_FOLD_ROWS = 60


def _metric_title(name: str, multilabel: bool) -> str:
    if name == "accuracy" and multilabel:
        return "subset accuracy"
    text = name.replace("_", " ")
    for how in ("macro", "micro", "weighted"):
        text = text.replace(how + " ", how + "-")
    return text.replace("-f1", "-F1").replace("f1 of means", "F1 of means").replace("mcc", "MCC")


def protocol_blocks(r: ProtocolResult) -> list[Block]:
    """The layout of a cross-validation / holdout result."""
    ml = r.kind == "multilabel"
    blocks: list[Block] = []
    p = r.protocol
    what = f"{len(r.labels)} labels" if ml else f"{len(r.labels)} classes"
    sig: Mapping[str, Any] = r.signature  # the result's read-only JSON parts, read as JSON
    blocks.append(TextBlock(f"clfeval {'cv' if p.kind == 'kfold' else 'holdout'} — {p.describe()} · {r.n} items, "
                            f"{what} · seed {sig.get('seed')}", heading=True))
    model = sig.get("model") or {}
    if model.get("description"):
        blocks.append(TextBlock(f"Model: {model['description']}."))
    n_folds = len(r.folds)
    unit = ("fold" if p.kind == "kfold" else "repeat") + ("s" if n_folds != 1 else "")
    over = (f"all {n_folds} {unit}" if n_folds != 1 else f"1 {unit}") if p.repeats == 1 or p.kind != "kfold" \
        else f"all {n_folds} folds of {p.repeats} repeats"
    tvt: Mapping[str, Any] | None = r.train_vs_test
    cols = ["metric", "mean", "std", "min", "max"] + (["train", "gap"] if tvt else [])
    rows = []
    for m in r.metric_names:
        s = r.spread[m]
        row: list[Any] = [_metric_title(m, ml), s.mean, s.std, s.min, s.max]
        if tvt:
            row += [tvt["train"][m], tvt["gap"][m]]
        rows.append(row)
    cap = "std = sample standard deviation (ddof = 1)"
    if tvt:
        cap += "; train = the same models scored on their own training items, gap = train − test (optimism)"
    blocks.append(TableBlock(f"Test metrics over {over}", cols, rows, caption=cap + "."))
    head: list[str] = ([m for m in ("accuracy", "macro_f1", "micro_f1") if m in r.metric_names]
                       or list(r.metric_names[:3]))
    fcols = (["repeat"] if p.repeats > 1 else []) + (["fold"] if p.kind == "kfold" else []) + ["train", "test"]
    if any(f.n_validation is not None for f in r.folds):
        fcols.append("validation")
    fcols += [_metric_title(m, ml) for m in head]
    frows = []
    for f in r.folds[:MAX_FOLD_ROWS]:
        row = ([f.repeat] if p.repeats > 1 else []) + ([f.fold] if p.kind == "kfold" else []) + [f.n_train, f.n_test]
        if f.n_validation is not None:
            row.append(f.n_validation)
        frows.append(row + [f.metrics[m] for m in head])
    more = f" (first {MAX_FOLD_ROWS} of {n_folds}; the JSON has all)" if n_folds > MAX_FOLD_ROWS else ""
    blocks.append(TableBlock(f"Per {'fold' if p.kind == 'kfold' else 'repeat'}{more}", fcols, frows,
                             numeric_from=0))
    if r.validation is not None:
        blocks.append(TableBlock("Validation part (the same models)", ["metric", "mean", "std", "min", "max"],
                                 [[_metric_title(m, ml), s.mean, s.std, s.min, s.max] for m,
                                  s in r.validation.items()]))
    if r.thresholds is not None:
        th: Mapping[str, Any] = r.thresholds
        show_cost = th["objective"] == "cost"
        tcols = ["label", "cut", "threshold", "precision", "recall", "F1"] + (["cost"] if show_cost else [])
        trows = []
        for lab, entry in th["labels"].items():
            for which, name in (("default", "default (0)"), ("chosen", "chosen on dev"),
                                ("hindsight", "hindsight (optimistic)")):
                if which in entry:
                    e = entry[which]
                    trows.append([lab, name, e["threshold"], e["precision"], e["recall"], e["f1"]]
                                 + ([e["cost"]] if show_cost else []))
        blocks.append(TableBlock(f"Threshold chosen inside each training fold ({th['description']}); test-fold means",
                                 tcols, trows, numeric_from=2, caption=th["note"]))
    first = "hamming_loss" if ml else "accuracy"
    bcols = ["system", _metric_title(first, ml), "macro-F1", "micro-F1"]
    brows: list[list[Any]] = [["this model", r.spread[first].mean if first in r.spread else float("nan"),
                               r.spread["macro_f1"].mean if "macro_f1" in r.spread else float("nan"),
                               r.spread["micro_f1"].mean if "micro_f1" in r.spread else float("nan")]]
    for b, ms in r.baselines.items():
        brows.append([b, ms[first].mean if first in ms else float("nan"),
                      ms["macro_f1"].mean if "macro_f1" in ms else float("nan"),
                      ms["micro_f1"].mean if "micro_f1" in ms else float("nan")])
    one = "fold" if p.kind == "kfold" else "repeat"
    blocks.append(TableBlock(f"Baselines per {one} (majority / stratified from that {one}'s training labels)"
                             + (f", mean over {over}" if n_folds != 1 else ""), bcols, brows))
    blocks.append(TextBlock("Pooled out-of-fold report (the fold tables added up"
                            + (", over all repeats" if p.repeats > 1 else "") + ")", heading=True))
    pooled_sig = r.pooled.signature  # one signature line for the run: the pooled report's settings join it
    blocks.extend(b for b in report_blocks(r.pooled)[1:]
                  if not (isinstance(b, TextBlock) and b.style == "dim" and b.text.startswith("clfeval ")))
    blocks.append(TextBlock("A difference between two models smaller than the fold-to-fold spread is not evidence: "
                            "run both on the same folds (same seed) and test it with `clfeval compare` on their "
                            "out-of-fold predictions.", own_markup=True))
    for note in r.notes:
        blocks.append(TextBlock(note, style="dim"))
    versions = sig.get("versions", {})
    tail = [f"clfeval {sig.get('version')}", f"seed {sig.get('seed')}", p.describe(),
            f"zero_division={pooled_sig.get('zero_division')}", f"beta={pooled_sig.get('beta', 1.0):g}"]
    if "scikit-learn" in versions:
        tail.append(f"scikit-learn {versions['scikit-learn']}")
    if r.run_id is not None:
        tail.append(f"run {r.run_id}")
    if r.predictions_path:
        tail.append(f"predictions: {r.predictions_path}")
    blocks.append(TextBlock(" · ".join(tail), style="dim"))
    return blocks


register(ProtocolResult, text=lambda r: blocks_to_rich(protocol_blocks(r)),
         markdown=lambda r: blocks_to_markdown(protocol_blocks(r)))
