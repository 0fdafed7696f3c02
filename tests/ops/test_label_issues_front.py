"""``clfeval.label_issues``: every input kind gives the same answer; the probability checks are calibration's; bad
input is refused in one sentence naming the row, column or option; the engines it does not run on are refused with
the capability table's reason."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import clfeval
from clfeval.engines import Local
from clfeval.errors import DataError, UsageError

GOLD = ["a", "a", "a", "b", "b", "b"]
P = [[1, 0], [.75, .25], [.25, .75], [.25, .75], [0, 1], [.5, .5]]
IDS = [10, 11, 12, 13, 14, 15]


def _frame() -> pd.DataFrame:
    p = np.array(P)
    return pd.DataFrame({"id": IDS, "gold": GOLD, "p:a": p[:, 0], "p:b": p[:, 1]})


def _plain(r) -> dict:
    d = r.to_dict()
    d.pop("engine", None)
    return d


def test_the_hand_case_on_every_input_kind(tmp_path):
    # worked in tests/ops/test_label_issues_rule.py: t = (2/3, 3/4), C = [[2, 1], [0, 2]], one error, item 2 (id 12)
    path = tmp_path / "probs.csv"
    _frame().to_csv(path, index=False)
    got = [clfeval.label_issues(np.array(P), GOLD, labels=["a", "b"], id=IDS),
           clfeval.label_issues({"a": np.array(P)[:, 0], "b": np.array(P)[:, 1]}, GOLD, id=IDS),
           clfeval.label_issues(_frame(), id="id"),
           clfeval.label_issues(pa.Table.from_pandas(_frame()), id="id"),
           clfeval.label_issues(str(path), id="id")]
    r = got[0]
    assert list(r.thresholds) == [2 / 3, 0.75]
    assert [list(row) for row in r.confident_joint] == [[2, 1], [0, 2]]
    assert r.estimated_errors == 1 and r.n_flagged == 1
    f = r.flagged[0]
    assert (f.row, f.id, f.given, f.suggested, f.self_confidence, f.normalized_margin) == (2, 12, "a", "b", .25, -.5)
    assert all(_plain(g) == _plain(r) for g in got[1:4])
    d = _plain(got[4])  # a CSV's ids are read as text (the readers' rule for id columns)
    assert d["flagged"][0]["id"] == "12"
    d["flagged"][0]["id"] = 12
    assert d == _plain(r)
    assert all(g.engine.mode == "memory" for g in got)
    json.dumps(r.to_dict(), allow_nan=False)


def test_the_json_states_the_rule_and_the_frame_has_one_row_per_flagged_item():
    r = clfeval.label_issues(_frame(), id="id")
    d = r.to_dict()
    assert d["rule"]["method"] == "prune by noise rate" and "Northcutt" in d["rule"]["reference"]
    assert any("round(n * Q[i][j])" in s for s in d["rule"]["steps"]) and "lower class" in d["rule"]["ties"]
    assert "half up" in d["rule"]["rounding"] and "0/0" in d["zero_division"]
    assert "seed" not in d["signature"]
    frame = r.to_frame()
    assert list(frame.columns) == ["rank", "row", "id", "given", "suggested", "self_confidence", "normalized_margin"]
    assert frame.to_dict("records") == [{"rank": 1, "row": 2, "id": 12, "given": "a", "suggested": "b",
                                         "self_confidence": .25, "normalized_margin": -.5}]
    with pytest.raises(TypeError):
        r.flagged[0].__dict__  # noqa: B018  (frozen, slotted or not: never assignable)
        r.thresholds[0] = 1.0  # type: ignore[index]


def test_the_ranking_is_by_self_confidence_or_normalized_margin_then_id():
    rng = np.random.default_rng(3)
    n, k = 300, 3
    gold = rng.integers(0, k, n)
    raw = rng.dirichlet([1, 1, 1], n) + np.eye(k)[gold] * 1.2
    p = raw / raw.sum(axis=1, keepdims=True)
    flip = rng.random(n) < 0.15
    given = np.where(flip, (gold + 1) % k, gold)
    ids = rng.permutation(n) * 7
    for rank_by in ("self_confidence", "normalized_margin"):
        r = clfeval.label_issues(p, given, labels=[0, 1, 2], id=ids, rank_by=rank_by)
        assert r.n_flagged > 10
        keys = [(getattr(f, rank_by), f.id) for f in r.flagged]
        assert keys == sorted(keys)
        for f in r.flagged:  # each item's own numbers, from the matrix
            row = p[f.row]
            g = int(given[f.row])
            assert f.given == str(g) and f.id == ids[f.row]
            assert f.self_confidence == row[g]
            assert f.normalized_margin == row[g] - np.delete(row, g).max()


def test_nan_is_refused_naming_the_row(tmp_path):
    f = _frame()
    f.loc[3, "p:b"] = np.nan
    path = tmp_path / "nan.csv"
    f.to_csv(path, index=False)
    with pytest.raises(DataError, match=r"'p:b'.*item 3"):
        clfeval.label_issues(f)
    with pytest.raises(DataError, match=r"'p:b'.*nan.csv.*line 5|'p:b'.*row"):
        clfeval.label_issues(str(path))


def test_rows_must_sum_to_one_within_calibrations_tolerance():
    p = np.array(P, dtype=float)
    p[4] = [0.0, 0.995]  # within 0.01: accepted
    clfeval.label_issues(p, GOLD, labels=["a", "b"])
    p[4] = [0.0, 0.98]
    with pytest.raises(DataError, match=r"item 4 \(0-based\) sum to 0.98, not 1; confident learning"):
        clfeval.label_issues(p, GOLD, labels=["a", "b"])


def test_values_outside_0_1_are_no_probabilities():
    p = np.array(P, dtype=float)
    p[1] = [1.25, -0.25]
    with pytest.raises(DataError, match="outside \\[0, 1\\]"):
        clfeval.label_issues(p, GOLD, labels=["a", "b"])


def test_a_gold_label_without_its_column_is_refused():
    with pytest.raises(DataError, match=r"'c' have no score column \(expected columns 'p:c'\)"):
        clfeval.label_issues(_frame().assign(gold=GOLD[:5] + ["c"]))


def test_label_sets_are_refused_with_a_sentence():
    with pytest.raises(DataError, match="label sets; confident learning here finds errors of one label per item"):
        clfeval.label_issues(np.array(P), [["a"], ["a", "b"], ["a"], ["b"], ["b"], ["b"]], labels=["a", "b"])


def test_repeated_and_missing_ids_are_refused():
    with pytest.raises(DataError, match="id 10 repeats"):
        clfeval.label_issues(np.array(P), GOLD, labels=["a", "b"], id=[10, 10, 12, 13, 14, 15])


def test_bad_options_are_refused_before_any_work():
    with pytest.raises(UsageError, match="rank_by must be one of self_confidence, normalized_margin"):
        clfeval.label_issues(_frame(), rank_by="margin")
    with pytest.raises(UsageError, match="with arrays of probabilities, gold gives the gold labels"):
        clfeval.label_issues(np.array(P), labels=["a", "b"])
    with pytest.raises(UsageError, match="labels names the columns of a matrix"):
        clfeval.label_issues(_frame(), labels=["a", "b"])


def _planted(n: int = 2000, k: int = 4, seed: int = 3) -> pd.DataFrame:
    """Probabilities in hundredths (rows summing to 1), 10 % of the labels moved to the next class, ids shuffled;
    many equal margins, so that ties by id matter."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, n)
    raw = rng.dirichlet([1] * k, n) + np.eye(k)[gold] * 1.2
    p = np.floor(raw / raw.sum(axis=1, keepdims=True) * 100) / 100
    p[:, -1] = np.round(1 - p[:, :-1].sum(axis=1), 2)  # the floors leave at least 0
    given = np.where(rng.random(n) < 0.1, (gold + 1) % k, gold)
    labs = np.array(["w", "x", "y", "z"][:k])
    return pd.DataFrame({"id": rng.permutation(n) * 3, "gold": labs[given],
                         **{f"p:{lab}": p[:, j] for j, lab in enumerate(labs)}})


