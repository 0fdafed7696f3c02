"""The private steps of ``clfeval.compare`` on resolved PATHs: joint tables counted by the engine, score metrics in
memory, binned ROC-AUCs, DeLong one-vs-rest."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clfeval.errors import DataError, UsageError

if TYPE_CHECKING:
    from clfeval.engines import Runner

__all__ = ["names_of", "counted", "scores_in_memory", "binned", "read_score_columns", "flagged_of", "robustness"]


def names_of(inputs: list[Any]) -> list[str]:
    """Short, distinct names of the systems: the stems, else the PATHs as given (a repeated PATH numbered)."""
    stems = [i.stem for i in inputs]
    if len(set(stems)) == len(stems):
        return stems
    names: list[str] = []
    for i in inputs:
        name, k = i.given, 2
        while name in names:
            name, k = f"{i.given} ({k})", k + 1
        names.append(name)
    return names


def ordered(inputs: list[Any], names: list[str], baseline: str | None) -> tuple[list[Any], list[str]]:
    """Two inputs, the baseline second."""
    order = [0, 1] if baseline != names[0] else [1, 0]
    return [inputs[i] for i in order], [names[i] for i in order]


def counted(eng: Runner, inputs: list[Any], names: list[str], baseline: str | None, gold: str, pred: str,
            id_col: str | None, repeat: str | None, normalize: str | None, tick: Any,
            common: dict[str, Any]) -> tuple[Any, str]:
    """Count metrics: the joint tables of the inputs matched by id (or row), counted by the engine
    (:meth:`clfeval.engines.Runner.accumulate_joined` with ``compare``'s accumulator,
    :class:`clfeval.significance.JointCounts`), then tested; and the mode it ran in."""
    from functools import partial

    from clfeval.significance import JointCounts

    metric = common.get("metric")
    if callable(metric) or not isinstance(metric, str):
        raise UsageError("a streamed comparison takes a count metric by name (items are not kept).")
    make = partial(JointCounts, names, baseline=baseline)
    make()  # the names and the baseline checked before any work
    acc, mode, matching = eng.accumulate_joined(inputs, make, names=names, gold=gold, pred=pred, id=id_col,
                                                repeat=repeat, normalize=normalize)
    return acc.finish(matching.describe() if matching is not None else "", progress=tick, **common), mode


def _row_of(r: Any) -> Callable[[int], str]:
    """Where item ``i`` of the predictions ``r`` is, in words (its row, or its file and row)."""
    return lambda i: f"row {i + 1} of {r.path!r}" if len(r.parts) < 2 else r.where(i)


def scores_in_memory(inputs: list[Any], names: list[str], baseline: str | None, gold: str, score: str,
                     positive: str | None, id_col: str | None, repeat: str | None, normalize: str | None, tick: Any,
                     common: dict[str, Any]) -> Any:
    """Score metrics rank every item: the inputs are read into memory and aligned there."""
    import pyarrow as pa

    from clfeval.io import align_predictions, one_repeat, read_predictions
    from clfeval.scores import as_scores
    from clfeval.significance import compare as compare_two, compare_many

    read = [read_predictions(i, gold=gold, pred=score, id=id_col, pred_option="--score", normalize=normalize)
            for i in inputs]
    # numbers, checked per file so that a bad cell is named by its own row
    read = [dataclasses.replace(r, pred=pa.chunked_array([as_scores(r.pred, name=score, where=_row_of(r),
                                                                    order_only=True)]))
            for r in read]  # score metrics are rankings: integer scores ranked exactly
    read = [one_repeat(r, repeat) for r in read]
    gold_col, pred_cols, _ = align_predictions(read, scores=True)
    if len(inputs) == 2:
        order = [0, 1] if baseline != names[0] else [1, 0]
        return compare_two(gold_col, pred_cols[order[0]], pred_cols[order[1]], names=(names[order[0]], names[order[1]]),
                           progress=tick, positive=positive, **common)
    return compare_many(gold_col, dict(zip(names, pred_cols, strict=False)), baseline=baseline, progress=tick,
                        positive=positive,
                        **common)


def binned(inputs: list[Any], names: list[str], baseline: str | None, gold: str, score: str, positive: Any,
           id_col: str | None, repeat: str | None, normalize: str | None, tick: Any, common: dict[str, Any],
           budget: int, bins: int, kind: str) -> Any:
    """Binned ROC-AUCs: each system's bins from a first pass, then the joint binned table of the matched items."""
    from clfeval.io import Matching, aligned, iter_predictions
    from clfeval.significance import compare_binned_batches

    ins, nm = ordered(inputs, names, baseline)

    def readers() -> list[Any]:
        return [iter_predictions(i, gold=gold, pred=score, id=id_col, pred_option="--score", normalize=normalize)
                for i in ins]

    settings = {k: common[k] for k in ("test", "samples", "seed", "alpha", "ci")}
    return compare_binned_batches(readers(), aligned(readers(), nm, repeat=repeat, budget=budget, matching=Matching()),
                                  bins=bins, kind=kind, positive=positive, score=score, names=nm, progress=tick,
                                  **settings)


