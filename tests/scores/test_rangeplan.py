"""The one range planner of exact rankings beyond memory (core/_rangeplan.py), and that it lives once."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from clfeval.core._rangeplan import choose_cuts, exact_candidates, range_offsets, run_bounds, sampled_candidates

SRC = Path(__file__).resolve().parents[2] / "src" / "clfeval"


def test_choose_cuts_by_hand():
    cand = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    below = np.array([0, 2, 4, 6, 8])
    # cap 3: the range up to 3.0 would hold 4 items -> cut at 2.0 (2 items), then 3.0 (2), then 4.0 (2)
    assert choose_cuts(cand, below, 3).tolist() == [2.0, 3.0, 4.0]
    assert choose_cuts(cand, below, 4).tolist() == [3.0]
    assert choose_cuts(cand, below, 3, ranges=2).tolist() == [2.0]
    assert choose_cuts(cand, below, 3, ranges=1).size == 0
    assert choose_cuts(cand, below, 100).size == 0


def test_candidates_by_hand():
    runs = [np.array([1.0, 2.0, 2.0, 5.0]), np.array([2.0, 3.0])]
    cand, below = exact_candidates([r[::2] for r in runs],
                                   lambda v: sum(np.searchsorted(r, v, side="left") for r in runs))
    assert cand.tolist() == [1.0, 2.0] and below.tolist() == [0, 1]
    # two samples: 1.0 and 3.0 stand for 4 entries (2 each), 2.0 for one
    cand, below = sampled_candidates([(np.array([1.0, 3.0]), 4), (np.array([2.0]), 1), (np.empty(0), 0)])
    assert cand.tolist() == [1.0, 2.0, 3.0] and below.tolist() == [0.0, 2.0, 3.0]
    assert sampled_candidates([]).__len__() == 2 and sampled_candidates([])[0].size == 0


def test_bounds_and_offsets_by_hand():
    assert run_bounds(np.array([2]), 5, 3).tolist() == [0, 2, 5, 5]
    off = range_offsets([np.array([[1, 0], [2, 0]]), np.array([[0, 3], [0, 1]])])
    assert off.below.tolist() == [[0, 0], [1, 3]] and (off.P, off.N) == (3, 4)
    empty = range_offsets([])
    assert empty.below.tolist() == [[0, 0]] and (empty.P, empty.N) == (0, 0)


def cut_choosers(source: str) -> list[str]:
    """Functions of a module that choose cut points themselves: named so, or growing a list of cuts in a loop."""
    out = []
    for f in ast.walk(ast.parse(source)):
        if not isinstance(f, ast.FunctionDef):
            continue
        if "choose_cuts" in f.name:
            out.append(f.name)
            continue
        for node in ast.walk(f):
            if (isinstance(node, ast.For) and any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                                                  and c.func.attr == "append" and isinstance(c.func.value, ast.Name)
                                                  and "cut" in c.func.value.id for c in ast.walk(node))):
                out.append(f.name)
                break
    return out


def test_the_cut_choice_lives_once():
    """The local external ranking and the Dask ranking call the planner and choose no cut of their own."""
    text = (SRC / "scores/_external.py").read_text()
    assert not cut_choosers(text)
    assert "choose_cuts(" in text and "range_offsets(" in text and "run_bounds(" in text
    # on Dask: the generic range runner cuts (and knows no ranking), the ranking's runs bound and offset
    runner, runs = (SRC / "engines/dask/_ranges.py").read_text(), (SRC / "scores/_rankruns.py").read_text()
    assert not cut_choosers(runner) and not cut_choosers(runs)
    assert "choose_cuts(" in runner and "range_offsets(" in runs and "run_bounds(" in runs
    assert "rankruns" not in runner and "RankingSummary" not in runner
    # (protocols/_runner.py's _choose_cuts chooses decision thresholds per fold, not ranges)
    owners = [str(p.relative_to(SRC)) for d in ("core", "scores", "engines", "front")
              for p in sorted((SRC / d).rglob("*.py")) if cut_choosers(p.read_text())]
    assert owners == ["core/_rangeplan.py"]


def test_the_cut_choice_check_can_fail():
    probe = ("def _choose_cuts(s, r):\n    return s\n"
             "def plan(cand, below, cap):\n    cuts = []\n    for i in range(3):\n        cuts.append(cand[i])\n")
    assert cut_choosers(probe) == ["_choose_cuts", "plan"]
