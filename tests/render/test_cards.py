"""The notebook cards (issue 37): every result of the front door shows a compact card within 20 KB, with its
summary, main table, slices (flagged first, every tested metric), found slices, error examples and links that
stay inside the card."""

from __future__ import annotations

import csv
import re
import warnings
from pathlib import Path

import markupsafe
import numpy as np
import pytest
from sklearn.metrics import accuracy_score, precision_score, recall_score

import clfeval
from clfeval.render._util import num

EX = Path(__file__).resolve().parents[2] / "docs" / "examples"
LIMIT = 20_000


def rows_of(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def tables(card: str) -> list[str]:
    return re.findall(r"<table[^>]*>(.*?)</table>", card, re.S)


def cells(table: str) -> list[list[str]]:
    return [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S) for r in re.findall(r"<tr>(.*?)</tr>", table, re.S)]


def section(card: str, starts: str) -> str:
    """The HTML of the card's section whose heading starts with ``starts``."""
    m = re.search(r"<section[^>]*>\s*<h2>" + re.escape(starts) + r".*?</section>", card, re.S)
    assert m, f"no section {starts!r}"
    return m.group(0)


def _scored() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    g = rng.integers(0, 3, 300)
    s = rng.random((300, 3))
    s[np.arange(300), g] += .5
    return g, s / s.sum(1, keepdims=True), np.array(["a", "b", "c"])


def _mails_precision() -> str:
    r = rows_of(EX / "mails.csv")
    return num(precision_score([x["gold"] for x in r], [x["pred"] for x in r], pos_label="spam"))


def _cases() -> dict[str, tuple]:
    """Each kind of result: how to make it, and a string its main table must show (from an independent count)."""
    g, s, labs = _scored()
    rng = np.random.default_rng(2)
    noisy = {lab: s[:, i] + rng.normal(0, .2, 300) for i, lab in enumerate(labs)}
    ovr = {lab: s[:, i] for i, lab in enumerate(labs)}
    grp = np.array(["x", "y", "z"])[np.arange(300) % 3]
    e = str(EX) + "/"
    return {
        "report": (lambda: clfeval.report(e + "mails.csv", positive="spam"), "precision"),
        "report scores": (lambda: clfeval.report(e + "mails.csv", score="score", positive="spam"), "ROC-AUC"),
        "report by": (lambda: clfeval.report(e + "sources.csv", by="source", positive="spam"), "By slice: source"),
        "report find_slices": (lambda: clfeval.report(e + "sources.csv", find_slices=["source", "lang"],
                                                      positive="spam"), "Slices found"),
        "report multilabel": (lambda: clfeval.report(e + "topics.csv", multilabel=True), "grain"),
        "compare pair": (lambda: clfeval.compare(e + "mails.csv", e + "old.csv", samples=300), "δ = A − B"),
        "compare many": (lambda: clfeval.compare(e + "mails.csv", e + "old.csv", e + "mails.csv", samples=200,
                                                 names=["new", "old", "copy"]), "Holm"),
        "compare sliced": (lambda: clfeval.compare(e + "sources.csv", e + "sources.csv", by="source", samples=100,
                                                   min_slice=5), "by slice: source"),
        "compare delong": (lambda: clfeval.compare(g == 0, s[:, 0], noisy["a"], metric="roc_auc", test="delong",
                                                   positive=True), "DeLong"),
        "compare delong_ovr": (lambda: clfeval.compare(labs[g], ovr, noisy, metric="roc_auc", test="delong"),
                               "one-vs-rest"),
        "compare noninferiority": (lambda: clfeval.compare(e + "mails.csv", e + "old.csv", margin=0.05,
                                                           samples=300), "margin"),
        "threshold": (lambda: clfeval.threshold(e + "mails.csv", dev=e + "dev.csv", score="score", positive="spam"),
                      "chosen on dev"),
        "threshold by": (lambda: clfeval.threshold(np.where(g == 0, "y", "n"), s[:, 0], positive="y",
                                                   by={"grp": grp}, min_slice=10), "By slice at the cut"),
        "calibration": (lambda: clfeval.calibration(e + "mails.csv", prob="score", positive="spam", bins=5),
                        "Reliability"),
        "calibration by": (lambda: clfeval.calibration(labs[g], s[:, 0], positive="a", bins=5, min_slice=10,
                                                       by={"grp": grp}), "By slice: grp"),
        "ranking": (lambda: clfeval.ranking(e + "mails.csv", score="score", positive="spam"), "ROC-AUC"),
        "ranking_ovr": (lambda: clfeval.ranking_ovr(labs[g], ovr), "ROC-AUC"),
        "error_analysis": (lambda: clfeval.error_analysis(e + "genres.csv", id="id", text="text", min_count=3),
                           "government → news"),
        "rank": (lambda: clfeval.rank(e + "demsar.csv", metric="roc_auc", bayes=False), "Average ranks"),
    }


