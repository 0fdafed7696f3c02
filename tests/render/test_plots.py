"""Figures: what they draw (their data), not their pixels.

Oracles: the exact curves of :class:`clfeval.scores._curves.SortedRanking` (every cut, no
decimation), hand-placed φ–δ values, the count matrix itself, the thresholds a
threshold choice reports, and :func:`clfeval.significance._paired.bootstrap_distribution`
(the same replicates as the comparison, recomputed).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import clfeval  # noqa: E402
from clfeval import plots  # noqa: E402
from clfeval.core._decimate import ranking_points, replicate_histogram, simplify  # noqa: E402
from clfeval.plots import _mpl  # noqa: E402
from clfeval.render import to_json  # noqa: E402
from clfeval.scores._curves import SortedRanking  # noqa: E402

HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "$x^2$", "_under",
           "a label far too long to be drawn in full inside a figure, really"]


def seg_dist(points: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Distance of each point to the polyline (pixels in, pixels out)."""
    a, b = poly[:-1], poly[1:]
    d = b - a
    L2 = (d ** 2).sum(1)
    best = np.full(points.shape[0], np.inf)
    for i in range(a.shape[0]):
        if L2[i] == 0:
            dist = np.hypot(*(points - a[i]).T)
        else:
            t = np.clip(((points - a[i]) @ d[i]) / L2[i], 0, 1)
            dist = np.hypot(*(points - a[i] - t[:, None] * d[i]).T)
        np.minimum(best, dist, out=best)
    return best


def drawn(fig, gid):
    fig.canvas.draw()
    for ax in fig.axes:
        for line in ax.lines:
            if line.get_gid() == gid:
                return ax, line
    raise AssertionError(f"no line {gid}")


def to_px(ax, x, y):
    return ax.transData.transform(np.column_stack([x, y]))


@pytest.fixture(scope="module")
def binary_ranking():
    rng = np.random.default_rng(1)
    n = 60_000
    y = rng.random(n) < 0.2
    s = np.round(rng.normal(size=n) + 1.2 * y, 2)  # ties: rounded scores
    return y, s, SortedRanking.from_indicator(y, s, "pos")


def test_roc_drawn_within_one_pixel_of_the_exact_curve(binary_ranking):
    _, _, rk = binary_ranking
    fig = plots.roc(rk)
    ax, line = drawn(fig, "roc-0")
    fpr, tpr, _ = rk.roc_curve()  # every cut
    exact = to_px(ax, fpr, tpr)
    path = to_px(ax, *line.get_data())
    assert len(line.get_xdata()) < 600 < len(fpr)
    assert seg_dist(exact, path).max() <= 1.0
    # and the drawn points are points of the exact curve
    assert seg_dist(path, exact).max() < 1e-3


def test_pr_and_sweep_drawn_within_one_pixel(binary_ranking):
    y, s, rk = binary_ranking
    fig = plots.pr(rk)
    ax, line = drawn(fig, "pr-0")
    p, r, _ = rk.pr_curve()
    assert seg_dist(to_px(ax, r, p), to_px(ax, *line.get_data())).max() <= 1.0
    c = clfeval.choose_threshold(np.where(y, "pos", "neg"), s, positive="pos")
    fig = plots.threshold(c)
    sw = rk.sweep()
    for key, exact in (("precision", sw.precision), ("recall", sw.recall), ("fbeta", sw.fbeta)):
        ax, line = drawn(fig, f"sweep-{key}")
        assert seg_dist(to_px(ax, sw.thresholds, exact), to_px(ax, *line.get_data())).max() <= 1.0


def test_curves_from_threaded_parts_match(monkeypatch):
    """Large rankings sort the negatives in parts; the sampled cuts count over every part."""
    import clfeval.scores._curves as curves

    monkeypatch.setattr(curves, "_PARALLEL_MIN", 1000)
    monkeypatch.setattr(curves, "_n_threads", lambda: 3)
    monkeypatch.setattr(curves, "_simd_sort", lambda: False)  # the scalar-sort strategy: parts on threads (issue 12)
    rng = np.random.default_rng(2)
    y = rng.random(20_000) < 0.3
    s = rng.integers(0, 500, 20_000).astype(float)
    rk = SortedRanking.from_indicator(y, s, "1")
    assert len(rk.neg_parts) == 3
    thr, tp, fp = ranking_points(rk.pos_scores, rk.neg_parts)
    assert np.array_equal(tp, [(s[y] >= t).sum() for t in thr])
    assert np.array_equal(fp, [(s[~y] >= t).sum() for t in thr])


