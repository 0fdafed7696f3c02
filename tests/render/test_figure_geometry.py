"""Every figure kind, laid out as it is saved: no text outside the figure, no backslash escape in a label of
ours, no two texts overlapping; at most 20 classes drawn, each in its own colour (issue 19, items 1, 3, 6).

The texts are measured on the Agg canvas after the final layout (``fig.canvas.draw()``), in display pixels.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import clfeval  # noqa: E402
from clfeval import plots  # noqa: E402
from clfeval.plots import _mpl  # noqa: E402
from clfeval.significance._multirank import rank_scores  # noqa: E402

#: Overlap allowed between two texts' boxes (pixels): glyph boxes include some padding.
SLACK = 1.0
#: A label of ours that shows an escape (a literal backslash-n, a \xNN) is a bug.
ESCAPE = re.compile(r"\\[ntrxu]")


def _rng(seed):
    return np.random.default_rng(seed)


def _labels(k):
    names = ["news", "fiction", "government", "learned", "sports", "weather", "finance", "travel", "science",
             "health", "politics", "culture"]
    return names[:k] if k <= len(names) else [f"class {i:02d}" for i in range(k)]


def _report(k, n=1200, seed=0, scores=False):
    rng = _rng(seed)
    labs = np.array(_labels(k))
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, k, n))
    if not scores:
        return clfeval.report(labs[gold], labs[pred])
    sc = {lab: rng.random(n) + 0.6 * (gold == i) for i, lab in enumerate(labs)}
    return clfeval.report(labs[gold], labs[pred], scores=sc)


def _binary_scored(seed=1, n=800):
    rng = _rng(seed)
    y = rng.random(n) < 0.3
    s = np.clip((rng.random(n) + 0.5 * y) / 1.5, 0, 1)
    gold = np.where(y, "spam", "ham")
    return gold, s


def _study():
    cats = ["earn", "acq", "crude", "money-fx", "grain", "interest", "trade", "ship", "wheat", "corn"]
    f1 = dict(zip(cats, [0.95, 0.95, 0.83, 0.70, 0.72, 0.72, 0.55, 0.77, 0.60, 0.50], strict=True))
    return {"categories": cats, "binary": {"per_class": {c: {"f1": f1[c]} for c in cats}},
            "published": {"per_class": {c: {"f1": f1[c] - 0.01} for c in cats}},
            "thresholds": {c: {"default_f1": 0.5, "tuned_f1": 0.6, "hindsight_f1": 0.7, "threshold": 12.5}
                           for c in ("grain", "wheat", "corn", "trade")}}


def _cases():
    gold, s = _binary_scored()
    gd, sd = _binary_scored(seed=2, n=500)
    rng = _rng(3)
    g3 = rng.integers(0, 3, 400)
    a = np.where(rng.random(400) < 0.75, g3, rng.integers(0, 3, 400))
    b = np.where(rng.random(400) < 0.70, g3, rng.integers(0, 3, 400))
    names = np.array(["urgent", "normal", "spam"])
    comparison = clfeval.compare(names[g3], names[a], names[b], samples=2000, seed=7, metric="macro_f1",
                                 names=("system A", "system B"))
    g12 = rng.integers(0, 12, 3000)
    labs12 = np.array(_labels(12))
    a12 = np.where(rng.random(3000) < 0.8, g12, rng.integers(0, 12, 3000))
    b12 = np.where(rng.random(3000) < 0.6, g12, rng.integers(0, 12, 3000))
    comparison12 = clfeval.compare(labs12[g12], labs12[a12], labs12[b12], samples=500, seed=1, names=("r12", "r12b"))
    randomization = clfeval.compare(names[g3], names[a], names[b], samples=500, seed=7, test="randomization")
    sets_labels = ["grain", "wheat", "corn"]
    sets = [[x for x in sets_labels if rng.random() < 0.4] for _ in range(300)]
    dev = [[x for x in sets_labels if rng.random() < 0.4] for _ in range(200)]
    ms = {x: np.array([rng.random() + 0.6 * (x in t) for t in sets]) for x in sets_labels}
    msd = {x: np.array([rng.random() + 0.6 * (x in t) for t in dev]) for x in sets_labels}
    from tests._helpers.planned import example_10

    cases = {
        "confusion-4": (plots.confusion_matrix, _report(4)),
        "confusion-12": (plots.confusion_matrix, _report(12)),
        "confusion-30": (plots.confusion_matrix, _report(30, n=3000)),
        "per-class-3": (plots.per_class, _report(3)),
        "per-class-12": (plots.per_class, _report(12)),
        "per-class-60": (plots.per_class, _report(60, n=4000)),
        "roc-binary": (plots.roc, clfeval.report(gold, np.where(s >= 0.5, "spam", "ham"), scores=s, positive="spam")),
        "roc-12": (plots.roc, _report(12, scores=True)),
        "pr-binary": (plots.pr, clfeval.report(gold, np.where(s >= 0.5, "spam", "ham"), scores=s, positive="spam")),
        "pr-12": (plots.pr, _report(12, scores=True)),
        "pr-30": (plots.pr, _report(30, n=3000, scores=True)),
        "threshold": (plots.threshold, clfeval.choose_threshold(gold, s, positive="spam", dev_gold=gd, dev_scores=sd)),
        "label-thresholds": (plots.threshold, clfeval.choose_label_thresholds(
            ["|".join(t) for t in sets], ms, dev_gold=["|".join(t) for t in dev], dev_scores=msd)),
        "reliability": (plots.reliability, clfeval.reliability(gold, s, positive="spam", bins=10)),
        "phi-delta-4": (plots.phi_delta, _report(4)),
        "phi-delta-12": (plots.phi_delta, _report(12)),
        "phi-delta-compare": (plots.phi_delta, comparison),
        "phi-delta-compare-12": (plots.phi_delta, comparison12),
        "phi-delta-folds": (plots.phi_delta, example_10()),
        "cv-spread": (plots.cv_spread, example_10()),
        "bootstrap": (plots.bootstrap, comparison),
        "randomization": (plots.bootstrap, randomization),
        "reuters": (plots.reuters, _study()),
        "cd-4": (plots.cd_diagram, _ranking(4, 14)),
        "cd-12": (plots.cd_diagram, _ranking(12, 30)),
        "bayes": (plots.bayes_bars, _ranking(6, 20)),
        "forest": (plots.forest, _sliced(20)),
        "forest-60": (plots.forest, _sliced(60, long_names=True)),
        "found-slices": (plots.found_forest, _found()),
        "noise-matrix": (plots.noise_matrix, _label_issues()),
    }
    return cases


def _label_issues():
    """A label-issues result (issue 41) of six classes with long and hostile names, one of them no item is
    confidently in (its column of the noise matrix undefined)."""
    rng = _rng(41)
    names = ["<b>a rather long class name</b>", "b", "c", "d", "e", "f"]
    n, k = 600, len(names)
    gold = rng.integers(0, k, n)
    logits = rng.normal(0, 1.0, (n, k)) + 3.0 * np.eye(k)[gold]
    logits[:, 5] -= 6.0  # class f: never the most probable, so no item is confidently in it
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return clfeval.label_issues(p, [names[g] for g in gold.tolist()], labels=names)


def _ranking(k, n):
    """A ranking over data sets (clfeval rank) of k systems with long and hostile names."""
    rng = _rng(k)
    names = [f"system {i} with a rather long name" if i % 3 else f"<b>s{i}</b>" for i in range(k)]
    scores = 0.8 + 0.01 * np.arange(k)[None, :] + rng.normal(0, 0.03, (n, k))
    return rank_scores(scores, names, [f"d{j}" for j in range(n)], higher_is_better=True, samples=2000)


def _found():
    """A report with --find-slices (issue 27): one planted cross, long and hostile column values."""
    rng = _rng(27)
    n = 6000
    a = np.array(["<b>a very long source name</b>", "x", "y"], dtype=object)[rng.integers(0, 3, n)]
    b = rng.integers(0, 4, n)
    gold = rng.random(n) < 0.5
    bad = (a == "x") & (b == 1)
    pred = np.where(gold, rng.random(n) < np.where(bad, 0.5, 0.9), rng.random(n) < 0.1)
    return clfeval.report(np.where(gold, "pos", "neg"), np.where(pred, "pos", "neg"),
                          find_slices={"source": a, "b": b}, positive="pos")


def _sliced(k, long_names=False):
    """A report by slice (issue 26): k slices, one of them worse."""
    rng = _rng(26)
    n = 150 * k
    src = np.array([(f"a very long source name number {i:02d}" if long_names else f"s{i:02d}") for i in range(k)],
                   dtype=object)[np.arange(n) % k]
    gold = rng.random(n) < 0.4
    pred = np.where(gold, rng.random(n) < np.where(np.arange(n) % k == 0, 0.5, 0.8), rng.random(n) < 0.1)
    return clfeval.report(np.where(gold, "pos", "neg"), np.where(pred, "pos", "neg"), by={"source": src},
                          positive="pos", slice_samples=20)


CASES = None


def _case(name):
    global CASES
    if CASES is None:
        CASES = _cases()
    return CASES[name]


NAMES = ["confusion-4", "confusion-12", "confusion-30", "per-class-3", "per-class-12", "per-class-60", "roc-binary",
         "roc-12", "pr-binary", "pr-12", "pr-30", "threshold", "label-thresholds", "reliability", "phi-delta-4",
         "phi-delta-12", "phi-delta-compare", "phi-delta-compare-12", "phi-delta-folds", "cv-spread", "bootstrap",
         "randomization", "reuters", "cd-4", "cd-12", "bayes", "forest", "forest-60",
         "found-slices", "noise-matrix"]


def test_every_figure_kind_is_covered():
    kinds = {fn.__name__ for fn in plots.KINDS.values()}
    covered = {fn.__name__ for name in NAMES for fn in [_case(name)[0]]}
    assert kinds <= covered | {"threshold"}, kinds - covered


def _hidden_ticklabels(fig):
    """Tick labels matplotlib does not draw: those of ticks outside the axis' view interval."""
    hidden = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            tol = (hi - lo) * 1e-9
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not lo - tol <= tick.get_loc() <= hi + tol:
                    hidden.update({id(tick.label1), id(tick.label2)})
                if not tick.label2.get_visible() or not tick.label2On if hasattr(tick, "label2On") else False:
                    hidden.add(id(tick.label2))
    return hidden


