"""``clfeval.rank``: k systems over N data sets, from a table of scores or from the run log (the front door).

Inputs
------
* a **long** table: one row per (system, data set[, fold]) with a score
  (columns ``system``, ``dataset``, ``score`` by default; with ``fold``, the
  score of a data set is the mean over its folds);
* a **wide** table: one row per data set (``dataset`` column), one column per
  system;
* the **run log** (``runs_db``): runs grouped by data (content hash and label
  column) and model; the runs of one data set must share the protocol and
  seed, as ``clfeval runs compare`` requires.

Files are read by the project's one reader (CSV, TSV, JSONL, Parquet);
pandas, polars and pyarrow tables are accepted as they are. Every defect —
a missing column, a score that is not a number, a duplicate (system, data
set) row, a system missing on a data set — is refused with one sentence
naming the file, row and column, unless ``missing="drop"`` drops the data
sets with a missing or non-finite score (naming them).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from clfeval.engines import Dask, Local, runner
from clfeval.errors import DataError, InputFileError, UsageError
from clfeval.front._block import with_engine
from clfeval.ops.rank import RankCondition, RankRequirements, RankResult
from clfeval.significance import check_condition_names, check_settings, rank_scores

if TYPE_CHECKING:  # the input types, named for type checkers only (nothing heavy is imported at run time)
    from typing import TypeAlias

    import numpy.typing as npt
    import pandas
    import polars
    import pyarrow

    from clfeval.evaluate import Requirement

    #: A table of scores: a file (CSV, TSV, JSONL, Parquet) by its path or opened, or a table in memory.
    Results: TypeAlias = (str | os.PathLike[str] | IO[bytes] | pandas.DataFrame | polars.DataFrame | pyarrow.Table
                           | Mapping[str, npt.ArrayLike])

__all__ = ["rank", "score_direction", "check_rank_arguments"]


def score_direction(metric: str | None, higher_is_better: bool | None, score: str) -> bool:
    """The score's direction: from the catalogue for a metric name, else the explicit flag (required)."""
    if metric is not None:
        from clfeval.core import catalog

        m = catalog.check_name(metric, directed=True)
        hib = bool(m.higher_is_better)
        if higher_is_better is not None and bool(higher_is_better) != hib:
            raise UsageError(f"metric {metric!r} is {'higher' if hib else 'lower'}-is-better in the catalogue; the "
                             f"direction option contradicts it (leave it out).")
        return hib
    if higher_is_better is None:
        raise UsageError(f"the direction of the score {score!r} is unknown: give --metric NAME (a catalogue metric; "
                         f"`clfeval metrics` lists them) or, for another score (BLEU, a loss), --higher-is-better or "
                         f"--lower-is-better.")
    return bool(higher_is_better)


def _as_table(results: Any, input_format: str | None, encoding: str) -> tuple[Any, str]:
    """The table and how messages name it; refused when two columns share a name or it has no rows."""
    import pyarrow as pa

    from clfeval.io import check_unique_names

    if isinstance(results, (str, os.PathLike)) or hasattr(results, "read"):
        from clfeval.io import read_frame

        name = str(results) if isinstance(results, (str, os.PathLike)) else getattr(results, "name", "the input")
        table, where = read_frame(results, input_format=input_format, encoding=encoding), f"file {name!r}"
    elif hasattr(results, "columns") and hasattr(results, "iloc"):  # pandas: names checked before pyarrow sees them
        check_unique_names([str(c) for c in results.columns], "the table")
        table, where = pa.Table.from_pandas(results, preserve_index=False), "the table"
    elif isinstance(results, pa.Table):
        table, where = results, "the table"
    elif hasattr(results, "to_arrow"):  # polars
        table, where = results.to_arrow(), "the table"
    elif isinstance(results, Mapping):  # arrays: column name → values, as a table's columns
        table, where = _from_columns(results), "the columns given"
    else:
        raise UsageError(f"results must be a file path, a table (pandas, polars, pyarrow) or a mapping of column "
                         f"name to values (arrays); got {type(results).__name__}.")
    check_unique_names(table.column_names, where)
    if table.num_rows == 0:
        raise DataError(f"{where} has a header but no rows; expected one row per data set (a wide table) or per "
                        f"system and data set (a long table).")
    return table, where