def read_score_columns(paths: Sequence[Any], *, gold: str, prefix: str, id_col: str | None, encoding: str,
                       normalize: str | None, repeat: str | None) -> tuple[Any, list[dict[str, Any]]]:
    """Every input's score columns ``PREFIX<label>`` (one per class), aligned to the first input's items.

    Returns the gold column and, per input, a mapping label → score column (numbers, checked). The inputs must
    have the same classes.
    """
    import pyarrow as pa

    from clfeval.io import align_predictions, column_names, one_repeat, read_predictions
    from clfeval.scores import as_scores

    read, labels = [], []
    for p in paths:
        src = p.sources[0]
        names = column_names(src, input_format=p.fmt, encoding=encoding)
        cols = [c for c in names if c.startswith(prefix) and len(c) > len(prefix)]
        if not cols:
            raise DataError(lambda o, _s=src, _n=names: f"file {_s.name!r} has no column starting with {prefix!r} "
                                                        f"(option {o}); its columns are: "
                                                        f"{', '.join(repr(c) for c in _n)}. Score columns are named "
                                                        f"{prefix}<label>, one per class.", params=["scores_prefix"])
        r = read_predictions(p, gold=gold, pred=None, id=id_col, extra=cols, require_pred=False, encoding=encoding,
                             normalize=normalize, extra_options=["--scores-prefix"] * len(cols))

        def where(i: int, _r: Any = r) -> str:
            return f"file {_r.path!r}, {_r.row_ref(i)}"

        r = dataclasses.replace(r, extra={c: pa.chunked_array([as_scores(v, name=c, where=where)])
                                          for c, v in r.extra.items()})
        read.append(one_repeat(r, repeat))
        labels.append([c[len(prefix):] for c in cols])
    if any(sorted(x) != sorted(labels[0]) for x in labels[1:]):
        shown = "; ".join(f"{Path(str(p.given)).name}: {', '.join(x)}" for p, x in zip(paths, labels, strict=False))
        raise DataError(f"the files must have score columns for the same classes ({prefix}<label>): {shown}.")
    out: list[dict[str, Any]] = [{} for _ in read]
    gold_col = None
    for lab in labels[0]:
        aligned = [dataclasses.replace(r, pred=r.extra[prefix + lab]) for r in read]
        gold_col, cols_, _ = align_predictions(aligned, scores=True)
        for d, c in zip(out, cols_, strict=False):
            d[lab] = c
    return gold_col, out


def flagged_of(result: Any) -> list[tuple[str, str]]:
    """The flagged items of a label-issues result (a :class:`~clfeval.ops.label_issues.LabelIssues`, or the PATH of
    its JSON) as (id as text, suggested label); refused with a sentence when they have no ids."""
    import json
    import os

    if isinstance(result, (str, os.PathLike)) and str(result).lower().endswith((".csv", ".parquet")):
        items = _flagged_file(str(result))  # the --flagged file of label-issues
    elif isinstance(result, (str, os.PathLike)):
        try:
            with open(result, encoding="utf-8") as f:
                data = json.load(f)
            items = [(i["id"], str(i["suggested"])) for i in data["flagged"]]
        except (OSError, ValueError, KeyError, TypeError) as e:
            why = f"{type(e).__name__}: {e}"
            raise DataError(lambda o: f"option {o} reads the JSON that clfeval label-issues writes (with its "
                                      f"'flagged' items, each with 'id' and 'suggested'); {str(result)!r} is not "
                                      f"one ({why}).", params=["label_issues"]) from None
    elif hasattr(result, "flagged"):
        items = [(f.id, str(f.suggested)) for f in result.flagged]
    else:
        raise UsageError(lambda o: f"option {o} takes a LabelIssues result (clfeval.label_issues) or the PATH of its "
                                   f"JSON; got {type(result).__name__}.", params=["label_issues"])
    if any(i is None for i, _ in items):
        raise DataError(lambda o, d: f"option {o}: the label-issues result has flagged items without ids; run "
                                     f"label-issues with {d} so that they can be matched to the compared items.",
                        params=["label_issues", "id"])
    return [(str(i), s) for i, s in items]


