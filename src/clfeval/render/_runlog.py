"""Text and Markdown rendering of the run log's results (``clfeval runs ...``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clfeval.protocols import Ablation, BestRuns, CheckResult, Run, RunList, flatten_settings
from clfeval.render import register
from clfeval.render._util import Block, TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich, num

__all__ = ["model_summary"]


def model_summary(settings: dict[str, Any]) -> str:
    """A short description of a run's model from its settings (``nb 1-2gram stem``)."""
    m = settings.get("model")
    if not isinstance(m, dict):
        return str(m) if m is not None else "—"
    parts = [str(m.get("name", "?"))]
    if m.get("ngrams", 1) != 1:
        parts.append(f"1-{m['ngrams']}gram")
    if m.get("stop_words"):
        parts.append("stop")
    if m.get("stem"):
        parts.append("stem")
    if m.get("multilabel"):
        parts.append("multilabel")
    return " ".join(parts)


def _data(run: Run) -> str:
    name = Path(run.data_path).name if run.data_path else "—"
    short = run.data_hash.split(":")[-1][:8] if run.data_hash else ""
    return f"{name} ({short})" if short else name


def _protocol(run: Run) -> str:
    return str(run.protocol.get("description", run.protocol.get("kind", "—")))


def _protocol_short(run: Run) -> str:
    """``strat 10-fold ×3``, ``holdout 20 %``: a protocol in a narrow column."""
    p = run.protocol
    strat = "strat " if p.get("stratified") else ""
    reps = f" ×{p['repeats']}" if p.get("repeats", 1) and p.get("repeats", 1) > 1 else ""
    if p.get("kind") == "kfold":
        return f"{strat}{p.get('folds')}-fold{reps}"
    if p.get("kind") == "holdout":
        val = f"+val {100 * p['val_size']:.3g} %" if p.get("val_size") else ""
        return f"{strat}holdout {100 * p.get('test_size', 0):.3g} %{val}{reps}"
    return str(p.get("description", p.get("kind", "—")))


def list_blocks(rl: RunList) -> list[Block]:
    if not rl.runs:
        return [TextBlock(f"The run log {rl.db} holds no runs yet.")]
    cols = ["id", "created (UTC)", "command", "model", "protocol", "seed", "data", "label column", *rl.metrics]
    rows = [[str(r.id), r.created[:16].replace("T", " "), r.command, model_summary(r.settings), _protocol_short(r),
             "—" if r.seed is None else str(r.seed), _data(r), r.task or "—", *[r.value(m) for m in rl.metrics]]
            for r in rl.runs]
    return [TextBlock(f"Runs in {rl.db} ({len(rl.runs)})", heading=True),
            TableBlock(None, cols, rows, numeric_from=8, caption="metric columns: mean over folds")]


def show_blocks(r: Run) -> list[Block]:
    blocks: list[Block] = [TextBlock(f"Run {r.id} — {r.command}, {r.created}", heading=True),
                           TextBlock(f"Data: {r.data_path or '—'} ({r.data_hash or 'no hash'}); task: {r.task or '—'}"),
                           TextBlock(f"Protocol: {_protocol(r)} · seed {r.seed}")]
    blocks.append(TableBlock("Settings", ["setting", "value"],
                             [[k, str(v)] for k, v in flatten_settings(r.settings).items()], numeric_from=2))
    blocks.append(TableBlock("Metrics over folds", ["metric", "mean", "std", "min", "max", "n"],
                             [[k, v["mean"], v["std"], v["min"], v["max"], v["n"] if v["n"] is not None else "—"]
                              for k, v in r.metrics.items()]))
    if r.per_fold:
        head = [m for m in ("accuracy", "macro_f1", "micro_f1") if m in r.per_fold[0]]
        blocks.append(TableBlock("Per fold", ["repeat", "fold", *head],
                                 [[f.get("repeat"), f.get("fold"), *[f.get(m, math.nan) for m in head]]
                                  for f in r.per_fold], numeric_from=0))
    if r.predictions:
        blocks.append(TextBlock(f"Out-of-fold predictions: {r.predictions}"))
    if r.versions:
        blocks.append(TextBlock("Versions: " + ", ".join(f"{k} {v}" for k, v in sorted(r.versions.items())),
                                style="dim"))
    return blocks


def best_blocks(b: BestRuns) -> list[Block]:
    direction = "highest" if b.higher_is_better else "lowest"
    cols = ["data", "label column", "runs", "best run", b.metric, "std", "model", "protocol", "seed"]
    rows = [[_data(r), r.task or "—", c, str(r.id), r.value(b.metric), r.metrics.get(b.metric, {}).get("std", math.nan),
             model_summary(r.settings), _protocol_short(r), "—" if r.seed is None else str(r.seed)]
            for r, c in zip(b.best, b.counts, strict=False)]
    return [TextBlock(f"Best run by {b.metric} ({direction} mean over folds) on each data set", heading=True),
            TableBlock(None, cols, rows, numeric_from=2)]


def ablation_blocks(a: Ablation) -> list[Block]:
    base = a.base
    bstd = base.metrics.get(a.metric, {}).get("std", math.nan)
    blocks: list[Block] = [
        TextBlock(f"Ablation by {a.metric} — base run {base.id} ({a.base_reason})", heading=True),
        TextBlock(f"Base: {model_summary(base.settings)}, {_protocol(base)}, seed {base.seed}: {a.metric} "
                  f"{num(base.value(a.metric))} (std {num(bstd)})."),
    ]
    if not a.rows:
        blocks.append(TextBlock("No run on the same data differs from the base in exactly one setting."))
    else:
        cols = ["setting", "base", "changed to", "run", a.metric, "std", "Δ vs base", "verdict"]
        rows = []
        for row in a.rows:
            verdict = "better" if row.better else ("same" if row.delta == 0 else "worse")
            if verdict != "same" and not math.isnan(row.std) \
                    and abs(row.delta) < max(row.std, 0 if math.isnan(bstd) else bstd):
                verdict += " (within spread)"
            rows.append([row.setting, str(row.base_value), str(row.value_setting), str(row.run.id), row.value, row.std,
                         row.delta, verdict])
        blocks.append(TableBlock(None, cols, rows, numeric_from=4,
                                 caption="every one-factor change is listed, worse ones included; a Δ within the "
                                         "fold-to-fold spread is not evidence without a test (clfeval compare)"))
    if a.others:
        blocks.append(TextBlock(f"{a.others} other run(s) on the same data differ from the base in more than one "
                                f"setting and are not shown.", style="dim"))
    return blocks


def check_blocks(c: CheckResult) -> list[Block]:
    blocks: list[Block] = [TextBlock(("PASS: " if c.passed else "FAIL: ") + c.message, heading=True)]
    if c.better:
        blocks.append(TableBlock("Runs on the same data that did better",
                                 ["run", c.metric, "model", "protocol", "seed"],
                                 [[str(r.id), r.value(c.metric), model_summary(r.settings), _protocol(r),
                                   "—" if r.seed is None else str(r.seed)] for r in c.better]))
    return blocks


def _register_blocks(result_type: type, fn: Callable[[Any], list[Block]]) -> None:
    register(result_type, text=lambda x: blocks_to_rich(fn(x)), markdown=lambda x: blocks_to_markdown(fn(x)))


for _cls, _fn in ((RunList, list_blocks), (Run, show_blocks), (BestRuns, best_blocks), (Ablation, ablation_blocks),
                  (CheckResult, check_blocks)):
    _register_blocks(_cls, _fn)
