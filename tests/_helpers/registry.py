"""The registry of the front door's cases (issue 36): the seven operations × (arrays, a DataFrame with column names,
a PATH) × their variants (plain, ``by=``, per label, several systems, ...), each a call on small seeded data.

``CASES`` maps a case's name to a function of a directory (where the PATH inputs are written, once per directory by
:func:`write_inputs`) that returns the operation's result. ``tools/golden_json.py`` dumps ``to_dict()`` of every case
(``signature.versions`` masked) into ``tests/_helpers/golden/registry/``: made from main before the typed-results
change, checked in as data, and compared by ``tests/project/test_registry_json.py``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pcsv

import clfeval
import clfeval.scores

N = 240
LABELS = np.array(["cat", "dog", "eel"])


def columns() -> dict[str, np.ndarray]:
    """The data every case reads: three classes, two systems, one score for 'dog', class probabilities, a slice
    column, texts, label sets with per-label scores."""
    rng = np.random.default_rng(36)
    gold = LABELS[rng.integers(0, 3, N)]
    pred = np.where(rng.random(N) < 0.7, gold, LABELS[rng.integers(0, 3, N)])
    other = np.where(rng.random(N) < 0.55, gold, LABELS[rng.integers(0, 3, N)])
    score = np.round(np.clip(np.where(gold == "dog", 0.65, 0.35) + rng.normal(0, 0.2, N), 0, 1), 3)
    score_b = np.round(np.clip(np.where(gold == "dog", 0.6, 0.4) + rng.normal(0, 0.25, N), 0, 1), 3)
    raw = rng.dirichlet([1, 1, 1], N) + np.eye(3)[np.searchsorted(LABELS, gold)] * 1.5
    probs = np.round(raw / raw.sum(axis=1, keepdims=True), 6)
    probs[:, 2] = 1 - probs[:, 0] - probs[:, 1]
    words = np.array(["grain", "wheat", "rate", "bank", "fish", "reef", "note", "fund"])
    text = np.array([f"{g} {words[i % 8]} {words[(i * 5) % 8]} {words[rng.integers(0, 8)]}"
                     for i, g in enumerate(gold)])
    grp = np.array(["n", "s", "e", "w"])[rng.integers(0, 4, N)]
    sets_gold = np.array(["grain", "trade", "grain|trade", "money"])[rng.integers(0, 4, N)]
    keep = rng.random(N) < 0.7
    sets_pred = np.where(keep, sets_gold, np.array(["grain", "trade", "money", ""])[rng.integers(0, 4, N)])
    s_grain = np.round((np.char.find(sets_gold, "grain") >= 0) * 0.5 + rng.random(N) * 0.5, 3)
    s_trade = np.round((np.char.find(sets_gold, "trade") >= 0) * 0.5 + rng.random(N) * 0.5, 3)
    s_money = np.round((np.char.find(sets_gold, "money") >= 0) * 0.5 + rng.random(N) * 0.5, 3)
    return {"id": np.arange(N), "gold": gold, "pred": pred, "other": other, "score": score, "score_b": score_b,
            "p:cat": probs[:, 0], "p:dog": probs[:, 1], "p:eel": probs[:, 2], "text": text, "grp": grp,
            "sets_gold": sets_gold, "sets_pred": sets_pred, "s:grain": s_grain, "s:trade": s_trade,
            "s:money": s_money}


def frame(names: tuple[str, ...] = ("id", "gold", "pred", "score", "grp", "text")) -> pd.DataFrame:
    c = columns()
    return pd.DataFrame({n: c[n] for n in names})


def write_inputs(root: Path) -> None:
    """The PATH inputs: a.csv (system a), b.csv (system b), probs.csv, sets.csv, demsar.csv (wide scores)."""
    c = columns()
    half = N // 2
    for name, pred, score in (("a", c["pred"], c["score"]), ("b", c["other"], c["score_b"])):
        t = pa.table({"id": c["id"], "gold": c["gold"], "pred": pred, "score": score, "grp": c["grp"],
                      "text": c["text"]})
        pcsv.write_csv(t, root / f"{name}.csv")
        pcsv.write_csv(t.slice(0, half), root / f"{name}_dev.csv")
        pcsv.write_csv(t.slice(half), root / f"{name}_test.csv")
    binary = pa.table({"gold": np.where(c["gold"] == "dog", "dog", "not"), "score": c["score"], "grp": c["grp"]})
    pcsv.write_csv(binary.slice(0, half), root / "bin_dev.csv")
    pcsv.write_csv(binary.slice(half), root / "bin_test.csv")
    pcsv.write_csv(pa.table({"gold": c["gold"], "pred": c["pred"], "p:cat": c["p:cat"], "p:dog": c["p:dog"],
                             "p:eel": c["p:eel"]}), root / "probs.csv")
    sets = pa.table({"id": c["id"], "gold": c["sets_gold"], "pred": c["sets_pred"], "text": c["text"],
                     "s:grain": c["s:grain"], "s:trade": c["s:trade"], "s:money": c["s:money"]})
    pcsv.write_csv(sets, root / "sets.csv")
    pcsv.write_csv(sets.slice(0, half), root / "sets_dev.csv")
    pcsv.write_csv(sets.slice(half), root / "sets_test.csv")
    rng = np.random.default_rng(7)
    wide = pd.DataFrame({"dataset": [f"d{i:02d}" for i in range(14)]})
    base = rng.uniform(0.6, 0.9, 14)
    for k, name in enumerate(["A", "B", "C", "D"]):
        wide[name] = np.round(base + k * 0.01 + rng.normal(0, 0.02, 14), 4)
    wide.to_csv(root / "wide.csv", index=False)


def _dev_test(kind: str, root: Path) -> tuple[Any, Any]:
    c = columns()
    half = N // 2
    if kind == "arrays":
        return (c["gold"][half:], c["score"][half:]), (c["gold"][:half], c["score"][:half])
    if kind == "frame":
        f = frame()
        return f.iloc[half:].reset_index(drop=True), f.iloc[:half].reset_index(drop=True)
    return str(root / "a_test.csv"), str(root / "a_dev.csv")


def _report_cases() -> dict[str, Callable[[Path], Any]]:
    c = columns
    return {
        "report/arrays": lambda r: clfeval.report(c()["gold"], c()["pred"]),
        "report/frame": lambda r: clfeval.report(frame()),
        "report/path": lambda r: clfeval.report(str(r / "a.csv")),
        "report/frame-scored": lambda r: clfeval.report(frame(), score="score", positive="dog"),
        "report/arrays-ci": lambda r: clfeval.report(c()["gold"], c()["pred"], ci=0.95, samples=200, seed=1),
        "report/frame-by": lambda r: clfeval.report(frame(), by="grp", positive="dog", slice_samples=50, seed=2),
        "report/path-find": lambda r: clfeval.report(str(r / "a.csv"), find_slices=["grp"], positive="dog"),
        "report/arrays-multilabel": lambda r: clfeval.report(list(c()["sets_gold"]), list(c()["sets_pred"]),
                                                            multilabel=True),
        "report/frame-require": lambda r: clfeval.report(frame(), require=["macro_f1>=0.5", "accuracy>majority"]),
    }


def _compare_cases() -> dict[str, Callable[[Path], Any]]:
    c = columns
    two = lambda: frame().assign(other=c()["other"])  # noqa: E731
    return {
        "compare/arrays": lambda r: clfeval.compare(c()["gold"], c()["pred"], c()["other"], samples=200, seed=1),
        "compare/frame-preds": lambda r: clfeval.compare(two(), pred=["pred", "other"], test="mcnemar"),
        "compare/path": lambda r: clfeval.compare(str(r / "a.csv"), str(r / "b.csv"), id="id", metric="macro_f1",
                                                  samples=200, seed=1),
        "compare/arrays-many": lambda r: clfeval.compare(c()["gold"], c()["pred"], c()["other"], c()["gold"],
                                                         samples=200, seed=1),
        "compare/path-delong": lambda r: clfeval.compare(str(r / "a.csv"), str(r / "b.csv"), id="id", test="delong",
                                                         metric="roc_auc",
                                                         score="score", positive="dog"),
        "compare/arrays-margin": lambda r: clfeval.compare(c()["gold"], c()["pred"], c()["other"], margin=0.05,
                                                           samples=200, seed=1),
        "compare/frame-by": lambda r: clfeval.compare(str(r / "a.csv"), str(r / "b.csv"), id="id", by="grp",
                                                      samples=200, seed=1),
    }


def _threshold_cases() -> dict[str, Callable[[Path], Any]]:
    def one(kind: str) -> Callable[[Path], Any]:
        def run(r: Path) -> Any:
            test, dev = _dev_test(kind, r)
            if kind == "arrays":
                return clfeval.threshold(test[0], test[1], dev=dev, positive="dog")
            return clfeval.threshold(test, dev=dev, score="score", positive="dog")
        return run
    return {
        "threshold/arrays": one("arrays"),
        "threshold/frame": one("frame"),
        "threshold/path": one("path"),
        "threshold/path-labels": lambda r: clfeval.threshold(str(r / "sets_test.csv"), dev=str(r / "sets_dev.csv"),
                                                             scores_prefix="s:", multilabel=True),
        "threshold/path-by": lambda r: clfeval.threshold(str(r / "bin_test.csv"), dev=str(r / "bin_dev.csv"),
                                                         score="score", positive="dog", by="grp", min_slice=10),
    }


def _calibration_cases() -> dict[str, Callable[[Path], Any]]:
    c = columns
    return {
        "calibration/arrays": lambda r: clfeval.calibration(c()["gold"], c()["score"], positive="dog", bins=5),
        "calibration/frame": lambda r: clfeval.calibration(frame(), prob="score", positive="dog", bins=5),
        "calibration/path": lambda r: clfeval.calibration(str(r / "a.csv"), prob="score", positive="dog"),
        "calibration/path-classes": lambda r: clfeval.calibration(str(r / "probs.csv"), probs_prefix="p:"),
        "calibration/frame-by": lambda r: clfeval.calibration(frame(), prob="score", positive="dog", by="grp",
                                                              bins=4, min_slice=10),
    }


def _ranking_cases() -> dict[str, Callable[[Path], Any]]:
    c = columns
    return {
        "ranking/arrays": lambda r: clfeval.ranking(c()["gold"], c()["score"], positive="dog"),
        "ranking/frame": lambda r: clfeval.ranking(frame(), score="score", positive="dog"),
        "ranking/path": lambda r: clfeval.ranking(str(r / "a.csv"), score="score", positive="dog"),
        "ranking/arrays-ovr": lambda r: clfeval.scores.ranking_ovr(c()["gold"], {k: c()[f"p:{k}"] for k in LABELS}),
    }


def _errors_cases() -> dict[str, Callable[[Path], Any]]:
    c = columns
    return {
        "error_analysis/arrays": lambda r: clfeval.error_analysis(c()["gold"], c()["pred"], text=c()["text"],
                                                                  min_count=2),
        "error_analysis/frame": lambda r: clfeval.error_analysis(frame(), id="id", min_count=2),
        "error_analysis/path": lambda r: clfeval.error_analysis(str(r / "a.csv"), id="id", min_count=2,
                                                                score="score"),
        "error_analysis/path-sets": lambda r: clfeval.error_analysis(str(r / "sets.csv"), id="id", min_count=2,
                                                                     multilabel=True),
    }


def _rank_cases() -> dict[str, Callable[[Path], Any]]:
    def long(r: Path) -> pd.DataFrame:
        w = pd.read_csv(r / "wide.csv")
        return w.melt(id_vars="dataset", var_name="system", value_name="score")
    return {
        "rank/frame": lambda r: clfeval.rank(pd.read_csv(r / "wide.csv"), higher_is_better=True, samples=2000),
        # arrays: the same wide table as a mapping of column name to values (added after the golden dump; its
        # golden JSON is rank/frame's, the same data)
        "rank/arrays": lambda r: clfeval.rank({k: v.to_numpy() for k, v in pd.read_csv(r / "wide.csv").items()},
                                              higher_is_better=True, samples=2000),
        "rank/path": lambda r: clfeval.rank(str(r / "wide.csv"), higher_is_better=True, bayes=False),
        "rank/frame-long-pairs": lambda r: clfeval.rank(long(r), higher_is_better=True, pairs=["A:B", "C:D"],
                                                        samples=2000, control="A"),
    }


def _protocol_cases() -> dict[str, Callable[[Path], Any]]:
    """Issue 39: cv and holdout, a text model per fold (nb: exact counts, no solver), on a.csv's text and
    its slice column grp as the label (four classes the texts barely predict: numbers that are not all 1)."""
    c = columns
    return {
        "cv/arrays": lambda r: clfeval.cv(c()["text"], c()["grp"], folds=3, stratified=True, seed=5),
        "cv/frame": lambda r: clfeval.cv(frame(), text="text", label="grp", folds=3, stratified=True, seed=5),
        "cv/path": lambda r: clfeval.cv(str(r / "a.csv"), text="text", label="grp", folds=3, stratified=True,
                                        seed=5),
        "holdout/arrays": lambda r: clfeval.holdout(list(c()["text"]), list(c()["grp"]), test_size=0.25,
                                                    val_size=0.25, seed=5),
        "holdout/frame": lambda r: clfeval.holdout(frame(), text="text", label="grp", test_size=0.25, val_size=0.25,
                                                   seed=5),
        "holdout/path": lambda r: clfeval.holdout(r / "a.csv", text="text", label="grp", test_size=0.25,
                                                  val_size=0.25, seed=5),
    }


def _power_cases() -> dict[str, Callable[[Path], Any]]:
    c = columns
    b = lambda: frame().assign(pred=c()["other"])  # noqa: E731  (system b: the other predictions, same items)
    return {
        "power/arrays": lambda r: clfeval.power(c()["pred"], c()["other"], gold=c()["gold"], delta=0.05),
        "power/arrays-width": lambda r: clfeval.power(c()["pred"], gold=c()["gold"], metric="macro_f1", width=0.05,
                                                      samples=200, seed=1),
        "power/frame": lambda r: clfeval.power(frame(), b(), metric="macro_f1", delta=0.05, samples=200, seed=1),
        "power/path": lambda r: clfeval.power(str(r / "a.csv"), str(r / "b.csv"), id="id", delta=0.05),
        "power/path-width": lambda r: clfeval.power(str(r / "a.csv"), width=0.05, samples=200, seed=1),
    }


def _label_issues_cases() -> dict[str, Callable[[Path], Any]]:
    """Issue 41: likely label errors from the class probabilities (the same items in every kind of input)."""
    c = columns
    probs = lambda: np.stack([c()["p:cat"], c()["p:dog"], c()["p:eel"]], axis=1)  # noqa: E731
    return {
        "label_issues/arrays": lambda r: clfeval.label_issues(probs(), c()["gold"], labels=list(LABELS)),
        "label_issues/frame": lambda r: clfeval.label_issues(frame(("gold", "p:cat", "p:dog", "p:eel"))),
        "label_issues/path": lambda r: clfeval.label_issues(str(r / "probs.csv")),
    }


CASES: dict[str, Callable[[Path], Any]] = {
    **_report_cases(), **_compare_cases(), **_threshold_cases(), **_calibration_cases(), **_ranking_cases(),
    **_errors_cases(), **_rank_cases(), **_power_cases(),
    **_protocol_cases(), **_label_issues_cases(),
}


def masked(d: Any) -> Any:
    """``to_dict()`` parsed as its JSON is, with ``signature.versions`` (library versions) masked wherever it is."""
    def walk(x: Any, key: str | None = None) -> Any:
        if isinstance(x, dict):
            return {k: ("<masked>" if k == "versions" and key == "signature" else walk(v, k)) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [walk(v) for v in x]
        if isinstance(x, float) and not math.isfinite(x):
            return repr(x)
        return x
    return walk(json.loads(json.dumps(d, default=str)))


def dump(result: Any) -> str:
    return json.dumps(masked(result.to_dict()), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