@pytest.mark.parametrize("rank_by", ["self_confidence", "normalized_margin"])
def test_the_passes_beyond_the_budget_equal_memory_however_the_input_is_split(tmp_path, rank_by):
    f = _planted()
    want = clfeval.label_issues(f, rank_by=rank_by)
    assert want.engine.mode == "memory" and want.n_flagged > 50
    d = tmp_path / "parts"
    d.mkdir()
    for i, (lo, hi) in enumerate([(0, 700), (700, 701), (701, 1500), (1500, 2000)]):  # uneven, one of one row
        f.iloc[lo:hi].to_parquet(d / f"part-{i}.parquet", index=False)
    csv_path = tmp_path / "all.csv"
    f.assign(id=[f"i{v:05d}" for v in f["id"]]).to_csv(csv_path, index=False)
    small = Local(memory=4096)
    got = [clfeval.label_issues(str(d), rank_by=rank_by, engine=small),
           clfeval.label_issues(f, rank_by=rank_by, engine=small),
           clfeval.label_issues(str(d), rank_by=rank_by)]
    assert [g.engine.mode for g in got] == ["streamed", "streamed", "memory"]
    assert all(_plain(g) == _plain(want) for g in got)
    text_ids = [clfeval.label_issues(str(csv_path), rank_by=rank_by, engine=e) for e in (small, Local())]
    assert _plain(text_ids[0]) == _plain(text_ids[1])
    assert [x.row for x in text_ids[0].flagged] == [x.row for x in want.flagged]  # ids as text: the same order


def test_the_passes_refuse_what_memory_refuses_naming_the_row(tmp_path):
    f = _planted(300)
    f.loc[250, "p:x"] = np.nan
    path = tmp_path / "nan.parquet"
    f.to_parquet(path, index=False)
    with pytest.raises(DataError, match=r"'p:x'.*row"):
        clfeval.label_issues(str(path), engine=Local(memory=4096))


def test_user_strings_are_escaped_in_every_format():
    from clfeval.render import render

    evil = "<b>x</b>|\x1b[31m"
    r = clfeval.label_issues(np.array(P), ["ok", "ok", "ok", evil, evil, evil], labels=["ok", evil],
                             id=["i0", "i1", "<i>2</i>", "i3", "i4", "i5"])
    page = render(r, "html")
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page and "&lt;i&gt;2&lt;/i&gt;" in page
    assert "\x1b" not in render(r, "text") and "\x1b" not in render(r, "markdown") and "\x1b" not in page
    assert "\\|" in render(r, "markdown")  # the label's pipe does not break the Markdown table
    card = r._repr_html_()
    assert "<b>x</b>" not in card and len(card.encode("utf-8")) <= 20_000
