"""The row builders of ``to_frame()``: each result, or table-shaped part of one, as a list of plain records.

Every builder returns ``(records, columns, index)``: the records (dicts), the column order and the name of the
index column (None: a plain range index). :mod:`clfeval.render._frames` turns them into a DataFrame (pandas
imported only there, lazily) and documents every column in ``FRAME_COLUMNS``. Undefined numbers are NaN,
flags that do not apply None.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["BUILDERS", "Table"]

NAN = math.nan
Table = tuple[list[dict[str, Any]], list[str], "str | None"]


def _num(v: Any) -> Any:
    return NAN if v is None else v


def _bound(b: Any) -> tuple[float, float]:
    """(low, high) of an interval given as a pair, or NaN twice."""
    if b is None or len(b) < 2:
        return NAN, NAN
    return _num(b[0]), _num(b[1])


# --- report -----------------------------------------------------------------------------------------------------

REPORT_CLASS = ["tp", "fp", "fn", "tn", "support", "precision", "recall", "specificity", "fpr", "f1", "delta", "phi",
                "npv", "fnr", "prevalence", "markedness", "lr_plus", "lr_minus", "dor"]


def report(r: Any) -> Table:
    per = r.to_dict()["per_class"]
    cols = [c for c in REPORT_CLASS] + [c for c in next(iter(per.values()), {}) if c not in REPORT_CLASS]
    rows = [{"class": str(k), **{c: _num(v.get(c)) for c in cols}} for k, v in per.items()]
    return rows, cols, "class"


SLICE_TIDY = ["n", "share", "small", "metric", "value", "ci_low", "ci_high", "gap_to_overall", "gap_to_rest", "p",
              "p_holm", "p_by", "flagged", "direction"]


def _tidy_slices(rows: Sequence[Any], by: Sequence[str], metrics: Sequence[str]) -> Table:
    """One row per slice × metric (the report's and the threshold's slices share the row shape)."""
    out = []
    for r in rows:
        values = r.metrics or {}
        names = list(metrics) or list(values)
        for m in names:
            test = (r.tests or {}).get(m)
            low, high = _bound((r.ci or {}).get(m))
            out.append({"slice": r.slice, **{c: (r.key or {}).get(c) for c in by}, "n": r.n, "share": r.share,
                        "small": r.small, "metric": m, "value": _num(values.get(m)), "ci_low": low, "ci_high": high,
                        "gap_to_overall": _num((r.gap_to_overall or {}).get(m)),
                        "gap_to_rest": _num((r.gap_to_rest or {}).get(m)),
                        "p": NAN if test is None else _num(test.p),
                        "p_holm": NAN if test is None else _num(test.p_holm),
                        "p_by": NAN if test is None else _num(test.p_by),
                        "flagged": None if test is None else test.flagged,
                        "direction": None if test is None else test.direction})
    return out, ["slice", *by, *SLICE_TIDY], None


def slices_part(s: Any) -> Table:
    return _tidy_slices(s.slices, list(s.by), list(s.metrics or ()))


FOUND = ["status", "slice", "items", "successes", "trials", "value", "rest_value", "gap", "effect_h", "p_value",
         "p_adjusted", "explained_by"]


def found_slices(f: Any) -> Table:
    rows = []
    for status, group in (("found", f.found), ("dropped", f.dropped), ("explained", f.explained)):
        for r in group:
            by = r.explained_by
            rows.append({"status": status, **{k: getattr(r, k) for k in FOUND[1:-1]},
                         "explained_by": [] if by is None else [by] if isinstance(by, str) else list(by)})
    return rows, FOUND, None


# --- compare ----------------------------------------------------------------------------------------------------

PAIR = ["system_a", "system_b", "n", "value_a", "value_b", "delta", "ci_low", "ci_high", "p_value", "p_adjusted",
        "significant", "margin", "bound", "verdict"]


def _pair_row(c: Any, p_adjusted: float = NAN, significant: Any = None, verdict: str | None = None) -> dict[str, Any]:
    kind = c.kind
    a, b = c.names[0], c.names[1]
    row: dict[str, Any] = {"system_a": a, "system_b": b, "margin": NAN, "bound": NAN, "p_adjusted": p_adjusted}
    if kind == "pair":
        low, high = _bound(c.ci.delta)
        tb = c.ci.test_bound
        row.update(n=c.n, value_a=c.a, value_b=c.b, delta=c.delta, ci_low=low, ci_high=high, p_value=c.p_value,
                   bound=NAN if tb is None or tb.value is None else tb.value)
    elif kind == "delong":
        low, high = _bound(c.ci_delta)
        row.update(n=c.n_positive + c.n_negative, value_a=c.auc_a, value_b=c.auc_b, delta=c.delta, ci_low=low,
                   ci_high=high, p_value=c.p_value)
    else:  # noninferiority: a one-sided bound, no interval
        row.update(n=c.n, value_a=c.a, value_b=c.b, delta=c.delta, ci_low=NAN, ci_high=NAN, p_value=c.p_value,
                   margin=c.margin, bound=c.bound)
    row["significant"] = c.rejected if significant is None else bool(significant)
    row["verdict"] = c.verdict if verdict is None else verdict
    return {k: row[k] for k in PAIR}


def _sliced(c: Any) -> Table:
    s = c.sliced
    names = tuple(s.overall.names)
    rows = []
    for r in s.slices:
        low, high = _bound(None if r.ci is None else r.ci.delta)
        rows.append({"slice": r.slice, **{k: r.key.get(k) for k in s.by}, "system_a": names[0], "system_b": names[1],
                     "n": r.n, "value_a": _num(r.a), "value_b": _num(r.b), "delta": _num(r.delta), "ci_low": low,
                     "ci_high": high, "p_value": _num(r.p), "p_adjusted": _num(r.p_holm), "significant": r.significant,
                     "margin": NAN, "bound": NAN, "verdict": None, "small": r.small, "p_by": _num(r.p_by)})
    return rows, ["slice", *s.by, *PAIR, "small", "p_by"], None


def compared(c: Any) -> Table:
    kind = c.kind
    if kind in ("pair", "delong", "noninferiority"):
        return [_pair_row(c)], PAIR, None
    if kind == "many":
        m = c.many
        return ([_pair_row(x, m.p_adjusted[i], m.significant[i], m.verdicts[i]) for i, x in enumerate(m.comparisons)],
                PAIR, None)
    if kind == "sliced":
        return _sliced(c)
    o = c.delong_ovr
    rows = []
    for label in o.labels:
        x = o.per_class.get(label)
        if x is None:
            row: dict[str, Any] = {k: NAN for k in PAIR}
            row.update(system_a=c.names[0], system_b=c.names[1], significant=None, verdict=o.verdicts.get(label))
        else:
            p = o.p_holm.get(label, NAN)
            row = _pair_row(x, p, p < c.alpha if p == p else None, o.verdicts.get(label))
        rows.append({"class": str(label), **row})
    return rows, PAIR, "class"


SYSTEM = ["system", "value", "ci_low", "ci_high"]


def compared_systems(c: Any) -> Table:
    kind = c.kind
    if kind == "sliced":
        return compared_systems(c.sliced.overall)
    if kind == "delong_ovr":
        raise TypeError("a one-vs-rest DeLong comparison has its AUCs per class: to_frame() gives one row per class "
                        "with both systems' values")
    if kind == "many":
        cis: dict[str, tuple[float, float]] = {}
        for x in c.many.comparisons:
            for side, name in zip(("a", "b"), x.names, strict=False):
                cis.setdefault(name, _bound(getattr(x.ci, side)))
        rows = [{"system": s, "value": _num(v), "ci_low": cis.get(s, (NAN, NAN))[0],
                 "ci_high": cis.get(s, (NAN, NAN))[1]} for s, v in c.many.scores.items()]
        return rows, SYSTEM, None
    if kind == "pair":
        values, bounds = (c.a, c.b), (_bound(c.ci.a), _bound(c.ci.b))
    elif kind == "delong":
        values, bounds = (c.auc_a, c.auc_b), (_bound(c.ci_a), _bound(c.ci_b))
    else:
        values, bounds = (c.a, c.b), ((NAN, NAN), (NAN, NAN))
    rows = [{"system": s, "value": v, "ci_low": lo, "ci_high": hi}
            for s, v, (lo, hi) in zip(c.names, values, bounds, strict=True)]
    return rows, SYSTEM, None


# --- threshold --------------------------------------------------------------------------------------------------

CUT = ["threshold", "tp", "fp", "fn", "tn", "precision", "recall", "f1", "fbeta", "fpr", "accuracy", "cost", "source"]


def _cut_rows(cuts: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"cut": name, **{k: _num(getattr(row, k)) if k != "source" else row.source for k in CUT}}
            for name, row in cuts.items() if row is not None]


def _choice_cuts(c: Any) -> dict[str, Any]:
    return {"default": c.default, "dev": c.dev, "test": c.test, "hindsight": c.hindsight}


def threshold(t: Any) -> Table:
    if t.slices is not None:
        return threshold_slices(t.slices)
    if t.labels_cuts is not None:
        return label_cuts(t.labels_cuts)
    return _cut_rows(_choice_cuts(t.choice)), ["cut", *CUT], None


def label_cuts(lc: Any) -> Table:
    rows = []
    for label in lc.labels:
        c = lc.per_label[label]
        rows += [{"label": str(label), **r} for r in _cut_rows(_choice_cuts(c))]
    return rows, ["label", "cut", *CUT], None


SWEEP = ["threshold", "precision", "recall", "fbeta"]


def sweep(s: Any) -> Table:
    rows = [dict(zip(SWEEP, v, strict=True))
            for v in zip(s.threshold, s.precision, s.recall, s.fbeta, strict=True)]
    return rows, SWEEP, None


def threshold_slices(s: Any) -> Table:
    return _tidy_slices(s.rows, list(s.by), list(s.metrics))


# --- calibration, ranking ---------------------------------------------------------------------------------------

BIN = ["lower", "upper", "count", "confidence", "accuracy", "gap"]


def calibration(c: Any) -> Table:
    return [{k: _num(getattr(b, k)) for k in BIN} for b in c.bins], BIN, None


CAL_SLICE = ["n", "small", "ece", "mce", "brier", "log_loss"]


def calibration_slices(s: Any) -> Table:
    rows = [{"slice": r.slice, **{k: r.key.get(k) for k in s.by}, **{k: _num(getattr(r, k)) for k in CAL_SLICE}}
            for r in s.rows]
    return rows, ["slice", *s.by, *CAL_SLICE], None


RANK_BINARY = ["positive", "n", "n_positive", "n_negative", "prevalence", "roc_auc", "average_precision", "pairs",
               "pairs_in_order"]
RANK_CLASS = ["prevalence", "roc_auc", "average_precision", "support"]


def ranking(r: Any) -> Table:
    if r.ovr is not None:
        return one_vs_rest(r.ovr)
    return [{k: _num(getattr(r, k)) for k in RANK_BINARY}], RANK_BINARY, None


def one_vs_rest(o: Any) -> Table:
    rows = [{"class": str(k), **{c: _num(getattr(v, c)) for c in RANK_CLASS}} for k, v in o.per_class.items()]
    return rows, RANK_CLASS, "class"


# --- errors, rank -----------------------------------------------------------------------------------------------

CELL = ["gold", "pred", "kind", "category", "count", "share", "opposite", "tokens", "terms_vs_gold", "terms_vs_pred",
        "examples", "confident"]


def errors(e: Any) -> Table:
    rows = [{"gold": c.gold, "pred": c.pred, "kind": c.kind, "category": c.category, "count": c.count,
             "share": _num(c.share), "opposite": c.opposite, "tokens": c.tokens, "terms_vs_gold": len(c.terms_vs_gold),
             "terms_vs_pred": len(c.terms_vs_pred), "examples": len(c.examples), "confident": len(c.confident)}
            for c in e.cells]
    return rows, CELL, None


TERM = ["gold", "pred", "count", "side", "rank", "term", "z", "delta", "term_count", "other_count"]


def error_terms(e: Any) -> Table:
    rows = []
    for c in e.cells:
        for side, terms in (("vs_gold", c.terms_vs_gold), ("vs_pred", c.terms_vs_pred)):
            for i, t in enumerate(terms, 1):
                rows.append({"gold": c.gold, "pred": c.pred, "count": c.count, "side": side, "rank": i,
                             "term": t.term, "z": t.z, "delta": t.delta, "term_count": t.count,
                             "other_count": t.other})
    return rows, TERM, None


RANKS = ["system", "position", "average_rank", "mean_score", "in_best_group"]


def rank(r: Any) -> Table:
    rows = [{"system": s, "position": i + 1, "average_rank": r.average_ranks[s], "mean_score": _num(r.mean_scores[s]),
             "in_best_group": s in r.best_group} for i, s in enumerate(r.order)]
    return rows, RANKS, None


RANK_PAIR = ["a", "b", "rank_a", "rank_b", "rank_difference", "wilcoxon_statistic", "p_value", "wilcoxon_method",
             "p_holm", "separated", "nemenyi_p", "nemenyi_separated", "mean_difference", "median_difference",
             "hodges_lehmann", "undefined", "wins", "ties", "losses", "p_a_better", "p_equivalent", "p_b_better",
             "bayes_verdict"]


def rank_pairs(r: Any) -> Table:
    bayes = {(x.a, x.b): x for x in r.bayes}
    rows = []
    for p in r.pairs:
        row = {k: getattr(p, k) for k in RANK_PAIR[:19]}
        x = bayes.get((p.a, p.b))
        row.update(p_a_better=NAN if x is None else x.p_a_better, p_equivalent=NAN if x is None else x.p_equivalent,
                   p_b_better=NAN if x is None else x.p_b_better, bayes_verdict=None if x is None else x.verdict)
        rows.append(row)
    return rows, RANK_PAIR, None


POWER = ["kind", "metric", "n", "observed", "detectable_delta", "width", "target", "required_n"]


def power(r: Any) -> Table:
    p, two = r.part, r.kind != "width"
    row = {"kind": r.kind, "metric": p.metric, "n": p.n,
           "observed": _num(getattr(p, "observed_delta", None) if r.kind == "mcnemar" else
                            getattr(p, "delta_observed", None) if two else getattr(p, "value", None)),
           "detectable_delta": _num(getattr(p, "detectable_delta", None)), "width": _num(getattr(p, "width", None)),
           "target": _num(getattr(p, "delta", None) if two else getattr(p, "target_width", None)),
           "required_n": _num(p.required_n)}
    return [row], POWER, None


LABEL_ISSUES = ["rank", "row", "id", "given", "suggested", "self_confidence", "normalized_margin"]


def label_issues(r: Any) -> Table:
    rows = [{"rank": k + 1, **f.to_dict()} for k, f in enumerate(r.flagged)]
    return [{c: (NAN if row[c] is None and c != "id" else row[c]) for c in LABEL_ISSUES} for row in rows], \
        LABEL_ISSUES, None


#: Table name (the type's name, or ``Type.table`` for a result's second table) → its row builder.
BUILDERS: dict[str, Callable[[Any], Table]] = {
    "Report": report, "SlicesPart": slices_part, "FoundSlices": found_slices,
    "Compared": compared, "Compared.systems": compared_systems,
    "ThresholdResult": threshold, "LabelCuts": label_cuts, "Sweep": sweep, "ThresholdSlices": threshold_slices,
    "Calibration": calibration, "CalibrationSlices": calibration_slices,
    "RankingResult": ranking, "OneVsRest": one_vs_rest,
    "ErrorAnalysis": errors, "ErrorAnalysis.terms": error_terms,
    "RankResult": rank, "RankResult.pairs": rank_pairs, "PowerResult": power, "LabelIssues": label_issues,
}
