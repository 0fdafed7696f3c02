"""Text and Markdown rendering of comparisons (:class:`~clfeval.significance._paired.Comparison`,
:class:`~clfeval.significance._paired.MultiComparison`; :class:`~clfeval.significance._compared.Compared` as its
part) and of the report's ``ci`` part."""

from __future__ import annotations

from typing import Any

from clfeval.render import register, register_section, render, renderables
from clfeval.render._util import Block, TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich, num
from clfeval.significance import Compared, Comparison, MultiComparison, metric_label

__all__ = ["comparison_blocks", "multi_blocks", "ci_blocks", "bound_label", "estimate_caption", "estimate_of"]

_TEST_NAMES = {"bootstrap": "paired bootstrap", "randomization": "approximate randomization",
               "mcnemar": "McNemar's exact test"}


def _interval(ci: list[float] | None) -> tuple[str, str]:
    if not ci:
        return "—", "—"
    return num(ci[0]), num(ci[1])


def _pct(level: float) -> str:
    return f"{level * 100:g}%"


def p_text(p: float, samples: float | None) -> str:
    """A p-value in a table cell: 4 decimals, or '< 1/b' for a resampled p of 0."""
    if p == 0 and samples:
        return f"< {1 / samples:.2g}"
    return num(p) if p >= 0.0001 or p == 0 else f"{p:.2g}"


def _name(role: str, name: str) -> str:
    return role if name == role else f"{role}: {name}"


def bound_label(tb: dict[str, Any]) -> str:
    """How the test's own bound is named in every format: "one-sided 95% lower bound (basic bootstrap), matches
    the test"."""
    return f"one-sided {_pct(tb['level'])} {tb['side']} bound ({tb['method']}), matches the test"


def estimate_of(c: Comparison, key: str = "delta") -> tuple[str, list[float] | None]:
    """(name, interval) of the two-sided estimate a comparison shows first (``ci["estimate"]``: BCa by default,
    the percentile interval where BCa is undefined)."""
    bca = (c.ci.get("bca") or {}).get(key)
    if c.ci.get("estimate", "bca") == "bca" and bca:
        return "BCa", bca
    return "percentile", c.ci[key]


def estimate_caption(c: Comparison) -> str:
    """What the two-sided intervals of a comparison are: estimates, and (randomization) a different procedure."""
    head = (f"two-sided bootstrap intervals ({c.samples:,} replicates), estimates: percentile, and BCa "
            f"(bias-corrected and accelerated){' — the default' if c.ci.get('estimate', 'bca') == 'bca' else ''}")
    if c.ci.get("test_bound") is None:
        head += "; a different procedure from the test, which has no interval of its own"
    else:
        head += "; the verdict follows the test and its one-sided bound above"
    return head


def comparison_blocks(c: Comparison) -> list[Block]:
    """The layout of one comparison: scores with intervals, the test with its own bound, the verdict."""
    label = metric_label(c.metric)
    na, nb = c.names
    head = (f"clfeval compare — {label}, {_TEST_NAMES[c.test]}, {c.samples:,} samples, seed {c.seed}, "
            f"{c.n:,} items")
    blocks: list[Block] = [TextBlock(head, heading=True),
                           TableBlock(None, ["", label], [[_name("A", na), c.a], [_name("B", nb), c.b],
                                                          ["δ = A − B", c.delta]],
                                      caption=None if c.higher_is_better else "lower is better")]
    level = _pct(c.ci["level"])
    bca = c.ci.get("bca") or {}
    rows = []
    for name, value, key in ((_name("A", na), c.a, "a"), (_name("B", nb), c.b, "b"), ("δ = A − B", c.delta, "delta")):
        lo, hi = _interval(c.ci[key])
        blo, bhi = _interval(bca.get(key))
        rows.append([name, value, lo, hi, blo, bhi])
    estimates = TableBlock("Two-sided intervals (estimates)",
                           ["", label, f"{level} low", f"{level} high", "BCa low", "BCa high"], rows,
                           caption=estimate_caption(c))
    d = c.details
    if c.test == "bootstrap":
        test_rows = [["threshold 2δ", num(d["threshold"])],
                     ["virtual test sets with δ ≥ 2δ", f"{d['count']:,} of {c.samples:,}"],
                     ["p = count / b (one-sided)", p_text(c.p_value, c.samples)]]
    elif c.test == "randomization":
        test_rows = [["observed δ", num(d["threshold"])],
                     ["random swaps with δ ≥ δ(x)", f"{d['count']:,} of {c.samples:,}"],
                     ["p = (1 + count) / (b + 1)", p_text(c.p_value, None)]]
    else:
        test_rows = [[f"{na} right, {nb} wrong (n_AB)", str(d["n_ab"])],
                     [f"{na} wrong, {nb} right (n_BA)", str(d["n_ba"])],
                     ["exact p, one-sided P(X ≥ n_AB)", p_text(c.p_value, None)],
                     ["exact p, two-sided", p_text(d["p_value_two_sided"], None)],
                     ["χ² with continuity correction", num(d["chi2"])],
                     ["χ² p (two-sided)", p_text(d["chi2_p_value"], None)]]
    tb = c.ci.get("test_bound")
    if tb:
        test_rows.append([f"δ: {bound_label(tb)}", num(tb["value"])])
    hyp = "H1: A better than B" + ("" if c.higher_is_better else " (lower is better)")
    blocks.append(TableBlock(f"{_TEST_NAMES[c.test]} — {hyp}, one-sided; α = {c.alpha:g}", ["", "value"], test_rows))
    blocks.append(TextBlock(c.verdict, style="bold"))
    blocks.append(estimates)  # the two-sided intervals, estimates, below the test and its own bound
    for note in c.notes:
        blocks.append(TextBlock(note, style="dim"))
    sig = c.signature
    blocks.append(TextBlock(f"clfeval {sig['version']} · {sig['p_value_definition']} · {sig['engine']} · "
                            f"zero_division={sig['zero_division']}", style="dim"))
    return blocks


