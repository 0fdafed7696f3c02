"""One call per row of the capability table (issue 38, item 4), for each input kind.

``CALLS[(operation, option)][kind]`` is either a function ``(data, engine) -> result`` that uses that option with
one value on that kind of input, or a string: the reason the option does not exist for that kind (a skip that
names why, never a silent gap). The kinds are ``arrays`` (NumPy arrays and mappings of them), ``frame`` (a pandas
DataFrame with column names) and ``parquet`` (a directory of Parquet files split unevenly into three).

:class:`Inputs` is the one data set every call reads: small (:data:`N` items), seeded, written once per module.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq

import clfeval

N = 200
LABELS = np.array(["cat", "dog", "eel"])
SETS = ("grain", "trade", "money")
KINDS = ("arrays", "frame", "parquet")
#: A few resamples: enough to compare the JSON, small enough for the whole table in seconds.
SAMPLES = 100


class Inputs:
    """The columns, the DataFrames and the Parquet directories of every call (and one Parquet file
    for standard input).

    Systems a, b, c (predictions ``pred``, the positive class's score ``prob``, class probabilities ``p:<label>``),
    the first half of a as ``dev`` and the second as ``test``, label sets (``sets``: per-label scores ``s:<label>``),
    a repeated out-of-fold file (``oof``: repeats 0 and 1) and a file of texts (``texts``: id, text)."""

    def __init__(self, root: Path) -> None:
        rng = np.random.default_rng(38)
        gold = LABELS[rng.integers(0, 3, N)]
        c: dict[str, Any] = {"id": np.arange(N), "gold": gold}
        words = np.array(["grain", "wheat", "rate", "bank", "fish", "reef", "note", "fund"])
        c["text"] = np.array([f"{g} {words[i % 8]} {words[(i * 5) % 8]} {words[rng.integers(0, 8)]}"
                              for i, g in enumerate(gold)])
        c["grp"] = np.array(["n", "s", "e", "w"])[(np.arange(N) * 7 % 11) % 4]
        self.systems: dict[str, dict[str, Any]] = {}
        for name, right, spread in (("a", 0.7, 0.2), ("b", 0.6, 0.25), ("c", 0.5, 0.3)):
            pred = np.where(rng.random(N) < right, gold, LABELS[rng.integers(0, 3, N)])
            prob = np.round(np.clip(np.where(gold == "dog", 0.65, 0.35) + rng.normal(0, spread, N), 0, 1), 3)
            raw = rng.dirichlet([1, 1, 1], N) + np.eye(3)[np.searchsorted(LABELS, gold)] * 1.5
            probs = np.round(raw / raw.sum(axis=1, keepdims=True), 6)
            probs[:, 2] = np.round(1 - probs[:, 0] - probs[:, 1], 6)
            self.systems[name] = {**c, "pred": pred, "prob": prob,
                                  **{f"p:{k}": probs[:, j] for j, k in enumerate(LABELS)}}
        self.cols = self.systems["a"]
        self.binary = {"id": c["id"], "gold": np.where(gold == "dog", "dog", "not"), "prob": self.cols["prob"],
                       "grp": c["grp"]}
        sets_gold = np.array(["grain", "trade", "grain|trade", "money"])[rng.integers(0, 4, N)]
        keep = rng.random(N) < 0.7
        sets_pred = np.where(keep, sets_gold, np.array(["grain", "trade", "money", ""])[rng.integers(0, 4, N)])
        self.sets = {"id": np.arange(N), "gold": sets_gold, "pred": sets_pred, "text": c["text"],
                     **{f"s:{k}": np.round((np.char.find(sets_gold, k) >= 0) * 0.5 + rng.random(N) * 0.5, 3)
                        for k in SETS}}
        oof = {k: np.concatenate([v, v]) for k, v in self.cols.items() if k in ("id", "gold", "pred")}
        oof["pred"] = np.concatenate([self.cols["pred"], self.systems["b"]["pred"]])
        self.oof = {"repeat": np.repeat([0, 1], N), **oof}
        oof_b = dict(self.oof, pred=np.concatenate([self.systems["c"]["pred"], self.cols["pred"]]))
        half = N // 2
        tables = {**{k: v for k, v in self.systems.items()},
                  "dev": {k: v[:half] for k, v in self.cols.items()},
                  "test": {k: v[half:] for k, v in self.cols.items()},
                  "bin": self.binary, "bin_dev": {k: v[:half] for k, v in self.binary.items()},
                  "bin_test": {k: v[half:] for k, v in self.binary.items()},
                  "sets": self.sets, "sets_dev": {k: v[:half] for k, v in self.sets.items()},
                  "sets_test": {k: v[half:] for k, v in self.sets.items()},
                  "oof_a": self.oof, "oof_b": oof_b,
                  "notext": {k: v for k, v in self.cols.items() if k != "text"}}
        self.frames = {k: pd.DataFrame(v) for k, v in tables.items()}
        self.dirs = {}
        for name, cols in tables.items():
            d = root / name
            d.mkdir()
            t = pa.table(cols)
            n = t.num_rows
            for i, (lo, hi) in enumerate([(0, n // 2), (n // 2, n // 2 + 1), (n // 2 + 1, n)]):  # uneven, three
                pq.write_table(t.slice(lo, hi - lo), d / f"part-{i}.parquet")
            self.dirs[name] = str(d)
        self.texts = str(root / "texts.csv")
        pcsv.write_csv(pa.table({"id": c["id"], "text": c["text"]}), self.texts)
        self.flags = str(root / "flags.csv")  # label-issues' --flagged file: every 7th id, and one not in the data
        flagged = [*range(0, N, 7), N + 1]
        pcsv.write_csv(pa.table({"id": flagged, "suggested": [str(LABELS[i % 3]) for i in flagged]}), self.flags)
        buf = io.BytesIO()
        pq.write_table(pa.table({k: self.cols[k] for k in ("id", "gold", "pred")}), buf)
        self.piped = buf.getvalue()  # system a as one Parquet file, for standard input

    def of(self, kind: str, name: str = "a") -> Any:
        """Table ``name`` as that kind of input (a DataFrame or a Parquet directory)."""
        return self.frames[name] if kind == "frame" else self.dirs[name]


@contextlib.contextmanager
def stdin(data: bytes) -> Iterator[None]:
    """``data`` as this process's standard input, for one call."""
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdin = saved


Call = Callable[[Inputs, Any], Any]
#: Per input kind: the call, or the reason the option does not exist for that kind.
Kinds = dict[str, Call | str]


def _tabular(call: Callable[[_Kind, Any], Any]) -> Kinds:
    """The same call for a DataFrame and a Parquet directory (it reads its tables through ``k.of(name)``)."""
    return {"frame": lambda x, e: call(_Kind(x, "frame"), e), "parquet": lambda x, e: call(_Kind(x, "parquet"), e)}


class _Kind:
    """An :class:`Inputs` seen as one kind: ``k.of(name)`` is that table as a DataFrame or a directory."""

    def __init__(self, x: Inputs, kind: str) -> None:
        self.x, self.kind = x, kind

    def of(self, name: str = "a") -> Any:
        return self.x.of(self.kind, name)


def _sets_scores(cols: dict[str, Any]) -> dict[str, Any]:
    return {k: cols[f"s:{k}"] for k in SETS}


def _probs(cols: dict[str, Any]) -> dict[str, Any]:
    return {k: cols[f"p:{k}"] for k in LABELS}


R, C, T, K, G, E, P = (clfeval.report, clfeval.compare, clfeval.threshold, clfeval.calibration, clfeval.ranking,
                       clfeval.error_analysis, clfeval.power)
DOG = {"positive": "dog"}
BOOT = {"samples": SAMPLES, "seed": 1}
AUC = {"metric": "roc_auc", "score": "prob", "positive": "dog"}
_NO_PATH = "standard input ('-') is a PATH; arrays and DataFrames are not read from a PATH"
_NO_REPEAT = "repeat selects rows of an out-of-fold file by its repeat column; arrays have no columns"
_NO_BINS = ("score_bins bins the score column named by score=; arrays give scores=, which the front door refuses "
            "with score_bins ('one-vs-rest rankings are exact only')")
_NO_TEXTS = ("texts joins a second file to the data by its id column; arrays give the texts as an array (text=), "
             "and with arrays texts= is refused ('give pred and text as arrays too')")

_NO_LABEL_ISSUES = ("label_issues matches the flagged items to the compared items by their id column; arrays have "
                    "no columns (compare refuses them with label_issues)")
_NO_RUNS = "runs_db reads a clfeval run log (the runs cv and holdout record), which no input kind here is"
_NO_LISTS = "a table's or a PATH's label sets are text cells of one column (sep), never ragged arrays of lists"


def _lists(cells: Any) -> list[list[str]]:
    """Label sets as ragged lists (``"a|b"`` → ``["a", "b"]``, ``""`` → ``[]``)."""
    return [str(c).split("|") if str(c) else [] for c in cells]


def _flags(x: Inputs) -> str:
    return x.flags


def _a(x: Inputs, name: str = "a") -> dict[str, Any]:
    return x.systems[name]


def _half(v: Any, second: bool) -> Any:
    return v[N // 2:] if second else v[:N // 2]


CALLS: dict[tuple[str, str], Kinds] = {
    ("report", "gold/pred"): {
        "arrays": lambda x, e: R(_a(x)["gold"], _a(x)["pred"], engine=e),
        **_tabular(lambda k, e: R(k.of(), engine=e))},
    ("report", "score"): {
        "arrays": lambda x, e: R(_a(x)["gold"], _a(x)["pred"], scores=_a(x)["prob"], engine=e, **DOG),
        **_tabular(lambda k, e: R(k.of(), score="prob", engine=e, **DOG))},
    ("report", "score_bins"): {
        "arrays": _NO_BINS,
        **_tabular(lambda k, e: R(k.of(), score="prob", score_bins=16, engine=e, **DOG))},
    ("report", "ci"): {
        "arrays": lambda x, e: R(_a(x)["gold"], _a(x)["pred"], ci=0.9, engine=e, **BOOT),
        **_tabular(lambda k, e: R(k.of(), ci=0.9, engine=e, **BOOT))},
    ("report", "ci with score"): {
        "arrays": lambda x, e: R(_a(x)["gold"], _a(x)["pred"], scores=_a(x)["prob"], ci=0.9, engine=e, **DOG, **BOOT),
        **_tabular(lambda k, e: R(k.of(), score="prob", ci=0.9, engine=e, **DOG, **BOOT))},
    ("report", "train_labels"): {
        "arrays": lambda x, e: R(_a(x)["gold"], _a(x)["pred"], train_labels=list(_a(x)["gold"][:40]), engine=e),
        **_tabular(lambda k, e: R(k.of(), train_labels=list(k.x.cols["gold"][:40]), engine=e))},
    ("report", "scores_prefix"): {
        "arrays": lambda x, e: R(_a(x)["gold"], _a(x)["pred"], scores=_probs(_a(x)), engine=e),
        **_tabular(lambda k, e: R(k.of(), scores_prefix="p:", engine=e))},
    ("report", "threshold"): {
        "arrays": lambda x, e: R(x.binary["gold"], scores=x.binary["prob"], threshold=0.5, engine=e, **DOG),
        **_tabular(lambda k, e: R(k.of("bin"), score="prob", threshold=0.5, engine=e, **DOG))},
    ("report", "show_errors"): {
        "arrays": lambda x, e: R(_a(x)["gold"], _a(x)["pred"], show_errors=3, engine=e),
        **_tabular(lambda k, e: R(k.of(), show_errors=3, engine=e))},
    ("report", "multilabel with score"): {
        "arrays": lambda x, e: R(list(x.sets["gold"]), list(x.sets["pred"]), scores=_sets_scores(x.sets),
                                 multilabel=True, engine=e),
        **_tabular(lambda k, e: R(k.of("sets"), scores_prefix="s:", multilabel=True, engine=e))},
    ("report", "arrays of label sets or ragged values"): {
        "arrays": lambda x, e: R(_lists(x.sets["gold"]), _lists(x.sets["pred"]), multilabel=True, engine=e),
        "frame": _NO_LISTS, "parquet": _NO_LISTS},
    ("report", "by"): {
        "arrays": lambda x, e: R(_a(x)["gold"], _a(x)["pred"], by={"grp": _a(x)["grp"]}, slice_samples=50, engine=e,
                                 **DOG),
        **_tabular(lambda k, e: R(k.of(), by="grp", slice_samples=50, engine=e, **DOG))},
    ("compare", "gold/pred"): {
        "arrays": lambda x, e: C(_a(x)["gold"], _a(x)["pred"], _a(x, "b")["pred"], metric="macro_f1", engine=e,
                                 **BOOT),
        **_tabular(lambda k, e: C(k.of(), k.of("b"), id="id", metric="macro_f1", engine=e, **BOOT))},
    ("compare", "by"): {
        "arrays": lambda x, e: C(_a(x)["gold"], _a(x)["pred"], _a(x, "b")["pred"], by={"grp": _a(x)["grp"]},
                                 engine=e, **BOOT),
        **_tabular(lambda k, e: C(k.of(), k.of("b"), id="id", by="grp", engine=e, **BOOT))},
    ("compare", "more than two inputs"): {
        "arrays": lambda x, e: C(_a(x)["gold"], _a(x)["pred"], _a(x, "b")["pred"], _a(x, "c")["pred"], engine=e,
                                 **BOOT),
        **_tabular(lambda k, e: C(k.of(), k.of("b"), k.of("c"), id="id", engine=e, **BOOT))},
    ("compare", "score"): {
        "arrays": lambda x, e: C(_a(x)["gold"], _a(x)["prob"], _a(x, "b")["prob"], metric="roc_auc", engine=e,
                                 **DOG, **BOOT),
        **_tabular(lambda k, e: C(k.of(), k.of("b"), id="id", engine=e, **AUC, **BOOT))},
    ("compare", "test=delong"): {
        "arrays": lambda x, e: C(_a(x)["gold"], _a(x)["prob"], _a(x, "b")["prob"], metric="roc_auc", test="delong",
                                 engine=e, **DOG),
        **_tabular(lambda k, e: C(k.of(), k.of("b"), id="id", test="delong", engine=e, **AUC))},
    ("compare", "scores_prefix"): {
        "arrays": lambda x, e: C(_a(x)["gold"], _probs(_a(x)), _probs(_a(x, "b")), test="delong", metric="roc_auc",
                                 engine=e),
        **_tabular(lambda k, e: C(k.of(), k.of("b"), id="id", test="delong", metric="roc_auc", scores_prefix="p:",
                                  engine=e))},
    ("compare", "margin"): {
        "arrays": lambda x, e: C(_a(x)["gold"], _a(x)["pred"], _a(x, "b")["pred"], margin=0.05, engine=e, **BOOT),
        **_tabular(lambda k, e: C(k.of(), k.of("b"), id="id", margin=0.05, engine=e, **BOOT))},
    ("compare", "alternative=two-sided"): {  # two-sided is DeLong's (the bootstrap is one-sided)
        "arrays": lambda x, e: C(_a(x)["gold"], _a(x)["prob"], _a(x, "b")["prob"], metric="roc_auc", test="delong",
                                 alternative="two-sided", engine=e, **DOG),
        **_tabular(lambda k, e: C(k.of(), k.of("b"), id="id", test="delong", alternative="two-sided", engine=e,
                                  **AUC))},
    ("compare", "repeat"): {
        "arrays": _NO_REPEAT,
        **_tabular(lambda k, e: C(k.of("oof_a"), k.of("oof_b"), id="id", repeat="1", engine=e, **BOOT))},
    ("compare", "score_bins"): {
        "arrays": lambda x, e: C(_a(x)["gold"], _a(x)["prob"], _a(x, "b")["prob"], metric="roc_auc", score_bins=16,
                                 engine=e, **DOG, **BOOT),
        **_tabular(lambda k, e: C(k.of(), k.of("b"), id="id", score_bins=16, engine=e, **AUC, **BOOT))},
    ("compare", "label_issues"): {
        "arrays": _NO_LABEL_ISSUES,
        **_tabular(lambda k, e: C(k.of(), k.of("b"), id="id", engine=e, label_issues=clfeval.label_issues(
            k.x.frames["a"], id="id"), **BOOT))},
    ("threshold", "score"): {
        "arrays": lambda x, e: T(_half(_a(x)["gold"], True), _half(_a(x)["prob"], True),
                                 dev=(_half(_a(x)["gold"], False), _half(_a(x)["prob"], False)), engine=e, **DOG),
        **_tabular(lambda k, e: T(k.of("test"), dev=k.of("dev"), score="prob", engine=e, **DOG))},
    ("threshold", "by"): {  # binary gold labels: the slices' tables at one cut
        "arrays": lambda x, e: T(_half(x.binary["gold"], True), _half(x.binary["prob"], True),
                                 dev=(_half(x.binary["gold"], False), _half(x.binary["prob"], False)),
                                 by={"grp": _half(x.binary["grp"], True)}, min_slice=10, engine=e, **DOG),
        **_tabular(lambda k, e: T(k.of("bin_test"), dev=k.of("bin_dev"), score="prob", by="grp", min_slice=10,
                                  engine=e, **DOG))},
    ("threshold", "scores_prefix"): {
        "arrays": lambda x, e: T(list(_half(x.sets["gold"], True)), {s: _half(v, True) for s, v in
                                                                      _sets_scores(x.sets).items()},
                                 dev=(list(_half(x.sets["gold"], False)),
                                      {s: _half(v, False) for s, v in _sets_scores(x.sets).items()}),
                                 multilabel=True, engine=e),
        **_tabular(lambda k, e: T(k.of("sets_test"), dev=k.of("sets_dev"), scores_prefix="s:", multilabel=True,
                                  engine=e))},
    ("calibration", "prob"): {
        "arrays": lambda x, e: K(_a(x)["gold"], _a(x)["prob"], bins=5, engine=e, **DOG),
        **_tabular(lambda k, e: K(k.of(), prob="prob", bins=5, engine=e, **DOG))},
    ("calibration", "by"): {
        "arrays": lambda x, e: K(_a(x)["gold"], _a(x)["prob"], by={"grp": _a(x)["grp"]}, bins=4, min_slice=10,
                                 engine=e, **DOG),
        **_tabular(lambda k, e: K(k.of(), prob="prob", by="grp", bins=4, min_slice=10, engine=e, **DOG))},
    ("calibration", "probs_prefix"): {
        "arrays": lambda x, e: K(_a(x)["gold"], np.column_stack(list(_probs(_a(x)).values())), labels=list(LABELS),
                                 bins=5, engine=e),
        **_tabular(lambda k, e: K(k.of(), probs_prefix="p:", bins=5, engine=e))},
    ("calibration", "strategy=quantile"): {
        "arrays": lambda x, e: K(_a(x)["gold"], _a(x)["prob"], bins=5, strategy="quantile", engine=e, **DOG),
        **_tabular(lambda k, e: K(k.of(), prob="prob", bins=5, strategy="quantile", engine=e, **DOG))},
    ("calibration", "edges=sklearn"): {
        "arrays": lambda x, e: K(_a(x)["gold"], _a(x)["prob"], bins=5, edges="sklearn", engine=e, **DOG),
        **_tabular(lambda k, e: K(k.of(), prob="prob", bins=5, edges="sklearn", engine=e, **DOG))},
    ("ranking", "score"): {
        "arrays": lambda x, e: G(_a(x)["gold"], _a(x)["prob"], engine=e, **DOG),
        **_tabular(lambda k, e: G(k.of(), score="prob", engine=e, **DOG))},
    ("error_analysis", "gold/pred/text"): {
        "arrays": lambda x, e: E(_a(x)["gold"], _a(x)["pred"], text=_a(x)["text"], ids=_a(x)["id"], min_count=1,
                                 engine=e),
        **_tabular(lambda k, e: E(k.of(), id="id", min_count=1, engine=e))},
    ("error_analysis", "texts"): {
        "arrays": _NO_TEXTS,
        **_tabular(lambda k, e: E(k.of("notext"), id="id", texts=k.x.texts, min_count=1, engine=e))},
    ("error_analysis", "multilabel"): {
        "arrays": lambda x, e: E(list(x.sets["gold"]), list(x.sets["pred"]), text=x.sets["text"], ids=x.sets["id"],
                                 multilabel=True, min_count=1, engine=e),
        **_tabular(lambda k, e: E(k.of("sets"), id="id", multilabel=True, min_count=1, engine=e))},
    ("error_analysis", "by"): {
        "arrays": lambda x, e: E(_a(x)["gold"], _a(x)["pred"], text=_a(x)["text"], ids=_a(x)["id"],
                                 by={"grp": _a(x)["grp"]}, min_count=1, engine=e),
        **_tabular(lambda k, e: E(k.of(), id="id", by="grp", min_count=1, engine=e))},
    ("error_analysis", "score"): {
        "arrays": lambda x, e: E(_a(x)["gold"], _a(x)["pred"], text=_a(x)["text"], ids=_a(x)["id"],
                                 score=_a(x)["prob"], min_count=1, engine=e),
        **_tabular(lambda k, e: E(k.of(), id="id", score="prob", min_count=1, engine=e))},
    ("error_analysis", "label_issues"): {
        "arrays": lambda x, e: E(_a(x)["gold"], _a(x)["pred"], text=_a(x)["text"], ids=_a(x)["id"], min_count=1,
                                 label_issues=_flags(x), engine=e),
        **_tabular(lambda k, e: E(k.of(), id="id", min_count=1, label_issues=_flags(k.x), engine=e))},
    # --- power and rank (issue 39): power counts its tables through the engine; rank's table stays in memory ---
    ("power", "gold/pred"): {
        "arrays": lambda x, e: P(_a(x)["pred"], gold=_a(x)["gold"], metric="macro_f1", width=0.05, engine=e, **BOOT),
        **_tabular(lambda k, e: P(k.of(), metric="macro_f1", width=0.05, engine=e, **BOOT))},
    ("power", "b"): {  # the bootstrap's draws over the joint table's cells: the same table on every engine
        "arrays": lambda x, e: P(_a(x)["pred"], _a(x, "b")["pred"], gold=_a(x)["gold"], metric="macro_f1",
                                 delta=0.05, engine=e, **BOOT),
        **_tabular(lambda k, e: P(k.of(), k.of("b"), id="id", metric="macro_f1", delta=0.05, engine=e, **BOOT))},
    ("power", "repeat"): {
        "arrays": _NO_REPEAT,
        **_tabular(lambda k, e: P(k.of("oof_a"), k.of("oof_b"), id="id", repeat="1", delta=0.05, engine=e))},
    ("rank", "results"): {
        "arrays": lambda x, e: clfeval.rank({k: v.to_numpy() for k, v in _rank_table(x).items()},
                                            metric="accuracy", samples=500, engine=e),
        "frame": lambda x, e: clfeval.rank(_rank_table(x), metric="accuracy", samples=500, engine=e),
        "parquet": lambda x, e: clfeval.rank(_rank_file(x), metric="accuracy", samples=500, engine=e)},
    ("rank", "runs_db"): {kind: _NO_RUNS for kind in KINDS},
    ("*", "PATH '-'"): {  # every operation reads '-' through one resolver; report stands for them
        "arrays": _NO_PATH, "frame": _NO_PATH,
        "parquet": lambda x, e: _from_stdin(x, e)},
}

# issue 41, label issues: in memory, or in three passes (spilled, on Dask)
CALLS |= {
    ("label_issues", "gold/probs"): {
        "arrays": lambda x, e: clfeval.label_issues(_probs(_a(x)), _a(x)["gold"], id=_a(x)["id"], engine=e),
        **_tabular(lambda k, e: clfeval.label_issues(k.of(), id="id", engine=e))},
}

# issue 39, cv and holdout: a text model fitted per fold (Local only; the Dask refusal names why)
_ONE_FILE = ("cv and holdout read one data file (CSV, TSV, JSONL or Parquet) into memory, not a directory of parts: "
             "the models are fitted here")
CALLS |= {
    ("cv", "model"): {
        "arrays": lambda x, e: clfeval.cv(x.cols["text"], x.cols["gold"], folds=2, seed=1, engine=e),
        "frame": lambda x, e: clfeval.cv(x.frames["a"], text="text", label="gold", folds=2, seed=1, engine=e),
        "parquet": _ONE_FILE},
    ("holdout", "model"): {
        "arrays": lambda x, e: clfeval.holdout(x.cols["text"], x.cols["gold"], test_size=0.3, seed=1, engine=e),
        "frame": lambda x, e: clfeval.holdout(x.frames["a"], text="text", label="gold", test_size=0.3, seed=1,
                                              engine=e),
        "parquet": _ONE_FILE},
}


def _rank_table(x: Inputs) -> Any:
    """Systems a, b and c over four data sets (the ``grp`` groups of the items): each one's accuracy there."""
    grp = x.cols["grp"]
    rows = {"dataset": sorted(set(grp))}
    for name in ("a", "b", "c"):
        right = x.systems[name]["pred"] == x.cols["gold"]
        rows[name] = [float(right[grp == g].mean()) for g in rows["dataset"]]
    return pd.DataFrame(rows)


def _rank_file(x: Inputs) -> str:
    """:func:`_rank_table` as one Parquet file beside the input directories."""
    path = Path(x.dirs["a"]).parent / "rank.parquet"
    if not path.exists():
        pq.write_table(pa.Table.from_pandas(_rank_table(x), preserve_index=False), path)
    return str(path)


def _from_stdin(x: Inputs, engine: Any) -> Any:
    """``report('-')`` over system a's id, gold and pred piped in as one Parquet file."""
    with stdin(x.piped):
        return R("-", input_format="parquet", engine=engine)


#: The cells that do not agree today (issue 38's parity bugs, reported to the lead), each naming the difference:
#: (operation, option, kind, engine) → reason. ``xfail(strict=True)``: fixing one makes its cell fail until the
#: entry is removed.
XFAIL: dict[tuple[str, str, str, str], str] = {}


def plain(result: Any) -> str:
    """``to_dict()`` as sorted JSON without the engine information: the ``engine`` block, a streamed ranking's
    ``external`` details and the notes that say the input was streamed or spilled (as tests/engines/
    test_front_door.py's ``_plain``)."""
    d = json.loads(json.dumps(result.to_dict(), default=str, allow_nan=True))

    def strip(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: strip(w) for k, w in v.items() if k not in ("engine", "external")}
        if isinstance(v, list):
            return [strip(w) for w in v if not (isinstance(w, str) and ("spilled to disk" in w or
                                                                        w.startswith("Streamed:")))]
        return v
    return json.dumps(strip(d), sort_keys=True)
