"""A slice requirement on a metric the slices lack says what gives it, and never a fix that is refused in turn
(issue 35, G25 and G28: `min_slice(roc_auc)` without scores and `min_slice(recall:nope)` both said "add
--slice-metric METRIC", which is refused for a ranking metric and for a class the data lacks)."""

from __future__ import annotations

import pytest

import clfeval
from clfeval.errors import UsageError
from clfeval.evaluate._requirements import check_requirements
from tests._helpers.clihelp import run

# 40 items in two sources; 20 positives
GOLD = ["pos", "neg"] * 20
PRED = ["pos", "neg", "neg", "neg"] * 10
SCORE = [0.9, 0.2, 0.4, 0.1] * 10
SRC = ["a"] * 20 + ["b"] * 20


def _report(score: bool = False, **kw):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"gold": GOLD, "pred": PRED, "score": SCORE, "src": SRC})
    return clfeval.report(frame, by="src", positive="pos", min_slice=5, slice_samples=20,
                          score="score" if score else None, **kw)


def _refusal(rep, condition: str) -> str:
    with pytest.raises(UsageError) as info:
        check_requirements(rep, [condition])
    return str(info.value)


def test_a_class_the_data_lacks_is_named_with_the_classes():
    msg = _refusal(_report(), "min_slice(recall:nope)>=0.5")
    assert "names the class 'nope', which the data does not have; its classes are: neg, pos." in msg
    assert "slice_metrics" not in msg


def test_a_ranking_metric_asks_for_a_score_column_and_the_fix_works():
    msg = _refusal(_report(), "min_slice(roc_auc)>=0.5")
    assert "give the score column with score (and the positive class with positive)" in msg
    assert "slice_metrics" not in msg
    got = check_requirements(_report(score=True), ["min_slice(roc_auc)>=0.5"]).conditions[0]
    assert got["value"] == 1.0  # each source: positives scored 0.9 and 0.4, negatives 0.2 and 0.1


def test_a_count_metric_not_shown_asks_for_it_and_the_fix_works():
    msg = _refusal(_report(), "min_slice(npv:pos)>=0.5")
    assert msg.endswith("add slice_metrics npv:pos.")
    got = check_requirements(_report(slice_metrics=["npv:pos"]), ["min_slice(npv:pos)>=0.5"]).conditions[0]
    assert got["value"] == pytest.approx(10 / 15)  # each source: TN 10, FN 5


def test_a_metric_slices_never_have_gets_no_fix_that_fails():
    for metric, words in [("partial_roc_auc", "of the ranking metrics, the slices have roc_auc and average_precision"),
                          ("hamming_loss", "hamming_loss is not a metric of the slices' count tables")]:
        msg = _refusal(_report(score=True), f"min_slice({metric})>=0.5")
        assert words in msg and "add " not in msg and "give " not in msg


@pytest.mark.parametrize("condition, words, never", [
    ("min_slice(roc_auc)>=0.5", "give the score column with --score (and the positive class with --positive)",
     "--slice-metric roc_auc"),
    ("min_slice(recall:nope)>=0.5", "names the class 'nope', which the data does not have",
     "--slice-metric recall:nope"),
    ("min_slice(npv:pos)>=0.5", "add --slice-metric npv:pos.", None),
])
def test_the_command_names_its_options(tmp_path, condition, words, never):
    f = tmp_path / "sl.csv"
    f.write_text("gold,pred,src\n" + "".join(f"{g},{p},{s}\n" for g, p, s in zip(GOLD, PRED, SRC, strict=True)))
    res = run("report", f, "--by", "src", "--positive", "pos", "--require", condition)
    assert res.code == 2 and res.out == "" and words in res.err, res.err
    assert never is None or never not in res.err
