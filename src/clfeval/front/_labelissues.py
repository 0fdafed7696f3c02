"""``clfeval.label_issues``: likely label errors by confident learning, from gold labels and out-of-sample class
probabilities; any input (arrays, a table, a PATH), the engine a parameter.

The probabilities are read and checked as ``calibration``'s ``probs_prefix`` columns are (every value a finite
number in [0, 1], NaN refused naming its row, each row summing to 1 within the same tolerance, every gold label with
its column). What the runner holds runs in memory (:func:`clfeval.ops.label_issues._rule.confident_learning`); a
PATH larger than the budget, a table the runner does not hold (spooled to Parquet first) and every input on a
cluster run in three passes (:mod:`clfeval.ops.label_issues._passes`: thresholds, confident joint, the per-cell
cut), each an accumulator the runner streams or maps over partitions: the same result, however the input is split.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clfeval.engines import Dask, Local, runner
from clfeval.errors import DataError, UsageError
from clfeval.front._block import with_engine
from clfeval.io import inputs
from clfeval.ops.label_issues import LabelIssues

if TYPE_CHECKING:  # the input types, named for type checkers only
    from typing import TypeAlias

    import numpy.typing as npt
    import pandas
    import polars
    import pyarrow

    #: Class probabilities: an (n, K) matrix (with ``labels``), a mapping label → column, a table or a PATH.
    Data: TypeAlias = (npt.ArrayLike | Mapping[str, npt.ArrayLike] | pandas.DataFrame | polars.DataFrame
                       | pyarrow.Table | str | os.PathLike[str])
    #: A label as the data hold it.
    Label: TypeAlias = str | int | float | bool

__all__ = ["label_issues", "check_flagged", "write_flagged", "FLAGGED_COLUMNS"]

#: The columns of a ``--flagged`` file, in order (the rows: the flagged items, ranked).
FLAGGED_COLUMNS = ("rank", "row", "id", "given", "suggested", "self_confidence", "normalized_margin")


def label_issues(data: Data, gold: npt.ArrayLike | str | None = None, *, probs_prefix: str = "p:",
                 id: str | npt.ArrayLike | None = None, labels: Sequence[Label] | None = None,
                 rank_by: str = "self_confidence", engine: Local | Dask | str | None = None,
                 input_format: str | None = None, encoding: str = "utf-8") -> LabelIssues:
    """Which gold labels are likely wrong? Confident learning (Northcutt, Jiang & Chuang 2021), prune by noise rate.

    From the given labels ỹ and out-of-sample probabilities p̂_j(x): per-class thresholds t_j (the mean p̂_j over
    the items given j), the confident joint C (an item given i counts in the j of largest p̂_j among the classes
    with p̂_j ≥ t_j; equal: the lower class), calibrated to the label counts (C̃_ij = C_ij / Σ_j C_ij · n_i,
    Q = C̃ / Σ C̃), the noise matrix P(ỹ=i | y*=j) = Q_ij / Σ_i Q_ij, the estimated number of errors
    Σ_{i≠j} round(n · Q_ij) (half up), and the flagged items: in every cell (i, j), i ≠ j, the round(n · Q_ij)
    items given i with the largest margin p̂_j − p̂_i (equal: by id, then row), each once with its suggested label.

    Parameters
    ----------
    data : (n, K) array, mapping label → column, table or PATH
        The probabilities: with arrays, a matrix whose columns are ``labels`` (or a mapping label → column) and
        ``gold`` the gold labels; a table or PATH with a gold column and one column ``PREFIX<label>`` per class.
    gold : array-like or str, optional
        With arrays, the gold labels (required); with a table or PATH, the gold column (default ``gold``).
    probs_prefix : str
        The prefix of the probability columns of a table or PATH (default ``p:``).
    id : str or array-like, optional
        The id column of a table or PATH (default: ``id`` when it has one; with arrays: the ids themselves); ties
        are broken by id, then row, and flagged items are named by it. Without ids: the row.
    labels : sequence of labels, optional
        With an (n, K) matrix: the classes of its columns.
    rank_by : "self_confidence" or "normalized_margin"
        How the flagged items are ranked, ascending: p̂_ỹ(x) (the default), or p̂_ỹ(x) − max_{j≠ỹ} p̂_j(x).
    engine : Local, Dask, "local", "dask" or None
        Where it runs (default ``Local()``: in memory within its budget, else in three streamed passes; Dask: the
        passes over the partitions). The same result on every engine.
    input_format : "csv", "tsv", "jsonl", "parquet" or None
        The format of a PATH (default: from the extension).
    encoding : "utf-8" or "latin-1"
        The text encoding of CSV, TSV and JSONL.

    Returns
    -------
    LabelIssues
        The thresholds, the confident and calibrated joints, the noise matrix, the estimated number of errors and
        the flagged items; ``r.engine`` where it ran.

    Notes
    -----
    The probabilities must be out-of-sample (cross-validated or held out). Undefined: the threshold of a label no
    item is given, the noise-matrix column of a class no item is confidently in (both null, named in
    ``undefined``).

    References
    ----------
    Northcutt, Jiang & Chuang (2021), "Confident learning: estimating uncertainty in dataset labels", *JAIR* 70.

    Examples
    --------
    >>> gold = ["a", "a", "a", "b", "b", "b"]
    >>> probs = [[1, 0], [.75, .25], [.25, .75], [.25, .75], [0, 1], [.5, .5]]
    >>> r = label_issues(probs, gold, labels=["a", "b"])
    >>> r.estimated_errors, [(f.row, f.given, f.suggested) for f in r.flagged]
    (1, [(2, 'a', 'b')])
    """
    from clfeval.ops.label_issues import RANK_BY

    run = runner(engine)
    if rank_by not in RANK_BY:
        raise UsageError(lambda o: f"option {o} must be one of {', '.join(RANK_BY)}; got {rank_by!r}.",
                         params=["rank_by"])
    if not isinstance(probs_prefix, str) or not probs_prefix:
        raise UsageError(lambda o: f"option {o} must be a non-empty text (the probability columns are "
                                   f"PREFIX<label>); got {probs_prefix!r}.", params=["probs_prefix"])
    tabular = inputs.is_path(data) or inputs.is_table(data)
    run.admit("label_issues", {"gold/probs": True}, stdin={"data": inputs.is_stdin(data)})
    if tabular:
        if labels is not None:
            raise UsageError(lambda o, p: f"option {o} names the columns of a matrix of arrays; a table or PATH "
                                          f"names its classes by its columns ({p}<label>).",
                             params=["labels", "probs_prefix"])
        table, cols = inputs.check_input(data, {}, {"gold": (gold, "gold"), "id": (id, None)})
        if inputs.is_path(table):
            inp = inputs.resolve(table, input_format=input_format, encoding=encoding)
            if run.memory is None or sum(s.size() for s in inp.sources) > run.memory:
                return _streamed(run, inp, False, cols, probs_prefix, rank_by)  # beyond the budget, or a cluster
            gold_v, probs, ids, where = _read_path(inp, cols, probs_prefix, encoding)
        elif run.holds(table):
            gold_v, probs, ids, where = _read_table(table, cols, probs_prefix)
        else:
            with run.spooled(table) as inp:
                return _streamed(run, inp, True, cols, probs_prefix, rank_by)
    else:
        if gold is None or isinstance(gold, str):
            raise UsageError(lambda g: f"with arrays of probabilities, {g} gives the gold labels (the values); got "
                                       f"{gold!r}.", params=["gold"])
        ids_in = None if id is None or isinstance(id, str) else id
        if isinstance(id, str):
            raise UsageError(lambda o: f"option {o} names a column of a table or PATH, and the input here is arrays: "
                                       f"give the ids themselves.", params=["id"])
        inputs.check_input(None, {"gold": gold, "probs": data, "id": ids_in}, {}, mappings=("probs",))
        if not run.holds(None, needed=True):  # a cluster: the arrays as a table of gold, p:<label> (and id) columns
            with run.spooled(_arrays_table(gold, data, labels, ids_in, probs_prefix)) as inp:
                cols = {"gold": "gold", "id": "id" if ids_in is not None else None}
                return _streamed(run, inp, True, cols, probs_prefix, rank_by)
        gold_v, probs, ids, where = gold, data, ids_in, None
    r: LabelIssues = with_engine(_issues(gold_v, probs, labels, ids, where, probs_prefix, rank_by), run.block("memory"))
    return r


def _read_table(table: Any, cols: Mapping[str, Any], prefix: str) -> tuple[Any, Any, Any, Any]:
    """Gold, the probability columns (label → column), the ids and None (rows named by position) of a table."""
    names = [c for c in table.column_names if c.startswith(prefix) and len(c) > len(prefix)]
    if not names:
        shown = ", ".join(repr(c) for c in table.column_names)
        raise DataError(lambda p: f"the table has no column starting with {prefix!r} (option {p}); its columns are: "
                                  f"{shown}. Probability columns are named {prefix}<label>, one per class.",
                        params=["probs_prefix"])
    for name in [cols["gold"]] + ([cols["id"]] if cols["id"] is not None else []):
        if name not in table.column_names:
            raise DataError(f"the table has no column {name!r}; its columns are: "
                            f"{', '.join(repr(c) for c in table.column_names)}.")
    id_col = cols["id"] if cols["id"] is not None else ("id" if "id" in table.column_names else None)
    ids = table.column(id_col) if id_col is not None else None
    return table.column(cols["gold"]), {c[len(prefix):]: table.column(c) for c in names}, ids, None


def _read_path(inp: Any, cols: Mapping[str, Any], prefix: str, encoding: str) -> tuple[Any, Any, Any, Any]:
    """Gold, the probability columns, the ids and the row namer of a resolved PATH read into memory."""
    from clfeval.front._scorecols import read_scored, score_columns

    id_col = _id_column(inp, cols)
    score_columns(inp, None, prefix, names=("probs_prefix", "probs_prefix"))  # none: refused naming the option
    f = read_scored(inp, gold=cols["gold"], score=None, prefix=prefix, id_col=id_col, encoding=encoding)
    return f.gold, f.scores, f.ids, f.where


def _id_column(inp: Any, cols: Mapping[str, Any]) -> str | None:
    """The id column: as named, else ``id`` when the (first) file has one, else None (rows)."""
    if cols["id"] is not None:
        return str(cols["id"])
    from clfeval.io import column_names

    return "id" if "id" in column_names(inp.sources[0], input_format=inp.fmt,
                                        encoding=inp.sources[0].encoding) else None


def _arrays_table(gold: Any, probs: Any, labels: Any, ids: Any, prefix: str) -> Any:
    """Arrays as one table: gold, one column PREFIX<label> per class (checked as numbers first), the ids."""
    import pyarrow as pa

    from clfeval.core import label_str
    from clfeval.scores import score_matrix

    _refuse_label_sets(gold)
    p, classes = score_matrix(probs, labels=labels, prefix=prefix)
    cols = {"gold": inputs.as_column(gold, "gold"), **{f"{prefix}{label_str(c)}": p[:, j] for j, c in
                                                       enumerate(classes)}}
    return pa.table(cols | ({"id": inputs.as_column(ids, "id")} if ids is not None else {}))


def _streamed(run: Any, inp: Any, spooled: bool, cols: Mapping[str, Any], prefix: str, rank_by: str) -> LabelIssues:
    """The rule in three passes over a resolved PATH (:mod:`clfeval.ops.label_issues._passes`), streamed within
    the budget here or mapped over the partitions of a cluster: the same result as in memory."""
    from functools import partial

    from clfeval.front._scorecols import score_columns
    from clfeval.ops.label_issues import (
        CellCuts,
        JointCounts,
        ThresholdSums,
        flagged_of,
        label_issues_result,
        matrices,
    )

    extra, _ = score_columns(inp, None, prefix, names=("probs_prefix", "probs_prefix"))
    id_col = _id_column(inp, cols)
    read = ProbabilityRows(prefix, tuple(c[len(prefix):] for c in extra), tuple(extra))
    kw: dict[str, Any] = dict(gold=cols["gold"], pred=None, id=id_col, extra=extra)
    with run.session():
        first, mode, parts = run.accumulate(inp, partial(ThresholdSums, read, len(extra)), **kw)
        t = first.finish()
        if int(t.n_given.sum()) == 0:
            raise DataError("there are no items: label issues need at least one.")
        joint, _, _ = run.accumulate(inp, partial(JointCounts, read, t), **kw)
        cuts, _, _ = run.accumulate(inp, partial(CellCuts, read, t, matrices(joint.c, t.n_given)[3]), **kw)
    cl, ids = flagged_of(t, joint.c, cuts, rank_by)
    r = label_issues_result(cl, list(read.classes), ids=ids, rank_by=rank_by,
                            settings=_settings(prefix, rank_by, id_col is not None))
    out: LabelIssues = with_engine(r, run.block(mode, spooled=spooled, parts=parts))
    return out


def _settings(prefix: str, rank_by: str, ids: bool) -> dict[str, Any]:
    return {"probs_prefix": prefix, "rank_by": rank_by, "ties": "id, then row" if ids else "row"}


@dataclass(frozen=True)
class ProbabilityRows:
    """How a batch gives the passes its items (picklable: the same reading on every engine), checked as the
    in-memory path checks them: the probability columns (``columns``, of the classes ``classes``) finite numbers in
    [0, 1] (NaN refused naming the file and row), each row summing to 1 within calibration's tolerance, every gold
    label with its column."""

    prefix: str
    classes: tuple[str, ...]
    columns: tuple[str, ...]

    def __call__(self, batch: Any) -> tuple[Any, Any, Any, int, int]:
        import numpy as np

        from clfeval.scores import as_scores, check_probabilities, check_rows_sum_to_one, indicator_gold

        where = batch.where
        p = np.stack([as_scores(batch.extra[c], name=c, where=where) for c in self.columns], axis=1) \
            if batch.n else np.zeros((0, len(self.columns)))
        for j, c in enumerate(self.columns):
            check_probabilities(p[:, j], name=c, where=where)
        y = indicator_gold(batch.gold, list(self.classes), multilabel=False, prefix=self.prefix) if batch.n else \
            np.zeros((0, len(self.columns)), dtype=bool)
        check_rows_sum_to_one(p, where, "confident learning")
        ids = None if batch.ids is None else np.asarray(batch.ids.to_numpy(zero_copy_only=False))
        return np.argmax(y, axis=1).astype(np.int64), p, ids, batch.part.file_no, batch.part.start


def _issues(gold: Any, probs: Any, labels: Any, ids: Any, where: Callable[[int], str] | None, prefix: str,
            rank_by: str) -> LabelIssues:
    """The checks of the probabilities (calibration's) and the rule on every item."""
    import numpy as np

    from clfeval.core import label_str
    from clfeval.ops.label_issues import confident_learning, id_order, label_issues_result
    from clfeval.scores import check_probabilities, check_rows_sum_to_one, indicator_gold, item_position, score_matrix

    at = where or item_position
    _refuse_label_sets(gold)
    p, classes = score_matrix(probs, labels=labels, where=at, prefix=prefix)
    for j, lab in enumerate(classes):
        check_probabilities(p[:, j], name=f"{prefix}{label_str(lab)}", where=at)
    y = indicator_gold(gold, classes, multilabel=False, prefix=prefix)  # a gold label without its column: refused
    if y.shape[0] != p.shape[0]:
        raise DataError(f"gold has {y.shape[0]} items but the probability columns have {p.shape[0]} values.")
    if y.shape[0] == 0:
        raise DataError("there are no items: label issues need at least one.")
    check_rows_sum_to_one(p, at, "confident learning")
    order = None
    id_values = None
    if ids is not None:
        id_values = _id_values(ids, p.shape[0], at)
        order = id_order(id_values)
    cl = confident_learning(np.argmax(y, axis=1), p, order, rank_by)
    return label_issues_result(cl, [label_str(c) for c in classes], ids=id_values, rank_by=rank_by,
                               settings=_settings(prefix, rank_by, ids is not None))


def _refuse_label_sets(gold: Any) -> None:
    """Label sets (a list per item, or a table's list column) refused with a sentence: the rule is single-label."""
    import pyarrow as pa

    typ = getattr(gold, "type", None)
    listed = typ is not None and isinstance(typ, pa.DataType) and (pa.types.is_list(typ) or
                                                                   pa.types.is_large_list(typ))
    if not listed and typ is None:
        first = next(iter(gold), None) if not hasattr(gold, "shape") or getattr(gold, "ndim", 1) == 1 else [0]
        listed = isinstance(first, (list, tuple, set, frozenset)) or getattr(gold, "ndim", 1) > 1
    if listed:
        raise DataError(lambda g: f"the gold labels ({g}) are label sets; confident learning here finds errors of "
                                  f"one label per item (single-label data): give one gold label per item.",
                        params=["gold"])


def _id_values(ids: Any, n: int, at: Callable[[int], str]) -> Any:
    """The ids as a NumPy array of n values, none missing or repeated (each named by its row)."""
    import numpy as np
    import pyarrow as pa

    if isinstance(ids, (pa.Array, pa.ChunkedArray)):
        if ids.null_count:
            i = next(k for k, v in enumerate(ids.to_pylist()) if v is None)
            raise DataError(f"the id of {at(i)} is missing; every item needs an id.")
        arr = np.asarray(ids.to_numpy(zero_copy_only=False))
    else:
        arr = np.asarray(list(ids) if not hasattr(ids, "__array__") else ids)
    if arr.shape[0] != n:
        raise DataError(f"there are {arr.shape[0]} ids for {n} items; give one id per item.")
    _, first, counts = np.unique(arr, return_index=True, return_counts=True)
    if (counts > 1).any():
        dup = arr[first[np.flatnonzero(counts > 1)[0]]].item()
        rows = np.flatnonzero(arr == dup)[:2]
        raise DataError(f"id {dup!r} repeats ({at(int(rows[0]))} and {at(int(rows[1]))}); every item needs its own "
                        f"id.")
    return arr


def check_flagged(path: str | os.PathLike[str] | None) -> str | os.PathLike[str] | None:
    """The ``flagged`` file's name checked before any work: ``.csv`` or ``.parquet``."""
    from pathlib import Path

    if path is not None and Path(path).suffix.lower() not in (".csv", ".parquet"):
        raise UsageError(lambda o: f"option {o} writes the flagged items as CSV (.csv) or Parquet (.parquet); got "
                                   f"{str(path)!r}.", params=["flagged"])
    return path


def write_flagged(result: LabelIssues, path: str | os.PathLike[str]) -> None:
    """Every flagged item, ranked (:data:`FLAGGED_COLUMNS`), as CSV or Parquet by ``path``'s extension; written
    whole or not at all."""
    from pathlib import Path

    import pyarrow as pa

    from clfeval.io import atomic_path

    check_flagged(path)
    rows = [f.to_dict() for f in result.flagged]
    ids = [r["id"] for r in rows]
    id_type = pa.string() if any(isinstance(v, str) for v in ids) else pa.int64()
    table = pa.table({"rank": pa.array(range(1, len(rows) + 1), pa.int64()),
                      "row": pa.array([r["row"] for r in rows], pa.int64()), "id": pa.array(ids, id_type),
                      "given": pa.array([r["given"] for r in rows], pa.string()),
                      "suggested": pa.array([r["suggested"] for r in rows], pa.string()),
                      "self_confidence": pa.array([r["self_confidence"] for r in rows], pa.float64()),
                      "normalized_margin": pa.array([r["normalized_margin"] for r in rows], pa.float64())})
    with atomic_path(path, option="--flagged") as tmp:
        if Path(path).suffix.lower() == ".parquet":
            import pyarrow.parquet as pq

            pq.write_table(table, tmp)
        else:
            import pyarrow.csv as pcsv

            pcsv.write_csv(table, tmp)
