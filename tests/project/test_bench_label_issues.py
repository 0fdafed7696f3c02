"""bench/label_issues.py's own parts at a small size (issue 41): the flip planting, the precision / recall / F1
of a flagged set, the synthetic generator; and the cleanlab half on a small synthetic set (skipped without
cleanlab, the ``bench`` extra). Expectations are counted by hand here, not copied from the bench's output."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():  # noqa: ANN201 (the bench module)
    spec = importlib.util.spec_from_file_location("label_issues_bench", ROOT / "bench" / "label_issues.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


R8 = ["acq", "crude", "earn", "grain", "interest", "money-fx", "ship", "trade"]


def r8_like(per_class: int) -> list[str]:
    return [c for c in R8 for _ in range(per_class)]


def test_the_shares_of_a_whole_number(bench):
    # 1000 items: 30 flips; 60 % = 18 directed = 3 along each of the 6 directions; 12 uniform
    assert bench.direction_counts(1000) == ([3, 3, 3, 3, 3, 3], 12)


def test_a_share_that_is_not_whole_is_floored_and_the_rest_goes_to_the_first_directions(bench):
    # 700 items: 0.03 · 700 = 21 flips; 0.6 · 21 = 12.6 → 13 directed; 13 = 6 · 2 + 1: the first direction 3
    assert bench.direction_counts(700) == ([3, 2, 2, 2, 2, 2], 8)
    # 1500 items: 45 flips; 0.6 · 45 = 27 directed (27 = 6 · 4 + 3); 18 uniform
    assert bench.direction_counts(1500) == ([5, 5, 5, 4, 4, 4], 18)
    # half up, not to even: 0.03 · 50 = 1.5 → 2 flips; 0.6 · 2 = 1.2 → 1 directed
    assert bench.direction_counts(50) == ([1, 0, 0, 0, 0, 0], 1)


def test_the_planted_flips_go_where_the_directions_say(bench):
    given = r8_like(125)  # 1000 items: 3 per direction, 12 uniform
    noisy, planted, kind = bench.plant_flips(given, R8, seed=0)
    changed = [i for i, (a, b) in enumerate(zip(given, noisy, strict=True)) if a != b]
    assert changed == list(planted) and len(changed) == 30
    directed = [("interest", "money-fx"), ("money-fx", "interest"), ("grain", "trade"), ("acq", "earn"),
                ("earn", "acq"), ("crude", "ship")]
    counts = {d: int(np.sum(kind == d)) for d in range(-1, 6)}
    assert counts == {-1: 12, 0: 3, 1: 3, 2: 3, 3: 3, 4: 3, 5: 3}
    for row, d in zip(planted, kind, strict=True):
        if d >= 0:
            assert (given[row], noisy[row]) == directed[d]
        else:
            assert noisy[row] in R8 and noisy[row] != given[row]
    # the seed fixes it; another seed draws other rows
    again = bench.plant_flips(given, R8, seed=0)
    assert again[0] == noisy and np.array_equal(again[1], planted) and np.array_equal(again[2], kind)
    assert not np.array_equal(bench.plant_flips(given, R8, seed=1)[1], planted)


def test_the_uniform_flips_spread_over_the_other_classes(bench):
    """No directions: all 960 flips of 32,000 items uniform; those of 'acq' reach each of the 7 other classes."""
    given = ["acq"] * 4000 + [c for c in R8[1:] for _ in range(4000)]  # 32,000 items: 960 flips
    noisy, planted, kind = bench.plant_flips(given, R8, seed=0, directions=())
    assert len(planted) == 960 and np.all(kind == -1)
    to = [noisy[r] for r in planted if given[r] == "acq"]
    assert set(to) <= set(R8[1:]) and len(set(to)) == 7


def test_a_direction_without_enough_items_is_refused(bench):
    given = ["acq"] * 995 + ["earn"] * 5  # 3 interest→money-fx asked, no item is given interest
    with pytest.raises(ValueError, match="interest"):
        bench.plant_flips(given, R8, seed=0)


def test_precision_recall_f1_against_hand_sets(bench):
    # flagged {1, 2, 3, 4}, planted {3, 4, 5}: 2 hits; P = 2/4, R = 2/3, F1 = 2·(1/2)(2/3)/(1/2 + 2/3) = 4/7
    p, r, f = bench.prf([1, 2, 3, 4], np.array([5, 4, 3]))
    assert (p, r) == (0.5, pytest.approx(2 / 3)) and f == pytest.approx(4 / 7)
    assert bench.prf([], [1, 2]) == (0.0, 0.0, 0.0)
    assert bench.prf([7], [1, 2]) == (0.0, 0.0, 0.0)
    assert bench.prf([1, 2], [1, 2]) == (1.0, 1.0, 1.0)


def test_the_synthetic_generator(bench):
    d = bench.make_synthetic(2000, k=10, seed=0)
    assert d["probs"].shape == (2000, 10) and d["probs"].dtype == np.float64
    assert d["given"].shape == d["true"].shape == (2000,)
    np.testing.assert_allclose(d["probs"].sum(axis=1), 1.0, rtol=0, atol=1e-12)
    flipped = np.flatnonzero(d["given"] != d["true"])
    # 0.03 · 2000 = 60 flips, 0.7 · 60 = 42 of them to the next class, 18 to another class
    assert list(flipped) == list(d["flipped"]) and len(flipped) == 60
    nxt = int(np.sum(d["given"][flipped] == (d["true"][flipped] + 1) % 10))
    assert 42 <= nxt <= 60  # a uniform flip may land on the next class too (1 in 9)
    # the true class carries +3.5: it is the most probable class for most items
    assert np.mean(d["probs"].argmax(axis=1) == d["true"]) > 0.8
    assert np.array_equal(bench.make_synthetic(2000, seed=0)["given"], d["given"])


def test_the_cleanlab_half_on_a_small_set(bench):
    pytest.importorskip("cleanlab", reason="cleanlab is in the bench extra only (AGPL: raced, never a dependency)")
    d = bench.make_synthetic(3000, k=5, seed=2)
    theirs = bench.cleanlab_rows(d["probs"], d["given"])
    ours = bench.clfeval_rows(d["probs"], d["given"], list(range(5)))
    assert theirs.dtype.kind == "i" and np.all(np.diff(theirs) > 0)
    assert bench.prf(ours, d["flipped"])[2] > 0.5 and bench.prf(theirs, d["flipped"])[2] > 0.5
