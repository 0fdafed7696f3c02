"""The front door: every operation on every engine over the same inputs gives the same JSON but for the
engine block (in memory = streamed = spilled = Dask), on arrays, a DataFrame with column names and a
directory of Parquet files; the capability table drives the refusals."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import clfeval
from clfeval.engines import Dask, Local, _capabilities as caps
from clfeval.errors import UsageError

N = 1200
LABELS = np.array(["cat", "dog", "eel"])


@pytest.fixture(scope="module")
def cols():
    rng = np.random.default_rng(21)
    gold = LABELS[rng.integers(0, 3, N)]
    pred = np.where(rng.random(N) < 0.7, gold, LABELS[rng.integers(0, 3, N)])
    other = np.where(rng.random(N) < 0.6, gold, LABELS[rng.integers(0, 3, N)])
    prob = np.round(np.clip(np.where(gold == "dog", 0.65, 0.35) + rng.normal(0, 0.2, N), 0, 1), 3)
    words = np.array(["grain", "wheat", "rate", "bank", "fish", "reef", "note", "fund"])
    text = np.array([f"{g} {words[i % 8]} {words[(i * 5) % 8]} {words[rng.integers(0, 8)]}"
                     for i, g in enumerate(gold)])  # for error_analysis
    return {"id": np.arange(N), "gold": gold, "pred": pred, "other": other, "prob": prob, "text": text}


@pytest.fixture(scope="module")
def tree(cols, tmp_path_factory):
    """Two directories of Parquet files (systems a and b), rows split unevenly."""
    root = tmp_path_factory.mktemp("front")
    for name, pred in (("a", cols["pred"]), ("b", cols["other"])):
        d = root / name
        d.mkdir()
        t = pa.table({"id": cols["id"], "gold": cols["gold"], "pred": pred, "prob": cols["prob"], "text": cols["text"],
                      "grp": _groups(cols)})
        for i, (lo, hi) in enumerate([(0, 500), (500, 501), (501, N)]):
            pq.write_table(t.slice(lo, hi - lo), d / f"part-{i}.parquet")
    return root


def _groups(cols):
    """A slice column (issue 26): four groups of uneven sizes."""
    return np.array(["n", "s", "e", "w"])[(cols["id"] * 7 % 11) % 4]


@pytest.mark.parametrize("kind", ["arrays", "frame", "parquet"])
def test_by_slices_give_the_same_json_on_every_engine(kind, cols, tree, dask_client):
    kw = dict(positive="dog", slice_samples=50, seed=3)
    if kind == "arrays":
        run = lambda e: clfeval.report(cols["gold"], cols["pred"], by={"grp": _groups(cols)}, engine=e, **kw)  # noqa: E731
    else:
        data = _inputs(kind, cols, tree, "a")
        if kind == "frame":
            data = data.assign(grp=_groups(cols))
        run = lambda e: clfeval.report(data, by="grp", engine=e, **kw)  # noqa: E731
    base, spilled, on_dask = run(Local()), run(SPILL), run(Dask(dask_client))
    assert [r.engine.to_dict()["name"] for r in (base, spilled, on_dask)] == ["local", "local", "dask"]
    assert base.slices.to_dict()["n_slices"] == 4
    assert _plain(spilled) == _plain(base)
    assert _plain(on_dask) == _plain(base)


@pytest.mark.parametrize("kind", ["arrays", "frame", "parquet"])
@pytest.mark.parametrize("op", ["compare", "calibration"])
def test_compare_and_calibration_by_give_the_same_json_on_every_engine(op, kind, cols, tree, dask_client):
    """Issue 26: ``by=`` of compare (per-slice joint tables) and calibration (per-slice sums) in memory, streamed
    at the smallest budget (arrays and frames spooled) and on Dask."""
    grp = _groups(cols)
    if kind == "arrays":
        if op == "compare":
            run = lambda e: clfeval.compare(cols["gold"], cols["pred"], cols["other"], by={"grp": grp},  # noqa: E731
                                            metric="macro_f1", samples=200, engine=e)
        else:
            run = lambda e: clfeval.calibration(cols["gold"], cols["prob"], positive="dog", by={"grp": grp},  # noqa: E731
                                                engine=e)
    else:
        a, b = _inputs(kind, cols, tree, "a"), _inputs(kind, cols, tree, "b")
        if kind == "frame":
            a = a.assign(grp=grp)
        if op == "compare":
            run = lambda e: clfeval.compare(a, b, by="grp", metric="macro_f1", samples=200, engine=e)  # noqa: E731
        else:
            run = lambda e: clfeval.calibration(a, prob="prob", positive="dog", by="grp", engine=e)  # noqa: E731
    base, spilled, on_dask = run(Local()), run(SPILL), run(Dask(dask_client))
    modes = [r.engine["mode"] for r in (base, spilled, on_dask)]
    in_memory = kind == "arrays" or (kind == "frame" and op == "calibration")  # frames of compare: streamed join
    assert modes == ["memory" if in_memory else "streamed", "streamed", "cluster"]
    rows = base.slices.rows if op == "calibration" else base.slices  # calibration: a part; compare: its rows
    assert len(rows) == 4 and sum(r.n for r in rows) == N
    assert _plain(spilled) == _plain(base)
    assert _plain(on_dask) == _plain(base)


def test_by_bins_give_the_same_edges_and_slices_on_every_engine(tree, dask_client):
    kw = dict(by="prob,grp", by_bins=3, by_binning="quantile", positive="dog", slice_samples=20)
    base = clfeval.report(str(tree / "a"), **kw)
    assert base.slices.to_dict()["n_slices"] == 12 and len(base.slices.to_dict()["binning"]) == 1
    assert _plain(clfeval.report(str(tree / "a"), engine=SPILL, **kw)) == _plain(base)
    assert _plain(clfeval.report(str(tree / "a"), engine=Dask(dask_client), **kw)) == _plain(base)


@pytest.mark.parametrize("kind", ["arrays", "parquet"])
def test_find_slices_gives_the_same_search_on_every_engine(kind, cols, tree, dask_client):
    """Issue 27: the lattice's tables counted in one pass, in memory, streamed at the smallest budget, on Dask."""
    kw = dict(positive="dog", by_bins=3, find_alpha=0.5)
    if kind == "arrays":
        find = {"grp": _groups(cols), "prob": cols["prob"]}
        run = lambda e: clfeval.report(cols["gold"], cols["pred"], find_slices=find, engine=e, **kw)  # noqa: E731
    else:
        run = lambda e: clfeval.report(str(tree / "a"), find_slices="grp,prob", engine=e, **kw)  # noqa: E731
    base, spilled, on_dask = run(Local()), run(SPILL), run(Dask(dask_client))
    found = base.find_slices.to_dict()
    assert found["examined"] == 4 + 3 + 12 and found["metric"] == "recall:dog"
    assert _plain(spilled) == _plain(base)
    assert _plain(on_dask) == _plain(base)


