"""Notebook-native results (issue 23): the report's card, figures in the caller's axes, tables as DataFrames."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import clfeval

pytest.importorskip("matplotlib")
pytest.importorskip("jinja2")

ROOT = Path(__file__).resolve().parents[2]


def ten_classes(n: int = 1000, k: int = 10, seed: int = 0):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, k, n))
    labels = np.array([f"class{i}" for i in range(k)])
    return labels[gold], labels[pred]


def test_the_card_of_a_ten_class_report_of_1000_items_is_within_20_kb():
    rep = clfeval.report(*ten_classes())
    card = rep._repr_html_()
    page = rep.to_html()
    assert len(card.encode("utf-8")) <= 20_000, len(card.encode("utf-8"))
    assert len(card.encode("utf-8")) < len(page.encode("utf-8")) / 4
    assert card.startswith('<div class="clfeval">') and "<svg" not in card and "<figure" not in card
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") >= 3  # the page keeps its figures


def test_the_card_holds_summary_matrix_and_per_class_table():
    gold = ["a"] * 5 + ["b"] * 3 + ["c"] * 2
    pred = ["a", "a", "a", "b", "c", "b", "b", "a", "c", "c"]
    card = clfeval.report(gold, pred)._repr_html_()
    assert "Summary" in card and "accuracy" in card and "0.7000" in card  # 7 of 10 on the diagonal
    tables = re.findall(r"<table class=\"sortable\">(.*?)</table>", card, re.S)
    assert len(tables) == 2
    matrix, per_class = tables
    rows = [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", r) for r in re.findall(r"<tr>(.*?)</tr>", matrix, re.S)]
    assert rows[0] == ["gold \\ pred", "a", "b", "c", "total"]
    assert rows[1] == ["a", "3", "1", "1", "5"] and rows[2] == ["b", "1", "2", "0", "3"]
    assert rows[3] == ["c", "0", "0", "2", "2"] and rows[4] == ["(predicted total)", "4", "3", "3", "10"]
    body = [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", r) for r in re.findall(r"<tr>(.*?)</tr>", per_class, re.S)]
    # a: precision 3/4, recall 3/5, F1 2·3/(2·3+1+2) = 6/9
    assert body[1] == ["a", "5", "0.7500", "0.6000", "0.6667"]
    assert "to_html()" in card and "Signature" not in card and "Glossary" not in card


def test_the_card_follows_the_many_classes_rule():
    k = 60
    gold = np.repeat([f"c{i:02d}" for i in range(k)], np.arange(k, 0, -1) + 5)  # c00 largest, c59 smallest
    pred = gold.copy()
    pred[::7] = "c00"
    card = clfeval.report(gold, pred)._repr_html_()
    matrix, per_class = re.findall(r"<table class=\"sortable\">(.*?)</table>", card, re.S)
    assert matrix.count("<tr>") == 1 + 20  # the figure's classes: the 20 largest
    assert per_class.count("<tr>") == 1 + 30  # the table's: the 20 largest and the 10 hardest
    assert "20 of 60 classes shown" in card and "30 of 60 classes shown" in card


def test_figures_go_into_the_callers_grid():
    from matplotlib.figure import Figure

    g = np.array(["spam", "ham"] * 50)
    s = np.linspace(0, 1, 100)
    rep = clfeval.report(g, np.where(s > 0.5, "spam", "ham"), positive="spam", scores=s)
    fig = Figure(figsize=(9, 4))
    left, right = fig.subplots(1, 2)
    assert clfeval.plots.roc(rep, ax=left) is fig
    assert clfeval.plots.confusion_matrix(rep, ax=right) is fig
    assert len(fig.axes) >= 2 and left in fig.axes and right in fig.axes
    assert left.get_xlabel() and left.lines  # the ROC curve and the chance line are drawn in the left cell
    assert right.images or right.collections  # the heat map in the right cell
    cal = clfeval.reliability(g, s, positive="spam")
    fig2 = Figure(figsize=(9, 4))
    a, b = fig2.subplots(1, 2)
    assert clfeval.plots.reliability(cal, ax=b) is fig2  # two panels in the caller's one cell
    assert a in fig2.axes and b not in fig2.axes and len(fig2.axes) == 3
    fig2.canvas.draw() if fig2.canvas is not None else None


def test_every_figure_function_takes_ax():
    import inspect

    from clfeval import plots

    for name, fn in plots.KINDS.items():
        assert "ax" in inspect.signature(fn).parameters, name
    for name in ("top_confusions", "label_thresholds"):
        assert "ax" in inspect.signature(getattr(plots, name)).parameters, name


def test_to_frame_of_a_report_is_its_per_class_table():
    pd = pytest.importorskip("pandas")
    gold = ["a"] * 5 + ["b"] * 3 + ["c"] * 2
    pred = ["a", "a", "a", "b", "c", "b", "b", "a", "c", "c"]
    frame = clfeval.report(gold, pred).to_frame()
    assert isinstance(frame, pd.DataFrame) and list(frame.index) == ["a", "b", "c"] and frame.index.name == "class"
    assert frame.loc["a", "tp"] == 3 and frame.loc["a", "fp"] == 1 and frame.loc["a", "fn"] == 2
    assert frame.loc["b", "precision"] == pytest.approx(2 / 3) and frame.loc["c", "recall"] == 1.0


def test_to_frame_of_bins_and_pairs():
    pytest.importorskip("pandas")
    g = ["spam", "ham"] * 50
    s = np.linspace(0, 1, 100)
    bins = clfeval.reliability(g, s, positive="spam", bins=10).to_frame()
    assert len(bins) == 10 and bins["count"].sum() == 100 and list(bins.columns[:2]) == ["lower", "upper"]
    gold = ["a", "b", "c"] * 20
    many = clfeval.compare_many(gold, {"x": ["a", "c", "c"] * 20, "y": gold, "z": ["a", "b", "b"] * 20},
                                samples=200, seed=0).to_frame()
    assert len(many) == 3 and {"system_a", "system_b", "delta", "p_value", "p_adjusted"} <= set(many.columns)
    pair = clfeval.compare(gold, ["a", "c", "c"] * 20, gold, samples=100).to_frame()
    assert len(pair) == 1 and pair["value_b"].iloc[0] == 1.0


def test_to_frame_without_pandas_names_the_extra():
    code = ("import sys\nclass NoPandas:\n    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] == 'pandas':\n            raise ModuleNotFoundError(name)\n"
            "sys.meta_path.insert(0, NoPandas())\nimport clfeval\n"
            "try:\n    clfeval.report(['a', 'b'], ['a', 'a']).to_frame()\n"
            "except clfeval.UsageError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert "to_frame() needs pandas" in out.stdout and "clfeval[frame]" in out.stdout, out.stdout + out.stderr
