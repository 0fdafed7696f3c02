"""Issue 39: a group fairness measure is named in one place, the registry ``clfeval.core.FAIRNESS``; the
computation, the JSON, the ``require=`` functions, the text and the slices guide read it. Oracle for the rule:
hand-computed differences and ratios of hand-made rates."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.core import FAIRNESS, FUNCTIONS
from clfeval.render import render
from clfeval.slicing._fairness import fairness, measures
from tests._helpers.slicedata import planted

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "slices.md"


def test_the_rule_of_each_entry_by_hand():
    rates = {"selection_rate": np.array([0.2, 0.4, np.nan]), "tpr": np.array([0.5, 0.8, 0.6]),
             "fpr": np.array([0.1, 0.3, 0.2])}
    got = {k: float(v) for k, v in measures(rates).items()}
    assert got == pytest.approx({
        "demographic_parity_difference": 0.2, "demographic_parity_ratio": 0.5,
        "equalized_odds_difference": 0.3, "equalized_odds_ratio": 0.1 / 0.3,
        "equal_opportunity_difference": 0.3, "equal_opportunity_ratio": 0.5 / 0.8}, abs=1e-12)
    assert list(got) == list(FAIRNESS)


def test_json_requirements_and_text_read_the_registry():
    rep = clfeval.report(planted(2_000), by="source", positive="pos", ci=0.9, samples=50, slice_samples=10)
    fair = rep.to_dict()["slices"]["fairness"]
    assert list(fair["measures"]) == list(fair["ci"]) == list(FAIRNESS)
    for m in FAIRNESS.values():
        f = FUNCTIONS[m.name]
        assert (f.higher_is_better, f.doc) == (m.higher_is_better, f"{m.definition} (--by, --positive)")
        assert clfeval.report(planted(2_000), by="source", positive="pos", slice_samples=10,
                              require=[f"{m.name}<=2"]).requirements.met
    text = render(rep, width=400)
    for m in FAIRNESS.values():
        assert f"{m.name.replace('_', ' ')}: {m.formula}" in text


def test_the_guide_table_is_the_registry():
    rows = re.findall(r"^\| `(\w+)` \| (.+?) \| (yes|no) \| (.+?) \|$", GUIDE.read_text(encoding="utf-8"), re.M)
    assert rows == [(m.name, m.formula, "yes" if m.higher_is_better else "no", m.definition)
                    for m in FAIRNESS.values()]


def test_group_draws_are_the_table_bootstrap_group_by_group():
    """Each group's table is redrawn from its own cells, group by group from one stream: the intervals equal
    draw_tables run in that order on a generator of the same seed (an empty group stays empty)."""
    from clfeval.stats import draw_tables

    counts = np.array([[[30, 5], [8, 20]], [[0, 0], [0, 0]], [[12, 9], [3, 25]]])
    out = fairness(counts, 1, ci=0.9, samples=200, rng=np.random.default_rng(3))
    rng = np.random.default_rng(3)
    draws = np.stack([draw_tables(t, 200, rng) for t in counts], axis=1)
    from clfeval.slicing._fairness import group_rates

    reps = measures(group_rates(draws, 1))
    for name, v in reps.items():
        assert out["ci"][name] == pytest.approx([np.nanquantile(v, 0.05), np.nanquantile(v, 0.95)], abs=1e-12)
