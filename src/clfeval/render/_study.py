"""Text and Markdown rendering of :class:`clfeval.studies._reuters.ReutersStudy` (``clfeval reuters``).

Each part is a table (or two) with the published numbers beside ours where
mission §9 publishes any: the per-category table and its averages, the split
sizes, the vocabulary, the 8-class subset sizes, the range of tuned cuts.
"""

from __future__ import annotations

import math
from typing import Any

from clfeval.render import register
from clfeval.render._util import Block, TableBlock, TextBlock, blocks_to_markdown, blocks_to_rich, num
from clfeval.studies import PART_TITLES, PARTS, ReutersStudy
from clfeval.text import ExportedDataset, FetchedDataset

__all__ = ["study_blocks"]


def _signed(x: Any, digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if isinstance(x, int):
        return f"{x:+d}"
    return f"{x:+.{digits}f}"


def _n(x: int) -> str:
    return f"{x:,}"


def _heading(s: ReutersStudy, part: str) -> TextBlock:
    return TextBlock(f"{PARTS.index(part) + 1}. {PART_TITLES[part]}", heading=True)


def _intro(s: ReutersStudy) -> list[Block]:
    sp = s.split
    pub = sp["published"]
    tok = s.tokenization
    blocks: list[Block] = [
        TextBlock(f"clfeval reuters — Reuters-21578, ModApte split: the reference Naive Bayes study re-run with "
                  f"clfeval's own parts (seed {s.signature.get('seed')})", heading=True),
        TextBlock(f"Data: {_n(sp['train'])} training and {_n(sp['test'])} test stories with at least one of the "
                  f"{sp['categories']} ModApte categories (published: {_n(pub['train'])} / {_n(pub['test'])}). "
                  f"Split: {sp['why']}."),
        TextBlock(f"Text and terms of the ten binary classifiers: {tok['text']}; {tok['tokens']}; {tok['stemmer']}; "
                  f"stop words: {tok['stop_words']}; {tok['vocabulary']}: {_n(s.vocabulary_size)} terms (published ≈ "
                  "18,135)."),
    ]
    model = s.signature.get("model") or {}
    if model.get("description"):
        blocks.append(TextBlock(f"Model: {model['description']}. Rule: a story is positive for a category iff its "
                                f"log-odds log P(c|d) − log P(c̄|d) ≥ the threshold (0 unless part 4 says otherwise)."))
    return blocks


def _binary(s: ReutersStudy) -> list[Block]:
    b, pub = s.binary, s.published
    assert b is not None and pub is not None
    rows = []
    for cat, r in b["per_class"].items():
        p = pub["per_class"].get(cat)
        d = pub["differences"]["per_class"].get(cat, {})
        rows.append([cat, r["support"], r["tp"], r["fp"], r["fn"], r["precision"], r["recall"], r["f1"], r["accuracy"],
                     f"{p['tp']}/{p['fp']}/{p['fn']}" if p else "—", p["f1"] if p else None,
                     p["accuracy"] if p else None, _signed(d.get("f1"))])
    cols = ["category", "test pos.", "TP", "FP", "FN", "P", "R", "F1", "accuracy", "published TP/FP/FN",
            "published F1", "published acc.", "ΔF1"]
    out: list[Block] = [TableBlock(f"Per category, {_n(b['n_test'])} test stories (ours beside the published table)",
                                   cols, rows, caption="ΔF1 = ours − published; published P, R, F1 and accuracy "
                                                       "recomputed from its TP/FP/FN.")]
    arow = []
    for how, keys in (("micro", ("precision", "recall", "f1")),
                      ("macro", ("precision", "recall", "f1", "f1_of_means"))):
        for k in keys:
            name = {"precision": f"{how}-P", "recall": f"{how}-R",
                    "f1": f"{how}-F1"}.get(k, "F1 of macro-P and macro-R")
            if how == "macro" and k == "f1":
                name = "macro-F1 (mean of per-category F1)"
            arow.append([name, b[how][k], pub[how][k], pub["stated"][how][k], _signed(b[how][k] - pub[how][k])])
    out.append(TableBlock("Averages over the ten categories", ["average", "ours", "published", "stated", "Δ"],
                          arow, caption="micro = pooled TP, FP, FN; macro = plain mean over categories."))
    same = pub.get("at_published_positives") or {}
    if same:
        worst = max(abs(r["tp"] - pub["per_class"][c]["tp"]) for c, r in same.items())
        srows = [[c, r["predicted"], r["threshold"], f"{r['tp']}/{r['fp']}/{r['fn']}",
                  f"{pub['per_class'][c]['tp']}/{pub['per_class'][c]['fp']}/{pub['per_class'][c]['fn']}",
                  _signed(r["tp"] - pub["per_class"][c]["tp"])] for c, r in same.items()]
        out.append(TableBlock("Ours at the cut that predicts as many stories positive as the published classifier",
                              ["category", "predicted", "log-odds cut", "TP/FP/FN", "published TP/FP/FN", "ΔTP"], srows,
                              caption=f"At the same number of predicted positives TP differs from the published "
                                      f"by at most {worst}: the rankings "
                                      f"nearly agree, and most of the differences at log-odds 0 come from where the "
                                      f"cut falls on the score scale."))
    rng = b["ranges"]
    pr = {m: (min(r[m] for r in pub["per_class"].values()), max(r[m] for r in pub["per_class"].values()))
          for m in ("accuracy", "f1")}
    d = pub["differences"]
    out.append(TextBlock(
        f"The accuracy trap: accuracy ranges only {num(rng['accuracy']['min'], 3)}–{num(rng['accuracy']['max'], 3)} "
        f"while F1 ranges {num(rng['f1']['min'], 3)}–{num(rng['f1']['max'], 3)} (published "
        f"{num(pr['accuracy'][0], 3)}–{num(pr['accuracy'][1], 3)} and {num(pr['f1'][0], 3)}–{num(pr['f1'][1], 3)}). "
        f"Largest per-category |ΔF1| {num(d['max_abs_f1'], 4)}; TP/FP/FN differ by {d['sum_abs_counts']} in all; "
        f"vocabulary {_signed(d['vocabulary_size'])} terms."))
    return out


def _gap(s: ReutersStudy) -> list[Block]:
    g = s.train_vs_test
    assert g is not None
    rows = [[name, g["train"][k], g["test"][k], _signed(g["gap"][k])]
            for name, k in (("micro-F1", "micro_f1"), ("macro-F1", "macro_f1"), ("micro-P", "micro_precision"),
                            ("micro-R", "micro_recall"))]
    out: list[Block] = [TableBlock(f"{_n(g['n_train'])} training stories vs {_n(g['n_test'])} test stories",
                                   ["measure", "train", "test", "gap"], rows)]
    prow = [[c, r["train_support"], r["train_f1"], r["test_f1"], _signed(r["gap"])] for c, r in g["per_class"].items()]
    out.append(TableBlock("Per category", ["category", "train pos.", "train F1", "test F1", "gap"], prow,
                          caption="gap = train − test: the optimism of scoring a model on the stories it was "
                                  "trained on."))
    return out


def _cv(s: ReutersStudy) -> list[Block]:
    cv = s.cross_validation
    assert cv is not None
    test = s.binary or {}
    rows = []
    for name, key, tkey in (("micro-F1", "micro_f1", ("micro", "f1")), ("macro-F1", "macro_f1", ("macro", "f1")),
                            ("F1 of macro-P and macro-R", "macro_f1_of_means", ("macro", "f1_of_means"))):
        sp = cv[key]
        rows.append([name, sp["mean"], sp["std"], sp["min"], sp["max"],
                     test[tkey[0]][tkey[1]] if test else None])
    out: list[Block] = [TableBlock(f"{cv['folds']} folds of the {_n(cv['n'])} training stories (seed {cv['seed']})",
                                   ["measure", "mean", "std", "min", "max", "test split"], rows,
                                   caption=cv["how"] + "; test split = part 1.")]
    frows = [[f["fold"], f["n_train"], f["n_test"], f["micro_f1"], f["macro_f1"]] for f in cv["per_fold"]]
    out.append(TableBlock("Per fold", ["fold", "train", "test", "micro-F1", "macro-F1"], frows, numeric_from=0))
    crow = [[c, sp["mean"], sp["std"], sp["min"], sp["max"],
             test["per_class"][c]["f1"] if test else None] for c, sp in cv["per_class_f1"].items()]
    out.append(TableBlock("F1 per category over the folds", ["category", "mean", "std", "min", "max", "test split"],
                          crow))
    return out


def _thresholds(s: ReutersStudy) -> list[Block]:
    th, tu = s.thresholds, s.threshold_tuning
    assert th is not None and tu is not None
    rows = [[c, r["default_f1"], r["threshold"], r["dev_f1"], r["tuned_f1"], _signed(r["tuned_f1"] - r["default_f1"]),
             r["hindsight_threshold"], r["hindsight_f1"]] for c, r in th.items()]
    cuts = [r["threshold"] for r in th.values() if r["threshold"] is not None]
    span = f"{num(min(cuts), 1)} to {num(max(cuts), 1)}" if cuts else "none"
    return [TableBlock(f"Cut with the best F1 on a development split ({_n(tu['dev'])} of the training stories; the "
                       f"other {_n(tu['train'])} train the models that choose it), applied to the classifiers "
                       f"trained on all training stories",
                       ["category", "F1 at 0", "chosen cut", "dev F1", "tuned test F1", "gain", "hindsight cut",
                        "hindsight F1"], rows,
                       caption=f"Cuts are log-odds. Chosen cuts here: {span}; published: tuned cuts on Reuters are "
                               f"log-odds of 7 to 28. Hindsight = the best cut on the test stories "
                               f"themselves: optimistic, an upper bound, shown only to measure what the "
                               f"development split found.")]


def _ap(s: ReutersStudy) -> list[Block]:
    rk = s.ranking
    assert rk is not None
    f1 = {c: r["f1"] for c, r in (s.binary or {}).get("per_class", {}).items()}
    rows = [[c, r["average_precision"], r["roc_auc"], r["prevalence"], f1.get(c)] for c, r in rk["per_class"].items()]
    rows.append(["macro", rk["macro"]["average_precision"], rk["macro"]["roc_auc"], None, None])
    return [TableBlock("Each category's ranking of the test stories by NB log-odds",
                       ["category", "average precision", "ROC-AUC", "random AP (prevalence)", "F1 at log-odds 0"],
                       rows, caption="Average precision = PR-AUC, non-interpolated: what a user reading down the "
                                     "ranking sees. ROC-AUC is close to 1 everywhere: under this imbalance the many "
                                     "easy negatives flatter it.")]


def _keyword(s: ReutersStudy) -> list[Block]:
    k = s.keyword_rule
    assert k is not None
    rows = []
    for name, r in (("keyword rule", k["grain"]), ("NB, log-odds 0", k["nb"]["grain"])):
        rows.append([name, r["tp"], r["fp"], r["fn"], r["precision"], r["recall"], r["f1"], r["accuracy"]])
    if s.thresholds is not None and "grain" in s.thresholds:
        t = s.thresholds["grain"]
        tr = t["tuned"] or {}
        if tr:
            rows.append([f"NB, tuned cut {num(t['threshold'], 2)} (part 4)", tr["tp"], tr["fp"], tr["fn"],
                         tr["precision"], tr["recall"], tr["f1"], None])
    return [TableBlock(f"grain on the {_n(k['n_test'])} test stories", ["system", "TP", "FP", "FN", "P", "R", "F1",
                                                                        "accuracy"], rows,
                       caption="Rule: " + k["rule"] + ".")]


def _multiclass(s: ReutersStudy) -> list[Block]:
    m = s.multiclass
    assert m is not None
    labels = m["labels"]
    sp = m["split"]
    pair = m["most_confused_pair"] or {}
    out: list[Block] = [TextBlock(
        f"{_n(sp['train'])} training and {_n(sp['test'])} test stories (published: {_n(sp['published']['train'])} / "
        f"{_n(sp['published']['test'])}); {len(labels)} classes ({', '.join(m['dropped'])} never occur alone and drop "
        f"out). Accuracy {num(m['accuracy'])} against {num(m['majority_accuracy'])} for the majority class "
        f"({m['majority_class']}, the most frequent training label); macro-F1 {num(m['macro_f1'])} (F1 of macro-P "
        f"and macro-R {num(m['macro_f1_of_means'])}). Hardest class: {m['hardest_class']}. Most confused pair: "
        + (f"{pair['classes'][0]} / {pair['classes'][1]}, {pair['errors']} errors ({pair['a_as_b']} "
           f"{pair['classes'][0]} predicted as {pair['classes'][1]}, {pair['b_as_a']} the other way)."
           if pair else "none."))]
    pub = m.get("published")
    if pub:
        prow = [[r["figure"], f"{r['published']:.3f}" if isinstance(r["published"], float) else r["published"],
                 r["ours"] if r["ours"] is not None else "—",
                 r.get("of", "")] for r in pub["rows"]]
        out.append(TableBlock("Published figures beside ours", ["figure", "published", "ours", "gold stories"], prow,
                              caption=f"Published: {pub['source']}."))
    cm = m["confusion_matrix"]
    rows = [[labels[i], *cm[i], sum(cm[i])] for i in range(len(labels))]
    rows.append(["(predicted total)", *[sum(r[j] for r in cm) for j in range(len(labels))], sum(map(sum, cm))])
    out.append(TableBlock("Confusion matrix (rows = gold, columns = predicted)", ["gold \\ pred", *labels, "total"],
                          rows))
    prow = [[c, r["support"], r["tp"], r["fp"], r["fn"], r["precision"], r["recall"], r["f1"]]
            for c, r in m["per_class"].items()]
    out.append(TableBlock("Per class", ["class", "support", "TP", "FP", "FN", "P", "R", "F1"], prow))
    return out + _errors_share(m.get("errors"))


def _errors_share(e: dict[str, Any] | None, top: int = 3) -> list[Block]:
    """The three largest confused cells of the test stories and the terms their mistakes share (`clfeval errors`)."""
    if not e or not e["cells"]:
        return []

    def terms(ts: list[dict[str, Any]]) -> str:
        return ", ".join(f"{t['term']} ({t['z']:.1f})" for t in ts[:6]) or "—"

    rows = [[f"{c['gold']} → {c['pred']}", c["count"], c["opposite"], terms(c["terms_vs_gold"]),
             terms(c["terms_vs_pred"])] for c in e["cells"][:top]]
    p = e["prior"]
    return [TableBlock("What the errors share (the largest confused cells)",
                       ["gold → predicted", "stories", "opposite", "vs correct gold (z)", "vs correct predicted (z)"],
                       rows, caption=f"Terms over-represented in the misclassified stories: weighted log-odds with "
                                     f"an informative Dirichlet prior (α0 = {p['alpha0']:g}; {p['reference']}), "
                                     f"z ≥ {e['settings']['z_min']:g} uncorrected; the part's processing "
                                     f"({e['settings'].get('processing')}). All cells, examples: `clfeval errors`.")]


def _significance(s: ReutersStudy) -> list[Block]:
    g = s.significance
    assert g is not None

    def p(c: dict[str, Any]) -> str:
        if c["test"] == "bootstrap" and c["p_value"] == 0:
            return f"< {1 / c['samples']:.2g}"
        return num(c["p_value"]) if c["p_value"] >= 1e-4 else f"{c['p_value']:.2g}"

    rows = []
    for key, test in (("bootstrap", "paired bootstrap, "), ("mcnemar", "McNemar (exact), ")):
        c, r = g[key], g["reverse"][key]
        what = f"{c['samples']:,} samples" if key == "bootstrap" else "discordant stories"
        metric = "F1 of grain" if c["metric"].startswith("f1") else "accuracy"
        rows.append([test + what, metric, c["a"], c["b"], _signed(c["delta"]), p(c), p(r)])
    out: list[Block] = [TableBlock("NB (log-odds 0) against the keyword rule, grain or not grain, same test stories",
                                   ["test", "metric", "NB", "keyword rule", "δ = NB − rule", "p: NB better",
                                    "p: rule better"], rows,
                                   caption="One-sided p-values; bootstrap p = #{δ(x⁽ⁱ⁾) ≥ 2δ} / b; McNemar p = "
                                           "P(X ≥ n_AB), X ~ Bin(n_AB + n_BA, ½).")]
    mc = g["mcnemar"]["mcnemar"]
    out.append(TextBlock(f"Discordant stories: NB right and the rule wrong {mc['n_ab']}, the rule right and NB wrong "
                         f"{mc['n_ba']}. {g['answer']}"))
    return out


def _terms(s: ReutersStudy) -> list[Block]:
    t = s.terms
    assert t is not None
    cat = t["category"]
    cols = ["term", "δ", "bias φ (Armano)", f"stories of {cat}", "other stories"]

    def rows(key: str) -> list[list[Any]]:
        return [[r["term"], r["delta"], r["phi"], r["in_category"], r["elsewhere"]] for r in t[key]]

    out: list[Block] = [TextBlock(
        f"Every one of the {_n(t['vocabulary_size'])} terms of the {_n(t['documents'])} training stories as the "
        f"classifier 'the term occurs' for {cat} ({_n(t['positives'])} stories): δ = TPR − FPR, φ = TPR + FPR − 1. "
        f"Terms: {t['tokens']}.")]
    out.append(TableBlock("Most discriminative (top corner, δ → +1)", cols, rows("most_discriminative")))
    out.append(TableBlock("Stop-word corner (right corner, φ → +1)", cols, rows("stop_word_corner")))
    out.append(TableBlock("Bottom corner (δ lowest: occur elsewhere)", cols, rows("most_negative")))
    sel = [[w, r["delta"], r["phi"], r["in_category"], r["elsewhere"]] for w, r in t["selected"].items()]
    if sel:
        out.append(TableBlock("Selected terms", cols, sel))
    return out


_PART_BLOCKS = {"binary": _binary, "train_vs_test": _gap, "cross_validation": _cv, "thresholds": _thresholds,
                "average_precision": _ap, "keyword_rule": _keyword, "multiclass": _multiclass,
                "significance": _significance, "terms": _terms}


def study_blocks(s: ReutersStudy) -> list[Block]:
    """The layout of the study: the data and tokenization, then each part run."""
    blocks = _intro(s)
    for part in s.parts:
        blocks.append(_heading(s, part))
        proc = s.processing.get(part)
        if proc:
            named = f" (preset {proc['preset']})" if proc.get("preset") else ""
            blocks.append(TextBlock(f"Text processing{named}: {proc['line']}. Spec: {proc['spec']}.", style="dim"))
        blocks.extend(_PART_BLOCKS[part](s))
    for note in s.notes:
        blocks.append(TextBlock(note, style="dim"))
    sig = s.signature
    v = sig.get("versions", {})
    tail = [f"clfeval {sig.get('version')}", f"seed {sig.get('seed')}"]
    if "scikit-learn" in v:
        tail.append(f"scikit-learn {v['scikit-learn']}")
    if "PyStemmer" in v:
        tail.append(f"PyStemmer {v['PyStemmer']}")
    total = sig.get("timings", {}).get("total")
    if total is not None:
        tail.append(f"{total:.1f} s")
    if s.run_id is not None:
        tail.append(f"run {s.run_id}")
    blocks.append(TextBlock(" · ".join(tail), style="dim"))
    return blocks


register(ReutersStudy, text=lambda s: blocks_to_rich(study_blocks(s)),
         markdown=lambda s: blocks_to_markdown(study_blocks(s)))


def fetched_blocks(f: FetchedDataset) -> list[Block]:
    """``clfeval datasets fetch``: where the archive is and what it passed."""
    if not f.downloaded:
        return [TextBlock(f"{f.dataset}: {f.path} (already there; not downloaded again)"),
                TextBlock(f"checked: {'; '.join(f.checks)}.")]
    return [TextBlock(f"{f.dataset}: {f.path}"),
            TextBlock(f"downloaded from {f.url}; checked: {'; '.join(f.checks)}.")]


register(FetchedDataset, text=lambda f: blocks_to_rich(fetched_blocks(f)),
         markdown=lambda f: blocks_to_markdown(fetched_blocks(f)))


def exported_blocks(e: ExportedDataset) -> list[Block]:
    """``clfeval datasets export``: the file written and its stories per class and part."""
    parts = list(e.counts)
    labels = sorted({lab for c in e.counts.values() for lab in c}, key=lambda lab: (-sum(c.get(lab, 0) for c in
                                                                                        e.counts.values()), lab))
    rows = [[lab, *(e.counts[p].get(lab, 0) for p in parts)] for lab in labels]
    rows.append(["all", *(sum(e.counts[p].values()) for p in parts)])
    split = "" if e.published_split else " (ModApte definition: NEWID 1199 kept)"
    return [TextBlock(f"wrote {e.describe()}{split}; columns {', '.join(e.columns)}."),
            TableBlock("Stories per class", ["class", *parts], rows)]


register(ExportedDataset, text=lambda e: blocks_to_rich(exported_blocks(e)),
         markdown=lambda e: blocks_to_markdown(exported_blocks(e)))
