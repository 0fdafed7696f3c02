"""``clfeval compare A B [C ...]``: is the difference real?

Each input is a PATH (a file, a directory, a glob, ``-``). Items are matched by
id (by row when no input has an id column) and must carry the same gold
labels. Count metrics stream: the joint (gold, A, B) tables are counted batch
by batch, the id join through hash partitions on disk when the inputs do not
fit in memory (:mod:`clfeval.io.join`), and the paired test runs on the tables
(:mod:`clfeval.significance.streamed`); score metrics rank the items in memory
(:mod:`clfeval.significance.paired`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, emit, input_path, output_options, progress, reading_options
from clfeval.cli._decide import gate_exit, paired_file_options
from clfeval.cli._scale import engine_options, memory_option, score_bin_options
from clfeval.errors import UsageError


def _names(inputs: list[Any]) -> list[str]:
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


@click.command()
@click.argument("files", nargs=-1, type=click.Path(path_type=Path), metavar="A B [C ...]")
@click.option("--metric", "-m", default="accuracy", show_default=True,
              help="accuracy, error_rate, balanced_accuracy, mcc, kappa, macro_f1, macro_precision, macro_recall, "
                   "macro_f1_of_means, micro_f1, weighted_f1, …, f1:LABEL, npv:LABEL, lr_plus:LABEL, …; roc_auc / "
                   "average_precision with --score (`clfeval metrics` lists every name).")
@click.option("--test", "-t", "test", type=click.Choice(["bootstrap", "randomization", "mcnemar", "delong"]),
              default="bootstrap", show_default=True,
              help="Paired bootstrap (2δ rule), approximate randomization, McNemar (accuracy), or DeLong's test "
                   "(roc_auc of --score, or one-vs-rest with --scores-prefix).")
@click.option("--alternative", type=click.Choice(["greater", "two-sided"]), default="greater", show_default=True,
              help="H1: A better than B (one-sided), or A and B differ (two-sided; DeLong's test).")
@click.option("--margin", type=float, default=None, metavar="M",
              help="Non-inferiority (paired bootstrap): is A not worse than B by more than M (in the metric's units)?")
@click.option("--gate", is_flag=True,
              help="Exit 3 unless the test rejects its null (A better; with --margin, A not worse by more than M).")
@click.option("--scores-prefix", default=None, metavar="PREFIX",
              help="With --test delong: score columns PREFIX<label>, one per class (one-vs-rest, Holm-adjusted).")
@click.option("--samples", "-b", type=int, default=10_000, show_default=True, help="Replicates b (1 to 1,000,000).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Random seed: the same seed gives the same numbers.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="Significance level of the verdict.")
@click.option("--ci", "ci_level", type=float, default=0.95, show_default=True, help="Level of the bootstrap confidence intervals.")
@click.option("--ci-method", "ci_method", default=None, metavar="METHOD",
              help="The two-sided interval of δ shown as the estimate: bca (default: the best measured coverage) or "
                   "percentile; both are computed. The verdict follows the test and its own one-sided bound (basic "
                   "bootstrap; McNemar's exact test inverted), shown beside it.")
@click.option("--baseline", default=None, help="Compare each other file with this one (its name or path); "
                                                "otherwise every pair is compared.")
@click.option("--gold", default="gold", show_default=True, help="Column of gold labels (the same in every file).")
@click.option("--pred", default="pred", show_default=True, help="Column of predicted labels.")
@click.option("--score", default=None, help="Column of scores, compared with --metric roc_auc or average_precision.")
@click.option("--positive", default=None, help="Positive class of a score metric.")
@paired_file_options
@reading_options
@memory_option("Memory budget of the id join (e.g. 512MB, 2GiB; default 1GiB): beyond it, the items are "
               "hash-partitioned to disk and joined part by part; the output says when they were.")
@score_bin_options
@engine_options
@output_options
def compare(files: tuple[Path, ...], metric: str, test: str, alternative: str, margin: float | None, gate: bool,
            scores_prefix: str | None, samples: int, seed: int, alpha: float, ci_level: float, ci_method: str | None,
            baseline: str | None, gold: str, pred: str, score: str | None, positive: str | None, id_col: str | None,
            input_format: str | None, zero_division: str, beta: float, repeat: str | None, encoding: str,
            normalize_labels: str | None, memory: str | None, score_bins: int | None, score_binning: str, engine: str,
            scheduler: str | None, fmt: str, output: Path | None) -> None:
    """Is the difference real? Compare systems on the same test items with a paired test.

    Prints both scores, the difference δ = A − B with its confidence interval, the one-sided
    p-value for "A is better than B" and one plain sentence. With three or more files, every
    pair (or each file against --baseline) is compared, with Holm-adjusted p-values. With --margin,
    NEW OLD: is the new system not worse by more than the margin? With --gate, exit 3 unless the
    test rejects its null.
    """
    from clfeval.core.validation import check_beta, check_probability, check_samples
    from clfeval.significance.paired import SCORE_METRICS, check_metric

    if len(files) < 2:
        raise UsageError(f"compare needs at least two predictions files (A_FILE B_FILE ...); got {len(files)}.")
    labels = [f"{chr(65 + i)}_FILE" if i < 3 else f"file {i + 1}" for i in range(len(files))]
    check_paths(list(zip(labels, files)), [("--output", output)])
    samples = check_samples(samples, option="--samples")
    check_probability(alpha, option="--alpha")
    check_probability(ci_level, option="--ci")
    check_beta(beta, option="--beta")
    check_metric(metric)
    from clfeval.significance.results import check_estimate, with_estimate

    estimate = check_estimate(ci_method, test)
    _check_decision(len(files), test, metric, alternative, margin, score, scores_prefix)
    from clfeval.cli._scale import check_engine, check_memory

    budget = check_memory(memory)
    if score_bins is not None:
        _check_binned(len(files), metric, test, alternative, margin, score, positive)
    dask = check_engine(engine, scheduler, {"--score": score is not None, "--scores-prefix": scores_prefix is not None,
                                            "--margin": margin is not None,
                                            "--alternative two-sided": alternative != "greater",
                                            "--repeat": repeat is not None,
                                            "more than two files": len(files) != 2, "--test delong": test == "delong"})
    inputs = [input_path(f, input_format=input_format, encoding=encoding) for f in files]
    names = _names(inputs)
    if baseline is not None:
        matches = [n for n, i in zip(names, inputs) if baseline in (n, i.given, Path(i.given).name, i.stem)]
        if not matches:
            raise UsageError(f"option --baseline names {baseline!r}, which is none of the files: {', '.join(names)}.")
        baseline = matches[0]
    if scores_prefix is not None:  # DeLong one-vs-rest: every class's score column of both files
        from clfeval.cli._decide import read_score_columns
        from clfeval.significance.paired import compare as compare_two

        order = [0, 1] if baseline != names[0] else [1, 0]
        gold_col, cols = read_score_columns([inputs[i] for i in order], gold=gold, prefix=scores_prefix, id_col=id_col,
                                            encoding=encoding, normalize=normalize_labels, repeat=repeat)
        result = compare_two(gold_col, cols[0], cols[1], metric=metric, test=test, alpha=alpha, ci=ci_level,
                             alternative=alternative, names=(names[order[0]], names[order[1]]))
        emit(result, fmt, output)
        gate_exit(result, gate)
        return
    scored = metric in SCORE_METRICS
    if scored and not score:
        raise UsageError(f"metric {metric!r} compares scores: name the score column with --score.")
    pairs = (len(inputs) - 1) if baseline is not None else len(inputs) * (len(inputs) - 1) // 2
    total = samples * pairs * (2 if test == "randomization" else 1)
    common = dict(metric=metric, test=test, samples=samples, seed=seed, alpha=alpha, ci=ci_level,
                  zero_division=zero_division, beta=beta)
    if len(inputs) == 2:
        common.update(alternative=alternative, margin=margin)
    with progress("resampling", total) as advance:
        state = {"last": 0}

        def tick(done: int, _total: int) -> None:
            advance(done - state["last"])
            state["last"] = done

        if dask:
            result = _on_dask(inputs, names, baseline, gold, pred, id_col, scheduler, common, normalize_labels)
        elif score_bins is not None:
            result = _binned(inputs, names, baseline, gold, score, positive, id_col, repeat, normalize_labels, tick,
                             common, budget, score_bins, score_binning)
        elif scored:
            result = _scores_in_memory(inputs, names, baseline, gold, score, positive, id_col, repeat,
                                       normalize_labels, tick, common)
        else:
            result = _streamed(inputs, names, baseline, gold, pred, id_col, repeat, normalize_labels, tick, common,
                               budget)
    result = with_estimate(result, estimate)
    emit(result, fmt, output)
    gate_exit(result, gate)


def _check_decision(n_files: int, test: str, metric: str, alternative: str, margin: float | None, score: str | None,
                    prefix: str | None) -> None:
    """The options of DeLong's test, the margin and the alternative, checked before any file is read."""
    from clfeval.significance.delong import check_delong
    from clfeval.significance.noninferiority import check_margin
    from clfeval.significance.paired import one_sided

    if test == "delong":
        check_delong(metric, margin)
        if n_files != 2:
            raise UsageError(f"--test delong compares two systems (A_FILE B_FILE); got {n_files} files.")
        if (score is None) == (prefix is None):
            raise UsageError("--test delong ranks scores: give --score COLUMN (with --positive) or --scores-prefix "
                             "PREFIX (one column PREFIX<label> per class: one-vs-rest), exactly one of them.")
        return
    if prefix is not None:
        raise UsageError("option --scores-prefix applies to --test delong (one-vs-rest ROC-AUCs); for other tests "
                         "give one --score column with --positive.")
    one_sided(test, alternative)
    if margin is not None:
        check_margin(margin, test)
        _check_margin_range(margin, metric)
        if n_files != 2:
            raise UsageError(f"option --margin tests one new system against one old one (NEW_FILE OLD_FILE); got "
                             f"{n_files} files.")