def test_simplify_keeps_every_dropped_point_within_tolerance():
    rng = np.random.default_rng(3)
    x = np.sort(rng.random(3000))
    y = np.cumsum(rng.normal(size=3000)) / 60
    keep = simplify(x, y, tolerance=0.7, ylim=(y.min(), y.max()), px=(800, 600))
    assert 2 < keep.size < 3000 and keep[0] == 0 and keep[-1] == 2999
    sx, sy = 800, 600 / (y.max() - y.min())
    pts = np.column_stack([x * sx, (y - y.min()) * sy])
    assert seg_dist(pts, pts[keep]).max() <= 0.7 + 1e-9


def test_json_round_trip_draws_the_same_curve(binary_ranking):
    _, _, rk = binary_ranking
    d = json.loads(to_json(rk))
    a = drawn(plots.roc(rk), "roc-0")[1].get_xydata()
    b = drawn(plots.roc(d), "roc-0")[1].get_xydata()
    assert np.allclose(a, b)


def test_phi_delta_points_at_their_table_values():
    # gold a a a b b c, pred a a b b c c: per class TPR/FPR by hand
    rep = clfeval.report(list("aaabbc"), list("aabbcc"))
    fig = plots.phi_delta(rep)
    fig.canvas.draw()
    (pts,) = [c for c in fig.axes[0].collections if c.get_gid() == "points"]
    got = pts.get_offsets()
    # a: TPR 2/3, FPR 0/3; b: TPR 1/2, FPR 1/4; c: TPR 1/1, FPR 1/5
    hand = {"a": (2 / 3, 0.0), "b": (0.5, 0.25), "c": (1.0, 0.2)}
    want = np.array([(t + f - 1, t - f) for t, f in hand.values()])
    assert np.allclose(got, want)
    # the rhombus corners
    (rh,) = [line for line in fig.axes[0].lines if line.get_gid() == "rhombus"]
    assert {tuple(p) for p in rh.get_xydata().tolist()} == {(-1, 0), (0, 1), (1, 0), (0, -1)}


def test_heatmap_cells_are_the_matrix():
    gold = list("aaaabbbccd")
    pred = list("aabbbbcadd")
    cm = [[2, 2, 0, 0], [0, 2, 1, 0], [1, 0, 0, 1], [0, 0, 0, 1]]  # by hand: rows gold a b c d
    fig = plots.confusion_matrix(clfeval.report(gold, pred))
    texts = {t.get_gid(): t.get_text() for t in fig.axes[0].texts if (t.get_gid() or "").startswith("cell-")}
    assert len(texts) == 16
    assert all(texts[f"cell-{i}-{j}"] == str(cm[i][j]) for i in range(4) for j in range(4))
    # most confused pair {a, b}: 2 + 0 errors, both directions outlined
    outlined = {p.get_gid() for p in fig.axes[0].patches if (p.get_gid() or "").startswith("most-confused")}
    assert outlined == {"most-confused-0-1", "most-confused-1-0"}


def test_many_classes_become_a_bar_chart_of_confusions():
    rng = np.random.default_rng(4)
    gold = rng.integers(0, 60, 3000)
    pred = np.where(rng.random(3000) < 0.5, gold, rng.integers(0, 60, 3000))
    fig = plots.confusion_matrix(clfeval.report(gold, pred), top=10)
    assert "too many for a readable heatmap" in fig.axes[0].get_title("left")
    assert len(fig.axes[0].patches) == 10


def test_threshold_marks_the_three_cuts():
    rng = np.random.default_rng(5)
    y, yd = rng.random(800) < 0.3, rng.random(600) < 0.3
    s, sd = (rng.random(800) + 0.5 * y) / 1.5, (rng.random(600) + 0.5 * yd) / 1.5  # in [0, 1]: default cut 0.5
    c = clfeval.choose_threshold(np.where(y, "p", "n"), s, positive="p", dev_gold=np.where(yd, "p", "n"), dev_scores=sd)
    fig = plots.threshold(c)
    ax = fig.axes[0]
    lines = {line.get_gid(): line.get_xdata()[0] for line in ax.lines if (line.get_gid() or "").startswith("cut-")}
    assert lines == {"cut-default": 0.5, "cut-dev": c.threshold, "cut-hindsight": c.hindsight.threshold}
    names = " ".join(t.get_text() for t in ax.texts)
    assert "default cut" in names and "chosen on dev" in names and "hindsight" in names


