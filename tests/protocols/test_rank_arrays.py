"""clfeval.rank on arrays: a mapping of column name to values is a table's columns (issue 36's third input kind)."""

from __future__ import annotations

import numpy as np
import pytest

import clfeval

COLS = {"dataset": ["d1", "d2", "d3", "d4", "d5"], "lr": [0.81, 0.77, 0.92, 0.64, 0.70],
        "nb": [0.78, 0.71, 0.90, 0.66, 0.62]}


def test_arrays_give_the_tables_answer():
    import pyarrow as pa

    a = clfeval.rank({k: np.asarray(v) for k, v in COLS.items()}, higher_is_better=True, bayes=False)
    t = clfeval.rank(pa.table(COLS), higher_is_better=True, bayes=False)
    assert a.to_dict() == t.to_dict()
    # lr wins on four data sets of five: its mean rank (1 + 1 + 1 + 2 + 1) / 5, by hand
    assert a.average_ranks == {"lr": 1.2, "nb": 1.8}


def test_a_long_table_as_arrays():
    long = {"system": ["a", "b"] * 3, "dataset": ["x", "x", "y", "y", "z", "z"], "score": [1, 2, 3, 4, 5, 6]}
    r = clfeval.rank(long, higher_is_better=True, bayes=False)
    assert r.order[0] == "b" and r.average_ranks["b"] == 1.0


@pytest.mark.parametrize(("cols", "said"), [
    ({"dataset": ["a", "b"], "A": [1.0]}, "one length"),
    ({1: [0.5, 0.6], "dataset": ["a", "b"]}, "column names must be text"),
    ({"dataset": ["a", "b"], "A": 0.5}, "column 'A' must be a sequence"),
    ({"dataset": ["a", "b"], "A": "xy"}, "column 'A' must be a sequence"),
    ({"dataset": ["a", "b"], "A": [1, "x"], "B": [1, 2]}, "mixes kinds"),
])
def test_bad_arrays_are_refused_with_a_sentence(cols, said):
    with pytest.raises(clfeval.ClfevalError, match=said):
        clfeval.rank(cols, higher_is_better=True)