def _check_margin_range(margin: float, metric: str) -> None:
    """A margin no wider than the metric's range (``--margin 1e308`` is no margin at all)."""
    import math

    from clfeval.core.catalog import find

    found = find(metric)
    lo, hi = found[0].range if found is not None else (-math.inf, math.inf)
    width = hi - lo if math.isfinite(hi - lo) else 1e6
    if margin > width:
        raise UsageError(f"option --margin (how much worse still counts as not worse) must be a number from 0 to "
                         f"{width:g}, the width of the range of {metric} ({lo:g} to {hi:g}); got {margin:g}.")


def _check_binned(n_files: int, metric: str, test: str, alternative: str, margin: float | None, score: str | None,
                  positive: str | None) -> None:
    """The options of a binned comparison (``--score-bins``), checked before any file is read."""
    if metric != "roc_auc":
        raise UsageError(f"option --score-bins compares binned ROC-AUCs: give --metric roc_auc (got {metric!r}); "
                         f"count metrics need no bins.")
    if score is None or positive is None:
        raise UsageError("option --score-bins bins a score column: name it with --score, and the class it ranks "
                         "with --positive.")
    if n_files != 2:
        raise UsageError(f"option --score-bins compares two systems (A_FILE B_FILE); got {n_files} files.")
    if test not in ("bootstrap", "randomization"):
        raise UsageError(f"option --score-bins runs the paired bootstrap or randomization on the binned table; "
                         f"--test {test} is not offered there.")
    if margin is not None or alternative != "greater":
        raise UsageError("option --score-bins tests 'A better than B' (one-sided, no --margin); leave out "
                         "--margin and --alternative two-sided.")