def _plain(result):
    """The JSON without the engine block and the engine's own details (``external``, spill notes)."""
    d = json.loads(json.dumps(result.to_dict(), default=str, allow_nan=True))

    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ("engine", "external")}
        if isinstance(x, list):
            return [strip(v) for v in x if not (isinstance(v, str) and ("spilled to disk" in v or
                                                                        v.startswith("Streamed:")))]
        return x
    return strip(d)


SPILL = Local(memory=4096)  # the smallest budget: every input spools and every ranking spills


def _inputs(kind, cols, tree, which="a"):
    pred = cols["pred"] if which == "a" else cols["other"]
    if kind == "frame":
        pd = pytest.importorskip("pandas")
        return pd.DataFrame({"id": cols["id"], "gold": cols["gold"], "pred": pred, "prob": cols["prob"],
                             "text": cols["text"]})
    return str(tree / which)


def _ops(kind, cols, tree):
    """Each operation as a function of the engine, over one kind of input."""
    if kind == "arrays":
        g, p, o, s = cols["gold"], cols["pred"], cols["other"], cols["prob"]
        return {
            "report": lambda e: clfeval.report(g, p, positive="dog", engine=e),
            "compare": lambda e: clfeval.compare(g, p, o, metric="macro_f1", samples=300, names=("a", "b"), engine=e),
            "threshold": lambda e: clfeval.threshold(g, s, positive="dog", engine=e),
            "calibration": lambda e: clfeval.calibration(g, s, positive="dog", engine=e),
            "ranking": lambda e: clfeval.ranking(g, s, positive="dog", engine=e),
            "error_analysis": lambda e: clfeval.error_analysis(g, p, text=cols["text"], ids=cols["id"], min_count=1,
                                                               engine=e),
        }
    a, b = _inputs(kind, cols, tree, "a"), _inputs(kind, cols, tree, "b")
    return {
        "report": lambda e: clfeval.report(a, score="prob", positive="dog", engine=e),
        "compare": lambda e: clfeval.compare(a, b, metric="macro_f1", samples=300, names=("a", "b"), engine=e),
        "threshold": lambda e: clfeval.threshold(a, score="prob", positive="dog", engine=e),
        "calibration": lambda e: clfeval.calibration(a, prob="prob", positive="dog", engine=e),
        "ranking": lambda e: clfeval.ranking(a, score="prob", positive="dog", engine=e),
        "error_analysis": lambda e: clfeval.error_analysis(a, id="id", min_count=1, engine=e),
    }