def test_bootstrap_two_delta_line_and_exact_tail():
    rng = np.random.default_rng(6)
    gold = rng.integers(0, 3, 400)
    a = np.where(rng.random(400) < 0.75, gold, rng.integers(0, 3, 400))
    b = np.where(rng.random(400) < 0.70, gold, rng.integers(0, 3, 400))
    c = clfeval.compare(gold, a, b, samples=3000, seed=7, metric="macro_f1")
    fig = plots.bootstrap(c)
    ax = fig.axes[0]
    lines = {line.get_gid(): line.get_xdata()[0] for line in ax.lines}
    assert lines["two-delta"] == pytest.approx(2 * (c.a - c.b)) and lines["delta"] == pytest.approx(c.a - c.b)
    reps = clfeval.significance._paired.bootstrap_distribution(gold, a, b, samples=3000, seed=7, metric="macro_f1")
    h = c.distribution
    assert h.count_beyond == int((reps >= 2 * c.delta).sum()) == c.details.count
    assert sum(h.counts) == 3000 and len(h.edges) == len(h.counts) + 1
    assert np.array_equal(np.histogram(reps, bins=h.edges)[0], h.counts)


def test_randomization_null_marks_delta():
    c = clfeval.compare(list("aaaaabbbbb"), list("aaaabbbbba"), list("aaabbbbbaa"), test="randomization",
                        samples=500, seed=0)
    fig = plots.bootstrap(c)
    lines = {line.get_gid() for line in fig.axes[0].lines}
    assert "delta" in lines and "two-delta" not in lines
    assert c.distribution.kind == "randomization" and c.distribution.threshold == c.delta


def test_replicate_histogram_bins_small_supports_exactly():
    h = replicate_histogram(np.array([0.0, 0.1, 0.1, np.nan]), delta=0.05, threshold=0.1, count_beyond=2,
                            kind="bootstrap")
    assert h["counts"] == [1, 2] and h["undefined"] == 1 and h["edges"] == pytest.approx([-0.05, 0.05, 0.15])


def test_labels_drawn_as_typed_and_escaped_in_svg():
    gold = HOSTILE * 3
    pred = HOSTILE[1:] + HOSTILE[:1] + HOSTILE * 2
    scores = {lab: [1.0 if g == lab else 0.0 for g in gold] for lab in HOSTILE}
    rep = clfeval.report(gold, pred, scores=scores)
    fig = plots.roc(rep)
    legend = [t.get_text() for t in (fig.axes[0].get_legend() or fig.legends[0]).get_texts()]  # beside the axes
    assert any(t.startswith("_under (AUC") for t in legend)  # an underscore label is not dropped
    assert any(t.startswith("$x^2$ (AUC") for t in legend)
    svg = _mpl.figure_svg(fig, "t")
    assert "<script" not in svg and "<img" not in svg and "&lt;script&gt;" in svg
    svg = _mpl.figure_svg(plots.confusion_matrix(rep), "c")
    assert "$x^2$" in svg  # drawn as typed: no mathtext
    long = HOSTILE[-1]
    assert long not in svg.replace(f"<title>{long}</title>", "")  # shortened in the figure ...
    assert f"<title>{long}</title>" in svg  # ... with the full text as a tooltip
    assert "onerror" not in svg.replace("&quot;&gt;&lt;img src=x onerror", "")


def test_svg_is_deterministic_and_self_contained():
    rep = clfeval.report(list("aabbc"), list("abbcc"))
    one = _mpl.figure_svg(plots.per_class(rep), "p")
    two = _mpl.figure_svg(plots.per_class(rep), "p")
    assert one == two
    assert one.startswith("<svg") and "<metadata" not in one and "http://purl" not in one
    assert "matplotlib.org" not in one


def test_save_by_extension(tmp_path):
    fig = plots.per_class(clfeval.report(list("ab"), list("ab")))
    for ext in ("svg", "png", "pdf"):
        _mpl.save(fig, tmp_path / f"f.{ext}")
        assert (tmp_path / f"f.{ext}").stat().st_size > 500
    with pytest.raises(clfeval.UsageError, match="must end in .svg, .png or .pdf"):
        _mpl.save(fig, tmp_path / "f.gif")