CASES = _cases()


@pytest.mark.parametrize("name", list(CASES))
def test_every_kind_of_result_shows_a_small_card_with_its_main_table(name):
    make, shown = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        card = make()._repr_html_()
    assert len(card.encode("utf-8")) <= LIMIT, len(card.encode("utf-8"))
    assert card.startswith('<div class="clfeval">') and "<svg" not in card and "Signature" not in card
    assert "to_html()" in card and tables(card), name
    assert markupsafe.escape(shown) in card, name
    links = set(re.findall(r'href="#([^"]+)"', card))
    assert links <= set(re.findall(r'\bid="([^"]+)"', card)), links


def test_the_report_card_holds_the_precision_counted_by_scikit_learn():
    card = clfeval.report(str(EX / "mails.csv"), positive="spam")._repr_html_()
    per_class = cells(tables(section(card, "Per class"))[0])
    assert per_class[0] == ["class", "support", "precision", "recall", "F1"]
    spam = next(r for r in per_class if r[0] == "spam")
    assert spam[2] == _mails_precision()


def _seven_classes(n: int = 4200, slices: int = 6, bad: str = "s3"):
    """7 classes, ``slices`` slices; the slice ``bad`` is right half as often as the others."""
    rng = np.random.default_rng(0)
    g = rng.integers(0, 7, n)
    src = np.array([f"s{i}" for i in range(slices)])[np.arange(n) % slices]
    right = np.where(src == bad, 0.4, 0.85)
    p = np.where(rng.random(n) < right, g, (g + rng.integers(1, 7, n)) % 7)
    return g.astype(str), p.astype(str), src


def test_the_slices_of_a_report_show_every_tested_metric_and_the_flagged_first():
    g, p, src = _seven_classes()
    r = clfeval.report(g, p, by={"src": src}, slice_samples=200)
    card = r._repr_html_()
    sec = section(card, "By slice: src")
    head, *body = cells(tables(sec)[0])
    for k in range(7):
        assert f"recall:{k}" in head  # all seven tested recalls, not accuracy and one
    assert "accuracy" in head
    # the flagged slice: its accuracy, counted here, with its mark
    m = src == "s3"
    assert body[0][0] == "s3"
    assert body[0][head.index("accuracy")] == num(accuracy_score(g[m], p[m])) + " *"
    assert body[0][head.index("recall:2")].startswith(num(recall_score(g[m], p[m], labels=["2"], average="macro")))
    assert "result.slices.to_frame()" in sec
    assert len(card.encode("utf-8")) <= LIMIT


def test_many_slices_show_the_flagged_then_the_20_worst_and_say_how_many_are_left():
    g, p, src = _seven_classes(n=6000, slices=60, bad="s41")
    r = clfeval.report(g, p, by={"src": src}, min_slice=5, slice_samples=100)
    sec = section(r._repr_html_(), "By slice: src")
    head, *body = cells(tables(sec)[0])
    flagged = [x for x in r.slices.slices if any(t.flagged for t in (x.tests or {}).values())]
    assert [row[0] for row in body[:len(flagged)]] == sorted(
        (x.slice for x in flagged), key=lambda s: next(x.gap_to_rest["accuracy"] for x in flagged if x.slice == s))
    assert body[0][0] == "s41"
    assert len(body) == len(flagged) + 20
    # the 20 after the flagged: the lowest accuracy against the rest, lowest first (counted here)
    rest = {x.slice: accuracy_score(g[src == x.slice], p[src == x.slice]) - accuracy_score(
        g[src != x.slice], p[src != x.slice]) for x in r.slices.slices if x not in flagged}
    assert [row[0] for row in body[len(flagged):]] == sorted(rest, key=rest.get)[:20]
    assert f"{60 - len(body)} more slices: result.slices.to_frame() has them all." in sec


