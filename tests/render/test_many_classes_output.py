"""Many classes, one rule (issue 19, item 6): a table shows every class up to 50; beyond, the 20 largest by
support and the 10 hardest not among them; a figure at most 20 classes; a sentence points at --format json.

Expected rows are found here from the counts (support = row sums, F1 = 2TP / (2TP + FP + FN) by hand), never
read from the renderer.
"""

from __future__ import annotations

import collections
import re

import numpy as np
import pytest

import clfeval
from clfeval.render import render


def _data(k, n, seed=0):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.6, gold, rng.integers(0, k, n))
    names = np.array([f"c{i}" for i in range(k)])
    return names[gold], names[pred]


def _expected_rows(gold, pred):
    # one pass of dictionary counts over the items (a mask per class took 10,000 × 50,000 comparisons: 30-100 s)
    labs = sorted(set(gold) | set(pred), key=lambda s: int(s[1:]))
    gold_n, pred_n = collections.Counter(gold.tolist()), collections.Counter(pred.tolist())
    hits = collections.Counter(g for g, p in zip(gold.tolist(), pred.tolist(), strict=True) if g == p)
    sup = {lab: gold_n[lab] for lab in labs}
    f1 = {}
    for lab in labs:
        tp = hits[lab]
        fp = pred_n[lab] - tp  # predicted lab, gold another
        fn = gold_n[lab] - tp  # gold lab, predicted another
        f1[lab] = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else float("nan")
    order = sorted(range(len(labs)), key=lambda i: -sup[labs[i]])
    largest = [labs[i] for i in order[:20]]
    rest = [lab for lab in labs if lab not in largest and sup[lab] > 0]
    rest.sort(key=lambda lab: f1[lab])
    return largest, rest[:10], sup, f1


def _table_classes(text):
    """Class names in the per-class table of a text report."""
    part = text.split("Per class")[1].split("Averages over classes")[0]
    return list(dict.fromkeys(re.findall(r"^\s*(c\d+)\s", part, flags=re.M)))  # a folded table repeats its rows


def test_fifty_classes_all_in_the_table():
    gold, pred = _data(50, 3000)
    text = render(clfeval.report(gold, pred), "text")
    assert len(_table_classes(text)) == 50
    assert "--format json" not in text


def test_beyond_fifty_classes_the_largest_twenty_and_ten_hardest():
    gold, pred = _data(51, 3000, seed=3)
    largest, hardest, _, f1 = _expected_rows(gold, pred)
    rep = clfeval.report(gold, pred)
    text = render(rep, "text")
    shown = _table_classes(text)
    assert set(shown[:20]) == set(largest)
    # the hardest ten (ties in F1 may swap names of equal F1; the F1 values are what must match)
    assert sorted(f1[x] for x in shown[20:]) == pytest.approx(sorted(f1[x] for x in hardest))
    for fmt in ("text", "markdown", "html"):
        out = " ".join(render(rep, fmt).split())  # text wraps its sentences
        assert "30 of 51 classes shown" in out and "--format json" in out, fmt


@pytest.mark.slow
def test_ten_thousand_classes_page_is_small_and_says_what_it_leaves_out():
    pytest.importorskip("matplotlib")
    gold, pred = _data(10_000, 50_000)
    rep = clfeval.report(gold, pred)
    page = render(rep, "html")
    assert len(page.encode()) <= 2_000_000
    k = len(set(gold) | set(pred))  # 50,000 draws over 10,000 classes: a few never occur
    assert k > 9_900 and f"30 of {k:,} classes shown" in page and "--format json" in page
    largest, _, _, _ = _expected_rows(gold, pred)
    per_class = page.split("<h2>Per class (each class against all others)")[1].split("<h2>")[0]
    rows = re.findall(r"<tr><th scope=\"row\">(c\d+)</th>", per_class)
    assert len(rows) == 30 and set(largest) <= set(rows)
    # the figures: at most 20 classes each (tick labels and point names are the class names)
    for svg in re.findall(r"<svg.*?</svg>", page, flags=re.S):
        names = set(re.findall(r">(c\d+)(?:  \(hardest of these\))?</text>", svg))
        assert len(names) <= 20


def _ovr_scores(k, n, seed):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    sizes = np.bincount(gold, minlength=k)
    scores = {f"c{j:02d}": rng.random(n) + (gold == j) * rng.random() for j in range(k)}
    return [f"c{g:02d}" for g in gold], scores, sizes


def test_delong_per_class_table_follows_the_many_classes_rule():
    # issue 19 item 6, one rule for every per-class table: 60 classes → the 20 with most positives + 10 others
    from clfeval.significance._delong import delong_ovr

    gold, a, sizes = _ovr_scores(60, 3000, 1)
    _, b, _ = _ovr_scores(60, 3000, 2)
    text = render(delong_ovr(gold, a, b), "text", width=200)
    shown = {lab for lab in a if re.search(rf"^{lab}\s", text, re.M)}
    assert len(shown) == 30
    largest = {f"c{j:02d}" for j in np.argsort(-sizes, kind="stable")[:20]}
    assert largest <= shown  # the 20 with the most positives (hand-ranked from the counts here)
    assert "30 of 60 classes shown" in text and "--format json" in text


def test_ranking_interval_table_follows_the_many_classes_rule():
    from clfeval.significance._rankingci import with_ranking_ci

    gold, scores, sizes = _ovr_scores(60, 2000, 3)
    pred = [max(scores, key=lambda c: scores[c][i]) for i in range(len(gold))]
    rep = with_ranking_ci(clfeval.report(gold, pred), gold, scores, samples=50, seed=0)
    text = render(rep, "text", width=200)
    section = text.split("One label against the rest", 1)[1]
    shown = {lab for lab in scores if re.search(rf"^{lab}\s", section, re.M)}
    assert len(shown) == 30 and {f"c{j:02d}" for j in np.argsort(-sizes, kind="stable")[:20]} <= shown
    assert "30 of 60 classes shown" in section