def _texts(fig):
    from matplotlib.text import Text

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    hidden = _hidden_ticklabels(fig)
    out = []
    for t in fig.findobj(Text):
        if id(t) in hidden or not t.get_visible() or not t.get_text().strip():
            continue
        out.append((t, Text.get_window_extent(t, renderer)))  # the text itself (an annotation's leader line aside)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_no_text_outside_the_figure_no_escape_no_overlap(name):
    fn, result = _case(name)
    fig = fn(result)
    texts = _texts(fig)
    assert texts
    w, h = fig.canvas.get_width_height()
    for t, bb in texts:
        assert bb.x0 >= -SLACK and bb.y0 >= -SLACK and bb.x1 <= w + SLACK and bb.y1 <= h + SLACK, \
            f"{t.get_text()!r} at {bb.bounds} is outside the figure ({w}×{h} px)"
        assert not ESCAPE.search(t.get_text()), f"{t.get_text()!r} shows an escape"
    for (t1, b1), (t2, b2) in itertools.combinations(texts, 2):
        ox = min(b1.x1, b2.x1) - max(b1.x0, b2.x0)
        oy = min(b1.y1, b2.y1) - max(b1.y0, b2.y0)
        assert ox <= SLACK or oy <= SLACK, f"{t1.get_text()!r} {b1.bounds} overlaps {t2.get_text()!r} {b2.bounds}"


