"""bench/checkouts.py (issue 38's speed acceptance): the medians, ratios and table it prints, the JSON it reads
from a bench's output, the interleaving order and the folder each tree's benches run from. No bench is run."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load():
    spec = importlib.util.spec_from_file_location("checkouts", ROOT / "bench" / "checkouts.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("checkouts", mod)  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


ck = _load()


def test_median_ratio_and_table_by_hand():
    bench = ck.Bench("b", "b.py", (), (("t", "the time, s"), ("deep.x", "a nested one, s")))
    results = {("b", "old"): [{"t": 2.0, "deep": {"x": 1.0}}, {"t": 4.0, "deep": {"x": 1.0}},
                              {"t": 3.0, "deep": {"x": 1.0}}],
               ("b", "new"): [{"t": 9.0, "deep": {"x": 1.2}}, {"t": 3.3, "deep": {"x": 1.1}},
                              {"t": 3.0, "deep": {"x": 1.15}}]}
    t, x = ck.rows_of([bench], results)
    assert (t.old_median, t.new_median) == (3.0, 3.3)  # medians of (2, 4, 3) and (9, 3.3, 3)
    assert t.ratio == pytest.approx(1.1)
    assert x.ratio == pytest.approx(1.15)  # exactly at the tolerance: within
    table = ck.markdown([t, x]).splitlines()
    assert table[0] == "| bench | what | old median | new median | new/old | within 15 %? |"
    assert table[2] == "| b | the time, s | 3.000 | 3.300 | 1.10 | yes |"
    assert table[3] == "| b | a nested one, s | 1.000 | 1.150 | 1.15 | yes |"


def test_a_slower_new_tree_and_a_failed_one_are_said():
    bench = ck.Bench("b", "b.py", (), (("t", "t"),))
    slow = ck.rows_of([bench], {("b", "old"): [{"t": 1.0}, {"t": 1.0}], ("b", "new"): [{"t": 1.2}, {"t": 1.3}]})
    assert ck.markdown(slow).splitlines()[2] == "| b | t | 1.000 | 1.250 | 1.25 | **NO** |"  # median of two: mean
    failed = ck.rows_of([bench], {("b", "old"): [{"t": 1.0}]})
    assert ck.markdown(failed).splitlines()[2] == "| b | t | 1.000 | failed | — | — |"


def test_the_last_json_line_of_a_bench_is_read():
    out = 'text {"not": json\n{"a": 1}\nmore text\n{"b": {"c": 2.5}}\n\n'
    assert ck.last_json(out) == {"b": {"c": 2.5}}
    assert ck.headline(ck.last_json(out), "b.c") == 2.5
    with pytest.raises(ValueError, match="no line of JSON"):
        ck.last_json("only text\n")
    with pytest.raises(KeyError, match="'b.d'"):
        ck.headline({"b": {"c": 1}}, "b.d")
    with pytest.raises(TypeError):
        ck.headline({"ok": True}, "ok")


def test_the_text_benches_numbers_are_read_from_their_lines():
    """rank, cv and delong print tables, not JSON (issue 39): lines as their scripts print them, read by TEXT."""
    rank = ("1. frequentist, 30 systems × 100 data sets (435 pairs)\n"
            "   baseline friedmanchisquare + pairwise wilcoxon: 0.912 s\n"
            "   clfeval rank_scores (bayes=False):              0.345 s   ratio 0.38× (target ≤ 2×); x: True\n"
            "2. Bayesian signed-rank, 4 pairs × 100 data sets, 20,000 samples\n"
            "   baycomp.SignedRankTest:   5.000 s\n"
            "   clfeval bayesrank:        0.125 s   ratio 0.025× (target ≤ 1×); largest difference: 0.0040\n")
    assert ck.text_numbers(rank, ck.TEXT["rank"]) == {"frequentist": 0.345, "bayes": 0.125}
    cv = (f"{'scikit-learn cross_validate(return_train_score=True, 3 scorers)':66s} {3.5:8.2f}\n"
          f"{'clfeval cross_validate (test and train metrics per fold)':66s} {2.25:8.2f}\n")
    assert ck.text_numbers(cv, ck.TEXT["cv"]) == {"clfeval": 2.25, "sklearn": 3.5}
    delong = (f"{'np.argsort (1e7 float64)':40s} {0.2:8.3f} {1.0:10.2f}\n"
              f"{'delong_test (two systems)':40s} {0.45:8.3f} {2.25:10.2f}\n")
    assert ck.text_numbers(delong, ck.TEXT["delong"]) == {"delong": 0.45, "argsort": 0.2}
    only_one = ck.text_numbers(rank.split("2.")[0], ck.TEXT["rank"])  # baycomp missing: its row reads as failed
    bench = next(b for b in ck.BENCHES if b.name == "rank")
    rows = ck.rows_of([bench], {("rank", "old"): [only_one], ("rank", "new"): [only_one]})
    assert [r.new for r in rows] == [[0.345], []]
    with pytest.raises(ValueError, match="none of the bench's numbers"):
        ck.text_numbers("nothing\n", ck.TEXT["delong"])


def test_abba_order_and_only():
    assert [ck.order(r) for r in range(4)] == [("old", "new"), ("new", "old"), ("old", "new"), ("new", "old")]
    assert [b.name for b in ck.select("latency,slices-search")] == ["latency", "slices-search"]
    with pytest.raises(SystemExit, match="unknown bench"):
        ck.select("nope")


def test_every_bench_of_the_acceptance_is_listed_and_exists():
    scripts = {b.script for b in ck.BENCHES}
    assert scripts == {"report_speed.py", "scale_speed.py", "ranking_speed.py", "cluster_speed.py", "join_speed.py",
                       "slices_speed.py", "errors_speed.py", "significance_speed.py", "compare_by_speed.py",
                       "latency.py", "rank_speed.py", "cv_speed.py", "delong_speed.py"}
    assert sum(b.script == "slices_speed.py" for b in ck.BENCHES) == 2  # both modes
    assert all((ROOT / "bench" / s).is_file() for s in scripts)


def test_a_tree_gets_the_new_scripts_and_its_own_src(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    for tree, files in ((old, {"a.py": "old a", "only_old.py": "o"}), (new, {"a.py": "new a"})):
        (tree / "bench").mkdir(parents=True)
        (tree / "src").mkdir()
        for name, text in files.items():
            (tree / "bench" / name).write_text(text)
    home = Path(ck.stage(str(tmp_path / "stage"), "old", str(old), str(new / "bench"), str(old / "bench")))
    assert (home / "bench" / "a.py").read_text() == "new a"
    assert (home / "bench" / "only_old.py").read_text() == "o"
    assert os.path.realpath(home / "bench" / ".." / "src") == os.path.realpath(old / "src")
