"""clfeval.rank's arguments, validated up front (issue 35: P39–P42, K02, K28, missing="drop" with folds)."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest

import clfeval
from clfeval.errors import DataError, UsageError
from clfeval.significance._multirank import check_pairs, pairs_of_text
from tests._helpers.demsar import DATASETS, SYSTEMS, TABLE6


def wide() -> pd.DataFrame:
    return pd.DataFrame({"dataset": DATASETS, **{s: [row[j] for row in TABLE6] for j, s in enumerate(SYSTEMS)}})


def test_duplicated_column_names_are_refused_naming_the_column():
    d = wide()
    d.columns = ["dataset", "A", "A", "B", "C"]
    with pytest.raises(DataError, match="names the column 'A' twice"):
        clfeval.rank(d, metric="roc_auc", bayes=False)
    t = pa.Table.from_arrays([pa.array(["x", "y"]), pa.array([0.1, 0.2]), pa.array([0.3, 0.4])],
                             names=["dataset", "B", "B"])  # pyarrow allows it too
    with pytest.raises(DataError, match="names the column 'B' twice"):
        clfeval.rank(t, metric="roc_auc", bayes=False)


def test_an_empty_table_says_it_has_no_rows():
    with pytest.raises(DataError, match="the table has a header but no rows"):
        clfeval.rank(wide().iloc[:0], metric="roc_auc")


def test_pairs_in_every_form():
    r = clfeval.rank(wide(), metric="roc_auc", samples=500,
                     pairs=["C4.5:C4.5+m", ("C4.5+cf", "C4.5+m+cf"), ["C4.5", "C4.5+cf"]])
    assert [(b.a, b.b) for b in r.bayes] == [("C4.5", "C4.5+m"), ("C4.5+cf", "C4.5+m+cf"), ("C4.5", "C4.5+cf")]
    assert check_pairs(["lr, l2:svm", '"a:b":c']) == [("lr, l2", "svm"), ("a:b", "c")]
    assert pairs_of_text('"lr, l2":svm, \'a:b\':c') == [("lr, l2", "svm"), ("a:b", "c")]


@pytest.mark.parametrize("pairs, words", [
    ("C4.5:C4.5+m", "got the text 'C4.5:C4.5+m': write ['C4.5:C4.5+m']"),
    ("", "'' is not one"),
    ([], "names no pair"),
    (["C4.5:C4.5+m", "C4.5"], "element 2 ('C4.5') is not one"),
    (["C4.5:C4.5+m:C4.5+cf"], "is not one (a name holding ',' or ':' is written in quotes"),
    ([("C4.5", 3)], "element 1 (('C4.5', 3)) is neither"),
    ({("C4.5", "C4.5+m")}, "got set"),
    (["C4.5:nope"], "names system 'nope'"),
])
def test_malformed_pairs_are_refused_by_name(pairs, words):
    with pytest.raises(UsageError) as e:
        clfeval.rank(wide(), metric="roc_auc", samples=500, pairs=pairs)
    assert "pairs" in str(e.value) and words in str(e.value), str(e.value)


def test_one_condition_as_text_is_one_condition():
    r = clfeval.rank(wide(), metric="roc_auc", samples=500, require="in_best_group(C4.5)")
    assert [c.condition for c in r.requirements.conditions] == ["in_best_group(C4.5)"]
    with pytest.raises(UsageError, match="not a condition"):
        clfeval.rank(wide(), metric="roc_auc", samples=500, require=[0.5])


def test_a_system_against_itself_is_refused_before_reading():
    with pytest.raises(UsageError, match="compares system 'C4.5' with itself") as e:
        clfeval.rank("no such file.csv", metric="roc_auc", require=["p_better(C4.5,C4.5)>=0.5"])
    assert "--pairs" not in str(e.value)


def test_a_system_named_with_a_comma_can_be_required():
    t = pd.DataFrame({"system": ["lr, l2", "nb"] * 6, "dataset": [f"d{i // 2}" for i in range(12)],
                      "score": [0.9, 0.5] * 6})
    r = clfeval.rank(t, higher_is_better=True, samples=500,
                     require=["in_best_group(lr, l2)", 'p_better("lr, l2", nb)>=0.5'])
    assert r.requirements.met is True
    assert r.p_better("lr, l2", "nb") == r.requirements.conditions[1].value


def test_missing_drop_with_one_fold_missing_drops_the_data_set_and_names_it():
    rows = [(s, d, f, 0.7 + 0.1 * (s == "A")) for d in ("x", "y", "z") for s in ("A", "B") for f in (1, 2, 3)]
    t = pd.DataFrame(rows, columns=["system", "dataset", "fold", "score"])
    t.loc[(t.system == "B") & (t.dataset == "y") & (t.fold == 2), "score"] = float("nan")
    with pytest.raises(DataError, match="'B' on 'y'"):
        clfeval.rank(t, fold="fold", higher_is_better=True, bayes=False)
    r = clfeval.rank(t, fold="fold", higher_is_better=True, bayes=False, missing="drop")
    assert r.datasets == ("x", "z") and r.dropped == ("y",)
    assert any("Dropped 1 data set(s)" in n and ": y." in n for n in r.notes)


@pytest.mark.parametrize("kw, words", [({"seed": -1}, "seed"), ({"rope": float("nan")}, "rope"),
                                       ({"prior": 0}, "prior"), ({"control": 3}, "control"),
                                       ({"bayes": "no"}, "bayes"), ({"require": 5}, "require")])
def test_settings_are_checked_before_the_data_is_read(kw, words):
    with pytest.raises(UsageError, match=words):
        clfeval.rank("no such file.csv", metric="roc_auc", **kw)