def test_a_figure_draws_at_most_twenty_classes_each_in_its_own_colour():
    rep = _report(60, n=4000, scores=True)
    d = rep.to_dict()
    support = {lab: d["per_class"][lab]["support"] for lab in d["labels"]}
    largest = sorted(d["labels"], key=lambda lab: -support[lab])[:20]
    fig = plots.per_class(rep)
    shown = [t.get_text().split("  (")[0] for t in fig.axes[0].get_yticklabels()]
    assert len(shown) == 20 and set(shown) == set(largest)
    for fn in (plots.roc, plots.pr):
        fig = fn(rep)
        curves = [line for line in fig.axes[0].lines if (line.get_gid() or "").startswith(("roc-", "pr-"))
                  and "band" not in line.get_gid()]
        assert len(curves) == 20
        assert len({line.get_color() for line in curves}) == 20
    fig = plots.phi_delta(rep)
    (pts,) = [c for c in fig.axes[0].collections if c.get_gid() == "points"]
    assert len(pts.get_offsets()) == 20


def test_palette_is_okabe_ito_then_twenty_distinct_colours():
    # Okabe & Ito (2008), the eight colours in their published order
    assert _mpl.palette(8) == ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
    assert len(set(_mpl.palette(9))) == 9 and len(set(_mpl.palette(20))) == 20
    with pytest.raises(ValueError):
        _mpl.palette(21)