@pytest.mark.parametrize("kind", ["arrays", "frame", "parquet"])
@pytest.mark.parametrize("op", caps.OPERATIONS)
def test_every_operation_gives_the_same_json_on_every_engine(op, kind, cols, tree, dask_client):
    run = _ops(kind, cols, tree)[op]
    base = run(Local())
    spilled = run(SPILL)
    on_dask = run(Dask(dask_client))
    blocks = [r.engine for r in (base, spilled, on_dask)]
    assert [b["name"] for b in blocks] == ["local", "local", "dask"]
    # error_analysis streams a PATH batch by batch and never spills (its table is term × cell counts)
    assert blocks[1]["spilled"] is (op != "error_analysis" or kind != "parquet") and blocks[1]["memory"] == 4096
    if kind == "arrays" or (kind == "frame" and op != "compare"):  # frames of compare are spooled (streamed join)
        assert blocks[0]["mode"] == "memory" and blocks[0]["spilled"] is False
    assert _plain(spilled) == _plain(base)
    assert _plain(on_dask) == _plain(base)  # notes and signature too: one wording whatever the engine


def test_the_numbers_are_the_oracles(cols):
    """Arrays through the front door: scikit-learn's numbers (independent of the engine)."""
    metrics = pytest.importorskip("sklearn.metrics")
    r = clfeval.report(cols["gold"], cols["pred"], engine=Local(memory=4096))
    assert r.accuracy == pytest.approx(metrics.accuracy_score(cols["gold"], cols["pred"]), abs=1e-15)
    y = cols["gold"] == "dog"
    rk = clfeval.ranking(cols["gold"], cols["prob"], positive="dog", engine=Local(memory=4096))
    assert rk.roc_auc == pytest.approx(metrics.roc_auc_score(y, cols["prob"]), abs=1e-12)


def test_count_report_intervals_and_training_labels_run_on_dask(cols, tree, dask_client):
    train = ["cat"] * 5 + ["dog"] * 3 + ["eel"] * 2
    local = clfeval.report(str(tree / "a"), ci=0.9, samples=200, train_labels=train)
    remote = clfeval.report(str(tree / "a"), ci=0.9, samples=200, train_labels=train, engine=Dask(dask_client))
    assert _plain(remote) == _plain(local)
    assert local.ci is not None


@pytest.mark.parametrize("op, kwargs, needle", [
    ("report", dict(scores_prefix="p:"), "scores_prefix"),
    ("report", dict(show_errors=3), "show_errors"),
    ("calibration", dict(prob="prob", positive="dog", strategy="quantile"), "strategy quantile"),
    ("threshold", dict(scores_prefix="p:", multilabel=True), "scores_prefix"),
])
def test_the_capability_table_refuses_before_any_work(op, kwargs, needle, tree):
    with pytest.raises(UsageError) as err:
        getattr(clfeval, op)(str(tree / "a"), engine=Dask("tcp://127.0.0.1:1"), **kwargs)
    text = str(err.value)
    assert needle in text and "engine dask does not run" in text
    reason = next(c.dask for c in caps.TABLE if c.operation == op and c.option.startswith(needle.split()[0]))
    assert reason in text


def test_the_table_renders_for_the_docs_and_the_help():
    md = caps.markdown()
    assert md.count("\n") == len(caps.TABLE) + 1
    assert all(c.option in md for c in caps.TABLE)
    assert "--strategy quantile (equal-mass bins need" in caps.help_note("calibration")


def test_the_guides_table_is_the_generated_one():
    """The large-data guide page holds a marker that docs/hooks.py replaces by the generated table, at build time."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "guide" / "large-data.md").read_text(encoding="utf-8")
    assert page.count("<!-- clfeval:capabilities -->") == 1
    spec = importlib.util.spec_from_file_location("clfeval_docs_hooks", root / "docs" / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    built = hooks.on_page_markdown(page)
    block = built.split("## What each engine runs", 1)[1]
    assert caps.markdown() in block and built.count(caps.markdown().splitlines()[2]) == 1
    assert "<!-- clfeval:capabilities -->" not in built


def test_binned_ranking_is_the_same_on_every_engine_and_within_its_bound(cols, tree, dask_client):
    """--score-bins: the same bins and counts locally, spilled and on Dask; the exact AUC within the printed bound."""
    metrics = pytest.importorskip("sklearn.metrics")
    path = str(tree / "a")
    runs = [clfeval.report(path, score="prob", positive="dog", score_bins=16, engine=e)
            for e in (Local(), SPILL, Dask(dask_client))]
    assert _plain(runs[1]) == _plain(runs[0]) and _plain(runs[2]) == _plain(runs[0])
    rk = runs[0].ranking
    exact = metrics.roc_auc_score(cols["gold"] == "dog", cols["prob"])
    bound = rk.binned["auc_error_bound"]
    assert 0 < bound < 0.1
    assert abs(rk.roc_auc - exact) <= bound + 1e-12


def test_no_submodule_shadows_an_operation():
    """style.md's trap: a submodule named like a public function rebinds the package attribute when imported."""
    import importlib
    import pkgutil
    import types

    for info in pkgutil.walk_packages(clfeval.__path__, "clfeval."):
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional extra that is not installed
            continue
    for name in caps.OPERATIONS:
        assert isinstance(getattr(clfeval, name), types.FunctionType), name
        assert getattr(clfeval, name).__module__.startswith("clfeval.front."), name