def _from_columns(columns: Mapping[object, object]) -> Any:
    """A table from arrays: a mapping of column name (str) to a sequence of values, all of one length."""
    import numpy as np
    import pyarrow as pa

    lengths: dict[str, int] = {}
    for key, values in columns.items():
        if not isinstance(key, str):
            raise UsageError(f"results given as arrays: the column names must be text; got {key!r} "
                             f"({type(key).__name__}).")
        if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
            raise UsageError(f"results given as arrays: column {key!r} must be a sequence of values (one per row); "
                             f"got {type(values).__name__}.")
        lengths[key] = len(values)
    if len(set(lengths.values())) > 1:
        said = ", ".join(f"{k!r}: {n}" for k, n in lengths.items())
        raise UsageError(f"results given as arrays: the columns must have one length (one value per row); got "
                         f"{said}.")
    try:
        return pa.table({k: v if isinstance(v, list) else np.asarray(v).tolist() for k, v in columns.items()})
    except (pa.ArrowInvalid, pa.ArrowTypeError) as e:
        raise DataError(f"results given as arrays: a column mixes kinds of values (numbers and text, say); each "
                        f"column holds one kind ({str(e)[:120]}).") from None


def _float(value: Any, where: str, row: int, column: str) -> float:
    if value is None or (isinstance(value, str) and value.strip() == ""):
        return math.nan
    if isinstance(value, bool):
        raise DataError(f"{where}, row {row}, column {column!r}: {value!r} is not a score; expected a number.")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise DataError(f"{where}, row {row}, column {column!r}: {str(value)[:40]!r} is not a score; expected a "
                        f"number.") from None


def _need(table: Any, where: str, columns: Sequence[tuple[str, str]]) -> None:
    have = table.column_names
    for opt, col in columns:
        if col not in have:
            raise DataError(f"{where} has no column {col!r} ({opt}); its columns are: {', '.join(have)}. A long table "
                            f"has system, data set and score columns; a wide one a data set column and one column "
                            f"per system.")


def _cells_long(table: Any, where: str, system: str, dataset: str, score: str,
                fold: str | None) -> dict[tuple[str, str], list[float]]:
    _need(table, where, [("--system", system), ("--dataset", dataset), ("--score", score)]
          + ([("--fold", fold)] if fold else []))
    sy, ds, sc = (table.column(c).to_pylist() for c in (system, dataset, score))
    fo = table.column(fold).to_pylist() if fold else [None] * len(sy)
    seen: dict[tuple[Any, ...], int] = {}
    cells: dict[tuple[str, str], list[float]] = {}
    for r, (s, d, v, f) in enumerate(zip(sy, ds, sc, fo, strict=False), start=1):
        if s is None or d is None or str(s) == "" or str(d) == "":
            raise DataError(f"{where}, row {r}: the system or data set name is empty.")
        key = (str(s), str(d), None if f is None else str(f))
        if key in seen:
            what = f"system {key[0]!r} on data set {key[1]!r}" + (f", fold {key[2]!r}" if fold else "")
            raise DataError(f"{where}: {what} appears twice (rows {seen[key]} and {r}); give one score per system and "
                            f"data set"
                            + (" and fold." if fold else " (several folds: name their column with --fold)."))
        seen[key] = r
        cells.setdefault((key[0], key[1]), []).append(_float(v, where, r, score))
    return cells


def _cells_wide(table: Any, where: str, dataset: str, fold: str | None) -> dict[tuple[str, str], list[float]]:
    _need(table, where, [("--dataset", dataset)] + ([("--fold", fold)] if fold else []))
    systems = [c for c in table.column_names if c not in (dataset, fold)]
    if not systems:
        raise DataError(f"{where} has only the data set column {dataset!r}; a wide table has one column per system.")
    ds = table.column(dataset).to_pylist()
    fo = table.column(fold).to_pylist() if fold else [None] * len(ds)
    cols = {s: table.column(s).to_pylist() for s in systems}
    seen: dict[tuple[str, Any], int] = {}
    cells: dict[tuple[str, str], list[float]] = {}
    for r, (d, f) in enumerate(zip(ds, fo, strict=False), start=1):
        key = (str(d), f)
        if key in seen:
            raise DataError(f"{where}: data set {str(d)!r} appears twice (rows {seen[key]} and {r}); give one row per "
                            f"data set"
                            + (" and fold." if fold else " (several folds: name their column with --fold)."))
        seen[key] = r
        for s in systems:
            cells.setdefault((s, str(d)), []).append(_float(cols[s][r - 1], where, r, s))
    return cells


