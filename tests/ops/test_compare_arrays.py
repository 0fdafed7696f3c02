"""compare with arrays takes one route per question whatever the engine (issue 38): the systems are named A, B,
C, … in memory and streamed alike; arrays of scores are ranked in memory (paired resampling of rankings, DeLong);
``score_bins`` is the binned comparison of the score columns, never silently dropped."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import clfeval
from clfeval.errors import UsageError
from tests.ops._capability_cases import plain as _plain  # the JSON apart from where it ran

N = 400
RNG = np.random.default_rng(7)
GOLD = np.where(RNG.random(N) < 0.5, "dog", "cat")
PREDS = [np.where(RNG.random(N) < r, GOLD, np.where(GOLD == "dog", "cat", "dog")) for r in (0.8, 0.7, 0.6)]
SCORES = [np.round(np.clip((GOLD == "dog") * s + RNG.random(N) * (1 - s), 0, 1), 3) for s in (0.4, 0.2)]
SMALL = clfeval.Local(memory=4096)  # every table of these arrays beyond it: the streamed route


def test_three_arrays_are_a_b_c_in_memory_and_streamed_and_the_baseline_is_found_by_that_name():
    runs = [clfeval.compare(GOLD, *PREDS, baseline="C", samples=50, engine=e) for e in (clfeval.Local(), SMALL)]
    assert [r.engine.mode for r in runs] == ["memory", "streamed"]
    for r in runs:
        assert r.names == ("A", "B", "C") and [c.names for c in r.comparisons] == [("A", "C"), ("B", "C")]
    assert _plain(runs[0]) == _plain(runs[1])


@pytest.mark.parametrize("options", [{"metric": "roc_auc"}, {"metric": "roc_auc", "test": "delong"},
                                     {"metric": "roc_auc", "test": "delong", "alternative": "two-sided"}])
def test_arrays_of_scores_are_ranked_in_memory_on_any_budget(options):
    runs = [clfeval.compare(GOLD, *SCORES, positive="dog", samples=50, engine=e, **options)
            for e in (clfeval.Local(), SMALL)]
    assert [r.engine.mode for r in runs] == ["memory", "memory"]
    auc = runs[0].delong.auc_a if runs[0].kind == "delong" else runs[0].a
    assert auc == pytest.approx(roc_auc_score(GOLD == "dog", SCORES[0]))  # exact, an independent oracle
    assert _plain(runs[0]) == _plain(runs[1])


def test_arrays_with_score_bins_are_the_binned_comparison_of_their_score_columns():
    frames = [pd.DataFrame({"id": np.arange(N), "gold": GOLD, "prob": s}) for s in SCORES]
    want = clfeval.compare(*frames, id="id", score="prob", metric="roc_auc", positive="dog", score_bins=16,
                           samples=50)  # the same data as two tables
    for e in (clfeval.Local(), SMALL):
        r = clfeval.compare(GOLD, *SCORES, metric="roc_auc", positive="dog", score_bins=16, samples=50, engine=e)
        assert r.signature["score_bins"] == [16, 16]
        assert r.names == ("A", "B")
        assert r.a == want.a and r.b == want.b and r.p_value == want.p_value
        assert r.a != roc_auc_score(GOLD == "dog", SCORES[0])  # binned, not the exact ROC-AUC


def test_score_bins_with_arrays_of_predictions_is_refused_not_ignored():
    with pytest.raises(UsageError, match="score_bins compares binned ROC-AUCs"):
        clfeval.compare(GOLD, PREDS[0], PREDS[1], score_bins=16, samples=50)
