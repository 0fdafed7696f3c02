"""Engine details only when they matter (issue 19, item 8): nothing said about memory when nothing spilled, no
"Streamed:" note doubling the signature, one signature line for `cv`."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests._helpers.clihelp import run


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(0)
    n = 400
    gold = rng.choice(["x", "y"], n)
    a = np.where(rng.random(n) < 0.8, gold, "x")
    b = np.where(rng.random(n) < 0.7, gold, "y")
    s = np.round(rng.random(n), 4)
    fa, fb = tmp_path / "a.csv", tmp_path / "b.csv"
    fa.write_text("id,gold,pred,score\n" + "".join(f"d{i},{g},{p},{v}\n" for i, (g, p,
                                                                                 v) in enumerate(zip(gold, a, s,
                                                                                                     strict=True))))
    fb.write_text("id,gold,pred\n" + "".join(f"d{i},{g},{p}\n" for i, (g, p) in enumerate(zip(gold, b, strict=True))))
    return fa, fb


def test_memory_is_mentioned_only_when_the_ranking_spilled(files):
    fa, _ = files
    quiet = run("report", fa, "--score", "score", "--positive", "y")
    assert quiet.code == 0 and "spill" not in quiet.out and "memory budget" not in quiet.out
    assert quiet.out.rstrip().splitlines()[-1].endswith("ranking: in memory (budget 1 GiB)")  # the signature says it
    spilled = run("report", fa, "--score", "score", "--positive", "y", "--memory", "4KiB")
    assert spilled.code == 0 and "spilled to disk" in spilled.out


def test_streamed_comparison_is_said_once_in_the_signature(files):
    fa, fb = files
    res = run("compare", fa, fb, "--samples", "300")
    assert res.code == 0, res.err
    assert "Streamed:" not in res.out
    assert len(re.findall(r"streamed record batches", res.out)) == 1


def test_cv_prints_one_signature_line(tmp_path):
    pytest.importorskip("sklearn")
    rng = np.random.default_rng(1)
    words = {"x": ["apple", "pear", "plum"], "y": ["car", "bus", "train"]}
    rows = []
    for _ in range(120):
        t = rng.choice(["x", "y"])
        rows.append(" ".join(rng.choice(words[t], 5)) + f",{t}")
    f = tmp_path / "news.csv"
    f.write_text("text,topic\n" + "\n".join(rows) + "\n")
    res = run("cv", f, "--text", "text", "--label", "topic", "--folds", "3", "--no-log")
    assert res.code == 0, res.err
    assert len(re.findall(r"^clfeval \d+\.\d+\.\d+ · ", res.out, flags=re.M)) == 1