def test_found_slices_are_shown():
    rng = np.random.default_rng(3)
    n = 3000
    g = rng.integers(0, 2, n)
    src, lang = rng.choice(["web", "app"], n), rng.choice(["en", "de", "fr"], n)
    bad = (src == "app") & (lang == "de")
    p = np.where(rng.random(n) < np.where(bad, 0.5, 0.9), g, 1 - g)
    r = clfeval.report(g, p, positive=1, find_slices={"src": src, "lang": lang})
    assert r.find_slices.found
    sec = section(r._repr_html_(), "Slices found")
    names = [row[0] for row in cells(tables(sec)[0])[1:]]
    assert names == [f.slice for f in r.find_slices.found][:30]
    assert any("app" in x and "de" in x for x in names)


def test_the_errors_card_links_inside_itself_and_escapes_the_examples():
    rng = np.random.default_rng(0)
    n = 600
    g = rng.integers(0, 4, n)
    p = np.where(rng.random(n) < 0.5, g, (g + 1) % 4)
    words = np.array(["alpha", "beta", "gamma", "delta", "<script>alert(1)</script>"])
    texts = [" ".join(rng.choice(words, 6)) for _ in range(n)]
    e = clfeval.error_analysis(gold=g.astype(str), pred=p.astype(str), text=texts,
                               ids=[f"d{i}" for i in range(n)], min_count=2)
    card = e._repr_html_()
    hrefs = re.findall(r'href="#([^"]+)"', card)
    ids = re.findall(r'\bid="([^"]+)"', card)
    assert hrefs and set(hrefs) <= set(ids)
    prefix = ids[0].split("-")[0] + "-"
    assert all(h.startswith(prefix) for h in hrefs)
    assert "<script>" not in card and "&lt;script&gt;alert(1)&lt;/script&gt;" in card
    assert len(card.encode("utf-8")) <= LIMIT


def test_the_pair_card_shows_the_verdict_and_its_bound():
    c = clfeval.compare(str(EX / "mails.csv"), str(EX / "old.csv"), samples=500)
    card = c._repr_html_()
    assert str(markupsafe.escape(c.verdict)) in card
    tb = c.ci.test_bound
    assert tb is not None and num(tb.value) in section(card, "Summary")
    assert num(c.delta) in card


def test_sliced_comparison_and_sliced_threshold_cards_render():
    g, s, labs = _scored()
    grp = np.array(["x", "y", "z"])[np.arange(300) % 3]
    a = np.where(s.argmax(1) == g, labs[g], labs[(g + 1) % 3])
    c = clfeval.compare(labs[g], a, labs[s.argmax(1)], by={"grp": grp}, samples=100, min_slice=10)
    t = clfeval.threshold(np.where(g == 0, "y", "n"), s[:, 0], positive="y", by={"grp": grp}, min_slice=10)
    for r in (c, t):
        card = r._repr_html_()
        assert "by slice" in card.lower() and len(card.encode("utf-8")) <= LIMIT
        for name in ("x", "y", "z"):
            assert f'<th scope="row">{name}</th>' in card


def test_two_cards_in_one_notebook_keep_their_ids_apart():
    e = clfeval.error_analysis(str(EX / "genres.csv"), id="id", text="text", min_count=3)
    one, two = e._repr_html_(), e._repr_html_()
    ids = [re.findall(r'\bid="([^"]+)"', f) for f in (one, two)]
    assert ids[0] and not set(ids[0]) & set(ids[1])
    for f, own in zip((one, two), ids, strict=True):
        assert set(re.findall(r'href="#([^"]+)"', f)) <= set(own)


def test_the_card_of_2000_classes_stays_within_20_kb():
    rng = np.random.default_rng(0)
    g = rng.integers(0, 2000, 20000)
    p = np.where(rng.random(20000) < .5, g, rng.integers(0, 2000, 20000))
    card = clfeval.report(g, p)._repr_html_()
    assert len(card.encode("utf-8")) <= LIMIT
    assert "20 of 2,000 classes shown" in card or "20 of 2000 classes shown" in card


def test_the_one_vs_rest_ranking_card_shows_the_tables_of_its_page_without_drawing_curves():
    from clfeval.render.html.cards import _NoFigures, card_of
    from clfeval.render.html.layouts import ranking_page

    g, s, labs = _scored()
    r = clfeval.ranking_ovr(labs[g], {lab: s[:, i] for i, lab in enumerate(labs)})
    card, _ = card_of(r)
    page = ranking_page(r, _NoFigures())
    assert [x.items for x in card.sections] == [x.items for x in page.sections]
    assert card.summary == page.summary
