"""``clfeval compare A B [C ...]``: is the difference real? Each input is a PATH (a file, a directory, a glob,
``-``); the items, matched by id (by row when no input has an id column), go to :func:`clfeval.front._compare.compare`
(count metrics stream their joint tables, the id join spilling within ``--memory``; ``--engine dask`` on a cluster)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, emit, input_path, output_options, progress, reading_options, ticks
from clfeval.cli._decide import gate_exit, paired_file_options
from clfeval.cli._scale import engine_and_output, engine_options, help_note, memory_option, score_bin_options
from clfeval.cli._slices import compare_slice_options, slice_arguments
from clfeval.errors import UsageError


@click.command(epilog=help_note("compare"))
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
@click.option("--ci", "ci_level", type=float, default=0.95, show_default=True,
              help="Level of the bootstrap confidence intervals.")
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
@click.option("--label-issues", type=click.Path(path_type=Path), default=None, metavar="RESULT.json",
              help="Does the verdict survive? The JSON (or --flagged file) of label-issues, with --id: compare again "
                   "without its flagged items and with them relabelled.")
@paired_file_options
@reading_options
@memory_option("Memory budget of the id join (e.g. 512MB, 2GiB; default 1GiB): beyond it, the items are "
               "hash-partitioned to disk and joined part by part; the output says when they were.")
@score_bin_options
@compare_slice_options
@engine_options
@output_options
def compare(files: tuple[Path, ...], **o: Any) -> None:
    """Is the difference real? Compare systems on the same test items with a paired test.

    Prints both scores, the difference δ = A − B with its confidence interval, the one-sided
    p-value for "A is better than B" and one plain sentence. With three or more files, every
    pair (or each file against --baseline) is compared, with Holm-adjusted p-values. With --margin,
    NEW OLD: is the new system not worse by more than the margin? With --gate, exit 3 unless the
    test rejects its null.
    """
    if len(files) < 2:
        raise UsageError(f"compare needs at least two predictions files (A_FILE B_FILE ...); got {len(files)}.")
    labels = [f"{chr(65 + i)}_FILE" if i < 3 else f"file {i + 1}" for i in range(len(files))]
    check_paths([*zip(labels, files, strict=False), *([("--label-issues", o["label_issues"])] if o["label_issues"]
                                                      else [])], [("--output", o["output"])])
    (engine, fmt, output), gate = engine_and_output(o), o.pop("gate")
    inputs = [input_path(f, input_format=o["input_format"], encoding=o["encoding"]) for f in files]
    o.update(id=o.pop("id_col"), normalize=o.pop("normalize_labels"), ci=o.pop("ci_level"))
    slicing = slice_arguments(o)
    slicing = slicing if slicing["by"] is not None else {}
    from clfeval.front import compare as run, resampling_steps

    with progress("resampling", resampling_steps(len(files), **o)) as advance:
        result = run(*inputs, engine=engine, progress=ticks(advance), **o, **slicing)
    emit(result, fmt, output)
    gate_exit(result, gate)

