"""Text and Markdown of "is my test set big enough?": McNemar's exact power, the bootstrap standard error, widths."""

from __future__ import annotations

from typing import Any

from clfeval.ops.power import PowerResult
from clfeval.render._util import Block, TableBlock, TextBlock, closing, num, register_blocks
from clfeval.significance import BootstrapPower, IntervalWidth, McNemarPower, metric_label

__all__ = ["mcnemar_power_blocks", "bootstrap_power_blocks", "width_blocks", "power_blocks"]


def _n(x: int | None) -> str:
    return "—" if x is None else f"{x:,}"


def _tail(r: Any, blocks: list[Block], *keys: str) -> list[Block]:
    blocks.append(TextBlock(r.explanation, style="bold"))
    return closing(blocks, [f"{u['field']}: {u['reason']}." for u in r.undefined], r.notes, r.signature, *keys)


def _side(alternative: str) -> str:
    return "one-sided (H1: A better)" if alternative == "greater" else "two-sided"


def mcnemar_power_blocks(r: McNemarPower) -> list[Block]:
    """Exact power of McNemar's test: the detectable δ now, the n needed for a given δ."""
    label = metric_label(r.metric)
    blocks: list[Block] = [TextBlock(f"clfeval power — {label}, exact McNemar test, {r.n:,} paired items",
                                     heading=True)]
    rows = [["items n", _n(r.n)], ["A right, B wrong (n_AB)", _n(r.n_ab)], ["A wrong, B right (n_BA)", _n(r.n_ba)],
            ["discordant share p_d", num(r.discordant)], ["observed δ = (n_AB − n_BA) / n", num(r.observed_delta)],
            ["test", f"exact McNemar, α = {r.alpha:g}, {_side(r.alternative)}"], ["power wanted", f"{r.power:g}"],
            [f"smallest δ detected with power {r.power:g}", num(r.detectable_delta)]]
    if r.delta is not None:
        rows += [[f"power for δ = {r.delta:g} at n = {r.n:,}", num(r.power_at_n)],
                 [f"smallest n with power ≥ {r.power:g} for δ = {r.delta:g}", _n(r.required_n)],
                 [f"power stays ≥ {r.power:g} from n =", _n(r.stays_from)],
                 ["(checked up to n =)", _n(r.checked_up_to)]]
    blocks.append(TableBlock(None, ["", "value"], rows,
                             caption="exact: summed over the binomial distribution of the discordant items and the "
                                     "exact test's rejection region; the discordant share is kept at its observed "
                                     "value"))
    return _tail(r, blocks, "method=")


def bootstrap_power_blocks(r: BootstrapPower) -> list[Block]:
    """Detectable δ and n needed from the paired bootstrap standard error of δ (normal approximation)."""
    label = metric_label(r.metric)
    blocks: list[Block] = [TextBlock(f"clfeval power — {label}, paired bootstrap standard error, {r.n:,} items, "
                                     f"{r.samples:,} samples, seed {r.signature.get('seed')}", heading=True)]
    rows = [["items n", _n(r.n)], ["observed δ = A − B", num(r.delta_observed)], ["bootstrap SE of δ", num(r.se)],
            ["test", f"z-test, α = {r.alpha:g}, {_side(r.alternative)}"], ["power wanted", f"{r.power:g}"],
            [f"smallest δ detected with power {r.power:g}", num(r.detectable_delta)]]
    if r.delta is not None:
        rows.append([f"n needed for δ = {r.delta:g}", _n(r.required_n)])
    blocks.append(TableBlock(None, ["", "value"], rows, caption="δ_min = (z_(1−α) + z_power) · SE; SE ∝ 1/√n"))
    return _tail(r, blocks, "metric=", "zero_division=")


def width_blocks(r: IntervalWidth) -> list[Block]:
    """The width of one metric's interval now, and the n for a target width."""
    label = metric_label(r.metric)
    lv = f"{r.level * 100:g}%"
    blocks: list[Block] = [TextBlock(f"clfeval power — {label} of one system, {lv} bootstrap interval, {r.n:,} items, "
                                     f"{r.samples:,} samples, seed {r.signature.get('seed')}", heading=True)]
    rows = [["items n", _n(r.n)], [label, num(r.value)], [f"{lv} interval", f"{num(r.ci[0])} – {num(r.ci[1])}"],
            ["width", num(r.width)]]
    if r.target_width is not None:
        rows.append([f"n needed for a width of {r.target_width:g}", _n(r.required_n)])
    blocks.append(TableBlock(None, ["", "value"], rows, caption="percentile interval; the width shrinks as 1/√n"))
    return _tail(r, blocks, "metric=", "zero_division=")


def power_blocks(r: PowerResult) -> list[Block]:
    """``clfeval.power``'s result: its one part's blocks."""
    part = r.part
    if isinstance(part, McNemarPower):
        return mcnemar_power_blocks(part)
    return bootstrap_power_blocks(part) if isinstance(part, BootstrapPower) else width_blocks(part)


for _cls, _fn in ((McNemarPower, mcnemar_power_blocks), (BootstrapPower, bootstrap_power_blocks),
                  (IntervalWidth, width_blocks), (PowerResult, power_blocks)):
    register_blocks(_cls, _fn)