def test_pr_curve_ends_at_the_first_point_of_full_recall():
    gold, s = _binary_scored()
    rep = clfeval.report(gold, np.where(s >= 0.5, "spam", "ham"), scores=s, positive="spam")
    fig = plots.pr(rep)
    (line,) = [ln for ln in fig.axes[0].lines if ln.get_gid() == "pr-0"]
    from sklearn.metrics import precision_recall_curve

    p, r, _ = precision_recall_curve(gold == "spam", s)
    # scikit-learn's curve ends (in decreasing threshold order) at the first point of full recall
    end = np.flatnonzero(r == 1.0).max()
    assert line.get_xdata()[-1] == pytest.approx(1.0)
    assert line.get_ydata()[-1] == pytest.approx(p[end], abs=1e-6)
    assert np.sum(np.asarray(line.get_xdata()) == 1.0) == 1  # no drop at recall 1 down to the prevalence


def _min_l1(lo, hi):
    return 0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi))


@pytest.mark.parametrize("name", ["phi-delta-4", "phi-delta-12", "phi-delta-compare", "phi-delta-folds"])
def test_phi_delta_corner_labels_stay_off_the_rhombus(name):
    fn, result = _case(name)
    fig = fn(result)
    fig.canvas.draw()
    ax = fig.axes[0]
    r = fig.canvas.get_renderer()
    corners = [t for t in ax.texts if (t.get_gid() or "").startswith("corner-")]
    assert len(corners) == 4
    inv = ax.transData.inverted()
    for t in corners:
        (x0, y0), (x1, y1) = inv.transform(t.get_window_extent(r).get_points())
        # the nearest point of the label's box to the origin in |φ| + |δ| (the rhombus is |φ| + |δ| <= 1)
        assert _min_l1(x0, x1) + _min_l1(y0, y1) > 1.0, (t.get_text(), (x0, y0, x1, y1))


def test_threshold_sweep_names_its_quantity():
    fn, result = _case("threshold")
    assert fn(result).axes[0].get_ylabel() == "precision, recall, F1 on TEST"


def test_reliability_marker_area_follows_the_count_and_small_bins_stay_apart():
    # 3 bins by hand: [0, 1/3) holds 2 items, [1/3, 2/3) 10 items, [2/3, 1] 20 items
    probs = [0.1, 0.2] + [0.5] * 10 + [0.9] * 20
    gold = ["y", "n"] + ["y"] * 6 + ["n"] * 4 + ["y"] * 18 + ["n"] * 2
    fig = plots.reliability(clfeval.reliability(gold, probs, positive="y", bins=3))
    ax = fig.axes[0]
    (line,) = [ln for ln in ax.lines if ln.get_gid() == "reliability"]
    assert np.allclose(line.get_xdata(), [0.5, 0.9]) and np.allclose(line.get_ydata(), [0.6, 0.9])
    marks = {c.get_gid(): c for c in ax.collections}
    solid, few = marks["bins"], marks["bins-few"]
    assert np.allclose(few.get_offsets(), [[0.15, 0.5]]) and few.get_alpha() < 0.5
    sizes = list(solid.get_sizes()) + list(few.get_sizes())  # areas: 10 items, 20 items, 2 items
    assert sizes[1] > sizes[0] > sizes[2]
    assert (sizes[1] - sizes[0]) / (sizes[0] - sizes[2]) == pytest.approx((20 - 10) / (10 - 2))