def _binned(inputs: list[Any], names: list[str], baseline: str | None, gold: str, score: str, positive: str,
            id_col: str | None, repeat: str | None, normalize: str | None, tick: Any, common: dict[str, Any],
            budget: int, bins: int, kind: str) -> Any:
    """``--score-bins``: each system's bins from a first pass, then the joint binned table of the matched items."""
    from clfeval.io.join import Matching, aligned
    from clfeval.io.predictions import iter_predictions
    from clfeval.significance.binnedcompare import compare_binned_batches

    order = [0, 1] if baseline != names[0] else [1, 0]
    ins, nm = [inputs[i] for i in order], [names[i] for i in order]

    def readers() -> list[Any]:
        return [iter_predictions(i, gold=gold, pred=score, id=id_col, pred_option="--score", normalize=normalize)
                for i in ins]

    settings = {k: common[k] for k in ("test", "samples", "seed", "alpha", "ci")}
    return compare_binned_batches(readers(), aligned(readers(), nm, repeat=repeat, budget=budget, matching=Matching()),
                                  bins=bins, kind=kind, positive=positive, score=score, names=nm, progress=tick,
                                  **settings)


def _on_dask(inputs: list[Any], names: list[str], baseline: str | None, gold: str, pred: str, id_col: str | None,
             scheduler: str | None, common: dict[str, Any], normalize: str | None = None) -> Any:
    """``--engine dask``: the two inputs joined by id (or row) on a Dask cluster, one joint table."""
    from clfeval.cli._scale import dask_client, dask_paths
    from clfeval.dask.counting import compare as dask_compare
    from clfeval.io.readers import column_names

    order = [0, 1] if baseline != names[0] else [1, 0]
    ins, nm = [inputs[i] for i in order], [names[i] for i in order]
    paths = [dask_paths(i, label) for i, label in zip(ins, ("A_FILE", "B_FILE"))]
    if id_col is None:
        first = ins[0].sources[0]
        id_col = "id" if "id" in column_names(first, input_format=ins[0].fmt, encoding=first.encoding) else None
    settings = {k: common[k] for k in ("metric", "test", "samples", "seed", "alpha", "ci", "zero_division", "beta")}
    with dask_client(scheduler) as client:
        return dask_compare(paths[0], paths[1], gold=gold, pred=pred, id=id_col, names=nm, client=client,
                            normalize=normalize, **settings)


