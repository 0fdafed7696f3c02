"""Two recorded runs compared fold by fold: are they comparable, and is the difference real?

Two runs of ``clfeval cv`` / ``holdout`` can be compared fold by fold only
when they share everything but the model: the same data (content hash and
label column), the same protocol (kind, folds, repeats, stratification,
test and validation sizes), the same seed, hence the same folds — checked
fold by fold (training and test sizes) and, from the stored out-of-fold
predictions, item by item (every item in the same fold of the same repeat).
Anything else is refused, saying which of these differs.

The comparison itself is :func:`clfeval.significance._cvcompare.cv_compare`
(per-fold differences, Nadeau–Bengio's corrected t, Dietterich's 5×2cv when
the runs are 5 repeats of 2 folds) with the paired bootstrap of the pooled
out-of-fold predictions beside it (:func:`clfeval.significance._paired.compare`
on the first repeat: the rows of other repeats are the same items again).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clfeval.core import Display, build_signature
from clfeval.errors import DataError, UsageError
from clfeval.significance import CVComparison, check_metric, compare, cv_compare

__all__ = ["RunSide", "RunComparison", "compare_runs", "compare_results"]


@dataclass(frozen=True)
class RunSide:
    """What a comparison says about one run: its id (None when not recorded), model, mean of the metric;
    ``summary``: the run's headline metrics over the folds (name → mean, std), when known."""

    run_id: int | None
    model: str
    mean: float
    predictions: str | None = None
    summary: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"run {self.run_id} ({self.model})" if self.run_id is not None else self.model

    def to_dict(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "model": self.model, "name": self.name,
                "mean": self.mean if math.isfinite(self.mean) else math.nan, "predictions": self.predictions,
                "summary": {m: {k: (v if math.isfinite(v) else math.nan) for k, v in s.items()}
                            for m, s in self.summary.items()}}


@dataclass(frozen=True)
class RunComparison(Display):
    """Two runs on the same folds: what was checked, and the fold-by-fold comparison with its verdict."""

    a: RunSide
    b: RunSide
    checked: list[str]
    comparison: CVComparison
    notes: list[str] = field(default_factory=list)
    signature: dict[str, Any] = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        return self.comparison.verdict

    @property
    def rejected(self) -> bool:
        """Nadeau–Bengio's corrected t-test rejects "A not better" at α."""
        p = self.comparison.corrected.p_value
        return bool(p < self.comparison.alpha)

    def to_dict(self) -> dict[str, Any]:
        comp = self.comparison.to_dict()
        comp.pop("signature", None)
        return {"runs": {"a": self.a.to_dict(), "b": self.b.to_dict()}, "checked": list(self.checked),
                "metric": self.comparison.metric, "verdict": self.verdict, "comparison": comp,
                "notes": list(self.notes), "signature": self.signature}


def _model(settings: dict[str, Any]) -> str:
    m = settings.get("model") or {}
    return str(m.get("name") or m.get("description") or "model") if isinstance(m, dict) else str(m)