def _cells_runs(runs_db: Any, metric: str | None) -> tuple[dict[tuple[str, str], list[float]], list[str]]:
    from clfeval.protocols import RunLog

    if metric is None:
        raise UsageError("with --runs-db, name the recorded metric to rank by with --metric (e.g. macro_f1).")
    path = Path(runs_db)
    if not path.exists():
        raise InputFileError(f"the run log {str(path)!r} does not exist (option --runs-db).")
    runs = RunLog(path, readonly=True).runs().runs
    if not runs:
        raise DataError(f"the run log {str(path)!r} holds no runs.")
    nohash = [r.id for r in runs if r.data_hash is None]
    if nohash:
        raise DataError(f"run(s) {', '.join(map(str, nohash))} of {str(path)!r} have no recorded data hash, so their "
                        f"data set is unknown; they cannot be ranked.")
    by_data: dict[tuple[Any, Any], list[Any]] = {}
    for r in runs:
        by_data.setdefault(r.data_key, []).append(r)
    names: dict[tuple[Any, Any], str] = {}
    for key, rs in by_data.items():
        base = Path(rs[0].data_path).name if rs[0].data_path else str(key[0])[7:19]
        names[key] = base + (f" ({key[1]})" if key[1] and sum(k[0] == key[0] for k in by_data) > 1 else "")
    if len(set(names.values())) < len(names):
        names = {k: f"{v} [{str(k[0])[7:15]}]" for k, v in names.items()}
    cells: dict[tuple[str, str], list[float]] = {}
    checked = []
    for key, rs in by_data.items():
        first = rs[0]
        for r in rs[1:]:
            why = [f"{k}: {first.protocol.get(k)!r} against {r.protocol.get(k)!r}"
                   for k in sorted((set(first.protocol) | set(r.protocol)) - {"description"})
                   if first.protocol.get(k) != r.protocol.get(k)]
            if r.seed != first.seed:
                why.append(f"seed: {first.seed} against {r.seed}")
            if why:
                raise DataError(f"runs {first.id} and {r.id} on data set {names[key]!r} were not run under the same "
                                f"protocol ({'; '.join(why)}), so their scores are not comparable; rank runs made with "
                                f"the same protocol and seed (as `clfeval runs compare` requires).")
        seen: dict[str, int] = {}
        for r in rs:
            model = r.settings.get("model") or {}
            system = str(model.get("name") or model.get("description") or "model") if isinstance(model, dict) \
                else str(model)
            if system in seen:
                raise DataError(f"runs {seen[system]} and {r.id} both record model {system!r} on data set "
                                f"{names[key]!r}; keep one run per model and data set in the log you rank.")
            seen[system] = r.id
            cells[(system, names[key])] = [r.value(metric)]
        checked.append(f"{names[key]}: runs {', '.join(str(r.id) for r in rs)} share the data (hash "
                       f"{str(key[0])[:19]}…), the protocol and seed {first.seed}")
    return cells, checked


def _matrix(cells: dict[tuple[str, str], list[float]], where: str, missing: str, fold: str | None,
            ) -> tuple[list[str], list[str], list[list[float]], list[str]]:
    systems = list(dict.fromkeys(s for s, _ in cells))
    datasets = list(dict.fromkeys(d for _, d in cells))
    if fold:
        for d in datasets:
            sizes = {s: len(cells[(s, d)]) for s in systems if (s, d) in cells}
            if len(set(sizes.values())) > 1:
                raise DataError(f"{where}: on data set {d!r} the systems have different numbers of folds "
                                f"({', '.join(f'{s}: {n}' for s, n in sizes.items())}); they must be scored on the "
                                f"same folds.")
    absent = [(s, d) for d in datasets for s in systems
              if (s, d) not in cells or any(not math.isfinite(v) for v in cells[(s, d)])]
    dropped: list[str] = []
    if absent and missing == "drop":
        dropped = list(dict.fromkeys(d for _, d in absent))
        datasets = [d for d in datasets if d not in dropped]
    elif absent:
        shown = ", ".join(f"{s!r} on {d!r}" for s, d in absent[:5]) + (" …" if len(absent) > 5 else "")
        raise DataError(f"{where}: {len(absent)} score(s) are missing or not finite numbers ({shown}); every system "
                        f"needs a score on every data set. --missing drop leaves those data sets out, naming them.")
    x = [[sum(cells[(s, d)]) / len(cells[(s, d)]) for s in systems] for d in datasets]
    return systems, datasets, x, dropped


