"""Text and Markdown rendering of comparisons (:class:`~clfeval.ops.compare.Compared`, each kind by its own layout:
two systems and several here, DeLong's test and non-inferiority in :mod:`clfeval.render._decisions`, slices in
:mod:`clfeval.render._slicedresults`) and of the report's ``ci`` part."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clfeval.ops.compare import Compared, Interval, McNemarCounts, TestBound
from clfeval.render import register, register_section
from clfeval.render._util import Block, TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich, num
from clfeval.significance import metric_label

__all__ = ["comparison_blocks", "multi_blocks", "sliced_blocks", "ci_blocks", "bound_label", "estimate_caption",
           "estimate_of", "robustness_blocks",
           "compared_blocks", "register_kind"]

_TEST_NAMES = {"bootstrap": "paired bootstrap", "randomization": "approximate randomization",
               "mcnemar": "McNemar's exact test"}


def _interval(ci: Interval | list[float] | None) -> tuple[str, str]:
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


def bound_label(tb: TestBound) -> str:
    """How the test's own bound is named in every format: "one-sided 95% lower bound (basic bootstrap), matches
    the test"."""
    return f"one-sided {_pct(tb.level)} {tb.side} bound ({tb.method}), matches the test"


def estimate_of(c: Compared, key: str = "delta") -> tuple[str, Interval]:
    """(name, interval) of the two-sided estimate a comparison of two systems shows first (``ci.estimate``: BCa
    by default, the percentile interval where BCa is undefined)."""
    ci = c.ci
    bca = getattr(ci.bca, key) if ci.bca is not None else None
    if ci.estimate == "bca" and bca:
        return "BCa", bca
    out: Interval = getattr(ci, key)
    return "percentile", out


def estimate_caption(c: Compared) -> str:
    """What the two-sided intervals of a comparison are: estimates, and (randomization) a different procedure."""
    head = (f"two-sided bootstrap intervals ({c.samples or 0:,} replicates), estimates: percentile, and BCa "
            f"(bias-corrected and accelerated){' — the default' if c.ci.estimate == 'bca' else ''}")
    if c.ci.test_bound is None:
        head += "; a different procedure from the test, which has no interval of its own"
    else:
        head += "; the verdict follows the test and its one-sided bound above"
    return head


def comparison_blocks(c: Compared) -> list[Block]:
    """The layout of one comparison of two systems: scores with intervals, the test with its own bound, the
    verdict."""
    label = metric_label(c.metric)
    na, nb = c.names
    samples = c.samples or 0
    head = (f"clfeval compare — {label}, {_TEST_NAMES[c.test]}, {samples:,} samples, seed {c.seed}, "
            f"{c.n:,} items")
    blocks: list[Block] = [TextBlock(head, heading=True),
                           TableBlock(None, ["", label], [[_name("A", na), c.a], [_name("B", nb), c.b],
                                                          ["δ = A − B", c.delta]],
                                      caption=None if c.higher_is_better else "lower is better")]
    ci = c.ci
    level = _pct(ci.level)
    rows = []
    for name, value, key in ((_name("A", na), c.a, "a"), (_name("B", nb), c.b, "b"), ("δ = A − B", c.delta, "delta")):
        lo, hi = _interval(getattr(ci, key))
        blo, bhi = _interval(getattr(ci.bca, key) if ci.bca is not None else None)
        rows.append([name, value, lo, hi, blo, bhi])
    estimates = TableBlock("Two-sided intervals (estimates)",
                           ["", label, f"{level} low", f"{level} high", "BCa low", "BCa high"], rows,
                           caption=estimate_caption(c))
    d = c.details
    if isinstance(d, McNemarCounts):
        test_rows = [[f"{na} right, {nb} wrong (n_AB)", str(d.n_ab)],
                     [f"{na} wrong, {nb} right (n_BA)", str(d.n_ba)],
                     ["exact p, one-sided P(X ≥ n_AB)", p_text(c.p_value, None)],
                     ["exact p, two-sided", p_text(d.p_value_two_sided, None)],
                     ["χ² with continuity correction", num(d.chi2)],
                     ["χ² p (two-sided)", p_text(d.chi2_p_value, None)]]
    elif c.test == "bootstrap":
        test_rows = [["threshold 2δ", num(d.threshold)],
                     ["virtual test sets with δ ≥ 2δ", f"{d.count:,} of {samples:,}"],
                     ["p = count / b (one-sided)", p_text(c.p_value, samples)]]
    else:
        test_rows = [["observed δ", num(d.threshold)],
                     ["random swaps with δ ≥ δ(x)", f"{d.count:,} of {samples:,}"],
                     ["p = (1 + count) / (b + 1)", p_text(c.p_value, None)]]
    tb = ci.test_bound
    if tb:
        test_rows.append([f"δ: {bound_label(tb)}", num(tb.value)])
    hyp = "H1: A better than B" + ("" if c.higher_is_better else " (lower is better)")
    blocks.append(TableBlock(f"{_TEST_NAMES[c.test]} — {hyp}, one-sided; α = {c.alpha:g}", ["", "value"], test_rows))
    blocks.append(TextBlock(c.verdict, style="bold"))
    blocks.append(estimates)  # the two-sided intervals, estimates, below the test and its own bound
    if c.robustness is not None:
        blocks.extend(robustness_blocks(c))
    for note in c.notes:
        blocks.append(TextBlock(note, style="dim"))
    sig = c.signature
    blocks.append(TextBlock(f"clfeval {sig['version']} · {sig['p_value_definition']} · {sig['engine']} · "
                            f"zero_division={sig['zero_division']}", style="dim"))
    return blocks