def _differ(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The settings of two protocols that differ (their one-line description left out: it follows from them)."""
    keys = sorted((set(a) | set(b)) - {"description"})
    return [f"{k}: {a.get(k)!r} against {b.get(k)!r}" for k in keys if a.get(k) != b.get(k)]


def _same_items_in_same_folds(ta: Any, tb: Any, names: tuple[str, str]) -> None:
    """Every (repeat, id) of one predictions table in the same fold as in the other (refused otherwise)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    def keyed(t: Any) -> Any:
        rep = t.column("repeat") if "repeat" in t.column_names else pa.chunked_array([pa.array([1] * t.num_rows)])
        key = pc.binary_join_element_wise(pc.cast(rep, pa.string()), pc.cast(t.column("id"), pa.string()), ":")
        return pa.table({"key": key, "fold": t.column("fold")}).sort_by("key")

    ka, kb = keyed(ta), keyed(tb)
    if ka.num_rows != kb.num_rows or not ka.column("key").equals(kb.column("key")):
        raise DataError(f"{names[0]} and {names[1]} predicted different items ({ka.num_rows} and {kb.num_rows} "
                        f"out-of-fold rows, or other ids): they were not run on the same data and folds.")
    diff = pc.not_equal(ka.column("fold"), kb.column("fold"))
    if pc.any(diff).as_py():
        i = int(pc.index(diff, True).as_py())
        key = ka.column("key")[i].as_py()
        raise DataError(f"the folds differ: item {key.split(':', 1)[1]!r} (repeat {key.split(':', 1)[0]}) is in fold "
                        f"{ka.column('fold')[i].as_py()} of {names[0]} and fold {kb.column('fold')[i].as_py()} of "
                        f"{names[1]} ({pc.sum(diff).as_py()} items differ); a fold-by-fold comparison needs the same "
                        f"split (same data, protocol and seed).")


def _pooled(ta: Any, tb: Any, metric: str, names: tuple[str, str], samples: int, seed: int, alpha: float,
            level: float) -> tuple[Any, str | None]:
    """The paired bootstrap of the first repeat's pooled out-of-fold predictions (or None and why)."""
    import pyarrow.compute as pc

    if ta is None or tb is None:
        return None, "the out-of-fold predictions of a run are not available, so the pooled bootstrap is left out"

    def first(t: Any) -> Any:
        if "repeat" in t.column_names:
            t = t.filter(pc.equal(t.column("repeat"), 1))
        return t.sort_by("id")  # the same items in the same order (checked by the caller)

    fa, fb = first(ta), first(tb)
    try:
        check_metric(metric)
    except UsageError:  # a metric compare cannot test: the fold tests still stand
        return None, f"the pooled bootstrap cannot compare metric {metric!r}; it is left out"
    res = compare(fa.column("gold"), fa.column("pred"), fb.column("pred"), metric=metric, samples=samples, seed=seed,
                  alpha=alpha, ci=level, names=names)
    note = ("The pooled bootstrap uses the first repeat's out-of-fold predictions (the rows of other repeats are the "
            "same items again, not new ones)." if "repeat" in ta.column_names else None)
    return res, note


def _read(path: str | None) -> Any:
    if path is None or not Path(path).exists():
        return None
    import pyarrow.parquet as pq

    return pq.read_table(path)


def _compare(sides: tuple[RunSide, RunSide], folds: tuple[Any, Any], tables: tuple[Any, Any], checked: list[str],
             *, metric: str, multilabel: bool, samples: int, seed: int, alpha: float, level: float,
             notes: list[str]) -> RunComparison:
    names = (sides[0].name, sides[1].name)
    ta, tb = tables
    if ta is not None and tb is not None:
        _same_items_in_same_folds(ta, tb, names)
        checked.append("every item in the same fold of the same repeat (from the out-of-fold predictions)")
    else:
        notes.append("The out-of-fold predictions of a run are missing: the folds were checked by their sizes only.")
    why: str | None
    if multilabel:
        pooled, why = None, "the pooled paired bootstrap takes single-label predictions; these runs predict label sets"
    else:
        pooled, why = _pooled(ta, tb, metric, names, samples, seed, alpha, level)
    if why:
        notes.append(why[0].upper() + why[1:] + ("" if why.endswith(".") else "."))
    comp = cv_compare(folds[0], folds[1], metric=metric, pooled=pooled, alpha=alpha, level=level, names=names)
    checked.append("the same folds: repeat, fold, training and test sizes")
    sig = build_signature({"result": "runs compare", "metric": metric, "alpha": alpha, "level": level,
                           "runs": [s.run_id for s in sides], "pooled_test": "bootstrap" if pooled else None},
                          seed=seed if pooled is not None else None, samples=samples if pooled is not None else None)
    return RunComparison(sides[0], sides[1], checked, comp, notes, sig)


def compare_runs(log: Any, run_a: int, run_b: int, *, metric: str = "macro_f1", samples: int = 10_000, seed: int = 0,
                 alpha: float = 0.05, level: float = 0.95) -> RunComparison:
    """Compare two runs of a run log fold by fold (refused, saying why, unless they share data and folds).

    Parameters
    ----------
    log : clfeval.protocols._runlog.RunLog
    run_a, run_b : int
        Run ids; A is the run tested for being better.
    metric : str
        A metric the runs recorded per fold (``macro_f1``, ``accuracy``, ``f1:LABEL`` with ``--metric``).
    samples, seed : int
        Replicates and seed of the pooled paired bootstrap.
    alpha, level : float
        Significance level of the verdict; level of the intervals.

    Returns
    -------
    RunComparison
    """
    if int(run_a) == int(run_b):
        raise DataError(f"run {run_a} compared with itself: give two different runs.")
    ra, rb = log.get(run_a), log.get(run_b)
    names = (f"run {ra.id}", f"run {rb.id}")
    why = []
    if ra.data_hash is None or rb.data_hash is None:
        why.append("a run has no recorded data hash")
    elif ra.data_hash != rb.data_hash:
        why.append(f"the data differ ({names[0]} on {ra.data_path or ra.data_hash}, {names[1]} on "
                   f"{rb.data_path or rb.data_hash}: content hashes {ra.data_hash[:19]}… and {rb.data_hash[:19]}…)")
    if ra.task != rb.task:
        why.append(f"the label columns differ ({ra.task!r} and {rb.task!r})")
    diff = _differ(ra.protocol, rb.protocol)
    if diff:
        why.append("the protocols differ (" + "; ".join(diff) + ")")
    if ra.seed != rb.seed:
        why.append(f"the seeds differ ({ra.seed} and {rb.seed}), so the folds are other random splits")
    if why:
        raise DataError(f"{names[0]} and {names[1]} cannot be compared fold by fold: " + "; ".join(why) + ". Run "
                        "both models on the same data with the same protocol and seed (clfeval cv --compare-model "
                        "does both at once).")
    shown = ", ".join(f"{k}={v}" for k, v in sorted(ra.protocol.items()) if k != "description")
    checked = [f"the same data: content hash {ra.data_hash[:19]}…, label column {ra.task!r}",
               f"the same protocol ({shown}) and seed {ra.seed}"]
    notes = []
    if ra.settings.get("model") == rb.settings.get("model"):
        notes.append("The two runs have the same model settings; their difference can only come from elsewhere "
                     "(thresholds, metrics recorded).")
    sides = (RunSide(ra.id, _model(ra.settings), ra.value(metric), ra.predictions),
             RunSide(rb.id, _model(rb.settings), rb.value(metric), rb.predictions))
    multilabel = bool((ra.task or "").endswith("(label sets)"))
    return _compare(sides, (ra.per_fold, rb.per_fold), (_read(ra.predictions), _read(rb.predictions)), checked,
                    metric=metric, multilabel=multilabel, samples=samples, seed=seed, alpha=alpha, level=level,
                    notes=notes)


_SUMMARY = ("accuracy", "subset_accuracy", "macro_f1", "micro_f1", "hamming_loss")


def _summary(result: Any, metric: str) -> dict[str, dict[str, float]]:
    """A run's headline metrics (and the compared one) over its folds: mean and sample standard deviation."""
    names = [m for m in (*_SUMMARY, metric) if m in result.spread]
    return {m: {"mean": float(result.spread[m].mean), "std": float(result.spread[m].std)} for m in dict.fromkeys(names)}


def compare_results(result_a: Any, result_b: Any, *, metric: str = "macro_f1", names: Sequence[str] = ("A", "B"),
                    run_ids: Sequence[int | None] = (None, None), samples: int = 10_000, seed: int = 0,
                    alpha: float = 0.05, level: float = 0.95) -> RunComparison:
    """Compare two :class:`~clfeval.protocols._results.ProtocolResult` of the same protocol and seed on the same data.

    ``names`` name the models (``run_ids``, when recorded, are shown beside them). The protocol and seed are
    checked from the results, the folds item by item from their predictions.
    """
    pa_, pb_ = result_a.protocol.to_dict(), result_b.protocol.to_dict()
    sa, sb = result_a.signature.get("seed"), result_b.signature.get("seed")
    why = []
    diff = _differ(pa_, pb_)
    if diff:
        why.append("the protocols differ (" + "; ".join(diff) + ")")
    if sa != sb:
        why.append(f"the seeds differ ({sa} and {sb})")
    if result_a.n != result_b.n:
        why.append(f"the data differ ({result_a.n} and {result_b.n} items)")
    if why:
        raise DataError(f"{names[0]} and {names[1]} cannot be compared fold by fold: " + "; ".join(why) + ".")
    sides = (RunSide(run_ids[0], str(names[0]), result_a.spread[metric].mean if metric in result_a.spread else math.nan,
                     summary=_summary(result_a, metric)),
             RunSide(run_ids[1], str(names[1]), result_b.spread[metric].mean if metric in result_b.spread else math.nan,
                     summary=_summary(result_b, metric)))
    checked = [f"the same protocol ({result_a.protocol.describe()}) and seed {sa}, {result_a.n} items"]
    return _compare(sides, (result_a, result_b), (result_a.predictions, result_b.predictions), checked, metric=metric,
                    multilabel=result_a.kind == "multilabel", samples=samples, seed=seed, alpha=alpha, level=level,
                    notes=[])