def test_cv_spread_and_reliability_draw_their_data():
    cal = clfeval.reliability(["y", "n", "y", "n"], [0.9, 0.2, 0.6, 0.4], positive="y", bins=2)
    fig = plots.reliability(cal)
    assert f"ECE = {cal.ece:.4f}" in fig.axes[0].get_title("left")
    # issue 19: bins of fewer than 5 items are drawn faint and not joined by the line (here every bin has 2)
    (line,) = [line for line in fig.axes[0].lines if line.get_gid() == "reliability"]
    assert len(line.get_ydata()) == 0
    (few,) = [c for c in fig.axes[0].collections if c.get_gid() == "bins-few"]
    assert np.allclose(few.get_offsets()[:, 1], [b.accuracy for b in cal.bins if b.count])
    d = {"metrics": ["accuracy"], "per_fold": [{"fold": i, "accuracy": v} for i, v in enumerate([0.82, 0.8, 0.84], 1)],
         "accuracy": {"mean": 0.82, "min": 0.8, "max": 0.84}, "pooled": {"accuracy": 0.82}}
    fig = plots.cv_spread(d)
    (folds,) = [c for c in fig.axes[0].collections if c.get_gid() == "folds-0"]
    assert np.allclose(folds.get_offsets()[:, 1], [0.82, 0.8, 0.84])
    assert not math.isnan(folds.get_offsets()[0, 0])


def test_phi_delta_of_cross_validation_folds():
    from tests._helpers.planned import example_10

    res = example_10()
    fig = plots.phi_delta(res)
    (pts,) = [c for c in fig.axes[0].collections if c.get_gid() == "points"]
    want = []
    for f in res.folds:  # per class TPR and FPR from the fold's own count table
        cm = np.asarray(f.table.counts, dtype=float)
        tp = np.diag(cm)
        tpr = tp / cm.sum(1)
        fpr = (cm.sum(0) - tp) / (cm.sum() - cm.sum(1))
        want.append(((tpr + fpr - 1).mean(), (tpr - fpr).mean()))
    assert np.allclose(pts.get_offsets(), want)
    assert len(want) == 5
    fig = plots.phi_delta(json.loads(to_json(res)), label="b")
    (pts,) = [c for c in fig.axes[0].collections if c.get_gid() == "points"]
    assert "class b" in fig.axes[0].get_title("left")


def _tpr_fpr(gold, pred, labels):
    """Per class TPR and FPR from scikit-learn's confusion matrix (rows = gold)."""
    from sklearn.metrics import confusion_matrix

    cm = confusion_matrix(gold, pred, labels=labels).astype(float)
    tp = np.diag(cm)
    return tp / cm.sum(1), (cm.sum(0) - tp) / (cm.sum() - cm.sum(1))


def test_comparison_carries_each_systems_classes_in_the_phi_delta_diagram():
    rng = np.random.default_rng(8)
    gold = rng.integers(0, 3, 400)
    a = np.where(rng.random(400) < 0.8, gold, rng.integers(0, 3, 400))
    b = np.where(rng.random(400) < 0.6, gold, rng.integers(0, 3, 400))
    c = clfeval.compare(gold, a, b, samples=200, names=("new", "old"))
    d = json.loads(to_json(c))
    assert d["phi_delta"]["labels"] == ["0", "1", "2"]
    for name, pred in (("new", a), ("old", b)):
        tpr, fpr = _tpr_fpr(gold, pred, [0, 1, 2])
        got = d["phi_delta"]["systems"][name]
        assert np.allclose([got[k]["phi"] for k in "012"], tpr + fpr - 1)
        assert np.allclose([got[k]["delta"] for k in "012"], tpr - fpr)
    fig = plots.phi_delta(d)  # from the JSON: nothing recomputed
    main = fig.axes[0]
    pts = {p.get_gid(): p.get_offsets() for p in main.collections if (p.get_gid() or "").startswith("points-")}
    tpr, fpr = _tpr_fpr(gold, b, [0, 1, 2])
    assert np.allclose(pts["points-1"], np.column_stack([tpr + fpr - 1, tpr - fpr]))
    assert [t.get_text() for t in main.get_legend().get_texts()] == ["new", "old"]
    many = clfeval.compare_many(gold, {"x": a, "y": b, "z": gold}, samples=100)
    dm = json.loads(to_json(many))
    assert list(dm["phi_delta"]["systems"]) == ["x", "y", "z"]
    assert all(v == {"phi": 0.0, "delta": 1.0} for v in dm["phi_delta"]["systems"]["z"].values())  # gold itself
    assert "phi_delta" not in json.loads(to_json(clfeval.compare(gold > 0, rng.random(400), rng.random(400),
                                                                 metric="roc_auc", positive=True, samples=50)))