def multi_blocks(m: MultiComparison) -> list[Block]:
    """The layout of several systems compared pairwise with Holm-adjusted p-values."""
    label = metric_label(m.metric)
    what = f"each against {m.baseline}" if m.baseline else "every pair"
    blocks: list[Block] = [TextBlock(f"clfeval compare — {len(m.systems)} systems, {what}, {label}, "
                                     f"{_TEST_NAMES[m.test]}, {m.samples:,} samples, seed {m.seed}", heading=True)]
    first = m.comparisons[0]
    level = _pct(first.ci["level"])
    intervals: dict[str, list[float]] = {}
    for c in m.comparisons:
        intervals.setdefault(c.names[0], c.ci["a"])
        intervals.setdefault(c.names[1], c.ci["b"])
    rows = [[name, m.scores[name], *_interval(intervals.get(name))] for name in m.systems]
    blocks.append(TableBlock("Scores", ["system", label, f"{level} low", f"{level} high"], rows,
                             caption=None if m.higher_is_better else "lower is better"))
    prow = []
    b = m.samples if m.test == "bootstrap" else None
    names = set()
    for c, adj, sig in zip(m.comparisons, m.p_adjusted, m.significant, strict=True):
        name, interval = estimate_of(c)
        names.add(name)
        lo, hi = _interval(interval)
        prow.append([c.names[0], c.names[1], c.delta, lo, hi, p_text(c.p_value, b),
                     p_text(adj, b and b / len(m.comparisons)), "yes" if sig else "no"])
    how = " / ".join(sorted(names))
    blocks.append(TableBlock(f"Pairs (A better than B?, one-sided), Holm-adjusted, α = {m.alpha:g}",
                             ["A", "B", "δ = A − B", f"δ {level} low", f"δ {level} high", "p", "p (Holm)",
                              "significant"], prow, numeric_from=2, key=2,
                             caption=f"δ's two-sided {level} interval: bootstrap {how}, an estimate; the verdicts "
                                     f"follow the Holm-adjusted tests"))
    for verdict in m.verdicts:
        blocks.append(TextBlock(verdict))
    for note in m.notes:
        blocks.append(TextBlock(note, style="dim"))
    signature = m.signature
    blocks.append(TextBlock(f"clfeval {signature['version']} · {signature['p_value_definition']} · "
                            f"{signature['engine']}", style="dim"))
    return blocks


