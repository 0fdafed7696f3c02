"""Count tables: every encoding path gives the naive count; tables add; joint marginals; bad labels.

The reference is a plain Python count of (gold, pred) pairs into a dict, in
the labels' natural order (numbers numerically, strings by code point,
False before True).
"""

from __future__ import annotations

import tracemalloc
from collections import Counter
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from clfeval import (
    ConfusionTable,
    DataError,
    MultilabelTable,
    UsageError,
    confusion_table,
    joint_table,
    multilabel_table,
)
from clfeval.core._labels import encode_pair
from tests._helpers._strategies import multilabel_cases, single_label_cases

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def naive_table(gold: list, pred: list, labels: list | None = None) -> tuple[list, list[list[int]]]:
    """(labels, counts) by a Python loop: the reference every encoding path must match."""
    if labels is None:
        labels = sorted(set(gold) | set(pred))
    pos = {x: i for i, x in enumerate(labels)}
    counts = [[0] * len(labels) for _ in labels]
    for g, p in zip(gold, pred, strict=True):
        counts[pos[g]][pos[p]] += 1
    return labels, counts


def _chunks(values: list, data: Any, name: str) -> list[list]:
    """Cut ``values`` into chunks, empty chunks included."""
    cuts = sorted(data.draw(st.lists(st.integers(0, len(values)), max_size=4), label=f"{name} chunk cuts"))
    bounds = [0] + cuts + [len(values)]
    return [values[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def represent(values: list, how: str, data: Any, name: str) -> Any:
    """The same labels as a list, numpy array, pyarrow array, chunked array or dictionary chunks."""
    if how == "list":
        return list(values)
    if how == "tuple":
        return tuple(values)
    if how == "numpy":
        return np.array(values)
    if how == "numpy_object":
        return np.array(values, dtype=object)
    if how == "numpy_int32":
        return np.array(values, dtype=np.int32)
    if how == "pyarrow":
        return pa.array(values)
    if how == "chunked":
        typ = pa.array(values[:1] or values).type if values else pa.string()
        return pa.chunked_array([pa.array(c, type=typ) for c in _chunks(values, data, name)], type=typ)
    if how == "dictionary_chunks":  # each chunk with its own dictionary, as Parquet row groups
        typ = pa.array(values).type
        chunks = [pa.array(c, type=typ).dictionary_encode() for c in _chunks(values, data, name)]
        return pa.chunked_array(chunks, type=pa.dictionary(pa.int32(), typ))
    if how == "dictionary":
        return pa.array(values).dictionary_encode()
    raise AssertionError(how)


def _hows(values: list) -> list[str]:
    hows = ["list", "tuple", "pyarrow", "chunked", "dictionary_chunks", "dictionary"]
    v0 = values[0]
    if not any(isinstance(v, str) and "\x00" in v for v in values):
        # numpy's fixed-width unicode drops trailing NUL characters, and pyarrow reads a
        # numpy unicode array only up to the first NUL: such labels cannot be numpy arrays
        hows.append("numpy")
    if isinstance(v0, str):
        hows.append("numpy_object")
    if isinstance(v0, int) and not isinstance(v0, bool) and all(-2 ** 31 <= v < 2 ** 31 for v in values):
        hows.append("numpy_int32")
    return hows


@SETTINGS
@given(case=single_label_cases(max_k=30), data=st.data())
def test_every_encoding_path_gives_the_naive_count(case, data) -> None:
    labels, counts = naive_table(case.gold, case.pred)
    how_g = data.draw(st.sampled_from(_hows(case.gold)), label="gold as")
    how_p = data.draw(st.sampled_from(_hows(case.pred)), label="pred as")
    g = represent(case.gold, how_g, data, "gold")
    p = represent(case.pred, how_p, data, "pred")
    t = confusion_table(g, p)
    assert list(t.labels) == labels
    assert t.counts.tolist() == counts
    assert all(type(x) is type(y) for x, y in zip(t.labels, labels, strict=True))  # labels come back as Python values


@pytest.mark.parametrize("gold,pred", [
    ([0, 1, 2, 2, 5], [0, 2, 2, 1, 0]),                                  # small range from 0
    ([100, 101, 107], [107, 101, 100]),                                   # small range, offset
    ([-5, 3, -5, 0], [3, 3, -5, -1]),                                     # negative
    ([0, 3000, 1_000_000, 3000], [3000, 3000, 0, 7]),                    # lookup-table range
    ([0, 10 ** 12, -(10 ** 12), 5], [10 ** 12, 10 ** 12, 5, 0]),         # large sparse: hashed
    ([True, False, True], [True, True, False]),                           # booleans
    (["b", "a", "007", "7"], ["a", "a", "7", "007"]),                    # strings stay strings
    (["é", "ü", "z"], ["z", "é", "é"]),                                  # non-ASCII
])
def test_encoding_paths_fixed_cases(gold, pred) -> None:
    labels, counts = naive_table(gold, pred)
    for g in (gold, np.array(gold), pa.array(gold)):
        t = confusion_table(g, pred)
        assert list(t.labels) == labels and t.counts.tolist() == counts


def test_numpy_unicode_and_bool_arrays() -> None:
    g = np.array(["x", "yy", "x", "zzz"])
    p = np.array(["yy", "yy", "x", "x"])
    assert g.dtype.kind == "U"
    assert confusion_table(g, p).counts.tolist() == naive_table(g.tolist(), p.tolist())[1]
    gb = np.array([True, False, False])
    pb = np.array([True, True, False])
    t = confusion_table(gb, pb)
    assert t.labels == (False, True) and t.counts.tolist() == [[1, 1], [0, 1]]


def test_dictionary_chunks_with_different_dictionaries() -> None:
    g = pa.chunked_array([pa.array(["a", "b", "a"]).dictionary_encode(), pa.array(["c", "a"]).dictionary_encode()])
    p = pa.chunked_array([pa.array(["b", "b"]).dictionary_encode(), pa.array([], pa.string()).dictionary_encode(),
                          pa.array(["c", "c", "a"]).dictionary_encode()])
    assert g.chunk(0).dictionary.to_pylist() != g.chunk(1).dictionary.to_pylist()
    t = confusion_table(g, p)
    assert t.labels == ("a", "b", "c")
    assert t.counts.tolist() == naive_table(g.to_pylist(), p.to_pylist())[1]


def test_chunked_arrays_with_empty_chunks() -> None:
    # dictionary_encode drops empty chunks: codes must still go to the right column
    g = pa.chunked_array([pa.array(["a", "b"]), pa.array([], pa.string()), pa.array(["b"])])
    p = pa.chunked_array([pa.array(["a"]), pa.array(["b", "a"])])
    assert confusion_table(g, p).counts.tolist() == [[1, 0], [1, 1]]
    g = pa.chunked_array([pa.array([], pa.string()), pa.array(["x"])])
    p = pa.chunked_array([pa.array(["y"]), pa.array([], pa.string())])
    t = confusion_table(g, p)
    assert t.labels == ("x", "y") and t.counts.tolist() == [[0, 1], [0, 0]]


# --- addition ------------------------------------------------------------------

def test_addition_aligns_differing_label_sets() -> None:
    t1 = confusion_table(["a", "b", "b"], ["a", "a", "b"])   # labels a, b
    t2 = confusion_table(["c", "b"], ["b", "c"])             # labels b, c
    t = t1 + t2
    assert t.labels == ("a", "b", "c")
    assert t.counts.tolist() == [[1, 0, 0], [1, 1, 1], [0, 1, 0]]
    assert t == confusion_table(["a", "b", "b", "c", "b"], ["a", "a", "b", "b", "c"])
    assert t2 + t1 == t
    assert sum([t1, t2]) == t


def test_addition_keeps_a_given_label_order_and_numeric_order() -> None:
    t1 = confusion_table(["b", "a"], ["b", "a"], labels=["b", "a"])  # not in natural order
    t2 = confusion_table(["c"], ["a"])
    t = t1 + t2
    assert t.labels == ("b", "a", "c")
    assert t.counts.tolist() == [[1, 0, 0], [0, 1, 0], [0, 1, 0]]
    t = confusion_table([10], [10]) + confusion_table([2, 3], [3, 2])
    assert t.labels == (2, 3, 10)  # numbers in numeric order, not as strings


def test_addition_of_tables_with_absent_labels_and_empty_tables() -> None:
    t1 = confusion_table(["a"], ["a"], labels=["a", "z"])
    t2 = confusion_table(["b"], ["a"])
    t = t1 + t2 + confusion_table([], [])
    assert set(t.labels) == {"a", "b", "z"}
    d = dict(zip(t.labels, range(3), strict=True))
    assert t.counts[d["a"], d["a"]] == 1 and t.counts[d["b"], d["a"]] == 1 and t.n == 2
    with pytest.raises(TypeError):
        t1 + 1  # noqa: B018


def test_relabel_adds_never_drops() -> None:
    t = confusion_table(["a", "b"], ["b", "b"])
    r = t.relabel(["c", "b", "a"])
    assert r.labels == ("c", "b", "a") and r.counts.tolist() == [[0, 0, 0], [0, 1, 0], [0, 1, 0]]
    with pytest.raises(DataError, match="'a'|a"):
        t.relabel(["b"])


def test_multilabel_addition_aligns_labels() -> None:
    t1 = multilabel_table(["a|b", "a"], ["a", "b"])
    t2 = multilabel_table(["c"], ["c|a"])
    t = t1 + t2
    assert t.labels == ("a", "b", "c")
    assert t == multilabel_table(["a|b", "a", "c"], ["a", "b", "c|a"])
    # "c" unseen in t1: t1's two items are true negatives for it
    assert t.binary("c").tn == 2
    assert (t.n_items, t.exact) == (3, 0)


# --- joint table -----------------------------------------------------------------

@SETTINGS
@given(case=single_label_cases(max_k=10), data=st.data())
def test_joint_table_marginals_are_the_confusion_tables(case, data) -> None:
    k = len(case.vocab)
    b_idx = data.draw(st.lists(st.integers(0, k - 1), min_size=len(case.gold), max_size=len(case.gold)), label="B")
    pred_b = [case.vocab[i] for i in b_idx]
    use_labels = data.draw(st.booleans(), label="labels=")
    labels = None
    if use_labels:
        labels = data.draw(st.permutations(list(case.vocab)), label="labels")
    j = joint_table(case.gold, case.pred, pred_b, labels=labels)
    assert j.n == len(case.gold)
    lab = list(j.labels)
    if labels is None:
        assert lab == sorted(set(case.gold) | set(case.pred) | set(pred_b))
    else:
        assert lab == list(labels)
    assert j.table_a == confusion_table(case.gold, case.pred, labels=lab)
    assert j.table_b == confusion_table(case.gold, pred_b, labels=lab)
    # and the cells are the naive count of triples
    pos = {x: i for i, x in enumerate(lab)}
    naive = Counter((pos[g], pos[a], pos[b]) for g, a, b in zip(case.gold, case.pred, pred_b, strict=True))
    assert {tuple(ix): int(c) for ix, c in zip(np.argwhere(j.counts), j.counts[j.counts > 0],
                                               strict=True)} == dict(naive)


def test_joint_table_adds_and_counts_over_occurring_labels_only() -> None:
    j1 = joint_table(["x", "y"], ["x", "x"], ["y", "y"])
    j2 = joint_table(["z"], ["z"], ["x"])
    j = j1 + j2
    assert j.labels == ("x", "y", "z")
    assert j == joint_table(["x", "y", "z"], ["x", "x", "z"], ["y", "y", "x"])
    # two labels 2000 apart: the table is 2×2×2, and counting it must not allocate the range cubed
    tracemalloc.start()
    try:
        j = joint_table([0, 2000, 0], [2000, 2000, 0], [0, 0, 0])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert j.labels == (0, 2000) and j.counts.shape == (2, 2, 2)
    assert peak < 5_000_000, f"joint_table of 3 items peaked at {peak / 1e6:.0f} MB"


# --- bad labels --------------------------------------------------------------------

def test_mixed_kinds_between_columns_are_refused_naming_both() -> None:
    for gold, pred, kinds in ((["a", "b"], [1, 2], ("string", "integer")),
                              ([1.5, 2.5], [1, 2], ("float", "integer")),
                              ([True, False], [1, 0], ("boolean", "integer"))):
        with pytest.raises(DataError) as e:
            confusion_table(gold, pred)
        msg = str(e.value)
        assert "gold" in msg and "pred" in msg, msg
        assert kinds[0] in msg and kinds[1] in msg, msg


def test_mixed_kinds_within_a_column_are_refused_naming_both() -> None:
    with pytest.raises(DataError) as e:
        confusion_table(["a", 1, "b"], ["a", "a", "b"])
    msg = str(e.value)
    assert "gold" in msg and "int" in msg and "str" in msg, msg


@pytest.mark.parametrize("gold,pred", [
    (["a", None, "b"], ["a", "a", "b"]),
    (["a", float("nan"), "b"], ["a", "a", "b"]),    # pandas' missing value among strings
    ([1, None, 2], [1, 1, 2]),
    ([1.0, float("nan"), 2.0], [1.0, 1.0, 2.0]),
    (np.array([1.0, np.nan, 2.0]), np.array([1.0, 1.0, 2.0])),
    (pa.array(["a", None, "b"]), ["a", "a", "b"]),
    (pa.chunked_array([pa.array(["a"]), pa.array([None, "b"], pa.string())]), ["a", "a", "b"]),
])
def test_missing_labels_are_refused_naming_the_item(gold, pred) -> None:
    with pytest.raises(DataError) as e:
        confusion_table(gold, pred)
    msg = str(e.value)
    assert "gold" in msg and "item 1" in msg and "missing" in msg, msg


def test_missing_prediction_is_refused_naming_pred() -> None:
    with pytest.raises(DataError, match=r"pred .*item 2"):
        confusion_table(["a", "b", "c"], ["a", "b", None])


def test_labels_absent_from_the_data_give_zero_rows() -> None:
    t = confusion_table(["a", "b"], ["b", "b"], labels=["z", "a", "b"])
    assert t.labels == ("z", "a", "b")
    assert t.counts.tolist() == [[0, 0, 0], [0, 0, 1], [0, 0, 1]]
    enc = encode_pair(["a", "b"], ["b", "b"], labels=["z", "a", "b"])
    assert enc.gold.tolist() == [1, 2] and enc.pred.tolist() == [2, 2]


def test_data_labels_missing_from_the_list_are_an_error() -> None:
    with pytest.raises(DataError) as e:
        confusion_table(["a", "b", "c"], ["a", "b", "b"], labels=["a", "b"])
    assert "'c'" in str(e.value)
    with pytest.raises(DataError, match="'q'"):
        multilabel_table(["a|q"], ["a"], labels=["a"])
    with pytest.raises(DataError, match="'2'"):
        joint_table([0, 1], [1, 2], [0, 0], labels=[0, 1])


def test_labels_are_matched_by_string_form_and_duplicates_refused() -> None:
    t = confusion_table([0, 1, 1], [1, 1, 0], labels=["1", "0"])
    assert t.labels == (1, 0)  # the data's own values, in the given order
    assert t.counts.tolist() == [[1, 1], [1, 0]]
    with pytest.raises(UsageError, match="twice"):
        confusion_table(["a", "b"], ["a", "b"], labels=["a", "b", "a"])


def test_unequal_lengths_are_refused() -> None:
    with pytest.raises(DataError, match="gold has 3.*pred has 2"):
        confusion_table(["a", "b", "c"], ["a", "b"])


# --- multi-label tables ----------------------------------------------------------------

def _naive_multilabel(gold: list, pred: list, labels: list) -> list:
    out = []
    for lab in labels:
        tp = sum(lab in g and lab in p for g, p in zip(gold, pred, strict=True))
        fp = sum(lab not in g and lab in p for g, p in zip(gold, pred, strict=True))
        fn = sum(lab in g and lab not in p for g, p in zip(gold, pred, strict=True))
        out.append([[len(gold) - tp - fp - fn, fp], [fn, tp]])
    return out


@SETTINGS
@given(case=multilabel_cases(max_l=8, max_n=30, kinds=("str", "int_small")),
       how=st.sampled_from(["lists", "sets", "strings", "pyarrow"]))
def test_multilabel_table_matches_naive_count(case, how) -> None:
    if how == "lists":
        g, p = case.gold, case.pred
    elif how == "sets":
        g, p = [set(x) for x in case.gold], [set(x) for x in case.pred]
    elif how == "strings":
        g = ["|".join(map(str, x)) for x in case.gold]
        p = ["|".join(map(str, x)) for x in case.pred]
    else:
        typ = pa.list_(pa.string() if isinstance(case.vocab[0], str) else pa.int64())
        g, p = pa.array(case.gold, type=typ), pa.array(case.pred, type=typ)
    t = multilabel_table(g, p)
    to_label = (lambda x: x) if how != "strings" or isinstance(case.vocab[0], str) else str
    expected_labels = sorted({to_label(x) for s in case.gold + case.pred for x in s})
    assert list(t.labels) == expected_labels
    gs = [{to_label(x) for x in s} for s in case.gold]
    ps = [{to_label(x) for x in s} for s in case.pred]
    assert t.counts.tolist() == _naive_multilabel(gs, ps, expected_labels)
    assert t.exact == sum(a == b for a, b in zip(gs, ps, strict=True))
    assert t.jaccard_empty == sum(not (a | b) for a, b in zip(gs, ps, strict=True))
    assert t.jaccard_sum == pytest.approx(sum(len(a & b) / len(a | b) for a, b in zip(gs, ps, strict=True) if a | b))
    assert t == MultilabelTable.from_indicators(case.gold_ind[:, [case.vocab.index(x) for x in _values(case, t)]],
                                                case.pred_ind[:, [case.vocab.index(x) for x in _values(case, t)]],
                                                t.labels)


def _values(case, t) -> list:
    by = {str(v): v for v in case.vocab}
    return [x if x in case.vocab else by[str(x)] for x in t.labels]


def test_multilabel_empty_sets_and_separators() -> None:
    t = multilabel_table(["a | b", "", None, "b"], [["a"], [], ["c"], "b|"])
    assert t.labels == ("a", "b", "c")
    assert t.n_items == 4 and t.exact == 2  # item 2 (both empty) and item 4
    assert t.jaccard_empty == 1
    t = multilabel_table(["a;b"], ["a"], sep=";")
    assert t.labels == ("a", "b")


# --- combining tables of different label kinds; accumulators with a label list ---------------

def test_tables_of_different_label_kinds_do_not_add() -> None:
    # "1" from a CSV file and 1 from a Parquet file would become two classes that print alike
    with pytest.raises(DataError, match="print as '1'"):
        confusion_table(["1", "2"], ["1", "1"]) + confusion_table([1], [2])
    with pytest.raises(DataError, match="print as '1'"):
        multilabel_table(["1"], ["1"]) + multilabel_table([[1]], [[2]])
    with pytest.raises(DataError, match="print as '1'"):
        ConfusionTable(np.zeros((2, 2), int), (1, "1"))


def test_accumulators_match_a_label_list_by_string_form() -> None:
    from clfeval import ConfusionAccumulator, MultilabelAccumulator

    acc = ConfusionAccumulator(labels=["1", "0", "2"])  # as an option would give them
    acc.update([0, 1], [1, 1])
    acc.update([1], [0])
    assert acc.table == confusion_table([0, 1, 1], [1, 1, 0], labels=["1", "0", "2"])
    assert acc.table.labels == (1, 0, "2")
    acc = MultilabelAccumulator(labels=["2", "1", "z"])
    acc.update([[1]], [[2]])
    assert acc.table == multilabel_table([[1]], [[2]], labels=["2", "1", "z"])
    # a data label left out of the list is an error, as with labels= (not silently appended)
    acc = MultilabelAccumulator(labels=["b", "a"])
    acc.update(["a|c"], ["a"])
    with pytest.raises(DataError, match="'c'"):
        acc.table  # noqa: B018
    acc = ConfusionAccumulator(labels=["a"])
    acc.update(["a", "c"], ["a", "a"])
    with pytest.raises(DataError, match="c"):
        acc.table  # noqa: B018


def test_integer_columns_of_different_widths_on_the_hashing_path() -> None:
    # a sparse range (hashed): an int32 column and an int64 column with a value beyond int32
    t = confusion_table(np.array([0, 7], dtype=np.int32), [2 ** 31, 7])
    assert t.labels == (0, 7, 2 ** 31) and t.counts.tolist() == [[0, 0, 1], [0, 1, 0], [0, 0, 0]]
    # the same with dictionary-encoded columns (as Parquet stores them)
    g = pa.array([5, 2 ** 30], pa.int32()).dictionary_encode()
    p = pa.array([2 ** 40, 5], pa.int64()).dictionary_encode()
    t = confusion_table(g, p)
    assert t.labels == (5, 2 ** 30, 2 ** 40)
    assert t.counts.tolist() == naive_table([5, 2 ** 30], [2 ** 40, 5])[1]


def test_accumulators_with_labels_and_no_batches_give_zero_tables():
    from clfeval.core._tables import ConfusionAccumulator, MultilabelAccumulator

    c = ConfusionAccumulator(labels=["a", "b"]).table
    assert c.labels == ("a", "b") and c.counts.tolist() == [[0, 0], [0, 0]]
    m = MultilabelAccumulator(labels=["x", "y"]).table
    assert m.labels == ("x", "y") and m.counts.shape == (2, 2, 2) and m.counts.sum() == 0 and m.n_items == 0