def test_clustered_points_get_a_zoomed_panel_and_labels_apart():
    rng = np.random.default_rng(9)
    gold = rng.integers(0, 6, 3000)
    pred = np.where(rng.random(3000) < 0.7, gold, rng.integers(0, 6, 3000))  # six classes close together
    fig = plots.phi_delta(clfeval.report(gold, pred))
    assert len(fig.axes) == 2
    main, zoom = fig.axes
    (box,) = [p for p in main.patches if p.get_gid() == "zoomed-region"]
    pts = zoom.collections[0].get_offsets()
    (x0, x1), (y0, y1) = zoom.get_xlim(), zoom.get_ylim()
    assert np.all((pts[:, 0] > x0) & (pts[:, 0] < x1) & (pts[:, 1] > y0) & (pts[:, 1] < y1))
    assert np.isclose(box.get_x(), x0) and np.isclose(box.get_width(), x1 - x0)
    assert sorted(t.get_text() for t in zoom.texts) == [str(k) for k in range(6)]  # named where there is room
    spread = plots.phi_delta(clfeval.report(list("aaabbc"), list("aabbcc")))
    assert len(spread.axes) == 1


def test_point_labels_are_placed_apart():
    with _mpl.rc():
        fig, ax = _mpl.figure(4, 4)
        ax.set_xlim(-1, 1)
        ax.set_ylim(-1, 1)
        xs, ys = [0, 0.02, 0, 0.02, 0.5], [0, 0, 0.02, 0.02, 0.5]  # four points almost on top of each other
        ax.scatter(xs, ys)
        texts = _mpl.place_labels(fig, ax, xs, ys, ["first", "second", "third", "fourth", "alone"],
                                  others=list(zip(xs, ys, strict=True)))
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in texts]
    for i in range(len(boxes)):
        for j in range(i):
            assert not boxes[i].overlaps(boxes[j]), (texts[i].get_text(), texts[j].get_text())
    assert texts[-1].xyann == (4, 3)  # a point with room gets the first spot, beside it


def test_label_thresholds_figure_marks_each_labels_three_f1s_and_cuts():
    rng = np.random.default_rng(10)
    labels = ["grain", "wheat", "corn"]
    sets = [[x for x in labels if rng.random() < 0.4] for _ in range(300)]
    dev = [[x for x in labels if rng.random() < 0.4] for _ in range(200)]
    s = {x: np.array([rng.random() + 0.6 * (x in t) for t in sets]) for x in labels}
    sd = {x: np.array([rng.random() + 0.6 * (x in t) for t in dev]) for x in labels}
    r = clfeval.choose_label_thresholds(["|".join(t) for t in sets], s, dev_gold=["|".join(t) for t in dev],
                                        dev_scores=sd)
    d = json.loads(to_json(r))
    fig = plots.threshold(d)  # a multi-label choice is drawn as one row per label
    ax = fig.axes[0]
    marks = {c.get_gid(): c.get_offsets() for c in ax.collections}
    for key, part in (("tuning-default", "default"), ("tuning-tuned", "test"), ("tuning-hindsight", "hindsight")):
        want = [d["per_label"][x][part]["f1"] for x in d["labels"]]
        assert np.allclose(marks[key][:, 0], want)
        assert np.allclose(marks[key][:, 1], range(len(labels)))
    cuts = {t.get_gid(): t.get_text() for t in ax.texts}
    for i, x in enumerate(d["labels"]):
        e = d["per_label"][x]
        assert cuts[f"threshold-{i}"] == (f"{e['default']['threshold']:.3g} → {e['threshold']:.3g} "
                                          f"(hindsight {e['hindsight']['threshold']:.3g})")
