"""``Report.from_dict`` is the inverse of ``Report.to_dict`` (issue 36: figures read a report's JSON through the
typed report): on every registry case and on hand-made reports, through the JSON text (NaN kept) and through the
command line's JSON (NaN written as null), the rebuilt report lays out the same JSON; a dict that is not a report's
JSON is refused with a sentence naming what is missing."""

from __future__ import annotations

import json
import math

import pytest

import clfeval
from clfeval.errors import UsageError
from clfeval.ops.report import ClassRow, FoundSlices, Report, SlicesPart
from tests._helpers.readonly import writable_places
from tests._helpers.registry import CASES, frame, masked, write_inputs

NAMES = sorted(n for n in CASES if n.startswith("report/"))


def nulled(x):
    """The JSON as the command line writes it: NaN and infinities as null."""
    if isinstance(x, dict):
        return {k: nulled(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [nulled(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def check_round_trip(r: Report) -> Report:
    d = r.to_dict()
    back = Report.from_dict(json.loads(json.dumps(d)))
    assert type(back) is Report
    assert masked(back.to_dict()) == masked(d)
    cli = nulled(masked(d))
    from_cli = Report.from_dict(cli)
    assert nulled(masked(from_cli.to_dict())) == cli
    assert Report.from_dict(from_cli.to_dict()).to_dict().keys() == d.keys()
    assert writable_places(back) == []
    assert back.table is None
    return back


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("report-from-dict")
    write_inputs(root)
    return {name: CASES[name](root) for name in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_each_registry_case_comes_back_from_its_json(results, name):
    r = results[name]
    back = check_round_trip(r)
    assert list(back.per_class) == list(r.per_class.as_text())
    assert all(isinstance(row, ClassRow) for row in back.per_class.values())
    for key in ("ci", "ranking", "ranking_ci", "slices", "find_slices", "requirements", "engine"):
        assert (getattr(back, key) is None) == (getattr(r, key) is None), key


def test_hand_made_reports_come_back():
    gold, pred = ["a", "b", "b", "c", "a", "c"], ["a", "b", "a", "c", "c", "c"]
    check_round_trip(clfeval.report(gold, pred))
    binary = check_round_trip(clfeval.report(gold, pred, positive="b", ci=0.9, samples=100, seed=3))
    assert binary.binary is not None and binary.binary.positive == "b" and binary.ci is not None
    check_round_trip(clfeval.report([1, 2, 2, 1], [1, 2, 1, 1]))
    ml = check_round_trip(clfeval.report(["x|y", "y", "x", ""], ["x", "y", "x|y", "y"], multilabel=True))
    assert ml.kind == "multilabel" and ml.hamming_loss is not None and ml.confusion_matrix is None
    df = frame()
    by = check_round_trip(clfeval.report(df, by="grp", positive="dog", slice_samples=20, seed=1))
    assert isinstance(by.slices, SlicesPart) and by.slices.slices[0].slice
    found = check_round_trip(clfeval.report(df, find_slices=["grp"], positive="dog"))
    assert isinstance(found.find_slices, FoundSlices)
    req = check_round_trip(clfeval.report(df, require=["macro_f1>=0.5", "accuracy>majority"]))
    assert req.requirements is not None and len(req.requirements.conditions) == 2
    scored = check_round_trip(clfeval.report(df, score="score", positive="dog", ci=0.9, samples=50, seed=2))
    assert scored.ranking is not None and scored.ranking.curves and scored.ranking_ci is not None
    assert scored.ranking.roc_auc == clfeval.report(df, score="score", positive="dog").ranking.roc_auc


def test_the_rebuilt_report_reads_like_the_report():
    r = clfeval.report(["a", "b", "b", "c"], ["a", "b", "a", "c"])
    back = Report.from_dict(r.to_dict())
    assert back.metric("macro_f1") == r.metric("macro_f1")
    assert back.per_class["b"].recall == r.per_class["b"].recall
    assert back.hardest_class == r.hardest_class
    assert back.most_confused_pair == r.most_confused_pair


@pytest.mark.parametrize("bad, says", [
    ({}, "no 'kind'"),
    ({"result": "rank", "score": "accuracy"}, "no 'kind', 'n', 'labels'"),
    ({"kind": "multiclass", "n": 3}, "no 'labels', 'per_class'"),
])
def test_a_dict_that_is_not_a_report_is_refused(bad, says):
    with pytest.raises(UsageError, match="not a report's JSON") as e:
        Report.from_dict(bad)
    assert says in str(e.value)


def test_a_report_json_with_a_broken_part_is_refused():
    d = clfeval.report(["a", "b"], ["a", "a"]).to_dict()
    d["macro"] = {"precision": 1.0, "nonsense": 2}
    with pytest.raises(UsageError, match="not a report's JSON.*nonsense"):
        Report.from_dict(d)
    with pytest.raises(UsageError, match="mapping"):
        Report.from_dict([1, 2])  # type: ignore[arg-type]
