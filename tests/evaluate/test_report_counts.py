"""ReportCounts, the count report as an accumulator (issue 38): any split of the items, merged in any order,
gives the table of all of them (scikit-learn's confusion matrix the oracle); the first misclassified items keep
input order across a merge; it travels pickled as its table."""

from __future__ import annotations

import json
import pickle
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import confusion_matrix

from clfeval.errors import LabelListError, UsageError
from clfeval.evaluate import ReportCounts

pytestmark = pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")  # sklearn, one class


def _batch(gold, pred, ids=None):
    return SimpleNamespace(gold=pa.chunked_array([pa.array(gold)]), pred=pa.chunked_array([pa.array(pred)]),
                           ids=None if ids is None else pa.array(ids), text=False, n=len(gold))


def _counted(gold, pred, cuts, **kw):
    parts = []
    for lo, hi in zip([0, *cuts], [*cuts, len(gold)], strict=True):
        acc = ReportCounts(**kw)
        acc.update(_batch(gold[lo:hi], pred[lo:hi]))
        parts.append(acc)
    return parts


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcd"), st.sampled_from("abcde")), min_size=1, max_size=60),
       st.data())
def test_any_split_merged_in_any_tree_is_the_table_of_all_items(pairs, data):
    gold, pred = [g for g, _ in pairs], [p for _, p in pairs]
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(gold) - 1)), max_size=4)) - {len(gold)})
    parts = _counted(gold, pred, cuts)
    while len(parts) > 1:  # merge a random neighbouring pair (a tree of any shape, order kept)
        i = data.draw(st.integers(0, len(parts) - 2))
        parts[i:i + 2] = [parts[i] + parts[i + 1]]
    table = parts[0].table()
    labels = sorted(set(gold) | set(pred))
    assert list(table.labels) == labels
    np.testing.assert_array_equal(np.asarray(table.counts), confusion_matrix(gold, pred, labels=labels))


def test_a_merged_accumulator_finishes_to_the_report_of_one_stream():
    rng = np.random.default_rng(3)
    gold = rng.choice(["x", "y", "z"], 500).tolist()
    pred = [g if rng.random() < 0.7 else "y" for g in gold]
    one = ReportCounts()
    one.update(_batch(gold, pred))
    a, b = _counted(gold, pred, [180])
    merged, whole = (a + b).finish(), one.finish()
    assert json.dumps(merged.to_dict()["per_class"]) == json.dumps(whole.to_dict()["per_class"])  # NaN as NaN
    assert merged.accuracy == pytest.approx(np.mean(np.array(gold) == np.array(pred)), abs=0)


def test_the_first_misclassified_items_keep_input_order_across_a_merge():
    gold = ["a", "b", "a", "b", "a", "b"]
    pred = ["b", "b", "a", "a", "b", "a"]  # wrong at rows 0, 3, 4, 5
    a, b = ReportCounts(show_errors=3), ReportCounts(show_errors=3)
    a.update(_batch(gold[:2], pred[:2]))
    b.update(_batch(gold[2:], pred[2:]))
    errors = (a + b).errors.result()
    assert errors["total"] == 4
    assert [e["id"] for e in errors["items"]] == [0, 3, 4]  # rows counted on from the first part's two
    assert [(e["gold"], e["pred"]) for e in errors["items"]] == [("a", "b"), ("b", "a"), ("a", "b")]


def test_it_travels_pickled_as_its_table():
    acc = ReportCounts(order=["b", "a", "c"])
    acc.update(_batch(["a", "b", "a"], ["a", "a", "b"]))
    back = pickle.loads(pickle.dumps(acc))
    assert back.counter is None
    assert list(back.table().labels) == ["b", "a", "c"]
    np.testing.assert_array_equal(np.asarray(back.table().counts), [[0, 1, 0], [1, 1, 0], [0, 0, 0]])


def test_an_order_that_leaves_out_a_label_is_refused_naming_order_merged_or_not():
    a, b = _counted(["a", "b", "c"], ["a", "b", "c"], [1], order=["a", "b"])
    for acc in (a + b, ReportCounts(order=["a", "b"])):
        if acc.items == 0:
            acc.update(_batch(["a", "c"], ["a", "c"]))
        with pytest.raises(LabelListError) as err:
            acc.table()
        assert err.value.parameter == "order" and err.value.missing == ["c"]


def test_order_with_label_sets_is_refused_before_any_item():
    with pytest.raises(UsageError, match="single-label data"):
        ReportCounts(multilabel=True, order=["a"])
