"""Issue 35: every front-door operation checks its arguments up front (one validating function each) and refuses
bad input with a ClfevalError naming the argument: empty inputs, a column named twice, unordered containers
(sets, mappings), a Dask client that is not one; column arguments that are not text (a pandas label 0) map to the
column; a list of prediction columns makes one system each in ``compare``; inputs are named as the user gave them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import clfeval
from clfeval.errors import ClfevalError, DataError, UsageError

GOLD = ["a", "b", "a", "b", "a", "b", "b", "a"]
NB = ["a", "b", "a", "a", "a", "b", "b", "a"]  # 7 of 8 right
LR = ["a", "a", "b", "b", "a", "b", "a", "a"]  # 5 of 8 right
SVM = ["a", "a", "a", "a", "a", "a", "a", "a"]  # 4 of 8 right
SCORES = [0.9, 0.2, 0.8, 0.4, 0.7, 0.1, 0.3, 0.6]

OPS = {
    "report": lambda g, s: clfeval.report(g, s),
    "threshold": lambda g, s: clfeval.threshold(g, s, positive="a"),
    "calibration": lambda g, s: clfeval.calibration(g, s, positive="a"),
    "ranking": lambda g, s: clfeval.ranking(g, s, positive="a"),
}


@pytest.mark.parametrize("op", sorted(OPS))
def test_empty_arrays_are_refused_naming_the_argument(op):
    second = [] if op == "report" else np.array([], dtype=float)
    with pytest.raises(DataError, match=r"^gold has no items; expected at least one item\.$"):
        OPS[op]([], second)


def test_empty_compare_arrays_are_refused():
    with pytest.raises(DataError, match="gold has no items"):
        clfeval.compare([], [], [])


@pytest.mark.parametrize("kind", ["pandas", "polars", "pyarrow"])
def test_an_empty_table_is_refused_as_a_header_only_file_is(kind):
    frame = pd.DataFrame({"gold": pd.Series([], dtype=str), "pred": pd.Series([], dtype=str)})
    table = {"pandas": lambda: frame, "pyarrow": lambda: pa.Table.from_pandas(frame, preserve_index=False),
             "polars": lambda: pytest.importorskip("polars").from_pandas(frame)}[kind]()
    with pytest.raises(DataError, match=r"^the table has no rows; expected at least one item\.$"):
        clfeval.report(table, gold="gold", pred="pred")


def test_a_column_named_twice_is_refused_naming_it():
    frame = pd.DataFrame([["a", "a", "b"], ["b", "a", "a"]], columns=["gold", "pred", "pred"])
    with pytest.raises(DataError, match=r"the table names the column 'pred' twice \(columns 2 and 3\)"):
        clfeval.report(frame, gold="gold", pred="pred")
    arrow = pa.Table.from_arrays([pa.array(["a"]), pa.array(["a"]), pa.array(["b"])], names=["gold", "pred", "pred"])
    with pytest.raises(DataError, match="names the column 'pred' twice"):
        clfeval.ranking(arrow.drop_columns(["gold"]).append_column("gold", pa.array(["a"])), positive="a",
                        score="pred")
    # 0 and '0' are one name once the table is Arrow's: both shown
    with pytest.raises(DataError, match=r"names the column '0' twice \(columns 1 and 2: 0 and '0'\)"):
        clfeval.report(pd.DataFrame({0: ["a"], "0": ["a"], "pred": ["a"]}), gold=0)


@pytest.mark.parametrize("container", [set, frozenset, dict.fromkeys, lambda x: dict.fromkeys(x).keys(),
                                       lambda x: dict.fromkeys(x).values(), lambda x: {k: k for k in x}.items()],
                         ids=["set", "frozenset", "dict", "keys", "values", "items"])
@pytest.mark.parametrize("op", sorted(OPS))
def test_unordered_containers_are_refused_as_label_sequences(container, op):
    labels = container(["b", "a", "c"])
    second = ["c", "a", "b"] if op == "report" else [0.2, 0.5, 0.9]
    with pytest.raises(DataError, match=r"gold must be a sequence of labels \(list, tuple, numpy or pyarrow array\); "
                                        r"got \w+, whose items have no order"):
        OPS[op](labels, second)


def test_a_dict_of_labels_is_refused_as_a_mapping_not_read_as_columns():
    # the hostile case: a dict's keys would pair 'a' with 'b' by iteration order
    with pytest.raises(DataError, match=r"^gold must be a sequence of labels .*; got dict, whose items have no order"):
        clfeval.report({"a": 1, "b": 2}, {"b": 1, "a": 2})
    # where a mapping is one column per class (scores), each column is checked
    with pytest.raises(DataError, match=r"scores\['b'\] must be a sequence of values .*; got set"):
        clfeval.report(["a", "b"], ["a", "b"], scores={"a": [0.1, 0.9], "b": {0.9, 0.1}})


def test_unordered_predictions_are_refused_too():
    with pytest.raises(DataError, match="pred must be a sequence of labels .* no order"):
        clfeval.report(["a", "b"], {"a", "b"})
    with pytest.raises(DataError, match="system 1 must be a sequence of labels .* no order"):
        clfeval.compare(["a", "b"], {"a", "b"}, ["a", "b"])


def test_dask_engine_checks_its_client_when_built():
    with pytest.raises(UsageError, match=r"option client must be a distributed.Client, a scheduler address .*got 5\."):
        clfeval.Dask(client=5)
    with pytest.raises(UsageError, match="option connect_timeout must be a number of seconds > 0; got 0"):
        clfeval.Dask(connect_timeout=0)
    assert clfeval.Dask().client is None and clfeval.Dask("tcp://127.0.0.1:1").client == "tcp://127.0.0.1:1"


def test_a_client_is_recognised_without_importing_distributed_at_the_top():
    import subprocess
    import sys

    code = "import sys, clfeval; clfeval.Dask('tcp://x:1'); print('distributed' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_integer_column_names_of_pandas_find_their_columns():
    frame = pd.DataFrame({0: ["a", "b"], 1: ["a", "a"], 2: [0.9, 0.2]})
    assert clfeval.report(frame, gold=0, pred=1).accuracy == 0.5  # 1 of 2 right
    # ROC-AUC of scores 0.9 (a), 0.2 (b) for a: the positive above the negative, 1.0
    assert clfeval.ranking(frame, gold=0, score=2, positive="a").roc_auc == 1.0
    assert clfeval.threshold(frame, gold=0, score=2, positive="a").engine["mode"] == "memory"


def test_a_column_argument_that_is_not_text_elsewhere_is_refused_by_name():
    polars = pytest.importorskip("polars")
    with pytest.raises(UsageError, match=r"option gold names a column by its name \(text\); got 0\."):
        clfeval.report(polars.DataFrame({"0": ["a"], "1": ["a"]}), gold=0, pred="1")


def test_compare_names_tables_as_given_never_a_spill_directory():
    g = ["a", "b"] * 5
    with pytest.raises(DataError) as err:
        clfeval.compare(pd.DataFrame({"gold": g, "pred": g}), pd.DataFrame({"gold": g[::-1], "pred": g}),
                        gold="gold", samples=100)
    text = str(err.value)
    assert "between 'the first table' and 'the second table'" in text and "spill" not in text
    r = clfeval.compare(pd.DataFrame({"gold": g, "pred": g}), pd.DataFrame({"gold": g, "pred": g[::-1]}),
                        samples=100)
    assert r.to_dict()["names"] == {"a": "the first table", "b": "the second table"}


def test_compare_a_list_of_prediction_columns_names_the_systems_by_them():
    frame = pd.DataFrame({"gold": GOLD, "nb": NB, "lr": LR, "svm": SVM})
    r = clfeval.compare(frame, gold="gold", pred=["nb", "lr"], samples=500, seed=1)
    assert r.kind == "pair" and r.to_dict()["names"] == {"a": "nb", "b": "lr"}
    assert (r.a, r.b) == (7 / 8, 5 / 8)
    arrays = clfeval.compare(GOLD, NB, LR, names=("nb", "lr"), samples=500, seed=1)
    assert (r.delta, r.p_value) == (arrays.delta, arrays.p_value)  # the same test as on the arrays
    many = clfeval.compare(frame, gold="gold", pred=["nb", "lr", "svm"], samples=200)
    assert many.kind == "many" and list(many.systems) == ["nb", "lr", "svm"]
    assert dict(many.scores) == {"nb": 7 / 8, "lr": 5 / 8, "svm": 4 / 8}
    named = clfeval.compare(frame, pred=["nb", "lr"], names=["new", "old"], samples=100)
    assert named.to_dict()["names"] == {"a": "new", "b": "old"}


@pytest.mark.parametrize("call, needle", [
    (lambda f: clfeval.compare(f, pred=["nb"]), "two prediction columns or more"),
    (lambda f: clfeval.compare(f, pred=["nb", "nb"]), "names the column 'nb' twice"),
    (lambda f: clfeval.compare(f, f, pred=["nb", "lr"]), "one table"),
    (lambda f: clfeval.compare("preds.csv", pred=["nb", "lr"]), "one PATH per system"),
    (lambda f: clfeval.compare(f, pred=["nb", "nope"]), "no column 'nope'"),
])
def test_compare_a_list_of_prediction_columns_refusals(call, needle):
    frame = pd.DataFrame({"gold": GOLD, "nb": NB, "lr": LR})
    with pytest.raises(ClfevalError, match=needle):
        call(frame)


def test_threshold_dev_arrays_are_a_pair():
    with pytest.raises(UsageError, match=r"option dev with arrays is a pair \(dev gold labels, dev scores\)"):
        clfeval.threshold(GOLD, SCORES, dev=GOLD, positive="a")
    with pytest.raises(DataError, match="dev gold must be a sequence of labels .* no order"):
        clfeval.threshold(GOLD, SCORES, dev=({"a", "b"}, [0.1, 0.2]), positive="a")


# ---- the lead's follow-ups of issue 35: a column argument with arrays, an empty text label, error_analysis' table


@pytest.mark.parametrize("call", [
    lambda: clfeval.report(GOLD, NB, score=SCORES, positive="a"),  # was silently ignored (no ranking)
    lambda: clfeval.report(GOLD, NB, score=SCORES, positive="a", by={"src": ["x"] * 4 + ["y"] * 4}),  # TypeError
    lambda: clfeval.ranking(GOLD, SCORES, positive="a", score="p"),
])
def test_a_column_argument_with_arrays_is_refused_and_names_the_arrays_form(call):
    with pytest.raises(UsageError, match=r"^option score names a column of a table or PATH, and the input here is "
                                         r"arrays: give the values themselves as scores\.$"):
        call()


def test_the_arrays_form_of_the_scores_is_what_the_refusal_names():
    r = clfeval.report(GOLD, NB, scores=SCORES, positive="a")
    # positives (a) scored 0.9, 0.8, 0.7, 0.6; negatives 0.4, 0.3, 0.2, 0.1: every pair in order
    assert r.ranking.roc_auc == 1.0


@pytest.mark.parametrize("blank", ["", " ", "\t"])
@pytest.mark.parametrize("form", ["list", "pandas"])
def test_an_empty_text_label_is_a_missing_label_as_in_a_file(blank, form):
    gold = ["a", blank, "b", "b"] * 10
    pred = ["a", "a", "b", "b"] * 10
    with pytest.raises(DataError, match=r"^gold has an empty label at item 1 \(0-based\); every item needs a label"):
        if form == "list":
            clfeval.report(gold, pred, by={"src": ["x", "y"] * 20})  # raised "unknown metric 'precision:'"
        else:
            clfeval.report(pd.DataFrame({"gold": gold, "pred": pred}))
    with pytest.raises(DataError, match=r"^pred_b has an empty label at item 3"):
        clfeval.compare(gold[:1] * 4, pred[:4], ["a", "a", "a", blank])


def test_error_analysis_reads_a_table_through_the_same_checks():
    frame = pd.DataFrame({0: ["wheat price", "corn price"] * 10, 1: ["grain", "trade"] * 10, 2: ["grain"] * 20})
    r = clfeval.error_analysis(frame, gold=1, pred=2, text=0, min_count=1)
    # the one confused cell: trade → grain, ten items
    assert [(c.gold, c.pred, c.count) for c in r.cells] == [("trade", "grain", 10)]
    with pytest.raises(DataError, match="names the column 'pred' twice"):
        clfeval.error_analysis(pd.DataFrame([["a", "b", "c", "t"]] * 3, columns=["gold", "pred", "pred", "text"]))
    with pytest.raises(DataError, match=r"^the table has no rows"):
        clfeval.error_analysis(pd.DataFrame({"gold": [], "pred": [], "text": []}))


def test_a_column_argument_holding_values_is_refused_in_a_few_words():
    frame = pd.DataFrame({"gold": GOLD, "pred": NB})
    for values, kind in [(np.array(GOLD), "ndarray"), (list(GOLD) * 1000, "list")]:
        with pytest.raises(UsageError) as info:
            clfeval.report(frame, gold=values)
        assert str(info.value) == f"option gold names a column by its name (text); got a {kind}."


@pytest.mark.parametrize("engine", ["memory", "spilled", "dask"])
def test_a_list_of_mixed_label_types_is_refused_alike_on_every_engine(engine, request):
    """NumPy makes [1, "a"] text (["1", "a"]); the Dask engine used to count it so (labels '1' and 'a') while the
    local report refused it. No label is altered by a type conversion: refused on every engine, naming the column
    and the types."""
    from clfeval.engines import Dask, Local

    eng = {"memory": Local(), "spilled": Local(memory=4096),
           "dask": Dask(request.getfixturevalue("dask_client")) if engine == "dask" else None}[engine]
    with pytest.raises(DataError, match=r"gold mixes label types \(int, str\)"):
        clfeval.report([1, "a", 1] * 200, ["a", "a", "a"] * 200, engine=eng)
