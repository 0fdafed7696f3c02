"""Every decision result in text, JSON, Markdown and HTML: the numbers shown are the result's, user strings stay
inert, the HTML page holds the figures its result carries."""

from __future__ import annotations

import json

import numpy as np
import pytest
from markdown_it import MarkdownIt

from clfeval.render import render
from clfeval.significance import (
    _curvebands as curvebands,
    _cvcompare as cvcompare,
    _delong as delong,
    _noninferiority as noninferiority,
    _power as power,
)

EVIL = "<b>x</b>\x1b[31m|*"


def results():
    rng = np.random.default_rng(0)
    n = 200
    y = rng.random(n) < 0.3
    a, b = rng.normal(size=n) + y, rng.normal(size=n) + 0.5 * y
    g = np.where(y, "spam", "ham")
    pa, pb = np.where(a > 0.5, "spam", "ham"), np.where(b > 0.5, "spam", "ham")
    lab = rng.choice(["x", "y", "z"], size=n)
    sa = {k: rng.normal(size=n) + (lab == k) for k in "xyz"}
    sb = {k: rng.normal(size=n) + 0.5 * (lab == k) for k in "xyz"}
    fa = [{"repeat": r, "fold": f, "n_train": 100, "n_test": 100, "accuracy": 0.8 + 0.01 * r + 0.004 * f}
          for r in range(1, 6) for f in (1, 2)]
    fb = [dict(x, accuracy=0.79 + 0.01 * x["repeat"]) for x in fa]
    return {"delong": delong.delong_test(g, a, b, positive="spam", names=(EVIL, "old")),
            "ovr": delong.delong_ovr(lab, sa, sb, names=(EVIL, "old")),
            "auc": delong.delong_auc(g, a, positive="spam"),
            "bands": curvebands.curve_bands(g, a, positive="spam", samples=100),
            "ni": noninferiority.noninferiority(g, pa, pb, margin=0.05, samples=300, names=(EVIL, "old")),
            "mcnemar": power.power_compare(g, pa, pb, delta=0.05),
            "boot": power.power_compare(g, pa, pb, metric="macro_f1", samples=200),
            "width": power.interval_width(g, pa, width=0.05, samples=200),
            "cv": cvcompare.cv_compare(fa, fb, metric="accuracy", names=(EVIL, "old"))}


RESULTS = results()


@pytest.mark.parametrize("key", sorted(RESULTS))
def test_every_format(key):
    r = RESULTS[key]
    text = render(r, "text")
    assert "\x1b" not in text and text.strip()
    if EVIL.split("\x1b")[0] in str(r.to_dict()):
        assert "\\x1b[31m" in text  # the control character is shown escaped
    md = render(r, "markdown")
    html_of_md = MarkdownIt("commonmark").enable("table").render(md)
    assert "<b>x</b>" not in html_of_md  # the user's tag stays text
    d = json.loads(render(r, "json"))
    assert d["signature"]["version"] and list(d["signature"])[-1] == "versions"
    page = render(r, "html")
    assert "<b>x</b>" not in page and page.startswith("<!DOCTYPE html>")
    assert ("<svg" in page) == (key in ("bands", "ni"))


def test_numbers_shown_are_the_results():
    r = RESULTS["delong"]
    text = render(r, "text")
    assert f"{r.auc_a:.4f}" in text and f"{r.z:.3f}" in text
    assert r.verdict.split(";")[0][-25:] in text.replace("\n", " ")  # "... higher than old's"
    ni = RESULTS["ni"]
    assert f"{ni.count:,} of {ni.samples:,}" in render(ni, "text")
    w = RESULTS["width"]
    assert f"{w.width:.4f}" in render(w, "text") and f"{w.required_n:,}" in render(w, "text")
    cv = render(RESULTS["cv"], "text")
    assert "5×2cv paired t (Dietterich)" in cv and "5×2cv combined F (Alpaydin)" in cv


def test_a_report_page_shows_the_intervals_the_bands_and_the_requirements():
    import clfeval
    from clfeval.evaluate._requirements import with_requirements
    from clfeval.significance._rankingci import with_ranking_ci

    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.3
    a = rng.normal(size=300) + y
    g, p = np.where(y, "spam", "ham"), np.where(a > 0.5, "spam", "ham")
    r = clfeval.report(g, p, scores=a, positive="spam", ci=0.95, samples=300)
    r = with_requirements(with_ranking_ci(r, g, a, positive="spam", samples=300), ["roc_auc>=0.7", "accuracy>majority"])
    page = render(r, "html")
    assert "Ranking with 95% intervals (DeLong and bootstrap)" in page and "Requirements" in page
    assert 'id="fig' in page and "roc-band-0" in page and "pr-band-0" in page
    md = render(r, "markdown")
    assert "## Ranking with 95% intervals" in md and md.index("## Ranking with") < md.index("## Requirements")