def _flagged_file(path: str) -> list[tuple[Any, str]]:
    """(id, suggested) of every row of a ``label-issues --flagged`` file (CSV or Parquet; ids read as text)."""
    import pyarrow as pa
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    try:
        if path.lower().endswith(".csv"):
            t = pcsv.read_csv(path, convert_options=pcsv.ConvertOptions(column_types={"id": pa.string()}))
        else:
            t = pq.read_table(path)
        ids, suggested = t.column("id").to_pylist(), t.column("suggested").to_pylist()
    except (OSError, KeyError, pa.ArrowException) as e:
        why = f"{type(e).__name__}: {e}"
        raise DataError(lambda o: f"option {o} reads the --flagged file of clfeval label-issues (columns 'id' and "
                                  f"'suggested'); {path!r} is not one ({why}).", params=["label_issues"]) from None
    return [(i, str(s)) for i, s in zip(ids, suggested, strict=True)]


def robustness(inputs: list[Any], names: list[str], baseline: str | None, gold: str, pred: str, id_col: str | None,
               repeat: str | None, normalize: str | None, common: dict[str, Any], flagged: list[tuple[str, str]],
               original: Any) -> Any:
    """The robustness block: the two systems read into memory and matched by id, then compared again with the same
    settings with the flagged items removed, and with their gold label replaced by the suggested one."""
    import numpy as np

    from clfeval.io import align_predictions, one_repeat, read_predictions
    from clfeval.ops.compare import Robustness, survival_sentence
    from clfeval.significance import compare as compare_two

    ins, nm = ordered(inputs, names, baseline)
    read = [one_repeat(read_predictions(i, gold=gold, pred=pred, id=id_col, normalize=normalize), repeat)
            for i in ins]
    gold_col, (col_a, col_b), ids = align_predictions(read)
    g = np.asarray(gold_col.to_pylist(), dtype=object)
    a, b = (np.asarray(c.to_pylist(), dtype=object) for c in (col_a, col_b))
    where = {str(v): k for k, v in enumerate(ids or [])}  # ids as text (matched by id: id= is required)
    rows = {where[i]: s for i, s in flagged if i in where}
    hit = np.zeros(len(g), dtype=bool)
    hit[list(rows)] = True
    relabelled = g.copy()
    for k, s in rows.items():
        relabelled[k] = s
    keep = {k: common[k] for k in ("metric", "test", "samples", "seed", "alpha", "ci", "zero_division", "beta",
                                   "alternative") if k in common}

    def run(gg: Any, aa: Any, bb: Any) -> Any:
        c = compare_two(list(gg), list(aa), list(bb), names=(nm[0], nm[1]), **keep)
        return _variant(c)

    removed = run(g[~hit], a[~hit], b[~hit])
    relab = run(relabelled, a, b)
    sentence = survival_sentence(bool(original.rejected), removed.rejected, relab.rejected, len(rows))
    return Robustness(n_flagged=len(flagged), n_matched=len(rows), removed=removed, relabelled=relab,
                      sentence=sentence)


def _variant(c: Any) -> Any:
    """One comparison as a row of the robustness block (its estimate interval as every format shows it)."""
    from clfeval.ops.compare import RobustVariant

    ci = c.ci
    bca = ci.bca.delta if ci.bca is not None else None
    low, high = bca if ci.estimate == "bca" and bca else ci.delta
    bound = None if ci.test_bound is None else float(ci.test_bound.value)
    return RobustVariant(n=c.n, a=c.a, b=c.b, delta=c.delta, ci=(float(low), float(high)), bound=bound,
                         p_value=c.p_value, rejected=bool(c.rejected), verdict=c.verdict)
