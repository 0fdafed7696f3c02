"""Does the verdict survive the likely label errors? ``compare(..., label_issues=...)`` (issue 41, item 5).

Two hand-made cases whose answer is known by construction: in one, A is only "better" because B is right on items
whose gold label is wrong (removing or relabelling them flips the verdict); in the other, A is better on many items
whose gold is right (the verdict survives). The variants are checked against ``compare`` run by hand on the filtered
and relabelled arrays built here (the oracle), and against hand-computed scores.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import clfeval
from clfeval.errors import ClfevalError
from tests._helpers.clihelp import assert_clean_error, run

N = 200
S = {"samples": 300, "seed": 4}
NAMES = ("the first table", "the second table")


def _case(planted: np.ndarray, a_better: np.ndarray) -> dict[str, object]:
    """Binary items 0..N-1; ``planted`` items have a wrong gold label (A predicts the gold, B the true label);
    on ``a_better`` items (gold right) A is right and B wrong; elsewhere both are right."""
    ids = np.arange(N)
    true = np.where(ids % 2 == 0, "pos", "neg")
    flip = {"pos": "neg", "neg": "pos"}
    gold = true.copy()
    gold[planted] = [flip[t] for t in true[planted]]
    a = gold.copy()
    b = true.copy()
    b[a_better] = [flip[t] for t in true[a_better]]
    return {"ids": ids, "true": true, "gold": gold, "a": a, "b": b, "planted": planted,
            "A": pd.DataFrame({"id": ids, "gold": gold, "pred": a}),
            "B": pd.DataFrame({"id": ids, "gold": gold, "pred": b})}


FLIP = _case(np.arange(0, N, 5), np.array([], dtype=int))  # 40 planted errors, nothing else differs
SURVIVE = _case(np.array([3, 17, 41, 88, 190]), np.arange(100, 160))  # 5 planted, A truly better on 60


def _flagged_json(case: dict[str, object], path: Path) -> Path:
    true, planted = case["true"], case["planted"]
    items = [{"row": int(i), "id": int(i), "given": str(case["gold"][i]), "suggested": str(true[i])} for i in planted]
    path.write_text(json.dumps({"n_flagged": len(items), "flagged": items}), encoding="utf-8")
    return path


def _oracle(case: dict[str, object]) -> tuple[clfeval.Compared, clfeval.Compared]:
    """``compare`` by hand on the arrays without the planted items, and with their gold relabelled."""
    g, a, b, planted = case["gold"], case["a"], case["b"], case["planted"]
    keep = np.ones(N, dtype=bool)
    keep[planted] = False
    relabelled = g.copy()
    relabelled[planted] = case["true"][planted]
    removed = clfeval.compare(list(g[keep]), list(a[keep]), list(b[keep]), names=NAMES, **S)
    relab = clfeval.compare(list(relabelled), list(a), list(b), names=NAMES, **S)
    return removed, relab


def _same(variant: object, c: clfeval.Compared) -> None:
    assert variant.n == c.n and variant.a == c.a and variant.b == c.b and variant.delta == c.delta
    assert variant.p_value == c.p_value and variant.verdict == c.verdict and variant.rejected == c.rejected
    assert variant.ci == tuple(c.ci.bca.delta)  # the two-sided estimate (BCa by default)
    assert variant.bound == c.ci.test_bound.value  # the test's own bound, the one its verdict follows
    assert (variant.bound > 0) == variant.rejected


def test_removing_the_planted_errors_flips_the_verdict(tmp_path: Path) -> None:
    r = clfeval.compare(FLIP["A"], FLIP["B"], id="id", label_issues=_flagged_json(FLIP, tmp_path / "li.json"), **S)
    assert r.rejected and r.a == 1.0 and r.b == 0.8  # A "better" only on the 40 items whose gold is wrong
    rb = r.robustness
    assert (rb.n_flagged, rb.n_matched) == (40, 40)
    assert (rb.removed.n, rb.removed.a, rb.removed.b, rb.removed.delta) == (160, 1.0, 1.0, 0.0)
    assert (rb.relabelled.n, rb.relabelled.a, rb.relabelled.b) == (200, 0.8, 1.0)
    assert not rb.removed.rejected and not rb.relabelled.rejected
    assert rb.sentence == "It flips when the 40 likely label errors are removed or relabelled."
    removed, relab = _oracle(FLIP)
    _same(rb.removed, removed)
    _same(rb.relabelled, relab)


def test_a_real_difference_survives_the_planted_errors(tmp_path: Path) -> None:
    r = clfeval.compare(SURVIVE["A"], SURVIVE["B"], id="id", label_issues=_flagged_json(SURVIVE, tmp_path / "l.json"),
                        **S)
    assert r.rejected and r.delta == pytest.approx(65 / 200)
    rb = r.robustness
    assert rb.n_matched == 5
    assert rb.removed.n == 195 and rb.removed.delta == pytest.approx(60 / 195)
    assert rb.relabelled.delta == pytest.approx(55 / 200)  # A: 195/200 right, B: 140/200
    assert rb.removed.rejected and rb.relabelled.rejected
    assert rb.sentence == ("The difference survives: removing or relabelling the 5 likely label errors keeps the "
                           "verdict.")
    removed, relab = _oracle(SURVIVE)
    _same(rb.removed, removed)
    _same(rb.relabelled, relab)


def test_a_label_issues_result_in_memory_gives_the_same_block(tmp_path: Path) -> None:
    # out-of-sample probabilities that point at the true label: confident learning flags the 40 planted items
    p = np.where(FLIP["true"] == "pos", 0.9, 0.1)
    li = clfeval.label_issues(pd.DataFrame({"id": FLIP["ids"], "gold": FLIP["gold"], "p:neg": 1 - p, "p:pos": p}),
                              id="id")
    assert sorted(f.id for f in li.flagged) == list(FLIP["planted"])
    r = clfeval.compare(FLIP["A"], FLIP["B"], id="id", label_issues=li, **S)
    by_path = clfeval.compare(FLIP["A"], FLIP["B"], id="id", label_issues=_flagged_json(FLIP, tmp_path / "x.json"),
                              **S)
    assert r.robustness == by_path.robustness


def test_the_json_gains_the_block_only_with_label_issues(tmp_path: Path) -> None:
    plain = clfeval.compare(FLIP["A"], FLIP["B"], id="id", **S).to_dict()
    with_block = clfeval.compare(FLIP["A"], FLIP["B"], id="id", label_issues=_flagged_json(FLIP, tmp_path / "j.json"),
                                 **S).to_dict()
    assert "robustness" not in plain
    block = with_block.pop("robustness")
    assert block["n_matched"] == 40 and block["removed"]["delta"] == 0.0
    assert with_block == plain  # nothing else changes


@pytest.mark.parametrize(("kwargs", "needles"), [
    ({}, ["label_issues", "id"]),
    ({"id": "id", "test": "delong", "score": "s", "metric": "roc_auc", "positive": "pos"}, ["label_issues", "delong"]),
    ({"id": "id", "metric": "roc_auc", "score": "s", "positive": "pos"}, ["label_issues", "score"]),
    ({"id": "id", "by": "grp"}, ["label_issues", "by"]),
    ({"id": "id", "margin": 0.05}, ["label_issues", "margin"]),
])
def test_refusals_name_the_options(tmp_path: Path, kwargs: dict[str, object], needles: list[str]) -> None:
    path = _flagged_json(FLIP, tmp_path / "li.json")
    a, b = (FLIP[k].assign(s=0.5, grp="x") for k in ("A", "B"))
    with pytest.raises(ClfevalError) as e:
        clfeval.compare(a, b, label_issues=path, **kwargs, **S)
    msg = str(e.value)
    assert all(n in msg for n in needles), msg
    assert msg.count(".") >= 1 and "\n" not in msg


def test_arrays_and_bad_results_are_refused(tmp_path: Path) -> None:
    path = _flagged_json(FLIP, tmp_path / "li.json")
    with pytest.raises(ClfevalError, match="tables or PATHs"):
        clfeval.compare(list(FLIP["gold"]), list(FLIP["a"]), list(FLIP["b"]), id="id", label_issues=path, **S)
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(ClfevalError, match="'flagged'"):
        clfeval.compare(FLIP["A"], FLIP["B"], id="id", label_issues=bad, **S)
    no_ids = tmp_path / "noids.json"
    no_ids.write_text(json.dumps({"flagged": [{"id": None, "suggested": "pos"}]}), encoding="utf-8")
    with pytest.raises(ClfevalError, match="without ids"):
        clfeval.compare(FLIP["A"], FLIP["B"], id="id", label_issues=no_ids, **S)
    with pytest.raises(ClfevalError, match="LabelIssues"):
        clfeval.compare(FLIP["A"], FLIP["B"], id="id", label_issues=3, **S)


def test_the_command_line(tmp_path: Path) -> None:
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    FLIP["A"].to_csv(a, index=False)
    FLIP["B"].to_csv(b, index=False)
    li = _flagged_json(FLIP, tmp_path / "li.json")
    res = run("compare", a, b, "--id", "id", "--label-issues", li, "--samples", "300", "--seed", "4")
    assert res.code == 0, res.err
    assert "Does the verdict survive the likely label errors?" in res.out
    assert "It flips when the 40 likely label errors are removed or relabelled." in " ".join(res.out.split())
    res = run("compare", a, b, "--id", "id", "--label-issues", li, "--samples", "300", "--format", "json")
    assert json.loads(res.out)["robustness"]["relabelled"]["b"] == 1.0
    html = run("compare", a, b, "--id", "id", "--label-issues", li, "--samples", "300", "--format", "html")
    assert html.code == 0 and "Does the verdict survive" in html.out
    assert_clean_error(run("compare", a, b, "--label-issues", li), 2, "--label-issues", "--id")


def test_the_guide_files_give_mcnemars_exact_p_values_by_hand() -> None:
    # docs/examples/stories-a.csv and stories-b.csv: n_AB = 6, n_BA = 0 as given; s12 and s30 (the two stories
    # label-issues flags in stories.csv) removed: n_AB = 4, n_BA = 0; relabelled: n_AB = 4, n_BA = 2
    li = clfeval.label_issues("docs/examples/stories.csv")
    r = clfeval.compare("docs/examples/stories-a.csv", "docs/examples/stories-b.csv", id="id", test="mcnemar",
                        label_issues=li, samples=200)
    rb = r.robustness
    assert r.p_value == pytest.approx(1 / 64) and r.rejected
    assert rb.removed.p_value == pytest.approx(1 / 16) and rb.removed.n == 34
    assert rb.relabelled.p_value == pytest.approx((15 + 6 + 1) / 64)
    assert rb.sentence == "It flips when the 2 likely label errors are removed or relabelled."


def test_the_flagged_file_of_label_issues_is_read_too(tmp_path: Path) -> None:
    flagged = tmp_path / "flagged.csv"
    pd.DataFrame({"rank": range(1, 41), "id": FLIP["planted"], "given": FLIP["gold"][FLIP["planted"]],
                  "suggested": FLIP["true"][FLIP["planted"]]}).to_csv(flagged, index=False)
    by_csv = clfeval.compare(FLIP["A"], FLIP["B"], id="id", label_issues=flagged, **S)
    by_json = clfeval.compare(FLIP["A"], FLIP["B"], id="id", label_issues=_flagged_json(FLIP, tmp_path / "f.json"),
                              **S)
    assert by_csv.robustness == by_json.robustness
    bad = tmp_path / "bad.csv"
    bad.write_text("id,label\n1,pos\n", encoding="utf-8")
    with pytest.raises(ClfevalError, match="'suggested'"):
        clfeval.compare(FLIP["A"], FLIP["B"], id="id", label_issues=bad, **S)