def _streamed(inputs: list[Any], names: list[str], baseline: str | None, gold: str, pred: str, id_col: str | None,
              repeat: str | None, normalize: str | None, tick: Any, common: dict[str, Any], budget: int) -> Any:
    """Count metrics: the joint tables counted batch by batch from inputs matched by id (or row)."""
    from clfeval.io.join import Matching, aligned
    from clfeval.io.predictions import iter_predictions
    from clfeval.significance.streamed import compare_stream

    readers = [iter_predictions(i, gold=gold, pred=pred, id=id_col, normalize=normalize) for i in inputs]
    matching = Matching()
    batches = aligned(readers, names, repeat=repeat, matching=matching, budget=budget, weighted=True)
    return compare_stream(batches, names, baseline=baseline, describe=matching.describe, progress=tick, **common)


def _scores_in_memory(inputs: list[Any], names: list[str], baseline: str | None, gold: str, score: str,
                      positive: str | None, id_col: str | None, repeat: str | None, normalize: str | None, tick: Any,
                      common: dict[str, Any]) -> Any:
    """Score metrics rank every item: the inputs are read into memory and aligned there."""
    import dataclasses

    import pyarrow as pa

    from clfeval.io.align import align_predictions, one_repeat
    from clfeval.io.predictions import read_predictions
    from clfeval.scores.columns import as_scores
    from clfeval.significance.paired import compare as compare_two, compare_many

    read = [read_predictions(i, gold=gold, pred=score, id=id_col, pred_option="--score", normalize=normalize)
            for i in inputs]
    # numbers, checked per file so that a bad cell is named by its own row
    read = [dataclasses.replace(r, pred=pa.chunked_array([as_scores(r.pred, name=score, where=lambda i, _r=r: (
        f"row {i + 1} of {_r.path!r}" if len(_r.parts) < 2 else _r.where(i)), order_only=True)]))
            for r in read]  # score metrics are rankings: integer scores ranked exactly
    read = [one_repeat(r, repeat) for r in read]
    gold_col, pred_cols, _ = align_predictions(read, scores=True)
    if len(inputs) == 2:
        order = [0, 1] if baseline != names[0] else [1, 0]
        return compare_two(gold_col, pred_cols[order[0]], pred_cols[order[1]], names=(names[order[0]], names[order[1]]),
                           progress=tick, positive=positive, **common)
    return compare_many(gold_col, dict(zip(names, pred_cols)), baseline=baseline, progress=tick, positive=positive,
                        **common)
