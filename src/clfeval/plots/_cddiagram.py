"""Figures of a ranking over data sets: the critical-difference diagram and the Bayesian probabilities.

The CD diagram (Demšar 2006, Fig. 1): an axis of average ranks (1, the best,
on the left), each system hanging from its average rank, the better half
labelled on the left and the other half on the right; thick bars join the
systems the Nemenyi test does not separate, and the critical difference is
drawn above the axis as a ruler.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clfeval.errors import UsageError
from clfeval.ops.rank import RankResult
from clfeval.plots import _mpl
from clfeval.plots._data import as_dict, need

__all__ = ["cd_diagram", "bayes_bars"]

_RANKING = "a ranking over data sets (clfeval rank)"


def _ranking(result: RankResult | Mapping[str, object], figure: str) -> RankResult:
    """The ranking a figure draws: the result, or the result of its JSON (``clfeval rank --format json``)."""
    if isinstance(result, RankResult):
        return result
    d = as_dict(result)
    for key in ("average_ranks", "nemenyi"):
        need(d, key, figure, _RANKING)
    try:
        return RankResult.from_dict(d)
    except (KeyError, TypeError, ValueError) as e:
        raise UsageError(f"the {figure} figure needs {_RANKING}; this JSON is not one ({type(e).__name__}: "
                         f"{e}).") from None


def cd_diagram(result: RankResult | Mapping[str, object], *, ax: Any = None) -> Any:
    """The critical-difference diagram of a ranking result (``clfeval rank``), or of its JSON.

    Parameters
    ----------
    result : RankResult or its JSON dict
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    ranking = _ranking(result, "cd")
    avg = ranking.average_ranks
    order = list(ranking.order)
    k = len(order)
    cd = ranking.nemenyi.critical_difference
    groups = ranking.nemenyi.groups
    half = (k + 1) // 2
    rows = max(half, k - half)
    bar_step, row_step = 0.18, 0.32
    lanes = _lanes([(min(float(avg[m]) for m in g), max(float(avg[m]) for m in g)) for g in groups])
    top_bars = 0.25 + bar_step * (max(lanes) + 1 if lanes else 0)
    with _mpl.rc():
        fig, ax = _mpl.figure(min(12.0, 8.0 + 0.06 * k), 1.6 + 0.3 * rows + 0.18 * (max(lanes) + 1 if lanes else 0),
                              ax=ax)
        lo, hi = 1.0, float(k)
        ax.hlines(0.0, lo, hi, color="#222222", linewidth=1.2)
        for t in range(1, k + 1):
            ax.vlines(t, 0.0, 0.08, color="#222222", linewidth=1.0)
            if k <= 20 or t in (1, k) or t % 5 == 0:
                ax.text(t, 0.14, str(t), ha="center", va="bottom", fontsize=8)
        # the critical difference as a ruler above the axis
        ax.hlines(0.55, lo, lo + cd, color="#D55E00", linewidth=2.0, gid="cd")
        ax.vlines([lo, lo + cd], 0.5, 0.6, color="#D55E00", linewidth=1.5)
        ax.text(lo + cd / 2, 0.62, f"CD = {cd:.2f} (α = {ranking.alpha:g})", ha="center", va="bottom",
                fontsize=8, color="#D55E00")
        # the groups the Nemenyi test does not separate
        for g, members in enumerate(groups):
            rs = [float(avg[m]) for m in members]
            y = -0.22 - bar_step * lanes[g]
            ax.hlines(y, min(rs) - 0.03, max(rs) + 0.03, color="#0072B2", linewidth=4.0, gid=f"group-{g}")
        # each system hangs from its average rank
        for i, name in enumerate(order):
            r = float(avg[name])
            left = i < half
            row = i if left else k - 1 - i
            y = -top_bars - row_step * (row + 0.5)
            x_end = lo - 0.35 if left else hi + 0.35
            ax.plot([r, r, x_end], [0.0, y, y], color="#555555", linewidth=0.9)
            t = ax.text(x_end - 0.05 if left else x_end + 0.05, y, "x", ha="right" if left else "left",
                        va="center", fontsize=9)
            _mpl.set_label(fig, t, f"{_mpl.short(name)} ({r:.2f})", _mpl.MAX_LABEL + 10)
        ax.set_xlim(lo - 0.35 - 0.12 * k - 1.6, hi + 0.35 + 0.12 * k + 1.6)
        ax.set_ylim(-top_bars - row_step * (rows + 0.3), 0.9)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.axis("off")
        ax.set_title(f"Average ranks over {len(ranking.datasets)} data sets (1 = best); bars: not separated "
                     f"by Nemenyi", fontsize=9)
    return fig


def _lanes(spans: list[tuple[float, float]], gap: float = 0.15) -> list[int]:
    """A lane (row) for each bar: the first lane whose bars end before this one starts (bars never touch).

    >>> _lanes([(1.0, 2.0), (1.5, 3.0), (2.5, 4.0)])
    [0, 1, 0]
    """
    ends: list[float] = []
    out = []
    for lo, hi in spans:
        for i, end in enumerate(ends):
            if end + gap < lo:
                ends[i] = hi
                out.append(i)
                break
        else:
            ends.append(hi)
            out.append(len(ends) - 1)
    return out


def bayes_bars(result: RankResult | Mapping[str, object], *, ax: Any = None) -> Any:
    """One stacked bar per Bayesian pair: P(A better), P(equivalent), P(B better).

    Parameters
    ----------
    result : RankResult or its JSON dict
        It needs Bayesian pairs.
    ax : matplotlib Axes, optional
        Draw into this Axes of the caller's (a cell of their own subplot grid) and return its Figure; default a
        new figure.

    Returns
    -------
    matplotlib.figure.Figure
    """
    r = _ranking(result, "bayes")
    pairs = r.bayes
    if not pairs:
        raise UsageError("the bayes figure needs Bayesian pairs; this ranking has none.")
    shown = pairs[:20]
    with _mpl.rc():
        fig, ax = _mpl.figure(7.6, 0.9 + 0.38 * len(shown), ax=ax)
        ys = list(range(len(shown)))[::-1]
        colors = (_mpl.COLORS[0], "#BBBBBB", _mpl.COLORS[1])
        parts = []
        for y, p in zip(ys, shown, strict=False):
            left = 0.0
            for c, (key, w) in enumerate((("p_a_better", p.p_a_better), ("p_equivalent", p.p_equivalent),
                                          ("p_b_better", p.p_b_better))):
                parts.append(ax.barh(y, w, left=left, color=colors[c], height=0.62, gid=f"pair-{y}-{key}"))
                if w >= 0.08:
                    ax.text(left + w / 2, y, f"{w:.2f}", ha="center", va="center", fontsize=8,
                            color="white" if c != 1 else "#222222")
                left += w
        _mpl.label_ticks(fig, ax, "y", ys, [f"{_mpl.short(p.a, 20)} vs {_mpl.short(p.b, 20)}" for p in shown], 50)
        ax.set_xlim(0, 1)
        ax.set_xlabel(f"posterior probability (ROPE ±{r.rope:g})")
        _mpl.legend(fig, ax, parts[:3], ["first better", "practically equivalent", "second better"],
                    loc="outside lower center", ncol=3, fontsize=8)
    return fig