def _conditions(require: Any) -> list[Any]:
    """The conditions as parsed requirements: one text, or a list or tuple of texts (or parsed requirements)."""
    from clfeval.evaluate import Requirement, parse_requirement

    items = [require] if isinstance(require, str) else require
    if not isinstance(items, (list, tuple)):
        raise UsageError(lambda n: f"{n} must be a condition (text such as 'in_best_group(B)') or a list of them; got "
                                   f"{type(require).__name__}.", params=["require"])
    out = []
    for c in items:
        if isinstance(c, Requirement):
            out.append(c)
        elif isinstance(c, str):
            out.append(parse_requirement(c, applies_to="rank"))
        else:
            raise UsageError(lambda n, c=c: f"{n} holds {c!r}, which is not a condition (text such as "
                                            f"'p_better(B,A)>=0.95').", params=["require"])
    check_condition_names(out)  # a system against itself is refused before any data is read
    return out


def check_rank_arguments(results: Any, runs_db: Any, *, layout: Any, missing: Any, require: Any,
                         settings: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """Every argument of :func:`rank` that does not need the data, checked before anything is read: the
    parsed conditions and the ranking's settings (:func:`clfeval.significance._multirank.check_settings`)."""
    if missing not in ("refuse", "drop"):
        raise UsageError(lambda n: f"{n} must be 'refuse' or 'drop'; got {missing!r}.", params=["missing"])
    if layout not in ("auto", "long", "wide"):
        raise UsageError(lambda n: f"{n} must be auto, long or wide; got {layout!r}.", params=["layout"])
    if (results is None) == (runs_db is None):
        raise UsageError("give either a results table (RESULTS) or a run log (--runs-db), not both or neither.")
    return _conditions(require), check_settings(**settings)


def rank(results: Results | None = None, *, runs_db: str | os.PathLike[str] | None = None, system: str = "system",
         dataset: str = "dataset", score: str = "score", fold: str | None = None, layout: str = "auto",
         metric: str | None = None, higher_is_better: bool | None = None, missing: str = "refuse",
         input_format: str | None = None, encoding: str = "utf-8", alpha: float = 0.05, control: str | None = None,
         pairs: Sequence[str | tuple[str, str]] | None = None, rope: float = 0.01, prior: float = 0.5,
         samples: int = 50_000, seed: int = 0, bayes: bool = True,
         require: str | Sequence[str | Requirement] = (), engine: Local | Dask | str | None = None) -> RankResult:
    """Rank systems over data sets: which are better, which are indistinguishable, and how probable a difference is.

    Parameters
    ----------
    results : path, table or arrays, optional
        A long or wide table of scores (see the module docstring): a file, a pandas / polars DataFrame or pyarrow
        Table, or arrays as a mapping of column name to values (``{"dataset": [...], "A": [...], "B": [...]}``);
        or give ``runs_db``.
    runs_db : path, optional
        A clfeval run log: runs grouped by data and model, ranked by ``metric``.
    system : str
        The system column of a long table.
    dataset : str
        The data-set column.
    score : str
        The score column of a long table.
    fold : str or None
        A fold column: scores averaged over folds (None: no folds).
    layout : {"auto", "long", "wide"}
        ``auto``: long when the system and score columns exist, else wide.
    metric : str, optional
        A catalogue metric name: the direction comes from the catalogue.
    higher_is_better : bool, optional
        The direction of a score that is not a catalogue metric (required then).
    missing : {"refuse", "drop"}
        A system without a (finite) score on a data set: refuse, or drop the data set (named in ``dropped``).
    input_format : str or None
        The format of a ``results`` file: ``"csv"``, ``"tsv"``, ``"jsonl"`` or ``"parquet"`` (None: from the
        extension).
    encoding : str
        ``"utf-8"`` or ``"latin-1"``: the text encoding of a CSV, TSV or JSONL ``results`` file; default ``"utf-8"``.
    alpha : float
        The level of the Friedman test, Nemenyi's critical difference and the Holm-adjusted tests; default 0.05.
    control : str, optional
        A system compared with every other (Wilcoxon, Holm over the k − 1 comparisons); also the default
        Bayesian pairs.
    pairs : sequence of str or (str, str), optional
        The Bayesian pairs: ``"A:B"`` texts or ``("A", "B")`` pairs (default each system against ``control``,
        else against the best-ranked system).
    rope : float
        The Bayesian signed-rank test's region of practical equivalence: its half-width on the score's scale;
        default 0.01.
    prior : float
        The prior weight of the Bayesian signed-rank test's pseudo-observation at 0; default 0.5.
    samples : int
        Posterior samples per Bayesian pair; default 50,000.
    seed : int
        The random seed of the posterior samples (pair n draws from ``default_rng([seed, n])``); default 0.
    bayes : bool
        The Bayesian signed-rank tests (default True); False leaves them out.
    require : str or sequence of str
        Conditions in the requirement grammar (``p_better(B,A)>=0.95``, ``in_best_group(B)``; one text is one
        condition), checked and kept in ``result.requirements``; a pair named by ``p_better`` joins the Bayesian
        pairs. A system name holding a comma is written in quotes (``in_best_group("lr, l2")``; a function of one
        system also takes the unquoted text between its parentheses as the name).
    engine : Local, "local" or None
        Where it runs (default ``Local()``): a table of systems × data sets fits in memory, so the Dask engine is
        refused, with that reason (the capability table's ``rank`` rows).

    Returns
    -------
    RankResult

    Examples
    --------
    >>> import pyarrow as pa
    >>> t = pa.table({"dataset": ["d1", "d2", "d3"], "A": [0.9, 0.7, 0.8], "B": [0.8, 0.6, 0.7]})
    >>> r = rank(t, metric="accuracy", samples=1000)
    >>> r.order, r.friedman.chi2, r.engine.mode
    (('A', 'B'), 3.0, 'memory')
    """
    eng = runner(engine).admit("rank", {"results": results is not None, "runs_db": runs_db is not None})
    parsed, o = check_rank_arguments(results, runs_db, layout=layout, missing=missing, require=require,
                                     settings={"alpha": alpha, "rope": rope, "prior": prior, "samples": samples,
                                               "seed": seed, "control": control, "pairs": pairs, "bayes": bayes})
    if runs_db is not None and metric is not None and higher_is_better is None:
        from clfeval.protocols import higher_is_better as recorded_direction

        hib = recorded_direction(metric)  # run-log names may carry a prefix (cv_macro_f1)
    else:
        hib = score_direction(metric, higher_is_better, score if runs_db is None else str(metric))
    asked = [(str(q.args[0]), str(q.args[1])) for q in parsed if q.function == "p_better"]
    checked: list[str] = []
    if runs_db is not None:
        cells, checked = _cells_runs(runs_db, metric)
        where = f"the run log {str(runs_db)!r}"
        label = str(metric)
    else:
        table, where = _as_table(results, input_format, encoding)
        long = layout == "long" or (layout == "auto" and system in table.column_names and score in table.column_names)
        cells = _cells_long(table, where, system, dataset, score, fold) if long else _cells_wide(table, where, dataset,
                                                                                                fold)
        label = metric or (score if long else "score")
    systems, datasets, x, dropped = _matrix(cells, where, missing, fold)
    check_condition_names(parsed, systems)
    notes = [f"Dropped {len(dropped)} data set(s) where a system has no finite score: {', '.join(dropped)}."] \
        if dropped else []
    if fold:
        notes.append(f"The score of a system on a data set is its mean over the folds (column {fold!r}).")
    result = rank_scores(x, systems, datasets, higher_is_better=hib, score=label, metric=metric, extra_pairs=asked,
                         notes=notes, checked=checked, dropped=dropped,
                         settings={"input": "run log" if runs_db is not None else "table", "missing": missing}, **o)
    if parsed:
        import dataclasses

        from clfeval.evaluate import check_requirements

        checked_ = check_requirements(result, parsed, applies_to="rank")
        met = RankRequirements(tuple(RankCondition.of(c) for c in checked_.conditions), tuple(checked_.notes))
        result = dataclasses.replace(result, requirements=met)
    out: RankResult = with_engine(result, eng.block("memory"))
    return out