_CI_ROWS = [(("accuracy",), "accuracy"), (("subset_accuracy",), None), (("error_rate",), "error rate"),
            (("balanced_accuracy",), "balanced accuracy"), (("mcc",), "Matthews correlation"),
            (("kappa",), "Cohen's kappa"), (("hamming_loss",), "Hamming loss"), (("jaccard",), "Jaccard"),
            (("macro", "precision"), "macro precision"), (("macro", "recall"), "macro recall"),
            (("macro", "f1"), "macro-F1 (mean of per-class F1)"),
            (("macro", "f1_of_means"), "macro-F1 (F1 of macro-P, macro-R)"),
            (("macro", "fbeta"), "macro F-beta"), (("micro", "precision"), "micro precision"),
            (("micro", "recall"), "micro recall"), (("micro", "f1"), "micro-F1"), (("micro", "fbeta"), "micro F-beta"),
            (("weighted", "precision"), "weighted precision"), (("weighted", "recall"), "weighted recall"),
            (("weighted", "f1"), "weighted F1"), (("weighted", "fbeta"), "weighted F-beta"),
            (("ordinal", "mae"), "MAE over class ranks"), (("ordinal", "linear_kappa"), "linear-weighted kappa"),
            (("ordinal", "quadratic_kappa"), "quadratic-weighted kappa")]


def _get(d: dict[str, Any], path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


_METHOD_SHORT = {"percentile": "percentile", "bca": "BCa", "wilson": "Wilson"}
_BINARY_CI = (("accuracy", "accuracy"), ("error_rate", "error rate"), ("precision", "precision"),
              ("recall", "recall (sensitivity)"), ("specificity", "specificity"), ("fpr", "false-positive rate"),
              ("f1", "F1"), ("balanced_accuracy", "balanced accuracy"), ("mcc", "Matthews correlation"))


def _bracket(ci: list[float] | None) -> str:
    lo, hi = _interval(ci)
    return "—" if lo == "—" else f"[{lo}, {hi}]"


def ci_blocks(ci: dict[str, Any]) -> list[Block]:
    """The report's ``ci`` section: one table of value and [low, high] side by side, the method of each named."""
    level = _pct(ci["level"])
    values = ci.get("values") or {}
    methods = ci.get("methods") or {}

    def method(path: tuple[str, ...]) -> str:
        return _METHOD_SHORT.get(methods.get(".".join(path), "percentile"), "percentile")

    def value(path: tuple[str, ...]) -> Any:
        v = values.get(".".join(path))
        return "" if v is None else v

    rows = []
    for path, name in _CI_ROWS:
        interval = _get(ci, path)
        if interval is not None and name is not None:
            rows.append([name, value(path), _bracket(interval), method(path)])
    blocks: list[Block] = [TextBlock(f"{level} confidence intervals ({ci['samples']:,} bootstrap samples, seed "
                                     f"{ci['seed']})", heading=True),
                           TableBlock(None, ["measure", "value", f"{level} interval", "method"], rows,
                                      caption=ci.get("resampling"))]
    b = ci.get("binary")
    if b:
        brow = [[name, value(("binary", key)), _bracket(b[key]), method(("binary", key))]
                for key, name in _BINARY_CI if key in b]
        blocks.append(TableBlock(f"Positive class, {level} intervals", ["measure", "value", f"{level} interval",
                                                                         "method"], brow))
    per = ci.get("per_class") or {}
    if per:
        prow = []
        used = set()
        for lab, d in per.items():
            row: list[Any] = [lab]
            for m in ("precision", "recall", "f1"):
                v = value(("per_class", lab, m))
                row.append(f"{num(v) if v != '' else '—'} {_bracket(d.get(m))}")
                used.add((m, method(("per_class", lab, m))))
            prow.append(row)
        how = "; ".join(f"{'F1' if m == 'f1' else m}: {meth}" for m, meth in sorted(used))
        blocks.append(TableBlock(f"Per class, {level} intervals", ["class", "precision", "recall", "F1"], prow,
                                 caption=f"value [{level} interval]; methods: {how}"))
    if ci.get("method") and ci.get("methods"):
        blocks.append(TextBlock(f"Methods: {ci['method'].removeprefix('per metric (see methods): ')}.", style="dim"))
    if ci.get("note"):
        blocks.append(TextBlock(ci["note"], style="dim"))
    return blocks


register(Comparison, text=lambda c: blocks_to_rich(comparison_blocks(c)),
         markdown=lambda c: blocks_to_markdown(comparison_blocks(c)))
register(MultiComparison, text=lambda m: blocks_to_rich(multi_blocks(m)),
         markdown=lambda m: blocks_to_markdown(multi_blocks(m)))
register(Compared, text=lambda c: renderables(c.result), markdown=lambda c: render(c.result, "markdown"))
register_section("ci", ci_blocks)