def robustness_blocks(c: Compared) -> list[Block]:
    """Does the verdict survive the likely label errors? The comparison as given, with the flagged items removed
    and relabelled (``compare(..., label_issues=...)``), each with its own verdict, and the sentence."""
    rb = c.robustness
    assert rb is not None
    samples = c.samples if c.test != "mcnemar" else None
    tb = c.ci.test_bound
    rows = [["as given", f"{c.n:,}", c.a, c.b, c.delta, "—" if tb is None else num(tb.value),
             p_text(c.p_value, samples)]]
    for name, v in (("flagged items removed", rb.removed), ("flagged items relabelled", rb.relabelled)):
        rows.append([name, f"{v.n:,}", v.a, v.b, v.delta, "—" if v.bound is None else num(v.bound),
                     p_text(v.p_value, samples)])
    head = (f"Does the verdict survive the likely label errors? {rb.n_matched:,} of the {rb.n_flagged:,} flagged "
            f"items are in these data (matched by id)")
    what = ("the test has no interval of its own" if tb is None else
            f"bound: δ's {bound_label(tb)} (each comparison its own)")
    return [TableBlock(head, ["", "items", "A", "B", "δ = A − B", "bound", "p"], rows,
                       caption=f"the same test, metric, samples and seed; {what}"),
            TextBlock(f"Removed: {rb.removed.verdict}"), TextBlock(f"Relabelled: {rb.relabelled.verdict}"),
            TextBlock(rb.sentence, style="bold")]


def multi_blocks(m: Compared) -> list[Block]:
    """The layout of several systems compared pairwise with Holm-adjusted p-values."""
    label = metric_label(m.metric)
    what = f"each against {m.baseline}" if m.baseline else "every pair"
    samples = m.samples or 0
    blocks: list[Block] = [TextBlock(f"clfeval compare — {len(m.systems)} systems, {what}, {label}, "
                                     f"{_TEST_NAMES[m.test]}, {samples:,} samples, seed {m.seed}", heading=True)]
    first = m.comparisons[0]
    level = _pct(first.ci.level)
    intervals: dict[str, Interval] = {}
    for c in m.comparisons:
        intervals.setdefault(c.names[0], c.ci.a)
        intervals.setdefault(c.names[1], c.ci.b)
    rows = [[name, m.scores[name], *_interval(intervals.get(name))] for name in m.systems]
    blocks.append(TableBlock("Scores", ["system", label, f"{level} low", f"{level} high"], rows,
                             caption=None if m.higher_is_better else "lower is better"))
    prow = []
    b = samples if m.test == "bootstrap" else None
    names = set()
    significant = m.many.significant if m.many is not None else ()
    for c, adj, sig in zip(m.comparisons, m.p_adjusted, significant, strict=True):
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


def sliced_blocks(r: Compared) -> list[Block]:
    """The layout of a comparison by slice: the slices' table (adjusted p-values), Simpson's paradox named, then
    the overall comparison."""
    from clfeval.render._slices import SHOWN, p_text as p4

    o = r.overall
    a, b = o.names
    blocks: list[Block] = [TextBlock(f"Compare by slice: {', '.join(r.by)}", heading=True)]
    if r.simpson:
        blocks.append(TextBlock(r.simpson, style="bold"))
    rows: list[list[Any]] = [
        [s.slice + (" (small)" if s.small else ""), f"{s.n:,}", num(s.a), num(s.b), num(s.delta), p4(s.p),
         p4(s.p_holm) + (" *" if s.significant else ""), p4(s.p_by)] for s in r.slices[:SHOWN]]
    rows.append(["overall", f"{o.n:,}", num(o.a), num(o.b), num(o.delta), p4(o.p_value), "", ""])
    blocks.append(TableBlock(f"{o.metric} per slice ({o.test}, {o.samples or 0:,} samples per slice)",
                             ["slice", "n", a, b, "δ = A − B", "p", "p (Holm)", "p (BY)"], rows,
                             caption=f"One-sided p for '{a} better than {b}' in each slice; Holm-adjusted p < α "
                                     f"marked *.", numeric_from=1))
    for bn in r.binning:
        blocks.append(TextBlock(bn.describe()))
    blocks.append(TextBlock("Overall", heading=True))
    blocks.extend(comparison_blocks(o))
    for note in r.notes:
        blocks.append(TextBlock(note, style="dim"))
    return blocks


#: The text layout of each kind of comparison (kind → blocks); the decision and slice modules add theirs.
_KINDS: dict[str, Callable[[Compared], list[Block]]] = {"pair": comparison_blocks, "many": multi_blocks,
                                                          "sliced": sliced_blocks}


def register_kind(kind: str, blocks: Callable[[Compared], list[Block]]) -> None:
    """Register the text layout of one kind of :class:`~clfeval.ops.compare.Compared`."""
    _KINDS[kind] = blocks


def compared_blocks(c: Compared) -> list[Block]:
    """The layout of a comparison, by its kind."""
    if c.kind not in _KINDS:
        import clfeval.render._decisions  # noqa: F401  (DeLong's test and non-inferiority)
    return _KINDS[c.kind](c)


register(Compared, text=lambda c: blocks_to_rich(compared_blocks(c)),
         markdown=lambda c: blocks_to_markdown(compared_blocks(c)))
register_section("ci", ci_blocks)
